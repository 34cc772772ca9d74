"""`pbem run`: the judge's tick over every campaign named (design 11): fetch, ingest, adjudicate, remind, mail."""

from __future__ import annotations

import argparse
import os
import sys

from .adjudicate import processes
from .console import console, literal

HELP = "the judge: fetch and file mail, adjudicate when due, remind, mail; for every campaign named (cron runs it)"


def arguments(p: argparse.ArgumentParser) -> None:
    from .mail import smtp_arguments

    p.add_argument("dirs", nargs="+", metavar="DIR", help="campaign folders")
    p.add_argument("--jobs", type=processes, default=1, metavar="N",
                   help="tick N campaigns at once, each in its own process (0: one per CPU core); the same lines, files and mails")
    p.add_argument("--now", type=moment, metavar="TIME",
                   help="the moment to act at instead of the clock: '2026-12-01 20:00' (host's local zone) or ISO 8601 with an offset")
    smtp_arguments(p)


def moment(text: str) -> object:
    """`--now TIME`, checked as the command line is read."""
    from ..campaign.schedule import ScheduleError
    from ..campaign.schedule import moment as parse

    try:
        return parse(text, where="")  # argparse names the option itself
    except ScheduleError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    from ..common import clock, parallel
    from ..judge.run import send_answers, tick
    from ..judge.quiet import Records
    from ..judge.shared import answer_routed, remember_quiet, route_shared
    from .mail import smtp_server

    now = args.now or clock.now()
    smtp = smtp_server(args)
    out = console()
    failed = 0
    # Sources several of the campaigns share are read once, each message routed to one campaign (design 15).
    roots = list(args.dirs)  # the folders as named, plain strings: a quiet campaign never pays for pathlib
    records = Records()  # each campaign's quiet record read once, a shared inbox's members' from one file
    sharing = route_shared(roots, now, records)  # also for one campaign: others may share its source (judge/shared.py)
    for line in sharing.lines:
        if "not routed" in line:
            out.print(f"[red]{literal(line)}[/]")
        else:
            print(line, flush=True)
    # Each campaign's tick is its own (its folder, its lock, its sources, its outbox), so ticks run side by
    # side in forked processes, the lines printed in the order named; a folder named twice ticks one after
    # the other, as its second tick must see the first's work. Worth it for the mail: drawing the boards.
    # (A forked tick's quiet record reaches the group file at the next run: its stamp no longer matches.)
    jobs = args.jobs if args.jobs > 1 and len({os.path.realpath(root) for root in roots}) == len(roots) else 1
    # A shared inbox's members whose group entry stands are found quiet in one loop (judge/quiet.py), before
    # any tick: no tick changes another campaign's files, and a quiet tick none (a folder named twice is quiet twice).
    quiet = records.standing(roots, now, smtp is not None, sharing.routed)
    ticks = parallel.ordered_map(lambda root: tick(root, now, smtp, sharing.routed.get(root, frozenset()), records),
                                 [root for root in roots if root not in quiet], jobs)
    waiting: list[str] = []  # the quiet lines since the last tick's, written at once: a print each would show
    for root in roots:
        if root in quiet:
            waiting.append(f"{root}: nothing to do\n")
            continue
        sys.stdout.write("".join(waiting))
        waiting.clear()
        result = next(ticks)
        if result.refused is None:  # plain print: over a thousand quiet campaigns rich's cost per call would show
            print(result.line, flush=True)
            continue
        failed += 1
        out.print(f"[red]{literal(result.line)}[/]")
    sys.stdout.write("".join(waiting))
    sys.stdout.flush()
    for line in answer_routed(sharing):  # after the ticks: a which-game reply counts the seats this tick's joins took
        failed += 1
        out.print(f"[red]{literal(line)}[/]")
    if smtp is not None:
        for line, bad in send_answers([due.sharing[0] for due in sharing.answering], smtp, now):
            if bad:
                failed += 1
                out.print(f"[red]{literal(line)}[/]")
            else:
                print(line, flush=True)
    remember_quiet(sharing, records)
    return 1 if failed or sharing.failed else 0
