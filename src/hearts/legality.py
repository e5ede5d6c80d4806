"""The one legality core: which cards of a hand may go on the trick, as a mask.

`Round` wraps it to explain a refusal, and both playout paths (`hearts.playout` and the
computer players' rollouts) call it, so every part of the project plays by the same rules.
Masks may hold either deck's cards (two-deck Cancellation Hearts numbers the second deck
52..103); a one-deck playout simply never sets those bits.

>>> from hearts import Rules
>>> from hearts.cards import CardSet
>>> hand = CardSet.parse("2C 5H QS").mask
>>> str(CardSet(legal_mask(Rules(), hand, [], True, False, CardSet.parse("2C").mask)))
'2C'
>>> reasons = []
>>> _ = legal_mask(Rules(), CardSet.parse("5H 9D").mask, [], False, False, 1, reasons)
>>> reasons[0][1]
'Hearts have not been broken yet, so you cannot lead one.'
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Protocol

from .cards import (
    ACE_OF_SPADES,
    CARDS,
    DECK_SIZE,
    HEARTS_MASK,
    KING_OF_SPADES,
    POINT_MASK,
    QUEEN_MASK,
    SPADES,
    SUIT_MASKS,
    SUIT_NAMES,
)
from .rules import Rules

NO_POINTS_FIRST = "No points on the first trick: hearts and the queen of spades must wait."
HEARTS_UNBROKEN = "Hearts have not been broken yet, so you cannot lead one."
QUEEN_LEAD = (
    "Hearts have not been broken, so holding only hearts and the queen of spades you must "
    "lead the queen."
)
QUEEN_NOW = "House rule: the queen of spades must go at the first safe chance, and this is one."
_HIGH_SPADE_FACES = (KING_OF_SPADES, ACE_OF_SPADES)

Reasons = list[tuple[int, str]]
"""(the cards a rule kept out, that rule's sentence), in the order the rules apply."""


class LegalMask(Protocol):
    """`legal_mask` with the rules fixed: legal(hand, trick, first, broken, opening)."""

    def __call__(
        self,
        hand: int,
        trick: Sequence[int],
        first_trick: bool,
        hearts_broken: bool,
        opening: int,
        reasons: Reasons | None = None,
    ) -> int: ...


def legal_mask(
    rules: Rules,
    hand: int,
    trick: Sequence[int],
    first_trick: bool,
    hearts_broken: bool,
    opening: int,
    reasons: Reasons | None = None,
) -> int:
    """The cards of `hand` that may be played on `trick` (cards in playing order).

    `opening` is the mask of the card that must lead the first trick. Each rule narrows the
    allowed cards only when something is left, so a hand that holds nothing else may always
    play what it has. With `reasons`, records what each rule kept out and why.
    """
    return legality(rules)(hand, trick, first_trick, hearts_broken, opening, reasons)


@functools.lru_cache(maxsize=256)
def legality(rules: Rules) -> LegalMask:
    """`legal_mask` for one set of rules, with the rules read once (search calls it for every
    card of every playout, so the house rules become constants here)."""
    opening_lead = rules.first_lead == "two-of-clubs"
    points_first = rules.points_on_first_trick
    must_break = rules.must_break_hearts
    heart_for_queen = rules.lead_hearts_instead_of_queen
    queen_first_chance = rules.queen_at_first_chance
    # Closure cells read faster than module globals, and this runs for every card searched.
    deck, suits, points, hearts, queen = DECK_SIZE, SUIT_MASKS, POINT_MASK, HEARTS_MASK, QUEEN_MASK

    def legal(
        hand: int,
        trick: Sequence[int],
        first_trick: bool,
        hearts_broken: bool,
        opening: int,
        reasons: Reasons | None = None,
    ) -> int:
        allowed = hand
        if trick:
            led = trick[0] % deck // 13
            follow = allowed & suits[led]
            if follow:
                if reasons is not None and allowed & ~follow:
                    why = f"You must follow suit: {SUIT_NAMES[led]} were led."
                    reasons.append((allowed & ~follow, why))
                allowed = follow
            if first_trick and not points_first and allowed & ~points:
                if reasons is not None and allowed & points:
                    reasons.append((allowed & points, NO_POINTS_FIRST))
                allowed &= ~points
            if queen_first_chance and allowed & queen:
                safe = not follow or (
                    led == SPADES and any(c % DECK_SIZE in _HIGH_SPADE_FACES for c in trick)
                )
                if safe:
                    if reasons is not None and allowed & ~queen:
                        reasons.append((allowed & ~queen, QUEEN_NOW))
                    allowed &= queen
            return allowed
        if first_trick and opening_lead:
            subset = allowed & opening
            if subset:
                if reasons is not None and allowed & ~subset:
                    name = CARDS[opening.bit_length() - 1].name
                    why = f"The first trick is led with the {name}."
                    reasons.append((allowed & ~subset, why))
                allowed = subset
        if first_trick and not points_first and allowed & ~points:
            if reasons is not None and allowed & points:
                reasons.append((allowed & points, NO_POINTS_FIRST))
            allowed &= ~points
        if must_break and not hearts_broken and allowed & hearts:
            others = allowed & ~hearts
            only_queen = not others & ~queen
            if others and not (heart_for_queen and only_queen):
                if reasons is not None:
                    why = QUEEN_LEAD if only_queen else HEARTS_UNBROKEN
                    reasons.append((allowed & hearts, why))
                allowed = others
        return allowed

    return legal
