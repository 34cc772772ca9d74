"""`judge: notify:`: each adjudicated turn's public report posted to chat and other services (design 18).

    judge:
      notify:
        - discord://webhook_id/webhook_token
        - json://bot.example.org/pbem
        - tgram://bot_token/chat_id

Each URL is in the scheme of the apprise library, which speaks to Discord, Slack, Matrix,
Telegram, a JSON webhook, mail and many more. After each adjudicated turn the judge posts
its public report (the text of public.md, as the public report mail has it) with the
public board as a PNG attached, which the services that take an image show and the others
drop. Nothing else is ever posted: not a player's report, not an order, not anything of a
player's view (the board is drawn from `view(state, None)`).

Once, even across kills: before a post the judge records that it is about to make it
(`mail/notified.json`, keyed by the turn and a hash of the URL: the URL holds the service's
token and is not copied), and after it, how it went. A post found begun but never finished
(the judge was killed mid-post) is not made again, since it may have gone out; the GM is told.
A post that fails (the service down, a refusal) is tried again at each later tick, each try
recorded the same way, until it goes or `RETRY_FOR` has passed since the first failure; then
the judge gives up and says so. The GM can post a turn again by hand (`pbem notify`). When
notify is first set (or a URL added) in a running campaign, only the latest turn is posted to
it, not the whole history.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..campaign import schedule
from ..campaign.folder import Campaign
from ..common import atomic
from ..common.words import plural
from ..mail.boards import board_png
from ..mail.compose import ensure_mail_dir, mail_dir, write_outbox
from ..publish.render import markdown_plain
from .letters import to_gm
from .services import apprise, shown
from .settings import read_settings

Poster = Callable[[str, str, str, bytes], tuple[bool, str]]
"""(url, title, body, board PNG) -> (posted, why not)."""

RETRY_FOR = dt.timedelta(hours=24)
"""How long after its first failure a post is tried again at each tick: a chat service down for a
night is back by then; one still failing a day later needs the GM (a token revoked, a URL gone)."""

Entry = str | dict[str, Any]
"""A post's record: "posting" (begun), "posted", "interrupted" (begun and never finished: perhaps
out), or, once a try has failed, {"why", "first", "tries", "last"} with "posting": true while a
try is being made, "posted": true once one went and "gave_up": true once RETRY_FOR has passed.
(A campaign from before retries holds "failed: WHY": not tried again.)"""


def _key(turn: int, url: str) -> str:
    return f"{turn}/{hashlib.sha256(url.encode('utf-8')).hexdigest()[:16]}"


def _record_path(root: Path) -> Path:
    return mail_dir(root) / "notified.json"


def _load(root: Path) -> dict[str, Entry]:
    path = _record_path(root)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _save(root: Path, record: dict[str, Entry]) -> None:
    ensure_mail_dir(root)
    atomic.write_file(_record_path(root), (json.dumps(record, indent=1, sort_keys=True) + "\n").encode("utf-8"))


def _begun(entry: Entry) -> bool:
    return entry == "posting" or (isinstance(entry, dict) and bool(entry.get("posting")))


def _retrying(entry: Entry) -> bool:
    """A failed post the judge still tries again at each tick."""
    return isinstance(entry, dict) and not (entry.get("posting") or entry.get("posted") or entry.get("gave_up"))


def _until(entry: dict[str, Any], plan: dict[str, Any] | None) -> str:
    return schedule.local_text(plan, dt.datetime.fromisoformat(entry["first"]) + RETRY_FOR)


def _news(key: str, entry: Entry, plan: dict[str, Any] | None) -> tuple[str, str] | None:
    """What the GM is told of one post, and the fact's id (told once), or None when all went well."""
    turn = key.split("/")[0]
    what = f"the public report of turn {turn}"
    if entry == "interrupted":
        return key, f"a post of turn {turn}'s public report was begun but the judge stopped before it finished; it may or may not have gone out"
    if isinstance(entry, str):  # a campaign from before retries
        return (key, f"{what} could not be posted to {entry.removeprefix('failed: ')}; it is not tried again") if entry.startswith("failed: ") else None
    tries = plural(entry["tries"], "try", "tries")
    if entry.get("posted"):
        return f"{key}#posted", f"{what} was posted to {entry['why'].split(': ')[0]} at try {entry['tries'] + 1}, after {tries} that failed"
    if entry.get("gave_up"):
        return (f"{key}#gave-up", f"{what} could not be posted to {entry['why']}; the judge gave up after {tries} over {plural(int(RETRY_FOR.total_seconds() // 3600), 'hour')} "
                f"(pbem notify DIR --turn {turn} posts it again by hand)")
    return f"{key}#failed", f"{what} could not be posted to {entry['why']}; the judge tries again at each tick until {_until(entry, plan)}"


def failures(root: Path, plan: dict[str, Any] | None) -> dict[str, str]:
    """Every post that failed, was given up, went after failing or was cut short: a fact id (told once) -> what
    the GM is told (a time in the zone of the campaign's schedule, `plan`)."""
    told = {}
    for key, entry in sorted(_load(root).items()):
        news = _news(key, entry, plan)
        if news is not None:
            told[news[0]] = news[1]
    return told


_STATUS = re.compile(r"error=(\d{3})")


def _why(log: str, url: str) -> str:
    """Why apprise could not post, from what it logged: the connection refused, the HTTP status, a timeout;
    never a line that could hold the URL's path or token (apprise logs the whole URL at debug)."""
    if "Connection refused" in log:
        return "connection refused"
    status = _STATUS.search(log)
    if status:
        return f"the service answered HTTP {status.group(1)}"
    if "timed out" in log.lower():
        return "the service did not answer in time"
    warned = [line.partition("|")[2] for line in log.splitlines() if line.startswith(("WARNING|", "ERROR|"))]
    said = " ".join(line.replace(url, shown(url)) for line in warned if "://" not in line.replace(url, ""))
    return f"apprise says: {said[:200]}" if said else "the service did not accept the post (apprise gave no reason)"


def apprise_post(url: str, title: str, body: str, board: bytes) -> tuple[bool, str]:
    """One post through apprise, with the board attached where the service takes one."""
    library = apprise()
    from apprise.attachment.memory import AttachMemory

    service = library.Apprise()
    if not service.add(url):
        return False, "apprise does not understand this URL"
    attachments = library.AppriseAttachment()
    attachments.add(AttachMemory(content=board, name="board.png", mimetype="image/png"))
    with library.LogCapture(level=logging.DEBUG, fmt="%(levelname)s|%(message)s") as log:
        result = service.notify(body=body, title=title, attach=attachments)
    return (True, "") if result else (False, _why(log.getvalue(), url))


def _failed(before: Entry, url: str, why: str, now: dt.datetime) -> dict[str, Any]:
    """The record of a try that failed, counting the earlier ones; given up once RETRY_FOR has passed."""
    first = before["first"] if isinstance(before, dict) and "first" in before else now.isoformat()
    tries = (before.get("tries", 0) if isinstance(before, dict) else 0) + 1
    entry = {"why": f"{shown(url)}: {why}", "first": first, "tries": tries, "last": now.isoformat()}
    if now - dt.datetime.fromisoformat(first) >= RETRY_FOR:
        entry["gave_up"] = True
    return entry


def _post(root: Path, campaign: Campaign, record: dict[str, Entry], url: str, turn: int, now: dt.datetime, post: Poster) -> str | None:
    """One try of one turn to one URL, recorded before and after; what the GM's line says of it when it failed."""
    key = _key(turn, url)
    before = record.get(key, "")
    record[key] = {**before, "posting": True} if isinstance(before, dict) else "posting"
    _save(root, record)  # before the post: a kill after this line never posts it twice
    title = f"[{campaign.config.get('name')}] {campaign.game.title}, turn {turn}: public report"
    board = board_png(campaign.game.id, campaign.game.view(campaign.state(turn), None), f"board-{turn}").png
    public = campaign.turn_dir(turn) / "reports" / "public.md"
    try:
        posted, why = post(url, title, markdown_plain(public.read_text(encoding="utf-8")), board)
    except Exception as exc:  # noqa: BLE001 - a plugin's error is this post's failure, not the tick's
        posted, why = False, f"{type(exc).__name__}: {exc}"
    if posted:
        record[key] = {**before, "posted": True} if isinstance(before, dict) else "posted"
    else:
        record[key] = _failed(before, url, why, now)
    _save(root, record)
    return None if posted else f"turn {turn} to {shown(url)}: {why}"


def post_turns(root: Path, done: list[str], now: dt.datetime, post: Poster | None = None, tell_gm: bool = True, upto: int | None = None) -> None:
    """Post every adjudicated turn not yet posted to each URL, and try again each failed post still within
    RETRY_FOR; what happened goes into `done` (the tick's line). What the GM should hear is in `failures`;
    with `tell_gm` (no digest in this campaign) what is new of it also goes to the GM in a message of its own.
    `upto` is the last turn whose reports have gone to the players: a turn held for the GM's preview is not public yet."""
    post = post or apprise_post
    campaign = Campaign.open(root)
    targets = read_settings(campaign).notify
    last = campaign.last_turn if upto is None else min(campaign.last_turn, upto)
    if not targets or last < 1:
        return
    record = _load(root)
    before = failures(root, campaign.schedule)
    troubles: list[str] = []
    for url in targets:
        suffix = _key(0, url).split("/")[1]
        started = [int(k.split("/")[0]) for k in record if k.endswith(suffix)]
        again = [int(k.split("/")[0]) for k, entry in record.items() if k.endswith(suffix) and _retrying(entry)]
        turns = sorted({*again, *(range(max(started) + 1, last + 1) if started else [last])})
        for turn in turns:
            if not (campaign.turn_dir(turn) / "reports" / "public.md").is_file():
                continue
            trouble = _post(root, campaign, record, url, turn, now, post)
            if trouble is None:
                done.append(f"turn {turn} posted to {shown(url)}")
            else:
                troubles.append(trouble)
    interrupted = [k for k, entry in record.items() if _begun(entry)]
    for key in interrupted:
        record[key] = "interrupted"
        troubles.append(f"turn {key.split('/')[0]}: a post was begun but the judge stopped before it finished; it may or may not have gone out")
    if interrupted:
        _save(root, record)
    if troubles:
        done.append(f"note: {plural(len(troubles), 'notification')} failed; the GM is told")
    new = [fact for key, fact in failures(root, campaign.schedule).items() if key not in before]
    if not tell_gm or not new:
        return
    body = (
        f"{campaign.config.get('name')}: posting the public reports (judge: notify:):\n\n"
        + "".join(f"  {fact}\n" for fact in new)
        + f"\nTo post a turn again by hand: pbem notify {root} --turn N. To change a URL: campaign.yaml's judge: notify:.\n"
    )
    name, data = to_gm(campaign, last, "notify", "notifications failed", body)
    with atomic.locked(root):
        write_outbox(root, {name: data})


def post_by_hand(root: Path, turn: int | None, now: dt.datetime, post: Poster | None = None) -> list[tuple[str, bool]]:
    """`pbem notify`: post turn `turn` (or every turn whose post failed, was given up or cut short) to each URL
    where it is not recorded as posted, recorded as the judge's posts are. Each line, and whether it is a failure."""
    post = post or apprise_post
    campaign = Campaign.open(root)
    targets = read_settings(campaign).notify
    if not targets:
        return [("judge: notify: lists no URL in campaign.yaml; there is nowhere to post", True)]
    record = _load(root)
    if turn is None:
        turns = sorted({int(k.split("/")[0]) for k, entry in record.items() if _news(k, entry, None) is not None and not _posted(entry)})
    elif not 1 <= turn <= campaign.last_turn:
        return [(f"turn {turn} has no public report to post: the adjudicated turns are 1 to {campaign.last_turn}", True)]
    else:
        turns = [turn]
    lines = []
    for number in turns:
        for url in targets:
            if _posted(record.get(_key(number, url), "")):
                lines.append((f"turn {number} was posted to {shown(url)} already", False))
                continue
            trouble = _post(root, campaign, record, url, number, now, post)
            lines.append((trouble, True) if trouble else (f"turn {number} posted to {shown(url)}", False))
    return lines or [("no post failed or was cut short: nothing to post again (--turn N posts a turn)", False)]


def _posted(entry: Entry) -> bool:
    return entry == "posted" or (isinstance(entry, dict) and bool(entry.get("posted")))
