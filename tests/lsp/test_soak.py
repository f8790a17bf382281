"""A real server typing session: hundreds of edits inside function bodies, each waited for.

The server's memory must stay flat (a version of a file that was replaced is freed) and its last
diagnostics must be those of a fresh analysis of the final text.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from harness import QUANT, Client, change_doc, open_doc, pushed, start, write_crate
from lsprotocol import types  # noqa: TID251 - the LSP tests speak the protocol

from burnlint.analysis.engine import Analyzer, CrateSession, Options
from burnlint.kb.load import load_kb
from burnlint.loading import load_crate

pytestmark = pytest.mark.timeout(120)

COPIES = 8
EDITS = 150
WARMUP = 30
"""Edits before the memory baseline: the first ones grow the heap to its working size (the
previous tree kept for incremental parsing, lowered bodies)."""
PAUSE = 0.06
"""Seconds between an edit's diagnostics and the next edit: longer than the server's burst
window, so each edit is analyzed at once instead of after the debounce."""
GROWTH_MB = 12.0
"""How much the server's resident memory may grow over the measured edits (before the leak was
fixed, every edit of this file kept about 1 MB)."""


def generate() -> tuple[str, list[int]]:
    """The example crate's `quant.rs` functions `COPIES` times with unique names, and the lines
    of their `0.125f32` literals."""
    head, _, body = QUANT.read_text(encoding="utf-8").partition("\n/// ")
    parts = [head + "\n"]
    for copy in range(COPIES):
        text = ("/// " + body).replace("pub fn ", f"pub fn c{copy}_")
        parts.append(text.replace("fn helper", f"fn c{copy}_helper") + "\n")
    text = "".join(parts)
    return text, [i for i, line in enumerate(text.splitlines()) if "0.125f32" in line]


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def server_pid(client: Client) -> int:
    # pytest-lsp keeps the server process in pygls' private attribute.
    process = getattr(client, "_server", None)
    assert isinstance(process, asyncio.subprocess.Process)
    return process.pid


def fresh(path: Path, text: str) -> set[tuple[object, ...]]:
    """The findings of a fresh analysis of `text` as the file at `path`."""
    loaded = load_crate(path, {path: (str(path), text)})
    session = CrateSession(Analyzer(load_kb()), loaded.files, Options(), loaded.crate, loaded.graph)
    out: set[tuple[object, ...]] = set()
    for file, result in zip(loaded.files, session.results(), strict=True):
        if file.target:
            for f in result.findings:
                start, end = f.range.start, f.range.end
                out.add((f.code, start.line, start.character, end.line, end.character, f.message))
    return out


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
async def test_memory_stays_flat_and_final_diagnostics_match_a_fresh_analysis(
    lsp: Client, tmp_path: Path
) -> None:
    text, targets = generate()
    crate = write_crate(tmp_path / "soak", {"src/lib.rs": text}, name="soak")
    path = crate / "src" / "lib.rs"
    await start(lsp, "visual-studio-code", folders=[crate])
    uri = open_doc(lsp, path, text)
    await pushed(lsp, uri, version=1)
    pid = server_pid(lsp)
    lines = text.splitlines(keepends=True)
    baseline = 0.0
    for index in range(EDITS):
        if index == WARMUP:
            baseline = resident_mb(pid)
        line = targets[(index * 7) % len(targets)]
        column = lines[line].index("0.12") + 4
        current = lines[line]
        if current[column + 1] == "7":
            # Delete the digit typed before.
            new, first, end = "", column + 1, column + 2
        elif index % 3 == 2:
            # Type a digit: everything after it in the file moves.
            new, first, end = "7", column + 1, column + 1
        else:
            new, first, end = ("6" if current[column] == "5" else "5"), column, column + 1
        lines[line] = current[:first] + new + current[end:]
        span = types.Range(types.Position(line, first), types.Position(line, end))
        await asyncio.sleep(PAUSE)
        change_doc(lsp, uri, index + 2, [types.TextDocumentContentChangePartial(span, new)])
        await pushed(lsp, uri, version=index + 2)
    growth = resident_mb(pid) - baseline
    assert growth < GROWTH_MB, f"resident memory grew {growth:.1f} MB over {EDITS - WARMUP} edits"
    final = "".join(lines)
    last = next(p for p in reversed(lsp.published) if p.uri == uri)
    assert last.version == EDITS + 1
    served = {
        (
            d.code,
            d.range.start.line,
            d.range.start.character,
            d.range.end.line,
            d.range.end.character,
            d.message,
        )
        for d in last.diagnostics
    }
    assert served == fresh(path, final)
    assert served
