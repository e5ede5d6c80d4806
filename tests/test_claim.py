"""hearts.claim: a round is called settled only when every way to play it out ends the same."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hearts import Round, Rules
from hearts.claim import settled_points
from hearts.scoring import moon_shooter

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

house_rules = st.builds(
    Rules,
    pass_cycle=st.just(("hold",)),
    points_on_first_trick=st.booleans(),
    queen_breaks_hearts=st.booleans(),
    shoot_the_sun=st.booleans(),
    bonus_card=st.sampled_from([None, "JD", "TD"]),
    partnership=st.booleans(),
    kitty=st.booleans(),
)


def play_randomly(rnd: Round, rng: random.Random, tricks: int | None = None) -> Round:
    while rnd.phase == "playing" and (tricks is None or len(rnd.tricks) < tricks or rnd.trick):
        rnd.play(rng.choice(rnd.legal_cards()))
    return rnd


def ending(rnd: Round) -> tuple[tuple[int, ...], int | None, bool]:
    shooter, sun = moon_shooter(rnd.rules, rnd.taken)
    return tuple(rnd.points_taken), shooter, sun


@SETTINGS
@given(
    rules=house_rules,
    seed=st.integers(0, 10**6),
    tricks=st.integers(4, 12),
    extra=st.integers(0, 3),
)
def test_a_settled_round_ends_the_same_in_every_random_play_out(
    rules: Rules, seed: int, tricks: int, extra: int
) -> None:
    rng = random.Random(seed)
    rnd = play_randomly(Round.deal(rules, seed), rng, tricks)
    for _ in range(extra):  # sometimes in the middle of a trick
        if rnd.phase == "playing":
            rnd.play(rng.choice(rnd.legal_cards()))
    settled = settled_points(rnd)
    if settled is None:
        return
    endings = {ending(play_randomly(rnd.copy(), random.Random(k))) for k in range(25)}
    assert len(endings) == 1
    (points, _, _), *_ = endings
    assert points == settled


@SETTINGS
@given(rules=house_rules, seed=st.integers(0, 10**6))
def test_the_last_trick_is_always_settled(rules: Rules, seed: int) -> None:
    rnd = play_randomly(Round.deal(rules, seed), random.Random(seed), rules.tricks_per_round - 1)
    assert rnd.phase == "playing"
    settled = settled_points(rnd)
    assert settled is not None
    assert settled == tuple(play_randomly(rnd, random.Random(1)).points_taken)


def test_a_leader_holding_every_top_card_takes_all_that_is_left() -> None:
    # Seat 0 leads, holding the top seven spades and top six hearts: whatever anyone plays,
    # it wins every trick, so every point is certain to be its (a moon, before scoring).
    top = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "AH", "KH", "QH", "JH", "TH", "9H"]
    rest = [c for c in (r + s for s in "CDHS" for r in "23456789TJQKA") if c not in top]
    hands = [top, rest[0:13], rest[13:26], rest[26:39]]
    rnd = Round.from_hands(Rules(first_lead="dealer-left"), hands, "hold", dealer=3)
    assert rnd.turn == 0
    assert settled_points(rnd) == (26, 0, 0, 0)


def test_a_round_whose_play_outs_differ_is_not_settled() -> None:
    found = 0
    for seed in range(40):
        rnd = play_randomly(Round.deal(Rules(), seed, 3), random.Random(seed), 10)
        endings = {ending(play_randomly(rnd.copy(), random.Random(k))) for k in range(20)}
        if len(endings) > 1:
            found += 1
            assert settled_points(rnd) is None
    assert found >= 5  # the check above really ran


def test_a_small_budget_gives_up_rather_than_guesses() -> None:
    rnd = Round.deal(Rules(), 11, hand_number=3)
    play_randomly(rnd, random.Random(2), 6)
    assert settled_points(rnd, budget=1) is None
