"""Load `kb/*.md`: TOML front matter between `+++` lines, then Markdown sections."""

from __future__ import annotations

import re
import sys
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, cast

from burnlint.kb.model import (
    DETECTIONS,
    SAFETIES,
    SECTIONS,
    SEVERITIES,
    Entry,
    FixTemplate,
    SourceRef,
    Variant,
)
from burnlint.startup import parsed_front_matter

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

_FILE = re.compile(r"^(BD[A-Z]?\d{3})-([a-z0-9-]+)\.md$")
STATIC_ID = re.compile(r"^BD\d{3}$")
"""Codes of entries with a rule of their own; suppression comments and settings name these."""
RUNTIME_ID = re.compile(r"^BDR\d{3}$")
"""Codes of entries that explain a panic no rule of their own reports (partial or runtime-only)."""
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
    static = {entry.id for entry in entries if entry.is_static}
    for entry in entries:
        unknown = [code for code in entry.detected_by if code not in static]
        if unknown:
            raise KBError(
                f"{entry.path}: `detected_by` names no static entry: {', '.join(unknown)}"
            )
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
        meta = parsed_front_matter(text[4:end], tomllib.loads)
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
    detection, detected_by = _detection(meta, path, entry_id)
    if detection == "static":
        # A static entry's findings are rendered from these; runtime entries have no findings.
        need("finding")
        need("finding_may")
        need("detect", dict)
    elif severity != "error":
        raise KBError(f"{path}: a runtime entry explains a panic, so `severity` must be error")
    confirmed = meta.get("confirmed", True)
    if not isinstance(confirmed, bool):
        raise KBError(f"{path}: `confirmed` must be true or false")
    source = _source(need("source", dict), path, "source")
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
        source=source,
        variants=tuple(
            _variant(v, path, i) for i, v in enumerate(cast(list[Any], meta.get("variants", [])))
        ),
        finding=str(meta.get("finding", "")),
        finding_may=str(meta.get("finding_may", meta.get("finding", ""))),
        fixes=tuple(_fix(f, path, i) for i, f in enumerate(cast(list[Any], meta.get("fixes", [])))),
        detect=cast(dict[str, Any], meta.get("detect", {})),
        body=body,
        sections=sections,
        path=str(path),
        detection=detection,
        detected_by=detected_by,
        confirmed=confirmed,
        sources=_sources(meta.get("sources", []), path, "sources", source),
        versions=str(meta.get("versions", "")),
    )


def _detection(meta: dict[str, Any], path: Path, entry_id: str) -> tuple[str, tuple[str, ...]]:
    """`detection` and `detected_by`, checked against the id's range (`BD0nn` static, `BDRnnn`
    partial or runtime-only)."""
    detection = meta.get("detection")
    if detection not in DETECTIONS:
        raise KBError(f"{path}: `detection` must be one of {', '.join(DETECTIONS)}")
    raw = meta.get("detected_by")
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in cast(list[Any], raw)):
        raise KBError(f"{path}: `detected_by` must be a list of codes")
    detected_by = tuple(cast(list[str], raw))
    if STATIC_ID.match(entry_id):
        if detection != "static" or entry_id not in detected_by:
            raise KBError(
                f"{path}: a `BD0nn` entry is static and lists its own code in `detected_by`"
            )
    elif RUNTIME_ID.match(entry_id):
        if detection == "static":
            raise KBError(f"{path}: a `BDRnnn` entry is partial or runtime-only")
        if (detection == "partial") != bool(detected_by):
            raise KBError(
                f"{path}: `detected_by` is empty exactly when `detection` is runtime-only"
            )
    else:
        raise KBError(f"{path}: ids are BD0nn (static) or BDRnnn (runtime)")
    return detection, detected_by


def _sections(body: str) -> dict[str, str]:
    out: dict[str, str] = {}
    matches = list(_HEADING.finditer(body))
    for index, heading in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(body)
        out[heading.group(1)] = body[heading.end() : end].strip()
    return out


def _source(raw: Any, path: Path, where: str, parent: SourceRef | None = None) -> SourceRef:
    if not isinstance(raw, dict):
        raise KBError(f"{path}: `{where}` must be a table")
    table = cast(dict[str, Any], raw)
    try:
        return SourceRef(
            repo=str(table["repo"] if parent is None else table.get("repo", parent.repo)),
            path=str(table["path"]),
            line=int(table.get("line", 0)),
            commit=str(table.get("commit", "" if parent is None else parent.commit)),
        )
    except KeyError as error:
        raise KBError(f"{path}: `{where}` lacks {error}") from error


def _sources(raw: Any, path: Path, where: str, parent: SourceRef | None) -> tuple[SourceRef, ...]:
    """Further places with the same message: `repo` and `commit` default to the message's
    `source`, so `{ path = "...", line = 12 }` is enough for a place at the same commit."""
    if not isinstance(raw, list):
        raise KBError(f"{path}: `{where}` must be a list of tables")
    if raw and parent is None:
        raise KBError(f"{path}: `{where}` needs a `source` to extend")
    return tuple(
        _source(item, path, f"{where}[{index}]", parent)
        for index, item in enumerate(cast(list[Any], raw))
    )


def _variant(raw: Any, path: Path, index: int) -> Variant:
    if not isinstance(raw, dict) or "message" not in raw:
        raise KBError(f"{path}: `variants[{index}]` needs a `message`")
    table = cast(dict[str, Any], raw)
    raw_source = table.get("source")
    source = (
        _source(raw_source, path, f"variants[{index}].source") if raw_source is not None else None
    )
    return Variant(
        message=str(table["message"]),
        era=str(table.get("era", "any")),
        id=str(table.get("id", "")),
        versions=str(table.get("versions", "")),
        source=source,
        sources=_sources(table.get("sources", []), path, f"variants[{index}].sources", source),
    )


def _fix(raw: Any, path: Path, index: int) -> FixTemplate:
    if not isinstance(raw, dict):
        raise KBError(f"{path}: `fixes[{index}]` must be a table")
    table = cast(dict[str, Any], raw)
    for key in ("id", "title", "safety", "replacement"):
        if key not in table:
            raise KBError(f"{path}: `fixes[{index}]` lacks `{key}`")
    if table["safety"] not in SAFETIES:
        raise KBError(f"{path}: `fixes[{index}].safety` must be one of {', '.join(SAFETIES)}")
    return FixTemplate(
        id=str(table["id"]),
        title=str(table["title"]),
        safety=str(table["safety"]),
        replacement={str(k): str(v) for k, v in cast(dict[str, Any], table["replacement"]).items()},
        target={str(k): str(v) for k, v in cast(dict[str, Any], table.get("target", {})).items()},
        unsafe_when=tuple(str(x) for x in cast(list[Any], table.get("unsafe_when", []))),
        omit_when=tuple(str(x) for x in cast(list[Any], table.get("omit_when", []))),
        absorbs=str(table.get("absorbs", "")),
    )


def check_sections(entry: Entry) -> list[str]:
    """Problems with the entry's headings (missing, extra, out of order)."""
    found = list(entry.sections)
    problems: list[str] = []
    if found != list(SECTIONS):
        problems.append(f"{entry.path}: headings are {found}, expected {list(SECTIONS)}")
    return problems
