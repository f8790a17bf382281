"""A raw stdio client for `burnlint server`: it frames whatever bytes a test hands it (so it can
send what no well-behaved client would), reads the server's messages, answers the server's own
requests with null, and counts every protocol message it sends."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
WAIT = 20.0
"""Upper bound for a single wait on the server."""

SENT: Counter[str] = Counter()
"""Protocol messages the abuse suite sent, by kind ("framed" JSON, "raw" bytes)."""

PEAK_RSS_MB = [0.0]
"""The largest server resident memory `rss_mb` measured."""

Message = dict[str, Any]


def frame(body: bytes) -> bytes:
    """A body with its Content-Length header."""
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def encode(message: object) -> bytes:
    """JSON for the wire; lone surrogates in strings become `\\udXXX` escapes."""
    return json.dumps(message).encode("ascii")


class RawServer:
    """One `python -m burnlint server` process spoken to over pipes this client owns."""

    def __init__(
        self,
        process: asyncio.subprocess.Process,
        writer: asyncio.WriteTransport,
        reader: asyncio.StreamReader,
        reader_transport: asyncio.ReadTransport,
    ) -> None:
        self.process = process
        self._writer = writer
        self._reader = reader
        self._reader_transport = reader_transport
        self.messages: list[Message] = []
        self.eof = False
        """Whether the server closed its output."""
        self.stderr = bytearray()
        self._changed = asyncio.Condition()
        self._ids = itertools.count(1)
        self._tasks = [
            asyncio.get_running_loop().create_task(self._read_stdout()),
            asyncio.get_running_loop().create_task(self._read_stderr()),
        ]

    @classmethod
    async def start(cls, cwd: Path = ROOT) -> RawServer:
        """Start a server; its stdin and stdout are pipes whose other ends this client holds."""
        stdin_read, stdin_write = os.pipe()
        stdout_read, stdout_write = os.pipe()
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "burnlint",
                "server",
                stdin=stdin_read,
                stdout=stdout_write,
                stderr=asyncio.subprocess.PIPE,
                cwd=cwd,
            )
        finally:
            os.close(stdin_read)
            os.close(stdout_write)
        loop = asyncio.get_running_loop()
        writer, _ = await loop.connect_write_pipe(asyncio.Protocol, os.fdopen(stdin_write, "wb", 0))
        reader = asyncio.StreamReader(limit=64 * 1024 * 1024)
        reader_transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(stdout_read, "rb", 0)
        )
        return cls(process, writer, reader, reader_transport)

    @property
    def pid(self) -> int:
        return self.process.pid

    # Reading --------------------------------------------------------------------------------

    async def _read_stdout(self) -> None:
        try:
            await self._read_messages()
        finally:
            async with self._changed:
                self.eof = True
                self._changed.notify_all()

    async def _read_messages(self) -> None:
        reader = self._reader
        while True:
            length = -1
            while True:
                line = await reader.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            assert length >= 0, "the server sent a message without Content-Length"
            message = json.loads(await reader.readexactly(length))
            if "method" in message and "id" in message:
                # The server's own request (registration, configuration, ...): answer null.
                self._write(frame(encode({"jsonrpc": "2.0", "id": message["id"], "result": None})))
            async with self._changed:
                self.messages.append(message)
                self._changed.notify_all()

    async def _read_stderr(self) -> None:
        stream = self.process.stderr
        assert stream is not None
        while chunk := await stream.read(65536):
            self.stderr += chunk

    async def wait_for(
        self, predicate: Callable[[Message], bool], what: str, timeout: float = WAIT, after: int = 0
    ) -> Message:
        """The first message from index `after` on that satisfies `predicate`."""

        def find() -> Message | None:
            return next((m for m in self.messages[after:] if predicate(m)), None)

        async def wait() -> Message:
            async with self._changed:
                await self._changed.wait_for(lambda: self.eof or find() is not None)
            found = find()
            if found is None:
                stderr = bytes(self.stderr[-3000:]).decode(errors="replace")
                raise AssertionError(f"the server ended before {what}:\n{stderr}")
            return found

        try:
            return await asyncio.wait_for(wait(), timeout)
        except asyncio.TimeoutError:
            raise AssertionError(f"timed out waiting for {what}") from None

    async def response(self, request_id: object, timeout: float = WAIT) -> Message:
        """The server's response to request `request_id`."""
        return await self.wait_for(
            lambda m: m.get("id") == request_id and "method" not in m,
            f"the response to request {request_id!r}",
            timeout,
        )

    def responses(self, request_id: object) -> list[Message]:
        """Every response to `request_id` received so far."""
        return [m for m in self.messages if m.get("id") == request_id and "method" not in m]

    async def published(
        self, uri: str, version: int | None = None, after: int = 0, timeout: float = WAIT
    ) -> list[Message]:
        """The diagnostics of the first publication for `uri` (and `version`) after `after`."""

        def match(m: Message) -> bool:
            if m.get("method") != "textDocument/publishDiagnostics":
                return False
            params = m["params"]
            return params["uri"] == uri and (version is None or params.get("version") == version)

        message = await self.wait_for(match, f"diagnostics of {uri} v{version}", timeout, after)
        return list(message["params"]["diagnostics"])

    # Writing --------------------------------------------------------------------------------

    def _write(self, data: bytes) -> None:
        if not self._writer.is_closing():
            self._writer.write(data)

    async def send_raw(self, data: bytes) -> None:
        """Write bytes as they are (one protocol message, however broken)."""
        SENT["raw"] += 1
        self._write(data)
        await asyncio.sleep(0)

    async def send(self, message: object) -> None:
        """Frame and write one JSON message."""
        SENT["framed"] += 1
        self._write(frame(encode(message)))
        await asyncio.sleep(0)

    async def request(self, method: str, params: object = None, *, omit: bool = False) -> int:
        """Send a request; returns its id (`omit` leaves `params` out)."""
        request_id = next(self._ids)
        message: Message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if not omit:
            message["params"] = params
        await self.send(message)
        return request_id

    async def call(self, method: str, params: object = None, timeout: float = WAIT) -> Message:
        """Send a request and wait for its response."""
        return await self.response(await self.request(method, params), timeout)

    async def notify(self, method: str, params: object = None, *, omit: bool = False) -> None:
        message: Message = {"jsonrpc": "2.0", "method": method}
        if not omit:
            message["params"] = params
        await self.send(message)

    # The protocol -----------------------------------------------------------------------------

    async def initialize(self, capabilities: object = None) -> Message:
        """`initialize` (with no client capabilities unless given), then `initialized`."""
        answer = await self.call(
            "initialize", {"processId": os.getpid(), "capabilities": capabilities or {}}
        )
        await self.notify("initialized", {})
        return answer

    async def open(self, uri: str, text: str, version: int = 1) -> None:
        await self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "rust", "version": version, "text": text}},
        )

    async def change(self, uri: str, version: int, changes: list[Message]) -> None:
        await self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes},
        )

    async def hover(self, uri: str, line: int, character: int) -> int:
        return await self.request(
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}},
        )

    async def code_action(self, uri: str, line: int) -> int:
        span = {"start": {"line": line, "character": 0}, "end": {"line": line + 1, "character": 0}}
        return await self.request(
            "textDocument/codeAction",
            {"textDocument": {"uri": uri}, "range": span, "context": {"diagnostics": []}},
        )

    async def shutdown_and_exit(self, timeout: float = WAIT) -> int:
        """The clean end of a session; returns the exit code."""
        await self.call("shutdown")
        await self.notify("exit")
        return await self.wait_exit(timeout)

    # The process ------------------------------------------------------------------------------

    async def wait_exit(self, timeout: float) -> int:
        """The exit code, once the process ends within `timeout` seconds."""
        try:
            code = await asyncio.wait_for(self.process.wait(), timeout)
        except asyncio.TimeoutError:
            raise AssertionError(f"the server did not exit within {timeout} s") from None
        for task in self._tasks:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(task, WAIT)
        return code

    def close_stdin(self) -> None:
        """The client goes away: the server reads end of file."""
        self._writer.close()

    def close_stdout(self) -> None:
        """Stop reading: the server's writes fail with a broken pipe."""
        self._reader_transport.close()

    def rss_mb(self) -> float:
        """The server's resident memory (VmRSS) in MiB."""
        status = Path(f"/proc/{self.pid}/status").read_text(encoding="ascii")
        line = next(line for line in status.splitlines() if line.startswith("VmRSS:"))
        megabytes = int(line.split()[1]) / 1024
        PEAK_RSS_MB[0] = max(PEAK_RSS_MB[0], megabytes)
        return megabytes

    def tracebacks(self) -> int:
        """How many tracebacks the server logged to stderr."""
        return bytes(self.stderr).count(b"Traceback (most recent call last)")

    async def stop(self) -> None:
        """End the process whatever state it is in (for fixtures' teardown)."""
        if self.process.returncode is None:
            with contextlib.suppress(Exception):
                self._writer.close()
            deadline = time.monotonic() + 3
            while self.process.returncode is None and time.monotonic() < deadline:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self.process.wait(), 0.1)
            if self.process.returncode is None:
                self.process.kill()
                await self.process.wait()
        self._reader_transport.close()
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
