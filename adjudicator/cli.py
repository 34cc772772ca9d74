"""The `pbem` command line (design 8). Exit codes: 0 success, 1 refused or invalid input, 2 usage error.

Each command imports what it needs when it runs, so a quick `pbem check`
does not pay for Jinja or rich.
"""

from __future__ import annotations

import argparse
import errno
import gc
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable

from . import __version__


class Failure(Exception):
    """A refusal or invalid input: print the message, exit 1."""


def _console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def _literal(value: Any) -> str:
    """A value shown as it is in rich output: a campaign name or a player's text holding
    `[bold]` or `[link=...]` is printed, not obeyed."""
    from rich.markup import escape

    return escape(str(value))


def _err(message: str) -> None:
    print(f"pbem: {message}", file=sys.stderr)


def _os_problem(exc: OSError, folder: Any = None) -> str:
    """A failed read or write in words: which file (or campaign), what the system said, and that nothing was half done."""
    where = f"{exc.filename or folder}: " if exc.filename or folder else ""
    hint = " (a full disk or a read-only folder?)" if exc.errno in _DISK_TROUBLE else ""
    return f"{where}{exc.strerror or exc}; the command stopped and kept nothing half written{hint}"


_DISK_TROUBLE = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM})


# -- new ----------------------------------------------------------------------


def cmd_new(args: argparse.Namespace) -> int:
    from .new import create, parse_players

    players = parse_players(args.players)
    for pair in args.names.split(",") if args.names else []:
        player_id, _, name = pair.partition("=")
        entry = next((p for p in players if p["id"] == player_id.strip()), None)
        if entry is None or not name.strip():
            raise Failure(f"--names takes id=Display Name pairs for listed players, not '{pair}'")
        entry["name"] = name.strip()
    campaign = create(
        Path(args.dir),
        args.game,
        players,
        options=args.option,
        seed=args.seed,
        passwords=not args.no_passwords,
        gm_email=args.gm_email,
        name=args.name,
    )
    out = _console()
    out.print(f"Created {campaign.game.title} campaign [bold]{_literal(campaign.config['name'])}[/] in {_literal(campaign.root)}")
    out.print(f"Seed commitment (publish it): {campaign.config['seed_commitment']}")
    if args.seed is not None:
        out.print(
            "[yellow]Warning:[/] you chose the seed. A seed that players can guess lets them check the "
            "commitment and foresee every draw; use it only for tests, demos or a tournament that announces it."
        )
    if campaign.uses_passwords:
        out.print(f"Passwords for the players are in {campaign.root / 'gm' / 'passwords.yaml'}: send each player their own.", markup=False)
    out.print(f"Opening reports: {campaign.turn_dir(0) / 'reports'}; orders for turn 1 go to {campaign.turn_dir(1) / 'orders'}/", markup=False)
    return 0


# -- status -----------------------------------------------------------------


def cmd_status(args: argparse.Namespace) -> int:
    from rich.table import Table

    from .adjudicate import read_orders_folder
    from .campaign import Campaign
    from .turn import load_submission, pending_state

    campaign = Campaign.open(Path(args.dir))  # read-only: only a locked command may repair a crashed turn
    game, last = campaign.game, campaign.last_turn
    state = pending_state(campaign)
    out = _console()
    if game.is_over(state):
        winners = ", ".join(state.get("names", {}).get(p, p) for p in game.winners(state))
        out.print(f"{campaign.config['name']} ({game.title}): over after turn {last}; winners: {winners}", markup=False)
        return 0
    pending = last + 1
    out.print(f"{campaign.config['name']} ({game.title}): turn {pending}, phase {game.phase(state)}", markup=False)
    received, _ = read_orders_folder(campaign.turn_dir(pending) / "orders")
    table = Table("player", "orders", "detail")
    waiting = []
    for player in game.due(state):
        name = next((n for n in (f"{player}.yaml", f"{player}.yml") if n in received), None)
        if name is None:
            waiting.append(player)
            table.add_row(player, "[red]missing[/]", "")  # ids are letters, digits, - and _: no markup
            continue
        sub = load_submission(campaign, state, pending, player, received[name], f"orders/{name}")
        if sub.nmr:
            table.add_row(player, "[red]rejected[/]", _literal("; ".join(f"{p.where}: {p.what}" for p in sub.problems)))
        else:
            void = len(sub.void)
            table.add_row(player, "[green]valid[/]", f"{len(sub.readings)} orders" + (f", {void} void" if void else ""))
    out.print(table)
    out.print(f"Still missing: {', '.join(waiting)}" if waiting else "Every due player has sent a file.")
    _print_deadline(out, campaign, pending)
    return 0


def _print_deadline(out: Any, campaign: Any, pending: int) -> None:
    """The one line of `status` that reads the clock: it writes nothing."""
    import datetime as dt

    from .schedule import ScheduleError, deadline, time_left

    try:
        due = deadline(campaign.schedule, pending)
    except ScheduleError as exc:
        raise Failure(f"{campaign.root}/campaign.yaml: {exc}") from None
    if due is None:
        out.print("Deadline: none in the schedule (campaign.yaml schedule:)")
        return
    left = time_left(due, dt.datetime.now(dt.UTC))
    colour = "red" if left.startswith("passed") else "green"
    out.print(f"Deadline for turn {pending}: {_literal(due.text)} ([{colour}]{left}[/])")


# -- check --------------------------------------------------------------------


def cmd_check(args: argparse.Namespace) -> int:
    from . import yamlsafe
    from .campaign import Campaign
    from .pipeline import check_document
    from .turn import pending_state

    campaign = Campaign.open(Path(args.campaign))
    last = campaign.last_turn
    state = pending_state(campaign)
    if campaign.game.is_over(state):
        raise Failure(f"{campaign.root}: the game is over; no orders are due")
    path = Path(args.file)
    try:
        with open(path, "rb") as handle:
            data = handle.read(yamlsafe.MAX_BYTES + 1)
    except OSError as exc:
        raise Failure(f"{path}: cannot read the order file ({exc.strerror or exc}); nothing was checked") from None
    ids = set(state["players"])
    expected = path.stem if path.stem in ids else None
    try:
        document = yamlsafe.load(data)
    except yamlsafe.YamlError as exc:
        print(f"{path}: REJECTED: {exc}")
        print("The whole file would be refused and you would count as NMR (no moves received).")
        return 1
    sub = check_document(
        campaign.game,
        state,
        document,
        turn=last + 1,
        expected_player=expected,
        password_ok=campaign.password_ok if campaign.uses_passwords else None,
        source=path.name,
    )
    if sub.nmr:
        print(f"{path}: REJECTED")
        for problem in sub.problems:
            print(f"  {path}::{problem.where}: {problem.what}")
        if sub.player in ids and sub.player not in campaign.game.due(state):
            print(f"{sub.player} has nothing to order this turn: the adjudicator would ignore the file.")
        else:
            print("The whole file would be refused and you would count as NMR (no moves received).")
        return 1
    print(f"{path}: accepted for {sub.player}, turn {last + 1}" + ("" if sub.readings else " (no orders)"))
    for reading in sub.readings:
        print(f"  {reading.index + 1:2d}. {reading.written}")
        if reading.accepted:
            print(f"      -> {reading.meaning}")
        else:
            print(f"      -> VOID ({path}::orders[{reading.index}]): {reading.void}. This order would do nothing; the others stand.")
    return 1 if sub.void else 0


# -- adjudicate -------------------------------------------------------------


def _report_outcome(out: Any, outcome: Any) -> None:
    """One line per player, problems in full: GM output is often a cron log, read with grep.
    A campaign's lines go to rich as one text: rich's cost is per call, not per line."""
    from rich.markup import escape

    campaign, output = outcome.campaign, outcome.output
    lines = [f"[bold]{escape(campaign.config['name'])}[/]: turn {output.turn} adjudicated ({escape(str(campaign.root / f'turn-{output.turn:03d}'))})"]
    for player, sub in output.submissions.items():
        if sub.status == "missing":
            lines.append(f"  {player}: [red]no orders: NMR[/]")
        elif sub.status == "rejected":
            lines.append(f"  {player}: [red]file rejected: NMR[/]")
            lines.extend(f"      {escape(sub.source)}::{escape(p.where)}: {escape(p.what)}" for p in sub.problems)
        else:
            void = sub.void
            placed = len(sub.orders)
            lines.append(f"  {player}: {placed} order{'' if placed == 1 else 's'} placed" + (f", [yellow]{len(void)} void[/]" if void else ""))
            lines.extend(f"      {escape(sub.source)}::orders[{r.index}] void: {escape(r.void or '')}" for r in void)
    lines.extend(f"  [yellow]ignored in orders/:[/] {escape(name)}" for name in output.stray)
    if campaign.game.is_over(output.state):
        names = output.state.get("names", {})
        lines.append(f"The game is over. Winners: {escape(', '.join(names.get(p, p) for p in campaign.game.winners(output.state)))}")
    out.print("\n".join(lines))


def _hostport(text: str) -> tuple[str, int]:
    """`--smtp HOST:PORT`, checked as the command line is read: a malformed one is a usage error."""
    from .mailout import MailError, parse_hostport

    try:
        return parse_hostport(text)
    except MailError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _jobs(text: str) -> int:
    """`--jobs N`: a count of processes, 0 for one per CPU core."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of processes") from None
    if count < 0:
        raise argparse.ArgumentTypeError("the number of processes cannot be negative")
    if count == 0:
        count = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return count


def cmd_adjudicate(args: argparse.Namespace) -> int:
    from .adjudicate import Outcome, adjudicate_many

    out = _console()
    failed = 0
    for folder, result in adjudicate_many([Path(d) for d in args.dirs], nmr=args.nmr, jobs=args.jobs):
        if isinstance(result, Outcome):
            _report_outcome(out, result)
            continue
        failed += 1
        _err(_os_problem(result, str(folder)) if isinstance(result, OSError) else str(result))
    return 1 if failed else 0


# -- mail: ingest, mail -------------------------------------------------------------


def cmd_ingest(args: argparse.Namespace) -> int:
    from rich.markup import escape

    from .ingest import ingest

    result = ingest(Path(args.dir), [Path(s) for s in args.sources])
    out = _console()
    for entry in result.entries:
        who = f"{entry.player}" if entry.player else "no player"
        sender = escape(entry.sender or "unknown sender")
        if entry.status == "filed":
            out.print(f"  [green]filed[/]      {who} for turn {entry.turn}, from {sender} ({escape(entry.found)})")
        elif entry.status == "superseded":
            out.print(f"  [yellow]superseded[/] {who} for turn {entry.turn}, from {sender}: {escape(entry.reason)}")
        else:
            out.print(f"  [red]rejected[/]   {sender} ({who}): {escape(entry.reason)}  -> {escape(entry.stored)}")
    for note in result.notes:
        out.print(f"  [yellow]note:[/] {escape(note)}")
    filed = sum(e.status == "filed" for e in result.entries)
    rejected = sum(e.status == "rejected" for e in result.entries)
    out.print(f"{len(result.entries)} new messages ({filed} filed, {rejected} rejected), {result.skipped} already ingested.")
    return 0


def cmd_mail(args: argparse.Namespace) -> int:
    import datetime as dt
    import smtplib

    from rich.markup import escape

    from . import atomic, mailout
    from .campaign import Campaign
    from .schedule import ScheduleError

    smtp = None
    if args.send:
        host, port = args.smtp
        password = mailout.smtp_password(args.password_file) if args.user else None
        smtp = mailout.Smtp(host, port, args.starttls, args.user, password)
    root = Path(args.dir)
    Campaign.open(root)
    out = _console()
    with atomic.locked(root):
        campaign = Campaign.open(root)
        try:
            if args.remind:
                files, notes = mailout.reminder_messages(campaign, _missing(campaign), dt.datetime.now(dt.UTC))
            else:
                turn = campaign.last_turn if args.turn is None else args.turn
                files, notes = mailout.report_messages(campaign, turn)
        except mailout.MailError as exc:
            raise Failure(str(exc)) from None
        except ScheduleError as exc:
            raise Failure(f"{campaign.root}/campaign.yaml: {exc}") from None
        written = mailout.write_outbox(root, files)
        if args.resend_in_doubt:
            for name in mailout.resend_in_doubt(root):
                out.print(f"  [yellow]in doubt, will be sent again:[/] {escape(name)}")
        for entry in mailout.in_doubt(root):
            out.print(
                f"  [red]in doubt:[/] {escape(entry['file'])} was being delivered when an earlier run was interrupted; it may have "
                "arrived. It is not sent again: if its recipient did not get it, run pbem mail with --send --resend-in-doubt."
            )
        fix = "fix the address in campaign.yaml (or give the seat a new player: pbem replace DIR SEAT --name N --email E) and run pbem mail again to rebuild it"
        for entry in mailout.refused(root):
            out.print(f"  [red]refused earlier:[/] {escape(entry['file'])} ({escape(entry['refused'])}) was not delivered; {escape(fix)}.")
        for note in notes:
            out.print(f"  [yellow]note:[/] {escape(note)}")
        out.print(f"Outbox {mailout.outbox_dir(root)}: {len(files)} messages built, {len(written)} new or changed.", markup=False)
        if smtp is None:
            pending = mailout.outbox_summary(root)["pending"]
            out.print(f"{len(pending)} messages wait to be sent (pbem mail {args.dir} --send --smtp HOST:PORT).", markup=False)
            return 0
        refusals: list[str] = []

        def refused(name: str, message: Any, reason: str) -> None:
            refusals.append(name)
            out.print(f"  [red]refused:[/] {escape(name)} to {escape(', '.join(mailout.recipients(message)))}: {escape(reason)}; {escape(fix)}.")

        try:
            delivered = mailout.send(
                root, smtp, progress=lambda name, m: out.print(f"  sent {escape(name)} to {escape(', '.join(mailout.recipients(m)))}"), on_refused=refused
            )
        except mailout.MailError as exc:
            raise Failure(str(exc)) from None
        except (OSError, smtplib.SMTPException) as exc:
            raise Failure(f"mail delivery stopped: {exc}; what was delivered is recorded, run the command again to resume") from None
        doubtful = mailout.in_doubt(root)
        if refusals:
            out.print(f"{len(delivered)} messages delivered; {len(refusals)} refused by the server (above), not delivered.")
            return 1
        not_sent = [f"{n} {what}" for n, what in ((len(doubtful), "in doubt"), (len(mailout.refused(root)), "refused")) if n]
        if not_sent:
            out.print(f"{len(delivered)} messages delivered; the rest of the outbox has been sent, but for {' and '.join(not_sent)} (above).")
        else:
            out.print(f"{len(delivered)} messages delivered; every message in the outbox has now been sent.")
    return 0


def _missing(campaign: Any) -> list[str]:
    """Due players without a valid order file for the pending turn."""
    from .adjudicate import read_orders_folder
    from .turn import load_submission, pending_state

    last = campaign.last_turn
    state = pending_state(campaign)
    if campaign.game.is_over(state):
        raise Failure(f"{campaign.root}: the game is over; nobody is due")
    received, _ = read_orders_folder(campaign.turn_dir(last + 1) / "orders")
    missing = []
    for player in campaign.game.due(state):
        name = next((n for n in (f"{player}.yaml", f"{player}.yml") if n in received), None)
        if name is None or load_submission(campaign, state, last + 1, player, received[name], f"orders/{name}").nmr:
            missing.append(player)
    return missing


def cmd_replace(args: argparse.Namespace) -> int:
    from rich.markup import escape

    from .replace import replace

    done = replace(Path(args.dir), args.seat, args.name, args.email)
    out = _console()
    before = done.outgoing.get("name", args.seat)
    out.print(f"Seat {done.seat}: {escape(str(before))} hands over to {escape(args.name)} from turn {done.turn}.")
    if done.password_file is not None:
        out.print(f"The new player's password is in {done.password_file}: send it to them (the old one no longer works).", markup=False)
    for path in done.moved:
        out.print(f"[yellow]The outgoing player's orders for turn {done.turn} were moved to {escape(path)}.[/]")
    for name in done.dropped:
        out.print(f"Unsent mail for the outgoing player removed from the outbox: {escape(name)}")
    last = done.turn - 1
    out.print(f"Send them the latest report (pbem mail {args.dir} --turn {last} mails it to the new address).", markup=False)
    return 0


# -- show and report -----------------------------------------------------------


def show_json(root: Path, player: str | None) -> dict[str, Any]:
    from .campaign import Campaign

    campaign = Campaign.open(root)
    game, last = campaign.game, campaign.last_turn
    state = campaign.state(last)
    if player is not None and player not in state["players"]:
        raise Failure(f"no player '{player}' in {root}; players: {', '.join(state['players'])}")
    over = game.is_over(state)
    view = game.view(state, player)
    return {
        "game": game.id,
        "turn": last if over else last + 1,
        "phase": game.phase(state),
        "due": [] if over else game.due(state),
        "over": over,
        "winners": game.winners(state),
        "players": game.player_fields(view),
    }


def cmd_show(args: argparse.Namespace) -> int:
    data = show_json(Path(args.dir), args.player)
    if args.json:
        print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
        return 0
    from rich.table import Table

    out = _console()
    out.print(f"{data['game']}: turn {data['turn']}, phase {data['phase']}" + (" (over)" if data["over"] else ""), markup=False)
    fields = sorted({k for row in data["players"].values() for k in row})
    table = Table("player", *fields)
    for player, row in data["players"].items():
        table.add_row(player, *(_literal(row.get(k, "")) for k in fields))
    out.print(table)
    if data["over"]:
        out.print(f"Winners: {', '.join(data['winners'])}", markup=False)
    return 0


_READABLE = {".txt": 0, ".md": 1, ".html": 2}
"""The forms `pbem report` prefers, in order: the plain-text and Markdown reports before
the BBCode copy, which holds the same text for forums."""


def cmd_report(args: argparse.Namespace) -> int:
    from .campaign import Campaign

    campaign = Campaign.open(Path(args.dir))
    turn = campaign.last_turn if args.turn is None else args.turn
    if not campaign.is_adjudicated(turn):
        raise Failure(f"turn {turn} of {campaign.root} has not been adjudicated")
    reports = campaign.turn_dir(turn) / "reports"
    stem = args.player or "public"
    found = sorted((p for p in reports.iterdir() if p.stem == stem), key=lambda p: (_READABLE.get(p.suffix, len(_READABLE)), p.name))
    if not found:
        raise Failure(f"no report '{stem}' for turn {turn} in {reports}")
    sys.stdout.write(found[0].read_text(encoding="utf-8"))
    return 0


# -- audit, reveal, demo -------------------------------------------------------


def cmd_audit(args: argparse.Namespace) -> int:
    from .audit import audit

    result = audit(Path(args.dir))
    if result.divergence:
        print(f"AUDIT FAILED at turn {result.turns}: {result.divergence}")
        return 1
    print(f"Audit clean: the opening and {result.turns} turns replay byte for byte.")
    return 0


def cmd_reveal(args: argparse.Namespace) -> int:
    from .reveal import reveal

    seed, commitment = reveal(Path(args.dir))
    print(f"Seed: {seed}\nCommitment: {commitment}\nWritten to {Path(args.dir) / 'reveal.yaml'}; anyone can now run pbem audit.")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    return run_demo(
        args.game, Path(args.dir) if args.dir else None, seed=args.seed, players=args.players, passwords=not args.no_passwords, console=_console()
    )


# -- parser -----------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pbem", description="Play-by-email adjudicator for hidden-identity games.")
    parser.add_argument("--version", action="version", version=f"pbem-adjudicator {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, func: Callable[[argparse.Namespace], int], help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        p.set_defaults(func=func)
        return p

    p = command("new", cmd_new, "create a campaign and its opening reports")
    p.add_argument("dir")
    p.add_argument("--game", required=True)
    p.add_argument("--players", required=True, help="comma-separated ids, each optionally id=email")
    p.add_argument("--names", help="display names, e.g. tony=Tony Stark,sue=Sue (default: the ids)")
    p.add_argument("--gm-email")
    p.add_argument("--seed", help="fix the seed (tests, demos, announced tournaments only)")
    p.add_argument("--no-passwords", action="store_true", help="for forum games")
    p.add_argument("--option", action="append", default=[], metavar="K=V")
    p.add_argument("--name", help="campaign name for reports and mail (default: the folder's name)")

    p = command("status", cmd_status, "turn, phase, who is due, who has sent valid orders")
    p.add_argument("dir")

    p = command("check", cmd_check, "check an order file before sending it")
    p.add_argument("file")
    p.add_argument("--campaign", required=True)

    p = command("adjudicate", cmd_adjudicate, "adjudicate the pending turn of each campaign named")
    p.add_argument("dirs", nargs="+", metavar="DIR")
    p.add_argument("--nmr", action="store_true", help="the deadline has passed: missing players count as NMR")
    p.add_argument("--jobs", type=_jobs, default=1, metavar="N",
                   help="settle campaigns in N processes at once (0: one per CPU core); the output is the same")

    p = command("ingest", cmd_ingest, "file orders from a Maildir, mboxes, saved messages or folders of them into the pending turn")
    p.add_argument("dir")
    p.add_argument("sources", nargs="+", metavar="SOURCE", help="a Maildir folder, an mbox file, .eml files or a folder of them")

    p = command("mail", cmd_mail, "build report messages (or reminders) into the outbox, and send them")
    p.add_argument("dir")
    p.add_argument("--turn", type=int, help="the turn whose reports to mail (default: the last adjudicated)")
    p.add_argument("--remind", action="store_true", help="remind the players still missing for the pending turn")
    p.add_argument("--send", action="store_true", help="deliver every unsent message of the outbox over SMTP")
    p.add_argument("--resend-in-doubt", action="store_true", help="send again the messages an interrupted run may not have delivered")
    p.add_argument("--smtp", metavar="HOST:PORT", type=_hostport)
    p.add_argument("--starttls", action="store_true")
    p.add_argument("--user", help="SMTP login; the password comes from $PBEM_SMTP_PASSWORD or --password-file")
    p.add_argument("--password-file", help="a file whose first line is the SMTP password")
    p.allow_abbrev = False  # so that no prefix such as --password can pass a secret on the command line

    p = command("replace", cmd_replace, "hand a seat to a new player from the pending turn on")
    p.add_argument("dir")
    p.add_argument("seat", help="the seat's player id; it stays the same")
    p.add_argument("--name", required=True, help="the new player's display name")
    p.add_argument("--email", help="the new player's address")

    p = command("show", cmd_show, "the public view, or one player's view")
    p.add_argument("dir")
    p.add_argument("--json", action="store_true")
    p.add_argument("--player")

    p = command("report", cmd_report, "print a rendered report")
    p.add_argument("dir")
    p.add_argument("--turn", type=int)
    p.add_argument("--player")

    p = command("audit", cmd_audit, "replay every turn and compare byte for byte")
    p.add_argument("dir")

    p = command("reveal", cmd_reveal, "after the game: publish the seed")
    p.add_argument("dir")

    p = command("demo", cmd_demo, "play a whole seeded campaign with random legal orders")
    p.add_argument("game", nargs="?", default="secrets")
    p.add_argument("dir", nargs="?")
    p.add_argument("--seed", default="demo")
    p.add_argument("--players", type=int, help="how many players (default: 4, or the game's limit)")
    p.add_argument("--no-passwords", action="store_true", help="play without passwords (byte-reproducible folder)")
    return parser


FEWER_COLLECTIONS = 10_000
"""Allocations between runs of Python's cycle collector (Python's default is 700). Its
collections walk every live object, and a large turn holds millions (its state, orders,
events and reports): a 10,000-player turn spent a third of its time there, more the larger
it was. A command makes few reference cycles, so collecting less often costs little memory."""


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "send", False) and not args.smtp:  # argparse cannot say that one option needs another
        parser.error("mail --send needs --smtp HOST:PORT")
    gc.set_threshold(FEWER_COLLECTIONS, *gc.get_threshold()[1:])
    from .atomic import Busy
    from .campaign import CampaignError
    from .games import UnknownGame

    try:
        return args.func(args)
    except (Failure, CampaignError, UnknownGame, Busy) as exc:
        _err(str(exc))
        return 1
    except KeyboardInterrupt:  # Ctrl-C: every write is atomic, and a turn cut short is finished or undone by the next command
        _err("interrupted; nothing was half written (a turn in progress is finished or undone by the next command)")
        return 130
    except BrokenPipeError:  # the reader went away (`pbem report DIR | head`): not a failure of the command
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush at exit
        return 0
    except FileNotFoundError as exc:
        _err(f"{exc.filename}: no such file or folder" if exc.filename else str(exc))
        return 1
    except OSError as exc:
        _err(_os_problem(exc, getattr(args, "dir", None)))
        return 1
    except Exception as exc:  # noqa: BLE001  a bug, or damage no check foresaw: one line, not a traceback
        if os.environ.get("PBEM_TRACEBACK"):
            raise
        _err(f"unexpected error ({type(exc).__name__}: {exc}); nothing was half written. A campaign file may be "
             "damaged (`pbem audit DIR` names the first that differs), or this is a bug in pbem: please report "
             "this message (PBEM_TRACEBACK=1 shows where it happened)")
        return 1


if __name__ == "__main__":
    sys.exit(main())
