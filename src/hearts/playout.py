"""The fast path for search: play a round out to the end on raw masks.

Computer players sample many deals and play each to the end; `Round` is built for
exactness and explanations, this module for speed. Both apply the same rules (a test plays
thousands of rounds through each and compares every legal set). One deck only: the
two-deck Cancellation game plays out through `Round`.

>>> import random
>>> from hearts import Round, Rules
>>> rnd = Round.deal(Rules(), seed=5, hand_number=3)
>>> state = PlayoutState.from_round(rnd)
>>> points = random_playout(state, random.Random(1))
>>> sum(points)
26
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import DECK_SIZE, HEARTS_MASK, POINT_MASK, QUEEN_MASK, mask_of, parse_card
from .legality import legal_mask as core_legal_mask
from .round import Round, deck_cards
from .rules import Rules

_HEARTS = HEARTS_MASK & ((1 << DECK_SIZE) - 1)
_POINTS = POINT_MASK & ((1 << DECK_SIZE) - 1)
_QUEEN = QUEEN_MASK & ((1 << DECK_SIZE) - 1)


@dataclass(slots=True)
class PlayoutState:
    """A round in progress, as plain ints: enough to play it to the end."""

    rules: Rules
    hands: list[int]
    leader: int
    trick: list[int]
    first_trick: bool
    hearts_broken: bool
    points: list[int]
    opening: int = 1  # mask of the card that must lead the first trick

    @classmethod
    def from_round(cls, rnd: Round) -> PlayoutState:
        if rnd.rules.decks != 1 or rnd.rules.kitty:
            raise ValueError("The fast playout handles one-deck games without a kitty.")
        if rnd.phase != "playing":
            raise ValueError("Only a round being played can be played out.")
        cards = [int(card) for _, card in rnd.trick]
        return cls(
            rules=rnd.rules,
            hands=[rnd.hand_mask(s) for s in range(rnd.players)],
            leader=rnd.leader,
            trick=cards,
            first_trick=rnd.is_first_trick,
            hearts_broken=rnd.hearts_broken,
            points=[_points(m) for m in rnd.taken],
            opening=1 << parse_card(rnd.rules.opening_card),
        )

    def copy(self) -> PlayoutState:
        return PlayoutState(
            self.rules,
            self.hands.copy(),
            self.leader,
            self.trick.copy(),
            self.first_trick,
            self.hearts_broken,
            self.points.copy(),
            self.opening,
        )

    def play(self, card: int) -> None:
        """The seat to play plays `card` (a legal one: not checked here, for speed)."""
        n = self.rules.players
        seat = (self.leader + len(self.trick)) % n
        bit = 1 << card
        self.hands[seat] &= ~bit
        self.trick.append(card)
        if bit & _HEARTS or (self.rules.queen_breaks_hearts and bit & _QUEEN):
            self.hearts_broken = True
        if len(self.trick) == n:
            self.leader = (self.leader + trick_winner(self.trick)) % n
            self.points[self.leader] += _points(mask_of(self.trick))
            self.trick = []
            self.first_trick = False


def trick_winner(trick: list[int]) -> int:
    """The index in a full one-deck trick of the highest card of the suit led."""
    led = trick[0] // 13
    best = trick[0]
    win = 0
    for i in range(1, len(trick)):
        card = trick[i]
        if card > best and card // 13 == led:
            best, win = card, i
    return win


def _points(mask: int) -> int:
    return (mask & _HEARTS).bit_count() + 13 * bool(mask & _QUEEN)


def legal_mask(state: PlayoutState, hand: int) -> int:
    """The legal cards in `hand` for the next card of `state`'s trick (the one core)."""
    return core_legal_mask(
        state.rules, hand, state.trick, state.first_trick, state.hearts_broken, state.opening
    )


def random_playout(state: PlayoutState, rng: random.Random) -> list[int]:
    """Play the round to its end with uniformly random legal cards; return points per seat.

    The state is not changed. Points are penalty points (no bonus card, no moon scoring).
    """
    rules = state.rules
    n = rules.players
    hands = state.hands.copy()
    points = state.points.copy()
    trick = state.trick.copy()
    leader = state.leader
    first = state.first_trick
    broken = state.hearts_broken
    rand = rng.random
    legal = core_legal_mask
    queen_breaks = rules.queen_breaks_hearts
    opening = state.opening
    remaining = sum(h.bit_count() for h in hands) + len(trick)
    taken = 0  # the cards on the table, as a mask
    for card in trick:
        taken |= 1 << card
    while remaining:
        seat = (leader + len(trick)) % n
        for _ in range(n - len(trick)):
            hand = hands[seat]
            allowed = legal(rules, hand, trick, first, broken, opening)
            if allowed & (allowed - 1):
                for _ in range(int(rand() * allowed.bit_count())):
                    allowed &= allowed - 1
            bit = allowed & -allowed
            hands[seat] = hand ^ bit
            trick.append(bit.bit_length() - 1)
            taken |= bit
            if not broken and (bit & _HEARTS or (queen_breaks and bit & _QUEEN)):
                broken = True
            seat = seat + 1 if seat + 1 < n else 0
        leader = (leader + trick_winner(trick)) % n
        if taken & _POINTS:
            points[leader] += (taken & _HEARTS).bit_count() + (13 if taken & _QUEEN else 0)
        remaining -= n
        trick = []
        taken = 0
        first = False
    return points


def random_deal_playout(rules: Rules, rng: random.Random) -> list[int]:
    """Deal at random (no pass) and play out: the benchmark of this path."""
    deck = deck_cards(rules)
    rng.shuffle(deck)
    size = rules.hand_size
    n = rules.players
    hands = [0] * n
    for i in range(n * size):
        hands[i % n] |= 1 << deck[i]
    opening = 1 << parse_card(rules.opening_card)
    leader = next(s for s in range(n) if hands[s] & opening)
    state = PlayoutState(rules, hands, leader, [], True, False, [0] * n, opening)
    return random_playout(state, rng)
