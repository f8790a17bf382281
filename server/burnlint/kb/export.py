"""`burnlint kb export`: the knowledge base as a browsable offline folder.

One page per entry, named `{code}.md` or `{code}.html` so a `docs-url` such as
`https://team.example/burnlint/{code}.html` points at the exported pages, plus an index page
with a table of every entry. HTML pages are self-contained: inline CSS, no external resources,
and on the index a few lines of hand-written script that filter the table as you type.
"""

from __future__ import annotations

import argparse
import html
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from burnlint.atomic import write_atomic
from burnlint.eras import DISPATCH_ERAS
from burnlint.kb.match import message_eras
from burnlint.kb.model import Entry

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

FORMATS = ("markdown", "html")
MARKER = ".burnlint-kb-export"
"""Written into every exported folder; lists the files written, so a later export may replace
them (and remove pages of entries that no longer exist) without touching anything else."""
_EXTENSIONS = {"markdown": "md", "html": "html"}
_BACKTICKS = re.compile(r"`+")

_CSS = """
:root { color-scheme: light dark; --fg: #1f2328; --bg: #ffffff; --muted: #59636e;
  --line: #d1d9e0; --code: #f6f8fa; --link: #0969da; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1;
  --line: #3d444d; --code: #151b23; --link: #4493f8; } }
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif;
  color: var(--fg); background: var(--bg); }
main, nav { max-width: 60rem; margin: 0 auto; padding: 0 1.25rem; }
nav { padding-top: 1rem; font-size: 0.9rem; }
a { color: var(--link); }
h1 { font-size: 1.6rem; margin: 0.75rem 0; }
h2 { font-size: 1.25rem; border-bottom: 1px solid var(--line); padding-bottom: 0.25rem;
  margin-top: 2rem; }
code, pre { font: 0.875rem/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  background: var(--code); border-radius: 6px; }
code { padding: 0.1em 0.3em; }
pre { padding: 0.8rem 1rem; overflow-x: auto; }
pre code { padding: 0; background: none; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
th, td { border: 1px solid var(--line); padding: 0.35rem 0.6rem; text-align: left;
  vertical-align: top; }
th { background: var(--code); }
blockquote { margin: 1rem 0; padding: 0 1rem; color: var(--muted);
  border-left: 4px solid var(--line); }
.meta { color: var(--muted); }
input[type=search] { width: 100%; box-sizing: border-box; padding: 0.5rem 0.75rem;
  font-size: 1rem; border: 1px solid var(--line); border-radius: 6px; color: var(--fg);
  background: var(--bg); }
#count { color: var(--muted); font-size: 0.9rem; }
"""

# Filters the index table: every word typed must occur in a row's text (id, slug, title,
# summary, detection, category and its panic messages, so a pasted message finds its entry).
_SCRIPT = """
(function () {
  var box = document.getElementById("search");
  var count = document.getElementById("count");
  var rows = Array.prototype.slice.call(document.querySelectorAll("#entries tbody tr"));
  function apply() {
    var words = box.value.toLowerCase().split(/\\s+/).filter(function (w) { return w; });
    var shown = 0;
    rows.forEach(function (row) {
      var text = row.getAttribute("data-search");
      var keep = words.every(function (w) { return text.indexOf(w) !== -1; });
      row.hidden = !keep;
      if (keep) { shown += 1; }
    });
    count.textContent = shown + " of " + rows.length + " entries";
  }
  box.addEventListener("input", apply);
  if (location.hash.length > 1) { box.value = decodeURIComponent(location.hash.slice(1)); }
  apply();
})();
"""


def _code(text: str) -> str:
    """`text` as Markdown inline code, with a fence longer than any backtick run inside."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def page_name(entry: Entry, fmt: str) -> str:
    """The file name of an entry's page: `{code}.md` or `{code}.html`."""
    return f"{entry.id}.{_EXTENSIONS[fmt]}"


def index_name(fmt: str) -> str:
    """The file name of the index page."""
    return f"index.{_EXTENSIONS[fmt]}"


def _detection(entry: Entry, known: dict[str, Entry], fmt: str) -> str:
    if not entry.detected_by or entry.detection == "static":
        return entry.detection
    links = ", ".join(_link(code, known, fmt) for code in entry.detected_by)
    return f"{entry.detection} (reported by {links})"


def _link(code: str, known: dict[str, Entry], fmt: str) -> str:
    entry = known.get(code)
    return f"[{code}]({page_name(entry, fmt)})" if entry is not None else code


def entry_markdown(entry: Entry, known: dict[str, Entry], fmt: str) -> str:
    """The Markdown of an entry's page; links to other pages use the format's extension."""
    out = [
        f"[Index]({index_name(fmt)})",
        "",
        f"# {entry.id} {_code(entry.slug)}: {entry.title}",
        "",
        f"**Severity:** {entry.severity} · **Category:** {entry.category} · "
        f"**Detection:** {_detection(entry, known, fmt)}",
        "",
        f"> {entry.summary}",
        "",
    ]
    if not entry.confirmed:
        out += [
            "**Unconfirmed:** the cause described here is an inference that could not be "
            "confirmed from burn's source or issue tracker.",
            "",
        ]
    out += ["## Panic messages", "", "| Era | Message | Where in burn |", "| --- | --- | --- |"]
    places: dict[str, list[str]] = {}
    for message, source in entry.locations():
        where = f"[{source.path}:{source.line}]({source.url})" if source.line else source.path
        places.setdefault(message, []).append(where)
    for message, _ in entry.all_messages():
        eras = ", ".join(sorted(message_eras(entry, message), key=DISPATCH_ERAS.index))
        where = ", ".join(places.get(message, []))
        out.append(f"| {_cell(eras or 'any')} | {_cell(_code(message))} | {_cell(where)} |")
    out += ["", entry.body.strip(), ""]
    related = [code for code in entry.related if code in known]
    if related:
        out += ["## Related entries", ""]
        out += [f"- {_link(code, known, fmt)}: {known[code].title}" for code in related]
        out.append("")
    return "\n".join(out)


def index_markdown(entries: tuple[Entry, ...], fmt: str) -> str:
    """The Markdown of the index page: a table of every entry."""
    out = [
        "# burnlint knowledge base",
        "",
        f"{len(entries)} entries: what each burn panic means, when it happens and how to fix it.",
        "",
        "| ID | Title | Detection | Category |",
        "| --- | --- | --- | --- |",
    ]
    for entry in entries:
        link = f"[{entry.id}]({page_name(entry, fmt)})"
        out.append(
            f"| {link} | {_cell(entry.title)} | {_cell(entry.detection)} | {_cell(entry.category)} |"
        )
    return "\n".join(out) + "\n"


def _renderer() -> MarkdownIt:
    # Imported here: the CLI adds `kb`'s arguments on every run, and only an HTML export renders.
    from markdown_it import MarkdownIt

    # Raw HTML in an entry is shown as text and images are not loaded: pages stay
    # self-contained and cannot run anything but the index's own filter script.
    return MarkdownIt("commonmark", {"html": False}).enable("table").disable("image")


def _html_page(title: str, body: str, script: str = "") -> str:
    tail = f"<script>{script}</script>\n" if script else ""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f"<main>\n{body}</main>\n{tail}</body>\n</html>\n"
    )


def _index_html(entries: tuple[Entry, ...], renderer: MarkdownIt) -> str:
    rows: list[str] = []
    for entry in entries:
        words = [entry.id, entry.slug, entry.title, entry.summary, entry.detection]
        words += [entry.category, entry.severity, *(m for m, _ in entry.all_messages())]
        search = html.escape(" ".join(words).lower(), quote=True)
        rows.append(
            f'<tr data-search="{search}">'
            f'<td><a href="{html.escape(page_name(entry, "html"))}">{html.escape(entry.id)}</a></td>'
            f"<td>{renderer.renderInline(entry.title)}</td><td>{html.escape(entry.detection)}</td>"
            f"<td>{html.escape(entry.category)}</td></tr>"
        )
    body = (
        "<h1>burnlint knowledge base</h1>\n"
        f"<p>{len(entries)} entries: what each burn panic means, when it happens and how to fix "
        "it. Type a code, a word or part of a panic message to filter.</p>\n"
        '<p><input type="search" id="search" placeholder="Filter entries…" '
        'aria-label="Filter entries" autocomplete="off"></p>\n'
        '<p id="count"></p>\n'
        '<table id="entries">\n<thead><tr><th>ID</th><th>Title</th><th>Detection</th>'
        "<th>Category</th></tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>\n"
    )
    return _html_page("burnlint knowledge base", body, _SCRIPT)


def created_by_burnlint(directory: Path) -> bool:
    """Whether `directory` is missing, empty, or holds an earlier burnlint export."""
    if not directory.exists():
        return True
    if not directory.is_dir():
        return False
    return (directory / MARKER).is_file() or not any(directory.iterdir())


def export(entries: tuple[Entry, ...], directory: Path, fmt: str) -> list[Path]:
    """Write one page per entry and an index into `directory` (created when missing), each file
    atomically; returns the paths written, the index first. Pages of an earlier export that
    are no longer written (removed entries, the other format) are deleted."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r} (known: {', '.join(FORMATS)})")
    directory.mkdir(parents=True, exist_ok=True)
    known = {entry.id: entry for entry in entries}
    pages: dict[str, str] = {}
    if fmt == "markdown":
        pages[index_name(fmt)] = index_markdown(entries, fmt)
        for entry in entries:
            pages[page_name(entry, fmt)] = entry_markdown(entry, known, fmt)
    else:
        renderer = _renderer()
        pages[index_name(fmt)] = _index_html(entries, renderer)
        for entry in entries:
            body = renderer.render(entry_markdown(entry, known, fmt))
            pages[page_name(entry, fmt)] = _html_page(f"{entry.id} {entry.slug} · burnlint", body)
    previous = _previous(directory)
    written: list[Path] = []
    for name, text in pages.items():
        path = directory / name
        write_atomic(path, text.encode("utf-8"))
        written.append(path)
    for name in sorted(previous - set(pages)):
        (directory / name).unlink(missing_ok=True)
    listing = "".join(f"{name}\n" for name in pages)
    write_atomic(directory / MARKER, f"# burnlint kb export ({fmt})\n{listing}".encode())
    return written


def _previous(directory: Path) -> set[str]:
    """The files the last export wrote (only plain names: never a path outside the folder)."""
    try:
        lines = (directory / MARKER).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return set()
    return {
        line
        for line in lines
        if line
        and not line.startswith("#")
        and "/" not in line
        and "\\" not in line
        and line not in (".", "..")
    }


def add_kb_arguments(subparsers: Any) -> None:
    """`burnlint kb export [--format markdown|html] [--force] DIR`."""
    kb = subparsers.add_parser("kb", help="knowledge-base tools: export it as offline pages")
    commands = kb.add_subparsers(dest="kb_command", metavar="COMMAND")
    export_ = commands.add_parser(
        "export",
        help="write one page per entry plus an index (HTML or Markdown) into DIR",
        description="Write the knowledge base into DIR: one page per entry, named `{code}.html` "
        "(or `.md`) to match a `docs-url` template, plus `index.html`.",
    )
    export_.add_argument("directory", metavar="DIR", type=Path)
    export_.add_argument("--format", choices=FORMATS, default="html")
    export_.add_argument(
        "--force",
        action="store_true",
        help="write into DIR even if it is not empty and burnlint did not create it",
    )


def run_kb(args: argparse.Namespace, entries: tuple[Entry, ...]) -> int:
    """Run `burnlint kb …`; 0 on success, 2 on errors."""
    if getattr(args, "kb_command", None) != "export":
        print("burnlint: error: `burnlint kb` needs a command: export", file=sys.stderr)
        return 2
    directory: Path = args.directory
    if not args.force and not created_by_burnlint(directory):
        print(
            f"burnlint: error: {directory} is not empty and was not created by burnlint "
            "(use --force to write into it anyway)",
            file=sys.stderr,
        )
        return 2
    try:
        written = export(entries, directory, args.format)
    except OSError as error:
        print(f"burnlint: error: cannot write {directory}: {error}", file=sys.stderr)
        return 2
    print(written[0])
    return 0
