"""Golden transcripts: whole games kept as records with their results, replayed and diffed.

A change to the engine that alters any deal, legal set, trick winner or score shows up
here as a diff. To accept an intended change, regenerate with
`HEARTS_UPDATE_GOLDEN=1 pytest tests/test_golden.py` and review the diff of tests/golden/.
"""

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from hearts import Game, Rules
from hearts.record import from_record, to_record

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
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    while not game.is_over:
        phase = game.phase
        if phase == "passing":
            for seat in game.round.waiting_to_pass():
                hand = game.round.hand(seat)
                game.give(seat, rng.sample(hand, game.round.cards_to_pass()))
        elif phase == "playing":
            game.play(rng.choice(game.round.legal_cards()))
        elif phase == "moon-choice":
            game.choose_moon(rng.choice(["add", "subtract"]))
        else:
            game.next_round()
    return {
        "record": to_record(game),
        "results": [r.to_dict() for r in game.results],
        "scores": game.scores,
        "winners": game.winners,
    }


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_transcript(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    fresh = transcript(CASES[name], seed=sum(map(ord, name)))
    if os.environ.get("HEARTS_UPDATE_GOLDEN") == "1":
        path.write_text(json.dumps(fresh, indent=1) + "\n")
    stored = json.loads(path.read_text())
    assert fresh == stored
    replayed = from_record(stored["record"])
    assert [r.to_dict() for r in replayed.results] == stored["results"]
    assert replayed.scores == stored["scores"] and replayed.winners == stored["winners"]
