"""File-system safety of `burnlint check` (and the walk the language server shares): links are
not followed, unreadable and non-UTF-8 files are reported, resource bounds say so when hit,
nothing is written outside the checked tree and the cache, and loading configuration or the
knowledge base cannot run code."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_cli import ROOT, run

from burnlint import walk

EXAMPLE = ROOT / "examples" / "dispatch-demo"
PACKAGE = ROOT / "server" / "burnlint"


@pytest.fixture
def crate(tmp_path: Path) -> Path:
    target = tmp_path / "tree" / "demo"
    shutil.copytree(EXAMPLE, target)
    return target


def found_paths(crate: Path, *args: str) -> set[str]:
    result = run("check", ".", "--format", "json", "--no-cache", *args, cwd=crate)
    assert result.returncode in (0, 1, 2), result.stderr
    return {f["path"] for f in json.loads(result.stdout)["findings"]}


def test_links_are_not_followed_loops_and_outside_files_included(crate: Path) -> None:
    outside = crate.parent / "outside"
    outside.mkdir()
    shutil.copy(crate / "src" / "quant.rs", outside / "secret.rs")
    (crate / "src" / "loop").symlink_to(crate, target_is_directory=True)
    (crate / "src" / "out").symlink_to(outside, target_is_directory=True)
    (crate / "src" / "linked.rs").symlink_to(outside / "secret.rs")
    result = run("check", ".", "--format", "json", "--no-cache", cwd=crate)
    assert result.returncode == 1, result.stderr
    paths = {f["path"] for f in json.loads(result.stdout)["findings"]}
    assert paths == {"src/infer.rs", "src/quant.rs", "src/train.rs"}
    assert json.loads(result.stdout)["summary"]["files"] == 5


def test_unreadable_folder_is_reported_not_skipped(
    crate: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Permissions do not stop root (CI runs as root), so the listing itself fails here.
    real_scandir = os.scandir
    blocked = str(crate / "src")

    def scandir(path: str) -> object:
        if str(path).endswith("src"):
            raise PermissionError(13, "Permission denied", blocked)
        return real_scandir(path)

    monkeypatch.setattr(walk.os, "scandir", scandir)
    problems: list[str] = []
    targets = list(walk.discover([str(crate)], problems))
    assert targets == []
    assert problems == [f"{crate / 'src'}: cannot read folder: Permission denied"]


UNPRIVILEGED: list[str] = []
"""As root, run the CLI without the capabilities that let root read any file (CAP_DAC_OVERRIDE,
CAP_DAC_READ_SEARCH), so file permissions apply to it as to anyone (CI runs as root). The user
stays root, so the interpreter and the checkout, wherever they are, stay reachable."""
if os.geteuid() == 0:
    _setpriv = shutil.which("setpriv")
    if _setpriv is not None:
        _dac = "-dac_override,-dac_read_search"
        UNPRIVILEGED = [_setpriv, f"--bounding-set={_dac}", f"--inh-caps={_dac}"]


@pytest.mark.skipif(
    os.geteuid() == 0 and not UNPRIVILEGED, reason="root reads every file and setpriv is missing"
)
def test_unreadable_file_is_reported(crate: Path) -> None:
    quant = crate / "src" / "quant.rs"
    quant.chmod(0)
    try:
        result = subprocess.run(
            [*UNPRIVILEGED, sys.executable, "-m", "burnlint", "check", ".", "--no-cache"],
            cwd=crate,
            capture_output=True,
            text=True,
            encoding="utf-8",
            env={**os.environ, "NO_COLOR": "1"},
            timeout=120,
            check=False,
        )
    finally:
        quant.chmod(0o644)
    assert result.returncode == 2, result.stderr
    assert "src/quant.rs: cannot read: Permission denied" in result.stderr
    # The rest of the crate is still checked.
    assert "src/infer.rs" in result.stdout


def test_non_utf8_and_oversized_files_are_reported_and_skipped(crate: Path) -> None:
    (crate / "src" / "latin1.rs").write_bytes(b"// caf\xe9\nfn f() {}\n")
    big = crate / "src" / "big.rs"
    big.write_text("// padding\n" * 20_000, encoding="utf-8")
    result = run(
        "check", ".", "--format", "concise", "--no-cache", "--max-file-size", "64KiB", cwd=crate
    )
    assert result.returncode == 2
    assert "src/latin1.rs: not valid UTF-8 (byte 6); skipped" in result.stderr
    assert "src/big.rs: 214.8 KiB, larger than max-file-size (64 KiB); skipped" in result.stderr
    # The rest of the crate is still checked.
    assert "src/quant.rs:16:15: BD001" in result.stdout


def test_too_many_files_stops_with_a_clear_error(crate: Path) -> None:
    result = run("check", ".", "--no-cache", "--max-files", "3", cwd=crate)
    assert result.returncode == 2
    assert "more than 3 Rust files under ." in result.stderr
    assert "max-files" in result.stderr
    (crate / "burnlint.toml").write_text("max-files = 100\n", encoding="utf-8")
    assert run("check", ".", "--no-cache", cwd=crate).returncode == 1


def test_nothing_is_written_outside_the_tree_and_the_cache(crate: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}

    def snapshot() -> dict[str, tuple[int, int]]:
        return {
            p.relative_to(tmp_path).as_posix(): (p.stat().st_mtime_ns, p.stat().st_size)
            for p in tmp_path.rglob("*")
            if p.is_file()
        }

    before = snapshot()
    run("check", ".", cwd=crate, env=env)
    run("check", ".", "--fix", "--unsafe-fixes", cwd=crate, env=env)
    run("check", ".", "--format", "sarif", "--output", "out.sarif", cwd=crate, env=env)
    after = snapshot()
    changed = {path for path in after if before.get(path) != after[path]}
    allowed = ("tree/demo/src/", "tree/demo/.burnlint_cache/", "tree/demo/out.sarif")
    assert changed, "the fixes were expected to change the crate"
    assert all(path.startswith(allowed) for path in changed), changed
    assert not list(home.rglob("*"))


BANNED_CALLS = {"eval", "exec", "compile", "__import__"}
BANNED_MODULES = {"pickle", "marshal", "shelve", "yaml", "dill"}
KEEPS_CODE = {"startup.py"}
"""The one module that loads marshal: the language server's own compiled methods, kept in the
user's cache folder between its starts (like `__pycache__`); see `burnlint.startup`."""


def test_the_package_never_evaluates_data() -> None:
    """Configuration, knowledge base, cache and logs are data: nothing in burnlint turns text
    into code or objects (no eval/exec, no pickle/marshal/yaml loaders)."""
    offences: list[str] = []
    for source in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in BANNED_CALLS
            ):
                offences.append(f"{source.name}:{node.lineno}: {node.func.id}()")
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = (
                    [alias.name for alias in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                )
                for name in names:
                    if name.split(".")[0] in BANNED_MODULES and source.name not in KEEPS_CODE:
                        offences.append(f"{source.name}:{node.lineno}: import {name}")
    assert offences == []
