"""The benchmark runs end to end at a tiny size (its timings are never asserted)."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_benchmark_runs_on_a_tiny_batch() -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "run.py"), "--campaigns", "3", "--repeat", "1"],
        check=True, capture_output=True, text=True,
    )
    rows = [line.split()[0] for line in result.stdout.splitlines()[1:]]
    assert rows == ["floor:", "one", "pbem"], result.stdout
