"""Commands by mail: players ask the judge, and the judge answers (design 12).

    CAMPAIGN/mail/commands/<seq>-<hash>.eml        each command message, raw, as received
    CAMPAIGN/mail/outbox/turn-NNN/reply-<seq>.eml  the judge's answer
    CAMPAIGN/mail/outbox/turn-NNN/absence-<seq>.eml the GM told of an absence request

A message is a command when its Subject (after `Re:`, `Fwd:` and `[tags]`), or the first
line of its own text that is not blank, starts with a command word, in any case. The
own text is what ingest reads for orders (mail/inbox.py): the plain text or the HTML
made text, decoded from its charset, without quoted lines, signature or forwarded mail.
`help`, `status`, `orders` and `check` count only written alone (`Orders attached.`
is no command); `report`, `press` and `absence` take what follows as their arguments.
A bare `orders` is an order submission when the message holds an order document and,
as the Subject, when the mail says anything else at all: players have always sent their
orders (or forgotten to attach them) under that Subject, and ingest explains those.

Who asks is settled as for orders: in a campaign with passwords, a line `password: ...`
(and, from an address not registered for the seat, a line `player: ID`); without
passwords, the sender's address must be the one registered for the seat. Every answer
goes to the seat's registered address and nowhere else (never a Reply-To, never an
unregistered sender): a message nobody can be proved to have sent gets no answer.
Each answer is built from the asking seat's view and its own files only.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..campaign import schedule
from ..campaign.folder import Campaign, turn_name
from ..campaign.pipeline import Submission
from ..campaign.turn import load_submission
from ..common import atomic, yamlsafe
from ..common.resources import resource_dir
from ..games.base import State
from . import absences, compose, inbox, press

WORDS = ("help", "status", "orders", "check", "report", "press", "absence")
_ALONE = frozenset({"help", "status", "orders", "check"})
"""Commands that take no arguments: a line with more words after them is not the command."""

_SUBJECT_PREFIX = re.compile(r"\A\s*(?:(?:re|fwd?|aw|wg|sv|antw|tr|rif)\s*(?:\[\d+\])?\s*:\s*|\[[^\]]{0,80}\]\s*)*", re.IGNORECASE)
_PASSWORD_LINE = re.compile(r"^[ \t]*password[ \t]*:[ \t]*(.*?)[ \t]*$", re.IGNORECASE | re.MULTILINE)
_PLAYER_LINE = re.compile(r"^[ \t]*player[ \t]*:[ \t]*(.*?)[ \t]*$", re.IGNORECASE | re.MULTILINE)
_QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d", "\u201e": "\u201c", "\u2018": "\u2019", "\u00ab": "\u00bb", "\u201d": "\u201d"}
GUIDE = "docs/players.md (the player's guide)"


@dataclass(frozen=True)
class Command:
    word: str
    arguments: str
    """What follows the command word on its line."""
    where: str
    """`the Subject` or `the first line`."""
    text: str
    """The message's own text below the command (all of it when the command is the Subject)."""


def own_text(message: Any) -> str:
    """The sender's own words, as ingest reads them for orders: quotes, signature and forwards cut."""
    return inbox._unquoted(inbox._normal(inbox.body_text(message) or ""))  # inbox's readers, shared (not copied)


def _match(line: str) -> tuple[str, str] | None:
    words = line.strip().split(None, 1)
    if not words:
        return None
    word = words[0].lower().rstrip(".!?")
    arguments = words[1].strip() if len(words) > 1 else ""
    if word not in WORDS or (word in _ALONE and arguments.strip(".!?")):
        return None
    return word, arguments


def _has_order_document(message: Any) -> bool:
    try:
        inbox.find_orders(message)
    except inbox.NoOrders:
        return False
    except Exception:  # noqa: BLE001 - an attachment that cannot be read is still an order submission, refused by ingest
        return True
    return True


def _envelope_cut(text: str) -> str:
    """The text without its envelope lines (password:, player:): those are the judge's, never relayed."""
    kept = [line for line in text.split("\n") if not (_PASSWORD_LINE.match(line) or _PLAYER_LINE.match(line))]
    return "\n".join(line.rstrip() for line in kept).strip("\n")


def recognise(message: Any) -> Command | None:
    """The command a message carries, or None (orders, or neither)."""
    text = own_text(message)
    lines = text.split("\n")
    first = next((n for n, line in enumerate(lines) if line.strip()), None)
    candidates = [(_match(_SUBJECT_PREFIX.sub("", inbox.header(message, "Subject"), count=1)), "the Subject", text)]
    if first is not None:
        candidates.append((_match(lines[first]), "the first line", "\n".join(lines[first + 1 :])))
    for found, where, rest in candidates:
        if found is None:
            continue
        if found[0] == "orders" and (_has_order_document(message) or (where == "the Subject" and _envelope_cut(inbox.body_text(message) or "").strip())):
            continue  # Subject: orders has always meant "here are my orders": it asks only when nothing else is written
        return Command(found[0], found[1], where, rest)
    return None


# -- who asks ----------------------------------------------------------------------


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and _QUOTES.get(value[0]) == value[-1]:
        return value[1:-1]
    return value


def _bare(address: str) -> str:
    """`Tony <tony@example.org>` as campaign.yaml may write it: `tony@example.org`."""
    return email.utils.parseaddr(address)[1].strip().lower()


def registered_seat(campaign: Campaign, address: str, turn: int) -> str | None:
    """The seat whose registered address (for `turn`) is `address`, or None."""
    for player in campaign.players:
        registered = campaign.email(player["id"], turn)
        if address and registered and _bare(registered) == address:
            return str(player["id"])
    return None


@dataclass(frozen=True)
class Asker:
    seat: str | None
    """The seat proved to have sent the command; None when nobody is."""
    refusal: str = ""
    """Why no seat is proved (empty when one is)."""
    answer_to: str | None = None
    """The seat whose registered address hears of the refusal (the sender's own, registered), or None."""


def authenticate(campaign: Campaign, turn: int, address: str, text: str, document: Any = None) -> Asker:
    """Who sent a command: as for orders, by password where the campaign has them, else by address."""
    by_address = registered_seat(campaign, address, turn)
    claim = _PLAYER_LINE.search(text)
    claimed = _unquote(claim.group(1)) if claim else (document.get("player") if isinstance(document, dict) else None)
    if claimed is not None and campaign.player(str(claimed)) is None:
        return Asker(None, f"the line player: names '{str(claimed)[:40]}', who is not in this campaign", by_address)
    seat = str(claimed) if claimed is not None else by_address
    if not campaign.uses_passwords:
        if by_address is None:
            return Asker(None, f"{address or 'an unknown address'} is registered for no seat, and this campaign has no passwords")
        if seat != by_address:
            return Asker(None, f"it names {seat} but comes from the address registered for {by_address}", by_address)
        return Asker(seat)
    if seat is None:
        return Asker(None, f"{address or 'an unknown address'} is registered for no seat and the message names none (a line player: YOUR ID)")
    line = _PASSWORD_LINE.search(text)
    password = _unquote(line.group(1)) if line else (document.get("password") if isinstance(document, dict) else None)
    if password is None:
        return Asker(None, "it has no line password: YOUR PASSWORD, which this campaign needs in every command", by_address if by_address == seat else None)
    if not (campaign.password_ok(seat, str(password), turn) or campaign.password_ok(seat, _unquote(str(password)), turn)):
        return Asker(None, f"its password is not the password of {seat}", by_address if by_address == seat else None)
    return Asker(seat)


# -- what the answers read ------------------------------------------------------------


@dataclass
class Desk:
    """What every answer is built from: the campaign's settings, the pending turn and its state,
    the moment (None: unknown; then no time left is said) and the granted absences. Each answer
    takes the asking seat and that seat's own files; it reads the state only through the game's
    view of that seat, its `due` and its `phase`."""

    campaign: Campaign
    pending: int
    state: State
    over: bool
    now: dt.datetime | None = None
    granted: list[absences.Absence] = field(default_factory=list)

    def name(self, seat: str) -> str:
        return str(self.state.get("names", {}).get(seat, seat))

    @property
    def title(self) -> str:
        return f"{self.campaign.config.get('name')} ({self.campaign.game.title})"


def _deadline(desk: Desk) -> list[str]:
    try:
        due = schedule.deadline(desk.campaign.schedule, desk.pending)
    except schedule.ScheduleError:
        return ["Deadline: the GM's schedule cannot be read just now."]
    if due is None:
        return ["Deadline: none is set for this turn."]
    left = f" ({schedule.time_left(due, desk.now)})" if desk.now is not None else ""
    return [f"Deadline for turn {desk.pending}: {due.text}{left}."]


def _readings(sub: Submission, verb: str) -> list[str]:
    """A checked order file in words, as the acknowledgement and `pbem check` say it."""
    if sub.nmr:
        lines = ["REJECTED as a whole; you would count as NMR (no moves received). What is wrong:"]
        return lines + [f"  - {p.where}: {p.what}" for p in sub.problems]
    if not sub.readings:
        return ["It holds no orders (orders: []), which is a valid choice."]
    lines = ["The orders as the adjudicator reads them:"]
    for reading in sub.readings:
        lines.append(f"  {reading.index + 1:2d}. {reading.written}")
        lines.append(f"      -> {reading.meaning}" if reading.accepted else f"      -> VOID: {reading.void}. This order {verb} nothing; the others stand.")
    return lines


def command_list(campaign: Campaign) -> list[str]:
    mode = _press_mode(campaign)
    lines = [
        "  help               this list, the order format and the deadline",
        "  status             the turn, its deadline, who is due, whether your orders are filed",
        "  orders             your orders filed for the pending turn, as the adjudicator reads them",
        "  check              with your order file below (or attached): how it would be read; nothing is filed",
        "  report [N]         your report of turn N again (without N: the latest)",
    ]
    if mode != "none":
        lines.append("  press TO...        with your text below: a message to the players you name (ids or names, or all)")
    if mode == "grey":
        lines.append("  press anonymous TO...  the same, without your name")
    lines.append("  absence FROM TO    ask the GM for an absence, e.g. absence 2026-12-24 2027-01-02")
    return lines


def _press_mode(campaign: Campaign) -> str:
    try:
        return press.settings(campaign)[0]
    except press.PressError:
        return "none"


def _how_to_ask(campaign: Campaign) -> list[str]:
    lines = ["Write the command as the Subject of your mail, or as its first line."]
    if campaign.uses_passwords:
        lines.append("This campaign uses passwords: add a line  password: YOUR PASSWORD  to every command.")
    return lines


def help_reply(desk: Desk, seat: str) -> str:
    game = desk.campaign.game
    lines = [f"{desk.title}: the judge's commands, for {desk.name(seat)} ({seat}).", "", *_how_to_ask(desk.campaign), "", *command_list(desk.campaign), ""]
    mode = _press_mode(desk.campaign)
    lines.append({"none": "Press: none in this campaign.", "signed": "Press is signed: the players you write to see your name.",
                  "anonymous": "Press is anonymous: the players you write to are never told who sent it.",
                  "grey": "Press is signed unless you write press anonymous."}[mode])
    lines.append("")
    if desk.over:
        lines.append("The game is over: no orders are due. report and status still answer.")
    else:
        phase = game.phase(desk.state)
        document = _schema_document(game.id, phase)
        lines.append(f"Orders for turn {desk.pending} (phase {phase}): an order file, attached as a .yaml file or pasted into the mail:")
        lines += ["  player: YOUR ID", f"  turn: {desk.pending}"]
        if desk.campaign.uses_passwords:
            lines.append('  password: "YOUR PASSWORD"')
        lines += ["  orders:", "    - ONE ORDER", "    - ANOTHER ORDER"]
        if document.get("description"):
            lines += ["", f"Each order ({document.get('title', 'order')}): {document['description']}"]
        lines += ["The order form at the end of your latest report has the lines for you (send: report).", ""]
        lines += _deadline(desk)
    lines += ["", f"More: {GUIDE}."]
    return "\n".join(lines) + "\n"


def _schema_document(game_id: str, phase: str) -> dict[str, Any]:
    path = resource_dir("schemas") / game_id / f"{phase}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def status_reply(desk: Desk, seat: str, filed: bytes | None) -> str:
    game, campaign = desk.campaign.game, desk.campaign
    lines = [f"{desk.title}: status for {desk.name(seat)} ({seat}).", ""]
    if desk.over:
        winners = ", ".join(desk.name(p) for p in game.winners(desk.state))
        lines.append(f"The game is over after turn {desk.pending - 1}. Winners: {winners}.")
    else:
        lines.append(f"Turn {desk.pending}, phase {game.phase(desk.state)}.")
        lines += _deadline(desk)
        due = game.due(desk.state)
        lines.append(f"Due this turn: {', '.join(desk.name(p) for p in due)}.")
        if seat not in due:
            lines.append("You have nothing to order this turn.")
        elif filed is None:
            lines.append(f"Your orders for turn {desk.pending}: none filed yet.")
        else:
            sub = load_submission(campaign, desk.state, desk.pending, seat, filed, f"orders/{seat}.yaml")
            if sub.nmr:
                lines.append(f"Your orders for turn {desk.pending}: a file is filed but it is REJECTED (send: orders, for why).")
            else:
                void = f", {len(sub.void)} of them void" if sub.void else ""
                lines.append(f"Your orders for turn {desk.pending}: filed, {len(sub.readings)} orders{void}.")
    current = [a for a in desk.granted if desk.now is None or a.end >= desk.now.date()]  # past absences are no news
    if current:
        lines += ["", "Absences granted by the GM:"]
        lines += [f"  {desk.name(a.seat)}: {a.text}" for a in current]
    return "\n".join(lines) + "\n"


def orders_reply(desk: Desk, seat: str, filed: bytes | None) -> str:
    lines = [f"{desk.title}: orders filed for {desk.name(seat)} ({seat}).", ""]
    if desk.over:
        lines.append("The game is over: no orders are due.")
    elif seat not in desk.campaign.game.due(desk.state):
        lines.append(f"You have nothing to order in turn {desk.pending}.")
    elif filed is None:
        lines.append(f"No orders are filed for you for turn {desk.pending}. Without them you count as NMR (no moves received).")
    else:
        sub = load_submission(desk.campaign, desk.state, desk.pending, seat, filed, f"orders/{seat}.yaml")
        lines.append(f"For turn {desk.pending} this file is filed for you (the newest you sent).")
        lines += _readings(sub, "does")
    return "\n".join(lines) + "\n"


def check_reply(desk: Desk, seat: str, data: bytes | _Unreadable, where: str) -> str:
    """The reading `pbem check` gives of an order file (`data`: its bytes, or why none could be taken from the mail)."""
    lines = [f"{desk.title}: your order file checked, {desk.name(seat)} ({seat}). Nothing was filed.", ""]
    if desk.over:
        lines.append("The game is over: no orders are due.")
    elif isinstance(data, _Unreadable):
        lines += [f"No order file could be read: {data.reason}.", "Send check with your order file below it, or attached as a .yaml file."]
    else:
        sub = load_submission(desk.campaign, desk.state, desk.pending, seat, data, where)
        if sub.nmr and seat not in desk.campaign.game.due(desk.state):
            lines.append(f"You have nothing to order in turn {desk.pending}: the adjudicator would ignore the file.")
        else:
            lines.append(f"The file ({where}) for turn {desk.pending}: " + ("accepted." if not sub.nmr else ""))
            lines += _readings(sub, "would do")
        lines += ["", "To file it, send it again without the word check."]
    return "\n".join(lines) + "\n"


def report_reply(desk: Desk, seat: str, turn: int, report: str | None) -> str:
    if report is None:
        last = desk.pending - 1
        return f"{desk.title}: there is no report of turn {turn} for {desk.name(seat)}; reports exist for turns 0 to {last} (report N).\n"
    return report


@dataclass(frozen=True)
class _Unreadable:
    reason: str


# -- answering one message ----------------------------------------------------------------


@dataclass
class Inbound:
    """A message being handled by ingest: what its answer needs."""

    campaign: Campaign
    pending: int
    state: State
    over: bool
    now: dt.datetime | None
    message: Any
    raw: bytes
    seq: int
    label: str
    """The message's file name under mail/ (`<seq>-<hash>`)."""
    address: str
    """The sender's address, lower case ("" when unreadable)."""

    @cached_property
    def desk(self) -> Desk:
        return Desk(self.campaign, self.pending, self.state, self.over, self.now, absences.granted(self.campaign.root))


def _filed(desk: Desk, seat: str) -> bytes | None:
    """The seat's order file for the pending turn, read as the adjudication reads it (a regular file, to
    one byte past the size limit); only that one file, whatever the size of the campaign."""
    folder = desk.campaign.turn_dir(desk.pending) / "orders"
    for path in (folder / f"{seat}.yaml", folder / f"{seat}.yml"):
        if path.is_file() and not path.is_symlink():
            with open(path, "rb") as handle:
                return handle.read(yamlsafe.MAX_BYTES + 1)
    return None


def _report(campaign: Campaign, seat: str, turn: int) -> str | None:
    path = campaign.turn_dir(turn) / "reports" / f"{seat}.txt"
    if turn < 0 or not campaign.is_adjudicated(turn) or not path.is_file():
        return None
    return path.read_text(encoding="utf-8")


def _report_turn(desk: Desk, arguments: str) -> int | None:
    words = [w for w in arguments.lower().split() if w != "turn"]
    if not words:
        return desk.pending - 1
    return int(words[0]) if len(words) == 1 and words[0].isdigit() else None


def _document(message: Any) -> tuple[bytes | _Unreadable, str]:
    """The order file a `check` carries, as bytes, and where it was found."""
    try:
        found = inbox.find_orders(message)
    except (inbox.NoOrders, inbox.BadOrderFile) as exc:
        return _Unreadable(str(exc)), ""
    except Exception as exc:  # noqa: BLE001 - a player's bytes never stop an ingest
        return _Unreadable(f"it could not be taken from the mail ({type(exc).__name__})"), ""
    return found.data, found.where


def _envelope(data: bytes | _Unreadable) -> Any:
    """A check's order file read for its player: and password: lines (None when it cannot be read)."""
    if isinstance(data, _Unreadable):
        return None
    try:
        return yamlsafe.load(data)
    except Exception:  # noqa: BLE001 - the check answer says what is wrong with it
        return None


def answer(inbound: Inbound, command: Command, entry: Any) -> Any:
    """Answer one command message; fill in and return its mail/ingest.json entry."""
    desk, root = inbound.desk, inbound.desk.campaign.root
    entry.status, entry.turn, entry.found = "answered", desk.pending, f"the command '{command.word}' in {command.where}"
    entry.stored = f"mail/commands/{inbound.label}.eml"
    (root / "mail" / "commands").mkdir(parents=True, exist_ok=True)
    atomic.write_file(root / entry.stored, inbound.raw)
    document, where = _document(inbound.message) if command.word == "check" else (_Unreadable(""), "")
    asker = authenticate(desk.campaign, desk.pending, inbound.address, own_text(inbound.message), _envelope(document))
    if asker.seat is None:
        entry.reason = f"not answered: {asker.refusal}"
        if asker.answer_to is not None:
            body = f"{desk.title}: your '{command.word}' was NOT answered: {asker.refusal}.\nNothing was done.\n"
            entry.acknowledged = _reply(inbound, asker.answer_to, command.word, body)
        return entry
    seat = asker.seat
    entry.player = seat
    files: dict[str, bytes] = {}
    what = command.word
    if command.word == "help":
        body = help_reply(desk, seat)
    elif command.word == "status":
        body = status_reply(desk, seat, _filed(desk, seat))
    elif command.word == "orders":
        body = orders_reply(desk, seat, _filed(desk, seat))
    elif command.word == "check":
        body = check_reply(desk, seat, document, where)
    elif command.word == "report":
        turn = _report_turn(desk, command.arguments)
        if turn is None:
            body = f"{desk.title}: write report, or report N with N a turn number (report 2); nothing else follows it.\n"
        else:
            body, what = report_reply(desk, seat, turn, _report(desk.campaign, seat, turn)), f"report of turn {turn}"
    elif command.word == "press":
        relayed = press.relay(desk.campaign, desk.state, desk.pending, desk.over, inbound.seq, seat, command.arguments, _envelope_cut(command.text))
        if relayed.record is not None:
            press.keep(root, relayed.record)
            compose.write_outbox(root, relayed.files)
        body = f"{desk.title}: {relayed.receipt}\n"
    else:
        body, files = _absence(inbound, seat, command.arguments)
    compose.write_outbox(root, files)
    entry.reason = body.split("\n", 1)[0].removeprefix(f"{desk.title}: ")[:200] if command.word in ("press", "absence") else f"answered {command.word}"
    entry.acknowledged = _reply(inbound, seat, what, body)
    return entry


def _absence(inbound: Inbound, seat: str, arguments: str) -> tuple[str, dict[str, bytes]]:
    desk = inbound.desk
    try:
        start, end = absences.request(arguments)
    except absences.AbsenceError as exc:
        return f"{desk.title}: your absence request was NOT passed on: {exc}.\n", {}
    name, root = desk.name(seat), desk.campaign.root
    body = (
        f"{desk.title}: {name} ({seat}) asks to be away from {start.isoformat()} to {end.isoformat()} (message {inbound.seq}).\n\n"
        f"To grant it:            pbem absence {root} {seat} --grant {start.isoformat()} {end.isoformat()}\n"
        f"                        (listed in every status reply from then on)\n"
        f"To move the deadline:   pbem deadline {root} --extend DURATION  (e.g. 7 days)\n"
        "Or answer the player yourself.\n"
    )
    try:
        message = compose.make_message(
            desk.campaign, kind="absence", turn=desk.pending, to=[("", compose.gm_address(desk.campaign))],
            subject=f"[{desk.campaign.config.get('name')}] absence request from {name}", body=body,
        )
    except compose.MailError:
        return f"{desk.title}: your absence request could not be passed on (the campaign has no GM address); write to the GM.\n", {}
    files = {f"{turn_name(desk.pending)}/absence-{inbound.seq:05d}.eml": compose.to_bytes(message)}
    return f"{desk.title}: your absence request ({start.isoformat()} to {end.isoformat()}) was passed to the GM, who decides; granted absences are listed in the status reply.\n", files


def not_understood(inbound: Inbound, entry: Any, why: str) -> Any:
    """A message from a registered address that holds neither orders nor a command: a short list of the commands."""
    seat = registered_seat(inbound.desk.campaign, inbound.address, inbound.desk.pending)
    if seat is None:
        return entry  # no backscatter: an unregistered sender is never answered
    campaign = inbound.desk.campaign
    lines = [f"{inbound.desk.title}: your message was neither orders nor a command, so nothing was done.", ""]
    lines += [f"It holds no orders: {why}.", "", *_how_to_ask(campaign), *command_list(campaign), "", f"More: {GUIDE}."]
    entry.acknowledged = _reply(inbound, seat, "your message was not understood", "\n".join(lines) + "\n")
    return entry


def _reply(inbound: Inbound, seat: str, what: str, body: str) -> list[str]:
    """The answer, to the seat's registered address only; the addresses written (none without one)."""
    desk = inbound.desk
    address = desk.campaign.email(seat, desk.pending)
    if not address:
        return []
    name = f"{turn_name(desk.pending)}/reply-{inbound.seq:05d}.eml"
    if (compose.outbox_dir(desk.campaign.root) / name).is_file():
        # Written before a crash, perhaps sent since: the answer to a message is written once. Rebuilt
        # later it could say another time left, get another Message-ID and reach the player twice.
        return [_bare(address)]
    parent, references = inbox.thread_ids(inbound.message)
    try:
        message = compose.make_message(
            desk.campaign, kind="ack", turn=desk.pending, to=[(desk.name(seat), address)],
            subject=f"[{desk.campaign.config.get('name')}] turn {desk.pending}: {what}", body=body, in_reply_to=parent, references=references,
        )
    except compose.MailError:
        return []
    compose.write_outbox(desk.campaign.root, {name: compose.to_bytes(message)})
    return [_bare(address)]
