"""An exact solver for the last tricks of one deal with every hand known (expert only).

Each seat plays to make its own result best (max^n): the result of a seat is the one the
search uses for itself (`search.utility`: its score for the round with moons applied, less a
share of its rivals', and the game-end term), so a seat that can still shoot the moon will,
and the others stop it when they can. Cards that play alike (touching cards of a suit, once
the cards between them are gone, the Q♠ and the bonus card always apart) are tried once, and
positions met again are looked up in a table. One deck, no pending kitty.
"""

from __future__ import annotations

from collections.abc import Callable

from ..legality import legal_mask
from .rollout import Position, Table
from .tracking import HEARTS_FACES, POINT_FACES, QUEEN, SUIT_FACES

Leaf = Callable[[Position], tuple[float, ...]]


def _moves(allowed: int, gone: int, special: int) -> list[int]:
    """The legal faces, lowest of each run of cards that play alike."""
    moves: list[int] = []
    previous = -2
    bits = allowed
    while bits:
        low = bits & -bits
        face = low.bit_length() - 1
        bits ^= low
        alike = (
            previous >= 0
            and face // 13 == previous // 13
            and not (special >> face & 1 or special >> previous & 1)
            and (gone >> (previous + 1)) & ((1 << (face - previous - 1)) - 1)
            == (1 << (face - previous - 1)) - 1
        )
        if not alike:
            moves.append(face)
        previous = face
    return moves


class Solver:
    """Solves positions of one rules table; `leaf` scores a finished round for every seat."""

    def __init__(self, table: Table, leaf: Leaf) -> None:
        self.table = table
        self.leaf = leaf
        self.special = QUEEN | table.bonus
        self.memo: dict[tuple[object, ...], tuple[float, ...]] = {}
        self.nodes = 0

    def solve(self, pos: Position) -> tuple[float, ...]:
        """Every seat's result of `pos` played perfectly from here (`pos` is left as it was)."""
        return self._node(pos)

    def _allowed(self, pos: Position, hand: int) -> int:
        table = self.table
        return legal_mask(
            table.rules, hand, pos.trick, pos.first_trick, pos.hearts_broken, table.opening
        )

    def _node(self, pos: Position) -> tuple[float, ...]:
        n = self.table.players
        trick = pos.trick
        if len(trick) == n:
            return self._finish_trick(pos)
        seat = (pos.leader + len(trick)) % n
        hand = pos.hands[seat]
        if not hand:
            return self.leaf(pos)
        key = (
            tuple(pos.hands),
            tuple(trick),
            pos.leader,
            pos.hearts_broken,
            pos.first_trick,
            tuple(pos.points),
            tuple(pos.point_cards),
        )
        found = self.memo.get(key)
        if found is not None:
            return found
        self.nodes += 1
        held = 0
        for h in pos.hands:
            held |= h
        for face in trick:
            held |= 1 << face
        gone = ~held
        best: tuple[float, ...] | None = None
        broken = pos.hearts_broken
        for face in _moves(self._allowed(pos, hand), gone, self.special):
            bit = 1 << face
            pos.hands[seat] = hand & ~bit
            trick.append(face)
            if bit & HEARTS_FACES or (self.table.queen_breaks and bit & QUEEN):
                pos.hearts_broken = True
            result = self._node(pos)
            trick.pop()
            pos.hands[seat] = hand
            pos.hearts_broken = broken
            if best is None or result[seat] < best[seat]:
                best = result
        assert best is not None
        self.memo[key] = best
        return best

    def _finish_trick(self, pos: Position) -> tuple[float, ...]:
        n = self.table.players
        trick = pos.trick
        led = SUIT_FACES[trick[0] // 13]
        best_face = trick[0]
        winner_index = 0
        mask = 0
        for i, face in enumerate(trick):
            mask |= 1 << face
            if (1 << face) & led and face > best_face:
                best_face, winner_index = face, i
        winner = (pos.leader + winner_index) % n
        saved = (trick.copy(), pos.leader, pos.first_trick, pos.played)
        old_points = pos.points[winner]
        old_cards = pos.point_cards[winner]
        points = 0
        if mask & POINT_FACES:
            points += (mask & HEARTS_FACES).bit_count() + (13 if mask & QUEEN else 0)
            pos.point_cards[winner] = old_cards | (mask & POINT_FACES)
        if mask & self.table.bonus:
            points -= 10
        pos.points[winner] = old_points + points
        pos.tricks_won[winner] += 1
        trick.clear()
        pos.leader = winner
        pos.first_trick = False
        pos.played |= mask
        result = self._node(pos)
        trick.extend(saved[0])
        pos.leader, pos.first_trick, pos.played = saved[1], saved[2], saved[3]
        pos.points[winner] = old_points
        pos.point_cards[winner] = old_cards
        pos.tricks_won[winner] -= 1
        return result


__all__ = ["Solver"]
