"""The coach's round review: every decision a seat made in one round (its pass and each card),
what the hard player prefers there after a deeper search than play uses, and the `cost` of
the seat's choice: its average result over the same sampled deals less the best one's (lower
is better, so the cost is 0 when they agree and never negative).

The search is the hard player's with every candidate on the same deals, none dropped
(`FullSearch.evaluate`), at `budget` playouts; at the hint's depth it prefers the hint's
card. A pass is weighed against the hard player's pass, the one the hint gives, on the same
`budget` deals (a pass made as the hint says costs nothing). Where the hard player does not
search (a two-deck table, a pass it cannot search, a forced card), `cost` is None unless the
choice is the hard player's. In a round that may end the game the costs count the game's
result as the search does (`hint.game_at_stake`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..cards import CARDS, SPADES, Card
from ..game import Game
from ..moves import Move, Pass, Play
from ..view import PlayerView
from .hint import SUIT_NAMES, Option, game_at_stake, hint
from .passing import can_search_pass, evaluate_passes
from .racing import Arm, paired_error
from .rollout import Position, Table
from .search import FullSearch, HardPlayer, is_moon_hand, moon_pass, representatives
from .tracking import QUEEN, Knowledge, bonus_face, fold

QUEEN_FACE = QUEEN.bit_length() - 1

#: Playouts per decision in a review: twice the hard player's in play.
REVIEW_BUDGET = 2000
#: A card this close to the best (in the search's points) counts as good as the best: it
#: reads "0.0 points" at the one decimal shown, and the search cannot tell them apart.
NOISE = 0.05
#: Nor does a card whose cost is within this many standard errors of the difference (over
#: the same deals): a strong player saw a 0.42-point "cost" that the search could not tell
#: from none marked as a mistake.
SURE = 2.0


@dataclass(frozen=True)
class Decision:
    kind: str
    """"pass" or "play"."""
    trick: int | None
    """For a card, the trick it went to (from 1)."""
    played: tuple[Card, ...]
    preferred: tuple[Card, ...]
    cost: float | None
    reason: str
    """Why the hard player prefers its choice (the hint's sentence for that position)."""
    game_at_stake: bool = False
    """The round could end the game, so the costs count its result too (`hint.game_at_stake`)."""
    hinted: bool = False
    """The card played was the one the person's hint gave (and it costs nothing)."""
    why_not: str = ""
    """For a card that cost something, what was wrong with it when a fact of the position
    says so (`played_words`), else empty."""

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "trick": self.trick,
            "played": [str(c) for c in self.played],
            "preferred": [str(c) for c in self.preferred],
            "cost": None if self.cost is None else round(self.cost, 2),
            "reason": self.reason,
            "game_at_stake": self.game_at_stake,
            "hinted": self.hinted,
            "why_not": self.why_not,
        }


def review_round(
    game: Game,
    moves: Sequence[Move],
    seat: int,
    names: Sequence[str],
    seed: int | str | None = None,
    budget: int = REVIEW_BUDGET,
    hint_seeds: Callable[[int], int | str | None] | None = None,
) -> list[Decision]:
    """`game` stands at the start of a round and `moves` are that round's (up to its end):
    the seat's decisions in it, each weighed. `game` is changed (played through).
    `hint_seeds(n)` is the seed of the hint for the decision at move number n (`seed`
    if not given): see `review_decision`."""
    decisions: list[Decision] = []
    for move in moves:
        if isinstance(move, Pass | Play) and move.seat == seat:
            hint_seed = seed if hint_seeds is None else hint_seeds(len(game.moves))
            view = game.view(seat)
            decisions.append(review_decision(view, move, names, seed, budget, hint_seed))
        game.apply(move)
    return decisions


def review_decision(
    view: PlayerView,
    move: Pass | Play,
    names: Sequence[str],
    seed: int | str | None = None,
    budget: int = REVIEW_BUDGET,
    hint_seed: int | str | None = None,
) -> Decision:
    """One decision weighed: `move`, made by `view.seat` in the position `view` shows. It
    depends on nothing else, so it can be worked out as soon as the move is made.

    A card is weighed by a search twice as deep as the hint's; a card the person's hint
    gave (`hint(view, names, hint_seed)`, as the web game seeds it) costs nothing, though,
    nor does one within `NOISE` of the best or within `SURE` standard errors of it: a person
    who followed the hint, or played as well as the search can tell, is never marked down.
    A pass is seeded by its round for the hint and the review alike (`seed`)."""
    if isinstance(move, Pass):
        return _review_pass(view, move, names, seed, budget)
    return _review_play(view, move, names, seed, budget, hint_seed)


def preference(
    view: PlayerView,
    names: Sequence[str],
    seed: int | str | None = None,
    budget: int = REVIEW_BUDGET,
) -> tuple[Card, ...]:
    """What the review prefers in this position: the cards a reviewed pass or card is
    weighed against."""
    if view.phase == "passing":
        return _review_pass(view, None, names, seed, budget).preferred
    first = CARDS[view.legal_mask.bit_length() - 1]
    return _review_play(view, Play(view.seat, first), names, seed, budget).preferred


def _review_play(
    view: PlayerView,
    move: Play,
    names: Sequence[str],
    seed: int | str | None,
    budget: int,
    hint_seed: int | str | None = None,
) -> Decision:
    trick = len(view.tricks) + 1
    stake = game_at_stake(view)
    played = move.card
    advice = hint(view, names, seed=seed, budget=budget, weigh=played)
    legal = view.legal_mask
    know = Knowledge.from_view(view)
    runs = representatives(know)
    if not legal & (legal - 1) or len(set(runs.values())) == 1:
        return Decision("play", trick, (played,), advice.cards, 0.0, advice.reason, stake)
    if view.rules.decks != 1:
        same = played.face == advice.cards[0].face
        return Decision(
            "play", trick, (played,), advice.cards, 0.0 if same else None, advice.reason, stake
        )
    weighed: dict[int, Option] = {}
    for option in advice.options:
        face = option.card.face
        if face not in weighed or option.average < weighed[face].average:
            weighed[face] = option
    mine = weighed.get(runs[played.face])
    best = min(option.average for option in weighed.values())
    # The person's card is weighed whatever it is: the hard player never throws the queen
    # under a lower spade (a gamble the sampled deals overrate), and the review weighs it
    # all the same, so that the costliest card of a round is not the one left unweighed.
    cost = None if mine is None else max(0.0, mine.average - best)
    if runs[played.face] == runs[advice.cards[0].face] or (
        mine is not None and cost is not None and cost < max(NOISE, SURE * mine.error)
    ):
        cost = 0.0
    if runs[played.face] != runs[advice.cards[0].face] and hint_seed is not None:
        # The person's hint, at hard's depth: a card it gave costs nothing, and the review
        # says the hint's card and reason (it read "the coach prefers the 7♣, but yours comes
        # out as well" with the hint's reason reversed, to a person who played the hint).
        hinted = hint(view, names, seed=hint_seed)
        if runs[hinted.cards[0].face] == runs[played.face]:
            return Decision(
                "play", trick, (played,), hinted.cards, 0.0, hinted.reason, stake, hinted=True
            )
    why = played_words(know, played, advice.cards[0], names) if cost else ""
    return Decision("play", trick, (played,), advice.cards, cost, advice.reason, stake, why_not=why)


def played_words(know: Knowledge, played: Card, preferred: Card, names: Sequence[str]) -> str:
    """What was wrong with `played` where the coach preferred `preferred`, when a plain fact
    of the position says it (empty when none does): the queen won on a trick, a high spade
    that can catch her, a trick with points taken, a lead into a suit someone lacks."""
    face, card = played.face, played.symbol
    mine = know.hand | know.legal
    queen_out = not (mine >> QUEEN_FACE & 1) and not any(
        (know.taken[s] >> QUEEN_FACE) & 1 for s in range(know.players)
    )
    queen_out = queen_out and all(f != QUEEN_FACE for _, f in know.trick)
    winning = know.winning_face()
    led = know.trick[0][1] // 13 if know.trick else face // 13
    over = face // 13 == led and (winning is None or face > winning)
    last = len(know.trick) == know.players - 1
    if face == QUEEN_FACE and over:
        return f"the Q♠ {'takes' if last else 'could take'} this trick, 13 points to you"
    if face // 13 == SPADES and face > QUEEN_FACE and over and queen_out:
        if not know.trick:
            return f"leading the {card} while the Q♠ is out lets her holder drop her on you"
        if not last:
            return f"the {card} goes over the trick while the Q♠ is out, and she could fall on it"
    bonus = _bonus_words(know, played, preferred, names, over, last)
    if bonus:
        return bonus
    points = know.trick_points()
    ducked = preferred.face // 13 == led and preferred.face < (winning or 0)
    if over and points and ducked:
        said = f"{points} point" + ("s" if points > 1 else "")
        return f"the {card} goes over the trick with {said} on it"
    if not know.trick and preferred.face // 13 != led:
        void = [s for s in range(know.players) if s != know.seat and know.voids[s] >> led & 1]
        if void:
            who = names[void[0]]
            return f"{who} has no {SUIT_NAMES[led]} and can throw points on your {card}"
    return ""


def _bonus_words(
    know: Knowledge, played: Card, preferred: Card, names: Sequence[str], over: bool, last: bool
) -> str:
    """The bonus card (the J♦ of Omnibus Hearts, 10 points off its taker) given to a rival
    by `played` where the coach's card would have kept it: left on a trick the coach's card
    takes, or the bonus card itself thrown on a rival's trick. Empty otherwise."""
    mask = bonus_face(know.rules)
    seat = know.winning_seat()
    if not mask or know.rules.decks != 1 or not know.trick or seat is None:
        return ""
    if know.rules.partnership and seat % 2 == know.seat % 2:
        return ""
    bonus = CARDS[mask.bit_length() - 1].symbol
    led = know.trick[0][1] // 13
    winning = know.winning_face() or 0
    takes = preferred.face // 13 == led and preferred.face > winning
    if any(1 << f == mask for _, f in know.trick) and last and takes and not over:
        return f"the {played.symbol} leaves the {bonus} and its 10 points to {names[seat]}"
    if 1 << played.face == mask and played.face // 13 != led and preferred.face != played.face:
        return f"the {bonus} gives its 10 points to {names[seat]} if the trick stays theirs"
    return ""


def _review_pass(
    view: PlayerView, move: Pass | None, names: Sequence[str], seed: int | str | None, budget: int
) -> Decision:
    """The pass made (`move`) weighed against the hard player's pass, the one the hint gives
    (so a pass made as the hint says costs nothing); with no move, only that preference."""
    advice = hint(view, names, seed=seed)
    preferred = advice.cards
    played = tuple(move.cards) if move is not None else preferred
    stake = game_at_stake(view)
    mine = tuple(sorted(c.face for c in played))
    hinted = tuple(sorted(c.face for c in preferred))
    if mine == hinted:
        return Decision("pass", None, played, preferred, 0.0, advice.reason, stake)
    if not can_search_pass(view):
        return Decision("pass", None, played, preferred, None, advice.reason, stake)
    hand = fold(view.hand_mask)
    moon = moon_pass(hand, view.cards_to_pass) if is_moon_hand(hand) else None
    candidates = [mine, hinted]
    player = FullSearch(seed=seed)
    arms = evaluate_passes(
        view,
        candidates,
        player.rng_for(view, "review-pass"),
        budget,
        budget // len(candidates),
        0.0,  # nothing dropped: every pass meets every deal
        tuple(sorted(moon)) if moon is not None else None,
        _scorer(player, view),
    )
    cost = max(0.0, _arm(arms, 0).mean - _arm(arms, 1).mean)
    if cost < max(NOISE, SURE * paired_error(_arm(arms, 0), _arm(arms, 1))):
        cost = 0.0
    return Decision("pass", None, played, preferred, cost, advice.reason, stake)


def _scorer(player: HardPlayer, view: PlayerView) -> Callable[[Position], float]:
    return functools.partial(player.scorer(view, Table.of(view.rules)).value, plan=-1)


def _arm(arms: list[Arm], index: int) -> Arm:
    return next(a for a in arms if a.face == index)
