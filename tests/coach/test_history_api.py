"""`GET /api/history`, `GET /api/games/{id}/record` and `hearts replay RECORD.json`: the
browser's finished games, each exported as its JSON record and shown in the terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import hearts
from client_support import another_browser
from hardening.driver import store_at
from hearts.cli import main
from hearts.cli.terminal import cards_text
from hearts.record import actions_of, from_record
from hearts.scoring import RoundResult
from hearts.web.coach import NOT_OVER
from hearts.web.history import GameFacts
from hearts.web.store import owner_key
from hearts.web.tokens import COOKIE

from .support import State, play_to_end, start, step
from helpers import play_game

NO_GAME = {"detail": "This browser has no game with that id."}


def finished_game(client: TestClient, target: int = 10, **kwargs: object) -> State:
    return play_to_end(client, start(client, target_score=target, **kwargs))  # type: ignore[arg-type]


def test_the_history_lists_finished_games_newest_first(client: TestClient) -> None:
    first = finished_game(client, levels=["easy", "medium", "easy"])
    unfinished = step(client, start(client))
    second = finished_game(client, target=15, players=3)
    history = client.get("/api/history").json()
    assert [line["id"] for line in history] == [second["id"], first["id"]]
    assert unfinished["id"] not in json.dumps(history)
    line = history[1]
    assert line["finished"] >= line["started"] and line["finished"].endswith("Z")
    assert line["rules"] == {
        "players": 4, "target_score": 10, "house_rules": ["target_score"], "house_rule_names": [],
    }  # fmt: skip
    assert [(o["name"], o["level"]) for o in line["opponents"]] == [
        ("Marisol", "easy"), ("Bertie", "medium"), ("Tamsin", "easy"),
    ]  # fmt: skip
    result = line["result"]
    assert result["scores"] == first["scores"] and result["winners"] == first["winners"]
    assert result["won"] == (0 in first["winners"]) and result["score"] == first["scores"][0]
    assert result["rounds"] == len(first["results"])
    assert result["place"] == 1 + sum(s < first["scores"][0] for s in first["scores"])
    assert history[0]["rules"]["players"] == 3 and len(history[0]["opponents"]) == 2


def test_a_team_game_is_placed_by_teams_and_names_its_house_rule(client: TestClient) -> None:
    state = finished_game(client, partnership=True)
    line = client.get("/api/history").json()[0]
    assert line["rules"]["house_rule_names"] == ["Partners"]
    # The partner across is marked among the other players (listed as an opponent before).
    assert [(o["seat"], o["partner"]) for o in line["opponents"]] == [
        (1, False), (2, True), (3, False),
    ]  # fmt: skip
    mine, theirs = state["scores"][0], state["scores"][1]  # partners share a total
    assert state["scores"][2] == mine and state["scores"][3] == theirs
    # Two teams, two places: a lost team game was "3rd" (two seats below it).
    assert line["result"]["place"] == (1 if mine <= theirs else 2)


def test_a_rule_of_several_choices_is_named_with_the_one_chosen(client: TestClient) -> None:
    """ "Shooting the moon" alone said nothing of a Moon choice game (every game has moons):
    the name says the choice, in the table's own numbers; the fields stay the fields."""
    finished_game(client, moon_rule="choose")
    finished_game(client, players=8, moon_rule="subtract", must_break_hearts=False)
    eight, choose = (line["rules"] for line in client.get("/api/history").json())
    assert choose["house_rules"] == ["moon_rule", "target_score"]
    assert choose["house_rule_names"] == ["Shooting the moon: the shooter chooses"]
    assert eight["house_rules"] == ["moon_rule", "must_break_hearts", "target_score"]
    assert eight["house_rule_names"] == [
        "Hearts must be broken: off", "Shooting the moon: the shooter loses 52",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("partnership", "seat", "place"), [(True, 0, 2), (True, 1, 1), (False, 0, 3), (False, 2, 3)]
)
def test_places_count_teams_with_partners(partnership: bool, seat: int, place: int) -> None:
    totals = (15, 11, 15, 11)
    result = RoundResult(0, (0, 0, 0, 0), (0, 0, 0, 0), totals)
    rules = hearts.Rules(partnership=partnership)
    facts = GameFacts("g", 0.0, 1.0, rules, seat, [], [result], 0)
    assert facts.place == place


def test_each_browser_sees_only_its_own_history(client: TestClient) -> None:
    finished_game(client)
    stranger = another_browser(client)
    assert stranger.get("/api/history").json() == []
    finished_game(stranger)
    mine, theirs = client.get("/api/history").json(), stranger.get("/api/history").json()
    assert len(mine) == len(theirs) == 1 and mine[0]["id"] != theirs[0]["id"]


def test_a_finished_game_exports_its_record(client: TestClient) -> None:
    state = finished_game(client)
    response = client.get(f"/api/games/{state['id']}/record")
    assert response.status_code == 200, response.text
    assert response.headers["content-disposition"] == (
        f'attachment; filename="hearts-{state["id"]}.json"'
    )
    record = response.json()
    assert record["format"] == "hearts-game" and record["dealing"] == "keyed"
    assert [p["name"] for p in record["players"]] == ["You", "Marisol", "Bertie", "Tamsin"]
    game = from_record(record)
    assert game.is_over and list(game.scores) == state["scores"]
    # The record's secret gives the keys the rounds were dealt from.
    assert [game.deal_key(r["hand_number"]) for r in state["results"]] == [
        r["deal_key"] for r in state["results"]
    ]


def test_no_record_before_the_end_nor_of_another_browsers_game(client: TestClient) -> None:
    state = step(client, start(client))
    response = client.get(f"/api/games/{state['id']}/record")
    assert response.status_code == 409 and response.json() == {"detail": NOT_OVER}
    done = finished_game(client)
    stranger = another_browser(client)
    assert stranger.get(f"/api/games/{done['id']}/record").json() == NO_GAME
    response = stranger.get("/api/games/nothing-here/record")
    assert response.status_code == 404 and response.json() == NO_GAME


def test_an_old_game_is_in_the_history_and_exports_as_it_was(
    client: TestClient, data_dir: Path
) -> None:
    start(client)
    owner = owner_key(client.cookies[COOKIE])
    rules = hearts.Rules(target_score=20)
    game = hearts.Game(rules, 2**60 + 3)
    play_game(game)
    seats = [None, "hard", "hard", "hard"]
    store_at(data_dir).create(
        "old", owner, rules.to_dict(), 2**60 + 3, {"seats": seats}, actions_of(game), "over"
    )
    (line,) = client.get("/api/history").json()
    assert line["id"] == "old" and line["result"]["scores"] == list(game.scores)
    record = client.get("/api/games/old/record").json()
    assert record["seed"] == 2**60 + 3 and "dealing" not in record
    assert list(from_record(record).scores) == list(game.scores)


def test_hearts_replay_shows_an_exported_game(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = finished_game(client)
    path = tmp_path / "game.json"
    path.write_text(client.get(f"/api/games/{state['id']}/record").text)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    rounds = len(state["results"])
    assert out.count("\nRound ") == rounds and out.count(" trick ") == 13 * rounds
    assert f"Game over after {rounds} round{'' if rounds == 1 else 's'}:" in out
    first = state["results"][0]
    assert f"dealt from key {first['deal_key']}" in out
    # Every hand of round 1 as the key deals it, under the names the game used.
    dealt = hearts.Round.deal(hearts.Rules(target_score=10), seed=first["deal_key"])
    for seat, name in enumerate(["You", "Marisol", "Bertie", "Tamsin"]):
        hand = cards_text(dealt.hand(seat))  # as every terminal command orders a hand
        assert f"{name}: {hand}" in out
    names = ["You", "Marisol", "Bertie", "Tamsin"]
    totals = ", ".join(f"{n} {t}" for n, t in zip(names, state["scores"], strict=True))
    assert f"totals: {totals}" in out
    assert main(["replay", str(path), "--round", "1"]) == 0
    one = capsys.readouterr().out
    assert one.count("\nRound ") == 1 and one.count(" trick ") == 13


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (None, "cannot read"),
        ("{not json", "is not JSON"),
        ('{"format": "chess"}', "This is not a hearts game record"),
        (
            '{"format": "hearts-game", "version": 1, "rules": {}, "seed": 3,'
            ' "actions": [{"type": "play", "seat": 0, "card": "QS"}]}',
            "Move 1 (seat 0 plays Q♠)",
        ),
    ],
)
def test_hearts_replay_refuses_a_bad_record_in_one_line(
    text: str | None, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "record.json"
    if text is not None:
        path.write_text(text)
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and words in captured.err
    assert captured.err.count("\n") == 1 and captured.err.startswith("hearts replay: ")


def test_hearts_replay_refuses_a_round_the_game_does_not_have(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = hearts.Game(hearts.Rules(target_score=30), seed=5)
    play_game(game)
    path = tmp_path / "record.json"
    path.write_text(hearts.record.dumps(game))
    rounds = len(game.results)
    assert main(["replay", str(path), "--round", str(rounds + 1)]) == 2
    assert rounds > 1
    assert f"the game has rounds 1 to {rounds}, not {rounds + 1}." in capsys.readouterr().err
