"""Templates: campaign overrides, HTML escaping, player text never evaluated, no passwords."""

from __future__ import annotations

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


def test_dict_fields_read_as_items_and_methods_stay_methods(tmp_path: Path) -> None:
    """Templates read `event.code` from dicts as items first (fast), with Jinja's usual results:
    a key named like a dict method (a player called `items`) still leaves the method reachable,
    and in a campaign's sandboxed templates nothing of Python's objects opens up."""
    from jinja2 import UndefinedError
    from jinja2.sandbox import SecurityError

    from adjudicator.publish.render import Renderer

    data = {"d": {"code": "stolen", "items": "a player", "pop": 1}}
    shipped = Renderer("secrets").env
    assert shipped.from_string("{{ d.code }} {{ d['items'] }} {{ d.items() | list | length }}").render(data) == "stolen a player 3"
    (tmp_path / "templates").mkdir()
    sandboxed = Renderer("secrets", tmp_path).env
    assert sandboxed.from_string("{{ d.code }} {{ d.items() | list | length }}").render(data) == "stolen 3"
    with pytest.raises(UndefinedError):
        shipped.from_string("{{ d.missing }}").render(data)
    for env in (shipped, sandboxed):  # `pop` names a dict method: the method, as Jinja always gives, not the item
        assert env.from_string("{{ d.pop is callable }}").render(data) == "True"
    with pytest.raises(SecurityError):  # Python's internals stay closed to a GM's template
        sandboxed.from_string("{{ d.__class__ }}").render(data)
