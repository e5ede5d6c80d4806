"""What every computer player has in common: the `Player` protocol, seeding, the moon choice.

A player's decisions depend only on (level, seed, budget) and the `PlayerView` it is given:
each decision seeds its own random generator from the seed and the view, so a player rebuilt
in another process (the web game's pool) decides exactly as the original would.
"""

from __future__ import annotations

import random
from typing import ClassVar, Protocol, runtime_checkable

from ..cards import Card, points_of
from ..rules import Rules
from ..scoring import MoonChoice, bonus_copies, score_points, team_of
from ..view import PlayerView


@runtime_checkable
class Player(Protocol):
    """A computer player. It sees a seat's `PlayerView` and nothing else."""

    level: str

    def choose_pass(self, view: PlayerView) -> list[Card]:
        """The cards to pass (``view.cards_to_pass`` of them, from ``view.hand``)."""
        ...

    def choose_play(self, view: PlayerView) -> Card:
        """A legal card to play (one of ``view.legal``); only asked on the seat's turn."""
        ...

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        """ "add" or "subtract": how to score the moon this seat just shot ("choose" rule)."""
        ...


class BasePlayer:
    """Seeding and the moon choice, shared by all levels."""

    level = "base"
    #: What of this level knows only one deck (its search, its plan to shoot the moon), so
    #: that with two (6 to 10 players) it plays as medium; None when it plays as itself.
    one_deck_only: ClassVar[str | None] = None

    @classmethod
    def plays_as_medium(cls, rules: Rules) -> bool:
        """Whether this level plays by medium's rules of thumb at this table."""
        return cls.one_deck_only is not None and rules.decks != 1

    def __init__(self, seed: int | str | None = None, budget: int | float | None = None) -> None:
        self.seed = seed
        self.budget = budget

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r}, budget={self.budget!r})"

    def rng_for(self, view: PlayerView, purpose: str) -> random.Random:
        """A generator for one decision: the same seed and view always give the same one."""
        if self.seed is None:
            return random.Random()
        key = (
            f"{self.level}|{self.seed}|{purpose}|{view.seat}|{view.hand_number}|"
            f"{view.hand_mask}|{view.played_mask}|{len(view.trick)}|{view.scores}"
        )
        return random.Random(key)

    def choose_pass(self, view: PlayerView) -> list[Card]:
        if view.phase != "passing" or view.passed_mask is not None:
            raise ValueError("This seat has nothing to pass now.")
        if view.cards_to_pass == 0:
            return []
        return self.pick_pass(view)

    def choose_play(self, view: PlayerView) -> Card:
        if not view.legal_mask:
            raise ValueError("This seat has no card to play now; ask on its turn.")
        return self.pick_play(view)

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return choose_moon(view)

    def pick_pass(self, view: PlayerView) -> list[Card]:
        """The level's pass; `choose_pass` has checked that one is due."""
        raise NotImplementedError

    def pick_play(self, view: PlayerView) -> Card:
        """The level's card; `choose_play` has checked that it is the seat's turn."""
        raise NotImplementedError


def choose_moon(view: PlayerView) -> MoonChoice:
    """How `view.seat`, who shot the moon, scores it under "choose": the same judgement
    `hearts.scoring` makes for a shooter who is not asked (win the game outright if an
    option does, avoid one that ends it with the shooter losing, otherwise add)."""
    rules = view.rules
    n = rules.players
    shooters = team_of(rules, view.seat)
    taken = [0] * n
    won_every_trick = bool(view.tricks)
    for trick in view.tricks:
        if trick.held_over:
            continue
        for _, card in trick.plays:
            taken[trick.winner] |= 1 << card
        for card in trick.carried:
            taken[trick.winner] |= 1 << card
        won_every_trick = won_every_trick and trick.winner in shooters
    if view.kitty_taker is not None:
        taken[view.kitty_taker] |= view.kitty_mask
    result = score_points(
        rules,
        view.scores,
        [points_of(mask) for mask in taken],
        [bonus_copies(rules, mask) for mask in taken],
        shooter=shooters[0],
        sun=won_every_trick,
    )
    return result.moon_choice or "add"
