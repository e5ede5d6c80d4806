"""Finishing a round at once when no point can change hands any more.

When it is the person's turn and `hearts.claim` finds the rest of the round settled, every
remaining card is played for everyone (the lowest legal card each time: any choice ends the
same) and the round's result follows straight away. The plays are ordinary recorded actions,
so a replay reaches the same state.
"""

from __future__ import annotations

from .. import Game
from ..claim import settled_points
from .events import Journal


def finish_settled_round(game: Game, seat: int) -> Journal:
    """Play out the round if it is `seat`'s turn and nothing can change any more; the
    events of the cards played (none when the round is still open)."""
    if game.phase != "playing" or game.round.turn != seat:
        return []
    if settled_points(game.round) is None:
        return []
    entries: Journal = []
    while game.phase == "playing":
        events = game.play(game.round.legal_cards()[0])
        entries.append((len(game.moves), events))
    return entries
