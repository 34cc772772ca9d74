"""`python -m adjudicator`, and the `pbem` command (pyproject's entry point is `run`)."""

from __future__ import annotations

import sys


def run(argv: list[str] | None = None) -> int:
    """pbem's whole life, start-up included: Ctrl-C while Python is still loading pbem is one line too."""
    try:
        from .cli import main
    except KeyboardInterrupt:  # nothing was started
        sys.stderr.write("pbem: interrupted; nothing was half written\n")
        return 130
    return main(argv)


if __name__ == "__main__":
    sys.exit(run())
