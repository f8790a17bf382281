"""The `[detect]` tables of the knowledge base are compiled against the interpreter's effect
registry; every malformed key or name is an error naming the entry's file, the key and the
closest valid name, raised when burnlint starts (not at the first file it analyzes)."""

from __future__ import annotations

import copy
import dataclasses
import re
from typing import Any, get_args

import pytest

from burnlint import cli
from burnlint.analysis.engine import Analyzer
from burnlint.analysis.interp.effects import EFFECTS
from burnlint.analysis.semantics.api import ApiSpecError, EffectName, build_model
from burnlint.kb.load import KBError, load_kb

ENTRIES = load_kb()
BD001 = next(entry for entry in ENTRIES if entry.id == "BD001")


def _compile(detect: dict[str, Any]) -> None:
    build_model([("BD001", detect)], EFFECTS, {"BD001": BD001.path})


def _broken(edit: str) -> dict[str, Any]:
    """BD001's real table with one mistake a KB author could make."""
    detect = copy.deepcopy(BD001.detect)
    api: list[dict[str, Any]] = detect["api"]
    sinks: list[dict[str, Any]] = detect["sinks"]
    if edit == "effect":
        api[0]["effect"] = "tensor-lfit"
    elif edit == "api key":
        api[0]["method"] = api[0].pop("methods", ["inner"])
    elif edit == "receiver":
        api[0]["receiver"] = "tensr"
    elif edit == "site":
        sinks[0]["site"] = "cal"
    elif edit == "sink key":
        sinks[0]["efects"] = ["ctx-enabled"]
    elif edit == "sink effect":
        sinks[0]["effects"] = ["ctx-enabld"]
    elif edit == "detect key":
        detect["sink"] = detect.pop("sinks")
    return detect


@pytest.mark.parametrize(
    ("edit", "key", "closest"),
    [
        ("effect", "detect.api[0].effect", "tensor-lift"),
        ("api key", "detect.api[0].method", "methods"),
        ("receiver", "detect.api[0].receiver", "tensor"),
        ("site", "detect.sinks[0].site", "call"),
        ("sink key", "detect.sinks[0].efects", "effects"),
        ("sink effect", "detect.sinks[0].effects", "ctx-enabled"),
        ("detect key", "detect.sink", "sinks"),
    ],
)
def test_errors_name_the_file_the_key_and_the_closest_name(
    edit: str, key: str, closest: str
) -> None:
    with pytest.raises(ApiSpecError) as raised:
        _compile(_broken(edit))
    message = str(raised.value)
    assert message.startswith(f"{BD001.path}: {key}"), message
    assert f"(did you mean `{closest}`?)" in message, message


def test_a_name_close_to_nothing_gets_no_suggestion() -> None:
    detect = copy.deepcopy(BD001.detect)
    detect["api"][0]["effect"] = "zzz"
    with pytest.raises(ApiSpecError, match=r"unknown effect `zzz`$"):
        _compile(detect)


def test_the_real_knowledge_base_compiles() -> None:
    model = Analyzer(ENTRIES).api
    assert model.rules
    assert model.sinks


def test_every_effect_has_one_handler_and_every_handler_is_used() -> None:
    """The names a KB entry may use are the registry's; a registered effect that no entry uses
    is dead code."""
    assert set(EFFECTS) == set(get_args(EffectName))
    used: set[str] = set()
    for entry in ENTRIES:
        used.update(str(rule.get("effect")) for rule in entry.detect.get("api", []))
        for sink in entry.detect.get("sinks", []):
            used.update(sink.get("effects", []))
    assert set(EFFECTS) <= used, sorted(set(EFFECTS) - used)


def test_a_malformed_table_stops_the_cli_with_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = dataclasses.replace(BD001, detect=_broken("effect"))
    entries = tuple(broken if entry.id == "BD001" else entry for entry in ENTRIES)
    monkeypatch.setattr(cli, "load_kb", lambda: entries)
    assert cli.main(["check", "--no-cache", "examples"]) == cli.EXIT_ERROR
    error = capsys.readouterr().err
    assert re.search(
        r"burnlint: error: knowledge base: .*BD001.*unknown effect `tensor-lfit`", error
    )
    assert issubclass(ApiSpecError, KBError)
