"""`pbem check`: check an order file before sending it."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any, Callable

from .console import Failure

HELP = "check an order file before sending it"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="the order file, e.g. tony.yaml")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--campaign", metavar="DIR", help="the campaign folder (the GM's)")
    where.add_argument("--view", metavar="VIEWFILE", help="the .view.json file that came with your report (a player's)")


def _as_mail_body(data: bytes) -> bytes:
    """The order form in a file read as a mail body is (design 17): signatures, quoted replies and code
    fences set aside, the same text the judge would file; the file as it is when it holds no form."""
    from ..mail import inbox

    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data  # the loader says how the file is saved
    try:
        return inbox.orders_in_text(text).data
    except Exception:  # noqa: BLE001 - no form found: the loader names what is wrong with the file itself
        return data


def _load(data: bytes) -> Any:
    """The order file as the judge would read it: the file itself when it is an order file; else, as a
    mail body, the form in it with signatures, quotes and code fences set aside."""
    from ..common import ordertext, yamlsafe

    try:
        document = ordertext.load(data)
        if isinstance(document, dict):
            return document
        problem: yamlsafe.YamlError | None = None
    except yamlsafe.YamlError as exc:
        document, problem = None, exc
    body = _as_mail_body(data) if len(data) <= yamlsafe.MAX_BYTES else data
    if body != data:
        try:
            return ordertext.load(body)
        except yamlsafe.YamlError:
            pass
    if problem is not None:
        raise problem
    return document


def run(args: argparse.Namespace) -> int:
    from ..common import yamlsafe

    path = Path(args.file)
    checker, sentences = _with_view(Path(args.view)) if args.view else _with_campaign(Path(args.campaign), path)  # a damaged campaign first
    if path.exists() and not path.is_file() and not path.is_dir():  # a FIFO or a device would block the read, or never end
        raise Failure(f"{path}: not a regular file (an order file is a text file); nothing was checked")
    try:
        with open(path, "rb") as handle:
            data = handle.read(yamlsafe.MAX_BYTES + 1)
    except OSError as exc:
        raise Failure(f"{path}: cannot read the order file ({exc.strerror or exc}); nothing was checked") from None
    try:
        document = _load(data)
    except yamlsafe.YamlError as exc:
        document = sentences(data)  # design 17: plain sentences read as the judge reads a mail of them
        if document is None:
            print(f"{path}: REJECTED: {exc}")
            print("The whole file would be refused and you would count as NMR (no moves received).")
            return 1
    else:
        document = document if isinstance(document, dict) else sentences(data) or document
    sub, turn, due, nmr, note, renderer = checker(document, path.name)
    if sub.nmr:
        print(f"{path}: REJECTED")
        for problem in sub.problems:
            print(f"  {path}::{problem.where}: {problem.what}")
        if not due(sub.player):
            print(f"{sub.player} has nothing to order this turn: the adjudicator would ignore the file.")
        else:
            print(f"The whole file would be refused and you would count as NMR (no moves received). {nmr(sub.player)}".rstrip())
        return 1
    word, rest = re.match(r"(\w+)(.*)", sub.standing).groups()  # type: ignore[union-attr]
    print(f"{path}: {word} for {sub.player}, turn {turn}{rest}")
    for line in renderer.readings(sub, "would do", str(path)):
        print(line)
    if note:
        print(note)
    return 1 if sub.void else 0


Checker = Callable[[Any, str], tuple[Any, int, Callable[[str], bool], Callable[[str], str], str, Any]]
"""(document, file name) -> (the Submission, the pending turn, whether a player is due, what the deadline
brings a player with no orders (pipeline.nmr_means), a note for an accepted file, the Renderer whose
templates say how each order reads)."""
Sentences = Callable[[bytes], Any]
"""A file's bytes -> the order document its plain sentences make for the seat checked, as the judge reads a
mail of sentences (mail/sentences.py); None when it holds none."""


def _sentences(game: Any, position: Any, seat: str | None, turn: int) -> Sentences:
    """The reader of plain sentences for `seat` (none without a seat, or when it is not due)."""
    from ..common import ordertext
    from ..mail import inbox, sentences

    def read(data: bytes) -> Any:
        if seat is None or seat not in position.roster.due:
            return None
        try:
            text = inbox.own_words(data.decode("utf-8-sig"))
        except UnicodeDecodeError:
            return None  # not UTF-8: the loader's answer names the line, the byte and the fix
        found = sentences.read(text, game, position, seat, str(position.names.get(seat, seat)))
        return None if found is None else ordertext.load(found.document(turn).data)

    return read


def _with_campaign(root: Path, path: Path) -> tuple[Checker, Sentences]:
    """The GM's check: against the campaign's pending turn, read as the adjudication reads it, the password included."""
    from ..campaign import pending
    from ..campaign.folder import Campaign
    from ..campaign.pipeline import nmr_means
    from ..publish.render import Renderer

    campaign = Campaign.open(root)
    turn = pending.read(campaign)
    if turn.over:
        raise Failure(f"{campaign.root}: the game is over; no orders are due")
    expected = path.stem if path.stem in turn.roster.players else None
    renderer = Renderer.for_campaign(campaign.game.id, campaign.root, campaign.site_base_url)

    def check(document: Any, source: str) -> tuple[Any, int, Callable[[str], bool], Callable[[str], str], str, Any]:
        sub = turn.check_document(document, player=expected, source=source)
        return (sub, turn.number, lambda p: p not in turn.roster.players or turn.due(p),
                lambda p: nmr_means(campaign.game, turn.position, p), "", renderer)

    return check, _sentences(campaign.game, turn.position, expected, turn.number)


def _with_view(view_path: Path) -> tuple[Checker, Sentences]:
    """A player's check: against their view file alone, for their own seat only."""
    from ..campaign.pipeline import check_position, nmr_means
    from ..campaign.viewfile import ViewFileError, read_view_file
    from ..publish.render import Renderer

    record = _read_view(view_path, read_view_file, ViewFileError)
    renderer = Renderer(record.game.id)
    note = "The password is not checked here (your view file does not hold it): the GM's pbem checks it." if record.passwords else ""

    def check(document: Any, source: str) -> tuple[Any, int, Callable[[str], bool], Callable[[str], str], str, Any]:
        sub = check_position(record.game, record.position, document, turn=record.turn, expected_player=record.player,
                             password_ok=None, source=f"{source}, checked with {record.player}'s view file")
        for index, problem in enumerate(sub.problems):
            if problem.where == "turn" and isinstance(document, dict) and isinstance(document.get("turn"), int) \
                    and document["turn"] > record.turn:
                sub.problems[index] = type(problem)("turn", (
                    f"says {document['turn']}, but your view file {view_path.name} is from turn {record.turn}: "
                    f"check with the view file that came with your latest report"))
        return (sub, record.turn, lambda p: p != record.player or p in record.position.roster.due,
                lambda p: nmr_means(record.game, record.position, p) if p == record.player else "", note, renderer)

    return check, _sentences(record.game, record.position, record.player, record.turn)


def _read_view(view_path: Path, read: Callable[[bytes], Any], error: type[Exception]) -> Any:
    if not view_path.is_file():
        raise Failure(f"{view_path}: no such view file (it comes with your report, named <you>-turn-NNN.view.json)")
    try:
        return read(view_path.read_bytes())
    except error as exc:
        raise Failure(f"{view_path}: {exc}") from None
