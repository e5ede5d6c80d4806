"""What the person sees happen: the events to animate, derived from recorded actions.

Events carry only what seat 0 may know: other seats' passes say who passed, never which
cards; plays, finished tricks and scores are public.

>>> from hearts import Game, Rules
>>> game = Game(Rules(), seed=2)
>>> after = game.copy()
>>> for seat in range(4):
...     after.give(seat, after.round.hand(seat)[:3])
>>> [e["type"] for e in events_between(game, after.actions[len(game.actions):])][-2:]
['pass', 'exchange']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import Game
from ..game import Action

PERSON = 0


def events_between(before: Game, actions: Sequence[Action]) -> list[dict[str, Any]]:
    """Apply `actions` to a copy of `before` and describe each step for the person."""
    game = before.copy()
    events: list[dict[str, Any]] = []
    for action in actions:
        kind = action.get("type")
        tricks_before = len(game.round.tricks)
        kitty_before = game.round.kitty_taker
        broken_before = game.round.hearts_broken
        results_before = len(game.results)
        game.apply(action)
        rnd = game.round
        if kind == "pass":
            seat = action["seat"]
            event: dict[str, Any] = {"type": "pass", "seat": seat}
            if seat == PERSON:
                event["cards"] = list(action["cards"])
            events.append(event)
            if rnd.phase == "playing":
                received = rnd.received[PERSON] or 0
                events.append(
                    {
                        "type": "exchange",
                        "received": [str(c) for c in game.view(PERSON).received or []],
                        "count": received.bit_count(),
                    }
                )
        elif kind == "play":
            events.append({"type": "play", "seat": action["seat"], "card": action["card"]})
            if not broken_before and rnd.hearts_broken:
                events.append({"type": "hearts-broken"})
            if len(rnd.tricks) > tricks_before:
                trick = rnd.tricks[-1]
                events.append(
                    {
                        "type": "trick",
                        "winner": trick.winner,
                        "cards": [str(c) for c in trick.cards],
                        "points_taken": list(rnd.points_taken),
                    }
                )
            if kitty_before is None and rnd.kitty_taker is not None:
                # Everyone sees the kitty once it is taken (the view shows it too).
                kitty = game.view(PERSON).to_dict()["kitty"] or []
                events.append({"type": "kitty", "seat": rnd.kitty_taker, "cards": kitty})
            if game.moon_pending is not None:
                events.append({"type": "moon-pending", "seat": game.moon_pending})
        elif kind == "moon":
            events.append(
                {"type": "moon-choice", "seat": action["seat"], "choice": action["choice"]}
            )
        elif kind == "next":
            events.append(
                {"type": "deal", "hand_number": rnd.hand_number, "pass": rnd.pass_direction}
            )
        if len(game.results) > results_before:
            events.append({"type": "round-over", "result": game.results[-1].to_dict()})
            if game.is_over:
                events.append({"type": "game-over", "winners": game.winners})
    return events
