"""Entry point for `python -m burnlint`."""

from burnlint.entry import run

run()
