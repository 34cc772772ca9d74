"""The public archive (design 13): `pbem site` and `pbem export`, without a browser.

What the site may show before the reveal is checked the way reports are (design 7): a
campaign is rewritten on disk as it would be in a world where one player's secrets
differ, and every page of its pre-reveal site must stay byte-identical. After the
reveal the same worlds must show (the hidden record is drawn), which shows the check can fail.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from xml.dom import minidom

import pytest
from worlds import disguised_worlds

from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.archive import write_site
from adjudicator.campaign.audit import audit
from adjudicator.campaign.create import create
from adjudicator.campaign.demo import play, write_demo_orders
from adjudicator.campaign.folder import (
    Campaign,
    CampaignError,
    dump_json,
    dump_yaml,
    read_yaml,
)
from adjudicator.campaign.reveal import reveal
from adjudicator.cli import main
from adjudicator.games import GAMES

REPO = Path(__file__).resolve().parent.parent
WORLDS_PER_GAME = 8
"""Disguised worlds rewritten on disk per game: each costs a copy of the campaign and two sites."""
EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z0-9.-]+")


@pytest.fixture(scope="module", params=sorted(GAMES))
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Campaign:
    root = tmp_path_factory.mktemp(request.param) / "campaign"
    return play(root, request.param, seed="leak-2", players=None, passwords=True)


def site_files(root: Path, out: Path) -> dict[str, bytes]:
    write_site(root, out)
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def unrevealed_copy(campaign: Campaign, target: Path) -> Path:
    shutil.copytree(campaign.root, target)
    (target / "reveal.yaml").unlink()
    return target


class Elements(HTMLParser):
    """Every start tag of a page, with its attributes, and the page's text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parsed(data: bytes) -> Elements:
    page = Elements()
    page.feed(data.decode("utf-8"))
    return page


def assert_self_contained(name: str, data: bytes) -> None:
    """No script, and nothing a browser would fetch from outside the site folder."""
    page = parsed(data)
    for tag, attrs in page.tags:
        assert tag != "script", f"{name}: a script element"
        assert not any(k.startswith("on") for k in attrs), f"{name}: an event handler on <{tag}>"
        for key in ("src", "href", "srcset", "data"):
            value = attrs.get(key) or ""
            if tag == "link" and value == "data:,":  # the empty icon, so that no browser asks for favicon.ico
                continue
            assert not re.match(r"[a-z][a-z0-9+.-]*:|//", value, re.IGNORECASE), f"{name}: <{tag} {key}={value!r}> leaves the site"
    assert b"url(" not in data and b"@import" not in data, f"{name}: the style fetches something"


# -- what every site holds ----------------------------------------------------------------------------


def test_site_pages_pictures_and_links(played: Campaign, tmp_path: Path) -> None:
    files = site_files(played.root, tmp_path / "site")
    last = played.last_turn
    boards = {f"turn-{n:03d}{wide}.{ext}" for n in range(last + 1) for wide in ("", "-wide") for ext in ("svg", "png")}
    expected = {"index.html", "seed.html"} | {f"turn-{n:03d}.html" for n in range(last + 1)} | boards
    assert set(files) == expected
    for name, data in files.items():
        if name.endswith(".png"):  # beside every board, for forums and mail, which do not show SVG
            assert data.startswith(b"\x89PNG\r\n\x1a\n") and name.replace(".png", ".svg") in files
            continue
        if name.endswith(".svg"):
            svg = minidom.parseString(data).documentElement
            assert svg.getAttribute("role") == "img" and svg.getElementsByTagName("title") and svg.getElementsByTagName("desc")
            assert b"prefers-color-scheme: dark" in data
            continue
        assert_self_contained(name, data)
        for tag, attrs in parsed(data).tags:  # every link inside the site points at a page that exists
            target = (attrs.get("href") or "").partition("#")[0]
            if tag == "a" and target:
                assert target in files, f"{name} links {target}, which the site does not hold"
    index = parsed(files["index.html"])
    assert sum(1 for tag, attrs in index.tags if tag == "a" and re.fullmatch(r"turn-\d{3}\.html", attrs.get("href") or "")) == last + 1
    assert sum(1 for tag, _ in index.tags if tag == "svg") == 2, "the standings chart, wide and narrow"
    for player, name in played.state()["names"].items():
        assert name in "".join(index.text) and player in "".join(index.text)
    turn = files[f"turn-{last:03d}.html"]
    assert f"turn-{last:03d}.svg".encode() in turn and f"turn-{last:03d}-wide.svg".encode() in turn and b"<svg" in turn and b"<table>" in turn or b"<li>" in turn


def test_the_same_campaign_gives_the_same_bytes_whatever_the_hash_seed(played: Campaign, tmp_path: Path) -> None:
    sites = []
    for hash_seed in ("1", "2"):
        out = tmp_path / f"site-{hash_seed}"
        subprocess.run(
            [sys.executable, "-m", "adjudicator", "site", str(played.root), str(out)],
            check=True, cwd=REPO, env={"PYTHONHASHSEED": hash_seed, "PATH": "/usr/bin:/bin"}, capture_output=True,
        )
        sites.append({p.name: p.read_bytes() for p in out.iterdir()})
    assert sites[0] == sites[1]
    assert sites[0] == site_files(played.root, tmp_path / "again")


def test_the_revealed_site_holds_the_whole_record(played: Campaign, tmp_path: Path) -> None:
    files = site_files(played.root, tmp_path / "site")
    seed = read_yaml(played.root / "reveal.yaml")["seed"]
    assert seed.encode() in files["seed.html"] and b"pbem audit" in files["seed.html"]
    passwords = {str(v) for v in read_yaml(played.root / "gm" / "passwords.yaml").values()}
    turn_one = files["turn-001.html"].decode()
    for player in played.state()["players"]:
        report = (played.turn_dir(1) / "reports" / f"{player}.txt").read_text()
        first_line = next(line for line in report.splitlines() if line.strip())
        assert escape_html(first_line) in turn_one, f"{player}'s private report of turn 1 is not on the page"
    assert "(removed)" in turn_one
    for number in range(played.last_turn + 1):  # the public board and the whole state drawn, every turn
        assert files[f"turn-{number:03d}.html"].count(b"<svg") == 4, f"turn {number}: the hidden state is not drawn (wide and narrow)"
    for name, data in files.items():
        for password in passwords:
            assert password.encode() not in data, f"{name} shows a password"


def escape_html(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))


# -- before the reveal: only what the public may know --------------------------------------------------


def disguise_on_disk(campaign: Campaign, world, target: Path) -> Path:  # noqa: ANN001 - a worlds.World
    """A copy of the unrevealed campaign as it would be on disk in the disguised world."""
    unrevealed_copy(campaign, target)
    before, after = target / f"turn-{world.number - 1:03d}", target / f"turn-{world.number:03d}"
    (before / "state.json").write_bytes(dump_json(world.before))
    (after / "state.json").write_bytes(dump_json(world.after))
    for name, data in world.reports.items():
        (after / name).write_bytes(data)
    orders = {"player": world.holder, "turn": world.number, "orders": world.orders.get(world.holder, [])}
    (after / "orders" / f"{world.holder}.yaml").write_bytes(dump_yaml(orders))
    results = json.loads((after / "results.json").read_text())
    results["orders_resolved"] = world.orders
    (after / "results.json").write_bytes(dump_json(results))
    return target


def test_a_player_s_secrets_do_not_move_a_byte_of_the_pre_reveal_site(played: Campaign, tmp_path: Path) -> None:
    base = site_files(unrevealed_copy(played, tmp_path / "base"), tmp_path / "base-site")
    assert "seed.html" not in base
    assert not any(b"(removed)" in data or b"Private reports" in data for data in base.values())
    compared = moved_after_reveal = 0
    for n, world in enumerate(disguised_worlds(played, purpose="leak")):
        if n == WORLDS_PER_GAME:
            break
        disguised = disguise_on_disk(played, world, tmp_path / f"world-{n}")
        pages = site_files(disguised, tmp_path / f"world-{n}-site")
        assert pages.keys() == base.keys()
        for name in base:
            assert pages[name] == base[name], f"turn {world.number}: {name} moved with {world.holder}'s secrets"
        compared += 1
        shutil.copy(played.root / "reveal.yaml", disguised / "reveal.yaml")
        shutil.copy(played.root / "reveal.yaml", tmp_path / "base" / "reveal.yaml")
        revealed = site_files(disguised, tmp_path / f"world-{n}-revealed")
        moved_after_reveal += revealed != site_files(tmp_path / "base", tmp_path / "base-revealed")
        (tmp_path / "base" / "reveal.yaml").unlink()
    assert compared > 0, "the game offered no disguised worlds"
    assert moved_after_reveal > 0, "no world showed after the reveal: the check could not have failed"


def test_the_seed_of_gm_is_never_shown_before_the_reveal(played: Campaign, tmp_path: Path) -> None:
    root = unrevealed_copy(played, tmp_path / "c")
    seed = read_yaml(root / "gm" / "seed.yaml")["seed"]
    for name, data in site_files(root, tmp_path / "site").items():
        assert seed.encode() not in data, name


# -- player text is text -------------------------------------------------------------------------------

HOSTILE = ["<script>alert(1)</script>", "O'Brien & \"Sons\"", "</svg><img src=x onerror=alert(1)>", "&amp; [b]x"]


def test_player_names_are_escaped_on_every_page_and_picture(tmp_path: Path) -> None:
    root = tmp_path / "c"
    players = [{"id": f"p{i}", "name": name} for i, name in enumerate(HOSTILE)]
    campaign = create(root, "secrets", players, seed="escape-1", passwords=False, name="<b>Spies</b> & co")
    for _ in range(2):
        write_demo_orders(campaign, {})
        adjudicate(root)
    files = site_files(root, tmp_path / "site")
    for name, data in files.items():
        if name.endswith(".png"):
            continue
        text = data.decode()
        assert "<script" not in text and "<img" not in text and "<b>Spies" not in text, name
        if name.endswith(".svg"):
            minidom.parseString(data)
        else:
            assert_self_contained(name, data)
    index = parsed(files["index.html"])
    shown = "".join(index.text)
    for name in HOSTILE:
        assert name in shown, f"{name!r} is not shown as text"


# -- the forum copy links the picture ------------------------------------------------------------------


def test_base_url_puts_the_picture_in_the_public_report_and_its_bbcode(tmp_path: Path) -> None:
    root = tmp_path / "c"
    campaign = create(root, "jekyll", [{"id": "ann", "name": "Ann"}, {"id": "bob", "name": "Bob"}], seed="link-1", passwords=False)
    config = read_yaml(root / "campaign.yaml")
    config["site"] = {"base_url": "https://games.example.org/spies"}
    (root / "campaign.yaml").write_bytes(dump_yaml(config))
    write_demo_orders(Campaign.open(root), {})
    adjudicate(root)
    reports = root / "turn-001" / "reports"
    assert "![The board after turn 1](https://games.example.org/spies/turn-001.png)" in (reports / "public.md").read_text()
    assert "[img]https://games.example.org/spies/turn-001.png[/img]" in (reports / "public.bbcode").read_text()
    assert audit(root).divergence is None
    page = site_files(root, tmp_path / "site")["turn-001.html"]
    assert b'<a href="https://games.example.org/spies/turn-001.png">' in page, "on the site the picture is a link, not a load"
    assert b"<img" not in page
    assert "turn-001.png" not in (campaign.turn_dir(0) / "reports" / "public.md").read_text(), "the opening has no board link"


def test_no_base_url_no_link(played: Campaign) -> None:
    assert ".png" not in (played.turn_dir(1) / "reports" / "public.md").read_text()


# -- press ------------------------------------------------------------------------------------------------


def write_press(root: Path, messages: list[dict]) -> None:
    folder = root / "mail" / "press"
    folder.mkdir(parents=True)
    for i, message in enumerate(messages):
        (folder / f"{i + 1:05d}.json").write_bytes(dump_json(message))  # as mail/press.py keeps them


def test_press_joins_the_revealed_site_where_the_campaign_allows_it(played: Campaign, tmp_path: Path) -> None:
    players = played.state()["players"]
    root = tmp_path / "c"
    shutil.copytree(played.root, root)
    write_press(root, [
        {"turn": 1, "from": players[0], "to": [players[1]], "anonymous": False, "text": "Trust me <b>now</b> & later"},
        {"turn": 2, "from": players[1], "to": players, "anonymous": True, "text": "Someone lies."},
    ])
    files = site_files(root, tmp_path / "site")
    press = files["press.html"].decode()
    assert "Trust me &lt;b&gt;now&lt;/b&gt; &amp; later" in press and "Someone lies." in press
    assert "anonymous to " in press
    unrevealed = unrevealed_copy(Campaign.open(root), tmp_path / "u")
    assert "press.html" not in site_files(unrevealed, tmp_path / "u-site"), "press is published only after the reveal"
    config = read_yaml(root / "campaign.yaml")
    config["judge"] = {"press": "none"}
    (root / "campaign.yaml").write_bytes(dump_yaml(config))
    assert "press.html" not in site_files(root, tmp_path / "none-site")


# -- export ---------------------------------------------------------------------------------------------


def test_export_audits_clean_and_holds_nothing_private(played: Campaign, tmp_path: Path) -> None:
    root = tmp_path / "c"
    shutil.copytree(played.root, root)
    write_press(root, [{"turn": 1, "from": "x", "to": ["y"], "anonymous": False, "text": "hello"}])
    config = read_yaml(root / "campaign.yaml")
    config["gm_email"] = "gm@example.org"
    for seat in config["players"]:
        seat["email"] = f"{seat['id']}@example.org"
    config["judge"] = {"inbox": ["imaps://gm@mail.example.org/INBOX"]}
    (root / "campaign.yaml").write_bytes(dump_yaml(config))
    out = tmp_path / "export"
    assert main(["export", str(root), str(out)]) == 0
    assert main(["audit", str(out)]) == 0
    names = {str(p.relative_to(out)) for p in out.rglob("*")}
    assert not any(n == "gm" or n.startswith(("gm/", "mail")) for n in names)
    passwords = {str(v) for v in read_yaml(root / "gm" / "passwords.yaml").values()}
    seed = read_yaml(root / "reveal.yaml")["seed"]
    for path in out.rglob("*"):
        if path.is_file():
            data = path.read_text("utf-8")
            assert not EMAIL.search(data), f"{path} holds an address"
            assert not any(p in data for p in passwords), f"{path} holds a password"
            assert "scrypt$" not in data, f"{path} holds a password hash"
    assert seed in (out / "reveal.yaml").read_text()
    assert main(["export", str(root), str(out)]) == 1, "an export never overwrites"


def test_an_export_whose_order_file_was_changed_fails_its_audit(played: Campaign, tmp_path: Path) -> None:
    out = tmp_path / "export"
    assert main(["export", str(played.root), str(out)]) == 0
    orders = sorted((out / "turn-001" / "orders").iterdir())[0]
    orders.write_text(orders.read_text() + "\n# changed\n")
    assert audit(out).divergence is not None


def test_only_a_revealed_campaign_is_exported(played: Campaign, tmp_path: Path) -> None:
    root = unrevealed_copy(played, tmp_path / "c")
    with pytest.raises(CampaignError, match="revealed"):
        from adjudicator.campaign.export import export

        export(root, tmp_path / "out")
    assert not (tmp_path / "out").exists()


# -- the adjudicator version in the manifest --------------------------------------------------------------


def test_each_manifest_records_the_version_and_older_manifests_still_audit(tmp_path: Path) -> None:
    from adjudicator import __version__

    root = tmp_path / "c"
    campaign = create(root, "secrets", [{"id": p, "name": p.title()} for p in ("ann", "bob", "cy")], seed="v-1", passwords=False)
    write_demo_orders(campaign, {})
    adjudicate(root)
    for number in (0, 1):
        assert json.loads((campaign.turn_dir(number) / "manifest.json").read_text())["adjudicator"] == __version__
    # A campaign written before the field: the manifests without it (and the chain re-linked).
    previous = None
    for number in (0, 1):
        path = campaign.turn_dir(number) / "manifest.json"
        manifest = json.loads(path.read_text())
        manifest.pop("adjudicator")
        if previous is not None:
            manifest["previous_manifest"] = previous
        path.write_bytes(dump_json(manifest))
        import hashlib

        previous = hashlib.sha256(path.read_bytes()).hexdigest()
    assert audit(root).divergence is None
    path = campaign.turn_dir(1) / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["outputs"]["state.json"] = "0" * 64
    path.write_bytes(dump_json(manifest))
    assert audit(root).divergence is not None, "the version is taken from the record, nothing else"


def test_the_site_refuses_to_write_inside_the_campaign(played: Campaign) -> None:
    with pytest.raises(CampaignError, match="inside"):
        write_site(played.root, played.root / "site")


def test_a_game_goes_on_site(tmp_path: Path) -> None:
    root = tmp_path / "c"
    campaign = create(root, "hidekids", [{"id": p, "name": p.title()} for p in ("ann", "bob", "cy")], seed="on-1", passwords=False)
    write_demo_orders(campaign, {})
    adjudicate(root)
    index = site_files(root, tmp_path / "site")["index.html"].decode()
    assert "turn 2 waits for orders" in index
    reveal_refused = pytest.raises(CampaignError)
    with reveal_refused:
        reveal(root)


def test_every_game_has_its_own_painter_and_a_new_one_gets_a_plain_board(monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.publish import pictures

    assert set(pictures.PAINTERS) == set(GAMES)
    campaign = Campaign.open(REPO / "turns" / "secrets-example")
    view = campaign.game.view(campaign.state(), None)
    monkeypatch.delitem(pictures.PAINTERS, "secrets")
    plain = pictures.painter("secrets")
    svg = minidom.parseString(plain.board(view, "k").svg()).documentElement
    assert "María" in svg.toxml() and plain.standing(view) == view["score"]


def _one_of_each(game_id: str, view: dict) -> dict:
    """The public view of an example campaign with each count its board names set to one."""
    first = view["players"][0] if "players" in view else view["kids"][0]
    if game_id == "hidekids":
        return {**view, "kid_tokens": 1}
    if game_id == "secrets":
        return {**view, "stolen": view["stolen"][:1] or [{}], "captured": view["captured"][:1] or [{}], "score": {**view["score"], first: 1},
                "secrets": {**view["secrets"], first: [1]}, "sids": {**view["sids"], first: [1]}}
    if game_id == "jekyll":
        return {**view, "tricks_won": {**view["tricks_won"], first: 1}}
    if game_id == "hide":
        return {**view, "pool": view["pool"][:1] or [{}]}
    played = [t for t in view.get("played", []) if t.get("deal") == view.get("deal")]
    return {**view, "played": played[:1]}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_board_counts_one_thing_in_the_singular(game_id: str) -> None:
    """Trial 2: the Hide the Kids! board and its alt text said '1 kid tokens'."""
    from adjudicator.publish import pictures

    campaign = Campaign.open(REPO / "turns" / f"{game_id}-example")
    view = _one_of_each(game_id, campaign.game.view(campaign.state(), None))
    svg = pictures.painter(game_id).board(view, "k").svg()
    words = " ".join(re.sub(r"<[^>]+>", " ", svg).split())
    assert not re.findall(r"(?<![\w-])1 (?:kid tokens|points|secrets|SIDs|tricks|dice)\b", words), words
    assert {"hidekids": "1 kid token", "secrets": "1 point", "jekyll": "1 trick", "hide": "pool (1 die)", "identity": "1 trick"}[game_id] in words


def test_an_export_that_would_not_audit_is_not_written(played: Campaign, tmp_path: Path) -> None:
    root = tmp_path / "c"
    shutil.copytree(played.root, root)
    report = sorted((root / "turn-001" / "reports").glob("*.txt"))[0]
    report.write_text(report.read_text() + "tampered\n")
    assert main(["export", str(root), str(tmp_path / "out")]) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c"], "neither the export nor its staging folder is left"


def test_a_rebuilt_site_renders_only_the_boards_that_changed(played: Campaign, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "site"
    first = site_files(played.root, out)
    (out / "turn-001.svg").write_text("changed")  # as if turn 1 had been drawn differently before
    drawn: list[str] = []
    from adjudicator.publish import site as site_module

    real = site_module.png
    monkeypatch.setattr(site_module, "png", lambda svg: drawn.append(svg) or real(svg))
    assert site_files(played.root, out) == first
    assert len(drawn) == 1, "only turn 1's PNG is drawn again"


def test_the_jekyll_chart_follows_the_marker_from_each_side_and_an_unranked_round_is_said(tmp_path: Path) -> None:
    """The tricks of a round start again at 0 every round: the chart follows the marker instead, as
    each side counts it (Hyde: spaces from Jekyll's end; Jekyll: spaces still before Hyde's end)."""
    from adjudicator.publish.pictures import painter

    campaign = play(tmp_path / "c", "jekyll", seed="site-1", players=2, passwords=False)
    paint = painter("jekyll")
    for turn in range(campaign.last_turn + 1):
        view = campaign.game.view(campaign.state(turn), None)
        hyde = next(p for p in view["players"] if view["roles"][p] == "hyde")
        jekyll = next(p for p in view["players"] if p != hyde)
        assert paint.standing(view) == {hyde: view["marker"], jekyll: view["track"] - view["marker"]}
    opening = campaign.game.view(campaign.state(0), None)
    assert opening["ranking"] == [] and "none yet: the first colour played ranks lowest" in paint.board(opening, "o").svg()


def test_a_long_jekyll_track_goes_on_in_lines_of_spaces_that_never_overlap(tmp_path: Path) -> None:
    """The track option goes to 40 steps: on the wide board 41 spaces of 24 units overlapped in
    one line of 600; they now go on in a second line, and what is drawn under the track moves down."""
    from adjudicator.publish.pictures import painter

    campaign = play(tmp_path / "c", "jekyll", seed="site-1", players=2, passwords=False)
    view = campaign.game.view(campaign.state(campaign.last_turn), None) | {"track": 40, "marker": 33}
    for narrow in (False, True):
        svg = painter("jekyll").board(view, "t", narrow=narrow).svg()
        spaces = [tuple(map(float, m)) for m in re.findall(r'<rect x="([\d.]+)" y="([\d.]+)" width="24" height="24"[^>]*><title>space \d+', svg)]
        assert len(spaces) == 41
        assert all(abs(ax - bx) >= 24 or abs(ay - by) >= 24 for i, (ax, ay) in enumerate(spaces) for bx, by in spaces[:i]), f"narrow={narrow}"
        lowest = max(y for _, y in spaces)
        ranking = float(re.search(r'<text x="10" y="([\d.]+)"[^>]*>suit ranking', svg).group(1))  # type: ignore[union-attr]
        assert ranking > lowest + 24 + 30, f"narrow={narrow}: the suit ranking stands under the track's last line"
