"""The one seam through which the program reads the wall clock.

Nothing a turn's outputs hold depends on the clock. The clock decides only
whether a deadline or a reminder time has passed, what `status` says of the time
left, and the Date of a message when it is sent; the judge's moment is recorded as
an input of a turn it adjudicates (adjudicated.json, as a `from: adjudication`
deadline is in deadline.json), so that a replay needs no clock. Only the commands call `now()`;
every layer below takes the moment as an argument, so a test, or a GM catching up
after a host was down, gives another moment instead (`--now`).
"""

from __future__ import annotations

import datetime as dt


def now() -> dt.datetime:
    """The current moment, in UTC."""
    return dt.datetime.now(dt.UTC)
