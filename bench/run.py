"""Benchmark: one 6-player Secrets turn, and one `pbem adjudicate` over a batch of campaigns.

    python bench/run.py                    # 1,000 six-player campaigns, 3 repetitions
    python bench/run.py --campaigns 20     # a quick look

Campaigns are generated from a seed (same seed, same campaigns and orders) and
played without passwords: a password check is a deliberately slow scrypt hash
(about 60 ms), which would swamp everything else measured here. The floor is
reading the same order files and parsing them with libyaml's C safe loader in
one process, measured in the same run. Results go to stdout as a table.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from adjudicator.adjudicate import adjudicate  # noqa: E402
from adjudicator.demo import write_demo_orders  # noqa: E402
from adjudicator.campaign import Campaign  # noqa: E402
from adjudicator.new import create  # noqa: E402


def make_campaigns(root: Path, count: int, players: int) -> list[Path]:
    """One campaign created properly, copied `count` times, each with its own seeded orders."""
    template = root / "template"
    create(template, "secrets", [{"id": f"p{i}", "name": f"Player {i}"} for i in range(players)], seed="bench", passwords=False)
    folders = []
    for number in range(count):
        folder = root / f"c{number:05d}"
        shutil.copytree(template, folder)
        (folder / "gm" / "seed.yaml").write_text("seed: bench\n")
        campaign = Campaign.open(folder)
        write_demo_orders(campaign, {}, purpose=f"bench/{number}")
        folders.append(folder)
    return folders


def floor(folders: list[Path]) -> float:
    """Read and parse every order file with the C safe loader: the unavoidable part."""
    start = time.perf_counter()
    for folder in folders:
        for path in sorted((folder / "turn-001" / "orders").iterdir()):
            yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader)
    return time.perf_counter() - start


def one_turn(folders: list[Path], work: Path) -> float:
    copy = work / "single"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(folders[0], copy)
    start = time.perf_counter()
    adjudicate(copy)
    return time.perf_counter() - start


def batch(folders: list[Path], work: Path) -> float:
    """`pbem adjudicate DIR...` over every campaign, as a cron job would run it."""
    copies = work / "batch"
    shutil.rmtree(copies, ignore_errors=True)
    copies.mkdir()
    targets = []
    for folder in folders:
        shutil.copytree(folder, copies / folder.name)
        targets.append(str(copies / folder.name))
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "adjudicator", "adjudicate", *targets], check=True, cwd=REPO, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=1000)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
        work = Path(tmp)
        folders = make_campaigns(work / "source", args.campaigns, args.players)
        rows = {"floor: parse every order file": [], "one 6-player turn": [], f"pbem adjudicate x{args.campaigns}": []}
        for _ in range(args.repeat):
            rows["floor: parse every order file"].append(floor(folders))
            rows["one 6-player turn"].append(one_turn(folders, work))
            rows[f"pbem adjudicate x{args.campaigns}"].append(batch(folders, work))
    base = statistics.median(rows["floor: parse every order file"])
    # The single turn is compared with the floor of one campaign's files.
    floors = {"one 6-player turn": base / args.campaigns}
    print(f"{'measure':40} {'median s':>10} {'x floor':>8}")
    for name, times in rows.items():
        median = statistics.median(times)
        print(f"{name:40} {median:10.4f} {median / floors.get(name, base):8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
