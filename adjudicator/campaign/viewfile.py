"""A player's view file: what `pbem check FILE --view VIEWFILE` needs, from that player's view alone.

`pbem check --campaign DIR` needs the whole campaign folder, whose state holds every hand:
only the GM has it. The view file is what a player gets beside each report (attached to the
mailed report, or `pbem report DIR --player P --view`) so that they can check their order
file for the next turn before sending it, with nothing else. It holds the pending turn,
its phase, the seats and display names, whether this player is due, whether the campaign
uses passwords, and the game's `view(state, player)`: by the game's contract, only what
that player may know. The password is not in it, so `check --view` cannot test one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..games import get
from ..games.base import Game, State
from .folder import Campaign
from .pipeline import Position, Roster

FORMAT = "pbem-view-1"
"""The value of the file's `format` field; a later layout gets a new one."""

SUFFIX = ".view.json"


class ViewFileError(ValueError):
    """The file is not a view file this pbem can read; the message says why."""


def view_file(game: Game, campaign_name: str, uses_passwords: bool, state: State, turn: int, player: str) -> bytes:
    """The view file of `player` for orders for `turn`, the turn after `state`: byte-stable (sorted keys)."""
    record = {
        "format": FORMAT,
        "campaign": campaign_name,
        "game": game.id,
        "turn": turn,
        "phase": game.phase(state),
        "player": player,
        "players": list(state["players"]),
        "names": {p: state.get("names", {}).get(p, p) for p in state["players"]},
        "due": player in game.due(state),
        "passwords": uses_passwords,
        "view": game.view(state, player),
    }
    return (json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def for_report(campaign: Campaign, turn: int, player: str) -> bytes | None:
    """The view file that goes with `player`'s report of `turn`: for their orders for the next
    turn (None once the game is over: no orders are due)."""
    from .pending import pending_state

    state = pending_state(campaign) if turn == campaign.last_turn else campaign.state(turn)
    if campaign.game.is_over(state):
        return None
    return view_file(campaign.game, str(campaign.config["name"]), campaign.uses_passwords, state, turn + 1, player)


def file_name(campaign: Campaign, turn: int, player: str) -> str:
    """`<player>-turn-NNN.view.json`: the turn its orders are for, so that an old one is told apart."""
    return f"{player}-turn-{turn + 1:03d}{SUFFIX}"


@dataclass(frozen=True)
class ViewRecord:
    game: Game
    campaign: str
    turn: int
    player: str
    passwords: bool
    position: Position


def read_view_file(data: bytes) -> ViewRecord:
    """A view file read back, checked enough that a damaged or foreign file is named as such."""
    try:
        record = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError):
        raise ViewFileError("not a view file (it is not JSON text); use the .view.json file that came with your report") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ViewFileError(f"not a view file of this pbem (its format is not {FORMAT}); use the .view.json file that came with your report")
    try:
        game = get(str(record["game"]))
        player, players, names = str(record["player"]), [str(p) for p in record["players"]], dict(record["names"])
        turn, phase, view = int(record["turn"]), str(record["phase"]), record["view"]
        due, passwords, campaign = bool(record["due"]), bool(record["passwords"]), str(record["campaign"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ViewFileError(f"the view file is damaged ({type(exc).__name__}: {exc}); ask your GM for a new one") from None
    if player not in players:
        raise ViewFileError("the view file is damaged (its player is not one of its players); ask your GM for a new one")

    def view_of(who: str) -> Any:
        if who != player:  # check_position reads orders only for the file's own seat, which is checked first
            raise ViewFileError(f"this view file is {player}'s; it cannot read orders for {who}")
        return view

    roster = Roster(frozenset(players), frozenset([player] if due else []))
    return ViewRecord(game, campaign, turn, player, passwords, Position(phase, roster, names, view_of))
