"""The wheel users install: the package, the knowledge base as package data, the licence and
the metadata (licence, project URLs, entry point), and nothing else (no tests, no editors)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
    built = subprocess.run(
        [*command, "--disable-pip-version-check", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    (path,) = out.glob("burnlint-*.whl")
    return zipfile.ZipFile(path)


def test_the_repository_has_a_license() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")


def test_the_wheel_ships_the_license(wheel: zipfile.ZipFile) -> None:
    (license_name,) = [n for n in wheel.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
    assert wheel.read(license_name).decode() == (ROOT / "LICENSE").read_text(encoding="utf-8")


def test_the_wheel_metadata_has_license_urls_and_entry_point(wheel: zipfile.ZipFile) -> None:
    (metadata_name,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
    metadata = Parser().parsestr(wheel.read(metadata_name).decode())
    assert metadata["License-Expression"] == "MIT"
    assert "LICENSE" in metadata.get_all("License-File", [])
    urls = dict(u.split(", ", 1) for u in metadata.get_all("Project-URL", []))
    assert {"Homepage", "Repository", "Issues"} <= set(urls), urls
    assert all(u.startswith("https://github.com/burnlint/burnlint") for u in urls.values())
    (entry_points,) = [n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt")]
    assert "burnlint = burnlint.entry:run" in wheel.read(entry_points).decode()


def test_the_wheel_holds_the_package_and_knowledge_base_only(wheel: zipfile.ZipFile) -> None:
    names = wheel.namelist()
    top = {n.split("/", 1)[0] for n in names}
    assert top == {"burnlint", "burnlint-0.1.0.dist-info"}, top
    for required in ("__init__.py", "py.typed", "cli.py", "lsp/server.py", "analysis/__init__.py"):
        assert f"burnlint/{required}" in names, required
    kb = sorted(p.name for p in (ROOT / "kb").glob("*.md"))
    shipped = sorted(
        n.removeprefix("burnlint/_kb/") for n in names if n.startswith("burnlint/_kb/")
    )
    assert [n for n in shipped if n.endswith(".md")] == kb
    assert not [n for n in names if n.endswith((".pyc", ".vsix", ".whl")) or "/tests/" in n]
