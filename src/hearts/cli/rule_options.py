"""`--rule NAME=VALUE`, as `hearts play` and `hearts sim` read it.

>>> rule_changes(["target_score=50", "moon_rule=choose", "pass_cycle=left,right"])
{'target_score': 50, 'moon_rule': 'choose', 'pass_cycle': ['left', 'right']}
>>> rule_changes(["bogus=1"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: Unknown rule 'bogus'; the rules are players, pass_count, pass_cycle, ...
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from ..rules import Rules
from ..words import listed

RULE_HELP = (
    "change one house rule, like target_score=50, moon_rule=choose or pass_cycle=left,right "
    "(repeatable; a wrong name lists them all)"
)
CYCLE_FORM = 'write the pass cycle like pass_cycle=left,right,hold or pass_cycle=["left","right"].'


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
        changes[name] = value
    return changes


def _cycle(value: Any) -> list[str] | None:
    """A pass cycle from "left,right" (or "left right"), a JSON list, or null (the usual)."""
    if value is None:
        return None
    if isinstance(value, str):
        return [word for word in re.split(r"[,\s]+", value) if word]
    if isinstance(value, list) and all(isinstance(word, str) for word in value):
        return value
    raise ValueError(f"{json.dumps(value)} is not a pass cycle; {CYCLE_FORM}")
