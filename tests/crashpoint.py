"""Run a pbem command that SIGKILLs itself (or pauses) just before its Nth file-system change.

    python tests/crashpoint.py N pbem-args...        # N = 0: count the changes and print the count
                                                     # N < 0: just run the command
    python tests/crashpoint.py pause=N pbem-args...  # stop before change N until told to go on
    python tests/crashpoint.py pause=N@TEXT pbem-args...  # ... before the Nth change of a path containing TEXT
    python tests/crashpoint.py pause=import:MODULE pbem-args...  # ... as pbem starts to import MODULE (start-up)

Python's audit hooks announce every open, rename, unlink, mkdir and link before
it happens, so a test can stop the real command at each of its writes in turn,
without any hook inside the product.

A paused command creates the file named by $PBEM_PAUSED when it stops and waits
until the file named by $PBEM_RELEASE exists: a test can then start a second
command while the first one holds the campaign at a known moment.

With $PBEM_CHANGES naming a file, each change is written to it as a line
`N EVENT PATH` (N counted as above), so that a test can find the change it wants
to stop before (the rename that swaps a turn into place, say) by what it does.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

MUTATING = {"os.rename", "os.remove", "os.rmdir", "os.mkdir", "os.link", "os.symlink", "shutil.rmtree", "os.truncate"}


def _is_change(event: str, args: tuple, redone_too: bool = False) -> bool:
    if args and "__pycache__" in str(args[0]):
        # Python caching the bytecode of a module it imports: not the command's change, and made only
        # where no cache is yet (a fresh clone's first run), so counting it would move change N by run.
        return False
    if args and event in ("open", "os.mkdir") and not redone_too and _redone(str(args[0])):
        # Taking a lock file that is already there, or making a folder that is: no change on disk, and
        # done once per slice of work, whose length `pbem ingest` measures by the clock (a loaded machine
        # cuts more slices), so counting them would move change N from run to run.
        return False
    if event == "open":
        mode = args[1] if len(args) > 1 else "r"
        flags = args[2] if len(args) > 2 else 0
        if isinstance(mode, str):
            return any(c in mode for c in "wxa+")
        return bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))
    return event in MUTATING


def _redone(path: str) -> bool:
    name = os.path.basename(path)
    return os.path.isdir(path) or (name.startswith(".") and name.endswith(".lock") and os.path.exists(path))


HANG_SECONDS = 1800
"""How long a paused command waits for its release before it gives up, only against a test that
died holding it: it then kills itself rather than go on, so it never moves at a moment no test chose."""


def _pause() -> None:
    """Announce the pause, then wait for the release (both are plain files named by the test)."""
    Path(os.environ["PBEM_PAUSED"]).touch()
    release = Path(os.environ["PBEM_RELEASE"])
    deadline = time.monotonic() + HANG_SECONDS
    while not release.exists():
        if time.monotonic() > deadline:
            os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(0.01)


def _start_up(module: str) -> None:
    """Run pbem as its `pbem` command does, held as it imports `module` (Python is still loading pbem)."""

    def hook(event: str, args: tuple) -> None:
        if event == "import" and args and args[0] == module:
            _pause()

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.addaudithook(hook)
    from adjudicator.__main__ import run

    sys.exit(run(sys.argv[2:]))


def main() -> None:
    # Ctrl-C as at a terminal: a shell that starts jobs in the background (nohup, `cmd &` in a script, some
    # CI runners) hands its children SIGINT ignored, and Python then installs no KeyboardInterrupt for it.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    spec = sys.argv[1]
    if spec.startswith("pause=import:"):
        _start_up(spec.removeprefix("pause=import:"))
    pause = spec.startswith("pause=")
    number, _, within = spec.removeprefix("pause=").partition("@")
    stop_at = int(number)
    count = 0
    counted = 0  # the changes that count towards stop_at: all of them, or those of paths containing `within`
    busy = False  # the pause itself touches files: those are not the command's changes
    log = open(os.environ["PBEM_CHANGES"], "a", encoding="utf-8") if os.environ.get("PBEM_CHANGES") else None

    def hook(event: str, args: tuple) -> None:
        nonlocal count, counted, busy
        # Stopping at the Nth taking of a named lock (`pause=2@/.lock`) counts its every taking.
        if busy or not _is_change(event, args, redone_too=bool(within)):
            return
        count += 1
        ours = not within or (bool(args) and within in str(args[0]))
        counted += ours
        if log is not None:
            busy = True
            log.write(f"{count} {event} {args[0] if args else ''}\n")
            log.flush()
            busy = False
        if ours and counted == stop_at:
            if not pause:
                os.kill(os.getpid(), signal.SIGKILL)
            busy = True
            try:
                _pause()
            finally:
                busy = False

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from adjudicator.cli import main as pbem

    sys.addaudithook(hook)
    code = pbem(sys.argv[2:])
    if stop_at == 0:
        print(count, file=sys.stderr)
    sys.exit(code)


if __name__ == "__main__":
    main()
