"""The rules of one table: a frozen dataclass with a field for every house rule.

>>> Rules().target_score, Rules().pass_cycle
(100, ('left', 'right', 'across', 'hold'))
>>> Rules(target_score=0)
Traceback (most recent call last):
...
ValueError: The target score must be a positive whole number.
>>> Rules.preset("omnibus").bonus_card
'JD'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Final, Literal, get_args

from .cards import DECK_SIZE

PassDirection = Literal["left", "right", "across", "hold", "scatter", "partner"]
MoonRule = Literal["add", "subtract", "choose", "add-unless-losing"]
TieRule = Literal["share", "play-on"]
FirstLead = Literal["two-of-clubs", "dealer-left"]
BonusCard = Literal["JD", "TD"]

PASS_DIRECTIONS: Final = get_args(PassDirection)
MOON_RULES: Final = get_args(MoonRule)
TIE_RULES: Final = get_args(TieRule)
FIRST_LEADS: Final = get_args(FirstLead)
BONUS_CARDS: Final = get_args(BonusCard)

PassCycle = tuple[PassDirection, ...]


class UsualCycle(tuple[PassDirection, ...]):
    """The table's usual pass cycle, as opposed to one chosen on purpose.

    It equals and prints as a plain tuple; being of its own type, it survives
    `dataclasses.replace`, so changing the number of players changes it too:

    >>> dataclasses.replace(Rules(players=3), players=4).pass_cycle
    ('left', 'right', 'across', 'hold')
    """

    __slots__ = ()


STANDARD_CYCLE: Final[PassCycle] = ("left", "right", "across", "hold")
NO_HOLD_CYCLE: Final[PassCycle] = ("left", "right", "across")
SCATTER_CYCLE: Final[PassCycle] = ("left", "right", "across", "scatter")
SMALL_TABLE_CYCLE: Final[PassCycle] = ("left", "right", "hold")
MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 10
#: The longest pass cycle a table may choose (a record or a request holds no more).
MAX_PASS_CYCLE: Final = 16
#: The lowest target a game may have: a target is a positive number of points.
MIN_TARGET: Final = 1
#: The highest target a game may be started with: the web game's start screen and the
#: terminal commands (`hearts play`, `hearts sim`, `hearts demo`) offer 1 to this. A game to
#: 1000 already runs to some 160 rounds at ten seats; one to 10**11 never ends. The engine
#: itself takes any positive target (a record of an older game still loads).
MAX_TARGET: Final = 1000

#: Cards taken out of one deck for 3 and 5 players, and of two decks for 6 to 10, so that the
#: cards deal out evenly; never a point card, and one two of clubs (or the three) stays to lead.
REMOVED_CARDS: Final[dict[int, tuple[str, ...]]] = {
    3: ("2D",),
    4: (),
    5: ("2D", "2C"),
}


def usual_cycle(players: int) -> UsualCycle:
    """The pass cycle a table of this size plays unless it chooses another."""
    if players == 4:
        return UsualCycle(STANDARD_CYCLE)
    if players in (3, 5):
        return UsualCycle(SMALL_TABLE_CYCLE)
    return UsualCycle(("hold",))


@dataclass(frozen=True)
class Rules:
    """Every choice a table makes before the first deal. Defaults are the standard game.

    Fields (all keyword arguments):

    - ``players``: 3 to 10 seats; 6 and more play Cancellation Hearts with two decks.
    - ``pass_count``: cards passed (3); a scatter pass gives one card to each other player.
    - ``pass_cycle``: directions, one per round, repeating. Left at its default (or ``None``
      in a dict) it is the table's usual one: left, right, hold for 3 and 5 players; no
      pass for 6 to 10. A cycle given on purpose is checked against the table.
    - ``points_on_first_trick``: hearts and the Q♠ may be played on the first trick.
    - ``must_break_hearts``: no heart lead until a heart has been played (or only hearts held).
    - ``queen_breaks_hearts``: playing the Q♠ breaks hearts too.
    - ``lead_hearts_instead_of_queen``: holding only hearts and the Q♠ before hearts are broken,
      a heart may be led; the strict rule makes the Q♠ the only lead.
    - ``bonus_card``: "JD" or "TD" takes 10 points off its winner (Omnibus Hearts).
    - ``moon_rule``: "add" (others +26), "subtract" (shooter −26), "choose" (the shooter picks),
      "add-unless-losing" (others +26 unless that ends the game with a rival winning,
      alone or sharing the lowest total: then the shooter −26).
    - ``shoot_the_sun``: taking every trick counts double a moon (52), scored the same way.
    - ``target_score``: the game ends once someone reaches it.
    - ``exactly_target_resets_to``: a total of exactly the target drops to this (50 or 0).
    - ``tie_rule``: "share" (tied lowest totals all win) or "play-on" (more rounds until one wins).
    - ``first_lead``: "two-of-clubs" or "dealer-left" (the dealer's left leads any card).
    - ``queen_at_first_chance``: the Q♠ must go at the first safe chance.
    - ``kitty``: deal the leftover cards face down; the first to win a point card takes them.
    - ``partnership``: partners sit across (4 players) and score together.
    - ``partners_pass``: with partnership, partners pass to each other every round.
    """

    players: int = 4
    pass_count: int = 3
    pass_cycle: PassCycle = field(default=UsualCycle(STANDARD_CYCLE))
    points_on_first_trick: bool = False
    must_break_hearts: bool = True
    queen_breaks_hearts: bool = False
    lead_hearts_instead_of_queen: bool = False
    bonus_card: BonusCard | None = None
    moon_rule: MoonRule = "add"
    shoot_the_sun: bool = False
    target_score: int = 100
    exactly_target_resets_to: int | None = None
    tie_rule: TieRule = "share"
    first_lead: FirstLead = "two-of-clubs"
    queen_at_first_chance: bool = False
    kitty: bool = False
    partnership: bool = False
    partners_pass: bool = False

    def __post_init__(self) -> None:
        cycle = self.pass_cycle
        if cycle is None or isinstance(cycle, UsualCycle):
            # The usual cycle follows the table: a four-player cycle given on purpose to
            # another table is checked, and an "across" refused.
            if isinstance(self.players, int):
                object.__setattr__(self, "pass_cycle", usual_cycle(self.players))
        elif isinstance(cycle, list | tuple):
            object.__setattr__(self, "pass_cycle", tuple(cycle))
        for problem in self._problems():
            raise ValueError(problem)

    def _problems(self) -> list[str]:
        problems: list[str] = []
        if not isinstance(self.players, int) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            problems.append(f"Hearts is played by {MIN_PLAYERS} to {MAX_PLAYERS} players.")
            return problems
        if not isinstance(self.target_score, int) or self.target_score < MIN_TARGET:
            problems.append("The target score must be a positive whole number.")
        hand = self.hand_size
        if not isinstance(self.pass_count, int) or not 0 <= self.pass_count < hand:
            problems.append(f"The number of cards passed must be between 0 and {hand - 1}.")
        if not isinstance(self.pass_cycle, tuple) or not all(
            isinstance(d, str) for d in self.pass_cycle
        ):
            problems.append("The pass cycle is a list of directions such as left and right.")
            return problems
        if not self.pass_cycle:
            problems.append("The pass cycle needs at least one direction.")
        if len(self.pass_cycle) > MAX_PASS_CYCLE:
            problems.append(
                f"A pass cycle has at most {MAX_PASS_CYCLE} directions; it repeats by itself."
            )
            return problems
        for direction in self.pass_cycle:
            if direction not in PASS_DIRECTIONS:
                problems.append(
                    f"{direction!r} is not a pass direction; use left, right, across, "
                    "hold, scatter or partner."
                )
            elif direction == "across" and self.players % 2:
                problems.append(f"Nobody sits across with {self.players} players.")
            elif direction == "partner" and not self.partnership:
                problems.append("A pass to a partner needs partnership play.")
            elif direction == "scatter" and self.players - 1 >= hand:
                problems.append("A scatter pass needs more cards in hand than other players.")
        if self.bonus_card is not None and self.bonus_card not in ("JD", "TD"):
            problems.append("The bonus card is the jack of diamonds (JD) or the ten (TD).")
        if self.moon_rule not in MOON_RULES:
            problems.append(
                f"{self.moon_rule!r} is not a moon rule; use add, subtract, choose or "
                "add-unless-losing."
            )
        if self.tie_rule not in TIE_RULES:
            problems.append(f"{self.tie_rule!r} is not a tie rule; use share or play-on.")
        if self.first_lead not in FIRST_LEADS:
            problems.append(
                f"{self.first_lead!r} is not a first-lead rule; use two-of-clubs or dealer-left."
            )
        reset = self.exactly_target_resets_to
        if reset is not None and (not isinstance(reset, int) or not 0 <= reset < self.target_score):
            problems.append("Hitting the target exactly must drop a total below the target.")
        if self.partnership and self.players != 4:
            problems.append("Partnership Hearts is played by four players, two teams of two.")
        if self.partners_pass and not self.partnership:
            problems.append("Passing to a partner needs partnership play.")
        if self.kitty and self.players >= 6:
            problems.append("Cancellation Hearts for six or more is dealt without a kitty.")
        return problems

    # --- derived facts ------------------------------------------------------------------

    @property
    def decks(self) -> int:
        """1 for 3 to 5 players, 2 for Cancellation Hearts (6 to 10)."""
        return 1 if self.players <= 5 else 2

    @property
    def cancellation(self) -> bool:
        """Identical cards on one trick cancel each other (two decks)."""
        return self.decks == 2

    @property
    def deck_cards(self) -> int:
        return DECK_SIZE * self.decks

    @property
    def hand_size(self) -> int:
        """Cards each player holds after the deal."""
        if self.kitty:
            return 12 if self.players == 4 else self.deck_cards // self.players
        return (self.deck_cards - len(self.removed_cards)) // self.players

    @property
    def kitty_size(self) -> int:
        return self.deck_cards - self.hand_size * self.players if self.kitty else 0

    @property
    def removed_cards(self) -> tuple[str, ...]:
        """Cards left out of the deal so that it comes out even (none with a kitty)."""
        if self.kitty:
            return ()
        return _removed_cards(self.players)

    @property
    def round_points(self) -> int:
        """Penalty points in one deal: 26 a deck."""
        return 26 * self.decks

    @property
    def tricks_per_round(self) -> int:
        return self.hand_size

    @property
    def opening_card(self) -> str:
        """The card that leads the first trick under "two-of-clubs": the lowest club dealt."""
        return "3C" if "2C" in self.removed_cards and self.decks == 1 else "2C"

    def pass_direction(self, hand_number: int) -> PassDirection:
        """The pass direction of a round, counting rounds from 0."""
        if self.partners_pass:
            return "partner"
        return self.pass_cycle[hand_number % len(self.pass_cycle)]

    def cards_to_pass(self, direction: PassDirection) -> int:
        if direction == "hold":
            return 0
        if direction == "scatter":
            return self.players - 1
        return self.pass_count

    # --- presets and serialisation -------------------------------------------------------

    @classmethod
    def preset(cls, name: str, **changes: Any) -> Rules:
        """A named set of house rules, optionally changed further.

        >>> Rules.preset("short").target_score
        50
        """
        try:
            base = PRESETS[name]
        except KeyError:
            names = ", ".join(PRESETS)
            raise ValueError(
                f"There is no preset called {name!r}; choose one of {names}."
            ) from None
        # A cycle with a round across, at a table with nobody across: "no-hold" is left and
        # right there (as the sheets have it); a scatter's cycle is refused in words that
        # say why, not as a pass across the user never asked for.
        cycle = base.get("pass_cycle", ())
        players = changes.get("players", cls.players)
        odd = isinstance(players, int) and players % 2
        if "across" in cycle and "pass_cycle" not in changes and odd:
            if "scatter" in cycle:
                raise ValueError(
                    f"The {name} preset has a round across, and nobody sits across with "
                    f"{players} players: choose pass_cycle yourself."
                )
            base = {**base, "pass_cycle": tuple(d for d in cycle if d != "across")}
        return cls.from_dict({**base, **changes})

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["pass_cycle"] = list(self.pass_cycle)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from a dict such as `to_dict` makes; unknown keys are an error."""
        if not isinstance(data, dict):
            raise ValueError("Rules must be given as an object of fields.")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"Unknown rule {unknown[0]!r}.")
        values = dict(data)
        _check_types(values)
        if "pass_cycle" in values:
            cycle = values["pass_cycle"]
            values["pass_cycle"] = UsualCycle() if cycle is None else tuple(cycle)
        return cls(**values)


_BOOL_FIELDS = {f.name for f in dataclasses.fields(Rules) if f.type in ("bool", bool)}
_INT_FIELDS = {"players", "pass_count", "target_score"}
_STR_FIELDS = {"moon_rule", "tie_rule", "first_lead"}


def _check_types(values: dict[str, Any]) -> None:
    for name, value in values.items():
        if name in _BOOL_FIELDS and not isinstance(value, bool):
            raise ValueError(f"The rule {name!r} is on or off (true or false).")
        if name in _INT_FIELDS and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"The rule {name!r} must be a whole number.")
        if name in _STR_FIELDS and not isinstance(value, str):
            raise ValueError(f"The rule {name!r} must be a word.")
    reset = values.get("exactly_target_resets_to")
    if reset is not None and (isinstance(reset, bool) or not isinstance(reset, int)):
        raise ValueError("The rule 'exactly_target_resets_to' must be a whole number or null.")
    cycle = values.get("pass_cycle", ())
    if cycle is not None and (
        not isinstance(cycle, tuple | list) or not all(isinstance(d, str) for d in cycle)
    ):
        raise ValueError("The pass cycle is a list of directions such as left and right.")


def _removed_cards(players: int) -> tuple[str, ...]:
    if players <= 5:
        return REMOVED_CARDS[players]
    # Two decks, 104 cards: one two of clubs always goes, so that a single 2C leads; then
    # the fewest further cards for an even deal, lowest non-point faces first and both copies
    # of a face together (so the rest of the deck stays in pairs as far as it can). Eight
    # players are the costly case: 104 deals evenly, but 103 does not, so 96 stay.
    extra = next(r for r in range(1, players + 1) if (2 * DECK_SIZE - r) % players == 0)
    order = ("2C", "2D", "2D", "3C", "3C", "3D", "3D", "4C", "4C", "4D")
    return order[:extra]


PRESETS: Final[dict[str, dict[str, Any]]] = {
    "standard": {},
    "short": {"target_score": 50},
    "casual": {"points_on_first_trick": True, "queen_breaks_hearts": True},
    "strict": {"lead_hearts_instead_of_queen": False, "queen_at_first_chance": True},
    "omnibus": {"bonus_card": "JD"},
    "moon-subtract": {"moon_rule": "subtract"},
    "no-hold": {"pass_cycle": NO_HOLD_CYCLE},
    "scatter": {"pass_cycle": SCATTER_CYCLE},
}


#: The most cards anyone passes at any table: the largest hand (three players), less one.
MAX_PASS_COUNT: Final = (
    max(Rules(players=n).hand_size for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)) - 1
)
