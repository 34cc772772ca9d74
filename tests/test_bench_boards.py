"""The boards' benchmark runs end to end at a tiny size (its timings are never asserted)."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_the_boards_benchmark_runs_every_measure() -> None:
    result = subprocess.run([sys.executable, str(REPO / "bench" / "boards.py"), "--repeat", "1", "--campaigns", "1"],
                            check=True, capture_output=True, text=True)
    names = [line[:66].strip() for line in result.stdout.splitlines()[1:]]
    assert len(names) == 25 + 10 + 8, result.stdout
    assert names[:2] == ["one board, hide, a player, wide", "one board, hide, a player, narrow"]
    assert names[4] == "its paper alone (the pixels' floor), hide"
    assert names[25] == "a turn's mails, hide, 5 players + public"
    assert names[-8:] == [
        "pbem run, 1 five-player campaigns adjudicating, with mails",
        "the same, scaled to 1,000 campaigns, with mails",
        "pbem run, 1 five-player campaigns adjudicating, no board drawn",
        "the same, scaled to 1,000 campaigns, no board drawn",
        "pbem run, 1 five-player campaigns adjudicating, without mails",
        "the same, scaled to 1,000 campaigns, without mails",
        "with mails, --jobs 1: wall time, scaled to 1,000",
        "with mails, --jobs 2: wall time, scaled to 1,000",
    ], result.stdout
    assert result.stderr == "", "no warning on the way"
