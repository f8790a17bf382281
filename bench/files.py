"""The `.rs` files of a tree, as the benchmark counts them."""

from __future__ import annotations

import os
from pathlib import Path

SKIPPED = frozenset({"target", "node_modules"})


def rust_files(root: Path) -> list[Path]:
    """Every `*.rs` file under `root`, sorted, skipping hidden folders and build output
    (burnlint itself honours `.gitignore`, which in practice ignores the same folders)."""
    found: list[Path] = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in SKIPPED]
        found += [Path(folder, name) for name in names if name.endswith(".rs")]
    return sorted(found)
