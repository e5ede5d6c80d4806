import pytest
from hypothesis import given
from hypothesis import strategies as st

from hearts import CARDS, Card, CardSet, parse_card
from hearts.cards import cards_of, iter_bits, mask_of, points_of


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("QS", "QS"),
        ("qs", "QS"),
        ("Q♠", "QS"),
        ("10S", "TS"),
        ("TS", "TS"),
        ("10♥", "TH"),
        (" 2c ", "2C"),
        ("a♦", "AD"),
        ("K♤", "KS"),
    ],
)
def test_parse_card_accepts_common_spellings(text: str, expected: str) -> None:
    assert str(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["", "Q", "S", "QX", "11S", "QSS", "1 0S", "ZS", "♠Q"])
def test_parse_card_rejects_bad_text_with_a_value_error(text: str) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        parse_card(text)


def test_parse_card_rejects_non_strings() -> None:
    with pytest.raises(ValueError):
        parse_card(12)  # type: ignore[arg-type]


def test_card_numbering_is_suit_then_rank() -> None:
    assert int(parse_card("2C")) == 0
    assert int(parse_card("AC")) == 12
    assert int(parse_card("2D")) == 13
    assert int(parse_card("QS")) == 49
    assert int(parse_card("AS")) == 51


def test_card_words_for_people() -> None:
    queen = parse_card("QS")
    assert queen.name == "queen of spades"
    assert parse_card("TH").name == "ten of hearts"
    assert parse_card("TH").symbol == "10♥"
    assert repr(queen) == "Card('QS')"


def test_second_deck_cards_print_like_the_first() -> None:
    assert str(CARDS[49 + 52]) == "QS"
    assert CARDS[49 + 52].face == 49
    assert CARDS[49 + 52].suit == 3


@given(st.integers(min_value=0, max_value=103))
def test_text_round_trips(number: int) -> None:
    card = CARDS[number]
    assert parse_card(str(card)).face == card.face
    assert parse_card(card.symbol).face == card.face


@given(st.sets(st.integers(min_value=0, max_value=103)))
def test_mask_helpers_agree(numbers: set[int]) -> None:
    mask = mask_of(numbers)
    assert list(iter_bits(mask)) == sorted(numbers)
    assert [int(c) for c in cards_of(mask)] == sorted(numbers)
    assert len(CardSet(mask)) == len(numbers)


def test_cardset_behaves_like_a_set() -> None:
    hand = CardSet.parse("AS 2C QS KH")
    assert parse_card("QS") in hand
    assert parse_card("QH") not in hand
    assert "QS" not in hand  # membership is by card, not by text
    assert len(hand) == 4
    assert [str(c) for c in hand] == ["2C", "KH", "QS", "AS"]
    assert hand - CardSet.parse("QS") == CardSet.parse("2C KH AS")
    assert (hand & CardSet.parse("QS QH")) == CardSet.parse("QS")
    assert (hand | CardSet.parse("QH")) == CardSet.parse("2C QH KH QS AS")
    assert str(hand.of_suit(3)) == "QS AS"
    assert not CardSet()


def test_points_of_counts_hearts_and_the_queen() -> None:
    assert points_of(CardSet.parse("QS AH 2H 3C").mask) == 15
    assert points_of(CardSet.parse("KS AS JD").mask) == 0
    assert points_of(CardSet(range(52)).mask) == 26
    assert points_of(CardSet(range(104)).mask) == 52


def test_card_is_an_int() -> None:
    card = parse_card("3C")
    assert isinstance(card, Card) and isinstance(card, int)
    assert card + 0 == 1
