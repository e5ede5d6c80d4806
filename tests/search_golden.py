"""Decisions of the searching levels, recorded so that speed work can prove it changed none.

    python tests/search_golden.py      # rewrite tests/data/search_golden.json from this code

Rounds of several rule sets are played by medium players (the moon player in one set); at
every decision of one seat a round, each searching level decides from that seat's view: the
full search (`OLD_HARD`, the coach's, at a smaller budget), hard racing at 480 playouts (the
`racing:480` of the benchmarks), today's hard (raced with a prior on the variance) at 400,
expert, a styled full search, the coach's hint and the review of a pass. Each record keeps
the card (or cards) chosen and, for a search, a digest of every candidate's result in every
sampled deal, exact to the last bit of each float. So a change
that leaves the record the same makes the same decisions from the same random numbers; a
change of one playout anywhere changes a digest. `tests/test_search_golden.py` compares.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
from typing import Any

from hearts import Round, Rules
from hearts.ai import make_player
from hearts.ai.hint import hint
from hearts.ai.racing import Arm
from hearts.ai.review import preference
from hearts.ai.search import RACING_HARD, STYLES, ExpertPlayer, FullSearch, HardPlayer
from hearts.view import PlayerView

PATH = pathlib.Path(__file__).parent / "data" / "search_golden.json"

HARD_BUDGET = 150
"""The full search (every candidate on every deal), at fewer playouts than hard's 1,000 so
that the test stays quick: the code path is the same, only the count differs."""
RACING_BUDGET = 480
LEAN_BUDGET = 400
EXPERT_BUDGET = 300
STYLE_BUDGET = 100
HINT_BUDGET = 100
REVIEW_BUDGET = 120
PASS_BUDGET = 200

CASES: list[tuple[str, Rules, int, str]] = [
    ("standard", Rules(), 14, "medium"),
    ("moon-rivals", Rules(), 3, "moon"),
    ("three", Rules(players=3), 4, "medium"),
    ("five-scatter", Rules(players=5, pass_cycle=("scatter",)), 2, "medium"),
    ("kitty", Rules(kitty=True), 2, "medium"),
    ("bonus", Rules(bonus_card="JD", queen_breaks_hearts=True), 3, "medium"),
    ("first-trick", Rules(points_on_first_trick=True, queen_at_first_chance=True), 2, "medium"),
    ("dealer-left", Rules(first_lead="dealer-left", must_break_hearts=False), 2, "medium"),
    ("teams", Rules(partnership=True, moon_rule="choose", shoot_the_sun=True), 2, "medium"),
    ("six", Rules(players=6), 1, "medium"),
]
NAMES = ("You", "Marisol", "Bertie", "Tamsin", "Five", "Six")


class _Recording:
    """Keeps the arms of the last search (`evaluate`)."""

    arms: list[Arm] | None = None

    def evaluate(self, *args: Any, **kwargs: Any) -> list[Arm]:
        arms: list[Arm] = super().evaluate(*args, **kwargs)  # type: ignore[misc]
        self.arms = arms
        return arms


class Hard(_Recording, FullSearch):
    pass


class Lean(_Recording, HardPlayer):
    """Today's hard: raced, with a prior on the variance (`search.HARD`)."""


class Racing(_Recording, HardPlayer):
    settings = RACING_HARD


class Expert(_Recording, ExpertPlayer):
    pass


def digest(arms: list[Arm] | None) -> str:
    if arms is None:
        return ""
    text = repr([(a.plan, a.face, a.active, a.values) for a in arms])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def players(seed: str) -> dict[str, _Recording]:
    return {
        "hard": Hard(seed, HARD_BUDGET),
        "racing": Racing(seed, RACING_BUDGET),
        "lean": Lean(seed, LEAN_BUDGET),
        "expert": Expert(seed, EXPERT_BUDGET),
        "bertie": Hard(seed, STYLE_BUDGET, STYLES["bertie"]),
    }


def decide(view: PlayerView, seed: str, index: int) -> dict[str, Any]:
    """Every searching level's decision in `view` (a pass or a card)."""
    record: dict[str, Any] = {}
    names = NAMES[: view.rules.players]
    for name, player in players(seed).items():
        player.arms = None
        assert isinstance(player, HardPlayer)
        if view.phase == "passing":
            record[name] = [str(c) for c in player.choose_pass(view)]
        else:
            record[name] = [str(player.choose_play(view)), digest(player.arms)]
    if view.phase == "passing":
        if view.rules.decks == 1:
            chosen = preference(view, names, seed=seed, budget=REVIEW_BUDGET)
            record["review"] = [str(c) for c in chosen]
        expert = ExpertPlayer(seed, PASS_BUDGET)
        record["expert-pass"] = [str(c) for c in expert.choose_pass(view)]
    elif index % 3 == 0:
        advice = hint(view, names, seed=seed, budget=HINT_BUDGET)
        options = [(str(o.card), o.average, o.deals, o.moon) for o in advice.options]
        record["hint"] = [[str(c) for c in advice.cards], advice.reason, repr(options)]
    return record


def positions() -> list[tuple[str, PlayerView]]:
    """(a name, the view) at every decision of one seat a round, in every case."""
    found: list[tuple[str, PlayerView]] = []
    for case, rules, deals, others in CASES:
        n = rules.players
        for deal in range(deals):
            me = deal % n
            rnd = Round.deal(rules, seed=f"golden:{case}:{deal}", hand_number=deal + 1)
            bots = [make_player("medium" if s == me else others, seed=s) for s in range(n)]
            turn = 0
            if rnd.phase == "passing":
                found.append((f"{case}:{deal}:pass", rnd.view(me)))
                for seat in range(n):
                    rnd.give(seat, bots[seat].choose_pass(rnd.view(seat)))
            while rnd.phase == "playing":
                seat = rnd.turn
                view = rnd.view(seat)
                if seat == me:
                    found.append((f"{case}:{deal}:{turn}", view))
                    turn += 1
                rnd.play(bots[seat].choose_play(view))
    return found


def record_all() -> dict[str, Any]:
    return {
        name: decide(view, f"golden:{name}", index)
        for index, (name, view) in enumerate(positions())
    }


def searched(record: dict[str, Any]) -> int:
    """How many positions the searches really searched (more than one candidate)."""
    return sum(1 for r in record.values() if r.get("hard", ["", ""])[1])


if __name__ == "__main__":
    data = record_all()
    lines = [f"{json.dumps(k)}: {json.dumps(data[k], ensure_ascii=False)}" for k in sorted(data)]
    PATH.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    print(f"{len(data)} positions ({searched(data)} searched) written to {PATH}")
