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
