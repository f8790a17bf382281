"""Entry point for `python -m burnlint`."""

from burnlint.cli import main

raise SystemExit(main())
