"""The registry of games. Adding a game: its package, schemas, templates, and one line here.

A game's module is imported when the game is first asked for, so a command that
deals with one campaign (`pbem check` on a cold start) loads one game, not five.
That first load is also where a game is checked against the protocol (base.Game):
a missing required name is an error naming it, a missing optional hook gets its
default (base.OPTIONAL_HOOKS), so no caller ever needs to ask whether a hook exists.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from importlib import import_module

from .base import OPTIONAL_HOOKS, REQUIRED_NAMES, Game

_MODULES = {
    "secrets": "adjudicator.games.secrets",
    "identity": "adjudicator.games.identity",
    "hide": "adjudicator.games.hide",
    "hidekids": "adjudicator.games.hidekids",
    "jekyll": "adjudicator.games.jekyll",
}


class UnknownGame(ValueError):
    pass


class GameDefinitionError(RuntimeError):
    """A registered module whose `GAME` does not meet the protocol: a programming error, named at load."""


def checked(module_path: str, game_id: str) -> Game:
    """The module's `GAME`, checked against the protocol and with its optional hooks filled in."""
    module = import_module(module_path)
    game = getattr(module, "GAME", None)
    if game is None:
        raise GameDefinitionError(f"{module_path} has no module-level GAME")
    missing = [name for name in REQUIRED_NAMES if not hasattr(game, name)]
    if missing:
        raise GameDefinitionError(f"{module_path}: GAME lacks {', '.join(missing)} (see adjudicator/games/base.py)")
    if game.id != game_id:
        raise GameDefinitionError(f"{module_path} registers as '{game.id}', not '{game_id}'")
    for name, default in OPTIONAL_HOOKS.items():
        if not hasattr(game, name):
            setattr(game, name, copy.copy(default))
    return game


class _Registry(Mapping[str, Game]):
    """Game id -> game, each module imported (and checked) on first use."""

    def __init__(self, modules: dict[str, str]) -> None:
        self._modules = modules
        self._loaded: dict[str, Game] = {}

    def __getitem__(self, game_id: str) -> Game:
        if game_id not in self._loaded:
            self._loaded[game_id] = checked(self._modules[game_id], game_id)
        return self._loaded[game_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)

    def add(self, game_id: str, module_path: str) -> Game:
        taken = self._modules.get(game_id)
        if taken is not None and taken != module_path:
            raise GameDefinitionError(f"the game id '{game_id}' is already taken by {taken}")
        game = checked(module_path, game_id)  # a game that fails its check never enters the registry
        self._modules[game_id] = module_path
        self._loaded[game_id] = game
        return game

    def remove(self, game_id: str) -> None:
        del self._modules[game_id]
        self._loaded.pop(game_id, None)


_REGISTRY = _Registry(_MODULES)
GAMES: Mapping[str, Game] = _REGISTRY


def get(game_id: str) -> Game:
    if game_id not in _MODULES:
        known = ", ".join(sorted(_MODULES))
        raise UnknownGame(f"unknown game '{game_id}'; the games are: {known}")
    return GAMES[game_id]


def register(game_id: str, module_path: str) -> Game:
    """Add a game that lives outside this package (a plugin; the toy game of tests/test_toy_game.py)
    under `game_id`: the same entry a line in _MODULES makes, checked at once. Its schemas and
    templates are found through common.resources.add_root."""
    return _REGISTRY.add(game_id, module_path)


def unregister(game_id: str) -> None:
    """Take a game added by `register` out again, so suites that loop over GAMES see only the shipped ones."""
    _REGISTRY.remove(game_id)
