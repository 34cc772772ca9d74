"""`judge: notify:` (design 18): each adjudicated turn's public report, with its board, posted once to each URL.

The posts go through apprise's generic JSON scheme (json://) to a real HTTP server on loopback."""

from __future__ import annotations

import base64
import email
import email.policy
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from judgekit import append_mbox, campaign, orders, outbox

from adjudicator.campaign.folder import Campaign
from adjudicator.cli import main
from adjudicator.judge import notify
from adjudicator.mail.boards import board_png
from adjudicator.publish.render import markdown_plain


@pytest.fixture
def endpoint() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """An HTTP server that keeps every JSON body posted to it."""
    posts: list[dict[str, Any]] = []

    class Hook(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
            posts.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"json://127.0.0.1:{server.server_address[1]}/hook", posts
    server.shutdown()
    server.server_close()


def letter(root: Path, name: str) -> str:
    message = email.message_from_bytes((root / "mail" / "outbox" / name).read_bytes(), policy=email.policy.default)
    return str(message.get_content())


class Killed(BaseException):
    """The process ends here, as under kill -9: nothing after it runs."""


def closed_port() -> int:
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    port = server.server_address[1]
    server.server_close()
    return port


def play_turn(tmp_path: Path, root: Path, turn: int, capsys: pytest.CaptureFixture[str]) -> str:
    for player in ("tony", "david", "maria"):
        append_mbox(tmp_path / "spies.mbox", orders(player, turn, f"Tue, 0{turn} Dec 2026 10:00:00 +0000"))
    assert main(["run", str(root), "--now", f"2026-12-0{turn}T12:00+00:00"]) == 0
    return capsys.readouterr().out


def test_each_turn_is_posted_once_with_its_public_board_and_a_failure_goes_to_the_gm(
    tmp_path: Path, endpoint: tuple[str, list[dict[str, Any]]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, posts = endpoint
    dead = f"json://127.0.0.1:{closed_port()}/hook"
    root = campaign(tmp_path, judge={"notify": [url, dead]})
    out = play_turn(tmp_path, root, 1, capsys)
    assert "turn 1 adjudicated" in out and "turn 1 posted to json://127.0.0.1" in out and "1 notification failed" in out  # one dead URL: counted in the singular
    assert len(posts) == 1
    post = posts[0]
    played = Campaign.open(root)
    public = (played.turn_dir(1) / "reports" / "public.md").read_text(encoding="utf-8")
    assert post["message"] == markdown_plain(public).strip(), "the public report, nothing else"
    assert "turn 1" in post["title"]
    board = board_png("secrets", played.game.view(played.state(1), None), "board-1").png
    assert [base64.b64decode(a["base64"]) for a in post["attachments"]] == [board], "the public board, as PNG"
    for player in ("tony", "david", "maria"):  # no private report reaches the service
        private = (played.turn_dir(1) / "reports" / f"{player}.txt").read_text(encoding="utf-8")
        assert private.strip() not in post["message"]
    told = [name for name in outbox(root) if "gm-notify" in name]
    assert len(told) == 1, "the GM is told of the failed URL"
    text = letter(root, told[0])
    assert "json://127.0.0.1" in text and "/hook" not in text, "the URL's host, never its path or token"
    assert "connection refused" in text, "why, as apprise found it: the endpoint is down"
    assert main(["run", str(root), "--now", "2026-12-01T12:30+00:00"]) == 0  # a tick with nothing new posts nothing new
    assert len(posts) == 1 and len([n for n in outbox(root) if "gm-notify" in n]) == 1, "the dead URL is tried again, and the GM not told twice"
    play_turn(tmp_path, root, 2, capsys)
    assert [p["title"].split(", ")[-1] for p in posts] == ["turn 1: public report", "turn 2: public report"]
    assert url not in (root / "mail" / "notified.json").read_text(), "the record keeps a hash of the URL, not its token"


def test_a_post_cut_short_by_a_kill_is_not_made_again_and_the_gm_is_told(
    tmp_path: Path, endpoint: tuple[str, list[dict[str, Any]]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, posts = endpoint
    root = campaign(tmp_path, judge={"notify": [url]})

    def killed(*args: Any) -> tuple[bool, str]:
        raise Killed  # the judge stops in the middle of the post

    play_turn(tmp_path, root, 1, capsys)
    assert len(posts) == 1
    for player in ("tony", "david", "maria"):
        append_mbox(tmp_path / "spies.mbox", orders(player, 2, "Wed, 02 Dec 2026 10:00:00 +0000"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(notify, "apprise_post", killed)
        with pytest.raises(Killed):
            main(["run", str(root), "--now", "2026-12-02T12:00+00:00"])
    assert Campaign.open(root).is_adjudicated(2)
    assert main(["run", str(root), "--now", "2026-12-02T12:30+00:00"]) == 0
    assert len(posts) == 1, "turn 2's post may have gone out: never twice"
    told = [name for name in outbox(root) if "gm-notify" in name]
    assert told and "may or may not have gone out" in letter(root, told[0])


def test_a_tick_draws_each_board_once_for_its_mails_and_posts(
    tmp_path: Path, endpoint: tuple[str, list[dict[str, Any]]], capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 28: a tick that adjudicates, mails and posts to two URLs rasterises each distinct board once:
    each player's own, and the public one that the public report's mail and both posts carry (and, the
    campaign's first tick, each player's opening board, which their welcome shows)."""
    import resvg_py

    from adjudicator.publish import png

    url, posts = endpoint
    root = campaign(tmp_path, judge={"notify": [url, url + "/second"]})
    drawn: list[str] = []
    rasterise = resvg_py.svg_to_bytes

    def counted(**options: Any) -> Any:
        drawn.append(options["svg_string"])
        return rasterise(**options)

    png.png.cache_clear()  # boards drawn by earlier tests in this process do not count
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(resvg_py, "svg_to_bytes", counted)
        play_turn(tmp_path, root, 1, capsys)
    assert len(posts) == 2
    assert len(outbox(root)) >= 4, "three players' reports and the public report were mailed"
    assert len(drawn) == len(set(drawn)) == 7, "each of the three players' opening and turn 1 boards, and the public board, once"


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("discrod://1234/sekrit-token", "entry 2 (discrod://1234) discrod:// is not a scheme apprise knows"),
        ("json://", "entry 2 (json://) is a json:// URL apprise cannot read"),
        ("hooks.example.org/sekrit-token", "entry 2 is not a URL"),
    ],
)
def test_a_wrong_notify_url_is_named_by_status_and_run_before_anything_is_done(
    tmp_path: Path, endpoint: tuple[str, list[dict[str, Any]]], capsys: pytest.CaptureFixture[str], url: str, why: str
) -> None:
    good, posts = endpoint
    root = campaign(tmp_path, judge={"notify": [good, url]})
    assert main(["status", str(root)]) == 1
    said = capsys.readouterr()
    assert f"judge.notify: {why}" in said.out + said.err
    for player in ("tony", "david", "maria"):
        append_mbox(tmp_path / "spies.mbox", orders(player, 1, "Tue, 01 Dec 2026 10:00:00 +0000"))
    assert main(["run", str(root), "--now", "2026-12-01T12:00+00:00"]) == 1
    said = capsys.readouterr()
    assert f"judge.notify: {why}" in said.out
    assert "sekrit-token" not in said.out, "the token in the URL is never printed"
    assert not Campaign.open(root).is_adjudicated(1) and posts == [], "nothing adjudicated, mailed or posted until it is fixed"


def test_loading_apprise_prints_no_warning_of_its_own_and_hides_none_of_ours() -> None:
    """apprise's plugins import imghdr, deprecated in Python 3.11: that warning is silenced where apprise
    loads (judge/services.py), and only that one: a DeprecationWarning of anyone else still shows."""
    import subprocess
    import sys

    script = (
        "import warnings\n"
        "warnings.simplefilter('always')\n"
        "from adjudicator.judge import services\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    services.apprise()\n"
        "    assert services.problem('json://127.0.0.1/hook') is None\n"
        "    warnings.warn('ours', DeprecationWarning)\n"
        "print([str(w.message) for w in caught])\n"
    )
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=Path(__file__).resolve().parent.parent)
    assert ran.stdout.strip() == "['ours']", ran.stdout + ran.stderr
    assert ran.stderr == ""


@pytest.fixture
def flaky() -> Iterator[tuple[str, list[dict[str, Any]], dict[str, bool]]]:
    """An HTTP endpoint that answers 503 while `state["up"]` is false and keeps the posts it takes once up."""
    posts: list[dict[str, Any]] = []
    state = {"up": False, "tries": 0}

    class Hook(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state["tries"] += 1
            if state["up"]:
                posts.append(body)
            self.send_response(200 if state["up"] else 503)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"json://127.0.0.1:{server.server_address[1]}/hook", posts, state
    server.shutdown()
    server.server_close()


def digests(root: Path) -> str:
    return "\n".join(letter(root, name) for name in outbox(root) if "gm-digest" in name)


def test_a_failed_post_is_tried_again_at_each_tick_until_it_goes_or_the_judge_gives_up_and_the_gm_can_post_it_by_hand(
    tmp_path: Path, flaky: tuple[str, list[dict[str, Any]], dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, posts, state = flaky
    root = campaign(tmp_path, judge={"notify": [url], "gm_digest": True})
    out = play_turn(tmp_path, root, 1, capsys)
    assert "1 notification failed" in out and state["tries"] == 1
    assert "turn 1 could not be posted to json://127.0.0.1: the service answered HTTP 503; the judge tries again at each tick until" in digests(root)
    assert main(["run", str(root), "--now", "2026-12-01T12:30+00:00"]) == 0
    assert state["tries"] == 2 and posts == [], "tried again at the next tick, still down"
    assert digests(root).count("could not be posted") == 1, "told once, not at every try"
    state["up"] = True
    assert main(["run", str(root), "--now", "2026-12-01T13:00+00:00"]) == 0
    assert "turn 1 posted to json://127.0.0.1" in capsys.readouterr().out
    assert [p["title"].split(", ")[-1] for p in posts] == ["turn 1: public report"]
    assert "was posted to json://127.0.0.1 at try 3, after 2 tries that failed" in digests(root)
    assert main(["run", str(root), "--now", "2026-12-01T13:30+00:00"]) == 0
    assert len(posts) == 1 and state["tries"] == 3, "once posted, never again"

    state["up"] = False
    play_turn(tmp_path, root, 2, capsys)
    for now in ("2026-12-02T18:00+00:00", "2026-12-03T12:00+00:00"):  # the second try is 24 hours after the first failure
        assert main(["run", str(root), "--now", now]) == 0
    tries = state["tries"]
    assert "turn 2 could not be posted to json://127.0.0.1: the service answered HTTP 503; the judge gave up after 3 tries over 24 hours" in digests(root)
    assert "pbem notify DIR --turn 2" in digests(root)
    assert main(["run", str(root), "--now", "2026-12-03T13:00+00:00"]) == 0
    assert state["tries"] == tries, "given up: not tried again by the ticks"
    state["up"] = True
    capsys.readouterr()
    assert main(["notify", str(root), "--now", "2026-12-03T14:00+00:00"]) == 0
    assert "turn 2 posted to json://127.0.0.1" in capsys.readouterr().out
    assert [p["title"].split(", ")[-1] for p in posts] == ["turn 1: public report", "turn 2: public report"]
    assert main(["notify", str(root), "--turn", "2"]) == 0
    assert "turn 2 was posted to json://127.0.0.1 already" in capsys.readouterr().out and len(posts) == 2, "by hand too, once"
