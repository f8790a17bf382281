"""The SARIF report on real analyzer findings: schema-valid, internally consistent, stable.

`data/sarif-schema-2.1.0.json` is the OASIS SARIF 2.1.0 schema (errata01, oasis-tcs/sarif-spec
`sarif-2.1/schema/sarif-schema-2.1.0.json` at e0583813), copied so the tests run on a clean
clone; its licence notice is `data/SARIF-LICENSE.md`. It is JSON Schema draft-04.

The snapshot of each format is in tests/cli/test_snapshots.py.
"""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import jsonschema
import pytest

from burnlint import __version__
from burnlint.analysis.engine import Analyzer
from burnlint.analysis.findings import Finding
from burnlint.analysis.rules.suppress import Suppressed
from burnlint.checking import CheckRun, Request, check
from burnlint.kb.load import load_kb
from burnlint.report.sarif import FINGERPRINT_KEY, SRCROOT, render_sarif, rule_name

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
EXAMPLE = "examples/dispatch-demo"
SCHEMA = json.loads((HERE / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
ENTRIES = load_kb()
ANALYZER = Analyzer(ENTRIES)
BUGGY_FUNCTION = """
pub fn {name}(q_w: DispatchTensor, data: TensorData) -> DispatchTensor {{
    let x = Dispatch::float_from_data(data, &ad_device());
{allow}    dispatch::q_matmul(x, q_w, Ctx::Disabled)
}}
"""
BUGGY_HEADER = """use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}
"""


def buggy_source(*functions: tuple[str, str]) -> str:
    """A file with one BD001 per function; `allow` is a comment line put above the bad call."""
    body = "".join(
        BUGGY_FUNCTION.format(name=name, allow=f"    {allow}\n" if allow else "")
        for name, allow in functions
    )
    return BUGGY_HEADER + body


def run_check(*paths: str) -> CheckRun:
    run = check(ANALYZER, Request(paths=paths))
    assert not run.problems, run.problems
    return run


def findings_of(run: CheckRun) -> list[Finding]:
    return sorted((f for r in run.results for f in r.findings), key=lambda f: f.sort_key)


def suppressed_of(run: CheckRun) -> list[Suppressed]:
    return [s for r in run.results for s in r.suppressed]


def render(
    run: CheckRun,
    root: Path,
    *,
    docs_url: str | None = None,
    problems: tuple[str, ...] = (),
) -> dict[str, Any]:
    text = render_sarif(
        findings_of(run),
        suppressed_of(run),
        ENTRIES,
        root=root,
        docs_url=docs_url,
        problems=problems,
        texts=run.texts,
    )
    return json.loads(text)


@pytest.fixture(scope="module")
def example() -> tuple[CheckRun, str]:
    """The example crate checked from the repository root with a relative path, as a user
    would, and its SARIF log."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        run = run_check(EXAMPLE)
        assert len(findings_of(run)) >= 3
        text = render_sarif(
            findings_of(run),
            suppressed_of(run),
            ENTRIES,
            root=ROOT,
            docs_url=None,
            problems=[],
            texts=run.texts,
        )
    return run, text


def validate(log: dict[str, Any]) -> None:
    validator = jsonschema.Draft4Validator(
        SCHEMA, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER
    )
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])


def physical_locations(result: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every physicalLocation a result mentions (fix regions excluded)."""
    for location in result["locations"]:
        yield location["physicalLocation"]
    for related in result.get("relatedLocations", []):
        yield related["physicalLocation"]
    for flow in result.get("codeFlows", []):
        for thread in flow["threadFlows"]:
            for step in thread["locations"]:
                yield step["location"]["physicalLocation"]
    for suppression in result.get("suppressions", []):
        if "location" in suppression:
            yield suppression["location"]["physicalLocation"]


def local_path(log: dict[str, Any], artifact: dict[str, Any]) -> Path:
    """The file an artifactLocation names, resolved against the run's base ids."""
    uri = artifact["uri"]
    if "uriBaseId" in artifact:
        base = log["runs"][0]["originalUriBaseIds"][artifact["uriBaseId"]]["uri"]
        uri = base + uri
    parsed = urlparse(uri)
    assert parsed.scheme == "file", uri
    return Path(unquote(parsed.path))


# --- schema and structure ----------------------------------------------------------------------


def test_example_log_validates_against_the_sarif_schema(example: tuple[CheckRun, str]) -> None:
    log = json.loads(example[1])
    validate(log)
    assert log["version"] == "2.1.0"
    assert len(log["runs"]) == 1
    run = log["runs"][0]
    # The schema does not require columnKind, but SARIF 2.1.0 section 3.14.27 does when
    # results carry columns.
    assert run["columnKind"] == "unicodeCodePoints"
    driver = run["tool"]["driver"]
    assert driver["name"] == "burnlint"
    assert driver["version"] == driver["semanticVersion"] == __version__
    assert run["invocations"] == [{"executionSuccessful": True}]
    assert len(run["results"]) == len(findings_of(example[0]))


def test_every_variant_validates(tmp_path: Path) -> None:
    """Suppressed results, help URIs, problems and files outside root are schema-valid too."""
    source = tmp_path / "lib.rs"
    source.write_text(
        buggy_source(("a", ""), ("b", "// burnlint: allow(BD001) checked by hand")),
        encoding="utf-8",
    )
    run = run_check(str(source))
    log = render(
        run,
        tmp_path / "elsewhere",
        docs_url="https://team.example/burnlint/{code}.html",
        problems=("x.rs: not valid UTF-8 (byte 3); skipped",),
    )
    validate(log)
    assert any(r["suppressions"] for r in log["runs"][0]["results"])


def test_one_rule_per_entry_sorted_with_levels_and_help(example: tuple[CheckRun, str]) -> None:
    rules = json.loads(example[1])["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == sorted(e.id for e in ENTRIES)
    levels = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}
    for rule, entry in zip(rules, sorted(ENTRIES, key=lambda e: e.id), strict=True):
        assert rule["name"] == rule_name(entry.slug)
        assert re.fullmatch(r"[A-Z][A-Za-z0-9]*", rule["name"])
        assert rule["shortDescription"]["text"] == entry.title
        assert rule["fullDescription"]["text"] == entry.summary
        assert rule["defaultConfiguration"]["level"] == levels[entry.severity]
        assert rule["properties"]["tags"] == [entry.category]
        assert "helpUri" not in rule
        markdown, text = rule["help"]["markdown"], rule["help"]["text"]
        assert "## What it means" in markdown and "## How to fix" in markdown
        assert "```rust" in markdown and "```" not in text
        assert entry.message in markdown and entry.message in text
        assert "What it means:" in text and "How to fix:" in text


def test_rule_name_is_pascal_case() -> None:
    assert rule_name("autodiff-in-disabled-context") == "AutodiffInDisabledContext"
    assert rule_name("mixed-backends") == "MixedBackends"


def test_help_uri_only_with_docs_url_and_placeholders_substituted() -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        run = run_check(EXAMPLE)
    entries = sorted(ENTRIES, key=lambda e: e.id)
    rules = render(run, ROOT, docs_url="https://team.example/burnlint/{code}.html")["runs"][0][
        "tool"
    ]["driver"]["rules"]
    assert [r["helpUri"] for r in rules] == [
        f"https://team.example/burnlint/{e.id}.html" for e in entries
    ]
    rules = render(run, ROOT, docs_url="https://docs.example/{slug}?c={code}")["runs"][0]["tool"][
        "driver"
    ]["rules"]
    assert [r["helpUri"] for r in rules] == [
        f"https://docs.example/{e.slug}?c={e.id}" for e in entries
    ]
    rules = render(run, ROOT, docs_url=None)["runs"][0]["tool"]["driver"]["rules"]
    assert all("helpUri" not in rule for rule in rules)


def test_rule_index_points_at_the_rule_with_that_id(example: tuple[CheckRun, str]) -> None:
    run = json.loads(example[1])["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert run["results"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]


def test_results_mirror_the_findings(example: tuple[CheckRun, str]) -> None:
    findings = findings_of(example[0])
    results = json.loads(example[1])["runs"][0]["results"]
    levels = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}
    assert {r["level"] for r in results} >= {"error", "warning"}
    for finding, result in zip(findings, results, strict=True):
        assert result["ruleId"] == finding.code
        assert result["level"] == levels[finding.severity]
        assert finding.message in result["message"]["text"]
        assert finding.panic in result["message"]["text"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert (region["startLine"], region["startColumn"]) == (
            finding.range.start.line + 1,
            finding.range.start.character + 1,
        )
        assert (region["endLine"], region["endColumn"]) == (
            finding.range.end.line + 1,
            finding.range.end.character + 1,
        )
        assert result["suppressions"] == []


def test_related_locations_have_unique_ids_and_messages(example: tuple[CheckRun, str]) -> None:
    findings = findings_of(example[0])
    results = json.loads(example[1])["runs"][0]["results"]
    assert any(r.get("relatedLocations") for r in results)
    for finding, result in zip(findings, results, strict=True):
        related = result.get("relatedLocations", [])
        ids = [r["id"] for r in related]
        assert len(ids) == len(set(ids))
        assert [r["message"]["text"] for r in related] == [r.message for r in finding.related]


def test_code_flow_walks_the_related_locations_to_the_sink(
    example: tuple[CheckRun, str],
) -> None:
    results = json.loads(example[1])["runs"][0]["results"]
    flows = 0
    for result in results:
        if not result.get("relatedLocations"):
            assert "codeFlows" not in result
            continue
        [flow] = result["codeFlows"]
        [thread] = flow["threadFlows"]
        steps = [step["location"] for step in thread["locations"]]
        assert steps[-1]["physicalLocation"] == result["locations"][0]["physicalLocation"]
        assert [s["physicalLocation"] for s in steps[:-1]] == [
            r["physicalLocation"] for r in result["relatedLocations"]
        ]
        flows += 1
    assert flows


def test_regions_lie_inside_their_files_and_snippets_match(
    example: tuple[CheckRun, str],
) -> None:
    log = json.loads(example[1])
    lines: dict[Path, list[str]] = {}
    for result in log["runs"][0]["results"]:
        regions = [(p["artifactLocation"], p["region"]) for p in physical_locations(result)]
        for fix in result.get("fixes", []):
            for change in fix["artifactChanges"]:
                regions.extend(
                    (change["artifactLocation"], r["deletedRegion"]) for r in change["replacements"]
                )
        for artifact, region in regions:
            path = local_path(log, artifact)
            if path not in lines:
                lines[path] = path.read_text(encoding="utf-8").split("\n")
            text = lines[path]
            assert 1 <= region["startLine"] <= region["endLine"] <= len(text)
            assert 1 <= region["startColumn"] <= len(text[region["startLine"] - 1]) + 1
            assert 1 <= region["endColumn"] <= len(text[region["endLine"] - 1]) + 1
            if region["startLine"] == region["endLine"]:
                assert region["startColumn"] <= region["endColumn"]
            if "snippet" in region:
                first, last = region["startLine"] - 1, region["endLine"] - 1
                joined = "\n".join(text[first : last + 1])
                start = region["startColumn"] - 1
                end = len(joined) - len(text[last]) + region["endColumn"] - 1
                assert region["snippet"]["text"] == joined[start:end]
    assert lines


def test_fixes_carry_safety_and_replacements(example: tuple[CheckRun, str]) -> None:
    findings = findings_of(example[0])
    results = json.loads(example[1])["runs"][0]["results"]
    assert any(f.fixes for f in findings)
    for finding, result in zip(findings, results, strict=True):
        fixes = result.get("fixes", [])
        assert len(fixes) == len(finding.fixes)
        for fix, sarif_fix in zip(finding.fixes, fixes, strict=True):
            assert sarif_fix["description"]["text"] == f"{fix.title} ({fix.safety})"
            replacements = [
                r for change in sarif_fix["artifactChanges"] for r in change["replacements"]
            ]
            assert sorted(r["insertedContent"]["text"] for r in replacements) == sorted(
                edit.new_text for edit in fix.edits
            )
            for edit in fix.edits:
                assert {
                    "startLine": edit.range.start.line + 1,
                    "startColumn": edit.range.start.character + 1,
                    "endLine": edit.range.end.line + 1,
                    "endColumn": edit.range.end.character + 1,
                } in [r["deletedRegion"] for r in replacements]


# --- paths -------------------------------------------------------------------------------------


def test_paths_under_root_are_relative_to_srcroot(example: tuple[CheckRun, str]) -> None:
    log = json.loads(example[1])
    base = log["runs"][0]["originalUriBaseIds"][SRCROOT]["uri"]
    assert base == ROOT.as_uri() + "/"
    for result in log["runs"][0]["results"]:
        for location in physical_locations(result):
            artifact = location["artifactLocation"]
            assert artifact["uriBaseId"] == SRCROOT
            assert artifact["uri"].startswith(f"{EXAMPLE}/src/")
            assert local_path(log, artifact).is_file()


def test_paths_are_percent_encoded_and_outside_root_absolute(tmp_path: Path) -> None:
    folder = tmp_path / "my crate ü"
    folder.mkdir()
    source = folder / "lib #1.rs"
    source.write_text(buggy_source(("a", "")), encoding="utf-8")
    run = run_check(str(source))
    inside = render(run, tmp_path)["runs"][0]["results"][0]
    artifact = inside["locations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact == {"uri": "my%20crate%20%C3%BC/lib%20%231.rs", "uriBaseId": SRCROOT}
    outside = render(run, tmp_path / "other")["runs"][0]["results"][0]
    artifact = outside["locations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact == {"uri": source.as_uri()}
    assert "%20" in artifact["uri"]


def test_relative_finding_paths_resolve_against_the_working_directory(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "lib.rs").write_text(buggy_source(("a", "")), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path / "src")
        run = run_check("lib.rs")
        log = render(run, Path(".."))
    assert log["runs"][0]["originalUriBaseIds"][SRCROOT]["uri"] == tmp_path.as_uri() + "/"
    artifact = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert artifact["artifactLocation"] == {"uri": "src/lib.rs", "uriBaseId": SRCROOT}


# --- fingerprints ------------------------------------------------------------------------------


def _fingerprints(log: dict[str, Any]) -> Counter[tuple[str, str, str]]:
    return Counter(
        (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["partialFingerprints"][FINGERPRINT_KEY],
        )
        for r in log["runs"][0]["results"]
    )


def test_fingerprints_survive_blank_lines_above_findings(tmp_path: Path) -> None:
    crate = tmp_path / "dispatch-demo"
    shutil.copytree(ROOT / EXAMPLE, crate)
    before = render(run_check(str(crate)), tmp_path)
    for name in ("infer.rs", "quant.rs", "train.rs"):
        path = crate / "src" / name
        text = path.read_text(encoding="utf-8")
        # Blank lines at the top and in the middle: every finding moves, nothing else changes.
        middle = text.index("\n", len(text) // 3)
        path.write_text("\n\n\n" + text[:middle] + "\n\n" + text[middle:], encoding="utf-8")
    after = render(run_check(str(crate)), tmp_path)
    lines_before = [
        r["locations"][0]["physicalLocation"]["region"]["startLine"]
        for r in before["runs"][0]["results"]
    ]
    lines_after = [
        r["locations"][0]["physicalLocation"]["region"]["startLine"]
        for r in after["runs"][0]["results"]
    ]
    assert all(a > b for a, b in zip(lines_after, lines_before, strict=True))
    assert _fingerprints(before) == _fingerprints(after)


def test_distinct_findings_get_distinct_fingerprints(example: tuple[CheckRun, str]) -> None:
    results = json.loads(example[1])["runs"][0]["results"]
    prints = [r["partialFingerprints"][FINGERPRINT_KEY] for r in results]
    assert len(prints) >= 3
    assert len(set(prints)) == len(prints)
    assert all(re.fullmatch(r"[0-9a-f]{64}", p) for p in prints)


def test_identical_lines_are_told_apart_by_occurrence(tmp_path: Path) -> None:
    source = tmp_path / "lib.rs"
    source.write_text(buggy_source(("a", ""), ("b", "")), encoding="utf-8")
    log = render(run_check(str(source)), tmp_path)
    results = log["runs"][0]["results"]
    snippets = {
        r["locations"][0]["physicalLocation"]["contextRegion"]["snippet"]["text"] for r in results
    }
    assert len(results) == 2 and len(snippets) == 1
    assert len({r["partialFingerprints"][FINGERPRINT_KEY] for r in results}) == 2


def test_fingerprint_ignores_whitespace_changes_on_the_line(tmp_path: Path) -> None:
    source = tmp_path / "lib.rs"
    source.write_text(buggy_source(("a", "")), encoding="utf-8")
    before = render(run_check(str(source)), tmp_path)
    text = source.read_text(encoding="utf-8")
    source.write_text(
        text.replace(
            "dispatch::q_matmul(x, q_w, Ctx::Disabled)", "dispatch::q_matmul(x,q_w,  Ctx::Disabled)"
        ),
        encoding="utf-8",
    )
    after = render(run_check(str(source)), tmp_path)
    assert _fingerprints(before) == _fingerprints(after)


# --- suppressions, problems, determinism -------------------------------------------------------


def test_suppressed_findings_carry_in_source_suppressions(tmp_path: Path) -> None:
    comment = "// burnlint: allow(BD001) the context is enabled by the caller"
    source = tmp_path / "lib.rs"
    source.write_text(buggy_source(("kept", ""), ("allowed", comment)), encoding="utf-8")
    run = run_check(str(source))
    assert len(findings_of(run)) == 1 and len(suppressed_of(run)) == 1
    log = render(run, tmp_path)
    validate(log)
    results = log["runs"][0]["results"]
    assert len(results) == 2
    reported, acknowledged = results
    assert reported["suppressions"] == []
    [suppression] = acknowledged["suppressions"]
    assert suppression["kind"] == "inSource"
    assert suppression["justification"] == comment
    comment_region = suppression["location"]["physicalLocation"]["region"]
    finding_region = acknowledged["locations"][0]["physicalLocation"]["region"]
    assert comment_region["startLine"] == finding_region["startLine"] - 1
    assert comment_region["snippet"]["text"] == comment
    assert (
        reported["partialFingerprints"][FINGERPRINT_KEY]
        != acknowledged["partialFingerprints"][FINGERPRINT_KEY]
    )


def test_suppressed_records_built_from_real_findings(example: tuple[CheckRun, str]) -> None:
    """A suppressed finding renders exactly like the reported one plus its suppression."""
    findings = findings_of(example[0])
    target = findings[0]
    comment = replace(target.range, start_byte=0, end_byte=0)
    record = Suppressed(target, comment, "file", "// burnlint: allow-file(BD001)")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        text = render_sarif(
            findings[1:],
            [record],
            ENTRIES,
            root=ROOT,
            docs_url=None,
            problems=[],
            texts=example[0].texts,
        )
    plain = json.loads(example[1])["runs"][0]["results"]
    mixed = json.loads(text)["runs"][0]["results"]
    assert mixed[0]["suppressions"][0]["justification"] == "// burnlint: allow-file(BD001)"
    assert {**mixed[0], "suppressions": []} == plain[0]
    assert mixed[1:] == plain[1:]


def test_problems_make_the_invocation_unsuccessful(example: tuple[CheckRun, str]) -> None:
    problems = ("a.rs: no such file or directory", "b.rs: larger than 8 MiB; skipped")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        log = render(example[0], ROOT, problems=problems)
    validate(log)
    [invocation] = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    assert [n["message"]["text"] for n in invocation["toolExecutionNotifications"]] == list(
        problems
    )
    assert {n["level"] for n in invocation["toolExecutionNotifications"]} == {"error"}


def test_empty_run_still_has_results_and_rules(tmp_path: Path) -> None:
    text = render_sarif([], [], ENTRIES, root=tmp_path, docs_url=None, problems=[], texts={})
    log = json.loads(text)
    validate(log)
    assert log["runs"][0]["results"] == []
    assert len(log["runs"][0]["tool"]["driver"]["rules"]) == len(ENTRIES)


def test_output_does_not_depend_on_input_order(example: tuple[CheckRun, str]) -> None:
    run = example[0]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        reordered = render_sarif(
            list(reversed(findings_of(run))),
            [],
            list(reversed(ENTRIES)),
            root=ROOT,
            docs_url=None,
            problems=[],
            texts=run.texts,
        )
    assert reordered == example[1]


# --- snapshot ----------------------------------------------------------------------------------


def normalized(text: str) -> str:
    """The log without what depends on the machine or the release: the root URI and version."""
    text = text.replace(json.dumps(ROOT.as_uri() + "/"), json.dumps("file:///SRCROOT/"))
    return text.replace(json.dumps(__version__), json.dumps("VERSION"))


def test_the_validator_rejects_a_broken_log(example: tuple[CheckRun, str]) -> None:
    """Guards the schema copy: a wrong level must not pass."""
    log = json.loads(example[1])
    log["runs"][0]["results"][0]["level"] = "fatal"
    with pytest.raises(AssertionError, match="fatal"):
        validate(log)
