"""Command line: `burnlint check`, `burnlint explain`, `burnlint --version`."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from burnlint import __version__
from burnlint.analysis.crate import ERAS, find_crate, module_of, path_modules
from burnlint.analysis.engine import Analyzer, CrateFile, FileResult, Options
from burnlint.analysis.findings import Finding
from burnlint.analysis.source import SourceFile
from burnlint.kb.load import KBError, by_code, load_kb
from burnlint.kb.match import find_matches
from burnlint.report.explain import render_entry
from burnlint.report.json_report import render_json
from burnlint.report.text import Style, render_finding, render_summary
from burnlint.walk import Target, discover

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
MAX_FILE_BYTES = 8 * 1024 * 1024


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="burnlint",
        description="Find misuse of burn's dispatch autodiff API before it panics.",
    )
    parser.add_argument("--version", action="version", version=f"burnlint {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    check = commands.add_parser("check", help="check Rust files or folders")
    check.add_argument("paths", nargs="*", default=["."], metavar="PATH")
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.add_argument(
        "--era",
        choices=ERAS,
        help="burn API era (default: from Cargo.toml/Cargo.lock, else from the code)",
    )
    check.add_argument("--select", help="comma-separated codes to report (default: all)")
    check.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    check.add_argument(
        "--budget", type=float, default=5.0, help="seconds of analysis per file (default 5)"
    )
    explain = commands.add_parser(
        "explain", help="explain a code, a slug, or a pasted burn panic message"
    )
    explain.add_argument(
        "query", nargs="+", help="BD001, autodiff-in-disabled-context, or panic text"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        entries = load_kb()
    except KBError as error:
        print(f"burnlint: error: knowledge base: {error}", file=sys.stderr)
        return EXIT_ERROR
    if args.command == "check":
        return _check(args, entries)
    if args.command == "explain":
        return _explain(" ".join(args.query), entries)
    parser.print_help()
    return EXIT_ERROR


def _use_color(choice: str) -> bool:
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty()


def _check(args: argparse.Namespace, entries: tuple[object, ...]) -> int:
    analyzer = Analyzer(load_kb())
    select = frozenset(c.strip().upper() for c in args.select.split(",")) if args.select else None
    if select is not None:
        unknown = sorted(select - set(analyzer.by_code))
        if unknown:
            print(
                f"burnlint: error: unknown code(s) in --select: {', '.join(unknown)}",
                file=sys.stderr,
            )
            return EXIT_ERROR
    options = Options(era=args.era, select=select, budget_seconds=args.budget)
    findings: list[Finding] = []
    problems: list[str] = []
    lines: dict[str, list[str]] = {}
    files = 0
    groups: dict[Path | None, list[tuple[Target, str]]] = {}
    for target in discover(args.paths):
        text = _read(target.path, target.shown, problems)
        if text is None:
            continue
        files += 1
        manifest = find_crate(target.path).manifest
        groups.setdefault(manifest, []).append((target, text))
    for manifest, members in groups.items():
        batches = [members] if manifest is not None else [[member] for member in members]
        for batch in batches:
            results = _analyze_batch(analyzer, manifest, batch, options)
            for result in results:
                problems.extend(
                    f"{result.path}: {note}" for note in result.notes if "stopped" in note
                )
                if result.findings:
                    findings.extend(result.findings)
            for target, text in batch:
                lines[target.shown] = text.splitlines()
    findings.sort(key=lambda f: f.sort_key)
    if args.format == "json":
        print(render_json(findings, files, problems))
    else:
        style = Style(_use_color(args.color))

        def line_text(path: str, line: int) -> str | None:
            source = lines.get(path)
            return source[line] if source is not None and 0 <= line < len(source) else None

        for finding in findings:
            print(render_finding(finding, line_text, style))
            print()
        print(render_summary(findings, files, style))
    for problem in problems:
        print(f"burnlint: error: {problem}", file=sys.stderr)
    if problems:
        return EXIT_ERROR
    return EXIT_FINDINGS if findings else EXIT_CLEAN


def _read(path: Path, shown: str, problems: list[str] | None) -> str | None:
    """A file's text, or None with a problem recorded (when `problems` is given)."""

    def problem(text: str) -> None:
        if problems is not None:
            problems.append(f"{shown}: {text}")

    if not path.exists():
        problem("no such file or directory")
        return None
    try:
        data = path.read_bytes()
    except OSError as error:
        problem(f"cannot read: {error.strerror}")
        return None
    if len(data) > MAX_FILE_BYTES:
        problem(f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB; skipped")
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        problem(f"not valid UTF-8 (byte {error.start}); skipped")
        return None


def _analyze_batch(
    analyzer: Analyzer, manifest: Path | None, batch: list[tuple[Target, str]], options: Options
) -> list[FileResult]:
    """Analyze target files together with the rest of their crate (for summaries)."""
    crate = find_crate(batch[0][0].path)
    inputs: dict[Path, tuple[str, str, bool]] = {}
    for target, text in batch:
        inputs[target.path.resolve()] = (target.shown, text, True)
    if manifest is not None:
        root = manifest.parent
        for other in discover([str(root)]):
            resolved = other.path.resolve()
            if resolved in inputs or _in_nested_crate(root, resolved):
                continue
            text = _read(other.path, other.shown, None)
            if text is not None:
                inputs[resolved] = (os.path.relpath(other.path), text, False)
    modules = {
        path: module_of(manifest.parent, path) if manifest else ("crate",) for path in inputs
    }
    if manifest is not None:
        path_modules({path: text for path, (_, text, _) in inputs.items()}, modules)
    files = [
        CrateFile(SourceFile(shown, text), modules[path], target)
        for path, (shown, text, target) in inputs.items()
    ]
    return [
        r
        for r, f in zip(analyzer.analyze_files(files, options, crate), files, strict=True)
        if f.target
    ]


def _in_nested_crate(root: Path, path: Path) -> bool:
    """Whether `path` belongs to another crate below `root` (one with its own Cargo.toml)."""
    folder = path.parent
    root = root.resolve()
    while folder != root and root in folder.parents:
        if (folder / "Cargo.toml").is_file():
            return True
        folder = folder.parent
    return False


def _explain(query: str, entries: tuple[object, ...]) -> int:
    kb = load_kb()
    index = by_code(kb)
    key = query.strip()
    entry = index.get(key.upper()) or index.get(key.lower())
    bold = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    if entry is not None:
        sys.stdout.write(render_entry(entry, bold))
        return EXIT_CLEAN
    matches = find_matches(kb, query)
    if not matches:
        print(f"burnlint: no knowledge-base entry matches {query!r}", file=sys.stderr)
        print("known codes: " + ", ".join(f"{e.id} ({e.slug})" for e in kb), file=sys.stderr)
        return EXIT_ERROR
    best = matches[0]
    if len(matches) > 1 and matches[1].score == best.score:
        print("several entries match; best first:")
        for match in matches:
            print(f"  {match.entry.id} {match.entry.slug}: {match.message} [{match.era}]")
        print()
    sys.stdout.write(render_entry(best.entry, bold))
    return EXIT_CLEAN


if __name__ == "__main__":
    raise SystemExit(main())
