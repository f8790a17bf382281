"""Latency of the burnlint language server, measured from a client's point of view.

Starts `python -m burnlint server` over stdio as a VS Code-like client (push diagnostics,
UTF-16 positions) and measures:

- didOpen -> publishDiagnostics for the example crate's `src/quant.rs`, and the time from the
  server process's start to those first diagnostics;
- didOpen -> publishDiagnostics for a generated 5,000-line dispatch-heavy file (the example
  crate's `quant.rs` functions repeated with unique names) in a temporary crate;
- didChange -> publishDiagnostics for isolated one-character edits inside function bodies (a
  `0.125` literal toggled, a different function each time, 0.1 s apart);
- the same for edits that move the text after them (a digit typed, then erased);
- the end of bursts of five edits typed 30 ms apart -> diagnostics of the last one (includes
  the server's debounce);
- the server's CPU time per isolated edit (user + system, from /proc: a figure that hardly
  depends on the machine's load, unlike the round trips);
- hover and code actions sent right after an edit (they wait for that version's analysis);
- hover round trips (p50/p95) over findings and over plain code.

Memory over hundreds of edits: `bench/lsp_soak.py`.

`bench/run.py` also uses `first_diagnostics` (server start -> first diagnostics, one fresh
server per call) and `workspace_memory` (the server's RSS after indexing a whole tree with
`scope: "workspace"`).

Prints a table and writes bench/results/lsp_latency.json. This is a benchmark, not a test:

    python bench/lsp_latency.py
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections import deque
from pathlib import Path
from typing import Any

# A client of the server, not part of it: the protocol libraries are needed here too.
from lsprotocol import types  # noqa: TID251
from pygls.lsp.client import LanguageClient  # noqa: TID251
from pygls.protocol import LanguageServerProtocol  # noqa: TID251

ROOT = Path(__file__).resolve().parents[1]
QUANT = ROOT / "examples" / "dispatch-demo" / "src" / "quant.rs"
RESULTS = ROOT / "bench" / "results"
WAIT = 60.0

PAUSE = 0.1
"""Seconds between isolated edits (longer than the server's burst window)."""
BURST_GAP = 0.03


def generate(lines: int) -> tuple[str, list[int]]:
    """About `lines` lines made of the example crate's `quant.rs` functions repeated with unique
    names (every function uses the dispatch API; a quarter carry the BD001 bug), and the line
    numbers (0-based) of one `0.125f32` literal per function copy."""
    source = QUANT.read_text(encoding="utf-8")
    head, _, body = source.partition("\n/// ")
    body = "/// " + body
    parts = [head + "\n"]
    count = parts[0].count("\n")
    copy = 0
    while count < lines:
        text = body.replace("pub fn ", f"pub fn c{copy}_").replace(
            "fn helper", f"fn c{copy}_helper"
        )
        parts.append(text + "\n")
        count += text.count("\n") + 1
        copy += 1
    text = "".join(parts)
    targets = [i for i, line in enumerate(text.splitlines()) if "0.125f32" in line]
    return text, targets


def toggle(lines: list[str], line: int) -> types.TextDocumentContentChangePartial:
    """Change the last digit of the `0.12x` literal on `line` (5 <-> 6), in `lines` too."""
    column = lines[line].index("0.12") + 4
    new = "6" if lines[line][column] == "5" else "5"
    lines[line] = lines[line][:column] + new + lines[line][column + 1 :]
    return types.TextDocumentContentChangePartial(
        range=types.Range(types.Position(line, column), types.Position(line, column + 1)),
        text=new,
    )


def type_or_erase(lines: list[str], line: int) -> types.TextDocumentContentChangePartial:
    """Type a `7` after the `0.12x` literal's last digit on `line`, or erase the `7` typed there
    before (in `lines` too): unlike `toggle`, the text after the edit moves."""
    column = lines[line].index("0.12") + 5
    if lines[line][column] == "7":
        lines[line] = lines[line][:column] + lines[line][column + 1 :]
        end, new = column + 1, ""
    else:
        lines[line] = lines[line][:column] + "7" + lines[line][column:]
        end, new = column, "7"
    return types.TextDocumentContentChangePartial(
        range=types.Range(types.Position(line, column), types.Position(line, end)), text=new
    )


def change(
    client: LanguageClient, uri: str, version: int, edit: types.TextDocumentContentChangePartial
) -> float:
    """Send one didChange; returns when it was sent."""
    sent = time.perf_counter()
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[edit],
        )
    )
    return sent


class ArrivalProtocol(LanguageServerProtocol):
    """The client's protocol, noting when each publishDiagnostics message has been read, before
    pygls turns its JSON into lsprotocol objects (which, for a hundred diagnostics, costs this
    Python client milliseconds that an editor's native JSON parser does not spend)."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        if "method" not in data and isinstance(getattr(self._server, "responses_read", None), list):
            # A response: when it was read (a benchmark sends one request at a time).
            self._server.responses_read.append(time.perf_counter())  # type: ignore[union-attr]
        if data.get("method") == types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS:
            params = data.get("params") or {}
            arrivals = getattr(self._server, "arrivals", None)
            if isinstance(arrivals, dict):
                key = (params.get("uri"), params.get("version"))
                arrivals.setdefault(key, time.perf_counter())
        return super().structure_message(data)


class Client(LanguageClient):
    """A client that timestamps every publishDiagnostics and `$/progress` notification and
    answers `workspace/configuration` with `settings` (None: the server's defaults)."""

    def __init__(self, settings: dict[str, Any] | None = None) -> None:
        super().__init__("burnlint-bench", "1", protocol_cls=ArrivalProtocol)
        self.arrivals: dict[tuple[str | None, int | None], float] = {}
        """(uri, version) -> when the publication's message was read, before decoding."""
        self.publications: dict[tuple[str, int | None], tuple[float, int]] = {}
        """(uri, version) -> (arrival time, number of diagnostics)."""
        self.responses_read: list[float] = []
        """When each response's message was read, before decoding."""
        self.latest: dict[str, types.PublishDiagnosticsParams] = {}
        """uri -> its last publication. Only the last is kept: a client holding every
        publication's hundred decoded diagnostics has a growing heap, and its own collector's
        passes over it showed up as 50-100 ms outliers in the server's round trips."""
        self.progress_events: list[tuple[float, str, str]] = []
        """(arrival time, token, kind: begin/report/end)."""
        self.event = asyncio.Event()
        self.settings = settings
        self.stderr_tail: deque[str] = deque(maxlen=40)
        self._drain: asyncio.Task[None] | None = None

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: types.PublishDiagnosticsParams) -> None:
            key = (params.uri, params.version)
            self.publications.setdefault(key, (time.perf_counter(), len(params.diagnostics)))
            self.latest[params.uri] = params
            self.event.set()

        @self.feature(types.WORKSPACE_CONFIGURATION)
        def configuration(params: types.ConfigurationParams) -> list[Any]:
            return [self.settings for _ in params.items]

        @self.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(params: types.RegistrationParams) -> None:
            return None

        @self.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
        def create_progress(params: types.WorkDoneProgressCreateParams) -> None:
            return None

        @self.feature(types.PROGRESS)
        def progress(params: types.ProgressParams) -> None:
            value = params.value
            kind = value.get("kind") if isinstance(value, dict) else getattr(value, "kind", "")
            self.progress_events.append((time.perf_counter(), str(params.token), str(kind)))
            self.event.set()

    async def launch(self) -> float:
        """Start `python -m burnlint server`; returns the time just before the process start."""
        started = time.perf_counter()
        await self.start_io(sys.executable, "-m", "burnlint", "server")
        process = self.process()
        if process is not None and process.stderr is not None:
            # The server's stderr is a pipe nobody else reads: drain it so that a chatty
            # server never blocks on a full pipe, and keep the tail for error messages.
            self._drain = asyncio.get_running_loop().create_task(self._drain_stderr(process))
        return started

    def process(self) -> asyncio.subprocess.Process | None:
        """The server process (pygls keeps it in a private attribute)."""
        process = getattr(self, "_server", None)
        return process if isinstance(process, asyncio.subprocess.Process) else None

    def pid(self) -> int | None:
        """The server's process id: pygls's process object, else our only burnlint child."""
        process = self.process()
        if process is not None:
            return process.pid
        return child_pid("burnlint")

    async def _drain_stderr(self, process: asyncio.subprocess.Process) -> None:
        assert process.stderr is not None
        while line := await process.stderr.readline():
            self.stderr_tail.append(line.decode("utf-8", "replace").rstrip())

    async def diagnostics(self, uri: str, version: int | None) -> tuple[float, int]:
        """Wait for the publication of `version`; (arrival time, number of diagnostics)."""
        deadline = time.perf_counter() + WAIT
        while True:
            found = self.publications.get((uri, version))
            if found is not None:
                return found
            self.event.clear()
            await asyncio.wait_for(self.event.wait(), max(0.01, deadline - time.perf_counter()))

    async def progress_end(self, timeout: float) -> float | None:
        """Wait for the first `$/progress` end; its arrival time, or None after `timeout`."""
        deadline = time.perf_counter() + timeout
        while True:
            for when, _, kind in self.progress_events:
                if kind == "end":
                    return when
            self.event.clear()
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return None
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.event.wait(), min(remaining, 1.0))

    async def close(self) -> None:
        """shutdown + exit, then wait for the process."""
        try:
            await asyncio.wait_for(self.shutdown_async(None), WAIT)
            self.exit(None)
        finally:
            await self.stop()
            if self._drain is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await self._drain


def child_pid(word: str) -> int | None:
    """A child process of this one whose command line contains `word` (via /proc)."""
    me = os.getpid()
    for task in Path(f"/proc/{me}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in children:
            try:
                command = Path(f"/proc/{child}/cmdline").read_bytes()
            except OSError:
                continue
            if word.encode() in command:
                return int(child)
    return None


def proc_status(pid: int) -> dict[str, float]:
    """VmRSS and VmHWM (peak RSS) of a process, in MB, from /proc/<pid>/status."""
    out: dict[str, float] = {}
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return out
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = round(int(value.split()[0]) / 1024, 1)
    return out


def proc_cpu(pid: int | None) -> float:
    """CPU seconds (user + system, all threads) a process has used, from /proc/<pid>/stat; 0
    when unknown. Unlike round trips, it hardly depends on what else the machine runs."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def capabilities(progress: bool = False) -> types.ClientCapabilities:
    """A VS Code-like client: pushed diagnostics with related information, code actions whose
    edits are resolved, UTF-16 (and, with `progress`, work done progress as for a workspace
    scan)."""
    return types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                related_information=True, version_support=True, data_support=True
            ),
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
            # As VS Code: code action literals whose edits are resolved when chosen.
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(
                        value_set=["quickfix", "source", "source.fixAll"]
                    )
                ),
                resolve_support=types.ClientCodeActionResolveOptions(properties=["edit"]),
                data_support=True,
            ),
        ),
        workspace=types.WorkspaceClientCapabilities(configuration=True),
        window=types.WindowClientCapabilities(work_done_progress=progress),
        general=types.GeneralClientCapabilities(
            position_encodings=[types.PositionEncodingKind.Utf16]
        ),
    )


async def initialize(client: Client, root: Path, progress: bool = False) -> None:
    """initialize + initialized with `root` as the workspace."""
    params = types.InitializeParams(
        capabilities=capabilities(progress),
        process_id=os.getpid(),
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
    )
    await client.initialize_async(params)
    client.initialized(types.InitializedParams())


def open_doc(client: Client, uri: str, text: str) -> float:
    item = types.TextDocumentItem(uri=uri, language_id="rust", version=1, text=text)
    sent = time.perf_counter()
    client.text_document_did_open(types.DidOpenTextDocumentParams(item))
    return sent


def bench_crate(folder: Path, name: str, text: str) -> Path:
    """A crate named `name` in `folder` whose only file, `src/big.rs`, holds `text`; its path."""
    (folder / "Cargo.toml").write_text(
        f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n', encoding="utf-8"
    )
    (folder / "src").mkdir()
    big = folder / "src" / "big.rs"
    big.write_text(text, encoding="utf-8")
    return big


def percentile(samples: list[float], fraction: float) -> float:
    """The `fraction` quantile (nearest rank) of `samples`."""
    ordered = sorted(samples)
    rank = max(0, min(len(ordered) - 1, round(fraction * (len(ordered) + 1)) - 1))
    return ordered[rank]


def summary(samples: list[float]) -> dict[str, Any]:
    if not samples:
        # A phase asked to run zero times (`--hovers 0`, `--after-edit 0`): nothing to quote.
        return {"n": 0, "p50_ms": None, "p95_ms": None, "mean_ms": None, "max_ms": None}
    return {
        "n": len(samples),
        "p50_ms": round(percentile(samples, 0.5) * 1000, 1),
        "p95_ms": round(percentile(samples, 0.95) * 1000, 1),
        "mean_ms": round(statistics.fmean(samples) * 1000, 1),
        "max_ms": round(max(samples) * 1000, 1),
        "samples_ms": [round(s * 1000, 2) for s in samples],
    }


async def first_diagnostics() -> dict[str, float]:
    """A fresh server: seconds from the process start to `initialize` answered and to the
    first diagnostics of the example crate's quant.rs (opened right after `initialized`)."""
    client = Client()
    started = await client.launch()
    try:
        await initialize(client, QUANT.parents[1])
        ready = time.perf_counter()
        quant = QUANT.as_uri()
        sent = open_doc(client, quant, QUANT.read_text(encoding="utf-8"))
        arrived, count = await client.diagnostics(quant, 1)
    finally:
        await client.close()
    return {
        "start_to_initialized_s": round(ready - started, 3),
        "start_to_first_diagnostics_s": round(arrived - started, 3),
        "open_to_diagnostics_s": round(arrived - sent, 3),
        "diagnostics": count,
    }


async def workspace_memory(root: Path, timeout: float) -> dict[str, Any]:
    """Index every crate under `root` (`scope: "workspace"`), wait for the scan's progress to
    end, then read the server's RSS from /proc."""
    client = Client(settings={"scope": "workspace"})
    started = await client.launch()
    try:
        await initialize(client, root, progress=True)
        pid = client.pid()
        ended = await client.progress_end(timeout)
        status = proc_status(pid) if pid is not None else {}
        published = set(client.latest)
        findings = {uri: len(params.diagnostics) for uri, params in client.latest.items()}
        begun = [when for when, _, kind in client.progress_events if kind == "begin"]
    finally:
        await client.close()
    return {
        "root": str(root),
        "pid": pid,
        "finished": ended is not None,
        "index_s": round(ended - (begun[0] if begun else started), 2) if ended else None,
        "start_to_index_end_s": round(ended - started, 2) if ended else None,
        "files_published": len(published),
        "diagnostics": sum(findings.values()),
        "rss_mb": status.get("VmRSS"),
        "hwm_mb": status.get("VmHWM"),
        "stderr_tail": list(client.stderr_tail)[-10:],
    }


async def measure(
    lines: int, edits: int, hovers: int, bursts: int = 20, after_edits: int = 80
) -> dict[str, Any]:
    """One server: open quant.rs and a generated file of `lines` lines, `edits` isolated
    one-character edits inside its bodies, `bursts` bursts of edits, hovers and code actions
    right after edits, then `hovers` hover requests."""
    big_text, targets = generate(lines)
    client = Client()
    with tempfile.TemporaryDirectory(prefix="burnlint-bench-") as folder:
        crate = Path(folder)
        (crate / "Cargo.toml").write_text(
            '[package]\nname = "bench"\nversion = "0.1.0"\nedition = "2021"\n', encoding="utf-8"
        )
        (crate / "src").mkdir()
        big = crate / "src" / "big.rs"
        big.write_text(big_text, encoding="utf-8")
        started = await client.launch()
        try:
            await initialize(client, crate)
            ready = time.perf_counter() - started

            # didOpen -> diagnostics, the example crate.
            quant = QUANT.as_uri()
            sent = open_doc(client, quant, QUANT.read_text(encoding="utf-8"))
            arrived, quant_count = await client.diagnostics(quant, 1)
            quant_open = arrived - sent
            first = arrived - started

            # didOpen -> diagnostics, the generated file (cold: its crate is analyzed first).
            uri = big.as_uri()
            sent = open_doc(client, uri, big_text)
            arrived, big_count = await client.diagnostics(uri, 1)
            big_open = arrived - sent

            # Isolated edits inside function bodies.
            pid = client.pid()
            cpu = proc_cpu(pid)
            lines_now = big_text.splitlines()
            version = 1
            change_times: list[float] = []
            change_read: list[float] = []
            for index in range(edits):
                await asyncio.sleep(PAUSE)
                version += 1
                edit = toggle(lines_now, targets[(index * 7) % len(targets)])
                sent = change(client, uri, version, edit)
                arrived, _ = await client.diagnostics(uri, version)
                change_times.append(arrived - sent)
                change_read.append(client.arrivals.get((uri, version), arrived) - sent)

            change_cpu = (proc_cpu(pid) - cpu) / max(1, edits)
            cpu = proc_cpu(pid)

            # Isolated edits that move the text after them: a digit typed, then erased.
            typed_times: list[float] = []
            for index in range(edits):
                await asyncio.sleep(PAUSE)
                version += 1
                edit = type_or_erase(lines_now, targets[(index // 2 * 7) % len(targets)])
                sent = change(client, uri, version, edit)
                arrived, _ = await client.diagnostics(uri, version)
                typed_times.append(arrived - sent)

            typed_cpu = (proc_cpu(pid) - cpu) / max(1, edits)

            # Bursts: five edits 30 ms apart; the last edit -> its diagnostics.
            burst_times: list[float] = []
            for index in range(bursts):
                await asyncio.sleep(PAUSE)
                for _ in range(5):
                    version += 1
                    edit = toggle(lines_now, targets[(index * 11) % len(targets)])
                    sent = change(client, uri, version, edit)
                    await asyncio.sleep(BURST_GAP)
                arrived, _ = await client.diagnostics(uri, version)
                burst_times.append(arrived - sent)

            # Hover and code actions sent right after an edit, at a finding.
            latest = client.latest[uri].diagnostics
            after_edit: dict[str, list[float]] = {"hover": [], "code_action": []}
            for index in range(after_edits):
                await asyncio.sleep(PAUSE)
                version += 1
                change(client, uri, version, toggle(lines_now, targets[(index * 5) % len(targets)]))
                target = latest[index % len(latest)]
                ident = types.TextDocumentIdentifier(uri)
                sent = time.perf_counter()
                if index % 2:
                    await client.text_document_hover_async(
                        types.HoverParams(text_document=ident, position=target.range.start)
                    )
                    after_edit["hover"].append(time.perf_counter() - sent)
                else:
                    await client.text_document_code_action_async(
                        types.CodeActionParams(
                            text_document=ident,
                            range=target.range,
                            context=types.CodeActionContext(diagnostics=[target]),
                        )
                    )
                    after_edit["code_action"].append(time.perf_counter() - sent)
                await client.diagnostics(uri, version)

            # Hover: over each finding's start, and over plain code between them.
            findings = client.latest[uri].diagnostics
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
        finally:
            await client.close()
    return {
        "server_start_s": round(ready, 3),
        "start_to_first_diagnostics_s": round(first, 3),
        "open_quant": {"ms": round(quant_open * 1000, 1), "diagnostics": quant_count},
        "open_generated": {
            "ms": round(big_open * 1000, 1),
            "lines": big_text.count("\n"),
            "diagnostics": big_count,
        },
        "change_generated": summary(change_times),
        "change_generated_read": summary(change_read),
        "change_cpu_ms": round(change_cpu * 1000, 1),
        "typed_generated": summary(typed_times),
        "typed_cpu_ms": round(typed_cpu * 1000, 1),
        "burst_generated": summary(burst_times),
        "hover_after_edit": summary(after_edit["hover"]),
        "code_action_after_edit": summary(after_edit["code_action"]),
        "hover_generated": {**summary(hover_times), "with_content": shown},
    }


def _ms(value: float | None, digits: int = 0) -> str:
    """A time in the table; "-" for a phase that did not run."""
    return "-" if value is None else f"{value:.{digits}f}"


def report(results: dict[str, Any]) -> str:
    rows = [
        ("server start (initialize answered)", f"{results['server_start_s'] * 1000:.0f}", "", ""),
        (
            "server start -> first diagnostics (quant.rs)",
            f"{results['start_to_first_diagnostics_s'] * 1000:.0f}",
            "",
            "",
        ),
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
            f"didChange -> diagnostics, {change['n']} isolated edits in bodies",
            _ms(change["mean_ms"]),
            _ms(change["p50_ms"]),
            _ms(change["p95_ms"]),
        )
    )
    for key, what in (
        ("change_generated_read", "  the same, until the message is read (before decoding)"),
        ("typed_generated", "didChange -> diagnostics, a digit typed or erased (text moves)"),
        ("burst_generated", "end of a burst of 5 edits 30 ms apart -> diagnostics"),
        ("hover_after_edit", "hover right after an edit"),
        ("code_action_after_edit", "code action right after an edit"),
    ):
        found = results[key]
        rows.append(
            (
                f"{what} ({found['n']})",
                _ms(found["mean_ms"]),
                _ms(found["p50_ms"]),
                _ms(found["p95_ms"]),
            )
        )
    rows.append(
        (
            "server CPU per isolated edit / per typed digit (all threads)",
            f"{results['change_cpu_ms']:.0f} / {results['typed_cpu_ms']:.0f}",
            "",
            "",
        )
    )
    hover = results["hover_generated"]
    rows.append(
        (
            f"hover, {hover['n']} requests ({hover['with_content']} with content)",
            _ms(hover["mean_ms"], 1),
            _ms(hover["p50_ms"], 1),
            _ms(hover["p95_ms"], 1),
        )
    )
    width = max(len(r[0]) for r in rows)
    lines = [f"{'measurement':<{width}}  {'ms':>7}  {'p50 ms':>7}  {'p95 ms':>7}"]
    lines.append("-" * len(lines[0]))
    lines += [f"{a:<{width}}  {b:>7}  {c:>7}  {d:>7}" for a, b, c, d in rows]
    return "\n".join(lines)


def write_results(name: str, results: dict[str, Any]) -> Path:
    """Write `results` as bench/results/`name`; the folder ignores its own contents."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    # Results are machine-specific: the folder ignores its own contents.
    (RESULTS / ".gitignore").write_text("*\n", encoding="utf-8")
    out = RESULTS / name
    # Paths and other non-JSON values are written as their text.
    out.write_text(json.dumps(results, indent=2, default=str) + "\n", encoding="utf-8")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description="Latency of the burnlint language server.")
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--edits", type=int, default=50)
    parser.add_argument("--hovers", type=int, default=100)
    parser.add_argument(
        "--after-edit",
        type=int,
        default=80,
        help="hovers and code actions (half each) sent right after an edit",
    )
    args = parser.parse_args()
    gc.disable()  # the client's own collections must not stall the measured round trips
    started = time.perf_counter()
    results = asyncio.run(measure(args.lines, args.edits, args.hovers, after_edits=args.after_edit))
    results["total_s"] = round(time.perf_counter() - started, 1)
    results["machine"] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
    }
    print(report(results))
    print(f"total {results['total_s']} s")
    out = write_results("lsp_latency.json", results)
    print(f"wrote {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
