"""Scoring: a finished round's points, moons and suns, the totals, and when a game ends.

Every part of the project that scores (the engine, the computer players, the scorekeeper's
cases) asks this module, so a house rule is scored in one place.

>>> from hearts import Rules
>>> score_points(Rules(moon_rule="add-unless-losing", exactly_target_resets_to=50),
...              totals=[80, 74, 10, 10], points=[26, 0, 0, 0], shooter=0).totals
(80, 50, 36, 36)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from .cards import DECK_SIZE, POINT_MASK, mask_of, parse_card, points_of
from .rules import Rules

#: What one copy of the bonus card takes off its winner's points (Omnibus Hearts).
BONUS_CARD_POINTS = 10

if TYPE_CHECKING:
    from .round import Round

MoonChoice = Literal["add", "subtract"]
MOON_CHOICES: tuple[MoonChoice, ...] = ("add", "subtract")


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How one round was scored."""

    hand_number: int
    points_taken: tuple[int, ...]
    """Points in each seat's tricks (bonus card included), before moon scoring."""
    scores: tuple[int, ...]
    """What each seat added to its total this round."""
    totals: tuple[int, ...]
    """Totals after this round (after any exactly-the-target drop)."""
    shooter: int | None = None
    """The seat (or, in partnership play, the first seat of the team) that shot the moon."""
    sun: bool = False
    moon_choice: MoonChoice | None = None
    """How the moon was scored."""
    reset: tuple[int, ...] = ()
    """Seats whose total hit the target exactly and dropped back."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand_number": self.hand_number,
            "points_taken": list(self.points_taken),
            "scores": list(self.scores),
            "totals": list(self.totals),
            "shooter": self.shooter,
            "sun": self.sun,
            "moon_choice": self.moon_choice,
            "reset": list(self.reset),
        }


def team_of(rules: Rules, seat: int) -> tuple[int, ...]:
    """The seats that score together with `seat`: partners across, or the seat alone.

    >>> team_of(Rules(partnership=True), 3), team_of(Rules(), 3)
    ((1, 3), (3,))
    """
    if rules.partnership:
        half = rules.players // 2
        return (seat % half, seat % half + half)
    return (seat,)


def lowest(totals: Sequence[int]) -> list[int]:
    """The seats with the lowest total."""
    low = min(totals)
    return [s for s, t in enumerate(totals) if t == low]


def is_game_over(rules: Rules, totals: Sequence[int]) -> bool:
    """Someone reached the target, and the tie rule lets the game end on these totals."""
    if max(totals) < rules.target_score:
        return False
    # Partners' totals are always equal, so "one lowest" means one lowest team.
    leaders = {team_of(rules, s) for s in lowest(totals)}
    return rules.tie_rule == "share" or len(leaders) == 1


@dataclass(frozen=True, slots=True)
class PlayOn:
    """Why a game goes on past its target: `reached` are the seats at or past the target,
    and `tied` the seats sharing the lowest total, which the tie rule "play-on" will not
    let share the win."""

    reached: tuple[int, ...]
    tied: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"reached": list(self.reached), "tied": list(self.tied)}


def play_on(rules: Rules, totals: Sequence[int]) -> PlayOn | None:
    """Why the game goes on with someone at the target, or None when nobody is there or the
    game ends on these totals.

    >>> play_on(Rules(tie_rule="play-on", target_score=10), [7, 0, 6, 0, 13])
    PlayOn(reached=(4,), tied=(1, 3))
    >>> play_on(Rules(target_score=10), [7, 0, 6, 0, 13]) is None  # the tie shares the win
    True
    """
    if max(totals) < rules.target_score or is_game_over(rules, totals):
        return None
    reached = tuple(s for s, total in enumerate(totals) if total >= rules.target_score)
    return PlayOn(reached, tuple(lowest(totals)))


def _after_drop(rules: Rules, totals: Sequence[int]) -> tuple[list[int], list[int]]:
    """Totals with any exact hit of the target dropped back, and the seats that dropped."""
    settled = list(totals)
    reset: list[int] = []
    if rules.exactly_target_resets_to is not None:
        for seat, total in enumerate(settled):
            if total == rules.target_score:
                settled[seat] = rules.exactly_target_resets_to
                reset.append(seat)
    return settled, reset


def _ends(rules: Rules, totals: Sequence[int], shooter: int) -> tuple[bool, bool, bool]:
    """(the game ends on these totals, the shooter's team is among the lowest, a rival is)."""
    low, team = lowest(totals), team_of(rules, shooter)
    return is_game_over(rules, totals), shooter in low, any(s not in team for s in low)


def moon_choice(
    rules: Rules,
    totals: Sequence[int],
    shooter: int,
    added: Sequence[int],
    subtracted: Sequence[int],
    choice: MoonChoice | None = None,
) -> MoonChoice:
    """How a moon is scored, given each seat's score either way (bonus included).

    Under "choose" without a `choice` (a shooter who was not asked) the shooter takes an
    option that ends the game with them winning, avoids one that ends it with them losing,
    and otherwise adds. Under "add-unless-losing" the shooter adds unless that ends the game
    with a rival among the winners: one alone, or sharing the lowest total with the shooter.
    Both look at the totals after any exact-target drop.

    >>> rules = Rules(moon_rule="add-unless-losing")
    >>> moon_choice(rules, [60, 74, 34, 74], 0, [0, 26, 26, 26], [-26, 0, 0, 0])
    'subtract'
    >>> moon_choice(rules, [50, 74, 34, 74], 0, [0, 26, 26, 26], [-26, 0, 0, 0])
    'add'
    """
    rule = rules.moon_rule
    if rule == "add" or rule == "subtract":
        return rule
    if rule == "choose" and choice is not None:
        return choice

    def outcome(scores: Sequence[int]) -> tuple[bool, bool, bool]:
        after, _ = _after_drop(rules, [t + s for t, s in zip(totals, scores, strict=True)])
        return _ends(rules, after, shooter)

    add_ends, add_wins, add_rival_wins = outcome(added)
    if rule == "add-unless-losing":
        return "subtract" if add_ends and add_rival_wins else "add"
    sub_ends, sub_wins, _ = outcome(subtracted)
    if add_ends and add_wins:
        return "add"
    if sub_ends and sub_wins:
        return "subtract"
    if add_ends and not (sub_ends and not sub_wins):
        return "subtract"
    return "add"


def score_points(
    rules: Rules,
    totals: Sequence[int],
    points: Sequence[int],
    bonus: Sequence[int] | None = None,
    shooter: int | None = None,
    sun: bool = False,
    choice: MoonChoice | None = None,
    hand_number: int = 0,
) -> RoundResult:
    """Score a round from what each seat took: `points` from hearts and queens of spades
    (bonus card not included), `bonus` the copies of the bonus card each took (−10 each),
    `shooter` the seat (first seat of the team with partners) that took every point card,
    and `sun` whether it took every trick too.

    >>> score_points(Rules(moon_rule="choose"), [90, 20, 95, 95], [26, 0, 0, 0],
    ...              shooter=0).moon_choice
    'subtract'
    """
    n = rules.players
    bonus_points = [-BONUS_CARD_POINTS * b for b in bonus] if bonus else [0] * n
    if rules.partnership:
        teams = [team_of(rules, s) for s in range(n)]
        team_points = [sum(points[m] for m in team) for team in teams]
        team_bonus = [sum(bonus_points[m] for m in team) for team in teams]
    else:
        teams = [(s,) for s in range(n)]
        team_points, team_bonus = list(points), bonus_points
    chosen: MoonChoice | None = None
    if shooter is None:
        scores = [p + b for p, b in zip(team_points, team_bonus, strict=True)]
        sun = False
    else:
        sun = sun and rules.shoot_the_sun
        amount = rules.round_points * (2 if sun else 1)
        shooters = teams[shooter]
        added = [team_bonus[s] + (0 if s in shooters else amount) for s in range(n)]
        subtracted = [team_bonus[s] - (amount if s in shooters else 0) for s in range(n)]
        chosen = moon_choice(rules, totals, shooter, added, subtracted, choice)
        scores = added if chosen == "add" else subtracted
    new_totals, reset = _after_drop(rules, [t + s for t, s in zip(totals, scores, strict=True)])
    return RoundResult(
        hand_number=hand_number,
        points_taken=tuple(p + b for p, b in zip(points, bonus_points, strict=True)),
        scores=tuple(scores),
        totals=tuple(new_totals),
        shooter=shooter,
        sun=sun,
        moon_choice=chosen,
        reset=tuple(reset),
    )


@functools.lru_cache(maxsize=64)
def dealt_mask(rules: Rules) -> int:
    """Every card in play under these rules (hands and kitty)."""
    from .round import deck_cards

    return mask_of(deck_cards(rules))


def moon_shooter(rules: Rules, taken: Sequence[int]) -> tuple[int | None, bool]:
    """The seat whose tricks (`taken`, a mask per seat) hold every point card, and whether
    they hold every card (the sun). With partners, a team shoots when the two partners'
    tricks hold every point card between them; the team's first seat is returned."""
    dealt = dealt_mask(rules)
    points_dealt = dealt & POINT_MASK
    seats = range(rules.players // 2) if rules.partnership else range(rules.players)
    for seat in seats:
        mask = 0
        for member in team_of(rules, seat):
            mask |= taken[member]
        if points_dealt and mask & points_dealt == points_dealt:
            return seat, mask == dealt
    return None, False


def bonus_copies(rules: Rules, taken: int) -> int:
    """How many copies of the bonus card a seat's tricks hold (0 without one)."""
    if rules.bonus_card is None:
        return 0
    card = parse_card(rules.bonus_card)
    return (taken >> card & 1) + (taken >> (card + DECK_SIZE) & 1)


def score_round(
    rules: Rules, rnd: Round, totals: Sequence[int], choice: MoonChoice | None = None
) -> RoundResult:
    """Score a finished round against the totals before it.

    `choice` settles a "choose" moon; without it the shooter is taken to choose as
    `moon_choice` says. In Partnership Hearts each seat scores its team's points, so
    partners' totals stay equal.
    """
    shooter, sun = moon_shooter(rules, rnd.taken)
    if rules.bonus_card is None:
        points, bonus = rnd.points_taken, None
    else:
        points = [points_of(mask) for mask in rnd.taken]
        bonus = [bonus_copies(rules, mask) for mask in rnd.taken]
    return score_points(
        rules,
        totals,
        points,
        bonus,
        shooter,
        sun,
        choice,
        rnd.hand_number,
    )
