"""`pbem ingest`: file orders from mail into the pending turn, once per message, losing nothing.

    CAMPAIGN/mail/ingest.jsonl                         every message ever ingested, one line each, appended
    CAMPAIGN/mail/turn-NNN/<player>/<seq>-<hash>.eml   each accepted message, raw, with the .yaml found in it
    CAMPAIGN/mail/rejected/<seq>-<hash>.eml            each refused message, raw, with <seq>-<hash>.txt: why
    CAMPAIGN/turn-NNN/orders/<player>.yaml             the newest accepted orders of each player

A message is known by the SHA-256 of its bytes: one already recorded is skipped,
so ingesting the same mailbox twice changes nothing. A different message under a
Message-ID already recorded is read like any other, and the collision is noted.
Of a player's accepted messages for a turn, the newest by Date (then by arrival)
is filed; the others stay in mail/ as superseded. A Date more than CLOCK_SKEW
after the moment of the ingest counts as no date, so a message dated in the future
cannot keep a player from correcting their orders. A message is accepted when its
order document passes the same checks as `pbem check`; one that fails them, names
no player, or carries no orders is kept in mail/rejected/ with the reason, and
never replaces orders already filed.

Who hears back. An acknowledgement lists the player's reading of their orders,
which is private: it goes to the address registered for the seat only (to the
sender's From address when the seat has none and the file carried the seat's
password), never to a Reply-To. A refusal goes only to a registered address
(the From of a message sent from a player's address), at most once per reason
and turn, and echoes no more than a line of what the sender wrote: mail from
strangers gets no reply, so a forged message cannot make the GM's address send
mail to a third party. Where a game's rules keep NMR private, no mail says who
else is still missing.

Floods. At most MESSAGES_PER_SENDER messages of one sender are read for a turn;
the rest are kept unread. Messages are handled in slices of SLICE messages, each
under the campaign lock, and the lock is let go between slices: `pbem adjudicate`
at the deadline gets in, and what was not yet filed then counts for the next turn,
as late mail does. Each message costs the same whatever the number recorded: the
index is a journal, one line appended per message.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import hashlib
import json
import os
import re
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ..campaign import schedule
from ..campaign.adjudicate import prepare
from ..campaign.folder import Campaign, turn_name
from ..campaign.pending import OnPending, Pending, Verdict, check
from ..campaign.pending import read as read_pending
from ..campaign.pipeline import Submission, as_meant, nmr_means
from ..campaign.standins import ABANDONED, GM, abandon_after
from ..common import atomic, ordertext, yamlsafe
from ..common.words import plural
from ..publish.render import Renderer
from . import answers, commands, compose, deliver, inbox, preface, sentences

_AUTOMATIC_SENDERS = ("mailer-daemon@", "postmaster@", "noreply@", "no-reply@")
CLOCK_SKEW = dt.timedelta(minutes=15)
"""How far in the future a message's Date may be (clocks of senders' machines are a little off)."""
MESSAGES_PER_SENDER = 20
"""Messages of one sender read for one turn; a player correcting orders needs far fewer."""
SLICE = 200
"""The most messages handled under one hold of the campaign lock."""
SLICE_SECONDS = 1.0
"""The longest one hold lasts (well within the seconds a waiting command waits: atomic.LOCK_WAIT).
Where a slice ends changes nothing a message leaves, unless another command comes in between."""
PAUSE = 0.1
"""Seconds the lock is let go between slices (a waiting command polls far more often)."""
LATER_SLICE_WAIT = 120.0
"""Seconds a later slice waits for the lock (another command, such as a turn being adjudicated)."""
ECHO = 72
"""The most of a sender's own text (a Message-ID, a Date) a reply echoes: one line."""


@dataclass
class Entry:
    """One message's line in mail/ingest.jsonl."""

    seq: int
    key: str
    """`sha256:` and the hash of the message's bytes (a Message-ID alone in campaigns from before)."""
    message_id: str
    sender: str
    date: str | None
    """The message's Date in UTC (ISO 8601); None when it has none that can be read or it is in the future."""
    subject: str
    status: str
    """`filed` (its orders are in the turn folder), `superseded` (a newer message of the player is filed), `rejected`,
    `answered` (a command for the judge, mail/commands.py), or `own` (mail the judge sent itself, come back to a
    judge inbox: skipped, nothing kept, no reply)."""
    turn: int | None = None
    """The turn pending when the message was handled."""
    player: str | None = None
    reason: str = ""
    found: str = ""
    """Where the order document was found (`attachment tony.yaml`, `the body`, ...)."""
    stored: str = ""
    """The raw message under mail/."""
    acknowledged: list[str] = field(default_factory=list)
    """Addresses the acknowledgement went to (empty when none was written)."""
    notes: list[str] = field(default_factory=list)
    """What the GM should know beyond the status: a Message-ID already used, a Date in the future, no reply."""
    received: str | None = None
    """The moment of the judge's tick that read it (its `--now`), ISO 8601: a turn that recorded the same moment
    was adjudicated in the same run, before the acknowledgement could go (mail/reportmail.py). None from
    `pbem ingest`, whose turns are adjudicated by hand and record no moment (and whose index holds no clock)."""


@dataclass
class IngestResult:
    entries: list[Entry]
    """The messages this run handled (new ones only), in arrival order."""
    skipped: int
    """Messages seen in an earlier run."""
    notes: list[str]
    acknowledgements: list[Acknowledge] = field(default_factory=list)
    """How each acknowledgement this run wrote is built, for `refresh` once the tick's later steps are done."""


# -- the index: a journal, one JSON line per message (a later line for the same seq replaces it) ------------------


def index_path(root: Path) -> Path:
    return compose.mail_dir(root) / "ingest.jsonl"


def _legacy_path(root: Path) -> Path:
    """The index as one JSON document, as campaigns before the journal have it; read, never written."""
    return compose.mail_dir(root) / "ingest.json"


def _line(entry: Entry) -> bytes:
    # "replace": a lone surrogate that slipped into an entry (text decoded from UTF-7 or UTF-16) must not stop
    # every later ingest at the same message; the record is for the GM to read, the raw message is kept as is.
    return json.dumps(asdict(entry), ensure_ascii=False, separators=(",", ":")).encode("utf-8", "replace") + b"\n"


def load_index(root: Path) -> list[Entry]:
    by_seq: dict[int, Entry] = {}
    legacy = _legacy_path(root)
    if legacy.is_file():
        for item in json.loads(legacy.read_text(encoding="utf-8"))["messages"]:
            by_seq[item["seq"]] = Entry(**item)
    path = index_path(root)
    if path.is_file():
        data = path.read_bytes()
        for line in data[: data.rfind(b"\n") + 1].splitlines():  # a line cut short by a crash is not a record
            if line:
                item = json.loads(line)
                by_seq[item["seq"]] = Entry(**item)
    return [by_seq[seq] for seq in sorted(by_seq)]


def save_index(root: Path, entries: list[Entry]) -> None:
    """Write the whole index anew (`pbem replace` changes entries already recorded)."""
    compose.ensure_mail_dir(root)
    atomic.write_file(index_path(root), b"".join(_line(e) for e in entries))
    _legacy_path(root).unlink(missing_ok=True)  # its entries are all in the journal now


def record(root: Path, entries: list[Entry]) -> None:
    """Append these entries as they are now to the journal, durably; the cost does not grow with the index."""
    path = index_path(root)
    if not path.exists():
        compose.ensure_mail_dir(root)
        atomic.write_file(path, b"".join(_line(e) for e in entries))
        return
    fd = os.open(path, os.O_RDWR | os.O_APPEND)
    try:
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":  # a crash cut the last line short: drop it first
            os.ftruncate(fd, path.read_bytes().rfind(b"\n") + 1)
        data = b"".join(_line(e) for e in entries)
        while data:
            data = data[os.write(fd, data) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def _stamp(root: Path) -> tuple[int, int, int] | None:
    """What tells whether another command changed the index since this one last wrote it."""
    try:
        info = index_path(root).stat()
    except FileNotFoundError:
        return None
    return info.st_ino, info.st_size, info.st_mtime_ns


def message_key(raw: bytes) -> str:
    return "sha256:" + hashlib.sha256(raw).hexdigest()


@dataclass
class _Book:
    """What the index says, kept up to date as messages are handled, so that nothing is looked up by a scan."""

    entries: list[Entry]
    known: set[str] = field(default_factory=set)
    ids: dict[str, int] = field(default_factory=dict)
    """Message-ID -> the first message recorded under it."""
    filed: dict[tuple[int | None, str | None], Entry] = field(default_factory=dict)
    senders: Counter[tuple[int | None, str]] = field(default_factory=Counter)
    seats: Counter[tuple[int | None, str]] = field(default_factory=Counter)
    """(turn, seat) -> messages proved or claimed to be the seat's: the flood limit counts seats, not addresses."""
    refusals: set[tuple[int | None, str, str]] = field(default_factory=set)
    """(turn, address, reason) of every refusal written."""
    legacy: bool = False
    """Whether some entries are keyed by their Message-ID alone (recorded before keys were hashes)."""

    @classmethod
    def load(cls, root: Path) -> _Book:
        book = cls([])
        for entry in load_index(root):
            book.add(entry)
        return book

    def add(self, entry: Entry) -> None:
        self.entries.append(entry)
        self.known.add(entry.key)
        self.legacy = self.legacy or not entry.key.startswith("sha256:")
        if entry.message_id:
            self.ids.setdefault(entry.message_id, entry.seq)
        if entry.status == "filed":
            self.filed[(entry.turn, entry.player)] = entry
        self.senders[(entry.turn, entry.sender)] += 1
        if entry.player:
            self.seats[(entry.turn, entry.player)] += 1
        if entry.status == "rejected" and entry.acknowledged:
            self.refusals.add((entry.turn, entry.acknowledged[0], entry.reason))

    def seen(self, key: str, raw: bytes) -> bool:
        """Whether the message is recorded: by its bytes, or (for entries from before) by its Message-ID alone."""
        if key in self.known:
            return True
        return self.legacy and _message_id(raw) in self.known


def _date(message: Any, now: dt.datetime) -> tuple[str | None, str]:
    """(the message's Date in UTC as ISO 8601, or None; a note for the GM when a Date was there but not used)."""
    text = inbox.header(message, "Date")
    try:
        when = email.utils.parsedate_to_datetime(text)
        if when.tzinfo is None:  # RFC 5322's -0000: the zone is unknown; take it as UTC
            when = when.replace(tzinfo=dt.UTC)
        when = when.astimezone(dt.UTC)
    except (TypeError, ValueError, IndexError, OverflowError):  # OverflowError: year 9999 moved past the end of time
        return None, (f"its Date ({_echo(text)}) cannot be read; it counts as older than any dated message" if text else "")
    if when > now + CLOCK_SKEW:
        return None, f"its Date ({_echo(text)}) is in the future; it counts as older than any dated message"
    return when.isoformat(), ""


def _echo(text: str) -> str:
    """A sender's text as a reply may echo it: one line, at most ECHO characters."""
    line = " ".join(str(text).split())
    return line if len(line) <= ECHO else line[: ECHO - 3] + "..."


def newer(a: Entry, b: Entry) -> bool:
    """Whether `a` is newer than `b`: by Date (a message without one counts as older), then by arrival."""
    return (a.date is not None, a.date or "", a.seq) > (b.date is not None, b.date or "", b.seq)


# -- one message -----------------------------------------------------------------------


@dataclass
class _Context(OnPending):
    turn: Pending
    """The pending turn as read at the start of the slice, with every file this slice has filed since."""
    book: _Book
    now: dt.datetime
    received: str | None = None
    """Entry.received for the messages of this run (the judge's tick), else None."""
    message: Any = None
    """The message being handled (for the threading headers of its reply)."""
    _verdict: Verdict | None = None

    @property
    def verdict(self) -> Verdict:
        """The pending turn checked (only where a reply says who is still missing: checking every file costs)."""
        if self._verdict is None:
            self._verdict = check(self.turn)
        return self._verdict

    def filed(self, player: str, data: bytes) -> None:
        """`player`'s file now holds `data`: what later messages of this slice, and their replies, see."""
        self.turn = self.turn.with_order_file(f"{player}.yaml", data)
        self._verdict = None


@dataclass
class _Decision:
    """What handling one message comes to, before anything is written."""

    entry: Entry
    files: dict[str, bytes] = field(default_factory=dict)
    """Campaign-relative paths and their bytes, written in this order, before the entry is recorded."""
    replaced: Entry | None = None
    """The entry this one supersedes (recorded again with its new status)."""
    acknowledge: Acknowledge | None = None
    """How its acknowledgement is built from the pending turn (`refresh` builds it again)."""


_AUTOMATIC_PRECEDENCE = ("bulk", "junk", "list", "auto_reply")
_AUTORESPONDER_HEADERS = ("X-Autorespond", "X-Autoreply", "X-Auto-Response-Suppress")
"""Headers that vacation responders and other robots set (RFC 3834 5 lists the practice; Exchange sets the last)."""


def _automatic(message: Any, address: str, campaign: Campaign) -> str | None:
    """Why a message must get no reply (an auto-reply, a bounce, our own mail), or None (RFC 3834: never
    answer an automatic message, or two robots write to each other for ever)."""
    auto = inbox.header(message, "Auto-Submitted").lower()
    if auto and auto != "no":
        return f"an automatic message (Auto-Submitted: {_echo(auto)})"
    precedence = inbox.header(message, "Precedence").lower()
    if precedence in _AUTOMATIC_PRECEDENCE:
        return f"an automatic or bulk message (Precedence: {_echo(precedence)})"
    robot = next((name for name in _AUTORESPONDER_HEADERS if name in message), None)
    if robot:
        return f"an automatic message (it carries {robot})"
    if address.startswith(_AUTOMATIC_SENDERS):
        return "an automatic or bulk message (bounce, mailing list or no-reply sender)"
    if campaign.gm_email and address == email.utils.parseaddr(campaign.gm_email)[1].lower():
        return "a message from the GM address itself"
    return None


def _registered(campaign: Campaign, player: str, turn: int) -> str:
    """The address registered for the seat, lower case ("" when campaign.yaml has none)."""
    return email.utils.parseaddr(campaign.email(player, turn) or "")[1].strip().lower()


def _registered_seat(campaign: Campaign, address: str, turn: int) -> str | None:
    for player in campaign.players:
        if address and _registered(campaign, str(player["id"]), turn) == address:
            return str(player["id"])
    return None


_YAML_LINE = re.compile(r"\(line (\d+), column (\d+)\)")


def _yaml_problem(exc: yamlsafe.YamlError, found: inbox.OrderDocument, message: Any) -> str:
    """The loader's words with its line counted in what the player sent, and that line quoted back once, as typed."""
    text = str(exc)
    match = _YAML_LINE.search(text)
    line = exc.line if isinstance(exc.line, int) else int(match.group(1)) if match else None
    if line is None:
        return text
    sent = found.line(line)
    if found.lines and exc.quoted is not None:  # from the body: the message's line, as typed (not the tidied copy read)
        text = str(yamlsafe.YamlError(exc.problem, sent, exc.column, exc.quoted).as_written(inbox.written(message)))
        match = _YAML_LINE.search(text)
    where = f"line {sent} of your message" if found.lines else f"line {line} of the attachment"
    if match:
        text = text.replace(match.group(0), f"({where}, column {match.group(2)})")
    else:
        text = f"{text} ({where})"
    lines = found.data.decode("utf-8", "replace").split("\n")
    if 1 <= line <= len(lines) and lines[line - 1].strip() and exc.quoted is None:  # once: the loader may have quoted it
        text += f"; that line reads: {_echo(lines[line - 1])}"
    # The line quoted back is the player's own, to the player only; yet never the password (issue 26.4).
    text = yamlsafe.scrub(text, yamlsafe.password_values(found.data))
    return _PASSWORD_ECHO.sub(lambda m: m[0] if yamlsafe.is_placeholder(m[2]) else f"{m[1]} {yamlsafe.HIDDEN}", text)


_PASSWORD_ECHO = re.compile(r"""(that line reads: ["']?password["']?[ \t]*:)(.*)""", re.IGNORECASE)


def _late(ctx: _Context, document: Any) -> str | None:
    """Orders for a turn already adjudicated: late, said as such (not as a wrong turn number)."""
    named = document.get("turn") if isinstance(document, dict) else None
    if isinstance(named, bool) or not isinstance(named, int) or not 0 < named < ctx.pending or not ctx.campaign.is_adjudicated(named):
        return None
    at = ctx.campaign.adjudicated_at(named)  # as the turn recorded it (the judge's `now`), never a file's time
    when = " on " + schedule.local_text(ctx.campaign.schedule, at) if at is not None else ""
    return f"late: turn {named} was adjudicated{when}; the pending turn is {ctx.pending}"


def _late_fix(ctx: _Context, seat: str | None) -> list[str]:
    """What a player whose file still says an adjudicated turn does: most often it is this turn's orders
    on the last turn's form, so say how to send them for the pending turn, and when the turn still waits for them."""
    pending = ctx.pending
    lines = [f"If these are your orders for turn {pending}, send them again with the line  turn: {pending}",
             f"(the order form at the end of your latest report is the one for turn {pending})."]
    if seat is not None and seat in ctx.verdict.waiting:
        lines.append(f"No orders for turn {pending} are filed for your seat yet.")
    return lines


def handle(ctx: _Context, incoming: inbox.Incoming, seq: int, key: str) -> _Decision:
    """Decide one new message and build the files it leaves; nothing is written here."""
    campaign = ctx.campaign
    oversize = len(incoming.raw) > inbox.MAX_MESSAGE_BYTES
    notes: list[str] = []
    try:  # an oversize message is not parsed whole: its headers are enough to name and refuse it
        message = inbox.parse(incoming.raw[: inbox.HEADER_BYTES] if oversize else incoming.raw)
        message_id = inbox.message_id(message)
        _, address = inbox.sender(message)
        subject = inbox.header(message, "Subject")
        date, note = _date(message, ctx.now)
        notes += [note] if note else []
    except Exception:  # noqa: BLE001 - junk is kept, never fatal
        message, message_id, address, subject, date = None, "", "", "", None
    ctx.message = message
    if message_id in ctx.book.ids:
        notes.append(f"its Message-ID was already used by message {ctx.book.ids[message_id]}, a different message: read on its own")
    entry = Entry(seq, key, message_id, address, date, subject[:200], "rejected", turn=ctx.pending, notes=notes, received=ctx.received)
    decision = _Decision(entry)
    label = f"{seq:05d}-{key.removeprefix('sha256:')[:10]}"

    def reject(reason: str, player: str | None = None, document: str = "", reply: bool = False, fix: list[str] | None = None,
               alarm: bool = False, calm: tuple[str, str] | None = None, answered: str = "") -> _Decision:
        if asked is not None:
            reason += f" (the Subject's '{asked.word}' was not answered, as it came with orders: send '{asked.word}' alone to ask)"
        entry.reason, entry.player, entry.found = reason, player, document
        entry.stored = f"mail/rejected/{label}.eml"
        decision.files[entry.stored] = incoming.raw
        decision.files[f"mail/rejected/{label}.txt"] = f"{incoming.source}\n{reason}\n".encode("utf-8", "replace")
        if reply and message is not None and campaign.gm_email:
            _reply(decision, lambda: _refusal(ctx, entry, seat_by_address, fix, alarm, calm, answered))
        return decision

    seat_by_address = None
    asked: commands.Command | None = None  # a Subject command that came with orders (design 17), once known
    if message is None:
        return reject("not a readable email message")
    if compose.is_own(message):  # the judge's own mail come back (the GM's copies, a public report): not player mail
        entry.status, entry.reason = "own", "the judge's own mail"
        return decision
    automatic = _automatic(message, address, campaign)
    if automatic:
        return reject(automatic)
    seat_by_address = _registered_seat(campaign, address, ctx.pending)
    if oversize:  # a registered player hears why (issue 26.11); a stranger gets nothing, as ever
        return reject(
            f"larger than {inbox.MAX_MESSAGE_BYTES // (1024 * 1024)} MiB, so it was not read: send the orders again without "
            "pictures or other large attachments (in the body, or as a small .yaml file)",
            seat_by_address,
            reply=True,
        )
    if ctx.book.senders[(ctx.pending, address)] >= MESSAGES_PER_SENDER:
        return reject(
            f"more than {MESSAGES_PER_SENDER} messages from {address or 'an unknown sender'} for turn {ctx.pending}; "
            "kept, not read (a limit against floods)",
            seat_by_address,
        )
    inbound = commands.Inbound(ctx.turn, ctx.now, message, incoming.raw, seq, label, address, lambda seat: ctx.book.seats[(ctx.pending, seat)], MESSAGES_PER_SENDER)
    asked = commands.orders_with(message)  # a command in the Subject and orders in the body: both (design 17)
    command = None if asked is not None else commands.recognise(message)
    written: sentences.Sentences | None = None  # the mail's sentences as the seat's orders, once read
    if command is not None and commands.files_orders(command) and not ctx.over:
        written = _sentences(ctx, message, seat_by_address)
        if written is not None:  # lines meant as orders under that Subject are read as without it (design 17)
            asked, command = command, None
    if command is not None:  # a command for the judge (mail/commands.py), not orders: it writes its own files
        return _Decision(commands.answer(inbound, command, entry))
    if ctx.over:  # design 15: whatever a player sends after the last turn, in a form or in words, gets one reply
        return reject(f"the game is over after turn {ctx.pending - 1}; no orders are due, and none are filed", seat_by_address, reply=True,
                      fix=answers.final_standings(inbound.desk),
                      calm=(f"the game is over after turn {ctx.pending - 1}, so nothing from your message is filed", "the game is over"))
    try:
        found = inbox.find_orders(message)
    except inbox.NoOrders as exc:  # neither orders nor a command: the registered sender gets the list of commands
        written = written or _sentences(ctx, message, seat_by_address)  # the game is not over: that was answered above
        if written is not None and not written.read and not exc.unread and not (exc.form and _filled(exc.form)):
            # lines of their own, none read (above the quoted report's untouched form, or with no form anywhere),
            # and no attachment that may be the orders: answer what they wrote, line by line, never where a form was
            reason, fix = _unread(ctx, written)
            answered = ""
            if asked is not None and commands.authenticate(campaign, ctx.pending, address, commands.own_text(message)).seat == seat_by_address:
                answered, text = _also_asked(ctx, written.seat, asked, "")  # none stands: the Subject's command is answered all the same
                fix += ["", *text]
                asked = None
            return reject(reason, seat_by_address, "the sentences of your mail", reply=True, fix=fix, answered=answered)
        if written is None or not written.read:  # no orders, or typed into the quoted form: say where to write them
            refused = reject(f"no orders: {exc}", seat_by_address)
            commands.not_understood(inbound, refused.entry, str(exc), exc.fix)
            return refused
        found = written.document(ctx.pending)
    except inbox.BadOrderFile as exc:
        return reject(f"the order file cannot be read: {exc}", seat_by_address, reply=True)
    except Exception as exc:  # noqa: BLE001
        return reject(f"no orders: the message could not be taken apart ({type(exc).__name__})", seat_by_address)
    try:
        document = ordertext.load(found.data)
    except yamlsafe.YamlError as exc:
        return reject(f"the order file ({found.where}) cannot be read: {_yaml_problem(exc, found, message)}", seat_by_address, found.where, reply=True)
    except Exception as exc:  # noqa: BLE001
        return reject(f"the order file ({found.where}) cannot be read ({type(exc).__name__})", seat_by_address, found.where, reply=True)
    document = as_meant(document, ctx.turn.position)
    late = _late(ctx, document)
    if late:
        return reject(late, seat_by_address, found.where, reply=True, fix=_late_fix(ctx, seat_by_address))
    named = document.get("player") if isinstance(document, dict) else None
    if not isinstance(named, str) or campaign.player(named) is None:
        what = f"names the player '{_echo(str(named))[:40]}', who is not in this campaign" if named is not None else "names no player (player: your id)"
        fix = None if seat_by_address is None else [  # the From line names a seat: say which, so the player can write it
            f"You hold the seat {seat_by_address}: write  player: {seat_by_address}  in your order file and send it again."]
        return reject(f"matches no player: the order file {what}", seat_by_address, found.where, reply=True, fix=fix)
    sub = ctx.turn.check_document(document, player=None, source=found.where)
    registered = _registered(campaign, named, ctx.pending)
    placeholder = campaign.uses_passwords and yamlsafe.is_placeholder(document.get("password"))
    if placeholder and not document.get("orders"):  # design 17: the form sent back untouched is valid and says nothing
        return reject(f"the order form for {named} came back untouched (no orders, the password line as the form has it): "
                      "nothing to file", named, found.where, reply=True,
                      fix=[f"To give orders for turn {ctx.pending}, fill the form in: copy an example line below orders:, remove its #,",
                           "fill it in, and write your password on the password: line. Then send it again."],
                      calm=("your message holds the order form as it was sent to you, untouched: it gives no orders, "
                            "so there is nothing to file", "nothing to file"))
    if sub.nmr:
        problems = "; ".join(f"{p.where}: {p.what}" for p in sub.problems)
        # A wrong password may be a forgery from the seat's own address (the From line proves nothing); the
        # form's placeholder is a player who forgot to fill it in, and is told just that.
        alarm = any(p.where == "password" for p in sub.problems) and not placeholder
        fix = [f'Write your seat\'s password on the password: line in place of "{yamlsafe.FORM_PASSWORD}" (keep the quotes; '
               "it is in your welcome mail) and send the whole order file again."] if placeholder else None
        return reject(f"the order file for {named} was refused: {problems}", named, found.where, reply=True, fix=fix, alarm=alarm)
    if not campaign.uses_passwords and registered and registered != address:
        return reject(
            f"sent for {named} from {_echo(address) or 'an unknown address'}, not the address registered for that seat, "
            "and this campaign has no passwords to prove who sent it",
            named,
            found.where,
            reply=True,
        )
    return _accept(ctx, decision, incoming, found, sub, label, address, asked)


def _sentences(ctx: _Context, message: Any, seat: str | None) -> sentences.Sentences | None:
    """A mail of plain sentences with no form, from a seat's registered address and due: that seat's orders
    for the pending turn (design 17), read as mail/sentences.py reads them; None when it is not one."""
    if seat is None or not ctx.turn.due(seat):
        return None
    return sentences.read(commands.own_text(message), ctx.campaign.game, ctx.turn.position, seat, _seat_name(ctx, seat))


def _filled(form: str) -> bool:
    """Whether an order form found where it is not read (in the quote, below a forward) holds orders: the
    player typed into it, rather than writing above the report's untouched form. Orders are words: an
    untouched form may hold structure with numbers and empty lists (Identity's `- trick: 1` / `play: []`),
    never a word, while every order typed in has one (`SID 5 steal Tony 10`, `play: [orange-1]`, `hide: bed`)."""
    try:
        document = ordertext.load(form)
    except Exception:  # noqa: BLE001 - a form that does not load was edited, so it was typed into
        return True
    return isinstance(document, dict) and _worded(document.get("orders") or document.get("Orders"))


def _worded(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_worded(v) for v in value.values())
    if isinstance(value, list):
        return any(_worded(v) for v in value)
    return isinstance(value, str) and bool(value.strip())


def _unread(ctx: _Context, written: sentences.Sentences) -> tuple[str, list[str]]:
    """(the reason, the lines that answer each sentence) for a mail of sentences none of which reads as
    an order: the player wrote above the quote, so the answer is about what they wrote (design 17)."""
    # Lines read and void for a detail (a player not found, a gun rule) are no less orders meant: say only
    # that none stands, and leave why to the answer of each line below.
    reason = "no line of your mail could be filed as an order (each line is answered below with why): " + "; ".join(repr(_echo(line)) for line in written.lines[:5])
    reason += "; ..." if len(written.lines) > 5 else ""
    shown = Submission(player=written.seat, status="accepted", readings=written.readings)
    renderer = Renderer.for_campaign(ctx.campaign.game.id, ctx.campaign.root, ctx.campaign.site_base_url)
    fix = ["", "Your lines, each read as an order:", *renderer.readings(shown, "would do"), ""]
    fix.append(f"Write each order on a line of its own, as said above, and send them again for turn {ctx.pending}"
               + (" with your password: line" if ctx.campaign.uses_passwords else "") + ", or send help for the order format.")
    examples = ctx.campaign.game.form_examples(ctx.turn.position.view_of(written.seat), written.seat)
    fix += ["Lines the judge reads for your seat now, for example:", *(f"  {example}" for example in examples)] if examples else []
    return reason, fix


def _reply(decision: _Decision, build: Any) -> None:
    """Add the reply `build` makes to the decision; a reply that cannot be built is noted, never fatal:
    the message is still recorded (before, a name that broke the mail builder stopped every ingest at it)."""
    try:
        files, to = build()
    except Exception as exc:  # noqa: BLE001 - the message must be recorded whatever its reply does
        decision.entry.notes.append(f"no reply was written: it could not be built ({type(exc).__name__}: {' '.join(str(exc).split())[:300]})")
        return
    decision.files.update(files)
    decision.entry.acknowledged = to


def _accept(
    ctx: _Context, decision: _Decision, incoming: inbox.Incoming, found: inbox.OrderDocument, sub: Submission, label: str, address: str,
    asked: commands.Command | None = None,
) -> _Decision:
    campaign, player, entry = ctx.campaign, sub.player, decision.entry
    entry.player, entry.found = player, found.where
    folder = f"mail/{turn_name(ctx.pending)}/{player}"
    entry.stored = f"{folder}/{label}.eml"
    decision.files[entry.stored] = incoming.raw
    decision.files[f"{folder}/{label}.yaml"] = found.data
    current = ctx.book.filed.get((ctx.pending, player))
    if current is None or newer(entry, current):
        orders = campaign.turn_dir(ctx.pending) / "orders" / f"{player}.yaml"
        decision.files[str(orders.relative_to(campaign.root))] = found.data
        entry.status = "filed"
        ctx.filed(player, found.data)
        if current is not None:
            current.status, current.reason = "superseded", f"replaced by message {entry.seq} ({_echo(entry.message_id or entry.key)})"
            decision.replaced = current
    else:
        entry.status = "superseded"
        entry.reason = f"message {current.seq}, dated later, is already filed"
    if campaign.gm_email:
        acknowledge = Acknowledge(ctx.message, replace(entry, notes=[]), sub, address, current and replace(current), asked)
        _reply(decision, lambda: acknowledge.build(ctx, entry))
        decision.acknowledge = acknowledge if decision.entry.acknowledged else None
    return decision


@dataclass(frozen=True)
class Acknowledge:
    """What an acknowledgement is built from beyond the pending turn: the message and its entry as they
    were when it was handled (a later message may supersede it; its acknowledgement still says what
    this one was), so that it can be built again once the tick's later steps have changed the turn."""

    message: Any
    entry: Entry
    sub: Submission
    address: str
    replaced: Entry | None
    asked: commands.Command | None

    def build(self, ctx: _Context, entry: Entry | None = None) -> tuple[dict[str, bytes], list[str]]:
        ctx.message = self.message
        return _acknowledgement(ctx, entry or replace(self.entry, notes=[]), self.sub, self.address, self.replaced, self.asked)


def refresh(root: Path, result: IngestResult, now: dt.datetime) -> None:
    """Build again, from the pending turn as it now stands, each acknowledgement `result`'s run wrote
    that is not yet given to the server, and write those whose words changed (the caller holds the lock).
    A tick grants absences and hands resigned seats on after the mail is read (judge/run.py): an
    acknowledgement must give the deadline and the seats still missing as they hold after those steps,
    not before (trial 2). Same file name: the message is replaced, never sent twice; one already handed
    to the server stays as it went.

    Only a run that read a resignation or an absence request builds them again: without one, what an
    acknowledgement says is what held when its message was read, as a run killed and run again also
    leaves it (the crash tests compare both). A kill between the run and this step leaves those of
    such a run as they were written: stale, never lost or sent twice."""
    if not result.acknowledgements or not any(_changes_the_turn(entry) for entry in result.entries):
        return
    campaign = prepare(root)
    turn = read_pending(campaign)
    given = {e["message_id"] for e in deliver.sent_log(root)}
    for acknowledge in result.acknowledgements:
        if acknowledge.entry.turn != turn.number:
            continue  # its turn was adjudicated since: never sent (deliver.outdated), the report tells instead
        try:
            files, _ = acknowledge.build(_Context(turn, _Book([]), now))
        except Exception:  # noqa: BLE001 - it was built once: those words stand rather than stop the tick
            continue
        _write_files(root, {name: data for name, data in files.items()
                            if (root / name).is_file() and inbox.message_id(inbox.parse((root / name).read_bytes())) not in given})


# -- replies ---------------------------------------------------------------------------


def _header_lines(ctx: _Context, entry: Entry) -> list[str]:
    """The sender's message as the reply names it; its Date in the campaign's time zone, as deadlines are."""
    when = schedule.local_text(ctx.campaign.schedule, dt.datetime.fromisoformat(entry.date)) if entry.date else "(none that counts)"
    return [
        f"  Date:       {when}",
        f"  Message-ID: {_echo(entry.message_id) or '(none)'}",
        f"  Orders:     {entry.found}",
    ]


def _progress_line(ctx: _Context) -> list[str]:
    """Who is still missing, only where the game's rules make an NMR public (IDENTITY-21, JEKYLL-25 and
    HIDE-16 keep it private: a player may not learn who else has sent orders); the seats the stand-in
    plays are never missing."""
    if not ctx.campaign.game.nmr_public:
        return []
    names = ctx.state.get("names", {})
    missing = [names.get(p, p) for p in ctx.verdict.waiting]
    return [f"Still missing for turn {ctx.pending}: {', '.join(missing)}." if missing else f"Every player has sent orders for turn {ctx.pending}."]


def _deadline_line(ctx: _Context) -> list[str]:
    if ctx.over:
        return []
    try:
        due = schedule.of_campaign(ctx.campaign, ctx.pending)
    except schedule.ScheduleError:
        return []
    return [f"Deadline for turn {ctx.pending}: {due.text}."] if due else []


def _seat_name(ctx: _Context, player: str) -> str:
    holder = ctx.campaign.holder(player, ctx.pending) or {}
    return str(holder.get("name") or ctx.state.get("names", {}).get(player, player))


def _acknowledgement(
    ctx: _Context, entry: Entry, sub: Submission, address: str, replaced: Entry | None, asked: commands.Command | None = None
) -> tuple[dict[str, bytes], list[str]]:
    """The acknowledgement of accepted orders: it reads the player's orders back, so it goes to the
    registered address only (to the sender only when the seat has none and the password proved them)."""
    campaign, player = ctx.campaign, sub.player
    name = _seat_name(ctx, player)
    registered = _registered(campaign, player, ctx.pending)
    to = registered or (address if campaign.uses_passwords and inbox.usable_address(address) else "")
    if not to:
        entry.notes.append("no acknowledgement: the seat has no address in campaign.yaml" + ("" if campaign.uses_passwords else " and the campaign no passwords"))
        return {}, []
    if sub.all_void:  # design 17: never headed as if all were well when nothing in the file acts
        what = f"orders received from {name}, but every one is VOID"
        lines = [f"{campaign.config.get('name')} ({campaign.game.title}): orders for turn {ctx.pending} received from {name} ({player}), "
                 f"but EVERY ORDER IS VOID, so none of them acts. {sub.instead}".rstrip(), ""]
    elif sub.void:  # design 17: the Subject says at once that some of what was sent does not act
        void = f"{len(sub.void)} of {plural(len(sub.readings), 'order')} VOID"
        what = f"orders received from {name}, {void}"
        lines = [f"{campaign.config.get('name')} ({campaign.game.title}): orders for turn {ctx.pending} received from {name} ({player}); "
                 f"{void}: each is listed below with why and what happens in its place.", ""]
    else:
        what = f"orders received from {name}"
        lines = [f"{campaign.config.get('name')} ({campaign.game.title}): orders for turn {ctx.pending} received from {name} ({player}).", ""]
    lines += ["Your message:", *_header_lines(ctx, entry), ""]
    if entry.status == "filed":
        lines.append(f"These orders are filed for turn {ctx.pending}." + (f" They replace your earlier message ({_echo(replaced.message_id or replaced.key)})." if replaced else ""))
        lines.append("If you send orders again before the turn is adjudicated, the newest message counts.")
        lines += _over_the_standin(ctx, player)
    else:
        lines.append(f"NOT USED: a message of yours with a later Date ({replaced.date if replaced else '?'}) is already filed for turn {ctx.pending}.")
        lines.append("This one is kept on file but will not be adjudicated. Send your orders again if you want these.")
    if entry.date is None:
        lines.append("Your message has no Date that counts (none, unreadable or in the future): it counts as older than any dated one.")
    lines.append("")
    if not sub.readings:
        lines.append("Your order file holds no orders (orders: []), which is a valid choice." + (f" {sub.instead}" if sub.instead else ""))
    else:
        lines.append("Your orders as the adjudicator read them:")
        lines += Renderer.for_campaign(campaign.game.id, campaign.root, campaign.site_base_url).readings(sub, "will do")
    lines.append("")
    lines += _progress_line(ctx)
    lines += _deadline_line(ctx)
    if registered and address != registered:
        came = f"from {_echo(address)}" if address else "from an address that could not be read"
        lines += ["", f"This message came {came}, not the address registered for your seat. Its password was right,",
                  "so the orders are filed; this acknowledgement goes to the registered address only."]
    if asked is not None:  # design 17: the Subject's command is answered too, once the orders are filed
        answered, text = _also_asked(ctx, player, asked, ", with these orders filed")
        lines += ["", *text]
        what += f"; and your {answered}"
    return _message(ctx, entry, "\n".join(lines) + "\n", (name, to), what)


def _over_the_standin(ctx: _Context, seat: str) -> list[str]:
    """For orders filed for a seat the stand-in covers: they play this turn, and what becomes of the stand-in
    (trial 8: a player back at a seat the GM had handed to it, and one back at an abandoned seat, were told neither)."""
    covered = ctx.turn.covered.get(seat)
    if covered is None:
        return []
    if covered.reason == GM:
        return ["", f"These orders of yours are used for turn {ctx.pending}, not the stand-in's. {preface.gm_standin_stays(covered)}"]
    if covered.reason == ABANDONED:
        again = abandon_after(ctx.campaign)
        # (the stand-in may not have played it yet: abandoned by the last turn, the seat was its to play in this one)
        return ["", f"Your seat counted as {covered.why}, so it was the judge's stand-in's to play. These orders take it back: "
                f"they are used for turn {ctx.pending}, and the stand-in stops. It would take {plural(again or 0, 'turn')} in a row "
                "without valid orders to abandon the seat again."]
    return []


def _also_asked(ctx: _Context, seat: str, asked: commands.Command, filed: str) -> tuple[str, list[str]]:
    """(what was answered, the lines) of the Subject's command that came with orders, as the reply about
    the orders carries it (design 17: the reply says both)."""
    answered, text = commands.answer_with_orders(answers.Desk(ctx.turn, ctx.now), seat, asked)
    return answered, [f"Your Subject also asked '{asked.word}'. The answer{filed}:", "", *text.rstrip("\n").split("\n")]


def _refusal(
    ctx: _Context, entry: Entry, seat: str | None, fix: list[str] | None = None, alarm: bool = False, calm: tuple[str, str] | None = None,
    answered: str = "",
) -> tuple[dict[str, bytes], list[str]]:
    """A refusal, for a sender at a registered address only (`seat`), once per reason and turn; `fix`:
    the lines that say what to do, when the reason calls for more than sending the file again; `alarm`:
    when a wrong password may mean someone else wrote in the seat's name; `calm`: (the first sentence, the
    Subject's words) for a message that is no mistake, only nothing to file; `answered`: what the reply answers
    of the Subject's command besides (its Subject says so, as an acknowledgement's does)."""
    if seat is None:
        entry.notes.append("no reply: the sender's address is not registered for any seat")
        return {}, []
    to = entry.sender
    if (ctx.pending, to, entry.reason) in ctx.book.refusals:
        entry.notes.append("no reply: the same refusal was already sent for this turn")
        return {}, []
    campaign = ctx.campaign
    heading, what = calm or ("your message was NOT filed as orders", "your message was not filed")
    lines = [f"{campaign.config.get('name')} ({campaign.game.title}): {heading}.", ""]
    lines += ["Your message:", *_header_lines(ctx, entry)[:2], ""]
    lines += [] if calm else ["Why:", f"  {entry.reason}", ""]
    lines += [] if ctx.over else ["Nothing from this message is used, and any orders filed before it stand unchanged."]
    lines += _unfiled(ctx, seat)
    if alarm:
        lines.append("If you did not send this message, someone else wrote it in your name; the password kept it out,"
                     " and you need do nothing (your GM sees it in the judge's record).")
        lines.append(commands.lost_password(campaign))
    if fix:
        lines += fix
    elif not ctx.over:
        lines.append(f"Fix the problem and send the whole order file for turn {ctx.pending} again")
        lines.append("(attached as a .yaml or .txt file, or pasted into the body, starting with the line 'player: ...').")
    lines += _deadline_line(ctx)
    return _message(ctx, entry, "\n".join(lines) + "\n", (_seat_name(ctx, seat), to), what + (f"; and your {answered}" if answered else ""))


def _unfiled(ctx: _Context, seat: str) -> list[str]:
    """What the deadline brings a seat with no orders filed, in the game's own terms (the game's one answer
    for missing orders, `instead`, from the seat's own view); nothing when orders are filed or none are due."""
    if ctx.over or seat not in ctx.verdict.waiting:
        return []
    return [f"No orders of yours are filed for turn {ctx.pending}: if none are by the deadline, you count as NMR "
            f"(no moves received). {nmr_means(ctx.campaign.game, ctx.turn.position, seat)}".rstrip()]


def _message(ctx: _Context, entry: Entry, body: str, to: tuple[str, str], what: str) -> tuple[dict[str, bytes], list[str]]:
    campaign = ctx.campaign
    parent, references = inbox.thread_ids(ctx.message) if ctx.message is not None else ("", [])
    # A refusal stays true when the turn is adjudicated in the same tick: only an acknowledgement
    # ("send again before the turn is adjudicated") is outdated by it (mail/deliver.py's `outdated`).
    message = compose.make_message(
        campaign,
        kind="ack" if entry.status in ("filed", "superseded") else "refusal",
        turn=ctx.pending,
        to=[to],
        subject=compose.reply_subject(campaign, ctx.pending, ctx.over, what),
        body=body,
        in_reply_to=parent,
        references=references,
    )
    name = compose.outbox_dir(Path(".")) / turn_name(ctx.pending) / f"ack-{entry.seq:05d}.eml"
    return {name.as_posix(): compose.to_bytes(message)}, [to[1]]


# -- the command --------------------------------------------------------------------------


def _write(root: Path, decision: _Decision) -> None:
    """The message's files, then its record: a crash in between leaves files that the next run,
    which handles the message again, writes again with the same bytes."""
    _write_files(root, decision.files)
    record(root, [decision.entry] + ([decision.replaced] if decision.replaced else []))


def _write_files(root: Path, files: dict[str, bytes]) -> None:
    """Files named from the campaign folder; those of the outbox through its one writer, which moves the mark
    a quiet tick watches (compose.write_outbox)."""
    outbox = compose.outbox_dir(Path(".")).as_posix() + "/"
    compose.write_outbox(root, {name[len(outbox):]: data for name, data in files.items() if name.startswith(outbox)})
    for name, data in files.items():
        if not name.startswith(outbox):
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic.write_file(path, data)


def ingest(root: Path, sources: list[Path], *, now: dt.datetime, tick: bool = False) -> IngestResult:
    """File every new message of the sources, in slices that each hold the campaign lock.

    `now` is the moment of the ingest (a Date later than it, beyond CLOCK_SKEW, is not used); with `tick`
    (the judge's), each entry records it as `received`.
    The first slice finds the campaign busy as any command does; a later one waits for the
    command that took the lock between slices, and if it does not finish in time the rest of the
    mail is left for the next run (named in the notes)."""
    root = Path(root)
    Campaign.open(root)
    for source in sources:
        inbox.check_source(source)
    notes: list[str] = []
    run = _Run(root, now, inbox.read_sources(sources, notes), notes, received=now.isoformat() if tick else None)
    while True:
        try:
            with atomic.locked(root, wait=atomic.LOCK_WAIT if run.first else LATER_SLICE_WAIT):
                done = run.slice()
        except atomic.Busy:
            if run.first:
                raise
            run.notes.append(f"the campaign stayed busy; the mail after the first {plural(len(run.handled) + run.skipped, 'message')} waits for the next ingest")
            break
        run.first = False
        if done:
            break
        time.sleep(PAUSE)  # let a waiting command (pbem adjudicate at the deadline) take the lock
    return IngestResult(run.handled, run.skipped, run.notes, run.acknowledgements)


@dataclass
class _Run:
    """One `pbem ingest`, slice by slice."""

    root: Path
    now: dt.datetime
    messages: Iterator[inbox.Incoming]
    notes: list[str] = field(default_factory=list)
    received: str | None = None
    handled: list[Entry] = field(default_factory=list)
    acknowledgements: list[Acknowledge] = field(default_factory=list)
    skipped: int = 0
    first: bool = True
    book: _Book | None = None
    stamp: tuple[int, int, int] | None = None

    def slice(self) -> bool:
        """Handle up to SLICE new messages with the lock held; whether the sources are done."""
        campaign = prepare(self.root)
        if self.first and not campaign.gm_email:
            self.notes.append("campaign.yaml has no gm_email: no acknowledgements were written")
        if self.book is None or _stamp(self.root) != self.stamp:  # another command changed the index meanwhile
            self.book = _Book.load(self.root)
        book = self.book
        ctx = _Context(read_pending(campaign), book, self.now, self.received)
        count, started = 0, time.monotonic()
        try:
            for incoming in self.messages:
                key = message_key(incoming.raw)
                if book.seen(key, incoming.raw):
                    self.skipped += 1
                    continue
                compose.ensure_mail_dir(self.root)
                try:
                    decision = handle(ctx, incoming, len(book.entries) + 1, key)
                    _write(self.root, decision)
                except OSError:
                    raise  # a full disk or a read-only folder stops the command (nothing half written), as everywhere
                except Exception as exc:  # noqa: BLE001 - a message that cannot be read is that message's problem
                    decision = unreadable(incoming, len(book.entries) + 1, key, ctx.pending, exc)
                    _write(self.root, decision)
                book.add(decision.entry)
                self.handled.append(decision.entry)
                if decision.acknowledge is not None:
                    self.acknowledgements.append(decision.acknowledge)
                if _resigned(decision.entry):  # the stand-in plays the seat now: a later reply must not call it missing
                    ctx = _Context(read_pending(prepare(self.root)), book, self.now, self.received)
                count += 1
                if count >= SLICE or time.monotonic() - started > SLICE_SECONDS:
                    return False
            return True
        finally:
            self.stamp = _stamp(self.root)


def _changes_the_turn(entry: Entry) -> bool:
    """Whether the message was a command after which an acknowledgement may say other things: a resignation
    (the stand-in or a waiting player takes the seat) or an absence request (granted, it may move the deadline)."""
    return entry.status == "answered" and entry.found.startswith(("the command 'resign'", "the command 'absence'"))


def _resigned(entry: Entry) -> bool:
    """Whether the message was a resignation (mail/commands.py): once recorded, the stand-in plays the seat,
    which the pending turn as read at the start of the slice does not know (one refused reads it again, harmlessly)."""
    return entry.status == "answered" and entry.found.startswith("the command 'resign'")


def unreadable(incoming: inbox.Incoming, seq: int, key: str, turn: int, exc: Exception) -> _Decision:
    """The decision for a message whose handling failed in a way nobody foresaw: kept raw in mail/rejected/
    with its reason, recorded, and the ingest (and the judge's tick) goes on with the next message."""
    label = f"{seq:05d}-{key.removeprefix('sha256:')[:10]}"
    reason = f"the message could not be read ({type(exc).__name__}); it was kept as received and nothing was done with it"
    entry = Entry(seq, key, inbox.clean(_message_id(incoming.raw)), "", None, "", "rejected", turn=turn, reason=reason, stored=f"mail/rejected/{label}.eml")
    files = {entry.stored: incoming.raw, f"mail/rejected/{label}.txt": f"{incoming.source}\n{reason}\n".encode("utf-8", "replace")}
    return _Decision(entry, files)


def _message_id(raw: bytes) -> str:
    """The Message-ID, only to recognise messages that campaigns from before recorded by their Message-ID alone."""
    try:
        return inbox.message_id(inbox.parse(raw[: inbox.HEADER_BYTES] if len(raw) > inbox.MAX_MESSAGE_BYTES else raw))
    except Exception:  # noqa: BLE001 - junk has no Message-ID
        return ""
