"""Entry point for `python -m burnlint`."""

from burnlint.cli import run

run()
