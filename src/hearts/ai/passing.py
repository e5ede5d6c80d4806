"""The searched pass (hard and expert): try several passes on deals sampled for the others.

The candidates are the passes made of the cards medium finds most dangerous to keep (every
choice of `cards_to_pass` among the top few), medium's own pass, and the moon pass when the
hand is a moon hand. In each sampled deal the other seats pass as medium does, the round is
played out from the first lead by the playout policy, and every candidate meets the same
deal and the same random numbers. Candidates that trail are dropped as in the play search.
The search stops at its budget of playouts or, when given one, at its deadline: the clock is
read once a sampled deal (a few hundred microseconds of playouts), never once a playout.
Only a pass to one seat, one deck and no kitty are searched; anything else falls back.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable

from ..cards import HEARTS, SPADES
from ..view import PlayerView
from .racing import Arm, race
from .rollout import NOISE, Position, SharedNumbers, Table, play_numbers
from .sampling import shuffle
from .tracking import HIGH_SPADES, QUEEN, SUIT_FACES, dealt_faces, fold

TOP_CARDS = 6
QUEEN_FACE = QUEEN.bit_length() - 1


# --- medium's pass (the searched pass's other seats pass this way, and medium itself) ---


def pass_danger(hand: int, face: int, direction: str) -> float:
    """How much a card hurts to keep; the highest scores are passed."""
    suit, rank = face // 13, face % 13
    suit_cards = hand & SUIT_FACES[suit]
    length = suit_cards.bit_count()
    if suit == SPADES:
        low_spades = (suit_cards & ~(QUEEN | HIGH_SPADES)).bit_count()
        if face == QUEEN_FACE:
            # The queen is safe behind enough low spades; passing her left hands her to the
            # player who plays right after us, so keep her a little more readily then.
            guarded = low_spades >= (3 if direction == "left" else 4)
            return 0.0 if guarded else 30.0
        if (1 << face) & HIGH_SPADES:
            return 2.0 if low_spades >= 4 else 24.0 + rank
        return 0.5 * rank / 12.0
    if suit == HEARTS:
        low_hearts = (suit_cards & 0x3F << 13 * HEARTS).bit_count()
        return rank + (2.0 if rank >= 9 and low_hearts < 2 else 0.0)
    # Clubs and diamonds: high cards are risky, and a short suit is worth emptying so we can
    # discard on it later.
    void_bonus = {1: 6.0, 2: 3.5, 3: 1.0}.get(length, 0.0)
    keep_low = -4.0 if face in (0, 1) and suit == 0 else 0.0
    return rank * 0.8 + void_bonus + keep_low


def pass_faces(hand: int, direction: str, count: int) -> list[int]:
    """Medium's pass from a hand of faces: the most dangerous card, one at a time.

    A card's danger depends on its own suit alone, so after each pick only the cards of the
    picked card's suit are weighed again (the searched pass asks this thousands of times)."""
    chosen: list[int] = []
    remaining = hand
    danger = {f: pass_danger(hand, f, direction) for f in range(52) if hand >> f & 1}
    for _ in range(count):
        best = -1
        best_danger = 0.0
        for face, value in danger.items():  # the highest danger, the highest face on a tie
            if best < 0 or value > best_danger or (value == best_danger and face > best):
                best, best_danger = face, value
        chosen.append(best)
        remaining &= ~(1 << best)
        del danger[best]
        suit = best // 13
        for face in danger:
            if face // 13 == suit:
                danger[face] = pass_danger(remaining, face, direction)
    return chosen


# --- the searched pass ------------------------------------------------------------------


def can_search_pass(view: PlayerView) -> bool:
    rules = view.rules
    return (
        rules.decks == 1
        and not rules.kitty
        and len(view.pass_to) == 1
        and view.cards_to_pass > 0
        # Every card dealt, the same number to each seat (a seat that has already passed
        # shows a smaller hand: its cards are on their way, but it was dealt as many).
        and bin(dealt_faces(rules)).count("1") == rules.players * len(view.hand)
    )


def pass_candidates(
    hand: int, direction: str, count: int, moon_pass: list[int] | None
) -> list[tuple[int, ...]]:
    """Passes worth trying, medium's first."""
    faces = [f for f in range(52) if hand >> f & 1]
    danger = sorted(faces, key=lambda f: (-pass_danger(hand, f, direction), -f))
    result: list[tuple[int, ...]] = [tuple(sorted(pass_faces(hand, direction, count)))]
    if moon_pass is not None:
        result.append(tuple(sorted(moon_pass)))
    for combo in itertools.combinations(sorted(danger[: max(TOP_CARDS, count)]), count):
        if combo not in result:
            result.append(combo)
    return result


def evaluate_passes(
    view: PlayerView,
    candidates: list[tuple[int, ...]],
    rng: random.Random,
    budget: int,
    least: int,
    drop_z: float,
    moon_plan: tuple[int, ...] | None,
    score: Callable[[Position], float],
    table: Table | None = None,
    deadline: float | None = None,
) -> list[Arm]:
    """Each candidate pass (its index in `face`) with `score` of every deal tried, played
    out under `table` (`Table.of` the view's rules if None). The search stops once `least`
    deals are in and one candidate is left, the next deal would spend more than `budget`
    playouts, or `time.perf_counter()` has passed `deadline` (if given)."""

    rules = view.rules
    n = rules.players
    me = view.seat
    if table is None:
        table = Table.of(rules)
    hand = fold(view.hand_mask)
    offset = (view.pass_to[0] - me) % n
    giver = (me - offset) % n
    count = view.cards_to_pass
    size = hand.bit_count()  # what every other seat was dealt too (`can_search_pass`)
    direction = view.pass_direction
    unseen = [f for f in range(52) if dealt_faces(rules) >> f & 1 and not hand >> f & 1]
    arms = [Arm(me if c == moon_plan else -1, i, []) for i, c in enumerate(candidates)]
    arms[0].protected = True  # medium's pass: the others must clearly beat it
    playout_rng = random.Random()
    used = 0
    index = 0
    while True:
        active = [a for a in arms if a.active]
        if index >= least and (
            len(active) == 1
            or used + len(active) > budget
            or (deadline is not None and time.perf_counter() > deadline)
        ):
            break
        shuffle(unseen, rng)  # as rng.shuffle(unseen), written out
        hands = [0] * n
        at = 0
        for seat in range(n):
            if seat == me:
                hands[seat] = hand
                continue
            for face in unseen[at : at + size]:
                hands[seat] |= 1 << face
            at += size
        passes = [0] * n
        for seat in range(n):
            if seat != me:
                for face in pass_faces(hands[seat], direction, count):
                    passes[seat] |= 1 << face
        after = [0] * n
        for seat in range(n):
            if seat != me:
                after[seat] = hands[seat] & ~passes[seat] | passes[(seat - offset) % n]
        playout_seed = rng.getrandbits(32)
        # Every candidate meets the same random numbers: one list for the deal.
        playout_rng.seed(playout_seed)
        numbers = SharedNumbers(playout_rng, sum(hands).bit_count())
        for arm in active:
            given = 0
            for face in candidates[arm.face]:
                given |= 1 << face
            dealt = after.copy()
            dealt[me] = hand & ~given | passes[giver]
            dealt[(me + offset) % n] |= given
            if rules.first_lead == "dealer-left":
                leader = (view.dealer + 1) % n
            else:
                leader = next(s for s in range(n) if dealt[s] & table.opening)
            pos = Position(
                hands=dealt,
                trick=[],
                leader=leader,
                first_trick=True,
                hearts_broken=False,
                played=0,
                points=[0] * n,
                point_cards=[0] * n,
                tricks_won=[0] * n,
                kitty=0,
            )
            play_numbers(table, pos, numbers.reader(), arm.plan, NOISE, me, None, True)
            arm.values.append(score(pos))
        used += len(active)
        index += 1
        if index >= least and index % 4 == 0:
            race(arms, drop_z)
    return arms


__all__ = ["can_search_pass", "evaluate_passes", "pass_candidates", "pass_danger", "pass_faces"]
