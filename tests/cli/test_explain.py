"""`burnlint explain --log`: the real CLI in a subprocess reading cargo test output with one or
many panics, backtraces into a crate with a real bug, colours, and the JSON document."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "dispatch-demo"
BD001 = "an autodiff float primitive must have an enabled autodiff context"
BD004 = "Autodiff should not wrap an autodiff device."
UNKNOWN = "index out of bounds: the len is 3 but the index is 7"
REGISTRY = "/home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f"
QTENSOR = f"{REGISTRY}/burn-dispatch-0.22.0-pre.4/src/ops/qtensor.rs:298:25"
MACROS = f"{REGISTRY}/burn-dispatch-0.21.0/src/macros.rs:127:17"
NOTE = "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"


def run(*args: str, cwd: Path = ROOT, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "burnlint", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "NO_COLOR": "1"},
        timeout=120,
        check=False,
    )


def panic(thread: str, location: str, message: str, frames: str = "") -> str:
    """One panic as Rust >= 1.73 prints it, with a backtrace when `frames` are given."""
    text = f"thread '{thread}' panicked at {location}:\n{message}\n"
    return text + (f"stack backtrace:\n{frames}" if frames else NOTE)


def cargo_test(*sections: tuple[str, str]) -> str:
    """cargo test output: each (test name, panic text) as a failed test's section."""
    names = [name for name, _ in sections]
    out = ["", f"running {len(names)} tests"]
    out += [f"test {name} ... FAILED" for name in names]
    out += ["", "failures:", ""]
    for name, text in sections:
        out += [f"---- {name} stdout ----", text]
    out += ["", "failures:"] + [f"    {name}" for name in names]
    out += ["", f"test result: FAILED. 0 passed; {len(names)} failed; 0 ignored", ""]
    return "\n".join(out)


def user_frames(path: str, line: int, column: int, function: str) -> str:
    return (
        "   0: rust_begin_unwind\n"
        "             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs:665:5\n"
        "   1: core::panicking::panic_fmt\n"
        "             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/panicking.rs:74:14\n"
        "   2: burn_dispatch::ops::qtensor::<impl burn_backend::QTensorOps<burn_dispatch::Dispatch> for burn_dispatch::Dispatch>::q_matmul\n"
        f"             at {QTENSOR}\n"
        f"   3: {function}\n"
        f"             at ./{path}:{line}:{column}\n"
        "   4: dispatch_demo::tests::scores\n"
        "             at ./src/lib.rs:30:9\n"
        "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.\n"
    )


@pytest.fixture
def crate(tmp_path: Path) -> Path:
    """A copy of the example crate, whose src/quant.rs:16 has a real BD001 bug."""
    target = tmp_path / "dispatch-demo"
    shutil.copytree(EXAMPLE, target)
    return target


def write(tmp_path: Path, text: str, name: str = "test.log") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def document(result: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(result.stdout)
    return loaded


def test_a_single_panic_is_explained_with_its_era(tmp_path: Path) -> None:
    log = write(
        tmp_path,
        cargo_test(("quant::tests::scores", panic("quant::tests::scores", QTENSOR, BD001))),
    )
    result = run("explain", "--log", str(log))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert BD001 in out and QTENSOR in out and "quant::tests::scores" in out
    assert "burn-dispatch 0.22.0-pre.4" in out
    assert "context" in next(line for line in out.splitlines() if "era" in line.lower())
    # The entry itself follows, rendered as `burnlint explain BD001` renders it.
    entry = run("explain", "BD001").stdout
    assert entry.splitlines()[0] in out and "How to fix" in out


def test_several_panics_are_deduplicated_with_counts(tmp_path: Path) -> None:
    log = cargo_test(
        ("a::one", panic("a::one", QTENSOR, BD001)),
        ("a::two", panic("a::two", QTENSOR, BD001)),
        ("a::three", panic("a::three", QTENSOR, BD001)),
        ("b::nested", panic("b::nested", MACROS, BD004)),
        ("c::index", panic("c::index", "src/lib.rs:9:5", UNKNOWN)),
    )
    result = run("explain", "--log", str(write(tmp_path, log)), "--format", "json")
    # One panic matches no entry: exit 1.
    assert result.returncode == 1, result.stderr
    found = document(result)
    by_message = {p["message"]: p for p in found["panics"]}
    assert set(by_message) == {BD001, BD004, UNKNOWN}
    assert by_message[BD001]["count"] == 3
    assert by_message[BD001]["tests"] == ["a::one", "a::two", "a::three"]
    assert by_message[BD004]["count"] == 1
    assert by_message[BD001]["entries"][0]["id"] == "BD001"
    assert by_message[BD004]["entries"][0]["id"] == "BD004"
    # burn 0.21.0 (registry) has the generic `Tensor<B, D, K>`: no dispatch rule applies there.
    assert by_message[BD004]["era"] == "generic"
    assert by_message[UNKNOWN]["entries"] == []
    assert found["unmatched"] == 1
    # The text report explains each entry once.
    text = run("explain", "--log", str(write(tmp_path, log))).stdout
    assert text.count("What it means") == 2


def test_standard_input_is_read_with_dash() -> None:
    result = run("explain", "--log", "-", stdin=panic("main", QTENSOR, BD001))
    assert result.returncode == 0, result.stderr
    assert BD001 in result.stdout and "BD001 autodiff-in-disabled-context" in result.stdout


def test_the_user_frame_gets_a_static_analysis_that_finds_the_bug(crate: Path) -> None:
    frames = user_frames("src/quant.rs", 16, 15, "dispatch_demo::quant::tracked_scores")
    log = write(
        crate, cargo_test(("tests::scores", panic("tests::scores", QTENSOR, BD001, frames)))
    )
    result = run("explain", "--log", log.name, cwd=crate)
    assert result.returncode == 0, result.stderr
    assert "./src/quant.rs:16:15" in result.stdout
    assert (
        "static analysis found BD001 at src/quant.rs:16:15 which explains this panic"
        in result.stdout
    )
    found = document(run("explain", "--log", log.name, "--format", "json", cwd=crate))
    [entry] = found["panics"]
    assert entry["user_frame"] == {
        "function": "dispatch_demo::quant::tracked_scores",
        "path": "./src/quant.rs",
        "line": 16,
        "column": 15,
    }
    explaining = [f for f in entry["findings"] if f["explains"]]
    assert [(f["code"], f["path"], f["start"]["line"]) for f in explaining] == [
        ("BD001", "src/quant.rs", 16)
    ]


def test_a_frame_without_a_finding_is_runtime_only(crate: Path) -> None:
    # plain_scores (line 50) runs on a plain device: burnlint reports nothing there.
    frames = user_frames("src/quant.rs", 50, 5, "dispatch_demo::quant::plain_scores")
    log = write(crate, panic("main", QTENSOR, BD001, frames))
    result = run("explain", "--log", log.name, cwd=crate)
    assert result.returncode == 0, result.stderr
    assert "no static finding matches" in result.stdout and "runtime-only" in result.stdout
    assert "static analysis found" not in result.stdout


def test_outside_the_workspace_there_is_no_static_analysis(crate: Path, tmp_path: Path) -> None:
    frames = user_frames("src/quant.rs", 16, 15, "dispatch_demo::quant::tracked_scores")
    log = write(crate, panic("main", QTENSOR, BD001, frames))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    found = document(run("explain", "--log", str(log), "--format", "json", cwd=elsewhere))
    [entry] = found["panics"]
    assert entry["user_frame"]["path"] == "./src/quant.rs"
    assert entry["in_workspace"] is False and entry["findings"] == []


def test_coloured_crlf_output_reads_like_plain_output(crate: Path) -> None:
    frames = user_frames("src/quant.rs", 16, 15, "dispatch_demo::quant::tracked_scores")
    plain = cargo_test(("tests::scores", panic("tests::scores", QTENSOR, BD001, frames)))
    coloured = (
        plain.replace("thread '", "\x1b[1m\x1b[31mthread '")
        .replace(BD001, f"\x1b[0m\x1b[31m{BD001}\x1b[0m")
        .replace("\n", "\r\n")
    )
    assert "\x1b[" in coloured
    a = run("explain", "--log", write(crate, plain).name, "--format", "json", cwd=crate)
    b = run("explain", "--log", write(crate, coloured, "c.log").name, "--format", "json", cwd=crate)
    assert a.returncode == b.returncode == 0
    assert document(a) == document(b)
    text = run("explain", "--log", "c.log", cwd=crate).stdout
    assert "\x1b[" not in text and "static analysis found BD001" in text


SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["panics", "unmatched"],
    "properties": {
        "unmatched": {"type": "integer", "minimum": 0},
        "panics": {
            "type": "array",
            "items": {
                "type": "object",
                "required": [
                    "message",
                    "location",
                    "count",
                    "tests",
                    "era",
                    "entries",
                    "user_frame",
                    "findings",
                ],
                "properties": {
                    "message": {"type": "string"},
                    "location": {
                        "type": ["object", "null"],
                        "required": ["path", "line", "column"],
                        "properties": {
                            "path": {"type": "string"},
                            "line": {"type": "integer", "minimum": 1},
                            "column": {"type": "integer", "minimum": 0},
                        },
                    },
                    "count": {"type": "integer", "minimum": 1},
                    "tests": {"type": "array", "items": {"type": "string"}},
                    "era": {"enum": ["context", "checkpointing", "generic", None]},
                    "entries": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["id", "slug", "title", "score"],
                            "properties": {
                                "id": {"type": "string", "pattern": "^BD[A-Z]?\\d{3}$"},
                                "slug": {"type": "string"},
                                "title": {"type": "string"},
                                "score": {"type": "integer"},
                            },
                        },
                    },
                    "user_frame": {
                        "type": ["object", "null"],
                        "required": ["function", "path", "line", "column"],
                    },
                    "findings": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["code", "path", "start", "message", "explains"],
                        },
                    },
                },
            },
        },
    },
}


def test_json_document_follows_its_schema(crate: Path) -> None:
    frames = user_frames("src/quant.rs", 16, 15, "dispatch_demo::quant::tracked_scores")
    log = cargo_test(
        ("a", panic("a", QTENSOR, BD001, frames)),
        ("b", panic("b", MACROS, BD004)),
        ("c", panic("c", "src/lib.rs:3:1", UNKNOWN)),
    )
    result = run("explain", "--log", write(crate, log).name, "--format", "json", cwd=crate)
    found = document(result)
    jsonschema.validate(found, SCHEMA)
    assert len(found["panics"]) == 3 and found["unmatched"] == 1
    # Entries are ranked best first.
    for item in found["panics"]:
        scores = [e["score"] for e in item["entries"]]
        assert scores == sorted(scores, reverse=True)


def test_pasted_output_with_a_panic_is_read_like_a_log() -> None:
    text = panic("main", QTENSOR, BD001) + panic("main", MACROS, BD004)
    result = run("explain", text)
    assert result.returncode == 0, result.stderr
    assert BD001 in result.stdout and BD004 in result.stdout
    assert "BD001 autodiff-in-disabled-context" in result.stdout
    assert "BD004 nested-autodiff-device" in result.stdout


def test_errors_exit_two(tmp_path: Path) -> None:
    missing = run("explain", "--log", str(tmp_path / "missing.log"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    assert run("explain").returncode == 2
    both = run("explain", "BD001", "--log", str(write(tmp_path, panic("main", QTENSOR, BD001))))
    assert both.returncode == 2


def test_a_log_without_panics_explains_nothing(tmp_path: Path) -> None:
    log = write(tmp_path, "running 1 test\ntest a ... ok\n\ntest result: ok. 1 passed\n")
    result = run("explain", "--log", str(log), "--format", "json")
    assert result.returncode == 0
    assert document(result) == {"panics": [], "unmatched": 0}


def test_a_panic_pasted_on_one_line_is_explained() -> None:
    # An editor's input box holds one line: the header and the message arrive joined.
    pasted = (
        "thread 'main' panicked at crates/burn-dispatch/src/ops.rs:88:9: "
        "an autodiff float primitive must have an enabled autodiff context"
    )
    result = run("explain", pasted)
    assert result.returncode == 0, result.stderr
    assert "BD001 autodiff-in-disabled-context" in result.stdout
    assert "crates/burn-dispatch/src/ops.rs:88:9" in result.stdout


ESCAPED = (
    r"thread 'main' panicked at crates/burn-dispatch/src/backend.rs:120:9:\n"
    r"an autodiff float primitive must have an enabled autodiff context\n"
    r"note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"
)
"""A panic as editors, chat and issue threads give it: line breaks as a literal backslash-n."""


def test_a_panic_with_escaped_line_breaks_is_explained() -> None:
    result = run("explain", ESCAPED)
    assert result.returncode == 0, result.stderr
    assert "BD001 autodiff-in-disabled-context" in result.stdout
    assert "crates/burn-dispatch/src/backend.rs:120:9" in result.stdout
    # The message without the header, escaped the same way, matches too.
    bare = run("explain", ESCAPED.split(r":\n", 1)[1])
    assert bare.returncode == 0, bare.stderr
    assert bare.stdout.startswith("BD001 autodiff-in-disabled-context")


def test_a_log_with_escaped_line_breaks_is_explained() -> None:
    result = run("explain", "--log", "-", stdin=f"some output\n{ESCAPED}\nmore output\n")
    assert result.returncode == 0, result.stderr
    assert "explained by: BD001 autodiff-in-disabled-context" in result.stdout


def test_an_unmatched_query_suggests_the_closest_entries() -> None:
    result = run("explain", r"an autodiff float primitive must have an enabled autodif\nxyz")
    assert result.returncode == 2
    err = result.stderr
    # Quoted as given, not as a Python repr (which doubles the backslash).
    assert "\\\\n" not in err
    assert "known codes" not in err
    suggestions = [line for line in err.splitlines() if line.startswith("  BD")]
    assert 1 <= len(suggestions) <= 3, err
    assert suggestions[0].startswith("  BD001 autodiff-in-disabled-context")
    assert re.search(r"\d+%", suggestions[0]), suggestions[0]


def test_a_burn_0_22_panic_is_explained_with_the_versions_that_raise_it(tmp_path: Path) -> None:
    backward = (
        "Tensor::backward requires a tracked autodiff tensor; call "
        "Tensor::autodiff().require_grad() on the source leaf before computing the output"
    )
    autodiff_rs = f"{REGISTRY}/burn-tensor-0.22.0/src/tensor/api/autodiff.rs:120:9"
    routing = f"{REGISTRY}/burn-dispatch-0.22.1/src/ops/tensor.rs:11:1"
    log = cargo_test(
        ("a", panic("a", autodiff_rs, backward)),
        (
            "b",
            panic(
                "b",
                routing,
                "dispatched operation received no tensor input to select a backend from",
            ),
        ),
    )
    result = run("explain", "--log", str(write(tmp_path, log)))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "era:       context (burn-tensor 0.22.0 in the panic location)" in out, out
    assert "explained by: BD009 backward-without-autodiff" in out
    assert "explained by: BDR034 dispatch-no-backend-selected" in out
    assert "burn versions (BD009): " in out and "0.22.0 and 0.22.1 included" in out
    assert "2 explained, 0 not in the knowledge base" in out
