"""The random stream: the numbers of docs/randomness.md's worked example, and its properties."""

from adjudicator.common.rng import Rng, commitment, new_seed

SEED = "correct horse battery staple"


def test_commitment_matches_the_docs() -> None:
    assert commitment(SEED) == "c4bbcb1fbec99d65bf59d85c8cb62ee2db963f0fe106f483d9afa73bd4e39a8a"


def test_dice_match_the_docs() -> None:
    stream = Rng(SEED, 1).stream("deal")
    assert [stream.die() for _ in range(6)] == [3, 4, 1, 5, 3, 5]


def test_shuffle_matches_the_docs() -> None:
    items = list("ABCDE")
    Rng(SEED, 1).stream("shuffle").shuffle(items)
    assert items == ["C", "A", "D", "B", "E"]


def test_streams_differ_by_turn_and_purpose_and_repeat_exactly() -> None:
    def draws(turn: int, purpose: str) -> list[int]:
        stream = Rng(SEED, turn).stream(purpose)
        return [stream.below(1000) for _ in range(20)]

    assert draws(1, "deal") == draws(1, "deal")
    assert draws(1, "deal") != draws(2, "deal")
    assert draws(1, "deal") != draws(1, "deal/round-2")


def test_below_covers_its_range_evenly() -> None:
    stream = Rng(SEED, 3).stream("spread")
    counts = [0] * 7
    for _ in range(7000):
        counts[stream.below(7)] += 1
    assert all(850 < c < 1150 for c in counts), counts


def test_new_seeds_are_256_bits_and_fresh() -> None:
    first, second = new_seed(), new_seed()
    assert len(first) == 64 and int(first, 16) >= 0
    assert first != second
