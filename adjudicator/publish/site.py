"""The public archive (design 13): a static web site of one campaign, from what it is given.

The site is written from values the campaign side hands down (`Archive`, then each
`TurnRecord` in turn order): before the reveal those hold only public things (the
public view, the public report), so a page cannot show what it was never given.
After the reveal they also carry the whole record of each turn. Pages are rendered
from `templates/site/` with autoescaping; pictures are inline SVG, each in its wide
layout and its narrow one, which the page's style shows on a phone (and each board
also as its own file, in SVG and in PNG, whose narrow PNG the forum copies of the public report link:
forums do not show SVG). Nothing in
a page is fetched from elsewhere: the style is inline, there is no script, links
are relative, so the site works from file:// and from any static host.

Turns are taken one at a time and each page written as soon as it is made: a
campaign of ten thousand players never holds more than one turn in memory, and
the cost grows with the size of the record, not with its square.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from markupsafe import Markup

from .chart import standings_chart
from .html import to_html
from .pictures import painter
from .png import png
from .render import Renderer


@dataclass
class Press:
    """One press message between players (the judge keeps them in mail/press/)."""

    turn: int | None
    sender: str | None
    """Player id; None when the message was sent anonymously (the archive keeps it so)."""
    receivers: list[str]
    """Player ids, or ["all"]."""
    text: str


@dataclass
class Revealed:
    """What the reveal adds to a turn: its hidden state and every player's papers."""

    state: dict[str, Any]
    """The whole state after the turn, laid over its public view (so it draws with the same painter)."""
    reports: dict[str, str]
    """Player id -> private report, as sent."""
    orders: dict[str, str]
    """Player id -> the order file as filed, passwords removed."""


@dataclass
class TurnRecord:
    number: int
    view: dict[str, Any]
    """The public view after the turn."""
    report: str
    """The public report (Markdown, as posted)."""
    names: dict[str, str] = field(default_factory=dict)
    """Player id -> the name of whoever held the seat in this turn (a later holder never takes an earlier turn's papers)."""
    revealed: Revealed | None = None


@dataclass
class Archive:
    name: str
    game_id: str
    game_title: str
    players: list[str]
    names: dict[str, str]
    commitment: str
    over: bool
    winners: list[str]
    seed: str | None = None
    """The revealed seed; None before the reveal (and then nothing hidden is given)."""
    press: list[Press] | None = None
    """None where the campaign keeps no press or does not let the archive publish it."""
    pending: int | None = None
    """The turn waiting for orders, when the game goes on."""
    held: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Player id -> who held the seat for which turns (name, from, to), for the seats that changed hands by the
    last turn: the standings name each seat's holders, not only its last."""


@dataclass
class SiteSummary:
    pages: int = 0
    files: list[str] = field(default_factory=list)


def turn_file(number: int, ext: str, wide: bool = False) -> str:
    """A turn's page, or its board on its own: `turn-003.svg` (and `.png`) is the narrow board, the one
    the report mails, chat posts and forum links show (a phone reads it; a desktop shows it whole),
    `turn-003-wide.svg` the wide one the page shows on a wide screen."""
    return f"turn-{number:03d}{'-wide' if wide else ''}.{ext}"


@dataclass(frozen=True)
class Shown:
    """One picture in both layouts, inline in a page: the page's style shows the narrow one on a narrow screen."""

    wide: Markup
    narrow: Markup


@cache
def _templates() -> Any:
    """The site's templates, compiled once per run (a host writes a thousand sites in one)."""
    return Renderer("site").env


def build(
    archive: Archive, turns: Iterable[TurnRecord], write: Callable[[str, bytes], None], kept: Callable[[str], bytes | None] = lambda name: None
) -> SiteSummary:
    """Write every page of the site through `write(relative path, bytes)`, turn pages first, the index last.

    `kept(name)` gives a file a former build wrote (or None): a board whose SVG is unchanged keeps
    its PNG, so rebuilding the site after each turn renders the new turn's PNG, not every turn's."""
    env = _templates()
    paint = painter(archive.game_id)
    summary = SiteSummary()
    revealed = archive.seed is not None

    def emit(name: str, data: str | bytes) -> None:
        write(name, data if isinstance(data, bytes) else data.encode("utf-8"))
        summary.files.append(name)
        summary.pages += name.endswith(".html")

    numbers: list[int] = []
    values: dict[str, list[int | None]] = {p: [] for p in archive.players}
    labels: dict[int, str] = {}
    page = env.get_template("turn.html.j2")
    previous: int | None = None
    pending: TurnRecord | None = None

    def drawn(view: dict[str, Any], key: str) -> tuple[str, str]:
        """The board of `view`, wide and narrow (the narrow one keyed as the report mails key it, so
        that a process that writes both draws its PNG once)."""
        return paint.board(view, f"{key}-wide").svg(), paint.board(view, key, narrow=True).svg()

    def board_files(number: int, boards: tuple[str, str]) -> None:
        """Each board on its own, SVG and PNG; a PNG whose SVG did not change since the last build is kept."""
        for wide, svg in zip((True, False), boards):
            before = kept(turn_file(number, "png", wide))
            unchanged = before is not None and kept(turn_file(number, "svg", wide)) == svg.encode("utf-8")
            emit(turn_file(number, "svg", wide), svg)
            emit(turn_file(number, "png", wide), before if unchanged and before is not None else png(svg))

    def finish(record: TurnRecord, following: int | None) -> None:
        board = drawn(record.view, f"board-{record.number}")
        board_files(record.number, board)
        hidden = drawn(record.revealed.state, f"hidden-{record.number}") if record.revealed else None
        emit(
            turn_file(record.number, "html"),
            page.render(
                archive=archive,
                record=record,
                label=labels[record.number],
                board=Shown(*map(Markup, board)),
                hidden=Shown(*map(Markup, hidden)) if hidden else None,
                report=Markup(to_html(record.report)),
                previous=None if previous is None else turn_file(previous, "html"),
                following=None if following is None else turn_file(following, "html"),
                turn_file=turn_file,
            ),
        )

    # Each page links the next turn, so a turn is written once the next one is known.
    for record in turns:
        numbers.append(record.number)
        labels[record.number] = "the opening" if record.number == 0 else f"turn {record.number}"
        standing = paint.standing(record.view)
        for player in archive.players:
            values[player].append(standing.get(player))
        if pending is not None:
            finish(pending, record.number)
            previous = pending.number
        pending = record
    if pending is not None:
        finish(pending, None)
    chart = Shown(*(Markup(standings_chart(numbers, values, archive.names, paint.standing_label, key, narrow).svg())
                    for key, narrow in (("standings-wide", False), ("standings", True))))
    final = {p: next((v for v in reversed(vs) if v is not None), None) for p, vs in values.items()}
    if revealed:
        emit("seed.html", env.get_template("seed.html.j2").render(archive=archive, first=turn_file(numbers[0], "html") if numbers else None))
    if archive.press is not None and revealed:
        emit("press.html", env.get_template("press.html.j2").render(archive=archive))
    emit(
        "index.html",
        env.get_template("index.html.j2").render(
            archive=archive,
            chart=chart,
            label=paint.standing_label,
            final=final,
            turns=[(n, labels[n], turn_file(n, "html")) for n in numbers],
            revealed=revealed,
        ),
    )
    return summary
