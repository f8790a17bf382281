"""burnlint's protocol class extends pygls through a few private members (pygls 2 has no
public hook for how a failed request is answered, or for the raw message body). This test
fails loudly, naming the member, if an upgrade of pygls renames or reshapes one of them, instead
of letting the server misbehave at run time."""

from __future__ import annotations

import inspect
import json
import logging

import pytest
from pygls.exceptions import JsonRpcInvalidParams  # noqa: TID251 - pygls is what this tests
from pygls.protocol import default_converter  # noqa: TID251

from burnlint.lsp.protocol import BurnlintProtocol

# pygls's classes, reached through burnlint's own (only burnlint.lsp imports pygls).
_BASES = {cls.__name__: cls for cls in BurnlintProtocol.__mro__}
JsonRPCProtocol = _BASES["JsonRPCProtocol"]
LanguageServerProtocol = _BASES["LanguageServerProtocol"]


@pytest.mark.parametrize(
    ("member", "parameters"),
    [
        ("_send_handler_result", ["self", "future", "msg_id"]),
        ("_send_response", ["self", "msg_id", "result", "error"]),
        ("_send_data", ["self", "data"]),
    ],
)
def test_private_methods_burnlint_overrides_or_calls(member: str, parameters: list[str]) -> None:
    method = getattr(JsonRPCProtocol, member, None)
    assert callable(method), f"pygls no longer has JsonRPCProtocol.{member}"
    assert list(inspect.signature(method).parameters)[: len(parameters)] == parameters, member


@pytest.mark.parametrize(
    "attribute",
    ["_request_futures", "_shutdown", "_result_types", "_converter", "_include_headers", "writer"],
)
def test_private_state_burnlint_reads(attribute: str) -> None:
    protocol = LanguageServerProtocol.__new__(LanguageServerProtocol)
    JsonRPCProtocol.__init__(protocol, server=None, converter=None)  # pyright: ignore[reportArgumentType]
    assert hasattr(protocol, attribute), f"pygls no longer sets JsonRPCProtocol.{attribute}"


def test_the_override_is_still_an_override() -> None:
    assert BurnlintProtocol._send_handler_result is not JsonRPCProtocol._send_handler_result  # pyright: ignore[reportPrivateUsage]
    assert issubclass(BurnlintProtocol, LanguageServerProtocol)


class _Server:
    """What pygls's protocol reads of its server, and the errors it reports to it."""

    name = "burnlint"
    version = "0"

    def __init__(self) -> None:
        self.reported: list[Exception] = []

    def _report_server_error(self, error: Exception, source: object) -> None:
        self.reported.append(error)


class _Writer:
    def __init__(self) -> None:
        self.data = b""

    def write(self, data: bytes) -> None:
        self.data += data


def test_pygls_still_answers_requests_through_the_override(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The override is only worth keeping while pygls calls it: a handler's InvalidParams is
    answered with the error, logged in one line without a traceback, and not reported again."""
    server = _Server()
    protocol = BurnlintProtocol(server, default_converter())
    writer = _Writer()
    protocol.set_writer(writer, include_headers=False)

    def handler(params: object) -> None:
        raise JsonRpcInvalidParams("no such entry")

    protocol.fm.features["burnlint/probe"] = handler  # pyright: ignore[reportUnknownMemberType]
    with caplog.at_level(logging.DEBUG):
        protocol._handle_request(7, "burnlint/probe", None)  # pyright: ignore[reportPrivateUsage]
    assert json.loads(writer.data) == {
        "jsonrpc": "2.0",
        "id": 7,
        "error": {"code": -32602, "message": "no such entry"},
    }
    assert not server.reported
    assert not [r for r in caplog.records if r.exc_info], "pygls logged a traceback"
    assert any("request 7 failed: no such entry" in r.getMessage() for r in caplog.records)
