"""Medium: sound heuristics and card counting, no search.

It ducks when it can, dumps the Q♠ and its high cards when void, keeps the Q♠ while its
spades guard her, fishes for her with low spades, leads from suits where others still hold
higher cards, and stops a moon by keeping hearts off a would-be shooter's tricks.
The same rules, written for speed on raw masks, are the playout policy of the hard player.
"""

from __future__ import annotations

from ..cards import CARDS, DECK_SIZE, FULL_DECK, HEARTS, SPADES, Card
from ..view import PlayerView
from .base import BasePlayer
from .passing import pass_faces
from .tracking import (
    HEARTS_FACES,
    HIGH_SPADES,
    POINT_FACES,
    QUEEN,
    SUIT_FACES,
    Knowledge,
    bonus_face,
    card_for_face,
    fold,
    highest,
    lowest,
    partner_of,
)


class MediumPlayer(BasePlayer):
    level = "medium"

    def pick_pass(self, view: PlayerView) -> list[Card]:
        faces = choose_pass_faces(view)
        hand = view.hand_mask
        cards: list[Card] = []
        for f in faces:
            number = card_for_face(hand, f)
            hand &= ~(1 << number)
            cards.append(CARDS[number])
        return cards

    def pick_play(self, view: PlayerView) -> Card:
        know = Knowledge.from_view(view)
        face = choose_play_face(know)
        return CARDS[card_for_face(view.legal_mask, face)]


# --- passing --------------------------------------------------------------------------------


def choose_pass_faces(view: PlayerView) -> list[int]:
    """The faces to pass, most dangerous first. With two decks a face held twice may go
    twice: passing nine of ten cards, a hand of eight different cards (two held twice) asked
    for a ninth card that was not there, and the pass failed."""
    hand = fold(view.hand_mask)
    count = view.cards_to_pass
    faces = pass_faces(hand, view.pass_direction, min(count, hand.bit_count()))
    if len(faces) < count:
        twice = view.hand_mask & (view.hand_mask >> DECK_SIZE) & FULL_DECK
        faces += pass_faces(twice, view.pass_direction, count - len(faces))
    return faces


# --- playing ---------------------------------------------------------------------------------


def choose_play_face(know: Knowledge) -> int:
    return explain_play(know)[0]


def explain_play(know: Knowledge) -> tuple[int, str]:
    """The card to play and which rule of thumb chose it: a word the coach turns into a reason
    (`hearts.ai.hint`), as "duck" for the highest card that still goes under the trick."""
    legal = know.legal
    if legal & (legal - 1) == 0:
        return highest(legal), "only"
    if not know.trick:
        return choose_lead(know), "lead"
    led = know.trick[0][1] // 13
    if legal & SUIT_FACES[led]:
        return choose_follow(know, led)
    return choose_discard(know)


def lead_risk(know: Knowledge, face: int) -> float:
    """Roughly, how likely leading this card wins a trick with points in it."""
    suit = face // 13
    outstanding = know.outstanding(suit)
    above = (outstanding >> face).bit_count() - (outstanding >> face & 1)
    if not outstanding:
        # Nobody can follow: we win and everyone discards on us.
        return 8.0
    others_void = sum(
        1 for s in range(know.players) if s != know.seat and know.voids[s] >> suit & 1
    )
    risk = 1.0 - above / outstanding.bit_count() if above else 4.0
    risk += 0.4 * others_void * (1.0 if above == 0 else 0.3)
    bit = 1 << face
    if suit == SPADES:
        if bit & QUEEN:
            risk += 10.0
        elif bit & HIGH_SPADES and know.queen_out:
            risk += 6.0
        elif know.queen_out and not know.hand & (QUEEN | HIGH_SPADES):
            risk -= 0.5  # fishing for the queen with a low spade
    if suit == HEARTS:
        risk += 0.3
    if bit & bonus_face(know.rules) and above == 0:
        risk -= 3.0  # a sure winner of the jack of diamonds
    # Leading a short suit works towards a void.
    risk -= 0.05 * max(0, 4 - (know.hand & SUIT_FACES[suit]).bit_count())
    return risk


def choose_lead(know: Knowledge) -> int:
    legal = know.legal
    candidates = []
    for suit in range(4):
        cards = legal & SUIT_FACES[suit]
        if cards:
            candidates.append(lowest(cards))
            if suit == SPADES and cards & ~QUEEN:
                candidates.append(lowest(cards & ~QUEEN))
    return min(candidates, key=lambda f: (lead_risk(know, f), f % 13))


def choose_follow(know: Knowledge, led: int) -> tuple[int, str]:
    follow = know.legal & SUIT_FACES[led]
    winner = know.winning_face()
    if winner is None:
        return lowest(follow), "cancelled"  # nothing to duck under
    last = len(know.trick) == know.players - 1
    points = know.trick_points()
    if led == SPADES and follow & QUEEN and winner > highest(QUEEN):
        return highest(QUEEN), "queen-under"  # the king or ace is out: drop the queen on it
    below = follow & ((1 << winner) - 1)
    threat = know.moon_threat()
    if threat is not None and know.winning_seat() == threat and points:
        # Take a point trick away from a would-be shooter, as cheaply as we can.
        above = follow & ~below & ~QUEEN
        if above:
            return lowest(above), "stop-moon"
    if points and _rival_team_alone_winning(know):
        # Partners: the rival team has every point so far and is winning this one. Taking
        # it costs a point or two; leaving them every point costs 26 a seat.
        above = follow & ~below & ~QUEEN
        if above:
            return lowest(above), "stop-team"
    if below:
        return highest(below), "duck"
    safe = follow & ~QUEEN if follow & ~QUEEN else follow
    bonus = bonus_face(know.rules)
    if last:
        if points <= 0 and safe & bonus:
            return highest(bonus), "last-bonus"
        return highest(safe), "last"
    if know.first_trick:
        return highest(safe), "first-trick"  # no points can fall on it
    if led == SPADES and know.queen_out:
        # Winning with the ace or king invites the queen; the lowest spade gives others
        # the chance to go over us.
        return lowest(safe), "low-spade"
    if not _someone_after_can_follow(know, led):
        return highest(safe), "none-after"
    return lowest(safe), "low"


def _rival_team_alone_winning(know: Knowledge) -> bool:
    """In Partnership Hearts, whether the rival team has taken every point so far and one
    of them is winning the trick on the table."""
    if not know.rules.partnership:
        return False
    alone = know.sole_point_takers()
    return alone is not None and know.winning_seat() in alone[0]


def _someone_after_can_follow(know: Knowledge, suit: int) -> bool:
    played = {s for s, _ in know.trick}
    after = [s for s in range(know.players) if s != know.seat and s not in played]
    return bool(know.outstanding(suit)) and any(not know.voids[s] >> suit & 1 for s in after)


def choose_discard(know: Knowledge) -> tuple[int, str]:
    legal = know.legal
    winner_seat = know.winning_seat()
    partner = partner_of(know.rules, know.seat)
    threat = know.moon_threat()
    feeding_shooter = threat is not None and winner_seat == threat
    if (
        partner is not None
        and winner_seat == partner
        and len(know.trick) == know.players - 1
        and legal & HEARTS_FACES
        and know.sole_point_takers() is not None
    ):
        # The rival team has every point so far, and this trick is our partner's for sure:
        # one heart on it and they cannot shoot.
        return lowest(legal & HEARTS_FACES), "block-moon"
    if (
        feeding_shooter or (partner is not None and winner_seat == partner)
    ) and legal & ~POINT_FACES:
        face = _highest_by_rank(
            legal & ~POINT_FACES & ~bonus_face(know.rules) or legal & ~POINT_FACES
        )
        return face, "feed-partner" if winner_seat == partner else "feed-shooter"
    if legal & QUEEN:
        return highest(QUEEN), "queen"
    if know.queen_out and legal & HIGH_SPADES:
        return highest(legal & HIGH_SPADES), "high-spade"
    hearts = legal & HEARTS_FACES
    keep_bonus = legal & ~bonus_face(know.rules) or legal
    if hearts:
        top_heart = highest(hearts)
        other = keep_bonus & ~HEARTS_FACES
        # A high heart goes first; with only low hearts left, a queen, king or ace of another
        # suit is the bigger danger.
        if other and top_heart % 13 < 6 and _highest_by_rank(other) % 13 >= 10:
            return _highest_by_rank(other), "high-over-low-hearts"
        return top_heart, "top-heart"
    return _dangerous_discard(know, keep_bonus), "danger"


def _highest_by_rank(mask: int) -> int:
    return max((f for f in range(52) if mask >> f & 1), key=lambda f: (f % 13, -f))


def _dangerous_discard(know: Knowledge, mask: int) -> int:
    """The card most likely to win a trick later: high, with few cards of its suit out below."""

    def danger(face: int) -> tuple[float, int]:
        suit = face // 13
        below = (know.outstanding(suit) & ((1 << face) - 1)).bit_count()
        length = (know.hand & SUIT_FACES[suit]).bit_count()
        return (face % 13 + 0.5 * below - 0.3 * length, face)

    return max((f for f in range(52) if mask >> f & 1), key=danger)


__all__ = ["MediumPlayer", "choose_pass_faces", "choose_play_face", "explain_play"]
