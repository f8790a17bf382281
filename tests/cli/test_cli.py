"""The real CLI in a subprocess: exit codes, text frames, the JSON contract, explain."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = "examples/dispatch-demo"
SEED_LINE = "let out = dispatch::q_matmul(autodiff_lhs, q_rhs, DispatchAutodiffContext::Disabled);"
BUGGY = """use burn::backend::{Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};

pub fn f(q: DispatchTensor, data: TensorData) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x = Dispatch::float_from_data(data, &dev);
    let é = "ü"; let _y = dispatch::q_matmul(x, q, Ctx::Disabled);
    todo!()
}
"""


def run(
    *args: str, cwd: Path = ROOT, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "NO_COLOR": "1", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "burnlint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=full_env,
        timeout=120,
        check=False,
    )


def test_check_example_prints_seed_line_as_error_with_frame() -> None:
    result = run("check", EXAMPLE)
    assert result.returncode == 1, result.stderr
    out = result.stdout
    assert "error[BD001]: autodiff tensor `autodiff_lhs` reaches a disabled autodiff context" in out
    assert " --> examples/dispatch-demo/src/quant.rs:16:15" in out
    assert SEED_LINE in out
    caret_line = out.splitlines()[
        out.splitlines().index(next(line for line in out.splitlines() if SEED_LINE in line)) + 1
    ]
    assert re.search(
        r"\|\s+\^{10,} burn panics: an autodiff float primitive must have an enabled autodiff context",
        caret_line,
    )
    assert "= help: enable the autodiff context" in out
    assert "\x1b[" not in out


def test_example_crate_findings_match_its_markers() -> None:
    expected: set[tuple[str, int, str]] = set()
    for path in sorted((ROOT / EXAMPLE / "src").glob("*.rs")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for index, line in enumerate(lines):
            marker = re.search(r"// burnlint: expect (BD\d{3})", line)
            if marker:
                expected.add((path.name, index + 2, marker.group(1)))
    document = json.loads(run("check", EXAMPLE, "--format", "json").stdout)
    actual = {(Path(f["path"]).name, f["start"]["line"], f["code"]) for f in document["findings"]}
    assert actual == expected


def _check_position(point: Any) -> None:
    assert set(point) == {"line", "column"}
    assert isinstance(point["line"], int) and point["line"] >= 1
    assert isinstance(point["column"], int) and point["column"] >= 1


def test_json_contract(tmp_path: Path) -> None:
    (tmp_path / "lib.rs").write_text(BUGGY, encoding="utf-8")
    result = run("check", "lib.rs", "--format", "json", cwd=tmp_path)
    assert result.returncode == 1
    document = json.loads(result.stdout)
    assert document["tool"] == {"name": "burnlint", "version": "0.1.0"}
    assert document["summary"] == {"files": 1, "findings": 1, "errors": 1, "warnings": 0}
    (finding,) = document["findings"]
    assert finding["code"] == "BD001" and finding["slug"] == "autodiff-in-disabled-context"
    assert finding["severity"] in ("error", "warning", "info", "hint")
    assert finding["path"] == "lib.rs"
    first_line = finding["message"].splitlines()[0]
    assert first_line[0].islower() and not first_line.endswith(".")
    for key in ("start", "end"):
        _check_position(finding[key])
    # Columns count Unicode characters: `é` and `ü` are one column each, two bytes each in UTF-8.
    line = BUGGY.splitlines()[5]
    assert finding["start"] == {"line": 6, "column": line.index("dispatch::q_matmul") + 1}
    assert finding["end"]["column"] == line.index(";", line.index("q_matmul")) + 1
    assert {r["message"] for r in finding["related"]} >= {
        "autodiff device created here",
        "autodiff tensor created here",
    }
    for related in finding["related"]:
        assert related["path"] == "lib.rs"
        _check_position(related["start"])
    titles = [fix["title"] for fix in finding["fixes"]]
    assert titles and all(fix["safety"] in ("safe", "unsafe") for fix in finding["fixes"])
    enable = finding["fixes"][0]
    assert enable["safety"] == "safe"
    (edit,) = enable["edits"]
    assert (
        edit["new_text"] == "Ctx::Enabled(burn::backend::GradientCheckpointingStrategy::Disabled)"
    )
    assert edit["start"]["column"] == line.index("Ctx::Disabled") + 1


def test_clean_folder_exits_zero(tmp_path: Path) -> None:
    (tmp_path / "ok.rs").write_text('fn main() { println!("hi"); }\n', encoding="utf-8")
    result = run("check", str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no findings in 1 file" in result.stdout


def test_gitignore_is_honoured(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("generated/\n", encoding="utf-8")
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "bad.rs").write_text(BUGGY, encoding="utf-8")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "bad.rs").write_text(BUGGY, encoding="utf-8")
    document = json.loads(run("check", ".", "--format", "json", cwd=tmp_path).stdout)
    assert [f["path"] for f in document["findings"]] == ["src/bad.rs"]


def test_missing_path_and_bad_utf8_exit_two(tmp_path: Path) -> None:
    missing = run("check", str(tmp_path / "nope.rs"))
    assert missing.returncode == 2 and "no such file" in missing.stderr
    (tmp_path / "latin1.rs").write_bytes(b"fn caf\xe9() {}\n")
    bad = run("check", str(tmp_path / "latin1.rs"))
    assert bad.returncode == 2 and "not valid UTF-8" in bad.stderr


def test_usage_error_exits_two() -> None:
    assert run("check", "--format", "yaml").returncode == 2
    assert run("check", "--select", "BD999", EXAMPLE).returncode == 2


def test_select_filters_codes() -> None:
    document = json.loads(run("check", EXAMPLE, "--format", "json", "--select", "BD004").stdout)
    assert {f["code"] for f in document["findings"]} == {"BD004"}


def test_color_always_and_never() -> None:
    assert "\x1b[" in run("check", EXAMPLE, "--color", "always").stdout
    assert "\x1b[" not in run("check", EXAMPLE, "--color", "never").stdout


def test_version() -> None:
    result = run("--version")
    assert result.returncode == 0 and result.stdout.strip() == "burnlint 0.1.0"


@pytest.mark.parametrize(
    "query",
    [
        "BD001",
        "bd001",
        "autodiff-in-disabled-context",
        "an autodiff float primitive must have an enabled autodiff context",
        "an autodiff float primitive must have an enabled autodiff co",
        "thread 'main' panicked at crates/burn-dispatch/src/macros.rs:77:9:\n"
        "internal error: entered unreachable code: Should only be called with autodiff.",
    ],
)
def test_explain_finds_bd001(query: str) -> None:
    result = run("explain", query)
    assert result.returncode == 0, result.stderr
    assert "BD001 autodiff-in-disabled-context: " in result.stdout
    for heading in ("What it means", "How to fix", "Example", "Use instead", "Fix safety"):
        assert heading in result.stdout


def test_explain_unknown_exits_two() -> None:
    result = run("explain", "this is not a burn panic at all")
    assert result.returncode == 2 and "closest entries:" in result.stderr


def test_statistics_are_in_json_and_sarif_reports() -> None:
    counts = {"BD001": 3, "BD004": 1}
    as_json = run("check", EXAMPLE, "--format", "json", "--statistics", "--no-cache")
    assert as_json.returncode == 1, as_json.stderr
    document = json.loads(as_json.stdout)
    assert document["statistics"] == counts
    assert len(document["findings"]) == 4
    # Without the flag the JSON contract is unchanged.
    plain = json.loads(run("check", EXAMPLE, "--format", "json", "--no-cache").stdout)
    assert "statistics" not in plain
    as_sarif = run("check", EXAMPLE, "--format", "sarif", "--statistics", "--no-cache")
    assert as_sarif.returncode == 1, as_sarif.stderr
    (sarif_run,) = json.loads(as_sarif.stdout)["runs"]
    assert sarif_run["properties"]["statistics"] == counts
    schema_path = ROOT / "tests" / "report" / "data" / "sarif-schema-2.1.0.json"
    import jsonschema

    jsonschema.Draft4Validator(json.loads(schema_path.read_text(encoding="utf-8"))).validate(
        json.loads(as_sarif.stdout)
    )


@pytest.mark.parametrize("extra", [("--format", "github"), ("--diff",)])
def test_statistics_where_they_have_no_place_is_a_usage_error(extra: tuple[str, ...]) -> None:
    result = run("check", EXAMPLE, "--statistics", *extra, "--no-cache")
    assert result.returncode == 2
    assert "--statistics cannot be combined with" in result.stderr
    assert result.stdout == ""


def test_the_command_exits_hard_but_writes_everything_through_a_pipe(tmp_path: Path) -> None:
    """The command skips freeing the analysis at exit: output far larger than a pipe's buffer
    still arrives whole, and the exit code is the check's."""
    for index in range(60):
        (tmp_path / f"m{index}.rs").write_text(BUGGY.replace("pub fn f(", f"pub fn f{index}("))
    result = run("check", str(tmp_path), "--format", "json", "--no-cache")
    assert result.returncode == 1, result.stderr
    assert len(result.stdout) > 128 * 1024
    report = json.loads(result.stdout)
    assert len(report["findings"]) >= 60


def test_a_reader_that_went_away_gets_no_traceback(tmp_path: Path) -> None:
    """`burnlint check | true`: the report meets a closed pipe; exit 2, nothing on stderr."""
    (tmp_path / "m.rs").write_text(BUGGY)
    command = [sys.executable, "-m", "burnlint", "check", str(tmp_path), "--no-cache"]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        # Closed before the check writes anything (it is still analyzing).
        process.stdout.close()
        error = process.stderr.read().decode()
        code = process.wait(timeout=120)
    assert "Traceback" not in error and "Exception ignored" not in error, error
    assert code == 2


def test_the_server_command_exits_0_after_shutdown_and_exit() -> None:
    """`burnlint server` exits through the same hard exit as a check, after the transport
    closed stdout: code 0 and nothing on stderr."""

    def message(body: dict[str, Any]) -> bytes:
        data = json.dumps(body).encode()
        return b"Content-Length: %d\r\n\r\n" % len(data) + data

    requests = b"".join(
        message(m)
        for m in (
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
            {"jsonrpc": "2.0", "method": "exit"},
        )
    )
    result = subprocess.run(
        [sys.executable, "-m", "burnlint", "server"],
        input=requests,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr.decode()
    assert b'"id": 2' in result.stdout or b'"id":2' in result.stdout
    assert b"Traceback" not in result.stderr, result.stderr.decode()


COLLECTOR_PROBE = """
import gc, sys

import burnlint.analyzing as analyzing

seen = []
analyze = analyzing.analyze


def watched(*args, **kwargs):
    seen.append((gc.isenabled(), gc.get_freeze_count() > 0))
    yield from analyze(*args, **kwargs)
    sys.stderr.write(f"collector during analysis: {seen}\\n")


analyzing.analyze = watched
sys.argv = ["burnlint", "check", "--no-cache", *sys.argv[1:]]
from burnlint.entry import run

run()
"""


def test_a_check_analyzes_without_the_cycle_collector(tmp_path: Path) -> None:
    """`burnlint check` freezes what it imported and analyzes with the cycle collector off (its
    heap holds no garbage cycles worth a pass); the findings are the same either way."""
    crate = tmp_path / "src"
    crate.mkdir()
    (crate / "lib.rs").write_text(BUGGY, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", COLLECTOR_PROBE, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )
    assert "collector during analysis: [(False, True)]" in done.stderr, done.stderr
    assert done.returncode == 1 and "BD001" in done.stdout, done.stdout + done.stderr
