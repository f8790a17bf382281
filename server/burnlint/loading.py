"""Gather a crate's files for analysis: the crate's own `.rs` files (not those of crates nested
below it), the files of the workspace crates it depends on (each under its own crate key), and
each file's module path. Shared by the checker and the language server."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from burnlint.analysis.semantics.crates import CrateInfo
from burnlint.project import crate_graph, find_crate, main_folders, path_modules, target_module
from burnlint.sources import read_target
from burnlint.walk import Target, discover

if TYPE_CHECKING:
    from burnlint.analysis.engine import CrateFile


@dataclass(slots=True)
class Input:
    """One file to analyze: a target (reported on) or context, and its text once read."""

    file: Target
    shown: str
    target: bool
    text: str | None = None
    root: str = "crate"
    """The crate the file belongs to: "crate" for the checked one, else a dependency's key."""

    @property
    def path(self) -> Path:
        return self.file.real


@dataclass(slots=True)
class LoadedCrate:
    """A crate's files ready for analysis, with where each file is on disk."""

    crate: CrateInfo
    files: list[CrateFile]
    paths: list[Path]
    """Where each file is on disk (a file several targets include is there once per target)."""
    graph: dict[str, dict[str, str]] = field(default_factory=dict[str, dict[str, str]])
    """The crate graph (see `add_dependencies`); files of dependencies are context."""


def load_crate(
    path: Path,
    targets: dict[Path, tuple[str, str]],
    everything: bool = False,
    context: Mapping[Path, str] | None = None,
) -> LoadedCrate:
    """The crate around `path`: the `targets` (resolved path -> (shown path, text), e.g. open
    editor buffers) plus every other `.rs` file of the crate read from disk as context (or as
    targets too, with `everything`), and the files of the crates it depends on (from
    `context`, unsaved editor text by path, else from disk)."""
    context = context or {}
    crate = find_crate(path)
    inputs = [Input(Target(p, shown, p), shown, True, text) for p, (shown, text) in targets.items()]
    if crate.manifest is not None:
        for other in crate_targets(crate.manifest.parent):
            if other.real in targets:
                continue
            text = read_target(other, None, {})
            if text is not None:
                inputs.append(Input(other, os.path.relpath(other.path), everything, text))
    graph = add_dependencies(crate, inputs)
    for item in inputs:
        if item.root != "crate":
            # An open buffer of a dependency is what the editor shows: use it, not the disk.
            opened = context.get(item.path)
            item.text = opened if opened is not None else read_target(item.file, None, {})
    inputs = [i for i in inputs if i.text is not None]
    files, paths, graph = crate_files(crate, inputs, graph)
    return LoadedCrate(crate, files, paths, graph)


def crate_keys(
    primary: CrateInfo, others: list[CrateInfo]
) -> tuple[dict[Path, str], dict[str, dict[str, str]]]:
    """A key for each crate of one program ("crate" for `primary`, else its library name made
    unique) and the crate graph in those keys."""
    keys: dict[Path, str] = {}
    if primary.manifest is not None:
        keys[primary.manifest] = "crate"
    for info in others:
        assert info.manifest is not None
        key = info.lib_name or "dep"
        while key in keys.values():
            key += "_"
        keys[info.manifest] = key
    graph = {
        keys[info.manifest]: {name: keys[m] for name, m in info.deps if m in keys}
        for info in (primary, *others)
        if info.manifest is not None
    }
    return keys, graph


def add_dependencies(
    crate: CrateInfo,
    inputs: list[Input],
    targets_of: Callable[[Path], list[Target]] | None = None,
) -> dict[str, dict[str, str]]:
    """Add the files of the workspace crates `crate` depends on to `inputs` (as context, each
    under its own crate key) and return the crate graph naming them: for each crate (by key),
    the dependencies it names (name in code -> key). `targets_of` gives a crate's files by its
    manifest (a scan of many crates walks each one once), else each is walked here."""
    deps = crate_graph(crate)
    if not deps:
        return {}
    keys, graph = crate_keys(crate, deps)
    seen = {i.path for i in inputs}
    for dep in deps:
        assert dep.manifest is not None
        found = targets_of(dep.manifest) if targets_of else crate_targets(dep.manifest.parent)
        for other in found:
            if other.real not in seen:
                seen.add(other.real)
                shown = os.path.relpath(other.path)
                inputs.append(Input(other, shown, False, root=keys[dep.manifest]))
    return graph


def crate_targets(root: Path) -> Iterator[Target]:
    """The `.rs` files of the crate rooted at `root` (not those of crates nested below it)."""
    for other in discover([str(root)]):
        if not _in_nested_crate(root, other.real):
            yield other


def crate_files(
    crate: CrateInfo, inputs: list[Input], graph: dict[str, dict[str, str]]
) -> tuple[list[CrateFile], list[Path], dict[str, dict[str, str]]]:
    """The analyzer's view of read `inputs`: each file's text and module path, and the crate
    it belongs to when that is a dependency of `crate`; where each is on disk; and `graph`
    (the crate graph by key) with the Cargo targets that are crates of their own (examples,
    tests, benches, `src/bin`: see `target_module`). Each gets a key of its own,
    `<package key>/<target>`, and names the package's library and dependencies as the package
    does.

    The files come in the order of `inputs`, followed by a copy of each file that more than
    one target includes by `#[path]`, as context, for each target after the first (see
    `path_modules`): each target's code is analyzed with the shared code as its own."""
    from burnlint.analysis.engine import CrateFile
    from burnlint.analysis.syntax.source import SourceFile

    modules: dict[Path, tuple[str, ...]] = {}
    by_root: dict[str, list[Input]] = {}
    for item in inputs:
        by_root.setdefault(item.root, []).append(item)
    infos: dict[str, CrateInfo] = {}
    copies: dict[Path, list[tuple[str, ...]]] = {}
    graph = dict(graph)
    for root, members in by_root.items():
        info = crate if root == "crate" else find_crate(members[0].path)
        infos[root] = info
        manifest = info.manifest
        if manifest is None:
            modules.update((i.path, (root,)) for i in members)
            continue
        folder = manifest.parent
        mains = main_folders(folder, (i.path for i in members))
        found: dict[Path, tuple[str, ...]] = {}
        for item in members:
            target, module = target_module(folder, item.path, mains)
            key = root if target is None else f"{root}/{target}"
            if target is not None and key not in graph:
                # A target names the package's library (by its name) and what the package
                # depends on; the library cannot name the target.
                named = dict(graph.get(root, {}))
                if info.lib_name:
                    named[info.lib_name] = root
                graph[key] = named
                graph.setdefault(root, {})
            found[item.path] = (key, *module[1:])
        shared = path_modules({i.path: i.text or "" for i in members}, found)
        modules.update(found)
        copies.update(shared)
    files: list[CrateFile] = []
    paths: list[Path] = []
    extra: list[CrateFile] = []
    extra_paths: list[Path] = []
    for item in inputs:
        source = SourceFile(item.shown, item.text or "")
        owner = None if item.root == "crate" else infos[item.root]
        files.append(CrateFile(source, modules[item.path], item.target, owner))
        paths.append(item.path)
        for module in copies.get(item.path, ()):
            # The same text, parsed once, read as a module of another target.
            extra.append(CrateFile(source, module, False, owner, copy=True))
            extra_paths.append(item.path)
    return files + extra, paths + extra_paths, graph


def _in_nested_crate(root: Path, path: Path) -> bool:
    """Whether `path` belongs to another crate below `root` (one with its own Cargo.toml)."""
    folder = path.parent
    root = root.resolve()
    while folder != root and root in folder.parents:
        if (folder / "Cargo.toml").is_file():
            return True
        folder = folder.parent
    return False
