"""A toy sixth game, added from a temporary folder as a plugin would be: its own package,
schemas and templates, one `games.register` call (and `resources.add_root` for its files);
then the conformance suite of tests/test_conformance.py runs over it unchanged. This is the
claim of docs/adding-a-game.md, tested: a game needs nothing else from the shell."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator import games
from adjudicator.common import resources
from adjudicator.games.base import OPTIONAL_HOOKS
from casefile import run_case

# The conformance checks, collected here a second time and run over the toy game through the
# fixtures below. Left out: the byte-identical test (it runs `python3 -m adjudicator demo` in a
# fresh process, where no plugin is registered) and the static import check (it walks adjudicator/).
from test_conformance import (  # noqa: F401
    finished,
    played_by_standins,
    test_a_stand_in_reads_only_its_seats_view,
    test_audit_is_clean_and_catches_tampering,
    test_demo_reaches_the_end_with_invariants,
    test_every_event_has_a_code,
    test_every_game_plays_to_the_end_with_player_ids_named_like_dict_methods,
    test_every_numbered_decision_has_a_case,
    test_non_interference,
    test_resolve_leaves_its_input_untouched,
    test_stand_ins_play_a_whole_game_with_orders_that_stand,
    test_the_demo_players_send_only_orders_that_stand,
)

SOURCE = Path(__file__).parent / "toygame"


@pytest.fixture(scope="module")
def toy_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The toy game written into a temporary folder: `toyplugin/` (the package), `schemas/toy/`,
    `templates/toy/`, `docs/rules/toy.md` and `cases/toy/`."""
    root = tmp_path_factory.mktemp("plugin")
    (root / "toyplugin").mkdir()
    shutil.copy(SOURCE / "game.py", root / "toyplugin" / "__init__.py")
    for kind in ("schemas", "templates"):
        shutil.copytree(SOURCE / kind, root / kind)
    (root / "docs" / "rules").mkdir(parents=True)
    shutil.copy(SOURCE / "docs" / "toy.md", root / "docs" / "rules" / "toy.md")
    shutil.copytree(SOURCE / "cases", root / "cases" / "toy")
    return root


@pytest.fixture(scope="module")
def game_id(toy_folder: Path) -> Iterator[str]:
    sys.path.insert(0, str(toy_folder))
    resources.add_root(toy_folder)
    games.register("toy", "toyplugin")
    yield "toy"
    games.unregister("toy")  # the other suites loop over GAMES: they must see the shipped games only
    sys.path.remove(str(toy_folder))
    sys.modules.pop("toyplugin", None)


@pytest.fixture(scope="module")
def rule_documents(toy_folder: Path) -> Path:
    return toy_folder / "docs" / "rules"


@pytest.fixture(scope="module")
def case_folders(toy_folder: Path) -> Path:
    return toy_folder / "cases"


def test_the_toy_games_cases_pass(game_id: str, case_folders: Path) -> None:
    for path in sorted((case_folders / game_id).glob("*.yaml")):
        assert not run_case(path), path.name


def test_registration_fills_in_the_optional_hooks(game_id: str) -> None:
    game = games.get(game_id)
    assert {name: getattr(game, name) for name in OPTIONAL_HOOKS} == OPTIONAL_HOOKS
    assert game.form_examples({}, "ann") == []


def test_registration_refuses_a_game_that_lacks_a_required_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "halfgame.py").write_text("class Half:\n    id = 'half'\n\nGAME = Half()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(games.GameDefinitionError, match="GAME lacks title, min_players"):
        games.register("half", "halfgame")
    assert "half" not in games.GAMES
