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
from collections.abc import Sequence

from .tracking import Knowledge

MAX_ATTEMPTS = 30


def sample_deal(
    know: Knowledge, hand_sizes: Sequence[int], kitty_size: int, rng: random.Random
) -> tuple[list[int], int]:
    """Hands (face masks, ours included) and a hidden kitty for one consistent deal."""
    for attempt in range(MAX_ATTEMPTS + 1):
        result = _try_sample(know, hand_sizes, kitty_size, rng, attempt < MAX_ATTEMPTS)
        if result is not None:
            return result
    raise AssertionError("a deal without void constraints always fits")  # pragma: no cover


def _try_sample(
    know: Knowledge,
    hand_sizes: Sequence[int],
    kitty_size: int,
    rng: random.Random,
    respect_voids: bool,
) -> tuple[list[int], int] | None:
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
        room[seat] = hand_sizes[seat] - know.known[seat].bit_count()
    room[n] = kitty_size
    if sum(room) != free.bit_count():
        # The view and our count disagree (should not happen): share out what is there.
        return _fill_ignoring_counts(know, hands, free, rng)
    kitty = 0
    allowed_by_suit = []
    for suit in range(4):
        seats = [
            s for s in range(n) if s != me and not (respect_voids and know.voids[s] >> suit & 1)
        ]
        seats.append(n)
        allowed_by_suit.append(seats)
    order = sorted(range(4), key=lambda s: len(allowed_by_suit[s]))
    for suit in order:
        cards = [c for c in range(13 * suit, 13 * suit + 13) if free >> c & 1]
        rng.shuffle(cards)
        seats = allowed_by_suit[suit]
        for card in cards:
            total = sum(room[s] for s in seats)
            if total <= 0:
                return None
            pick = rng.random() * total
            for seat in seats:
                pick -= room[seat]
                if pick < 0 and room[seat] > 0:
                    break
            else:
                seat = next(s for s in seats if room[s] > 0)
            room[seat] -= 1
            if seat == n:
                kitty |= 1 << card
            else:
                hands[seat] |= 1 << card
    return hands, kitty


def _fill_ignoring_counts(
    know: Knowledge, hands: list[int], free: int, rng: random.Random
) -> tuple[list[int], int]:
    others = [s for s in range(know.players) if s != know.seat]
    cards = [c for c in range(52) if free >> c & 1]
    rng.shuffle(cards)
    for i, card in enumerate(cards):
        hands[others[i % len(others)]] |= 1 << card
    return hands, 0


__all__ = ["sample_deal"]
