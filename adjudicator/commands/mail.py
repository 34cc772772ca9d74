"""`pbem mail`: build report messages (or reminders) into the outbox, and send them."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..common.words import plural
from .console import Failure, console

HELP = "build report messages (or reminders) into the outbox, and send them"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder (the one pbem new made)")
    p.add_argument("--turn", type=int, help="the turn whose reports to mail (default: the last adjudicated)")
    p.add_argument("--remind", action="store_true", help="remind the players still missing for the pending turn")
    p.add_argument("--player", metavar="P", help="build (and with --send, send) only this player's messages, e.g. after pbem replace")
    p.add_argument("--welcome", action="store_true", help="welcome each player: opening report, first deadline, how to send orders")
    p.add_argument("--resend-in-doubt", action="store_true", help="send again the messages an interrupted run may not have delivered")
    smtp_arguments(p)


def smtp_arguments(p: argparse.ArgumentParser) -> None:
    """--send and the SMTP server's options, as `pbem mail` and `pbem run` take them."""
    p.add_argument("--send", action="store_true", help="deliver every unsent message of the outbox over SMTP")
    p.add_argument("--smtp", metavar="HOST:PORT", type=_hostport, help="the SMTP server to send through, e.g. localhost:25")
    p.add_argument("--starttls", action="store_true", help="switch the SMTP connection to TLS before logging in")
    p.add_argument("--user", help="SMTP login; the password comes from $PBEM_SMTP_PASSWORD or --password-file")
    p.add_argument("--password-file", help="a file whose first line is the SMTP password")
    p.add_argument("--smtp-ca-file", metavar="FILE", help="a CA or self-signed certificate to trust for the SMTP server's TLS (as judge: imap_ca_file: for IMAP)")
    p.allow_abbrev = False  # so that no prefix such as --password can pass a secret on the command line


def smtp_server(args: argparse.Namespace) -> Any:
    """The SMTP server named by --smtp and its login, or None without --send."""
    from ..mail import deliver

    if not args.send:
        return None
    host, port = args.smtp
    password = deliver.smtp_password(args.password_file) if args.user else None
    return deliver.Smtp(host, port, args.starttls, args.user, password, args.smtp_ca_file)


def _hostport(text: str) -> tuple[str, int]:
    """`--smtp HOST:PORT`, checked as the command line is read: a malformed one is a usage error."""
    from ..mail.compose import MailError
    from ..mail.deliver import parse_hostport

    try:
        return parse_hostport(text)
    except MailError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    import smtplib

    from rich.markup import escape

    from ..campaign.folder import Campaign
    from ..campaign.schedule import ScheduleError
    from ..common import atomic, clock
    from ..judge.letters import welcome_messages
    from ..judge.settings import read_settings
    from ..mail import compose, deliver, reportmail

    smtp = smtp_server(args)
    root = Path(args.dir)
    Campaign.open(root)
    out = console()
    with atomic.locked(root):
        campaign = Campaign.open(root)
        try:
            if args.remind:
                files, notes = compose.reminder_messages(campaign, _missing(campaign), clock.now())
            elif args.welcome:
                files, notes = welcome_messages(campaign, read_settings(campaign).mail_passwords)
            else:
                turn = campaign.last_turn if args.turn is None else args.turn
                files, notes = reportmail.report_messages(campaign, turn)
        except compose.MailError as exc:
            raise Failure(str(exc)) from None
        except ScheduleError as exc:
            raise Failure(f"{campaign.root}/campaign.yaml: {exc}") from None
        if args.player is not None:
            if campaign.player(args.player) is None:
                raise Failure(f"no player '{args.player}' in {campaign.root}; players: {', '.join(p['id'] for p in campaign.players)}")
            files = {name: data for name, data in files.items() if _for_player(name, args.player)}
            notes = [note for note in notes if note.startswith(f"{args.player}:")]
        written = compose.write_outbox(root, files)
        from ..mail.ingest import load_index

        for name in deliver.readdress(root, campaign, {e.seq: e.player for e in load_index(root) if e.player}):
            out.print(f"  [yellow]rebuilt for the corrected address:[/] {escape(name)}")
        if args.resend_in_doubt:
            for name in deliver.resend_in_doubt(root):
                out.print(f"  [yellow]in doubt, will be sent again:[/] {escape(name)}")
        for entry in deliver.in_doubt(root):
            out.print(
                f"  [red]in doubt:[/] {escape(entry['file'])} was being delivered when an earlier run was interrupted; it may have "
                "arrived. It is not sent again: if its recipient did not get it, run pbem mail with --send --resend-in-doubt."
            )
        fix = "fix the address in campaign.yaml (or give the seat a new player: pbem replace DIR SEAT --name N --email E) and run pbem mail again to rebuild it"
        for entry in deliver.refused(root):
            out.print(f"  [red]refused earlier:[/] {escape(entry['file'])} ({escape(entry['refused'])}) was not delivered; {escape(fix)}.")
        for note in notes:
            out.print(f"  [yellow]note:[/] {escape(note)}")
        stale = deliver.unsent_outdated(root)
        if stale:
            out.print(f"  [yellow]note:[/] {plural(len(stale), 'reply', 'replies')} to orders {'is' if len(stale) == 1 else 'are'} not sent: their turn was adjudicated after they were written, "
                      "and the turn's report tells each player what became of the orders")
        out.print(f"Outbox {compose.outbox_dir(root)}: {plural(len(files), 'message')} built, {len(written)} new or changed.", markup=False)
        if smtp is None:
            pending = deliver.outbox_summary(root)["pending"]
            out.print(f"{plural(len(pending), 'message')} {'waits' if len(pending) == 1 else 'wait'} to be sent (pbem mail {args.dir} --send --smtp HOST:PORT).", markup=False)
            return 0
        refusals: list[str] = []

        def refused(name: str, message: Any, reason: str) -> None:
            refusals.append(name)
            out.print(f"  [red]refused:[/] {escape(name)} to {escape(', '.join(compose.recipients(message)))}: {escape(reason)}; {escape(fix)}.")

        try:
            delivered = deliver.send(
                root, smtp, clock=clock.now, progress=lambda name, m: out.print(f"  sent {escape(name)} to {escape(', '.join(compose.recipients(m)))}"), on_refused=refused,
                only=(lambda name: _for_player(name, args.player)) if args.player else (lambda name: True),
            )
        except compose.MailError as exc:
            raise Failure(str(exc)) from None
        except (OSError, smtplib.SMTPException) as exc:
            raise Failure(f"mail delivery to {smtp.host}:{smtp.port} stopped: {exc.strerror or exc if isinstance(exc, OSError) else exc}; "
                          "what was delivered is recorded, run the command again to resume") from None
        doubtful = deliver.in_doubt(root)
        if refusals:
            out.print(f"{plural(len(delivered), 'message')} delivered; {len(refusals)} refused by the server (above), not delivered.")
            return 1
        not_sent = [f"{n} {what}" for n, what in ((len(doubtful), "in doubt"), (len(deliver.refused(root)), "refused")) if n]
        if not_sent:
            out.print(f"{plural(len(delivered), 'message')} delivered; the rest of the outbox has been sent, but for {' and '.join(not_sent)} (above).")
        else:
            out.print(f"{plural(len(delivered), 'message')} delivered; every message in the outbox has now been sent.")
    return 0


def _for_player(name: str, player: str) -> bool:
    """Whether an outbox file (`turn-NNN/report-P.eml`, `turn-NNN/remind-P.eml`) is this player's."""
    return name.rpartition("/")[2] in (f"report-{player}.eml", f"remind-{player}.eml")


def _missing(campaign: Any) -> list[str]:
    """Due players without a valid order file for the pending turn."""
    from ..campaign import pending

    if campaign.over:
        raise Failure(f"{campaign.root}: the game is over; nobody is due")
    return pending.check(pending.read(campaign)).waiting
