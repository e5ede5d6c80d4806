"""Easy: plays legally and plainly, and makes the mistakes a beginner makes.

It passes its three highest cards whatever they are, plays under the winning card when it
notices it can, dumps its highest card when void, and now and then simply plays a card at
random from the legal ones (about one play in four).
"""

from __future__ import annotations

from ..cards import CARDS, Card, cards_of
from ..view import PlayerView
from .base import BasePlayer
from .tracking import SUIT_FACES, Knowledge, card_for_face, highest, lowest

MISTAKE_RATE = 0.25


class EasyPlayer(BasePlayer):
    level = "easy"

    def pick_pass(self, view: PlayerView) -> list[Card]:
        # Beginners pass the biggest cards: aces and kings, whatever the suit.
        by_rank = sorted(view.hand, key=lambda c: (c.rank, c.suit), reverse=True)
        return by_rank[: view.cards_to_pass]

    def pick_play(self, view: PlayerView) -> Card:
        legal = cards_of(view.legal_mask)
        rng = self.rng_for(view, "play")
        if len(legal) == 1 or rng.random() < MISTAKE_RATE:
            return rng.choice(legal)
        know = Knowledge.from_view(view)
        return CARDS[card_for_face(view.legal_mask, _plain_choice(know))]


def _plain_choice(know: Knowledge) -> int:
    legal = know.legal
    if not know.trick:
        return min((f for f in range(52) if legal >> f & 1), key=lambda f: (f % 13, f))
    led = know.trick[0][1] // 13
    follow = legal & SUIT_FACES[led]
    if not follow:
        return max((f for f in range(52) if legal >> f & 1), key=lambda f: (f % 13, f))
    winner = know.winning_face()
    if winner is None:
        return lowest(follow)  # every card so far cancelled: nothing to duck under
    below = follow & ((1 << winner) - 1)
    return highest(below) if below else lowest(follow)
