"""The real CLI in a subprocess: an analysis that stops on its budget is never silent, and the
burn era is decided from the lock file (and shown by `config` and the JSON report)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LIB = """use burn::tensor::{Device, Tensor};

mod heavy;

pub fn entry(device: &Device) -> Tensor<2> {
    let x = Tensor::<2>::zeros([2, 2], &device.clone().autodiff());
    heavy::churn(x)
}
"""


LIFT_AUTODIFF = """use burn::tensor::{Device, Distribution, Tensor};

pub fn as_param() -> Tensor<2> {
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &Device::default().autodiff());
    Tensor::<2>::from_inner(w)
}
"""


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "burnlint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "NO_COLOR": "1"},
        timeout=120,
        check=False,
    )


def _crate(root: Path, lock_version: str = "0.22.0-pre.4", source: str = "registry") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "Cargo.toml").write_text(
        '[package]\nname = "probe"\nversion = "0.1.0"\nedition = "2021"\n\n'
        '[dependencies]\nburn = { version = "0.22", features = ["autodiff"] }\n',
        encoding="utf-8",
    )
    origin = (
        "registry+https://github.com/rust-lang/crates.io-index"
        if source == "registry"
        else "git+https://github.com/tracel-ai/burn?rev=abc#abcdef"
    )
    (root / "Cargo.lock").write_text(
        f'version = 4\n\n[[package]]\nname = "burn-dispatch"\nversion = "{lock_version}"\n'
        f'source = "{origin}"\n',
        encoding="utf-8",
    )
    (root / "src").mkdir(exist_ok=True)
    return root


def _heavy(rounds: int) -> str:
    """A long helper the target file calls: enough work to outlast a tiny budget."""
    body = "\n".join(f"    let x{i} = x{i - 1}.clone().inner();" for i in range(1, rounds))
    return (
        "use burn::tensor::Tensor;\n\npub fn churn(x0: Tensor<2>) -> Tensor<2> {\n"
        f"{body}\n    Tensor::from_inner(x{rounds - 1})\n}}\n"
    )


def test_a_budget_stop_in_a_context_file_is_reported_for_a_single_target(tmp_path: Path) -> None:
    crate = _crate(tmp_path / "probe")
    (crate / "src" / "lib.rs").write_text(LIB, encoding="utf-8")
    (crate / "src" / "heavy.rs").write_text(_heavy(400), encoding="utf-8")
    # Only lib.rs is checked; heavy.rs is read for its summary and runs out of the budget.
    result = run(
        "check", "src/lib.rs", "--budget", "0.000001", "--no-cache", "--format", "json", cwd=crate
    )
    document = json.loads(result.stdout)
    stops = [p for p in document["problems"] if "analysis stopped" in p]
    assert stops, document
    assert "heavy.rs" in stops[0] and "read for context" in stops[0]
    assert result.returncode == 2, result.stderr
    text = run("check", "src/lib.rs", "--budget", "0.000001", "--no-cache", cwd=crate)
    assert text.returncode == 2
    assert "analysis stopped in `churn`" in text.stderr
    # With the default budget the same check completes: no problem, exit 0 or 1.
    complete = run("check", "src/lib.rs", "--no-cache", "--format", "json", cwd=crate)
    assert json.loads(complete.stdout)["problems"] == []
    assert complete.returncode in (0, 1)


def test_burn_021_is_the_generic_era_where_no_rule_runs(tmp_path: Path) -> None:
    crate = _crate(tmp_path / "old", lock_version="0.21.0")
    (crate / "src" / "lib.rs").write_text(LIFT_AUTODIFF, encoding="utf-8")
    result = run("check", ".", "--no-cache", "--format", "json", cwd=crate)
    document = json.loads(result.stdout)
    assert result.returncode == 0, result.stderr
    assert document["findings"] == []
    [era] = document["eras"]
    assert era["era"] == "generic" and "0.21.0" in era["era_reason"]
    shown = run("config", ".", cwd=crate).stdout
    assert "# detected era: generic (burn 0.21.0 in Cargo.lock" in shown
    # The same code in the checkpointing era lifts an autodiff tensor again (BD005).
    forced = run("check", ".", "--no-cache", "--era", "checkpointing", cwd=crate)
    assert forced.returncode == 1 and "BD005" in forced.stdout


def test_pre_releases_1_and_2_are_the_checkpointing_era(tmp_path: Path) -> None:
    for version in ("0.22.0-pre.1", "0.22.0-pre.2"):
        crate = _crate(tmp_path / version, lock_version=version, source="git")
        (crate / "src" / "lib.rs").write_text(
            "use burn::backend::autodiff::checkpoint::strategy::BalancedCheckpointing;\n"
            "use burn::backend::autodiff::grads::Gradients;\n",
            encoding="utf-8",
        )
        shown = json.loads(run("config", ".", "--format", "json", cwd=crate).stdout)
        assert shown["detected_era"]["era"] == "checkpointing", shown
        assert version in shown["detected_era"]["reason"]


def test_module_paths_named_autodiff_do_not_vote_for_the_context_era(tmp_path: Path) -> None:
    # A git revision carrying 0.21.0 does not decide the era; the code does, and
    # `burn::backend::autodiff::...` paths are no `autodiff:` field.
    crate = _crate(tmp_path / "git", lock_version="0.21.0", source="git")
    (crate / "src" / "lib.rs").write_text(
        "use burn::backend::autodiff::grads::Gradients;\n"
        "use burn::backend::autodiff::checkpoint::base::Checkpointer;\n"
        "use burn::backend::autodiff::NodeId;\n"
        "pub fn f(t: DispatchTensor) -> Option<GradientCheckpointingStrategy> {\n"
        "    t.checkpointing\n}\n",
        encoding="utf-8",
    )
    shown = json.loads(run("config", ".", "--format", "json", cwd=crate).stdout)
    assert shown["detected_era"]["era"] == "checkpointing", shown
    assert "does not decide" in shown["detected_era"]["reason"]
