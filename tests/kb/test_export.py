"""`burnlint kb export`: an offline copy of the knowledge base, one page per entry plus an index,
in Markdown or self-contained HTML whose links all resolve."""

from __future__ import annotations

import argparse
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from burnlint.kb.export import MARKER, add_kb_arguments, export, run_kb
from burnlint.kb.load import load_kb

ENTRIES = load_kb()
VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr", "source"}
_RUST_BLOCK = re.compile(r"```rust\n(.*?)```", re.DOTALL)
_MD_LINK = re.compile(r"\]\(([^)\s]+)\)")


class Page(HTMLParser):
    """Collects links, tags, text and script of a page, and checks that tags nest."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.scripts: list[str] = []
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.tags.append((tag, found))
        if tag == "a" and found.get("href"):
            self.links.append(str(found["href"]))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        if self.stack and self.stack[-1] == "script":
            self.scripts.append(data)
        else:
            self.text.append(data)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    assert not page.errors, f"{path.name}: {page.errors[:3]}"
    assert not page.stack, f"{path.name}: unclosed {page.stack}"
    return page


def plain(markdown: str) -> str:
    """Inline Markdown as the text a browser shows (this KB's inline markup is code spans)."""
    return markdown.replace("`", "")


def local(link: str) -> bool:
    parts = urlsplit(link)
    return not parts.scheme and not parts.netloc and not link.startswith("#")


@pytest.fixture(scope="module")
def html_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("html")
    export(ENTRIES, folder, "html")
    return folder


@pytest.fixture(scope="module")
def markdown_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("markdown")
    export(ENTRIES, folder, "markdown")
    return folder


def test_every_entry_has_an_html_page_named_for_docs_url(html_dir: Path) -> None:
    names = {p.name for p in html_dir.iterdir() if not p.name.startswith(".")}
    assert names == {"index.html"} | {f"{e.id}.html" for e in ENTRIES}


def test_html_pages_parse_and_their_links_resolve(html_dir: Path) -> None:
    for path in sorted(html_dir.glob("*.html")):
        page = parse(path)
        for link in page.links:
            if local(link):
                assert (html_dir / urlsplit(link).path).is_file(), f"{path.name}: {link}"
            else:
                assert link.startswith(("https://", "http://", "#")), f"{path.name}: {link}"


def test_html_pages_load_nothing_from_outside(html_dir: Path) -> None:
    for path in html_dir.glob("*.html"):
        page = parse(path)
        for tag, attrs in page.tags:
            assert tag not in ("link", "img", "iframe", "object", "embed"), (path.name, tag)
            if tag == "script":
                assert "src" not in attrs, path.name
        assert any(tag == "style" for tag, _ in page.tags), path.name


def test_the_index_lists_every_entry_with_a_search_box(html_dir: Path) -> None:
    page = parse(html_dir / "index.html")
    assert {f"{e.id}.html" for e in ENTRIES} <= set(page.links)
    inputs = [attrs for tag, attrs in page.tags if tag == "input"]
    assert any(attrs.get("type") == "search" for attrs in inputs)
    script = "".join(page.scripts)
    assert "addEventListener" in script and "data-search" in script
    rows = [attrs for tag, attrs in page.tags if tag == "tr" and "data-search" in attrs]
    assert len(rows) == len(ENTRIES)
    text = "".join(page.text)
    for entry in ENTRIES:
        assert plain(entry.title) in text and entry.detection in text and entry.category in text
    # A row's search text holds the entry's panic messages, so pasting one finds the entry.
    for entry, attrs in zip(ENTRIES, rows, strict=True):
        assert entry.message.lower() in str(attrs["data-search"])


def test_entry_pages_keep_code_blocks_as_text(html_dir: Path) -> None:
    for entry in ENTRIES:
        path = html_dir / f"{entry.id}.html"
        raw = path.read_text(encoding="utf-8")
        text = "".join(parse(path).text)
        assert plain(entry.title) in text and plain(entry.summary) in text
        for block in _RUST_BLOCK.findall(entry.body):
            for line in block.splitlines():
                assert line in text, (entry.id, line)
        # `<Dispatch as AutodiffBackend>` and friends are escaped, never markup.
        for generic in re.findall(r"<[A-Z]\w+ as \w+>", entry.body):
            assert generic not in raw and generic in text


def test_every_entry_has_a_markdown_page_and_links_resolve(markdown_dir: Path) -> None:
    names = {p.name for p in markdown_dir.iterdir() if not p.name.startswith(".")}
    assert names == {"index.md"} | {f"{e.id}.md" for e in ENTRIES}
    for path in markdown_dir.glob("*.md"):
        for link in _MD_LINK.findall(path.read_text(encoding="utf-8")):
            if local(link):
                assert (markdown_dir / urlsplit(link).path).is_file(), f"{path.name}: {link}"
    index = (markdown_dir / "index.md").read_text(encoding="utf-8")
    for entry in ENTRIES:
        assert f"[{entry.id}]({entry.id}.md)" in index
        page = (markdown_dir / f"{entry.id}.md").read_text(encoding="utf-8")
        assert entry.body.strip() in page


def kb_command(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="burnlint")
    add_kb_arguments(parser.add_subparsers(dest="command"))
    return run_kb(parser.parse_args(["kb", *argv]), ENTRIES)


def test_the_command_refuses_a_folder_it_did_not_create(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    assert kb_command("export", str(folder)) == 2
    assert "not created by burnlint" in capsys.readouterr().err
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]
    assert kb_command("export", "--force", str(folder)) == 0
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (folder / "index.html").is_file()


def test_the_command_prints_the_index_and_may_export_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "new" / "kb"
    assert kb_command("export", "--format", "markdown", str(folder)) == 0
    assert capsys.readouterr().out.strip() == str(folder / "index.md")
    assert (folder / MARKER).is_file()
    # A folder burnlint wrote may be written again; pages of the other format are replaced.
    assert kb_command("export", "--format", "html", str(folder)) == 0
    assert capsys.readouterr().out.strip() == str(folder / "index.html")
    assert not list(folder.glob("*.md"))
    assert len(list(folder.glob("*.html"))) == len(ENTRIES) + 1


def test_the_command_needs_a_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    assert kb_command() == 2
    assert "export" in capsys.readouterr().err
