"""Issue 11: the web game at every table size, 3 to 10, through the JSON API.

A round and the next deal at each size; levels one per computer player or one for all; the
table sizes listed from `Rules`; a house rule that makes no sense at a size refused with the
engine's sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

import hearts
from hearts.rules import MAX_PLAYERS, MIN_PLAYERS
from hearts.web.app import create_app
from hearts.web.characters import OPPONENTS
from hearts.web.deals import replayed
from hearts.web.options import RULE_OPTIONS, table_sizes
from hearts.web.store import Store

State = dict[str, Any]
SIZES = range(MIN_PLAYERS, MAX_PLAYERS + 1)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def client(data_dir: Path) -> Iterator[TestClient]:
    with TestClient(create_app(data_dir, bot_workers=0)) as test_client:
        yield test_client


def start(client: TestClient, players: int, levels: list[str] | None = None) -> State:
    body = {"levels": levels or ["easy"] * (players - 1), "rules": {"players": players}}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    state: State = response.json()
    return state


def step(client: TestClient, state: State) -> State:
    phase, view = state["phase"], state["view"]
    if phase == "passing":
        body: dict[str, Any] = {"cards": view["hand"][: view["cards_to_pass"]]}
        path = "pass"
    elif phase == "playing":
        body, path = {"card": view["legal"][-1]}, "play"
    elif phase == "moon-choice":
        body, path = {"choice": "add"}, "moon"
    else:
        body, path = {}, "next"
    response = client.post(f"/api/games/{state['id']}/{path}", json={**body, "move": state["move"]})
    assert response.status_code == 200, response.text
    result: State = response.json()
    return result


def stored_game(data_dir: Path, game_id: str) -> hearts.Game:
    stored = Store(data_dir).load(game_id)
    assert stored is not None
    return replayed(hearts.Rules.from_dict(stored.rules), stored.seed, stored.actions)


@pytest.mark.parametrize("players", SIZES)
def test_a_round_and_the_next_deal_at_every_size(
    players: int, client: TestClient, data_dir: Path
) -> None:
    state = start(client, players)
    rules = hearts.Rules(players=players)
    view = state["view"]
    assert view["players"] == players and view["seat"] == 0
    assert len(state["players"]) == players == len(state["scores"])
    names = [p["name"] for p in state["players"]]
    assert names[0] == "You" and names[1:] == [o["name"] for o in OPPONENTS[: players - 1]]
    assert len(set(names)) == players
    assert len(view["hand"]) == rules.hand_size
    seen_events: set[str] = set()
    played = 0
    for _ in range(200):
        if state["phase"] == "round-over":
            break
        if state["phase"] == "playing":
            played += 1
        state = step(client, state)
        seen_events |= {event["type"] for event in state["events"]}
    assert state["phase"] == "round-over", "the round did not end"
    assert played == rules.tricks_per_round  # one card of the person's per trick
    result = state["results"][-1]
    assert len(result["points_taken"]) == len(result["scores"]) == players
    assert result["totals"] == state["scores"]
    # Every deck's 26 points went somewhere; with two decks cancelled cards score nothing.
    taken = sum(result["points_taken"])
    assert taken == rules.round_points if rules.decks == 1 else 0 < taken <= rules.round_points
    assert {"play", "trick", "round-over"} <= seen_events
    # The next deal: a fresh hand of the right size, round 2, the stored game agrees.
    state = step(client, state)
    assert state["view"]["hand_number"] == 1
    assert len(state["view"]["hand"]) == rules.hand_size
    assert state["phase"] in ("passing", "playing")
    game = stored_game(data_dir, state["id"])
    assert game.view(0).to_dict() == state["view"]
    assert len(game.moves) == state["move"]


def test_two_deck_tricks_carry_cancellation_words(client: TestClient) -> None:
    state = start(client, 8)
    tricks = []
    while state["phase"] != "round-over":
        state = step(client, state)
        tricks += [e for e in state["events"] if e["type"] == "trick"]
    assert tricks and all({"cancelled", "carried", "held_over"} <= set(trick) for trick in tricks)
    # Sixteen cards of each face in play, eight to a trick: cancellations happen.
    assert any(trick["cancelled"] for trick in tricks)


def test_one_level_for_all_and_one_per_player(client: TestClient) -> None:
    state = start(client, 6, ["medium"])
    assert [p["level"] for p in state["players"]] == [None] + ["medium"] * 5
    mixed = ["easy", "medium", "hard", "easy"]
    state = start(client, 5, mixed)
    assert [p["level"] for p in state["players"][1:]] == mixed


def test_todays_four_player_request_still_works(client: TestClient) -> None:
    response = client.post("/api/games", json={"levels": ["easy", "easy", "medium"]})
    assert response.status_code == 201
    assert response.json()["view"]["players"] == 4
    assert client.post("/api/games", json={}).json()["view"]["players"] == 4


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"rules": {"players": 11}}, "3 to 10 players"),
        ({"rules": {"players": 2}}, "3 to 10 players"),
        ({"rules": {"players": 5}, "levels": ["easy"] * 3}, "needs 4 computer levels, not 3"),
        ({"rules": {"players": 3}, "levels": ["easy"] * 3}, "needs 2 computer levels, not 3"),
        ({"rules": {"players": 6, "kitty": True}}, "without a kitty"),
        ({"rules": {"players": 5, "partnership": True}}, "four players"),
        ({"rules": {"players": 5, "pass_cycle": ["left", "across"]}}, "Nobody sits across"),
        ({"rules": {"players": 10, "target_score": 5000}}, "at most 1000"),
        ({"levels": ["easy"] * 10}, "at most 9"),
    ],
)
def test_a_table_that_cannot_be_is_refused_in_one_sentence(
    body: dict[str, Any], words: str, client: TestClient
) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert words in detail and detail.count(". ") == 0, detail
    assert client.get("/api/games").json() == []  # nothing was started


def test_options_list_every_size_from_the_rules(client: TestClient) -> None:
    tables = client.get("/api/options").json()["tables"]
    assert [t["players"] for t in tables] == list(SIZES)
    for table in tables:
        rules = hearts.Rules(players=table["players"])
        assert table["removed_cards"] == list(rules.removed_cards)
        assert table["opening_card"] == rules.opening_card
        assert table["decks"] == rules.decks and table["hand_size"] == rules.hand_size
        assert table["defaults"] == rules.to_dict()
        assert f"{rules.hand_size} cards each" in table["line"]
        assert ("one deck" in table["line"]) == (rules.decks == 1)
        # Every offered choice starts a game; every other one is refused by the engine.
        for option in RULE_OPTIONS:
            offered = table["offered"].get(option["field"])
            if option["kind"] == "toggle":
                extra = {"partnership": True} if option["field"] == "partners_pass" else {}
                made = _makes(table["players"], {**extra, option["field"]: True})
                assert offered is made, (table["players"], option["field"])
            elif option["kind"] == "choice":
                made_list = [
                    i
                    for i, choice in enumerate(option["choices"])
                    if _makes(table["players"], {option["field"]: choice["value"]})
                ]
                assert offered == made_list, (table["players"], option["field"])
    by_size = {t["players"]: t for t in tables}
    assert by_size[4]["offered"]["partnership"] is True
    assert by_size[5]["offered"]["partnership"] is False
    assert by_size[5]["opening_card"] == "3C" and "3♣ leads" in by_size[5]["line"]
    assert by_size[6]["offered"]["kitty"] is False and by_size[3]["kitty_line"]
    assert "across" not in str(
        [
            c
            for i, c in enumerate(RULE_OPTIONS[1]["choices"])
            if i in by_size[3]["offered"]["pass_cycle"]
        ]
    )


def _shown(table: dict[str, Any]) -> list[tuple[str, Any]]:
    """Every (field, value) the start screen offers at this table, toggles both ways."""
    found: list[tuple[str, Any]] = []
    for option in RULE_OPTIONS:
        offered = table["offered"].get(option["field"])
        if option["kind"] == "toggle":
            found += [(option["field"], False)] + ([(option["field"], True)] if offered else [])
        elif option["kind"] == "choice":
            found += [(option["field"], option["choices"][i]["value"]) for i in offered]
    return found


def _page_refuses(table: dict[str, Any], chosen: dict[str, Any], target: int) -> bool:
    """What the start screen makes of these choices from the table's conflicts, as setup.js
    reads them: refused when a rule's value clashes with another rule's or the length."""
    now = {**table["defaults"], **chosen}
    for clash in table["conflicts"]:
        if now[clash["field"]] != clash["value"]:
            continue
        if clash["when"] == "target_score":
            if target < clash["least"]:
                return True
        elif now[clash["when"]] == clash["is"]:
            return True
    return False


@pytest.mark.parametrize("players", SIZES)
def test_the_start_screen_knows_every_pair_of_rules_the_engine_refuses(
    client: TestClient, players: int
) -> None:
    # "Pass to your partner" could be ticked without "Partners", and "Drop to 50" chosen for
    # a game to 50: the engine refused them only after Deal. Every pair of choices offered at
    # a table, at the lengths around the edges, is refused on the page just when the engine
    # refuses it.
    table = next(t for t in client.get("/api/options").json()["tables"] if t["players"] == players)
    shown = _shown(table)
    for i, (field, value) in enumerate(shown):
        for other, setting in shown[i:]:
            if other == field and setting != value:
                continue
            chosen = {field: value, other: setting}
            for target in (1, 50, 51, 100, 1000):
                made = _makes(players, {**chosen, "target_score": target})
                assert _page_refuses(table, chosen, target) is not made, (chosen, target)
    # The page says why in the engine's own sentence, or the length it needs.
    whys = {c["why"] for c in table["conflicts"]}
    assert "It needs a game length above 50 points." in whys
    if players == 4:
        assert "Passing to a partner needs partnership play." in whys


TABLES_SHOWN = {table["players"]: table for table in table_sizes()}


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_any_mix_of_rules_the_start_screen_allows_is_dealt(data: st.DataObject) -> None:
    # Beyond pairs: a whole mix of house rules, as a person may tick them, is refused on the
    # page just when the engine refuses it (no three rules that clash where two do not).
    table = TABLES_SHOWN[data.draw(st.sampled_from(list(SIZES)))]
    shown = _shown(table)
    chosen: dict[str, Any] = {}
    for field in sorted({f for f, _ in shown}):
        values = [v for f, v in shown if f == field]
        if data.draw(st.booleans()):
            chosen[field] = data.draw(st.sampled_from(values))
    target = data.draw(st.sampled_from([1, 49, 50, 51, 100, 1000]))
    made = _makes(table["players"], {**chosen, "target_score": target})
    assert _page_refuses(table, chosen, target) is not made, (chosen, target)


def test_the_scatter_pass_says_how_many_cards_it_takes_at_each_table(client: TestClient) -> None:
    # At ten players "one card to each" is 9 of the 10 cards held; the screen never said so.
    options = client.get("/api/options").json()
    tables = {t["players"]: t for t in options["tables"]}
    standard = next(o for o in options["rules"] if o["field"] == "pass_cycle")
    for players in (4, 6, 8, 10):
        rules = hearts.Rules(players=players, pass_cycle=("scatter",))
        n, held = rules.cards_to_pass("scatter"), rules.hand_size
        # Each table's words, where they differ from the standard table's.
        cycle = tables[players]["rules"].get("pass_cycle", standard)
        assert f"you pass {n} of your {held} cards to {n} others" in cycle["help"], players
        assert any(c["label"].endswith(f"({n} cards)") for c in cycle["choices"]), players
    # With the kitty the hand is another size, and the words follow it.
    kitty = tables[4]["kitty_rules"]["pass_cycle"]["help"]
    assert "you pass 3 of your 12 cards" in kitty


def _makes(players: int, rules: dict[str, Any]) -> bool:
    try:
        hearts.Rules.from_dict({"players": players, **rules})
    except ValueError:
        return False
    return True


def test_there_is_a_character_for_every_computer_seat(client: TestClient) -> None:
    opponents = client.get("/api/options").json()["opponents"]
    assert len({o["id"] for o in opponents}) == MAX_PLAYERS - 1
    assert len({o["name"] for o in opponents}) == MAX_PLAYERS - 1
    for o in opponents:
        assert o["blurb"].endswith(".") and set(o["quips"]) == {"queen", "moon", "clean"}
        # Three lines of each kind, taken in turn: one line every clean round read as a loop.
        for lines in o["quips"].values():
            assert len(set(lines)) == len(lines) == 3, lines
            assert all(line[-1] in ".!?" for line in lines), lines
        assert {"skin", "hair", "style", "extra"} <= set(o["face"])


def test_the_rules_page_table_matches_the_engine(client: TestClient) -> None:
    page = client.get("/rules").text
    rows = dict(re.findall(r'<tr data-players="(\d+)">(.*?)</tr>', page))
    assert sorted(map(int, rows)) == list(SIZES)
    for players, row in rows.items():
        cells = re.findall(r"<td>(.*?)</td>", row)
        rules = hearts.Rules(players=int(players))
        assert cells[0] == players
        assert cells[1] == ("one" if rules.decks == 1 else "two")
        assert cells[2] == str(rules.hand_size)
        assert cells[3] == (" ".join(_face(c) for c in rules.removed_cards) or "none")
        assert cells[4] == _face(rules.opening_card)
        if int(players) <= 5:
            assert cells[5] == str(hearts.Rules(players=int(players), kitty=True).kitty_size)
        else:
            assert cells[5] == "no kitty"
    for words in ("Identical cards cancel", "hold-over", "Three and five players", "Partners"):
        assert words in page


def _face(card: str) -> str:
    rank = "10" if card[0] == "T" else card[0]
    return rank + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[card[1]]
