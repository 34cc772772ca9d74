"""One judge address, many campaigns (design 15): a source several campaigns share is read once, and each
of its messages goes to at most one of them, which files it with its own ingest.

    CAMPAIGN/mail/inbox/        a Maildir: each message routed to the campaign, stored as an IMAP fetch
                                stores one (its name ends with the SHA-256 of its bytes); the campaign's
                                ingest reads it, as it reads any of its sources
    CAMPAIGN/mail/routed.jsonl  the messages of a shared source routed to no campaign (a stranger's, one
                                answered with the list of campaigns, a robot's), one line each, kept by the
                                first of the sharing campaigns (by folder) at the time
    CAMPAIGN/mail/route.json    that first campaign's record of each shared source as last routed (its
                                size and time): a source that has not changed is not read again

The rules, in order (the first that gives one campaign decides):
1. a reply whose In-Reply-To or References names a message the judge sent for campaign C goes to C;
   A bounce (a delivery report: multipart/report with the original's headers) counts as a reply to
   the message that bounced: it goes to that campaign, whose tick tells the GM which seat it is about;
2. a Subject tag `[NAME]` or a line `campaign: NAME` in the sender's own text (quotes cut), NAME being
   the campaign's folder name or its `name:`, in any case, goes to that campaign;
   then `list` (design 16: anyone may ask it) is answered with every campaign sharing the source;
3. a sender registered in exactly one campaign that is not over goes to that one (registered only in
   one campaign, which is over, to that one: it answers that the game is over);
4. otherwise a registered sender gets one reply listing the campaigns the message could be for and how
   to name one (no other player's address), and nothing is filed; so does a stranger whose message is a
   `join`, `observe` or `takeover` (the campaigns open to it); any other stranger's message gets nothing.
The judge's own mail come back goes to the campaign its headers name (which counts and skips it).

Replies are limited as `list` is in a campaign's own inbox: one `list` answer and one rule-4 reply per
address per day (routed.jsonl records each, with the address and the day); the rest are recorded
unanswered, counted in the `pbem run` line and the GM's digest of the campaign that keeps the record.

A message is decided once: it counts as decided when its bytes are stored in the mail/inbox/ of any of
the sharing campaigns or it is in the routed.jsonl of any of them. A message is stored, then recorded: a
kill between the two decides it again, and the hash check makes that change nothing. A reply (`list`,
which game?) is recorded first, with what the reply needs of the message, and built by `answer` after
the campaigns' ticks, so the campaigns it lists count the seats the same tick's joins took; a kill
before it is built leaves the line, and the next routing builds it (named by the message's hash: once).
"""

from __future__ import annotations

import datetime as dt
import email.utils
from email.parser import HeaderParser
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..campaign import signup
from ..campaign.folder import Campaign, turn_name
from ..common import atomic
from . import compose, envelope, fetch, inbox
from .signup import listing, recognise, status_line

_TAG = re.compile(r"\[([^\[\]\n]{1,80})\]")
_ROBOT_PRECEDENCE = ("bulk", "junk", "list", "auto_reply")
_ROBOT_SENDERS = ("mailer-daemon@", "postmaster@", "noreply@", "no-reply@")
_STRANGERS_ASK = ("join", "observe", "takeover")
"""The commands a stranger naming no campaign is answered for (rule 4's reply); `list` is answered for anyone."""


@dataclass(frozen=True)
class Candidate:
    """What routing needs to know of one campaign sharing the source."""

    root: Path
    folder: str
    name: str
    slug: str
    title: str
    over: bool
    signing_up: bool
    pending: int
    addresses: frozenset[str]

    @classmethod
    def of(cls, root: Path) -> Candidate:
        campaign = Campaign.open(root)
        opening = signup.is_open(campaign)  # signing up: no turn yet, its mail is turn 0's
        pending = 0 if opening else campaign.last_turn + 1
        addresses = set()
        for player in campaign.players:
            address = email.utils.parseaddr(campaign.email(str(player["id"]), None if opening else pending) or "")[1].strip().lower()
            if address:
                addresses.add(address)
        return cls(Path(root), Path(root).name, str(campaign.config.get("name") or Path(root).name), compose.campaign_slug(campaign),
                   campaign.game.title, not opening and campaign.over, opening, pending, frozenset(addresses))

    def called(self, text: str) -> bool:
        said = " ".join(text.split()).casefold()
        return bool(said) and said in (self.folder.casefold(), self.name.casefold())


@dataclass(frozen=True)
class Decision:
    to: int | None
    """The campaign (an index into the candidates) the message goes to; None: to none."""
    rule: str
    """`reply`, `named`, `sender`, `own` (it went to `to`); `list`, `ambiguous`, `which`, `stranger`, `robot`,
    `own`, `unreadable` (to none)."""
    could_be: tuple[int, ...] = ()
    """For `list`, `ambiguous` and `which`: the campaigns the reply lists."""

    @property
    def reply(self) -> str | None:
        """Which of the day's limited replies the message asks for: `list`, `which` (rule 4), or None."""
        return {"list": "list", "ambiguous": "which", "which": "which"}.get(self.rule)


def _one(found: set[int]) -> int | None:
    return next(iter(found)) if len(found) == 1 else None


def decide(message: Any, candidates: list[Candidate]) -> Decision:
    """Which campaign a message is for, by design 15's rules; pure: the message and the campaigns only."""
    if message is None:
        return Decision(None, "unreadable")
    if compose.is_own(message):
        slug = str(message.get("X-Pbem-Campaign", "")).strip()
        to = _one({i for i, c in enumerate(candidates) if c.slug == slug})
        return Decision(to, "own")
    replied = inbox.msg_ids(_raw(message, "In-Reply-To")) + _bounced(message) + list(reversed(inbox.msg_ids(_raw(message, "References"))))
    for msg_id in replied:  # the message replied to (or bounced) first, then the thread from its newest end
        slug = compose.minted_campaign(msg_id)
        to = _one({i for i, c in enumerate(candidates) if slug and c.slug == slug})
        if to is not None:
            return Decision(to, "reply")
    names = _TAG.findall(inbox.header(message, "Subject"))
    text = inbox.body_text(message)
    names += envelope.CAMPAIGN_LINE.findall(inbox.own_words(text)) if text else []
    to = _one({i for i, c in enumerate(candidates) for name in names if c.called(name)})
    if to is not None:
        return Decision(to, "named")
    _, address = inbox.sender(message)
    robot = _robot(message, address)
    request = None if robot else recognise(message)
    if request is not None and request.word == "list":  # about the judge, not one campaign: every one is listed
        return Decision(None, "list", tuple(range(len(candidates))))
    registered = [i for i, c in enumerate(candidates) if address and address in c.addresses]
    live = [i for i in registered if not candidates[i].over]
    if len(live) == 1:
        return Decision(live[0], "sender")
    if not live and len(registered) == 1:
        return Decision(registered[0], "sender")
    if robot:
        return Decision(None, "robot")
    if not registered:
        if request is None or request.word not in _STRANGERS_ASK:
            return Decision(None, "stranger")  # no backscatter: a stranger hears only of list, join and the like
        return Decision(None, "which", _open_to(request.word, candidates))
    return Decision(None, "ambiguous", tuple(live or registered))


def _open_to(word: str, candidates: list[Candidate]) -> tuple[int, ...]:
    """The campaigns a stranger's command could be for: not over (a takeover: running); all when none is."""
    found = tuple(i for i, c in enumerate(candidates) if not c.over and (word != "takeover" or not c.signing_up))
    return found or tuple(range(len(candidates)))


def _bounced(message: Any) -> list[str]:
    """The Message-ID of the message a delivery report (RFC 3464) is about, from the headers it returns."""
    if message.get_content_type() != "multipart/report":
        return []
    found = []
    for part in message.walk():
        kind = part.get_content_type()
        try:
            if kind == "message/rfc822":
                inner = part.get_payload()
                original = inner[0] if isinstance(inner, list) and inner else inner
                found += inbox.msg_ids(str(original.get("Message-ID", "")))
            elif kind == "text/rfc822-headers":
                found += inbox.msg_ids(str(HeaderParser().parsestr(part.get_content()).get("Message-ID", "")))
        except Exception:  # noqa: BLE001 - a damaged report names nothing
            continue
    return found


def _raw(message: Any, name: str) -> str:
    try:
        return " ".join(str(v) for k, v in message.raw_items() if k.lower() == name.lower())
    except Exception:  # noqa: BLE001 - malformed headers name nothing
        return ""


def _robot(message: Any, address: str) -> bool:
    """A message that must get no reply (RFC 3834): an auto-reply, a bounce, a list."""
    auto = inbox.header(message, "Auto-Submitted").lower()
    return (bool(auto) and auto != "no") or inbox.header(message, "Precedence").lower() in _ROBOT_PRECEDENCE or address.startswith(_ROBOT_SENDERS)


# -- what is decided already ----------------------------------------------------------------


def _ledger(root: Path) -> Path:
    return compose.mail_dir(root) / "routed.jsonl"


def _gate(root: Path) -> Path:
    return compose.mail_dir(root) / "route.json"


def ledger(root: Path) -> list[dict[str, Any]]:
    """The lines of a campaign's routed.jsonl (a line cut short by a kill is not a record)."""
    try:
        data = _ledger(root).read_bytes()
    except FileNotFoundError:
        return []
    return [json.loads(line) for line in data[: data.rfind(b"\n") + 1].splitlines() if line]


@dataclass
class Decided:
    """What the sharing campaigns have decided before: the messages taken or routed to none, and the
    day's limited replies (reply kind, address) already answered."""

    hashes: set[str]
    replied: set[tuple[str, str]]
    answering: list[dict[str, Any]] = field(default_factory=list)
    """Today's lines answered by a reply (`list`, which game?) that `answer` builds after the campaigns'
    ticks: one a kill left unbuilt is found here by the next routing, and built then."""


def decided(roots: list[Path], day: str) -> Decided:
    found = Decided(set(), set())
    for root in roots:
        box = fetch.inbox_dir(root)
        if box.is_dir():
            found.hashes |= fetch.stored_hashes(box)
        for line in ledger(root):
            found.hashes.add(line["hash"])
            if line.get("answered_by") and line.get("day") == day:
                found.replied.add((line["reply"], line["from"]))
                if "asked" in line:
                    found.answering.append(line)
    return found


def _append(root: Path, lines: list[dict[str, Any]]) -> None:
    compose.ensure_mail_dir(root)
    path = _ledger(root)
    data = b"".join(json.dumps(line, ensure_ascii=False, sort_keys=True).encode("utf-8") + b"\n" for line in lines)
    old = path.read_bytes() if path.is_file() else b""
    atomic.write_file(path, old[: old.rfind(b"\n") + 1] + data)


# -- routing a source -----------------------------------------------------------------------


@dataclass
class Routed:
    """What routing one shared source did (or, counted from routed.jsonl, what the GM's digest tells)."""

    source: str
    to: dict[Path, int] = field(default_factory=dict)
    """Messages stored in each campaign's mail/inbox/."""
    listed: int = 0
    """`list` answered with the campaigns of the judge."""
    answered: int = 0
    """Messages answered with the campaigns they could be for (rule 4; nothing filed)."""
    held: int = 0
    """`list` or rule-4 messages not answered: their sender had that reply today already."""
    strangers: int = 0
    others: int = 0
    """Robots, the judge's own mail of no campaign here, unreadable messages: routed to none, no reply."""
    skipped: int = 0
    """Messages decided before."""
    notes: list[str] = field(default_factory=list)
    answering: list[dict[str, Any]] = field(default_factory=list)
    """The routed.jsonl lines whose reply `answer` is to build (after the campaigns' ticks)."""

    def count(self, line: dict[str, Any]) -> None:
        """One message routed to none, as routed.jsonl records it."""
        reply = line.get("reply") or ("which" if line["rule"] == "ambiguous" else None)  # a line from before `reply` was kept
        if reply and not line.get("answered_by"):
            self.held += 1
        elif reply == "list":
            self.listed += 1
        elif reply:
            self.answered += 1
        elif line["rule"] == "stranger":
            self.strangers += 1
        else:
            self.others += 1

    @property
    def anything(self) -> bool:
        return bool(self.listed or self.answered or self.held or self.strangers or self.others or any(self.to.values()) or self.notes)

    @property
    def line(self) -> str:
        return f"{self.source}: {self.words}"

    @property
    def words(self) -> str:
        parts = [f"{count} to {root.name}" for root, count in sorted(self.to.items()) if count]
        if self.listed:
            parts.append(f"{self.listed} 'list' answered with the campaigns of this judge")
        if self.answered:
            parts.append(f"{self.answered} answered with the list of campaigns (not filed)")
        if self.held:
            parts.append(f"{self.held} not answered (the sender had that reply today already; one a day per address)")
        if self.strangers:
            parts.append(f"{self.strangers} from senders registered nowhere (not filed, no reply)")
        if self.others:
            parts.append(f"{self.others} automatic or unreadable (not filed, no reply)")
        words = "messages routed: " + ", ".join(parts) if parts else "nothing new"
        return " ".join((words + "".join(f"; note: {n}" for n in self.notes)).split())


def told(lines: list[dict[str, Any]]) -> list[str]:
    """For the GM's digest of the campaign that keeps routed.jsonl: what these lines of it record, counted."""
    counted = Routed("the shared judge address")
    for line in lines:
        counted.count(line)
    return [counted.line] if counted.anything else []


def source_key(source: fetch.Source) -> str:
    """One name for a source whichever campaign names it: a path's real path, an IMAP mailbox's address in lower case."""
    return os.path.realpath(source) if isinstance(source, Path) else str(source).lower()


def unchanged(home: Path, key: str, signature: list[int]) -> bool:
    try:
        return json.loads(_gate(home).read_bytes()).get(key) == signature
    except (OSError, ValueError, AttributeError):
        return False


def remember(home: Path, key: str, signature: list[int]) -> None:
    try:
        record = json.loads(_gate(home).read_bytes())
    except (OSError, ValueError):
        record = {}
    if record.get(key) != signature:
        record[key] = signature
        compose.ensure_mail_dir(home)
        atomic.write_file(_gate(home), (json.dumps(record, indent=1, sort_keys=True) + "\n").encode("utf-8"))


def route(roots: list[Path], sources: list[Path], now: dt.datetime, name: str | None = None, former: list[Path] = ()) -> Routed:  # type: ignore[assignment]
    """Read the sources once and store each new message in the mail/inbox/ of the one campaign it is for
    (the campaigns' locks held one at a time, as each store is made); answer or record the others.
    `former`: campaigns that shared the sources once: what they took is not decided again."""
    roots = sorted(Path(r) for r in roots)
    candidates = [Candidate.of(root) for root in roots]
    home = roots[0]
    result = Routed(name or ", ".join(str(s) for s in sources), {root: 0 for root in roots})
    day = now.date().isoformat()
    before = decided([*roots, *former], day)
    taken, replied = before.hashes, before.replied
    boxes: dict[int, set[str]] = {}
    notes: list[str] = []
    for position, incoming in enumerate(inbox.read_sources(sources, notes), start=1):
        digest = fetch.message_hash(incoming.raw)
        if digest in taken:
            result.skipped += 1
            continue
        try:
            message = inbox.parse(incoming.raw[: inbox.HEADER_BYTES] if len(incoming.raw) > inbox.MAX_MESSAGE_BYTES else incoming.raw)
        except Exception:  # noqa: BLE001 - junk is routed to none, never fatal
            message = None
        decision = decide(message, candidates)
        if decision.to is not None:
            target = candidates[decision.to].root
            with atomic.locked(target):
                box = fetch.ensure_inbox(target)
                stored = boxes.setdefault(decision.to, fetch.stored_hashes(box))
                fetch.store(box, incoming.raw, position, now, stored)
            result.to[target] += 1
            taken.add(digest)
            continue
        line = {"hash": digest, "rule": decision.rule, "source": incoming.source}
        if decision.reply is not None:
            address = inbox.sender(message)[1]
            line.update({"reply": decision.reply, "from": address, "day": day})
            if (decision.reply, address) not in replied:  # one reply of each kind per address per day: no flood answered
                parent, references = inbox.thread_ids(message)
                line["answered_by"] = candidates[decision.could_be[0]].folder
                line["asked"] = {"could_be": [candidates[i].folder for i in decision.could_be], "subject": inbox.header(message, "Subject")[:200],
                                 "message_id": inbox.message_id(message)[:200], "in_reply_to": parent, "references": references[-20:]}
                result.answering.append(line)
                replied.add((decision.reply, address))
        result.count(line)
        with atomic.locked(home):
            _append(home, [line])
        taken.add(digest)
    result.notes = [note for note in notes if "is empty" not in note]  # an empty mailbox is nothing to tell
    result.answering = [line for line in before.answering if not _answered(roots, line)] + result.answering
    return result


def answer(roots: list[Path], lines: list[dict[str, Any]]) -> None:
    """Build the replies routing decided (`Routed.answering`), once the campaigns' ticks have run: the list
    of campaigns then counts the seats taken by the joins of the same tick. The line is recorded first (the
    message is decided), so a kill before its reply leaves it to the next routing (`Decided.answering`);
    the reply's name is the message's hash, so none is built twice."""
    candidates = {root.name: root for root in sorted(Path(r) for r in roots)}
    for line in lines:
        if line["answered_by"] not in candidates or _answered(list(candidates.values()), line):
            continue
        asked = Candidate.of(candidates[line["answered_by"]])
        could_be = [Candidate.of(candidates[folder]) for folder in line["asked"]["could_be"] if folder in candidates]
        with atomic.locked(asked.root):
            compose.write_outbox(asked.root, _reply(line, could_be or [asked], asked))


def _answered(roots: list[Path], line: dict[str, Any]) -> bool:
    """Whether the reply a routed.jsonl line asks for is built (in whichever turn's outbox)."""
    root = next((r for r in roots if r.name == line.get("answered_by")), None)
    return root is None or any(compose.outbox_dir(root).glob(f"turn-*/route-{line['hash'][:16]}.eml"))


def _reply(line: dict[str, Any], could_be: list[Candidate], asked: Candidate) -> dict[str, bytes]:
    """The answer to `list` (every campaign here), or rule 4's one reply (the campaigns the message could be
    for, and how to name one); either says no player's address."""
    campaign = Campaign.open(asked.root)
    address, kind, digest, told = line["from"], line["reply"], line["hash"], line["asked"]
    parent, references, subject = told["in_reply_to"], told["references"], told["subject"]
    if kind == "list":
        body = listing([Campaign.open(c.root) for c in could_be])
        about = compose.re_subject(subject, "the campaigns of this judge")
    else:
        body = "\n".join([
            "Your message reached a judge address that serves several games, and it could be for any of these:",
            "",
            *(status_line(Campaign.open(c.root)) for c in could_be),
            "",
            "Nothing from it was filed. Send it again naming the game: put its name in brackets in the",
            f"Subject (for example: [{could_be[0].folder}] {subject[:40] or 'orders'}), or write a line",
            f"'campaign: {could_be[0].folder}' above your orders or command. A reply to a message of the game",
            "also finds it.",
            "",
            "Your message:",
            f"  Subject:    {' '.join(subject.split())[:72] or '(none)'}",
            f"  Message-ID: {told['message_id'][:72] or '(none)'}",
        ]) + "\n"
        about = "which game? your message was not filed"
    reply = compose.make_message(
        campaign, kind="refusal", turn=asked.pending - (1 if asked.over else 0), to=[("", address)],
        subject=about, body=body, in_reply_to=parent, references=references,
    )
    return {f"{turn_name(asked.pending)}/route-{digest[:16]}.eml": compose.to_bytes(reply)}
