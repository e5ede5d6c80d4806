"""Hard: Monte Carlo search over deals consistent with what the seat knows (PIMC).

For each decision it samples hidden hands (`sampling`), plays every candidate card in each
sampled deal and finishes the round with the heuristic playout (`rollout`), the same random
numbers for every candidate so that they are compared on equal terms, and plays the card with
the best average result. Cards that cannot differ in effect (touching cards of a suit, once
the cards between them are gone) are one candidate.

The result of a playout is the seat's score for the round (moon rules applied) minus a share
of its rivals' scores, plus a large term when the round ends the game: winning it, or losing
it, outweighs a few points. So near the target it plays for the win, not for points alone.

When nobody else has taken a point and the hand looks strong, it also tries the plan of
shooting the moon (playing its own future cards to take everything) and keeps that plan if
it averages better. Two-deck games fall back to the medium heuristics.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import time
from dataclasses import dataclass

from ..cards import CARDS, Card
from ..scoring import team_of
from ..view import PlayerView
from .endgame import Solver
from .inference import Inference
from .medium import MediumPlayer, choose_play_face
from .passing import can_search_pass, evaluate_passes, pass_candidates, pass_faces
from .racing import Arm, clearly_better, race
from .rollout import (
    NOISE,
    Position,
    Scorer,
    SharedNumbers,
    Table,
    numbers_needed,
    play_candidates,
    play_card,
    round_scores,
    utility,
)
from .sampling import Sampler
from .tracking import (
    ACE_OF_SPADES,
    HEARTS_FACES,
    KING_OF_SPADES,
    POINT_FACES,
    QUEEN,
    SUIT_FACES,
    Knowledge,
    bonus_face,
    card_for_face,
    fold,
    queen_shy,
)

DEFAULT_PLAYOUTS = 1000
"""Playouts per decision of the old hard player; see `HardPlayer.playouts` for today's."""
MIN_SAMPLES = 8
SPADES = 3
PASS_MARGIN = 0.5
"""Points a searched pass must gain over medium's, beyond noise, to be chosen instead: the
playouts play worse than the search does, so small gains in them are not trusted."""
QUEEN_FACE = QUEEN.bit_length() - 1


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How a searching level spends its time.

    - ``playouts``: the budget when none is given (playouts per decision).
    - ``min_samples``: deals tried before any candidate may be dropped.
    - ``drop_z``: a candidate is dropped once it trails the best by this many standard errors
      of the paired difference (the same deals and random numbers for both); 0 never drops.
    - ``endgame_cards``: with this many cards or fewer in hand, each sampled deal is solved
      exactly (`endgame.solve`) instead of played out; 0 never.
    - ``pass_playouts``: playouts for the searched pass (`passing`); 0 passes by heuristic.
    - ``pass_margin``: points another pass must gain over medium's, beyond ``pass_drop_z``
      standard errors, to be chosen instead.
    - ``pass_drop_z``: ``drop_z`` for the searched pass (None: the same as in play).
    - ``prior``: (deals, variance) of a prior on the variance of a difference (`race`).
    - ``noise``: how often a playout plays a random legal card instead of the policy's.
    - ``read_queen``: deals put the Q♠ away from seats that let a clear chance to drop it go
      by (`tracking.queen_shy`), in nine deals of ten.
    - ``fitted_leads``: the playouts of its play lead as the search itself tends to
      (`Table.with_fitted_leads`) instead of as medium does.
    - ``infer_pool``: when above 1, each deal searched is one of this many sampled deals,
      drawn with odds in proportion to how well the rivals' past plays fit medium's rules
      in it (`inference.Inference`); ``infer_epsilon`` is a deal's weight for each play
      that does not fit.
    """

    playouts: int
    min_samples: int = MIN_SAMPLES
    drop_z: float = 0.0
    endgame_cards: int = 0
    pass_playouts: int = 0
    pass_margin: float = PASS_MARGIN
    pass_drop_z: float | None = None
    prior: tuple[float, float] = (0.0, 0.0)
    noise: float = NOISE
    read_queen: bool = False
    fitted_leads: bool = False
    infer_pool: int = 0
    infer_epsilon: float = 0.4


OLD_HARD = SearchSettings(playouts=DEFAULT_PLAYOUTS)
"""Every candidate on every deal: the coach's search (`FullSearch`), and hard's until
issue 16's racing with a prior matched it."""
HARD = SearchSettings(
    playouts=DEFAULT_PLAYOUTS,
    min_samples=10,
    drop_z=2.5,
    prior=(8.0, 3.0),
    pass_playouts=1200,
    pass_margin=0.0,
    pass_drop_z=2.0,
)
"""Hard: candidates raced on shared deals, with a prior on the variance of a difference (as
if 8 more deals had shown a variance of 3), so that a few deals showing two cards alike do
not end the race; as strong as `OLD_HARD` over 2,000 rounds at a third of its median CPU.
Its pass is searched at 1,200 playouts (medium's unless another is better by 2 standard
errors): 91% on the tactics suite instead of 84%, −0.10 ± 0.14 points a round against
hard with medium's pass, p95 31 ms compiled (docs/benchmarks.md)."""
RACING_HARD = SearchSettings(playouts=240, min_samples=10, drop_z=2.5, pass_playouts=0)
"""Hard with candidates raced on shared deals: about 4 ms a decision instead of 40, but
+0.56 ± 0.33 points a round worse than the full search over 700 rounds (benchmarks). At 480
playouts it measured -0.02 ± 0.33 (464 rounds; p95 93 ms): not yet shown strong enough."""


@dataclass(frozen=True, slots=True)
class Style:
    """How a named computer player's taste bends the search (the same search, other values).

    - ``moon_appetite``: tries the moon plan with this many fewer high cards than usual, and
      counts a moon it shoots `rollout.MOON_GLORY` times this many points better (negative:
      worse), so a plan that seldom comes off gains little.
    - ``queen_caution``: points added to every playout in which it takes the Q♠ (negative:
      it takes her more lightly and keeps her to dump later).
    - ``sheds_spades``: passes the Q♠, A♠ and K♠ whenever it is dealt them (the queen
      first), however many spades guard them; the rest of the pass is searched as usual.
    """

    name: str
    moon_appetite: float = 0.0
    queen_caution: float = 0.0
    sheds_spades: bool = False


STYLES = {
    "plain": Style("plain"),
    "marisol": Style("marisol", moon_appetite=-2.0, queen_caution=5.0, sheds_spades=True),
    "bertie": Style("bertie", moon_appetite=2.0, queen_caution=-1.5),
    "tamsin": Style("tamsin", moon_appetite=1.0, queen_caution=1.0),
}
"""The web game's three opponents (`hearts.web.characters`), and the plain player."""


class HardPlayer(MediumPlayer):
    """Searches deals sampled from what it knows; `budget` is playouts (int) or seconds (float)."""

    level = "hard"
    one_deck_only = "search"
    #: Racing without a prior (`RACING_HARD`) measured half a point a round weaker; with
    #: one it is as strong as the full search (docs/ai.md).
    settings = HARD

    def __init__(
        self,
        seed: int | str | None = None,
        budget: int | float | None = None,
        style: Style | None = None,
    ) -> None:
        super().__init__(seed, budget)
        self.style = style if style is not None else STYLES["plain"]

    def table(self, view: PlayerView) -> Table:
        """The rules' facts for the playouts of its play, with this level's playout policy."""
        table = Table.of(view.rules)
        return table.with_fitted_leads() if self.settings.fitted_leads else table

    def pass_table(self, view: PlayerView) -> Table:
        """The same for the playouts of its searched pass: medium's policy at every level
        (the fitted leads, measured in expert's pass, agreed less with the tactics suite's
        passes and were not shown stronger; docs/ai.md)."""
        return Table.of(view.rules)

    def scorer(self, view: PlayerView, table: Table) -> Scorer:
        """How this player values a finished playout (lower is better), with its style."""
        style = self.style
        return Scorer(table, view.scores, view.seat, style.queen_caution, style.moon_appetite)

    def pick_pass(self, view: PlayerView) -> list[Card]:
        hand = fold(view.hand_mask)
        keen = self.style.moon_appetite >= 1
        moon = moon_pass(hand, view.cards_to_pass) if is_moon_hand(hand, keen) else None
        if self.settings.pass_playouts and can_search_pass(view):
            return self._search_pass(view, hand, moon)
        if self.plays_as_medium(view.rules):
            return super().pick_pass(view)
        if moon is not None:
            return [CARDS[f] for f in moon]
        if self.style.sheds_spades:
            faces, _ = shedding_pass(hand, view.pass_direction, view.cards_to_pass)
            return [CARDS[f] for f in faces]
        return super().pick_pass(view)

    def _search_pass(self, view: PlayerView, hand: int, moon: list[int] | None) -> list[Card]:
        """The searched pass. A budget of playouts scales the pass's playouts in proportion;
        a budget of seconds is its time limit, as for a play (at least `min_samples` deals
        are searched, however short the time)."""
        settings = self.settings
        deadline = time.perf_counter() + self.budget if isinstance(self.budget, float) else None
        candidates = pass_candidates(hand, view.pass_direction, view.cards_to_pass, moon)
        if self.style.sheds_spades:
            faces, shed = shedding_pass(hand, view.pass_direction, view.cards_to_pass)
            first = tuple(sorted(faces))
            candidates = [first, *(c for c in candidates if c != first and shed <= set(c))]
        budget = settings.pass_playouts
        if isinstance(self.budget, int):
            budget = max(1, budget * self.budget // settings.playouts)
        elif deadline is not None:
            budget = 1 << 62  # the clock alone, as for a play
        table = self.pass_table(view)
        z = settings.drop_z if settings.pass_drop_z is None else settings.pass_drop_z
        arms = evaluate_passes(
            view,
            candidates,
            self.rng_for(view, "pass"),
            budget,
            settings.min_samples,
            z,
            tuple(sorted(moon)) if moon is not None else None,
            functools.partial(self.scorer(view, table).value, plan=-1),
            table,
            deadline,
        )
        best = min((a for a in arms if a.active), key=lambda a: (a.mean, a.face))
        if not clearly_better(best, arms[0], settings.pass_margin, z):
            best = arms[0]  # medium's pass, unless another is clearly better
        return [CARDS[f] for f in candidates[best.face]]

    def pick_play(self, view: PlayerView) -> Card:
        legal = view.legal_mask
        if not legal & (legal - 1):
            return CARDS[legal.bit_length() - 1]
        know = Knowledge.from_view(view)
        if self.plays_as_medium(view.rules):
            return CARDS[card_for_face(legal, choose_play_face(know))]
        candidates = distinct_candidates(know)
        if len(candidates) == 1:
            return CARDS[card_for_face(legal, candidates[0])]
        arms = self.evaluate(view, know, candidates)
        best = min((a for a in arms if a.active), key=lambda a: (a.mean, a.face))
        return CARDS[card_for_face(legal, best.face)]

    def evaluate(
        self,
        view: PlayerView,
        know: Knowledge,
        candidates: list[int],
        budget: int | float | None = None,
        min_samples: int | None = None,
        drop_z: float | None = None,
        weigh: int = -1,
    ) -> list[Arm]:
        """Every candidate (and plan) with its results over the sampled deals.

        The tactics builder calls this with a far larger budget and no dropping. The review
        gives the face a person played as `weigh`: it is weighed even as a queen gamble.
        """
        settings = self.settings
        rng = self.rng_for(view, "play")
        table = self.table(view)
        base = _position(view, know)
        plans = [-1, view.seat] if _moon_possible(know, view, self.style) else [-1]
        gamble = QUEEN_FACE if is_queen_gamble(know) and weigh != QUEEN_FACE else -1
        arms = [
            Arm(plan, face, [])
            for plan in plans
            for face in candidates
            if not (face == gamble and plan < 0)
        ]
        if budget is None:
            budget = self.budget if self.budget is not None else settings.playouts
        least = settings.min_samples if min_samples is None else min_samples
        z = settings.drop_z if drop_z is None else drop_z
        deadline = time.perf_counter() + budget if isinstance(budget, float) else None
        limit = 1 << 62 if deadline is not None else max(int(budget), least * len(arms))
        exact = know.hand.bit_count() <= settings.endgame_cards and not view.rules.kitty
        playout_rng = random.Random()
        kitty_size = view.kitty_size if view.rules.kitty and view.kitty_taker is None else 0
        shy = queen_shy(view) if settings.read_queen else 0
        sampler = Sampler(know, view.hand_sizes, kitty_size, shy)
        inference = None
        if settings.infer_pool > 1:
            inference = Inference(view, settings.infer_epsilon, settings.infer_pool)
            if not inference.plays:
                inference = None
        scorer = self.scorer(view, table)
        used = 0
        index = 0
        while True:
            active = [a for a in arms if a.active]
            if len(active) == 1 and index >= least:
                break
            if index >= least and (
                used + len(active) > limit
                or (deadline is not None and time.perf_counter() > deadline)
            ):
                break
            if inference is None:
                hands, kitty = sampler.sample(rng)
            else:
                pool = [sampler.sample(rng) for _ in range(inference.pool)]
                hands, kitty = inference.pick(pool, rng)
            start = base.copy()
            start.hands = hands
            start.kitty = kitty
            playout_seed = rng.getrandbits(32)
            if exact:
                values = solve_candidates(view, table, start, [a.face for a in active])
                for arm, value in zip(active, values, strict=True):
                    arm.values.append(value)
            else:
                # Every candidate meets the same random numbers: one list for the deal.
                playout_rng.seed(playout_seed)
                numbers = SharedNumbers(playout_rng, numbers_needed(start) // 2)
                values = play_candidates(
                    table,
                    start,
                    view.seat,
                    [(a.face, a.plan) for a in active],
                    numbers,
                    settings.noise,
                    scorer,
                )
                for arm, value in zip(active, values, strict=True):
                    arm.values.append(value)
            used += len(active)
            index += 1
            if index >= least and index % 4 == 0:
                race(arms, z, prior=settings.prior)
        return arms


COACH = dataclasses.replace(
    OLD_HARD,
    pass_playouts=HARD.pass_playouts,
    pass_margin=HARD.pass_margin,
    pass_drop_z=HARD.pass_drop_z,
)
"""The coach's search: every candidate on every deal (`OLD_HARD`), and hard's searched pass
(until 2026-12-02 the coach passed as medium does while hard searched its pass: a strong
player doubted its "only 3 low spades" Q♠ passes, which were medium's rule)."""


class FullSearch(HardPlayer):
    """Hard's search with every candidate tried on every deal, none dropped: the coach's
    (hint and review), which shows each option's average over the same deals; its pass is
    hard's searched pass."""

    settings = COACH


EXPERT = SearchSettings(
    playouts=3000,
    min_samples=10,
    drop_z=2.5,
    prior=(8.0, 3.0),
    endgame_cards=3,
    pass_playouts=5000,
    pass_margin=0.0,
    pass_drop_z=2.0,
    read_queen=True,
)
"""Expert: hard's race with three times the deals, the last three tricks solved exactly, a
searched pass at 5,000 playouts, and the Q♠ kept away from seats that let a clear chance to
drop it go by. 96% on the tactics suite (hard 91%); in one seat against three hard players
it took 0.20 ± 0.24 points a round fewer than hard over 3,600 rounds, and 0.11 ± 0.44 more
over 928 others (docs/benchmarks.md): not shown stronger, far from the point a round issue
16 asks."""


class ExpertPlayer(HardPlayer):
    """Hard with more deals, an exact solver for the last tricks, a searched pass and a read
    of who lacks the Q♠."""

    level = "expert"
    settings = EXPERT


def distinct_candidates(know: Knowledge) -> list[int]:
    """Legal faces, keeping one of each run of cards that play alike.

    Two cards of a suit play alike when every card between them is ours or already played,
    and neither is a card with its own points (the Q♠, the bonus card).
    """
    return sorted(set(representatives(know).values()))


def representatives(know: Knowledge) -> dict[int, int]:
    """Every legal face, mapped to the lowest card of its run of cards that play alike. The
    card winning the trick on the table parts a run: with the 8♥ winning, the 7♥ ducks and
    the 9♥ takes the trick (they were one run, so the search never tried the 9♥, and the
    hint said it ducked). Another card on the trick parts nothing: both sides of it duck
    under the winner, or both go over it."""
    special = QUEEN | bonus_face(know.rules)
    winner = know.winning_face()
    gone = (know.played & ~(0 if winner is None else 1 << winner)) | know.hand
    result: dict[int, int] = {}
    for suit in range(4):
        cards = [f for f in range(13 * suit, 13 * suit + 13) if know.legal >> f & 1]
        previous = -1
        for face in cards:
            same_run = (
                previous >= 0
                and not (special >> face & 1 or special >> previous & 1)
                and all(gone >> f & 1 for f in range(previous + 1, face))
            )
            result[face] = result[previous] if same_run else face
            previous = face
    return result


def is_queen_gamble(know: Knowledge) -> bool:
    """Following spades under the Q♠ with a lower spade to play while lower spades are still
    out: throwing her then pays only when the A♠ or K♠ is forced onto her, which the sampled
    deals overrate (a few deals where it happens outweigh the many where it does not). Seen
    in play: 5♠ led, 2♠ 3♠ 4♠ 10♠ J♠ Q♠ held, the Q♠ thrown for 19 seeds in 100."""
    if not know.trick or know.trick[0][1] // 13 != SPADES or not know.legal & QUEEN:
        return False
    winner = know.winning_face()
    return (
        winner is not None
        and winner < QUEEN_FACE
        and bool(know.legal & SUIT_FACES[SPADES] & (QUEEN - 1))
        and bool(know.outstanding(SPADES) & (QUEEN - 1))
    )


def _position(view: PlayerView, know: Knowledge) -> Position:
    wins = [0] * view.rules.players
    for trick in view.tricks:
        wins[trick.winner] += 1
    return Position(
        hands=[],
        trick=[card % 52 for _, card in view.trick],
        leader=view.leader,
        first_trick=not view.tricks,
        hearts_broken=view.hearts_broken,
        played=know.played,
        points=list(view.points_taken),
        point_cards=list(know.taken),
        tricks_won=wins,
        kitty=0,
    )


def moon_pass(hand: int, count: int) -> list[int]:
    """Going for the moon: keep the hearts and the high cards, pass the low cards that would
    hand the lead away (lowest rank first, spades last: they guard the queen)."""
    order = sorted(
        (f for f in range(52) if hand >> f & 1 and not (1 << f) & HEARTS_FACES),
        key=lambda f: (f % 13, f // 13 == 3, f),
    )
    return order[:count]


SHED_ORDER = (QUEEN_FACE, ACE_OF_SPADES.bit_length() - 1, KING_OF_SPADES.bit_length() - 1)


def shedding_pass(hand: int, direction: str, count: int) -> tuple[list[int], set[int]]:
    """A cautious pass (`Style.sheds_spades`): the Q♠, A♠ and K♠ held (in that order, as many
    as the pass takes), then medium's choice; and the set of those spades.

    >>> from hearts.cards import CardSet
    >>> hand = CardSet.parse("2S 3S 4S 5S QS KS AS 2C 3C 4C 5C 6C 7C").mask
    >>> faces, shed = shedding_pass(hand, "left", 3)
    >>> sorted(faces) == sorted(shed) == sorted(SHED_ORDER)
    True
    """
    shed = [f for f in SHED_ORDER if hand >> f & 1][:count]
    rest = [f for f in pass_faces(hand, direction, count) if f not in shed]
    return shed + rest[: count - len(shed)], set(shed)


def is_moon_hand(hand: int, keen: bool = False) -> bool:
    """A hand worth passing for the moon: long, high hearts and aces to keep the lead (a
    keen player settles for one heart and one ace fewer)."""
    hearts = hand & HEARTS_FACES
    top_hearts = (hearts >> 35).bit_count()  # jack of hearts and up
    aces = sum(hand >> (13 * s + 12) & 1 for s in (0, 1, 3))
    less = 1 if keen else 0
    return hearts.bit_count() >= 6 - less and top_hearts >= 3 - less and aces >= 2 - less


def _moon_possible(know: Knowledge, view: PlayerView, style: Style) -> bool:
    """Worth searching a moon plan: no rival has a point, and the hand is strong."""
    mine = team_of(view.rules, view.seat)
    if any(know.taken[s] & POINT_FACES for s in range(know.players) if s not in mine):
        return False
    hand = know.hand
    high = sum(((hand & SUIT_FACES[s]) >> (13 * s + 9)).bit_count() for s in range(4))
    high_hearts = ((hand & HEARTS_FACES) >> 34).bit_count()  # ten of hearts and up
    taken = sum((know.taken[s] & POINT_FACES).bit_count() for s in mine)
    need = 7 - round(style.moon_appetite)
    return high + high_hearts >= need or (taken >= 5 and high >= 3)


def _utility(view: PlayerView, table: Table, pos: Position) -> float:
    """Lower is better: our score for the round, less a share of the rivals', and a large
    reward or penalty when the round ends the game."""
    return Scorer(table, view.scores, view.seat).value(pos, -1)


def solve_candidates(
    view: PlayerView, table: Table, start: Position, faces: list[int]
) -> list[float]:
    """Our result of each candidate in one deal (every hand known), solved exactly."""
    totals = view.scores
    seats = range(table.players)

    def leaf(pos: Position) -> tuple[float, ...]:
        scores = round_scores(table, pos, totals)
        return tuple(utility(table, totals, scores, s) for s in seats)

    solver = Solver(table, leaf)
    values = []
    for face in faces:
        pos = start.copy()
        play_card(pos, view.seat, face, table)
        values.append(solver.solve(pos)[view.seat])
    return values
