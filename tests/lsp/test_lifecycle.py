"""The server process: a clean shutdown exits with code 0, and `--tcp` serves the same protocol
on 127.0.0.1 for debugging."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
from typing import Any

import pytest
from harness import QUANT, WAIT, Client, open_doc, start

pytestmark = pytest.mark.timeout(30)


async def test_shutdown_then_exit_ends_the_process_with_code_0(lsp: Client) -> None:
    await start(lsp, "neovim")
    open_doc(lsp, QUANT)  # leaves an analysis in flight
    await asyncio.wait_for(lsp.shutdown_session(), WAIT)
    server = lsp._server
    assert server is not None and server.returncode == 0
    lsp.capabilities = None  # the fixture has nothing left to shut down


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body


async def _read(reader: asyncio.StreamReader) -> dict[str, Any]:
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("ascii").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(await reader.readexactly(length))


async def test_tcp_transport_serves_on_localhost() -> None:
    port = _free_port()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "burnlint", "server", "--tcp", str(port)
    )
    try:
        for _ in range(200):
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                break
            except OSError:
                await asyncio.sleep(0.05)
        else:
            raise AssertionError("the server never listened")
        writer.write(
            _frame(
                {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
            )
        )
        answer = await asyncio.wait_for(_read(reader), WAIT)
        assert answer["result"]["serverInfo"]["name"] == "burnlint"
        assert answer["result"]["capabilities"]["hoverProvider"]
        writer.write(_frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
        assert (await asyncio.wait_for(_read(reader), WAIT))["id"] == 2
        writer.write(_frame({"jsonrpc": "2.0", "method": "exit"}))
        await writer.drain()
        writer.close()
        assert await asyncio.wait_for(process.wait(), WAIT) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
