"""Run a pbem command that SIGKILLs itself just before its Nth file-system change.

    python tests/crashpoint.py N pbem-args...     # N = 0: count the changes and print the count
                                                  # N < 0: just run the command

Python's audit hooks announce every open, rename, unlink, mkdir and link before
it happens, so a test can stop the real command at each of its writes in turn,
without any hook inside the product.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

MUTATING = {"os.rename", "os.remove", "os.rmdir", "os.mkdir", "os.link", "os.symlink", "shutil.rmtree", "os.truncate"}


def _is_change(event: str, args: tuple) -> bool:
    if event == "open":
        mode = args[1] if len(args) > 1 else "r"
        flags = args[2] if len(args) > 2 else 0
        if isinstance(mode, str):
            return any(c in mode for c in "wxa+")
        return bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))
    return event in MUTATING


def main() -> None:
    kill_at = int(sys.argv[1])
    count = 0

    def hook(event: str, args: tuple) -> None:
        nonlocal count
        if _is_change(event, args):
            count += 1
            if count == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from adjudicator.cli import main as pbem

    sys.addaudithook(hook)
    code = pbem(sys.argv[2:])
    if kill_at == 0:
        print(count, file=sys.stderr)
    sys.exit(code)


if __name__ == "__main__":
    main()
