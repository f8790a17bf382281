"""Latency of the burnlint language server, measured from a client's point of view.

Starts `python -m burnlint server` over stdio as a VS Code-like client (push diagnostics,
UTF-16 positions) and measures:

- didOpen -> publishDiagnostics for the example crate's `src/quant.rs`;
- didOpen -> publishDiagnostics for a generated 5,000-line file in a temporary crate;
- didChange -> publishDiagnostics for 50 single-character edits of that file, one at a time
  (each includes the server's ~150 ms debounce);
- hover round trips (p50/p95) over findings and over plain code.

Prints a table and writes bench/results/lsp_latency.json. This is a benchmark, not a test:

    python bench/lsp_latency.py
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# A client of the server, not part of it: the protocol libraries are needed here too.
from lsprotocol import types  # noqa: TID251
from pygls.lsp.client import LanguageClient  # noqa: TID251

ROOT = Path(__file__).resolve().parents[1]
QUANT = ROOT / "examples" / "dispatch-demo" / "src" / "quant.rs"
RESULTS = ROOT / "bench" / "results"
WAIT = 60.0

HEADER = """//! Generated for the latency benchmark: plain Rust with some burn dispatch code.
use burn::backend::{
    Dispatch, DispatchAutodiffContext, DispatchDevice, DispatchTensor, GradientCheckpointingStrategy,
};
use burn::tensor::TensorData;

use crate::dispatch;
"""
PLAIN = """
/// Plain helper {i}: no burn API at all.
pub fn helper_{i}(values: &[f32], scale: f32) -> Vec<f32> {{
    let mut out = Vec::with_capacity(values.len());
    for (index, value) in values.iter().enumerate() {{
        let weight = if index % 2 == 0 {{ scale }} else {{ scale * 0.5 }};
        out.push(value * weight + {i}.0);
    }}
    out
}}
"""
DISPATCH = """
/// Training head {i}.
pub fn head_{i}(batch: TensorData, q_rhs: DispatchTensor) -> DispatchTensor {{
    let device = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let lhs = Dispatch::float_from_data(batch, &device);
    let ctx = {ctx};
    dispatch::q_matmul(lhs, q_rhs, ctx)
}}
"""
ENABLED = "DispatchAutodiffContext::Enabled(GradientCheckpointingStrategy::Disabled)"
DISABLED = "DispatchAutodiffContext::Disabled"


def generate(lines: int) -> str:
    """About `lines` lines: mostly plain functions, every fifth a dispatch function, every
    fourth of those with the BD001 bug."""
    parts = [HEADER]
    count = HEADER.count("\n")
    index = 0
    while count < lines:
        if index % 5 == 4:
            ctx = DISABLED if index % 20 == 19 else ENABLED
            part = DISPATCH.format(i=index, ctx=ctx)
        else:
            part = PLAIN.format(i=index)
        parts.append(part)
        count += part.count("\n")
        index += 1
    return "".join(parts)


class Client(LanguageClient):
    """A client that timestamps every publishDiagnostics."""

    def __init__(self) -> None:
        super().__init__("burnlint-bench", "1")
        self.published: list[tuple[float, types.PublishDiagnosticsParams]] = []
        self.event = asyncio.Event()

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: types.PublishDiagnosticsParams) -> None:
            self.published.append((time.perf_counter(), params))
            self.event.set()

        @self.feature(types.WORKSPACE_CONFIGURATION)
        def configuration(params: types.ConfigurationParams) -> list[Any]:
            return [None for _ in params.items]

        @self.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(params: types.RegistrationParams) -> None:
            return None

    async def diagnostics(self, uri: str, version: int) -> tuple[float, int]:
        """Wait for the publication of `version`; (arrival time, number of diagnostics)."""
        deadline = time.perf_counter() + WAIT
        while True:
            for when, params in self.published:
                if params.uri == uri and params.version == version:
                    return when, len(params.diagnostics)
            self.event.clear()
            await asyncio.wait_for(self.event.wait(), max(0.01, deadline - time.perf_counter()))


def capabilities() -> types.ClientCapabilities:
    """A VS Code-like client: pushed diagnostics with related information, UTF-16."""
    return types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                related_information=True, version_support=True, data_support=True
            ),
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
        ),
        workspace=types.WorkspaceClientCapabilities(configuration=True),
        general=types.GeneralClientCapabilities(
            position_encodings=[types.PositionEncodingKind.Utf16]
        ),
    )


def open_doc(client: Client, uri: str, text: str) -> float:
    item = types.TextDocumentItem(uri=uri, language_id="rust", version=1, text=text)
    sent = time.perf_counter()
    client.text_document_did_open(types.DidOpenTextDocumentParams(item))
    return sent


def percentile(samples: list[float], fraction: float) -> float:
    """The `fraction` quantile (nearest rank) of `samples`."""
    ordered = sorted(samples)
    rank = max(0, min(len(ordered) - 1, round(fraction * (len(ordered) + 1)) - 1))
    return ordered[rank]


def summary(samples: list[float]) -> dict[str, float]:
    return {
        "n": len(samples),
        "p50_ms": round(percentile(samples, 0.5) * 1000, 1),
        "p95_ms": round(percentile(samples, 0.95) * 1000, 1),
        "mean_ms": round(statistics.fmean(samples) * 1000, 1),
        "max_ms": round(max(samples) * 1000, 1),
    }


async def measure(lines: int, edits: int, hovers: int) -> dict[str, Any]:
    client = Client()
    started = time.perf_counter()
    await client.start_io(sys.executable, "-m", "burnlint", "server")
    with tempfile.TemporaryDirectory(prefix="burnlint-bench-") as folder:
        crate = Path(folder)
        (crate / "Cargo.toml").write_text(
            '[package]\nname = "bench"\nversion = "0.1.0"\nedition = "2021"\n', encoding="utf-8"
        )
        (crate / "src").mkdir()
        big_text = generate(lines)
        big = crate / "src" / "big.rs"
        big.write_text(big_text, encoding="utf-8")
        params = types.InitializeParams(
            capabilities=capabilities(), process_id=None, root_uri=crate.as_uri()
        )
        await client.initialize_async(params)
        client.initialized(types.InitializedParams())
        ready = time.perf_counter() - started

        # didOpen -> diagnostics, the example crate.
        quant = QUANT.as_uri()
        sent = open_doc(client, quant, QUANT.read_text(encoding="utf-8"))
        arrived, quant_count = await client.diagnostics(quant, 1)
        quant_open = arrived - sent

        # didOpen -> diagnostics, the generated file (cold: its crate is analyzed first).
        uri = big.as_uri()
        sent = open_doc(client, uri, big_text)
        arrived, big_count = await client.diagnostics(uri, 1)
        big_open = arrived - sent

        # didChange -> diagnostics: type characters into a comment in the middle of the file.
        target = big_text.splitlines().index("/// Plain helper 250: no burn API at all.")
        column = len("/// Plain helper 250: no burn API at all.")
        change_times: list[float] = []
        for version in range(2, edits + 2):
            position = types.Position(line=target, character=column + version - 2)
            change = types.TextDocumentContentChangePartial(
                range=types.Range(start=position, end=position), text="x"
            )
            sent = time.perf_counter()
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[change],
                )
            )
            arrived, _ = await client.diagnostics(uri, version)
            change_times.append(arrived - sent)

        # Hover: over each finding's start, and over plain code between them.
        findings = next(p for _, p in reversed(client.published) if p.uri == uri).diagnostics
        points = [d.range.start for d in findings]
        points += [types.Position(line=line, character=8) for line in range(20, lines, 97)]
        hover_times: list[float] = []
        shown = 0
        for index in range(hovers):
            position = points[index % len(points)]
            hover = types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri), position=position
            )
            sent = time.perf_counter()
            answer = await client.text_document_hover_async(hover)
            hover_times.append(time.perf_counter() - sent)
            shown += answer is not None

        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
    return {
        "server_start_s": round(ready, 2),
        "open_quant": {"ms": round(quant_open * 1000, 1), "diagnostics": quant_count},
        "open_generated": {
            "ms": round(big_open * 1000, 1),
            "lines": big_text.count("\n"),
            "diagnostics": big_count,
        },
        "change_generated": summary(change_times),
        "hover_generated": {**summary(hover_times), "with_content": shown},
    }


def report(results: dict[str, Any]) -> str:
    rows = [
        ("server start (initialize answered)", f"{results['server_start_s'] * 1000:.0f}", "", ""),
        (
            f"didOpen -> diagnostics, quant.rs ({results['open_quant']['diagnostics']} diagnostics)",
            f"{results['open_quant']['ms']:.0f}",
            "",
            "",
        ),
        (
            f"didOpen -> diagnostics, generated {results['open_generated']['lines']} lines "
            f"({results['open_generated']['diagnostics']} diagnostics)",
            f"{results['open_generated']['ms']:.0f}",
            "",
            "",
        ),
    ]
    change = results["change_generated"]
    rows.append(
        (
            f"didChange -> diagnostics, {change['n']} one-character edits",
            f"{change['mean_ms']:.0f}",
            f"{change['p50_ms']:.0f}",
            f"{change['p95_ms']:.0f}",
        )
    )
    hover = results["hover_generated"]
    rows.append(
        (
            f"hover, {hover['n']} requests ({hover['with_content']} with content)",
            f"{hover['mean_ms']:.1f}",
            f"{hover['p50_ms']:.1f}",
            f"{hover['p95_ms']:.1f}",
        )
    )
    width = max(len(r[0]) for r in rows)
    lines = [f"{'measurement':<{width}}  {'ms':>7}  {'p50 ms':>7}  {'p95 ms':>7}"]
    lines.append("-" * len(lines[0]))
    lines += [f"{a:<{width}}  {b:>7}  {c:>7}  {d:>7}" for a, b, c, d in rows]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description="Latency of the burnlint language server.")
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--edits", type=int, default=50)
    parser.add_argument("--hovers", type=int, default=100)
    args = parser.parse_args()
    started = time.perf_counter()
    results = asyncio.run(measure(args.lines, args.edits, args.hovers))
    results["total_s"] = round(time.perf_counter() - started, 1)
    results["machine"] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
    }
    print(report(results))
    print(f"total {results['total_s']} s")
    RESULTS.mkdir(parents=True, exist_ok=True)
    # Results are machine-specific: the folder ignores its own contents.
    (RESULTS / ".gitignore").write_text("*\n", encoding="utf-8")
    out = RESULTS / "lsp_latency.json"
    out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
