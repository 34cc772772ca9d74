"""The judge's benchmark runs end to end at a tiny size (its timings are never asserted)."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_the_judge_benchmark_runs_every_measure() -> None:
    result = subprocess.run([sys.executable, str(REPO / "bench" / "judge.py"), "--campaigns", "3", "--repeat", "1"], check=True, capture_output=True, text=True)
    names = [line.split("  ")[0] for line in result.stdout.splitlines()[1:]]
    assert names == [
        "pbem run, 3 campaigns, nothing to do",
        "python loop: list folders, stat sources, 3 campaigns",
        "pbem run, 3 campaigns, one new message each",
        "pbem run, 3 campaigns sharing one mbox, nothing to do",
        "python loop over those, stat the one mbox each",
        "ratio: nothing to do / python loop",
        "ratio: sharing one mbox, nothing to do / python loop",
    ], result.stdout
