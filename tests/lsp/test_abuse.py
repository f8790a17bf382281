"""Abuse of the real `burnlint server` over stdio: protocol garbage, broken framing, wrong
params, unknown methods, requests out of the life cycle, bad edits, a 10 MB document, binary
content, an edit storm, cancellations and a client that disappears. After each abuse the server
must still answer, stay within a memory bound, and never hang.

A raw client (abuse_client.py) sends the bytes: pytest-lsp's client will not send malformed
messages. The number of protocol messages sent is printed in the terminal summary.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import re
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from abuse_client import PEAK_RSS_MB, ROOT, SENT, Message, RawServer, encode, frame

from burnlint.analysis.engine import Analyzer, Options
from burnlint.analysis.syntax.source import SourceFile
from burnlint.kb.load import load_kb

pytestmark = [pytest.mark.timeout(60), pytest.mark.asyncio(loop_scope="module")]

QUANT = ROOT / "examples" / "dispatch-demo" / "src" / "quant.rs"
QUANT_URI = QUANT.as_uri()
QUANT_TEXT = QUANT.read_text(encoding="utf-8")
BD001_LINE = 15
"""The 0-based line of quant.rs' known BD001 finding."""
BUGGY = """use burn::backend::{Dispatch, DispatchAutodiffContext, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;

pub fn scores(batch: TensorData, q: DispatchTensor) -> DispatchTensor {
    let device = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x = Dispatch::float_from_data(batch, &device);
    dispatch::q_matmul(x, q, DispatchAutodiffContext::Disabled)
}
"""
BUGGY_LINE = 6
MEMORY_MB = 400
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602
SERVER_NOT_INITIALIZED, REQUEST_CANCELLED = -32002, -32800
ANALYZER = Analyzer(load_kb())
_names = itertools.count()


class _Summary:
    """Prints how many protocol messages the suite sent."""

    @staticmethod
    def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
        if SENT:
            terminalreporter.section("burnlint server abuse")
            terminalreporter.write_line(
                f"abuse: {sum(SENT.values())} protocol messages sent "
                f"({SENT['framed']} framed JSON, {SENT['raw']} raw byte sequences); "
                f"largest server RSS seen {PEAK_RSS_MB[0]:.0f} MB"
            )


@pytest.fixture(scope="module", autouse=True)
def _summary(request: pytest.FixtureRequest) -> None:
    manager = request.config.pluginmanager
    if not manager.has_plugin("burnlint-abuse-summary"):
        manager.register(_Summary(), "burnlint-abuse-summary")


async def started() -> RawServer:
    """A server that went through `initialize`."""
    server = await RawServer.start()
    answer = await server.initialize()
    assert answer["result"]["serverInfo"]["name"] == "burnlint"
    return server


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared() -> AsyncIterator[RawServer]:
    """One server the protocol-garbage tests share (each checks it is still healthy)."""
    server = await started()
    await server.open(QUANT_URI, QUANT_TEXT)
    await server.published(QUANT_URI, 1)
    yield server
    try:
        assert await server.shutdown_and_exit() == 0
        assert server.tracebacks() == 0, bytes(server.stderr).decode(errors="replace")
    finally:
        await server.stop()


@pytest_asyncio.fixture(loop_scope="module")
async def fresh() -> AsyncIterator[RawServer]:
    """A server of its own, not yet initialized."""
    server = await RawServer.start()
    yield server
    await server.stop()


def lsp_ranges(text: str) -> list[tuple[str, int, int, int, int]]:
    """A fresh analysis of `text` as the server runs it for an `untitled:` document: codes and
    ranges as LSP positions (the texts here are ASCII without `\\r`, so UTF-16 columns are the
    analyzer's Unicode columns)."""
    result = ANALYZER.analyze(SourceFile("untitled", text), Options())
    return sorted(
        (
            f.code,
            f.range.start.line,
            f.range.start.character,
            f.range.end.line,
            f.range.end.character,
        )
        for f in result.findings
    )


def published_ranges(diagnostics: list[Message]) -> list[tuple[str, int, int, int, int]]:
    return sorted(
        (
            d["code"],
            d["range"]["start"]["line"],
            d["range"]["start"]["character"],
            d["range"]["end"]["line"],
            d["range"]["end"]["character"],
        )
        for d in diagnostics
    )


async def assert_healthy(server: RawServer) -> None:
    """The server answers a hover over quant.rs' BD001 finding, runs a didOpen ->
    publishDiagnostics round trip for a new document, and stays within the memory bound."""
    answer = await server.response(await server.hover(QUANT_URI, BD001_LINE, 20))
    assert "BD001" in answer["result"]["contents"]["value"], answer
    uri = f"untitled:healthy-{next(_names)}.rs"
    await server.open(uri, BUGGY)
    [diagnostic] = await server.published(uri, 1)
    assert diagnostic["code"] == "BD001"
    assert diagnostic["range"]["start"]["line"] == BUGGY_LINE
    await server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert server.process.returncode is None
    assert server.rss_mb() < MEMORY_MB


def error_code(message: Message) -> int | None:
    error = message.get("error")
    return error["code"] if isinstance(error, dict) else None


async def answers_to_garbage(server: RawServer, before: int) -> list[Message]:
    """The messages the server sent since index `before` that answer no request of ours:
    error responses with a null id (what JSON-RPC prescribes for unparsable messages)."""
    await assert_healthy(server)
    return [m for m in server.messages[before:] if "id" in m and m["id"] is None]


# Framing and JSON ----------------------------------------------------------------------------


async def test_malformed_json_bodies_are_answered_with_parse_errors(shared: RawServer) -> None:
    before = len(shared.messages)
    bodies = [
        b"{bad}",
        b'{"jsonrpc": "2.0", "id": 1, "method": ',
        b"\xff\xfe{}",
        b'"\\uZZZZ"',
        b'{"jsonrpc": "2.0"} trailing',
        b"\x00" * 16,
        b"[" * 100_000 + b"]" * 100_000,  # deeper than any JSON parser recurses
        b"",
    ]
    for body in bodies:
        await shared.send_raw(frame(body))
    garbage = await answers_to_garbage(shared, before)
    assert [error_code(m) for m in garbage] == [PARSE_ERROR] * len(bodies)


@pytest.mark.parametrize("delta", [-15, 40], ids=["too-short", "too-long"])
async def test_a_wrong_content_length_costs_at_most_that_message(
    shared: RawServer, delta: int
) -> None:
    body = encode({"jsonrpc": "2.0", "method": "burnlint/noSuchNotification", "params": {}})
    await shared.send_raw(b"Content-Length: %d\r\n\r\n" % (len(body) + delta) + body)
    # The next message is read whole: the server finds its header again.
    await assert_healthy(shared)


async def test_messages_with_missing_or_broken_headers_are_skipped(shared: RawServer) -> None:
    body = encode({"jsonrpc": "2.0", "method": "burnlint/noSuchNotification"})
    for data in (
        body + b"\r\n",  # no header at all
        b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + body,  # no Content-Length
        b"Content-Length: " + str(len(body)).encode() + b"\r\n" + body,  # no blank line
        b"Content-Length: abc\r\n\r\n" + body,
        b"Content-Length: -5\r\n\r\n" + body,
        b"\r\n\r\n\r\n",
        b"Content-Length: 99999999999\r\n\r\n" + body,  # more than the server will buffer
        b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body,  # lower case
    ):
        await shared.send_raw(data)
        await assert_healthy(shared)


@pytest.mark.parametrize(
    "message",
    [[1, 2], [], 3, "text", None, True, [{"jsonrpc": "2.0", "id": 900, "method": "shutdown"}]],
    ids=["array", "empty-array", "number", "string", "null", "bool", "batch-with-shutdown"],
)
async def test_json_that_is_not_an_object_is_an_invalid_request(
    shared: RawServer, message: object
) -> None:
    before = len(shared.messages)
    await shared.send(message)
    garbage = await answers_to_garbage(shared, before)
    assert [error_code(m) for m in garbage] == [INVALID_REQUEST]
    # The batched shutdown was not run: the server still answers normally.
    assert not shared.responses(900)


async def test_messages_without_a_method_or_version(shared: RawServer) -> None:
    before = len(shared.messages)
    await shared.send({"jsonrpc": "2.0", "id": "no-method"})  # a response to nothing: ignored
    await shared.send({"jsonrpc": "2.0"})
    await shared.send({"jsonrpc": "2.0", "params": {}})
    await shared.send({"jsonrpc": "2.0", "id": 901, "method": 5})
    await shared.send({"id": 902, "method": "shutdown"})  # no "jsonrpc": not run
    await shared.send({"jsonrpc": "1.0", "id": 903, "method": "shutdown"})
    garbage = await answers_to_garbage(shared, before)
    assert [error_code(m) for m in garbage] == [INVALID_REQUEST, INVALID_REQUEST]
    for request_id in (901, 902, 903):
        [answer] = shared.responses(request_id)
        assert error_code(answer) == INVALID_REQUEST, answer
    assert not shared.responses("no-method")


# Params and methods ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("textDocument/hover", None),
        ("textDocument/hover", ...),
        ("textDocument/hover", {"textDocument": {"uri": QUANT_URI}, "position": {"line": "a"}}),
        ("textDocument/hover", {"textDocument": {"uri": QUANT_URI}, "position": [1, 2]}),
        (
            "textDocument/hover",
            {"textDocument": {"uri": QUANT_URI}, "position": {"line": -1, "character": 0}},
        ),
        ("textDocument/codeAction", {}),
        ("textDocument/codeAction", "params"),
        ("workspace/executeCommand", {"command": 42}),
    ],
)
async def test_requests_with_wrong_params_get_invalid_params(
    shared: RawServer, method: str, params: object
) -> None:
    request_id = await shared.request(method, params, omit=params is ...)
    answer = await shared.response(request_id)
    assert error_code(answer) == INVALID_PARAMS, answer
    await assert_healthy(shared)


async def test_notifications_with_wrong_params_are_ignored(shared: RawServer) -> None:
    before = len(shared.messages)
    await shared.notify("textDocument/didOpen", {})
    await shared.notify("textDocument/didOpen", None)
    await shared.notify("textDocument/didOpen", {"textDocument": {"uri": "untitled:v.rs"}})
    await shared.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": QUANT_URI, "version": 2}, "contentChanges": None},
    )
    await shared.notify("textDocument/didClose", {"textDocument": 7})
    await shared.notify("workspace/didChangeWatchedFiles", {"changes": "everything"})
    await shared.notify("$/cancelRequest", None)
    assert await answers_to_garbage(shared, before) == []
    # quant.rs is unchanged: its finding is still where it was.
    answer = await shared.response(await shared.hover(QUANT_URI, BD001_LINE, 20))
    assert "BD001" in answer["result"]["contents"]["value"]


async def test_commands_with_wrong_arguments_fail_cleanly(shared: RawServer) -> None:
    for arguments in (None, [], [123], [None, None, None], ["BD001", {"x": 1}]):
        answer = await shared.call(
            "workspace/executeCommand", {"command": "burnlint.explain", "arguments": arguments}
        )
        assert "result" in answer or error_code(answer) in (INVALID_PARAMS, -32603), answer
    answer = await shared.call(
        "workspace/executeCommand", {"command": "burnlint.applyAllFixes", "arguments": [7]}
    )
    assert "result" in answer or "error" in answer
    answer = await shared.call("workspace/executeCommand", {"command": "no.such.command"})
    assert "error" in answer
    await assert_healthy(shared)


async def test_unknown_methods(shared: RawServer) -> None:
    before = len(shared.messages)
    for method in ("burnlint/noSuchRequest", "$/noSuchRequest", "textDocument/noSuch"):
        answer = await shared.call(method, {})
        assert error_code(answer) == METHOD_NOT_FOUND, answer
    await shared.notify("burnlint/noSuchNotification", {})
    await shared.notify("$/noSuchNotification", {"x": 1})
    await shared.notify("$/setTrace", {"value": "verbose"})
    assert await answers_to_garbage(shared, before) == []


# Life cycle -----------------------------------------------------------------------------------


async def test_requests_before_initialize_are_refused(fresh: RawServer) -> None:
    answer = await fresh.response(await fresh.hover(QUANT_URI, BD001_LINE, 20))
    assert error_code(answer) == SERVER_NOT_INITIALIZED, answer
    answer = await fresh.call("shutdown")
    assert error_code(answer) == SERVER_NOT_INITIALIZED, answer
    # Notifications are dropped: this document is unknown once the session starts.
    await fresh.open(QUANT_URI, QUANT_TEXT)
    answer = await fresh.initialize()
    assert answer["result"]["capabilities"]["hoverProvider"]
    hover = await fresh.response(await fresh.hover(QUANT_URI, BD001_LINE, 20))
    assert hover["result"] is None
    await fresh.open(QUANT_URI, QUANT_TEXT)
    await fresh.published(QUANT_URI, 1)
    await assert_healthy(fresh)
    assert await fresh.shutdown_and_exit() == 0
    assert fresh.tracebacks() == 0


async def test_a_second_initialize_is_refused(shared: RawServer) -> None:
    answer = await shared.call("initialize", {"capabilities": {}})
    assert error_code(answer) == INVALID_REQUEST, answer
    await assert_healthy(shared)


async def test_exit_before_initialize_ends_the_process(fresh: RawServer) -> None:
    await fresh.notify("exit")
    assert await fresh.wait_exit(5) == 1


async def test_requests_after_shutdown_are_invalid(fresh: RawServer) -> None:
    await fresh.initialize()
    await fresh.open(QUANT_URI, QUANT_TEXT)
    await fresh.published(QUANT_URI, 1)
    assert (await fresh.call("shutdown"))["result"] is None
    answer = await fresh.response(await fresh.hover(QUANT_URI, BD001_LINE, 20))
    assert error_code(answer) == INVALID_REQUEST, answer
    assert error_code(await fresh.call("shutdown")) == INVALID_REQUEST
    assert error_code(await fresh.call("initialize", {"capabilities": {}})) == INVALID_REQUEST
    before = len(fresh.messages)
    await fresh.open("untitled:late.rs", BUGGY)
    await fresh.notify("exit")
    assert await fresh.wait_exit(5) == 0
    assert not any(
        m.get("method") == "textDocument/publishDiagnostics" for m in fresh.messages[before:]
    )
    assert fresh.tracebacks() == 0


# Documents ------------------------------------------------------------------------------------


def _clamped_offset(text: str, line: int, character: int) -> int:
    """An LSP position's offset in ASCII text without `\\r`, past-the-end lines and columns
    clamped: the oracle for what the server's document holds."""
    lines = text.split("\n")
    if line >= len(lines):
        return len(text)
    start = sum(len(x) + 1 for x in lines[:line])
    return start + min(character, len(lines[line]))


def _apply(text: str, start: tuple[int, int], end: tuple[int, int], new: str) -> str:
    a = _clamped_offset(text, *start)
    b = max(a, _clamped_offset(text, *end))
    return text[:a] + new + text[b:]


def _change(start: tuple[int, int], end: tuple[int, int], text: str) -> Message:
    return {
        "range": {
            "start": {"line": start[0], "character": start[1]},
            "end": {"line": end[0], "character": end[1]},
        },
        "text": text,
    }


async def test_bad_did_change_notifications(shared: RawServer) -> None:
    await shared.change("untitled:never-opened.rs", 2, [{"text": BUGGY}])
    await shared.change("file:///no/such/dir/x.rs", 2, [_change((0, 0), (0, 0), "x")])
    uri = "untitled:changes.rs"
    text = BUGGY
    await shared.open(uri, text)
    await shared.published(uri, 1)
    edits = [
        (5, (10**6, 0), (10**6, 5), "\n// appended far past the end\n"),
        (6, (2, 10**9), (2, 10**9), " // past the line end"),
        (7, (3, 4), (1, 0), "/* end before start */"),
        (4, (0, 0), (0, 0), "// version went backwards\n"),
        (4, (0, 0), (0, 0), "// same version again\n"),
    ]
    published = 1
    for version, start, end, new in edits:
        text = _apply(text, start, end, new)
        before = len(shared.messages)
        await shared.change(uri, version, [_change(start, end, new)])
        # A version that does not increase is counted on from the last one: the diagnostics
        # are those of the new text, never the old text's under a repeated version.
        message = await shared.wait_for(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
            ),
            f"diagnostics after version {version}",
            after=before,
        )
        assert message["params"]["version"] == max(version, published + 1)
        published = message["params"]["version"]
        assert published_ranges(message["params"]["diagnostics"]) == lsp_ranges(text), text
    # Several changes in one notification apply in order.
    changes = [_change((0, 0), (1, 0), ""), _change((0, 0), (0, 0), "// two\n")]
    text = _apply(_apply(text, (0, 0), (1, 0), ""), (0, 0), (0, 0), "// two\n")
    await shared.change(uri, 9, changes)
    assert published_ranges(await shared.published(uri, 9)) == lsp_ranges(text)
    await shared.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    await shared.notify("textDocument/didClose", {"textDocument": {"uri": uri}})  # twice
    await assert_healthy(shared)


async def test_binary_content(shared: RawServer) -> None:
    uri = "untitled:binary.rs"
    text = "fn f() {\x00\x01\x7f}\n// \ud800 lone \udfff surrogates \udc00\ud800 swapped\n\ufeff\u2028é😀\n"
    await shared.open(uri, text + BUGGY)
    [diagnostic, note] = await shared.published(uri, 1)
    assert diagnostic["code"] == "BD001"
    # The analyzer's note about the syntax errors is a hint at line 0, never silent.
    assert "syntax errors" in note["message"] and note["severity"] == 4
    assert note["range"]["start"] == {"line": 0, "character": 0}
    assert diagnostic["range"]["start"]["line"] == BUGGY_LINE + 3  # U+2028 breaks no LSP line
    for line, character in ((0, 9), (1, 3), (1, 4), (1, 30), (2, 2), (2, 4), (3, 0)):
        answer = await shared.response(await shared.hover(uri, line, character))
        assert "result" in answer, answer
    await shared.change(uri, 2, [_change((1, 3), (1, 3), "\udbff\x00")])
    await shared.published(uri, 2)
    await shared.send_raw(
        frame(
            b'{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument":'
            b' {"uri": "untitled:binary.rs", "version": 3}, "contentChanges": [{"text": "\xff\xfe"}]}}'
        )
    )
    await shared.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    await assert_healthy(shared)


async def test_ten_megabyte_document(fresh: RawServer) -> None:
    await fresh.initialize()
    big = QUANT_TEXT * (10 * 1024 * 1024 // len(QUANT_TEXT) + 1)
    uri = "untitled:big.rs"
    await fresh.open(uri, big)
    await fresh.published(uri, 1, timeout=40)
    answer = await fresh.response(await fresh.hover(uri, BD001_LINE, 20), timeout=40)
    assert "result" in answer
    await fresh.change(uri, 2, [_change((0, 0), (0, 0), "// edited\n")])
    await fresh.published(uri, 2, timeout=40)
    assert fresh.rss_mb() < MEMORY_MB
    await fresh.open(QUANT_URI, QUANT_TEXT)
    await fresh.published(QUANT_URI, 1)
    await assert_healthy(fresh)
    await fresh.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert await fresh.shutdown_and_exit() == 0
    assert fresh.tracebacks() == 0


STORM_TOKENS = (
    "x",
    " ",
    ";",
    "\n",
    "let y = x.clone();\n",
    "DispatchAutodiffContext::Disabled",
    ".inner()",
    "{",
    "}",
    "(",
    ")",
    "// note\n",
)


async def test_edit_storm_ends_with_the_diagnostics_of_the_final_text(fresh: RawServer) -> None:
    await fresh.initialize()
    uri = "untitled:storm.rs"
    text = QUANT_TEXT
    await fresh.open(uri, text)
    await fresh.published(uri, 1)
    chance = random.Random(9)
    requests: list[int] = []
    undo: tuple[tuple[int, int], tuple[int, int]] | None = None
    loop = asyncio.get_running_loop()
    start = loop.time()
    for version in range(2, 1002):
        lines = text.split("\n")
        line = chance.randrange(len(lines))
        if undo is not None:
            # Take back the previous edit's token: the code keeps its meaning (and findings)
            # while every other version is broken somewhere.
            (line, column), end = undo
            new, undo = "", None
        elif version % 25 == 0:
            column, end, new = 0, (line, 0), chance.choice(("\n", " ", "// note\n"))
        elif version == 1001:
            line, column = len(lines) - 1, len(lines[-1])
            end, new = (line, column), BUGGY.replace("fn scores", "fn later")
        else:
            column = chance.randrange(len(lines[line]) + 1)
            end, new = (line, column), chance.choice(STORM_TOKENS)
            last = new.split("\n")
            tail = len(last[-1]) + (column if len(last) == 1 else 0)
            undo = (line, column), (line + len(last) - 1, tail)
        text = _apply(text, (line, column), end, new)
        await fresh.change(uri, version, [_change((line, column), end, new)])
        if version % 7 == 0:
            requests.append(await fresh.hover(uri, line, column))
        if version % 13 == 0:
            requests.append(await fresh.code_action(uri, line))
        await asyncio.sleep(0.001)  # pacing: a thousand edits in about a second
    sent_in = loop.time() - start
    assert sent_in < 5, f"1,000 edits took {sent_in:.1f} s to send"
    final = await fresh.published(uri, 1001, timeout=40)
    expected = lsp_ranges(text)
    assert [code for code, *_ in expected] == ["BD001", "BD001"], text
    assert published_ranges(final) == expected
    for request_id in requests:
        answer = await fresh.response(request_id)
        assert "result" in answer or error_code(answer) == REQUEST_CANCELLED, answer
    assert fresh.rss_mb() < MEMORY_MB
    await fresh.open(QUANT_URI, QUANT_TEXT)
    await fresh.published(QUANT_URI, 1)
    await assert_healthy(fresh)
    assert await fresh.shutdown_and_exit() == 0
    assert fresh.tracebacks() == 0


async def test_cancel_requests(shared: RawServer) -> None:
    uri = "untitled:cancel.rs"
    await shared.open(uri, BUGGY)
    # In flight: the edit makes the code action wait for a new analysis.
    await shared.change(uri, 2, [_change((0, 0), (0, 0), "// edit\n")])
    only = {"only": ["source.fixAll.burnlint"], "diagnostics": []}
    span = {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}
    slow = await shared.request(
        "textDocument/codeAction", {"textDocument": {"uri": uri}, "range": span, "context": only}
    )
    quick = await shared.hover(uri, BUGGY_LINE + 1, 8)
    for request_id in (slow, quick):
        await shared.notify("$/cancelRequest", {"id": request_id})
    for request_id in (slow, quick):
        answer = await shared.response(request_id)
        assert "result" in answer or error_code(answer) == REQUEST_CANCELLED, answer
    before = len(shared.messages)
    for unknown in (10**9, "never-sent", slow):  # unknown, and one that already finished
        await shared.notify("$/cancelRequest", {"id": unknown})
    await shared.notify("$/cancelRequest", {"id": None})
    await shared.notify("$/cancelRequest", {})
    assert await answers_to_garbage(shared, before) == []
    assert len(shared.responses(slow)) == 1
    await shared.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


# The client goes away --------------------------------------------------------------------------


async def test_server_exits_when_the_client_closes_stdin(fresh: RawServer) -> None:
    await fresh.initialize()
    await fresh.open(QUANT_URI, QUANT_TEXT)
    await fresh.open("untitled:gone.rs", BUGGY * 50)  # an analysis in flight
    fresh.close_stdin()
    assert await fresh.wait_exit(5) == 1
    assert fresh.tracebacks() == 0, bytes(fresh.stderr).decode(errors="replace")


async def test_server_exits_when_the_client_stops_reading(fresh: RawServer) -> None:
    await fresh.initialize()
    await fresh.open(QUANT_URI, QUANT_TEXT)
    await fresh.published(QUANT_URI, 1)
    fresh.close_stdout()
    # The server has something to say (an answer, diagnostics of new versions) but nobody
    # listens: it stops on its own, its input still open.
    await fresh.hover(QUANT_URI, BD001_LINE, 20)
    for version in range(2, 6):
        await fresh.change(QUANT_URI, version, [_change((0, 0), (0, 0), "// gone\n")])
    assert await fresh.wait_exit(5) == 1
    text = bytes(fresh.stderr).decode(errors="replace")
    assert fresh.tracebacks() == 0, text
    assert len(re.findall(r"ERROR|WARNING", text)) <= 1, text


async def test_server_exits_when_the_client_is_killed(fresh: RawServer) -> None:
    await fresh.initialize()
    await fresh.open(QUANT_URI, QUANT_TEXT)
    for version in range(2, 12):
        await fresh.change(QUANT_URI, version, [_change((0, 0), (0, 0), "// killed\n")])
        await fresh.hover(QUANT_URI, BD001_LINE, 20)
    # Both pipes die at once, with answers and diagnostics still to be written.
    fresh.close_stdout()
    fresh.close_stdin()
    await fresh.wait_exit(5)
    text = bytes(fresh.stderr).decode(errors="replace")
    assert fresh.tracebacks() == 0, text
    assert len(re.findall(r"ERROR|WARNING", text)) <= 1, text
