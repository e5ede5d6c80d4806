"""House rules offered on the start screen: every `Rules` field with one line of explanation.

The web game seats 3 to 10 (the person and computer players). `table_sizes` describes each
size from `Rules(players=N)` itself (cards left out, the opening card, decks, hand size) and
lists the house-rule choices the engine accepts at that size, with the rules and presets
worded in its numbers (`rule_options`, `presets`: a moon of 52 with two decks), so nothing
here is written per size. `rules_from_choices` turns what the browser sent into `Rules`,
refusing bad input with one sentence (the engine's own, for a rule that makes no sense at the
chosen table).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Final

from .. import Rules
from ..cards import parse_card
from ..rules import MAX_PLAYERS, MAX_TARGET, MIN_PLAYERS, MIN_TARGET, SCATTER_CYCLE
from ..scoring import BONUS_CARD_POINTS


def _queens(rules: Rules) -> tuple[str, str]:
    """The queen of spades in words for this table: every copy, and any one copy."""
    if rules.decks == 1:
        return "the queen of spades", "the queen of spades"
    every = "both" if rules.decks == 2 else "all the"
    return f"{every} queens of spades", "a queen of spades"


def rule_options(rules: Rules) -> tuple[dict[str, Any], ...]:
    """One entry per `Rules` field: its label, one line of explanation and the choices
    offered, in the numbers and cards of the table `rules` describes (a moon is 26 with one
    deck, 52 with two; with three cut from the deal the three of clubs leads).

    >>> moon = next(o for o in rule_options(Rules(players=8)) if o["field"] == "moon_rule")
    >>> moon["help"], moon["choices"][0]["label"]
    ('What happens when one player takes every heart and both queens of spades.', \
'Everyone else gets 52')
    """
    moon = rules.round_points
    every_queen, a_queen = _queens(rules)
    opening = parse_card(rules.opening_card).name
    bonus = (
        f"Whoever wins this card takes {BONUS_CARD_POINTS} points off their score"
        if rules.decks == 1
        else f"Each copy of this card takes {BONUS_CARD_POINTS} points off its winner's score"
    )
    return (
        {
            "field": "target_score",
            "label": "Game length",
            "help": "The game ends when someone reaches this score; the lowest total wins.",
            "kind": "number",
        },
        {
            "field": "pass_cycle",
            "label": "Passing",
            "help": _cycle_help(rules),
            "kind": "choice",
            "choices": [
                {
                    "value": ["left", "right", "across", "hold"],
                    "label": "Left, right, across, keep",
                },
                {"value": ["left", "right", "across"], "label": "Left, right, across (no keep)"},
                {"value": ["left", "right", "hold"], "label": "Left, right, keep"},
                {
                    "value": ["left", "right", "across", "scatter"],
                    "label": _scatter_label(rules),
                },
                {"value": ["hold"], "label": "Never pass"},
            ],
        },
        {
            "field": "pass_count",
            "label": "Cards passed",
            "help": "How many cards each player passes (one to each player on a scatter round).",
            "kind": "choice",
            "choices": [{"value": n, "label": str(n)} for n in (1, 2, 3, 4)],
        },
        {
            "field": "points_on_first_trick",
            "label": "Points on the first trick",
            "help": f"Allow hearts and {every_queen} on the opening trick.",
            "kind": "toggle",
        },
        {
            "field": "must_break_hearts",
            "label": "Hearts must be broken",
            "help": "Nobody may lead a heart until one has been played (or only hearts are left).",
            "kind": "toggle",
        },
        {
            "field": "queen_breaks_hearts",
            "label": "The queen breaks hearts",
            "help": f"Playing {a_queen} counts as breaking hearts too.",
            "kind": "toggle",
        },
        {
            "field": "lead_hearts_instead_of_queen",
            "label": "Heart lead instead of the queen",
            "help": (
                f"Holding only hearts and {a_queen} before hearts break, you may lead a heart."
            ),
            "kind": "toggle",
        },
        {
            "field": "queen_at_first_chance",
            "label": "Queen at the first chance",
            "help": f"{a_queen.capitalize()} must be played as soon as it can go without "
            "winning: on a suit you lack, or under the king or ace of spades.",
            "kind": "toggle",
        },
        {
            "field": "bonus_card",
            "label": "Bonus card",
            "help": f"{bonus} (Omnibus Hearts).",
            "kind": "choice",
            "choices": [
                {"value": None, "label": "None"},
                {"value": "JD", "label": "Jack of diamonds"},
                {"value": "TD", "label": "Ten of diamonds"},
            ],
        },
        {
            "field": "moon_rule",
            "label": "Shooting the moon",
            "help": f"What happens when one player takes every heart and {every_queen}.",
            "kind": "choice",
            "choices": [
                {"value": "add", "label": f"Everyone else gets {moon}"},
                {"value": "subtract", "label": f"The shooter loses {moon}"},
                {"value": "choose", "label": "The shooter chooses"},
                {
                    "value": "add-unless-losing",
                    "label": f"Everyone else gets {moon}, unless that hands a rival the game",
                },
            ],
        },
        {
            "field": "shoot_the_sun",
            "label": "Shooting the sun",
            "help": f"Taking every trick of a round counts double a moon: {2 * moon} points.",
            "kind": "toggle",
        },
        {
            "field": "exactly_target_resets_to",
            "label": "Landing on the target",
            "help": "A total of exactly the target drops back instead of ending the game.",
            "kind": "choice",
            "choices": [
                {"value": None, "label": "No reset"},
                {"value": 50, "label": "Drop to 50"},
                {"value": 0, "label": "Drop to 0"},
            ],
        },
        {
            "field": "tie_rule",
            "label": "A tie for the lowest",
            "help": "Whether tied lowest totals share the win or more rounds decide it.",
            "kind": "choice",
            "choices": [
                {"value": "share", "label": "Share the win"},
                {"value": "play-on", "label": "Play on until one is lowest"},
            ],
        },
        {
            "field": "first_lead",
            "label": "First lead",
            "help": f"Who opens each round: the {opening}, or the dealer's left with any card.",
            "kind": "choice",
            "choices": [
                {"value": "two-of-clubs", "label": f"The {opening}"},
                {"value": "dealer-left", "label": "Dealer's left, any card"},
            ],
        },
        {
            "field": "kitty",
            "label": "Kitty",
            "help": _kitty_help(rules.players),
            "kind": "toggle",
        },
        {
            "field": "partnership",
            "label": "Partners",
            "help": "You and the player across score as a team against the other two.",
            "kind": "toggle",
        },
        {
            "field": "partners_pass",
            "label": "Pass to your partner",
            "help": "With partners, every pass goes across to your partner.",
            "kind": "toggle",
        },
        {
            "field": "players",
            "label": "Players",
            "help": (
                f"How many sit at the table: you and {MIN_PLAYERS - 1} to {MAX_PLAYERS - 1} "
                "computer players."
            ),
            "kind": "table",
        },
    )


def presets(rules: Rules) -> tuple[dict[str, Any], ...]:
    """Named sets of rules for the start screen, each a change from the standard game, in
    the numbers of the table `rules` describes."""
    moon = rules.round_points
    jack = "The jack of diamonds takes" if rules.decks == 1 else "Each jack of diamonds takes"
    _, a_queen = _queens(rules)
    return (
        {
            "name": "standard",
            "label": "Standard",
            "help": "The usual rules, with no house rule.",
            "rules": {},
        },
        {
            "name": "casual",
            "label": "Relaxed",
            "help": f"Points allowed on the first trick; {a_queen} breaks hearts.",
            "rules": {"points_on_first_trick": True, "queen_breaks_hearts": True},
        },
        {
            "name": "omnibus",
            "label": "Omnibus",
            "help": f"{jack} {BONUS_CARD_POINTS} points off.",
            "rules": {"bonus_card": "JD"},
        },
        {
            "name": "moon-choice",
            "label": "Moon choice",
            "help": f"The shooter picks: {moon} to the others or {moon} off their own total.",
            "rules": {"moon_rule": "choose"},
        },
    )


def house_rules(rules: Rules) -> list[str]:
    """The rules that differ from the standard ones at this table size, by field name."""
    plain = Rules(players=rules.players).to_dict()
    mine = rules.to_dict()
    return sorted(key for key, value in mine.items() if plain.get(key) != value)


def house_rule_names(rules: Rules) -> list[str]:
    """The house rules of a game by their names, its length aside (said on its own): a rule
    turned on by the start screen's name for it, and a rule of several choices by the one
    chosen as well, in the table's own numbers, since "Shooting the moon" alone says nothing
    (every game has moons). A standard rule turned off says so.

    >>> house_rule_names(Rules(target_score=50, partnership=True, players=4))
    ['Partners']
    >>> house_rule_names(Rules(moon_rule="choose", bonus_card="JD"))
    ['Bonus card: jack of diamonds', 'Shooting the moon: the shooter chooses']
    >>> house_rule_names(Rules(players=8, moon_rule="subtract", must_break_hearts=False))
    ['Hearts must be broken: off', 'Shooting the moon: the shooter loses 52']
    >>> house_rule_names(Rules(pass_count=5, pass_cycle=("left", "right")))
    ['Passing: left, right', 'Cards passed: 5']
    """
    chosen = rules.to_dict()
    changed = set(house_rules(rules)) - {"target_score"}
    names = []
    for option in rule_options(rules):  # in the start screen's order
        field = option["field"]
        if field not in changed:
            continue
        label = option["label"]
        value = chosen[field]
        if option["kind"] == "toggle":
            names.append(label if value else f"{label}: off")
            continue
        # A choice the start screen does not offer (a pass cycle of the engine's own, five
        # cards passed) is said as the value it is: the rule alone ("Cards passed") hid it.
        said = next((c["label"] for c in option.get("choices", ()) if c["value"] == value), None)
        if said is None:
            said = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        names.append(f"{label}: {said[0].lower()}{said[1:]}")
    return names


def _scatter_cards(rules: Rules) -> Rules | None:
    """The table with a scatter round in its cycle, or None where it has none."""
    try:
        return dataclasses.replace(rules, pass_cycle=SCATTER_CYCLE)
    except ValueError:  # nobody across, or too few cards: not offered at this table
        return None


def _scatter_label(rules: Rules) -> str:
    """The scatter cycle's name, with the cards a scatter round takes at this table.

    >>> _scatter_label(Rules(players=10))
    'Left, right, across, one card to each (9 cards)'
    """
    scatter = _scatter_cards(rules)
    label = "Left, right, across, one card to each"
    return f"{label} ({scatter.cards_to_pass('scatter')} cards)" if scatter else label


def _cycle_help(rules: Rules) -> str:
    """The passing choice's line, with what a scatter round asks of a hand at this table
    when it has one (at ten seats, 9 of the 10 cards held).

    >>> _cycle_help(Rules(players=10)).split(". ")[1]
    'On a round of one card to each, you pass 9 of your 10 cards to 9 others.'
    >>> _cycle_help(Rules(players=5))
    'Which way the passed cards go, round by round, before the cycle repeats.'
    """
    line = "Which way the passed cards go, round by round, before the cycle repeats."
    scatter = _scatter_cards(rules)
    if scatter is None:
        return line
    n = scatter.cards_to_pass("scatter")
    return (
        f"{line} On a round of one card to each, you pass {n} of your {scatter.hand_size} "
        f"cards to {n} others."
    )


#: Every `Rules` field as the standard table words it (each table size has its own wording).
def _kitty_help(players: int) -> str:
    """The kitty in this table's numbers (its own words, not the table's line: a newcomer
    read "With the kitty house rule: …" there as a kitty in play).

    >>> _kitty_help(4)
    '4 cards lie face down in a kitty (everyone holds 12, and no card is left out); the \
first to take a point card takes them too.'
    >>> _kitty_help(8)
    'Spare cards lie face down; the first to take a point card takes them too.'
    """
    try:
        with_kitty = Rules(players=players, kitty=True)
    except ValueError:  # two decks: no kitty at this table (the toggle is not offered)
        return "Spare cards lie face down; the first to take a point card takes them too."
    size = with_kitty.kitty_size
    cards = "One card lies" if size == 1 else f"{size} cards lie"
    return (
        f"{cards} face down in a kitty (everyone holds {with_kitty.hand_size}, and no card "
        f"is left out); the first to take a point card takes {'it' if size == 1 else 'them'} "
        "too."
    )


RULE_OPTIONS: Final = rule_options(Rules())
#: The presets as the standard table words them.
PRESETS: Final = presets(Rules())

#: The longest list any rule takes (a pass cycle of 16 rounds is more than any table uses).
MAX_LIST: Final = 16
#: The longest text any rule takes ("add-unless-losing" is 17).
MAX_TEXT: Final = 40


def rules_from_choices(choices: dict[str, Any]) -> Rules:
    """The table's rules from the browser's choices; ValueError with one sentence if wrong.

    >>> rules_from_choices({"target_score": 50}).target_score
    50
    >>> rules_from_choices({"players": 5}).opening_card
    '3C'
    >>> rules_from_choices({"players": 5, "partnership": True})
    Traceback (most recent call last):
    ...
    ValueError: Partnership Hearts is played by four players, two teams of two.
    >>> rules_from_choices({"pass_cycle": 5})
    Traceback (most recent call last):
    ...
    ValueError: The pass cycle is a list of directions such as left and right.
    """
    known = rule_fields()
    for field, value in choices.items():
        if field not in known:
            raise ValueError(f"Unknown rule {str(field)[:MAX_TEXT]!r}.")
        _check_size(field, value)
    cycle = choices.get("pass_cycle")
    if cycle is not None and not isinstance(cycle, list):
        raise ValueError("The pass cycle is a list of directions such as left and right.")
    target = choices.get("target_score", 100)
    if isinstance(target, int) and not isinstance(target, bool) and target > MAX_TARGET:
        raise ValueError(f"Choose a game length of at most {MAX_TARGET} points.")
    return Rules.from_dict(dict(choices))


def rule_fields() -> list[str]:
    return [f.name for f in dataclasses.fields(Rules)]


def _refusal(players: int, chosen: dict[str, Any]) -> str | None:
    """The engine's sentence refusing these rules at this table, or None when it takes them."""
    try:
        Rules.from_dict({"players": players, **chosen})
    except (ValueError, TypeError) as refused:
        return str(refused)
    return None


def _settings() -> list[tuple[str, Any]]:
    """Every (field, value) the start screen can set: toggles both ways, each choice."""
    found: list[tuple[str, Any]] = []
    for option in RULE_OPTIONS:
        if option["kind"] == "toggle":
            found += [(option["field"], True), (option["field"], False)]
        elif option["kind"] == "choice":
            found += [(option["field"], choice["value"]) for choice in option["choices"]]
    return found


def _accepted(players: int, field: str, value: Any) -> bool:
    """Whether the engine takes `field` at `value` at this table: alone, or with one other
    rule set as the start screen can set it (a pass to your partner, with partners)."""
    if _refusal(players, {field: value}) is None:
        return True
    return any(
        _refusal(players, {other: setting, field: value}) is None
        for other, setting in _settings()
        if other != field
    )


def _lowest_target(players: int, field: str, value: Any) -> int:
    """The lowest game length the engine takes with `field` at `value` (1 for most rules;
    51 for a total of exactly the target dropping to 50). The refusals grow with the target
    (a reset must lie below it), so halving finds the edge."""
    low, high = MIN_TARGET, MAX_TARGET
    if _refusal(players, {field: value, "target_score": low}) is None:
        return low
    if _refusal(players, {field: value, "target_score": high}) is not None:
        return low  # refused at any length: for some other reason
    while low + 1 < high:
        mid = (low + high) // 2
        if _refusal(players, {field: value, "target_score": mid}) is None:
            high = mid
        else:
            low = mid
    return high


def _conflicts(players: int, offered: dict[str, Any]) -> list[dict[str, Any]]:
    """The house rules offered at this table that the engine refuses together, from its own
    refusals, so that the page can say so at the rule before Deal rather than after.

    Each entry says that `field` cannot be `value` while the `when` field is `is` (a rule
    earlier on the list: the page lets the earlier rule be changed freely and marks the
    later one), or, with `when` "target_score", while the game length is below `least`.
    A pair counts only when another value of the earlier rule lets the later one be: a pass
    to your partner is refused without partners, not because of the queen's rules.

    >>> [c["why"] for c in _conflicts(4, table_size(4)["offered"])]
    ['It needs a game length above 50 points.', 'Passing to a partner needs partnership play.']
    """
    order = {option["field"]: i for i, option in enumerate(RULE_OPTIONS)}
    choices = {o["field"]: o.get("choices", []) for o in RULE_OPTIONS}

    def shown(field: str, value: Any) -> bool:
        if isinstance(offered.get(field), bool):
            return bool(offered[field]) or value is False
        return any(
            i in offered.get(field, []) and c["value"] == value
            for i, c in enumerate(choices[field])
        )

    settings = [(f, v) for f, v in _settings() if shown(f, v)]
    found: list[dict[str, Any]] = []
    for field, value in settings:
        least = _lowest_target(players, field, value)
        if least > 1:
            found.append(
                {
                    "field": field,
                    "value": value,
                    "when": "target_score",
                    "least": least,
                    "why": f"It needs a game length above {least - 1} points.",
                }
            )
        for earlier, setting in settings:
            if order[earlier] >= order[field]:
                continue
            why = _refusal(players, {earlier: setting, field: value})
            allowed_by_another = any(
                _refusal(players, {earlier: other, field: value}) is None
                for e, other in settings
                if e == earlier and other != setting
            )
            if why and allowed_by_another:
                found.append(
                    {"field": field, "value": value, "when": earlier, "is": setting, "why": why}
                )
    return found


def _cards_words(cards: Sequence[str]) -> str:
    if not cards:
        return "every card is dealt"
    return "left out: " + " ".join(face_of(card) for card in cards)


def face_of(card: str) -> str:
    """ "2D" as a person reads it: "2♦"."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[card[1]]


def table_size(players: int) -> dict[str, Any]:
    """One table size as the start screen shows it, read off `Rules(players=N)`."""
    rules = Rules(players=players)
    decks = "one deck" if rules.decks == 1 else f"{rules.decks} decks, identical cards cancel"
    # With two decks one copy of the opening card is among those left out: "the other" leads.
    other = "other " if str(rules.opening_card) in map(str, rules.removed_cards) else ""
    line = (
        f"{players} players, {decks}; {rules.hand_size} cards each, "
        f"{_cards_words(rules.removed_cards)}; the {other}{face_of(rules.opening_card)} leads."
    )
    offered: dict[str, Any] = {}
    for option in RULE_OPTIONS:
        field, kind = option["field"], option["kind"]
        if kind == "toggle":
            offered[field] = _accepted(players, field, True)
        elif kind == "choice":
            offered[field] = [
                i
                for i, choice in enumerate(option["choices"])
                if _accepted(players, field, choice["value"])
            ]
    kitty_line = None
    kitty_rules: dict[str, Any] = {}
    if offered.get("kitty"):
        with_kitty = Rules(players=players, kitty=True)
        # The table as it is with the kitty chosen: nothing is left out, so the opening card
        # may lie in the kitty, and the lowest club dealt leads instead.
        opening = face_of(with_kitty.opening_card)
        kitty_line = (
            f"{players} players, {decks}; {with_kitty.hand_size} cards each and "
            f"{with_kitty.kitty_size} face down in the kitty for the first to take a point "
            f"card; every card is dealt; the {opening} leads (the lowest club dealt when the "
            f"{opening} lies in the kitty)."
        )
        kitty_rules = {
            o["field"]: o
            for o, plain in zip(rule_options(with_kitty), RULE_OPTIONS, strict=True)
            if o != plain
        }
    return {
        "players": players,
        "computers": players - 1,
        "decks": rules.decks,
        "hand_size": rules.hand_size,
        "removed_cards": list(rules.removed_cards),
        "opening_card": rules.opening_card,
        "line": line,
        "kitty_line": kitty_line,
        "kitty_rules": kitty_rules,
        "defaults": rules.to_dict(),
        "offered": offered,
        "conflicts": _conflicts(players, offered),
        # The house rules and presets worded in this table's numbers: only those whose words
        # differ from /api/options' own "rules" and "presets" (the standard table's), by
        # field and by name (a two-deck table's moon of 52); the page takes the rest as is.
        "rules": {
            o["field"]: o
            for o, plain in zip(rule_options(rules), RULE_OPTIONS, strict=True)
            if o != plain
        },
        "presets": {
            p["name"]: p for p, plain in zip(presets(rules), PRESETS, strict=True) if p != plain
        },
    }


def table_sizes() -> list[dict[str, Any]]:
    return [table_size(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]


def _check_size(field: str, value: Any) -> None:
    """Refuse a list longer than MAX_LIST or text longer than MAX_TEXT in any rule."""
    if isinstance(value, list):
        if len(value) > MAX_LIST:
            raise ValueError(f"{field} may have at most {MAX_LIST} entries, not {len(value)}.")
        for item in value:
            if isinstance(item, (list, dict)):
                raise ValueError(f"{field} holds a list of plain values.")
            _check_size(field, item)
    elif isinstance(value, dict):
        raise ValueError(f"{field} cannot be an object.")
    elif isinstance(value, str) and len(value) > MAX_TEXT:
        raise ValueError(f"{field} is too long; at most {MAX_TEXT} characters.")
