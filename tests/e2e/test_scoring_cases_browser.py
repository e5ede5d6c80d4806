"""The shared scoring cases (tests/scoring_cases.json) against the scorekeeper's model.js.

The same file is checked against `hearts.scoring` by tests/test_scoring_cases.py, so the
engine and the scorekeeper agree on every case. The first tests here check the file itself
(its shape, that it covers every rule, that its arithmetic holds together); the last loads
model.js in headless Chromium and scores every case with it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from hearts import Rules
from hearts.web import sheets_routes

from browser_support import PHONE, LiveServer, chromium

CASES_FILE = Path(__file__).parent.parent / "scoring_cases.json"
CASE_KEYS = {
    "name",
    "rules",
    "totals",
    "points",
    "bonus",
    "shooter",
    "sun",
    "choice",
    "expected_scores",
    "expected_totals",
}
PER_SEAT = ("totals", "points", "bonus", "expected_scores", "expected_totals")


def load_cases() -> list[dict[str, Any]]:
    data = json.loads(CASES_FILE.read_text(encoding="utf-8"))
    assert data["version"] == 1
    cases: list[dict[str, Any]] = data["cases"]
    return cases


CASES = load_cases()


def rules_of(case: dict[str, Any]) -> Rules:
    return Rules(**case["rules"])


def team(rules: Rules, seat: int) -> tuple[int, ...]:
    return (seat % 2, seat % 2 + 2) if rules.partnership else (seat,)


# --- the file itself ------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[c["name"][:60] for c in CASES])
def test_a_case_is_well_formed(case: dict[str, Any]) -> None:
    assert set(case) == CASE_KEYS
    rules = rules_of(case)  # a Rules the engine accepts
    assert all(value != getattr(Rules(), key) for key, value in case["rules"].items()), (
        "rules hold only the fields that differ from the default"
    )
    for key in PER_SEAT:
        assert len(case[key]) == rules.players, key
        assert all(isinstance(v, int) and not isinstance(v, bool) for v in case[key]), key
    assert isinstance(case["sun"], bool)
    assert case["choice"] in (None, "add", "subtract")
    if case["choice"] is not None:
        assert rules.moon_rule == "choose", "only a choosing shooter is asked"
    if case["shooter"] is None:
        assert case["sun"] is False
    # The points are those of a real round: every point card, the bonus cards all taken.
    assert sum(case["points"]) == rules.round_points
    assert all(0 <= p <= rules.round_points for p in case["points"])
    assert sum(case["bonus"]) == (rules.decks if rules.bonus_card else 0)
    if case["shooter"] is not None:
        shooter = case["shooter"]
        assert shooter in (range(2) if rules.partnership else range(rules.players))
        assert sum(case["points"][s] for s in team(rules, shooter)) == rules.round_points
    else:
        for seat in range(rules.players):
            assert sum(case["points"][s] for s in team(rules, seat)) < rules.round_points


@pytest.mark.parametrize("case", CASES, ids=[c["name"][:60] for c in CASES])
def test_the_expected_totals_follow_from_the_expected_scores(case: dict[str, Any]) -> None:
    rules = rules_of(case)
    added = [t + s for t, s in zip(case["totals"], case["expected_scores"], strict=True)]
    reset = rules.exactly_target_resets_to
    dropped = [reset if reset is not None and t == rules.target_score else t for t in added]
    assert case["expected_totals"] == dropped
    if rules.partnership:
        for seats in ("totals", "expected_scores", "expected_totals"):
            assert case[seats][0] == case[seats][2] and case[seats][1] == case[seats][3]


def test_the_cases_cover_every_rule() -> None:
    names = [case["name"] for case in CASES]
    assert len(CASES) >= 40
    assert len(set(names)) == len(names), "every case has its own name"
    rules = [rules_of(case) for case in CASES]
    moons = [(r, c) for r, c in zip(rules, CASES, strict=True) if c["shooter"] is not None]
    assert {r.moon_rule for r, _ in moons} == {"add", "subtract", "choose", "add-unless-losing"}
    assert any(c["choice"] is None for r, c in moons if r.moon_rule == "choose")
    assert {c["choice"] for r, c in moons if r.moon_rule == "choose"} == {None, "add", "subtract"}
    assert any(r.shoot_the_sun and c["sun"] for r, c in moons)
    assert any(not r.shoot_the_sun and c["sun"] for r, c in moons)
    assert {r.exactly_target_resets_to for r in rules} == {None, 0, 50}
    assert any(r.partnership and c["shooter"] is not None for r, c in moons)
    assert any(r.partnership and c["shooter"] is None for r, c in zip(rules, CASES, strict=True))
    assert {r.players for r in rules} >= {3, 4, 5, 6, 7, 8, 9, 10}
    assert {r.bonus_card for r in rules} == {None, "JD", "TD"}
    assert {r.tie_rule for r in rules} == {"share", "play-on"}
    assert any(r.target_score != 100 for r in rules)
    # Both outcomes of each judged rule: the shooter adds in some cases and subtracts in others.
    for judged in ("add-unless-losing", "choose"):
        # Under "add" the other seats score the moon (16 or more); under "subtract", 0 or less.
        outcomes = {
            any(
                score > 0
                for seat, score in enumerate(c["expected_scores"])
                if seat not in team(r, c["shooter"])
            )
            for r, c in moons
            if r.moon_rule == judged and c["choice"] is None
        }
        assert outcomes == {True, False}, judged


# --- the scorekeeper's model ------------------------------------------------------------------

SCORE_WITH_THE_MODEL = """async (cases) => {
  const m = await import('/scorekeeper/model.js');
  const known = ['players', 'moon_rule', 'shoot_the_sun', 'target_score',
                 'exactly_target_resets_to', 'tie_rule', 'bonus_card', 'partnership'];
  const bonusCards = { JD: 'jack', TD: 'ten' };
  return cases.map((c) => {
    try {
      const r = c.rules;
      const unknown = Object.keys(r).filter((k) => !known.includes(k));
      if (unknown.length) throw new Error(`the scorekeeper has no rule ${unknown[0]}`);
      const n = r.players ?? 4;
      const target = r.target_score ?? 100;
      const reset = r.exactly_target_resets_to ?? null;
      const exact = reset === null ? 'none' : reset === 0 ? 'zero'
        : reset === Math.floor(target / 2) ? 'half' : null;
      if (exact === null) throw new Error(`the scorekeeper cannot drop to ${reset}`);
      const settings = {
        ...m.defaultSettings(n),
        moonRule: r.moon_rule ?? 'add',
        target,
        exact,
        bonus: r.bonus_card ? bonusCards[r.bonus_card] : 'none',
        tie: r.tie_rule ?? 'share',
        partnership: r.partnership ?? false,
        sun: r.shoot_the_sun ?? false,
      };
      const names = Array.from({ length: n }, (_, i) => `P${i + 1}`);
      const game = m.newGame(names, settings);
      const moon = c.shooter === null ? null : { shooter: c.shooter, sun: c.sun, choice: c.choice };
      const entry = { points: c.points.map(String), bonus: c.bonus, moon };
      const scored = m.scoreRound(game, c.totals, entry);
      // The round as a person would enter it (a choosing shooter's choice preselected by the
      // scorekeeper's suggestion) must pass the scorekeeper's checks.
      const asked = moon && moon.choice === null && settings.moonRule === 'choose'
        ? { ...moon, choice: m.suggestedChoice(game, c.totals, entry) } : moon;
      const check = m.checkRound(game, { ...entry, moon: asked });
      const refused = check.ok ? null : check.message;
      return { scores: scored.points, totals: scored.totals, check: refused };
    } catch (error) {
      return { error: String(error) };
    }
  });
}"""


class Server(LiveServer):
    def __init__(self) -> None:
        app = FastAPI()
        app.include_router(sheets_routes.router)
        super().__init__(app)


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    server = Server().start()
    try:
        for browser in chromium():
            context = browser.new_context(viewport=PHONE, base_url=server.url)
            tab = context.new_page()
            tab.goto("/scorekeeper")
            tab.wait_for_selector("body[data-ready=true]")
            yield tab
            context.close()
    finally:
        server.stop()


@pytest.mark.browser
def test_the_model_scores_every_case_as_the_file_says(page: Any) -> None:
    results = page.evaluate(SCORE_WITH_THE_MODEL, CASES)
    wrong = []
    for case, result in zip(CASES, results, strict=True):
        got = {k: result.get(k) for k in ("scores", "totals", "check", "error")}
        want = {
            "scores": case["expected_scores"],
            "totals": case["expected_totals"],
            "check": None,
            "error": None,
        }
        if got != want:
            wrong.append(f"{case['name']}: got {got}, want {want}")
    assert wrong == [], "\n".join(wrong)
