"""`pip install .` (not editable) gives a working `pbem` that carries its schemas and templates.

The test's own venv must see the dependencies of the interpreter running the tests, wherever they
were installed: in the base interpreter (CI's bare Python) or in an outer virtual environment
(README's commands run inside one). `--system-site-packages` reaches only the base interpreter's,
so the running interpreter's own site folders are added to the venv by a .pth file.
"""

from __future__ import annotations

import re
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _venv(where: Path, *, outer_packages: bool) -> Path:
    """A venv with pbem installed without its dependencies; with `outer_packages`, it sees the ones
    the tests run with."""
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    python = where / "bin" / "python"
    inner = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                           check=True, capture_output=True, text=True).stdout.strip()
    ours = [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], *site.getsitepackages()]
    if site.ENABLE_USER_SITE:
        ours.append(site.getusersitepackages())
    lines = [p for p in dict.fromkeys(ours) if Path(p).is_dir()] if outer_packages else []
    Path(inner, "outer-site.pth").write_text("".join(f"{p}\n" for p in lines), encoding="utf-8")
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(REPO)], check=True, cwd=where.parent)
    return python


def _pbem(python: Path) -> list[str]:
    return [str(python.parent / "pbem")]


def test_installed_pbem_runs_a_demo_outside_the_source_tree(tmp_path: Path) -> None:
    python = _venv(tmp_path / "venv", outer_packages=True)
    from adjudicator.games import GAMES

    for game_id in sorted(GAMES):  # every game's module, schemas and templates made it into the install
        demo = subprocess.run(
            [*_pbem(python), "demo", game_id, str(tmp_path / game_id), "--no-passwords"],
            check=True, cwd=tmp_path, capture_output=True, text=True,
        )
        assert "audit: clean" in demo.stdout, demo.stdout
    where = subprocess.run(
        [str(python), "-c", "import adjudicator.common.resources as r; print(r.resource_dir('templates'))"],
        check=True, cwd=tmp_path, capture_output=True, text=True,
    ).stdout
    assert re.search(r"site-packages/adjudicator/templates$", where.strip()), where


def test_a_missing_dependency_is_named_not_blamed_on_the_campaign(tmp_path: Path) -> None:
    python = _venv(tmp_path / "bare", outer_packages=False)
    run = subprocess.run([*_pbem(python), "demo", "secrets", str(tmp_path / "demo")],
                         cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert "is not installed" in run.stderr and "pip install" in run.stderr, run.stderr
    assert "damaged" not in run.stderr and "Traceback" not in run.stderr, run.stderr
