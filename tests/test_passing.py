import pytest

from hearts import Game, IllegalMoveError, Round, Rules
from hearts.ai import LEVELS, make_player
from hearts.rules import PassDirection

from helpers import FIRST_TRICK_DEAL, hands


def passing_round(direction: PassDirection, rules: Rules | None = None) -> Round:
    return Round.from_hands(rules or Rules(), hands(FIRST_TRICK_DEAL), direction)


@pytest.mark.parametrize(
    ("direction", "receiver_of_north"), [("left", 1), ("right", 3), ("across", 2)]
)
def test_cards_change_hands_once_everyone_has_passed(
    direction: PassDirection, receiver_of_north: int
) -> None:
    rnd = passing_round(direction)
    assert rnd.waiting_to_pass() == [0, 1, 2, 3]
    assert rnd.pass_recipients(0) == [receiver_of_north]
    rnd.give(0, ["2S", "3S", "4S"])
    assert rnd.waiting_to_pass() == [1, 2, 3]
    # North's cards have left her hand, but nobody has them yet.
    assert len(rnd.hand(0)) == 10
    assert rnd.view(receiver_of_north).received is None
    rnd.give(1, ["7D", "8D", "9D"])
    rnd.give(2, ["KH", "QH", "JH"])
    rnd.give(3, ["JC", "QC", "AC"])
    assert rnd.phase == "playing"
    received = rnd.view(receiver_of_north).received
    assert received is not None and " ".join(map(str, received)) == "2S 3S 4S"
    assert all(len(rnd.hand(s)) == 13 for s in range(4))
    # The 2♣ leads after the pass, wherever it went.
    assert "2C" in {str(c) for c in rnd.hand(rnd.turn)}


def test_hold_round_has_no_pass() -> None:
    rnd = passing_round("hold")
    assert rnd.phase == "playing"
    with pytest.raises(IllegalMoveError, match="This is a keep round: nobody passes"):
        rnd.give(0, ["2S", "3S", "4S"])


def test_scatter_sends_one_card_to_each_other_player_in_order() -> None:
    rnd = passing_round("scatter", Rules.preset("scatter"))
    assert rnd.cards_to_pass() == 3
    assert rnd.pass_recipients(0) == [1, 2, 3]
    rnd.give(0, ["2S", "3S", "4S"])
    rnd.give(1, ["7D", "8D", "9D"])
    rnd.give(2, ["KH", "QH", "JH"])
    rnd.give(3, ["JC", "QC", "AC"])
    assert "2S" in {str(c) for c in rnd.hand(1)}
    assert "3S" in {str(c) for c in rnd.hand(2)}
    assert "4S" in {str(c) for c in rnd.hand(3)}
    assert "JC" in {str(c) for c in rnd.hand(0)}  # West's first card goes to its left: North


@pytest.mark.parametrize(
    ("seat", "cards", "message"),
    [
        (0, ["2S", "3S"], "Pass exactly 3 cards."),
        (0, ["2S", "3S", "4S", "5D"], "Pass exactly 3 cards."),
        (0, ["2S", "3S", "QS"], "You do not hold the queen of spades."),
        (0, ["2S", "2S", "3S"], "You chose the two of spades twice."),
        (0, ["2S", "3S", "XX"], "'XX' is not a card."),
        (0, ["QS"], "You do not hold the queen of spades."),  # said before the count
        (0, ["2S"], "Pass exactly 3 cards."),
        (9, ["2S", "3S", "4S"], "There is no seat 9 at this table."),
        (0, "2S 3S 4S", "Pass exactly 3 cards."),
    ],
)
def test_bad_passes_are_refused_and_change_nothing(
    seat: int, cards: list[str], message: str
) -> None:
    rnd = passing_round("left")
    before = [rnd.view(s).to_dict() for s in range(4)]
    assert rnd.why_pass_illegal(seat, cards) == message
    with pytest.raises(IllegalMoveError) as error:
        rnd.give(seat, cards)
    assert str(error.value) == message
    assert [rnd.view(s).to_dict() for s in range(4)] == before


def test_passing_twice_is_refused() -> None:
    rnd = passing_round("left")
    rnd.give(0, ["2S", "3S", "4S"])
    with pytest.raises(IllegalMoveError, match="already passed"):
        rnd.give(0, ["5C", "6C", "2D"])


def test_no_play_during_the_pass_and_no_pass_during_play() -> None:
    rnd = passing_round("left")
    assert rnd.legal_cards() == []
    with pytest.raises(IllegalMoveError, match="still being passed"):
        rnd.play("2C")
    for seat, cards in enumerate(
        [["2S", "3S", "4S"], ["7D", "8D", "9D"], ["KH", "QH", "JH"], ["JC", "QC", "AC"]]
    ):
        rnd.give(seat, cards)
    with pytest.raises(IllegalMoveError, match="pass is over"):
        rnd.give(0, ["5C", "6C", "2D"])


def test_a_view_shows_own_pass_at_once_and_received_cards_only_after_the_exchange() -> None:
    rnd = passing_round("left")
    rnd.give(3, ["JC", "QC", "AC"])
    view = rnd.view(3)
    assert view.passed is not None and len(view.passed) == 3
    assert view.received is None
    assert rnd.view(0).passed is None


def test_every_level_passes_nine_of_ten_cards_holding_both_copies_of_some() -> None:
    # Ten players, two decks, one card to each of nine others: a hand of eight different
    # cards (two held twice) asked medium's pass for a ninth different card, which failed
    # ("negative shift count"); the server then passed for it with a fallback.
    rules = Rules(players=10, pass_cycle=("scatter",))
    doubled = 0
    for seed in range(12):
        game = Game(rules, seed)
        for seat in range(rules.players):
            view = game.view(seat)
            if len({str(card) for card in view.hand}) >= view.cards_to_pass:
                continue
            doubled += 1
            for level in LEVELS:
                cards = make_player(level, seed=seed).choose_pass(view)
                held = list(view.hand)
                for card in cards:
                    held.remove(card)  # each card passed is one held, a copy at most once
                assert len(cards) == view.cards_to_pass, level
    assert doubled  # these seeds deal such hands
