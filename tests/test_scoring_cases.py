"""The shared scoring cases (tests/scoring_cases.json) against `hearts.scoring`; the same
file is checked against the scorekeeper's JavaScript in tests/e2e."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hearts import Rules
from hearts.scoring import score_points

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).with_name("scoring_cases.json")).read_text()
)["cases"]


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=[c["name"][:70] for c in CASES])
def test_the_engine_scores_each_case_as_written(case: dict[str, Any]) -> None:
    rules = Rules.from_dict(case["rules"])
    result = score_points(
        rules,
        case["totals"],
        case["points"],
        case["bonus"],
        case["shooter"],
        case["sun"],
        case["choice"],
    )
    assert list(result.scores) == case["expected_scores"]
    assert list(result.totals) == case["expected_totals"]
