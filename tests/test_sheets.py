"""The printable sheets: one page of the right size, the rules in the text, the CLI."""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import re
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from reportlab.pdfbase import pdfmetrics

from hearts import Rules, sheets
from hearts.cli import sheets as sheets_cli
from hearts.cli.parser import Parser
from hearts.rules import MAX_PLAYERS, MIN_PLAYERS
from hearts.scoring import score_points
from hearts.web import options, sheets_routes
from pdf_support import font_names, pdf_streams, pdf_text, shown_text, unescape

LETTER = (612.0, 792.0)
A4 = (595.276, 841.89)


def page_info(data: bytes) -> tuple[int, tuple[float, float]]:
    counts = re.findall(rb"/Count (\d+)", data)
    assert counts, "no page tree"
    box = re.search(rb"/MediaBox \[ ?([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) ?\]", data)
    assert box is not None
    return int(counts[0]), (float(box.group(3)), float(box.group(4)))


def assert_size(size: tuple[float, float], expected: tuple[float, float]) -> None:
    assert size == pytest.approx(expected, abs=0.5)


# --- rule sheet ------------------------------------------------------------------------------


@pytest.mark.parametrize(("paper", "size"), [("letter", LETTER), ("a4", A4), ("A4", A4)])
def test_rule_sheet_is_one_page_of_the_paper(paper: str, size: tuple[float, float]) -> None:
    data = sheets.rule_sheet_pdf(paper)
    assert data.startswith(b"%PDF-")
    pages, got = page_info(data)
    assert pages == 1
    assert_size(got, size)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_rule_sheet_holds_the_key_rules(paper: str) -> None:
    text = pdf_text(sheets.rule_sheet_pdf(paper)).lower()
    for phrase in [
        "pass",
        "left",
        "right",
        "across",
        "hold",
        "two of clubs",
        "follow suit",
        "no hearts and no queen of spades on this trick",
        "nobody may lead a heart until a heart has been played",
        "queen of spades",
        "13 points",
        "26",
        "shoot the moon",
        "every other player scores 26",
        "100",
        "lowest total wins",
        "play on until one player is lowest alone",
        "two decks",
        "cancel",
        "52",
        # the house rules box
        "house rules",
        "takes 26 off",
        "jack of diamonds",
        "adds up to 16",
        "exactly 100 drops to 50, or to 0",
        "scatter",
        "the sun",
        "counts 52",
        "hearts any time",
        "dealer's left leads",
        "queen at first chance",
        "the kitty",
        "partnership",
    ]:
        assert phrase in text, phrase
    # What the sheet used to get wrong.
    for wrong in ["one more round", "winner of the first trick", "if every card cancels"]:
        assert wrong not in text, wrong


def test_rule_sheet_prints_no_bare_paths() -> None:
    text = pdf_text(sheets.rule_sheet_pdf())
    assert re.search(r"\(/|/sheets|/scorekeeper", text) is None, text


def test_two_deck_paragraph_says_what_the_engine_does() -> None:
    text = pdf_text(sheets.rule_sheet_pdf()).lower()
    # Cards are left out of the deal (the engine removes them), one 2C always among them so
    # that the other leads, and a trick waits only when every card of the suit led cancels.
    assert "leave out the cards in the table" in text
    assert "is always left out, so whoever holds the other" in text
    assert "if every card of the suit led cancels, the same player leads again" in text
    for players in range(6, 11):
        assert f"{players} players {Rules(players=players).hand_size} each" in text


def test_the_rule_sheet_reads_its_numbers_from_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    # Change what Rules says a table holds: the sheet follows, because it asks Rules.
    monkeypatch.setattr(Rules, "hand_size", property(lambda rules: 90 + rules.players))
    monkeypatch.setattr(Rules, "removed_cards", property(lambda rules: ("AH",)))
    text = pdf_text(sheets.rule_sheet_pdf())
    assert "94 cards each with four players" in text
    assert "(93 cards each)" in text  # three players
    for players in range(6, 11):
        assert f"{players} players {90 + players} each" in text
    score = pdf_text(sheets.score_sheet_pdf(players=8))
    assert "Deal 98 cards each, leave out" in score


def one_and_two_decks() -> tuple[Rules, Rules]:
    tables = [Rules(players=n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
    return Rules(), next(t for t in tables if t.decks == 2)


def engine_round_total(rules: Rules) -> int:
    """What the engine's scores of one round add up to when a player takes every copy of the
    bonus card and the points are split (no moon)."""
    rules = dataclasses.replace(rules, bonus_card="JD")
    seats = rules.players
    points = [rules.round_points - 1, 1] + [0] * (seats - 2)
    bonus = [rules.decks] + [0] * (seats - 1)
    return sum(score_points(rules, [0] * seats, points, bonus).scores)


def engine_sun(rules: Rules) -> int:
    """What each other player scores when someone shoots the sun, as the engine counts it."""
    rules = dataclasses.replace(rules, shoot_the_sun=True)
    seats = rules.players
    result = score_points(
        rules, [0] * seats, [rules.round_points] + [0] * (seats - 1), None, 0, True
    )
    return result.scores[1]


def house_rule_phrases() -> dict[str, list[str]]:
    """For every field of `Rules`, words the rule sheet must hold (lower case)."""
    one, two = one_and_two_decks()
    target = one.target_score
    (option,) = [o for o in options.RULE_OPTIONS if o["field"] == "pass_count"]
    others = [c["value"] for c in option["choices"] if c["value"] != one.pass_count]
    counts = ", ".join(map(str, others[:-1])) + f" or {others[-1]}"
    return {
        "players": ["3 to 10 players", "six to ten players: two decks"],
        "pass_count": [f"pass {counts} cards instead of {one.pass_count}"],
        "pass_cycle": ["skip the keep round", "make it a scatter"],
        "points_on_first_trick": ["points allowed on the first trick"],
        "must_break_hearts": ["hearts any time"],
        "queen_breaks_hearts": ["breaks hearts too"],
        "lead_hearts_instead_of_queen": [
            "heart lead instead of the queen:",
            "before hearts break, you may lead a heart instead of the queen",
        ],
        "bonus_card": [
            "the jack of diamonds",
            f"a round then adds up to {engine_round_total(one)}, or "
            f"{engine_round_total(two)} with two decks",
        ],
        "moon_rule": [
            f"takes {one.round_points} off instead ({two.round_points} with two decks)",
            "the shooter chooses",
            "unless that ends the game with someone else winning",
        ],
        "shoot_the_sun": [
            f"counts {engine_sun(one)} ({engine_sun(two)} with two decks)",
        ],
        "target_score": [f"reaches {target} or more", f"shorter game: play to {target // 2}"],
        "exactly_target_resets_to": [f"exactly {target} drops to {target // 2}, or to 0"],
        "tie_rule": ["share the win", "play on until one player is lowest alone"],
        "first_lead": ["dealer's left leads: any card to the first trick"],
        "queen_at_first_chance": ["queen at first chance"],
        "kitty": ["the kitty: one deck only"],
        "partnership": ["partnership: four players"],
        "partners_pass": ["pass to each other every round"],
    }


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_house_rule_the_game_offers_has_a_line(paper: str) -> None:
    phrases = house_rule_phrases()
    # A new field of Rules fails here until the sheet (and this list) covers it.
    assert set(phrases) == {field.name for field in dataclasses.fields(Rules)}
    assert {option["field"] for option in options.RULE_OPTIONS} <= set(phrases)
    text = pdf_text(sheets.rule_sheet_pdf(paper)).lower()
    missing = [(field, p) for field, wanted in phrases.items() for p in wanted if p not in text]
    assert missing == []


def test_the_bonus_card_line_is_right_for_two_decks() -> None:
    text = pdf_text(sheets.rule_sheet_pdf())
    one, two = one_and_two_decks()
    assert engine_round_total(one) == sheets.bonus_round_points(one) == 16
    assert engine_round_total(two) == sheets.bonus_round_points(two) == 32
    # The one-deck total never stands alone any more.
    assert "adds up to 16." not in text
    assert "adds up to 16, or 32 with two decks (each copy counts)" in text


def test_the_pass_counts_on_the_sheet_are_the_games() -> None:
    (option,) = [o for o in options.RULE_OPTIONS if o["field"] == "pass_count"]
    assert tuple(choice["value"] for choice in option["choices"]) == sheets.PASS_COUNTS


def test_kitty_and_partners_are_offered_where_the_sheet_says() -> None:
    for size in options.table_sizes():
        rules = Rules(players=size["players"])
        assert size["offered"]["kitty"] == (rules.decks == 1)  # "one deck only"
        assert size["offered"]["partnership"] == (rules.players == 4)  # "four players"
        assert size["offered"]["partners_pass"] == (rules.players == 4)


# --- the rule sheet for one table ------------------------------------------------------------


def test_the_rule_sheet_can_name_a_table() -> None:
    general = pdf_text(sheets.rule_sheet_pdf())
    assert "For this table" not in general
    assert "3 to 10 players, best with 4" in general
    five = pdf_text(sheets.rule_sheet_pdf(players=5, passing="no-hold"))
    hand = Rules(players=5).hand_size
    assert f"For this table: 5 players, one deck, {hand} cards each" in five
    assert "Pass 3 cards in turn: left, right " in five
    eight = pdf_text(sheets.rule_sheet_pdf("a4", players=8))
    assert f"For this table: 8 players, two decks, {Rules(players=8).hand_size} cards" in eight
    assert "Nobody passes" in eight
    scatter = pdf_text(sheets.rule_sheet_pdf(passing="scatter"))  # four players by default
    assert "For this table: 4 players, one deck, 13 cards each" in scatter
    assert "Pass 3 in turn: left, right, across, 1 to each" in scatter


def test_a_sheet_for_three_or_five_says_only_its_own_table() -> None:
    # Five players with no keep round: the steps said "left, right" and the paragraph for
    # small tables beneath them "left, right, then a keep round"; and the two-deck rules,
    # which cannot apply, took a third of the page.
    five = " ".join(pdf_text(sheets.rule_sheet_pdf(players=5, passing="no-hold")).split())
    assert "then a keep round" not in five and "Three or five players" not in five
    assert "Six to ten players" not in five
    three = pdf_text(sheets.rule_sheet_pdf(players=3))
    assert "Six to ten players" not in three
    general = pdf_text(sheets.rule_sheet_pdf())
    assert "Three or five players" in general and "Six to ten players" in general


def test_a_tables_house_rules_are_those_it_can_play_in_its_own_cards() -> None:
    # Five players: "any card to the first trick, instead of the 2♣" where the 3♣ leads;
    # eight: the kitty and partners offered, which two decks cannot play.
    five = " ".join(pdf_text(sheets.rule_sheet_pdf(players=5)).split())
    assert "instead of the 3" in five and "instead of the 2" not in five
    assert "The kitty:" in five and "Partnership:" not in five
    eight = " ".join(pdf_text(sheets.rule_sheet_pdf(players=8)).split())
    assert "The kitty:" not in eight and "Partnership:" not in eight
    four = " ".join(pdf_text(sheets.rule_sheet_pdf(players=4)).split())
    assert "The kitty:" in four and "Partnership:" in four and "instead of the 2" in four
    general = " ".join(pdf_text(sheets.rule_sheet_pdf()).split())
    assert "The kitty:" in general and "Partnership:" in general


def test_the_score_sheets_footer_counts_one_queen_with_one_deck() -> None:
    three = pdf_text(sheets.score_sheet_pdf(players=3))
    assert "the queen of spades 13" in three and "each queen" not in three
    assert "each queen of spades 13" in pdf_text(sheets.score_sheet_pdf(players=8))


def test_a_two_deck_sheet_counts_both_queens_and_says_who_takes_a_last_held_trick() -> None:
    eight = " ".join(pdf_text(sheets.rule_sheet_pdf(players=8)).split())
    assert "counts the hearts and both queens in the tricks" in eight
    assert "takes the cards too (on the last trick, its leader does)" in eight
    four = " ".join(pdf_text(sheets.rule_sheet_pdf()).split())
    assert "counts the hearts and the queen in the tricks" in four


def test_a_named_tables_steps_give_its_own_numbers() -> None:
    # The title named seven players while the steps dealt 13 cards from one deck and
    # counted 26 a round.
    seven = Rules(players=7)
    text = pdf_text(sheets.rule_sheet_pdf(players=7))
    assert f"{seven.hand_size} cards each with 7 players" in text
    assert "Deal two 52-card decks shuffled together" in text
    assert "Nobody passes at this table" in text and "Each player gives" not in text
    assert f"always add up to {seven.round_points}" in text
    assert "every other player scores 52" in text and "both queens" in text
    assert "13 cards each with four players" not in text
    three = pdf_text(sheets.rule_sheet_pdf(players=3, passing="standard"))
    assert f"{Rules(players=3).hand_size} cards each with 3 players" in three
    assert "always add up to 26" in three
    assert "right in round 2, and nobody passes in round 3" in " ".join(three.split())
    # The general sheet is as it was: four players.
    general = pdf_text(sheets.rule_sheet_pdf())
    assert "13 cards each with four players" in general and "Nobody passes" not in general


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_the_rule_sheet_for_any_table_is_one_page(players: int, paper: str) -> None:
    pages, _ = page_info(sheets.rule_sheet_pdf(paper, players, "standard"))
    assert pages == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 2}, r"is for 3 to 10 players, not 2\."),
        (
            {"players": 5, "passing": "scatter"},
            r"Scatter passing has a round across, and nobody sits across with 5 players: "
            r"passing across needs an even number\.",
        ),
        (
            {"passing": "up"},
            r"Passing must be standard, no-hold, across, across-no-hold, scatter or none, "
            r"not 'up'\.",
        ),
    ],
)
def test_a_rule_sheet_for_a_table_it_cannot_be_is_refused(
    kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        sheets.rule_sheet_pdf(**kwargs)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    app.include_router(sheets_routes.router)
    return TestClient(app)


def test_the_rule_sheet_route_takes_the_score_sheets_table(client: TestClient) -> None:
    answer = client.get("/sheets/rules.pdf", params={"players": "3", "passing": "none"})
    assert answer.status_code == 200
    assert answer.content == sheets.rule_sheet_pdf("letter", 3, "none")
    assert 'filename="hearts-rules-3p-letter.pdf"' in answer.headers["content-disposition"]
    text = pdf_text(answer.content)
    assert "For this table: 3 players" in text
    assert "Nobody passes" in text
    plain = client.get("/sheets/rules.pdf", params={"paper": "a4"})
    assert plain.content == sheets.rule_sheet_pdf("a4")
    assert 'filename="hearts-rules-a4.pdf"' in plain.headers["content-disposition"]
    head = client.head("/sheets/rules.pdf", params={"players": "8"})
    assert head.status_code == 200
    assert head.headers["content-length"] == str(len(sheets.rule_sheet_pdf("letter", 8)))


@pytest.mark.parametrize(
    ("params", "detail"),
    [
        ({"players": "99"}, "players must be from 3 to 10, not 99."),
        ({"players": "three"}, "players must be a whole number from 3 to 10."),
        ({"players": ""}, "players must be a whole number from 3 to 10."),
        (
            {"players": "7", "passing": "across"},
            "Nobody sits across with 7 players: passing across needs an even number.",
        ),
        (
            {"passing": "sideways"},
            "passing must be standard, no-hold, across, across-no-hold, scatter or none, "
            "not 'sideways'.",
        ),
    ],
)
def test_bad_table_parameters_on_the_rule_sheet_get_a_400(
    client: TestClient, params: dict[str, str], detail: str
) -> None:
    answer = client.get("/sheets/rules.pdf", params=params)
    assert answer.status_code == 400
    assert answer.json() == {"detail": detail}
    assert client.head("/sheets/rules.pdf", params=params).status_code == 400


# --- a scorekeeper's game: the rules it was started with ------------------------------------


def words(data: bytes) -> str:
    """A sheet's text in lower case, without the space a bold word leaves before a stop."""
    return re.sub(r" ([:.,])", r"\1", pdf_text(data).lower())


#: A game far from the standard one: every rule the scorekeeper keeps, changed.
HOUSE = sheets.Agreed(target=50, moon="choose", bonus="jack", exact="zero", tie="play-on", sun=True)


def test_a_games_rules_are_the_rule_sheets_own() -> None:
    text = words(sheets.rule_sheet_pdf("letter", 4, "standard", HOUSE))
    for phrase in [
        "someone reaches 50 or more",
        "a total of exactly 50 drops back to 0",
        "players tied for the lowest play on until one is lowest alone",
        "you choose: take 26 off your total, or every other player scores 26",
        "win every trick and you shoot the sun: it counts 52",
        "the jack of diamonds",
        "takes 10 off whoever wins it",
        "jack of diamonds 10 off",  # its row in the points
        "16 in all",
        "more house rules",
    ]:
        assert phrase in text, phrase
    # Nothing of the standard game the table does not play, nor its choices as choices.
    for wrong in [
        "reaches 100",
        "you score 0 and every other player scores 26",
        "share the win",
        "moon, other ways",
        "shorter game",
        "bonus card:",
        "exactly the target:",
        "six to ten players",
    ]:
        assert wrong not in text, wrong


@pytest.mark.parametrize(
    ("moon", "told"),
    [
        ("add", "you score 0 and every other player scores 26."),
        ("subtract", "you take 26 off your total and every other player scores 0."),
        ("choose", "you choose: take 26 off your total, or every other player scores 26."),
        (
            "add-unless-losing",
            "you score 0 and every other player scores 26, unless that ends the game with "
            "someone else winning: then you take 26 off instead.",
        ),
    ],
)
def test_each_moon_rule_is_told_as_the_tables(moon: str, told: str) -> None:
    text = words(sheets.rule_sheet_pdf("letter", 4, None, sheets.Agreed(moon=moon)))
    assert told in text
    assert "reaches 100 or more" in text  # the rules left out are the standard game's


def test_partners_moon_and_bonus_with_two_decks_are_told_in_their_own_words() -> None:
    team = words(
        sheets.rule_sheet_pdf("a4", 4, None, sheets.Agreed(moon="subtract", partnership=True))
    )
    assert "partners sit across: players 1 and 3 play against 2 and 4" in team
    assert "your team shoots the moon: you both take 26 off" in team
    assert "everyone plays alone" not in team
    assert "partnership:" not in team  # not offered in the box as a choice
    two = words(sheets.rule_sheet_pdf("letter", 8, None, sheets.Agreed(bonus="ten")))
    assert "each ten of diamonds" in two
    assert "32 in all" in two


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("moon", sheets.MOON_CHOICES)
def test_the_longest_games_rules_fit_one_page_at_every_table(paper: str, moon: str) -> None:
    # Every rule that adds words, at every table with its longest passing: one page each
    # (a sheet that would not fit raises, rather than spill).
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        passing = "scatter" if players % 2 == 0 else "standard"
        agreed = dataclasses.replace(
            HOUSE, moon=moon, bonus="ten", exact="half", partnership=players == 4
        )
        data = sheets.rule_sheet_pdf(paper, players, passing, agreed)
        assert page_info(data)[0] == 1
        assert page_info(sheets.score_sheet_pdf(players, paper, 30, passing, agreed))[0] >= 1


def test_a_two_deck_table_that_passes_is_not_told_that_usually_nobody_does() -> None:
    # A ten-player game with a scatter printed "Usually nobody passes." beside its own passes.
    game = words(sheets.rule_sheet_pdf("letter", 10, "scatter", HOUSE))
    assert "one card to each other player" in game
    assert "usually nobody passes" not in game
    assert "usually nobody passes" not in words(sheets.rule_sheet_pdf("letter", 8, "across"))
    assert "usually nobody passes" in words(sheets.rule_sheet_pdf())  # every table's sheet


def test_the_score_sheet_fills_in_the_games_rules() -> None:
    text = pdf_text(sheets.score_sheet_pdf(4, "letter", 20, "standard", HOUSE))
    assert "Game to 50" in text
    assert "Moon rule shooter chooses" in text
    assert "Bonus card jack of diamonds" in text
    assert "Moon: the shooter chooses: 26 off, or 26 to everyone else." in text
    assert "someone reaches 50 (exactly 50 drops back to 0)" in text
    plain = pdf_text(sheets.score_sheet_pdf(4, "letter", 20, "standard", sheets.Agreed()))
    assert "Bonus card none" in plain
    assert "jacks of diamonds" not in plain and "jack of diamonds takes" not in plain


@pytest.mark.parametrize(
    ("agreed", "message"),
    [
        (sheets.Agreed(moon="upside-down"), "moon must be add, subtract, choose or"),
        (sheets.Agreed(target=0), "target must be from 1 to 1000, not 0."),
        (sheets.Agreed(target=50, exact="fifty"), "Dropping back to 50 needs a game to more"),
        (sheets.Agreed(partnership=True), "Partnership Hearts is played by four players"),
    ],
)
def test_rules_a_game_cannot_have_are_refused(agreed: sheets.Agreed, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        sheets.rule_sheet_pdf("letter", 5, None, agreed)


def test_the_sheets_take_the_scorekeepers_words_for_its_rules() -> None:
    model = (
        Path(sheets_routes.__file__).parent / "static" / "scorekeeper" / "model.js"
    ).read_text()

    def keys(name: str) -> set[str]:
        block = re.search(rf"export const {name} = \{{(.*?)\}};", model, re.S)
        assert block is not None, name
        return set(re.findall(r'^\s*"?([a-z-]+)"?:', block.group(1), re.M))

    assert keys("MOON_RULES") == set(sheets.MOON_CHOICES)
    assert keys("BONUS_CARDS") == set(sheets.BONUS_CHOICES)
    assert keys("EXACT_TARGET") | {"half"} == set(sheets.EXACT_CHOICES)
    assert keys("TIES") == set(sheets.TIE_CHOICES)


def test_rule_sheet_draws_suits_with_a_symbol_font() -> None:
    data = sheets.rule_sheet_pdf()
    assert b"/BaseFont /Symbol" in data
    assert b"/Title (Hearts: the rules on one page)" in data


def test_sheets_are_deterministic() -> None:
    assert sheets.rule_sheet_pdf() == sheets.rule_sheet_pdf()
    assert sheets.score_sheet_pdf(5) == sheets.score_sheet_pdf(5)


def test_unknown_paper_is_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="Paper must be 'letter' or 'a4'"):
        sheets.rule_sheet_pdf("legal")


# --- score sheet -----------------------------------------------------------------------------


def pass_labels(text: str) -> list[str]:
    return re.findall(r"\b(Left|Right|Across|Scatter|Keep)\b", text)


@pytest.mark.parametrize(
    ("players", "paper", "size"),
    [
        (4, "letter", LETTER),
        (3, "letter", LETTER),
        (6, "a4", A4),
        (7, "letter", (LETTER[1], LETTER[0])),
        (10, "a4", (A4[1], A4[0])),
    ],
)
def test_score_sheet_is_one_page(players: int, paper: str, size: tuple[float, float]) -> None:
    data = sheets.score_sheet_pdf(players=players, paper=paper)
    pages, got = page_info(data)
    assert pages == 1
    assert_size(got, size)


@pytest.mark.parametrize("players", range(3, 11))
def test_score_sheet_has_a_column_per_player(players: int) -> None:
    text = pdf_text(sheets.score_sheet_pdf(players=players))
    for p in range(1, players + 1):
        assert f"Player {p}" in text
    assert f"Player {players + 1}" not in text
    assert text.count("Points") == players
    assert text.count("Total") >= players


def test_four_player_sheet_prints_the_pass_of_each_round() -> None:
    text = pdf_text(sheets.score_sheet_pdf(players=4))
    assert pass_labels(text) == ["Left", "Right", "Across", "Keep"] * 5
    rows = re.findall(r"\b(\d+) (Left|Right|Across|Keep)\b", text)
    assert [int(n) for n, _ in rows] == list(range(1, 21))
    assert rows[2] == ("3", "Across")
    assert "Final total" in text
    assert "adds up to 26" in text


def test_three_and_five_players_pass_left_right_hold() -> None:
    for players in (3, 5):
        text = pdf_text(sheets.score_sheet_pdf(players=players, rounds=12))
        assert pass_labels(text) == ["Left", "Right", "Keep"] * 4


def test_two_deck_sheet_has_no_passing_and_52_points() -> None:
    text = pdf_text(sheets.score_sheet_pdf(players=8))
    assert pass_labels(text) == ["Keep"] * 20
    assert "two decks, no passing" in text
    assert "adds up to 52" in text
    assert "Deal 12 cards each, leave out" in text


@pytest.mark.parametrize(
    ("players", "passing", "cycle"),
    [
        (4, "standard", ["Left", "Right", "Across", "Keep"]),
        (4, "no-hold", ["Left", "Right", "Across"]),
        (4, "scatter", ["Left", "Right", "Across", "Scatter"]),
        (4, "none", ["Keep"]),
        (3, "no-hold", ["Left", "Right"]),
        (5, "standard", ["Left", "Right", "Keep"]),
        (6, "standard", ["Left", "Right", "Keep"]),
        (6, "none", ["Keep"]),
        (6, "across", ["Left", "Right", "Across", "Keep"]),
        (8, "across-no-hold", ["Left", "Right", "Across"]),
        (10, "scatter", ["Left", "Right", "Across", "Scatter"]),
        (4, "across", ["Left", "Right", "Across", "Keep"]),
    ],
)
def test_score_sheet_prints_the_games_passing(players: int, passing: str, cycle: list[str]) -> None:
    text = pdf_text(sheets.score_sheet_pdf(players=players, rounds=12, passing=passing))
    assert pass_labels(text) == (cycle * 12)[:12]


def test_a_passing_the_table_cannot_play_is_refused() -> None:
    with pytest.raises(ValueError, match=r"round across, and nobody sits across with 5 players"):
        sheets.score_sheet_pdf(players=5, passing="scatter")
    with pytest.raises(ValueError, match=r"^Nobody sits across with 5 players"):
        sheets.score_sheet_pdf(players=5, passing="across")
    with pytest.raises(ValueError, match="Passing must be standard, no-hold, across, across-no"):
        sheets.score_sheet_pdf(players=4, passing="sideways")


@pytest.mark.parametrize("paper", sorted(sheets.PAPERS))
def test_every_table_and_passing_prints_on_its_pages_or_is_refused(paper: str) -> None:
    # A sheet that does not fit raises (it never spills): the longest steps are a two-deck
    # table's deal with a four-round cycle, which once pushed the rule sheet's column over.
    printed = 0
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for passing in (*sheets.PASSING, None):
            try:
                rules = sheets.table_rules(players, passing)
            except ValueError as error:
                assert players % 2 and "nobody sits across" in str(error).lower()
                continue
            rule_sheet = sheets.rule_sheet_pdf(paper, players, passing)
            score_sheet = sheets.score_sheet_pdf(players, paper, sheets.MAX_ROUNDS, passing)
            # Sideways, thirty rounds go on to a second page rather than rows under 6 mm.
            pages = 2 if players >= 7 else 1
            assert b"/Count 1" in rule_sheet and f"/Count {pages}".encode() in score_sheet
            assert ("across" in rules.pass_cycle) == (
                passing in ("across", "across-no-hold", "scatter")
                or (players == Rules().players and passing in ("standard", "no-hold", None))
            )
            printed += 1
    # Even tables take all seven choices; odd ones the four without across.
    evens = len(range(MIN_PLAYERS + MIN_PLAYERS % 2, MAX_PLAYERS + 1, 2))
    odds = MAX_PLAYERS - MIN_PLAYERS + 1 - evens
    assert printed == evens * (len(sheets.PASSING) + 1) + odds * (len(sheets.PASSING) - 2)


def test_score_sheet_rounds_can_grow() -> None:
    text = pdf_text(sheets.score_sheet_pdf(players=4, rounds=30))
    assert len(pass_labels(text)) == 30


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 2}, "3 to 10 players, not 2"),
        ({"players": 11}, "3 to 10 players, not 11"),
        ({"rounds": 5}, "10 to 30 rounds, not 5"),
        ({"paper": "tabloid"}, "Paper must be"),
    ],
)
def test_bad_score_sheet_requests_say_why(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sheets.score_sheet_pdf(**kwargs)  # type: ignore[arg-type]


def test_pass_cycles_come_from_rules() -> None:
    assert sheets.table_rules(4).pass_cycle == Rules().pass_cycle
    assert sheets.table_rules(3).pass_cycle == Rules(players=3).pass_cycle
    assert sheets.pass_directions(sheets.table_rules(8), 2) == ("none", "none")
    assert sheets.pass_directions(sheets.table_rules(4, "scatter"), 4)[-1] == "scatter"
    assert sheets.table_rules(6, "standard").pass_cycle == ("left", "right", "hold")


# --- command line ----------------------------------------------------------------------------


def cli(argv: list[str]) -> argparse.Namespace:
    parser = Parser(prog="hearts")
    sheets_cli.register(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(argv)


def test_cli_writes_both_sheets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "print"
    args = cli(["sheets", "--out", str(out), "--paper", "a4", "--players", "5"])
    assert args.func(args) == 0
    rules, score = out / "rules-5p-a4.pdf", out / "score-5p-a4.pdf"
    assert rules.read_bytes() == sheets.rule_sheet_pdf("a4", 5)
    assert "For this table: 5 players" in pdf_text(rules.read_bytes())
    assert score.read_bytes() == sheets.score_sheet_pdf(5, "a4")
    assert str(rules) in capsys.readouterr().out


def test_cli_defaults_to_letter_and_four_players(tmp_path: Path) -> None:
    args = cli(["sheets", "--out", str(tmp_path)])
    assert args.func(args) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rules-letter.pdf", "score-4p-letter.pdf"]
    # No table asked for: the rule sheet is the one for every table.
    assert (tmp_path / "rules-letter.pdf").read_bytes() == sheets.rule_sheet_pdf()


def test_cli_writes_the_rounds_and_passing_asked_for(tmp_path: Path) -> None:
    args = cli(["sheets", "--out", str(tmp_path), "--rounds", "12", "--passing", "no-hold"])
    assert args.func(args) == 0
    text = pdf_text((tmp_path / "score-4p-no-hold-letter.pdf").read_bytes())
    assert pass_labels(text) == ["Left", "Right", "Across"] * 4
    rules = pdf_text((tmp_path / "rules-4p-no-hold-letter.pdf").read_bytes())
    assert "Pass 3 cards in turn: left, right, across " in rules


def test_cli_takes_the_paper_and_passing_in_capitals_as_the_server_does(tmp_path: Path) -> None:
    args = cli(["sheets", "--out", str(tmp_path), "--paper", "A4", "--passing", "No-Hold"])
    assert args.func(args) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "rules-4p-no-hold-a4.pdf",
        "score-4p-no-hold-a4.pdf",
    ]
    assert (tmp_path / "rules-4p-no-hold-a4.pdf").read_bytes() == sheets.rule_sheet_pdf(
        "a4", 4, "no-hold"
    )


def test_cli_sheets_for_two_tables_share_a_folder(tmp_path: Path) -> None:
    # A sheet for three players, then one for five, into one folder: the second rule sheet
    # was written over the first (both rules-letter.pdf).
    for players in ("3", "5"):
        args = cli(["sheets", "--out", str(tmp_path), "--players", players])
        assert args.func(args) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "rules-3p-letter.pdf",
        "rules-5p-letter.pdf",
        "score-3p-letter.pdf",
        "score-5p-letter.pdf",
    ]
    three = pdf_text((tmp_path / "rules-3p-letter.pdf").read_bytes())
    assert "For this table: 3 players" in three


def test_cli_limits_agree_with_the_sheets() -> None:
    assert (sheets_cli.MIN_ROUNDS, sheets_cli.MAX_ROUNDS, sheets_cli.DEFAULT_ROUNDS) == (
        sheets.MIN_ROUNDS,
        sheets.MAX_ROUNDS,
        sheets.DEFAULT_ROUNDS,
    )
    assert sheets_cli.PASSING == sheets.PASSING
    assert tuple(sheets.PAPERS) == sheets_cli.PAPERS


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rounds", "5"], "--rounds must be a whole number from 10 to 30, not 5."),
        (["--rounds", "many"], "--rounds must be a whole number from 10 to 30, not 'many'."),
        (["--passing", "up"], "--passing must be standard, no-hold, across, across-no-hold,"),
    ],
)
def test_cli_refuses_bad_rounds_and_passing(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli(["sheets", "--out", "x", *argv])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_cli_refuses_a_scatter_for_five_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "print"
    args = cli(["sheets", "--out", str(out), "--players", "5", "--passing", "scatter"])
    assert args.func(args) == 2
    assert (
        "Scatter passing has a round across, and nobody sits across with 5 players: passing "
        "across needs an even number." in capsys.readouterr().err
    )
    assert not out.exists()


def test_cli_refuses_bad_player_counts(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli(["sheets", "--out", "x", "--players", "12"])
    assert exit_info.value.code == 2
    assert "--players must be a whole number from 3 to 10, not 12." in capsys.readouterr().err


def test_cli_refuses_a_file_as_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "file.txt"
    target.write_text("x")
    args = cli(["sheets", "--out", str(target)])
    assert args.func(args) == 2
    assert "is a file, not a folder" in capsys.readouterr().err


def test_cli_refuses_an_empty_folder_name_and_names_the_file_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = cli(["sheets", "--out", ""])  # it wrote into the current folder, unasked
    assert args.func(args) == 2
    assert capsys.readouterr().err == 'hearts sheets: give --out a folder ("." for this one).\n'
    assert list(tmp_path.iterdir()) == []

    def refused(self: Path, data: bytes) -> int:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "write_bytes", refused)
    args = cli(["sheets", "--out", str(tmp_path)])
    assert args.func(args) == 2
    err = capsys.readouterr().err
    assert (
        err == f"hearts sheets: cannot write {tmp_path / 'rules-letter.pdf'}: Permission denied.\n"
    )


def placed_text(stream: bytes) -> list[tuple[str, float, float, float]]:
    """(text, x, y, font size) of every string drawn in one page's content stream."""
    out: list[tuple[str, float, float, float]] = []
    size = 0.0
    for m in re.finditer(
        rb"/F\d+ ([\d.]+) Tf|1 0 0 1 ([\d.-]+) ([\d.-]+) Tm \(((?:\\.|[^\\)])*)\) Tj", stream
    ):
        if m.group(1):
            size = float(m.group(1))
        else:
            text = unescape(m.group(4)).decode("cp1252", "replace")
            out.append((text, float(m.group(2)), float(m.group(3)), size))
    return out


MM = 72 / 25.4


@pytest.mark.parametrize("paper", sorted(sheets.PAPERS))
@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_every_score_sheet_row_has_room_to_write_in(paper: str, players: int) -> None:
    # Seven or more players with 30 rounds had rows 4.4 mm tall and a tiny "No pass" (now "Keep").
    for rounds in (sheets.MIN_ROUNDS, sheets.DEFAULT_ROUNDS, 25, sheets.MAX_ROUNDS):
        data = sheets.score_sheet_pdf(players, paper, rounds)
        pages = [placed_text(stream) for stream in pdf_streams(data)]
        assert page_info(data)[0] == len(pages)
        numbers: list[int] = []
        for page in pages:
            rows = [(int(t), y) for t, _, y, _ in page if t.isdigit() and 0 < int(t) <= rounds]
            numbers += [n for n, _ in rows]
            heights = [a - b for (_, a), (_, b) in itertools.pairwise(rows)]
            assert heights and min(heights) >= 6 * MM - 0.01, (players, paper, rounds, heights)
            assert min(size for t, *_, size in page if t == "Keep") >= 7.5
        assert numbers == list(range(1, rounds + 1))  # each round once, in order
        text = pdf_text(data)
        assert text.count("Final total") == 1
        two = len(pages) == 2
        assert ("Continued on page 2: carry each total over." in text) == two
        assert (
            ("From page 1" in text)
            == two
            == (f"{players} players" in text and "page 2 of 2" in text)
        )
    assert len(pages) == (2 if players >= 7 else 1)  # thirty rounds, sideways: two pages


@pytest.mark.parametrize("paper", sorted(sheets.PAPERS))
@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_points_and_total_keep_clear_of_their_cell_edges(paper: str, players: int) -> None:
    # At ten players "Points" touched both edges of its half of the column.
    from reportlab.pdfbase.pdfmetrics import stringWidth

    (page,) = [placed_text(s) for s in pdf_streams(sheets.score_sheet_pdf(players, paper))]
    points = [(x, size) for t, x, _, size in page if t == "Points"]
    totals = [(x, size) for t, x, _, size in page if t == "Total"]
    assert len(points) == len(totals) == players
    for (px, psize), (tx, tsize) in zip(points, totals, strict=True):
        point_w = stringWidth("Points", "Helvetica-Bold", psize)
        half = (tx + stringWidth("Total", "Helvetica-Bold", tsize) / 2) - (px + point_w / 2)
        assert (half - point_w) / 2 >= 3 - 0.01, (players, paper, half, point_w)


def test_a_scatter_says_how_much_of_the_hand_it_gives() -> None:
    # "Each player gives 3 cards ... and one card to each other player (a scatter) in round 4"
    # did not say that at ten players that is 9 of a 10-card hand.
    text = pdf_text(sheets.rule_sheet_pdf("letter", 10, "scatter")).replace(" :", ":")  # bold
    assert "one card to each other player (a scatter: 9 of 10 cards) in round 4" in text
    four = pdf_text(sheets.rule_sheet_pdf("letter", 4, "scatter")).replace(" :", ":")
    assert "(a scatter: 3 of 13 cards) in round 4" in four


# --- command line: a game's rules --------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "query", "files"),
    [
        (
            ["--rule", "target_score=50", "--rule", "moon_rule=choose", "--rule", "bonus_card=JD"],
            "target=50&moon=choose&bonus=jack",
            ("rules-4p-letter.pdf", "score-4p-letter.pdf"),
        ),
        (
            ["--rules", "omnibus", "--players", "5", "--passing", "no-hold", "--paper", "a4"],
            "players=5&passing=no-hold&paper=a4&bonus=jack",
            ("rules-5p-no-hold-a4.pdf", "score-5p-no-hold-a4.pdf"),
        ),
        (
            [
                *("--rule", "exactly_target_resets_to=0", "--rule", "tie_rule=play-on"),
                *("--rule", "shoot_the_sun=true", "--rule", "partnership=true"),
            ],
            "exact=zero&tie=play-on&sun=yes&partnership=yes",
            ("rules-4p-letter.pdf", "score-4p-letter.pdf"),
        ),
        (
            ["--rules", "short", "--rule", "exactly_target_resets_to=25"],
            "target=50&exact=half",
            ("rules-4p-letter.pdf", "score-4p-letter.pdf"),
        ),
        (
            ["--rule", "target_score=200", "--rule", "exactly_target_resets_to=100"],
            "target=200&exact=half",
            ("rules-4p-letter.pdf", "score-4p-letter.pdf"),
        ),
        (
            ["--rule", "exactly_target_resets_to=50", "--rule", "players=6"],
            "players=6&exact=fifty",
            ("rules-6p-letter.pdf", "score-6p-letter.pdf"),
        ),
    ],
)
def test_cli_prints_a_games_rules_as_the_web_routes_do(
    argv: list[str], query: str, files: tuple[str, str], tmp_path: Path, client: TestClient
) -> None:
    # It took no rules: a table playing to 50 with the moon chosen printed the standard game.
    args = cli(["sheets", "--out", str(tmp_path), *argv])
    assert args.func(args) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(files)
    rules, score = files
    for name, route in ((rules, "rules"), (score, "score")):
        response = client.get(f"/sheets/{route}.pdf?{query}")
        assert response.status_code == 200, response.text
        assert (tmp_path / name).read_bytes() == response.content, name


def test_cli_prints_the_table_of_a_passing_preset_as_its_passing(tmp_path: Path) -> None:
    # A preset of passing alone is no game's scoring: the sheets of --passing no-hold.
    args = cli(["sheets", "--out", str(tmp_path), "--rules", "no-hold"])
    assert args.func(args) == 0
    assert (tmp_path / "rules-4p-no-hold-letter.pdf").read_bytes() == sheets.rule_sheet_pdf(
        "letter", 4, "no-hold"
    )
    cycle = ["--rule", "pass_cycle=left,right,keep", "--players", "5"]
    args = cli(["sheets", "--out", str(tmp_path), *cycle])
    assert args.func(args) == 0
    assert (tmp_path / "score-5p-standard-letter.pdf").read_bytes() == sheets.score_sheet_pdf(
        5, passing="standard"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--rules", "casual"],
            "The sheets cannot print points_on_first_trick and queen_breaks_hearts: they print "
            "a game's target_score, moon_rule, bonus_card, exactly_target_resets_to, tie_rule, "
            "shoot_the_sun and partnership, and its pass_cycle in the words of --passing.",
        ),
        (
            ["--rule", "exactly_target_resets_to=30"],
            "The sheets print a drop on the target to 0, to 50 or to half the target (50), "
            "not to 30.",
        ),
        (
            ["--rule", "partnership=true", "--players", "5"],
            "Partnership Hearts is played by four players, two teams of two.",
        ),
        (
            ["--rule", "target_score=40", "--rule", "exactly_target_resets_to=50"],
            "Hitting the target exactly must drop a total below the target.",
        ),
        (
            ["--rules", "no-hold", "--passing", "none"],
            "Give the passing once: --passing or the rules' pass_cycle, not both.",
        ),
        (
            ["--rule", "pass_cycle=left,left"],
            "The sheets cannot print a pass cycle of left and left: they print the passings of "
            "--passing (standard, no-hold, across, across-no-hold, scatter or none).",
        ),
        (["--rule", "target_score=0"], "The target score must be a whole number from 1 to 1000."),
        (["--rule", "moon=choose"], "Unknown rule 'moon'; the rules are players, pass_count,"),
        (["--rules", "fancy"], "There is no preset called 'fancy'; choose one of standard,"),
        (
            ["--rule", "players=5", "--passing", "across"],
            "Nobody sits across with 5 players: passing across needs an even number.",
        ),
    ],
)
def test_cli_refuses_rules_it_cannot_print_in_a_sentence_and_writes_nothing(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "print"
    args = cli(["sheets", "--out", str(out), *argv])
    assert args.func(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"hearts sheets: {message}")
    assert err.count("\n") == 1
    assert not out.exists()


def test_the_sheets_lowest_target_is_the_engines(client: TestClient) -> None:
    # The routes kept their own MIN_TARGET = 1: the engine's rule, said twice.
    from hearts.rules import MAX_TARGET, MIN_TARGET

    assert Rules(target_score=MIN_TARGET).target_score == MIN_TARGET
    with pytest.raises(ValueError, match="positive whole number"):
        Rules(target_score=MIN_TARGET - 1)
    assert client.get(f"/sheets/score.pdf?target={MIN_TARGET}").status_code == 200
    answer = client.get(f"/sheets/score.pdf?target={MIN_TARGET - 1}")
    assert answer.status_code == 400
    assert answer.json()["detail"] == (
        f"target must be from {MIN_TARGET} to {MAX_TARGET}, not {MIN_TARGET - 1}."
    )


# --- score sheet: the players' names -----------------------------------------------------------


LONG_NAMES = ("Anastasia Konstantinopoulou-Ng", "Wolfeschlegelsteinhausenbergerd"[:30])


@pytest.mark.parametrize("players", [MIN_PLAYERS, 4, MAX_PLAYERS])
def test_the_players_names_head_their_columns_and_long_ones_fit(players: int) -> None:
    # Every column said "Player 1", "Player 2"...: the names the scorekeeper knew were lost.
    names = ["Zoë Ångström", *LONG_NAMES, "Çelik Ñúñez"][:players]
    data = sheets.score_sheet_pdf(players, names=names)
    text = pdf_text(data)
    assert "Zoë Ångström" in text
    assert not re.search(r"Player [12]\b", text)
    if players > len(names):
        assert f"Player {len(names) + 1}" in text  # a column left unnamed, to write in
    (page, *_) = [placed_text(s) for s in pdf_streams(data)]
    points = sorted(x for t, x, _, _ in page if t == "Points")
    player_w = points[1] - points[0]
    sub = next(size for t, _, _, size in page if t == "Points")
    first_left = points[0] + pdfmetrics.stringWidth("Points", "Helvetica-Bold", sub) / 2
    first_left -= player_w / 4
    header_low = max(y for t, _, y, _ in page if t == "Points")
    header_top = max(y for t, _, y, _ in page if t == "Round") + sheets.NAME_HEIGHT / 2
    pieces = [
        (t, x, size)
        for t, x, y, size in page
        if header_low < y < header_top and x >= first_left - 1
    ]
    pieces = [p for p in pieces if p[0] not in ("Round", "Pass")]
    for text_piece, x, size in pieces:
        column = int((x - first_left) // player_w)
        right = x + pdfmetrics.stringWidth(text_piece, "Helvetica-Bold", size)
        assert x >= first_left + column * player_w + sheets.NAME_PAD - 0.01, text_piece
        assert right <= first_left + (column + 1) * player_w - sheets.NAME_PAD + 0.01, text_piece
        assert size >= 7
    printed = " ".join(t for t, _, _ in pieces)
    for name in LONG_NAMES[: players - 1]:
        # Whole on two lines where the column is wide enough, cut with an ellipsis where not.
        assert name.split()[0][:10] in printed
    if players == MAX_PLAYERS:
        assert "\u2026" in printed
    else:
        assert "Konstantinopoulou-Ng" in printed


def test_a_name_neither_font_can_print_leaves_its_column_to_be_written_in() -> None:
    # Helvetica holds Windows-1252 and DejaVu Sans the rest of Latin, Greek and Cyrillic:
    # Chinese and Korean are in neither, an emoji would print in outline, and Hebrew
    # backwards (reportlab lays a line out left to right).
    names = ["王小明", "김민준", "Łukasz", "Ana 😀", "Zoë", "דוד", "Ольга"]
    text = pdf_text(sheets.score_sheet_pdf(7, names=names))
    printed = [True, True, False, True, False, True, False]
    assert [f"Player {n}" in text for n in range(1, 8)] == printed
    assert "Zoë" in text and "Łukasz" in text and "Ольга" in text
    assert [sheets.printable(name) for name in names] == [not p for p in printed]


#: Names of central and eastern Europe, Turkey and Greece, none of them in Windows-1252.
UNICODE_NAMES = (
    "Łukasz Wiśniewski",
    "Dvořák",
    "Γιώργος Παπαδόπουλος",
    "Ольга",
    "Şükrü Öztürk",
    "Ёжиков-Щербатской Александр",
    "Đorđe Petrović",
    "Ioana Ştefănescu",
    "Jūratė Žukauskienė",
    "Ἀλέξανδρος",
)


def header_names(data: bytes) -> list[tuple[int, str, str, float, float]]:
    """The names drawn at the head of a score sheet's columns: (column from 0, text, font,
    left edge, right edge measured in that font), with the columns' inner edges as a last
    item for each: (column, "", "", left bound, right bound)."""
    (page, *_) = shown_text(data)
    points = sorted(x for t, _, x, _, _ in page if t == "Points")
    player_w = points[1] - points[0]
    sub = next(size for t, _, _, _, size in page if t == "Points")
    first_left = points[0] + pdfmetrics.stringWidth("Points", "Helvetica-Bold", sub) / 2
    first_left -= player_w / 4
    header_low = max(y for t, _, _, y, _ in page if t == "Points")
    header_top = max(y for t, _, _, y, _ in page if t == "Round") + sheets.NAME_HEIGHT / 2
    out = []
    for text, font, x, y, size in page:
        if header_low < y < header_top and x >= first_left - 1 and text not in ("Round", "Pass"):
            column = int((x - first_left) // player_w)
            right = x + pdfmetrics.stringWidth(text, font, size)
            out.append((column, text, font, x, right))
    columns = {column for column, *_ in out}
    for column in sorted(columns):
        left = first_left + column * player_w + sheets.NAME_PAD
        out.append((column, "", "", left, left + player_w - 2 * sheets.NAME_PAD))
    return out


@pytest.mark.parametrize("players", [MIN_PLAYERS, 4, MAX_PLAYERS])
def test_names_helvetica_cannot_print_are_printed_in_dejavu_sans_and_fit(players: int) -> None:
    # "Łukasz", "Dvořák", "Γιώργος", "Ольга": every column said "Player N" instead.
    names = UNICODE_NAMES[:players]
    data = sheets.score_sheet_pdf(players, names=names)
    text = pdf_text(data)
    assert "Player" not in text
    for name in names:
        assert name.split()[0][:6] in text, name  # whole, or cut with an ellipsis at ten
    drawn = header_names(data)
    bounds = {column: (left, right) for column, t, _, left, right in drawn if not t}
    pieces = [(column, t, font, x, right) for column, t, font, x, right in drawn if t]
    assert {font for _, _, font, _, _ in pieces} == {"DejaVuSans-Bold"}
    assert sorted({column for column, *_ in pieces}) == list(range(players))
    for column, piece, _, x, right in pieces:
        # Measured in the font it is drawn in: DejaVu Sans is wider than Helvetica.
        left_bound, right_bound = bounds[column]
        assert left_bound - 0.01 <= x and right <= right_bound + 0.01, piece
    if players == MAX_PLAYERS:
        assert "\u2026" in text  # the longest cut, as a western name is
    else:
        assert "Wiśniewski" in text and "Παπαδόπουλος" in text


def test_a_sheet_prints_each_name_in_its_own_font() -> None:
    # Western names keep Helvetica, as every sheet printed them; only a name Helvetica
    # cannot print is in DejaVu Sans, and a sheet without one embeds no font.
    names = ["Zoë Ångström", "Łukasz", "Ann", "Ольга"]
    data = sheets.score_sheet_pdf(4, names=names)
    fonts = {t: font for _, t, font, _, _ in header_names(data) if t}
    assert fonts == {
        "Zoë Ångström": "Helvetica-Bold",
        "Łukasz": "DejaVuSans-Bold",
        "Ann": "Helvetica-Bold",
        "Ольга": "DejaVuSans-Bold",
    }
    assert "DejaVuSans-Bold" in font_names(data).values()
    western = sheets.score_sheet_pdf(4, names=["Zoë Ångström", "Ann", "Çelik Ñúñez"])
    assert set(font_names(western).values()) == {"Helvetica", "Helvetica-Bold", "Symbol"}
    assert b"/FontFile2" not in western


def test_the_unicode_font_is_registered_once_and_only_when_a_name_needs_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    registered: list[str] = []
    register = pdfmetrics.registerFont

    def spy(font: object) -> None:
        registered.append(font.fontName)  # type: ignore[attr-defined]
        register(font)

    monkeypatch.setattr(sheets, "_unicode_cover", None)  # as in a process that never used it
    monkeypatch.setattr(pdfmetrics, "registerFont", spy)  # the module sheets calls it on
    sheets.score_sheet_pdf(4, names=["Zoë", "Ann"])
    assert registered == []
    first = sheets.score_sheet_pdf(4, names=["Łukasz", "Ольга"])
    second = sheets.score_sheet_pdf(4, names=["Łukasz", "Ольга"])
    assert registered == [sheets.UNICODE_FONT]
    assert first == second  # the same bytes each time: the web routes keep what they drew


def test_the_score_route_prints_names_in_any_european_alphabet(client: TestClient) -> None:
    names = ["Łukasz", "Dvořák", "Γιώργος", "Ольга"]
    answer = client.get("/sheets/score.pdf", params={"name": names})
    assert answer.status_code == 200, answer.text
    assert answer.content == sheets.score_sheet_pdf(4, names=names)
    text = pdf_text(answer.content)
    assert text.index("Łukasz") < text.index("Dvořák") < text.index("Γιώργος") < text.index("Ольга")
    assert "Player" not in text


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Ann", "B\nob"], "Name 2 has a character that does not print (U+000A); write names in"),
        (["\x00"], "Name 1 has a character that does not print (U+0000)"),
        (["Ann", "Bo\u200bb"], "Name 2 has a character that does not print (U+200B)"),
        (["\u202eevil"], "Name 1 has a character that does not print (U+202E)"),
        (["x" * 65], "Name 1 is 65 characters long; keep names to 64."),
        (["A", "B", "C", "D", "E"], "A score sheet for 4 players takes 4 names at most, not 5."),
    ],
)
def test_the_score_route_refuses_names_it_cannot_print_in_a_sentence(
    names: list[str], message: str, client: TestClient
) -> None:
    answer = client.get("/sheets/score.pdf", params={"name": names})
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith(message)


def test_the_score_route_prints_the_names_in_seat_order(client: TestClient) -> None:
    params: dict[str, str | list[str]] = {"players": "5", "name": ["Ana", "Ben", "", "Dot"]}
    answer = client.get("/sheets/score.pdf", params=params)
    assert answer.status_code == 200, answer.text
    assert answer.content == sheets.score_sheet_pdf(5, names=["Ana", "Ben", "", "Dot"])
    text = pdf_text(answer.content)
    assert text.index("Ana") < text.index("Ben") < text.index("Player 3") < text.index("Dot")
    assert "Player 5" in text
    # The rule sheet has no columns: a name there is a typo's 400, as before.
    assert client.get("/sheets/rules.pdf", params={"name": "Ana"}).status_code == 400
    # Other names still count once.
    assert client.get("/sheets/score.pdf?players=4&players=5").status_code == 400


def test_cli_heads_the_score_sheet_with_the_names(
    tmp_path: Path, client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    names = ["--name", "Ana", "--name", "Zoë Ångström", "--name", "Cy", "--name", "Dot"]
    args = cli(["sheets", "--out", str(tmp_path), *names])
    assert args.func(args) == 0
    query = "name=Ana&name=Zo%C3%AB%20%C3%85ngstr%C3%B6m&name=Cy&name=Dot"
    web = client.get(f"/sheets/score.pdf?{query}").content
    assert (tmp_path / "score-4p-letter.pdf").read_bytes() == web
    args = cli(["sheets", "--out", str(tmp_path / "x"), *[f"--name={n}" for n in "ABCDE"]])
    assert args.func(args) == 2
    assert capsys.readouterr().err == (
        "hearts sheets: A score sheet for 4 players takes 4 names at most, not 5.\n"
    )


def test_the_scorekeepers_names_for_the_sheet_are_what_the_sheet_takes() -> None:
    # The scorekeeper leaves out of its link a name the sheet would refuse, so the link opens.
    model = (
        Path(sheets_routes.__file__).parent / "static" / "scorekeeper" / "model.js"
    ).read_text()
    longest = re.search(r"export const MAX_SHEET_NAME = (\d+);", model)
    assert longest is not None
    assert int(longest.group(1)) == sheets.MAX_NAME_CHARS
    hidden = re.search(r"const HIDDEN = /\[(.*?)\]/u;", model)
    assert hidden is not None
    assert set(re.findall(r"\\p\{(\w+)\}", hidden.group(1))) == sheets.HIDDEN_CATEGORIES


def test_cli_says_which_names_the_font_cannot_print(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = ["--name", "Zoë", "--name", "王小明", "--name", "Łukasz"]
    args = cli(["sheets", "--out", str(tmp_path), *names])
    assert args.func(args) == 0
    assert capsys.readouterr().err == (
        "hearts sheets: the sheet's fonts cannot print '王小明': its column says Player 2, to be "
        "written in by hand.\n"
    )
    text = pdf_text((tmp_path / "score-4p-letter.pdf").read_bytes())
    assert "Zoë" in text and "Player 2" in text and "Łukasz" in text


def test_cli_names_the_presets_it_cannot_print() -> None:
    from hearts.rules import PRESETS

    refused = []
    for name in PRESETS:
        try:
            sheets.sheet_choices(Rules.preset(name))
        except ValueError:
            refused.append(name)
    assert tuple(refused) == sheets_cli.UNPRINTED_PRESETS
