"""A Secrets campaign past 12 players: each private report carries what concerns its reader (SECRETS-24)."""

from __future__ import annotations

from pathlib import Path

from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.create import create


def test_large_campaign_reports_stay_personal(tmp_path: Path) -> None:
    root = tmp_path / "mega"
    players = [{"id": f"p{i:02d}", "name": f"Agent {i:02d}"} for i in range(20)]
    create(root, "secrets", players, seed="mega", passwords=False, options=["max_players=40"])
    orders = root / "turn-001" / "orders"
    (orders / "p00.yaml").write_text("player: p00\nturn: 1\norders: ['SID 7 steal p01 10', {sid: 2, guard: 3}]\n")
    (orders / "p05.yaml").write_text("player: p05\nturn: 1\norders: ['SID 4 steal p06 9']\n")
    adjudicate(root, nmr=True)
    reports = root / "turn-001" / "reports"

    mine = (reports / "p00.txt").read_text()
    assert "Your SID 7 (strength 7) tried to steal Agent 01's secret 10" in mine
    assert "Agent 05" not in mine.split("YOUR POSITION")[0]  # someone else's attempt stays in the public report
    assert "Every steal attempt of the turn is in the public report" in mine
    assert "Your SID 2 guarded your secret 3 and nobody came" in mine
    assert "STANDINGS (the top ten of 20; you are in place 1)" in mine
    assert mine.count(" points   ") == 10
    assert "# Players:" not in mine

    victim = (reports / "p01.txt").read_text()
    assert "Agent 00's SID 7 (strength 7) tried to steal your secret 10" in victim and "STOLEN" in victim

    public = (reports / "public.md").read_text()
    assert "| Agent 06 9 |" in public and "| Agent 01 10 |" in public
    assert public.count("\n| Agent ") >= 20 + 2  # every player in the standings, every attempt listed


def test_jobs_share_a_large_turn_and_change_no_byte(tmp_path: Path) -> None:
    """Past pending.PARALLEL_FROM players `--jobs` spreads the order files and the reports over
    processes; the turn written is the one a single process writes, passwords and all."""
    import shutil

    from adjudicator.campaign.folder import Campaign
    from adjudicator.campaign.demo import write_demo_orders
    from adjudicator.campaign.pending import PARALLEL_FROM

    count = PARALLEL_FROM + 10
    root = tmp_path / "one" / "mega"
    players = [{"id": f"p{i:03d}", "name": f"Agent {i:03d}"} for i in range(count)]
    create(root, "secrets", players, seed="mega", passwords=False, options=[f"max_players={count}"])
    write_demo_orders(Campaign.open(root), {})
    (root / "turn-001" / "orders" / "p003.yaml").write_text("player: p003\nturn: 1\norders: [{sid: 9, guard: 1}]\n")
    (root / "turn-001" / "orders" / "p004.yaml").write_text("{not yaml")
    (root / "turn-001" / "orders" / "p005.yaml").unlink()
    shutil.copytree(root, tmp_path / "two" / "mega")
    alone = adjudicate(root, nmr=True)
    shared = adjudicate(tmp_path / "two" / "mega", nmr=True, jobs=2)
    assert alone.output.files == shared.output.files
    assert [s.status for s in shared.output.submissions.values()].count("accepted") == count - 2
    assert shared.output.submissions["p003"].void and shared.output.submissions["p004"].status == "rejected"
