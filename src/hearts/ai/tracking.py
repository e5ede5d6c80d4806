"""Card tracking: everything a seat can work out from its `PlayerView`, as raw masks.

Cards are handled by face (0..51): in two-deck games both copies of a card share a face,
so heuristics reason about faces and `card_for_face` maps a chosen face back to a legal card.

>>> from hearts import Round, Rules
>>> rnd = Round.deal(Rules(), seed=3, hand_number=3)
>>> know = Knowledge.from_view(rnd.view(0))
>>> know.unseen.bit_count(), know.voids
(39, [0, 0, 0, 0])
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .. import cards
from ..cards import DECK_SIZE, FULL_DECK, HEARTS_MASK, QUEEN_OF_SPADES, parse_card
from ..round import deck_cards
from ..rules import Rules
from ..view import PlayerView

HEARTS_FACES = HEARTS_MASK & FULL_DECK
QUEEN = 1 << QUEEN_OF_SPADES
KING_OF_SPADES = 1 << cards.KING_OF_SPADES
ACE_OF_SPADES = 1 << cards.ACE_OF_SPADES
HIGH_SPADES = KING_OF_SPADES | ACE_OF_SPADES
POINT_FACES = HEARTS_FACES | QUEEN
SUIT_FACES = tuple(0x1FFF << (13 * s) for s in range(4))


def fold(mask: int) -> int:
    """The faces present in a mask of either deck."""
    return (mask | (mask >> DECK_SIZE)) & FULL_DECK


def highest(mask: int) -> int:
    """The highest face in a non-empty mask (within a suit, the highest rank)."""
    return mask.bit_length() - 1


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def rank_in_suit(face: int) -> int:
    return face % 13


def card_for_face(legal_mask: int, face: int) -> int:
    """The number of a legal card with this face (first deck's copy preferred)."""
    if legal_mask >> face & 1:
        return face
    if legal_mask >> (face + DECK_SIZE) & 1:
        return face + DECK_SIZE
    raise ValueError(f"No legal card has face {face}.")


@functools.lru_cache(maxsize=64)
def dealt_faces(rules: Rules) -> int:
    """Faces of every card in play (hands and kitty)."""
    mask = 0
    for card in deck_cards(rules):
        mask |= 1 << (card % DECK_SIZE)
    return mask


@functools.lru_cache(maxsize=64)
def bonus_face(rules: Rules) -> int:
    """The mask of the bonus card's face (Omnibus Hearts), or 0."""
    return 0 if rules.bonus_card is None else 1 << parse_card(rules.bonus_card)


def partner_of(rules: Rules, seat: int) -> int | None:
    return (seat + 2) % 4 if rules.partnership else None


@dataclass(slots=True)
class Knowledge:
    """What one seat knows in the play of a round.

    - ``hand``/``legal``: its cards and the playable ones (faces).
    - ``played``: faces played so far, the trick on the table included.
    - ``unseen``: faces still hidden from it (in other hands or an unseen kitty).
    - ``voids[s]``: a 4-bit mask of suits seat ``s`` has shown it lacks.
    - ``known[s]``: faces certainly in seat ``s``'s hand (cards we passed it, not yet played).
    - ``taken[s]``: point faces in the tricks seat ``s`` won.
    """

    seat: int
    players: int
    rules: Rules
    hand: int
    legal: int
    played: int
    unseen: int
    voids: list[int]
    known: list[int]
    taken: list[int]
    trick: list[tuple[int, int]]
    first_trick: bool

    @classmethod
    def from_view(cls, view: PlayerView) -> Knowledge:
        n = view.rules.players
        voids = [0] * n
        taken = [0] * n
        for t in view.tricks:
            led = t.plays[0][1] % DECK_SIZE // 13
            mask = 0
            for seat, card in t.plays:
                mask |= 1 << (card % DECK_SIZE)
                if card % DECK_SIZE // 13 != led:
                    voids[seat] |= 1 << led
            for card in t.carried:
                mask |= 1 << (card % DECK_SIZE)
            if not t.held_over:
                taken[t.winner] |= mask & POINT_FACES
        trick = [(seat, card % DECK_SIZE) for seat, card in view.trick]
        if trick:
            led = trick[0][1] // 13
            for seat, face in trick[1:]:
                if face // 13 != led:
                    voids[seat] |= 1 << led
        if view.kitty_taker is not None:
            taken[view.kitty_taker] |= fold(view.kitty_mask) & POINT_FACES
        hand = fold(view.hand_mask)
        played = fold(view.played_mask)
        unseen = dealt_faces(view.rules) & ~hand & ~played & ~fold(view.kitty_mask)
        known = [0] * n
        # A scatter pass splits the cards over several seats in an order the view does not
        # keep, so only a pass to one seat pins its cards down.
        if view.passed_mask and view.received_mask is not None and len(view.pass_to) == 1:
            known[view.pass_to[0]] = fold(view.passed_mask) & unseen
        return cls(
            seat=view.seat,
            players=n,
            rules=view.rules,
            hand=hand,
            legal=fold(view.legal_mask),
            played=played,
            unseen=unseen,
            voids=voids,
            known=known,
            taken=taken,
            trick=trick,
            first_trick=not view.tricks,
        )

    def outstanding(self, suit: int) -> int:
        """Unseen faces of a suit: held by someone else (or lying in the kitty)."""
        return self.unseen & SUIT_FACES[suit]

    @property
    def queen_out(self) -> bool:
        """The Q♠ is still in another hand."""
        return bool(self.unseen & QUEEN)

    def winning_face(self) -> int | None:
        """The face currently winning the trick on the table (None before the lead, or in
        Cancellation Hearts while every card of the suit led is cancelled by its twin)."""
        if not self.trick:
            return None
        led = self.trick[0][1] // 13
        faces = [f for _, f in self.trick if f // 13 == led]
        if self.rules.cancellation:
            faces = [f for f in faces if faces.count(f) == 1]
        return max(faces, default=None)

    def winning_seat(self) -> int | None:
        best = self.winning_face()
        if best is None:
            return None
        return next(s for s, f in self.trick if f == best)

    def trick_points(self) -> int:
        """The hearts and queens of spades on the trick, each copy counted (with two decks a
        card may lie there twice, and a cancelled card still scores)."""
        return sum(bool((1 << f) & HEARTS_FACES) + 13 * ((1 << f) == QUEEN) for _, f in self.trick)

    def moon_threat(self) -> int | None:
        """A rival seat that has every point taken so far (with its partner, in Partnership
        Hearts) and enough of them to be going for the moon, if there is one: six hearts,
        or the Q♠ and three. A team takes tricks twice as fast as one seat and shoots with
        half the cards in its hands, so for a team half as many are enough."""
        alone = self.sole_point_takers()
        if alone is None:
            return None
        members, taken = alone
        hearts = (taken & HEARTS_FACES).bit_count()
        many, with_queen = (3, 1) if self.rules.partnership else (6, 3)
        if not (hearts >= many or (taken & QUEEN and hearts >= with_queen)):
            return None
        return self.one_to_stop(members)

    def sole_point_takers(self) -> tuple[list[int], int] | None:
        """The seats of the one rival (with its partner, in Partnership Hearts) that has taken
        every point so far, and the cards they took; None when no rival alone has them."""
        team_of_seat = [(s % 2 if self.rules.partnership else s) for s in range(self.players)]
        holders = {team_of_seat[s] for s in range(self.players) if self.taken[s] & POINT_FACES}
        if len(holders) != 1:
            return None
        team = holders.pop()
        if team == team_of_seat[self.seat]:
            return None
        members = [s for s in range(self.players) if team_of_seat[s] == team]
        taken = 0
        for s in members:
            taken |= self.taken[s]
        return members, taken

    def one_to_stop(self, members: list[int]) -> int:
        """Of a would-be shooter's `members`, the one to stop: the one winning the trick on
        the table, else the one with the most points."""
        winner = self.winning_seat()
        if winner in members:
            return winner
        return max(members, key=lambda s: (self.taken[s] & POINT_FACES).bit_count())


def queen_shy(view: PlayerView) -> int:
    """Seats (a bit each) that let a clear chance to be rid of the Q♠ go by, so probably do
    not hold it: one that threw another card on a suit it lacked (where the queen could go),
    or one that followed a spade lead with another spade under the K♠ or A♠. Every player
    of the project drops the queen there, and most people do; a seat of the same team as
    the trick's winner, in Partnership Hearts, has its own reasons, and is not read.
    0 when the Q♠ is not still hidden from this seat or there are two decks."""
    rules = view.rules
    if rules.decks != 1 or not (dealt_faces(rules) & QUEEN) or rules.partnership:
        return 0
    if (fold(view.hand_mask) | fold(view.played_mask)) & QUEEN:
        return 0
    shy = 0
    plays = [(t.plays, i == 0) for i, t in enumerate(view.tricks)]
    if view.trick:
        plays.append((view.trick, not view.tricks))
    for trick, first in plays:
        led = trick[0][1] // 13
        best = trick[0][1]
        for seat, card in trick[1:]:
            if seat == view.seat or card == QUEEN_OF_SPADES:
                pass
            elif card // 13 != led:
                if not first or rules.points_on_first_trick:
                    shy |= 1 << seat
            elif led == QUEEN_OF_SPADES // 13 and best > QUEEN_OF_SPADES:
                shy |= 1 << seat
            if card // 13 == led and card > best:
                best = card
    return shy
