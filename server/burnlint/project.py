"""The project model: which crate a file belongs to, read from `Cargo.toml` and `Cargo.lock`
(manifest, features, burn version and era), and module paths from Cargo's layout.

This is the only place that reads manifests; the analyzer gets the result as data
(`analysis.semantics.crates.CrateInfo`).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Collection, Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from burnlint.analysis.semantics.cfg import BuildConfig
from burnlint.analysis.semantics.crates import CrateInfo
from burnlint.dispatch_source import CRATE, Locked, downloaded_era, source_era
from burnlint.eras import GENERIC, VERSION, describe_era, era_from_text, era_from_version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

BURN_CRATES = ("burn", "burn-dispatch", "burn-core", "burn-tensor")


def detect_era(crate: CrateInfo, limit: int = 2000) -> tuple[str, str] | None:
    """The era a check of `crate` would use without configuration, and why; None for no crate.
    When the manifest and lock file do not decide it, the crate's code is read (at most `limit`
    files) for the guess a check makes."""
    if crate.manifest is None:
        return None
    if crate.era is not None:
        return crate.era, crate.era_reason
    texts: list[bytes] = []
    for index, file in enumerate(sorted(crate.manifest.parent.rglob("*.rs"))):
        if index >= limit or "target" in file.relative_to(crate.manifest.parent).parts:
            continue
        try:
            texts.append(file.read_bytes())
        except OSError:
            continue
    era, reason = era_from_text(b"\n".join(texts))
    return era, f"{crate.era_reason}; {reason}" if crate.era_reason else reason


def find_crate(path: Path) -> CrateInfo:
    """Describe the crate whose `Cargo.toml` is nearest above `path`."""
    folder = path.parent if path.suffix else path
    return _crate_for_dir(_resolved_dir(folder))


def forget_crates() -> None:
    """Forget cached Cargo.toml/Cargo.lock reads (after they changed on disk)."""
    _crate_for_dir.cache_clear()
    _package_at.cache_clear()
    _resolved_dir.cache_clear()
    _locked.cache_clear()
    _member_source_era.cache_clear()
    _workspace_root.cache_clear()
    _manifest.cache_clear()
    _lib_name.cache_clear()
    _workspace_dependencies.cache_clear()


_NO_CRATE = CrateInfo(None, "", BuildConfig(), "", None, "no Cargo.toml found")


@lru_cache(maxsize=4096)
def _resolved_dir(folder: Path) -> Path:
    # Resolving follows symbolic links component by component, which is slow: once per folder.
    return folder.resolve()


@lru_cache(maxsize=4096)
def _crate_for_dir(folder: Path) -> CrateInfo:
    # Each folder asks its own Cargo.toml, then its parent folder (cached), so a scan parses
    # every manifest once however many folders sit below it.
    state, found = _package_at(folder / "Cargo.toml")
    if found is not None:
        return found
    if state == "broken" or folder.parent == folder:
        # A manifest burnlint cannot read ends the search: guessing a crate further up would
        # apply the wrong features and era.
        return _NO_CRATE
    return _crate_for_dir(folder.parent)


@lru_cache(maxsize=1024)
def _package_at(manifest: Path) -> tuple[str, CrateInfo | None]:
    """What a `Cargo.toml` declares: ("package", info), ("none", None) for no file or a
    workspace root, or ("broken", None) for one that cannot be read."""
    try:
        text = manifest.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return "none", None
    except (OSError, UnicodeDecodeError):
        return "broken", None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return "broken", None
    if "package" not in data:
        return "none", None
    return "package", _describe(manifest, data)


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
    version, burn_features = _burn_dependency(data, manifest.parent)
    version, era, reason = _decide_era(manifest, version)
    autodiff_features = _autodiff_features(features)
    assume = frozenset({"autodiff"}) | autodiff_features
    config = BuildConfig(enabled=frozenset(enabled), declared=declared, assume_on=assume)
    if burn_features is None:
        build = "unknown"
    elif burn_features & _AUTODIFF_ENABLERS or autodiff_features & enabled or _pulls_autodiff(data):
        build = "on"
    elif autodiff_features:
        build = "optional"
    else:
        build = "off"
    name = str(package.get("name", ""))
    lib = cast(dict[str, Any], data.get("lib", {}))
    lib_name = str(lib.get("name", name)).replace("-", "_")
    return CrateInfo(
        manifest,
        name,
        config,
        version,
        era,
        reason,
        build,
        autodiff_features,
        lib_name,
        _local_dependencies(manifest, data),
    )


def is_burn_crate(name: str) -> bool:
    """Whether a package is one of burn's own (described by the knowledge base, never read)."""
    return name == "burn" or name.startswith("burn-")


def _local_dependencies(manifest: Path, data: dict[str, Any]) -> tuple[tuple[str, Path], ...]:
    """The `path` dependencies (directly or through `workspace = true`) as (name in code,
    manifest); burn's own crates are left out."""
    found: dict[str, Path] = {}
    for table_name in ("dependencies", "dev-dependencies"):
        table = cast(dict[str, Any], data.get(table_name, {}))
        for key, spec in table.items():
            if not isinstance(spec, dict):
                continue
            spec_table = cast(dict[str, Any], spec)
            package = str(spec_table.get("package", key))
            if is_burn_crate(package):
                continue
            base = manifest.parent
            path = spec_table.get("path")
            if path is None and spec_table.get("workspace"):
                base, path = _workspace_path(manifest.parent, key)
            if not isinstance(path, str):
                continue
            target = _resolved_dir(base / path) / "Cargo.toml"
            lib_name = _lib_name(target)
            if lib_name is None or target == manifest:
                continue
            name = key.replace("-", "_") if "package" in spec_table else lib_name
            found.setdefault(name, target)
    return tuple(sorted(found.items()))


@lru_cache(maxsize=1024)
def _lib_name(manifest: Path) -> str | None:
    """The name code uses for the package at `manifest` (None: no readable package there)."""
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    package = data.get("package")
    if not isinstance(package, dict):
        return None
    lib = data.get("lib")
    name = cast(dict[str, Any], lib).get("name") if isinstance(lib, dict) else None
    return str(name or cast(dict[str, Any], package).get("name", "")).replace("-", "_") or None


def _workspace_path(folder: Path, key: str) -> tuple[Path, object]:
    """Where `[workspace.dependencies] key = { path = .. }` points, from the nearest workspace
    root above `folder`."""
    for root in (folder, *folder.parents):
        table = _workspace_dependencies(root / "Cargo.toml")
        if table is not None:
            spec = table.get(key)
            if isinstance(spec, dict):
                return root, cast(dict[str, Any], spec).get("path")
            return root, None
    return folder, None


@lru_cache(maxsize=256)
def _workspace_dependencies(manifest: Path) -> dict[str, Any] | None:
    """`[workspace.dependencies]` of a workspace root manifest (None: not a workspace root)."""
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    workspace = data.get("workspace")
    if not isinstance(workspace, dict):
        return None
    return cast(dict[str, Any], cast(dict[str, Any], workspace).get("dependencies", {}))


def crate_graph(crate: CrateInfo, limit: int = 64) -> list[CrateInfo]:
    """The local crates `crate` depends on, directly or not (breadth first, at most `limit`)."""
    seen = {crate.manifest}
    order: list[CrateInfo] = []
    queue = [manifest for _, manifest in crate.deps]
    while queue and len(order) < limit:
        manifest = queue.pop(0)
        if manifest in seen:
            continue
        seen.add(manifest)
        dep = _crate_for_dir(manifest.parent)
        if dep.manifest is None:
            continue
        order.append(dep)
        queue.extend(m for _, m in dep.deps)
    return order


def _burn_dependency(data: dict[str, Any], folder: Path) -> tuple[str, set[str] | None]:
    """The burn requirement (or git rev) the crate depends on, with `workspace = true` looked
    up in the workspace root's `[workspace.dependencies]`, and the features it enables there
    (None when they are not known, e.g. inherited from a workspace)."""
    for table_name in ("dependencies", "dev-dependencies"):
        table = cast(dict[str, Any], data.get(table_name, {}))
        for crate in BURN_CRATES:
            spec = table.get(crate)
            if isinstance(spec, str):
                return spec, {"default"}
            if isinstance(spec, dict):
                spec_table = cast(dict[str, Any], spec)
                if spec_table.get("workspace"):
                    inherited = _workspace_spec(folder, crate)
                    return (_requirement(inherited) if inherited is not None else ""), None
                listed = {str(f) for f in cast(list[Any], spec_table.get("features", []))}
                if spec_table.get("default-features", spec_table.get("default_features", True)):
                    listed.add("default")
                return _requirement(spec_table), listed
    return "", None


def _requirement(spec: object) -> str:
    """The version requirement of a dependency spec (a git rev or branch when it has none)."""
    if isinstance(spec, str):
        return spec
    if not isinstance(spec, dict):
        return ""
    table = cast(dict[str, Any], spec)
    return str(table.get("version", table.get("rev", table.get("branch", ""))))


def _workspace_spec(folder: Path, crate: str) -> object:
    """`[workspace.dependencies] crate` of the workspace the package in `folder` belongs to."""
    table = _workspace_dependencies(_workspace_root(folder) / "Cargo.toml")
    return None if table is None else table.get(crate)


_AUTODIFF_ENABLERS = frozenset({"autodiff", "train", "rl", "default"})
"""burn features that may turn `autodiff` on (directly, or through burn-train/burn-rl, which
burn's default features include); only a build without all of them is known to lack autodiff."""


def _pulls_autodiff(data: dict[str, Any]) -> bool:
    """Whether another dependency may enable burn's autodiff through feature unification."""
    for table_name in ("dependencies", "dev-dependencies"):
        table = cast(dict[str, Any], data.get(table_name, {}))
        if any(name in table for name in ("burn-train", "burn-autodiff", "burn-rl")):
            return True
    return False


_AUTODIFF_FLAGS = frozenset(f"{crate}{sep}autodiff" for crate in BURN_CRATES for sep in ("/", "?/"))


def _autodiff_features(features: dict[str, Any]) -> frozenset[str]:
    """The crate features that (directly or through other features) enable burn's autodiff."""
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, deps in features.items():
            listed = cast(list[Any], deps) if isinstance(deps, list) else []
            entries = {str(d) for d in listed}
            if name not in found and (entries & _AUTODIFF_FLAGS or entries & found):
                found.add(str(name))
                changed = True
    return frozenset(found)


def _decide_era(manifest: Path, requirement: str) -> tuple[str, str | None, str]:
    """The burn version, era (None: undecided) and why, for the package at `manifest` whose
    burn requirement is `requirement`. In order: the burn-dispatch source cargo downloaded for
    the locked version, the locked version, the requirement."""
    root = _workspace_root(manifest.parent)
    lock = root / "Cargo.lock"
    where = "Cargo.lock" if root == manifest.parent else "the workspace's Cargo.lock"
    locked, burn = _locked(lock)
    if locked is not None:
        found = downloaded_era(locked) if locked.source else _member_source_era(root)
        if found is not None:
            era, why = found
            return locked.version, era, f"burn-dispatch {locked.version} source: {why}"
        era = era_from_version(locked.version, locked.git)
        if era is not None:
            return locked.version, era, describe_era(era, locked.version, where)
        if locked.git:
            reason = f"burn {locked.version} from git in {where} does not decide the era"
            return locked.version, None, reason
    elif burn:
        # burn-dispatch is what the dispatch API lives in: a lock without it is older burn.
        reason = f"burn {burn} without burn-dispatch in {where} (generic `Tensor<B, D, K>` API)"
        return burn, GENERIC, reason
    git = bool(requirement) and not VERSION.search(requirement)
    era = era_from_version(requirement) if requirement and not git else None
    reason = describe_era(era, requirement, manifest.name) if era else ""
    return requirement, era, reason


@lru_cache(maxsize=64)
def _member_source_era(root: Path) -> tuple[str, str] | None:
    """The era from the source of burn-dispatch when it is a path dependency in the workspace
    at `root` (burn's own repository)."""
    for manifest in workspace_members(root):
        package = _manifest(manifest).get("package")
        if isinstance(package, dict) and cast(dict[str, Any], package).get("name") == CRATE:
            return source_era(manifest.parent / "src")
    return None


@lru_cache(maxsize=256)
def _locked(lock: Path) -> tuple[Locked | None, str]:
    """The burn-dispatch package `lock` pins (None: none), and the version of burn itself it
    pins ("" when none); cached per lock file."""
    try:
        text = lock.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None, ""
    packages: dict[str, tuple[str, str]] = {}
    for block in text.split("[[package]]")[1:]:
        name = re.search(r'^name = "([^"]+)"', block, re.M)
        version = re.search(r'^version = "([^"]+)"', block, re.M)
        if name is None or version is None or name.group(1) in packages:
            continue
        source = re.search(r'^source = "([^"]*)"', block, re.M)
        packages[name.group(1)] = (version.group(1), source.group(1) if source else "")
    dispatch = packages.get("burn-dispatch")
    burn = next((packages[n][0] for n in ("burn", "burn-core", "burn-tensor") if n in packages), "")
    return (Locked(*dispatch) if dispatch else None), burn


@lru_cache(maxsize=1024)
def _workspace_root(folder: Path) -> Path:
    """The folder whose `Cargo.lock` cargo uses for the package in `folder`: as cargo does,
    `package.workspace` when set, else the nearest folder above with a `[workspace]` that does
    not exclude it, else `folder` itself."""
    data = _manifest(folder / "Cargo.toml")
    package = data.get("package")
    if isinstance(package, dict):
        explicit = cast(dict[str, Any], package).get("workspace")
        if isinstance(explicit, str):
            return _resolved_dir(folder / explicit)
    if isinstance(data.get("workspace"), dict):
        return folder
    for parent in folder.parents:
        workspace = _manifest(parent / "Cargo.toml").get("workspace")
        if not isinstance(workspace, dict):
            continue
        excluded = cast(list[Any], cast(dict[str, Any], workspace).get("exclude", []))
        if not any(_under(folder, parent / str(path)) for path in excluded):
            return parent
    return folder


def _under(folder: Path, top: Path) -> bool:
    return folder == top or top in folder.parents


@lru_cache(maxsize=1024)
def _manifest(path: Path) -> dict[str, Any]:
    """A parsed `Cargo.toml`; empty when it is missing or cannot be read."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def workspace_members(root: Path) -> list[Path]:
    """The manifests of the packages of the workspace whose root manifest is in `root`
    (`members` globs minus `exclude`, the root package included); empty when `root` is no
    workspace root."""
    workspace = _manifest(root / "Cargo.toml").get("workspace")
    if not isinstance(workspace, dict):
        return []
    table = cast(dict[str, Any], workspace)
    excluded = [root / str(p) for p in cast(list[Any], table.get("exclude", []))]
    found: set[Path] = set()
    if "package" in _manifest(root / "Cargo.toml"):
        found.add(root / "Cargo.toml")
    for pattern in cast(list[Any], table.get("members", [])):
        for folder in sorted(root.glob(str(pattern))):
            manifest = folder / "Cargo.toml"
            if manifest.is_file() and not any(_under(folder, top) for top in excluded):
                found.add(manifest)
    return sorted(found)


def crate_eras(path: Path) -> list[tuple[CrateInfo, str, str]]:
    """What `burnlint config PATH` reports: for the crate around `path`, or for each member of
    the workspace rooted at the folder `path` that depends on burn, the crate, its era and why
    (read from its code when manifests and lock files do not decide it)."""
    folder = _resolved_dir(path if path.is_dir() else path.parent)
    crate = _crate_for_dir(folder)
    if crate.manifest is not None:
        found = detect_era(crate)
        return [(crate, *found)] if found is not None else []
    listed: list[tuple[CrateInfo, str, str]] = []
    for manifest in workspace_members(folder):
        member = _crate_for_dir(manifest.parent)
        if member.manifest is None or not _names_burn(_manifest(manifest)):
            continue
        found = detect_era(member)
        if found is not None:
            listed.append((member, *found))
    return listed


def _names_burn(data: dict[str, Any]) -> bool:
    """Whether a manifest depends on one of burn's crates (in any dependency table)."""
    for table_name in ("dependencies", "dev-dependencies"):
        table = cast(dict[str, Any], data.get(table_name, {}))
        if any(crate in table for crate in BURN_CRATES):
            return True
    return False


_PATH_MOD = re.compile(
    r'#\[path\s*=\s*"(?P<path>[^"]+)"\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(?P<name>\w+)\s*;'
)


def module_of(root: Path, path: Path) -> tuple[str, ...]:
    """The module path of a file of the package's own crate from Cargo's layout conventions
    (`src/a/b.rs` is `crate::a::b`; `lib.rs` and `main.rs` are roots; see `target_module`
    for the files of the other targets)."""
    parts = _relative_parts(root, path)
    if parts is None:
        return ("crate",)
    inner = parts[1:] if parts[0] == "src" else parts
    if parts[0] != "src" or not inner or inner in (("lib.rs",), ("main.rs",)):
        # A file outside `src/` (`build.rs`) is a root; one in a folder there, that folder's.
        if len(inner) <= 1:
            return ("crate",)
        inner = inner[1:]
    stems = [*inner[:-1], inner[-1].removesuffix(".rs")]
    if stems[-1] == "mod":
        stems.pop()
    return ("crate", *stems)


TARGET_FOLDERS = ("examples", "tests", "benches")
"""The folders whose files are Cargo targets of their own (not the package's library)."""


def target_module(
    root: Path, path: Path, main_dirs: Collection[tuple[str, str]]
) -> tuple[str | None, tuple[str, ...]]:
    """The Cargo target a crate file is compiled in, and its module path there.

    The package's library and `src/main.rs` (with the modules under `src/`) are target None,
    as `module_of` places them. Every other target is a crate of its own: `examples/x/main.rs`
    (a folder in `main_dirs`, as (folder, name)) roots target "examples/x", whose `util.rs` is
    module `util`; `src/bin/x/main.rs` roots "src/bin/x". The single-file targets of a folder
    (`tests/a.rs`, `examples/b.rs`, `src/bin/c.rs`) and the folders they share without a
    `main.rs` (`tests/common/mod.rs`, reached by `mod common;`) make one target per folder
    ("tests", "examples", "src/bin"), each file a root."""
    parts = _relative_parts(root, path)
    if parts is None:
        return None, ("crate",)
    head = parts[0]
    if head == "src" and len(parts) > 2 and parts[1] == "bin":
        folder, rest = "src/bin", parts[2:]
    elif head in TARGET_FOLDERS and len(parts) > 1:
        folder, rest = head, parts[1:]
    else:
        return None, module_of(root, path)
    target = folder
    if len(rest) > 1 and (folder, rest[0]) in main_dirs:
        target, rest = f"{folder}/{rest[0]}", rest[1:]
        if rest == ("main.rs",):
            return target, ("crate",)
    elif len(rest) == 1:
        return target, ("crate",)
    stems = [*rest[:-1], rest[-1].removesuffix(".rs")]
    if stems[-1] == "mod":
        stems.pop()
    return target, ("crate", *stems)


def main_folders(root: Path, paths: Iterable[Path]) -> frozenset[tuple[str, str]]:
    """The target folders (`examples/x`, `src/bin/x`, as (folder, name)) with a `main.rs`
    among `paths`: each is a crate of its own (see `target_module`)."""
    found: set[tuple[str, str]] = set()
    for path in paths:
        parts = _relative_parts(root, path)
        if parts is None or len(parts) < 3 or parts[-1] != "main.rs":
            continue
        if parts[0] == "src" and parts[1] == "bin" and len(parts) == 4:
            found.add(("src/bin", parts[2]))
        elif parts[0] in TARGET_FOLDERS and len(parts) == 3:
            found.add((parts[0], parts[1]))
    return frozenset(found)


def _relative_parts(root: Path, path: Path) -> tuple[str, ...] | None:
    """`path`'s parts below the crate folder `root`; None when it is not below it."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        try:
            parts = path.resolve().relative_to(root.resolve()).parts
        except ValueError:
            return None
    return parts or None


def path_modules(
    files: dict[Path, str], modules: dict[Path, tuple[str, ...]]
) -> dict[Path, list[tuple[str, ...]]]:
    """Apply `#[path = "..."] mod name;` declarations: the named file gets module `name` under
    the declaring file's, and the files of its own submodules (`common/device.rs` for a
    `common/mod.rs` declaring `mod device;`) move with it.

    A file several targets include (`#[path = "../common/mod.rs"]` in each example) is
    compiled in each of them: it takes the first declarer's module (by path) here, and the
    modules it has in the others are returned (file -> its other module paths, for its
    submodules' files too)."""
    resolved: dict[Path, Path] | None = None
    declared: set[Path] = set()
    """The files a declaration has placed already (by the first declarer)."""
    copies: dict[Path, list[tuple[str, ...]]] = {}
    for path in sorted(files):
        text = files[path]
        if "#[path" not in text:
            continue
        for match in _PATH_MOD.finditer(text):
            target = (path.parent / match.group("path")).resolve()
            if resolved is None:
                resolved = {candidate: candidate.resolve() for candidate in modules}
            for candidate, real in resolved.items():
                if real != target:
                    continue
                new = (*modules[path], match.group("name"))
                old = modules[candidate]
                moved = candidate not in declared
                if moved:
                    declared.add(candidate)
                    modules[candidate] = new
                elif new == old or new in copies.get(candidate, ()):
                    # Declared again where it already is: the single-file targets of a folder
                    # are one crate, each including `common/mod.rs` at one place.
                    continue
                else:
                    copies.setdefault(candidate, []).append(new)
                if len(old) < 2:
                    # A crate root: what sits below its module is not its submodules.
                    continue
                for other, module in list(modules.items()):
                    if other != candidate and module[: len(old)] == old:
                        below = (*new, *module[len(old) :])
                        if moved:
                            modules[other] = below
                        else:
                            copies.setdefault(other, []).append(below)
    return copies
