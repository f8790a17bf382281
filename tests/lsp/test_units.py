"""The server's pure parts without a process: LSP line and column arithmetic, incremental
changes, and settings parsing."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from burnlint.lsp.documents import Documents
from burnlint.lsp.positions import Encoding, LineIndex, apply_change
from burnlint.lsp.settings import Settings, parse_settings

pytestmark = pytest.mark.timeout(10)

CODES = frozenset({"BD001", "BD004"})


def test_only_lsp_line_breaks_count() -> None:
    # `\f`, `\x1c` and U+2028 end lines for `str.splitlines`, never for LSP.
    text = "a\fb\x1cc\u2028d\r\ne\rf\ng"
    index = LineIndex(text)
    assert index.line_count == 4
    assert [index.line_text(n) for n in range(4)] == ["a\fb\x1cc\u2028d", "e", "f", "g"]
    assert [index.line_break(n) for n in range(4)] == ["\r\n", "\r", "\n", ""]
    assert index.newline() == "\r\n"


@pytest.mark.parametrize(("encoding", "column"), [("utf-8", 12), ("utf-16", 7), ("utf-32", 6)])
def test_columns_per_encoding(encoding: Encoding, column: int) -> None:
    text = 'x\n"é😀漢" + y\n'
    index = LineIndex(text)
    byte = text.encode("utf-8").index(b"+")
    assert index.position(byte, encoding) == (1, column)
    assert index.byte_offset(1, column, encoding) == byte


def test_positions_clamp_and_never_split_a_character() -> None:
    index = LineIndex("😀ab\r\nz")
    # Inside the surrogate pair (UTF-16 column 1) or the UTF-8 sequence: the character's start.
    assert index.char_offset(0, 1, "utf-16") == 0
    assert index.char_offset(0, 3, "utf-8") == 0
    # Past the end of a line means its end, before the line break.
    assert index.char_offset(0, 99, "utf-16") == 3
    assert index.char_offset(9, 0, "utf-16") == len("😀ab\r\nz")
    # An offset between `\r` and `\n` is the end of the line.
    assert index.position_of_char(4, "utf-8") == (0, 6)


def test_incremental_changes_use_the_client_encoding() -> None:
    text = 'let s = "😀"; x\r\nnext\n'
    span = ((0, 12), (0, 13))  # UTF-16: the `;` after the emoji
    assert apply_change(text, span, ",", "utf-16") == 'let s = "😀", x\r\nnext\n'
    span8 = ((0, 14), (0, 15))  # the same `;` in UTF-8 bytes
    assert apply_change(text, span8, ",", "utf-8") == 'let s = "😀", x\r\nnext\n'
    assert apply_change(text, ((1, 0), (2, 0)), "", "utf-16") == 'let s = "😀"; x\r\n'
    assert apply_change(text, None, "all", "utf-16") == "all"


def test_settings_defaults_and_wrapping() -> None:
    assert parse_settings(None, CODES) == (Settings(), [])
    wrapped = {"burnlint": {"ignore": ["bd004"], "era": "auto", "docsUrl": ""}}
    settings, problems = parse_settings(wrapped, CODES)
    assert problems == []
    assert settings.ignore == frozenset({"BD004"}) and settings.era is None
    assert settings.docs_url is None
    plain, _ = parse_settings({"scope": "workspace", "era": "checkpointing"}, CODES)
    assert plain.scope == "workspace" and plain.era == "checkpointing"


def test_invalid_settings_fall_back_per_field() -> None:
    raw = {
        "enable": 1,
        "severity": {"BD001": "warning", "BD999": "error", "BD004": "loud"},
        "ignore": "BD001",
        "scope": "all",
        "unsafeFixes": False,
        "era": "2026",
        "logLevel": "trace",
        "docsUrl": "https://example.test/docs",
    }
    settings, problems = parse_settings(raw, CODES)
    # A link without a placeholder is one page for every code: allowed, as in burnlint.toml.
    assert settings == Settings(
        severity={"BD001": "warning"}, unsafe_fixes=False, docs_url="https://example.test/docs"
    )
    assert len(problems) == 7
    assert parse_settings(["not", "an", "object"], CODES)[1] == [
        "settings must be an object, got an array"
    ]


@given(st.text(alphabet=st.sampled_from(["a", "é", "😀", "漢", "\n", " "]), max_size=40))
def test_the_fast_line_index_agrees_with_the_general_one(text: str) -> None:
    # A trailing `\r` sends the same text through the general path, one line longer.
    fast, general = LineIndex(text), LineIndex(text + "\r")
    for encoding in ("utf-8", "utf-16", "utf-32"):
        for offset in range(len(text.encode("utf-8")) + 1):
            assert fast.position(offset, encoding) == general.position(offset, encoding)
    for line in range(fast.line_count):
        assert fast.line_text(line) == general.line_text(line)
        assert fast.char_offset(line, 2, "utf-16") == general.char_offset(line, 2, "utf-16")


@given(st.lists(st.sampled_from(["a", " ", "\n", "\r", "\r\n", "é"]), max_size=40).map("".join))
def test_ascii_positions_are_those_of_the_general_conversion(text: str) -> None:
    # An ASCII text takes a shortcut (bytes are columns); it must land where the general path
    # does, also inside a `\r\n` and past the end.
    index = LineIndex(text)
    for encoding in ("utf-8", "utf-16", "utf-32"):
        for offset in range(len(text.encode("utf-8")) + 2):
            general = index.position_of_char(index.char_offset_of_byte(offset), encoding)
            assert index.position(offset, encoding) == general


_PIECES = st.text(alphabet=st.sampled_from(["a", "é", "😀", "漢", "\n", " "]), max_size=30)


@given(_PIECES, _PIECES, st.data())
def test_an_index_kept_across_an_edit_is_the_index_of_the_new_text(
    text: str, new_text: str, data: st.DataObject
) -> None:
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    kept = LineIndex(text).replaced(start, end, new_text)
    fresh = LineIndex(text[:start] + new_text + text[end:])
    assert kept.text == fresh.text
    assert kept.line_count == fresh.line_count
    for encoding in ("utf-8", "utf-16"):
        for offset in range(len(fresh.text.encode("utf-8")) + 1):
            assert kept.position(offset, encoding) == fresh.position(offset, encoding)
    for line in range(fresh.line_count):
        assert kept.line_text(line) == fresh.line_text(line)
        assert kept.byte_offset(line, 1, "utf-16") == fresh.byte_offset(line, 1, "utf-16")


def test_a_large_document_edited_through_its_kept_index() -> None:
    text = "fn f() { let é = 1; }\n" * 4000
    documents = Documents()
    documents.open("file:///big.rs", 1, text, "rust")
    expected = text
    for version, (line, column, new) in enumerate([(10, 9, "x"), (3999, 0, "\n"), (0, 4, "")], 2):
        span = ((line, column), (line, column + (1 if not new else 0)))
        expected = apply_change(expected, span, new, "utf-16")
        doc = documents.change("file:///big.rs", version, [(span, new)], "utf-16")
        assert doc is not None and doc.text == expected
        assert doc.index.line_count == LineIndex(expected).line_count


HINTED = 'fn f() {\n    let é = t; let x = "😀"; let y = x;\n}\n'


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
@pytest.mark.parametrize("lazy", [True, False])
def test_hint_json_is_what_lsprotocol_writes_and_ranges_slice_it(
    encoding: Encoding, lazy: bool
) -> None:
    # Imported here: the analysis' states are loaded with the engine.
    from lsprotocol import types  # noqa: TID251 - the hints are compared with lsprotocol's
    from pygls.protocol import default_converter  # noqa: TID251

    from burnlint.analysis.findings import Position, Range, Related
    from burnlint.analysis.states import BindingState
    from burnlint.lsp.documents import OpenDocument
    from burnlint.lsp.inlay import hint_list, state_markdown
    from burnlint.lsp.states import Read

    data = HINTED.encode()
    origin = Related(Range("a.rs", 13, 14, Position(1, 8), Position(1, 9)), 'made "here"')
    states = [
        BindingState(start, start + len(name.encode()), "let", label, ("p",), (origin,), False, d)
        for name, label, d in (
            ("é", "autodiff", True),
            ("x", "plain", False),
            ("y", "ctx: ¿", True),
        )
        for start in [data.index(f"let {name}".encode()) + 4]
    ]
    doc = OpenDocument("file:///a%20b/a.rs", None, 7, HINTED)
    read = Read(states, {"a.rs": "file:///a%20b/a.rs"}, version=7)
    converter = default_converter()
    for mode in ("on", "dispatch"):
        hints = hint_list(doc, read, mode, encoding, lazy)
        expected = [
            converter.unstructure(
                types.InlayHint(
                    position=types.Position(*doc.index.position(state.end, encoding)),
                    label=state.label,
                    kind=types.InlayHintKind.Type,
                    tooltip=None
                    if lazy
                    else types.MarkupContent(
                        kind=types.MarkupKind.Markdown, value=state_markdown(state, read.uris)
                    ),
                    padding_left=True,
                    data={"uri": doc.uri, "version": 7, "start": state.start} if lazy else None,
                )
            )
            for state in states
            if mode == "on" or state.dispatch
        ]
        assert json.loads(hints.between(0, len(data)).text) == expected
        # A range takes the hints of the names that start in it.
        y = data.index(b"let y") + 4
        assert json.loads(hints.between(y, y).text) == expected[-1:]
        assert json.loads(hints.between(0, y - 1).text) == expected[:-1]
        assert json.loads(hints.between(len(data), len(data)).text) == []
        # The next version, made from this list: the same states, one line break more before
        # `y` (the same bytes in all): the hints before it are reused, `y`'s is made anew.
        moved = OpenDocument(doc.uri, None, 8, HINTED.replace(" let y", "\nlet y"))
        later = hint_list(moved, Read(states, read.uris, version=8), mode, encoding, lazy, hints)
        again = [
            {
                **hint,
                "position": dict(
                    zip(("line", "character"), moved.index.position(s.end, encoding), strict=True)
                ),
            }
            | ({"data": {**hint["data"], "version": 8}} if lazy else {})
            for hint, s in zip(
                expected, [s for s in states if mode == "on" or s.dispatch], strict=True
            )
        ]
        assert json.loads(later.between(0, len(data)).text) == again


@given(
    st.lists(st.sampled_from(["a", " ", "\n", "é"]), max_size=30).map("".join),
    st.lists(st.sampled_from(["b", " ", "\n"]), max_size=4).map("".join),
    st.data(),
)
def test_same_places_means_every_offset_keeps_its_position(
    text: str, new_text: str, data: st.DataObject
) -> None:
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    before, after = LineIndex(text), LineIndex(text).replaced(start, end, new_text)
    if after.same_places(before):
        for encoding in ("utf-8", "utf-16", "utf-32"):
            for offset in range(min(len(after.text), len(before.text)) + 1):
                assert after.position(offset, encoding) == before.position(offset, encoding)


def test_kept_hints_are_placed_again_unless_the_lines_stayed() -> None:
    from burnlint.analysis.states import BindingState
    from burnlint.lsp.documents import OpenDocument
    from burnlint.lsp.inlay import HintList, hint_list
    from burnlint.lsp.states import Read

    text = "fn f() {\n    let a = t; let b = x;\n}\n"
    data = text.encode()
    states = [
        BindingState(at + 4, at + 5, "let", "autodiff", (), (), False, True)
        for at in (data.index(b"let a"), data.index(b"let b"))
    ]

    def hints(version: int, body: str, previous: HintList | None = None) -> HintList:
        doc = OpenDocument("file:///a.rs", None, version, body)
        return hint_list(doc, Read(states, {}, version=version), "on", "utf-16", True, previous)

    def shown(made: HintList) -> list[object]:
        return json.loads(made.between(0, len(data)).text)

    first = hints(1, text)
    for version, body in (
        (2, text.replace("= t;", "= u;")),  # the same lines: the kept hints' JSON
        (3, text.replace(" let b", "\nlet b")),  # the same bytes, `b` a line further
    ):
        assert shown(hints(version, body, first)) == shown(hints(version, body))
    assert shown(hints(3, text.replace(" let b", "\nlet b"), first))[1] != shown(first)[1]
