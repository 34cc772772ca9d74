"""The `pbem` command line (design 8): reads the arguments, runs one command, turns errors into exit codes.

Exit codes: 0 success, 1 refused or invalid input, 2 usage error. Each command is a
module of adjudicator/commands/ with its `HELP`, its `arguments(parser)` and its
`run(args)`; this file only lists them. A command imports what it needs when it
runs, so a quick `pbem check` does not pay for Jinja or rich.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from types import ModuleType

from . import __version__
from .commands import (
    absence,
    adjudicate,
    audit,
    check,
    deadline,
    demo,
    export,
    ingest,
    mail,
    new,
    notify,
    release,
    replace,
    report,
    reveal,
    rollback,
    run,
    show,
    standin,
    site,
    start,
    status,
)
from .commands.console import Failure, err, os_problem

COMMANDS: dict[str, ModuleType] = {
    "new": new,
    "start": start,
    "status": status,
    "check": check,
    "adjudicate": adjudicate,
    "ingest": ingest,
    "mail": mail,
    "run": run,
    "deadline": deadline,
    "replace": replace,
    "standin": standin,
    "absence": absence,
    "release": release,
    "rollback": rollback,
    "notify": notify,
    "show": show,
    "report": report,
    "audit": audit,
    "reveal": reveal,
    "site": site,
    "export": export,
    "demo": demo,
}
"""The commands in the order `pbem --help` lists them."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line; given the `command` an argument list starts with, that command's own parser, for the
    words after it: cron calls `pbem run` every few minutes with a thousand folders, and the full parser costs
    it the twenty other commands (about 10 ms: argparse asks gettext for each help text) and every folder name
    read twice (once by the top parser, which hands them on to the command's), a fifth of what a thousand
    quiet campaigns cost it."""
    if command is not None:
        module = COMMANDS[command]
        parser = argparse.ArgumentParser(prog=f"pbem {command}", description=module.HELP)
        parser.set_defaults(func=module.run, command=command)
        module.arguments(parser)
        return parser
    parser = argparse.ArgumentParser(prog="pbem", description="Play-by-email adjudicator for hidden-identity games.")
    parser.add_argument("--version", action="version", version=f"pbem-adjudicator {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module in COMMANDS.items():
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        p.set_defaults(func=module.run)
        module.arguments(p)
    return parser


FEWER_COLLECTIONS = 10_000
"""Allocations between runs of Python's cycle collector (Python's default is 700). Its
collections walk every live object, and a large turn holds millions (its state, orders,
events and reports): a 10,000-player turn spent a third of its time there, more the larger
it was. A command makes few reference cycles, so collecting less often costs little memory."""


INTERRUPTED = "interrupted; nothing was half written (a turn in progress is finished or undone by the next command)"


def main(argv: list[str] | None = None) -> int:
    try:
        return _run(argv)
    except KeyboardInterrupt:  # Ctrl-C, wherever it lands: every write is atomic, and a turn cut short is finished or undone by the next command
        err(INTERRUPTED)
        return 130


def _run(argv: list[str] | None) -> int:
    words = sys.argv[1:] if argv is None else argv
    command = words[0] if words and words[0] in COMMANDS else None  # `pbem --help`, a typo: all of them
    parser = build_parser(command)
    args = parser.parse_args(words if command is None else words[1:])
    if getattr(args, "send", False) and not args.smtp:  # argparse cannot say that one option needs another
        parser.error(f"{args.command} --send needs --smtp HOST:PORT")
    gc.set_threshold(FEWER_COLLECTIONS, *gc.get_threshold()[1:])
    try:
        from .campaign.folder import CampaignError
        from .common.atomic import Busy
        from .games import UnknownGame
    except ModuleNotFoundError as exc:
        err(missing_dependency(exc))
        return 1
    try:
        return args.func(args)
    except (Failure, CampaignError, UnknownGame, Busy) as exc:
        err(str(exc))
        return 1
    except BrokenPipeError:  # the reader went away (`pbem report DIR | head`): not a failure of the command
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush at exit
        return 0
    except ModuleNotFoundError as exc:  # pbem installed without its dependencies (`pip install --no-deps`)
        err(missing_dependency(exc))
        return 1
    except FileNotFoundError as exc:
        err(f"{exc.filename}: no such file or folder" if exc.filename else str(exc))
        return 1
    except OSError as exc:
        err(os_problem(exc, getattr(args, "dir", None)))
        return 1
    except Exception as exc:  # noqa: BLE001  a bug, or damage no check foresaw: one line, not a traceback
        if os.environ.get("PBEM_TRACEBACK"):
            raise
        err(f"unexpected error ({type(exc).__name__}: {exc}); nothing was half written. A campaign file may be "
             "damaged (`pbem audit DIR` names the first that differs), or this is a bug in pbem: please report "
             "this message (PBEM_TRACEBACK=1 shows where it happened)")
        return 1


DEPENDENCIES = {"yaml": "pyyaml", "jsonschema": "jsonschema", "fastjsonschema": "fastjsonschema", "jinja2": "jinja2", "rich": "rich"}
"""The modules pbem imports from other packages -> the package (pyproject's dependencies) that holds each."""


def missing_dependency(exc: ModuleNotFoundError) -> str:
    """A dependency that is not installed, named as such: nothing is wrong with any campaign."""
    module = (exc.name or "").partition(".")[0]
    package = DEPENDENCIES.get(module)
    if package is None:  # a module of pbem itself is missing: a broken install, still not a campaign's fault
        return f"pbem is installed incompletely (no module named '{exc.name}'); reinstall it: pip install --force-reinstall pbem-adjudicator"
    return (f"the Python package '{package}' that pbem needs is not installed for {sys.executable}; "
            f"install it (pip install {package}, or pip install . from pbem's source); nothing was read or written")


if __name__ == "__main__":
    sys.exit(main())
