"""The registry of games. Adding a game: its module, schemas, templates, and one line here."""

from __future__ import annotations

from .base import Game
from .hide import GAME as HIDE
from .hidekids import GAME as HIDEKIDS
from .identity import GAME as IDENTITY
from .jekyll import GAME as JEKYLL
from .secrets import GAME as SECRETS

GAMES: dict[str, Game] = {game.id: game for game in (SECRETS, IDENTITY, HIDE, HIDEKIDS, JEKYLL)}


class UnknownGame(ValueError):
    pass


def get(game_id: str) -> Game:
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGame(f"unknown game '{game_id}'; the games are: {known}") from None
