"""Hearts: the rules engine and its public API.

>>> import hearts
>>> card = hearts.parse_card("qs")
>>> str(card), card.name
('QS', 'queen of spades')
"""

from .cards import CARDS, Card, CardSet, parse_card
from .game import Game, RoundResult
from .record import RecordError
from .round import IllegalMoveError, Round, Trick
from .rules import PRESETS, Rules
from .view import PlayerView, TrickView

__all__ = [
    "CARDS",
    "PRESETS",
    "Card",
    "CardSet",
    "Game",
    "IllegalMoveError",
    "PlayerView",
    "RecordError",
    "Round",
    "RoundResult",
    "Rules",
    "Trick",
    "TrickView",
    "parse_card",
]
