"""A finished game (or a finished round of a game still played) as frames to step through in
the browser: every hand face up, the pass, then trick by trick to the round's score.

The frames are the engine's events, grouped: the game is replayed from its moves
(`hearts.record.replay`, through `deals.replayed`) and every event the referee reports
(`hearts.events`, every card filled in) goes into the frame it belongs to. The hands are
the dealt hands with the passed, received and played cards moved as the events say; the
points, the winners, the moons and the totals are the engine's own numbers. The browser only
draws what it is given.

    {"rounds": [{"round": 1, "deal_key": ..., "dealt": [[cards] by seat],
                 "passes": [{"seat", "to", "cards", "each"?}], "received": [{"seat", "cards"}],
                 "frames": [{"kind": "deal" | "pass" | "trick" | "scored", "hands",
                             "trick", "taken", "totals", "events"}, ...],
                 "result": {...}}]}
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response

from .. import Game, Rules
from ..cards import Card
from ..events import (
    Dealt,
    Event,
    GameOver,
    KittyTaken,
    Passed,
    Played,
    PlayStarted,
    Received,
    RoundScored,
    TrickWon,
    to_dict,
)
from ..moves import Move
from ..scoring import BONUS_CARD_POINTS, team_of
from .api import REFUSALS, BrowserCookie, Service, refused
from .assets import Assets
from .coach import no_such_round, owner
from .deals import Seed, replayed
from .options import house_rules
from .service import Refusal

#: Events the frames tell in their own fields (the hands, `dealt`, `passes`, `received`,
#: `leader` and the trick), left out of each frame's `events`.
QUIET = (Dealt, Passed, Received, PlayStarted, Played)


@dataclass
class RoundFrames:
    """One round as it is being put together from its events."""

    number: int
    """Counted from 1, as the game shows rounds."""
    dealt: Dealt
    totals: list[int]
    """Every seat's total before this round."""
    hands: list[list[Card]] = field(default_factory=list)
    passes: list[dict[str, Any]] = field(default_factory=list)
    received: list[dict[str, Any]] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)
    taken: list[int] = field(default_factory=list)
    pending: list[Event] = field(default_factory=list)
    """Events since the latest frame, not yet shown in one."""
    trick_hands: list[list[Card]] | None = None
    result: dict[str, Any] | None = None
    kitty: list[str] | None = None
    """The kitty's cards, once taken (a round's replay shows them from its deal)."""

    def frame(self, kind: str, **extra: Any) -> None:
        self.frames.append(
            {
                "kind": kind,
                "hands": [_names(hand) for hand in (self.trick_hands or self.hands)],
                "taken": list(self.taken),
                "totals": list(self.totals),
                "events": [to_dict(e) for e in self.pending if not isinstance(e, QUIET)],
                **extra,
            }
        )
        self.pending = []
        self.trick_hands = None


def _names(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def _take(hand: list[Card], cards: Sequence[Card]) -> None:
    for card in cards:
        hand.remove(card)  # one copy: two decks hold two of each card


def round_frames(rules: Rules, seed: Seed, moves: Sequence[Move]) -> list[dict[str, Any]]:
    """Every round of the game made of `moves`, as frames; a round still being played (or
    waiting for the moon's choice) is left out, since its hands are secret."""
    game = replayed(rules, seed, [])
    events: list[Event] = list(game.start_events())
    for move in moves:
        events += game.apply(move)
    return _group(game, events)


def _group(game: Game, events: Sequence[Event]) -> list[dict[str, Any]]:
    rounds: list[dict[str, Any]] = []
    current: RoundFrames | None = None
    totals = [0] * game.rules.players
    for event in events:
        if isinstance(event, Dealt):
            current = RoundFrames(len(rounds) + 1, event, list(totals))
            current.hands = [list(hand or ()) for hand in event.hands]
            current.taken = [0] * len(current.hands)
            current.pending.append(event)
            current.frame("deal")
            continue
        if current is None:  # pragma: no cover - every game starts with a deal
            raise ValueError("a game's events begin with a deal")
        current.pending.append(event)
        if isinstance(event, Passed) and event.cards is not None:
            _take(current.hands[event.seat], event.cards)
            passed: dict[str, Any] = {
                "seat": event.seat,
                "to": list(event.to),
                "cards": _names(event.cards),
            }
            if len(event.to) > 1:  # a scatter: its cards in the order given, each to its seat
                passed["each"] = [
                    {"card": str(card), "to": to}
                    for card, to in zip(event.cards, event.to, strict=True)
                ]
            current.passes.append(passed)
        elif isinstance(event, Received):
            current.hands[event.seat].extend(event.cards)
            current.received.append({"seat": event.seat, "cards": _names(event.cards)})
        elif isinstance(event, PlayStarted):
            if current.passes:
                current.frame("pass", leader=event.leader)
        elif isinstance(event, Played):
            if current.trick_hands is None:
                # The frame of a trick shows the hands as the trick began.
                current.trick_hands = [list(hand) for hand in current.hands]
            _take(current.hands[event.seat], [event.card])
        elif isinstance(event, TrickWon):
            current.taken = list(event.points_taken) or current.taken
            current.frame("trick", trick=to_dict(event))
        elif isinstance(event, KittyTaken):
            # Reported just after the trick that took it (whose `points_taken` counts it).
            current.frames[-1]["events"].append(to_dict(event))
            current.pending.remove(event)
            current.kitty = _names(event.cards)  # shown from the deal: every card is face up
        elif isinstance(event, RoundScored):
            result = event.result
            current.taken = list(result.points_taken)
            current.totals = totals = list(result.totals)
            current.result = {"round": current.number, **result.to_dict()}
            if game.keyed:
                current.result["deal_key"] = game.deal_key(result.hand_number)
            current.frame("scored", result=current.result)
            rounds.append(_finished(current))
        elif isinstance(event, GameOver):
            rounds[-1]["frames"][-1]["events"].append(to_dict(event))
            current.pending.remove(event)
    return rounds


def _finished(current: RoundFrames) -> dict[str, Any]:
    dealt = current.dealt
    return {
        "round": current.number,
        "hand_number": dealt.hand_number,
        "dealer": dealt.dealer,
        "pass_direction": dealt.pass_direction,
        "kitty_size": dealt.kitty_size,
        "kitty": current.kitty,
        "dealt": [_names(hand or ()) for hand in dealt.hands],
        "passes": current.passes,
        "received": current.received,
        "frames": current.frames,
        "result": current.result,
    }


# --- the routes --------------------------------------------------------------------------

router = APIRouter(prefix="/api")
#: The replay page (outside /api): /replay?game=ID, or &round=N for one round.
pages = APIRouter()
REPLAY_PAGE = Path(__file__).parent / "static" / "game" / "replay.html"

GAME_GOES_ON = (
    "This game is not over yet: it can be replayed whole once it is, and each finished round"
    ' now, from "Replay this round" in the panel at the round\'s end.'
)
ROUND_GOES_ON = "Round {n} is still being played: it can be replayed once it is over."


def _refusal(game: Game, number: int | None) -> tuple[int, str] | None:
    """Why the frames of round `number` (all rounds when None) may not be shown now."""
    finished = len(game.results)
    if number is None:
        return None if game.is_over else (409, GAME_GOES_ON)
    if number <= finished:
        return None
    if not game.is_over and number == finished + 1:
        return 409, ROUND_GOES_ON.format(n=number)
    return 404, no_such_round(game, number)


@router.get("/games/{game_id}/replay", responses=REFUSALS)
async def get_replay(
    game_id: str,
    games: Service,
    round: Annotated[
        int | None, Query(ge=1, le=10_000, description="One finished round, counted from 1.")
    ] = None,
    cookie: BrowserCookie = None,
) -> Any:
    """A finished game (or one finished round of any game of this browser) as frames:
    every hand face up, the pass, every trick with its winner and points, and the score."""
    try:
        seated = await games.loaded(game_id, owner(cookie))
    except Refusal as refusal:
        return refused(refusal)
    loaded = seated.loaded
    game = loaded.game
    refused_round = _refusal(game, round)
    if refused_round is not None:
        status, reason = refused_round
        return JSONResponse({"detail": reason}, status_code=status)
    stored = loaded.stored
    rules = game.rules
    moves = list(game.moves)
    rounds = await asyncio.to_thread(round_frames, rules, stored.seed, moves)
    # Only finished rounds: the one being played (its hands still secret) is never sent.
    rounds = rounds[: len(game.results)]
    if round is not None:
        rounds = [rounds[round - 1]]
    players = games.state(loaded, seated.seat, seated.seating, [])["players"]
    return {
        "id": game_id,
        "seat": seated.seat,
        "players": [{key: p.get(key) for key in ("seat", "name", "level", "you")} for p in players],
        "rules": {
            "players": rules.players,
            "target_score": rules.target_score,
            "house_rules": house_rules(rules),
            "bonus_card": rules.bonus_card,
            "bonus_points": BONUS_CARD_POINTS,
        },
        # The seats that score together (partners), each team once; none without partners.
        "teams": [
            list(team)
            for team in dict.fromkeys(team_of(rules, seat) for seat in range(rules.players))
        ]
        if rules.partnership
        else [],
        "over": game.is_over,
        "winners": list(game.winners) if game.is_over else [],
        "rounds_finished": len(game.results),
        "rounds": rounds,
    }


@pages.api_route("/replay", methods=["GET", "HEAD"], include_in_schema=False)
def replay_page(request: Request) -> Response:
    assets: Assets = request.app.state.assets
    return assets.page(REPLAY_PAGE.name, request)
