"""The one driver: plays a game with a player for each seat, move by move, yielding events.

The tournament runner, the terminal game, the demo, the web server's computer players and
the tests all play through `play_out`, so every move is asked for, checked and applied in
one place. A seat with no player (a person in the web game) stops the driver when its move
is awaited, before the players of seats awaited with it (so a person passes first); the
caller makes that move and calls it again.

>>> import random
>>> from hearts import Game, Rules
>>> from hearts.events import GameOver
>>> class Lowest:
...     def choose_pass(self, view): return view.hand[:view.cards_to_pass]
...     def choose_play(self, view): return view.legal[0]
...     def choose_moon(self, view): return "add"
>>> game = Game(Rules(target_score=30), seed=4)
>>> last = list(play_out(game, [Lowest()] * 4))[-1]
>>> isinstance(last, GameOver), game.is_over
(True, True)
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Protocol

from .cards import Card
from .events import Event
from .game import Game
from .moves import ChooseMoon, Move, NextRound, Pass, Play
from .round import IllegalMoveError
from .scoring import MoonChoice, score_round
from .view import PlayerView

log = logging.getLogger("hearts")


class Seat(Protocol):
    """Anything that decides for a seat from what that seat may see."""

    def choose_pass(self, view: PlayerView) -> Sequence[Card]: ...

    def choose_play(self, view: PlayerView) -> Card: ...

    def choose_moon(self, view: PlayerView) -> MoonChoice: ...


Fallback = Callable[[Game, int], Move]


def ask(game: Game, seat: int, player: Seat) -> Move:
    """The move `player` makes for `seat` now (not yet checked or applied)."""
    view = game.view(seat)
    phase = game.phase
    if phase == "passing":
        return Pass(seat, player.choose_pass(view))
    if phase == "playing":
        return Play(seat, player.choose_play(view))
    if phase == "moon-choice":
        return ChooseMoon(seat, player.choose_moon(view))
    raise ValueError(f"Seat {seat} has no move to make while the game is at {phase}.")


def plain_move(game: Game, seat: int) -> Move:
    """A legal move for `seat` that needs no thought: the lowest legal card, the highest
    cards passed, the moon scored as the rules would score it for a shooter not asked."""
    phase = game.phase
    if phase == "passing":
        return Pass(seat, game.round.hand(seat)[-game.round.cards_to_pass() :])
    if phase == "playing":
        return Play(seat, game.round.legal_cards()[0])
    result = score_round(game.rules, game.round, game.scores)
    return ChooseMoon(seat, result.moon_choice or "add")


def play_out(
    game: Game,
    players: Sequence[Seat] | Mapping[int, Seat],
    *,
    next_round: bool = True,
    fallback: Fallback | None = None,
) -> Iterator[Event]:
    """Apply each awaited seat's move until the game is over, yielding the events.

    Stops early when a seat with no player must move (its move is the caller's), or, with
    `next_round=False`, when a round is scored. A player's refused move raises
    `IllegalMoveError`, unless `fallback` gives a move to make instead (the web game uses
    `plain_move`, so a computer player's bug never stalls a table).
    """
    seats = players if isinstance(players, Mapping) else dict(enumerate(players))
    while True:
        waiting = game.to_act
        if not waiting:
            if game.is_over or not next_round:
                return
            yield from game.apply(NextRound())
            continue
        if any(seat not in seats for seat in waiting):
            return
        yield from _move(game, waiting[0], seats[waiting[0]], fallback)


def move_for(game: Game, seat: int, player: Seat, fallback: Fallback | None) -> list[Event]:
    """Ask `player` for `seat`'s move and apply it (`fallback`'s, if the rules refuse it)."""
    return _move(game, seat, player, fallback)


def _move(game: Game, seat: int, player: Seat, fallback: Fallback | None) -> list[Event]:
    try:
        move = ask(game, seat, player)
        return game.apply(move)
    except (IllegalMoveError, ValueError) as error:
        if fallback is None:
            raise
        log.exception("seat %d's player made a move the rules refuse: %s", seat, error)
        return game.apply(fallback(game, seat))
