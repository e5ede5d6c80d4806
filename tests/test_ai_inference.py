"""Inference: deals where the rivals' past plays fit medium's rules are favoured."""

from __future__ import annotations

import dataclasses
import random

from hearts import Round, Rules
from hearts.ai.inference import Inference, past_plays
from hearts.ai.sampling import Sampler
from hearts.ai.search import ExpertPlayer
from hearts.ai.tracking import Knowledge
from hearts.cards import CardSet

HANDS = [
    "2C 5C 6C 7C 8C 2S 3S 4S 5S 6S 2D 3D 4D",
    "AC 5D 7S 8S 9S 2H 3H 4H 5H 6H 7H 8H 9H",
    "3C KD QD TS JS QS KS AS TH JH QH KH AH",
    "4C 9C TC JC QC KC 6D 7D 8D 9D TD JD AD",
]
PLAYS = ["2C", "AC", "3C", "4C", "5D", "KD"]
LOW_DIAMONDS = CardSet.parse("2D 3D 4D").mask


def _round(hands: list[str]) -> Round:
    rnd = Round.from_hands(Rules(), [h.split() for h in hands], "hold")
    for card in PLAYS:
        rnd.play(card)
    return rnd


def _swapped(a: str, b: str) -> list[str]:
    """`HANDS` with cards a (seat 0's) and b (seat 2's) traded."""
    hands = list(HANDS)
    hands[0] = hands[0].replace(a, b)
    hands[2] = hands[2].replace(b, a)
    return hands


def test_a_rival_that_went_over_a_lead_is_seldom_given_a_card_to_duck_with() -> None:
    """Seat 1 led the 5♦ and seat 2 played the K♦: medium would have ducked with a low
    diamond, so deals giving seat 2 the 2♦, 3♦ or 4♦ weigh less, and are drawn less."""
    rnd = _round(HANDS)
    view = rnd.view(3)
    plays = past_plays(view)
    assert [(p.seat, str(CardSet(1 << p.face))) for p in plays] == [(1, "AC"), (2, "3C"), (2, "KD")]
    inference = Inference(view)
    truth = [rnd.hand_mask(s) for s in range(4)]
    twin = _round(_swapped("2D", "QD"))
    assert twin.view(3) == view  # seat 3 cannot tell them apart
    other = [twin.hand_mask(s) for s in range(4)]
    assert other[2] & LOW_DIAMONDS
    assert inference.weight(truth) == 1.0
    assert inference.weight(other) == inference.epsilon

    know = Knowledge.from_view(view)
    sampler = Sampler(know, view.hand_sizes, 0)
    plain_rng, infer_rng = random.Random(7), random.Random(7)
    deals = 1000
    plain = sum(bool(sampler.sample(plain_rng)[0][2] & LOW_DIAMONDS) for _ in range(deals))
    strong = Inference(view, epsilon=0.1, pool=8)
    inferred = 0
    for _ in range(deals):
        hands, _kitty = strong.pick([sampler.sample(infer_rng) for _ in range(8)], infer_rng)
        inferred += bool(hands[2] & LOW_DIAMONDS)
    assert plain > 0.5 * deals
    assert inferred < 0.6 * plain, (inferred, plain)


class InferringExpert(ExpertPlayer):
    settings = dataclasses.replace(ExpertPlayer.settings, infer_pool=4)


def test_inference_reads_the_view_alone_and_repeats() -> None:
    """Two rounds that differ only in cards seat 3 cannot see get the same card, and the
    same seed and budget give the same card again."""
    rnd, twin = _round(HANDS), _round(_swapped("3D", "QD"))
    assert twin.view(3) == rnd.view(3)
    first = InferringExpert(seed=3, budget=300).choose_play(rnd.view(3))
    assert InferringExpert(seed=3, budget=300).choose_play(twin.view(3)) == first
    assert InferringExpert(seed=3, budget=300).choose_play(rnd.view(3)) == first


def test_inference_is_off_unless_asked() -> None:
    assert ExpertPlayer.settings.infer_pool == 0
