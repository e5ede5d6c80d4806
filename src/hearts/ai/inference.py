"""Inference: favour sampled deals in which the rivals' past plays make sense.

A sampled deal gives every rival a hand now; with the cards each has played since a trick,
that is its hand at each of its past plays. Medium's rules (the playout's policy) are asked
which card that rival would have played there, seeing only what it could see then (its own
hand in that deal, the cards played before, the voids shown before, the points taken). A
play where medium's card is the one played (or plays alike with it: touching cards of a suit
once the cards between them are gone) agrees; any other disagrees, and the deal's weight is
``epsilon`` to the number of disagreements. Forced plays (one legal card, or cards that
all play alike) agree in every deal and tell nothing. Leads are not read unless asked
(`leads`): they cost as much again as the follows and discards together and brought the
deals little nearer the truth (`benchmarks/inference_check.py`).

The search then draws `pool` deals for each one it uses and keeps one of them with odds in
proportion to its weight (`Inference.pick`): deals where a rival's ducks and discards look
like a sound player's are favoured, without ever ruling a deal out (hard agrees with
medium's card in about 63% of its decisions, so a disagreement is common and ``epsilon``
is tempered). Two other models are kept for the diagnostic: "kind" (a card that does what
medium's would, ducking, going over, a heart discarded, agrees too) and "agreement" (a
play of medium's card is as likely as hard plays it, any other option shares the rest).

Everything read is in the searching seat's view: the cards played, by whom and when. One
deck only, no kitty (elsewhere every deal weighs the same).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import DECK_SIZE, HEARTS_MASK, QUEEN_MASK, parse_card
from ..legality import legal_mask
from ..view import PlayerView
from .medium import choose_play_face
from .tracking import (
    HEARTS_FACES,
    HIGH_SPADES,
    POINT_FACES,
    QUEEN,
    SUIT_FACES,
    Knowledge,
    bonus_face,
    dealt_faces,
)

ALL_FACES = (1 << 52) - 1

EPSILON = 0.4
"""The weight of a deal for each play in it that medium would not have made."""
POOL = 4
"""Deals drawn for each deal the search uses."""
AGREEMENT = (0.47, 0.75, 0.59)
"""How often hard plays medium's card when it leads, follows and discards
(`benchmarks/playout_agreement.py`, docs/ai.md): the "agreement" model's chance that a
rival plays medium's card; otherwise it plays any other option alike."""


@dataclass(frozen=True, slots=True)
class _Play:
    """One rival play as the searching seat saw it, with what that rival knew then."""

    seat: int
    face: int
    later: int
    """Faces this seat played from this play on, this one included: its hand then is its
    hand now (in a sampled deal) and these."""
    before: int
    """Faces played before this one, the trick's earlier cards included."""
    trick: tuple[tuple[int, int], ...]
    voids: tuple[int, ...]
    taken: tuple[int, ...]
    first_trick: bool
    hearts_broken: bool
    relevant: int
    """The cards of a hand medium's choice here depends on: the suit led and the Q♠ for a
    follow (`medium.choose_follow` reads no other), every card for a lead or a discard."""


def past_plays(view: PlayerView, leads: bool = False) -> list[_Play]:
    """Every play by another seat this round (its leads too with `leads`), in order, with
    what that seat knew then."""
    rules = view.rules
    n = rules.players
    tricks: list[tuple[Sequence[tuple[int, int]], int, int, bool]] = [
        (
            [(s, c % DECK_SIZE) for s, c in t.plays],
            t.winner,
            sum(1 << (c % DECK_SIZE) for c in t.carried),
            t.held_over,
        )
        for t in view.tricks
    ]
    if view.trick:
        tricks.append(([(s, c % DECK_SIZE) for s, c in view.trick], -1, 0, True))
    voids = [0] * n
    taken = [0] * n
    before = 0
    broken = False
    raw: list[
        tuple[
            int, int, int, tuple[tuple[int, int], ...], bool, bool, tuple[int, ...], tuple[int, ...]
        ]
    ] = []
    for number, (plays, winner, carried, held_over) in enumerate(tricks):
        led = plays[0][1] // 13
        for i, (seat, face) in enumerate(plays):
            if seat != view.seat and (i or leads):
                raw.append(
                    (
                        seat,
                        face,
                        before,
                        tuple(plays[:i]),
                        number == 0,
                        broken,
                        tuple(voids),
                        tuple(taken),
                    )
                )
            before |= 1 << face
            if face // 13 != led:
                voids[seat] |= 1 << led
            if (1 << face) & HEARTS_MASK or (
                rules.queen_breaks_hearts and (1 << face) & QUEEN_MASK
            ):
                broken = True
        if not held_over:
            mask = carried
            for _, face in plays:
                mask |= 1 << face
            taken[winner] |= mask & POINT_FACES
    result = []
    later = [0] * n
    for seat, face, before_mask, trick, first, was_broken, voids_then, taken_then in reversed(raw):
        later[seat] |= 1 << face
        follows = bool(trick) and face // 13 == trick[0][1] // 13
        relevant = SUIT_FACES[face // 13] | QUEEN if follows else ALL_FACES
        result.append(
            _Play(
                seat,
                face,
                later[seat],
                before_mask,
                trick,
                voids_then,
                taken_then,
                first,
                was_broken,
                relevant,
            )
        )
    result.reverse()
    return result


def _kind(face: int, play: _Play) -> int:
    """What a card does in a play, coarsely: following, it ducks (0), goes over (1) or is
    the Q♠ (2); discarding, it is the Q♠ (2), the A♠ or K♠ (3), a heart (4) or another
    card (5); a lead is its suit (6 to 9)."""
    bit = 1 << face
    if bit & QUEEN:
        return 2
    if not play.trick:
        return 6 + face // 13
    led = play.trick[0][1] // 13
    if face // 13 == led:
        best = max(f for _, f in play.trick if f // 13 == led)
        return 0 if face < best else 1
    if bit & HIGH_SPADES:
        return 3
    return 4 if bit & HEARTS_FACES else 5


class Inference:
    """Weighs sampled deals by how well the rivals' past plays fit medium's rules."""

    def __init__(
        self,
        view: PlayerView,
        epsilon: float = EPSILON,
        pool: int = POOL,
        model: str = "flat",
        leads: bool = False,
    ) -> None:
        rules = view.rules
        self.rules = rules
        self.epsilon = epsilon
        self.pool = pool
        self.active = rules.decks == 1 and not rules.kitty and pool > 1
        self.plays = past_plays(view, leads) if self.active else []
        self.dealt = dealt_faces(rules)
        self.opening = 1 << parse_card(rules.opening_card)
        self.special = QUEEN | bonus_face(rules)
        self.model = model
        self._cache: dict[tuple[int, int], float] = {}

    def weight(self, hands: Sequence[int]) -> float:
        """How likely the rivals' past plays are in this deal (up to a constant factor)."""
        weight = 1.0
        cache = self._cache
        for index, play in enumerate(self.plays):
            hand = hands[play.seat] | play.later
            # A follow depends on the hand's cards of the suit led and the Q♠ only.
            key = (index, hand & play.relevant)
            factor = cache.get(key)
            if factor is None:
                factor = cache[key] = self._likelihood(play, hand)
            weight *= factor
        return weight

    def _likelihood(self, play: _Play, hand: int) -> float:
        """The chance of this play with this hand, up to a factor common to every deal."""
        options, fits = self._fits(play, hand)
        if options <= 1:
            return 1.0
        if self.model != "agreement":
            return 1.0 if fits else self.epsilon
        agree = AGREEMENT[
            0 if not play.trick else 1 if play.face // 13 == play.trick[0][1] // 13 else 2
        ]
        return agree if fits else (1.0 - agree) / (options - 1)

    def _fits(self, play: _Play, hand: int) -> tuple[int, bool]:
        rules = self.rules
        legal = legal_mask(
            rules,
            hand,
            [face for _, face in play.trick],
            play.first_trick,
            play.hearts_broken,
            self.opening,
        )
        if not legal >> play.face & 1:
            return 1, False  # cannot happen in a consistent deal
        if not legal & (legal - 1):
            return 1, True
        gone = hand | play.before
        know = Knowledge(
            seat=play.seat,
            players=rules.players,
            rules=rules,
            hand=hand,
            legal=legal,
            played=play.before,
            unseen=self.dealt & ~hand & ~play.before,
            voids=list(play.voids),
            known=[0] * rules.players,
            taken=list(play.taken),
            trick=list(play.trick),
            first_trick=play.first_trick,
        )
        options = self._runs(legal, gone)
        if options <= 1:
            return options, True
        chosen = choose_play_face(know)
        if self._alike(chosen, play.face, gone):
            return options, True
        if self.model == "kind":
            return options, _kind(chosen, play) == _kind(play.face, play)
        return options, False

    def _runs(self, legal: int, gone: int) -> int:
        """How many runs of cards that play alike the legal cards make."""
        runs = 0
        previous = -1
        special = self.special
        for face in range(52):
            if not legal >> face & 1:
                continue
            if not (
                previous >= 0
                and previous // 13 == face // 13
                and not (special >> face & 1 or special >> previous & 1)
                and self._alike(previous, face, gone)
            ):
                runs += 1
            previous = face
        return runs

    def _alike(self, a: int, b: int, gone: int) -> bool:
        if a == b:
            return True
        if a // 13 != b // 13 or (self.special >> a | self.special >> b) & 1:
            return False
        low, high = min(a, b), max(a, b)
        between = ((1 << high) - 1) & ~((1 << (low + 1)) - 1)
        return between & ~gone == 0

    def pick(
        self, deals: Sequence[tuple[list[int], int]], rng: random.Random
    ) -> tuple[list[int], int]:
        """One of `deals`, with odds in proportion to each one's weight."""
        weights = [self.weight(hands) for hands, _ in deals]
        point = rng.random() * sum(weights)
        for deal, weight in zip(deals, weights, strict=True):
            if point < weight:
                return deal
            point -= weight
        return deals[-1]


__all__ = ["EPSILON", "POOL", "Inference", "past_plays"]
