"""A report mail's HTML alternative: the whole report, and the board drawn from the reader's view as an inline PNG.

A report mail is plain text first (what every reader shows, and what a player replies to),
then the same report as HTML with the board a player at the table would see: for a
player's report their own view (their hand, identity die, guards, marked as theirs), for
the public report the public view. The board is the site's narrow SVG (publish/pictures: its rows
wrapped to 360 units, so that a phone, which shrinks a picture to its screen, shows every label at
a readable size; a desktop shows it at its own size), rendered to PNG (publish/png.py) once per
turn and view, and carried inside the message (multipart/related, by Content-ID), so that no mail
client fetches anything.

    multipart/mixed                 (only when an attachment follows, such as the view file)
      multipart/alternative
        text/plain                  the report, as before
        multipart/related
          text/html                 the report, then <img src="cid:...">
          image/png                 the board
      application/json              the view file for `pbem check --view`

What a player's board shows is a function of that player's view alone (design 7): it is
drawn from `game.view(state, player)` and nothing else, so its bytes do not move when
another player's secrets do (tests/test_reliability_leaks.py).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from email.message import EmailMessage
from html import escape
from typing import Any

from ..publish.html import to_html
from ..publish.pictures import painter
from ..publish.png import png

_PAGE = (
    '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{title}</title></head>\n'
    '<body style="font-family:sans-serif;max-width:44em">\n'
    '<p><img src="cid:{cid}" alt="{alt}" width="{width}" style="max-width:100%;height:auto"></p>\n'
    "{report}\n</body></html>\n"
)


@dataclass(frozen=True)
class Board:
    png: bytes
    alt: str
    """The words a reader without pictures gets (the picture's title and description)."""
    width: float
    """The picture's width in CSS px (its SVG units): a desktop shows it at this size, its PNG's pixels
    (png.ZOOM to a unit) sharp on a screen of up to as many device pixels to a CSS px."""


def board_png(game_id: str, view: dict[str, Any], key: str) -> Board:
    """The narrow board drawn from one view, as PNG: what a report mail and a chat post carry."""
    drawing = painter(game_id).board(view, key, narrow=True)
    return Board(png(drawing.svg()), f"{drawing.title}. {drawing.desc}", drawing.width)


def add_board(message: EmailMessage, report_html: str, board: Board, title: str) -> None:
    """Make a plain-text `message` multipart/alternative: its text, then the report as HTML with `board` inline.

    Call it before adding attachments. Every boundary and the Content-ID come from what the
    message holds, so building it twice gives the same bytes."""
    digest = hashlib.sha256(str(message["Message-ID"]).encode() + board.png).hexdigest()[:24]
    cid = f"board.{digest}@pbem.invalid"
    page = _PAGE.format(title=escape(title), cid=cid, alt=escape(board.alt, quote=True), width=f"{board.width:g}", report=report_html)
    message.add_alternative(page, subtype="html", charset="utf-8", cte="quoted-printable")
    html_part = message.get_payload()[-1]
    html_part.add_related(board.png, maintype="image", subtype="png", cid=f"<{cid}>", filename="board.png", disposition="inline")
    seal(message, digest)


def seal(message: EmailMessage, salt: str) -> None:
    """Give every multipart of `message` a boundary made from its place and `salt` ("=_" occurs in
    neither quoted-printable nor base64 text): the same message, byte for byte, on every build."""
    for number, part in enumerate(message.walk()):
        if part.is_multipart():
            part.set_boundary(f"=_pbem.{number}.{salt}")


def with_board(message: EmailMessage, game_id: str, view: dict[str, Any], report_html: str, key: str) -> None:
    """`message` with its HTML alternative: `report_html` and the board drawn from `view`."""
    add_board(message, report_html, board_png(game_id, view, key), str(message["Subject"]))


def markdown_html(markdown: str) -> str:
    """The public report (Markdown) as HTML, as the archive site shows it."""
    return to_html(markdown)
