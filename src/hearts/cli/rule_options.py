"""`--rule NAME=VALUE`, as `hearts play`, `hearts sim` and `hearts sheets` read it.

>>> rule_changes(["target_score=50", "moon_rule=choose", "pass_cycle=left,right,keep"])
{'target_score': 50, 'moon_rule': 'choose', 'pass_cycle': ['left', 'right', 'hold']}
>>> rule_changes(["bogus=1"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: Unknown rule 'bogus'; the rules are players, pass_count, pass_cycle, ...
>>> rule_changes(["target_score=100000000000"])
Traceback (most recent call last):
...
ValueError: The target score must be a whole number from 1 to 1000.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
from typing import Any

from ..rules import MAX_PLAYERS, MAX_TARGET, MIN_PLAYERS, MIN_TARGET, PRESETS, Rules
from ..web.options import house_rule_names
from ..words import listed
from .parser import typed

RULE_HELP = (
    f"change one house rule, like target_score=50 ({MIN_TARGET} to {MAX_TARGET}), "
    "moon_rule=choose or pass_cycle=left,right (repeatable; a wrong name lists them all)"
)


def add_rule_option(parser: argparse.ArgumentParser) -> None:
    """`--rule NAME=VALUE`, repeatable, as every command that takes a game's rules reads it."""
    parser.add_argument(
        "--rule", type=typed, action="append", default=[], metavar="NAME=VALUE", help=RULE_HELP
    )


SEATS_HELP = f"seats at the table, {MIN_PLAYERS} to {MAX_PLAYERS} ({Rules().players})"


def rules_line(rules: Rules) -> str:
    """The rules in force, in a line, by the names the browser game's start screen gives them.

    >>> rules_line(Rules())
    'The usual rules, with no house rule; the game ends when someone reaches 100.'
    >>> rules_line(Rules.preset("casual", target_score=50))
    'House rules: points on the first trick; the queen breaks hearts. The game ends when \
someone reaches 50.'
    """
    names = [name[0].lower() + name[1:] for name in house_rule_names(rules)]
    end = f"the game ends when someone reaches {rules.target_score}."
    if not names:
        return f"The usual rules, with no house rule; {end}"
    return f"House rules: {'; '.join(names)}. {end[0].upper()}{end[1:]}"


def _preset_words(name: str) -> str:
    """What a preset changes: "points on the first trick; the queen breaks hearts"."""
    rules = Rules.preset(name)
    changes = [house[0].lower() + house[1:] for house in house_rule_names(rules)]
    if rules.target_score != Rules().target_score:
        changes.append(f"a game to {rules.target_score}")
    return "; ".join(changes) or "no house rule"


PRESETS_HELP = (
    "the house rules to start from, one of the presets listed below, changed further by "
    "--rule (default: standard)"
)
_WIDEST = max(map(len, PRESETS))
#: The presets and what each changes, a line each, under the options (`hearts.cli.parser`
#: keeps an indented line as it is): within a sentence of the help, as it was, the names'
#: own brackets made brackets within brackets, and a line broke in "no-hold".
PRESETS_LIST = "presets:\n" + "\n".join(
    f"  {name:<{_WIDEST}}  {_preset_words(name)}" for name in PRESETS
)
CYCLE_FORM = 'write the pass cycle like pass_cycle=left,right,keep or pass_cycle=["left","right"].'


def rule_changes(items: list[str]) -> dict[str, Any]:
    """Each NAME=VALUE as a change to the rules: VALUE is JSON where it reads as JSON, a word
    otherwise, and a pass cycle may be directions separated by commas."""
    names = [f.name for f in dataclasses.fields(Rules)]
    changes: dict[str, Any] = {}
    for item in items:
        name, equals, text = item.partition("=")
        name = name.strip()
        if not equals or not name:
            raise ValueError(f"{item!r}: write a rule change as NAME=VALUE.")
        if name not in names:
            raise ValueError(f"Unknown rule {name!r}; the rules are {listed(names)}.")
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text
        if name == "pass_cycle":
            value = _cycle(value)
        if name == "target_score":
            check_target(value)
        changes[name] = value
    return changes


def check_target(target: object) -> None:
    """ValueError naming the range unless a whole-number target is one a game may be started
    with (`MAX_TARGET`, as the web game's start screen has it): a game to 10**11 never ends.
    Whatever is not a whole number is left to `Rules`, which says so."""
    if (
        isinstance(target, int)
        and not isinstance(target, bool)
        and not MIN_TARGET <= target <= MAX_TARGET
    ):
        raise ValueError(
            f"The target score must be a whole number from {MIN_TARGET} to {MAX_TARGET}."
        )


def _cycle(value: Any) -> list[str] | None:
    """A pass cycle from "left,right" (or "left right"), a JSON list, or null (the usual)."""
    if value is None:
        return None
    if isinstance(value, str):
        value = [word for word in re.split(r"[,\s]+", value) if word]
    if isinstance(value, list) and all(isinstance(word, str) for word in value):
        # "keep", the word users read for a round with no pass, and "hold", its stored name.
        return ["hold" if word == "keep" else word for word in value]
    raise ValueError(f"{json.dumps(value)} is not a pass cycle; {CYCLE_FORM}")
