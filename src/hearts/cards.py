"""Cards as small ints and sets of cards as bitmasks.

A card is ``suit * 13 + rank``: suits are clubs, diamonds, hearts, spades (0..3) and ranks
run 2..A (0..12), so each suit is one 13-bit block of a mask and "can follow suit" is
``hand & SUIT_MASKS[led]``. Two-deck games (Cancellation Hearts) number the second deck's
cards 52..103; they print like the first deck's, and ``card % 52`` is the face.

>>> card = parse_card("Q♠")
>>> str(card), int(card), card.suit, card.name
('QS', 49, 3, 'queen of spades')
>>> CardSet.parse("2C 3C QS")
CardSet('2C 3C QS')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Final

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3
SUITS: Final = (CLUBS, DIAMONDS, HEARTS, SPADES)

RANK_CHARS: Final = "23456789TJQKA"
SUIT_CHARS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
SUIT_SINGULAR: Final = ("club", "diamond", "heart", "spade")
RANK_NAMES: Final = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)

DECK_SIZE: Final = 52
FULL_DECK: Final = (1 << DECK_SIZE) - 1
SUIT_BLOCK: Final = 0x1FFF
#: Mask of one suit in both decks, indexed by suit.
SUIT_MASKS: Final = tuple((SUIT_BLOCK << (13 * s)) | (SUIT_BLOCK << (13 * s + 52)) for s in SUITS)
HEARTS_MASK: Final = SUIT_MASKS[HEARTS]


class Card(int):
    """One card: an int 0..103 that prints as "QS", "TH", "2C".

    Use the constants in `CARDS` (or `parse_card`) rather than making new ones.
    """

    __slots__ = ()

    @property
    def face(self) -> int:
        """The card's number in one deck (0..51): the two queens of spades share a face."""
        return self % DECK_SIZE

    @property
    def suit(self) -> int:
        return (self % DECK_SIZE) // 13

    @property
    def rank(self) -> int:
        """0 for a two up to 12 for an ace."""
        return self % 13

    @property
    def name(self) -> str:
        """Words for a person or a screen reader: "queen of spades"."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    @property
    def symbol(self) -> str:
        """Short text with the suit sign: "Q♠", "10♥"."""
        rank = "10" if self.rank == 8 else RANK_CHARS[self.rank]
        return rank + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return RANK_CHARS[self.rank] + SUIT_CHARS[self.suit]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


#: Every card object, indexed by number (0..103).
CARDS: Final = tuple(Card(i) for i in range(2 * DECK_SIZE))

_RANK_ALIASES = {c: i for i, c in enumerate(RANK_CHARS)} | {"10": 8, "1": 12}
_SUIT_ALIASES = {c: i for i, c in enumerate(SUIT_CHARS)} | {
    s: i for i, s in enumerate(SUIT_SYMBOLS)
}
_SUIT_ALIASES |= {"♡": HEARTS, "♢": DIAMONDS, "♤": SPADES, "♧": CLUBS}
# A suit symbol may carry a variation selector (phone keyboards type "♥️" as ♥ + U+FE0F).
_CARD_RE = re.compile(r"^\s*(10|[2-9TJQKA1])\s*([CDHS♣♦♥♠♡♢♤♧])[\ufe0e\ufe0f]?\s*$", re.IGNORECASE)


def parse_card(text: str) -> Card:
    """Read a card from text: "QS", "qs", "Q♠", "10S" and "TS" all work.

    >>> parse_card("10h"), parse_card("TH"), parse_card("2♣")
    (Card('TH'), Card('TH'), Card('2C'))
    >>> parse_card("QX")
    Traceback (most recent call last):
    ...
    ValueError: 'QX' is not a card; write a rank and a suit, like "QS" or "10H".
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise ValueError(f'{text!r} is not a card; cards are written like "QS" or "10H".')
    match = _CARD_RE.match(text)
    if match is None:
        shown = text if len(text) <= 20 else text[:20] + "…"  # a pasted page is not echoed whole
        raise ValueError(f'{shown!r} is not a card; write a rank and a suit, like "QS" or "10H".')
    rank = _RANK_ALIASES[match.group(1).upper()]
    suit = _SUIT_ALIASES[match.group(2).upper()]
    return CARDS[suit * 13 + rank]


TWO_OF_CLUBS: Final = parse_card("2C")
THREE_OF_CLUBS: Final = parse_card("3C")
KING_OF_SPADES: Final = parse_card("KS")
ACE_OF_SPADES: Final = parse_card("AS")
QUEEN_OF_SPADES: Final = parse_card("QS")
QUEEN_MASK: Final = (1 << QUEEN_OF_SPADES) | (1 << (QUEEN_OF_SPADES + DECK_SIZE))
#: Hearts and the queen of spades, in both decks.
POINT_MASK: Final = HEARTS_MASK | QUEEN_MASK


def iter_bits(mask: int) -> Iterator[int]:
    """The numbers of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_BLOCK_CARDS: Final = tuple(
    tuple(tuple(CARDS[13 * block + i] for i in range(13) if bits >> i & 1) for bits in range(8192))
    for block in range(4)
)


def cards_of(mask: int) -> list[Card]:
    """The cards in a mask, lowest first, as `Card` objects (fast: one table look-up a suit).

    >>> cards_of(0b101)
    [Card('2C'), Card('4C')]
    """
    blocks = _BLOCK_CARDS
    # One block a suit, clubs to spades, at bits 13 * suit: written out, because this runs
    # for every legal set and hand shown, and literals cost nothing to look up.
    cards = [
        *blocks[0][mask & 0x1FFF],
        *blocks[1][mask >> 13 & 0x1FFF],
        *blocks[2][mask >> 26 & 0x1FFF],
        *blocks[3][mask >> 39 & 0x1FFF],
    ]
    if mask >> DECK_SIZE:
        cards.extend(CARDS[i] for i in iter_bits(mask >> DECK_SIZE << DECK_SIZE))
    return cards


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def points_of(mask: int) -> int:
    """Penalty points in a set of cards: 1 a heart, 13 a queen of spades.

    >>> points_of(CardSet.parse("QS AH 2H 3C").mask)
    15
    """
    return (mask & HEARTS_MASK).bit_count() + 13 * (mask & QUEEN_MASK).bit_count()


class CardSet:
    """A set of cards kept as a bitmask, with the feel of a Python set.

    >>> hand = CardSet.parse("AS 2C QS KH")
    >>> len(hand), parse_card("QS") in hand, [str(c) for c in hand.of_suit(SPADES)]
    (4, True, ['QS', 'AS'])
    >>> hand - CardSet.parse("QS")
    CardSet('2C KH AS')
    """

    __slots__ = ("mask",)

    def __init__(self, cards: Iterable[int] | int = 0) -> None:
        self.mask: int = cards if isinstance(cards, int) else mask_of(cards)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        return cls(parse_card(word) for word in text.replace(",", " ").split())

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 2 * DECK_SIZE and bool(self.mask >> card & 1)

    def __iter__(self) -> Iterator[Card]:
        return (CARDS[i] for i in iter_bits(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def of_suit(self, suit: int) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[suit])

    def __repr__(self) -> str:
        return f"CardSet({' '.join(str(c) for c in self)!r})"

    def __str__(self) -> str:
        return " ".join(str(c) for c in self)
