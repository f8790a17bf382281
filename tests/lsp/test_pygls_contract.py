"""burnlint's protocol class extends pygls through a few private members (pygls 2 has no
public hook for how a failed request is answered, or for the raw message body). This test
fails loudly, naming the member, if an upgrade of pygls renames or reshapes one of them, instead
of letting the server misbehave at run time."""

from __future__ import annotations

import inspect

import pytest

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
