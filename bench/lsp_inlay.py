"""Inlay hint latency of the burnlint language server on the generated 5,000-line dispatch-heavy
file (`lsp_latency.generate`), once the diagnostics of the version asked about exist.

Measures `textDocument/inlayHint` round trips (p50/p95) for:

- the whole document (what Neovim asks for), again and again on one version;
- a 100-line viewport (what VS Code asks for) at spread-out places;
- the first whole-document request after each isolated edit (a `0.125` literal toggled in a
  different function each time), sent once that version's diagnostics arrived: the states of the
  re-analyzed function are made anew, the others are reused.

Also reports how many hints the file gets with `inlayHints` "dispatch" (the default). Prints a
table and writes bench/results/lsp_inlay.json. This is a benchmark, not a test:

    python bench/lsp_inlay.py
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import tempfile
import time
from pathlib import Path
from typing import Any

from lsp_latency import (
    PAUSE,
    Client,
    bench_crate,
    capabilities,
    change,
    generate,
    open_doc,
    summary,
    toggle,
    write_results,
)

# A client of the server, not part of it: the protocol library is needed here too.
from lsprotocol import types  # noqa: TID251

VIEWPORT = 100


READ: list[float] = []
"""Each measured request's time until its answer was read, before the client decoded it."""


async def hints(client: Client, uri: str, first: int, last: int) -> tuple[float, int]:
    """One request over lines `first`..`last`: (round trip in seconds, number of hints); the
    time until the answer was read (before this Python client turns a thousand hints into
    objects) is appended to `READ`."""
    params = types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(types.Position(first, 0), types.Position(last, 0)),
    )
    sent = time.perf_counter()
    found = await client.text_document_inlay_hint_async(params)
    done = time.perf_counter()
    READ.append(client.responses_read[-1] - sent)
    return done - sent, len(found or [])


async def initialize(client: Client, root: Path) -> None:
    """initialize + initialized as VS Code does for hints: tooltips come on `inlayHint/resolve`."""
    caps = capabilities()
    assert caps.text_document is not None
    caps.text_document.inlay_hint = types.InlayHintClientCapabilities(
        resolve_support=types.ClientInlayHintResolveOptions(
            properties=["tooltip", "textEdits", "label.tooltip", "label.location", "label.command"]
        )
    )
    params = types.InitializeParams(
        capabilities=caps,
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
    )
    await client.initialize_async(params)
    client.initialized(types.InitializedParams())


async def measure(lines: int, repeats: int, edits: int) -> dict[str, Any]:
    """One server, one generated file: see the module docstring."""
    text, targets = generate(lines)
    total = text.count("\n") + 1
    client = Client()
    with tempfile.TemporaryDirectory(prefix="burnlint-bench-") as folder:
        big = bench_crate(Path(folder), "bench", text)
        await client.launch()
        try:
            await initialize(client, Path(folder))
            uri = big.as_uri()
            open_doc(client, uri, text)
            await client.diagnostics(uri, 1)
            first_time, count = await hints(client, uri, 0, total)
            READ.clear()
            whole = [(await hints(client, uri, 0, total))[0] for _ in range(repeats)]
            whole_read = READ[:]
            views: list[float] = []
            for index in range(repeats):
                start = (index * 997) % max(1, total - VIEWPORT)
                views.append((await hints(client, uri, start, start + VIEWPORT))[0])
            lines_now = text.splitlines()
            after_edit: list[float] = []
            READ.clear()
            for index in range(edits):
                await asyncio.sleep(PAUSE)
                edit = toggle(lines_now, targets[(index * 7) % len(targets)])
                change(client, uri, index + 2, edit)
                await client.diagnostics(uri, index + 2)
                after_edit.append((await hints(client, uri, 0, total))[0])
            after_edit_read = READ[:]
        finally:
            await client.close()
    return {
        "lines": total,
        "hints_dispatch": count,
        "first_whole_ms": round(first_time * 1000, 1),
        "whole": summary(whole),
        "whole_read": summary(whole_read),
        "viewport": summary(views),
        "whole_after_edit": summary(after_edit),
        "whole_after_edit_read": summary(after_edit_read),
    }


def report(results: dict[str, Any]) -> str:
    rows = [
        ("whole document, same version", results["whole"]),
        ("  the same, until the answer is read", results["whole_read"]),
        (f"{VIEWPORT}-line viewport", results["viewport"]),
        ("whole document, first after an edit", results["whole_after_edit"]),
        ("  the same, until the answer is read", results["whole_after_edit_read"]),
    ]
    out = [
        f"{results['lines']} lines, {results['hints_dispatch']} hints (inlayHints: dispatch); "
        f"first request {results['first_whole_ms']} ms",
        f"{'inlayHint round trip':<40} {'n':>4} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}",
    ]
    out += [
        f"{name:<40} {s['n']:>4} {s['p50_ms']:>7} {s['p95_ms']:>7} {s['max_ms']:>7}"
        for name, s in rows
    ]
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description="Inlay hint latency of the burnlint server.")
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=100)
    parser.add_argument("--edits", type=int, default=30)
    args = parser.parse_args()
    gc.disable()  # the client's own collections must not stall the measured round trips
    results = asyncio.run(measure(args.lines, args.repeats, args.edits))
    print(report(results))
    print(f"wrote {write_results('lsp_inlay.json', results)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
