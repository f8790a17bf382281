"""Group the files a user names into batches, the unit of analysis and of caching: one crate
(or one loose file) under one configuration, with the crate's other files and its workspace
dependencies' files as context, and crates that depend on each other merged into one."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from burnlint.analysis.semantics.crates import CrateInfo
from burnlint.config import Overrides, Settings, is_excluded, settings_for
from burnlint.loading import Input, add_dependencies, crate_keys, crate_targets
from burnlint.project import crate_graph, find_crate
from burnlint.sources import read_target
from burnlint.walk import Target, discover


class ScanLimit(Exception):
    """The scan found more files than the configured `max-files`."""


@dataclass(slots=True)
class Batch:
    """Files analyzed together: one crate (or one loose file) under one configuration."""

    anchor: Path
    crate: CrateInfo
    settings: Settings
    inputs: list[Input]
    problems: list[str] = field(default_factory=list[str])
    """Target files that could not be read."""
    graph: dict[str, dict[str, str]] = field(default_factory=dict[str, dict[str, str]])
    """For each crate of the batch (by key), the dependencies it names: name in code -> key."""

    @property
    def size(self) -> int:
        return sum(len(i.text or "") for i in self.inputs)

    @property
    def targets(self) -> int:
        """How many of the batch's files are reported on."""
        return sum(1 for i in self.inputs if i.target)

    def read(self, overlay: Mapping[Path, str]) -> None:
        """Read every file; unreadable targets become problems, unreadable context is left out."""
        kept: list[Input] = []
        for item in self.inputs:
            if item.text is None:
                problems = self.problems if item.target else None
                limit = self.settings.max_file_size
                item.text = read_target(item.file, problems, overlay, limit)
            if item.text is not None:
                kept.append(item)
        self.inputs = kept


def plan(
    paths: tuple[str, ...],
    overrides: Overrides,
    known: frozenset[str],
    problems: list[str],
    settings_by_file: dict[str, Settings],
) -> list[Batch]:
    """The files under `paths` grouped by crate and configuration, with each crate's other
    files as context; nothing is read yet. Walking problems go to `problems`, each target's
    effective configuration to `settings_by_file` (by shown path); raises `ScanLimit`."""
    groups: dict[tuple[Path | None, str], list[tuple[Target, Settings]]] = {}
    discovered: dict[Path | None, list[Target]] = {}
    # Crate and configuration are the same for every file of a folder: look them up once.
    folders_seen: dict[tuple[Path, Path], tuple[Path | None, Settings, str]] = {}
    count = 0
    for target in discover(list(paths), problems):
        folder = (target.path.parent, target.real.parent)
        known_folder = folders_seen.get(folder)
        if known_folder is None:
            manifest = find_crate(target.real).manifest
            settings = settings_for(target.path, known, overrides)
            known_folder = folders_seen[folder] = (manifest, settings, settings.digest())
        manifest, settings, digest = known_folder
        count += 1
        if count > settings.max_files:
            raise ScanLimit(
                f"more than {settings.max_files} Rust files under {', '.join(paths)}; "
                "check a smaller folder, or raise max-files (burnlint.toml) or --max-files"
            )
        discovered.setdefault(manifest, []).append(target)
        if settings.exclude and is_excluded(settings, target.path):
            continue
        settings_by_file[target.shown] = settings
        groups.setdefault((manifest, digest), []).append((target, settings))
    folders = [Path(p).resolve() for p in paths if Path(p).is_dir()]
    batches: list[Batch] = []
    crate_files: dict[Path, list[Target]] = {}

    def targets_of(manifest: Path) -> list[Target]:
        # Each crate is walked once per scan, however many crates depend on it.
        found = crate_files.get(manifest)
        if found is None:
            root = manifest.parent
            covered = any(f == root or f in root.parents for f in folders)
            # A crate inside a folder the user named was walked whole already.
            found = discovered.get(manifest, []) if covered else list(crate_targets(root))
            crate_files[manifest] = found
        return found

    for (manifest, _), members in groups.items():
        if manifest is None:
            for target, settings in members:
                inputs = [Input(target, target.shown, True)]
                batches.append(Batch(target.path, find_crate(target.real), settings, inputs))
            continue
        targets = {t.real: t for t, _ in members}
        inputs = [Input(t, t.shown, True) for t in targets.values()]
        inputs.extend(
            Input(other, os.path.relpath(other.path), False)
            for other in targets_of(manifest)
            if other.real not in targets
        )
        anchor = members[0][0]
        crate = find_crate(anchor.real)
        graph = add_dependencies(crate, inputs, targets_of)
        batches.append(Batch(anchor.path, crate, members[0][1], inputs, graph=graph))
    return _merge_connected(batches)


def _merge_connected(batches: list[Batch]) -> list[Batch]:
    """One batch for crates of a workspace that depend on each other (with the same
    configuration and era): the program is analyzed once, instead of each crate analyzing its
    dependencies' code again."""
    members: dict[Path, Batch] = {}
    for batch in batches:
        manifest = batch.crate.manifest
        if manifest is not None and batch.graph:
            members[manifest] = batch
    if len(members) < 2:
        return batches
    parent = {manifest: manifest for manifest in members}

    def find(manifest: Path) -> Path:
        while parent[manifest] != manifest:
            manifest = parent[manifest]
        return manifest

    for manifest, batch in members.items():
        for dep in crate_graph(batch.crate):
            other = members.get(dep.manifest) if dep.manifest is not None else None
            if other is None or other.settings.digest() != batch.settings.digest():
                continue
            if other.crate.era == batch.crate.era and other.crate.manifest is not None:
                parent[find(other.crate.manifest)] = find(manifest)
    components: dict[Path, list[Batch]] = {}
    for manifest, batch in members.items():
        components.setdefault(find(manifest), []).append(batch)
    merged: dict[int, Batch] = {}
    for group in components.values():
        if len(group) > 1:
            combined = _combine(group)
            for batch in group:
                merged[id(batch)] = combined
    out: list[Batch] = []
    for batch in batches:
        replacement = merged.get(id(batch), batch)
        if replacement not in out:
            out.append(replacement)
    return out


def _combine(group: list[Batch]) -> Batch:
    """Batches of dependency-connected crates as one: every member's files reported on, every
    crate (members and their dependencies) under its own key."""
    primary = group[0]
    crates: dict[Path, CrateInfo] = {}
    for batch in group:
        for info in (batch.crate, *crate_graph(batch.crate)):
            if info.manifest is not None:
                crates.setdefault(info.manifest, info)
    others = [info for manifest, info in crates.items() if manifest != primary.crate.manifest]
    keys, graph = crate_keys(primary.crate, others)
    inputs: dict[Path, Input] = {}
    for batch in group:
        own = batch.crate.manifest
        assert own is not None
        for item in batch.inputs:
            if item.root == "crate":
                item.root = keys[own]
            elif item.path in inputs:
                continue
            else:
                item.root = keys[find_crate(item.path).manifest or own]
            previous = inputs.get(item.path)
            if previous is None or (item.target and not previous.target):
                inputs[item.path] = item
    return Batch(
        primary.anchor, primary.crate, primary.settings, list(inputs.values()), graph=graph
    )
