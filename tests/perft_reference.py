"""An independent referee for perft: legal play written again from the rule texts, on plain
strings and lists, sharing no code with the engine.

Perft counts the distinct legal sequences of cards from a position to a given depth. The
counts in tests/perft.json were made by this module (`python tests/perft_reference.py`
rewrites them); the tests check that the engine's `Round` and its playout path count the
same. A disagreement is an error in one of the two, not merely a change.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RANKS = "23456789TJQKA"
PERFT_FILE = Path(__file__).with_name("perft.json")


def rank(card: str) -> int:
    return RANKS.index(card[0])


def is_point(card: str) -> bool:
    return card[1] == "H" or card == "QS"


@dataclass
class Table:
    players: int
    hands: list[list[str]]  # one list per seat; two decks may hold a card twice
    rules: dict[str, Any]
    leader: int = 0
    trick: list[str] = field(default_factory=list)
    tricks_done: int = 0
    hearts_broken: bool = False

    @property
    def first_trick(self) -> bool:
        return self.tricks_done == 0

    def rule(self, name: str) -> Any:
        defaults = {
            "points_on_first_trick": False,
            "must_break_hearts": True,
            "queen_breaks_hearts": False,
            "lead_hearts_instead_of_queen": False,
            "queen_at_first_chance": False,
            "first_lead": "two-of-clubs",
        }
        return self.rules.get(name, defaults.get(name))

    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    def legal(self) -> list[str]:
        """The distinct cards the seat to play may play (two copies count once)."""
        hand = self.hands[self.to_play()]
        if not self.trick:
            options = list(hand)
            if self.first_trick and self.rule("first_lead") == "two-of-clubs":
                lowest = min((c for c in hand if c[1] == "C"), key=rank, default=None)
                everyone = [c for h in self.hands for c in h if c[1] == "C"]
                if lowest is not None and rank(lowest) == min(rank(c) for c in everyone):
                    options = [lowest]
            # "Dealer's left" leads any card, the first trick's points rule aside.
            if self.rule("must_break_hearts") and not self.hearts_broken:
                others = [c for c in options if c[1] != "H"]
                only_queen = all(c == "QS" for c in others)
                if others and not (self.rule("lead_hearts_instead_of_queen") and only_queen):
                    options = others
            return sorted(set(options))
        led = self.trick[0][1]
        follow = [c for c in hand if c[1] == led]
        options = follow or list(hand)
        if self.first_trick and not self.rule("points_on_first_trick"):
            safe = [c for c in options if not is_point(c)]
            options = safe or options
        if self.rule("queen_at_first_chance") and "QS" in options:
            # A spade above her wins the trick as it stands: its twin (two decks) not on it.
            high_spade_down = led == "S" and any(
                self.trick.count(c) == 1 for c in ("KS", "AS") if c in self.trick
            )
            if not follow or high_spade_down:
                options = ["QS"]
        return sorted(set(options))

    def play(self, card: str) -> Table:
        seat = self.to_play()
        hands = [list(h) for h in self.hands]
        hands[seat].remove(card)
        trick = [*self.trick, card]
        broken = self.hearts_broken or card[1] == "H"
        broken = broken or (card == "QS" and bool(self.rule("queen_breaks_hearts")))
        after = Table(self.players, hands, self.rules, self.leader, trick, self.tricks_done, broken)
        if len(trick) == self.players:
            after.trick = []
            after.tricks_done += 1
            after.leader = self._winner(trick)
        return after

    def _winner(self, trick: list[str]) -> int:
        led = trick[0][1]
        candidates = [
            (rank(c), i) for i, c in enumerate(trick) if c[1] == led and trick.count(c) == 1
        ]
        if not candidates:  # every card of the suit led cancelled: the leader leads again
            return self.leader
        return (self.leader + max(candidates)[1]) % self.players


def perft(table: Table, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for card in table.legal():
        total += perft(table.play(card), depth - 1)
    return total


def opening_leader(hands: list[list[str]], rules: dict[str, Any], dealer: int) -> int:
    if rules.get("first_lead") == "dealer-left":
        return (dealer + 1) % len(hands)
    lowest = min((c for h in hands for c in h if c[1] == "C"), key=rank)
    return next(s for s, h in enumerate(hands) if lowest in h)


def table_of(case: dict[str, Any]) -> Table:
    hands = [text.split() for text in case["hands"]]
    leader = opening_leader(hands, case["rules"], case.get("dealer", 0))
    return Table(len(hands), hands, case["rules"], leader)


def main() -> None:
    data = json.loads(PERFT_FILE.read_text())
    for case in data["cases"]:
        table = table_of(case)
        case["counts"] = [perft(table, d) for d in range(1, case["depth"] + 1)]
        print(case["name"], case["counts"], file=sys.stderr)
    PERFT_FILE.write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()
