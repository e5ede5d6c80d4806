"""Random: a uniformly random legal card and a random pass; the floor of every benchmark."""

from __future__ import annotations

from ..cards import Card, cards_of
from ..view import PlayerView
from .base import BasePlayer


class RandomPlayer(BasePlayer):
    level = "random"

    def pick_pass(self, view: PlayerView) -> list[Card]:
        return self.rng_for(view, "pass").sample(view.hand, view.cards_to_pass)

    def pick_play(self, view: PlayerView) -> Card:
        return self.rng_for(view, "play").choice(cards_of(view.legal_mask))
