"""Generated methods kept compiled between runs (`burnlint.startup`): the second run compiles
none of them, the classes behave the same, and a damaged or unwritable cache only means
compiling as usual; the real server and CLI keep the file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from burnlint.startup import ALWAYS_NEW

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parents[2]
CLASSES = f"compiled-classes-{sys.implementation.cache_tag}.marshal"
PROTOCOL = f"compiled-protocol-{sys.implementation.cache_tag}.marshal"

_IMPORT = """
import json, sys
from pathlib import Path
from burnlint.startup import install, protocol_compiled, save
classes = install(Path(sys.argv[1])).classes
from burnlint.analysis.engine import Analyzer
from burnlint.analysis.syntax.ir import Span
with protocol_compiled() as protocol:
    from lsprotocol import types
from burnlint.lsp.wire import converter
position = converter().structure({"line": 1, "character": 2}, types.Position)
save()
span = Span(1, 2, 0)
print(json.dumps({
    "compiled": [classes.made, protocol.made],
    "used": [len(classes.used), len(protocol.used)],
    "equal": position == types.Position(line=1, character=2)
    and position != types.Position(line=1, character=3)
    and converter().unstructure(position) == {"line": 1, "character": 2}
    and span == Span(1, 2, 0) and hash(span) == hash(Span(1, 2, 0)) and span != Span(1, 3, 0),
    "repr": repr(position) + repr(span),
}))
"""


def _script(script: str, folder: Path) -> dict[str, Any]:
    """What `script` prints (JSON), run in a fresh interpreter with the cache in `folder`."""
    done = subprocess.run(
        [sys.executable, "-c", script, str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


def _import(folder: Path) -> dict[str, Any]:
    """Define burnlint's analysis classes and lsprotocol's (see `_IMPORT`)."""
    return _script(_IMPORT, folder)


def test_the_second_run_compiles_nothing_and_the_classes_are_the_same(tmp_path: Path) -> None:
    first = _import(tmp_path)
    # burnlint's dataclasses' methods, lsprotocol's classes' and a cattrs converter's.
    assert first["used"][0] > 150 and first["used"][1] > 500
    assert first["compiled"] == first["used"]
    written = [(tmp_path / name).stat().st_mtime_ns for name in (CLASSES, PROTOCOL)]
    second = _import(tmp_path)
    # All but the few scripts that differ on every run (see `ALWAYS_NEW`).
    assert max(second["compiled"]) <= ALWAYS_NEW
    assert second["used"] == first["used"]
    assert second["equal"] and second["repr"] == first["repr"]
    # Nothing compiled, nothing rewritten.
    assert [(tmp_path / name).stat().st_mtime_ns for name in (CLASSES, PROTOCOL)] == written


def test_a_damaged_cache_is_compiled_again_and_replaced(tmp_path: Path) -> None:
    _import(tmp_path)
    cache = tmp_path / PROTOCOL
    cache.write_bytes(cache.read_bytes()[: cache.stat().st_size // 2])
    again = _import(tmp_path)
    assert again["equal"]
    assert again["compiled"][1] == again["used"][1] > 500
    assert again["compiled"][0] <= ALWAYS_NEW
    assert max(_import(tmp_path)["compiled"]) <= ALWAYS_NEW


def test_a_cache_folder_that_cannot_be_made_only_means_compiling(tmp_path: Path) -> None:
    # Under a regular file no folder can be made, whoever the user is (root included).
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = _import(blocker / "cache")
    assert result["equal"] and result["compiled"] == result["used"]
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
    cache = tmp_path / PROTOCOL
    assert cache.stat().st_size > 100_000
    cache.write_bytes(b"not marshal data")
    second = _serve_once(tmp_path)
    assert second.returncode == 0, second.stderr.decode()
    assert b'"capabilities"' in second.stdout
    assert cache.stat().st_size > 100_000


def test_a_check_keeps_nothing_for_the_next_start(tmp_path: Path) -> None:
    """Only the language server keeps its start cache: a check writes nothing outside the
    checked tree and its results cache."""
    folder = tmp_path / "cache"
    done = subprocess.run(
        [sys.executable, "-m", "burnlint", "check", "examples/dispatch-demo", "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "BURNLINT_CACHE_DIR": str(folder), "NO_COLOR": "1"},
        check=False,
    )
    assert done.returncode == 1, done.stderr  # the example crate has findings
    assert not folder.exists()


_KB = """
import json, sys
from pathlib import Path
from burnlint import startup
from burnlint.kb import load
startup.install(Path(sys.argv[1]))
kept = load.load_kb()
parsed = startup.install().front_matter.made
startup.save()
startup._STATE.clear()  # the same files parsed without the cache
load.load_kb.cache_clear()
print(json.dumps({"parsed": parsed, "entries": len(kept), "equal": kept == load.load_kb()}))
"""


def _load_kb(folder: Path) -> dict[str, Any]:
    return _script(_KB, folder)


def test_the_knowledge_base_from_kept_front_matter_is_the_parsed_one(tmp_path: Path) -> None:
    first = _load_kb(tmp_path)
    assert first["entries"] > 40 and first["parsed"] == first["entries"] and first["equal"]
    second = _load_kb(tmp_path)
    assert second["parsed"] == 0 and second["equal"]


TLS_PROBE = """
import sys
from burnlint.startup import without_tls
with without_tls():
    import asyncio.base_events, asyncio.selector_events
print(asyncio.base_events.ssl is None, asyncio.selector_events.ssl is None, "ssl" in sys.modules)
import ssl
print(ssl.PROTOCOL_TLS_CLIENT is not None)
"""


def test_the_protocol_stack_is_imported_without_tls_and_tls_still_imports_after() -> None:
    """asyncio imported inside `without_tls` runs as in a Python without `ssl` (the server
    never speaks TLS); outside the block `import ssl` works as usual."""
    done = subprocess.run(
        [sys.executable, "-c", TLS_PROBE], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "False", "True"]


TYPES_PROBE = """
import json, sys, typing
import attrs
from lsprotocol import types
if sys.argv[1] == "lazy":
    from burnlint.lsp.wire import converter
    made = converter()
    flag = hasattr(sys.modules.get("lsprotocol._hooks"), "_resolved_forward_references")
    waiting = sum(
        1 for cl in types.ALL_TYPES_MAP.values()
        if isinstance(cl, type) and attrs.has(cl)
        and any(isinstance(a.type, str) or "ForwardRef" in repr(a.type) for a in attrs.fields(cl))
    )
else:
    from pygls.protocol import default_converter
    made = default_converter()
    flag, waiting = True, 0
fields = {}
for name, cl in sorted(types.ALL_TYPES_MAP.items()):
    if isinstance(cl, type) and attrs.has(cl):
        try:
            made.get_structure_hook(cl)
            made.get_unstructure_hook(cl)
        except Exception as error:  # a few unions lsprotocol registers no hook for
            fields[name + " fails"] = [str(error)]
        fields[name] = [repr(a.type) for a in attrs.fields(cl)]
message = {
    "processId": 7, "rootUri": "file:///w", "trace": "off",
    "capabilities": {"textDocument": {
        "hover": {"contentFormat": ["markdown"]},
        "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
        "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix"]}}},
        "inlayHint": {"resolveSupport": {"properties": ["tooltip"]}}},
        "workspace": {"configuration": True, "workspaceFolders": True},
        "general": {"positionEncodings": ["utf-16"]}},
    "workspaceFolders": [{"uri": "file:///w", "name": "w"}],
}
params = made.structure(message, types.InitializeParams)
again = made.unstructure(params)
print(json.dumps({"flag": flag, "waiting": waiting, "fields": fields, "again": again}, default=str))
"""


def _types_as(kind: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", TYPES_PROBE, kind],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_protocol_types_resolved_on_first_use_are_those_resolved_up_front() -> None:
    """The server's converter resolves each protocol class's forward references when it first
    meets the class (most are never sent); once every class has been met, their field types
    are exactly those lsprotocol's own converter resolves up front (and the classes whose hooks
    cannot be made, two unions lsprotocol has no hook for, are the same), and a message comes
    and goes through both alike."""
    lazy, eager = _types_as("lazy"), _types_as("eager")
    # The flag that lets the server skip lsprotocol's eager pass (lsprotocol 2025.0.0, which
    # pygls 2 pins, has it; without it the server resolves everything up front, as before).
    assert lazy["flag"], "lsprotocol changed: the converter resolves every class up front again"
    assert lazy["waiting"] > 100  # resolved on first use, not when the converter was made
    assert lazy["fields"] == eager["fields"]
    assert all("ForwardRef" not in t for types in lazy["fields"].values() for t in types)
    assert lazy["again"] == eager["again"]


GC_PROBE = """
import asyncio, gc, sys

seen = {}


class Watch:
    def find_spec(self, name, path=None, target=None):
        if name == "lsprotocol.types":
            seen["importing"] = (gc.isenabled(), gc.get_threshold())
        return None


def serving(main, **options):
    main.close()
    seen["serving"] = (gc.isenabled(), gc.get_threshold())
    seen["frozen"] = gc.get_freeze_count() > 0
    seen["switch"] = sys.getswitchinterval()
    print(sorted(seen.items()))


sys.meta_path.insert(0, Watch())
asyncio.run = serving
sys.argv = ["burnlint", "server"]
from burnlint.entry import run

run()
"""


def test_the_start_collects_only_young_objects_and_the_server_its_own_way() -> None:
    """`burnlint server` imports the protocol types collecting only the youngest generation
    (passes over the start's long-lived objects find nothing: 35-40 ms), and serves with its
    own thresholds, after freezing what the start made, and with threads that hand over the
    interpreter lock every 0.5 ms (the event loop answers while an analysis runs)."""
    done = subprocess.run(
        [sys.executable, "-c", GC_PROBE], capture_output=True, text=True, timeout=60, check=False
    )
    expected = (
        "[('frozen', True), ('importing', (True, (700, 10000, 10000))),"
        " ('serving', (True, (20000, 20, 1000))), ('switch', 0.0005)]"
    )
    assert expected in done.stdout, done.stdout + done.stderr
