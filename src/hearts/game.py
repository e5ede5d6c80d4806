"""A game: rounds until someone reaches the target, with the moon rules and the totals.

>>> from hearts import Game, Rules
>>> game = Game(Rules(target_score=50), seed=1)
>>> game.phase, game.round.pass_direction, game.scores
('passing', 'left', [0, 0, 0, 0])
>>> game.next_round()
Traceback (most recent call last):
...
hearts.round.IllegalMoveError: The round is not over yet.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import CARDS, POINT_MASK, points_of
from .round import CardLike, IllegalMoveError, Round, deck_cards
from .rules import Rules
from .view import PlayerView

Action = dict[str, Any]


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
    moon_choice: str | None = None
    """"add" or "subtract": how the moon was scored."""
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


@functools.lru_cache(maxsize=64)
def dealt_mask(rules: Rules) -> int:
    """Every card in play under these rules (hands and kitty)."""
    mask = 0
    for card in deck_cards(rules):
        mask |= 1 << card
    return mask


def team_of(rules: Rules, seat: int) -> tuple[int, ...]:
    """The seats that score together with `seat`: partners across, or the seat alone.

    >>> team_of(Rules(partnership=True), 3), team_of(Rules(), 3)
    ((1, 3), (3,))
    """
    if rules.partnership:
        return (seat % 2, seat % 2 + 2)
    return (seat,)


def moon_shooter(rules: Rules, rnd: Round) -> tuple[int | None, bool]:
    """The seat that took every point card (and whether it took every card: the sun).

    In Partnership Hearts a team shoots when the two partners' tricks hold every point
    card between them; the team's first seat (0 or 1) is returned.
    """
    dealt = dealt_mask(rules)
    points_dealt = dealt & POINT_MASK
    seats = range(2) if rules.partnership else range(rules.players)
    for seat in seats:
        taken = 0
        for member in team_of(rules, seat):
            taken |= rnd.taken[member]
        if points_dealt and taken & points_dealt == points_dealt:
            return seat, taken == dealt
    return None, False


def _bonus_part(rules: Rules, points_taken: int, taken_mask: int) -> int:
    """The bonus card's share of a seat's points (0 or −10 each copy)."""
    return points_taken - points_of(taken_mask)


def score_round(
    rules: Rules,
    rnd: Round,
    totals: Sequence[int],
    choice: str | None = None,
) -> RoundResult:
    """Score a finished round against the totals before it.

    `choice` ("add" or "subtract") settles a "choose" moon; without it the shooter is
    assumed to take the better of the two for themselves.

    In Partnership Hearts each seat scores its team's points, so partners' totals stay equal.
    """
    n = rules.players
    shooter, sun = moon_shooter(rules, rnd)
    points = rnd.points_taken
    bonus = [_bonus_part(rules, points[s], rnd.taken[s]) for s in range(n)]
    team_points = [sum(points[m] for m in team_of(rules, s)) for s in range(n)]
    team_bonus = [sum(bonus[m] for m in team_of(rules, s)) for s in range(n)]
    moon_choice: str | None = None
    if shooter is None:
        scores = team_points
    else:
        amount = rules.round_points * (2 if sun and rules.shoot_the_sun else 1)
        sun = sun and rules.shoot_the_sun
        shooters = team_of(rules, shooter)
        added = [team_bonus[s] + (0 if s in shooters else amount) for s in range(n)]
        subtracted = [team_bonus[s] - (amount if s in shooters else 0) for s in range(n)]
        rule = rules.moon_rule
        if rule == "add":
            moon_choice = "add"
        elif rule == "subtract":
            moon_choice = "subtract"
        elif rule == "choose":
            moon_choice = choice or _better_choice(rules, totals, shooter, added, subtracted)
        else:
            after = [t + a for t, a in zip(totals, added, strict=True)]
            ends = any(t >= rules.target_score for t in after)
            moon_choice = "subtract" if ends and shooter not in _lowest(after) else "add"
        scores = added if moon_choice == "add" else subtracted
    new_totals = [t + s for t, s in zip(totals, scores, strict=True)]
    reset: list[int] = []
    if rules.exactly_target_resets_to is not None:
        for seat, total in enumerate(new_totals):
            if total == rules.target_score:
                new_totals[seat] = rules.exactly_target_resets_to
                reset.append(seat)
    return RoundResult(
        hand_number=rnd.hand_number,
        points_taken=tuple(points),
        scores=tuple(scores),
        totals=tuple(new_totals),
        shooter=shooter,
        sun=sun,
        moon_choice=moon_choice,
        reset=tuple(reset),
    )


def _lowest(totals: Sequence[int]) -> list[int]:
    low = min(totals)
    return [s for s, t in enumerate(totals) if t == low]


def _better_choice(
    rules: Rules, totals: Sequence[int], shooter: int, added: list[int], subtracted: list[int]
) -> str:
    """What a sensible shooter picks: whichever leaves them furthest ahead of the best rival."""

    shooters = team_of(rules, shooter)

    def margin(scores: list[int]) -> int:
        after = [t + s for t, s in zip(totals, scores, strict=True)]
        rival = min(t for s, t in enumerate(after) if s not in shooters)
        return rival - after[shooter]

    return "add" if margin(added) >= margin(subtracted) else "subtract"


class Game:
    """Rounds until someone reaches the target score; the lowest total wins.

    Every change goes through `apply` (or the helpers `give`, `play`, `choose_moon`,
    `next_round`), which records it: `actions` is the game's complete history, and
    `Game.replay(rules, seed, actions)` rebuilds the identical state.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int | str = 0,
        *,
        deals: Sequence[Sequence[Sequence[str]]] | None = None,
    ) -> None:
        """A new game. Rounds are dealt from `seed`; `deals` fixes the first rounds' hands
        (a list per round of the players' cards, clockwise from seat 0), as records and
        tests of set positions need."""
        self.rules = rules if rules is not None else Rules()
        self.seed = seed
        self.deals = [[list(hand) for hand in deal] for deal in deals] if deals else None
        self.scores: list[int] = [0] * self.rules.players
        self.results: list[RoundResult] = []
        self.actions: list[Action] = []
        self.round = self._deal(0)
        self.moon_pending: int | None = None
        """The seat that shot the moon and must choose how it is scored, if any."""

    # --- state -----------------------------------------------------------------------------

    @property
    def hand_number(self) -> int:
        return self.round.hand_number

    @property
    def phase(self) -> str:
        """ "passing", "playing", "moon-choice", "round-over" or "game-over"."""
        if self.moon_pending is not None:
            return "moon-choice"
        if self.round.phase != "over":
            return self.round.phase
        return "game-over" if self.is_over else "round-over"

    @property
    def is_over(self) -> bool:
        if self.round.phase != "over" or self.moon_pending is not None:
            return False
        if max(self.scores) < self.rules.target_score:
            return False
        # Partners' totals are always equal, so "one lowest" means one lowest team.
        leaders = {team_of(self.rules, s) for s in _lowest(self.scores)}
        return self.rules.tie_rule == "share" or len(leaders) == 1

    @property
    def winners(self) -> list[int]:
        """The seats with the lowest total once the game is over (several on a shared tie;
        both partners of the winning team in Partnership Hearts)."""
        return _lowest(self.scores) if self.is_over else []

    @property
    def last_result(self) -> RoundResult | None:
        return self.results[-1] if self.results else None

    def view(self, seat: int) -> PlayerView:
        return self.round.view(seat)

    # --- actions ---------------------------------------------------------------------------

    def give(self, seat: int, cards: Sequence[CardLike]) -> None:
        self.apply({"type": "pass", "seat": seat, "cards": [str(c) for c in cards]})

    def play(self, card: CardLike) -> None:
        self.apply({"type": "play", "seat": self.round.turn, "card": str(card)})

    def choose_moon(self, choice: str) -> None:
        """The moon shooter's choice under the "choose" rule: "add" or "subtract"."""
        seat = self.moon_pending if self.moon_pending is not None else -1
        self.apply({"type": "moon", "seat": seat, "choice": choice})

    def next_round(self) -> None:
        self.apply({"type": "next"})

    def apply(self, action: Action) -> None:
        """Apply one recorded action; refuses a bad one with `IllegalMoveError` (no change)."""
        if not isinstance(action, dict):
            raise IllegalMoveError("An action must be an object with a type.")
        kind = action.get("type")
        if kind == "pass":
            self._pass(action)
        elif kind == "play":
            self._play(action)
        elif kind == "moon":
            self._moon(action)
        elif kind == "next":
            self._next()
        else:
            raise IllegalMoveError(f"{kind!r} is not an action; use pass, play, moon or next.")
        self.actions.append(dict(action))

    def _pass(self, action: Action) -> None:
        seat, cards = action.get("seat"), action.get("cards")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise IllegalMoveError("A pass names the seat that passes.")
        if not isinstance(cards, list):
            raise IllegalMoveError("A pass lists the cards passed.")
        self.round.give(seat, cards)

    def _play(self, action: Action) -> None:
        seat, card = action.get("seat"), action.get("card")
        if self.round.phase != "playing":
            raise IllegalMoveError(
                "Cards are still being passed."
                if self.round.phase == "passing"
                else "This round is over."
            )
        if seat != self.round.turn:
            raise IllegalMoveError("It is not your turn yet.")
        if not isinstance(card, str):
            raise IllegalMoveError('A play names one card, like "QS".')
        self.round.play(card)
        if self.round.phase == "over":
            self._round_over()

    def _moon(self, action: Action) -> None:
        if self.moon_pending is None:
            raise IllegalMoveError("There is no moon to score now.")
        if action.get("seat") != self.moon_pending:
            raise IllegalMoveError("Only the player who shot the moon chooses how it scores.")
        choice = action.get("choice")
        if choice not in ("add", "subtract"):
            raise IllegalMoveError(
                "Choose add (26 to everyone else) or subtract (26 off your own score)."
            )
        self.moon_pending = None
        self._score(str(choice))

    def _next(self) -> None:
        if self.round.phase != "over" or self.moon_pending is not None:
            raise IllegalMoveError("The round is not over yet.")
        if self.is_over:
            raise IllegalMoveError("The game is over.")
        self.round = self._deal(self.round.hand_number + 1)

    def _deal(self, hand_number: int) -> Round:
        rules = self.rules
        if self.deals is None or hand_number >= len(self.deals):
            return Round.deal(rules, self.seed, hand_number, scores=self.scores)
        hands = self.deals[hand_number]
        kitty: list[int] = []
        if rules.kitty:
            held = {str(card) for hand in hands for card in hand}
            kitty = [c for c in deck_cards(rules) if str(CARDS[c]) not in held]
        return Round.from_hands(
            rules,
            hands,
            rules.pass_direction(hand_number),
            dealer=hand_number % rules.players,
            kitty=kitty,
            hand_number=hand_number,
            scores=self.scores,
        )

    def _round_over(self) -> None:
        shooter, _ = moon_shooter(self.rules, self.round)
        if shooter is not None and self.rules.moon_rule == "choose":
            self.moon_pending = shooter
        else:
            self._score(None)

    def _score(self, choice: str | None) -> None:
        result = score_round(self.rules, self.round, self.scores, choice)
        self.results.append(result)
        self.scores = list(result.totals)

    # --- records ---------------------------------------------------------------------------

    @classmethod
    def replay(
        cls,
        rules: Rules,
        seed: int | str,
        actions: Sequence[Action],
        *,
        deals: Sequence[Sequence[Sequence[str]]] | None = None,
    ) -> Game:
        """Rebuild a game from its actions; raises `IllegalMoveError` naming the bad one."""
        game = cls(rules, seed, deals=deals)
        for index, action in enumerate(actions):
            try:
                game.apply(action)
            except IllegalMoveError as error:
                raise IllegalMoveError(
                    f"Action {index + 1} ({_describe(action)}): {error}"
                ) from None
        return game

    def copy(self) -> Game:
        other = Game.__new__(Game)
        other.rules = self.rules
        other.seed = self.seed
        other.deals = self.deals
        other.scores = self.scores.copy()
        other.results = self.results.copy()
        other.actions = self.actions.copy()
        other.round = self.round.copy()
        other.moon_pending = self.moon_pending
        return other


def _describe(action: object) -> str:
    if not isinstance(action, dict):
        return "not an object"
    kind = action.get("type")
    if kind == "play":
        return f"seat {action.get('seat')} plays {action.get('card')}"
    if kind == "pass":
        return f"seat {action.get('seat')} passes {action.get('cards')}"
    return str(kind)
