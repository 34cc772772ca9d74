"""Sign-up by mail: `list`, `join [NAME]`, `leave`, `observe`, `unobserve` (design 16).

    CAMPAIGN/mail/commands/<seq>-<hash>.eml          each message, raw, as received
    CAMPAIGN/mail/outbox/turn-000/signup-<seq>.eml   the judge's answer
    CAMPAIGN/mail/signup-list.json                   address -> the day its last `list` was answered

A message to an open campaign is read here, not by mail/ingest.py (there is no turn yet); it
is recorded in mail/ingest.jsonl as ingest records one, so the ingest after the start skips it.
The order for each message: the change to campaign.yaml (campaign/signup.py), then the answer
in the outbox, then the record. A kill before the record handles the message again: the
address is found seated, so nobody is seated twice, and the answer, written once, is kept.

Strangers get no backscatter beyond `list` and `join`: a `leave` or `unobserve` from an
address that holds nothing is recorded and not answered; an automatic message (a bounce, an
auto-reply, the judge's own mail) is never answered; `list` is answered at most once per
address per day. No answer names another player's address.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..campaign import schedule, signup
from ..campaign.folder import Campaign, CampaignError, dump_json, turn_name
from ..common import atomic
from ..common.words import plural
from . import compose, envelope, inbox
from .ingest import Entry, load_index, message_key, record

WORDS = ("join", "leave", "list", "observe", "unobserve", "takeover")
_SUBJECT_PREFIX = re.compile(r"\A\s*(?:(?:re|fwd?|aw|wg|sv|antw|tr|rif)\s*(?:\[\d+\])?\s*:\s*|\[[^\]]{0,80}\]\s*)*", re.IGNORECASE)
_AUTOMATIC_SENDERS = ("mailer-daemon@", "postmaster@", "noreply@", "no-reply@")


@dataclass(frozen=True)
class Request:
    word: str
    arguments: str


def recognise(message: Any) -> Request | None:
    """The sign-up command a message carries: its own first line (below any `campaign:` or `password:`
    line: mail/envelope.py), else its Subject."""
    lines = inbox.own_words(inbox.body_text(message) or "").split("\n")
    at = envelope.command_line(lines)
    first = "" if at is None else lines[at]
    subject = _SUBJECT_PREFIX.sub("", inbox.header(message, "Subject"), count=1)
    for line in (first, subject):
        words = line.strip().split(None, 1)
        if words and words[0].lower().rstrip(".!?:") in WORDS:
            return Request(words[0].lower().rstrip(".!?:"), words[1].strip() if len(words) > 1 else "")
    return None


def _automatic(message: Any, address: str, campaign: Campaign | None) -> bool:
    auto = inbox.header(message, "Auto-Submitted").lower()
    if (auto and auto != "no") or address.startswith(_AUTOMATIC_SENDERS):
        return True
    if inbox.header(message, "Precedence").lower() in ("bulk", "junk", "list"):
        return True
    return bool(campaign is not None and campaign.gm_email and address == signup.bare(campaign.gm_email))


def _list_path(root: Path) -> Path:
    return compose.mail_dir(root) / "signup-list.json"


def status_line(campaign: Campaign) -> str:
    """One campaign as `list` shows it (design 16): signing up (game, seats taken of N, schedule) or running
    (turn, deadline); tagged `[FOLDER]`, how a message to a shared judge address names it. No player's address."""
    title = f"[{campaign.root.name}]  {campaign.config.get('name')} ({campaign.game.title})"
    plan = campaign.config.get("schedule") or {}
    every = f", a turn every {plan['every']}" if isinstance(plan, dict) and plan.get("every") else ""
    if signup.is_open(campaign):
        state = signup.read(campaign)
        waiting = f", {len(state.waiting)} waiting" if state.waiting else ""
        return f"  {title}: signing up, {len(state.players)} of {plural(state.seats, 'seat')} taken{waiting}{every}"
    if campaign.over:
        return f"  {title}: over after turn {campaign.last_turn}"
    pending = campaign.last_turn + 1
    due = schedule.of_campaign(campaign, pending)
    vacant = signup.joinable(campaign)  # the seats a join takes: one a takeover asked for is not offered
    free = f"; vacant: {', '.join(vacant)} (write join YOUR NAME to take one)" if vacant else ""
    return f"  {title}: running, turn {pending}" + (f" due {due.text}" if due else "") + every + free


def listing(campaigns: list[Campaign]) -> str:
    """The `list` answer: the campaigns of this judge (one, or all those sharing its address)."""
    lines = [status_line(campaign) for campaign in campaigns]
    tag = f"[{campaigns[0].root.name}]"
    how = [f"To join a game signing up or take a vacant seat, write join YOUR NAME as the first line{' with its tag in the Subject (for example ' + tag + ')' if len(campaigns) > 1 else ''};",
           "to watch one, write observe. Nothing you send is shown to other players."]
    return "The campaigns of this judge:\n\n" + "\n".join(lines) + "\n\n" + "\n".join(how) + "\n"


@dataclass
class Handled:
    entry: Entry
    said: str = ""
    """What the GM's digest says of it (empty: nothing worth a line)."""


def handle_sources(root: Path, sources: list[Path], now: dt.datetime, only_commands: bool = False) -> list[Handled]:
    """Every new message of the sources, for an open campaign; the caller holds the lock. `only_commands`
    (a running campaign): only the messages that carry a sign-up command; the rest are left to ingest."""
    known = {e.key for e in load_index(root)}
    count = len(load_index(root))
    done: list[Handled] = []
    for incoming in inbox.read_sources(sources, []):
        key = message_key(incoming.raw)
        if key in known:
            continue
        if only_commands and not _carries_command(incoming.raw, _names(root)):
            continue
        count += 1
        compose.ensure_mail_dir(root)
        handled = handle(root, incoming.raw, count, key, now)
        record(root, [handled.entry])
        known.add(key)
        done.append(handled)
    return done


_TAG = re.compile(r"\[([^\]]{1,80})\]")


def _names(root: Path) -> set[str]:
    return {root.name.lower(), str(Campaign.open(root).config.get("name", root.name)).lower()}


def _carries_command(raw: bytes, names: set[str]) -> bool:
    """A message of a running campaign's source that is a sign-up command for it: not one that names another
    campaign (a `campaign: NAME` line or a `[NAME]` Subject tag; design 15's routing, for a shared source)."""
    try:
        message = inbox.parse(raw)
        if recognise(message) is None or _automatic(message, inbox.sender(message)[1], None):
            return False
        named = {m.lower() for m in envelope.CAMPAIGN_LINE.findall(inbox.own_words(inbox.body_text(message) or ""))}
        named |= {m.strip().lower() for m in _TAG.findall(inbox.header(message, "Subject"))}
        return not named or bool(named & names)
    except Exception:  # noqa: BLE001 - junk is ingest's to keep
        return False


def handle(root: Path, raw: bytes, seq: int, key: str, now: dt.datetime) -> Handled:
    label = f"{seq:05d}-{key.removeprefix('sha256:')[:10]}"
    entry = Entry(seq, key, "", "", None, "", "rejected", turn=0)
    try:
        message = inbox.parse(raw)
        entry.message_id = inbox.message_id(message)
        entry.sender = address = inbox.sender(message)[1]
        entry.subject = inbox.header(message, "Subject")[:200]
    except Exception:  # noqa: BLE001 - junk is kept, never fatal
        message, address = None, ""
    entry.stored = f"mail/commands/{label}.eml"
    (root / "mail" / "commands").mkdir(parents=True, exist_ok=True)
    atomic.write_file(root / entry.stored, raw)
    campaign = Campaign.open(root)
    if message is None or not address:
        entry.reason = "not a readable email message, or no sender address"
        return Handled(entry)
    if _automatic(message, address, campaign):
        entry.reason = "an automatic message: not answered"
        return Handled(entry)
    request = recognise(message)
    if request is None:
        entry.reason = "the campaign is signing up: no turn takes orders yet, and this message holds no sign-up command; not answered"
        found = signup.where_is(signup.read(campaign), address) if signup.is_open(campaign) else None
        if found is not None:  # a player who joined hears why
            _answer(campaign, seq, message, address, "your message", f"{_title(campaign)}: the game has not started yet; orders are taken from the start (you will get your opening report then).\n")
        else:  # a stranger (a mistyped join, a help) hears how to join, at most once a day (`list`'s limit)
            listed = _list_once(campaign, address, now)
            if listed:
                entry.reason = "no sign-up command; answered with how to join"
                entry.acknowledged = _answer(campaign, seq, message, address, "how to join", f"{_title(campaign)}: your message holds no sign-up command.\n\n{listed}")
        return Handled(entry)
    entry.status, entry.found = "answered", f"the command '{request.word}'"
    said, body = "", ""
    try:
        if request.word == "list":
            body = _list_once(campaign, address, now)
            entry.reason = "answered list" if body else "list already answered today: not answered again"
        elif request.word == "join":
            joined = signup.join(root, address, request.arguments, inbox.sender(message)[0])
            entry.player = joined.seat
            body, said = _joined(campaign, joined)
            entry.reason = said or f"{joined.seat} joined again: nothing changed"
        elif request.word == "takeover":
            body, said = _takeover(root, address, request.arguments, inbox.sender(message)[0])
            entry.reason = said or body.split("\n", 1)[0].removeprefix(f"{_title(campaign)}: ")[:200]
        elif request.word == "leave":
            left = signup.leave(root, address)
            if left is None:
                entry.reason = "leave from an address that holds no seat and no place: not answered"
            else:
                entry.player = left[1]
                said = f"{left[1]} left ({'seat' if left[0] == 'seated' else 'waiting list'})"
                entry.reason = said
                body = f"{_title(campaign)}: you ({left[1]}) are no longer {'seated' if left[0] == 'seated' else 'on the waiting list'}.\n"
        else:
            on = request.word == "observe"
            changed = signup.observe(root, address, on)
            entry.reason = f"{request.word}: {'done' if changed else 'nothing to change'}"
            if changed:
                said = f"{address} {'observes' if on else 'stopped observing'}"
                body = f"{_title(campaign)}: " + (
                    "you will get each public report from now on (nothing private). Write unobserve to stop.\n" if on else "you will get no more public reports.\n"
                )
    except CampaignError as exc:
        entry.status, entry.reason = "rejected", f"{request.word} refused: {exc}"
        if request.word in ("join", "list", "takeover"):  # who asked hears why; nothing else answers a stranger
            body = f"{_title(campaign)}: your '{request.word}' was NOT done: {exc}.\nNothing was changed.\n"
    if body:
        entry.acknowledged = _answer(campaign, seq, message, address, request.word, body)
    return Handled(entry, said)


def _takeover(root: Path, address: str, arguments: str, signed: str) -> tuple[str, str]:
    """`takeover SEAT`: recorded for the judge's tick, which hands the seat over (judge/seats.py);
    `signed`: the From header's name, shown for the seat when the command gives none."""
    campaign = Campaign.open(root)
    title = _title(campaign)
    seat = arguments.split()[0].lower() if arguments.split() else ""
    if signup.is_open(campaign):
        raise CampaignError("the game has not started: write join to take a seat")
    wanted = signup.takeover(root, address, seat, " ".join(arguments.split()[1:]), signed)
    if wanted.gm:
        return (f"{title}: your takeover of the seat {seat} was passed to the GM, who hands seats over in this campaign; "
                "you hear from the GM.\n", f"{address} asks to take over {seat} (judge: takeover: gm: pbem replace DIR {seat} --name N --email E)")
    return (f"{title}: your takeover of the seat {seat} is recorded; the judge hands it to you within minutes, with your "
            "password and what to do next.\n", f"{address} takes over {seat}")


def _title(campaign: Campaign) -> str:
    return f"{campaign.config.get('name')} ({campaign.game.title})"


def _list_once(campaign: Campaign, address: str, now: dt.datetime) -> str:
    path = _list_path(campaign.root)
    answered = json.loads(path.read_bytes()) if path.is_file() else {}
    today = now.date().isoformat()
    if answered.get(address) == today:
        return ""
    answered[address] = today
    atomic.write_file(path, dump_json(answered))  # recorded before the answer: a flood is answered once
    return listing([campaign])


def _joined(campaign: Campaign, joined: signup.Joined) -> tuple[str, str]:
    title = _title(campaign)
    vacant = signup.joinable(Campaign.open(campaign.root)) if not signup.is_open(campaign) else []
    if joined.place and joined.place <= len(vacant):  # judge/seats.py hands the vacant seats on in this order
        seat = vacant[joined.place - 1]
        text = (f"{title}: the seat {seat} is vacant and is yours: the judge hands it to you within minutes, with "
                f"{'your password and ' if campaign.uses_passwords else ''}what to do next.\n")
        return text, "" if joined.already else f"{joined.seat} on the waiting list (place {joined.place}), for the vacant seat {seat}"
    if joined.place:
        text = f"{title}: every seat is taken; you ({joined.seat}) are number {joined.place} on the waiting list.\n"
        text += "You take the first seat that falls vacant, and are told then. Write leave to leave the list.\n"
        return text, "" if joined.already else f"{joined.seat} on the waiting list (place {joined.place})"
    state = signup.read(campaign) if signup.is_open(Campaign.open(campaign.root)) else None
    lines = [f"{title}: you hold the seat '{joined.seat}' (shown as {joined.name})."]
    if state is not None:
        open_now = state.seats - len(Campaign.open(campaign.root).players)
        if signup.start_mode(campaign) == "gm":
            lines.append("The game starts when the GM starts it.")
        elif open_now > 0:
            lines.append(f"The game starts when the last seat is filled ({open_now} still open).")
    if joined.full and signup.start_mode(campaign) == "full":  # this tick starts the game (judge/signup.py)
        lines.append("You took the last seat: the game starts now. Your welcome, with your opening report, the first deadline"
                     + (" and your password," if campaign.uses_passwords else ",") + " comes in a message of its own.")
    else:
        lines.append("At the start you get your opening report, the first deadline" + (" and your password." if campaign.uses_passwords else "."))
        lines.append("Write leave before the start to give the seat up.")
    return "\n".join(lines) + "\n", "" if joined.already else f"{joined.seat} joined"


def _answer(campaign: Campaign, seq: int, message: Any, address: str, what: str, body: str) -> list[str]:
    name = f"{turn_name(0)}/signup-{seq:05d}.eml"
    if (compose.outbox_dir(campaign.root) / name).is_file():
        return [address]  # written before a kill: the answer to a message is written once
    parent, references = inbox.thread_ids(message)
    try:
        reply = compose.make_message(
            campaign, kind="ack", turn=0, to=[("", address)], subject=compose.re_subject(inbox.header(message, "Subject"), f"[{campaign.config.get('name')}] {what}"),
            body=body, in_reply_to=parent, references=references,
        )
    except compose.MailError:
        return []
    compose.write_outbox(campaign.root, {name: compose.to_bytes(reply)})
    return [address]
