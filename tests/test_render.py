"""Templates: campaign overrides, HTML escaping, player text never evaluated, no passwords."""

from __future__ import annotations

from pathlib import Path

import yaml

from adjudicator.adjudicate import adjudicate
from adjudicator.new import create


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
