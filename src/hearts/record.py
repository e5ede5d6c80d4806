"""Game records: a versioned JSON document of the rules, the seed and every action.

A game is its record; loading one replays it, so a record that holds an illegal or corrupt
action is refused with an error naming the first bad one.

>>> from hearts import Game, Rules
>>> game = Game(Rules(), seed=3)
>>> game.give(0, game.round.hand(0)[:3])
>>> text = dumps(game)
>>> again = loads(text)
>>> again.round.given[0] == game.round.given[0], again.actions == game.actions
(True, True)
>>> loads('{"format": "hearts-game", "version": 1, "rules": {}, "seed": 3,'
...       ' "actions": [{"type": "play", "seat": 0, "card": "QS"}]}')
Traceback (most recent call last):
...
hearts.record.RecordError: Action 1 (seat 0 plays QS): Cards are still being passed.
"""

from __future__ import annotations

import json
from typing import Any

from .game import Game
from .round import IllegalMoveError
from .rules import Rules

FORMAT = "hearts-game"
VERSION = 1


class RecordError(ValueError):
    """A saved game that cannot be loaded; the message says what is wrong and where."""


def to_record(game: Game) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        **({"deals": game.deals} if game.deals is not None else {}),
        "actions": [dict(a) for a in game.actions],
    }


def from_record(data: object) -> Game:
    """Rebuild a game from a record; `RecordError` if anything in it is wrong."""
    if not isinstance(data, dict):
        raise RecordError("A game record must be a JSON object.")
    if data.get("format") != FORMAT:
        raise RecordError(f"This is not a hearts game record (format {data.get('format')!r}).")
    version = data.get("version")
    if version != VERSION:
        raise RecordError(f"Record version {version!r} is not supported; this program reads 1.")
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise RecordError("The record's seed must be a number or a string.")
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise RecordError("The record's actions must be a list.")
    try:
        rules = Rules.from_dict(data.get("rules", {}))
    except (ValueError, TypeError) as error:
        raise RecordError(f"The record's rules are invalid: {error}") from None
    deals = data.get("deals")
    if deals is not None and not _is_deal_list(deals):
        raise RecordError("The record's deals must be lists of hands of card names.")
    try:
        return Game.replay(rules, seed, actions, deals=deals)
    except IllegalMoveError as error:
        raise RecordError(str(error)) from None
    except ValueError as error:  # a fixed deal that does not fit the rules
        raise RecordError(f"The record's deals are invalid: {error}") from None


def _is_deal_list(deals: object) -> bool:
    return isinstance(deals, list) and all(
        isinstance(deal, list)
        and all(isinstance(hand, list) and all(isinstance(c, str) for c in hand) for hand in deal)
        for deal in deals
    )


def dumps(game: Game) -> str:
    return json.dumps(to_record(game), separators=(",", ":"))


def loads(text: str | bytes) -> Game:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise RecordError(f"The saved game is not valid JSON: {error}") from None
    return from_record(data)
