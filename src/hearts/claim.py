"""Claims: when no point can change hands any more, a round's result is known before its end.

`settled_points(rnd)` answers with the points every seat will have taken when the round ends
(the same for every legal way the remaining cards can be played, and with the same moon or
sun), or None while some play could still move a point. The web game uses it to finish such a
round at once.

It searches every legal play from the current position, with two shortcuts at the start of a
trick that settle all the rest in one step: nothing left that scores, or a leader whose every
card is the highest of its suit still out (they win every trick that is left). The search is
bounded: past `budget` positions it gives up and answers None, never a guess.

>>> from hearts import Round, Rules
>>> rnd = Round.deal(Rules(), seed=3, hand_number=3)   # the fourth round keeps its cards
>>> settled_points(rnd) is None                        # 13 tricks to go: anything can happen
True
>>> while rnd.phase == "playing" and len(rnd.tricks) < 12:
...     rnd.play(rnd.legal_cards()[0])
>>> settled_points(rnd) is not None                    # one card each: nothing left to decide
True
"""

from __future__ import annotations

from .cards import DECK_SIZE, POINT_MASK, SUIT_MASKS, parse_card
from .round import Round
from .scoring import moon_shooter, team_of

#: Positions searched at most; a round still open after this many is called unsettled.
BUDGET = 200

Outcome = tuple[tuple[int, ...], int | None, bool]


class _Unsettled(Exception):
    """Two different outcomes were found, or the search ran past its budget."""


def settled_points(rnd: Round, budget: int = BUDGET) -> tuple[int, ...] | None:
    """The points each seat will have taken at the round's end, if every legal play-out of
    the remaining cards gives the same (with the same moon or sun); else None."""
    if rnd.phase == "over":
        return tuple(rnd.points_taken)
    if rnd.phase != "playing":
        return None
    found: set[Outcome] = set()
    try:
        _search(rnd.copy(), found, [budget])
    except _Unsettled:
        return None
    (points, _, _), *rest = found
    assert not rest
    return points


def _outcome(rnd: Round) -> Outcome:
    shooter, sun = moon_shooter(rnd.rules, rnd.taken)
    return tuple(rnd.points_taken), shooter, sun


def _play_out(rnd: Round) -> Round:
    while rnd.phase == "playing":
        rnd.play(rnd.legal_cards()[0])
    return rnd


def _search(rnd: Round, found: set[Outcome], budget: list[int]) -> None:
    if rnd.phase == "over" or (not rnd.trick and _decided(rnd)):
        found.add(_outcome(_play_out(rnd)))
        if len(found) > 1:
            raise _Unsettled
        return
    budget[0] -= 1
    if budget[0] < 0:
        raise _Unsettled
    for card in rnd.legal_cards():
        after = rnd.copy()
        after.play(card)
        _search(after, found, budget)


def _decided(rnd: Round) -> bool:
    """At the start of a trick: whether every way to play the rest ends the same."""
    return _nothing_left_to_score(rnd) or _leader_wins_the_rest(rnd)


def _nothing_left_to_score(rnd: Round) -> bool:
    rules = rnd.rules
    scoring = POINT_MASK
    if rules.bonus_card is not None:
        bonus = parse_card(rules.bonus_card)
        scoring |= (1 << bonus) | (1 << (bonus + DECK_SIZE))
    if rnd.held_over or any(rnd.hand_mask(seat) & scoring for seat in range(rnd.players)):
        return False
    if rnd.kitty and rnd.kitty_taker is None:
        return False  # the kitty still goes to whoever first takes a point
    if rules.shoot_the_sun:
        # A sun needs one side to take every trick: settled once two sides have taken one.
        sides = {team_of(rules, t.winner) for t in rnd.tricks if not t.held_over}
        return len(sides) > 1
    return True


def _leader_wins_the_rest(rnd: Round) -> bool:
    """The leader holds only cards that beat every card of their suit still in other hands:
    whatever is led wins, and the leader leads again (there are no trumps)."""
    if rnd.rules.decks != 1:
        return False  # with two decks equal cards cancel: leave it to the search
    leader = rnd.leader
    mine = rnd.hand_mask(leader)
    others = 0
    for seat in range(rnd.players):
        if seat != leader:
            others |= rnd.hand_mask(seat)
    for suit_mask in SUIT_MASKS:
        own = mine & suit_mask
        theirs = others & suit_mask
        if own and theirs and _lowest(own) < _highest(theirs):
            return False
    return True


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _highest(mask: int) -> int:
    return mask.bit_length() - 1
