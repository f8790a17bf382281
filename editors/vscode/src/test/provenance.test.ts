import * as assert from "node:assert/strict";
import { describe, it } from "node:test";

import { parseProvenance, provenanceTarget } from "../provenance";

const step = (line: number, text: string) => ({
  uri: "file:///crate/src/quant.rs",
  range: { start: { line, character: 4 }, end: { line, character: 9 } },
  text,
});

describe("provenance", () => {
  it("keeps the path in flow order", () => {
    const parsed = parseProvenance({
      uri: "file:///crate/src/quant.rs",
      position: { line: 15, character: 14 },
      locations: [step(12, "autodiff device created here"), step(13, "autodiff tensor created here"), step(15, "BD001: ...")],
    });
    assert.ok(parsed);
    assert.deepEqual(
      parsed.steps.map((s) => s.text),
      ["autodiff device created here", "autodiff tensor created here", "BD001: ..."],
    );
    assert.deepEqual(parsed.position, { line: 15, character: 14 });
  });

  it("refuses answers that are not a provenance", () => {
    assert.equal(parseProvenance(undefined), undefined);
    assert.equal(parseProvenance("BD001"), undefined);
    assert.equal(parseProvenance({ uri: "file:///x", position: { line: 1, character: 0 }, locations: [] }), undefined);
    assert.equal(parseProvenance({ uri: "file:///x", position: { line: 1 }, locations: [step(1, "x")] }), undefined);
  });

  it("reads a code action's arguments", () => {
    assert.deepEqual(provenanceTarget(["file:///x", 3, 7]), { uri: "file:///x", line: 3, character: 7 });
    assert.equal(provenanceTarget([]), undefined);
    assert.equal(provenanceTarget(["file:///x", "3", 7]), undefined);
  });
});
