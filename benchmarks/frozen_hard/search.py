"""Hard: Monte Carlo search over deals consistent with what the seat knows (PIMC).

For each decision it samples hidden hands (`sampling`), plays every candidate card in each
sampled deal and finishes the round with the heuristic playout (`rollout`), the same random
numbers for every candidate so that they are compared on equal terms, and plays the card with
the best average result. Cards that cannot differ in effect (touching cards of a suit, once
the cards between them are gone) are one candidate.

The result of a playout is the seat's score for the round (moon rules applied) minus a share
of its rivals' scores, plus a large term when the round ends the game: winning it, or losing
it, outweighs a few points. So near the target it plays for the win, not for points alone.

When nobody else has taken a point and the hand looks strong, it also tries the plan of
shooting the moon (playing its own future cards to take everything) and keeps that plan if
it averages better. Two-deck games fall back to the medium heuristics.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from hearts.cards import CARDS, Card
from hearts.scoring import team_of
from hearts.view import PlayerView

from .medium import MediumPlayer, choose_play_face
from .rollout import Position, Table, play_out
from .sampling import sample_deal
from .tracking import (
    HEARTS_FACES,
    POINT_FACES,
    QUEEN,
    SUIT_FACES,
    Knowledge,
    bonus_face,
    card_for_face,
    fold,
)

DEFAULT_PLAYOUTS = 1000
"""Playouts per decision when no budget is given (a median of about 50 ms a decision here)."""
MIN_SAMPLES = 8
RIVAL_WEIGHT = 0.3
GAME_END_WEIGHT = 30.0


@dataclass(slots=True)
class Outcome:
    """The totals of one candidate over the deals tried."""

    total: float = 0.0
    count: int = 0

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0


class HardPlayer(MediumPlayer):
    """Searches deals sampled from what it knows; `budget` is playouts (int) or seconds (float)."""

    level = "hard"

    def pick_pass(self, view: PlayerView) -> list[Card]:
        hand = fold(view.hand_mask)
        if view.rules.decks != 1 or not is_moon_hand(hand):
            return super().pick_pass(view)
        # Going for the moon: keep the hearts and the high cards, pass the low cards that
        # would hand the lead away (lowest rank first, spades last: they guard the queen).
        order = sorted(
            (f for f in range(52) if hand >> f & 1 and not (1 << f) & HEARTS_FACES),
            key=lambda f: (f % 13, f // 13 == 3, f),
        )
        return [CARDS[f] for f in order[: view.cards_to_pass]]

    def pick_play(self, view: PlayerView) -> Card:
        legal = view.legal_mask
        if not legal & (legal - 1):
            return CARDS[legal.bit_length() - 1]
        know = Knowledge.from_view(view)
        if view.rules.decks != 1:
            return CARDS[card_for_face(legal, choose_play_face(know))]
        candidates = distinct_candidates(know)
        if len(candidates) == 1:
            return CARDS[card_for_face(legal, candidates[0])]
        return CARDS[self._search(view, know, candidates)]

    def _search(self, view: PlayerView, know: Knowledge, candidates: list[int]) -> int:
        rng = self.rng_for(view, "play")
        table = Table.of(view.rules)
        base = _position(view, know)
        plans = [-1, view.seat] if _moon_possible(know, view) else [-1]
        results = {(plan, c): Outcome() for plan in plans for c in candidates}
        budget = self.budget if self.budget is not None else DEFAULT_PLAYOUTS
        deadline = time.perf_counter() + budget if isinstance(budget, float) else None
        per_sample = len(candidates) * len(plans)
        samples = max(MIN_SAMPLES, int(budget) // per_sample) if deadline is None else 1_000_000
        playout_rng = random.Random()
        kitty_size = view.kitty_size if view.rules.kitty and view.kitty_taker is None else 0
        for index in range(samples):
            if deadline is not None and index >= MIN_SAMPLES and time.perf_counter() > deadline:
                break
            hands, kitty = sample_deal(know, view.hand_sizes, kitty_size, rng)
            start = base.copy()
            start.hands = hands
            start.kitty = kitty
            playout_seed = rng.getrandbits(32)
            for plan in plans:
                for face in candidates:
                    pos = start.copy()
                    _play_card(pos, view.seat, face, table)
                    playout_rng.seed(playout_seed)
                    play_out(table, pos, playout_rng, shooter=plan, planner=view.seat)
                    outcome = results[(plan, face)]
                    outcome.total += _utility(view, table, pos)
                    outcome.count += 1
        best = min(results, key=lambda key: (results[key].mean, key[1]))
        return card_for_face(view.legal_mask, best[1])


def distinct_candidates(know: Knowledge) -> list[int]:
    """Legal faces, keeping one of each run of cards that play alike.

    Two cards of a suit play alike when every card between them is ours or already played,
    and neither is a card with its own points (the Q♠, the bonus card).
    """
    special = QUEEN | bonus_face(know.rules)
    gone = know.played | know.hand
    result: list[int] = []
    for suit in range(4):
        cards = [f for f in range(13 * suit, 13 * suit + 13) if know.legal >> f & 1]
        previous = -1
        for face in cards:
            same_run = (
                previous >= 0
                and not (special >> face & 1 or special >> previous & 1)
                and all(gone >> f & 1 for f in range(previous + 1, face))
            )
            if not same_run:
                result.append(face)
            previous = face
    return result


def _position(view: PlayerView, know: Knowledge) -> Position:
    wins = [0] * view.rules.players
    for trick in view.tricks:
        wins[trick.winner] += 1
    return Position(
        hands=[],
        trick=[card % 52 for _, card in view.trick],
        leader=view.leader,
        first_trick=not view.tricks,
        hearts_broken=view.hearts_broken,
        played=know.played,
        points=list(view.points_taken),
        point_cards=list(know.taken),
        tricks_won=wins,
        kitty=0,
    )


def _play_card(pos: Position, seat: int, face: int, table: Table) -> None:
    bit = 1 << face
    pos.hands[seat] &= ~bit
    pos.trick.append(face)
    pos.played |= bit
    if bit & HEARTS_FACES or (table.queen_breaks and bit & QUEEN):
        pos.hearts_broken = True


def is_moon_hand(hand: int) -> bool:
    """A hand worth passing for the moon: long, high hearts and aces to keep the lead."""
    hearts = hand & HEARTS_FACES
    top_hearts = (hearts >> 35).bit_count()  # jack of hearts and up
    aces = sum(hand >> (13 * s + 12) & 1 for s in (0, 1, 3))
    return hearts.bit_count() >= 6 and top_hearts >= 3 and aces >= 2


def _moon_possible(know: Knowledge, view: PlayerView) -> bool:
    """Worth searching a moon plan: no rival has a point, and the hand is strong."""
    mine = team_of(view.rules, view.seat)
    if any(know.taken[s] & POINT_FACES for s in range(know.players) if s not in mine):
        return False
    hand = know.hand
    high = sum(((hand & SUIT_FACES[s]) >> (13 * s + 9)).bit_count() for s in range(4))
    high_hearts = ((hand & HEARTS_FACES) >> 34).bit_count()  # ten of hearts and up
    taken = sum((know.taken[s] & POINT_FACES).bit_count() for s in mine)
    return high + high_hearts >= 7 or (taken >= 5 and high >= 3)


def round_scores(table: Table, pos: Position, totals: tuple[int, ...]) -> list[int]:
    """What each seat adds to its total for the round in `pos` (finished), moons included."""
    rules = table.rules
    n = table.players
    points = pos.points
    teams = [team_of(rules, s) for s in range(n)]
    team_points = [sum(points[m] for m in teams[s]) for s in range(n)]
    shooter = -1
    for seat in range(2 if rules.partnership else n):
        taken = 0
        for member in teams[seat]:
            taken |= pos.point_cards[member]
        if taken == table.points_dealt:
            shooter = seat
            break
    if shooter < 0:
        return team_points
    shooters = teams[shooter]
    raw = [
        (pos.point_cards[s] & HEARTS_FACES).bit_count() + 13 * bool(pos.point_cards[s] & QUEEN)
        for s in range(n)
    ]
    bonus = [sum(points[m] - raw[m] for m in teams[s]) for s in range(n)]
    sun = rules.shoot_the_sun and sum(pos.tricks_won[m] for m in shooters) == rules.hand_size
    amount = rules.round_points * (2 if sun else 1)
    added = [bonus[s] + (0 if s in shooters else amount) for s in range(n)]
    subtracted = [bonus[s] - (amount if s in shooters else 0) for s in range(n)]
    rule = rules.moon_rule
    if rule == "add":
        return added
    if rule == "subtract":
        return subtracted
    after_add = [t + a for t, a in zip(totals, added, strict=True)]
    if rule == "choose":
        after_sub = [t + a for t, a in zip(totals, subtracted, strict=True)]

        def margin(after: list[int]) -> int:
            return min(t for s, t in enumerate(after) if s not in shooters) - after[shooter]

        return added if margin(after_add) >= margin(after_sub) else subtracted
    ends = max(after_add) >= rules.target_score
    return subtracted if ends and after_add[shooter] > min(after_add) else added


def _utility(view: PlayerView, table: Table, pos: Position) -> float:
    """Lower is better: our score for the round, less a share of the rivals', and a large
    reward or penalty when the round ends the game."""
    rules = table.rules
    me = view.seat
    scores = round_scores(table, pos, view.scores)
    mine = team_of(rules, me)
    rivals = [s for s in range(table.players) if s not in mine]
    value = scores[me] - RIVAL_WEIGHT * sum(scores[s] for s in rivals) / len(rivals)
    after = [t + s for t, s in zip(view.scores, scores, strict=True)]
    if max(after) >= rules.target_score:
        best_rival = min(after[s] for s in rivals)
        value += -GAME_END_WEIGHT if after[me] <= best_rival else GAME_END_WEIGHT
    return value
