"""A mail of plain sentences read as a seat's orders (design 17): "SID 1 steals Bob's secret 10",
"hide me under the bed", one order to a line, with a `password:` line where the campaign has passwords.

One reading for the judge's ingest and `pbem check FILE`: each line of the sender's own words that is
not plainly chatter (mail/chatter.py) is read as one order against the seat's own view. Every such line
goes into the order file the sentences make, a void one too, so the answer says of each why and what
happens in its place; none is dropped in silence.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ..campaign.pipeline import Position, read_view_orders
from ..common import yamlsafe
from ..games.base import Game, Reading
from . import chatter, envelope, inbox

_PASSWORD_KEY = re.compile(r"\bpassword[\"']?\s*:", re.IGNORECASE)
"""A `password:` key inside a line (a flow mapping typed on one line): a broken form, never a sentence, and never echoed."""
_SENTENCE_MARKER = re.compile(r"^\s*(?:[-*\u2013\u2014\u2022\u00b7]|\d{1,2}[.)])\s+")
MAX_SENTENCES = 30
"""More lines than this are no order mail (a long letter, a pasted rulebook): not read as sentences."""
WHERE = "the sentences of your mail, read as orders"


@dataclass
class Sentences:
    """The lines meant as orders, each read against the seat's own view."""

    seat: str
    password: str | None
    lines: list[str]
    readings: list[Reading]

    @property
    def read(self) -> bool:
        """Whether at least one line reads as an order of this phase: only then are they filed."""
        return any(r.accepted for r in self.readings)

    def document(self, turn: int) -> inbox.OrderDocument:
        """The order file the sentences make, every line meant as an order in it."""
        text = f"player: {self.seat}\nturn: {turn}\n"
        text += f"password: {json.dumps(self.password, ensure_ascii=False)}\n" if self.password is not None else ""
        text += "orders:\n" + "".join(f"  - {json.dumps(line, ensure_ascii=False)}\n" for line in self.lines)
        return inbox.OrderDocument(text.encode("utf-8"), WHERE)


def read(text: str, game: Game, position: Position, seat: str, name: str) -> Sentences | None:
    """The sentences of `text` (the sender's own words: quotes and signature already cut) as `seat`'s
    orders; None when no line is meant as an order, or too many are. `name` is the seat's display name:
    a line that only signs with it (or its first word, or the id) is chatter."""
    names = (seat, name, *name.split()[:1])
    view = position.view_of(seat)

    def reads(lines: list[str]) -> list[Reading] | None:
        try:
            return read_view_orders(game, position.phase, view, seat, lines)
        except Exception:  # noqa: BLE001 - a sentence a game cannot read is no order, never a crash
            return None

    def stands(line: str) -> bool:
        return any(r.accepted for r in reads([line]) or [])

    password, lines = None, []
    asides: set[int] = set()  # lines about the mail itself ("Quick one from the train."): left out beside orders
    for line in text.split("\n"):
        if "{" in line and _PASSWORD_KEY.search(line):  # a form typed on one line: its password is no line's end
            continue
        line, written = envelope.password_after(line)  # `password: ...` on a line of its own or after an order
        password = written or password
        if not line.strip() or envelope.is_envelope(line) or _PASSWORD_KEY.search(line):  # `campaign:`, `player:` aside
            continue
        # "Hi, bid blue 2" is as short as "Hi, all", and a game reads no "Hi,": its reader tells the order after a
        # greeting. A line that reads as it stands is read so, and chatter stays chatter unless its rest is an order.
        rest = chatter.after_opener(line)
        if chatter.chatter(line, names):
            if rest is None or not stands(rest):
                continue
            line = rest
        elif rest is not None and not stands(line) and stands(rest):
            line = rest
        line = chatter.without_lead(" ".join(_SENTENCE_MARKER.sub("", line).split()), names)
        if chatter.aside(line) and not stands(line):
            asides.add(len(lines))
        lines.append(line)
    if asides:  # an aside is chatter only where the rest holds orders: alone it is answered, as any line is
        rest = [line for index, line in enumerate(lines) if index not in asides]
        if any(r.accepted for r in reads(rest) or []):
            lines = rest
    if not lines or len(lines) > MAX_SENTENCES:
        return None
    if password and len(password) >= 4:  # typed again in a sentence, it is not echoed by the answer that lists them
        lines = [yamlsafe.scrub(line, [password]) for line in lines]
    readings = reads(list(lines))
    return None if readings is None else Sentences(seat, password, lines, readings)
