import * as assert from "node:assert/strict";
import { describe, it } from "node:test";

import { describeFileStatus } from "../fileStatus";

describe("file status", () => {
  it("names the era and why", () => {
    const text = describeFileStatus({
      uri: "file:///w/src/lib.rs",
      analyzed: true,
      era: "checkpointing",
      reason: "burn 0.22.0-pre.2 in Cargo.lock (`checkpointing` field API)",
      notes: [],
    });
    assert.equal(text, "era: checkpointing (burn 0.22.0-pre.2 in Cargo.lock (`checkpointing` field API))");
  });

  it("adds the analyzer's notes", () => {
    const text = describeFileStatus({ analyzed: true, era: "context", reason: "r", notes: ["analysis stopped in `f` after 5s; findings may be incomplete"] });
    assert.equal(text, "era: context (r)\nnote: analysis stopped in `f` after 5s; findings may be incomplete");
  });

  it("says nothing when the server has nothing to say", () => {
    assert.equal(describeFileStatus(null), undefined);
    assert.equal(describeFileStatus("x"), undefined);
    assert.equal(describeFileStatus({ analyzed: false, era: "", reason: "", notes: [] }), undefined);
  });
});
