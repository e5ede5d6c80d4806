"""The start screen's house rules and presets in the numbers and cards of each table size."""

from __future__ import annotations

from typing import Any

import pytest

import hearts
from hearts.cards import parse_card
from hearts.rules import MAX_PLAYERS, MIN_PLAYERS
from hearts.web.options import PRESETS, RULE_OPTIONS, face_of, presets, rule_options, table_size

SIZES = range(MIN_PLAYERS, MAX_PLAYERS + 1)


def by_field(options: Any) -> dict[str, Any]:
    return {option["field"]: option for option in options}


def worded(players: int) -> dict[str, Any]:
    """A table's house rules and presets as the page shows them: the standard ones, each
    replaced by the table's own words where /api/options sends them."""
    table = table_size(players)
    return {
        "rules": [table["rules"].get(o["field"], o) for o in RULE_OPTIONS],
        "presets": [table["presets"].get(p["name"], p) for p in PRESETS],
    }


@pytest.mark.parametrize("players", SIZES)
def test_every_table_words_the_moon_and_the_sun_in_its_own_points(players: int) -> None:
    rules = hearts.Rules(players=players)
    table = worded(players)
    words = by_field(table["rules"])
    moon = rules.round_points
    assert words["shoot_the_sun"]["help"].endswith(f"counts double a moon: {2 * moon} points.")
    labels = [choice["label"] for choice in words["moon_rule"]["choices"]]
    assert labels[:2] == [f"Everyone else gets {moon}", f"The shooter loses {moon}"]
    queens = "the queen of spades" if rules.decks == 1 else "both queens of spades"
    assert words["moon_rule"]["help"].endswith(f"every heart and {queens}.")
    presets = {preset["name"]: preset["help"] for preset in table["presets"]}
    assert presets["moon-choice"] == (
        f"The shooter picks: {moon} to the others or {moon} off their own total."
    )
    opening = parse_card(rules.opening_card).name
    assert words["first_lead"]["choices"][0]["label"] == f"The {opening}"
    if rules.decks > 1:
        one_deck = hearts.Rules(players=MIN_PLAYERS).round_points
        text = str(table["rules"]) + str(table["presets"])
        assert f" {one_deck}" not in text and "the queen of spades" not in text


@pytest.mark.parametrize("players", SIZES)
def test_a_table_words_the_same_rules_and_choices_as_the_standard_one(players: int) -> None:
    table = worded(players)
    assert [o["field"] for o in table["rules"]] == [o["field"] for o in RULE_OPTIONS]
    for mine, standard in zip(table["rules"], RULE_OPTIONS, strict=True):
        assert mine["kind"] == standard["kind"] and mine["label"] == standard["label"]
        assert mine["help"].endswith(".")
        values = [c["value"] for c in mine.get("choices", [])]
        assert values == [c["value"] for c in standard.get("choices", [])]
    assert [(p["name"], p["rules"]) for p in table["presets"]] == [
        (p["name"], p["rules"]) for p in PRESETS
    ]


def test_the_standard_wording_is_the_four_player_tables() -> None:
    rules = hearts.Rules()
    assert list(rule_options(rules)) == list(RULE_OPTIONS)
    assert list(presets(rules)) == list(PRESETS)
    assert table_size(rules.players)["rules"] == {} == table_size(rules.players)["presets"]


@pytest.mark.parametrize("players", SIZES)
def test_a_table_sends_only_the_words_that_differ(players: int) -> None:
    table = table_size(players)
    for field, option in table["rules"].items():
        assert option != by_field(RULE_OPTIONS)[field]
    two_decks = hearts.Rules(players=players).decks > 1
    assert ("moon_rule" in table["rules"]) == two_decks


@pytest.mark.parametrize("players", SIZES)
def test_a_table_with_the_kitty_says_what_leads_and_that_nothing_is_left_out(
    players: int,
) -> None:
    table = table_size(players)
    if table["kitty_line"] is None:
        assert table["kitty_rules"] == {}
        return
    rules = hearts.Rules(players=players, kitty=True)
    assert rules.removed_cards == ()
    line = table["kitty_line"]
    assert "every card is dealt" in line and "left out" not in line
    assert f"{rules.hand_size} cards each and {rules.kitty_size} face down" in line
    assert "the 2♣ leads (the lowest club dealt when the 2♣ lies in the kitty)" in line
    lead = table["kitty_rules"].get("first_lead", by_field(RULE_OPTIONS)["first_lead"])
    assert lead["choices"][0]["label"] == "The two of clubs"
    # Where the table leaves the 2♣ out without the kitty, its words differ from the kitty's.
    if "2C" in hearts.Rules(players=players).removed_cards:
        assert "3♣" in table["line"] and "three of clubs" in str(table["rules"]["first_lead"])


def test_the_rules_page_explains_every_house_rule_the_start_screen_offers() -> None:
    # A newcomer found three house rules of the start screen missing from "How to play".
    import re
    from pathlib import Path

    import hearts.web

    page = (Path(hearts.web.__file__).parent / "static/game/rules.html").read_text()
    told = {
        field for marks in re.findall(r'<dt data-field="([^"]+)"', page) for field in marks.split()
    }
    offered = {option["field"] for option in RULE_OPTIONS} - {"target_score", "players"}
    assert offered <= told, sorted(offered - told)


@pytest.mark.parametrize("players", SIZES)
def test_the_table_line_says_the_other_copy_leads_when_one_is_left_out(players: int) -> None:
    # Six players: "left out: 2♣ 2♦; the 2♣ leads" read as the card left out leading.
    rules = hearts.Rules(players=players)
    line = table_size(players)["line"]
    opening = str(rules.opening_card)
    leads = face_of(opening) + " leads."
    if opening in map(str, rules.removed_cards):
        assert rules.decks == 2 and line.endswith(f"; the other {leads}"), line
    else:
        assert line.endswith(f"; the {leads}"), line


def test_a_round_with_no_pass_has_one_name_everywhere_it_is_read() -> None:
    # It had four: "keep" (the start screen, the scorekeeper's setup, the rule sheet), "No
    # pass" (the scorekeeper's rounds, the score sheet), "hold" (docs, --rule) and "no pass
    # this round" (hearts play). "keep" it is; `hold` stays its stored name.
    from pathlib import Path

    from hearts.sheets import PASS_LABELS

    static = Path(hearts.__file__).parent / "web" / "static"
    retired = ('"No pass"', "No pass this round", "No passing this round", "No passing: keep",
               "Hold hand", "then a round with no pass", "no pass: everyone keeps")  # fmt: skip
    for path in [*static.rglob("*.js"), *static.rglob("*.html")]:
        text = path.read_text("utf-8")
        assert not [word for word in retired if word in text], path
    assert PASS_LABELS["hold"] == PASS_LABELS["none"] == "Keep"
    words = (static / "game" / "js" / "words.js").read_text("utf-8")
    assert 'hold: "A keep round: nobody passes",' in words and 'hold: "Keep round",' in words
