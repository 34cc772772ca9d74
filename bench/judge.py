"""The judge's tick (`pbem run`) over many campaigns, against the cost of just looking at them.

    python3 bench/judge.py [--campaigns 1000] [--repeat 3] [--where /dev/shm] [--quiet-only]

Three figures, each the best of --repeat runs, measured in this one process and run:

1. `pbem run` over N campaigns with nothing to do (each has a schedule, a mailbox of its own
   and the welcome already sent);
2. a plain Python loop over the same N campaigns that lists the campaign folder and its
   pending orders folder and stats each mail source: the floor of noticing that nothing
   changed; and the ratio of (1) to (2);
3. `pbem run` over N campaigns after one new order message arrived in each mailbox (each
   is filed and acknowledged), on fresh copies;
4. `pbem run` over N campaigns that share one mbox (design 15: one judge address, many
   campaigns), with nothing to do, and its ratio to the same floor over those campaigns.

No mail is sent (no --send): the SMTP server's speed is not the judge's.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from judgekit import append_mbox, campaign, edit, orders  # noqa: E402

from adjudicator.cli import main as pbem  # noqa: E402

NOW = "2026-12-02T12:00+00:00"
LATER = "2026-12-02T12:05+00:00"


def _run(roots: list[Path], now: str) -> float:
    out = io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stdout(out):
        code = pbem(["run", *map(str, roots), "--now", now])
    elapsed = time.perf_counter() - started
    if code != 0:
        raise SystemExit(f"pbem run failed: {out.getvalue()[-2000:]}")
    return elapsed


def make(work: Path, count: int) -> list[Path]:
    """One campaign set up and ticked once (welcome built), copied `count` times, each with its own mbox."""
    model = campaign(work / "model", "spies")
    edit(model, lambda c: c["judge"].update(inbox=["inbox.mbox"]))  # inside the campaign: each copy reads its own
    (model / "inbox.mbox").touch()
    _run([model], NOW)
    roots = []
    for number in range(count):
        root = work / "all" / f"c{number:05d}"
        shutil.copytree(model, root)
        roots.append(root)
    _run(roots, NOW)  # each copy records its own mailbox once
    return roots


def make_shared(work: Path, count: int) -> list[Path]:
    """`count` campaigns whose `judge: inbox:` is one mbox, ticked once (welcome built, the mbox routed)."""
    shared = work / "shared.mbox"
    shared.touch()
    model = campaign(work / "shared-model", "spies")
    edit(model, lambda c: c["judge"].update(inbox=[str(shared)]))
    _run([model], NOW)
    roots = []
    for number in range(count):
        root = work / "shared" / f"c{number:05d}"
        shutil.copytree(model, root)
        roots.append(root)
    _run(roots, NOW)
    return roots


def look(roots: list[Path], source: str = "inbox.mbox") -> float:
    """The floor: list each campaign folder and its pending orders folder, stat each source."""
    started = time.perf_counter()
    for root in roots:
        os.listdir(root)
        os.listdir(root / "turn-001" / "orders")
        os.stat(root / source)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--where", help="folder to make the campaigns in (default: the system's temporary folder)")
    parser.add_argument("--quiet-only", action="store_true", help="skip measure 3 (the slow one): only the ticks with nothing to do")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.where) as temporary:
        work = Path(temporary)
        roots = make(work, args.campaigns)
        idle = min(_run(roots, LATER) for _ in range(args.repeat))
        floor = min(look(roots) for _ in range(args.repeat))
        busy = []
        for attempt in range(0 if args.quiet_only else args.repeat):
            copies = []
            for root in roots:
                copy = work / f"busy-{attempt}" / root.name
                shutil.copytree(root, copy, symlinks=True)
                append_mbox(copy / "inbox.mbox", orders("tony", 1, "Wed, 02 Dec 2026 12:01:00 +0000"))
                copies.append(copy)
            busy.append(_run(copies, LATER))
            shutil.rmtree(work / f"busy-{attempt}")
        together = make_shared(work, args.campaigns)
        shared_idle = min(_run(together, LATER) for _ in range(args.repeat))
        shared_floor = min(look(together, str(work / "shared.mbox")) for _ in range(args.repeat))
    count = args.campaigns
    print(f"{'measure':58}  {'seconds':>9}  {'ms/campaign':>11}")
    for label, seconds in (
        (f"pbem run, {count} campaigns, nothing to do", idle),
        (f"python loop: list folders, stat sources, {count} campaigns", floor),
        *([(f"pbem run, {count} campaigns, one new message each", min(busy))] if busy else []),
        (f"pbem run, {count} campaigns sharing one mbox, nothing to do", shared_idle),
        ("python loop over those, stat the one mbox each", shared_floor),
    ):
        print(f"{label:58}  {seconds:9.3f}  {1000 * seconds / count:11.3f}")
    print(f"{'ratio: nothing to do / python loop':58}  {idle / floor:9.1f}")
    print(f"{'ratio: sharing one mbox, nothing to do / python loop':58}  {shared_idle / shared_floor:9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
