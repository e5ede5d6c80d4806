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

from ..rules import Rules
from .base import BasePlayer, Player, choose_moon
from .easy import EasyPlayer
from .medium import MediumPlayer
from .moonshooter import MoonPlayer
from .randomplayer import RandomPlayer
from .search import STYLES, ExpertPlayer, HardPlayer

#: Each level's player class.
PLAYERS: dict[str, type[BasePlayer]] = {
    "random": RandomPlayer,
    "easy": EasyPlayer,
    "medium": MediumPlayer,
    "hard": HardPlayer,
    "expert": ExpertPlayer,
    "moon": MoonPlayer,
}
LEVELS = tuple(PLAYERS)


def plays_as_medium(level: str, rules: Rules) -> bool:
    """Whether `level` plays by medium's rules of thumb at this table: hard and expert search,
    and moon plans its moon, with one deck only, so with two (6 to 10 players) they play as
    medium.

    >>> [level for level in LEVELS if plays_as_medium(level, Rules(players=6))]
    ['hard', 'expert', 'moon']
    >>> plays_as_medium("expert", Rules())
    False
    """
    return PLAYERS[level].plays_as_medium(rules)


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


__all__ = [
    "LEVELS",
    "PLAYERS",
    "STYLES",
    "BasePlayer",
    "Player",
    "choose_moon",
    "make_player",
    "plays_as_medium",
]
