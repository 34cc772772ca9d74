"""`pbem ingest`: file orders from a Maildir, mboxes, saved messages or folders of them into the pending turn."""

from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

from ..common.words import plural
from .console import Failure, console

if TYPE_CHECKING:
    from ..mail.ingest import IngestResult

HELP = "file orders from a Maildir, mboxes, saved messages or folders of them into the pending turn"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="DIR [SOURCE...]",
                   help="the campaign folder (the one pbem new made), then the sources: a Maildir folder, an mbox file, .eml files or a folder of them")
    p.add_argument("--from", dest="sources", nargs="+", metavar="SOURCE",
                   help="the sources, when several campaigns are named before: each message goes to the one it is for (design 15's routing)")


def run(args: argparse.Namespace) -> int:
    from ..common import clock
    from ..mail.fetch import inbox_dir
    from ..mail.inbox import NotASource, check_source
    from ..mail.ingest import IngestResult, ingest
    from ..mail.route import answer, route

    now = clock.now()
    if args.sources is None:
        if len(args.paths) < 2:
            raise Failure("name the campaign folder and at least one source: pbem ingest DIR SOURCE..., or pbem ingest DIR... --from SOURCE...")
        dirs, sources = [Path(args.paths[0])], [Path(s) for s in args.paths[1:]]
    else:
        dirs, sources = [Path(d) for d in args.paths], [Path(s) for s in args.sources]
    try:
        if len(set(dirs)) == 1:
            result = ingest(dirs[0], sources, now=now)
            _show(result)
            _hand_on(dirs[0], result, now)
            return 0
        for source in sources:
            check_source(source)
        routed = route(dirs, sources, now)  # read once; each message stored in the mail/inbox/ of the one it is for
        print(" ".join(routed.line.split()), flush=True)
        answer(dirs, routed.answering)  # pbem ingest seats nobody: the replies need not wait for the campaigns
        for root in dirs:
            console().print(f"{root}:", markup=False)
            box = inbox_dir(root)
            if box.is_dir():
                result = ingest(root, [box], now=now)
                _show(result)
            else:
                result = IngestResult([], 0, [])
                console().print("0 new messages.")
            _hand_on(root, result, now)
    except NotASource as exc:
        raise Failure(str(exc)) from None
    return 0


def _hand_on(root: Path, result: IngestResult, now: dt.datetime) -> None:
    """A seat resigned by mail goes to the first on the waiting list at once, whichever route filed the
    resignation (judge/seats.py, as `pbem run` does after its ingest); the GM's next digest tells it.
    Then the acknowledgements written before the resignation say who is missing as it now holds."""
    from rich.markup import escape

    from ..common import atomic
    from ..judge import seats
    from ..judge.run import keep_facts
    from ..mail.ingest import refresh

    facts = seats.settle(root)
    with atomic.locked(root):
        refresh(root, result, now)
    for fact in facts:
        console().print(f"  [cyan]seat[/]       {escape(fact)}")
    if not keep_facts(root, facts):
        console().print("  [yellow]note:[/] pbem run is ticking this campaign: its digest will not repeat this")


def _show(result: IngestResult) -> None:
    from rich.markup import escape

    out = console()
    for entry in result.entries:
        who = f"{entry.player}" if entry.player else "no player"
        sender = escape(entry.sender or "unknown sender")
        if entry.status == "filed":
            out.print(f"  [green]filed[/]      {who} for turn {entry.turn}, from {sender} ({escape(entry.found)})")
        elif entry.status == "superseded":
            out.print(f"  [yellow]superseded[/] {who} for turn {entry.turn}, from {sender}: {escape(entry.reason)}")
        elif entry.status == "own":
            continue  # the judge's own mail come back: counted below, nothing else to say
        elif entry.status == "answered":
            out.print(f"  [cyan]answered[/]   {who}, from {sender}: {escape(entry.found)}: {escape(entry.reason)}")
        else:
            out.print(f"  [red]rejected[/]   {sender} ({who}): {escape(entry.reason)}  -> {escape(entry.stored)}")
        for note in entry.notes:
            out.print(f"             [yellow]note:[/] {escape(note)}")
    for note in result.notes:
        out.print(f"  [yellow]note:[/] {escape(note)}")
    filed = sum(e.status == "filed" for e in result.entries)
    rejected = sum(e.status == "rejected" for e in result.entries)
    answered = sum(e.status == "answered" for e in result.entries)
    own = sum(e.status == "own" for e in result.entries)
    commands = f", {plural(answered, 'command')} answered" if answered else ""
    skipped = f", {own} of the judge's own skipped" if own else ""
    out.print(f"{plural(len(result.entries) - own, 'new message')} ({filed} filed, {rejected} rejected{commands}){skipped}, {result.skipped} already ingested.")
