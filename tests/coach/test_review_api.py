"""`GET /api/games/{id}/review?round=N`: the person's decisions in a finished round against
the hard player's; refused for a round not yet over (409), a round that is not a number from
1 (422) and another browser's game (404)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from hearts.web.coach import NOT_FINISHED

from .support import start, step

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
    stranger = TestClient(client.app)
    assert stranger.get(url, params={"round": 1}).json() == NO_GAME
    assert client.get("/api/games/nope/review", params={"round": 1}).json() == NO_GAME
