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
A post that fails is not retried either: the GM gets a message saying which URL (its scheme
and host only) and why, and can post that report by hand. When notify is first set (or a URL
added) in a running campaign, only the latest turn is posted to it, not the whole history.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def _key(turn: int, url: str) -> str:
    return f"{turn}/{hashlib.sha256(url.encode('utf-8')).hexdigest()[:16]}"


def _record_path(root: Path) -> Path:
    return mail_dir(root) / "notified.json"


def _load(root: Path) -> dict[str, Any]:
    path = _record_path(root)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _save(root: Path, record: dict[str, Any]) -> None:
    ensure_mail_dir(root)
    atomic.write_file(_record_path(root), (json.dumps(record, indent=1, sort_keys=True) + "\n").encode("utf-8"))


def failures(root: Path) -> dict[str, str]:
    """Every post that failed or was cut short, by its record key (`turn/url-hash`) -> what the GM is told."""
    told = {}
    for key, status in sorted(_load(root).items()):
        turn = key.split("/")[0]
        if status.startswith("failed: "):
            told[key] = f"the public report of turn {turn} could not be posted to {status.removeprefix('failed: ')}; it is not tried again"
        elif status == "interrupted":
            told[key] = f"a post of turn {turn}'s public report was begun but the judge stopped before it finished; it may or may not have gone out"
    return told


def apprise_post(url: str, title: str, body: str, board: bytes) -> tuple[bool, str]:
    """One post through apprise, with the board attached where the service takes one."""
    library = apprise()
    from apprise.attachment.memory import AttachMemory

    service = library.Apprise()
    if not service.add(url):
        return False, "apprise does not understand this URL"
    attachments = library.AppriseAttachment()
    attachments.add(AttachMemory(content=board, name="board.png", mimetype="image/png"))
    result = service.notify(body=body, title=title, attach=attachments)
    return (True, "") if result else (False, "the service did not accept the post (apprise reported a failure)")


def post_turns(root: Path, done: list[str], post: Poster | None = None, tell_gm: bool = True, upto: int | None = None) -> None:
    """Post every adjudicated turn not yet posted to each URL; what happened goes into `done` (the tick's line).
    A failure is recorded (`failures`); with `tell_gm` (no digest in this campaign) the GM also gets a message of its own.
    `upto` is the last turn whose reports have gone to the players: a turn held for the GM's preview is not public yet."""
    post = post or apprise_post
    campaign = Campaign.open(root)
    targets = read_settings(campaign).notify
    last = campaign.last_turn if upto is None else min(campaign.last_turn, upto)
    if not targets or last < 1:
        return
    record = _load(root)
    troubles: list[str] = []
    for url in targets:
        started = [int(k.split("/")[0]) for k in record if k.endswith(_key(0, url).split("/")[1])]
        turns = range(max(started) + 1, last + 1) if started else [last]
        for turn in turns:
            key = _key(turn, url)
            public = campaign.turn_dir(turn) / "reports" / "public.md"
            if not public.is_file():
                continue
            record[key] = "posting"
            _save(root, record)  # before the post: a kill after this line never posts it twice
            title = f"[{campaign.config.get('name')}] {campaign.game.title}, turn {turn}: public report"
            board = board_png(campaign.game.id, campaign.game.view(campaign.state(turn), None), f"board-{turn}").png
            try:
                posted, why = post(url, title, markdown_plain(public.read_text(encoding="utf-8")), board)
            except Exception as exc:  # noqa: BLE001 - a plugin's error is this post's failure, not the tick's
                posted, why = False, f"{type(exc).__name__}: {exc}"
            record[key] = "posted" if posted else f"failed: {shown(url)}: {why}"
            _save(root, record)
            if posted:
                done.append(f"turn {turn} posted to {shown(url)}")
            else:
                troubles.append(f"turn {turn} to {shown(url)}: {why}")
    interrupted = [k for k, s in record.items() if s == "posting"]
    for key in interrupted:
        record[key] = "interrupted"
        troubles.append(f"turn {key.split('/')[0]}: a post was begun but the judge stopped before it finished; it may or may not have gone out")
    if interrupted:
        _save(root, record)
    if troubles:
        done.append(f"note: {plural(len(troubles), 'notification')} failed; the GM is told")
        if not tell_gm:
            return
        body = (
            f"{campaign.config.get('name')}: the judge could not post these public reports (judge: notify:):\n\n"
            + "".join(f"  {t}\n" for t in troubles)
            + "\nThey are not tried again. Post them by hand if you want them there, or fix the URL in campaign.yaml.\n"
        )
        name, data = to_gm(campaign, last, "notify", "notifications failed", body)
        with atomic.locked(root):
            write_outbox(root, {name: data})

