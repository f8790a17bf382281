"""The open documents: their text as the editor has it (never normalised), kept in sync from
incremental changes with LSP line semantics."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from burnlint.analysis.syntax.source import SourceFile
from burnlint.lsp.positions import Encoding, LineIndex, apply_change

_INDEX_FROM = 64 * 1024
"""Characters from which an edited text keeps its line index across edits (below, finding a
range by scanning is as fast and keeps nothing)."""

logger = logging.getLogger(__name__)
Span = tuple[tuple[int, int], tuple[int, int]]


@dataclass(slots=True)
class OpenDocument:
    """One open editor buffer."""

    uri: str
    path: Path | None
    """Where the file is on disk; None for `untitled:` and other non-file documents."""
    version: int
    text: str
    language_id: str = "rust"
    _index: LineIndex | None = field(default=None, repr=False)
    _parsed: SourceFile | None = field(default=None, repr=False)
    _stale: SourceFile | None = field(default=None, repr=False)

    @property
    def index(self) -> LineIndex:
        """The line index of the current text (built on first use after each change)."""
        if self._index is None:
            self._index = LineIndex(self.text)
        return self._index

    @property
    def parsed(self) -> SourceFile:
        """The current text parsed (built on first use after each change)."""
        if self._parsed is None:
            previous, self._stale = self._stale, None
            self._parsed = SourceFile(str(self.path or self.uri), self.text, previous=previous)
        return self._parsed

    @property
    def built_index(self) -> LineIndex | None:
        """The line index of the current text if it is built (None: it is not)."""
        return self._index

    def replace(self, version: int, text: str, index: LineIndex | None = None) -> None:
        """Swap in a new version of the text (and its line index, when the caller has it)."""
        self.version = version
        self.text = text
        self._index = index
        # The previous parse stays around once, to be edited and reused (incremental parse).
        self._stale = self._parsed or self._stale
        self._parsed = None


def path_of(uri: str) -> Path | None:
    """The file system path of a `file:` URI (percent-decoded, resolved); None otherwise."""
    if not uri.startswith("file:"):
        return None
    rest = unquote(uri[len("file:") :])
    if rest.startswith("//"):
        rest = rest[2:]
        host, _, rest = rest.partition("/")
        rest = "/" + rest
        if host and host != "localhost":
            rest = f"//{host}{rest}"
    # `file:///C:/x` on Windows.
    if len(rest) > 2 and rest[0] == "/" and rest[2] == ":":
        rest = rest[1:]
    return Path(rest).resolve()


def uri_of(path: Path) -> str:
    """The `file:` URI of an absolute path."""
    return path.resolve().as_uri()


class Documents:
    """Open documents by URI."""

    def __init__(self) -> None:
        self._docs: dict[str, OpenDocument] = {}

    def open(self, uri: str, version: int, text: str, language_id: str) -> OpenDocument:
        """Start tracking a document."""
        doc = OpenDocument(uri, path_of(uri), version, text, language_id)
        self._docs[uri] = doc
        return doc

    def change(
        self, uri: str, version: int, changes: list[tuple[Span | None, str]], encoding: Encoding
    ) -> OpenDocument | None:
        """Apply content changes in order; None when the document is not open."""
        doc = self._docs.get(uri)
        if doc is None:
            return None
        text = doc.text
        index = doc.built_index
        for span, new_text in changes:
            if span is None or (index is None and len(text) < _INDEX_FROM):
                text = apply_change(text, span, new_text, encoding)
                index = None
                continue
            # A large text: its line index, kept up to date edit by edit, finds the range
            # (and is ready for the next request).
            index = index if index is not None else LineIndex(text)
            (start_line, start_col), (end_line, end_col) = span
            start = index.char_offset(start_line, start_col, encoding)
            end = max(start, index.char_offset(end_line, end_col, encoding))
            index = index.replaced(start, end, new_text)
            text = index.text
        if version <= doc.version:
            # Versions must increase (LSP): a client that repeats or lowers one would get
            # results of the old text stamped as current. Count on from the last one instead.
            logger.info(
                "%s: version %d after %d; using %d", uri, version, doc.version, doc.version + 1
            )
            version = doc.version + 1
        doc.replace(version, text, index)
        return doc

    def close(self, uri: str) -> OpenDocument | None:
        """Stop tracking a document; returns it if it was open."""
        return self._docs.pop(uri, None)

    def get(self, uri: str) -> OpenDocument | None:
        """The open document at `uri`, if any."""
        return self._docs.get(uri)

    def all(self) -> list[OpenDocument]:
        """Every open document."""
        return list(self._docs.values())

    def is_open(self, path: Path) -> bool:
        """Whether a file on disk is open in the editor."""
        return any(doc.path == path for doc in self._docs.values())
