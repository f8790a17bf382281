"""Command line: `burnlint check`, `burnlint explain`, `burnlint server`, `burnlint --version`."""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from burnlint import __version__
from burnlint.analyzing import KeptSessions, LazyAnalyzer
from burnlint.atomic import write_atomic
from burnlint.cache import DEFAULT_DIR, ResultCache
from burnlint.cache import clear as clear_cache
from burnlint.config import (
    ConfigError,
    DetectedEra,
    Overrides,
    parse_size,
    render_settings,
    settings_for,
)
from burnlint.eras import ERAS
from burnlint.kb.export import add_kb_arguments, run_kb
from burnlint.kb.load import KBError, load_kb
from burnlint.kb.model import Entry
from burnlint.progress import Progress
from burnlint.project import crate_eras, detect_era, find_crate

if TYPE_CHECKING:
    from burnlint.analysis.findings import Finding, Suppressed
    from burnlint.analysis.semantics.crates import CrateInfo
    from burnlint.checking import CheckRun, Request
    from burnlint.fixing import Changed

# Only what every command needs is imported above: a check answered from the cache should not
# pay for the analysis engine, the fixer or reports it does not print, and `burnlint server`
# (the language server's start-up) none of the checker, its reports or `explain`.

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


FORMATS = ("text", "concise", "json", "sarif", "github")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="burnlint",
        description="Find misuse of burn's dispatch autodiff API before it panics.",
    )
    parser.add_argument("--version", action="version", version=f"burnlint {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    check = commands.add_parser(
        "check",
        help="check Rust files or folders",
        description="Check Rust files or folders. Exit code: 0 clean, 1 findings (or a diff "
        "with --diff), 2 errors (unreadable or too large input, bad configuration, analysis out of "
        "time).",
    )
    _add_check_arguments(check)
    explain = commands.add_parser(
        "explain",
        help="explain a code, a slug, a pasted burn panic, or every panic of a log (--log)",
    )
    _add_explain_arguments(explain)
    add_kb_arguments(commands)
    show = commands.add_parser(
        "config", help="print the effective configuration for a path and where each value is from"
    )
    show.add_argument("path", nargs="?", default=".", metavar="PATH")
    show.add_argument("--format", choices=("text", "json"), default="text")
    show.add_argument("--config", metavar="FILE", type=Path, help="use this configuration file")
    show.add_argument("--isolated", action="store_true", help="ignore configuration files")
    clean = commands.add_parser("clean", help="remove the result cache")
    clean.add_argument("--cache-dir", type=Path, help="the cache folder to clean")
    server = commands.add_parser("server", help="run the language server (stdio by default)")
    server.add_argument(
        "--tcp", type=int, metavar="PORT", help="listen on 127.0.0.1:PORT instead (for debugging)"
    )
    # Language clients such as vscode-languageclient pass `--stdio`; it is the default anyway.
    server.add_argument("--stdio", action="store_true", help=argparse.SUPPRESS)
    return parser


def _add_explain_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `burnlint explain`."""
    parser.add_argument(
        "query",
        nargs="*",
        metavar="QUERY",
        help="BD001, autodiff-in-disabled-context, a panic message, or pasted panic output",
    )
    parser.add_argument(
        "--log",
        metavar="FILE",
        help="explain every panic in cargo test or program output (`-` reads standard input)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")


def _add_check_arguments(check: argparse.ArgumentParser) -> None:
    """`burnlint check`'s arguments and option groups: output, fixes, configuration, speed."""
    check.add_argument(
        "paths",
        nargs="*",
        default=["."],
        metavar="PATH",
        help="Rust files or folders to check (default: the current folder; a folder means every "
        "*.rs in it, honouring .gitignore)",
    )
    _output_options(check)
    _fix_options(check)
    _config_options(check)
    _speed_options(check)


def _output_options(check: argparse.ArgumentParser) -> None:
    output = check.add_argument_group("output")
    output.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: rustc-style frames (default); concise: one line per finding; json; "
        "sarif: SARIF 2.1.0; github: GitHub Actions annotations",
    )
    output.add_argument("--output", metavar="FILE", help="write the report to FILE (atomically)")
    output.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the text report (default auto: only on a terminal and without NO_COLOR)",
    )
    output.add_argument(
        "--statistics",
        action="store_true",
        help="count findings per code instead of listing them (json, sarif: added to the report)",
    )
    output.add_argument(
        "--exit-zero", action="store_true", help="exit 0 even when there are findings"
    )
    output.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="print each checked crate's burn era, why, and its file count on stderr first",
    )
    output.add_argument(
        "--report-unused-suppressions",
        action="store_true",
        help="report `// burnlint: allow(..)` codes that acknowledged no finding",
    )


def _fix_options(check: argparse.ArgumentParser) -> None:
    fixes = check.add_argument_group("fixes")
    fixes.add_argument("--fix", action="store_true", help="apply safe fixes to the files")
    fixes.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="with --fix or --diff, apply unsafe fixes too (they may change behaviour)",
    )
    fixes.add_argument(
        "--diff", action="store_true", help="print the fixes as a unified diff; write nothing"
    )


def _config_options(check: argparse.ArgumentParser) -> None:
    config = check.add_argument_group("configuration (overrides burnlint.toml)")
    config.add_argument("--config", metavar="FILE", type=Path, help="use this configuration file")
    config.add_argument("--isolated", action="store_true", help="ignore configuration files")
    config.add_argument(
        "--select", metavar="CODES", help="comma-separated codes to report (replaces `select`)"
    )
    config.add_argument(
        "--ignore", metavar="CODES", help="comma-separated codes not to report (adds to `ignore`)"
    )
    config.add_argument(
        "--era",
        choices=ERAS,
        help="burn API era (default: from Cargo.toml/Cargo.lock, else from the code)",
    )
    config.add_argument(
        "--budget",
        type=float,
        metavar="SECONDS",
        help="CPU seconds of analysis per file; running out is an error (exit 2) (default 5)",
    )
    config.add_argument(
        "--max-file-size",
        type=_size,
        metavar="SIZE",
        help="a larger file is an error (exit 2): bytes or 8MiB, 512KiB (default 8MiB)",
    )
    config.add_argument(
        "--max-files",
        type=int,
        metavar="N",
        help="more Rust files than N is an error (exit 2) (default 50000)",
    )


def _speed_options(check: argparse.ArgumentParser) -> None:
    speed = check.add_argument_group("speed")
    speed.add_argument("--watch", action="store_true", help="check again whenever files change")
    speed.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    speed.add_argument(
        "--cache-dir",
        type=Path,
        metavar="DIR",
        help=f"result cache folder (default: $BURNLINT_CACHE_DIR or ./{DEFAULT_DIR})",
    )
    speed.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=0,
        metavar="N",
        help="worker processes for crates to analyze (default: one per CPU)",
    )


_STATE = {"own_process": False}
"""Whether the process is the `burnlint` command's own (not a caller's that runs `main`)."""


def run() -> NoReturn:
    """The `burnlint` command and `python -m burnlint`: `main`, then a hard exit."""
    _STATE["own_process"] = True
    try:
        code = main()
        # The language server's transport closes stdout when the client exits.
        if not sys.stdout.closed:
            sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`burnlint check | head`): it wants no more output, and no
        # traceback. Later writes to stdout go nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = EXIT_ERROR
    # Everything is written and closed when `main` returns; freeing a crate's analysis object
    # by object would add a tenth to a check (0.4 s of 4 on a 157-file crate).
    if "logging" in sys.modules:
        import logging

        logging.shutdown()
    if "burnlint.startup" in sys.modules:
        from burnlint.startup import save

        save()
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
    os._exit(code)


def _without_cycle_collector() -> None:
    """Turn the cycle collector off for one batch analysis: it builds a large heap of
    long-lived trees and values that holds almost no garbage cycles, so every collection scans
    it for nothing. With thresholds of 20000/50/50 the collections still took 65-80 ms of a
    157-file crate's 3 s check; with none at all, peak memory was the same there (117 MB),
    on burn's `crates/` (451 -> 466 MB) and on a 13,767-function workspace (516 -> 517 MB).
    A check is one process that exits when it is done (a `--watch` keeps collecting)."""
    gc.freeze()
    gc.disable()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        entries = load_kb()
        return _command(parser, args, entries)
    except KBError as error:
        # Also a `[detect]` table the analyzer cannot compile (raised when it is built).
        print(f"burnlint: error: knowledge base: {error}", file=sys.stderr)
        return EXIT_ERROR


def _command(
    parser: argparse.ArgumentParser, args: argparse.Namespace, entries: tuple[Entry, ...]
) -> int:
    if args.command == "check":
        try:
            return _check(args, entries)
        except KeyboardInterrupt:
            return 130
    if args.command == "explain":
        from burnlint.explaining import run_explain

        return run_explain(args, entries)
    if args.command == "kb":
        return run_kb(args, entries)
    if args.command == "config":
        return _config(args, entries)
    if args.command == "clean":
        folder = _cache_dir(args.cache_dir)
        removed = clear_cache(folder)
        print(f"burnlint: removed {removed} cache entr{'y' if removed == 1 else 'ies'} in {folder}")
        return EXIT_CLEAN
    if args.command == "server":
        # Imported here so `check` and `explain` never pay for loading pygls; the protocol
        # types' methods come compiled from the last start, and asyncio comes without TLS
        # (see `burnlint.startup`).
        from burnlint.startup import protocol_compiled, without_tls

        with protocol_compiled(), without_tls():
            from burnlint.lsp.main import serve

        return serve(entries, args.tcp)
    parser.print_help()
    return EXIT_ERROR


def _size(text: str) -> int:
    size = parse_size(text.strip())
    if size is None:
        raise argparse.ArgumentTypeError(f"expected a size like 8MiB or 1048576, got {text!r}")
    return size


def _use_color(choice: str, to_file: bool) -> bool:
    if choice == "always":
        return True
    if choice == "never" or to_file or os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty()


def _cache_dir(given: Path | None) -> Path:
    if given is not None:
        return given
    return Path(os.environ.get("BURNLINT_CACHE_DIR") or DEFAULT_DIR)


def _codes(flag: str, value: str | None, known: frozenset[str]) -> frozenset[str] | None:
    if value is None:
        return None
    codes = frozenset(c.strip().upper() for c in value.split(",") if c.strip())
    unknown = sorted(codes - known)
    if unknown:
        raise ValueError(
            f"unknown code(s) in {flag}: {', '.join(unknown)} (known: {', '.join(sorted(known))})"
        )
    return codes


def _overrides(args: argparse.Namespace, known: frozenset[str]) -> Overrides:
    return Overrides(
        select=_codes("--select", args.select, known),
        ignore=_codes("--ignore", args.ignore, known),
        era=args.era,
        budget=args.budget,
        max_file_size=args.max_file_size,
        max_files=args.max_files,
        config=args.config,
        isolated=args.isolated,
    )


def _check(args: argparse.Namespace, entries: tuple[Entry, ...]) -> int:
    from burnlint.checking import Request

    analyzer = LazyAnalyzer(entries)
    known = frozenset(analyzer.by_code)
    try:
        overrides = _overrides(args, known)
    except ValueError as error:
        print(f"burnlint: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    if args.budget is not None and args.budget <= 0:
        print("burnlint: error: --budget must be a positive number of seconds", file=sys.stderr)
        return EXIT_ERROR
    if args.statistics and args.format == "github":
        print(
            "burnlint: error: --statistics cannot be combined with --format github "
            "(annotations are per finding; use --format json or sarif for counts in a report)",
            file=sys.stderr,
        )
        return EXIT_ERROR
    if args.statistics and args.diff:
        print("burnlint: error: --statistics cannot be combined with --diff", file=sys.stderr)
        return EXIT_ERROR
    if args.watch and (args.fix or args.diff):
        print("burnlint: error: --watch cannot be combined with --fix or --diff", file=sys.stderr)
        return EXIT_ERROR
    cache = ResultCache(None if args.no_cache else _cache_dir(args.cache_dir))
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    request = Request(tuple(args.paths), overrides, cache, jobs)
    if not args.watch:
        if _STATE["own_process"]:
            _without_cycle_collector()
        return _run(analyzer, args, request)

    # Crates analyzed in this process stay analyzed: a change re-analyzes what it reaches.
    request = replace(request, sessions=KeptSessions())

    def again(changed: list[str]) -> None:
        if sys.stdout.isatty():
            sys.stdout.write("\x1b[2J\x1b[H")
        stamp = time.strftime("%H:%M:%S")
        what = (
            f"{len(changed)} file{'s' if len(changed) != 1 else ''} changed" if changed else "start"
        )
        print(f"[{stamp}] burnlint: {what}; checking", flush=True)
        _run(analyzer, args, request)
        print(f"[{time.strftime('%H:%M:%S')}] burnlint: watching for changes", flush=True)

    # Imported here so a plain check never loads the file watcher.
    from burnlint.watch import watch

    watch(args.paths, again)
    return EXIT_CLEAN


def _run(analyzer: LazyAnalyzer, args: argparse.Namespace, request: Request) -> int:
    """One check (with fixes when asked), reported in the chosen format; returns the exit code."""
    from burnlint.analysis.rules.suppress import unused_finding
    from burnlint.checking import check

    progress = Progress()
    request = replace(request, progress=progress)

    def checker(request: Request) -> CheckRun:
        run = check(analyzer, request)
        if args.report_unused_suppressions:
            for result in run.results:
                text = run.texts.get(result.path, "")
                result.findings.extend(unused_finding(u, text, result.era) for u in result.unused)
        return run

    changed: list[Changed] = []
    problems: list[str] = []
    try:
        if args.fix or args.diff:
            from burnlint.fixing import fix_in_memory, write_changes

            outcome = fix_in_memory(checker, request, args.unsafe_fixes)
            if args.fix and not args.diff:
                write_changes(outcome)
            run, changed, problems = outcome.run, outcome.changed, outcome.problems
            applied = outcome.applied
            for note in outcome.notes:
                print(f"burnlint: note: {note}", file=sys.stderr)
        else:
            run, applied = checker(request), 0
    finally:
        progress.close()
    problems = [*run.problems, *problems]
    if request.cache is not None:
        problems.extend(request.cache.problems)
    findings = sorted((f for r in run.results for f in r.findings), key=lambda f: f.sort_key)
    suppressed = sorted(
        (s for r in run.results for s in r.suppressed), key=lambda s: s.finding.sort_key
    )
    if args.verbose:
        for line in _crate_lines(run):
            print(f"burnlint: {line}", file=sys.stderr)
    if args.diff:
        report = "".join(change.diff() for change in changed)
        _emit(report, args.output)
        fixed = f"{applied} fix{'es' if applied != 1 else ''} in {len(changed)} file{'s' if len(changed) != 1 else ''}"
        print(f"burnlint: would apply {fixed}", file=sys.stderr)
    else:
        _emit(_render(args, run, findings, suppressed, problems), args.output)
        if args.fix:
            print(
                f"burnlint: applied {applied} fix{'es' if applied != 1 else ''} "
                f"in {len(changed)} file{'s' if len(changed) != 1 else ''}",
                file=sys.stderr,
            )
    if args.format not in ("json", "sarif", "github") or args.output:
        for problem in problems:
            print(f"burnlint: error: {problem}", file=sys.stderr)
    if problems:
        return EXIT_ERROR
    if args.exit_zero:
        return EXIT_CLEAN
    if args.diff:
        return EXIT_FINDINGS if changed else EXIT_CLEAN
    return EXIT_FINDINGS if findings else EXIT_CLEAN


def _crate_lines(run: CheckRun) -> list[str]:
    """One line per checked crate: its era, why, and how many of its files were checked."""
    crates: dict[Path | None, tuple[CrateInfo | None, str, str, int]] = {}
    for result in run.results:
        path = run.paths.get(result.path)
        crate = find_crate(path) if path is not None else None
        key = crate.manifest if crate is not None else None
        known = crates.get(key)
        era, reason = result.era, result.era_reason
        if known is not None:
            era, reason = known[1] or era, known[2] or reason
        crates[key] = (crate, era, reason, (known[3] if known else 0) + 1)
    lines: list[str] = []
    for key, (crate, era, reason, count) in sorted(crates.items(), key=lambda i: str(i[0])):
        if not era and crate is not None:
            # No file of the crate was analyzed (no dispatch vocabulary): say what a check
            # would use all the same.
            era, reason = detect_era(crate) or ("", "")
        files = f"{count} file{'s' if count != 1 else ''}"
        what = f"crate `{crate.name}` ({_shown(key)})" if crate and key else "files outside a crate"
        decided = f"era {era} ({reason})" if era else "era undecided"
        lines.append(f"{what}: {decided}; {files}")
    return lines


def _render(
    args: argparse.Namespace,
    run: CheckRun,
    findings: list[Finding],
    suppressed: list[Suppressed],
    problems: list[str],
) -> str:
    from burnlint.report.text import (
        Style,
        count_by_code,
        render_finding,
        render_statistics,
        render_summary,
    )

    entries = load_kb()
    statistics = count_by_code(findings) if args.statistics else None
    if args.format == "json":
        from burnlint.report.json_report import render_json

        eras: dict[tuple[str, str], int] = {}
        for result in run.results:
            if result.era:
                key = (result.era, result.era_reason)
                eras[key] = eras.get(key, 0) + 1
        listed = [(era, reason, count) for (era, reason), count in sorted(eras.items())]
        return render_json(findings, run.files, problems, suppressed, listed, statistics)
    if args.format == "sarif":
        docs = {s.docs_url for s in run.settings.values() if s.docs_url}
        from burnlint.report.sarif import render_sarif

        return render_sarif(
            findings,
            suppressed,
            [entry for entry in entries if entry.is_static],
            root=Path.cwd(),
            docs_url=min(docs) if docs else None,
            problems=problems,
            texts=run.texts,
            statistics=statistics,
        )
    if args.format == "github":
        from burnlint.report.github import render_github

        return render_github(findings, problems)
    style = Style(_use_color(args.color, bool(args.output)))
    out: list[str] = []
    if args.statistics:
        slugs = {entry.id: entry.slug for entry in entries}
        if findings:
            out.append(render_statistics(findings, slugs))
    elif args.format == "concise":
        if findings:
            from burnlint.report.concise import render_concise

            out.append(render_concise(findings, style))
    else:
        lines = {path: text.split("\n") for path, text in run.texts.items()}

        def line_text(path: str, line: int) -> str | None:
            source = lines.get(path)
            if source is None or not 0 <= line < len(source):
                return None
            return source[line].removesuffix("\r")

        out.extend(render_finding(finding, line_text, style) + "\n" for finding in findings)
    out.append(render_summary(findings, run.files, style))
    return "\n".join(out)


def _emit(report: str, output: str | None) -> None:
    if not report.endswith("\n"):
        report += "\n"
    if output is None:
        sys.stdout.write(report)
        sys.stdout.flush()
        return
    write_atomic(Path(output), report.encode("utf-8"))


def _config(args: argparse.Namespace, entries: tuple[Entry, ...]) -> int:
    known = frozenset(entry.id for entry in entries)
    overrides = Overrides(config=args.config, isolated=args.isolated)
    try:
        settings = settings_for(Path(args.path), known, overrides)
    except ConfigError as error:
        print(f"burnlint: error: configuration: {error}", file=sys.stderr)
        return EXIT_ERROR
    path = Path(args.path)
    detected = [
        DetectedEra(crate.name, _shown(crate.manifest), era, reason)
        for crate, era, reason in crate_eras(path)
        if crate.manifest is not None
    ]
    workspace = find_crate(path).manifest is None
    sys.stdout.write(render_settings(settings, args.format, detected, workspace))
    return EXIT_CLEAN


def _shown(path: Path) -> str:
    """A path relative to the current folder when it is inside it."""
    try:
        return str(path.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


if __name__ == "__main__":
    raise SystemExit(main())
