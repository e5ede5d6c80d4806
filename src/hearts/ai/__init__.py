"""Computer players.

>>> from hearts import Round, Rules
>>> from hearts.ai import make_player
>>> rnd = Round.deal(Rules(), seed=1, hand_number=0)
>>> players = [make_player("medium", seed=s) for s in range(4)]
>>> for seat, player in enumerate(players):
...     rnd.give(seat, player.choose_pass(rnd.view(seat)))
>>> while rnd.phase == "playing":
...     rnd.play(players[rnd.turn].choose_play(rnd.view(rnd.turn)))
>>> sum(rnd.points_taken)
26

Levels: "easy", "medium", "hard", "expert", and for benchmarks "random" (the floor) and
"moon" (always goes for the moon while it can); see `docs/ai.md`.
`budget` matters to "hard" and "expert" only: an int is a number of playouts per decision
(deterministic with a seed), a float a time limit in seconds (not deterministic); None takes
the default.
"""

from __future__ import annotations

from .native import use_current

use_current()  # first: an out-of-date compiled module must not load (see `native`)

from .base import BasePlayer, Player, choose_moon
from .easy import EasyPlayer
from .medium import MediumPlayer
from .moonshooter import MoonPlayer
from .randomplayer import RandomPlayer
from .search import STYLES, ExpertPlayer, HardPlayer

LEVELS = ("random", "easy", "medium", "hard", "expert", "moon")


def make_player(
    level: str,
    seed: int | str | None = None,
    budget: int | float | None = None,
    style: str | None = None,
) -> Player:
    """A computer player of this level. With a fixed seed (and budget) it is deterministic.

    `style` names a taste for the searching levels (`STYLES`: "marisol", "bertie",
    "tamsin", "plain"); the other levels ignore it.

    >>> make_player("grandmaster")
    Traceback (most recent call last):
    ...
    ValueError: 'grandmaster' is not a level; choose random, easy, medium, hard, expert or moon.
    """
    if budget is not None and (isinstance(budget, bool) or budget <= 0):
        raise ValueError("A budget is a positive number of playouts (int) or seconds (float).")
    if style is not None and style not in STYLES:
        raise ValueError(f"{style!r} is not a style; choose {', '.join(STYLES)}.")
    taste = STYLES[style] if style is not None else None
    if level == "random":
        return RandomPlayer(seed, budget)
    if level == "easy":
        return EasyPlayer(seed, budget)
    if level == "medium":
        return MediumPlayer(seed, budget)
    if level == "hard":
        return HardPlayer(seed, budget, taste)
    if level == "expert":
        return ExpertPlayer(seed, budget, taste)
    if level == "moon":
        return MoonPlayer(seed, budget)
    raise ValueError(
        f"{level!r} is not a level; choose random, easy, medium, hard, expert or moon."
    )


__all__ = ["LEVELS", "STYLES", "BasePlayer", "Player", "choose_moon", "make_player"]
