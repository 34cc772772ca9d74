"""Re-adjudicate the example campaigns from their inputs, after a deliberate change.

    python3 turns/regenerate.py [turns/secrets-example ...]    # default: every example

A change to the reports or to a rule changes what a turn writes, and then
`pbem audit` rightly fails on the examples kept here. This keeps every input
(campaign.yaml, gm/, reveal.yaml, turn-000/setup.json, the order files as
received) and writes every output again, turn by turn, exactly as
`pbem adjudicate` would. Review the diff before committing it: it is the
visible effect of your change on real campaigns.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.campaign import pending  # noqa: E402
from adjudicator.campaign.audit import audit  # noqa: E402
from adjudicator.campaign.folder import Campaign  # noqa: E402
from adjudicator.publish.render import Renderer  # noqa: E402
from adjudicator.campaign.turn import opening, turn  # noqa: E402


def _replace_outputs(folder: Path, files: dict[str, bytes]) -> None:
    if (folder / "reports").is_dir():
        shutil.rmtree(folder / "reports")
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def regenerate(root: Path) -> None:
    campaign = Campaign.open(root)
    seed = campaign.seed()
    assert seed is not None, f"{root} has no seed"
    renderer = Renderer.for_campaign(campaign.game.id, root, campaign.site_base_url)
    last = campaign.last_turn
    out = opening(campaign, campaign.setup_record(), seed, renderer)
    _replace_outputs(campaign.turn_dir(0), out.files)
    state = out.state
    for number in range(1, last + 1):
        folder = campaign.turn_dir(number)
        read = pending.replay(campaign, number, state, campaign.setup_record())
        out = turn(read, pending.check(read), seed, renderer)
        _replace_outputs(folder, out.files)
        state = out.state
    result = audit(root)
    print(f"{root}: {last} turns rewritten; audit {'clean' if result.divergence is None else result.divergence}")


def main(argv: list[str]) -> int:
    here = Path(__file__).resolve().parent
    roots = [Path(a) for a in argv] or sorted(p.parent for p in here.glob("*/campaign.yaml"))
    for root in roots:
        regenerate(root)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
