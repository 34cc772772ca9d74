"""`pbem audit` across a template upgrade (issue 28, docs/archive.md "Audit across upgrades").

A campaign in flight outlives the templates that rendered its early turns: here its first two
turns are rendered by an older `_site.j2` (the one that linked the board's `.svg`), put in the
campaign's own templates/ to stand for the older release, and the later turns by today's. The
audit replays every turn's rules byte for byte, checks the old turns' reports against the
manifest chain, says so in one line, and exits 0; tampering still fails, old turn or new.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.audit import audit
from adjudicator.campaign.create import create
from adjudicator.campaign.demo import write_demo_orders
from adjudicator.campaign.folder import Campaign, dump_json, dump_yaml, read_yaml
from adjudicator.cli import main

OLD_SITE = (
    '{% macro picture_md(turn) %}{% if site.base_url and turn > 0 %}{{ "\\n\\n![The board after turn %d](%sturn-%03d.svg)"'
    " | format(turn, site.base_url, turn) }}{% endif %}{% endmacro %}\n"
)


def play(root: Path, turns: int) -> None:
    for _ in range(turns):
        write_demo_orders(Campaign.open(root), {})
        adjudicate(root)


@pytest.fixture
def upgraded(tmp_path: Path) -> Path:
    """A Secrets campaign whose turns 1-2 linked `.svg` (the older templates) and turns 3-4 `.png`."""
    root = tmp_path / "spies"
    create(root, "secrets", [{"id": p, "name": p.capitalize()} for p in ("tony", "david", "maria")], seed="upgrade", name="spies", passwords=False)
    config = read_yaml(root / "campaign.yaml")
    config["site"] = {"base_url": "https://games.example.org/spies/"}
    (root / "campaign.yaml").write_bytes(dump_yaml(config))
    (root / "templates").mkdir()
    (root / "templates" / "_site.j2").write_text(OLD_SITE, encoding="utf-8")
    play(root, 2)
    shutil.rmtree(root / "templates")  # the upgrade: today's templates from turn 3 on
    play(root, 2)
    assert "turn-002.svg)" in (root / "turn-002" / "reports" / "public.md").read_text(encoding="utf-8")
    assert "turn-003.png)" in (root / "turn-003" / "reports" / "public.md").read_text(encoding="utf-8")
    return root


def test_turns_rendered_by_older_templates_audit_clean_with_one_line_saying_so(upgraded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = audit(upgraded)
    assert result.divergence is None and result.turns == 4
    assert sorted(result.rendered_elsewhere) == [1, 2], "the opening links no board: today's templates render it alike"
    assert main(["audit", str(upgraded)]) == 0
    out = capsys.readouterr().out
    assert len(out.strip().splitlines()) == 1, out
    assert "turns 1-2 were rendered by another template set (adjudicator 0.1.0)" in out
    assert "SHA-256 chain" in out


def test_a_campaign_on_todays_templates_has_no_note(upgraded: Path) -> None:
    root = upgraded.parent / "fresh"
    create(root, "secrets", [{"id": p, "name": p.capitalize()} for p in ("tony", "david", "maria")], seed="fresh", name="fresh", passwords=False)
    play(root, 2)
    result = audit(root)
    assert result.divergence is None and result.note is None


@pytest.mark.parametrize(
    ("file", "why"),
    [
        ("turn-002/reports/public.md", "turn-002/reports/public.md was changed after the turn was adjudicated"),
        ("turn-002/reports/tony.txt", "turn-002/reports/tony.txt was changed after the turn was adjudicated"),
        ("turn-002/state.json", "turn-002/state.json differs from the replay"),
        ("turn-002/results.json", "turn-002/results.json differs from the replay"),
        ("turn-003/reports/public.md", "turn-003/reports/public.md differs from the replay"),
    ],
)
def test_a_tampered_report_or_state_still_fails(upgraded: Path, file: str, why: str) -> None:
    path = upgraded / file
    path.write_bytes(path.read_bytes().replace(b"1", b"2", 1) if file.endswith(".json") else path.read_bytes() + b"\nTony is a traitor.\n")
    result = audit(upgraded)
    assert result.divergence is not None and why in result.divergence


def test_a_report_rewritten_with_its_manifest_breaks_the_chain(upgraded: Path) -> None:
    """Rewriting an old turn's report and the hash its manifest records moves that manifest's SHA-256,
    which the next turn's manifest records: the audit names the next manifest."""
    report = upgraded / "turn-001" / "reports" / "public.md"
    forged = report.read_bytes() + b"\nTony is a traitor.\n"
    report.write_bytes(forged)
    manifest = upgraded / "turn-001" / "manifest.json"
    record = json.loads(manifest.read_bytes())
    record["outputs"]["reports/public.md"] = hashlib.sha256(forged).hexdigest()
    manifest.write_bytes(dump_json(record))
    result = audit(upgraded)
    assert result.turns == 2 and result.divergence == "turn-002/manifest.json differs from the replay", result
