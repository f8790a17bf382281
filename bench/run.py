"""The burnlint benchmark of issue 8, in one command (a benchmark, not a test):

    python bench/run.py [--tree /path/to/burn] [--sizes 1,4,16] [--repeat 3] [--quick]
                        [--skip-lsp] [--json bench/results/bench.json] [--work DIR]

(~3 minutes on 2 CPUs with a burn checkout as `--tree`; `--quick`: sizes 1,4, one run each.)

What it measures, each as the median of `--repeat` runs of the real CLI in a subprocess:

1. scan: `burnlint check TREE --format json` cold (`--no-cache`) with `--jobs 1` and `--jobs 2`,
   and warm (the cache filled by a previous run, default jobs): wall time, CPU time, files/s,
   MB/s, peak RSS (of the largest process, from GNU time's %M, and of the whole process tree,
   sampled from /proc), and the number of findings, which must not depend on jobs or on the
   cache (a warm run must not rewrite a cache entry either);
2. the same tree scanned by ast-grep with one equivalent pattern rule
   (`bench/disabled-context-call.yml`, 2 threads), the ratios burnlint / ast-grep, and a plain
   single-threaded py-tree-sitter parse of every file as a reference line;
3. linearity: cold scans of synthetic workspaces (`bench/synth.py`) of size 1x, 4x, 16x, and
   the time per file net of the start-up every run pays once (`burnlint --version`);
4. the language server (`bench/lsp_latency.py`): process start -> first diagnostics,
   didOpen/didChange/hover latencies on a 5,000-line file, and the server's RSS after indexing
   a whole tree with `scope: "workspace"` (the first `--tree`, else the largest synthetic one).

The scan group runs on the largest synthetic workspace and on every `--tree`. Prints tables with
the issue's targets marked PASS/FAIL and writes every raw sample to the JSON file. Synthetic
trees and caches live in `--work` (default: $TMPDIR/burnlint-bench), outside any repository:
burnlint honours `.gitignore` files above the scanned folder. A run that fails is reported
loudly and left out of the medians.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import hashlib
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import lsp_latency
import synth
from files import rust_files

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
RULE = BENCH / "disabled-context-call.yml"
EXAMPLE = ROOT / "examples" / "dispatch-demo"
DEFAULT_JSON = BENCH / "results" / "bench.json"
MB = 1024 * 1024

# The targets.
TARGET_COLD_RATIO = 1.0
"""burnlint cold (--jobs 2) wall time / ast-grep's (2 threads)."""
TARGET_WARM_S = 0.2
TARGET_CHANGE_P95_MS = 50.0
TARGET_HOVER_P95_MS = 10.0
TARGET_FIRST_DIAGNOSTICS_S = 0.8
TARGET_RSS_MB = 200.0
TARGET_LINEAR = 1.5
"""Net per-file time at the largest size / at the smallest: at most this is called linear."""


def log(message: str) -> None:
    """Progress on stderr, so that stdout holds only the report."""
    print(f"[bench] {message}", file=sys.stderr, flush=True)


WARNINGS: dict[str, int] = {}
"""Each distinct warning and how many times it was raised."""


def warn(message: str) -> None:
    """A loud warning: printed now (the first time) and repeated at the end of the report."""
    if message not in WARNINGS:
        print(f"\n!!! WARNING: {message}\n", file=sys.stderr, flush=True)
    WARNINGS[message] = WARNINGS.get(message, 0) + 1


# Child processes ----------------------------------------------------------------------------

GNU_TIME = Path("/usr/bin/time")
"""Measures the peak RSS of a command exactly. `wait4`'s own ru_maxrss cannot: a child started
with vfork (as subprocess does) or fork keeps the parent's high-water mark across exec, so it
would report at least this benchmark's own RSS."""


def _descendants(pid: int) -> list[int]:
    found = [pid]
    index = 0
    while index < len(found):
        for task in Path(f"/proc/{found[index]}/task").glob("*"):
            try:
                found += [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                continue
        index += 1
    return found


def _memory_kb(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of a process in KiB; zeros once it is gone."""
    rss = hwm = 0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
            elif line.startswith("VmHWM:"):
                hwm = int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return rss, hwm


class TreeSampler(threading.Thread):
    """Every 50 ms: the summed RSS of a process and its descendants (worker processes
    included), and the largest high-water mark (VmHWM) of any one of them."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.tree_kb = 0
        self.hwm_kb = 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.05):
            memory = [_memory_kb(pid) for pid in _descendants(self.pid)]
            self.tree_kb = max(self.tree_kb, sum(rss for rss, _ in memory))
            self.hwm_kb = max(self.hwm_kb, *(hwm for _, hwm in memory), 0)

    def stop(self) -> tuple[float, float]:
        """Stop sampling; (peak tree RSS, largest process VmHWM) in MB."""
        self.done.set()
        self.join()
        return round(self.tree_kb / 1024, 1), round(self.hwm_kb / 1024, 1)


@dataclass(slots=True)
class Sample:
    """One run of a child process."""

    wall_s: float
    cpu_s: float
    """User + system time of the child and every child it waited for (workers included)."""
    peak_rss_mb: float
    """The peak RSS of the largest single process (the CLI or one of its workers): GNU time's
    %M where /usr/bin/time exists, else the largest VmHWM sampled from /proc."""
    tree_rss_mb: float
    """The peak of the summed RSS of the whole process tree, sampled every 50 ms."""
    returncode: int
    stdout: bytes = field(repr=False)
    stderr: bytes = field(repr=False)
    extra: dict[str, Any] = field(default_factory=dict[str, Any])

    @property
    def ok(self) -> bool:
        """Whether the run did its job (its numbers count)."""
        return self.returncode in (0, 1) and "error" not in self.extra

    def record(self) -> dict[str, Any]:
        """The sample for the JSON file."""
        out = {
            "wall_s": round(self.wall_s, 4),
            "cpu_s": round(self.cpu_s, 4),
            "peak_rss_mb": self.peak_rss_mb,
            "tree_rss_mb": self.tree_rss_mb,
            "returncode": self.returncode,
            **self.extra,
        }
        if not self.ok:
            out["stderr"] = self.stderr.decode("utf-8", "replace")[-2000:]
        return out


def _gnu_time_kb(path: Path) -> int | None:
    """The %M that GNU time wrote (its last line; a status line may come first)."""
    try:
        lines = path.read_text(encoding="utf-8").split()
    except OSError:
        return None
    return int(lines[-1]) if lines and lines[-1].isdigit() else None


def run_child(command: list[str], cwd: Path) -> Sample:
    """Run `command`, measuring wall time, CPU time and memory of it and its children."""
    with tempfile.TemporaryDirectory(prefix="burnlint-bench-") as folder:
        scratch = Path(folder)
        memory = scratch / "maxrss"
        if GNU_TIME.is_file():
            command = [str(GNU_TIME), "-f", "%M", "-o", str(memory), *command]
        with (scratch / "out").open("w+b") as out, (scratch / "err").open("w+b") as err:
            started = time.perf_counter()
            process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=err)
            sampler = TreeSampler(process.pid)
            sampler.start()
            # wait4 instead of Popen.wait: the child's own CPU time, not the benchmark's.
            _, status, usage = os.wait4(process.pid, 0)
            wall = time.perf_counter() - started
            tree, hwm = sampler.stop()
            process.returncode = os.waitstatus_to_exitcode(status)
            out.seek(0)
            err.seek(0)
            stdout, stderr = out.read(), err.read()
        measured = _gnu_time_kb(memory)
        peak = round(measured / 1024, 1) if measured is not None else hwm
        return Sample(
            wall_s=wall,
            cpu_s=usage.ru_utime + usage.ru_stime,
            peak_rss_mb=peak,
            # A run shorter than the sampling period is seen by GNU time only.
            tree_rss_mb=max(tree, peak),
            returncode=process.returncode,
            stdout=stdout,
            stderr=stderr,
            extra={"sampled_hwm_mb": hwm},
        )


# The tools ----------------------------------------------------------------------------------


def burnlint(path: Path, cwd: Path, jobs: int | None, cache: Path | None) -> Sample:
    """`burnlint check PATH --format json`: cold without a cache, else with `cache`; the
    number of findings and a digest of them go into `extra`."""
    command = [sys.executable, "-m", "burnlint", "check", str(path), "--format", "json"]
    command += ["--exit-zero"]
    command += ["--no-cache"] if cache is None else ["--cache-dir", str(cache)]
    if jobs is not None:
        command += ["--jobs", str(jobs)]
    sample = run_child(command, cwd)
    try:
        report = json.loads(sample.stdout)
        findings = report["findings"]
        keys = sorted(
            (f["path"], f["start"]["line"], f["start"]["column"], f["code"], f["severity"])
            for f in findings
        )
        sample.extra.update(
            findings=len(findings),
            findings_digest=hashlib.sha256(repr(keys).encode()).hexdigest()[:16],
            files=report["summary"]["files"],
            problems=len(report["problems"]),
        )
        if report["problems"]:
            sample.extra["first_problems"] = report["problems"][:5]
    except (ValueError, KeyError, TypeError):
        sample.extra.update(findings=None, files=None, error="no JSON report")
        lines = sample.stderr.decode("utf-8", "replace").strip().splitlines() or ["no output"]
        # The last line names the exception; the whole stderr is in the JSON file.
        warn(f"burnlint check failed (exit {sample.returncode}, not counted): {lines[-1]}")
    return sample


def ast_grep_binary() -> str | None:
    """ast-grep from the environment running this script (the `ast-grep-cli` dev dependency),
    else from PATH."""
    search = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return shutil.which("ast-grep", path=search) or shutil.which("sg", path=search)


def ast_grep(binary: str, path: Path, cwd: Path) -> Sample:
    """One scan with the single rule on 2 threads; the number of matches goes into `extra`."""
    command = [binary, "scan", "--rule", str(RULE), "--json=compact", "-j", "2", str(path)]
    sample = run_child(command, cwd)
    try:
        sample.extra["matches"] = len(json.loads(sample.stdout or b"[]"))
    except ValueError:
        sample.extra["matches"] = None
        warn(f"ast-grep on {path} exited {sample.returncode} without JSON")
    return sample


def tree_sitter_parse(path: Path, cwd: Path) -> Sample:
    """The py-tree-sitter reference: parse every file once, single-threaded."""
    sample = run_child([sys.executable, str(BENCH / "ts_parse.py"), str(path)], cwd)
    try:
        sample.extra.update(json.loads(sample.stdout))
    except ValueError:
        warn(f"py-tree-sitter parse of {path} failed: {sample.stderr[-500:]!r}")
    return sample


def _snapshot(cache: Path) -> dict[str, tuple[int, int]]:
    return {
        entry.name: (entry.stat().st_ino, entry.stat().st_mtime_ns)
        for entry in cache.glob("v*/*.json")
    }


# Statistics ---------------------------------------------------------------------------------


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def stats(samples: list[Sample], files: int, nbytes: int) -> dict[str, Any]:
    """Medians over the runs that worked, throughput from the median wall time, and every raw
    sample (failed ones included, with their stderr)."""
    good = [s for s in samples if s.ok]
    wall = median([s.wall_s for s in good])
    return {
        "runs": len(good),
        "failed_runs": len(samples) - len(good),
        "wall_s": _round(wall, 4),
        "cpu_s": _round(median([s.cpu_s for s in good]), 4),
        "files_per_s": round(files / wall, 1) if wall and files else None,
        "mb_per_s": round(nbytes / MB / wall, 3) if wall and files else None,
        "peak_rss_mb": median([s.peak_rss_mb for s in good]),
        "tree_rss_mb": median([s.tree_rss_mb for s in good]),
        "samples": [s.record() for s in samples],
    }


def ratio(a: float | None, b: float | None) -> float | None:
    """a / b, or None when either is unknown."""
    return round(a / b, 3) if a is not None and b else None


def _findings(samples: list[Sample]) -> set[tuple[Any, Any]]:
    """The distinct (count, digest) of findings among the runs that worked."""
    return {(s.extra.get("findings"), s.extra.get("findings_digest")) for s in samples if s.ok}


# The scan group -----------------------------------------------------------------------------


@dataclass(slots=True)
class Tree:
    """A tree to scan: a label, where it is, and what it holds."""

    label: str
    path: Path
    files: int
    nbytes: int
    info: dict[str, Any] = field(default_factory=dict[str, Any])


def tree_of(label: str, path: Path, info: dict[str, Any] | None = None) -> Tree:
    paths = rust_files(path)
    nbytes = sum(p.stat().st_size for p in paths)
    if not paths:
        warn(f"{path}: no .rs files found")
    return Tree(label, path, len(paths), nbytes, dict(info or {}))


def cold_scans(
    tree: Tree, work: Path, repeat: int, jobs: tuple[int, ...]
) -> dict[int, list[Sample]]:
    """`repeat` rounds of cold scans, one per jobs value each (interleaved, so that a slow
    moment of the machine does not land on a single configuration)."""
    samples: dict[int, list[Sample]] = {j: [] for j in jobs}
    for round_ in range(repeat):
        for j in jobs:
            sample = burnlint(tree.path, work, j, None)
            samples[j].append(sample)
            log(f"{tree.label}: cold --jobs {j} [{round_ + 1}/{repeat}] {sample.wall_s:.2f} s")
    return samples


def scan_group(
    tree: Tree, work: Path, repeat: int, ast_grep_bin: str | None, cold: dict[int, list[Sample]]
) -> dict[str, Any]:
    """Cold (given), warm, ast-grep and tree-sitter measurements of one tree."""
    result: dict[str, Any] = {"files": tree.files, "bytes": tree.nbytes, **tree.info}
    for j, samples in cold.items():
        result[f"cold_jobs{j}"] = stats(samples, tree.files, tree.nbytes)

    # Warm: fill the cache once (default jobs), then scan again `repeat` times.
    cache = work / "cache" / tree.label
    shutil.rmtree(cache, ignore_errors=True)
    fill = burnlint(tree.path, work, None, cache)
    log(f"{tree.label}: cache fill {fill.wall_s:.2f} s")
    warm: list[Sample] = []
    for round_ in range(repeat):
        before = _snapshot(cache)
        sample = burnlint(tree.path, work, None, cache)
        after = _snapshot(cache)
        rewritten = sum(1 for name, stamp in after.items() if before.get(name) != stamp)
        sample.extra["cache_entries"] = len(after)
        sample.extra["cache_entries_rewritten"] = rewritten
        if rewritten and sample.ok and fill.ok:
            # A rewritten entry is a cache miss: the run analyzed that crate again.
            warn(f"{tree.label}: warm run rewrote {rewritten} of {len(after)} cache entries")
        warm.append(sample)
        log(f"{tree.label}: warm [{round_ + 1}/{repeat}] {sample.wall_s:.3f} s")
    result["cache_fill"] = stats([fill], tree.files, tree.nbytes)
    result["warm"] = stats(warm, tree.files, tree.nbytes)

    everything = [s for samples in cold.values() for s in samples] + [fill, *warm]
    seen = _findings(everything)
    result["findings"] = next((s.extra["findings"] for s in everything if s.ok), None)
    result["findings_consistent"] = len(seen) == 1
    if len(seen) > 1:
        groups = [
            *((f"cold_jobs{j}", s) for j, s in cold.items()),
            ("fill", [fill]),
            ("warm", warm),
        ]
        detail = {
            name: sorted({s.extra.get("findings") for s in samples if s.ok}, key=str)
            for name, samples in groups
        }
        warn(f"{tree.label}: findings differ between runs: {detail}")
    elif not seen:
        warn(f"{tree.label}: no burnlint run worked")
    files_seen = {s.extra.get("files") for s in everything if s.ok}
    result["burnlint_files"] = sorted(files_seen, key=str)
    if files_seen != {tree.files}:
        log(
            f"{tree.label}: burnlint checked {files_seen} files, the benchmark counted {tree.files}"
        )

    if ast_grep_bin is not None:
        runs: list[Sample] = []
        for round_ in range(repeat):
            runs.append(ast_grep(ast_grep_bin, tree.path, work))
            log(f"{tree.label}: ast-grep [{round_ + 1}/{repeat}] {runs[-1].wall_s:.2f} s")
        result["ast_grep"] = stats(runs, tree.files, tree.nbytes)
        result["ast_grep"]["matches"] = runs[0].extra.get("matches")
    parses = []
    for round_ in range(repeat):
        parses.append(tree_sitter_parse(tree.path, work))
        log(f"{tree.label}: py-tree-sitter [{round_ + 1}/{repeat}] {parses[-1].wall_s:.2f} s")
    result["tree_sitter"] = stats(parses, tree.files, tree.nbytes)
    parse_s = median([float(s.extra["parse_s"]) for s in parses if "parse_s" in s.extra])
    result["tree_sitter"]["parse_s"] = _round(parse_s, 4)
    if "ast_grep" in result:
        seconds = result["ast_grep"]["wall_s"]
        result["ratio_cold_jobs2_vs_ast_grep"] = ratio(result["cold_jobs2"]["wall_s"], seconds)
        result["ratio_warm_vs_ast_grep"] = ratio(result["warm"]["wall_s"], seconds)
    return result


# Reporting ----------------------------------------------------------------------------------


@dataclass(slots=True)
class Verdict:
    """One target of the issue and whether this run met it."""

    group: str
    what: str
    value: str
    target: str
    passed: bool | None


VERDICTS: list[Verdict] = []


def judge(group: str, what: str, value: float | None, limit: float, unit: str) -> str:
    """Record `value <= limit` as a verdict; returns the word for the table."""
    if value is None or math.isnan(value):
        VERDICTS.append(Verdict(group, what, "n/a", f"<= {limit:g} {unit}", None))
        return "n/a"
    passed = value <= limit
    VERDICTS.append(Verdict(group, what, f"{value:.3g} {unit}", f"<= {limit:g} {unit}", passed))
    return "PASS" if passed else "FAIL"


def table(headers: list[str], rows: list[list[str]], left: int = 1) -> str:
    """Columns aligned: the first `left` ones to the left, the others to the right."""
    widths = [max(len(r[i]) for r in [headers, *rows]) for i in range(len(headers))]

    def line(cells: list[str]) -> str:
        padded = [
            f"{c:<{w}}" if i < left else f"{c:>{w}}"
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(padded).rstrip()

    return "\n".join([line(headers), "-" * len(line(headers)), *(line(r) for r in rows)])


def _f(value: Any, digits: int = 2) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _times(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"


def _cells(s: dict[str, Any], wall_digits: int = 2) -> list[str]:
    """wall, cpu, files/s, MB/s, peak RSS and tree RSS of a `stats` record."""
    return [
        _f(s["wall_s"], wall_digits),
        _f(s["cpu_s"]),
        _f(s["files_per_s"], 0),
        _f(s["mb_per_s"]),
        _f(s["peak_rss_mb"], 0),
        _f(s["tree_rss_mb"], 0),
    ]


SCAN_HEADERS = ["", "wall s", "cpu s", "files/s", "MB/s", "peak RSS MB", "tree RSS MB"]


def report_scan(label: str, result: dict[str, Any]) -> str:
    """The scan and ast-grep groups of one tree."""
    mb = result["bytes"] / MB
    runs = result["warm"]["runs"]
    rows: list[list[str]] = []
    rss_target = f"RSS <= {TARGET_RSS_MB:.0f} MB"
    for jobs in (1, 2):
        s = result[f"cold_jobs{jobs}"]
        what = f"{label}: CLI peak RSS, cold --jobs {jobs}"
        verdict = judge("scan", what, s["peak_rss_mb"], TARGET_RSS_MB, "MB")
        findings = _f(result["findings"])
        rows.append([f"cold --jobs {jobs}", *_cells(s), findings, rss_target, verdict])
    fill = result["cache_fill"]
    findings = _f(fill["samples"][0].get("findings"))
    rows.append(["cache fill (1 run, default jobs)", *_cells(fill), findings, "", ""])
    startup = result.get("startup")
    if startup is not None:
        rows.append(["start-up only (burnlint --version)", *_cells(startup, 3), "", "", ""])
    warm = result["warm"]
    verdict = judge("scan", f"{label}: warm scan", warm["wall_s"], TARGET_WARM_S, "s")
    findings = _f(result["findings"])
    target = f"<= {TARGET_WARM_S} s"
    rows.append(["warm (default jobs)", *_cells(warm, 3), findings, target, verdict])
    headers = ["burnlint check", *SCAN_HEADERS[1:], "findings", "target", ""]
    lines = [
        f"== scan: {label} ({result['files']} files, {mb:.1f} MB; medians of {runs}) ==",
        table(headers, rows),
    ]
    failed = sum(result[k]["failed_runs"] for k in ("cold_jobs1", "cold_jobs2", "warm"))
    if failed:
        lines.append(f"!!! {failed} burnlint runs failed and are not counted (see the warnings)")
    if result["findings_consistent"]:
        lines.append(f"findings equal in every run ({result['findings']})")
    else:
        lines.append("!!! findings differ between jobs / cold / warm runs (see the warnings)")
    if "planted" in result:
        lines.append(f"bugs planted in the synthetic tree: {result['planted']}")

    rows = []
    ag = result.get("ast_grep")
    if ag is not None:
        name = "ast-grep scan -j 2 (1 pattern rule)"
        rows.append([name, *_cells(ag), f"{ag['matches']} matches", "", ""])
    ts = result["tree_sitter"]
    note = f"parse only {_f(ts['parse_s'])} s"
    rows.append(["py-tree-sitter parse, 1 thread", *_cells(ts), note, "", ""])
    if ag is not None:
        cold = result["ratio_cold_jobs2_vs_ast_grep"]
        what = f"{label}: burnlint cold --jobs 2 / ast-grep"
        verdict = judge("ast-grep", what, cold, TARGET_COLD_RATIO, "x")
        blank = [""] * 5
        target = f"<= {TARGET_COLD_RATIO:g}x"
        name = "burnlint cold --jobs 2 / ast-grep"
        rows.append([name, _times(cold), *blank, "", target, verdict])
        warm_ratio = result["ratio_warm_vs_ast_grep"]
        name = "burnlint warm / ast-grep"
        rows.append([name, _times(warm_ratio), *blank, "", "(info)", ""])
    headers = ["same tree", *SCAN_HEADERS[1:], "note", "target", ""]
    lines += ["", f"== ast-grep and tree-sitter: {label} ==", table(headers, rows)]
    return "\n".join(lines)


def report_linearity(sizes: list[dict[str, Any]]) -> str:
    """Cold scan time and time per file by size."""
    rows = [
        [
            f"{row['size']}x",
            str(row["files"]),
            f"{row['bytes'] / MB:.1f}",
            _f(row["jobs1"]["wall_s"]),
            _f(row["jobs1_ms_per_file"]),
            _f(row["jobs1_net_ms_per_file"]),
            _f(row["jobs2"]["wall_s"]),
            _f(row["jobs2_ms_per_file"]),
            _f(row["jobs2_net_ms_per_file"]),
            _f(row["findings"]),
        ]
        for row in sizes
    ]
    headers = ["size", "files", "MB", "cold j1 s", "j1 ms/file", "net", "cold j2 s"]
    headers += ["j2 ms/file", "net", "findings"]
    lines = [
        "== linearity: cold scans of synthetic workspaces ==",
        table(headers, rows),
        "(net: minus the start-up time of `burnlint --version`, which every run pays once)",
    ]
    if len(sizes) >= 2:
        small, big = sizes[0], sizes[-1]
        for jobs in (1, 2):
            key = f"jobs{jobs}_net_ms_per_file"
            growth = ratio(big[key], small[key])
            what = f"net per-file time {big['size']}x / {small['size']}x, cold --jobs {jobs}"
            verdict = judge("linearity", what, growth, TARGET_LINEAR, "x")
            if growth is None:
                shape = "unknown"
            elif growth > TARGET_LINEAR:
                shape = "super-linear"
            else:
                shape = "linear" if growth >= 1 / TARGET_LINEAR else "sub-linear"
            limit = f"target <= {TARGET_LINEAR}x"
            lines.append(f"{what}: {_times(growth)}, {shape} ({limit}) {verdict}")
    return "\n".join(lines)


def report_lsp(lsp: dict[str, Any], debounce: float) -> str:
    """The language-server group."""
    rows: list[list[str]] = []

    def row(
        name: str, ms: str, p50: str = "", p95: str = "", target: str = "", verdict: str = ""
    ) -> None:
        rows.append([name, ms, p50, p95, target, verdict])

    first = lsp.get("first_diagnostics")
    if first:
        value = first["start_to_first_diagnostics_s"]
        what = "server start -> first diagnostics"
        verdict = judge("LSP", what, value, TARGET_FIRST_DIAGNOSTICS_S, "s")
        target = f"<= {TARGET_FIRST_DIAGNOSTICS_S * 1000:.0f} ms"
        row(f"{what} (quant.rs)", f"{value * 1000:.0f}", target=target, verdict=verdict)
        row("server start -> initialize answered", f"{first['start_to_initialized_s'] * 1000:.0f}")
        row("didOpen -> diagnostics, quant.rs", f"{first['open_to_diagnostics_s'] * 1000:.0f}")
    latency = lsp.get("latency")
    if latency:
        big = latency["open_generated"]
        row(f"didOpen -> diagnostics, {big['lines']}-line file", f"{big['ms']:.0f}")
        change = latency["change_generated"]
        p50, p95 = change["p50_ms"], change["p95_ms"]
        row(
            f"didChange -> diagnostics, {change['n']} edits",
            f"{change['mean_ms']:.0f}",
            f"{p50:.0f}",
            f"{p95:.0f}",
        )
        # The server analyzes an edit at once when no analysis of the document is under
        # way (its debounce only holds back edits that arrive during one), so the raw
        # figure is what a typist sees.
        verdict = judge("LSP", "didChange p95", p95, TARGET_CHANGE_P95_MS, "ms")
        rows[-1][4:] = [f"p95 <= {TARGET_CHANGE_P95_MS:.0f} ms", verdict]
        hover = latency["hover_generated"]
        verdict = judge("LSP", "hover p95", hover["p95_ms"], TARGET_HOVER_P95_MS, "ms")
        target = f"p95 <= {TARGET_HOVER_P95_MS:.0f} ms"
        p50, p95 = f"{hover['p50_ms']:.1f}", f"{hover['p95_ms']:.1f}"
        row(f"hover, {hover['n']} requests", f"{hover['mean_ms']:.1f}", p50, p95, target, verdict)
    memory = lsp.get("workspace")
    if memory:
        name = Path(memory["root"]).name
        if memory["finished"]:
            what = f"workspace index of {name} ({memory['tree_files']} files)"
            row(what, f"{memory['index_s'] * 1000:.0f}")
        else:
            row(f"workspace index of {name}: NOT finished", "")
        what = f"server RSS after indexing {name}"
        verdict = judge("LSP", what, memory["rss_mb"], TARGET_RSS_MB, "MB")
        value = f"{_f(memory['rss_mb'], 0)} MB (peak {_f(memory['hwm_mb'], 0)})"
        row(what, value, target=f"<= {TARGET_RSS_MB:.0f} MB", verdict=verdict)
    headers = ["language server", "ms", "p50 ms", "p95 ms", "target", ""]
    return "\n".join(["== language server ==", table(headers, rows)])


def report_verdicts() -> str:
    """Every target with its verdict."""
    rows = [
        [
            v.group,
            v.what,
            v.value,
            v.target,
            "n/a" if v.passed is None else ("PASS" if v.passed else "FAIL"),
        ]
        for v in VERDICTS
    ]
    headers = ["group", "target", "measured", "limit", ""]
    return "\n".join(["== targets of issue 8 ==", table(headers, rows, left=2)])


# Machine ------------------------------------------------------------------------------------


def git_commit(root: Path) -> str | None:
    """The checked-out commit, read from .git without running git (None if unknown)."""
    git = root / ".git"
    try:
        if git.is_file():
            git = (root / git.read_text().split(":", 1)[1].strip()).resolve()
        common = git
        if (git / "commondir").is_file():
            common = (git / (git / "commondir").read_text().strip()).resolve()
        head = (git / "HEAD").read_text().strip()
        if not head.startswith("ref:"):
            return head
        ref = head[4:].strip()
        for base in (git, common):
            if (base / ref).is_file():
                return (base / ref).read_text().strip()
        for line in (common / "packed-refs").read_text().splitlines():
            if line.endswith(" " + ref):
                return line.split()[0]
    except (OSError, IndexError):
        return None
    return None


def machine(ast_grep_bin: str | None) -> dict[str, Any]:
    import burnlint

    info: dict[str, Any] = {
        "cpus": os.cpu_count(),
        "cpus_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "burnlint": burnlint.__version__,
        "commit": git_commit(ROOT),
        "load_average_start": os.getloadavg(),
    }
    if ast_grep_bin is not None:
        version = subprocess.run(
            [ast_grep_bin, "--version"], check=False, capture_output=True, text=True
        )
        info["ast_grep"] = version.stdout.strip()
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines()
        models = [line.split(":", 1)[1].strip() for line in cpuinfo if "model name" in line]
        info["cpu_model"] = models[0] if models else None
    except OSError:
        pass
    return info


# Main ---------------------------------------------------------------------------------------


def check_rule(ast_grep_bin: str, work: Path) -> int | None:
    """The ast-grep rule must match in the example crate (7 calls pass `Disabled` there)."""
    sample = ast_grep(ast_grep_bin, EXAMPLE, work)
    matches = sample.extra.get("matches")
    if not matches:
        warn(f"the ast-grep rule {RULE.name} matches nothing in {EXAMPLE}")
    return matches


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Benchmark burnlint (issue 8).")
    parser.add_argument(
        "--tree",
        type=Path,
        action="append",
        default=[],
        help="an existing tree to scan too, e.g. a burn checkout (repeatable)",
    )
    parser.add_argument(
        "--sizes",
        default=None,
        help="synthetic size factors, e.g. 1,4,16 (default; --quick: 1,4); "
        "'none' for no synthetic workspace",
    )
    parser.add_argument("--repeat", type=int, default=None, help="runs per measure (default 3)")
    parser.add_argument(
        "--quick", action="store_true", help="sizes 1,4, one run each, fewer edits and hovers"
    )
    parser.add_argument("--skip-lsp", action="store_true", help="no language-server part")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write results")
    parser.add_argument("--seed", type=int, default=synth.DEFAULT_SEED)
    parser.add_argument(
        "--work",
        type=Path,
        default=Path(tempfile.gettempdir()) / "burnlint-bench",
        help="folder for the synthetic trees and caches (kept between runs)",
    )
    parser.add_argument(
        "--lsp-timeout", type=float, default=900.0, help="seconds to wait for the workspace index"
    )
    args = parser.parse_args(argv)
    if args.sizes is None:
        args.sizes = "1,4" if args.quick else "1,4,16"
    args.size_list = (
        [] if args.sizes == "none" else sorted({int(s) for s in args.sizes.split(",") if s})
    )
    if args.repeat is None:
        args.repeat = 1 if args.quick else 3
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        import burnlint  # noqa: F401
    except ImportError:
        print(
            f"burnlint is not importable by {sys.executable}; use the project's venv",
            file=sys.stderr,
        )
        return 2
    started = time.perf_counter()
    work: Path = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    ast_grep_bin = ast_grep_binary()
    if ast_grep_bin is None:
        warn("ast-grep not found (pip install ast-grep-cli): its comparison is skipped")
    results: dict[str, Any] = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(ast_grep_bin),
        "args": vars(args),
        "targets": {
            "cold_ratio_vs_ast_grep": TARGET_COLD_RATIO,
            "warm_s": TARGET_WARM_S,
            "did_change_p95_ms": TARGET_CHANGE_P95_MS,
            "hover_p95_ms": TARGET_HOVER_P95_MS,
            "first_diagnostics_s": TARGET_FIRST_DIAGNOSTICS_S,
            "rss_mb": TARGET_RSS_MB,
            "linear_growth_max": TARGET_LINEAR,
        },
    }
    if ast_grep_bin is not None:
        results["ast_grep_rule_matches_in_example"] = check_rule(ast_grep_bin, work)

    # Synthetic workspaces: every size gets cold scans, the largest the whole scan group.
    synthetic: list[Tree] = []
    for size in args.size_list:
        root = work / f"synth-{size}x-seed{args.seed}"
        log(f"synthetic workspace {size}x in {root}")
        info = synth.ensure(root, size, args.seed)
        synthetic.append(tree_of(f"synthetic-{size}x", root, info))
    trees: list[Tree] = [tree_of(f"tree-{p.name}", p.resolve()) for p in args.tree]

    # What every scan pays before it reads a file: the interpreter and burnlint's imports.
    version = [sys.executable, "-m", "burnlint", "--version"]
    startup = stats([run_child(version, work) for _ in range(max(3, args.repeat))], 0, 0)
    results["startup"] = startup
    if startup["wall_s"] is None:
        print("`python -m burnlint --version` fails: burnlint cannot start", file=sys.stderr)
        print(startup["samples"][-1].get("stderr", ""), file=sys.stderr)
        return 2
    log(f"start-up only (burnlint --version): {startup['wall_s']:.3f} s")

    scans: dict[str, Any] = {}
    linearity: list[dict[str, Any]] = []
    for index, tree in enumerate(synthetic):
        cold = cold_scans(tree, work, args.repeat, (1, 2))
        if index == len(synthetic) - 1:
            scans[tree.label] = scan_group(tree, work, args.repeat, ast_grep_bin, cold)
        row: dict[str, Any] = {"size": tree.info["size"], "files": tree.files, "bytes": tree.nbytes}
        for j, samples in cold.items():
            row[f"jobs{j}"] = stats(samples, tree.files, tree.nbytes)
            wall = row[f"jobs{j}"]["wall_s"]
            net = None if wall is None else max(0.0, wall - startup["wall_s"])
            row[f"jobs{j}_ms_per_file"] = ratio(None if wall is None else wall * 1000, tree.files)
            row[f"jobs{j}_net_ms_per_file"] = ratio(None if net is None else net * 1000, tree.files)
        seen = _findings([s for samples in cold.values() for s in samples])
        row["findings"] = next(iter(seen))[0] if len(seen) == 1 else None
        row["planted"] = tree.info.get("planted")
        if len(seen) > 1:
            warn(f"{tree.label}: findings differ between --jobs 1 and --jobs 2")
        linearity.append(row)
    for tree in trees:
        cold = cold_scans(tree, work, args.repeat, (1, 2))
        scans[tree.label] = scan_group(tree, work, args.repeat, ast_grep_bin, cold)
    for result in scans.values():
        result["startup"] = startup
    results["scans"] = scans
    results["linearity"] = linearity

    debounce = 0.15
    if not args.skip_lsp:
        try:
            from burnlint.lsp.diagnostics import DEBOUNCE_SECONDS

            debounce = DEBOUNCE_SECONDS
        except ImportError:
            pass
        results["lsp"] = run_lsp(args, trees, synthetic)
    results["lsp_debounce_s"] = debounce

    # The report.
    sections: list[str] = []
    info = results["machine"]
    sections.append(
        f"burnlint {info['burnlint']} benchmark, {results['date']}: {info['cpus']} CPUs "
        f"({info.get('cpu_model')}), Python {info['python']}, commit {info['commit'] or '?'}; "
        f"medians of {args.repeat} run(s); load average at start "
        f"{', '.join(f'{x:.2f}' for x in info['load_average_start'])}"
    )
    for label, result in scans.items():
        sections.append(report_scan(label, result))
    if linearity:
        sections.append(report_linearity(linearity))
    if "lsp" in results:
        sections.append(report_lsp(results["lsp"], debounce))
    sections.append(report_verdicts())
    results["verdicts"] = [
        {"group": v.group, "what": v.what, "value": v.value, "target": v.target, "passed": v.passed}
        for v in VERDICTS
    ]
    results["machine"]["load_average_end"] = os.getloadavg()
    results["warnings"] = [{"message": w, "times": n} for w, n in WARNINGS.items()]
    results["total_s"] = round(time.perf_counter() - started, 1)
    if WARNINGS:
        listed = [f"!!! {w}" + (f" (x{n})" if n > 1 else "") for w, n in WARNINGS.items()]
        sections.append("!!! WARNINGS\n" + "\n".join(listed))
    sections.append(f"total {results['total_s']} s")
    print("\n\n".join(sections))
    out: Path = args.json
    if out.resolve().parent == lsp_latency.RESULTS.resolve():
        lsp_latency.write_results(out.name, results)
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(results, indent=2, default=str) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    # Targets missed are results; a failed run or inconsistent findings is a problem.
    return 1 if WARNINGS else 0


def run_lsp(args: argparse.Namespace, trees: list[Tree], synthetic: list[Tree]) -> dict[str, Any]:
    """The language-server group; a failing part is reported and the others still run."""
    lsp: dict[str, Any] = {}
    edits, hovers = (10, 20) if args.quick else (50, 100)

    def attempt(name: str, action: Callable[[], Any]) -> Any:
        try:
            return action()
        except Exception as error:
            warn(f"language server, {name}: {type(error).__name__}: {error}")
            return None

    starts = []
    for round_ in range(args.repeat):
        first = attempt("first diagnostics", lambda: asyncio.run(lsp_latency.first_diagnostics()))
        if first is not None:
            starts.append(first)
            log(
                f"LSP: start -> first diagnostics [{round_ + 1}/{args.repeat}] "
                f"{first['start_to_first_diagnostics_s']:.2f} s"
            )
    if starts:
        lsp["first_diagnostics"] = {
            key: median([s[key] for s in starts])
            for key in (
                "start_to_initialized_s",
                "start_to_first_diagnostics_s",
                "open_to_diagnostics_s",
            )
        } | {"samples": starts}
    log(f"LSP: latency on a 5,000-line file ({edits} edits, {hovers} hovers)")
    lsp["latency"] = attempt(
        "latency", lambda: asyncio.run(lsp_latency.measure(5000, edits, hovers))
    )
    target = trees[0] if trees else (synthetic[-1] if synthetic else None)
    if target is not None:
        log(f"LSP: workspace index of {target.path} (scope: workspace)")
        lsp["workspace"] = attempt(
            "workspace index",
            lambda: asyncio.run(lsp_latency.workspace_memory(target.path, args.lsp_timeout)),
        )
        if lsp["workspace"] is not None:
            lsp["workspace"]["tree_files"] = target.files
            if not lsp["workspace"]["finished"]:
                warn(f"the workspace index of {target.path} did not finish in {args.lsp_timeout} s")
    return {k: v for k, v in lsp.items() if v is not None}


if __name__ == "__main__":
    raise SystemExit(main())
