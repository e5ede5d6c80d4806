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


#: A record's first keys, the rules standard; a case adds the rest.
RECORD = '{"format": "hearts-game", "version": 1, "rules": {}, '


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('{"format": "chess"}', r"^This is not a hearts game record \(its format is 'chess'\)\.$"),
        ('{"a": 1}', r"^This is not a hearts game record\.$"),
        ('{"format": "hearts-game", "version": 9}', "version 9 is not supported"),
        ('{"format": "hearts-game", "version": true}', "version True is not supported"),
        (RECORD + '"seed": 1.5, "actions": []}', "seed"),
        (RECORD + '"seed": 1, "actions": {}}', "actions must be"),
        (
            '{"format": "hearts-game", "version": 1, "seed": 1, "actions": [], '
            '"rules": {"players": 99}}',
            "rules are invalid",
        ),
        (
            RECORD + '"seed": 1, "actions": [], "deals": [[["2C"]]]}',
            "deals are invalid",
        ),
        (
            RECORD + '"seed": 1, "actions": [], "deals": "abc"}',
            "deals must be",
        ),
        (RECORD + '"seed": 1, "actions": [7]}', "Move 1"),
        ('{"format": "hearts-game", "version": 1, "seed": 1, "actions": []}', "has no rules"),
        (RECORD + '"actions": []}', "The record has no seed: "),
        (RECORD + '"seed": 1}', "The record has no actions: "),
    ],
)
def test_corrupt_records_are_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads(text)


def test_a_record_without_its_rules_says_so_not_that_a_move_breaks_them() -> None:
    # Read as four players, a record of five was refused at its first pass: "Move 1 (seat 0
    # passes ['3C', 'AC', '3D']) breaks the rules; ... You do not hold the three of clubs."
    data = to_record(play_game(Game(Rules(players=5, target_score=20), seed=3)))
    assert from_record(data).is_over
    del data["rules"]
    with pytest.raises(RecordError, match=r"^The record has no rules: they say how many played"):
        from_record(data)


def test_replay_is_exact_for_a_whole_game() -> None:
    game = play_game(Game(Rules(target_score=40), seed=21), pick_card=lambda c: c[len(c) // 2])
    again = loads(dumps(game))
    assert again.scores == game.scores
    assert again.results == game.results
    assert again.winners == game.winners and again.is_over


# --- take-backs: undo actions folded on replay ------------------------------------------------


def test_an_undo_takes_the_game_back_to_its_first_moves() -> None:
    from hearts.record import fold, replay, undo_action, undos

    game = played_game(steps=30)
    actions = actions_of(game)
    # Taken back to move 10, then played on as before: the same game.
    with_undo = [*actions[:14], undo_action(10), *actions[10:]]
    assert fold(with_undo) == actions and undos(with_undo) == 1
    again = replay(game.rules, game.seed, with_undo)
    assert actions_of(again) == actions and again.view(0) == game.view(0)
    # Taken back and not played on: the game as it stood at move 10.
    back = replay(game.rules, game.seed, [*actions, undo_action(10)])
    assert actions_of(back) == actions[:10]
    # Undos fold one on another, each counting the moves standing before it.
    twice = [*actions[:14], undo_action(12), undo_action(3), *actions[3:6]]
    assert fold(twice) == actions[:6]


@pytest.mark.parametrize("to", [-1, 14, 15, "3", None, True, 2.0])
def test_an_undo_that_takes_back_nothing_or_too_much_is_refused(to: object) -> None:
    game = played_game(steps=30)
    actions = [*actions_of(game)[:14], {"type": "undo", "to": to}]
    record = {**to_record(game), "actions": actions}
    with pytest.raises(RecordError, match=r"^Move 15 \(undo to .*\): an undo goes back to"):
        from_record(record)


@pytest.mark.parametrize("before", [0, 1])
def test_an_undo_with_no_move_standing_says_there_is_nothing_to_take_back(before: int) -> None:
    from hearts.record import undo_action

    game = played_game(steps=30)
    # Nothing played yet, or every move already taken back: no range of moves to name.
    actions = [*actions_of(game)[:before], *[undo_action(0)] * before, undo_action(10**18)]
    with pytest.raises(RecordError) as refused:
        from_record({**to_record(game), "actions": actions})
    assert str(refused.value) == (
        f"Move {2 * before + 1} (undo to {10**18}): there is no move to take back yet."
    )


def test_a_record_keeps_its_undos_and_loads_to_the_game_they_leave() -> None:
    from hearts.record import undo_action

    game = played_game(steps=30)
    actions = actions_of(game)
    saved = [*actions[:20], undo_action(5), *actions[5:]]
    record = to_record(game, saved)
    assert record["actions"] == saved
    assert actions_of(loads(json.dumps(record))) == actions
    with pytest.raises(ValueError, match="do not fold"):
        to_record(game, [*actions, undo_action(5)])
    # A move after an undo that no longer fits is named by its place in the record.
    bad = [*actions[:20], undo_action(5), *actions[6:8]]
    with pytest.raises(RecordError, match=r"^Move 22 "):
        from_record({**record, "actions": bad})
