"""The tactics suite: a valid file, the queen position in it, and every level held to a loose
bound (the real shares, over several seeds, are in docs/benchmarks.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hearts.ai import make_player
from hearts.ai.tactics import KINDS, load, score

SUITE = Path(__file__).parent / "data" / "tactics.json"


def test_the_suite_is_large_varied_and_says_how_deep_it_looked() -> None:
    positions = load(SUITE)
    assert len(positions) >= 40
    assert {p.kind for p in positions} == set(KINDS)
    assert len({p.id for p in positions}) == len(positions)
    for position in positions:
        depth = position.data["depth"]
        assert depth["method"].startswith(("exact", "sampled"))
        assert depth.get("playouts", 24000) >= 50 * 240  # at least 50 times hard's budget
        assert position.answer
        if position.kind == "pass":
            assert position.view.phase == "passing"
        else:
            assert position.answer <= {str(c) for c in position.view.legal}
            assert position.answer != {str(c) for c in position.view.legal}
    queen = next(p for p in positions if p.id == "queen-under-the-five")
    assert "QS" not in queen.answer and "2S" in queen.answer
    tags = {t for p in positions for t in p.tags}
    assert {"queen", "moon-block"} <= tags or {"queen", "moon-attempt"} <= tags


def test_a_bad_position_is_refused_with_its_name(tmp_path: Path) -> None:
    raw = json.loads(SUITE.read_text())
    broken = dict(raw["positions"][1])
    broken["id"] = "broken-one"
    broken["plays"] = ["AS", *broken.get("plays", [])]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"positions": [broken]}))
    with pytest.raises(ValueError, match="Position 'broken-one'"):
        load(path)


def test_levels_score_in_order_within_loose_bounds() -> None:
    """On the cards played, and on the passes for expert, whose pass is searched (hard
    passes as medium does); the real shares over several seeds are in docs/benchmarks.md."""
    passes = [p for p in load(SUITE) if p.kind == "pass"]
    medium_passes = score(passes, lambda s: make_player("medium", seed=s), [0])
    expert_passes = score(passes, lambda s: make_player("expert", seed=s), [0])
    assert expert_passes.share >= 0.6, expert_passes.wrong
    assert expert_passes.share > medium_passes.share + 0.15
    cards = [p for p in load(SUITE) if p.kind != "pass"]
    medium = score(cards, lambda s: make_player("medium", seed=s), [0])
    hard = score(cards, lambda s: make_player("hard", seed=s), [0])
    expert = score(cards[::3], lambda s: make_player("expert", seed=s), [0])
    assert hard.share >= 0.85, hard.wrong
    assert expert.share >= 0.85, expert.wrong
    assert hard.share > medium.share + 0.15
