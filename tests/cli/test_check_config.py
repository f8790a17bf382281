"""Configuration as a user writes it (burnlint.toml, Cargo.toml metadata) and overrides it on the
command line, through the real CLI; `burnlint config` shows the result."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from test_cli import ROOT, run

EXAMPLE = ROOT / "examples" / "dispatch-demo"


@pytest.fixture
def crate(tmp_path: Path) -> Path:
    target = tmp_path / "demo"
    shutil.copytree(EXAMPLE, target)
    return target


def codes(crate: Path, *args: str) -> list[tuple[str, str, str]]:
    result = run("check", ".", "--format", "json", *args, cwd=crate)
    assert result.returncode in (0, 1), result.stderr
    document = json.loads(result.stdout)
    return sorted((f["path"], f["code"], f["severity"]) for f in document["findings"])


def test_burnlint_toml_select_ignore_severity_and_exclude(crate: Path) -> None:
    everything = codes(crate)
    assert {c for _, c, _ in everything} == {"BD001", "BD004"}
    (crate / "burnlint.toml").write_text('ignore = ["BD004"]\n')
    assert {c for _, c, _ in codes(crate)} == {"BD001"}
    (crate / "burnlint.toml").write_text('select = ["BD004"]\nseverity = { BD004 = "warning" }\n')
    assert codes(crate) == [("src/train.rs", "BD004", "warning")]
    (crate / "burnlint.toml").write_text('exclude = ["src/quant.rs", "src/train.rs"]\n')
    assert {p for p, _, _ in codes(crate)} == {"src/infer.rs"}


def test_command_line_overrides_the_file(crate: Path) -> None:
    (crate / "burnlint.toml").write_text('select = ["BD004"]\n')
    assert {c for _, c, _ in codes(crate, "--select", "BD001")} == {"BD001"}
    assert codes(crate, "--ignore", "BD004") == []
    assert {c for _, c, _ in codes(crate, "--isolated")} == {"BD001", "BD004"}
    other = crate / "other.toml"
    other.write_text('ignore = ["BD001"]\n')
    assert {c for _, c, _ in codes(crate, "--config", str(other))} == {"BD004"}


def test_cargo_metadata_table_and_era_override(crate: Path) -> None:
    manifest = crate / "Cargo.toml"
    manifest.write_text(
        manifest.read_text() + '\n[package.metadata.burnlint]\nera = "checkpointing"\n'
    )
    result = run("check", "src/quant.rs", "--format", "json", cwd=crate)
    document = json.loads(result.stdout)
    assert {f["era"] for f in document["findings"]} == {"checkpointing"}
    shown = run("config", "src/quant.rs", cwd=crate)
    assert shown.returncode == 0
    assert 'era = "checkpointing"  # Cargo.toml:' in shown.stdout


def test_broken_configuration_names_file_line_and_key(crate: Path) -> None:
    (crate / "burnlint.toml").write_text('# team settings\nselect = ["BD001"]\nseverty = {}\n')
    result = run("check", ".", cwd=crate)
    assert result.returncode == 2
    assert "burnlint.toml:3: severty:" in result.stderr
    assert "severity" in result.stderr  # the suggestion
    (crate / "burnlint.toml").write_text('select = ["BD001", "BD999"]\n')
    result = run("check", ".", cwd=crate)
    assert result.returncode == 2
    assert "burnlint.toml:1: select:" in result.stderr
    assert "BD999" in result.stderr
    (crate / "burnlint.toml").write_text("select = [\n")
    result = run("check", ".", cwd=crate)
    assert result.returncode == 2
    assert "burnlint.toml:" in result.stderr


def test_config_command_prints_effective_settings_with_origins(crate: Path) -> None:
    (crate / "burnlint.toml").write_text('ignore = ["BD004"]\nbudget = 2.5\n')
    result = run("config", "src", "--format", "json", cwd=crate)
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["config"] == "burnlint.toml"
    assert document["settings"]["ignore"] == ["BD004"]
    assert document["settings"]["budget"] == 2.5
    assert document["origins"]["ignore"] == "burnlint.toml:1"
    assert document["origins"]["select"] == "default"


def test_docs_url_becomes_the_sarif_help_uri(crate: Path) -> None:
    (crate / "burnlint.toml").write_text('docs-url = "https://docs.example/burnlint/{code}.html"\n')
    result = run("check", ".", "--format", "sarif", cwd=crate)
    rules = json.loads(result.stdout)["runs"][0]["tool"]["driver"]["rules"]
    assert {r["id"]: r.get("helpUri") for r in rules}["BD001"] == (
        "https://docs.example/burnlint/BD001.html"
    )
