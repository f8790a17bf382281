"""Where the burn era comes from, through the real CLI in a subprocess: the burn-dispatch source
cargo downloaded (a fake `CARGO_HOME` holding one of each era), the lock file cargo would use
(the workspace root's, not a stale member lock), and requirement strings in `Cargo.toml`;
`config` and `check --verbose` say which era and why."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from burnlint.eras import CHECKPOINTING, CONTEXT, GENERIC, era_from_version

ROOT = Path(__file__).resolve().parents[2]
STALE_WORKSPACE = ROOT / "tests" / "corpus" / "crates" / "workspace_stale_lock"
REGISTRY = "registry+https://github.com/rust-lang/crates.io-index"
COMMIT = "1893b608d1c70d286e4de89f852308d56b3270ea"

# `DispatchTensor` as each burn-dispatch shipped it (see the research notes on burn's history).
GENERIC_ENUM = """#[derive(Clone, Debug)]
pub enum DispatchTensor {
    Flex(BackendTensor<Flex>),
    Autodiff(Box<DispatchTensor>),
}
"""
GENERIC_CRATE_FIELDS = """#[derive(Clone, Debug)]
pub struct DispatchTensor {
    pub(crate) kind: DispatchTensorKind,
    pub(crate) checkpointing: CheckpointingStrategy,
}
"""
CHECKPOINTING_OLD_NAME = """#[derive(Clone, Debug)]
pub struct DispatchTensor {
    /// The backend tensor.
    pub kind: DispatchTensorKind,
    /// Carry autodiff intent via checkpointing field: None when not tracked.
    pub checkpointing: Option<CheckpointingStrategy>,
}
"""
CHECKPOINTING_NEW_NAME = """#[derive(Clone, Debug)]
pub struct DispatchTensor {
    pub kind: DispatchTensorKind,
    /// None: not tracked by autodiff; Some(strategy): tracked, uses `strategy`
    pub checkpointing: Option<GradientCheckpointingStrategy>,
}
"""
CONTEXT_FIELDS = """/// A tensor of the dispatch backend { with braces in its docs }.
#[derive(Clone, Debug)]
pub struct DispatchTensor {
    pub kind: DispatchTensorKind,
    #[doc = "backend metadata"]
    pub autodiff: DispatchAutodiffContext,
}
"""

# Fires BD005 in the checkpointing era only: `from_inner` wraps an autodiff tensor again there,
# is idempotent in the context era, and no rule runs in the generic era.
LIFT_AUTODIFF = """use burn::tensor::{Device, Distribution, Tensor};

pub fn as_param() -> Tensor<2> {
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &Device::default().autodiff());
    Tensor::<2>::from_inner(w)
}
"""


def run(*args: str, cwd: Path, cargo_home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "burnlint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "NO_COLOR": "1", "CARGO_HOME": str(cargo_home)},
        timeout=120,
        check=False,
    )


def crate(
    root: Path,
    requirement: str = '"0.22"',
    lock: tuple[str, str] | None = None,
    name: str = "probe",
) -> Path:
    """A crate depending on burn with `requirement`; `lock` is (burn-dispatch version, source)."""
    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "Cargo.toml").write_text(
        f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n\n'
        f"[dependencies]\nburn = {requirement}\n",
        encoding="utf-8",
    )
    if lock is not None:
        (root / "Cargo.lock").write_text(
            f'version = 4\n\n[[package]]\nname = "burn-dispatch"\nversion = "{lock[0]}"\n'
            f'source = "{lock[1]}"\n\n[[package]]\nname = "{name}"\nversion = "0.1.0"\n',
            encoding="utf-8",
        )
    (root / "src" / "lib.rs").write_text(LIFT_AUTODIFF, encoding="utf-8")
    return root


def registry_source(home: Path, version: str, tensor_rs: str, file: str = "tensor.rs") -> Path:
    """A burn-dispatch crate as cargo unpacks it from crates.io."""
    src = (
        home / "registry" / "src" / "index.crates.io-1949cf8c6b5b557f" / f"burn-dispatch-{version}"
    )
    path = src / "src" / file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"use crate::backend::*;\n\n{tensor_rs}", encoding="utf-8")
    (src / "src" / "lib.rs").write_text("pub mod tensor;\n", encoding="utf-8")
    return path


def git_checkout(home: Path, folder: str, tensor_rs: str) -> Path:
    """burn checked out by cargo from git at the commit abbreviated as `folder`."""
    path = home / "git" / "checkouts" / "burn-ae45c1da4a5b2ea4" / folder
    path = path / "crates" / "burn-dispatch" / "src" / "tensor.rs"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(tensor_rs, encoding="utf-8")
    return path


def detected(folder: Path, home: Path) -> list[dict[str, str]]:
    result = run("config", ".", "--format", "json", cwd=folder, cargo_home=home)
    assert result.returncode == 0, result.stderr
    eras: list[dict[str, str]] = json.loads(result.stdout)["crate_eras"]
    return eras


@pytest.mark.parametrize(
    ("version", "tensor_rs", "era", "said"),
    [
        ("0.21.0", GENERIC_CRATE_FIELDS, GENERIC, "not public (pub(crate) kind"),
        ("0.21.0", GENERIC_ENUM, GENERIC, "is an enum"),
        ("0.22.0-pre.2", CHECKPOINTING_OLD_NAME, CHECKPOINTING, "Option<CheckpointingStrategy>"),
        (
            "0.22.0-pre.3",
            CHECKPOINTING_NEW_NAME,
            CHECKPOINTING,
            "Option<GradientCheckpointingStrategy>",
        ),
        ("0.22.0-pre.4", CONTEXT_FIELDS, CONTEXT, "pub autodiff: DispatchAutodiffContext"),
    ],
)
def test_the_downloaded_registry_source_decides_the_era(
    tmp_path: Path, version: str, tensor_rs: str, era: str, said: str
) -> None:
    home = tmp_path / "cargo-home"
    file = registry_source(home, version, tensor_rs)
    probe = crate(tmp_path / "probe", f'"={version}"', (version, REGISTRY))
    [found] = detected(probe, home)
    assert found["era"] == era, found
    assert str(file) in found["reason"] and said in found["reason"], found
    check = run("check", ".", "--no-cache", "--verbose", cwd=probe, cargo_home=home)
    assert f"crate `probe` (Cargo.toml): era {era} ({found['reason']}); 1 file" in check.stderr
    # The era decides the findings: only the checkpointing era lifts `w` again.
    assert ("BD005" in check.stdout) == (era == CHECKPOINTING), check.stdout
    assert check.returncode == (1 if era == CHECKPOINTING else 0), check.stderr


def test_the_source_is_the_truth_over_the_version_table(tmp_path: Path) -> None:
    # The lock says 0.22.0-pre.4 (context by the table) but the source cargo unpacked has the
    # `checkpointing` field: the source wins, and it names the file, in another folder than
    # `tensor.rs`.
    home = tmp_path / "cargo-home"
    file = registry_source(home, "0.22.0-pre.4", CHECKPOINTING_NEW_NAME, "types/dispatch.rs")
    probe = crate(tmp_path / "probe", '"0.22.0-pre.4"', ("0.22.0-pre.4", REGISTRY))
    [found] = detected(probe, home)
    assert found["era"] == CHECKPOINTING and str(file) in found["reason"], found
    # Without the download the version table decides.
    [table] = detected(probe, tmp_path / "empty-home")
    assert table["era"] == CONTEXT and "0.22.0-pre.4 in Cargo.lock" in table["reason"], table


@pytest.mark.parametrize("folder", [COMMIT[:7], COMMIT[:12]])
def test_a_git_checkout_decides_what_its_version_cannot(tmp_path: Path, folder: str) -> None:
    # burn's main said 0.21.0 while its API was the `checkpointing` one: the version does not
    # decide the era, the checkout cargo made (named by a prefix of the commit) does.
    home = tmp_path / "cargo-home"
    file = git_checkout(home, folder, CHECKPOINTING_NEW_NAME)
    git_checkout(home, "0000000", CONTEXT_FIELDS)  # another commit: never read
    source = f"git+https://github.com/tracel-ai/burn.git?rev={COMMIT[:8]}#{COMMIT}"
    probe = crate(
        tmp_path / "probe", '{ git = "https://github.com/tracel-ai/burn" }', ("0.21.0", source)
    )
    [found] = detected(probe, home)
    assert found["era"] == CHECKPOINTING and str(file) in found["reason"], found
    [undecided] = detected(probe, tmp_path / "empty-home")
    assert "does not decide" in undecided["reason"], undecided


def test_a_git_checkout_of_the_context_era(tmp_path: Path) -> None:
    home = tmp_path / "cargo-home"
    git_checkout(home, COMMIT[:7], CONTEXT_FIELDS)
    source = f"git+https://github.com/tracel-ai/burn?branch=main#{COMMIT}"
    probe = crate(
        tmp_path / "probe",
        '{ git = "https://github.com/tracel-ai/burn" }',
        ("0.22.0-pre.3", source),
    )
    [found] = detected(probe, home)
    assert found["era"] == CONTEXT, found


@pytest.mark.parametrize(
    ("requirement", "era"),
    [
        ('"0.20"', GENERIC),
        ('"^0.21"', GENERIC),
        ('{ version = "0.21.0", features = ["autodiff"] }', GENERIC),
        ('"=0.22.0-pre.1"', CHECKPOINTING),
        ('"=0.22.0-pre.2"', CHECKPOINTING),
        ('"=0.22.0-pre.3"', CHECKPOINTING),
        ('"=0.22.0-pre.4"', CONTEXT),
        ('"0.22.0"', CONTEXT),
    ],
)
def test_requirement_strings_without_a_lock(tmp_path: Path, requirement: str, era: str) -> None:
    probe = crate(tmp_path / "probe", requirement)
    [found] = detected(probe, tmp_path / "empty-home")
    assert found["era"] == era, found
    assert "in Cargo.toml" in found["reason"], found


def test_era_from_version_reads_requirements() -> None:
    for version in ("0.20", "^0.20.1", "0.21", "^0.21", "0.9.0", "0.21.0"):
        assert era_from_version(version) == GENERIC, version
    for pre in (1, 2, 3):
        assert era_from_version(f"=0.22.0-pre.{pre}") == CHECKPOINTING
    for version in ("=0.22.0-pre.4", "0.22.0-pre.5", "0.22.0", "0.22", "^0.23"):
        assert era_from_version(version) == CONTEXT, version


def test_workspace_true_reads_the_workspace_dependency(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "Cargo.toml").write_text(
        '[workspace]\nmembers = ["crates/*"]\n\n[workspace.dependencies]\n'
        'burn = { version = "=0.22.0-pre.2", default-features = false }\n',
        encoding="utf-8",
    )
    crate(root / "crates" / "model", '{ workspace = true, features = ["autodiff"] }', name="model")
    crate(root / "crates" / "old", '"0.20"', name="old")
    (root / "crates" / "tool" / "src").mkdir(parents=True)
    (root / "crates" / "tool" / "Cargo.toml").write_text(
        '[package]\nname = "tool"\nversion = "0.1.0"\n', encoding="utf-8"
    )
    eras = {e["crate"]: e for e in detected(root, tmp_path / "empty-home")}
    # One line per member that depends on burn: `tool` does not.
    assert sorted(eras) == ["model", "old"], eras
    assert eras["model"]["era"] == CHECKPOINTING, eras
    assert "0.22.0-pre.2 in Cargo.toml" in eras["model"]["reason"]
    assert eras["old"]["era"] == GENERIC
    text = run("config", ".", cwd=root, cargo_home=tmp_path / "empty-home").stdout
    assert "# detected era of `model` (crates/model/Cargo.toml): checkpointing (burn" in text
    assert "# detected era of `old` (crates/old/Cargo.toml): generic (burn 0.20" in text


def test_the_workspace_lock_wins_over_a_stale_member_lock(tmp_path: Path) -> None:
    home = tmp_path / "empty-home"
    member = STALE_WORKSPACE / "model"
    [found] = detected(member, home)
    assert found["era"] == CHECKPOINTING, found
    assert "0.22.0-pre.2 in the workspace's Cargo.lock" in found["reason"], found
    [listed] = detected(STALE_WORKSPACE, home)
    assert listed["crate"] == "model" and listed["era"] == CHECKPOINTING, listed
    check = run(
        "check",
        ".",
        "--no-cache",
        "--verbose",
        "--format",
        "json",
        cwd=STALE_WORKSPACE,
        cargo_home=home,
    )
    document = json.loads(check.stdout)
    assert [f["code"] for f in document["findings"]] == ["BD005"], document
    assert "crate `model` (model/Cargo.toml): era checkpointing (burn 0.22.0-pre.2" in check.stderr
    # --verbose leaves the JSON on stdout as it is.
    quiet = run(
        "check", ".", "--no-cache", "--format", "json", cwd=STALE_WORKSPACE, cargo_home=home
    )
    assert json.loads(quiet.stdout) == document and quiet.stderr == ""


def test_an_excluded_crate_and_a_crate_outside_any_workspace_use_their_own_lock(
    tmp_path: Path,
) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "Cargo.toml").write_text(
        '[workspace]\nmembers = ["model"]\nexclude = ["vendored"]\n', encoding="utf-8"
    )
    (root / "Cargo.lock").write_text(
        f'version = 4\n\n[[package]]\nname = "burn-dispatch"\nversion = "0.22.0-pre.2"\n'
        f'source = "{REGISTRY}"\n',
        encoding="utf-8",
    )
    crate(root / "model", '"=0.22.0-pre.2"', name="model")
    vendored = crate(root / "vendored", '"0.22"', ("0.22.0-pre.4", REGISTRY), name="vendored")
    home = tmp_path / "empty-home"
    [found] = detected(vendored, home)
    assert found["era"] == CONTEXT and "0.22.0-pre.4 in Cargo.lock" in found["reason"], found
    alone = crate(tmp_path / "alone", '"0.22"', ("0.21.0", REGISTRY), name="alone")
    [found] = detected(alone, home)
    assert found["era"] == GENERIC and "0.21.0 in Cargo.lock" in found["reason"], found


def test_a_lock_with_burn_but_no_burn_dispatch_is_older_burn(tmp_path: Path) -> None:
    probe = crate(tmp_path / "probe", '{ git = "https://github.com/tracel-ai/burn" }')
    (probe / "Cargo.lock").write_text(
        'version = 3\n\n[[package]]\nname = "burn"\nversion = "0.13.2"\n'
        'source = "git+https://github.com/tracel-ai/burn#0123456789abcdef"\n',
        encoding="utf-8",
    )
    [found] = detected(probe, tmp_path / "empty-home")
    assert found["era"] == GENERIC and "without burn-dispatch" in found["reason"], found


# burn <= 0.21 code: a backend before the dimension. Read as context-era code it fires BD009
# (`backward` on a tensor of a plain device); in burn <= 0.21 it does not even compile unless
# `B` is an autodiff backend.
GENERIC_CODE = """use burn::tensor::{Device, Distribution, Tensor};

/// From 0.22 this would be `Tensor<2>`; in comments the old shape proves nothing.
pub fn plain_device_loss() {
    let device = Device::default();
    let w: Tensor<B, 2> = Tensor::random([4, 4], Distribution::Default, &device);
    let _grads = w.powf_scalar(2.0).sum().backward();
}
"""


def test_the_code_decides_generic_when_nothing_else_does(tmp_path: Path) -> None:
    """No lock, no version (a path dependency), no dispatch field in the code: a tensor type
    written `Tensor<B, 2>` is burn <= 0.21's, so no dispatch rule runs and the reason says
    what was read."""
    probe = crate(tmp_path / "probe", '{ path = "../burn" }')
    (probe / "src" / "lib.rs").write_text(GENERIC_CODE, encoding="utf-8")
    [found] = detected(probe, tmp_path / "empty-home")
    assert found["era"] == GENERIC, found
    assert "`Tensor<B, 2>`" in found["reason"], found
    checked = run("check", ".", "--format", "json", cwd=probe, cargo_home=tmp_path / "empty-home")
    report = json.loads(checked.stdout)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert [e["era"] for e in report["eras"]] == [GENERIC]
    assert report["findings"] == []
    forced = run("check", ".", "--era", "context", cwd=probe, cargo_home=tmp_path / "empty-home")
    assert "BD009" in forced.stdout, forced.stdout + forced.stderr


def test_the_generic_shape_in_comments_or_beside_dispatch_code_decides_nothing(
    tmp_path: Path,
) -> None:
    """burn's own 0.22 sources still write `Tensor<B, 1, Bool>` in doc comments, and a file
    that names the context API is context-era code whatever else it writes."""
    probe = crate(tmp_path / "probe", '{ path = "../burn" }')
    commented = "/// Was `Tensor<B, 1, Bool>` before 0.22.\n" + GENERIC_CODE.replace(
        "Tensor<B, 2>", "Tensor<2>"
    )
    (probe / "src" / "lib.rs").write_text(commented, encoding="utf-8")
    [found] = detected(probe, tmp_path / "empty-home")
    assert found["era"] == CONTEXT, found
    (probe / "src" / "lib.rs").write_text(
        GENERIC_CODE
        + "pub fn off() -> DispatchAutodiffContext { DispatchAutodiffContext::Disabled }\n",
        encoding="utf-8",
    )
    [found] = detected(probe, tmp_path / "empty-home")
    assert found["era"] == CONTEXT, found
