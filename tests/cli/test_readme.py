"""The README shows what the CLI really does: its samples are the real output (regenerate a
sample by pasting the command's output), and the default text output stays concise."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

from test_cli import EXAMPLE, ROOT, run

README = (ROOT / "README.md").read_text(encoding="utf-8")


def block_after(marker: str) -> str:
    """The first fenced block after `marker` in the README."""
    at = README.index(marker)
    found = re.compile(r"^```[a-z]*\n(.*?)^```$", re.DOTALL | re.MULTILINE).search(README, at)
    assert found is not None, marker
    return found.group(1)


def test_the_what_it_looks_like_sample_is_the_real_output() -> None:
    result = run("check", f"{EXAMPLE}/src/quant.rs", "--no-cache")
    assert result.returncode == 1, result.stderr
    assert "`burnlint check examples/dispatch-demo/src/quant.rs`" in README
    assert block_after("## What it looks like") == result.stdout


def test_text_output_never_shows_two_notes_for_one_line() -> None:
    out = run("check", EXAMPLE, "--no-cache").stdout
    # (finding, note location) pairs: a line appears in one note of a finding at most.
    for finding in out.split("\n\n"):
        lines = finding.splitlines()
        seen: list[str] = []
        for index, line in enumerate(lines):
            if line.startswith("note: "):
                where = lines[index + 1].split("-->")[1].strip().rsplit(":", 1)[0]
                assert where not in seen, f"two notes for {where}:\n{finding}"
                seen.append(where)
        # Nor a note for the finding's own line: it is marked under that line.
        own = lines[1].split("-->")[1].strip().rsplit(":", 1)[0] if len(lines) > 1 else ""
        assert own not in seen, finding


def test_text_output_says_where_burn_panics_not_sink() -> None:
    out = run("check", EXAMPLE, "--no-cache").stdout
    assert "sink" not in out
    assert "note: burn panics here (in `q_matmul`)" in out


def test_quick_start_says_the_demo_exits_1_and_shows_its_real_output() -> None:
    quick = README[README.index("## Quick start") : README.index("## What it looks like")]
    assert "pip install . && burnlint check examples/dispatch-demo" in quick
    assert "exits with status 1 on purpose" in quick
    result = run("check", EXAMPLE, "--no-cache")
    assert result.returncode == 1
    shown = block_after("The output\nstarts and ends like this").splitlines()
    dots = shown.index("...")
    real = result.stdout.splitlines()
    assert dots >= 3 and shown[:dots] == real[:dots]
    assert shown[dots + 1 :] == real[-len(shown[dots + 1 :]) :]


def test_pre_commit_snippets_pin_nothing_that_does_not_exist_and_the_local_hook_works(
    tmp_path: Path,
) -> None:
    section = README[README.index("### CI and pre-commit") : README.index("### Burn API eras")]
    tags = subprocess.run(
        ["git", "tag", "--list"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.split()
    for rev in re.findall(r"^\s+rev: (\S+)", section, flags=re.MULTILINE):
        # A release tag must exist; otherwise the README asks for a commit.
        assert rev in tags or rev.startswith("<"), f"rev: {rev} is not a tag of this repository"
    local = block_after("a\n`local` hook runs that installation")
    assert "repo: local" in local and "language: system" in local
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    (entry,) = re.findall(r"^\s+entry: (.+)$", local, flags=re.MULTILINE)
    assert f"entry: {entry}\n" in hooks
    # pre-commit runs the entry with the staged files appended.
    crate = tmp_path / "demo"
    shutil.copytree(ROOT / EXAMPLE, crate)
    program, *args = shlex.split(entry)
    assert program == "burnlint"
    result = run(*args, "src/quant.rs", cwd=crate)
    assert result.returncode == 1 and "error[BD001]" in result.stdout, result.stderr
