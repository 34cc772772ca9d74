"""`pip install .` (not editable) gives a working `pbem` that carries its schemas and templates."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_every_python_package_is_listed_for_installation() -> None:
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(REPO).parts)
        for init in (REPO / "adjudicator").rglob("__init__.py")
    }
    assert found <= listed, f"add to pyproject.toml packages: {sorted(found - listed)}"


def test_installed_pbem_runs_a_demo_outside_the_source_tree(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-deps", str(REPO)]
    subprocess.run(pip, check=True, cwd=tmp_path)
    demo = subprocess.run(
        [str(venv / "bin" / "pbem"), "demo", "secrets", str(tmp_path / "campaign"), "--no-passwords"],
        check=True, cwd=tmp_path, capture_output=True, text=True,
    )
    assert "audit: clean" in demo.stdout
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import adjudicator.resources as r; print(r.resource_dir('templates'))"],
        check=True, cwd=tmp_path, capture_output=True, text=True,
    ).stdout
    assert re.search(r"site-packages/adjudicator/templates$", where.strip()), where
