"""One settings schema: the same mistake gets the same message whether it is made in
burnlint.toml, in the editor's settings or on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from burnlint.config import ConfigError, Overrides, load_config, settings_for
from burnlint.lsp.settings import parse_settings

CODES = frozenset({"BD001", "BD004"})


def _toml_detail(tmp_path: Path, text: str) -> str:
    config = tmp_path / "burnlint.toml"
    config.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_config(config, CODES)
    return raised.value.detail


def _editor_detail(raw: dict[str, object]) -> str:
    _, problems = parse_settings(raw, CODES)
    assert len(problems) == 1, problems
    return problems[0].split(": ", 1)[1]


def _cli_detail(tmp_path: Path, overrides: Overrides) -> str:
    with pytest.raises(ConfigError) as raised:
        settings_for(tmp_path / "x.rs", CODES, overrides)
    return raised.value.detail


@pytest.mark.parametrize(
    ("toml", "editor", "overrides"),
    [
        ('era = "future"\n', {"era": "future"}, Overrides(era="future")),
        ('ignore = ["BD999"]\n', {"ignore": ["BD999"]}, Overrides(ignore=frozenset({"BD999"}))),
        ("budget = -1\n", None, Overrides(budget=-1.0)),
        ('docs-url = "https://x/{id}"\n', {"docsUrl": "https://x/{id}"}, None),
        ('severity = { BD001 = "loud" }\n', {"severity": {"BD001": "loud"}}, None),
        ("max-files = 0\n", None, Overrides(max_files=0)),
    ],
)
def test_one_message_per_mistake_everywhere(
    tmp_path: Path,
    toml: str,
    editor: dict[str, object] | None,
    overrides: Overrides | None,
) -> None:
    expected = _toml_detail(tmp_path, toml)
    if editor is not None:
        assert _editor_detail(editor) == expected
    if overrides is not None:
        assert _cli_detail(tmp_path, overrides) == expected
