"""Deal sampling: hidden hands consistent with everything a seat knows.

Each sample gives every other seat exactly as many cards as it holds, puts the cards we passed
with the seat we passed them to (until they are played), never gives a seat a suit it has
shown it lacks, and fills any unseen kitty with the rest. Cards are placed most constrained
suit first, each to a seat chosen with odds in proportion to its free room; a dead end starts
again, and after many dead ends (only possible with contradictory information) the voids
are relaxed rather than failing.

>>> import random
>>> from hearts import Round, Rules
>>> rnd = Round.deal(Rules(), seed=3, hand_number=3)
>>> view = rnd.view(0)
>>> hands, kitty = sample_deal(Knowledge.from_view(view), view.hand_sizes, 0, random.Random(1))
>>> [h.bit_count() for h in hands], hands[0] == view.hand_mask, kitty
([13, 13, 13, 13], True, 0)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .tracking import QUEEN, Knowledge

MAX_ATTEMPTS = 30


def sample_deal(
    know: Knowledge, hand_sizes: Sequence[int], kitty_size: int, rng: random.Random
) -> tuple[list[int], int]:
    """Hands (face masks, ours included) and a hidden kitty for one consistent deal."""
    return Sampler(know, hand_sizes, kitty_size).sample(rng)


class Sampler:
    """Deals for one decision: what does not change from deal to deal is worked out once."""

    def __init__(
        self,
        know: Knowledge,
        hand_sizes: Sequence[int],
        kitty_size: int,
        queen_shy: int = 0,
        trust: float = 0.9,
    ) -> None:
        """`queen_shy`: seats (a bit each) that probably lack the Q♠ (`tracking.queen_shy`);
        in a share `trust` of the deals, the queen goes to another seat that may hold it."""
        self.know = know
        self.hand_sizes = tuple(hand_sizes)
        self.kitty_size = kitty_size
        self.queen_shy = queen_shy if know.unseen & QUEEN else 0
        self.trust = trust
        self.strict = self._plan(respect_voids=True)
        self.relaxed: _Plan | None = None  # voids ignored: worked out if ever needed

    def sample(self, rng: random.Random) -> tuple[list[int], int]:
        for attempt in range(MAX_ATTEMPTS + 1):
            result = self._try(rng, attempt < MAX_ATTEMPTS)
            if result is not None:
                return result
        raise AssertionError("a deal without void constraints always fits")  # pragma: no cover

    def _plan(self, respect_voids: bool) -> _Plan:
        know = self.know
        n = know.players
        me = know.seat
        hands = [0] * n
        room = [0] * (n + 1)  # the last slot is the kitty
        free = know.unseen
        for seat in range(n):
            if seat == me:
                hands[seat] = know.hand
                continue
            hands[seat] = know.known[seat]
            free &= ~know.known[seat]
            room[seat] = self.hand_sizes[seat] - know.known[seat].bit_count()
        room[n] = self.kitty_size
        if sum(room) != free.bit_count():
            return _Plan(hands, room, free, [], False)
        allowed_by_suit = []
        for suit in range(4):
            seats = [
                s for s in range(n) if s != me and not (respect_voids and know.voids[s] >> suit & 1)
            ]
            seats.append(n)
            allowed_by_suit.append(seats)
        order = sorted(range(4), key=lambda s: len(allowed_by_suit[s]))
        suits = [
            (
                [1 << c for c in range(13 * suit, 13 * suit + 13) if free >> c & 1],
                allowed_by_suit[suit],
            )
            for suit in order
        ]
        return _Plan(hands, room, free, suits, True)

    def _try(self, rng: random.Random, respect_voids: bool) -> tuple[list[int], int] | None:
        if respect_voids:
            plan = self.strict
        else:
            if self.relaxed is None:
                self.relaxed = self._plan(respect_voids=False)
            plan = self.relaxed
        hands = plan.hands.copy()
        if not plan.counts_agree:
            # The view and our count disagree (should not happen): share out what is there.
            return _fill_ignoring_counts(self.know, hands, plan.free, rng)
        room = plan.room.copy()
        hands.append(0)  # the kitty, last
        draw = rng.random
        exact = _SHUFFLE_WRITTEN_OUT and type(rng) is random.Random
        placed = self._place_queen(plan, hands, room, draw) if self.queen_shy else 0
        for suit_cards, seats in plan.suits:
            cards = suit_cards.copy()  # one bit a card
            if placed and placed in cards:
                cards.remove(placed)
            if exact:
                _shuffle_written_out(cards, rng)
            else:
                rng.shuffle(cards)
            total = sum([room[seat] for seat in seats])
            if total < len(cards):
                return self._dead_end(cards, total, draw)
            for card in cards:
                # The seat where `pick`, counted down by each seat's room, goes below
                # zero. It never is below zero before, so every subtraction is exact and
                # "pick < room" tells the same as "pick - room < 0".
                pick = draw() * total
                for seat in seats:
                    free_room = room[seat]
                    if pick < free_room:
                        break
                    pick -= free_room
                else:
                    seat = next(s for s in seats if room[s] > 0)
                room[seat] -= 1
                total -= 1
                hands[seat] |= card
        kitty = hands.pop()
        return hands, kitty

    def _place_queen(
        self, plan: _Plan, hands: list[int], room: list[int], draw: Callable[[], float]
    ) -> int:
        """In a share `trust` of the deals, put the Q♠ with a seat not in `queen_shy` that
        may hold spades (odds by free room) and return it; else (or if none can) 0."""
        if draw() >= self.trust:
            return 0
        spades = next((seats for cards, seats in plan.suits if QUEEN in cards), [])
        seats = [s for s in spades if not self.queen_shy >> s & 1 and room[s] > 0]
        total = sum(room[s] for s in seats)
        if not total:
            return 0
        pick = draw() * total
        seat = seats[-1]
        for s in seats:
            if pick < room[s]:
                seat = s
                break
            pick -= room[s]
        room[seat] -= 1
        hands[seat] |= QUEEN
        return QUEEN

    @staticmethod
    def _dead_end(cards: list[int], total: int, draw: Callable[[], float]) -> None:
        """A suit with more cards than room for them: the cards before room runs out are
        placed (their draws made, as the deal would have made them) and the deal fails."""
        for _ in range(max(0, min(total, len(cards)))):
            draw()
        return None


@dataclass(slots=True)
class _Plan:
    """A sampler's fixed part: the hands as known, the room left in each (the kitty last),
    the unseen cards, and per suit (most constrained first) its cards (one bit each) and who
    may hold them (the kitty last)."""

    hands: list[int]
    room: list[int]
    free: int
    suits: list[tuple[list[int], list[int]]]
    counts_agree: bool


_WIDTH = tuple(size.bit_length() for size in range(64))


_STEPS = tuple(
    tuple((i, i + 1, _WIDTH[i + 1]) for i in range(size - 1, 0, -1)) for size in range(53)
)
"""For a list of each length, the steps of a shuffle: (index, choices, bits to draw)."""


def shuffle(cards: list[int], rng: random.Random) -> None:
    """`rng.shuffle(cards)`: the same draws and order, written out where that is the same."""
    if _SHUFFLE_WRITTEN_OUT and type(rng) is random.Random:
        _shuffle_written_out(cards, rng)
    else:
        rng.shuffle(cards)


def _shuffle_written_out(cards: list[int], rng: random.Random) -> None:
    """`rng.shuffle(cards)` without a call of `_randbelow` a card: the same draws."""
    getrandbits = rng.getrandbits
    for i, size, width in _STEPS[len(cards)]:
        j = getrandbits(width)
        while j >= size:
            j = getrandbits(width)
        cards[i], cards[j] = cards[j], cards[i]


def _same_as_library_shuffle() -> bool:
    """Whether the shuffle written out in `Sampler` is this Python's `random.shuffle`, call
    for call (CPython 3.11 to 3.13 shuffle this way; another Python falls back to its own)."""
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        for size in range(14):
            a, b = list(range(size)), list(range(size))
            _shuffle_written_out(a, ours)
            theirs.shuffle(b)
            if a != b:
                return False
        if ours.random() != theirs.random():
            return False
    return True


_SHUFFLE_WRITTEN_OUT = _same_as_library_shuffle()


def _fill_ignoring_counts(
    know: Knowledge, hands: list[int], free: int, rng: random.Random
) -> tuple[list[int], int]:
    others = [s for s in range(know.players) if s != know.seat]
    cards = [c for c in range(52) if free >> c & 1]
    rng.shuffle(cards)
    for i, card in enumerate(cards):
        hands[others[i % len(others)]] |= 1 << card
    return hands, 0


__all__ = ["Sampler", "sample_deal", "shuffle"]
