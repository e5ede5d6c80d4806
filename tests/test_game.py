"""Scoring and the game: moons, the sun, the bonus card, the target, ties."""

import pytest

from hearts import ChooseMoon, Game, IllegalMoveError, Pass, Play, Rules
from hearts.record import actions_of
from hearts.rules import PassCycle
from hearts.scoring import PlayOn, score_round

from helpers import FIRST_TRICK_DEAL, SUN_DEAL, hands, play_game, play_lowest_until_over

HOLD: PassCycle = ("hold",)


def rotated(deal: list[str], by: int) -> list[list[str]]:
    """The deal with every hand moved `by` seats clockwise."""
    return [hands(deal)[(seat - by) % 4] for seat in range(4)]


def finished_game(rules: Rules, *deals: list[list[str]]) -> Game:
    """A game whose fixed deals are played out with the lowest legal card each time."""
    game = Game(rules, seed=5, deals=list(deals))
    for _ in deals:
        while game.phase == "playing":
            game.play(game.round.legal_cards()[0])
        if game.phase == "round-over":
            game.next_round()
    return game


def test_seat_zero_shoots_the_moon_and_the_sun_with_every_club() -> None:
    game = Game(Rules(pass_cycle=HOLD), seed=1, deals=[hands(SUN_DEAL)])
    while game.phase == "playing":
        game.play(game.round.legal_cards()[0])
    result = game.last_result
    assert result is not None
    assert result.points_taken == (26, 0, 0, 0)
    assert result.shooter == 0
    assert result.scores == (0, 26, 26, 26)
    assert game.scores == [0, 26, 26, 26]
    assert game.phase == "round-over"


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        (Rules(pass_cycle=HOLD), (0, 26, 26, 26)),
        (Rules(pass_cycle=HOLD, moon_rule="subtract"), (-26, 0, 0, 0)),
        (Rules(pass_cycle=HOLD, shoot_the_sun=True), (0, 52, 52, 52)),
        (Rules(pass_cycle=HOLD, shoot_the_sun=True, moon_rule="subtract"), (-52, 0, 0, 0)),
        (Rules(pass_cycle=HOLD, bonus_card="JD"), (-10, 26, 26, 26)),
        (Rules(pass_cycle=HOLD, bonus_card="JD", moon_rule="subtract"), (-36, 0, 0, 0)),
    ],
)
def test_moon_rules(rules: Rules, expected: tuple[int, ...]) -> None:
    game = Game(rules, seed=1, deals=[hands(SUN_DEAL)])
    while game.phase == "playing":
        game.play(game.round.legal_cards()[0])
    assert game.last_result is not None and game.last_result.scores == expected


def moon_round(rules: Rules) -> Game:
    game = Game(rules, seed=1, deals=[hands(SUN_DEAL)])
    play_lowest_until_over(game.round)
    return game


def test_add_unless_losing_takes_26_off_when_adding_would_end_the_game_against_the_shooter() -> (
    None
):
    rules = Rules(pass_cycle=HOLD, moon_rule="add-unless-losing")
    rnd = moon_round(rules).round
    result = score_round(rules, rnd, [90, 80, 60, 70])
    assert result.moon_choice == "subtract"
    assert result.totals == (64, 80, 60, 70)
    # When adding ends the game with the shooter lowest, everyone else takes 26.
    result = score_round(rules, rnd, [10, 80, 60, 70])
    assert result.moon_choice == "add"
    assert result.totals == (10, 106, 86, 96)
    # When adding does not end the game, it stands.
    assert score_round(rules, rnd, [50, 10, 10, 10]).moon_choice == "add"


def test_shooter_chooses_when_that_rule_is_on() -> None:
    rules = Rules(pass_cycle=HOLD, moon_rule="choose")
    game = Game(rules, seed=1, deals=[hands(SUN_DEAL)])
    while game.phase == "playing":
        game.play(game.round.legal_cards()[0])
    assert game.to_act == (0,) and game.moon_pending == 0
    assert game.results == []
    with pytest.raises(IllegalMoveError, match="Only the player who shot the moon"):
        game.apply(ChooseMoon(2, "add"))
    with pytest.raises(IllegalMoveError, match="Choose add \\(the moon's points to everyone"):
        game.choose_moon("double")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="not over yet"):
        game.next_round()
    game.choose_moon("subtract")
    assert game.scores == [-26, 0, 0, 0]
    assert game.phase == "round-over" and game.moon_pending is None
    with pytest.raises(IllegalMoveError, match="no moon"):
        game.choose_moon("add")


def test_exactly_the_target_drops_back() -> None:
    rules = Rules(pass_cycle=HOLD, exactly_target_resets_to=50)
    rnd = moon_round(rules).round
    result = score_round(rules, rnd, [0, 74, 10, 10])
    assert result.totals == (0, 50, 36, 36)
    assert result.reset == (1,)


def test_bonus_card_without_a_moon_takes_ten_off() -> None:
    rules = Rules(pass_cycle=HOLD, bonus_card="JD")
    game = Game(rules, seed=1, deals=[hands(FIRST_TRICK_DEAL)])
    play_lowest_until_over(game.round)
    taker = next(s for s in range(4) if game.round.taken[s] >> 22 & 1)  # 22 is the J♦
    assert sum(game.round.points_taken) == 16
    hearts_and_queen = [
        p + (10 if s == taker else 0) for s, p in enumerate(game.round.points_taken)
    ]
    assert sum(hearts_and_queen) == 26


def test_the_game_ends_at_the_target_and_the_lowest_wins() -> None:
    game = finished_game(Rules(pass_cycle=HOLD, target_score=26), hands(SUN_DEAL))
    assert game.is_over and game.phase == "game-over"
    assert game.winners == [0]
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.next_round()


def test_tied_lowest_totals_share_the_win_by_default() -> None:
    rules = Rules(pass_cycle=HOLD, target_score=30)
    game = finished_game(rules, hands(SUN_DEAL), rotated(SUN_DEAL, 1))
    assert game.scores == [26, 26, 52, 52]
    assert game.is_over and game.winners == [0, 1]


def test_tied_lowest_totals_play_on_under_that_rule() -> None:
    rules = Rules(pass_cycle=HOLD, target_score=30, tie_rule="play-on")
    game = Game(rules, seed=5, deals=[hands(SUN_DEAL), rotated(SUN_DEAL, 1)])
    for _ in range(2):
        while game.phase == "playing":
            assert game.play_on is None  # said between rounds only
            game.play(game.round.legal_cards()[0])
        going_on = game.play_on
        game.next_round()
    assert game.scores == [26, 26, 52, 52]
    assert not game.is_over and game.winners == []
    assert game.phase == "playing" and game.hand_number == 2
    # Why, as the front ends say it: 2 and 3 passed 30, and 0 and 1 tie for the lowest.
    assert going_on == PlayOn(reached=(2, 3), tied=(0, 1))
    assert going_on.to_dict() == {"reached": [2, 3], "tied": [0, 1]}
    # Shared, the same totals end the game: nothing goes on.
    shared = finished_game(
        Rules(pass_cycle=HOLD, target_score=30), hands(SUN_DEAL), rotated(SUN_DEAL, 1)
    )
    assert shared.is_over and shared.play_on is None


def test_totals_add_up_over_a_seeded_game() -> None:
    game = play_game(Game(Rules(target_score=60), seed=3), pick_card=lambda legal: legal[-1])
    assert [sum(r.scores[s] for r in game.results) for s in range(4)] == game.scores
    assert max(game.scores) >= 60
    assert game.winners == [s for s in range(4) if game.scores[s] == min(game.scores)]
    assert [r.hand_number for r in game.results] == list(range(len(game.results)))


def test_bad_moves_are_refused() -> None:
    game = Game(Rules(), seed=2)
    with pytest.raises(IllegalMoveError, match="not a move"):
        game.apply({"type": "dance"})  # type: ignore[arg-type]
    assert game.why_not("play") == "'play' is not a move; use Pass, Play, ChooseMoon or NextRound."  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="no seat 7"):
        game.apply(Pass(7, ["2C", "3C", "4C"]))
    with pytest.raises(IllegalMoveError, match="still being passed"):
        game.apply(Play(0, "2C"))
    assert not game.can(Play(0, "2C")) and game.can(Pass(0, game.round.hand(0)[:3]))
    assert actions_of(game) == []


def test_a_replay_refused_names_the_move_with_its_cards_as_people_read_them() -> None:
    # It said "Move 1 (seat 0 passes 2C QS TH)", where every other message writes "Q♠".
    with pytest.raises(IllegalMoveError, match=r"^Move 1 \(seat 0 passes 2♣ Q♠ 10♥\): "):
        Game.replay(Rules(), 7, [Pass(0, ["2C", "QS", "TH"])])
    with pytest.raises(IllegalMoveError, match=r"^Move 1 \(seat 0 plays 10♥\): "):
        Game.replay(Rules(), 7, [Play(0, "TH")])
