"""Collect every annotated `.rs` fixture under tests/corpus as two test items.

Annotation grammar (rustc UI-test style):
  `//~ BD001` this line expects an error, `//~ WARN BD001` a warning, `//~^ BD001` one line up per
  caret, `//~| BD001` the same line as the previous annotation, `//~ BD001: text` the message must
  contain `text`. A fixture without annotations must say `//@ clean`. Directives: `//@ era: NAME`,
  `//@ fix-choice: FIX-ID` (which fix the `.fixed` file applies; default: each finding's first),
  `//@ build: on|off|optional` (whether burn's `autodiff` feature is on, as a Cargo.toml would
  say; `optional`: the file's own `autodiff` feature forwards to burn's and is off by default, so
  code under `#[cfg(not(feature = "autodiff"))]` is checked too; default: unknown, no manifest).

Next to each fixture, `<fixture>.stderr` (a crate: `<crate>/burnlint.stderr`) holds the whole text
report, as `burnlint check` prints it (messages, related-location notes, fix titles and their
safety), like clippy's UI tests; a fixture with no findings has none. `--bless` rewrites them.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from burnlint.analysis.engine import Analyzer, Options
from burnlint.analysis.rules.edits import apply_fixes, choose_fixes
from burnlint.analysis.semantics.cfg import BuildConfig
from burnlint.analysis.semantics.crates import CrateInfo
from burnlint.analysis.syntax.source import SourceFile
from burnlint.checking import Request, check
from burnlint.config import Overrides
from burnlint.kb.load import load_kb
from burnlint.report.text import Style, render_finding

_ANNOTATION = re.compile(
    r"//~(?P<anchor>\^*|\|)?\s*(?:(?P<sev>ERROR|WARN|INFO|HINT)\s+)?(?P<code>BD\d{3})(?::\s*(?P<msg>.*))?"
)
_DIRECTIVE = re.compile(r"^\s*//@\s*(?P<key>[a-z-]+)\s*(?::\s*(?P<value>.*?))?\s*$")
_SEVERITY = {"ERROR": "error", "WARN": "warning", "INFO": "info", "HINT": "hint", None: "error"}
ANALYZER = Analyzer(load_kb())
REPO = Path(__file__).resolve().parents[2]


@dataclass
class Expectation:
    line: int
    code: str
    severity: str
    message: str | None


@dataclass
class Fixture:
    path: Path
    text: str
    expected: list[Expectation] = field(default_factory=list)
    directives: dict[str, str] = field(default_factory=dict)


class CorpusError(Exception):
    pass


def parse_fixture(path: Path) -> Fixture:
    text = path.read_text(encoding="utf-8")
    fixture = Fixture(path, text)
    previous: int | None = None
    for index, line in enumerate(text.splitlines()):
        directive = _DIRECTIVE.match(line)
        if directive:
            fixture.directives[directive.group("key")] = directive.group("value") or ""
            continue
        match = _ANNOTATION.search(line)
        if not match:
            continue
        anchor = match.group("anchor") or ""
        if anchor == "|":
            if previous is None:
                raise CorpusError(f"{path}:{index + 1}: `//~|` without a previous annotation")
            target = previous
        else:
            target = index - len(anchor)
        previous = target
        fixture.expected.append(
            Expectation(
                target + 1, match.group("code"), _SEVERITY[match.group("sev")], match.group("msg")
            )
        )
    return fixture


def fixture_crate(fixture: Fixture) -> CrateInfo | None:
    """The crate a `//@ build:` directive describes (as `[detect.example]` does for the KB)."""
    build = fixture.directives.get("build")
    if not build:
        return None
    if build not in ("on", "off", "optional"):
        raise CorpusError(f"`//@ build: {build}`: expected on, off or optional")
    features = frozenset({"autodiff"}) if build == "optional" else frozenset()
    config = BuildConfig(declared=features, assume_on=frozenset({"autodiff"}) | features)
    return CrateInfo(None, "fixture", config, "", None, "", build, features)


def analyze_fixture(fixture: Fixture, text: str | None = None) -> Any:
    era = fixture.directives.get("era") or None
    source = SourceFile(fixture.path.as_posix(), fixture.text if text is None else text)
    return ANALYZER.analyze(source, Options(era=era), fixture_crate(fixture))


def render_report(findings: list[Any], texts: dict[str, str]) -> str:
    """The text report of these findings as the CLI prints it (no colour), with paths relative
    to the repository so that a snapshot reads the same on every machine."""

    def line_text(path: str, line: int) -> str | None:
        lines = texts.get(path, "").splitlines()
        return lines[line] if 0 <= line < len(lines) else None

    out = [render_finding(f, line_text, Style(color=False)) + "\n" for f in findings]
    report = "\n".join(out)
    for path in texts:
        report = report.replace(path, Path(path).resolve().relative_to(REPO).as_posix())
    return report


def compare_snapshot(expected: Path, report: str, bless: bool) -> None:
    """Compare a report with its `.stderr` snapshot (or rewrite it with --bless)."""
    if bless:
        if report:
            expected.write_text(report, encoding="utf-8")
        elif expected.exists():
            expected.unlink()
        return
    if not report:
        if expected.exists():
            raise CorpusError(f"{expected.name} exists but nothing is reported (run with --bless)")
        return
    if not expected.exists():
        raise CorpusError(f"{expected.name} is missing (run with --bless):\n{report}")
    wanted = expected.read_text(encoding="utf-8")
    if wanted != report:
        diff = difflib.unified_diff(
            wanted.splitlines(), report.splitlines(), "expected", "actual", lineterm=""
        )
        raise CorpusError(
            f"the report differs from {expected.name} (run with --bless):\n" + "\n".join(diff)
        )


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if "corpus" not in file_path.parts:
        return None
    in_crates = "crates" in file_path.parts[file_path.parts.index("corpus") :]
    if file_path.suffix == ".rs" and not in_crates:
        return FixtureFile.from_parent(parent, path=file_path)
    if file_path.name == "Cargo.toml" and file_path.parent.parent.name == "crates":
        return CrateFixture.from_parent(parent, path=file_path)
    return None


class CorpusItem(pytest.Item):
    """A corpus check: failures print the fixture and what differed, not a traceback."""

    # pytest-lsp 1.0.1's `pytest_runtest_call` wrapper returns without yielding for items that
    # have no `funcargs` (non-function items), which breaks them; give ours an empty one.
    funcargs: dict[str, Any] = {}  # noqa: RUF012

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, CorpusError):
            where = self.path.parent if self.path.name == "Cargo.toml" else self.path
            return f"{where}:\n{excinfo.value}"
        return str(super().repr_failure(excinfo))


class CrateFixture(pytest.File):
    """A whole crate (or workspace) under tests/corpus/crates/NAME, checked as the CLI does."""

    def collect(self) -> Any:
        yield CrateItem.from_parent(self, name="diagnostics")


class CrateItem(CorpusItem):
    def runtest(self) -> None:
        root = self.path.parent
        wanted: Counter[tuple[str, int, str, str]] = Counter()
        for source in sorted(root.rglob("*.rs")):
            fixture = parse_fixture(source)
            rel = source.relative_to(root).as_posix()
            if "clean" in fixture.directives and fixture.expected:
                raise CorpusError(f"{rel}: `//@ clean` with `//~` annotations")
            if "clean" not in fixture.directives and not fixture.expected:
                raise CorpusError(f"{rel}: no `//~` annotations; mark it `//@ clean`")
            wanted.update((rel, e.line, e.code, e.severity) for e in fixture.expected)
        # Isolated: the crate fixtures are specified by their annotations alone.
        run = check(ANALYZER, Request((str(root),), Overrides(isolated=True)))
        if run.problems:
            raise CorpusError("problems: " + "; ".join(run.problems))
        actual: Counter[tuple[str, int, str, str]] = Counter()
        messages: dict[tuple[str, int, str, str], str] = {}
        for result in run.results:
            for f in result.findings:
                rel = Path(f.range.path).resolve().relative_to(root.resolve()).as_posix()
                key = (rel, f.range.start.line + 1, f.code, f.severity)
                actual[key] += 1
                messages[key] = f.message
        problems = [
            f"missing: {rel}:{ln} {sev}[{code}]"
            for rel, ln, code, sev in sorted((wanted - actual).elements())
        ]
        problems += [
            f"noisy:   {key[0]}:{key[1]} {key[3]}[{key[2]}]: {messages[key]}"
            for key in sorted((actual - wanted).elements())
        ]
        if problems:
            raise CorpusError("\n".join(problems))
        findings = [f for result in run.results for f in result.findings]
        texts: dict[str, str] = {}
        for finding in findings:
            for where in (finding.range, *(r.range for r in finding.related)):
                if where.path not in texts:
                    texts[where.path] = Path(where.path).read_text(encoding="utf-8")
        report = render_report(findings, texts)
        compare_snapshot(root / "burnlint.stderr", report, bool(self.config.getoption("--bless")))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"corpus crate: {self.path.parent.name}"


class FixtureFile(pytest.File):
    def collect(self) -> Any:
        yield DiagnosticsItem.from_parent(self, name="diagnostics")
        yield FixItem.from_parent(self, name="fix")


class DiagnosticsItem(CorpusItem):
    def runtest(self) -> None:
        fixture = parse_fixture(self.path)
        clean = "clean" in fixture.directives
        if clean and fixture.expected:
            raise CorpusError("a `//@ clean` fixture must not carry `//~` annotations")
        if not clean and not fixture.expected:
            raise CorpusError(
                "fixture has no `//~` annotations; mark it `//@ clean` if none are expected"
            )
        result = analyze_fixture(fixture)
        actual = Counter((f.range.start.line + 1, f.code, f.severity) for f in result.findings)
        wanted = Counter((e.line, e.code, e.severity) for e in fixture.expected)
        missing = wanted - actual
        noisy = actual - wanted
        problems = [
            f"missing: line {ln} {sev}[{code}]" for (ln, code, sev) in sorted(missing.elements())
        ]
        for finding in result.findings:
            key = (finding.range.start.line + 1, finding.code, finding.severity)
            if key in noisy:
                problems.append(
                    f"noisy:   line {key[0]} {finding.severity}[{finding.code}]: {finding.message}"
                )
        for expectation in fixture.expected:
            if expectation.message is None:
                continue
            if not any(
                f.code == expectation.code
                and f.range.start.line + 1 == expectation.line
                and expectation.message in f.message
                for f in result.findings
            ):
                problems.append(f"message: line {expectation.line} lacks {expectation.message!r}")
        if problems:
            raise CorpusError("\n".join(problems))
        report = render_report(list(result.findings), {self.path.as_posix(): fixture.text})
        bless = bool(self.config.getoption("--bless"))
        compare_snapshot(self.path.with_suffix(".stderr"), report, bless)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"corpus: {self.path.name} diagnostics"


class FixItem(CorpusItem):
    def runtest(self) -> None:
        fixture = parse_fixture(self.path)
        result = analyze_fixture(fixture)
        fixes = choose_fixes(result.findings, fixture.directives.get("fix-choice", ""))
        expected_path = self.path.with_suffix(".fixed")
        bless = bool(self.config.getoption("--bless"))
        if not fixes:
            if expected_path.exists():
                if bless:
                    expected_path.unlink()
                    return
                raise CorpusError(
                    f"{expected_path.name} exists but no fix is offered (run with --bless)"
                )
            return
        fixed, applied = apply_fixes(fixture.text, fixes)
        assert applied == len(fixes) or applied > 0
        if bless:
            expected_path.write_text(fixed, encoding="utf-8")
        elif not expected_path.exists():
            raise CorpusError(
                f"fixes are offered but {expected_path.name} is missing (run with --bless)"
            )
        elif expected_path.read_text(encoding="utf-8") != fixed:
            raise CorpusError(
                f"applying the fixes does not give {expected_path.name} (run with --bless)"
            )
        again = analyze_fixture(fixture, fixed)
        unfixable = sum(1 for f in result.findings if not f.fixes and f.severity == "error")
        left = [f for f in again.findings if f.severity == "error"]
        if len(left) > unfixable:
            raise CorpusError(
                "the fixed text still has errors: "
                + "; ".join(f"line {f.range.start.line + 1} {f.code}: {f.message}" for f in left)
            )

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"corpus: {self.path.name} fix"
