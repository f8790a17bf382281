"""The on-disk result cache: one JSON document per checked batch of files (a crate, or a file
outside any crate), keyed by the bytes of every file the analysis read, the tool and the
effective configuration.

A batch's findings depend on the whole crate (summaries of helpers in other files), so the key
covers the content hash of every file of the crate; editing any of them re-analyzes the batch.
Entries are plain JSON (never pickle: a cache folder is writable by anyone who can write the
checkout, and loading it must not run code). An unreadable or malformed entry is a miss.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, cast

from burnlint import __version__
from burnlint.analysis.findings import Edit, FileResult, Finding, Fix, Position, Range, Related
from burnlint.analysis.rules.suppress import Suppressed, Unused
from burnlint.atomic import write_atomic

FORMAT = 2
DEFAULT_DIR = ".burnlint_cache"
_GITIGNORE = "# Created by burnlint; the whole folder is a cache.\n*\n"
_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This folder is burnlint's result cache; see https://bford.info/cachedir/\n"
)


@cache
def tool_digest() -> str:
    """A hash of this burnlint: its version, its code and its knowledge base, so a cache never
    survives a change to the analysis (development builds keep one version number)."""
    digest = hashlib.sha256(f"{__version__}/{FORMAT}".encode())
    package = Path(__file__).resolve().parent
    files = sorted(package.rglob("*.py"))
    kb = package / "_kb"
    kb_dir = kb if kb.is_dir() else package.parents[1] / "kb"
    files += sorted(kb_dir.glob("*.md"))
    for file in files:
        digest.update(file.name.encode())
        with contextlib.suppress(OSError):
            digest.update(file.read_bytes())
    return digest.hexdigest()


def batch_key(parts: Iterable[str], files: Iterable[tuple[str, bytes, bool]]) -> str:
    """The key of a batch: descriptive `parts` (crate, options, settings) plus every file's
    path, content hash and whether findings are reported for it."""
    digest = hashlib.sha256(tool_digest().encode())
    for part in parts:
        digest.update(b"\0" + part.encode())
    for path, data, target in sorted(files):
        digest.update(f"\0{path}\0{int(target)}\0".encode())
        digest.update(hashlib.blake2b(data, digest_size=16).digest())
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class Stored:
    """One batch's cached answer: the content key it is valid for, the file-status key that
    lets a later run skip reading the files (empty when the files were too fresh to trust their
    modification times), how many target files were readable, the problems reading them, and
    the results."""

    key: str
    stat: str
    files: int
    problems: tuple[str, ...]
    results: list[FileResult]


class ResultCache:
    """Cached results under `directory` (None: in memory only, for `--watch --no-cache`);
    `slot` names what a batch is (its crate, settings and targets), so a new key for the same
    slot replaces the old entry instead of piling up. Results are also kept in memory, so a
    long-running `--watch` re-uses them without reading the disk again."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self.folder = directory / f"v{FORMAT}" if directory is not None else None
        self.memory: dict[str, Stored] = {}
        self.hits = 0
        self.misses = 0
        self.problems: list[str] = []

    def _entry(self, folder: Path, slot: str) -> Path:
        name = hashlib.sha256(slot.encode()).hexdigest()[:32]
        return folder / f"{name}.json"

    def lookup(self, slot: str) -> Stored | None:
        """What is stored for `slot` (any key), or None; the caller checks the key."""
        remembered = self.memory.get(slot)
        if remembered is not None or self.folder is None:
            return remembered
        try:
            document = json.loads(self._entry(self.folder, slot).read_text(encoding="utf-8"))
            stored = Stored(
                key=str(document["key"]),
                stat=str(document["stat"]),
                files=int(document["files"]),
                problems=tuple(str(p) for p in document["problems"]),
                results=[_result_from(item) for item in document["results"]],
            )
        except (OSError, ValueError, LookupError, TypeError, AttributeError):
            return None
        self.memory[slot] = stored
        return stored

    def put(self, slot: str, stored: Stored) -> None:
        """Store results; a cache that cannot be written is reported once and otherwise ignored."""
        self.memory[slot] = stored
        if self.directory is None or self.folder is None:
            return
        document = {
            "key": stored.key,
            "stat": stored.stat,
            "files": stored.files,
            "problems": list(stored.problems),
            "results": [_result_to(r) for r in stored.results],
        }
        try:
            self._prepare(self.directory, self.folder)
            data = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
            write_atomic(self._entry(self.folder, slot), data)
        except OSError as error:
            if not self.problems:
                self.problems.append(f"cannot write the cache in {self.directory}: {error}")

    @staticmethod
    def _prepare(directory: Path, folder: Path) -> None:
        if folder.is_dir():
            return
        folder.mkdir(parents=True, exist_ok=True)
        # Keep the cache out of version control and out of backups, as ruff and cargo do.
        for name, text in ((".gitignore", _GITIGNORE), ("CACHEDIR.TAG", _TAG)):
            marker = directory / name
            if not marker.exists():
                with contextlib.suppress(OSError):
                    marker.write_text(text, encoding="utf-8")


def clear(directory: Path) -> int:
    """Remove the cache entries burnlint wrote under `directory`; returns how many."""
    removed = 0
    for entry in sorted(directory.glob("v*/*.json")):
        with contextlib.suppress(OSError):
            entry.unlink()
            removed += 1
    return removed


# JSON shapes: explicit field lists, so a stored document can only ever build these records.


def _range_to(r: Range) -> list[Any]:
    return [
        r.path,
        r.start_byte,
        r.end_byte,
        r.start.line,
        r.start.character,
        r.end.line,
        r.end.character,
    ]


def _range_from(item: Any) -> Range:
    path, start, end, sl, sc, el, ec = cast(list[Any], item)
    return Range(
        str(path), int(start), int(end), Position(int(sl), int(sc)), Position(int(el), int(ec))
    )


def _finding_to(f: Finding) -> dict[str, Any]:
    return {
        "code": f.code,
        "slug": f.slug,
        "severity": f.severity,
        "message": f.message,
        "range": _range_to(f.range),
        "related": [[_range_to(r.range), r.message] for r in f.related],
        "fixes": [
            [x.id, x.title, x.safety, [[_range_to(e.range), e.new_text] for e in x.edits]]
            for x in f.fixes
        ],
        "panic": f.panic,
        "era": f.era,
    }


def _finding_from(item: dict[str, Any]) -> Finding:
    return Finding(
        code=str(item["code"]),
        slug=str(item["slug"]),
        severity=str(item["severity"]),
        message=str(item["message"]),
        range=_range_from(item["range"]),
        related=tuple(Related(_range_from(r), str(m)) for r, m in item["related"]),
        fixes=tuple(
            Fix(
                str(fid),
                str(title),
                str(safety),
                tuple(Edit(_range_from(r), str(t)) for r, t in edits),
            )
            for fid, title, safety, edits in item["fixes"]
        ),
        panic=str(item["panic"]),
        era=str(item["era"]),
    )


def _result_to(result: FileResult) -> dict[str, Any]:
    return {
        "path": result.path,
        "era": result.era,
        "era_reason": result.era_reason,
        "notes": list(result.notes),
        "findings": [_finding_to(f) for f in result.findings],
        "suppressed": [
            [_finding_to(s.finding), _range_to(s.comment), s.kind, s.text]
            for s in result.suppressed
        ],
        "unused": [[u.code, _range_to(u.comment), u.text] for u in result.unused],
    }


def _result_from(item: dict[str, Any]) -> FileResult:
    return FileResult(
        path=str(item["path"]),
        era=str(item["era"]),
        era_reason=str(item["era_reason"]),
        notes=[str(n) for n in item["notes"]],
        findings=[_finding_from(f) for f in item["findings"]],
        suppressed=[
            Suppressed(_finding_from(f), _range_from(r), str(k), str(t))
            for f, r, k, t in item["suppressed"]
        ],
        unused=[Unused(str(c), _range_from(r), str(t)) for c, r, t in item["unused"]],
    )
