"""Typing in a dispatch-heavy file: edit latency and memory of the language server over many edits.

Writes a ~5,000-line file made of the example crate's `quant.rs` functions repeated with unique
names (every function uses the dispatch API; a quarter carry the BD001 bug), opens it, then
makes `--edits` one-character edits inside function bodies (a scale literal `0.125` toggled to
`0.126` and back, in a different function each time), waiting after each for the diagnostics of
that version. Reports edit -> diagnostics latency (p50/p95/max) and the server's resident
memory after the first analysis and after the edits. A benchmark, not a test:

    python bench/lsp_soak.py --edits 300
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lsp_latency import Client, generate, initialize, open_doc, proc_status, type_or_erase
from lsprotocol import types  # noqa: TID251


async def soak(lines: int, edits: int, pause: float, typing: bool = False) -> dict[str, object]:
    text, targets = generate(lines)
    client = Client()
    with tempfile.TemporaryDirectory(prefix="burnlint-soak-") as folder:
        crate = Path(folder)
        (crate / "Cargo.toml").write_text(
            '[package]\nname = "soak"\nversion = "0.1.0"\nedition = "2021"\n', encoding="utf-8"
        )
        (crate / "src").mkdir()
        big = crate / "src" / "big.rs"
        big.write_text(text, encoding="utf-8")
        await client.launch()
        try:
            await initialize(client, crate)
            uri = big.as_uri()
            sent = open_doc(client, uri, text)
            arrived, findings = await client.diagnostics(uri, 1)
            opened = arrived - sent
            pid = client.pid()
            assert pid is not None
            before = proc_status(pid)
            lines_now = text.splitlines()
            latencies: list[float] = []
            for index in range(edits):
                if pause:
                    await asyncio.sleep(pause)
                line = targets[(index * 7) % len(targets)]
                if typing and index % 2:
                    # Every other edit types or erases a digit: the text after it moves.
                    change = type_or_erase(lines_now, targets[(index // 2 * 5) % len(targets)])
                else:
                    column = lines_now[line].index("0.12") + 4
                    old = lines_now[line][column]
                    new = "6" if old == "5" else "5"
                    lines_now[line] = lines_now[line][:column] + new + lines_now[line][column + 1 :]
                    change = types.TextDocumentContentChangePartial(
                        range=types.Range(
                            types.Position(line, column), types.Position(line, column + 1)
                        ),
                        text=new,
                    )
                version = index + 2
                sent = time.perf_counter()
                client.text_document_did_change(
                    types.DidChangeTextDocumentParams(
                        text_document=types.VersionedTextDocumentIdentifier(
                            uri=uri, version=version
                        ),
                        content_changes=[change],
                    )
                )
                arrived, _ = await client.diagnostics(uri, version)
                latencies.append(arrived - sent)
            after = proc_status(pid)
        finally:
            await client.close()
    ordered = sorted(latencies)
    return {
        "lines": len(text.splitlines()),
        "functions_with_dispatch": len(targets),
        "findings": findings,
        "open_s": round(opened, 3),
        "edits": edits,
        "pause_s": pause,
        "typing": typing,
        "edit_p50_ms": round(statistics.median(ordered) * 1000, 1),
        "edit_p95_ms": round(ordered[int(len(ordered) * 0.95) - 1] * 1000, 1),
        "edit_max_ms": round(ordered[-1] * 1000, 1),
        "rss_after_open_mb": before.get("VmRSS"),
        "rss_after_edits_mb": after.get("VmRSS"),
        "peak_rss_mb": after.get("VmHWM"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--edits", type=int, default=300)
    parser.add_argument(
        "--pause",
        type=float,
        default=0.06,
        help="seconds between an edit's diagnostics and the next edit (0: back to back, so"
        " each edit falls in the server's burst window and waits for its debounce)",
    )
    parser.add_argument(
        "--typing",
        action="store_true",
        help="every other edit types or erases a digit (the text after it moves)",
    )
    args = parser.parse_args()
    gc.disable()  # the client's own collections must not stall the measured round trips
    print(json.dumps(asyncio.run(soak(args.lines, args.edits, args.pause, args.typing)), indent=2))


if __name__ == "__main__":
    main()
