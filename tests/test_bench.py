"""The benchmark runs end to end at a tiny size (its timings are never asserted)."""

import os
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

    sys.path.insert(0, str(REPO / "bench"))
    from run import STAGES

    cores = len(os.sched_getaffinity(0))
    expected = []
    for floor, files, label in (("18", "33", "pbem adjudicate x3 six-player"), ("10", "15", "one turn, 10 players"), ("20", "25", "one turn, 20 players")):
        expected += [f"floor: parse {floor} order files", f"write floor: create the {files} files the turns add", label]
        expected += [f"{label}, --jobs {cores}"] if cores > 1 else []
        if label.startswith("pbem adjudicate"):  # the stage breakdowns follow the batch
            for what, count in (("6-player campaigns", 6), ("one 10-player turn", 10)):
                expected += [f"stages, {what}: floor, parse {count} order files"]
                expected += [f"stages, {what}: {stage}" for stage, _, _ in STAGES]
                expected += [f"stages, {what}: the rest (locks, turn logic, manifest hashes, ...)", f"stages, {what}: total"]
                expected += [f"stages, {what}: contract floor (parse + write floor + rendering)"]
    expected += ["time(20) / time(10)"]
    expected += [f"pbem audit, {g} demo" for g in sorted(GAMES)]
    expected += ["python -c 'import yaml' (cold)", "pbem check one file (cold)"]
    expected += [f"engine: whole {g} games" for g in sorted(GAMES)]
    expected += ["pbem ingest 50 new messages, 0 recorded", "pbem ingest 50 new messages, 1000 recorded"]
    assert names == expected, result.stdout
