"""The named players' tastes change what they do, not what they may see."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hearts import Round, Rules
from hearts.ai import make_player
from hearts.ai.rollout import MOON_GLORY, Position, Scorer, Table
from hearts.ai.search import SHED_ORDER, STYLES
from hearts.ai.tracking import HEARTS_FACES, QUEEN, SUIT_FACES, fold

SPADES = SUIT_FACES[3]


def guarded_high_spades(rules: Rules, wanted: int) -> Iterator[tuple[Round, list[int]]]:
    """Rounds (in the pass) whose seat 0 holds the Q♠ with four spades or more, and the
    Q♠, A♠ and K♠ it holds: a hand a plain player may keep the queen in."""
    found = 0
    for seed in range(400):
        rnd = Round.deal(rules, seed=seed, hand_number=0)
        hand = fold(rnd.view(0).hand_mask)
        if hand & QUEEN and (hand & SPADES).bit_count() >= 4:
            yield rnd, [f for f in SHED_ORDER if hand >> f & 1]
            found += 1
            if found == wanted:
                return
    raise AssertionError("too few such deals")  # pragma: no cover


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_marisol_passes_every_high_spade_she_is_dealt(level: str) -> None:
    """Her searched pass sheds the Q♠, A♠ and K♠ however well guarded; the plain player,
    searching the same hands, keeps the queen in some of them."""
    kept_by_plain = 0
    for rnd, high in guarded_high_spades(Rules(), 6):
        view = rnd.view(0)
        marisol = make_player(level, seed=3, budget=60, style="marisol").choose_pass(view)
        assert set(high[: view.cards_to_pass]) <= {c.face for c in marisol}
        plain = make_player(level, seed=3, budget=60, style="plain").choose_pass(view)
        kept_by_plain += all(c.face != QUEEN.bit_length() - 1 for c in plain)
    assert kept_by_plain > 0


def test_marisol_sheds_them_where_the_pass_is_not_searched() -> None:
    """With a kitty the pass is medium's: hers still starts with the high spades."""
    for rnd, high in guarded_high_spades(Rules(kitty=True), 4):
        view = rnd.view(0)
        cards = make_player("hard", seed=3, budget=60, style="marisol").choose_pass(view)
        assert {c.face for c in cards} >= set(high[: view.cards_to_pass])
        assert len(cards) == view.cards_to_pass


def finished(point_cards: list[int]) -> Position:
    """A round played out in which each seat took `point_cards`."""
    points = [(c & HEARTS_FACES).bit_count() + 13 * bool(c & QUEEN) for c in point_cards]
    tricks = [max(1, (c & HEARTS_FACES).bit_count()) for c in point_cards]
    return Position([0] * 4, [], 0, False, True, 52, points, point_cards, tricks, 0)


def test_bertie_counts_the_glory_of_a_moon_he_shoots_not_of_one_he_tries() -> None:
    """His appetite is a reward for a moon that comes off: a moon plan whose playout
    fails is valued as the plain player values it, so a plan that seldom works gains
    little (a flat bonus made him go for hopeless moons)."""
    table = Table.of(Rules())
    every = table.points_dealt
    one_heart = 1 << (HEARTS_FACES.bit_length() - 1)  # the A♥
    shot = finished([every, 0, 0, 0])
    failed = finished([every & ~one_heart, one_heart, 0, 0])
    appetite = STYLES["bertie"].moon_appetite
    bertie = Scorer(table, (0, 0, 0, 0), 0, 0.0, appetite)
    plain = Scorer(table, (0, 0, 0, 0), 0)
    plan, no_plan = 0, -1
    assert bertie.value(shot, plan) == plain.value(shot, plan) - MOON_GLORY * appetite
    assert bertie.value(failed, plan) == plain.value(failed, plan)
    assert bertie.value(shot, no_plan) == plain.value(shot, no_plan)
