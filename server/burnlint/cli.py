"""Command line: `burnlint check`, `burnlint explain`, `burnlint server`, `burnlint --version`."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from burnlint import __version__
from burnlint.analysis.crate import ERAS
from burnlint.analysis.engine import Analyzer, Options
from burnlint.analysis.findings import Finding
from burnlint.checking import check_paths
from burnlint.kb.load import KBError, by_code, load_kb
from burnlint.kb.match import find_matches
from burnlint.report.explain import render_entry
from burnlint.report.json_report import render_json
from burnlint.report.text import Style, render_finding, render_summary

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


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
    server = commands.add_parser("server", help="run the language server (stdio by default)")
    server.add_argument(
        "--tcp", type=int, metavar="PORT", help="listen on 127.0.0.1:PORT instead (for debugging)"
    )
    # Language clients such as vscode-languageclient pass `--stdio`; it is the default anyway.
    server.add_argument("--stdio", action="store_true", help=argparse.SUPPRESS)
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
    if args.command == "server":
        # Imported here so `check` and `explain` never pay for loading pygls.
        from burnlint.lsp.main import serve

        return serve(load_kb(), args.tcp)
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
    run = check_paths(analyzer, args.paths, options)
    problems = run.problems
    findings: list[Finding] = [f for result in run.results for f in result.findings]
    files = run.files
    lines = {path: text.splitlines() for path, text in run.texts.items()}
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
