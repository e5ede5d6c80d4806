"""The engine's events as the browser game reads them, for one seat.

The engine says what happened (`hearts.events`) and what a seat may see of it
(`hearts.for_seat`); this module only writes that as the JSON the game's pages animate.

>>> from hearts import Game, Pass, Rules
>>> game = Game(Rules(), seed=2)
>>> events = []
>>> for seat in range(game.rules.players):
...     events += game.apply(Pass(seat, game.round.hand(seat)[:3]))
>>> [e["type"] for e in for_browser(events, seat=2)][-2:]
['pass', 'exchange']
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from .. import Game
from .. import events as ev
from ..events import Event, for_seat

#: The most events one answer carries: a round's worth at the largest table, with room.
#: A longer run (never made by one request) is cut to its last events; the state sent with
#: them is always whole, so a browser loses only animation.
MAX_EVENTS = 600


Journal = list[tuple[int, list[Event]]]
"""Events by move: (the move count after a move, the events that move made)."""


def journal(game: Game, events: Iterable[Event]) -> Journal:
    """Group events by the move that made them, as a driver applies moves to `game`: each
    event is yielded after its move is applied, so the game's move count then is its move's.

    >>> from hearts import Pass, Rules
    >>> game = Game(Rules(), seed=2)
    >>> moves = (Pass(seat, game.round.hand(seat)[:3]) for seat in range(4))
    >>> [(n, len(events)) for n, events in journal(game, (e for m in moves for e in game.apply(m)))]
    [(1, 1), (2, 1), (3, 1), (4, 6)]
    """
    grouped: Journal = []
    for event in events:
        moves = len(game.moves)
        if grouped and grouped[-1][0] == moves:
            grouped[-1][1].append(event)
        else:
            grouped.append((moves, [event]))
    return grouped


def for_browser(events: Iterable[Event], seat: int) -> list[dict[str, Any]]:
    """What `seat` may see of `events`, as the browser game's JSON (last MAX_EVENTS)."""
    shown = [data for event in for_seat(events, seat) if (data := _json(event)) is not None]
    return shown[-MAX_EVENTS:]


def journal_for_browser(
    entries: Journal, seat: int, stand_ins: Collection[int] = ()
) -> list[dict[str, Any]]:
    """What `seat` may see of a journal's events, each marked with its move count `n` (so a
    browser shown the same move twice, by its own answer and by its stream, shows it once).
    The card or pass of a move numbered in `stand_ins` (0-based, as `LoadedGame.stand_ins`
    counts them) is marked `"stand_in": true`: a computer player made it for a person whose
    time ran out or who was away, and every page says so instead of "Bea played…" as if she
    had chosen it (and the person's own page does not take it for a round playing itself).

    >>> from hearts import Pass, Play, Rules
    >>> game = Game(Rules(players=3), seed=2)
    >>> for seat in range(game.rules.players):
    ...     _ = game.apply(Pass(seat, game.round.hand(seat)[:3]))
    >>> seat = game.round.turn
    >>> entries = [(len(game.moves) + 1, game.apply(Play(seat, game.round.legal_cards()[0])))]
    >>> [(e["type"], e.get("stand_in")) for e in journal_for_browser(entries, 0, {3})]
    [('play', True)]
    >>> [(e["type"], e.get("stand_in")) for e in journal_for_browser(entries, 0)]
    [('play', None)]
    """
    shown = []
    for moves, events in entries:
        made_for = moves - 1 in stand_ins  # the move that made these events, counted from 0
        for event in for_seat(events, seat):
            data = _json(event)
            if data is None:
                continue
            if made_for and data["type"] in ("play", "pass"):
                data["stand_in"] = True
            shown.append({**data, "n": moves})
    return shown[-MAX_EVENTS:]


def _cards(cards: Iterable[object]) -> list[str]:
    return [str(card) for card in cards]


def _json(event: Event) -> dict[str, Any] | None:
    if isinstance(event, ev.Played):
        return {"type": "play", "seat": event.seat, "card": str(event.card)}
    if isinstance(event, ev.TrickWon):
        return {
            "type": "trick",
            "winner": event.winner,
            "leader": event.leader,
            "cards": [str(card) for _, card in event.plays],
            "points": event.points,
            "points_taken": list(event.points_taken),
            "cancelled": _cards(event.cancelled),
            "carried": _cards(event.carried),
            "held_over": event.held_over,
        }
    if isinstance(event, ev.Passed):
        data: dict[str, Any] = {"type": "pass", "seat": event.seat}
        if event.cards is not None:
            data["cards"] = _cards(event.cards)
        return data
    if isinstance(event, ev.Received):
        return {
            "type": "exchange",
            "received": _cards(event.cards),
            "count": len(event.cards),
            "from": list(event.givers),
        }
    if isinstance(event, ev.HeartsBroken):
        return {"type": "hearts-broken"}
    if isinstance(event, ev.KittyTaken):
        return {"type": "kitty", "seat": event.seat, "cards": _cards(event.cards)}
    if isinstance(event, ev.MoonAwaitingChoice):
        return {"type": "moon-pending", "seat": event.seat}
    if isinstance(event, ev.MoonChosen):
        return {"type": "moon-choice", "seat": event.seat, "choice": event.choice}
    if isinstance(event, ev.Dealt):
        return {"type": "deal", "hand_number": event.hand_number, "pass": event.pass_direction}
    if isinstance(event, ev.RoundScored):
        return {"type": "round-over", "result": event.result.to_dict()}
    if isinstance(event, ev.GameOver):
        return {"type": "game-over", "winners": list(event.winners)}
    return None  # PlayStarted: the state sent with the events shows who leads
