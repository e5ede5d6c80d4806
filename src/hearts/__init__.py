"""Hearts: the rules engine and its public API.

>>> import hearts
>>> card = hearts.parse_card("qs")
>>> str(card), card.name
('QS', 'queen of spades')
"""

from . import events
from .cards import CARDS, Card, CardSet, parse_card
from .driver import Seat, play_out
from .events import Event, for_seat
from .game import Game
from .moves import ChooseMoon, Move, NextRound, Pass, Play
from .record import RecordError
from .round import IllegalMoveError, Round, Trick
from .rules import PRESETS, Rules
from .scoring import RoundResult, score_round
from .view import PlayerView, TrickView

__all__ = [
    "CARDS",
    "PRESETS",
    "Card",
    "CardSet",
    "ChooseMoon",
    "Event",
    "Game",
    "IllegalMoveError",
    "Move",
    "NextRound",
    "Pass",
    "Play",
    "PlayerView",
    "RecordError",
    "Round",
    "RoundResult",
    "Rules",
    "Seat",
    "Trick",
    "TrickView",
    "events",
    "for_seat",
    "parse_card",
    "play_out",
    "score_round",
]
