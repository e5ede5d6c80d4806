import random

import pytest

from hearts import Round, Rules
from hearts.playout import PlayoutState, random_deal_playout, random_playout

from helpers import FIRST_TRICK_DEAL, round_from


def test_playout_from_the_middle_of_a_round_keeps_points_already_taken() -> None:
    rnd = round_from(FIRST_TRICK_DEAL)
    for card in "2C KC AD 9C 5S QS AS 2S".split():
        rnd.play(card)
    state = PlayoutState.from_round(rnd)
    assert state.points == [0, 0, 0, 13]
    for seed in range(50):
        points = random_playout(state, random.Random(seed))
        assert sum(points) == 26
        assert points[3] >= 13
    assert state.points == [0, 0, 0, 13], "playing out leaves the state unchanged"


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(players=3),
        Rules(players=5),
        Rules(queen_at_first_chance=True, points_on_first_trick=True),
    ],
)
def test_random_deal_playouts_hand_out_all_the_points(rules: Rules) -> None:
    rng = random.Random(3)
    for _ in range(200):
        assert sum(random_deal_playout(rules, rng)) == 26


def test_playout_refuses_what_it_does_not_handle() -> None:
    with pytest.raises(ValueError, match="one-deck"):
        PlayoutState.from_round(Round.deal(Rules(players=6), seed=1))
    with pytest.raises(ValueError, match="being played"):
        PlayoutState.from_round(Round.deal(Rules(), seed=1))
