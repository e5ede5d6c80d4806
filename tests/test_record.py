import json

import pytest

from hearts import Game, RecordError, Rules
from hearts.record import FORMAT, actions_of, dumps, from_record, loads, to_record

from helpers import SUN_DEAL, hands, play_game


def played_game(seed: int = 4, steps: int = 30) -> Game:
    game = Game(Rules(moon_rule="choose", bonus_card="JD"), seed=seed)
    for _ in range(steps):
        if game.phase == "passing":
            for seat in game.round.waiting_to_pass():
                game.give(seat, game.round.hand(seat)[-3:])
        elif game.phase == "playing":
            game.play(game.round.legal_cards()[0])
    return game


def test_record_round_trips_to_the_identical_state() -> None:
    game = played_game()
    again = loads(dumps(game))
    assert actions_of(again) == actions_of(game)
    assert again.rules == game.rules and again.seed == game.seed
    for seat in range(4):
        assert again.view(seat) == game.view(seat)


def test_record_is_versioned_json() -> None:
    data = json.loads(dumps(played_game(steps=3)))
    assert data["format"] == FORMAT and data["version"] == 1
    assert data["actions"][0]["type"] == "pass"
    assert data["rules"]["moon_rule"] == "choose"


def test_fixed_deals_are_kept_in_the_record() -> None:
    game = Game(Rules(pass_cycle=("hold",)), seed=9, deals=[hands(SUN_DEAL)])
    game.play("2C")
    data = to_record(game)
    assert data["deals"] == [hands(SUN_DEAL)]
    assert from_record(data).round.hand(0) == game.round.hand(0)


def test_first_bad_action_is_named() -> None:
    data = to_record(played_game(steps=8))
    data["actions"][5] = {"type": "play", "seat": data["actions"][5]["seat"], "card": "ZZ"}
    with pytest.raises(RecordError, match=r"^Move 6 \(seat \d plays ZZ\): 'ZZ' is not a card;"):
        from_record(data)


def test_an_out_of_turn_action_is_named() -> None:
    data = to_record(played_game(steps=8))
    action = data["actions"][6]
    action["seat"] = (action["seat"] + 1) % 4
    with pytest.raises(RecordError, match=r"^Move 7 .*not your turn"):
        from_record(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('{"format": "chess"}', "not a hearts game record"),
        ('{"format": "hearts-game", "version": 9}', "version 9 is not supported"),
        ('{"format": "hearts-game", "version": 1, "seed": 1.5, "actions": []}', "seed"),
        ('{"format": "hearts-game", "version": 1, "seed": 1, "actions": {}}', "actions must be"),
        (
            '{"format": "hearts-game", "version": 1, "seed": 1, "actions": [], '
            '"rules": {"players": 99}}',
            "rules are invalid",
        ),
        (
            '{"format": "hearts-game", "version": 1, "seed": 1, "actions": [], '
            '"deals": [[["2C"]]]}',
            "deals are invalid",
        ),
        (
            '{"format": "hearts-game", "version": 1, "seed": 1, "actions": [], "deals": "abc"}',
            "deals must be",
        ),
        ('{"format": "hearts-game", "version": 1, "seed": 1, "actions": [7]}', "Move 1"),
    ],
)
def test_corrupt_records_are_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads(text)


def test_replay_is_exact_for_a_whole_game() -> None:
    game = play_game(Game(Rules(target_score=40), seed=21), pick_card=lambda c: c[len(c) // 2])
    again = loads(dumps(game))
    assert again.scores == game.scores
    assert again.results == game.results
    assert again.winners == game.winners and again.is_over
