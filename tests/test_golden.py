"""Golden transcripts: whole games kept as records with their results, replayed and diffed.

A change to the engine that alters any deal, legal set, trick winner or score shows up
here as a diff. To accept an intended change, regenerate with
`HEARTS_UPDATE_GOLDEN=1 pytest tests/test_golden.py` and review the diff of tests/golden/.
"""

import random
from pathlib import Path
from typing import Any

import pytest

from hearts import Game, Rules
from hearts.record import to_record

from helpers import check_golden, play_random_game

GOLDEN = Path(__file__).parent / "golden"

CASES: dict[str, Rules] = {
    "standard": Rules(),
    "omnibus-choose-moon": Rules(bonus_card="JD", moon_rule="choose", target_score=60),
    "casual-scatter-short": Rules.preset(
        "scatter", points_on_first_trick=True, queen_breaks_hearts=True, target_score=50
    ),
}


def transcript(rules: Rules, seed: int) -> dict[str, Any]:
    """A whole game with a seeded random player in every seat, and what it came to."""
    game = play_random_game(Game(rules, seed=seed), random.Random(seed))
    return {
        "record": to_record(game),
        "results": [r.to_dict() for r in game.results],
        "scores": game.scores,
        "winners": game.winners,
    }


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_transcript(name: str) -> None:
    check_golden(GOLDEN / f"{name}.json", transcript(CASES[name], seed=sum(map(ord, name))))
