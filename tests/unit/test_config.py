"""Project configuration: discovery, validation with line numbers, precedence, exclusion,
digests, caching and rendering."""

from __future__ import annotations

import json
import os
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest

import burnlint.kb.load
from burnlint.config import (
    DEFAULT_BUDGET,
    ConfigError,
    FrozenMap,
    Overrides,
    Settings,
    clear_cache,
    find_config,
    is_excluded,
    load_config,
    render_settings,
    settings_for,
)

KNOWN = frozenset(e.id for e in burnlint.kb.load.load_kb())


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    clear_cache()
    yield
    clear_cache()


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def error_of(path: Path) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        load_config(path, KNOWN)
    return caught.value


# -- discovery -----------------------------------------------------------------------------


def test_known_codes_come_from_the_kb() -> None:
    assert {"BD001", "BD004"} <= KNOWN


def test_no_config_gives_defaults(tmp_path: Path) -> None:
    settings = settings_for(tmp_path / "src" / "lib.rs", KNOWN)
    assert settings == Settings()
    assert settings.source is None and settings.root is None
    assert settings.select is None and settings.budget == DEFAULT_BUDGET
    assert set(settings.origins.values()) == {"default"}


def test_nearest_config_wins(tmp_path: Path) -> None:
    outer = write(tmp_path / "burnlint.toml", 'ignore = ["BD001"]\n')
    inner = write(tmp_path / "crate" / "burnlint.toml", 'ignore = ["BD002"]\n')
    (tmp_path / "crate" / "src" / "deep").mkdir(parents=True)
    assert find_config(tmp_path / "crate" / "src" / "deep") == inner
    assert find_config(tmp_path / "other") == outer
    settings = settings_for(tmp_path / "crate" / "src" / "deep" / "x.rs", KNOWN)
    assert settings.ignore == {"BD002"}
    assert settings.source == inner and settings.root == inner.parent
    assert settings_for(tmp_path / "x.rs", KNOWN).ignore == {"BD001"}


def test_settings_for_accepts_a_directory(tmp_path: Path) -> None:
    config = write(tmp_path / "crate" / "burnlint.toml", 'era = "context"\n')
    assert settings_for(tmp_path / "crate", KNOWN).source == config
    assert settings_for(tmp_path, KNOWN).source is None


def test_burnlint_toml_beats_cargo_toml_in_the_same_directory(tmp_path: Path) -> None:
    write(tmp_path / "Cargo.toml", '[package.metadata.burnlint]\nera = "checkpointing"\n')
    config = write(tmp_path / "burnlint.toml", 'era = "context"\n')
    assert find_config(tmp_path) == config
    assert settings_for(tmp_path / "lib.rs", KNOWN).era == "context"


def test_cargo_toml_without_burnlint_table_is_skipped(tmp_path: Path) -> None:
    outer = write(tmp_path / "burnlint.toml", 'era = "checkpointing"\n')
    write(
        tmp_path / "crate" / "Cargo.toml",
        '[package]\nname = "crate"\n\n[package.metadata.docs]\nburnlint = "mentioned"\n',
    )
    assert find_config(tmp_path / "crate") == outer


def test_cargo_toml_with_burnlint_table_is_a_config(tmp_path: Path) -> None:
    write(tmp_path / "burnlint.toml", 'era = "checkpointing"\n')
    cargo = write(
        tmp_path / "crate" / "Cargo.toml",
        '[package]\nname = "crate"\n\n[package.metadata.burnlint]\nera = "context"\n',
    )
    assert find_config(tmp_path / "crate" / "src") == cargo
    assert settings_for(tmp_path / "crate" / "src" / "lib.rs", KNOWN).era == "context"


def test_cargo_toml_with_dotted_key_table_is_a_config(tmp_path: Path) -> None:
    cargo = write(tmp_path / "Cargo.toml", '[package]\nmetadata.burnlint.select = ["BD001"]\n')
    assert find_config(tmp_path) == cargo
    settings = load_config(cargo, KNOWN)
    assert settings.select == {"BD001"}
    assert settings.origins["select"].endswith("Cargo.toml:2")


def test_broken_cargo_toml_mentioning_burnlint_reports_its_error(tmp_path: Path) -> None:
    cargo = write(tmp_path / "Cargo.toml", "[package.metadata.burnlint]\nera = \n")
    assert find_config(tmp_path) == cargo
    with pytest.raises(ConfigError) as caught:
        settings_for(tmp_path / "lib.rs", KNOWN)
    assert caught.value.line == 2


def test_workspace_and_package_tables_merge_package_wins(tmp_path: Path) -> None:
    cargo = write(
        tmp_path / "Cargo.toml",
        """[package]
name = "x"

[workspace.metadata.burnlint]
era = "checkpointing"
budget = 2
ignore = ["BD001"]

[package.metadata.burnlint]
era = "context"
select = ["BD004"]
""",
    )
    settings = load_config(cargo, KNOWN)
    assert settings.era == "context"
    assert settings.budget == 2.0
    assert settings.ignore == {"BD001"}
    assert settings.select == {"BD004"}
    assert settings.origins["era"].endswith("Cargo.toml:10")
    assert settings.origins["budget"].endswith("Cargo.toml:6")
    assert settings.origins["select"].endswith("Cargo.toml:11")


def test_discovery_is_cached_per_directory(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    assert find_config(tmp_path / "a" / "b") is None
    config = write(tmp_path / "a" / "burnlint.toml", "")
    # Cached until cleared: the CLI discovers once per directory.
    assert find_config(tmp_path / "a" / "b") is None
    clear_cache()
    assert find_config(tmp_path / "a" / "b") == config


def test_discovery_examines_each_directory_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import burnlint.config as config_module

    seen: list[Path] = []
    original = config_module._own_config  # pyright: ignore[reportPrivateUsage]

    def counting(directory: Path) -> Path | None:
        seen.append(directory)
        return original(directory)

    monkeypatch.setattr(config_module, "_own_config", counting)
    deep = tmp_path / "a" / "b" / "c"
    deep.mkdir(parents=True)
    write(tmp_path / "burnlint.toml", "")
    for name in ("x.rs", "y.rs", "z.rs"):
        settings_for(deep / name, KNOWN)
    settings_for(tmp_path / "a" / "w.rs", KNOWN)
    assert len(seen) == len(set(seen)) == 4


# -- validation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "key", "fragment"),
    [
        ('era = "context"\nselect = "BD001"\n', 2, "select", "expected an array of strings"),
        ('select = [\n  "BD001",\n  "BD999",\n]\n', 3, "select", "unknown code 'BD999'"),
        ("\n\nignore = [1]\n", 3, "ignore", "expected an array of strings"),
        ('ignore = ["BD077"]\n', 1, "ignore", "known codes: BD001"),
        ('budget = 1\nseverity = "warning"\n', 2, "severity", "expected a table"),
        ('\nseverity = { BD004 = "loud" }\n', 2, "severity.BD004", '"error", "warning"'),
        ('[severity]\nBD001 = "error"\nBD004 = "loud"\n', 3, "severity.BD004", "got a string"),
        ('[severity]\nBD001 = "error"\nBD999 = "hint"\n', 3, "severity", "unknown code 'BD999'"),
        ('exclude = "generated/**"\n', 1, "exclude", "expected an array of strings"),
        ('exclude = [\n  "ok/**",\n  "!",\n]\n', 3, "exclude", "invalid pattern '!'"),
        ('era = "future"\n', 1, "era", 'expected one of "context", "checkpointing"'),
        ("\nera = 3\n", 2, "era", "got an integer"),
        ('docs-url = "https://x/{code}/{name}"\n', 1, "docs-url", "unknown placeholder {name}"),
        ("docs-url = true\n", 1, "docs-url", "expected a string"),
        ("budget = 0\n", 1, "budget", "positive"),
        ("budget = -1.5\n", 1, "budget", "positive"),
        ("budget = nan\n", 1, "budget", "positive"),
        ('budget = "5"\n', 1, "budget", "expected a number"),
        ("budget = true\n", 1, "budget", "got a boolean"),
        ("era = 'context'\n\ndocs_url = 'x'\n", 3, "docs_url", "did you mean `docs-url`?"),
        ("selct = []\n", 1, "selct", "did you mean `select`?"),
        ("colour = 1\n", 1, "colour", "known keys: select, ignore"),
    ],
)
def test_burnlint_toml_errors(
    tmp_path: Path, text: str, line: int, key: str, fragment: str
) -> None:
    error = error_of(write(tmp_path / "burnlint.toml", text))
    assert (error.line, error.key) == (line, key)
    assert fragment in error.detail
    assert str(error).endswith(f"burnlint.toml:{line}: {key}: {error.detail}")


@pytest.mark.parametrize(
    ("text", "line", "key"),
    [
        # The same key name in another table must not be mistaken for burnlint's.
        ('[package]\nname = "x"\nera = 1\n\n[package.metadata.burnlint]\nera = 2\n', 6, "era"),
        ('[workspace.metadata.burnlint]\nselect = ["BD999"]\n', 2, "select"),
        (
            '[package.metadata.burnlint]\nera = "context"\n[package.metadata.burnlint.severity]\n'
            'BD001 = "fatal"\n',
            4,
            "severity.BD001",
        ),
        ('[package.metadata]\nburnlint = { era = "x" }\n', 2, "era"),
        ('[package.metadata.burnlint]\n\n"budgett" = 5\n', 3, "budgett"),
        ("[package.metadata]\nburnlint = 3\n", 2, "package.metadata.burnlint"),
    ],
)
def test_cargo_toml_errors(tmp_path: Path, text: str, line: int, key: str) -> None:
    error = error_of(write(tmp_path / "Cargo.toml", text))
    assert (error.line, error.key) == (line, key)


def test_lines_skip_multiline_arrays_and_strings(tmp_path: Path) -> None:
    text = """docs-url = \"\"\"https://x/{code}
era = "inside a string"
\"\"\"
exclude = [
  "a/**",   # era = "inside a comment"
  "[era]",
]
era = "wrong"
"""
    error = error_of(write(tmp_path / "burnlint.toml", text))
    assert (error.key, error.line) == ("era", 8)


def test_toml_syntax_error_has_tomllib_line(tmp_path: Path) -> None:
    error = error_of(write(tmp_path / "burnlint.toml", 'era = "context"\n\nselect = [\n'))
    assert error.key == ""
    assert error.line is not None and error.line >= 3
    error = error_of(write(tmp_path / "a" / "burnlint.toml", 'era = "context"\nbudget = \n'))
    assert error.line == 2
    assert "invalid TOML" in error.detail and "(at line" not in error.detail
    assert str(error).endswith(f"burnlint.toml:2: {error.detail}")


def test_cargo_toml_without_table_via_config_flag_is_an_error(tmp_path: Path) -> None:
    cargo = write(tmp_path / "Cargo.toml", '[package]\nname = "x"\n')
    with pytest.raises(ConfigError) as caught:
        settings_for(tmp_path / "lib.rs", KNOWN, Overrides(config=cargo))
    assert "[package.metadata.burnlint]" in caught.value.detail


def test_missing_config_flag_file_is_an_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError) as caught:
        settings_for(tmp_path / "lib.rs", KNOWN, Overrides(config=missing))
    assert (caught.value.path, caught.value.line, caught.value.key) == (missing, None, "--config")
    assert str(caught.value) == f"{missing}: --config: no such file"


def test_not_utf8_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "burnlint.toml"
    path.write_bytes(b'era = "context"\n# \xff\n')
    error = error_of(path)
    assert (error.line, error.detail) == (2, "not valid UTF-8")


def test_valid_values_are_normalised(tmp_path: Path) -> None:
    config = write(
        tmp_path / "burnlint.toml",
        """select = ["bd001", "BD004"]
ignore = []
severity = { bd004 = "warning", BD001 = "hint" }
exclude = ["generated/**", "benches/*.rs"]
era = "checkpointing"
docs-url = "https://team.example/burnlint/{code}-{slug}.html"
budget = 7
""",
    )
    settings = load_config(config, KNOWN)
    assert settings.select == {"BD001", "BD004"}
    assert settings.ignore == frozenset()
    assert dict(settings.severity) == {"BD001": "hint", "BD004": "warning"}
    assert settings.exclude == ("generated/**", "benches/*.rs")
    assert settings.era == "checkpointing"
    assert settings.docs_url == "https://team.example/burnlint/{code}-{slug}.html"
    assert settings.budget == 7.0 and isinstance(settings.budget, float)
    assert settings.enabled("BD004") and not settings.enabled("BD002")
    assert settings.origins["select"] == f"{config}:1"
    assert settings.origins["budget"] == f"{config}:7"
    assert settings.origins["era"] == f"{config}:5"


# -- precedence ----------------------------------------------------------------------------


def test_enabled_applies_ignore_after_select() -> None:
    settings = Settings(select=frozenset({"BD001", "BD002"}), ignore=frozenset({"BD002"}))
    assert settings.enabled("BD001")
    assert not settings.enabled("BD002")
    assert not settings.enabled("BD003")
    assert Settings().enabled("BD003")


def test_cli_select_replaces_and_ignore_extends(tmp_path: Path) -> None:
    write(tmp_path / "burnlint.toml", 'select = ["BD001", "BD002"]\nignore = ["BD003"]\n')
    overrides = Overrides(select=frozenset({"BD004", "bd005"}), ignore=frozenset({"BD005"}))
    settings = settings_for(tmp_path / "x.rs", KNOWN, overrides)
    assert settings.select == {"BD004", "BD005"}
    assert settings.ignore == {"BD003", "BD005"}
    assert settings.enabled("BD004") and not settings.enabled("BD005")
    assert not settings.enabled("BD001")
    assert settings.origins["select"] == "command line"
    assert settings.origins["ignore"].endswith("burnlint.toml:2 + command line")


def test_cli_era_and_budget_override(tmp_path: Path) -> None:
    write(tmp_path / "burnlint.toml", 'era = "checkpointing"\nbudget = 2\n')
    settings = settings_for(tmp_path / "x.rs", KNOWN, Overrides(era="context", budget=9))
    assert (settings.era, settings.budget) == ("context", 9.0)
    assert settings.origins["era"] == settings.origins["budget"] == "command line"
    unchanged = settings_for(tmp_path / "x.rs", KNOWN)
    assert (unchanged.era, unchanged.budget) == ("checkpointing", 2.0)


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        (Overrides(select=frozenset({"BD999"})), "--select"),
        (Overrides(ignore=frozenset({"nope"})), "--ignore"),
        (Overrides(era="later"), "--era"),
        (Overrides(budget=0), "--budget"),
    ],
)
def test_invalid_cli_overrides(tmp_path: Path, overrides: Overrides, key: str) -> None:
    with pytest.raises(ConfigError) as caught:
        settings_for(tmp_path / "x.rs", KNOWN, overrides)
    assert caught.value.key == key


def test_isolated_ignores_config_files(tmp_path: Path) -> None:
    write(tmp_path / "burnlint.toml", 'era = "checkpointing"\n')
    settings = settings_for(tmp_path / "x.rs", KNOWN, Overrides(isolated=True, budget=3))
    assert settings.era is None and settings.source is None
    assert settings.budget == 3.0 and settings.origins["budget"] == "command line"
    with pytest.raises(ConfigError):
        settings_for(tmp_path, KNOWN, Overrides(isolated=True, config=tmp_path / "burnlint.toml"))


def test_config_flag_skips_discovery(tmp_path: Path) -> None:
    write(tmp_path / "project" / "burnlint.toml", 'era = "checkpointing"\n')
    chosen = write(tmp_path / "ci" / "strict.toml", 'era = "context"\nexclude = ["gen/**"]\n')
    settings = settings_for(tmp_path / "project" / "x.rs", KNOWN, Overrides(config=chosen))
    assert settings.era == "context"
    assert settings.source == chosen and settings.root == chosen.parent
    cargo = write(tmp_path / "ws" / "Cargo.toml", "[workspace.metadata.burnlint]\nbudget = 1\n")
    assert settings_for(tmp_path / "project", KNOWN, Overrides(config=cargo)).budget == 1.0


# -- exclude -------------------------------------------------------------------------------


def test_exclude_globs_are_relative_to_the_config_directory(tmp_path: Path) -> None:
    write(
        tmp_path / "crate" / "burnlint.toml",
        'exclude = ["generated/**", "/benches/*.rs", "build/", "!generated/keep.rs"]\n',
    )
    crate = tmp_path / "crate"
    (crate / "build").mkdir()
    settings = settings_for(crate / "src" / "lib.rs", KNOWN)
    assert is_excluded(settings, crate / "generated" / "ops.rs")
    assert is_excluded(settings, crate / "generated" / "deep" / "ops.rs")
    assert not is_excluded(settings, crate / "generated" / "keep.rs")
    assert is_excluded(settings, crate / "benches" / "speed.rs")
    assert not is_excluded(settings, crate / "src" / "benches" / "speed.rs")
    assert not is_excluded(settings, crate / "benches" / "deep" / "speed.rs")
    assert is_excluded(settings, crate / "build")
    assert is_excluded(settings, crate / "build" / "out.rs")
    assert not is_excluded(settings, crate / "src" / "lib.rs")
    assert not is_excluded(settings, crate)
    # Outside the config directory nothing is excluded.
    assert not is_excluded(settings, tmp_path / "generated" / "ops.rs")
    assert not is_excluded(Settings(exclude=("**",)), crate / "src" / "lib.rs")


def test_exclude_with_relative_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "burnlint.toml", 'exclude = ["generated/**"]\n')
    monkeypatch.chdir(tmp_path)
    settings = settings_for(Path("generated/x.rs"), KNOWN)
    assert settings.origins["exclude"] == "burnlint.toml:1"
    assert is_excluded(settings, Path("generated/x.rs"))
    assert is_excluded(settings, Path("src/../generated/x.rs"))
    assert not is_excluded(settings, Path("src/x.rs"))


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_exclude_through_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real"
    write(real / "burnlint.toml", 'exclude = ["generated/**"]\n')
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    settings = settings_for(real / "x.rs", KNOWN)
    assert is_excluded(settings, link / "generated" / "x.rs")


# -- digest, hashing, caching --------------------------------------------------------------


def test_digest_ignores_key_order_and_origins(tmp_path: Path) -> None:
    one = write(
        tmp_path / "a" / "burnlint.toml",
        'select = ["BD001", "BD004"]\nseverity = { BD004 = "warning", BD001 = "hint" }\n'
        'era = "context"\n',
    )
    two = write(
        tmp_path / "b" / "burnlint.toml",
        '\n\nera = "context"\n[severity]\nBD001 = "hint"\nBD004 = "warning"\n\n[x]\n',
    )
    with pytest.raises(ConfigError):
        load_config(two, KNOWN)
    two.write_text(
        '\n\nera = "context"\nselect = ["BD004", "BD001"]\n'
        '[severity]\nBD001 = "hint"\nBD004 = "warning"\n',
        encoding="utf-8",
    )
    first, second = load_config(one, KNOWN), load_config(two, KNOWN)
    assert first.origins != second.origins
    assert first.digest() == second.digest()
    assert len(first.digest()) == 64 and int(first.digest(), 16) >= 0
    assert first == Settings(
        select=first.select,
        severity=first.severity,
        era="context",
        root=first.root,
        source=first.source,
    )


def test_digest_changes_with_results_affecting_settings() -> None:
    base = Settings()
    variants = [
        Settings(severity={"BD004": "warning"}),
        Settings(severity={"BD004": "info"}),
        Settings(select=frozenset()),
        Settings(ignore=frozenset({"BD001"})),
        Settings(era="context"),
        Settings(budget=1.0),
        Settings(docs_url="https://x/{code}"),
    ]
    digests = {base.digest(), *(v.digest() for v in variants)}
    assert len(digests) == len(variants) + 1
    assert Settings(budget=5).digest() == base.digest()
    assert Settings(exclude=("gen/**",)).digest() == base.digest()


def test_settings_are_hashable_and_picklable(tmp_path: Path) -> None:
    config = write(tmp_path / "burnlint.toml", 'severity = { BD004 = "warning" }\n')
    settings = load_config(config, KNOWN)
    assert hash(settings) == hash(load_config(config, KNOWN))
    assert pickle.loads(pickle.dumps(settings)) == settings
    assert {settings: 1}[settings] == 1
    plain = Settings(severity={"BD004": "warning"}, origins={"era": "default"})
    assert hash(plain) == hash(Settings(severity={"BD004": "warning"}))
    assert isinstance(plain.severity, FrozenMap) and isinstance(plain.origins, FrozenMap)


def test_load_config_is_cached_and_reloads_changed_files(tmp_path: Path) -> None:
    config = write(tmp_path / "burnlint.toml", 'era = "context"\n')
    first = load_config(config, KNOWN)
    assert load_config(config, KNOWN) is first
    config.write_text('era = "checkpointing"\n', encoding="utf-8")
    stat = config.stat()
    os.utime(config, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    second = load_config(config, KNOWN)
    assert second.era == "checkpointing"
    assert second.digest() != first.digest()
    assert settings_for(tmp_path / "x.rs", KNOWN).era == "checkpointing"


# -- rendering -----------------------------------------------------------------------------


def test_render_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(
        tmp_path / "burnlint.toml",
        'select = ["BD004", "BD001"]\n\nseverity = { BD004 = "warning" }\nexclude = ["gen/**"]\n',
    )
    monkeypatch.chdir(tmp_path)
    settings = settings_for(Path("x.rs"), KNOWN, Overrides(era="context"))
    assert render_settings(settings) == (
        "# config: burnlint.toml\n"
        'select = ["BD001", "BD004"]  # burnlint.toml:1\n'
        "ignore = []  # default\n"
        'severity = { BD004 = "warning" }  # burnlint.toml:3\n'
        'exclude = ["gen/**"]  # burnlint.toml:4\n'
        'era = "context"  # command line\n'
        "docs-url = none  # default\n"
        "budget = 5.0  # default\n"
        "max-file-size = 8388608  # default\n"
        "max-files = 50000  # default\n"
    )


def test_render_text_defaults() -> None:
    text = render_settings(Settings())
    assert text.splitlines()[:2] == ["# config: none (defaults)", "select = all  # default"]
    assert "era = auto  # default" in text


def test_render_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(
        tmp_path / "Cargo.toml",
        '[package]\nname = "x"\n[package.metadata.burnlint]\ndocs-url = "https://d/{code}"\n',
    )
    monkeypatch.chdir(tmp_path)
    data = json.loads(render_settings(settings_for(Path("src/lib.rs"), KNOWN), "json"))
    assert data["config"] == "Cargo.toml"
    assert data["settings"] == {
        "select": None,
        "ignore": [],
        "severity": {},
        "exclude": [],
        "era": None,
        "docs-url": "https://d/{code}",
        "budget": 5.0,
        "max-file-size": 8 * 1024 * 1024,
        "max-files": 50_000,
    }
    assert data["origins"]["docs-url"] == "Cargo.toml:4"
    assert data["origins"]["select"] == "default"
    assert json.loads(render_settings(Settings(), "json"))["config"] is None
    with pytest.raises(ValueError, match="unknown format"):
        render_settings(Settings(), "yaml")


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("max-file-size = 1024", 1024),
        ('max-file-size = "8MiB"', 8 * 1024**2),
        ('max-file-size = "2 MB"', 2_000_000),
    ],
)
def test_max_file_size_accepts_bytes_and_units(tmp_path: Path, text: str, size: int) -> None:
    write(tmp_path / "burnlint.toml", text + "\nmax-files = 10\n")
    settings = load_config(tmp_path / "burnlint.toml", KNOWN)
    assert (settings.max_file_size, settings.max_files) == (size, 10)


@pytest.mark.parametrize(
    "text", ['max-file-size = "big"', "max-file-size = 0", "max-files = -1", 'max-files = "10"']
)
def test_resource_bounds_are_validated_with_their_line(tmp_path: Path, text: str) -> None:
    write(tmp_path / "burnlint.toml", "# bounds\n" + text + "\n")
    with pytest.raises(ConfigError) as raised:
        load_config(tmp_path / "burnlint.toml", KNOWN)
    assert raised.value.line == 2
    assert raised.value.key == text.split(" ", maxsplit=1)[0]
