"""The crate a file belongs to: its manifest, features, and the burn API era it targets."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from burnlint.analysis.cfg import BuildConfig

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

CONTEXT = "context"
CHECKPOINTING = "checkpointing"
ERAS = (CONTEXT, CHECKPOINTING)
BURN_CRATES = ("burn", "burn-dispatch", "burn-core", "burn-tensor")
_VERSION = re.compile(r"(\d+)\.(\d+)\.(\d+)(?:-pre\.(\d+))?")
_CONTEXT_MARKERS = re.compile(rb"DispatchAutodiffContext|\bwithout_autodiff\b|\bautodiff\s*:")
_CHECKPOINTING_MARKERS = re.compile(
    rb"\bcheckpointing\s*:|\.checkpointing\b|\bCheckpointingStrategy::None\b|\.no_grad\(\)"
)


@dataclass(frozen=True, slots=True)
class CrateInfo:
    """What burnlint knows about the crate around a file."""

    manifest: Path | None
    name: str
    config: BuildConfig
    burn_version: str
    era: str | None
    era_reason: str


def era_from_version(version: str) -> str | None:
    """The era of a published burn version; None when the version does not decide it."""
    match = _VERSION.search(version)
    if match is None:
        return None
    major, minor, patch, pre = (int(g) if g is not None else None for g in match.groups())
    assert major is not None and minor is not None and patch is not None
    if (major, minor) > (0, 22) or ((major, minor) == (0, 22) and (pre is None or pre >= 4)):
        return CONTEXT
    return None


def era_from_text(data: bytes) -> tuple[str, str]:
    """Guess the era from the field and method names a file uses."""
    context = len(_CONTEXT_MARKERS.findall(data))
    checkpointing = len(_CHECKPOINTING_MARKERS.findall(data))
    if checkpointing > context:
        return CHECKPOINTING, "the file uses the `checkpointing` field (burn 2026-08 API)"
    return CONTEXT, "burn >= 0.22.0-pre.4 API (`DispatchAutodiffContext`) assumed"


def find_crate(path: Path) -> CrateInfo:
    """Describe the crate whose `Cargo.toml` is nearest above `path`."""
    folder = path.resolve().parent if path.suffix else path.resolve()
    return _crate_for_dir(folder)


@lru_cache(maxsize=256)
def _crate_for_dir(folder: Path) -> CrateInfo:
    for candidate in (folder, *folder.parents):
        manifest = candidate / "Cargo.toml"
        if manifest.is_file():
            try:
                data = tomllib.loads(manifest.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                break
            if "package" not in data:
                continue
            return _describe(manifest, data)
    return CrateInfo(None, "", BuildConfig(), "", None, "no Cargo.toml found")


def _describe(manifest: Path, data: dict[str, Any]) -> CrateInfo:
    package = cast(dict[str, Any], data.get("package", {}))
    features = cast(dict[str, Any], data.get("features", {}))
    declared = frozenset(str(name) for name in features)
    default = cast(list[Any], features.get("default", []))
    enabled = set[str]()
    pending = [str(name) for name in default]
    while pending:
        name = pending.pop()
        if name in enabled or name not in declared:
            continue
        enabled.add(name)
        pending.extend(str(dep) for dep in cast(list[Any], features.get(name, [])))
    version = ""
    for table_name in ("dependencies", "dev-dependencies"):
        table = cast(dict[str, Any], data.get(table_name, {}))
        for crate in BURN_CRATES:
            spec = table.get(crate)
            if isinstance(spec, str):
                version = spec
            elif isinstance(spec, dict):
                spec_table = cast(dict[str, Any], spec)
                version = str(
                    spec_table.get("version", spec_table.get("rev", spec_table.get("branch", "")))
                )
            if version:
                break
        if version:
            break
    lock_version = _lock_version(manifest.parent)
    version = lock_version or version
    era = era_from_version(version) if version else None
    reason = (
        f"burn {version} in {manifest.name if not lock_version else 'Cargo.lock'}" if era else ""
    )
    config = BuildConfig(enabled=frozenset(enabled), declared=declared)
    return CrateInfo(manifest, str(package.get("name", "")), config, version, era, reason)


def _lock_version(folder: Path) -> str:
    for candidate in (folder, *folder.parents):
        lock = candidate / "Cargo.lock"
        if lock.is_file():
            try:
                text = lock.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                return ""
            match = re.search(r'name = "burn-dispatch"\nversion = "([^"]+)"', text)
            return match.group(1) if match else ""
    return ""


_PATH_MOD = re.compile(
    r'#\[path\s*=\s*"(?P<path>[^"]+)"\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(?P<name>\w+)\s*;'
)


def module_of(root: Path, path: Path) -> tuple[str, ...]:
    """The module path of a crate file from Cargo's layout conventions (`src/a/b.rs` is
    `crate::a::b`; `lib.rs`, `main.rs`, `src/bin/*`, tests, examples and benches are roots)."""
    try:
        parts = path.resolve().relative_to(root.resolve()).parts
    except ValueError:
        return ("crate",)
    if not parts:
        return ("crate",)
    inner = parts[1:] if parts[0] in ("src", "tests", "examples", "benches") else parts
    if parts[0] == "src" and inner[:1] == ("bin",):
        inner = inner[1:]
    if parts[0] != "src" or not inner or inner in (("lib.rs",), ("main.rs",)):
        # Each file directly in tests/, examples/, benches/ or src/bin/ is its own crate root.
        if len(inner) <= 1:
            return ("crate",)
        inner = inner[1:]
    stems = [*inner[:-1], inner[-1].removesuffix(".rs")]
    if stems[-1] == "mod":
        stems.pop()
    return ("crate", *stems)


def path_modules(files: dict[Path, str], modules: dict[Path, tuple[str, ...]]) -> None:
    """Apply `#[path = "..."] mod name;` declarations: the named file gets module `name`."""
    for path, text in files.items():
        for match in _PATH_MOD.finditer(text):
            target = (path.parent / match.group("path")).resolve()
            for candidate in modules:
                if candidate.resolve() == target:
                    modules[candidate] = (*modules[path], match.group("name"))
