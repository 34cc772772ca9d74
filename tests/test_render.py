"""Templates: campaign overrides, HTML escaping, player text never evaluated, no passwords."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.create import create


def _campaign(tmp_path: Path, names: dict[str, str]) -> Path:
    root = tmp_path / "c"
    create(root, "secrets", [{"id": k, "name": v} for k, v in names.items()], seed="s")
    return root


def test_override_and_html_escaping(tmp_path: Path) -> None:
    root = _campaign(tmp_path, {"a": "<script>alert(1)</script>", "b": "Bea & Co", "c": "C"})
    (root / "templates").mkdir()
    (root / "templates" / "public.html.j2").write_text(
        "<ul>{% for p in view.players %}<li>{{ view.names[p] }}</li>{% endfor %}</ul>\n"
    )
    (root / "templates" / "private.txt.j2").write_text("Hello {{ view.names[player] }}, turn {{ turn }}.\n")
    adjudicate(root, nmr=True)
    html = (root / "turn-001" / "reports" / "public.html").read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>" not in html
    assert "Bea &amp; Co" in html
    assert (root / "turn-001" / "reports" / "b.txt").read_text() == "Hello Bea & Co, turn 1.\n"
    assert "\\<script\\>" in (root / "turn-001" / "reports" / "public.md").read_text()  # Markdown escaping


def test_player_text_is_printed_never_evaluated(tmp_path: Path) -> None:
    root = _campaign(tmp_path, {"a": "A", "b": "B", "c": "C"})
    password = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())["a"]
    (root / "turn-001" / "orders" / "a.yaml").write_text(
        yaml.safe_dump({"player": "a", "turn": 1, "password": password, "orders": ["{{ 7*7 }} {% raw %}"]})
    )
    adjudicate(root, nmr=True)
    report = (root / "turn-001" / "reports" / "a.txt").read_text()
    assert "{{ 7*7 }} {% raw %}" in report and "49" not in report
    for path in root.rglob("reports/*"):
        assert password not in path.read_text()


def test_dict_keys_come_before_dict_methods(tmp_path: Path) -> None:
    """Templates read dicts by key first, as `d.key` and as `d[key]` (issue 15, item 12): a player
    called `items` or `pop` is that player's data, never the method; a missing key is undefined
    even where a method has its name; methods stay reachable only under names that are not keys;
    and in a campaign's sandboxed templates nothing of Python's objects opens up."""
    from jinja2 import UndefinedError
    from jinja2.sandbox import SecurityError

    from adjudicator.publish.render import Renderer

    data = {"d": {"code": "stolen", "items": "a player", "pop": 1}, "e": {"x": 1}}
    shipped = Renderer("secrets").env
    (tmp_path / "templates").mkdir()
    sandboxed = Renderer("secrets", tmp_path).env
    for env in (shipped, sandboxed):
        assert env.from_string("{{ d.code }} {{ d.items }} {{ d['items'] }} {{ d.pop }} {{ d | items | list | length }}").render(data) == "stolen a player a player 1 3"
        assert env.from_string("{{ d['get'] is defined }} {{ e.get('x') }} {{ e.items() | list | length }}").render(data) == "False 1 1"
        with pytest.raises(UndefinedError):
            env.from_string("{{ d.missing }}").render(data)
        with pytest.raises(UndefinedError):  # `v.revealed[p]` for a player `get` not in it: undefined, not the method
            env.from_string("{{ d['get'].colour }}").render(data)
    with pytest.raises(SecurityError):  # Python's internals stay closed to a GM's template
        sandboxed.from_string("{{ d.__class__ }}").render(data)


def test_the_secrets_standings_count_one_secret_and_one_sid_in_the_singular() -> None:
    """Trial 2 (boards and reports alike): `1 secrets, 1 SIDs left` is `1 secret, 1 SID left`."""
    from adjudicator.campaign.folder import Campaign
    from adjudicator.campaign.turn import render_reports
    from adjudicator.publish.render import Renderer

    campaign = Campaign.open(Path(__file__).resolve().parent.parent / "turns" / "secrets-example")
    state = campaign.state(2)
    state = {**state, "secrets": {**state["secrets"], "david": [1]}, "sids": {**state["sids"], "david": [4]}}
    reports = render_reports(campaign.game, Renderer("secrets"), campaign.setup_record(), state, 2, [], {}, None)
    line = next(line for line in reports["reports/tony.txt"].decode().splitlines() if line.lstrip().startswith("David"))
    assert line.endswith("1 secret, 1 SID left"), line


@pytest.mark.parametrize("game_id, heading", [("secrets", "STANDINGS"), ("hidekids", "STANDINGS"), ("identity", "STANDINGS")])
def test_a_long_display_name_widens_its_column_and_the_rows_stay_in_line(tmp_path: Path, game_id: str, heading: str) -> None:
    """An outside trial: 'Bartholomew Fitzwilliam-Ashworth' ran past the 24-letter name column of the standings,
    so his row's numbers stood further right than everyone else's. The column is as wide as the longest name."""
    from adjudicator.campaign.demo import play

    campaign = play(tmp_path / "c", game_id, seed="columns", players=None, passwords=False,
                    ids=("bartholomew-fitzwilliam-ashworth", "ann", "bo", "cy", "di"))
    report = (campaign.root / "turn-001" / "reports" / "ann.txt").read_text()
    table = report.split("\n" + heading, 1)[1].split("\n\n", 1)[0].split("\n")[1:]
    rows = [line for line in table if line.strip() and any(name in line for name in ("Bartholomew", "Ann", "Bo", "Cy", "Di"))]
    assert len(rows) >= 3, table
    starts = {re.search(r"(?<=\S)\s{1,}(?=[-+]?\d)", row).end() for row in rows}  # type: ignore[union-attr]
    assert len(starts) == 1, "\n".join(rows)
