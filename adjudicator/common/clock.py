"""The one seam through which the program reads the wall clock.

Nothing that reaches a turn's files depends on the clock. The clock decides only
whether a deadline or a reminder time has passed, what `status` says of the time
left, and the Date of a message when it is sent. Only the commands call `now()`;
every layer below takes the moment as an argument, so a test, or a GM catching up
after a host was down, gives another moment instead (`--now`).
"""

from __future__ import annotations

import datetime as dt


def now() -> dt.datetime:
    """The current moment, in UTC."""
    return dt.datetime.now(dt.UTC)
