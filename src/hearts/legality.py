"""The one legality core: which cards of a hand may go on the trick, as a mask.

`Round` wraps it to explain a refusal and `hearts.playout` calls it, so every part of the
project plays by the same rules; the computer players' rollout (`hearts.ai.rollout`) writes
the same steps out for one deck, for speed, and its tests replay its playouts through `Round`.
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

from collections.abc import Sequence

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
    allowed = hand
    no_points_first = first_trick and not rules.points_on_first_trick
    if not trick:
        if first_trick and rules.first_lead == "two-of-clubs":
            subset = allowed & opening
            if subset:
                if reasons is not None and allowed & ~subset:
                    name = CARDS[opening.bit_length() - 1].name
                    reasons.append((allowed & ~subset, f"The first trick is led with the {name}."))
                allowed = subset
        # No lead is kept back for the first trick's points: the opening card leads it, or
        # under "dealer's left" any card does (but a heart while hearts must be broken).
        if rules.must_break_hearts and not hearts_broken and allowed & HEARTS_MASK:
            others = allowed & ~HEARTS_MASK
            only_queen = not others & ~QUEEN_MASK
            if others and not (rules.lead_hearts_instead_of_queen and only_queen):
                if reasons is not None:
                    reasons.append(
                        (allowed & HEARTS_MASK, QUEEN_LEAD if only_queen else HEARTS_UNBROKEN)
                    )
                allowed = others
        return allowed
    led = trick[0] % DECK_SIZE // 13
    follow = allowed & SUIT_MASKS[led]
    if follow:
        if reasons is not None and allowed & ~follow:
            reasons.append(
                (allowed & ~follow, f"You must follow suit: {SUIT_NAMES[led]} were led.")
            )
        allowed = follow
    if no_points_first and allowed & ~POINT_MASK:
        if reasons is not None and allowed & POINT_MASK:
            reasons.append((allowed & POINT_MASK, NO_POINTS_FIRST))
        allowed &= ~POINT_MASK
    if rules.queen_at_first_chance and allowed & QUEEN_MASK:
        safe = not follow or (led == SPADES and _queen_covered(trick))
        if safe:
            if reasons is not None and allowed & ~QUEEN_MASK:
                reasons.append((allowed & ~QUEEN_MASK, QUEEN_NOW))
            allowed &= QUEEN_MASK
    return allowed


def _queen_covered(trick: Sequence[int]) -> bool:
    """A spade above the queen is on the trick and not cancelled: its twin (two decks) is not
    on the trick too, so it wins the trick as it stands."""
    faces = [c % DECK_SIZE for c in trick]
    return any(faces.count(face) == 1 for face in faces if face in _HIGH_SPADE_FACES)
