"""The shipped configs for other editors parse and start `burnlint server`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

EDITORS = Path(__file__).resolve().parents[2] / "editors"


def test_helix_languages_toml_registers_the_server_for_rust() -> None:
    config = tomllib.loads((EDITORS / "helix" / "languages.toml").read_text(encoding="utf-8"))
    server = config["language-server"]["burnlint"]
    assert server["command"] == "burnlint"
    assert server["args"] == ["server"]
    assert isinstance(server["config"]["burnlint"], dict)
    rust = next(lang for lang in config["language"] if lang["name"] == "rust")
    assert "burnlint" in rust["language-servers"]
    assert "rust-analyzer" in rust["language-servers"], "Helix replaces the list: keep r-a"


def test_zed_settings_json_names_the_server_for_rust() -> None:
    settings = json.loads((EDITORS / "zed" / "settings.json").read_text(encoding="utf-8"))
    binary = settings["lsp"]["burnlint"]["binary"]
    assert binary == {"path": "burnlint", "arguments": ["server"]}
    assert "burnlint" in settings["languages"]["Rust"]["language_servers"]
