"""`GET /api/games/{id}/review?round=N`: the person's decisions in a finished round against
the hard player's; refused for a round not yet over (409), a round that is not a number from
1 (422) and another browser's game (404)."""

from __future__ import annotations

import functools
import time
from typing import Any

from fastapi.testclient import TestClient

import hearts
from client_support import another_browser
from hearts.ai.review import review_round
from hearts.record import action_to_move
from hearts.web.bots import decision_seed
from hearts.web.characters import OPPONENTS
from hearts.web.coach import GAME_OVER, NOT_FINISHED
from hearts.web.deals import replayed
from hearts.web.reviews import Reviews
from hearts.web.store import Store as SqliteStore

from .support import State, play_to_end, start, step

NO_GAME = {"detail": "This browser has no game with that id."}


def test_a_finished_round_is_reviewed_decision_by_decision(client: TestClient) -> None:
    state = start(client)
    passed = state["view"]["hand"][: state["view"]["cards_to_pass"]]
    played: list[str] = []
    while state["phase"] not in ("round-over", "game-over"):
        if state["phase"] == "playing":
            played.append(state["view"]["legal"][0])
        state = step(client, state)
    response = client.get(f"/api/games/{state['id']}/review", params={"round": 1})
    assert response.status_code == 200, response.text
    review = response.json()
    decisions = review["decisions"]
    assert review["round"] == 1 and len(decisions) == 1 + len(played) == 14
    assert decisions[0]["kind"] == "pass" and sorted(decisions[0]["played"]) == sorted(passed)
    assert [d["played"] for d in decisions[1:]] == [[card] for card in played]
    assert [d["trick"] for d in decisions[1:]] == list(range(1, 14))
    costs = [d["cost"] for d in decisions]
    assert all(cost is not None and cost >= 0 for cost in costs)
    assert abs(review["total_cost"] - sum(costs)) < 0.05
    worst = [costs[i] for i in review["costliest"]]
    assert worst == sorted(worst, reverse=True) and all(c > 0 for c in worst)
    assert len(worst) == min(3, sum(c > 0 for c in costs))
    assert all(d["reason"].endswith(".") for d in decisions)
    assert review["game_end"] is None and not any(d["game_at_stake"] for d in decisions)
    # Asked again: the same review, kept.
    again = client.get(f"/api/games/{state['id']}/review", params={"round": 1}).json()
    assert again == review


def test_refusals(client: TestClient) -> None:
    state = step(client, start(client))
    url = f"/api/games/{state['id']}/review"
    response = client.get(url, params={"round": 1})
    assert response.status_code == 409
    assert response.json() == {"detail": NOT_FINISHED.format(n=1)}
    for bad in ("0", "x", ""):
        response = client.get(url, params={"round": bad})
        assert response.status_code == 422 and response.json()["detail"].endswith(".")
    assert client.get(url).status_code == 422  # no round at all
    stranger = another_browser(client)
    assert stranger.get(url, params={"round": 1}).json() == NO_GAME
    assert client.get("/api/games/nope/review", params={"round": 1}).json() == NO_GAME


def test_a_round_a_finished_game_never_had_is_not_there(client: TestClient) -> None:
    # A game to 10 ends with its first round: round 2 will never be over, and was said to
    # be "not over yet"; the hint says the game, not the round, is over.
    state = play_to_end(client, start(client, target_score=10))
    url = f"/api/games/{state['id']}/review"
    rounds = len(state["results"])
    assert client.get(url, params={"round": rounds}).status_code == 200
    for number in (rounds + 1, 10_000):
        response = client.get(url, params={"round": number})
        assert response.status_code == 404
        which = "round 1" if rounds == 1 else f"rounds 1 to {rounds}"
        assert response.json() == {"detail": f"This game has no round {number}: it has {which}."}
    response = client.post(f"/api/games/{state['id']}/hint", json={})
    assert response.status_code == 409 and response.json() == {"detail": GAME_OVER}


# --- reviews worked out in the background --------------------------------------------------


def settle(client: TestClient, timeout: float = 300.0) -> Reviews:
    """The app's reviews once no decision waits to be reviewed."""
    reviews: Reviews = client.app.state.reviews  # type: ignore[attr-defined]
    deadline = time.monotonic() + timeout
    while reviews.pending:
        assert time.monotonic() < deadline, "the background reviews did not finish"
        time.sleep(0.05)
    return reviews


def reviewed_directly(
    client: TestClient, game_id: str, number: int, seat: int = 0, names: list[str] | None = None
) -> list[dict[str, Any]]:
    """Round `number` (from 1) of the stored game reviewed in one go, as the review was
    made before it was worked out in the background."""
    stored = client.app.state.service.store.load(game_id)  # type: ignore[attr-defined]
    rules = hearts.Rules.from_dict(stored.rules)
    starts = [0] + [i + 1 for i, a in enumerate(stored.actions) if a["type"] == "next"]
    first = starts[number - 1]
    end = starts[number] - 1 if number < len(starts) else len(stored.actions)
    game = replayed(rules, stored.seed, stored.actions[:first])
    moves = [action_to_move(a) for a in stored.actions[first:end]]
    seed = decision_seed(stored.seed, first, seat)
    if names is None:
        names = ["You", *(o["name"] for o in OPPONENTS[: rules.players - 1])]

    def hint_seeds(n: int) -> int:
        return decision_seed(stored.seed, n, seat)

    return [
        d.to_dict() for d in review_round(game, moves, seat, names, seed, hint_seeds=hint_seeds)
    ]


def finish_round(client: TestClient, state: State) -> State:
    while state["phase"] not in ("round-over", "game-over"):
        state = step(client, state)
    return state


def test_a_round_is_reviewed_as_it_is_played_and_ready_when_it_ends(client: TestClient) -> None:
    reviews = settle(client)
    assert reviews.made == {"background": 0, "asked": 0}
    state = step(client, start(client))  # the pass
    settle(client)
    assert reviews.made == {"background": 1, "asked": 0}  # reviewed before a card is played
    state = finish_round(client, state)
    settle(client)
    # Reviewed while the round went on, with no review asked for: the pass and 13 cards.
    assert reviews.made == {"background": 14, "asked": 0}
    response = client.get(f"/api/games/{state['id']}/review", params={"round": 1})
    assert response.status_code == 200, response.text
    review = response.json()
    # Nothing left to work out on request, and the same as the round reviewed in one go.
    assert reviews.made == {"background": 14, "asked": 0}
    assert review["decisions"] == reviewed_directly(client, state["id"], 1)
    assert len(review["decisions"]) == 14


def test_the_review_of_a_changed_history_is_never_a_stale_one(client: TestClient) -> None:
    """A card taken back (as an undo would: the stored moves from it on removed) and
    another played at the same move number: the review shows the new card and what
    followed it, worked out anew, not what was reviewed before."""
    state = start(client)
    while not (state["phase"] == "playing" and len(state["view"]["legal"]) > 1):
        state = step(client, state)
    number, other = state["move"], state["view"]["legal"][1]
    state = step(client, state)  # the first legal card, reviewed in the background
    settle(client)
    before = client.app.state.reviews.made["background"]  # type: ignore[attr-defined]
    take_back(client, state["id"], number)
    state = client.get(f"/api/games/{state['id']}").json()
    assert state["move"] == number
    state = step(client, state, lambda s: ("play", {"card": other}))
    state = finish_round(client, state)
    reviews = settle(client)
    review = client.get(f"/api/games/{state['id']}/review", params={"round": 1}).json()
    assert reviews.made["asked"] == 0
    assert reviews.made["background"] > before  # the new card and the rest reviewed anew
    assert review["decisions"] == reviewed_directly(client, state["id"], 1)
    assert [other] in [d["played"] for d in review["decisions"]]


def take_back(client: TestClient, game_id: str, number: int) -> None:
    """Remove the stored moves from move `number` on (a test's stand-in for an undo)."""
    service = client.app.state.service  # type: ignore[attr-defined]
    store = service.store
    if isinstance(store, SqliteStore):
        with store._transaction() as db:
            db.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, number))
            db.execute("UPDATE games SET moves = ? WHERE id = ?", (number, game_id))
    else:
        with store._connection() as db:
            db.execute("DELETE FROM actions WHERE game_id = %s AND seq >= %s", (game_id, number))
            db.execute("UPDATE games SET moves = %s WHERE id = %s", (number, game_id))
    service.forget([game_id])


def test_each_person_at_a_table_gets_the_review_of_their_own_seat(client: TestClient) -> None:
    """Two people at a table: each one's decisions are reviewed in the background, and
    each is given the review of their own seat only."""
    made = client.post(
        "/api/games", json={"seats": ["you", "friend", "easy", "easy"], "name": "Ann"}
    ).json()
    ann = dict(client.cookies)
    client.cookies = {}
    token = made["table"]["invite"].split("#invite=", 1)[1]
    joined = client.post(f"/api/games/{made['id']}/join", json={"invite": token, "name": "Bea"})
    assert joined.status_code == 200, joined.text
    jars = {0: ann, 1: dict(client.cookies)}
    game_id, played = made["id"], {0: [], 1: []}  # type: ignore[var-annotated]
    for _ in range(500):
        moved = False
        for seat, jar in jars.items():
            client.cookies = jar
            state = client.get(f"/api/games/{game_id}").json()
            if state["phase"] in ("playing", "passing") and seat in state["table"]["waiting_on"]:
                if state["phase"] == "playing":
                    played[seat].append(state["view"]["legal"][0])
                step(client, state)
                moved = True
        if state["phase"] == "round-over":
            break
        assert moved, state["table"]
    reviews = settle(client)
    assert reviews.made["asked"] == 0
    for seat, jar in jars.items():
        client.cookies = jar
        state = client.get(f"/api/games/{game_id}").json()
        review = client.get(f"/api/games/{game_id}/review", params={"round": 1}).json()
        names = [p["name"] for p in state["players"]]
        assert [d["played"] for d in review["decisions"][1:]] == [[c] for c in played[seat]]
        assert review["decisions"] == reviewed_directly(client, game_id, 1, seat, names)
    assert reviews.made["asked"] == 0 and reviews.made["background"] == 28


def test_a_pass_made_as_the_hint_said_costs_nothing_in_the_review(client: TestClient) -> None:
    """The hint and the review weigh a pass against the same pass (the hard player's, seeded
    by the round), so following the hint is never marked down afterwards."""
    state = start(client)
    hinted = client.post(f"/api/games/{state['id']}/hint", json={}).json()["cards"]
    state = step(client, state, lambda s: ("pass", {"cards": hinted}))
    state = finish_round(client, state)
    review = client.get(f"/api/games/{state['id']}/review", params={"round": 1}).json()
    first = review["decisions"][0]
    assert first["kind"] == "pass" and sorted(first["played"]) == sorted(hinted)
    assert first["cost"] == 0 and sorted(first["preferred"]) == sorted(hinted)


def test_the_review_of_a_round_that_could_end_the_game_says_its_costs_count_the_game(
    client: TestClient,
) -> None:
    state = finish_round(client, start(client, target_score=20))
    review = client.get(f"/api/games/{state['id']}/review", params={"round": 1}).json()
    assert review["game_end"] == 30
    assert all(d["game_at_stake"] for d in review["decisions"])


def as_hinted(card: str, state: State) -> tuple[str, dict[str, Any]]:
    return "play", {"card": card}


def test_cards_played_as_the_hints_said_cost_nothing_in_the_review(client: TestClient) -> None:
    """Each card played as the person's hint said (at hard's depth, with the hint's seed) is
    "as the coach would" in the review, though the review searches twice as deep."""
    state = start(client)
    hinted = client.post(f"/api/games/{state['id']}/hint", json={}).json()["cards"]
    state = step(client, state, lambda s: ("pass", {"cards": hinted}))
    plays = 0
    while state["phase"] == "playing":
        card: str = client.post(f"/api/games/{state['id']}/hint", json={}).json()["cards"][0]
        state = step(client, state, functools.partial(as_hinted, card))
        plays += 1
    review = client.get(f"/api/games/{state['id']}/review", params={"round": 1}).json()
    assert plays == 13 and len(review["decisions"]) == 14
    assert [d["cost"] for d in review["decisions"]] == [0] * 14, review["decisions"]
    assert review["total_cost"] == 0
