"""CI (`.ci/run`) packages the VS Code extension once and hands that .vsix to the end-to-end
script, which then builds none of its own."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
E2E = (ROOT / "editors" / "vscode" / "scripts" / "e2e.sh").read_text(encoding="utf-8")
PACKAGE = re.compile(r"npm run (?:-s )?package\b")


def test_ci_packages_the_extension_once() -> None:
    assert len(PACKAGE.findall(CI)) == 1
    (e2e_line,) = [line for line in CI.splitlines() if "scripts/e2e.sh" in line]
    assert 'BURNLINT_VSIX="$VSIX"' in e2e_line


def test_the_e2e_script_builds_only_without_a_given_vsix() -> None:
    # The script's one build is in the branch taken when BURNLINT_VSIX is empty.
    (build,) = [m.start() for m in PACKAGE.finditer(E2E)]
    branch = E2E.rindex('if [ -n "${BURNLINT_VSIX:-}" ]; then', 0, build)
    between = E2E[branch:build]
    assert "\nelse\n" in between and "\nfi\n" not in between


def test_the_vsix_ci_hands_over_is_the_one_packaging_writes() -> None:
    (assignment,) = [line for line in CI.splitlines() if line.startswith("VSIX=")]
    shown = subprocess.run(
        ["bash", "-c", f'{assignment}\nprintf %s "$VSIX"'],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    version = json.loads((ROOT / "editors/vscode/package.json").read_text(encoding="utf-8"))[
        "version"
    ]
    # scripts/package.mjs writes burnlint-<version>.vsix next to package.json.
    assert "const vsix = `burnlint-${pkg.version}.vsix`;" in (
        ROOT / "editors/vscode/scripts/package.mjs"
    ).read_text(encoding="utf-8")
    assert shown == f"{ROOT}/editors/vscode/burnlint-{version}.vsix"
