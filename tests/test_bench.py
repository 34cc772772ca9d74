"""The benchmark runs end to end at a tiny size (its timings are never asserted)."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_benchmark_runs_every_measure_on_a_tiny_size() -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "run.py"), "--quick", "--campaigns", "3", "--big", "10,20"],
        check=True, capture_output=True, text=True,
    )
    names = [line.split("  ")[0] for line in result.stdout.splitlines()[1:]]
    from adjudicator.games import GAMES

    expected = ["floor: parse 18 order files", "write floor: create the 33 files the turns add", "pbem adjudicate x3 six-player",
                "floor: parse 10 order files", "write floor: create the 15 files the turns add", "one turn, 10 players",
                "floor: parse 20 order files", "write floor: create the 25 files the turns add", "one turn, 20 players",
                "time(20) / time(10)"]
    expected += [f"pbem audit, {g} demo" for g in sorted(GAMES)]
    expected += ["python -c 'import yaml' (cold)", "pbem check one file (cold)"]
    expected += [f"engine: whole {g} games" for g in sorted(GAMES)]
    assert names == expected, result.stdout
