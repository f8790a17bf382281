"""Cargo targets as crates: which target a file of a package is compiled in, and its module
path there (`project.target_module`), from the layout Cargo discovers targets by."""

from __future__ import annotations

from pathlib import Path

import pytest

from burnlint.project import main_folders, path_modules, target_module

ROOT = Path("/ws/pkg")
LAYOUT = [
    "src/lib.rs",
    "src/main.rs",
    "src/model/mod.rs",
    "src/model/head.rs",
    "src/bin/single.rs",
    "src/bin/tool/main.rs",
    "src/bin/tool/util.rs",
    "examples/quick.rs",
    "examples/train/main.rs",
    "examples/train/data.rs",
    "examples/train/nets/mod.rs",
    "examples/train/nets/mlp.rs",
    "examples/common/mod.rs",
    "examples/common/cli.rs",
    "tests/roundtrip.rs",
    "tests/common/mod.rs",
    "tests/suite/main.rs",
    "tests/suite/cases.rs",
    "benches/speed.rs",
    "build.rs",
]


@pytest.mark.parametrize(
    ("path", "target", "module"),
    [
        # The library and `src/main.rs` are the package's own crate.
        ("src/lib.rs", None, ("crate",)),
        ("src/main.rs", None, ("crate",)),
        ("src/model/mod.rs", None, ("crate", "model")),
        ("src/model/head.rs", None, ("crate", "model", "head")),
        ("build.rs", None, ("crate",)),
        # A folder with a `main.rs` is a target; its files are that crate's modules.
        ("examples/train/main.rs", "examples/train", ("crate",)),
        ("examples/train/data.rs", "examples/train", ("crate", "data")),
        ("examples/train/nets/mod.rs", "examples/train", ("crate", "nets")),
        ("examples/train/nets/mlp.rs", "examples/train", ("crate", "nets", "mlp")),
        ("src/bin/tool/main.rs", "src/bin/tool", ("crate",)),
        ("src/bin/tool/util.rs", "src/bin/tool", ("crate", "util")),
        ("tests/suite/main.rs", "tests/suite", ("crate",)),
        ("tests/suite/cases.rs", "tests/suite", ("crate", "cases")),
        # Single-file targets of a folder, and the folders they share, are one crate per folder.
        ("examples/quick.rs", "examples", ("crate",)),
        ("examples/common/mod.rs", "examples", ("crate", "common")),
        ("examples/common/cli.rs", "examples", ("crate", "common", "cli")),
        ("tests/roundtrip.rs", "tests", ("crate",)),
        ("tests/common/mod.rs", "tests", ("crate", "common")),
        ("src/bin/single.rs", "src/bin", ("crate",)),
        ("benches/speed.rs", "benches", ("crate",)),
    ],
)
def test_target_and_module(path: str, target: str | None, module: tuple[str, ...]) -> None:
    mains = main_folders(ROOT, (ROOT / p for p in LAYOUT))
    assert target_module(ROOT, ROOT / path, mains) == (target, module)


def test_main_folders_are_the_target_folders_with_a_main() -> None:
    assert main_folders(ROOT, (ROOT / p for p in LAYOUT)) == {
        ("examples", "train"),
        ("src/bin", "tool"),
        ("tests", "suite"),
    }


def test_a_file_outside_the_package_is_its_root() -> None:
    assert target_module(ROOT, Path("/elsewhere/x.rs"), frozenset()) == (None, ("crate",))


def test_code_several_targets_include_is_a_module_of_each_once() -> None:
    root = ROOT
    include = '#[path = "../common/mod.rs"]\nmod common;\n'
    files = {
        root / "examples/a/main.rs": include,
        root / "examples/b/main.rs": include,
        root / "examples/common/mod.rs": "pub mod device;\n",
        root / "examples/common/device.rs": "",
        root / "benches/x.rs": '#[path = "common/mod.rs"]\nmod common;\n',
        root / "benches/y.rs": '#[path = "common/mod.rs"]\nmod common;\n',
        root / "benches/common/mod.rs": "",
    }
    mains = main_folders(root, files)
    modules = {path: target_module(root, path, mains)[1] for path in files}
    keys = {path: target_module(root, path, mains)[0] for path in files}
    modules = {path: (str(keys[path]), *module[1:]) for path, module in modules.items()}
    copies = path_modules(files, modules)
    # The first includer (by path) has the shared code, its submodule following it.
    assert modules[root / "examples/common/mod.rs"] == ("examples/a", "common")
    assert modules[root / "examples/common/device.rs"] == ("examples/a", "common", "device")
    # The second gets a copy of each file; the bench files, one crate, include it once.
    assert copies == {
        root / "examples/common/mod.rs": [("examples/b", "common")],
        root / "examples/common/device.rs": [("examples/b", "common", "device")],
    }
    assert modules[root / "benches/common/mod.rs"] == ("benches", "common")
