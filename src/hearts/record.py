"""Game records: a versioned JSON document of the rules, the seed and every move.

A game is its record; loading one replays it, so a record that holds an illegal or corrupt
move is refused with an error naming the first bad one. This module is the one place where
moves are plain dicts (the saved form); everywhere else they are `hearts.moves` values.

>>> from hearts import Game, Rules
>>> game = Game(Rules(), seed=3)
>>> _ = game.give(0, game.round.hand(0)[:3])
>>> text = dumps(game)
>>> again = loads(text)
>>> again.round.given[0] == game.round.given[0], again.moves == game.moves
(True, True)
>>> loads('{"format": "hearts-game", "version": 1, "rules": {}, "seed": 3,'
...       ' "actions": [{"type": "play", "seat": 0, "card": "QS"}]}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hearts.record.RecordError: Move 1 (seat 0 plays Q♠) breaks the rules; the game would tell ...

A take-back is recorded, never made by deleting: `{"type": "undo", "to": k}` takes the game
back to its first k moves (counted after the earlier take-backs), so a record only grows. The
game is what the actions leave standing once folded (`fold`):

>>> [a["card"] for a in fold([{"type": "play", "seat": 0, "card": c} for c in ("2C", "3C")]
...                          + [undo_action(1), {"type": "play", "seat": 0, "card": "4C"}])]
['2C', '4C']
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .cards import parse_card
from .game import Game
from .moves import ChooseMoon, Move, NextRound, Pass, Play
from .round import IllegalMoveError
from .rules import Rules

FORMAT = "hearts-game"
VERSION = 1

Action = dict[str, Any]
"""A move in its saved form: {"type": "play", "seat": 0, "card": "QS"} and so on."""


class RecordError(ValueError):
    """A saved game that cannot be loaded; the message says what is wrong and where."""


UNDO = "undo"
#: The longest a card's name may be written ("10♥" and " 10h "), so that a damaged record's
#: card of a million letters is not quoted back whole.
LONGEST_CARD = 8


def undo_action(to: int) -> Action:
    """The saved form of a take-back to the game's first `to` moves."""
    return {"type": UNDO, "to": to}


def is_undo(action: object) -> bool:
    return isinstance(action, dict) and action.get("type") == UNDO


def undos(actions: Sequence[object]) -> int:
    """How many take-backs a record holds."""
    return sum(1 for action in actions if is_undo(action))


def folded(actions: Sequence[object]) -> list[tuple[int, object]]:
    """The moves a record's actions leave standing, each with its index among the actions:
    an undo `{"type": "undo", "to": k}` keeps only the first k moves standing before it.
    `IllegalMoveError` names an undo that takes back nothing or more than was made."""
    standing: list[tuple[int, object]] = []
    for index, action in enumerate(actions):
        if not is_undo(action):
            standing.append((index, action))
            continue
        to = action.get("to") if isinstance(action, dict) else None
        if not standing:  # no range of moves to name: "from 0 to -1" says nothing
            raise IllegalMoveError(
                f"Move {index + 1} (undo to {to!r}): there is no move to take back yet."
            )
        if isinstance(to, bool) or not isinstance(to, int) or not 0 <= to < len(standing):
            raise IllegalMoveError(
                f"Move {index + 1} (undo to {to!r}): an undo goes back to a number of moves "
                f"from 0 to {len(standing) - 1}, the moves standing before it less one or more."
            )
        del standing[to:]
    return standing


def fold(actions: Sequence[object]) -> list[object]:
    """The actions of the moves standing once every undo is applied (see `folded`)."""
    return [action for _, action in folded(actions)]


def take_back_point(game: Game, seat: int) -> int | None:
    """How many moves stand once `seat`'s latest pass or card of this round is taken back,
    with every move after it (the browser game's Undo and `hearts play`'s "undo"), or None
    when nothing can be: no pass or card of the seat's in this round, or every trick of the
    round played (a round that is over is scored, and a take-back never crosses into it).

    >>> from hearts import Rules
    >>> game = Game(Rules(), seed=3)
    >>> take_back_point(game, 0) is None
    True
    >>> _ = game.give(1, game.round.hand(1)[:3]), game.give(0, game.round.hand(0)[:3])
    >>> take_back_point(game, 0), take_back_point(game, 1)
    (1, 0)
    """
    if game.phase not in ("passing", "playing"):
        return None
    for number in range(len(game.moves) - 1, -1, -1):
        move = game.moves[number]
        if isinstance(move, NextRound):
            break
        if isinstance(move, Pass | Play) and move.seat == seat:
            return number
    return None


#: The key that marks a saved move a computer player made for a person away from the table.
STAND_IN = "stand_in"


def stood_in(actions: Sequence[object]) -> frozenset[int]:
    """The numbers (from 0) of the standing moves a computer player made for a person
    who was away (saved with `"stand_in": true`); they are not that person's decisions."""
    return frozenset(
        number
        for number, action in enumerate(fold(actions))
        if isinstance(action, dict) and action.get(STAND_IN) is True
    )


def move_to_action(move: Move) -> Action:
    """A move in its saved form.

    >>> move_to_action(Play(1, "qs"))
    {'type': 'play', 'seat': 1, 'card': 'QS'}
    """
    if isinstance(move, Play):
        return {"type": "play", "seat": move.seat, "card": str(move.card)}
    if isinstance(move, Pass):
        return {"type": "pass", "seat": move.seat, "cards": [str(c) for c in move.cards]}
    if isinstance(move, ChooseMoon):
        return {"type": "moon", "seat": move.seat, "choice": move.choice}
    return {"type": "next"}


def action_to_move(action: object) -> Move:
    """A saved move read back; `IllegalMoveError` with a sentence when it is malformed.

    >>> action_to_move({"type": "pass", "seat": 2, "cards": ["2C", "3C", "4C"]})
    Pass(seat=2, cards=(Card('2C'), Card('3C'), Card('4C')))
    >>> action_to_move({"type": "dance"})
    Traceback (most recent call last):
    ...
    hearts.round.IllegalMoveError: 'dance' is not a move; use pass, play, moon or next.
    """
    if not isinstance(action, dict):
        raise IllegalMoveError("A move must be an object with a type.")
    kind = action.get("type")
    if kind == "next":
        return NextRound()
    if kind not in ("pass", "play", "moon"):
        raise IllegalMoveError(f"{kind!r} is not a move; use pass, play, moon or next.")
    seat = action.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise IllegalMoveError(f"A {kind} names the seat that makes it.")
    try:
        if kind == "pass":
            cards = action.get("cards")
            if not isinstance(cards, list):
                raise IllegalMoveError("A pass lists the cards passed.")
            if not all(isinstance(c, str) and len(c) <= LONGEST_CARD for c in cards):
                raise IllegalMoveError('A pass names its cards like "QS".')
            return Pass(seat, cards)
        if kind == "play":
            card = action.get("card")
            if not isinstance(card, str) or len(card) > LONGEST_CARD:
                raise IllegalMoveError('A play names one card, like "QS".')
            return Play(seat, card)
        return ChooseMoon(seat, action.get("choice"))  # type: ignore[arg-type]
    except IllegalMoveError:
        raise
    except ValueError as error:
        raise IllegalMoveError(str(error)) from None


def actions_of(game: Game) -> list[Action]:
    """A game's moves in their saved form."""
    return [move_to_action(m) for m in game.moves]


def to_record(game: Game, actions: Sequence[Action] | None = None) -> dict[str, Any]:
    """A game's record. `actions`: the saved actions with their take-backs, for a game played
    with them (they must fold to the game's moves); by default the game's moves."""
    saved = actions_of(game)
    if actions is not None:
        if fold(actions) != saved:
            raise ValueError("These actions do not fold to the game's moves.")
        saved = list(actions)
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        **({"deals": game.deals} if game.deals is not None else {}),
        **({"first_hand": game.first_hand} if game.first_hand else {}),
        **({"dealing": "keyed"} if game.keyed else {}),
        "actions": saved,
    }


def replay(
    rules: Rules,
    seed: int | str,
    actions: Sequence[object],
    *,
    deals: Sequence[Sequence[Sequence[str]]] | None = None,
    first_hand: int = 0,
    keyed: bool = False,
) -> Game:
    """A game rebuilt from saved moves (take-backs folded: `folded`); `IllegalMoveError`
    names the first bad one by its place among the actions."""
    game = Game(rules, seed, deals=deals, first_hand=first_hand, keyed=keyed)
    for index, action in folded(actions):
        try:
            move = action_to_move(action)
            seat = getattr(move, "seat", None)
            if seat is not None and not 0 <= seat < rules.players:  # before "not your turn"
                raise IllegalMoveError(f"There is no seat {seat} at this table.")
        except IllegalMoveError as error:
            raise IllegalMoveError(f"Move {index + 1}{_describe(action)}: {error}") from None
        try:
            game.apply(move)
        except IllegalMoveError as error:
            # The rules' words are the player's ("You do not hold the Q♠"): said as theirs.
            who = "the player" if seat is None else f"seat {seat}"
            raise IllegalMoveError(
                f"Move {index + 1}{_describe(action)} breaks the rules; the game would tell"
                f" {who}: {error}"
            ) from None
    return game


def _describe(action: object) -> str:
    """A saved move in a few words, read from its dict (it may not be a valid move)."""
    if not isinstance(action, dict):
        return " (not an object)"
    kind = action.get("type")
    seat = _brief(action.get("seat"))
    if kind == "play":
        return f" (seat {seat} plays {_brief(_card_name(action.get('card')))})"
    if kind == "pass":
        cards = action.get("cards")
        if isinstance(cards, list):  # as a person reads cards: "3♣ A♣ 3♦", not "['3C', ...]"
            return f" (seat {seat} passes {_brief(' '.join(map(_card_name, cards[:40])))})"
        return f" (seat {seat} passes {_brief(cards)})"
    return f" ({_brief(kind)})"


def _card_name(text: object) -> str:
    """A saved card as the game names it ("Q♠"); what is no card, as it was written."""
    if not isinstance(text, str):
        return repr(text)
    if len(text) > LONGEST_CARD:  # no card, and too long to read as one
        return text
    try:
        return parse_card(text).symbol
    except ValueError:
        return text


def _brief(value: object, most: int = 40) -> str:
    """A value from a record as a few characters: a damaged one may hold a million."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= most else text[: most - 1] + "…"


#: The keys every record holds, each with why it cannot be done without: read with a default,
#: a record without its rules was replayed as a game of four and refused at the first move
#: that did not fit ("You do not hold the three of clubs").
REQUIRED = {
    "rules": "they say how many played and how points were scored (the standard rules are "
    'written "rules": {}).',
    "seed": "the cards are dealt from it, so the game cannot be dealt again.",
    "actions": 'it lists the moves made (a game with none yet is written "actions": []).',
}


def from_record(data: object) -> Game:
    """Rebuild a game from a record; `RecordError` if anything in it is wrong."""
    if not isinstance(data, dict):
        raise RecordError("A game record must be a JSON object.")
    if data.get("format") != FORMAT:
        found = data.get("format")  # said only when it is one ("format None" read as Python)
        said = f" (its format is {found!r})" if isinstance(found, str) else ""
        raise RecordError(f"This is not a hearts game record{said}.")
    version = data.get("version")
    if isinstance(version, bool) or version != VERSION:  # true == 1 in Python
        raise RecordError(f"Record version {version!r} is not supported; this program reads 1.")
    for key, why in REQUIRED.items():
        if key not in data:
            raise RecordError(f"The record has no {key}: {why}")
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise RecordError("The record's seed must be a number or a string.")
    if isinstance(seed, str) and not is_text(seed):
        raise RecordError("The record's seed holds characters that are not text.")
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise RecordError("The record's actions must be a list.")
    first_hand = data.get("first_hand", 0)
    if isinstance(first_hand, bool) or not isinstance(first_hand, int) or first_hand < 0:
        raise RecordError("The record's first hand must be a whole number.")
    dealing = data.get("dealing", "seeded")
    if dealing not in ("seeded", "keyed"):
        raise RecordError(f"The record's dealing {dealing!r} is not seeded or keyed.")
    try:
        rules = Rules.from_dict(data["rules"])
    except (ValueError, TypeError) as error:
        raise RecordError(f"The record's rules are invalid: {error}") from None
    deals = data.get("deals")
    if deals is not None and not _is_deal_list(deals):
        raise RecordError("The record's deals must be lists of hands of card names.")
    try:
        keyed = dealing == "keyed"
        return replay(rules, seed, actions, deals=deals, first_hand=first_hand, keyed=keyed)
    except IllegalMoveError as error:
        raise RecordError(str(error)) from None
    except ValueError as error:  # a fixed deal that does not fit the rules
        raise RecordError(f"The record's deals are invalid: {error}") from None


def is_text(text: str) -> bool:
    """Whether `text` can be written as UTF-8 (JSON lets a lone surrogate through)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


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
    except (ValueError, RecursionError):  # an integer of thousands of digits, deep nesting
        raise RecordError("The saved game is JSON too large to read.") from None
    return from_record(data)
