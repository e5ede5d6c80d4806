"""House rules offered on the start screen: every `Rules` field with one line of explanation.

The web game seats 3 to 10 (the person and computer players). `table_sizes` describes each
size from `Rules(players=N)` itself (cards left out, the opening card, decks, hand size) and
lists the house-rule choices the engine accepts at that size, so nothing here is written per
size. `rules_from_choices` turns what the browser sent into `Rules`, refusing bad input with
one sentence (the engine's own, for a rule that makes no sense at the chosen table).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Final

from .. import Rules
from ..rules import MAX_PLAYERS, MIN_PLAYERS

#: One entry per `Rules` field: its label, a one-line explanation and the choices offered.
RULE_OPTIONS: Final[tuple[dict[str, Any], ...]] = (
    {
        "field": "target_score",
        "label": "Game length",
        "help": "The game ends when someone reaches this score; the lowest total wins.",
        "kind": "number",
    },
    {
        "field": "pass_cycle",
        "label": "Passing",
        "help": "Which way the three cards go, round by round, before the cycle repeats.",
        "kind": "choice",
        "choices": [
            {"value": ["left", "right", "across", "hold"], "label": "Left, right, across, keep"},
            {"value": ["left", "right", "across"], "label": "Left, right, across (no keep)"},
            {"value": ["left", "right", "hold"], "label": "Left, right, keep"},
            {
                "value": ["left", "right", "across", "scatter"],
                "label": "Left, right, across, one card to each",
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
        "help": "Allow hearts and the queen of spades on the opening trick.",
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
        "help": "Playing the queen of spades counts as breaking hearts too.",
        "kind": "toggle",
    },
    {
        "field": "lead_hearts_instead_of_queen",
        "label": "Heart lead instead of the queen",
        "help": "Holding only hearts and the queen before hearts break, you may lead a heart.",
        "kind": "toggle",
    },
    {
        "field": "queen_at_first_chance",
        "label": "Queen at the first chance",
        "help": "The queen of spades must be played as soon as it safely can be.",
        "kind": "toggle",
    },
    {
        "field": "bonus_card",
        "label": "Bonus card",
        "help": "Whoever wins this card takes 10 points off their score (Omnibus Hearts).",
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
        "help": "What happens when one player takes every heart and the queen of spades.",
        "kind": "choice",
        "choices": [
            {"value": "add", "label": "Everyone else gets 26"},
            {"value": "subtract", "label": "The shooter loses 26"},
            {"value": "choose", "label": "The shooter chooses"},
            {"value": "add-unless-losing", "label": "Everyone else gets 26, unless that loses"},
        ],
    },
    {
        "field": "shoot_the_sun",
        "label": "Shooting the sun",
        "help": "Taking every trick of a round counts double a moon: 52 points.",
        "kind": "toggle",
    },
    {
        "field": "exactly_target_resets_to",
        "label": "Landing on the target",
        "help": "A total of exactly the target drops back instead of ending the game.",
        "kind": "choice",
        "choices": [
            {"value": None, "label": "No reset"},
            {"value": 50, "label": "Drop to 50 (when the target is above 50)"},
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
        "help": "Who opens each round: the two of clubs, or the dealer's left with any card.",
        "kind": "choice",
        "choices": [
            {"value": "two-of-clubs", "label": "The two of clubs"},
            {"value": "dealer-left", "label": "Dealer's left, any card"},
        ],
    },
    {
        "field": "kitty",
        "label": "Kitty",
        "help": "Spare cards lie face down; the first to take a point card takes them too.",
        "kind": "toggle",
    },
    {
        "field": "partnership",
        "label": "Partners",
        "help": "You and the player across score as a team against the other two (four players).",
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
        "help": "How many sit at the table: you and 2 to 9 computer players.",
        "kind": "table",
    },
)

#: Named sets of rules for the start screen; each is a change from the standard game.
PRESETS: Final[tuple[dict[str, Any], ...]] = (
    {"name": "standard", "label": "Standard", "help": "The usual game to 100.", "rules": {}},
    {
        "name": "quick",
        "label": "Quick",
        "help": "The usual game, to 50.",
        "rules": {"target_score": 50},
    },
    {
        "name": "casual",
        "label": "Relaxed",
        "help": "Points allowed on the first trick; the queen breaks hearts.",
        "rules": {"points_on_first_trick": True, "queen_breaks_hearts": True},
    },
    {
        "name": "omnibus",
        "label": "Omnibus",
        "help": "The jack of diamonds takes 10 points off.",
        "rules": {"bonus_card": "JD"},
    },
    {
        "name": "moon-choice",
        "label": "Moon choice",
        "help": "The shooter picks: 26 to the others or 26 off their own total.",
        "rules": {"moon_rule": "choose"},
    },
)

MAX_TARGET: Final = 1000
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


#: A rule that only works with another one set (tried together when listing choices).
NEEDS: Final[dict[str, dict[str, Any]]] = {"partners_pass": {"partnership": True}}


def _accepted(players: int, field: str, value: Any) -> bool:
    try:
        Rules.from_dict({"players": players, **NEEDS.get(field, {}), field: value})
    except (ValueError, TypeError):
        return False
    return True


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
    line = (
        f"{players} players, {decks}; {rules.hand_size} cards each, "
        f"{_cards_words(rules.removed_cards)}; the {face_of(rules.opening_card)} leads."
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
    kitty = None
    if offered.get("kitty"):
        with_kitty = Rules(players=players, kitty=True)
        kitty = (
            f"With the kitty house rule: {with_kitty.hand_size} cards each and "
            f"{with_kitty.kitty_size} face down for the first to take a point card."
        )
    return {
        "players": players,
        "computers": players - 1,
        "decks": rules.decks,
        "hand_size": rules.hand_size,
        "removed_cards": list(rules.removed_cards),
        "opening_card": rules.opening_card,
        "line": line,
        "kitty": kitty,
        "defaults": rules.to_dict(),
        "offered": offered,
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
