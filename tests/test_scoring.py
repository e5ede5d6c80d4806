"""hearts.scoring: the two moon decisions that depend on the totals, decided on the totals
after any exactly-the-target drop."""

from __future__ import annotations

from hearts import Game, Rules
from hearts.scoring import is_game_over, score_points

from helpers import SUN_DEAL, hands


def test_add_unless_losing_looks_after_the_drop() -> None:
    # Adding puts seat 1 on exactly 100, which drops to 50: the game goes on, so add.
    rules = Rules(moon_rule="add-unless-losing", exactly_target_resets_to=50)
    result = score_points(rules, [80, 74, 10, 10], [26, 0, 0, 0], shooter=0)
    assert result.moon_choice == "add"
    assert result.totals == (80, 50, 36, 36) and result.reset == (1,)


def test_add_unless_losing_subtracts_when_adding_ends_the_game_against_the_shooter() -> None:
    rules = Rules(moon_rule="add-unless-losing")
    result = score_points(rules, [80, 74, 10, 10], [26, 0, 0, 0], shooter=0)
    assert result.moon_choice == "subtract" and result.totals == (54, 74, 10, 10)


def test_an_unasked_shooter_avoids_ending_the_game_as_a_loser() -> None:
    rules = Rules(moon_rule="choose")
    result = score_points(rules, [90, 20, 95, 95], [26, 0, 0, 0], shooter=0)
    assert result.moon_choice == "subtract" and result.totals == (64, 20, 95, 95)


def test_an_unasked_shooter_takes_the_win_when_one_option_gives_it() -> None:
    rules = Rules(moon_rule="choose")
    result = score_points(rules, [20, 80, 90, 95], [26, 0, 0, 0], shooter=0)
    assert result.moon_choice == "add" and is_game_over(rules, result.totals)
    assert result.totals == (20, 106, 116, 121)


def test_an_unasked_shooter_adds_when_nothing_ends() -> None:
    result = score_points(Rules(moon_rule="choose"), [0, 0, 0, 0], [26, 0, 0, 0], shooter=0)
    assert result.moon_choice == "add" and result.totals == (0, 26, 26, 26)


def test_the_engine_scores_a_moon_from_a_played_round_the_same_way() -> None:
    rules = Rules(pass_cycle=("hold",), moon_rule="add-unless-losing", target_score=30)
    game = Game(rules, seed=1, deals=[hands(SUN_DEAL)])
    while game.phase == "playing":
        game.play(game.round.legal_cards()[0])
    result = game.results[-1]
    assert result.shooter == 0 and result.moon_choice == "add"
    assert game.scores == [0, 26, 26, 26]
