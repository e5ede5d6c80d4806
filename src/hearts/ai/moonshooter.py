"""A test opponent that always goes for the moon while it still can ("moon" level).

It passes its low cards and keeps hearts and high cards, then, as long as no other seat
(outside its team) has taken a point, takes every trick it can: it leads its highest card
(hearts last), follows with its highest card and discards its lowest non-point card. Once
someone else has a point the moon is gone and it plays as medium; with two decks it plays
as medium from the pass on (`one_deck_only`). It exists to measure how
many moons each level lets through (`benchmarks/ai_moons.py`), not as an opponent to enjoy.
"""

from __future__ import annotations

from ..cards import CARDS, Card
from ..scoring import team_of
from ..view import PlayerView
from .medium import MediumPlayer, choose_play_face
from .tracking import HEARTS_FACES, POINT_FACES, SUIT_FACES, Knowledge, card_for_face, fold


class MoonPlayer(MediumPlayer):
    level = "moon"
    one_deck_only = "plan to shoot the moon"

    def pick_pass(self, view: PlayerView) -> list[Card]:
        if self.plays_as_medium(view.rules):
            return super().pick_pass(view)
        hand = fold(view.hand_mask)
        order = sorted(
            (f for f in range(52) if hand >> f & 1 and not (1 << f) & HEARTS_FACES),
            key=lambda f: (f % 13, f // 13 == 3, f),
        )
        faces = order[: view.cards_to_pass]
        if len(faces) < view.cards_to_pass:
            hearts = [f for f in range(52) if hand >> f & 1 and (1 << f) & HEARTS_FACES]
            faces += hearts[: view.cards_to_pass - len(faces)]
        mask = view.hand_mask
        cards = []
        for face in faces:
            number = card_for_face(mask, face)
            mask &= ~(1 << number)
            cards.append(CARDS[number])
        return cards

    def pick_play(self, view: PlayerView) -> Card:
        know = Knowledge.from_view(view)
        mine = team_of(view.rules, view.seat)
        spoiled = any(know.taken[s] & POINT_FACES for s in range(know.players) if s not in mine)
        if spoiled or self.plays_as_medium(view.rules):
            return CARDS[card_for_face(view.legal_mask, choose_play_face(know))]
        return CARDS[card_for_face(view.legal_mask, shooting_face(know))]


def _rank(face: int) -> int:
    return face % 13


def shooting_face(know: Knowledge) -> int:
    """The card that best keeps every trick: highest lead (not a heart if it can help it),
    highest card of the suit led, or the lowest non-point card when void."""
    legal = know.legal
    faces = [f for f in range(52) if legal >> f & 1]
    if not know.trick:
        plain = [f for f in faces if not (1 << f) & HEARTS_FACES] or faces
        return max(plain, key=lambda f: (_rank(f), f))
    led = know.trick[0][1] // 13
    if legal & SUIT_FACES[led]:
        return max(f for f in faces if f // 13 == led)
    plain = [f for f in faces if not (1 << f) & POINT_FACES] or faces
    return min(plain, key=lambda f: (_rank(f), f))


__all__ = ["MoonPlayer", "shooting_face"]
