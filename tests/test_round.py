"""The standard four-player round: built from hand-made positions and the rule texts' examples."""

import re

import pytest

from hearts import IllegalMoveError, Round, Rules, parse_card

from helpers import (
    FIRST_TRICK_DEAL,
    ONLY_HEARTS_DEAL,
    QUEEN_AND_HEARTS_DEAL,
    QUEEN_CHANCE_DEAL,
    hands,
    play_all,
    play_lowest_until_over,
    round_from,
)


def names(cards: list) -> str:  # type: ignore[type-arg]
    return " ".join(str(c) for c in cards)


def snapshot(rnd: Round) -> list[dict[str, object]]:
    return [rnd.view(seat).to_dict() for seat in range(rnd.players)]


# --- the first trick --------------------------------------------------------------------------


def test_the_two_of_clubs_leads() -> None:
    rnd = round_from(FIRST_TRICK_DEAL)
    assert rnd.phase == "playing"
    assert rnd.turn == 0
    assert names(rnd.legal_cards()) == "2C"
    assert rnd.why_illegal("3C") == "The first trick is led with the two of clubs."


def test_no_clubs_on_the_first_trick_example() -> None:
    """North leads the 2♣, East the K♣; South has no clubs and may not throw a point card."""
    rnd = round_from(FIRST_TRICK_DEAL)
    rnd.play("2C")
    assert rnd.why_illegal("7D") == "You must follow suit: clubs were led."
    rnd.play("KC")
    assert names(rnd.legal_cards()) == "QD KD AD"
    reason = "No points on the first trick: hearts and the queen of spades must wait."
    assert rnd.why_illegal("QS") == reason
    assert rnd.why_illegal("AH") == reason
    rnd.play("AD")
    rnd.play("9C")
    trick = rnd.tricks[0]
    assert trick.winner == 1  # East's king is the highest club; the ace of diamonds cannot win
    assert rnd.turn == 1 and rnd.leader == 1
    assert rnd.points_taken == [0, 0, 0, 0]


def test_points_may_go_on_the_first_trick_when_the_table_allows_it() -> None:
    rnd = round_from(FIRST_TRICK_DEAL, Rules(points_on_first_trick=True))
    play_all(rnd, "2C KC")
    assert rnd.why_illegal("QS") is None
    rnd.play("QS")
    rnd.play("9C")
    assert rnd.points_taken == [0, 13, 0, 0]
    assert not rnd.hearts_broken  # the queen alone does not break hearts by default


def test_a_hand_of_nothing_but_points_may_play_one_on_the_first_trick() -> None:
    deal = [
        "2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 2S 3S 4S",
        "KC 7C 8C TC 7D 8D 9D TD 5S 6S 7S 8S 9S",
        "QS AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
        "9C JC QC AC JD QD KD AD TS JS KS AS 2H",
    ]
    rnd = round_from(deal)
    play_all(rnd, "2C KC")
    assert len(rnd.legal_cards()) == 13
    rnd.play("QS")
    rnd.play("9C")
    assert rnd.points_taken == [0, 13, 0, 0]


# --- breaking hearts ------------------------------------------------------------------------


def first_two_tricks(rules: Rules | None = None) -> Round:
    """After these, West has won the Q♠ and leads, with hearts still unbroken."""
    rnd = round_from(FIRST_TRICK_DEAL, rules)
    play_all(rnd, "2C KC AD 9C")  # East wins
    play_all(rnd, "5S QS AS 2S")  # South must follow with her only spade; West's ace wins
    return rnd


def test_hearts_cannot_be_led_before_they_are_broken() -> None:
    rnd = first_two_tricks()
    assert rnd.turn == 3
    assert rnd.points_taken == [0, 0, 0, 13]
    assert not rnd.hearts_broken
    assert rnd.why_illegal("2H") == "Hearts have not been broken yet, so you cannot lead one."
    assert all(c.suit != 2 for c in rnd.legal_cards())


def test_a_discarded_heart_breaks_hearts() -> None:
    rnd = first_two_tricks()
    play_all(rnd, "JC 3C 7C AH")  # South, void in clubs, throws a heart
    assert rnd.hearts_broken
    assert rnd.turn == 3 and rnd.points_taken == [0, 0, 0, 14]
    assert rnd.why_illegal("2H") is None


def test_the_queen_breaks_hearts_under_that_house_rule() -> None:
    rnd = first_two_tricks(Rules(queen_breaks_hearts=True))
    assert rnd.hearts_broken
    assert rnd.why_illegal("2H") is None


def test_hearts_may_be_led_any_time_without_the_breaking_rule() -> None:
    rnd = first_two_tricks(Rules(must_break_hearts=False))
    assert rnd.why_illegal("2H") is None


def test_a_hand_of_only_hearts_may_lead_one_before_they_are_broken() -> None:
    rnd = round_from(ONLY_HEARTS_DEAL)
    play_all(rnd, "2C 6C AC 9C")
    assert rnd.turn == 2 and not rnd.hearts_broken
    assert len(rnd.legal_cards()) == 12


def test_strict_rule_makes_the_queen_the_only_lead() -> None:
    rnd = round_from(QUEEN_AND_HEARTS_DEAL)
    play_all(rnd, "2C 6C AC 9C")
    assert names(rnd.legal_cards()) == "QS"
    assert "must lead the queen" in (rnd.why_illegal("2H") or "")


def test_house_rule_lets_a_heart_be_led_instead_of_the_queen() -> None:
    rnd = round_from(QUEEN_AND_HEARTS_DEAL, Rules(lead_hearts_instead_of_queen=True))
    play_all(rnd, "2C 6C AC 9C")
    assert len(rnd.legal_cards()) == 12
    assert rnd.why_illegal("2H") is None


# --- the queen at the first safe chance -------------------------------------------------------


def test_queen_need_not_go_at_the_first_chance_by_default() -> None:
    rnd = round_from(QUEEN_CHANCE_DEAL)
    play_all(rnd, "2C KC AD 9C AS")
    assert names(rnd.legal_cards()) == "2S 3S 4S 5S QS"


def test_queen_must_go_under_a_higher_spade_with_that_house_rule() -> None:
    rnd = round_from(QUEEN_CHANCE_DEAL, Rules(queen_at_first_chance=True))
    play_all(rnd, "2C KC AD 9C AS")
    assert names(rnd.legal_cards()) == "QS"
    assert rnd.why_illegal("2S") == (
        "House rule: the queen of spades must go at the first safe chance, and this is one."
    )


def test_queen_must_go_when_first_void_with_that_house_rule() -> None:
    rules = Rules(queen_at_first_chance=True, points_on_first_trick=True)
    rnd = round_from(QUEEN_CHANCE_DEAL, rules)
    play_all(rnd, "2C KC")
    assert names(rnd.legal_cards()) == "QS"


# --- who leads first -------------------------------------------------------------------------


def test_dealer_left_leads_any_card_but_a_heart_the_queen_too() -> None:
    # The first trick's points rule kept the Q♠ (and, with hearts any time, every heart) from
    # the lead: the house rule is any card, and any but a heart where hearts must be broken.
    rnd = round_from(FIRST_TRICK_DEAL, Rules(first_lead="dealer-left"), dealer=1)
    assert rnd.turn == 2
    assert names(rnd.legal_cards()) == "QD KD AD QS"
    rnd.play("QS")
    assert rnd.why_illegal("TS", seat=3) is None  # the others follow as ever


def test_dealer_left_with_hearts_any_time_may_lead_a_heart_to_the_first_trick() -> None:
    rules = Rules(first_lead="dealer-left", must_break_hearts=False)
    rnd = round_from(FIRST_TRICK_DEAL, rules, dealer=1)
    assert len(rnd.legal_cards()) == 13
    rnd.play("AH")
    assert rnd.hearts_broken


def test_dealer_left_may_lead_anything_allowed() -> None:
    rnd = round_from(FIRST_TRICK_DEAL, Rules(first_lead="dealer-left"), dealer=0)
    assert rnd.turn == 1
    assert len(rnd.legal_cards()) == 13


# --- refusals change nothing ------------------------------------------------------------------


def test_illegal_play_raises_with_the_reason_and_changes_nothing() -> None:
    rnd = round_from(FIRST_TRICK_DEAL)
    before = snapshot(rnd)
    with pytest.raises(IllegalMoveError, match="led with the two of clubs"):
        rnd.play("3C")
    with pytest.raises(IllegalMoveError, match="do not hold the queen of spades"):
        rnd.play("QS")
    with pytest.raises(IllegalMoveError, match="not a card"):
        rnd.play("ZZ")
    with pytest.raises(IllegalMoveError, match="not a card"):
        rnd.play(500)
    assert snapshot(rnd) == before
    assert isinstance(IllegalMoveError("x"), ValueError)


def test_why_illegal_knows_whose_turn_it_is() -> None:
    rnd = round_from(FIRST_TRICK_DEAL)
    assert rnd.why_illegal("2C", seat=0) is None
    assert rnd.why_illegal("KC", seat=1) == "It is not your turn yet."
    assert rnd.is_legal("2C") and not rnd.is_legal("3C")


def test_round_ends_after_thirteen_tricks_with_26_points() -> None:
    rnd = round_from(FIRST_TRICK_DEAL)
    play_lowest_until_over(rnd)
    assert rnd.phase == "over" and rnd.is_over
    assert len(rnd.tricks) == 13
    assert sum(rnd.points_taken) == 26
    assert rnd.legal_cards() == []
    assert rnd.why_illegal("2C") == "This round is over."
    with pytest.raises(IllegalMoveError, match="round is over"):
        rnd.play("2C")
    assert rnd.view(0).turn is None


def test_copy_is_independent() -> None:
    rnd = round_from(FIRST_TRICK_DEAL)
    twin = rnd.copy()
    twin.play("2C")
    assert rnd.turn == 0 and twin.turn == 1
    assert len(rnd.hand(0)) == 13 and len(twin.hand(0)) == 12


# --- dealing and building rounds -------------------------------------------------------------


def test_deal_is_deterministic_and_complete() -> None:
    a = Round.deal(Rules(), seed=11, hand_number=2)
    b = Round.deal(Rules(), seed=11, hand_number=2)
    c = Round.deal(Rules(), seed=12, hand_number=2)
    assert [a.hand(s) for s in range(4)] == [b.hand(s) for s in range(4)]
    assert [a.hand(s) for s in range(4)] != [c.hand(s) for s in range(4)]
    everything = sorted(int(card) for s in range(4) for card in a.hand(s))
    assert everything == list(range(52))
    assert a.pass_direction == "across" and a.dealer == 2


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (["2C"] * 4, "must hold 13 cards"),
        ([*FIRST_TRICK_DEAL[:3]], "seats 4 players"),
    ],
)
def test_from_hands_refuses_bad_deals(deal: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        round_from(deal)


def test_from_hands_refuses_a_card_dealt_twice() -> None:
    bad = hands(FIRST_TRICK_DEAL)
    bad[0][1] = "KC"  # East holds the K♣ too; the 3♣ goes missing
    with pytest.raises(ValueError, match="king of clubs"):
        Round.from_hands(Rules(), bad, "hold")


def test_from_hands_refuses_a_bad_direction() -> None:
    with pytest.raises(ValueError, match="not a pass direction"):
        Round.from_hands(Rules(), hands(FIRST_TRICK_DEAL), "up")  # type: ignore[arg-type]


def test_unknown_seat_view() -> None:
    with pytest.raises(ValueError, match="no seat 7"):
        round_from(FIRST_TRICK_DEAL).view(7)


def test_parse_and_card_objects_both_play() -> None:
    rnd = round_from(FIRST_TRICK_DEAL)
    rnd.play(parse_card("2C"))
    rnd.play("kc")
    assert len(rnd.trick) == 2


def test_a_round_from_hands_passes_only_as_its_rules_could() -> None:
    # "across" at three players was taken (and became a pass to the left), and "partner"
    # without partners, where the rules refuse both in a pass cycle.
    for rules, direction, said in (
        (Rules(players=3), "across", "Nobody sits across with 3 players."),
        (Rules(), "partner", "A pass to a partner needs partnership play."),
        (Rules(), "keep", "'keep' is not a pass direction; use left, right, across, hold,"),
    ):
        hands = [
            [str(card) for card in Round.deal(rules, seed=1).hand(s)] for s in range(rules.players)
        ]
        with pytest.raises(ValueError, match=re.escape(said)):
            Round.from_hands(rules, hands, direction)  # type: ignore[arg-type]
