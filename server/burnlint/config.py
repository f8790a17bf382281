"""Per-project configuration: `burnlint.toml`, or the `[package.metadata.burnlint]` and
`[workspace.metadata.burnlint]` tables of a `Cargo.toml`, discovered upwards from each file.

Keys (kebab-case, like Cargo's):

- `select = ["BD001", ...]`: the codes to report (default: all).
- `ignore = [...]`: codes never reported, applied after `select`.
- `severity = { BD004 = "warning" }`: per-code severity (`error`, `warning`, `info`, `hint`).
- `exclude = ["generated/**"]`: gitignore-style globs, relative to the config file's directory.
- `era = "context" | "checkpointing" | "generic"`: force the burn API era instead of detecting it.
- `docs-url = "https://team.example/burnlint/{code}.html"`: link template (`{code}`, `{slug}`).
- `budget = 5.0`: CPU seconds of analysis per file.
- `max-file-size = "8MiB"`: larger files are reported and skipped (bytes, or a size with a unit:
  `KiB`, `MiB`, `KB`, `MB`).
- `max-files = 50000`: a scan that finds more files stops with an error instead of running for
  an hour (the language server indexes no workspace larger than this).

Command-line flags (`Overrides`) win over the file: `--select` replaces the file's `select`,
`--ignore` adds to the file's `ignore` (like ruff's `extend-ignore`), `--era`, `--budget`,
`--max-file-size` and `--max-files` replace the file's values, `--config FILE` skips discovery, `--isolated` ignores every file.

Config files are only ever parsed as TOML data. Discovery and loading are cached (see
`clear_cache`); loading re-reads a file whose modification time or size changed.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar, cast

import pathspec

from burnlint import schema

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

DEFAULT_BUDGET = 5.0
CONFIG_NAME = "burnlint.toml"
CARGO_NAME = "Cargo.toml"
KEYS = (
    "select",
    "ignore",
    "severity",
    "exclude",
    "era",
    "docs-url",
    "budget",
    "max-file-size",
    "max-files",
)
DEFAULT_MAX_FILE_SIZE = 8 * 1024 * 1024
DEFAULT_MAX_FILES = 50_000
"""Every key a config file may set, in the order `render_settings` prints them."""
CARGO_TABLES = (("workspace", "metadata", "burnlint"), ("package", "metadata", "burnlint"))
"""The Cargo.toml tables holding burnlint's keys; later ones override earlier ones."""
DEFAULT_ORIGIN = "default"
COMMAND_LINE = "command line"
_COMMAND_LINE_PATH = Path("<command line>")
_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_TOML_AT_END = re.compile(r"\s*\(at end of document\)\s*$")


_T = TypeVar("_T")


class FrozenMap(Mapping[str, str]):
    """An immutable, hashable, picklable str -> str mapping that iterates in sorted key order,
    so settings holding one stay frozen, hashable and independent of insertion order."""

    __slots__ = ("_data",)

    def __init__(self, items: Mapping[str, str] | Iterable[tuple[str, str]] = ()) -> None:
        pairs: Iterable[tuple[str, str]] = (
            cast(Mapping[str, str], items).items() if isinstance(items, Mapping) else items
        )
        self._data: dict[str, str] = dict(sorted(pairs))

    def __getitem__(self, key: str) -> str:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(tuple(self._data.items()))

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"


_DEFAULT_ORIGINS = FrozenMap((key, DEFAULT_ORIGIN) for key in KEYS)


class ConfigError(Exception):
    """A configuration problem: the file, the 1-based line when known, the key, and what is
    wrong. An empty `key` means the problem is with the whole file (unreadable, not TOML)."""

    def __init__(self, path: Path, line: int | None, key: str, detail: str) -> None:
        super().__init__(path, line, key, detail)
        self.path = path
        self.line = line
        self.key = key
        self.detail = detail

    def __str__(self) -> str:
        where = str(self.path) if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.key}: {self.detail}" if self.key else f"{where}: {self.detail}"


@dataclass(frozen=True, slots=True)
class Settings:
    """The effective configuration for a file; `Settings()` is the defaults.

    `severity` and `origins` are `FrozenMap`s (sorted, hashable). `origins` maps each key in
    `KEYS` to where its value came from: `"burnlint.toml:3"` (the file relative to the current
    directory when inside it), `"default"`, or `"command line"`; it takes no part in equality
    or in `digest`.
    """

    select: frozenset[str] | None = None
    """Codes to report; None reports every code."""
    ignore: frozenset[str] = frozenset()
    """Codes never reported, even when selected."""
    severity: Mapping[str, str] = field(default_factory=FrozenMap)
    """Per-code severity overrides, e.g. {"BD004": "warning"}."""
    exclude: tuple[str, ...] = ()
    """Gitignore-style patterns relative to `root`."""
    era: str | None = None
    """The forced burn API era; None detects it."""
    docs_url: str | None = None
    """Link template for a code, with `{code}` and `{slug}` placeholders."""
    budget: float = DEFAULT_BUDGET
    """Seconds of analysis per file."""
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    """Bytes; larger files are reported and skipped."""
    max_files: int = DEFAULT_MAX_FILES
    """A scan finding more files stops with an error."""
    root: Path | None = None
    """The config file's directory (`exclude` is relative to it); None for defaults."""
    source: Path | None = None
    """The config file; None for defaults."""
    origins: Mapping[str, str] = field(default=_DEFAULT_ORIGINS, compare=False)

    def __post_init__(self) -> None:
        # A plain dict passed in would make the settings unhashable and mutable from outside.
        if not isinstance(self.severity, FrozenMap):
            object.__setattr__(self, "severity", FrozenMap(self.severity))
        if not isinstance(self.origins, FrozenMap):
            object.__setattr__(self, "origins", FrozenMap(self.origins))

    def enabled(self, code: str) -> bool:
        """Whether findings with `code` are reported."""
        return (self.select is None or code in self.select) and code not in self.ignore

    def digest(self) -> str:
        """A stable sha256 hex digest of everything that changes a file's findings (select,
        ignore, severity, era, budget, docs-url, max-file-size); usable as a cache key.
        `exclude` and `max-files` are left out: they decide which files are checked, not what
        a checked file reports."""
        payload = {
            "version": 1,
            "select": None if self.select is None else sorted(self.select),
            "ignore": sorted(self.ignore),
            "severity": sorted(self.severity.items()),
            "era": self.era,
            "budget": float(self.budget),
            "docs_url": self.docs_url,
            "max_file_size": self.max_file_size,
        }
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Overrides:
    """Command-line flags; None (or False) means the flag was not given."""

    select: frozenset[str] | None = None
    """`--select`: replaces the config file's `select`."""
    ignore: frozenset[str] | None = None
    """`--ignore`: added to the config file's `ignore`."""
    era: str | None = None
    budget: float | None = None
    max_file_size: int | None = None
    max_files: int | None = None
    config: Path | None = None
    """`--config FILE`: use exactly this file (a `Cargo.toml` or burnlint.toml-style file)."""
    isolated: bool = False
    """`--isolated`: ignore every config file."""


# Discovery: directory -> nearest config file at or above it. Loading: resolved config path ->
# ((mtime_ns, size, cwd), settings); one entry per file, replaced when the file changes.
_NEAREST: dict[Path, Path | None] = {}
_LOADED: dict[Path, tuple[tuple[int, int, Path], Settings]] = {}


def clear_cache() -> None:
    """Forget every discovered and loaded config file (call after config files change)."""
    _NEAREST.clear()
    _LOADED.clear()
    _exclude_spec.cache_clear()


def find_config(directory: Path) -> Path | None:
    """The config file nearest to `directory` (itself first, then its parents up to the
    filesystem root): a `burnlint.toml`, or a `Cargo.toml` with a burnlint metadata table;
    `burnlint.toml` wins in the same directory. Cached per directory until `clear_cache`."""
    visited: list[Path] = []
    current = _absolute(directory)
    found: Path | None = None
    while True:
        if current in _NEAREST:
            found = _NEAREST[current]
            break
        visited.append(current)
        found = _own_config(current)
        if found is not None or current.parent == current:
            break
        current = current.parent
    # Every directory walked through has the same nearest config, so each is examined once.
    for seen in visited:
        _NEAREST[seen] = found
    return found


def load_config(path: Path, known_codes: frozenset[str]) -> Settings:
    """Read and validate one config file (`Cargo.toml` by name, else burnlint.toml-style).

    Raises ConfigError for an unreadable file, invalid TOML, a Cargo.toml without a burnlint
    table, an unknown key, or an invalid value. Cached by (resolved path, mtime, size).
    """
    absolute = _absolute(path)
    try:
        stat = absolute.stat()
    except OSError as error:
        raise ConfigError(path, None, "", f"cannot read: {error.strerror or error}") from error
    resolved = absolute.resolve()
    stamp = (stat.st_mtime_ns, stat.st_size, Path.cwd())
    cached = _LOADED.get(resolved)
    if cached is not None and cached[0] == stamp and cached[1].source == absolute:
        return cached[1]
    settings = _parse_file(absolute, known_codes)
    _LOADED[resolved] = (stamp, settings)
    return settings


def settings_for(
    path: Path, known_codes: frozenset[str], overrides: Overrides = Overrides()
) -> Settings:
    """The settings for a file or directory: the nearest config file (or `--config`, or none
    with `--isolated`), then the command-line overrides, whose origins are "command line"."""
    if overrides.isolated and overrides.config is not None:
        raise ConfigError(overrides.config, None, "--config", "cannot be combined with --isolated")
    if overrides.isolated:
        base = Settings()
    elif overrides.config is not None:
        if not overrides.config.is_file():
            raise ConfigError(overrides.config, None, "--config", "no such file")
        base = load_config(overrides.config, known_codes)
    else:
        absolute = _absolute(path)
        found = find_config(absolute if absolute.is_dir() else absolute.parent)
        base = Settings() if found is None else load_config(found, known_codes)
    return _apply(base, overrides, known_codes)


def is_excluded(settings: Settings, path: Path) -> bool:
    """Whether `path` matches the settings' `exclude` globs (relative to the config directory);
    paths outside that directory are never excluded."""
    if not settings.exclude or settings.root is None:
        return False
    absolute = _absolute(path)
    relative = _relative_to(absolute, settings.root)
    if relative is None:
        # The file or the config directory may be reached through a symlink.
        relative = _relative_to(absolute.resolve(), settings.root.resolve())
    if relative is None:
        return False
    text = relative.as_posix()
    if text == ".":
        return False
    if absolute.is_dir():
        # Gitignore patterns ending in `/` only match directories, which pathspec recognises
        # by a trailing slash.
        text += "/"
    return _exclude_spec(settings.exclude).match_file(text)


@dataclass(frozen=True, slots=True)
class DetectedEra:
    """The era `era = auto` decides for one crate, and why."""

    crate: str
    manifest: str
    """The crate's `Cargo.toml`, as shown."""
    era: str
    reason: str


def render_settings(
    settings: Settings,
    fmt: str = "text",
    detected: Sequence[DetectedEra] = (),
    workspace: bool = False,
) -> str:
    """The settings for `burnlint config PATH`: `text` prints TOML-like `key = value  # origin`
    lines (unset values as bare words: `all`, `auto`, `none`); `json` prints
    `{"config": path or null, "settings": {...}, "origins": {...}}` with kebab-case keys.
    `detected` is the era `auto` decides for the path's crate, or with `workspace` for each
    member crate of the workspace at the path, and why: `# detected era` lines, and in JSON
    `"crate_eras": [{"crate", "manifest", "era", "reason"}]` (and `"detected_era":
    {"era", "reason"}` for a single crate)."""
    values: dict[str, Any] = {
        "select": None if settings.select is None else sorted(settings.select),
        "ignore": sorted(settings.ignore),
        "severity": dict(sorted(settings.severity.items())),
        "exclude": list(settings.exclude),
        "era": settings.era,
        "docs-url": settings.docs_url,
        "budget": float(settings.budget),
        "max-file-size": settings.max_file_size,
        "max-files": settings.max_files,
    }
    config = None if settings.source is None else _display(settings.source)
    origins = {key: settings.origins.get(key, DEFAULT_ORIGIN) for key in KEYS}
    if fmt == "json":
        document: dict[str, Any] = {"config": config, "settings": values, "origins": origins}
        if detected and not workspace:
            document["detected_era"] = {"era": detected[0].era, "reason": detected[0].reason}
        document["crate_eras"] = [
            {"crate": d.crate, "manifest": d.manifest, "era": d.era, "reason": d.reason}
            for d in detected
        ]
        return json.dumps(document, indent=2)
    if fmt != "text":
        raise ValueError(f"unknown format {fmt!r}: expected 'text' or 'json'")
    unset = {"select": "all", "era": "auto", "docs-url": "none"}
    lines = [f"# config: {config}" if config else "# config: none (defaults)"]
    for key in KEYS:
        value = values[key]
        shown = unset[key] if value is None else _toml_value(value)
        lines.append(f"{key} = {shown}  # {origins[key]}")
        if key == "era" and value is None:
            for found in detected:
                # A workspace has one era per member: each line names its crate.
                which = f" of `{found.crate}` ({found.manifest})" if workspace else ""
                lines.append(f"# detected era{which}: {found.era} ({found.reason})")
    return "\n".join(lines) + "\n"


# -- loading -------------------------------------------------------------------------------


def _parse_file(path: Path, known_codes: frozenset[str]) -> Settings:
    """Settings from one config file, with every problem raised as a ConfigError."""
    shown = _display(path)
    # Errors name the file as `origins` do: relative to the current directory when inside it.
    named = Path(shown)
    text = _read(path, named)
    data = _parse_toml(named, text)
    index = _KeyIndex(text)
    if path.name == CARGO_NAME:
        tables = _cargo_tables(data)
        if not tables:
            raise ConfigError(
                named,
                None,
                "",
                "has no [package.metadata.burnlint] or [workspace.metadata.burnlint] table",
            )
    else:
        tables = [((), cast(object, data))]
    values: dict[str, object] = {}
    origins = dict(_DEFAULT_ORIGINS)
    # Cargo: the workspace table first, so the package table's keys override it.
    for prefix, table in tables:
        where = _Where(named, index, prefix)
        if not isinstance(table, dict):
            raise ConfigError(
                named,
                where.line(()),
                ".".join(prefix),
                f"expected a table, got {schema.describe(table)}",
            )
        for key, value in cast(dict[str, object], table).items():
            values[key] = _validate(key, value, where, known_codes)
            line = where.line((key,))
            origins[key] = shown if line is None else f"{shown}:{line}"
    budget = values.get("budget", DEFAULT_BUDGET)
    max_file_size = values.get("max-file-size", DEFAULT_MAX_FILE_SIZE)
    max_files = values.get("max-files", DEFAULT_MAX_FILES)
    return Settings(
        select=cast("frozenset[str] | None", values.get("select")),
        ignore=cast("frozenset[str]", values.get("ignore", frozenset[str]())),
        severity=cast(FrozenMap, values.get("severity", FrozenMap())),
        exclude=cast("tuple[str, ...]", values.get("exclude", ())),
        era=cast("str | None", values.get("era")),
        docs_url=cast("str | None", values.get("docs-url")),
        budget=cast(float, budget),
        max_file_size=cast(int, max_file_size),
        max_files=cast(int, max_files),
        root=path.parent,
        source=path,
        origins=FrozenMap(origins),
    )


def _read(path: Path, named: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ConfigError(named, None, "", f"cannot read: {error.strerror or error}") from error
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ConfigError(named, line, "", "not valid UTF-8") from error


def _parse_toml(path: Path, text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        line: int | None = None
        position = _TOML_POSITION.search(message)
        if position is not None:
            line = int(position.group(1))
            message = f"{message[: position.start()]} (column {position.group(2)})"
        elif _TOML_AT_END.search(message):
            line = max(1, text.count("\n") + (0 if text.endswith("\n") else 1))
            message = _TOML_AT_END.sub(" (at end of file)", message)
        raise ConfigError(path, line, "", f"invalid TOML: {message}") from error


def _cargo_tables(data: Mapping[str, Any]) -> list[tuple[tuple[str, ...], object]]:
    """The burnlint tables present in a parsed Cargo.toml (any value, validated later)."""
    out: list[tuple[tuple[str, ...], object]] = []
    for prefix in CARGO_TABLES:
        node: object = data
        for part in prefix:
            if not isinstance(node, dict) or part not in node:
                break
            node = cast(dict[str, object], node)[part]
        else:
            out.append((prefix, node))
    return out


def _own_config(directory: Path) -> Path | None:
    """The config file in `directory` itself, if any."""
    config = directory / CONFIG_NAME
    if config.is_file():
        return config
    cargo = directory / CARGO_NAME
    if cargo.is_file() and _is_burnlint_cargo(cargo):
        return cargo
    return None


def _is_burnlint_cargo(cargo: Path) -> bool:
    """Whether a Cargo.toml has a burnlint metadata table. An unreadable or invalid one that
    mentions burnlint counts, so that loading it reports the problem instead of skipping it."""
    try:
        text = cargo.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    if "burnlint" not in text:
        return False
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return True
    return bool(_cargo_tables(data))


# -- validation ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Where:
    """Locates a burnlint key of one table (`prefix`) in one file, for error messages."""

    path: Path
    index: _KeyIndex
    prefix: tuple[str, ...]

    def line(self, keys: tuple[str, ...]) -> int | None:
        return self.index.line((*self.prefix, *keys))

    def item_line(self, key: str, item: str) -> int | None:
        return self.index.item_line((*self.prefix, key), item)

    def error(self, key: str, detail: str, line: int | None = None) -> ConfigError:
        return ConfigError(self.path, line or self.line(tuple(key.split("."))), key, detail)


def _validate(key: str, value: object, where: _Where, known: frozenset[str]) -> object:
    """The typed value of one key, or a ConfigError naming the key and its line (the checks
    and their messages are `schema`'s, shared with the editor settings and the CLI)."""
    try:
        if key in ("select", "ignore"):
            return schema.codes(value, known)
        if key == "severity":
            return FrozenMap(schema.severities(value, known))
        if key == "exclude":
            return _patterns(value)
        if key == "era":
            return schema.era(value)
        if key == "docs-url":
            return schema.docs_url(value)
        if key == "max-file-size":
            return schema.size(value)
        if key == "max-files":
            return schema.count(value)
        if key == "budget":
            return schema.seconds(value)
    except schema.Invalid as invalid:
        line = None
        if invalid.item is not None:
            line = (
                where.line((key, invalid.item))
                if key == "severity"
                else where.item_line(key, invalid.item)
            )
        raise where.error(invalid.subkey or key, invalid.detail, line) from invalid
    raise where.error(key, _unknown_key(key))


def _patterns(value: object) -> tuple[str, ...]:
    """gitignore-style patterns."""
    patterns = schema.strings(value)
    for pattern in patterns:
        try:
            pathspec.GitIgnoreSpec.from_lines([pattern])
        except ValueError as error:
            raise schema.Invalid(f"invalid pattern {pattern!r}: {error}", pattern) from error
    return patterns


def _unknown_key(key: str) -> str:
    detail = f"unknown key; known keys: {', '.join(KEYS)}"
    # Cargo's keys are kebab-case; `docs_url` or `docsUrl` are likely slips for `docs-url`.
    normalized = re.sub(r"(?<=[a-z])([A-Z])", r"-\1", key).replace("_", "-").lower()
    matches = difflib.get_close_matches(normalized, KEYS, n=1, cutoff=0.6)
    return f"unknown key, did you mean `{matches[0]}`?" if matches else detail


def _apply(base: Settings, overrides: Overrides, known: frozenset[str]) -> Settings:
    """`base` with the command-line overrides applied (and validated)."""
    if (
        overrides.select is None
        and overrides.ignore is None
        and overrides.era is None
        and overrides.budget is None
        and overrides.max_file_size is None
        and overrides.max_files is None
    ):
        return base
    origins = dict(base.origins)
    select, ignore, era, budget = base.select, base.ignore, base.era, base.budget
    if overrides.select is not None:
        select = _cli_codes("--select", overrides.select, known)
        origins["select"] = COMMAND_LINE
    if overrides.ignore is not None:
        added = _cli_codes("--ignore", overrides.ignore, known)
        if base.ignore:
            origins["ignore"] = f"{origins['ignore']} + {COMMAND_LINE}"
        else:
            origins["ignore"] = COMMAND_LINE
        ignore = base.ignore | added
    if overrides.era is not None:
        era = _cli_value("--era", schema.era, overrides.era)
        origins["era"] = COMMAND_LINE
    if overrides.budget is not None:
        budget = _cli_value("--budget", schema.seconds, overrides.budget)
        origins["budget"] = COMMAND_LINE
    max_file_size, max_files = base.max_file_size, base.max_files
    if overrides.max_file_size is not None:
        max_file_size = _cli_value("--max-file-size", schema.size, overrides.max_file_size)
        origins["max-file-size"] = COMMAND_LINE
    if overrides.max_files is not None:
        max_files = _cli_value("--max-files", schema.count, overrides.max_files)
        origins["max-files"] = COMMAND_LINE
    return Settings(
        select=select,
        ignore=ignore,
        severity=base.severity,
        exclude=base.exclude,
        era=era,
        docs_url=base.docs_url,
        budget=budget,
        max_file_size=max_file_size,
        max_files=max_files,
        root=base.root,
        source=base.source,
        origins=FrozenMap(origins),
    )


def _cli_value(flag: str, check: Callable[[object], _T], value: object) -> _T:
    """A command-line flag's value, checked as the same key in a file would be."""
    try:
        return check(value)
    except schema.Invalid as invalid:
        raise ConfigError(_COMMAND_LINE_PATH, None, flag, invalid.detail) from invalid


def _cli_codes(flag: str, codes: frozenset[str], known: frozenset[str]) -> frozenset[str]:
    try:
        return schema.code_set(sorted(codes), known)
    except schema.Invalid as invalid:
        raise ConfigError(_COMMAND_LINE_PATH, None, flag, invalid.detail) from invalid


# -- key positions -------------------------------------------------------------------------
# tomllib reports no positions, and neither does tomlkit (evaluated for this: its items keep
# their formatting but no line or column), so keys are located by scanning the text: table
# headers and `key = value` lines, skipping the continuation lines of multi-line arrays and
# strings.

_QUOTED = r'"(?:[^"\\]|\\.)*"|\'[^\']*\''
_KEY_PART = rf"(?:{_QUOTED}|[A-Za-z0-9_-]+)"
_DOTTED = rf"{_KEY_PART}(?:\s*\.\s*{_KEY_PART})*"
_HEADER = re.compile(rf"^\s*\[\[?\s*({_DOTTED})\s*\]\]?")
_ASSIGN = re.compile(rf"^\s*({_DOTTED})\s*=")
_PART = re.compile(_KEY_PART)


class _KeyIndex:
    """Where each key of a TOML document is written: full dotted path -> (first, last) line."""

    __slots__ = ("_lines", "_spans")

    def __init__(self, text: str) -> None:
        self._lines = text.splitlines()
        self._spans: dict[tuple[str, ...], tuple[int, int]] = {}
        table: tuple[str, ...] = ()
        depth = 0
        string: str | None = None  # the open multi-line string's delimiter
        current: tuple[str, ...] | None = None
        for number, line in enumerate(self._lines, start=1):
            if depth > 0 or string is not None:
                depth, string = _advance(line, depth, string)
                if current is not None:
                    self._spans[current] = (self._spans[current][0], number)
                continue
            header = _HEADER.match(line)
            assign = None if header else _ASSIGN.match(line)
            if header is not None:
                table = _split(header.group(1))
                self._spans.setdefault(table, (number, number))
                current = None
                depth, string = _advance(line[header.end() :], 0, None)
            elif assign is not None:
                current = (*table, *_split(assign.group(1)))
                self._spans.setdefault(current, (number, number))
                depth, string = _advance(line[assign.end() :], 0, None)

    def line(self, path: tuple[str, ...]) -> int | None:
        """The line of the key at `path`, else of the nearest enclosing key written (an inline
        table holding it); None when nothing of it is written."""
        for end in range(len(path), 0, -1):
            span = self._spans.get(path[:end])
            if span is not None:
                return span[0]
        return None

    def item_line(self, path: tuple[str, ...], item: str) -> int | None:
        """The line of the string `item` inside the array at `path`, else the key's line."""
        span = self._spans.get(path)
        if span is None:
            return self.line(path)
        quoted = (json.dumps(item), f"'{item}'")
        for number in range(span[0], span[1] + 1):
            text = self._lines[number - 1]
            if any(q in text for q in quoted):
                return number
        return span[0]


def _split(dotted: str) -> tuple[str, ...]:
    return tuple(_unquote(part) for part in _PART.findall(dotted))


def _unquote(part: str) -> str:
    if part.startswith("'"):
        return part[1:-1]
    if part.startswith('"'):
        try:
            return str(json.loads(part))
        except ValueError:
            return part[1:-1]
    return part


def _advance(text: str, depth: int, string: str | None) -> tuple[int, str | None]:
    """The bracket depth and open multi-line string after `text`, ignoring brackets inside
    strings and comments."""
    i = 0
    while i < len(text):
        if string is not None:
            end = text.find(string, i)
            if end == -1:
                return depth, string
            i = end + 3
            string = None
            continue
        char = text[i]
        if char == "#":
            break
        if text.startswith('"""', i) or text.startswith("'''", i):
            string = text[i : i + 3]
            i += 3
            continue
        if char in "\"'":
            end = _string_end(text, i)
            i = end + 1
            continue
        if char in "[{":
            depth += 1
        elif char in "]}":
            depth = max(0, depth - 1)
        i += 1
    return depth, string


def _string_end(text: str, start: int) -> int:
    """The index of the quote closing the single-line string opening at `start`."""
    quote = text[start]
    i = start + 1
    while i < len(text):
        if quote == '"' and text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return i
        i += 1
    return len(text)


# -- paths and rendering -------------------------------------------------------------------


def _absolute(path: Path) -> Path:
    """`path` made absolute with `..` collapsed, without resolving symlinks."""
    return Path(os.path.normpath(path.absolute()))


def _relative_to(path: Path, root: Path) -> Path | None:
    try:
        return path.relative_to(root)
    except ValueError:
        return None


def _display(path: Path) -> str:
    """`path` relative to the current directory when inside it, else absolute."""
    relative = _relative_to(_absolute(path), Path.cwd())
    return str(relative if relative is not None else path)


@lru_cache(maxsize=64)
def _exclude_spec(patterns: tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    return pathspec.GitIgnoreSpec.from_lines(patterns)


def _toml_value(value: object) -> str:
    if isinstance(value, dict):
        pairs = cast(dict[str, object], value).items()
        inner = ", ".join(f"{k} = {_toml_value(v)}" for k, v in pairs)
        return f"{{ {inner} }}" if inner else "{}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in cast(list[object], value)) + "]"
    if isinstance(value, str):
        return json.dumps(value)
    return str(value)


parse_size = schema.parse_size
