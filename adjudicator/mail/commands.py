"""Commands by mail: players ask the judge, and the judge answers (design 12).

    CAMPAIGN/mail/commands/<seq>-<hash>.eml        each command message, raw, as received
    CAMPAIGN/mail/outbox/turn-NNN/reply-<seq>.eml  the judge's answer
    CAMPAIGN/mail/outbox/turn-NNN/absence-<seq>.eml the GM told of an absence request

A message is a command when its Subject (after `Re:`, `Fwd:` and `[tags]`), or the first
line of its own text that is not blank and not an envelope line (`password:`, `player:`,
`campaign:`, in any order above it: mail/envelope.py), starts with a command word, in any case. The
own text is what ingest reads for orders (mail/inbox.py): the plain text or the HTML
made text, decoded from its charset, without quoted lines, signature or forwarded mail.
`help`, `status`, `orders` and `check` count only written alone (`Orders attached.`
is no command); `report`, `press` and `absence` take what follows as their arguments.
A bare `orders` is an order submission when the message holds an order document and,
as the Subject, when the mail says anything else at all: players have always sent their
orders (or forgotten to attach them) under that Subject, and ingest explains those.
The Subject's `help`, `status`, `orders` or `report` over an order document, or over sentences
that read as the seat's orders, is answered with the orders filed (design 17: ingest does both).

Who asks is settled as for orders: in a campaign with passwords, a line `password: ...`
(and, from an address not registered for the seat, a line `player: ID`); without
passwords, the sender's address must be the one registered for the seat. Every answer
goes to the seat's registered address and nowhere else (never a Reply-To, never an
unregistered sender): a message nobody can be proved to have sent gets no answer.
The answers themselves are built in mail/answers.py, from the asking seat's view only.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable

from ..campaign import absences, rollback, signup
from ..campaign.folder import Campaign, CampaignError, turn_name
from ..campaign.pending import OnPending, Pending
from ..common import atomic, ordertext, yamlsafe
from . import answers, compose, envelope, inbox, preface, press, sentences

WORDS = ("help", "guide", "status", "orders", "check", "report", "press", "absence", "resign")
_ALONE = frozenset({"help", "guide", "status", "orders", "check", "resign"})
"""Commands that take no arguments: a line with more words after them is not the command."""

_SUBJECT_PREFIX = re.compile(r"\A\s*(?:(?:re|fwd?|aw|wg|sv|antw|tr|rif)\s*(?:\[\d+\])?\s*:\s*|\[[^\]]{0,80}\]\s*)*", re.IGNORECASE)
_PRESS_SUBJECT = re.compile(r"\s*press\s+from\b", re.IGNORECASE)
"""The Subject the judge gives relayed press (`press from Tony`, mail/press.py): a reply keeps it."""
_TURN_NUMBER = re.compile(r"[0-9]{1,9}")
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
    return inbox.own_words(inbox.body_text(message) or "")  # inbox's readers, shared (not copied)


def _match(line: str) -> tuple[str, str] | None:
    words = envelope.password_after(line)[0].strip().split(None, 1)  # `status password: x7f` on one line is `status`
    if not words:
        return None
    word = words[0].lower().rstrip(".!?")
    arguments = words[1].strip() if len(words) > 1 else ""
    if word not in WORDS or (word in _ALONE and arguments.strip(".!?")):
        return None
    return word, arguments


WITH_ORDERS = ("help", "status", "orders", "report")
"""Commands whose word in the Subject does not stop an order document in the body from being filed
(design 17): the orders are filed and the acknowledgement carries the command's answer too. `check`
asks for a reading only and `press` relays the body; `absence` asks the GM for something else."""


def orders_with(message: Any) -> Command | None:
    """The command of a message's Subject when the message also holds an order document to file
    (design 12, 17): that command is answered in the acknowledgement; None when it is not so."""
    command = recognise(message)
    return command if command is not None and files_orders(command) and _holds_orders(message) else None


def files_orders(command: Command) -> bool:
    """Whether orders that come with this command, an order document or a mail of sentences, are filed
    and the command answered in the acknowledgement (design 17): a Subject's command of WITH_ORDERS."""
    return command.where == "the Subject" and command.word in WITH_ORDERS


def _holds_orders(message: Any) -> bool:
    """Whether the message holds an order document with an `orders:` list (`player:` and `password:` lines
    alone are how a command proves its sender, not orders)."""
    try:
        document = ordertext.load(inbox.find_orders(message).data)
    except Exception:  # noqa: BLE001 - not an order document that can be filed: the command is answered as before
        return False
    return isinstance(document, dict) and any(isinstance(k, str) and k.strip().casefold() == "orders" for k in document)


def answer_with_orders(desk: answers.Desk, seat: str, command: Command) -> tuple[str, str]:
    """What a command that came with orders (orders_with) answers, once the orders are filed: (what, body)."""
    if command.word == "help":
        return command.word, answers.help_reply(desk, seat)
    if command.word == "status":
        return command.word, answers.status_reply(desk, seat)
    if command.word == "orders":
        return command.word, answers.orders_reply(desk, seat)
    turn = _report_turn(desk, command.arguments)
    if turn is None:
        return command.word, f"{desk.title}: write report, or report N with N a turn number (report 2); nothing else follows it.\n"
    return f"report of turn {turn}", answers.report_reply(desk, seat, turn, _report(desk.campaign, seat, turn))


def _has_order_document(message: Any) -> bool:
    try:
        inbox.find_orders(message)
    except inbox.NoOrders:
        return False
    except Exception:  # noqa: BLE001 - an attachment that cannot be read is still an order submission, refused by ingest
        return True
    return True


def recognise(message: Any) -> Command | None:
    """The command a message carries, or None (orders, or neither)."""
    text = own_text(message)
    lines = text.split("\n")
    first = envelope.command_line(lines)
    subject = _SUBJECT_PREFIX.sub("", inbox.header(message, "Subject"), count=1)
    if _PRESS_SUBJECT.match(subject):
        subject = ""  # the judge's own Subject of relayed press, in a reply: what the player writes is the command
    candidates = [(_match(subject), "the Subject", text)]
    if first is not None:  # the player's own first line speaks before a Subject their client made up
        candidates.insert(0, (_match(lines[first]), "the first line", "\n".join(lines[:first] + lines[first + 1 :])))
    for found, where, rest in candidates:
        if found is None:
            continue
        if found[0] == "orders" and (_has_order_document(message) or (where == "the Subject" and envelope.cut(inbox.body_text(message) or "").strip())):
            continue  # Subject: orders has always meant "here are my orders": it asks only when nothing else is written
        return Command(found[0], found[1], where, rest)
    return None


# -- who asks ----------------------------------------------------------------------


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


def lost_password(campaign: Campaign) -> str:
    """How a player gets their password again: the judge has no command that mails it (a forged
    sender would get it), so the welcome mail, then the GM, who has gm/passwords.yaml."""
    gm = compose.gm_address(campaign) if campaign.gm_email else ""
    return ("Lost your password? It is in the judge's welcome mail to you (at the start, or when you took the seat); "
            f"the judge never mails it again, but your GM can: write to {gm or 'your GM'}.")


@dataclass(frozen=True)
class Asker:
    seat: str | None
    """The seat proved to have sent the command; None when nobody is."""
    refusal: str = ""
    """Why no seat is proved (empty when one is)."""
    answer_to: str | None = None
    """The seat whose registered address hears of the refusal (the sender's own, registered), or None."""
    password: bool = False
    """Whether the password was what was missing or wrong (the answer then says how to get it again)."""


def authenticate(campaign: Campaign, turn: int, address: str, text: str, document: Any = None) -> Asker:
    """Who sent a command: as for orders, by password where the campaign has them, else by address."""
    by_address = registered_seat(campaign, address, turn)
    claim = envelope.PLAYER_LINE.search(text)
    claimed = envelope.unquote(claim.group(1)) if claim else (document.get("player") if isinstance(document, dict) else None)
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
    written = envelope.password_in(text)
    password = written if written is not None else (document.get("password") if isinstance(document, dict) else None)
    if password is None:
        return Asker(None, "it has no line password: YOUR PASSWORD, which this campaign needs in every command", by_address if by_address == seat else None, True)
    if not (campaign.password_ok(seat, str(password), turn) or campaign.password_ok(seat, envelope.unquote(str(password)), turn)):
        return Asker(None, f"its password is not the password of {seat}", by_address if by_address == seat else None, True)
    return Asker(seat)


# -- answering one message ----------------------------------------------------------------


@dataclass
class Inbound(OnPending):
    """A message being handled by ingest: what its answer needs."""

    turn: Pending
    """The pending turn as read once for this slice of mail (campaign/pending.py)."""
    now: dt.datetime | None
    message: Any
    raw: bytes
    seq: int
    label: str
    """The message's file name under mail/ (`<seq>-<hash>`)."""
    address: str
    """The sender's address, lower case ("" when unreadable)."""
    seat_messages: Callable[[str], int] = lambda seat: 0
    """How many messages of this turn are already recorded for a seat (the flood limit counts seats:
    with passwords one player may write from as many addresses as they like)."""
    limit: int = 0
    """The most messages of one seat read for one turn (0: no limit)."""

    @cached_property
    def desk(self) -> answers.Desk:
        return answers.Desk(self.turn, self.now)


def _report(campaign: Campaign, seat: str, turn: int) -> str | None:
    path = campaign.turn_dir(turn) / "reports" / f"{seat}.txt"
    if turn < 0 or not campaign.is_adjudicated(turn) or not path.is_file() or rollback.withheld(campaign, turn):
        return None  # a turn held for the GM's preview is not given out either
    reader = campaign.last_turn if campaign.over else campaign.last_turn + 1  # the seat's holder now
    return preface.preface(campaign, seat, turn, reader) + path.read_text(encoding="utf-8")


def _report_turn(desk: answers.Desk, arguments: str) -> int | None:
    words = [w for w in arguments.lower().split() if w != "turn"]
    if not words:
        return desk.pending - 1
    # ASCII digits only: str.isdigit() also takes '²' and '①', which int() refuses (a ValueError stopped every tick)
    return int(words[0]) if len(words) == 1 and _TURN_NUMBER.fullmatch(words[0]) else None


def _document(message: Any) -> tuple[bytes | answers.Unreadable, str]:
    """The order file a `check` carries, as bytes, and where it was found."""
    try:
        found = inbox.find_orders(message)
    except (inbox.NoOrders, inbox.BadOrderFile) as exc:
        return answers.Unreadable(str(exc)), ""
    except Exception as exc:  # noqa: BLE001 - a player's bytes never stop an ingest
        return answers.Unreadable(f"it could not be taken from the mail ({type(exc).__name__})"), ""
    return found.data, found.where


def _envelope(data: bytes | answers.Unreadable) -> Any:
    """A check's order file read for its player: and password: lines (None when it cannot be read)."""
    if isinstance(data, answers.Unreadable):
        return None
    try:
        return yamlsafe.load(data)
    except Exception:  # noqa: BLE001 - the check answer says what is wrong with it
        return None


def _unseated(campaign: Campaign, address: str) -> str | None:
    """For an address the game knows that holds no seat (a place on the waiting list, an observer): what
    it may do instead of a seat's command, so that it hears something; None for any other address (a
    stranger gets no answer: no backscatter)."""
    if signup.bare(address) in {signup.bare(o) for o in signup.observers(campaign)}:
        return ("you observe this game: you get each public report, and nothing private; the seat commands\n"
                "(status, orders, press, ...) are for its players. Send unobserve to stop, or list for the games signing up.")
    try:
        waiting = signup.read(campaign).waiting if signup.KEY in campaign.config else []
    except CampaignError:
        return None
    places = [(n, str(w["id"])) for n, w in enumerate(waiting, 1) if w.get("email") and signup.bare(str(w["email"])) == signup.bare(address)]
    if not places:
        return None
    place, held = places[0]
    return (f"you hold no seat in this game: you are on its waiting list ({held}, place {place} of {len(waiting)}).\n"
            "When a seat comes free, the first on the list takes it and gets the seat's password and report then;\n"
            "until then the seat commands (status, orders, press, ...) are for the seated players. Send leave to leave the list.")


def answer(inbound: Inbound, command: Command, entry: Any) -> Any:
    """Answer one command message; fill in and return its mail/ingest.jsonl entry."""
    desk, root = inbound.desk, inbound.desk.campaign.root
    entry.status, entry.turn, entry.found = "answered", desk.pending, f"the command '{command.word}' in {command.where}"
    entry.stored = f"mail/commands/{inbound.label}.eml"
    (root / "mail" / "commands").mkdir(parents=True, exist_ok=True)
    atomic.write_file(root / entry.stored, inbound.raw)
    document, where = _document(inbound.message) if command.word == "check" else (answers.Unreadable(""), "")
    asker = authenticate(desk.campaign, desk.pending, inbound.address, own_text(inbound.message), _envelope(document))
    if asker.seat is None:
        entry.reason = f"not answered: {asker.refusal}"
        if asker.answer_to is not None:
            body = f"{desk.title}: your '{command.word}' was NOT answered: {asker.refusal}.\nNothing was done.\n"
            body += f"\n{lost_password(desk.campaign)}\n" if asker.password else ""
            entry.acknowledged = _reply(inbound, asker.answer_to, command.word, body)
        elif (unseated := _unseated(desk.campaign, inbound.address)) is not None:  # known to the game, holding no seat
            body = f"{desk.title}: your '{command.word}' was not answered: {unseated}\n"
            entry.acknowledged = _reply_to(inbound, "", _bare(inbound.address), command.word, body)
        return entry
    seat = asker.seat
    entry.player = seat
    if inbound.limit and inbound.seat_messages(seat) >= inbound.limit:
        entry.status = "rejected"
        entry.reason = f"more than {inbound.limit} messages for the seat {seat} for turn {desk.pending}; kept, not read (a limit against floods)"
        return entry
    files: dict[str, bytes] = {}
    what = command.word
    if command.word == "help":
        body = answers.help_reply(desk, seat)
    elif command.word == "guide":
        body = answers.guide_reply(desk, seat, _report(desk.campaign, seat, desk.pending - 1))
    elif command.word == "status":
        body = answers.status_reply(desk, seat)
    elif command.word == "orders":
        body = answers.orders_reply(desk, seat)
    elif command.word == "check":
        if isinstance(document, answers.Unreadable) and not desk.over and desk.turn.due(seat):
            # design 17: a check of plain sentences reads them as a mail of them would be read
            written = sentences.read(command.text, desk.campaign.game, desk.turn.position, seat, desk.name(seat))
            document, where = (written.document(desk.pending).data, sentences.WHERE) if written else (document, where)
        body = answers.check_reply(desk, seat, document, where)
    elif command.word == "report":
        turn = _report_turn(desk, command.arguments)
        if turn is None:
            body = f"{desk.title}: write report, or report N with N a turn number (report 2); nothing else follows it.\n"
        elif rollback.withheld(desk.campaign, turn):  # held for the GM's preview (judge: preview: true)
            body = f"{desk.title}: the report of turn {turn} is not out yet; it comes by mail once the GM releases the turn.\n"
        else:
            body, what = answers.report_reply(desk, seat, turn, _report(desk.campaign, seat, turn)), f"report of turn {turn}"
    elif command.word == "press":
        relayed = press.relay(desk.campaign, desk.state, desk.pending, desk.over, inbound.seq, seat, command.arguments, envelope.cut(command.text),
                              inbox.sender(inbound.message)[0])
        if relayed.record is not None:
            press.keep(root, relayed.record)
            compose.write_outbox(root, relayed.files)
        body = f"{desk.title}: {relayed.receipt}\n"
    elif command.word == "resign":
        body = _resign(inbound, seat)
    else:
        body, files = _absence(inbound, seat, command.arguments)
    compose.write_outbox(root, files)
    entry.reason = body.split("\n", 1)[0].removeprefix(f"{desk.title}: ")[:200] if command.word in ("press", "absence", "resign") else f"answered {command.word}"
    entry.acknowledged = _reply(inbound, seat, what, body)
    return entry


def _absence(inbound: Inbound, seat: str, arguments: str) -> tuple[str, dict[str, bytes]]:
    desk = inbound.desk
    try:
        start, end = absences.request(arguments)
    except absences.AbsenceError as exc:
        return f"{desk.title}: your absence request was NOT passed on: {exc}.\n", {}
    rules = absences.auto(desk.campaign)
    if rules is not None:
        return _absence_by_the_judge(inbound, seat, rules, start, end), {}
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


def _absence_by_the_judge(inbound: Inbound, seat: str, rules: absences.Auto, start: Any, end: Any) -> str:
    """`judge: absences: auto`: granted within the seat's budget left, else refused with the budget left.
    The reply goes to the seat alone; a deadline it covers is moved by the judge's tick (judge/absences.py),
    which tells every player still due without saying whose absence it was."""
    desk = inbound.desk
    decision = absences.decide(desk.campaign, rules, seat, start, end)
    span = decision.absence.text
    if not decision.granted:
        return (
            f"{desk.title}: your absence ({span}, {absences.words(absences.length(decision.absence))}) was NOT granted: "
            f"it is more than the {absences.words(decision.left)} left of your absence budget "
            f"({absences.words(rules.budget)} per player for the game). Ask for a shorter one, or write to the GM.\n"
        )
    head = "was already granted" if decision.already else "is granted"
    due = desk.turn.deadline()
    moves = ""
    if due is not None and desk.turn.due(seat) and not desk.over:
        to = absences.covering([decision.absence], {seat}, due.at, due.at.tzinfo)  # type: ignore[arg-type]
        if to is not None:
            moves = (f"\nIt covers the deadline of turn {desk.pending} ({due.text}): the judge moves that deadline to the end of "
                     "your absence for everyone, and tells each player still due (without saying whose absence it was).\n")
    return (
        f"{desk.title}: your absence ({span}) {head}. Your absence budget has {absences.words(decision.left)} left.\n{moves}"
    )


def _resign(inbound: Inbound, seat: str) -> str:
    """The seat vacant from the pending turn (campaign/signup.py), recorded before this answer is written."""
    desk = inbound.desk
    if desk.over:
        return f"{desk.title}: the game is over; there is no seat to resign.\n"
    try:
        signup.resign(desk.campaign, seat, desk.pending)
    except signup.SignupError as exc:
        return f"{desk.title}: your resignation was NOT recorded: {exc}.\n"
    # What the same tick does with the seat (judge/seats.py settle): the first waiting player takes it at once (design 16).
    waiting = bool((desk.campaign.config.get(signup.KEY) or {}).get("waiting"))
    after = ("taken over at once by the first player on the waiting list" if waiting else
             "vacant: the stand-in plays it until a new player takes it over")
    return f"{desk.title}: your resignation is recorded. From turn {desk.pending} the seat {seat} is {after}.\nThank you for playing.\n"


def not_understood(inbound: Inbound, entry: Any, why: str, fix: tuple[str, str] = ("", "")) -> Any:
    """A message from a registered address that holds neither orders nor a command: a short list of the
    commands; or, when it holds an order form where it is not read (inbox.NoOrders.fix), what to do first."""
    seat = registered_seat(inbound.desk.campaign, inbound.address, inbound.desk.pending)
    if seat is None:
        return entry  # no backscatter: an unregistered sender is never answered
    campaign = inbound.desk.campaign
    todo, unread = fix
    if todo:  # orders meant, put where they are not read (trial 2: typed into the quoted form): the fix leads
        lines = [f"{inbound.desk.title}: {todo}.", "", f"{unread[0].upper()}{unread[1:]}: nothing was filed, and any orders filed before this message stand unchanged."]
        lines += ["Send your orders again above the quoted text, or attach them as a .yaml file.", "", f"Send help for the commands; {answers.GUIDE}."]
        what = "your orders were not read"
    else:
        lines = [f"{inbound.desk.title}: your message was neither orders nor a command, so nothing was done.", ""]
        lines += [f"It holds no orders: {why}.", "", *answers.how_to_ask(campaign), *answers.command_list(campaign), "", f"More: {answers.GUIDE}."]
        what = "your message was not understood"
    entry.acknowledged = _reply(inbound, seat, what, "\n".join(lines) + "\n")
    return entry


def _reply(inbound: Inbound, seat: str, what: str, body: str) -> list[str]:
    """The answer, to the seat's registered address only; the addresses written (none without one)."""
    desk = inbound.desk
    address = desk.campaign.email(seat, desk.pending)
    if not address:
        return []
    return _reply_to(inbound, desk.name(seat), address, what, body)


def _reply_to(inbound: Inbound, shown: str, address: str, what: str, body: str) -> list[str]:
    """The answer to `address` (`shown`: the name on it), written once; the addresses written (none when it cannot be built)."""
    desk = inbound.desk
    name = f"{turn_name(desk.pending)}/reply-{inbound.seq:05d}.eml"
    if (compose.outbox_dir(desk.campaign.root) / name).is_file():
        # Written before a crash, perhaps sent since: the answer to a message is written once. Rebuilt
        # later it could say another time left, get another Message-ID and reach the player twice.
        return [_bare(address)]
    parent, references = inbox.thread_ids(inbound.message)
    try:
        message = compose.make_message(
            desk.campaign, kind="ack", turn=desk.pending, to=[(shown, address)],
            subject=compose.reply_subject(desk.campaign, desk.pending, desk.over, what), body=body, in_reply_to=parent, references=references,
        )
    except compose.MailError:
        return []
    compose.write_outbox(desk.campaign.root, {name: compose.to_bytes(message)})
    return [_bare(address)]
