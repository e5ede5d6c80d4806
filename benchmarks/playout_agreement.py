"""How often the playout's policy plays the card hard's search plays, and the fitted lead.

Usage: python benchmarks/playout_agreement.py [--rounds 150] [--seed agree] [--fit]

Four hard players play --rounds rounds. At every decision with a choice, the position is
kept with every hand as it really was, and the playout's policy (no random cards) is asked
the same seat's card: medium's policy (`Table.of`) and expert's (`with_fitted_leads`).
Cards that play alike count as the same. Prints the share of agreement per kind of decision
(leads, follows, discards).

--fit searches the weights of the lead's key (`rollout._fitted_lead`: unseen cards under
the card, cards held in the suit, the suit's unseen cards, hearts, spades while fishing for
the Q♠) on the leads of even-numbered decisions and reports the best on the odd ones.
"""

from __future__ import annotations

import argparse
import itertools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from hearts import PlayerView, Round, Rules
from hearts.ai import make_player
from hearts.ai.rollout import Position, Table, _lead_choices, play_numbers
from hearts.ai.search import (
    QUEEN_FACE,
    FullSearch,
    _position,
    distinct_candidates,
    representatives,
)
from hearts.ai.tracking import HEARTS_FACES, SUIT_FACES, Knowledge, fold

ALL = (1 << 52) - 1
HEARTS, SPADES = 2, 3


@dataclass
class Decision:
    pos: Position
    seat: int
    choice: int
    """The search's card, as the lowest of the cards that play alike with it."""
    alike: dict[int, int]
    round: int = 0
    """The round it was taken from (to fit on some rounds and check on others)."""
    values: dict[int, float] | None = None
    """The full search's average result (lower is better) of every distinct legal card, by
    its lowest card alike (`decisions(..., values=True)`), or None when not measured."""


def decisions(rounds: int, seed: str, values: bool = False, first: int = 0) -> Iterator[Decision]:
    """Hard's decisions with a choice in rounds `first` to `first + rounds - 1`; with
    `values`, each with the full search's value of every candidate (`search_values`)."""
    rules = Rules()
    for r in range(first, first + rounds):
        bots = [make_player("hard", seed=f"{seed}{r}:{s}") for s in range(rules.players)]
        full = [FullSearch(seed=f"{seed}{r}:{s}:full") for s in range(rules.players)]
        rnd = Round.deal(rules, f"{seed}{r}", r)
        if rnd.phase == "passing":
            for s, bot in enumerate(bots):
                rnd.give(s, bot.choose_pass(rnd.view(s)))
        while rnd.phase == "playing":
            seat = rnd.turn
            view = rnd.view(seat)
            card = bots[seat].choose_play(view)
            if view.legal_mask & (view.legal_mask - 1):
                know = Knowledge.from_view(view)
                pos = _position(view, know)
                pos.hands = [fold(rnd.hand_mask(s)) for s in range(rules.players)]
                alike = representatives(know)
                found = search_values(full[seat], view, know) if values else None
                yield Decision(pos, seat, alike[card.face], alike, r, found)
            rnd.play(card)


def search_values(search: FullSearch, view: PlayerView, know: Knowledge) -> dict[int, float]:
    """The coach's search (every candidate on the same deals, none dropped): each distinct
    card's average result, the better of its plans (with and without the moon plan), the Q♠
    weighed even where the search would not (`is_queen_gamble`)."""
    candidates = distinct_candidates(know)
    arms = search.evaluate(view, know, candidates, weigh=QUEEN_FACE)
    found: dict[int, float] = {}
    for arm in arms:
        if arm.values:
            found[arm.face] = min(found.get(arm.face, arm.mean), arm.mean)
    return found


def policy_card(table: Table, d: Decision) -> int:
    """The playout policy's card for the seat to play (the first card of a quiet playout)."""
    record: list[int] = []
    play_numbers(table, d.pos.copy(), itertools.repeat(1.0), noise=0.0, record=record)
    return d.alike.get(record[0], -1)


def kind(d: Decision) -> str:
    if not d.pos.trick:
        return "lead"
    led = SUIT_FACES[d.pos.trick[0] // 13]
    return "follow" if d.pos.hands[d.seat] & led else "discard"


def lead_with(weights: tuple[int, ...], d: Decision) -> int:
    """`_fitted_lead` with other weights (under, held, out, hearts, fishing), legality of a
    lead after the first trick (hearts only once broken or when nothing else is left)."""
    under_w, held_w, out_w, hearts_w, fishing_w = weights
    hand = d.pos.hands[d.seat]
    played = d.pos.played
    allowed = hand & ~HEARTS_FACES if not d.pos.hearts_broken and hand & ~HEARTS_FACES else hand
    candidates, fishing = _lead_choices(hand, allowed, played)
    unknown = ALL & ~(played | hand)
    best, best_key = -1, 1 << 20
    for suit in range(4):
        cards = candidates & SUIT_FACES[suit]
        if not cards:
            continue
        low = cards & -cards
        out = unknown & SUIT_FACES[suit]
        key = 1000
        if out:
            key = (
                under_w * (out & (low - 1)).bit_count()
                + held_w * (hand & SUIT_FACES[suit]).bit_count()
                - out_w * out.bit_count()
                + (hearts_w if suit == HEARTS else 0)
                - (fishing_w if fishing and suit == SPADES else 0)
            )
        if key < best_key:
            best, best_key = low.bit_length() - 1, key
    return d.alike.get(best, -1)


def fit(leads: list[Decision]) -> None:
    fitting, checking = leads[::2], leads[1::2]

    def share(weights: tuple[int, ...], part: list[Decision]) -> float:
        return sum(lead_with(weights, d) == d.choice for d in part) / len(part)

    medium = (2, 0, 0, 1, 1)  # `_lead`: doubled keys, hearts one more, fishing one fewer
    grid = itertools.product(range(4), range(4), range(3), (0, 1, 3, 6), (0, 1, 3, 6))
    ranked = sorted(((share(w, fitting), w) for w in grid), reverse=True)
    print(f"{len(fitting)} leads to fit, {len(checking)} to check (first trick left out)")
    print(f"  medium's key {medium}: {share(medium, fitting):.1%} / {share(medium, checking):.1%}")
    for fitted, weights in ranked[:5]:
        print(f"  {weights}: {fitted:.1%} / {share(weights, checking):.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=150)
    parser.add_argument("--seed", default="agree")
    parser.add_argument("--fit", action="store_true")
    args = parser.parse_args()
    seen = list(decisions(args.rounds, args.seed))
    base = Table.of(Rules())
    for name, table in (("medium's", base), ("fitted leads", base.with_fitted_leads())):
        right: Counter[str] = Counter()
        total: Counter[str] = Counter()
        for d in seen:
            total[kind(d)] += 1
            right[kind(d)] += policy_card(table, d) == d.choice
        parts = ", ".join(f"{k} {right[k] / total[k]:.1%} of {total[k]}" for k in sorted(total))
        print(f"{name}: {sum(right.values()) / len(seen):.1%} of {len(seen)} ({parts})")
    if args.fit:
        fit([d for d in seen if kind(d) == "lead" and not d.pos.first_trick])


if __name__ == "__main__":
    main()
