"""The judge's tick (`pbem run`) over many campaigns, against the cost of just looking at them.

    python3 bench/judge.py [--campaigns 1000] [--repeat 3] [--where /dev/shm] [--quiet-only]

Each figure is the median of --repeat runs, measured in this one process, as wall time and as CPU time
(time.process_time: this process's user and system time, so the floor's system calls count); a tick and
its floor are measured in turn, so a swing in the machine's load falls on both. The ratios, the 2x
bound of issue 24 included, are judged on CPU time: on a machine shared with other work, the wall time
of a 0.1 s tick moves by a quarter from run to run with what else runs, its CPU time far less.

1. `pbem run` over N campaigns with nothing to do (each has a schedule, a mailbox of its own
   and the welcome already sent);
2. a plain Python loop over the same N campaigns (plain strings, no pathlib) that lists the
   campaign folder and its pending orders folder and stats each mail source: the floor of
   noticing that nothing changed; and the ratio of (1) to (2);
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
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from judgekit import append_mbox, campaign, edit, orders  # noqa: E402

from adjudicator.cli import main as pbem  # noqa: E402

NOW = "2026-12-02T12:00+00:00"
LATER = "2026-12-02T12:05+00:00"


Seconds = tuple[float, float]
"""Wall time and CPU time of one measure."""


def _timed(work: Callable[[], object]) -> Seconds:
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def _run(roots: list[Path], now: str) -> Seconds:
    out = io.StringIO()
    names = [str(root) for root in roots]

    def tick() -> None:
        with contextlib.redirect_stdout(out):
            if pbem(["run", *names, "--now", now]) != 0:
                raise SystemExit(f"pbem run failed: {out.getvalue()[-2000:]}")

    return _timed(tick)


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


def look(roots: list[Path], source: str = "inbox.mbox") -> Seconds:
    """The floor: list each campaign folder and its pending orders folder, stat each source (plain strings:
    pathlib's joins would double the floor's CPU time, and noticing needs none of them)."""
    names = [str(root) for root in roots]
    sources = [os.path.join(name, source) for name in names]  # the one absolute path, when the source is shared

    def walk() -> None:
        for name, mailbox in zip(names, sources):
            os.listdir(name)
            os.listdir(name + "/turn-001/orders")
            os.stat(mailbox)

    return _timed(walk)


def quiet_ticks(roots: list[Path], source: str, repeat: int) -> tuple[Seconds, Seconds]:
    """Medians of `repeat` quiet ticks and floors, measured in turn (a swing of the load falls on both)."""
    pairs = [(_run(roots, LATER), look(roots, source)) for _ in range(repeat)]
    return _median([tick for tick, _ in pairs]), _median([floor for _, floor in pairs])


def _median(runs: list[Seconds]) -> Seconds:
    return statistics.median(wall for wall, _ in runs), statistics.median(cpu for _, cpu in runs)


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
        idle, floor = quiet_ticks(roots, "inbox.mbox", args.repeat)
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
        shared_idle, shared_floor = quiet_ticks(together, str(work / "shared.mbox"), args.repeat)
    count = args.campaigns
    print(f"{'measure (median of ' + str(args.repeat) + ')':58}  {'wall s':>8}  {'CPU s':>8}  {'CPU ms/campaign':>15}")
    for label, (wall, cpu) in (
        (f"pbem run, {count} campaigns, nothing to do", idle),
        (f"python loop: list folders, stat sources, {count} campaigns", floor),
        *([(f"pbem run, {count} campaigns, one new message each", _median(busy))] if busy else []),
        (f"pbem run, {count} campaigns sharing one mbox, nothing to do", shared_idle),
        ("python loop over those, stat the one mbox each", shared_floor),
    ):
        print(f"{label:58}  {wall:8.3f}  {cpu:8.3f}  {1000 * cpu / count:15.3f}")
    for label, (tick, loop) in (("ratio: nothing to do / python loop", (idle, floor)),
                                ("ratio: sharing one mbox, nothing to do / python loop", (shared_idle, shared_floor))):
        print(f"{label:58}  {tick[0] / loop[0]:8.2f}  {tick[1] / loop[1]:8.2f}  (judged on CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
