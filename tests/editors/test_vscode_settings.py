"""The VS Code extension's contributed settings must not drift from the server's `Settings`.

`editors/vscode/package.json` contributes one `burnlint.<key>` setting per field of
`burnlint.lsp.settings.Settings` (camelCase), plus the client-only `path`, `interpreter` and
`trace.server`. Names, JSON types, defaults and enums are compared with the dataclass, and the
contributed defaults and enum values are fed through the server's own parser.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from burnlint.eras import ERAS
from burnlint.kb.load import load_kb
from burnlint.kb.model import SEVERITIES
from burnlint.lsp import settings as server_settings

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "editors" / "vscode" / "package.json"
SECTION = "burnlint"
CLIENT_ONLY = {"path", "interpreter", "trace.server"}


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def contributed() -> dict[str, dict[str, Any]]:
    package = json.loads(PACKAGE.read_text(encoding="utf-8"))
    properties: dict[str, dict[str, Any]] = package["contributes"]["configuration"]["properties"]
    assert all(key.startswith(f"{SECTION}.") for key in properties)
    return {key.removeprefix(f"{SECTION}."): value for key, value in properties.items()}


FIELDS = {camel(f.name): f for f in dataclasses.fields(server_settings.Settings)}
HINTS = typing.get_type_hints(server_settings.Settings)
PROPERTIES = contributed()
SERVER_KEYS = sorted(FIELDS)
CODES = frozenset(entry.id for entry in load_kb() if entry.is_static)


def json_type(hint: Any) -> str:
    """The JSON schema type a Python annotation is written as in settings."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        assert len(args) == 1, f"unsupported union {hint}"
        return json_type(args[0])
    if origin is typing.Literal:
        kinds = {type(a) for a in typing.get_args(hint)}
        assert kinds == {str}, f"unsupported literal {hint}"
        return "string"
    base = origin or hint
    if base is bool:
        return "boolean"
    if base is str:
        return "string"
    if base in (int, float):
        return "number"
    if isinstance(base, type) and issubclass(base, Mapping):
        return "object"
    if base in (list, tuple, set, frozenset):
        return "array"
    raise AssertionError(f"no JSON type for {hint}")


def default_of(field: dataclasses.Field[Any]) -> Any:
    if field.default is not dataclasses.MISSING:
        return field.default
    assert field.default_factory is not dataclasses.MISSING, field.name
    return field.default_factory()


def test_contributes_every_server_setting_and_nothing_else() -> None:
    contributed_server_keys = sorted(set(PROPERTIES) - CLIENT_ONLY)
    assert contributed_server_keys == SERVER_KEYS
    assert CLIENT_ONLY.issubset(PROPERTIES)


@pytest.mark.parametrize("key", SERVER_KEYS)
def test_type_matches(key: str) -> None:
    assert PROPERTIES[key]["type"] == json_type(HINTS[FIELDS[key].name]), key


@pytest.mark.parametrize("key", SERVER_KEYS)
def test_default_parses_to_the_server_default(key: str) -> None:
    default = PROPERTIES[key]["default"]
    parsed, problems = server_settings.parse_settings({key: default}, CODES)
    assert problems == []
    field = FIELDS[key]
    assert getattr(parsed, field.name) == default_of(field)


def test_all_defaults_together_are_the_server_defaults() -> None:
    raw = {key: PROPERTIES[key]["default"] for key in SERVER_KEYS}
    assert server_settings.parse_settings({SECTION: raw}, CODES) == (server_settings.Settings(), [])


def literal_values(hint: Any) -> list[str]:
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return list(typing.get_args(hint))
    for arg in typing.get_args(hint):
        values = literal_values(arg)
        if values:
            return values
    return []


EXPECTED_ENUMS: dict[str, list[str]] = {
    "scope": literal_values(HINTS["scope"]),
    "logLevel": list(server_settings.LOG_LEVELS),
    "era": ["auto", *ERAS],
    "inlayHints": literal_values(HINTS["inlay_hints"]),
}


@pytest.mark.parametrize("key", sorted(EXPECTED_ENUMS))
def test_enums_match(key: str) -> None:
    assert EXPECTED_ENUMS[key], f"the server declares no values for {key}"
    prop = PROPERTIES[key]
    assert prop["enum"] == EXPECTED_ENUMS[key]
    if "enumDescriptions" in prop:
        assert len(prop["enumDescriptions"]) == len(prop["enum"])
    for value in prop["enum"]:
        _, problems = server_settings.parse_settings({key: value}, CODES)
        assert problems == [], value


def test_string_settings_without_enum_are_free_text() -> None:
    for key in SERVER_KEYS:
        if PROPERTIES[key]["type"] == "string" and key not in EXPECTED_ENUMS:
            assert "enum" not in PROPERTIES[key], key


def test_severity_values_and_codes() -> None:
    prop = PROPERTIES["severity"]
    assert prop["additionalProperties"]["enum"] == list(SEVERITIES)
    pattern = re.compile(prop["propertyNames"]["pattern"])
    assert all(pattern.match(code) for code in CODES)
    every = dict.fromkeys(sorted(CODES), SEVERITIES[0])
    parsed, problems = server_settings.parse_settings({"severity": every}, CODES)
    assert problems == []
    assert dict(parsed.severity) == every


def test_ignore_accepts_every_code() -> None:
    pattern = re.compile(PROPERTIES["ignore"]["items"]["pattern"])
    assert all(pattern.match(code) for code in CODES)
    parsed, problems = server_settings.parse_settings({"ignore": sorted(CODES)}, CODES)
    assert problems == []
    assert parsed.ignore == CODES


def test_client_only_settings() -> None:
    assert PROPERTIES["trace.server"]["enum"] == ["off", "messages", "verbose"]
    for key in ("path", "interpreter"):
        assert PROPERTIES[key]["type"] == "string"
        assert PROPERTIES[key]["default"] == ""


def test_every_setting_is_described() -> None:
    for key, prop in PROPERTIES.items():
        assert prop.get("markdownDescription") or prop.get("description"), key


def test_extension_version_matches_the_python_package() -> None:
    package = json.loads(PACKAGE.read_text(encoding="utf-8"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert package["version"] == project["version"]


def test_typescript_mirror_lists_the_same_keys() -> None:
    source = (ROOT / "editors" / "vscode" / "src" / "settings.ts").read_text(encoding="utf-8")
    block = re.search(r"SERVER_SETTINGS[^=]*=\s*Object\.freeze\(\{(.*?)\}\);", source, re.DOTALL)
    assert block, "SERVER_SETTINGS not found in src/settings.ts"
    keys = re.findall(r"^\s*([A-Za-z]+):", block.group(1), re.MULTILINE)
    assert sorted(keys) == SERVER_KEYS
