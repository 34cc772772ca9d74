"""What `pbem site` costs (docs/performance.md has the figures).

    python3 bench/site.py                  # sites of 1,000- and 10,000-player campaigns, and of a 1,000-campaign host
    python3 bench/site.py --quick          # small sizes
    python3 bench/site.py --players 1000,10000 --campaigns 1000 --turns 2

Campaigns are Secrets campaigns made the way bench/run.py makes them (seeded orders, no
passwords), adjudicated for `--turns` turns, then left unrevealed: the public site, the
one a GM rebuilds after every turn. Each site is written by a fresh child process, timed
around the work alone, with its peak memory. The ratio of two sizes shows whether the
cost grows with the campaign (about 10 for ten times the players) or with its square.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))


def make(work: Path, tag: str, campaigns: int, players: int, turns: int) -> list[Path]:
    """`campaigns` campaigns of `players` players, each adjudicated for `turns` turns."""
    from run import make_campaigns

    from adjudicator.campaign.demo import write_demo_orders
    from adjudicator.campaign.folder import Campaign
    from adjudicator.cli import main

    folders = make_campaigns(work, campaigns, players, tag)
    for turn in range(turns):
        if turn:
            for folder in folders:
                write_demo_orders(Campaign.open(folder), {}, purpose=f"bench/{turn}")
        with open(os.devnull, "w") as quiet:
            stdout, sys.stdout = sys.stdout, quiet
            try:
                code = main(["adjudicate", "--nmr", *map(str, folders)])
            finally:
                sys.stdout = stdout
        if code != 0:
            raise SystemExit(f"adjudicating {tag} failed with exit {code}")
    return folders


def write_sites(folders: list[Path], out: Path) -> dict[str, float]:
    """`pbem site` of each campaign in turn, in-process as the CLI runs it (with its collector setting)."""
    from adjudicator.cli import main

    start = time.perf_counter()
    with open(os.devnull, "w") as quiet:
        stdout, sys.stdout = sys.stdout, quiet
        try:
            for folder in folders:
                if main(["site", str(folder), str(out / folder.name)]) != 0:
                    raise SystemExit(f"pbem site {folder} failed")
        finally:
            sys.stdout = stdout
    seconds = time.perf_counter() - start
    pages = sum(1 for _ in out.rglob("*.html"))
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    return {"seconds": seconds, "pages": pages, "mib": size / 2**20, "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def child(argv: list[str]) -> None:
    what, work, *rest = argv
    if what == "make":
        tag, campaigns, players, turns = rest
        value: object = [str(f) for f in make(Path(work), tag, int(campaigns), int(players), int(turns))]
    else:
        value = write_sites([Path(f) for f in rest], Path(work) / "sites")
    print(json.dumps(value))


def run_child(*args: str) -> object:
    os.sync()
    done = subprocess.run([sys.executable, __file__, "--child", *args], check=True, stdout=subprocess.PIPE, cwd=REPO)
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="what pbem site costs")
    parser.add_argument("--child", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--players", help="player counts of the single campaigns, e.g. 1000,10000")
    parser.add_argument("--campaigns", type=int, help="campaigns of the host (six players each)")
    parser.add_argument("--turns", type=int, default=2)
    parser.add_argument("--where", help="folder to work in (default: the system's temporary folder)")
    args = parser.parse_args(argv)
    if args.child:
        child(args.child)
        return 0
    sizes = [int(n) for n in (args.players or ("100,1000" if args.quick else "1000,10000")).split(",")]
    host = args.campaigns or (20 if args.quick else 1000)
    rows = []
    with tempfile.TemporaryDirectory(prefix="pbem-bench-site-", dir=args.where) as tmp:
        work = Path(tmp)
        seconds = {}
        for size in sizes:
            folders = run_child("make", str(work), f"p{size}", "1", str(size), str(args.turns))
            figure = run_child("site", str(work / f"site-{size}"), *folders)  # type: ignore[misc]
            seconds[size] = figure["seconds"]  # type: ignore[index]
            rows.append((f"pbem site, one {size}-player campaign, {args.turns} turns", figure))
            shutil.rmtree(work / f"site-{size}", ignore_errors=True)
        folders = run_child("make", str(work), "host", str(host), "6", str(args.turns))
        rows.append((f"pbem site x{host} six-player campaigns, {args.turns} turns", run_child("site", str(work / "host-sites"), *folders)))  # type: ignore[misc]
    print(f"{'measure':<52} {'seconds':>9} {'pages':>7} {'MiB':>8} {'peak MiB':>9}")
    for label, f in rows:
        print(f"{label:<52} {f['seconds']:>9.3f} {f['pages']:>7} {f['mib']:>8.1f} {f['peak']:>9.0f}")  # type: ignore[index]
    for small, large in zip(sizes, sizes[1:]):
        print(f"time({large}) / time({small}) = {seconds[large] / seconds[small]:.1f} (linear: {large / small:.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
