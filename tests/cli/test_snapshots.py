"""Every output format of `burnlint check` on the example crate, through the real CLI, compared
with a stored snapshot. `BURNLINT_BLESS=1 pytest tests/cli/test_snapshots.py` rewrites them."""

from __future__ import annotations

import os
import re

import pytest
from test_cli import EXAMPLE, ROOT, run

from burnlint import __version__

SNAPSHOTS = ROOT / "tests" / "cli" / "snapshots"
FORMATS = {
    "text": "dispatch-demo.text.txt",
    "concise": "dispatch-demo.concise.txt",
    "json": "dispatch-demo.json",
    "sarif": "dispatch-demo.sarif",
    "github": "dispatch-demo.github.txt",
}


def normalized(output: str) -> str:
    """Machine-specific parts replaced: the repository's location and the version."""
    output = output.replace(ROOT.as_uri(), "file:///REPO").replace(str(ROOT), "/REPO")
    return re.sub(rf'"{re.escape(__version__)}"', '"VERSION"', output)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_format_matches_snapshot(fmt: str) -> None:
    result = run("check", EXAMPLE, "--format", fmt, "--no-cache")
    assert result.returncode == 1, result.stderr
    actual = normalized(result.stdout)
    snapshot = SNAPSHOTS / FORMATS[fmt]
    if os.environ.get("BURNLINT_BLESS") == "1":
        snapshot.parent.mkdir(exist_ok=True)
        snapshot.write_text(actual, encoding="utf-8")
    assert snapshot.exists(), f"{snapshot.name} is missing (run with BURNLINT_BLESS=1)"
    expected = snapshot.read_text(encoding="utf-8")
    assert actual == expected, f"{snapshot.name} differs (run with BURNLINT_BLESS=1 to update)"


def test_statistics_snapshot() -> None:
    result = run("check", EXAMPLE, "--statistics", "--no-cache")
    snapshot = SNAPSHOTS / "dispatch-demo.statistics.txt"
    if os.environ.get("BURNLINT_BLESS") == "1":
        snapshot.write_text(result.stdout, encoding="utf-8")
    assert result.stdout == snapshot.read_text(encoding="utf-8")
