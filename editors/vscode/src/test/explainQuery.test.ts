import * as assert from "node:assert/strict";
import { describe, it } from "node:test";

import { codeOf, markdownOf, pickQuery, previewName } from "../explainQuery";

describe("explain query", () => {
  it("prefers a selection (a pasted panic)", () => {
    const q = pickQuery({ selection: "  an autodiff float primitive must have an enabled autodiff context\n", diagnosticsAtCursor: [{ source: "burnlint", code: "BD001" }] });
    assert.equal(q, "an autodiff float primitive must have an enabled autodiff context");
  });

  it("uses the burnlint diagnostic under the cursor", () => {
    const q = pickQuery({ diagnosticsAtCursor: [{ source: "rustc", code: "E0308" }, { source: "burnlint", code: { value: "BD004" } }] });
    assert.equal(q, "BD004");
  });

  it("uses a code word under the cursor, else asks", () => {
    assert.equal(pickQuery({ diagnosticsAtCursor: [], wordAtCursor: "bd002" }), "BD002");
    assert.equal(pickQuery({ diagnosticsAtCursor: [], wordAtCursor: "matmul" }), undefined);
    assert.equal(pickQuery({ diagnosticsAtCursor: [] }), undefined);
  });

  it("reads codes in every shape", () => {
    assert.equal(codeOf("BD001"), "BD001");
    assert.equal(codeOf({ value: "BD003" }), "BD003");
    assert.equal(codeOf(undefined), undefined);
  });

  it("accepts string and object results", () => {
    assert.equal(markdownOf("### BD001"), "### BD001");
    assert.equal(markdownOf({ markdown: "x" }), "x");
    assert.equal(markdownOf(null), undefined);
    assert.equal(markdownOf("  "), undefined);
  });

  it("names the preview after the code", () => {
    assert.equal(previewName("### BD001 `autodiff-in-disabled-context`", "panic text"), "BD001.md");
    assert.equal(previewName("no code", "bd005"), "BD005.md");
    assert.equal(previewName("nothing", "panic"), "explain.md");
  });
});
