"""PlayerView: what one seat may know about a round, and nothing more.

Computer players and the web game see only this. It holds the seat's own hand, its pass and
what it received (once the exchange is done), every card played with who played it, the
trick on the table, points taken, scores, the rules, and the legal cards on the seat's turn.
Other seats' hidden cards are never in it: only how many each holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from .cards import CARDS, Card, iter_bits

if TYPE_CHECKING:
    from .rules import Rules


class TrickView(NamedTuple):
    """A finished trick as (seat, card) plays; `carried` and `held_over` as in `Trick`."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int
    carried: tuple[Card, ...] = ()
    held_over: bool = False


def _cards(mask: int | None) -> list[Card]:
    return [] if mask is None else [CARDS[i] for i in iter_bits(mask)]


@dataclass(frozen=True, slots=True)
class PlayerView:
    rules: Rules
    seat: int
    hand_number: int
    dealer: int
    phase: str
    pass_direction: str
    pass_to: tuple[int, ...]
    cards_to_pass: int
    hand_mask: int
    passed_mask: int | None
    received_mask: int | None
    waiting_to_pass: tuple[int, ...]
    leader: int
    turn: int | None
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[TrickView, ...]
    played_mask: int
    hand_sizes: tuple[int, ...]
    points_taken: tuple[int, ...]
    hearts_broken: bool
    scores: tuple[int, ...]
    legal_mask: int
    kitty_size: int
    kitty_taker: int | None
    kitty_mask: int
    held_over_mask: int = 0
    """Cards of cancelled tricks waiting for the next trick's winner (Cancellation Hearts)."""
    received_from: tuple[int, ...] = ()
    """Who passed each card of `received` to this seat, in the same order (a scatter's
    cards come from several seats)."""

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def hand(self) -> list[Card]:
        """The seat's cards, lowest first (clubs, diamonds, hearts, spades)."""
        return _cards(self.hand_mask)

    @property
    def legal(self) -> list[Card]:
        """Cards this seat may play now; empty when it is not this seat's turn."""
        return _cards(self.legal_mask)

    @property
    def passed(self) -> list[Card] | None:
        """The cards this seat passed, once it has passed."""
        return None if self.passed_mask is None else _cards(self.passed_mask)

    @property
    def received(self) -> list[Card] | None:
        """The cards passed to this seat, once the exchange is done."""
        return None if self.received_mask is None else _cards(self.received_mask)

    @property
    def partner(self) -> int | None:
        """The seat across, in Partnership Hearts; None when everyone plays alone."""
        return (self.seat + 2) % 4 if self.rules.partnership else None

    @property
    def is_my_turn(self) -> bool:
        return self.turn == self.seat

    @property
    def trick_number(self) -> int:
        """0 for the first trick."""
        return len(self.tricks)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data, cards as strings like "QS"."""

        def strs(mask: int | None) -> list[str] | None:
            return None if mask is None else [str(c) for c in _cards(mask)]

        return {
            "seat": self.seat,
            "players": self.players,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "phase": self.phase,
            "pass_direction": self.pass_direction,
            "pass_to": list(self.pass_to),
            "cards_to_pass": self.cards_to_pass,
            "hand": strs(self.hand_mask),
            "passed": strs(self.passed_mask),
            "received": strs(self.received_mask),
            "waiting_to_pass": list(self.waiting_to_pass),
            "leader": self.leader,
            "turn": self.turn,
            "trick": [[seat, str(card)] for seat, card in self.trick],
            "tricks": [
                {
                    "leader": t.leader,
                    "plays": [[seat, str(card)] for seat, card in t.plays],
                    "winner": t.winner,
                    "carried": [str(card) for card in t.carried],
                    "held_over": t.held_over,
                }
                for t in self.tricks
            ],
            "hand_sizes": list(self.hand_sizes),
            "points_taken": list(self.points_taken),
            "hearts_broken": self.hearts_broken,
            "scores": list(self.scores),
            "legal": strs(self.legal_mask),
            "kitty_size": self.kitty_size,
            "kitty_taker": self.kitty_taker,
            "kitty": strs(self.kitty_mask) if self.kitty_taker is not None else None,
            "held_over": strs(self.held_over_mask),
            "received_from": list(self.received_from),
            "partner": self.partner,
            "rules": self.rules.to_dict(),
            # Numbers the rules imply, so that a page need not work them out: a moon is
            # 26 a deck, and two decks hold two queens of spades.
            "decks": self.rules.decks,
            "round_points": self.rules.round_points,
        }
