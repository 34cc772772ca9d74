"""The registry of games. Adding a game: its module, schemas, templates, and one line here.

A game's module is imported when the game is first asked for, so a command that
deals with one campaign (`pbem check` on a cold start) loads one game, not five.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module

from .base import Game

_MODULES = {
    "secrets": "adjudicator.games.secrets",
    "identity": "adjudicator.games.identity",
    "hide": "adjudicator.games.hide",
    "hidekids": "adjudicator.games.hidekids",
    "jekyll": "adjudicator.games.jekyll",
}


class UnknownGame(ValueError):
    pass


class _Registry(Mapping[str, Game]):
    """Game id -> game, each module imported on first use."""

    def __init__(self, modules: dict[str, str]) -> None:
        self._modules = modules
        self._loaded: dict[str, Game] = {}

    def __getitem__(self, game_id: str) -> Game:
        if game_id not in self._loaded:
            game = import_module(self._modules[game_id]).GAME
            if game.id != game_id:
                raise RuntimeError(f"{self._modules[game_id]} registers as '{game.id}', not '{game_id}'")
            self._loaded[game_id] = game
        return self._loaded[game_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)


GAMES: Mapping[str, Game] = _Registry(_MODULES)


def get(game_id: str) -> Game:
    if game_id not in _MODULES:
        known = ", ".join(sorted(_MODULES))
        raise UnknownGame(f"unknown game '{game_id}'; the games are: {known}")
    return GAMES[game_id]
