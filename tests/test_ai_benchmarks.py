"""The benchmark tools behind issue 16's numbers: the OpenSpiel card mapping and rules, and
the paired duel's report and its saved rounds (no OpenSpiel needed, nothing long played)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "benchmarks"))

import ai_duel
import openspiel_reference as osr
import playout_agreement
import playout_policy

from hearts import Round, Rules
from hearts.ai.rollout import VALUED_WEIGHTS_FILE, learned_weights
from hearts.cards import CARDS

OPEN_SPIEL_RANKS = "23456789TJQKA"
OPEN_SPIEL_SUITS = "CDHS"


def test_each_openspiel_card_maps_to_the_card_it_names() -> None:
    # OpenSpiel's card is rank * 4 + suit and prints as rank char + suit char (hearts.h).
    for action in range(52):
        name = OPEN_SPIEL_RANKS[action // 4] + OPEN_SPIEL_SUITS[action % 4]
        assert str(CARDS[osr.card_of(action)]) == name
        assert osr.action_of(osr.card_of(action)) == action


def test_pass_directions_send_cards_where_openspiel_does() -> None:
    # OpenSpiel: seat p's cards go to (p + direction) % 4; direction 0 passes nothing.
    rules = osr.RULES
    deck = list(range(52))
    for number, direction in enumerate(osr.DIRECTIONS):
        hands = [[osr.card_of(a) for a in deck[s::4]] for s in range(4)]
        rnd = Round.from_hands(rules, hands, direction)
        for seat in range(4):
            expected = [] if number == 0 else [(seat + number) % 4]
            assert rnd.pass_recipients(seat) == expected


def test_the_rules_are_openspiels_defaults() -> None:
    assert osr.RULES.queen_breaks_hearts
    assert not osr.RULES.points_on_first_trick
    assert osr.RULES.must_break_hearts
    assert not osr.RULES.lead_hearts_instead_of_queen
    assert osr.RULES.moon_rule == "add"
    assert osr.RULES.bonus_card is None
    assert Rules(queen_breaks_hearts=True) == osr.RULES
    # The Q♠ led before any heart breaks hearts under these rules (qs_breaks_hearts), and
    # not under the default rules.
    hands = [
        ["2C", *(r + "S" for r in "23456789TJKA")],
        ["QS", *(r + "C" for r in "3456789TJQKA")],
        [*(r + "D" for r in "234567"), *(r + "H" for r in "2345678")],
        [*(r + "D" for r in "89TJQKA"), *(r + "H" for r in "9TJQKA")],
    ]
    for rules, broken in ((osr.RULES, True), (Rules(), False)):
        rnd = Round.from_hands(rules, hands, "hold")
        for card in ("2C", "3C", "2D", "8D", "QS"):
            rnd.play(card)
        assert rnd.hearts_broken is broken


def test_the_turned_deal_gives_each_seat_the_cards_of_the_seat_it_stands_for() -> None:
    # open_state(turn=k) deals seat s the cards seat s + k holds; checked on the deck order.
    seats = 4
    _, deck = osr.make_deal("test", 3, seats)
    for turn in range(seats):
        turned = [deck[(i // seats) * seats + (i % seats + turn) % seats] for i in range(52)]
        for seat in range(seats):
            assert sorted(turned[seat::seats]) == sorted(deck[(seat + turn) % seats :: seats])


def test_deals_are_fixed_by_the_seed() -> None:
    assert osr.make_deal("a", 1, 4) == osr.make_deal("a", 1, 4)
    assert osr.make_deal("a", 1, 4) != osr.make_deal("a", 2, 4)


def result(score: int, cpu: float = 0.001) -> ai_duel.SeatResult:
    return ai_duel.SeatResult(score=score, moon=False, cpu=[cpu])


def test_duel_report_pairs_each_player_with_the_last(tmp_path: pathlib.Path) -> None:
    names = ["racing:480", "frozen"]
    seats = Rules().players
    rows: ai_duel.Rows = {
        deal: {s: [result(deal + s + 1), result(deal + s)] for s in range(seats)}
        for deal in range(3)
    }
    lines = ai_duel.report(names, rows, seats, "medium", "t")
    assert lines[0].startswith("12 rounds each (3 whole deals x 4 seats)")
    assert "racing:480 minus frozen: +1.000 ± 0.000" in lines[-1]
    # A deal with a seat missing is left out, so seats stay balanced.
    rows[3] = {0: [result(50), result(0)]}
    assert ai_duel.report(names, rows, seats, "medium", "t") == lines
    # Saved rounds read back to the same report.

    def saved(names: list[str]) -> str:
        path = tmp_path / f"{'-'.join(names)}.jsonl"
        with path.open("w", encoding="utf-8") as out:
            out.write(json.dumps({"names": names, "against": "medium", "seed": "t"}) + "\n")
            for deal, by_seat in rows.items():
                for seat, results in by_seat.items():
                    ai_duel.save(out, deal, seat, names, results)
        return str(path)

    loaded_names, loaded_rows, run = ai_duel.load(saved(names))
    assert loaded_names == names
    assert ai_duel.report(loaded_names, loaded_rows, seats, run["against"], run["seed"]) == lines
    # A level against itself (before a change, by --baseline): both kept, not the last alone.
    assert ai_duel.load(saved(["hard", "hard"]))[1] == rows


def test_a_baseline_is_read_from_its_own_run_and_checked_by_playing_it_again(
    tmp_path: pathlib.Path,
) -> None:
    path = tmp_path / "baseline.jsonl"
    played = ai_duel.play_seat("medium", "easy", Rules(), "b", 0, 1)
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps({"names": ["x", "medium"], "against": "easy", "seed": "b"}) + "\n")
        ai_duel.save(out, 0, 1, ["x", "medium"], [result(0), played])
    stored = ai_duel.stored_rounds(str(path), "medium", "easy", "b")
    assert stored == {(0, 1): played}
    task = (("x", "medium"), "easy", "b", 0, 1)
    ai_duel.verify([task], stored)  # the same round again: accepted
    with pytest.raises(SystemExit, match="no rounds of medium against easy, seed 'other'"):
        ai_duel.stored_rounds(str(path), "medium", "easy", "other")
    changed = {(0, 1): dataclasses.replace(played, score=played.score + 1)}
    with pytest.raises(SystemExit, match="plays deal 0, seat 1 differently"):
        ai_duel.verify([task], changed)


def test_duel_report_refuses_an_interval_from_one_deal() -> None:
    rows: ai_duel.Rows = {0: {s: [result(1), result(2)] for s in range(4)}}
    assert ai_duel.report(["a", "b"], rows, 4, "medium", "t")[-1] == (
        "  too few whole deals for an interval"
    )


@pytest.mark.parametrize(
    "spec", ["racing:480", "full", "frozen", "lean", "quiet", "reader", "expert-before"]
)
def test_duel_variants_build(spec: str) -> None:
    player = ai_duel.make(spec, "seed")
    rnd = Round.deal(Rules(), seed=5, hand_number=0)
    assert len(player.choose_pass(rnd.view(0))) == rnd.cards_to_pass()


def test_a_duel_player_takes_a_budget_of_playouts_or_of_seconds() -> None:
    # benchmarks/search_speed.py --passes times "expert:0.05s" before and after a change.
    assert getattr(ai_duel.make("expert:0.05s", "s"), "budget", None) == 0.05
    assert getattr(ai_duel.make("hard:500", "s"), "budget", None) == 500
    assert getattr(ai_duel.make("hard", "s"), "budget", 0) is None


def test_expert_valued_plays_out_with_the_weights_fitted_to_the_values() -> None:
    # benchmarks/ai_duel.py's "expert-valued" (issue 16, twelfth part); "expert-learned"
    # keeps the first weights, so its recorded duels replay.
    view = Round.deal(Rules(), seed=5, hand_number=0).view(0)
    valued = ai_duel.make("expert-valued", "s").table(view)  # type: ignore[attr-defined]
    learned = ai_duel.make("expert-learned", "s").table(view)  # type: ignore[attr-defined]
    assert valued.learned == learned_weights(VALUED_WEIGHTS_FILE.name)
    assert learned.learned == learned_weights()
    assert valued.learned != learned.learned


def test_decisions_keep_the_full_search_value_of_every_card(tmp_path: pathlib.Path) -> None:
    # benchmarks/playout_policy.py --values: every distinct legal card has the coach's value,
    # they are saved and read back, and the best card gives up nothing.
    seen = list(itertools.islice(playout_agreement.decisions(1, "t", values=True), 4))
    assert len(seen) == 4
    for d in seen:
        assert d.values is not None and set(d.values) == set(d.alike.values())
        best = min(d.values, key=d.values.__getitem__)
        assert playout_policy.regret(d, best) == 0.0
        assert all(playout_policy.regret(d, c) >= 0 for c in d.values)
    path = tmp_path / "values.jsonl"
    playout_policy.save(seen, str(path))
    back = playout_policy.load(str(path))
    assert [d.choice for d in back] == [d.choice for d in seen]
    for a, b in zip(back, seen, strict=True):
        assert a.values is not None and b.values is not None
        assert a.values == pytest.approx(b.values, abs=1e-4)
