"""The hard player's playout: a round played to its end on raw masks by a heuristic policy.

One deck (faces 0..51), any house rule: legality comes from `hearts.playout.legal_mask`
(or the same shortcut `hearts.playout.random_playout` takes for the common rules), so it
stays exactly the engine's. Every seat plays the medium heuristics in their fast form,
with a little noise; a seat told to shoot takes every trick it can and discards no points,
and the others then stop a moon the way medium does: they keep points off the shooter's
tricks and take a point trick from it when they can.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from hearts.cards import parse_card
from hearts.playout import PlayoutState, legal_mask
from hearts.rules import Rules

from .tracking import HEARTS_FACES, HIGH_SPADES, POINT_FACES, QUEEN, SUIT_FACES, dealt_faces

SPADE_FACES = SUIT_FACES[3]
NOISE = 0.06


@dataclass(frozen=True, slots=True)
class Table:
    """Facts about the rules that the playout reads many times."""

    rules: Rules
    players: int
    simple: bool
    queen_breaks: bool
    bonus: int
    points_dealt: int
    opening: int

    @staticmethod
    @functools.lru_cache(maxsize=64)
    def of(rules: Rules) -> Table:
        simple = not (
            rules.queen_at_first_chance
            or rules.points_on_first_trick
            or rules.first_lead != "two-of-clubs"
            or rules.lead_hearts_instead_of_queen
            or not rules.must_break_hearts
        )
        bonus = 0 if rules.bonus_card is None else 1 << parse_card(rules.bonus_card)
        return Table(
            rules=rules,
            players=rules.players,
            simple=simple,
            queen_breaks=rules.queen_breaks_hearts,
            bonus=bonus,
            points_dealt=dealt_faces(rules) & POINT_FACES,
            opening=1 << parse_card(rules.opening_card),
        )


@dataclass(slots=True)
class Position:
    """A round part-way through, every hand known (one sampled deal)."""

    hands: list[int]
    trick: list[int]
    leader: int
    first_trick: bool
    hearts_broken: bool
    played: int
    points: list[int]
    """Points taken so far, the bonus card included."""
    point_cards: list[int]
    """Point cards taken so far, to tell a moon."""
    tricks_won: list[int]
    kitty: int
    """The hidden kitty, or 0 once taken (or without one)."""

    def copy(self) -> Position:
        return Position(
            self.hands.copy(),
            self.trick.copy(),
            self.leader,
            self.first_trick,
            self.hearts_broken,
            self.played,
            self.points.copy(),
            self.point_cards.copy(),
            self.tricks_won.copy(),
            self.kitty,
        )


def _highest(mask: int) -> int:
    return 1 << (mask.bit_length() - 1)


def _top_rank(mask: int) -> int:
    """The bit of the highest-ranked card in a mask, whatever its suit (spades win ties)."""
    best = 0
    best_rank = -1
    for suit in range(4):
        cards = mask & SUIT_FACES[suit]
        if cards:
            rank = cards.bit_length() - 1 - 13 * suit
            if rank >= best_rank:
                best, best_rank = 1 << (cards.bit_length() - 1), rank
    return best


def _low_rank(mask: int) -> int:
    best = 0
    best_rank = 99
    for suit in range(4):
        cards = mask & SUIT_FACES[suit]
        if cards:
            low = cards & -cards
            rank = low.bit_length() - 1 - 13 * suit
            if rank < best_rank:
                best, best_rank = low, rank
    return best


def _lead(hand: int, allowed: int, played: int, shooting: bool) -> int:
    if shooting:
        return _top_rank(allowed & ~HEARTS_FACES or allowed)
    queen_out = not played & QUEEN
    candidates = allowed
    if queen_out:
        risky = QUEEN if hand & QUEEN else HIGH_SPADES
        if candidates & ~risky:
            candidates &= ~risky
    unknown = ~played & ~hand
    best = 0
    best_key = 99.0
    for suit in range(4):
        cards = candidates & SUIT_FACES[suit]
        if not cards:
            continue
        low = cards & -cards
        outstanding = unknown & SUIT_FACES[suit]
        if not outstanding:
            key = 50.0  # nobody can follow: we win and everyone discards on us
        else:
            below = (outstanding & (low - 1)).bit_count()
            key = below + (0.5 if suit == 2 else 0.0)
            if suit == 3 and queen_out and not hand & (QUEEN | HIGH_SPADES):
                key -= 0.5
        if key < best_key:
            best, best_key = low, key
    return best


def _follow(follow: int, best: int, last: bool, first: bool, block: bool) -> int:
    """A card of the suit led; `best` is the bit of the card winning so far."""
    if follow & QUEEN and best & HIGH_SPADES:
        return QUEEN
    below = follow & (best - 1)
    if block:
        above = follow & ~below & ~QUEEN
        if above:
            return above & -above
    if below:
        return _highest(below)
    if last or first:
        safe = follow & ~QUEEN or follow
        return _highest(safe)
    return follow & -follow


def _discard(allowed: int, hand: int, played: int, feeding_shooter: bool) -> int:
    if feeding_shooter and allowed & ~POINT_FACES:
        return _top_rank(allowed & ~POINT_FACES)
    if allowed & QUEEN:
        return QUEEN
    if allowed & HIGH_SPADES and not played & QUEEN and not hand & QUEEN:
        return _highest(allowed & HIGH_SPADES)
    hearts = allowed & HEARTS_FACES
    if hearts:
        return _highest(hearts)
    return _top_rank(allowed)


def _moon_threat(point_cards: list[int], shooter: int) -> int:
    """The seat everyone else should stop, or -1: the planned shooter, or a seat holding every
    point taken so far and plenty of them."""
    if shooter >= 0:
        holders = [s for s, m in enumerate(point_cards) if m]
        return shooter if len(holders) <= 1 and (not holders or holders[0] == shooter) else -1
    holder = -1
    for seat, mask in enumerate(point_cards):
        if mask:
            if holder >= 0:
                return -1
            holder = seat
    if holder >= 0:
        taken = point_cards[holder]
        hearts = (taken & HEARTS_FACES).bit_count()
        if hearts >= 6 or (taken & QUEEN and hearts >= 3):
            return holder
    return -1


def play_out(
    table: Table,
    pos: Position,
    rng: random.Random,
    shooter: int = -1,
    noise: float = NOISE,
    planner: int = -1,
    record: list[int] | None = None,
) -> Position:
    """Play `pos` (changed in place) to the end of the round and return it.

    `shooter` is a seat that plays for the moon (-1 for none). A seat other than `planner`
    (the seat searching) that has every point so far and plenty of them plays for the moon
    too, so that the search sees a rival's moon coming. `record`, if given, gets every
    card played, in order (the tests replay them through `Round`).
    """
    n = table.players
    simple = table.simple
    rules = table.rules
    bonus = table.bonus
    queen_breaks = table.queen_breaks
    opening = table.opening
    hands = pos.hands
    trick = pos.trick
    rand = rng.random
    state = PlayoutState(rules, hands, pos.leader, trick, pos.first_trick, pos.hearts_broken, [])
    state.opening = opening
    leader = pos.leader
    first = pos.first_trick
    broken = pos.hearts_broken
    played = pos.played
    while trick or hands[leader]:
        threat = _moon_threat(pos.point_cards, shooter)
        going_for_moon = shooter if shooter >= 0 or threat == planner else threat
        seat = (leader + len(trick)) % n
        trick_mask = 0
        best = 0
        best_seat = leader
        led_suit = SUIT_FACES[trick[0] // 13] if trick else 0
        for i, c in enumerate(trick):
            bit = 1 << c
            trick_mask |= bit
            if bit & led_suit and bit > best:
                best, best_seat = bit, (leader + i) % n
        while len(trick) < n:
            hand = hands[seat]
            if simple:
                if trick:
                    allowed = hand & led_suit or hand
                    if first and allowed & ~POINT_FACES:
                        allowed &= ~POINT_FACES
                elif first:
                    allowed = opening if hand & opening else hand
                    if allowed & ~POINT_FACES:
                        allowed &= ~POINT_FACES
                elif not broken and hand & ~HEARTS_FACES:
                    allowed = hand & ~HEARTS_FACES
                else:
                    allowed = hand
            else:
                state.trick, state.first_trick, state.hearts_broken = trick, first, broken
                allowed = legal_mask(state, hand)
            if not allowed & (allowed - 1):
                bit = allowed
            elif rand() < noise and seat != shooter:
                bits = allowed
                for _ in range(int(rand() * allowed.bit_count())):
                    bits &= bits - 1
                bit = bits & -bits
            elif not trick:
                bit = _lead(hand, allowed, played, seat == going_for_moon)
            elif seat == going_for_moon:
                follow = allowed & led_suit
                bit = _highest(follow) if follow else _low_rank(allowed & ~POINT_FACES or allowed)
            else:
                follow = allowed & led_suit
                stopping = threat >= 0 and threat != seat and best_seat == threat
                if follow:
                    block = stopping and bool(trick_mask & POINT_FACES or follow & HEARTS_FACES)
                    bit = _follow(follow, best, len(trick) == n - 1, first, block)
                else:
                    bit = _discard(allowed, hand, played, stopping)
            card = bit.bit_length() - 1
            hands[seat] = hand & ~bit
            if not trick:
                led_suit = SUIT_FACES[card // 13]
                best, best_seat = bit, seat
            elif bit & led_suit and bit > best:
                best, best_seat = bit, seat
            trick.append(card)
            if record is not None:
                record.append(card)
            trick_mask |= bit
            played |= bit
            if not broken and (bit & HEARTS_FACES or (queen_breaks and bit & QUEEN)):
                broken = True
            seat = (seat + 1) % n
        winner = best_seat
        pos.tricks_won[winner] += 1
        if trick_mask & POINT_FACES:
            pos.points[winner] += (trick_mask & HEARTS_FACES).bit_count() + (
                13 if trick_mask & QUEEN else 0
            )
            pos.point_cards[winner] |= trick_mask & POINT_FACES
            if pos.kitty:
                kitty = pos.kitty
                pos.kitty = 0
                pos.points[winner] += (kitty & HEARTS_FACES).bit_count() + (
                    13 if kitty & QUEEN else 0
                )
                pos.point_cards[winner] |= kitty & POINT_FACES
                if kitty & bonus:
                    pos.points[winner] -= 10
        if trick_mask & bonus:
            pos.points[winner] -= 10
        trick.clear()
        leader = winner
        first = False
    pos.leader = leader
    pos.first_trick = first
    pos.hearts_broken = broken
    pos.played = played
    return pos
