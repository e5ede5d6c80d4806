"""The tactics suite: positions with answers found by a far deeper search, and its scorer.

A position is a round rebuilt from its dealt hands, the passes and the cards played so far;
the seat to decide sees only its `PlayerView`. The answer is the set of cards (or, for a
pass, the set of passes) the deep search found within a small tolerance of the best; a
player is right when its choice is one of them. `benchmarks/tactics_build.py` builds the
file and records the depth of the search behind every answer.

>>> position = TacticsPosition.from_dict({
...     "id": "demo", "kind": "lead", "hands": [
...         ["2C", "3C"], ["4C", "5C"], ["6C", "7C"], ["8C", "9C"]],
...     "plays": [], "seat": 0, "answer": ["2C"]})
Traceback (most recent call last):
...
ValueError: Position 'demo': Each player must hold 13 cards; seat 0 holds 2.
"""

from __future__ import annotations

import json
import pathlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import parse_card
from ..round import Round
from ..rules import Rules
from ..view import PlayerView
from .base import Player

KINDS = ("pass", "lead", "follow", "discard")


@dataclass(frozen=True)
class TacticsPosition:
    """One position of the suite (see the module docstring)."""

    id: str
    kind: str
    view: PlayerView
    answer: frozenset[str]
    """Cards like "QS", or for a pass sorted cards joined by spaces ("AH KS QS")."""
    tags: tuple[str, ...] = ()
    data: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TacticsPosition:
        name = data.get("id", "?")
        try:
            view = _rebuild(data).view(int(data["seat"]))
            kind = str(data["kind"])
            if kind not in KINDS:
                raise ValueError(f"{kind!r} is not a kind of position")
            answer = frozenset(str(a) for a in data["answer"])
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"Position {name!r}: {error}") from None
        return cls(str(name), kind, view, answer, tuple(data.get("tags", ())), data)

    def choice_of(self, player: Player) -> str:
        """The player's decision here, written as the answers are."""
        if self.kind == "pass":
            return pass_key(str(c) for c in player.choose_pass(self.view))
        return str(player.choose_play(self.view))

    def is_right(self, player: Player) -> bool:
        return self.choice_of(player) in self.answer


def pass_key(cards: Any) -> str:
    """A pass written in one canonical order: "2C QS AH" -> "2C AH QS" (card order)."""
    return " ".join(str(c) for c in sorted(parse_card(str(c)) for c in cards))


def _rebuild(data: dict[str, Any]) -> Round:
    rules = Rules.from_dict(data["rules"]) if data.get("rules") else Rules()
    rnd = Round.from_hands(
        rules,
        data["hands"],
        data.get("pass_direction", "hold"),
        scores=data.get("scores"),
        hand_number=int(data.get("hand_number", 0)),
    )
    passes = data.get("passes")
    if passes:
        for seat, cards in enumerate(passes):
            rnd.give(seat, cards)
    for card in data.get("plays", []):
        rnd.play(card)
    return rnd


def load(path: str | pathlib.Path) -> list[TacticsPosition]:
    """Every position in a suite file; a bad position is refused with its id and reason."""
    raw = json.loads(pathlib.Path(path).read_text())
    return [TacticsPosition.from_dict(p) for p in raw["positions"]]


@dataclass
class Score:
    """How often a player was right, over positions and seeds."""

    right: int = 0
    asked: int = 0
    by_kind: dict[str, list[int]] = field(default_factory=dict)
    wrong: dict[str, int] = field(default_factory=dict)

    @property
    def share(self) -> float:
        return self.right / self.asked if self.asked else 0.0


def score(
    positions: Sequence[TacticsPosition],
    make: Any,
    seeds: Sequence[int | str],
) -> Score:
    """Ask `make(seed)` (a new player per seed) every position; count the right answers."""
    result = Score()
    for seed in seeds:
        player = make(seed)
        for position in positions:
            right = position.is_right(player)
            result.right += right
            result.asked += 1
            tally = result.by_kind.setdefault(position.kind, [0, 0])
            tally[0] += right
            tally[1] += 1
            if not right:
                result.wrong[position.id] = result.wrong.get(position.id, 0) + 1
    return result


__all__ = ["KINDS", "Score", "TacticsPosition", "load", "pass_key", "score"]
