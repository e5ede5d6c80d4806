"""One deal of the cards: the pass, the tricks, legality with reasons, and points taken.

>>> from hearts import Rules, Round
>>> rnd = Round.deal(Rules(), seed=7, hand_number=3)      # the fourth round holds
>>> rnd.phase, rnd.pass_direction, str(rnd.legal_cards()[0])
('playing', 'hold', '2C')
>>> rnd.why_illegal(rnd.hand(rnd.turn)[-1])
'The first trick is led with the two of clubs.'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Literal, NamedTuple

from .cards import (
    CARDS,
    CLUBS,
    DECK_SIZE,
    HEARTS,
    HEARTS_MASK,
    POINT_MASK,
    QUEEN_MASK,
    SUIT_MASKS,
    Card,
    cards_of,
    iter_bits,
    parse_card,
    points_of,
)
from .legality import Reasons, legal_mask
from .rules import PassDirection, Rules
from .view import PlayerView, TrickView
from .words import counted

CardLike = Card | str | int
RoundPhase = Literal["passing", "playing", "over"]


class IllegalMoveError(ValueError):
    """A pass or a play the rules refuse; the message is one sentence for a person."""


class Trick(NamedTuple):
    """A finished trick: who led, the cards in playing order, and who won it.

    In Cancellation Hearts (two decks) identical cards on one trick cancel and cannot win.
    When every card of the suit led is cancelled nobody wins: `winner` is then the leader,
    who leads again, and on any trick but the last the cards stay on the table
    (`held_over`) until the next trick is won; that trick lists them in `carried`, and its
    winner takes them too. On the last trick the leader takes them.
    """

    leader: int
    cards: tuple[Card, ...]
    winner: int
    carried: tuple[Card, ...] = ()
    """Cards of earlier held-over tricks that this trick's winner took with it."""
    held_over: bool = False
    """Nobody won this trick: its cards went to the winner of the next one."""

    def seats(self, players: int) -> list[int]:
        return [(self.leader + i) % players for i in range(len(self.cards))]


def _recipients(direction: str, seat: int, players: int) -> list[int]:
    """Who gets a seat's passed cards, one entry per card group (scatter: one per player)."""
    if direction == "left":
        return [(seat + 1) % players]
    if direction == "right":
        return [(seat - 1) % players]
    if direction in ("across", "partner"):
        return [(seat + players // 2) % players]
    if direction == "scatter":
        return [(seat + k) % players for k in range(1, players)]
    return []


class Round:
    """One deal, from the pass to the last trick. Seats are 0..N-1, clockwise.

    A round is changed only through `give` and `play`; both refuse an illegal action with
    `IllegalMoveError` and leave the round as it was.
    """

    __slots__ = (
        "_hands",
        "_legal",
        "_opening",
        "_pass_order",
        "_trick",
        "dealer",
        "dealt",
        "given",
        "givers",
        "hand_number",
        "hearts_broken",
        "held_over",
        "kitty",
        "kitty_taker",
        "leader",
        "pass_direction",
        "phase",
        "played_mask",
        "players",
        "points_taken",
        "received",
        "rules",
        "scores",
        "taken",
        "tricks",
        "turn",
    )

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[int],
        *,
        pass_direction: PassDirection,
        dealer: int = 0,
        kitty: int = 0,
        hand_number: int = 0,
        scores: Sequence[int] | None = None,
    ) -> None:
        """Low-level constructor from hand masks; use `deal` or `from_hands` instead."""
        n = rules.players
        self.rules = rules
        self.players = n
        opening = parse_card(rules.opening_card)
        self._opening = (1 << opening) | (1 << (opening + DECK_SIZE))
        self.dealer = dealer % n
        self.hand_number = hand_number
        self.pass_direction = pass_direction
        self.phase: RoundPhase = "passing"
        self.scores: tuple[int, ...] = tuple(scores) if scores is not None else (0,) * n
        self._hands = list(hands)
        self._legal: int | None = None  # legal_mask() of the current position, once asked
        self.dealt: tuple[int, ...] = tuple(hands)
        self.kitty = kitty
        self.kitty_taker: int | None = None
        self.given: list[int | None] = [None] * n
        self.received: list[int | None] = [None] * n
        self.givers: list[tuple[int, ...]] = [()] * n
        """Per seat, once the passes changed hands: who gave each card received, in the
        order of `received`'s cards (lowest first). Replaced whole, never changed in place."""
        self._pass_order: list[list[int]] = [[] for _ in range(n)]
        self.taken = [0] * n
        self.points_taken = [0] * n
        self.tricks: list[Trick] = []
        self._trick: list[int] = []
        self.hearts_broken = False
        self.held_over = 0
        """Cards of cancelled tricks waiting on the table for the next trick's winner."""
        self.played_mask = 0
        self.leader = 0
        self.turn = 0
        if rules.cards_to_pass(pass_direction) == 0:
            self._start_play()

    # --- construction ---------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rules: Rules,
        seed: int | str | None = None,
        hand_number: int = 0,
        *,
        rng: random.Random | None = None,
        scores: Sequence[int] | None = None,
    ) -> Round:
        """A shuffled deal. The same rules, seed and hand number always give the same deal."""
        if rng is None:
            rng = random.Random(f"hearts:{seed}:{hand_number}")
        deck = deck_cards(rules)
        rng.shuffle(deck)
        n = rules.players
        dealer = hand_number % n
        hands = [0] * n
        size = rules.hand_size
        for i, card in enumerate(deck[: size * n]):
            hands[(dealer + 1 + i) % n] |= 1 << card
        kitty = 0
        for card in deck[size * n :]:
            kitty |= 1 << card
        return cls(
            rules,
            hands,
            pass_direction=rules.pass_direction(hand_number),
            dealer=dealer,
            kitty=kitty,
            hand_number=hand_number,
            scores=scores,
        )

    @classmethod
    def from_hands(
        cls,
        rules: Rules,
        hands: Sequence[Iterable[CardLike]],
        pass_direction: PassDirection = "left",
        *,
        dealer: int = 0,
        kitty: Iterable[CardLike] = (),
        hand_number: int = 0,
        scores: Sequence[int] | None = None,
    ) -> Round:
        """A round from hands given card by card (a list per seat, clockwise from seat 0).

        >>> rnd = Round.from_hands(Rules(), [["2C"], ["3C"], ["4C"], ["5C"]], "hold")
        Traceback (most recent call last):
        ...
        ValueError: Each player must hold 13 cards; seat 0 holds 1.
        """
        if len(hands) != rules.players:
            raise ValueError(f"This table seats {rules.players} players, not {len(hands)}.")
        # Checked as the rules check a pass cycle: no "across" at an odd table, no "partner"
        # without partners (a pass these rules could never make was taken, and became
        # another one).
        replace(rules, pass_cycle=(pass_direction,))
        available = deck_cards(rules)
        pool = 0
        for card in available:
            pool |= 1 << card
        masks = []
        for seat, hand in enumerate(hands):
            cards = [parse_card(c) if isinstance(c, str) else CARDS[c] for c in hand]
            if len(cards) != rules.hand_size:
                raise ValueError(
                    f"Each player must hold {rules.hand_size} cards; "
                    f"seat {seat} holds {len(cards)}."
                )
            mask, pool = _take_cards(cards, pool, f"seat {seat}")
            masks.append(mask)
        kitty_cards = [parse_card(c) if isinstance(c, str) else CARDS[c] for c in kitty]
        kitty_mask, pool = _take_cards(kitty_cards, pool, "the kitty")
        if pool:
            missing = " ".join(str(c) for c in (CARDS[i] for i in iter_bits(pool)))
            raise ValueError(f"These cards of the deck were not dealt: {missing}.")
        return cls(
            rules,
            masks,
            pass_direction=pass_direction,
            dealer=dealer,
            kitty=kitty_mask,
            hand_number=hand_number,
            scores=scores,
        )

    def copy(self) -> Round:
        other = Round.__new__(Round)
        for name in Round.__slots__:
            setattr(other, name, getattr(self, name))
        other._hands = self._hands.copy()
        other._trick = self._trick.copy()
        other.given = self.given.copy()
        other.received = self.received.copy()
        other._pass_order = self._pass_order.copy()
        other.taken = self.taken.copy()
        other.points_taken = self.points_taken.copy()
        other.tricks = self.tricks.copy()
        return other

    # --- reading the state -----------------------------------------------------------------

    def hand(self, seat: int) -> list[Card]:
        """The cards a seat holds, lowest first (the full state: for referees, not players)."""
        return cards_of(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        return self._hands[seat]

    @property
    def trick(self) -> list[tuple[int, Card]]:
        """The trick on the table: (seat, card) in playing order."""
        n = self.players
        return [((self.leader + i) % n, CARDS[c]) for i, c in enumerate(self._trick)]

    @property
    def is_first_trick(self) -> bool:
        return not self.tricks

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def cards_to_pass(self) -> int:
        return self.rules.cards_to_pass(self.pass_direction)

    def pass_recipients(self, seat: int) -> list[int]:
        """The seats a seat's pass goes to (one for each card, in order, for a scatter)."""
        return _recipients(self.pass_direction, seat, self.players)

    def passed(self, seat: int) -> list[int]:
        """The card numbers `seat` passed (none before it passes): for a scatter in the order
        given, each to the seat at the same place in `pass_recipients`; else lowest first."""
        if self.pass_direction == "scatter" and self.given[seat] is not None:
            return list(self._pass_order[seat])
        return list(iter_bits(self.given[seat] or 0))

    def waiting_to_pass(self) -> list[int]:
        """Seats that still have to pass."""
        if self.phase != "passing":
            return []
        return [s for s in range(self.players) if self.given[s] is None]

    # --- passing ---------------------------------------------------------------------------

    def why_pass_illegal(self, seat: int, cards: Sequence[CardLike]) -> str | None:
        """None if `give(seat, cards)` would be accepted, else the reason."""
        try:
            self._pass_mask(seat, cards)
        except IllegalMoveError as error:
            return str(error)
        return None

    def _pass_mask(self, seat: int, cards: Sequence[CardLike]) -> tuple[int, list[int]]:
        if self.phase != "passing":
            if self.phase == "over":
                raise IllegalMoveError("This round is over.")
            if self.cards_to_pass() == 0:
                raise IllegalMoveError("This is a keep round: nobody passes.")
            raise IllegalMoveError("The pass is over; the cards are being played.")
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalMoveError(f"There is no seat {seat!r} at this table.")
        if self.given[seat] is not None:
            raise IllegalMoveError("You have already passed this round.")
        need = self.cards_to_pass()
        exactly = f"Pass exactly {counted(need, 'card')}."
        if isinstance(cards, str | bytes) or len(cards) > need:
            raise IllegalMoveError(exactly)
        # Too few: a card not held is said first ("QS" alone, not held, was "Pass exactly 3").
        hand = self._hands[seat]
        mask = 0
        ordered: list[int] = []
        for item in cards:
            try:
                card = parse_card(item) if isinstance(item, str) else CARDS[int(item)]
            except (ValueError, IndexError, TypeError):
                raise IllegalMoveError(f"{item!r} is not a card.") from None
            number = _held_copy(hand & ~mask, card)
            if number is None:
                twice = _held_copy(hand, card) is not None
                raise IllegalMoveError(
                    f"You chose the {card.name} twice."
                    if twice
                    else f"You do not hold the {card.name}."
                )
            mask |= 1 << number
            ordered.append(number)
        if len(ordered) != need:
            raise IllegalMoveError(exactly)
        return mask, ordered

    def give(self, seat: int, cards: Sequence[CardLike]) -> None:
        """A seat's pass. The cards change hands once every seat has passed.

        For a scatter pass the cards go, in order, to the players on the left, then the next
        seat round, and so on.
        """
        mask, ordered = self._pass_mask(seat, cards)
        self.given[seat] = mask
        self._hands[seat] &= ~mask
        if self.pass_direction == "scatter":
            self._pass_order[seat] = ordered
        if all(g is not None for g in self.given):
            self._exchange()

    def _exchange(self) -> None:
        n = self.players
        incoming = [0] * n
        giver = [dict[int, int]() for _ in range(n)]  # per receiver: card bit -> giver
        for seat in range(n):
            given = self.given[seat]
            assert given is not None
            targets = self.pass_recipients(seat)
            if self.pass_direction == "scatter":
                for target, card in zip(targets, self._pass_order[seat], strict=True):
                    incoming[target] |= 1 << card
                    giver[target][card] = seat
            else:
                incoming[targets[0]] |= given
                giver[targets[0]].update((card, seat) for card in iter_bits(given))
        for seat in range(n):
            self._hands[seat] |= incoming[seat]
        self.received = list(incoming)
        self.givers = [tuple(giver[s][card] for card in iter_bits(incoming[s])) for s in range(n)]
        self._start_play()

    def _start_play(self) -> None:
        self.phase = "playing"
        self._legal = None
        n = self.players
        if self.rules.first_lead == "dealer-left":
            self.leader = (self.dealer + 1) % n
        else:
            held = 0
            for hand in self._hands:
                held |= hand
            if not held & self._opening:
                # The opening card lies in the kitty: the lowest club dealt to a hand leads.
                clubs = held & SUIT_MASKS[CLUBS]
                self._opening = clubs & -clubs
            self.leader = next(s for s in range(n) if self._hands[s] & self._opening)
        self.turn = self.leader

    # --- playing ---------------------------------------------------------------------------

    def legal_mask(self) -> int:
        """The legal cards of the seat to play, as a mask (0 when nobody is to play)."""
        if self.phase != "playing":
            return 0
        if self._legal is None:
            self._legal = self._filter(self._hands[self.turn], None)
        return self._legal

    def legal_cards(self) -> list[Card]:
        """The cards the seat to play may play, lowest first."""
        return cards_of(self.legal_mask())

    def is_legal(self, card: CardLike) -> bool:
        return self.why_illegal(card) is None

    def why_illegal(self, card: CardLike, seat: int | None = None) -> str | None:
        """None if the card may be played now, else one plain sentence saying why not.

        With `seat`, also checks that it is that seat's turn.
        """
        if self.phase == "passing":
            return "Cards are still being passed; play starts when everyone has passed."
        if self.phase == "over":
            return "This round is over."
        if seat is not None and seat != self.turn:
            return "It is not your turn yet."
        try:
            face = parse_card(card) if isinstance(card, str) else CARDS[int(card)]
        except (ValueError, IndexError, TypeError):
            return f"{card!r} is not a card."
        hand = self._hands[self.turn]
        number = _held_copy(hand, face)
        if number is None:
            return f"You do not hold the {face.name}."
        if self._filter(hand, None) >> number & 1:
            return None
        reasons: list[tuple[int, str]] = []
        self._filter(hand, reasons)
        for excluded, reason in reasons:
            if excluded >> number & 1:
                return reason
        raise AssertionError("a held card was refused without a reason")  # pragma: no cover

    def play(self, card: CardLike) -> None:
        """The seat to play plays a card; refuses an illegal one and changes nothing then."""
        if self.phase == "playing":
            if type(card) is Card:
                legal = self._legal if self._legal is not None else self.legal_mask()
                if legal >> card & 1:  # the common case: a card from legal_cards()
                    self._play_number(card)
                    return
                number = _held_copy(self._hands[self.turn], card)
            else:
                try:
                    face = parse_card(card) if isinstance(card, str) else CARDS[int(card)]
                except (ValueError, IndexError, TypeError):
                    raise IllegalMoveError(f"{card!r} is not a card.") from None
                number = _held_copy(self._hands[self.turn], face)
            if number is not None and self.legal_mask() >> number & 1:
                self._play_number(number)
                return
        reason = self.why_illegal(card)
        assert reason is not None
        raise IllegalMoveError(reason)

    def _play_number(self, number: int) -> None:
        seat = self.turn
        bit = 1 << number
        self._legal = None
        self._hands[seat] &= ~bit
        self._trick.append(number)
        self.played_mask |= bit
        if bit & HEARTS_MASK or (self.rules.queen_breaks_hearts and bit & QUEEN_MASK):
            self.hearts_broken = True
        if len(self._trick) < self.players:
            self.turn = (seat + 1) % self.players
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        cards = self._trick
        n = self.players
        led = cards[0] % DECK_SIZE // 13
        winner_index = _winning_index(cards, led, self.rules.decks == 2)
        mask = 0
        for c in cards:
            mask |= 1 << c
        played = tuple([CARDS[c] for c in cards])
        last = not self._hands[self.leader]
        if winner_index is None and not last:
            # Every card of the suit led cancelled: the cards wait for the next trick's
            # winner, and the same seat leads again.
            self.held_over |= mask
            self.tricks.append(Trick(self.leader, played, self.leader, held_over=True))
            self._trick = []
            self.turn = self.leader
            return
        winner = self.leader if winner_index is None else (self.leader + winner_index) % n
        carried = self.held_over
        self.held_over = 0
        self.taken[winner] |= mask | carried
        self.points_taken[winner] += _points_with_bonus(mask | carried, self.rules)
        if self.kitty and self.kitty_taker is None and mask & POINT_MASK:
            self.kitty_taker = winner
            self.taken[winner] |= self.kitty
            self.points_taken[winner] += _points_with_bonus(self.kitty, self.rules)
        self.tricks.append(
            Trick(self.leader, played, winner, tuple(cards_of(carried)) if carried else ())
        )
        self._trick = []
        self.leader = self.turn = winner
        if last:
            self.phase = "over"

    def _filter(self, hand: int, reasons: Reasons | None) -> int:
        """The legal part of `hand` for the seat to play; records why each card was dropped."""
        first = not self.tricks
        return legal_mask(
            self.rules, hand, self._trick, first, self.hearts_broken, self._opening, reasons
        )

    # --- what a seat may see -----------------------------------------------------------------

    def view(self, seat: int) -> PlayerView:
        """Everything `seat` may know, and nothing more."""
        if not 0 <= seat < self.players:
            raise ValueError(f"There is no seat {seat} at this table.")
        n = self.players
        exchanged = self.phase != "passing"
        given = self.given[seat]
        received = self.received[seat] if exchanged else None
        kitty_seen = self.kitty if self.kitty_taker is not None else 0
        return PlayerView(
            rules=self.rules,
            seat=seat,
            hand_number=self.hand_number,
            dealer=self.dealer,
            phase=self.phase,
            pass_direction=self.pass_direction,
            pass_to=tuple(self.pass_recipients(seat)),
            cards_to_pass=self.cards_to_pass(),
            hand_mask=self._hands[seat],
            passed_mask=given if given is not None else None,
            received_mask=received if isinstance(received, int) else None,
            waiting_to_pass=tuple(self.waiting_to_pass()),
            leader=self.leader,
            turn=self.turn if self.phase == "playing" else None,
            trick=tuple(self.trick),
            tricks=tuple(
                TrickView(
                    t.leader,
                    tuple(zip(t.seats(n), t.cards, strict=True)),
                    t.winner,
                    t.carried,
                    t.held_over,
                )
                for t in self.tricks
            ),
            played_mask=self.played_mask,
            hand_sizes=tuple(m.bit_count() for m in self._hands),
            points_taken=tuple(self.points_taken),
            hearts_broken=self.hearts_broken,
            scores=self.scores,
            legal_mask=self.legal_mask() if self.phase == "playing" and self.turn == seat else 0,
            kitty_size=self.kitty.bit_count(),
            kitty_taker=self.kitty_taker,
            kitty_mask=kitty_seen,
            held_over_mask=self.held_over,
            received_from=self.givers[seat] if exchanged else (),
        )

    def __repr__(self) -> str:
        return (
            f"<Round {self.phase} hand={self.hand_number} pass={self.pass_direction} "
            f"turn={self.turn} tricks={len(self.tricks)}>"
        )


def deck_cards(rules: Rules) -> list[int]:
    """The card numbers dealt under these rules (both decks for 6+ players), in order."""
    cards = list(range(DECK_SIZE * rules.decks))
    for text in rules.removed_cards:
        face = parse_card(text)
        copy = face + DECK_SIZE if face + DECK_SIZE in cards else face
        cards.remove(copy)
    return cards


def _held_copy(hand: int, face: int) -> int | None:
    """The number of a held copy of `face` (either deck), or None."""
    base = face % DECK_SIZE
    if hand >> base & 1:
        return base
    if hand >> (base + DECK_SIZE) & 1:
        return base + DECK_SIZE
    return None


def _take_cards(cards: list[Card], pool: int, owner: str) -> tuple[int, int]:
    mask = 0
    for card in cards:
        number = _held_copy(pool, card)
        if number is None:
            raise ValueError(
                f"The {card.name} given to {owner} is not in the deck or is dealt twice."
            )
        pool &= ~(1 << number)
        mask |= 1 << number
    return mask, pool


def _winning_index(cards: list[int], led: int, cancellation: bool) -> int | None:
    """Index in `cards` of the winning card: the highest of the suit led.

    With `cancellation`, a face played twice cannot win; None when that leaves no card of
    the suit led.
    """
    if not cancellation:  # one deck: every card is its own face
        winner = 0
        top = cards[0]
        for i in range(1, len(cards)):
            card = cards[i]
            if card > top and card // 13 == led:
                top, winner = card, i
        return winner
    faces = [c % DECK_SIZE for c in cards]
    best = -1
    best_index: int | None = None
    for i, face in enumerate(faces):
        if face // 13 == led and face > best:
            if cancellation and faces.count(face) > 1:
                continue
            best, best_index = face, i
    return best_index


def _points_with_bonus(mask: int, rules: Rules) -> int:
    points = points_of(mask) if mask & POINT_MASK else 0
    if rules.bonus_card is not None:
        bonus = parse_card(rules.bonus_card)
        if mask & ((1 << bonus) | (1 << (bonus + DECK_SIZE))):
            points -= 10 * ((mask >> bonus & 1) + (mask >> (bonus + DECK_SIZE) & 1))
    return points


__all__ = ["HEARTS", "IllegalMoveError", "Round", "Trick", "deck_cards"]
