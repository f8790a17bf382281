"""Load `kb/*.md`: TOML front matter between `+++` lines, then Markdown sections."""

from __future__ import annotations

import re
import sys
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, cast

from burnlint.kb.model import SECTIONS, SEVERITIES, Entry, FixTemplate, SourceRef, Variant

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

_FILE = re.compile(r"^(BD[A-Z]?\d{3})-([a-z0-9-]+)\.md$")
_HEADING = re.compile(r"^## (.+?)\s*$", re.MULTILINE)


class KBError(Exception):
    """A knowledge-base file is malformed; the message names the file and the field."""


def kb_dir() -> Path:
    """The folder holding the entries: packaged data in a wheel, `kb/` in a checkout."""
    packaged = Path(str(resources.files("burnlint") / "_kb"))
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[3] / "kb"


@cache
def load_kb(folder: str | None = None) -> tuple[Entry, ...]:
    """Load and validate every entry, sorted by id."""
    root = Path(folder) if folder else kb_dir()
    entries = [load_entry(path) for path in sorted(root.glob("*.md")) if _FILE.match(path.name)]
    if not entries:
        raise KBError(f"{root}: no knowledge-base entries found")
    return tuple(sorted(entries, key=lambda e: e.id))


def by_code(entries: tuple[Entry, ...]) -> dict[str, Entry]:
    """Index entries by id and by slug."""
    out: dict[str, Entry] = {}
    for entry in entries:
        out[entry.id] = entry
        out[entry.slug] = entry
    return out


def load_entry(path: Path) -> Entry:
    """Parse one entry file; raise KBError naming the file and field on any problem."""
    text = path.read_text(encoding="utf-8")
    if not text.startswith("+++\n"):
        raise KBError(f"{path}: must start with a `+++` TOML front matter block")
    end = text.find("\n+++\n", 4)
    if end == -1:
        raise KBError(f"{path}: front matter is not closed with `+++`")
    try:
        meta = tomllib.loads(text[4:end])
    except tomllib.TOMLDecodeError as error:
        raise KBError(f"{path}: front matter: {error}") from error
    body = text[end + 5 :]
    match = _FILE.match(path.name)
    if match is None:
        raise KBError(f"{path}: file name must be <ID>-<slug>.md")

    def need(key: str, kind: type = str) -> Any:
        if key not in meta:
            raise KBError(f"{path}: missing `{key}`")
        value = meta[key]
        if not isinstance(value, kind):
            raise KBError(f"{path}: `{key}` must be a {kind.__name__}")
        return value

    entry_id, slug = need("id"), need("slug")
    if (entry_id, slug) != (match.group(1), match.group(2)):
        raise KBError(f"{path}: id/slug {entry_id}/{slug} do not match the file name")
    severity = need("severity")
    if severity not in SEVERITIES:
        raise KBError(f"{path}: `severity` must be one of {', '.join(SEVERITIES)}")
    sections = _sections(body)
    return Entry(
        id=entry_id,
        slug=slug,
        title=need("title"),
        summary=need("summary"),
        severity=severity,
        category=str(meta.get("category", "correctness")),
        message=need("message"),
        eras=tuple(cast(list[str], need("eras", list))),
        related=tuple(cast(list[str], meta.get("related", []))),
        references=tuple(cast(list[str], meta.get("references", []))),
        source=_source(need("source", dict), path, "source"),
        variants=tuple(
            _variant(v, path, i) for i, v in enumerate(cast(list[Any], meta.get("variants", [])))
        ),
        finding=str(meta.get("finding", meta["title"])),
        finding_may=str(meta.get("finding_may", meta.get("finding", meta["title"]))),
        fixes=tuple(_fix(f, path, i) for i, f in enumerate(cast(list[Any], meta.get("fixes", [])))),
        detect=cast(dict[str, Any], meta.get("detect", {})),
        body=body,
        sections=sections,
        path=str(path),
    )


def _sections(body: str) -> dict[str, str]:
    out: dict[str, str] = {}
    matches = list(_HEADING.finditer(body))
    for index, heading in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(body)
        out[heading.group(1)] = body[heading.end() : end].strip()
    return out


def _source(raw: Any, path: Path, where: str) -> SourceRef:
    if not isinstance(raw, dict):
        raise KBError(f"{path}: `{where}` must be a table")
    table = cast(dict[str, Any], raw)
    try:
        return SourceRef(
            repo=str(table["repo"]),
            path=str(table["path"]),
            line=int(table.get("line", 0)),
            commit=str(table.get("commit", "")),
        )
    except KeyError as error:
        raise KBError(f"{path}: `{where}` lacks {error}") from error


def _variant(raw: Any, path: Path, index: int) -> Variant:
    if not isinstance(raw, dict) or "message" not in raw:
        raise KBError(f"{path}: `variants[{index}]` needs a `message`")
    table = cast(dict[str, Any], raw)
    source = table.get("source")
    return Variant(
        message=str(table["message"]),
        era=str(table.get("era", "any")),
        id=str(table.get("id", "")),
        versions=str(table.get("versions", "")),
        source=_source(source, path, f"variants[{index}].source") if source is not None else None,
    )


def _fix(raw: Any, path: Path, index: int) -> FixTemplate:
    if not isinstance(raw, dict):
        raise KBError(f"{path}: `fixes[{index}]` must be a table")
    table = cast(dict[str, Any], raw)
    for key in ("id", "title", "safety", "replacement"):
        if key not in table:
            raise KBError(f"{path}: `fixes[{index}]` lacks `{key}`")
    if table["safety"] not in ("safe", "unsafe"):
        raise KBError(f"{path}: `fixes[{index}].safety` must be safe or unsafe")
    return FixTemplate(
        id=str(table["id"]),
        title=str(table["title"]),
        safety=str(table["safety"]),
        replacement={str(k): str(v) for k, v in cast(dict[str, Any], table["replacement"]).items()},
        target={str(k): str(v) for k, v in cast(dict[str, Any], table.get("target", {})).items()},
        unsafe_when=tuple(str(x) for x in cast(list[Any], table.get("unsafe_when", []))),
    )


def check_sections(entry: Entry) -> list[str]:
    """Problems with the entry's headings (missing, extra, out of order)."""
    found = list(entry.sections)
    problems: list[str] = []
    if found != list(SECTIONS):
        problems.append(f"{entry.path}: headings are {found}, expected {list(SECTIONS)}")
    return problems
