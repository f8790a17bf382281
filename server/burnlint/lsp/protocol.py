"""The JSON-RPC layer under pygls, hardened against clients that break the protocol.

pygls drops what it cannot read without a word: a request with invalid params never gets an
answer (the client waits forever), a wrong `Content-Length` desynchronizes the stream for good,
requests before `initialize` are served and requests after `shutdown` are ignored. Here every
request gets an answer (`InvalidParams`, `ServerNotInitialized`, `InvalidRequest`), unreadable
messages get JSON-RPC's error with a null id, the reader finds the next header again after a
broken message, and each problem is logged as one line.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import os
import queue
import re
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO, cast

from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcParseError,
    JsonRpcServerNotInitialized,
)
from pygls.protocol import (
    JsonRPCNotification,
    JsonRPCRequestMessage,
    JsonRPCResponseMessage,
    LanguageServerProtocol,
    lsp_method,
)

from burnlint.lsp.wire import RawJSON

if TYPE_CHECKING:
    from pygls.io_ import AsyncReader

logger = logging.getLogger(__name__)

_HEADER = re.compile(rb"content-length:[ \t]*(\d+)[ \t]*\r?\n?$", re.IGNORECASE)
"""Searched, not matched: a header glued to the tail of a message whose length was wrong is
still found."""
_NEXT = re.compile(rb"content-length:", re.IGNORECASE)
_ESCAPED_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_BODY = 512 * 1024 * 1024
"""A longer `Content-Length` is taken for garbage (reading it would exhaust memory)."""

MsgId = int | str


@dataclass(frozen=True, slots=True)
class Invalid:
    """A message that is not what it claims to be: answered with `error` if it is a request."""

    request_id: MsgId | None
    method: str | None
    request: bool
    error: JsonRpcException


def _id_of(data: object) -> MsgId | None:
    """The message's id when it is a valid JSON-RPC id, else None."""
    value = cast(dict[str, Any], data).get("id") if isinstance(data, dict) else None
    return value if isinstance(value, int | str) and not isinstance(value, bool) else None


class BurnlintProtocol(LanguageServerProtocol):
    """pygls' protocol, answering every request and following the LSP life cycle."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initialize_received = False
        self._writes: set[asyncio.Future[Any]] = set()

    # burnlint keeps the open documents itself (`lsp.documents`): pygls' copy of each text,
    # kept in sync on every keystroke, would cost time and memory for nothing.

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> Any:
        """Hand the notification to burnlint's handler (pygls' workspace keeps no copy)."""
        handler = self._user_handler(types.TEXT_DOCUMENT_DID_OPEN)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Any:
        """Hand the notification to burnlint's handler (pygls' workspace keeps no copy)."""
        handler = self._user_handler(types.TEXT_DOCUMENT_DID_CHANGE)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> Any:
        """Hand the notification to burnlint's handler (pygls' workspace keeps no copy)."""
        handler = self._user_handler(types.TEXT_DOCUMENT_DID_CLOSE)
        if handler is not None:
            yield handler, (params,), None

    def _user_handler(self, method: str) -> Callable[..., Any] | None:
        features = cast(dict[str, Callable[..., Any]], self.fm.features)  # pyright: ignore[reportUnknownMemberType]
        return features.get(method)

    def structure_message(self, data: dict[str, Any]) -> Any:
        """The typed message, or `Invalid` (logged in one line, not with a traceback)."""
        if "jsonrpc" not in data:
            # A nested object (pygls' reader structures bottom-up) or a message without version.
            return data
        method = data.get("method")
        request = "id" in data and "method" in data
        if (
            data.get("jsonrpc") != "2.0"
            or ("method" in data and not isinstance(method, str))
            or ("method" not in data and "id" not in data)
        ):
            return Invalid(_id_of(data), None, True, JsonRpcInvalidRequest())
        assert method is None or isinstance(method, str)
        converter = self._converter  # pyright: ignore[reportPrivateUsage]
        try:
            if "id" in data and "error" in data:
                return converter.structure(data, types.ResponseErrorMessage)
            if request:
                kind = self.get_message_type(cast(str, method)) or JsonRPCRequestMessage
            elif "id" in data:
                results = self._result_types  # pyright: ignore[reportPrivateUsage]
                kind = results.pop(data["id"], None) or JsonRPCResponseMessage
            else:
                kind = self.get_message_type(cast(str, method)) or JsonRPCNotification
            return converter.structure(data, kind)
        except Exception as error:
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            logger.warning("invalid %s message: %s", method or "response", reason)
            if request and _id_of(data) is None:
                return Invalid(None, method, True, JsonRpcInvalidRequest())
            return Invalid(_id_of(data), method, request, JsonRpcInvalidParams())

    def handle_message(self, message: Any) -> None:
        """Dispatch a message, refusing what the life cycle does not allow."""
        invalid = isinstance(message, Invalid)
        if isinstance(message, Invalid):
            method, request, request_id = message.method, message.request, message.request_id
        elif hasattr(message, "jsonrpc"):
            method = getattr(message, "method", None)
            request = method is not None and hasattr(message, "id")
            request_id = getattr(message, "id", None) if request else None
        else:
            # Parsed JSON that is no message: an array (LSP has no batches), a number, ...
            logger.warning("not a JSON-RPC message: %.80r", message)
            self.answer_error(_id_of(message), JsonRpcInvalidRequest())
            return
        if method == types.EXIT:
            # Whatever its params: a client that wants the server gone must get its way.
            super().handle_message(cast(Any, types.ExitNotification()) if invalid else message)
            return
        if method is not None:
            refusal = self._refusal(method, request)
            if refusal is not None:
                logger.info("refused %s: %s", method, refusal.message)
                if request:
                    self.answer_error(request_id, refusal)
                return
        if isinstance(message, Invalid):
            if request:
                self.answer_error(request_id, message.error)
            return
        if method == types.INITIALIZE:
            self.initialize_received = True
        elif method == types.WORKSPACE_EXECUTE_COMMAND and message.params.arguments is None:
            # No arguments is an empty list: pygls then checks the command's arity (and answers
            # InvalidParams) instead of calling it with too few.
            message.params.arguments = []
        super().handle_message(message)

    def _send_handler_result(self, future: Future[Any], *, msg_id: MsgId) -> None:
        """As pygls, except that an error the client caused (a JsonRpcException such as
        InvalidParams) is logged as one line, not as a traceback."""
        error = None if future.cancelled() else future.exception()
        if isinstance(error, JsonRpcException):
            self._request_futures.pop(msg_id, None)  # pyright: ignore[reportPrivateUsage]
            logger.warning("request %r failed: %s", msg_id, error)
            self._send_response(msg_id, None, error.to_response_error())  # pyright: ignore[reportPrivateUsage]
            return
        super()._send_handler_result(future, msg_id=msg_id)  # pyright: ignore[reportPrivateUsage]

    def _refusal(self, method: str, request: bool) -> JsonRpcException | None:
        """Why the life cycle does not allow `method` now (None: it does). Before
        `initialize`, requests are refused and notifications dropped; after `shutdown`, the
        same with InvalidRequest (LSP)."""
        if not self.initialize_received:
            if method == types.INITIALIZE and request:
                return None
            return JsonRpcServerNotInitialized()
        if method == types.INITIALIZE:
            return JsonRpcInvalidRequest("the server is already initialized")
        if self._shutdown:  # pyright: ignore[reportPrivateUsage]
            return JsonRpcInvalidRequest("the server is shutting down")
        return None

    def answer_error(self, request_id: MsgId | None, error: JsonRpcException) -> None:
        """Answer a request with an error (a null id when the id could not be read)."""
        if request_id is None:
            body = {"code": error.code, "message": error.message}
            self._send_data({"jsonrpc": "2.0", "id": None, "error": body})  # pyright: ignore[reportPrivateUsage]
        else:
            self._send_response(request_id, None, error.to_response_error())  # pyright: ignore[reportPrivateUsage]

    def notify_json(self, method: str, params: str) -> None:
        """Send a notification whose params are JSON text already (see `lsp.wire`), as
        pygls's `_send_data` sends what it serializes itself."""
        body = f'{{"jsonrpc": "2.0", "method": {json.dumps(method)}, "params": {params}}}'
        self._write_body(body, method)

    def _send_response(
        self, msg_id: MsgId, result: Any | None = None, error: Any | None = None
    ) -> None:
        """As pygls, except that a result given as JSON text (`RawJSON`) is sent as it is."""
        if error is None and isinstance(result, RawJSON):
            self._result_types.pop(msg_id, None)  # pyright: ignore[reportPrivateUsage]
            body = f'{{"jsonrpc": "2.0", "id": {json.dumps(msg_id)}, "result": {result.text}}}'
            self._write_body(body, f"the result of request {msg_id!r}")
            return
        super()._send_response(msg_id, result, error)  # pyright: ignore[reportPrivateUsage]

    def _write_body(self, body: str, what: str) -> None:
        """Write one message's JSON text with its headers."""
        writer = self.writer
        if writer is None:
            logger.error("unable to send %s: no transport", what)
            return
        encoded = body.encode("utf-8")
        if self._include_headers:  # pyright: ignore[reportPrivateUsage]
            header = (
                f"Content-Length: {len(encoded)}\r\n"
                f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
            )
            encoded = header.encode("ascii") + encoded
        written = writer.write(encoded)
        if inspect.isawaitable(written):
            # An asynchronous transport: keep the write alive until it is done.
            task = asyncio.ensure_future(written)
            self._writes.add(task)
            task.add_done_callback(self._writes.discard)

    def handle_body(self, body: bytes) -> bytes:
        """Read and dispatch one message body; returns the bytes to read again (the start of
        the next message, when a wrong Content-Length made the body swallow it)."""
        try:
            data = json.loads(body.decode("utf-8", errors="replace"))
        except (ValueError, RecursionError) as error:
            logger.warning("unreadable message (%s): %.80r", type(error).__name__, body)
            self.answer_error(None, JsonRpcParseError())
            found = _NEXT.search(body, 1)
            return body[found.start() :] if found is not None else b""
        if _ESCAPED_SURROGATE.search(body):
            data = _without_lone_surrogates(data)
        if isinstance(data, dict):
            table = cast(dict[str, Any], data)
            if "jsonrpc" not in table:
                self.handle_message(Invalid(_id_of(table), None, True, JsonRpcInvalidRequest()))
            else:
                self.handle_message(self.structure_message(table))
        else:
            self.handle_message(data)
        return b""


def _without_lone_surrogates(data: Any) -> Any:
    """`data` with each lone surrogate in its strings (a JSON `\\ud800` escape with no
    partner) replaced by U+FFFD: the text stays as long in every position encoding, and UTF-8
    can encode it. Iterative: the JSON may be nested deeply."""
    if isinstance(data, str):
        return _SURROGATE.sub("\ufffd", data)
    stack: list[Any] = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            table = cast(dict[str, Any], item)
            keys: list[Any] = list(table)
        elif isinstance(item, list):
            table = cast(list[Any], item)
            keys = list(range(len(table)))
        else:
            continue
        for key in keys:
            value = table[key]
            if isinstance(value, str):
                table[key] = _SURROGATE.sub("\ufffd", value)
            elif isinstance(value, dict | list):
                stack.append(value)
    return data


class ThreadedReader:
    """Blocking reads of the client's input in a daemon thread: a read that never returns (the
    client stopped reading our output but keeps its end of our input open) cannot keep the
    process alive, and `close` ends the input early."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._requests: queue.SimpleQueue[tuple[int, asyncio.Future[bytes]]] = queue.SimpleQueue()
        self._pending: set[asyncio.Future[bytes]] = set()
        self._closed = False
        self._thread: threading.Thread | None = None

    def readline(self) -> asyncio.Future[bytes]:
        return self._submit(-1)

    def readexactly(self, n: int) -> asyncio.Future[bytes]:
        return self._submit(n)

    def close(self) -> None:
        """End the input now: pending and later reads return b"" (end of file)."""
        self._closed = True
        for future in self._pending:
            if not future.done():
                future.set_result(b"")
        self._pending.clear()

    def _submit(self, size: int) -> asyncio.Future[bytes]:
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        if self._closed:
            future.set_result(b"")
            return future
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="burnlint-stdin", daemon=True)
            self._thread.start()
        self._pending.add(future)
        self._requests.put((size, future))
        return future

    def _serve(self) -> None:
        while True:
            size, future = self._requests.get()
            try:
                data = self._stream.readline() if size < 0 else self._stream.read(size)
            except (OSError, ValueError):
                data = b""
            try:
                future.get_loop().call_soon_threadsafe(self._resolve, future, data)
            except RuntimeError:  # the event loop is closed: nobody waits any more
                return

    def _resolve(self, future: asyncio.Future[bytes], data: bytes) -> None:
        self._pending.discard(future)
        if not future.done():
            future.set_result(data)


class GuardedWriter:
    """Writes to the client. The first write that fails (the client is gone) is logged in one
    line and calls `lost`; later writes are dropped, instead of each one logging a traceback."""

    def __init__(self, stream: BinaryIO, lost: Callable[[], None]) -> None:
        self._stream = stream
        self._lost = lost
        self.closed = False

    def write(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            self._stream.write(data)
            self._stream.flush()
        except (OSError, ValueError) as error:
            self.closed = True
            logger.error("cannot write to the client (%s); shutting down", error)
            # What the failed write left buffered would fail again at exit, noisily.
            with contextlib.suppress(OSError, ValueError):
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, self._stream.fileno())
                os.close(devnull)
            self._lost()

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(OSError, ValueError):
            self._stream.close()


class _Stream:
    """A reader with push-back."""

    def __init__(self, reader: AsyncReader) -> None:
        self._reader = reader
        self._pending = b""

    def push_back(self, data: bytes) -> None:
        self._pending = data + self._pending

    async def readline(self) -> bytes:
        pending = self._pending
        if pending:
            end = pending.find(b"\n")
            if end >= 0:
                self._pending = pending[end + 1 :]
                return pending[: end + 1]
            self._pending = b""
            return pending + await self._reader.readline()
        return await self._reader.readline()

    async def read(self, size: int) -> bytes:
        taken, self._pending = self._pending[:size], self._pending[size:]
        while len(taken) < size:
            more = await self._reader.readexactly(size - len(taken))
            if not more:
                break
            taken += more
        return taken


async def read_messages(
    stop: threading.Event, reader: AsyncReader, protocol: BurnlintProtocol
) -> None:
    """Read framed messages and dispatch them until the input ends or `stop` is set.

    Headers are lines up to an empty one; a `Content-Length` is found even inside garbage, and
    lines that are no header are skipped, so the reader gets back in step after a broken
    message."""
    stream = _Stream(reader)
    while not stop.is_set():
        length: int | None = None
        while True:
            line = await stream.readline()
            if not line:
                return
            found = _HEADER.search(line)
            if found is not None:
                length = int(found.group(1))
                if length > MAX_BODY:
                    logger.warning("ignoring a message of %d bytes", length)
                    length = None
            elif not line.strip() and length is not None:
                break
            elif line.strip() and not line.lower().startswith(b"content-type:"):
                logger.warning("skipping a line that is no header: %.80r", line)
        assert length is not None
        body = await stream.read(length)
        if len(body) < length:
            return
        try:
            stream.push_back(protocol.handle_body(body))
        except Exception as error:
            logger.error("cannot handle a message: %s", error)
