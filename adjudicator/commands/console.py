"""What every command shares: how it prints, and how it refuses (exit 1 with a one-line reason)."""

from __future__ import annotations

import errno
import sys
from typing import Any


class Failure(Exception):
    """A refusal or invalid input: print the message, exit 1."""


def console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def literal(value: Any) -> str:
    """A value shown as it is in rich output: a campaign name or a player's text holding
    `[bold]` or `[link=...]` is printed, not obeyed."""
    from rich.markup import escape

    return escape(str(value))


def game_list() -> str:
    """The game ids, for help texts (their modules are not loaded for it)."""
    from ..games import GAMES

    return ", ".join(GAMES)


def err(message: str) -> None:
    print(f"pbem: {message}", file=sys.stderr)


def os_problem(exc: OSError, folder: Any = None) -> str:
    """A failed read or write in words: which file (or campaign), what the system said, and that nothing was half done."""
    where = f"{exc.filename or folder}: " if exc.filename or folder else ""
    hint = " (a full disk or a read-only folder?)" if exc.errno in _DISK_TROUBLE else ""
    return f"{where}{exc.strerror or exc}; the command stopped and kept nothing half written{hint}"


_DISK_TROUBLE = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM})
