"""Where the shipped `schemas/` and `templates/` folders are.

In a source checkout they sit at the top of the repository; an installed
package carries them inside itself (pyproject.toml maps them there).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # adjudicator/


@cache
def resource_dir(name: str) -> Path:
    inside = _PACKAGE / name
    if inside.is_dir():
        return inside
    beside = _PACKAGE.parent / name
    if beside.is_dir():
        return beside
    raise FileNotFoundError(f"the {name}/ folder is missing from the installation ({inside})")


_EXTRA_ROOTS: list[Path] = []


def add_root(folder: Path) -> None:
    """A folder holding the `schemas/<game>/` and `templates/<game>/` of a game registered from
    outside the package (`games.register`); searched after the shipped folders, which win."""
    _EXTRA_ROOTS.append(folder)


def resource_path(kind: str, relative: str) -> Path:
    """`<kind>/<relative>` (e.g. `schemas`, `secrets/orders.json`): the shipped one, else the first
    added root's; the shipped path when none has it, so a missing file is reported where it belongs."""
    shipped = resource_dir(kind) / relative
    if shipped.exists():
        return shipped
    for root in _EXTRA_ROOTS:
        if (root / kind / relative).exists():
            return root / kind / relative
    return shipped
