"""Planning a scan of several crates of a workspace: a crate that several checked crates depend
on is walked once, and each batch gets the same files as when each walks it alone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from burnlint import batches, loading
from burnlint.config import Overrides
from burnlint.kb.load import load_kb
from burnlint.project import forget_crates
from burnlint.walk import Target

KNOWN = frozenset(entry.id for entry in load_kb() if entry.is_static)


def _crate(folder: Path, name: str, deps: str, files: dict[str, str]) -> None:
    (folder / "src").mkdir(parents=True)
    (folder / "Cargo.toml").write_text(
        f'[package]\nname = "{name}"\nversion = "0.1.0"\n\n[dependencies]\n'
        f'burn = "=0.22.0-pre.4"\n{deps}',
        encoding="utf-8",
    )
    for file, text in files.items():
        (folder / "src" / file).write_text(text, encoding="utf-8")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "Cargo.toml").write_text(
        '[workspace]\nmembers = ["core", "a", "b"]\n', encoding="utf-8"
    )
    _crate(
        tmp_path / "core",
        "core",
        "",
        {"lib.rs": "pub mod ops;\n", "ops.rs": "pub fn lift(x: u32) -> u32 { x }\n"},
    )
    for name in ("a", "b"):
        _crate(
            tmp_path / name,
            name,
            'core = { path = "../core" }\n',
            {"lib.rs": f"pub fn {name}() -> u32 {{ core::ops::lift(1) }}\n"},
        )
    forget_crates()
    return tmp_path


def _inputs(plan: list[batches.Batch]) -> list[list[tuple[str, bool, str]]]:
    return sorted(
        sorted((i.file.real.as_posix(), i.target, i.root) for i in batch.inputs) for batch in plan
    )


def test_a_shared_dependency_is_walked_once(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    walked: list[Path] = []
    original = loading.crate_targets

    def counted(root: Path) -> Iterator[Target]:
        walked.append(root)
        return original(root)

    paths = (str(workspace / "a"), str(workspace / "b"))
    monkeypatch.setattr(batches, "crate_targets", counted)
    monkeypatch.setattr(loading, "crate_targets", counted)
    plan = batches.plan(paths, Overrides(), KNOWN, [], {})
    assert walked.count(workspace / "core") == 1, walked
    # Each crate's own batch or one merged batch: either way core's files are context.
    contexts = {i.file.real.name for b in plan for i in b.inputs if not i.target}
    assert {"lib.rs", "ops.rs"} <= contexts

    # The same files as when every crate walks its dependencies itself.
    monkeypatch.setattr(batches, "crate_targets", original)
    monkeypatch.setattr(loading, "crate_targets", original)
    monkeypatch.setattr(
        batches,
        "add_dependencies",
        lambda crate, inputs, _targets_of=None: loading.add_dependencies(crate, inputs),
    )
    assert _inputs(batches.plan(paths, Overrides(), KNOWN, [], {})) == _inputs(plan)
