"""The diagnostics the server publishes as JSON text it made once per finding (`lsp.wire`) are
exactly what lsprotocol's converter would have written, for every version they are stamped
with."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

# The reference for the JSON: the protocol library's own converter, as a client would use it.
from lsprotocol import types  # noqa: TID251
from pygls.protocol import default_converter  # noqa: TID251

from burnlint.analysis.engine import Options
from burnlint.analyzing import LazyAnalyzer
from burnlint.kb.load import load_kb
from burnlint.lsp import jobs
from burnlint.lsp.convert import ConvertOptions
from burnlint.lsp.crates import CrateCache
from burnlint.lsp.wire import publication, wire_of

pytestmark = pytest.mark.timeout(60)

DEMO = Path(__file__).resolve().parents[2] / "examples" / "dispatch-demo"
CONVERTER = default_converter()


def _job(path: Path, version: int, text: str) -> jobs.Job:
    convert = ConvertOptions("utf-16", {}, "https://example.invalid/{code}", True, True)
    buffers = {path: jobs.Buffer(path.as_uri(), version, text)}
    return jobs.Job(path, buffers, None, Options(), False, convert, frozenset(), 0)


def _unstructured(diagnostic: types.Diagnostic) -> Any:
    # Through JSON, as a client reads it (tuples become lists).
    return json.loads(json.dumps(CONVERTER.unstructure(diagnostic)))


def test_wire_json_is_what_lsprotocol_writes_for_every_version(tmp_path: Path) -> None:
    cache = CrateCache(LazyAnalyzer(load_kb()))
    path = DEMO / "src" / "infer.rs"
    text = path.read_text(encoding="utf-8")
    first = jobs.run_job(cache, _job(path, 1, text))
    # The same text as another version: the diagnostics are reused and stamped again.
    second = jobs.run_job(cache, _job(path, 2, text))
    files = [f for f in (*first.files, *second.files) if f.diagnostics]
    assert files, "the demo crate must have findings"
    for file in files:
        assert len(file.wire) == len(file.diagnostics)
        for diagnostic, wire in zip(file.diagnostics, file.wire, strict=True):
            assert json.loads(wire) == _unstructured(diagnostic)
        params = types.PublishDiagnosticsParams(file.uri, file.diagnostics, file.version)
        expected = json.loads(json.dumps(CONVERTER.unstructure(params)))
        assert json.loads(publication(file.uri, file.version, file.wire)) == expected
    versions = {json.loads(w)["data"]["version"] for f in second.files for w in f.wire}
    assert versions <= {2}


def test_lean_wire_json_leaves_out_only_the_fixes() -> None:
    """For an editor that resolves code action edits: the same JSON as lsprotocol writes,
    without the data's `fixes` (the server keeps the diagnostic whole)."""
    cache = CrateCache(LazyAnalyzer(load_kb()))
    path = DEMO / "src" / "quant.rs"
    job = _job(path, 1, path.read_text(encoding="utf-8"))
    job = jobs.Job(
        job.anchor,
        job.buffers,
        None,
        Options(),
        False,
        ConvertOptions("utf-16", {}, None, True, True, lean_fixes=True),
        frozenset(),
        0,
    )
    result = jobs.run_job(cache, job)
    pairs = [(d, w) for f in result.files for d, w in zip(f.diagnostics, f.wire, strict=True)]
    fixed = [(d, w) for d, w in pairs if d.data and d.data.get("fixes")]  # type: ignore[union-attr]
    assert fixed, "quant.rs has findings with fixes"
    for diagnostic, wire in fixed:
        expected = _unstructured(diagnostic)
        assert expected["data"].pop("fixes")
        assert json.loads(wire) == expected
        # The server's own copy keeps the edits.
        assert all("edits" in f for f in diagnostic.data["fixes"])  # type: ignore[index]


@pytest.mark.parametrize("data", [None, {"version": 3}, {"code": "BD001", "fixes": []}, 7])
def test_any_data_and_text_round_trip(data: Any) -> None:
    diagnostic = types.Diagnostic(
        range=types.Range(types.Position(0, 1), types.Position(2, 3)),
        message='tensor `é😀` "quoted" \\ back',
        severity=types.DiagnosticSeverity.Warning,
        data=data,
    )
    wire = wire_of(diagnostic)
    parsed = json.loads(wire.stamped(9))
    assert parsed["data"]["version"] == 9
    expected = _unstructured(diagnostic)
    rest = dict(data) if isinstance(data, dict) else {}
    rest["version"] = 9
    expected["data"] = rest
    assert parsed == expected
    assert json.loads(wire.stamped(None))["data"]["version"] is None
    assert (
        publication("file:///x%20y.rs", None, [])
        == '{"uri": "file:///x%20y.rs", "diagnostics": []}'
    )


def test_a_character_typed_above_converts_no_finding_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = DEMO / "src" / "infer.rs"
    text = path.read_text(encoding="utf-8")
    cache = CrateCache(LazyAnalyzer(load_kb()))
    before = jobs.run_job(cache, _job(path, 1, text))
    converted: list[object] = []
    convert = jobs.to_lsp_diagnostic

    def counting(*args: Any) -> types.Diagnostic:
        converted.append(args[0])
        return convert(*args)

    monkeypatch.setattr(jobs, "to_lsp_diagnostic", counting)
    # A character typed in the first line moves every finding's bytes, no line or column.
    first_line_end = text.index("\n")
    edited = text[:first_line_end] + "x" + text[first_line_end:]
    after = jobs.run_job(cache, _job(path, 2, edited))
    reused = list(converted)
    fresh = jobs.run_job(CrateCache(LazyAnalyzer(load_kb())), _job(path, 2, edited))
    shown = [(f.uri, [_unstructured(d) for d in f.diagnostics]) for f in after.files]
    assert shown == [(f.uri, [_unstructured(d) for d in f.diagnostics]) for f in fresh.files]
    assert sum(len(f.diagnostics) for f in before.files) > 0
    assert reused == []
    assert len(converted) == sum(len(f.diagnostics) for f in fresh.files)
