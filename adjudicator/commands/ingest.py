"""`pbem ingest`: file orders from a Maildir, mboxes, saved messages or folders of them into the pending turn."""

from __future__ import annotations

import argparse
from pathlib import Path

from .console import Failure, console

HELP = "file orders from a Maildir, mboxes, saved messages or folders of them into the pending turn"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder (the one pbem new made)")
    p.add_argument("sources", nargs="+", metavar="SOURCE", help="a Maildir folder, an mbox file, .eml files or a folder of them")


def run(args: argparse.Namespace) -> int:
    from rich.markup import escape

    from ..common import clock
    from ..mail.inbox import NotASource
    from ..mail.ingest import ingest

    try:
        result = ingest(Path(args.dir), [Path(s) for s in args.sources], now=clock.now())
    except NotASource as exc:
        raise Failure(str(exc)) from None
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
    commands = f", {answered} commands answered" if answered else ""
    skipped = f", {own} of the judge's own skipped" if own else ""
    out.print(f"{len(result.entries) - own} new messages ({filed} filed, {rejected} rejected{commands}){skipped}, {result.skipped} already ingested.")
    return 0
