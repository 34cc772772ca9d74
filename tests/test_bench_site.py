"""bench/site.py runs end to end at a tiny size (its timings are never asserted)."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_site_benchmark_runs_on_a_tiny_size() -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "site.py"), "--quick", "--players", "5,10", "--campaigns", "2", "--turns", "1"],
        check=True, capture_output=True, text=True,
    )
    lines = result.stdout.splitlines()
    assert [line[:52].rstrip() for line in lines[1:4]] == [
        "pbem site, one 5-player campaign, 1 turns",
        "pbem site, one 10-player campaign, 1 turns",
        "pbem site x2 six-player campaigns, 1 turns",
    ], result.stdout
    assert lines[1].split()[-3] == "3", "the opening, turn 1 and the index"
    assert lines[-1].startswith("time(10) / time(5) = ")
