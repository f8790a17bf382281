"""The protocol types' compiled methods kept between server starts (`burnlint.lsp.compiled`):
the second start compiles none of them, the types behave the same, and a damaged or
unwritable cache only means compiling as usual."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.timeout(60)

_IMPORT = """
import json, sys
from pathlib import Path
from burnlint.lsp.compiled import kept_compiled
with kept_compiled(Path(sys.argv[1])) as methods:
    from lsprotocol import types
a = types.Position(line=1, character=2)
b = types.Position(line=1, character=2)
print(json.dumps({
    "compiled": methods.compiled,
    "used": len(methods.used),
    "equal": a == b and a != types.Position(line=1, character=3),
    "repr": repr(a),
}))
"""


def _import(folder: Path) -> dict[str, Any]:
    """Import the protocol types in a fresh interpreter with the cache in `folder`."""
    done = subprocess.run(
        [sys.executable, "-c", _IMPORT, str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


def test_the_second_import_compiles_nothing_and_the_types_are_the_same(tmp_path: Path) -> None:
    first = _import(tmp_path)
    assert first["used"] > 500  # lsprotocol's classes' methods, not a handful
    assert first["compiled"] == first["used"]
    (cache,) = tmp_path.iterdir()
    written = cache.stat().st_mtime_ns
    second = _import(tmp_path)
    assert second["compiled"] == 0
    assert second["used"] == first["used"]
    assert second["equal"] and second["repr"] == first["repr"]
    # Nothing compiled, nothing rewritten.
    assert cache.stat().st_mtime_ns == written


def test_a_damaged_cache_is_compiled_again_and_replaced(tmp_path: Path) -> None:
    _import(tmp_path)
    (cache,) = tmp_path.iterdir()
    cache.write_bytes(cache.read_bytes()[: cache.stat().st_size // 2])
    again = _import(tmp_path)
    assert again["equal"]
    assert again["compiled"] == again["used"] > 500
    assert _import(tmp_path)["compiled"] == 0


def test_a_cache_folder_that_cannot_be_made_only_means_compiling(tmp_path: Path) -> None:
    # Under a regular file no folder can be made, whoever the user is (root included).
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = _import(blocker / "cache")
    assert result["equal"] and result["compiled"] == result["used"] > 500
    assert list(tmp_path.iterdir()) == [blocker]


def _frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body


def _serve_once(folder: Path) -> subprocess.CompletedProcess[bytes]:
    """A real server over stdio, with its cache in `folder`: initialize, shutdown, exit."""
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    return subprocess.run(
        [sys.executable, "-m", "burnlint", "server"],
        input=b"".join(_frame(m) for m in messages),
        capture_output=True,
        timeout=60,
        env={**os.environ, "BURNLINT_CACHE_DIR": str(folder)},
        check=False,
    )


def test_the_server_keeps_the_cache_and_starts_from_a_damaged_one(tmp_path: Path) -> None:
    first = _serve_once(tmp_path)
    assert first.returncode == 0, first.stderr.decode()
    assert b'"capabilities"' in first.stdout
    (cache,) = tmp_path.iterdir()
    assert cache.stat().st_size > 100_000
    cache.write_bytes(b"not marshal data")
    second = _serve_once(tmp_path)
    assert second.returncode == 0, second.stderr.decode()
    assert b'"capabilities"' in second.stdout
    assert cache.stat().st_size > 100_000
