"""`burnlint check --help`: every argument says what it does, and the text is kept in a snapshot
(`BURNLINT_BLESS=1` rewrites it). argparse lays help out differently across Python versions, so
the snapshot is per Python minor version."""

from __future__ import annotations

import argparse
import os
import sys

import pytest
from test_cli import ROOT, run

from burnlint.cli import _parser  # pyright: ignore[reportPrivateUsage]

SNAPSHOT = (
    ROOT
    / "tests"
    / "cli"
    / "snapshots"
    / f"check-help.py{sys.version_info[0]}.{sys.version_info[1]}.txt"
)


def _check_parser() -> argparse.ArgumentParser:
    commands = next(
        a
        for a in _parser()._actions
        if isinstance(a, argparse._SubParsersAction)  # pyright: ignore[reportPrivateUsage]
    )
    parser: argparse.ArgumentParser = commands.choices["check"]
    return parser


def test_every_check_argument_has_a_one_line_help() -> None:
    for action in _check_parser()._actions:  # pyright: ignore[reportPrivateUsage]
        name = "/".join(action.option_strings) or str(action.metavar or action.dest)
        assert action.help, f"{name} has no help"
        assert "\n" not in action.help, name


def test_check_help_says_what_the_path_and_limits_do() -> None:
    result = run("check", "--help", env={"COLUMNS": "100"})
    assert result.returncode == 0
    out = result.stdout
    assert "default: the current folder" in out
    assert "skip (and report)" not in out
    assert "a larger file is an error (exit 2)" in out


def test_check_help_matches_snapshot() -> None:
    result = run("check", "--help", env={"COLUMNS": "100"})
    assert result.returncode == 0
    if os.environ.get("BURNLINT_BLESS") == "1":
        SNAPSHOT.write_text(result.stdout, encoding="utf-8")
    if not SNAPSHOT.exists():
        pytest.skip(
            f"no snapshot for this Python: run with BURNLINT_BLESS=1 to write {SNAPSHOT.name}"
        )
    assert result.stdout == SNAPSHOT.read_text(encoding="utf-8"), (
        f"{SNAPSHOT.name} differs (run with BURNLINT_BLESS=1 to update)"
    )
