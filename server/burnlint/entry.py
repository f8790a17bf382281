"""The `burnlint` command's entry point (and `python -m burnlint`): for `burnlint server`, the
generated methods of the classes about to be defined come compiled from the last start
(`burnlint.startup`); then the command line runs."""

from __future__ import annotations

import gc
import sys
from typing import NoReturn


def run() -> NoReturn:
    """Run the `burnlint` command in this process, then exit."""
    if sys.argv[1:2] == ["server"]:
        # Only the youngest objects are collected until the server is set up (`serve` sets
        # its own thresholds once what the start made is frozen): the start allocates some
        # 60,000 objects that live as long as the process, and passes over the older
        # generations find nothing in them (35-40 ms of the protocol types' import alone).
        # The youngest generation still frees what dies at once, such as the class attrs
        # replaces with a slotted one for each of the 557 protocol types (9 MB if kept).
        gc.set_threshold(700, 10_000, 10_000)
        # Only the language server keeps anything outside the checked tree and the results
        # cache: its start is what an editor waits for at every launch.
        from burnlint.startup import install

        install()
    from burnlint.cli import run as run_command

    run_command()
