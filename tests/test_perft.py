"""Perft: the number of distinct legal card sequences from fixed deals, counted by the
engine's `Round` and by its playout path, against counts made by an independent referee
(tests/perft_reference.py). A wrong legal set anywhere along a sequence changes a count.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from hearts import Round, Rules
from hearts.cards import CARDS, DECK_SIZE, iter_bits
from hearts.playout import PlayoutState, legal_mask

from perft_reference import PERFT_FILE, perft, table_of

CASES: list[dict[str, Any]] = json.loads(PERFT_FILE.read_text())["cases"]


def dealt_round(case: dict[str, Any]) -> Round:
    rules = Rules(players=case["players"], pass_cycle=("hold",), **case["rules"])
    hands = [text.split() for text in case["hands"]]
    return Round.from_hands(rules, hands, "hold", dealer=case["dealer"])


def round_perft(rnd: Round, depth: int) -> int:
    if depth == 0:
        return 1
    faces = {card % DECK_SIZE for card in iter_bits(rnd.legal_mask())}
    if depth == 1:
        return len(faces)
    total = 0
    for face in faces:
        after = rnd.copy()
        after.play(CARDS[face])
        total += round_perft(after, depth - 1)
    return total


def playout_perft(state: PlayoutState, depth: int) -> int:
    if depth == 0:
        return 1
    seat = (state.leader + len(state.trick)) % state.rules.players
    legal = legal_mask(state, state.hands[seat])
    if depth == 1:
        return legal.bit_count()
    total = 0
    for card in iter_bits(legal):
        after = state.copy()
        after.play(card)
        total += playout_perft(after, depth - 1)
    return total


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_round_counts_what_the_referee_counts(case: dict[str, Any]) -> None:
    rnd = dealt_round(case)
    assert [round_perft(rnd, d) for d in range(1, case["depth"] + 1)] == case["counts"]


@pytest.mark.parametrize("case", [c for c in CASES if c["players"] <= 5], ids=lambda c: c["name"])
def test_the_playout_path_counts_what_the_referee_counts(case: dict[str, Any]) -> None:
    state = PlayoutState.from_round(dealt_round(case))
    assert [playout_perft(state, d) for d in range(1, case["depth"] + 1)] == case["counts"]


def test_the_referee_file_is_its_own_making() -> None:
    """The stored counts are the referee's: recount the shallow ones."""
    for case in CASES:
        table = table_of(case)
        assert [perft(table, d) for d in range(1, 5)] == case["counts"][:4]
