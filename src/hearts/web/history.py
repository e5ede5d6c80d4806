"""A browser's finished games: the facts of each (replayed once from its record and kept, since
a finished game never changes), a line for the history and the sums of the statistics.

The person's seat, the names and the levels come from the game's `Table`, as in play; the
rounds' results are the engine's; queens taken are read off the tricks as they are replayed.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .. import Rules
from ..events import KittyTaken, TrickWon
from ..record import action_to_move, fold, undos
from ..scoring import RoundResult, team_of
from .deals import new_game
from .options import house_rule_names, house_rules
from .store import FinishedGame, StoredGame

QUEEN = "QS"
#: Facts of finished games kept in memory (a few hundred bytes each).
KEPT = 5000


@dataclass(frozen=True)
class GameFacts:
    id: str
    started: float
    finished: float
    rules: Rules
    seat: int
    """The person's seat."""
    players: list[dict[str, Any]]
    """{"seat", "name", "level"} for every seat, as the game showed them."""
    results: list[RoundResult]
    queens: int
    """Queens of spades the person took (two decks: either copy counts)."""
    winners: list[int] = field(default_factory=list)
    undos: int = 0
    """Take-backs the person made (`hearts.record.undo_action`)."""

    @property
    def totals(self) -> list[int]:
        return list(self.results[-1].totals) if self.results else []

    @property
    def team(self) -> tuple[int, ...]:
        return team_of(self.rules, self.seat)

    @property
    def won(self) -> bool:
        return self.seat in self.winners

    @property
    def level(self) -> str:
        """The computer players' level, or "mixed" when they differ."""
        levels = {p["level"] for p in self.players if p["level"] is not None}
        return levels.pop() if len(levels) == 1 else "mixed"

    @property
    def place(self) -> int:
        """1 for the lowest total; seats on equal totals share a place. With partners the
        teams are placed: partners share their team's total, and a team is one place."""
        totals = self.totals
        teams = {team_of(self.rules, s): total for s, total in enumerate(totals)}
        return 1 + sum(1 for total in teams.values() if total < totals[self.seat])


Names = Callable[[StoredGame, Any], list[dict[str, Any]]]
"""The names of a game's seats, as play shows them: (stored game, replayed game) -> players."""

_kept: OrderedDict[tuple[str, str], GameFacts] = OrderedDict()
_lock = threading.Lock()


def kept(dates: FinishedGame, owner: str) -> GameFacts | None:
    """The facts of a finished game worked out before for this browser (each person at a
    table sees it from their own seat), if they are still kept."""
    with _lock:
        found = _kept.get((dates.id, owner))
        if found is not None and found.finished == dates.finished:
            _kept.move_to_end((dates.id, owner))
            return found
    return None


def facts_of(
    stored: StoredGame, dates: FinishedGame, seat: int, names: Names, owner: str
) -> GameFacts:
    """A finished game's facts, replayed from its record."""
    rules = Rules.from_dict(stored.rules)
    game = new_game(rules, stored.seed)
    queens = 0
    for action in fold(stored.actions):
        for event in game.apply(action_to_move(action)):
            if isinstance(event, TrickWon) and not event.held_over and event.winner == seat:
                cards = [card for _, card in event.plays] + list(event.carried)
                queens += sum(1 for card in cards if str(card) == QUEEN)
            elif isinstance(event, KittyTaken) and event.seat == seat:
                queens += sum(1 for card in event.cards if str(card) == QUEEN)
    facts = GameFacts(
        id=stored.id,
        started=dates.started,
        finished=dates.finished,
        rules=rules,
        seat=seat,
        players=names(stored, game),
        results=list(game.results),
        queens=queens,
        winners=list(game.winners),
        undos=undos(stored.actions),
    )
    with _lock:
        _kept[(stored.id, owner)] = facts
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return facts


def when(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def history_line(facts: GameFacts) -> dict[str, Any]:
    totals = facts.totals
    me = next((p for p in facts.players if p["seat"] == facts.seat), {})
    return {
        "id": facts.id,
        "started": when(facts.started),
        "finished": when(facts.finished),
        "rules": {
            "players": facts.rules.players,
            "target_score": facts.rules.target_score,
            "house_rules": house_rules(facts.rules),
            "house_rule_names": house_rule_names(facts.rules),
        },
        # The other players; with partners, the one on this seat's team is marked.
        "opponents": [
            p | {"partner": p["seat"] in team_of(facts.rules, facts.seat)}
            for p in facts.players
            if p["seat"] != facts.seat
        ],
        "result": {
            "won": facts.won,
            "place": facts.place,
            "score": totals[facts.seat],
            "scores": totals,
            "winners": facts.winners,
            "rounds": len(facts.results),
        },
        "undos": facts.undos,
        # The coach's hints the person took: counted at a table of friends only (where the
        # others are told of each), so 0 at a table of their own.
        "hints": int(me.get("hints", 0)),
    }


def statistics(games: Sequence[GameFacts]) -> dict[str, Any]:
    """The sums over a browser's finished games (`games` newest first)."""
    by_level: dict[str, dict[str, Any]] = {}
    rounds = points = moons_shot = moons_suffered = queens = 0
    for facts in games:
        level = by_level.setdefault(facts.level, {"games": 0, "wins": 0})
        level["games"] += 1
        level["wins"] += facts.won
        queens += facts.queens
        for result in facts.results:
            rounds += 1
            points += result.scores[facts.seat]
            if result.shooter is not None:
                if result.shooter in facts.team:
                    moons_shot += 1
                else:
                    moons_suffered += 1
    for level in by_level.values():
        level["win_rate"] = round(level["wins"] / level["games"], 3)
    wins = sum(facts.won for facts in games)
    clean = [facts for facts in games if not facts.undos]
    clean_wins = sum(facts.won for facts in clean)
    taken = len(games) - len(clean)
    return {
        "games": len(games),
        "wins": wins,
        "win_rate": round(wins / len(games), 3) if games else None,
        "by_level": by_level,
        "rounds": rounds,
        "points_per_round": round(points / rounds, 2) if rounds else None,
        "moons_shot": moons_shot,
        "moons_suffered": moons_suffered,
        "queens_taken": queens,
        "best_game": _game_line(min(games, key=_margin)) if games else None,
        "worst_game": _game_line(max(games, key=_margin)) if games else None,
        "streaks": _streaks([facts.won for facts in reversed(games)]),
        # Games with take-backs count above like any other; these say how many there were
        # and what the record is without them.
        "take_backs": {
            "games": taken,
            "wins": wins - clean_wins,
            "undos": sum(facts.undos for facts in games),
        },
        "clean": {
            "games": len(clean),
            "wins": clean_wins,
            "win_rate": round(clean_wins / len(clean), 3) if clean else None,
        },
    }


def _margin(facts: GameFacts) -> tuple[int, float]:
    """The person's total less the best rival's (lower is better; ties: the newer first)."""
    totals = facts.totals
    rivals = [t for s, t in enumerate(totals) if s not in facts.team]
    return totals[facts.seat] - min(rivals, default=0), -facts.finished


def _game_line(facts: GameFacts) -> dict[str, Any]:
    totals = facts.totals
    return {
        "id": facts.id,
        "finished": when(facts.finished),
        "score": totals[facts.seat],
        "margin": _margin(facts)[0],
        "won": facts.won,
        "place": facts.place,
    }


def _streaks(outcomes: list[bool]) -> dict[str, Any]:
    """Oldest first: the current run (wins or losses) and the longest of each."""
    longest = {True: 0, False: 0}
    run = 0
    for i, won in enumerate(outcomes):
        run = run + 1 if i and outcomes[i - 1] == won else 1
        longest[won] = max(longest[won], run)
    current = {"kind": ("wins" if outcomes[-1] else "losses"), "length": run} if outcomes else None
    return {"current": current, "longest_wins": longest[True], "longest_losses": longest[False]}
