"""`pip install .` (not editable) gives a working `pbem` that carries its schemas and templates."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_installed_pbem_runs_a_demo_outside_the_source_tree(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-deps", str(REPO)]
    subprocess.run(pip, check=True, cwd=tmp_path)
    from adjudicator.games import GAMES

    for game_id in sorted(GAMES):  # every game's module, schemas and templates made it into the install
        demo = subprocess.run(
            [str(venv / "bin" / "pbem"), "demo", game_id, str(tmp_path / game_id), "--no-passwords"],
            check=True, cwd=tmp_path, capture_output=True, text=True,
        )
        assert "audit: clean" in demo.stdout, demo.stdout
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import adjudicator.common.resources as r; print(r.resource_dir('templates'))"],
        check=True, cwd=tmp_path, capture_output=True, text=True,
    ).stdout
    assert re.search(r"site-packages/adjudicator/templates$", where.strip()), where
