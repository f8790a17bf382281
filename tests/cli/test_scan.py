"""Scanning many files: the result cache (hits, invalidation, corruption, no pickle), parallel
workers giving the same report as one process, and `--watch` picking up an edit."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from test_cli import ROOT, run

from burnlint.analysis.engine import Analyzer
from burnlint.cache import ResultCache
from burnlint.checking import Request, check
from burnlint.config import Overrides
from burnlint.kb.load import load_kb

EXAMPLE = ROOT / "examples" / "dispatch-demo"
CRATES = ROOT / "tests" / "corpus" / "crates"


@pytest.fixture
def crate(tmp_path: Path) -> Path:
    target = tmp_path / "demo"
    shutil.copytree(EXAMPLE, target)
    return target


def test_cache_hit_invalidation_and_configuration_change(crate: Path, tmp_path: Path) -> None:
    analyzer = Analyzer(load_kb())
    cache = ResultCache(tmp_path / "cache")
    request = Request((str(crate),), Overrides(isolated=True), cache)
    cold = check(analyzer, request)
    assert cold.cached == 0
    fresh_cache = ResultCache(tmp_path / "cache")  # a new process: only the disk is shared
    warm = check(analyzer, Request((str(crate),), Overrides(isolated=True), fresh_cache))
    assert warm.cached == warm.files == cold.files
    assert warm.results == cold.results

    quant = crate / "src" / "quant.rs"
    quant.write_text(quant.read_text().replace("Disabled);", "Enabled(Gcs::Disabled));"))
    edited = check(
        analyzer, Request((str(crate),), Overrides(isolated=True), ResultCache(tmp_path / "cache"))
    )
    assert edited.cached == 0  # a helper in any file of the crate can change every result
    assert (
        sum(len(r.findings) for r in edited.results)
        == sum(len(r.findings) for r in cold.results) - 1
    )

    ignored = Overrides(isolated=True, ignore=frozenset({"BD004"}))
    other = check(analyzer, Request((str(crate),), ignored, ResultCache(tmp_path / "cache")))
    assert other.cached == 0
    assert all(f.code != "BD004" for r in other.results for f in r.findings)


def test_cache_files_are_json_ignored_by_git_and_corruption_is_a_miss(crate: Path) -> None:
    first = run("check", ".", "--format", "json", cwd=crate)
    folder = crate / ".burnlint_cache"
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    entries = list(folder.glob("v*/*.json"))
    assert entries
    for entry in entries:
        json.loads(entry.read_text(encoding="utf-8"))
        entry.write_bytes(b"\x80garbage{")
    second = run("check", ".", "--format", "json", cwd=crate)
    assert second.returncode == first.returncode == 1
    assert second.stdout == first.stdout
    third = run("check", ".", "--format", "json", cwd=crate)
    assert third.stdout == first.stdout


def test_no_cache_writes_nothing_and_clean_removes_entries(crate: Path) -> None:
    run("check", ".", "--no-cache", cwd=crate)
    assert not (crate / ".burnlint_cache").exists()
    run("check", ".", cwd=crate)
    assert list((crate / ".burnlint_cache").glob("v*/*.json"))
    result = run("clean", cwd=crate)
    assert result.returncode == 0
    assert not list((crate / ".burnlint_cache").glob("v*/*.json"))


def test_parallel_report_is_identical_to_serial() -> None:
    args = ("check", str(CRATES.relative_to(ROOT)), "--format", "json", "--no-cache")
    serial = run(*args, "--jobs", "1")
    parallel = run(*args, "--jobs", "2")
    assert serial.returncode == parallel.returncode == 1, serial.stderr + parallel.stderr
    assert json.loads(serial.stdout)["summary"]["findings"] > 5
    assert parallel.stdout == serial.stdout


def test_watch_reports_again_after_an_edit(crate: Path) -> None:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "burnlint", "check", ".", "--watch", "--format", "concise"],
        cwd=crate,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    try:
        first = _until_watching(process)
        assert "src/quant.rs:16:15: BD001" in first
        time.sleep(0.3)  # let the watcher settle before the edit
        quant = crate / "src" / "quant.rs"
        quant.write_text(quant.read_text().replace("Disabled);", "Enabled(Gcs::Disabled));"))
        second = _until_watching(process)
        assert "1 file changed" in second
        assert "src/quant.rs:16" not in second
        assert "src/train.rs:25:20: BD004" in second
    finally:
        process.terminate()
        process.wait(timeout=10)


def _until_watching(process: subprocess.Popen[str], timeout: float = 60) -> str:
    assert process.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "watching for changes" in line:
            return "".join(lines)
    raise AssertionError("no report from --watch:\n" + "".join(lines))


def test_unchanged_old_files_are_answered_without_reading_them(crate: Path, tmp_path: Path) -> None:
    analyzer = Analyzer(load_kb())
    old = time.time() - 3600
    for path in crate.rglob("*"):
        os.utime(path, (old, old))
    request = Request((str(crate),), Overrides(isolated=True))
    cold = check(analyzer, replace(request, cache=ResultCache(tmp_path / "cache")))
    warm = check(analyzer, replace(request, cache=ResultCache(tmp_path / "cache")))
    assert warm.cached == warm.files == cold.files
    assert warm.results == cold.results
    # Only the files the report quotes were read: those with findings and related locations.
    assert "src/lib.rs" not in {Path(p).relative_to(crate).as_posix() for p in warm.texts}
    assert set(warm.texts) < set(cold.texts)

    # A change that keeps the old modification time still shows (the size differs).
    quant = crate / "src" / "quant.rs"
    quant.write_text(quant.read_text().replace("Disabled);", "Enabled(Gcs::Disabled));"))
    os.utime(quant, (old, old))
    edited = check(analyzer, replace(request, cache=ResultCache(tmp_path / "cache")))
    assert edited.cached == 0
    assert sum(len(r.findings) for r in edited.results) == (
        sum(len(r.findings) for r in cold.results) - 1
    )
