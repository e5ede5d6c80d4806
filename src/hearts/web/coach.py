"""The coach's routes: a hint on the person's turn, the review of a finished round, the
browser's finished games (history), a finished game's record, and statistics. Kept apart
from `api.py`, whose routes play the game; these only read it.

Refusals are as everywhere in the API: `{"detail": "one sentence"}`, 404 for an unknown game
or another browser's game (answered alike), 409 for a request at the wrong time.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from .. import Game, Rules
from ..ai.hint import hint
from ..record import to_record
from .api import REFUSALS, BrowserCookie, Service, refused
from .assets import Assets
from .bots import BUDGETS, decision_seed, round_start
from .history import GameFacts, Names, facts_of, history_line, kept, statistics, when
from .metrics import Metrics
from .reviews import Reviews
from .schemas import Empty
from .service import GameService, LoadedGame, Refusal, Table
from .store import FinishedGame, Seating, StoredGame, owner_key

router = APIRouter(prefix="/api")
#: The coach's pages (outside /api).
pages = APIRouter()
STATS_PAGE = Path(__file__).parent / "static" / "game" / "stats.html"
log = logging.getLogger("hearts.web")

NOT_YOUR_TURN = "It is not your turn, so there is nothing to hint yet."
ROUND_OVER = "The round is over, so there is no card to choose."
GAME_OVER = "The game is over, so there is no card to choose."
NO_SUCH_ROUND = "This game has no round {n}: {rounds}."
HINTS_OFF = (
    "The coach's hints were switched off when this table was made: everyone here plays "
    "without them."
)


def no_such_round(game: Game, number: int) -> str:
    """Why round `number` of `game` is not there to see (the review, the replay)."""
    finished = len(game.results)
    if finished == 0:
        rounds = "no round of it is over yet"
    else:
        last = "" if game.is_over else " so far"
        which = "round 1" if finished == 1 else f"rounds 1 to {finished}"
        rounds = f"it has {which}{last}"
    return NO_SUCH_ROUND.format(n=number, rounds=rounds)


def owner(cookie: str | None) -> str:
    # Without a cookie no game can match: a fresh random key never equals a stored owner.
    return owner_key(cookie) if cookie else owner_key(secrets.token_urlsafe(32))


class Hint(BaseModel):
    cards: list[str] = Field(description="The cards the hard player would pass, or its card.")
    reason: str = Field(description="Why, in one sentence, from what its search found.")
    move: int = Field(description="The move number the hint is for.")


class Answers:
    """Searches' answers by key (a hint by game, move and seat):
    asking again (a second tap, a retry, another tab) waits for the same search instead of
    starting one more, and the answer is kept. Bounded: the oldest entries go first."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, int, int], asyncio.Future[dict[str, Any]]] = (
            OrderedDict()
        )

    async def get(
        self, key: tuple[str, int, int], compute: Callable[[], Awaitable[dict[str, Any]]]
    ) -> dict[str, Any]:
        found = self._items.get(key)
        if found is None or (found.done() and found.exception() is not None):
            found = asyncio.ensure_future(compute())
            self._items[key] = found
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        else:
            self._items.move_to_end(key)
        # Shielded: a browser that goes away does not cancel a search another one awaits.
        return await asyncio.shield(found)


def kept_answers(request: Request) -> Answers:
    cache: Answers | None = getattr(request.app.state, "coach_hints", None)
    if cache is None:
        cache = request.app.state.coach_hints = Answers()
    return cache


@router.post("/games/{game_id}/hint", response_model=Hint, responses=REFUSALS)
async def ask_hint(
    game_id: str,
    body: Empty,
    request: Request,
    games: Service,
    cache: Annotated[Answers, Depends(kept_answers)],
    cookie: BrowserCookie = None,
) -> Any:
    """What the hard player would do in your place now, and why. At a table of friends
    the others are told, and the hint is counted (`players[].hints`); a table made with
    hints off refuses it (403). A POST, with an empty JSON object as its body like the
    table's other requests, since asking changes the table: a GET (a link, a prefetch, a
    crawler) must change nothing, and a page on another site cannot send it unasked."""
    try:
        seated = await games.loaded(game_id, owner(cookie))
    except Refusal as refusal:
        return refused(refusal)
    loaded, seat = seated.loaded, seated.seat
    if not loaded.table.hints:
        return JSONResponse({"detail": HINTS_OFF}, status_code=403)
    game = loaded.game
    phase = game.phase
    if phase in ("round-over", "game-over", "moon-choice"):
        over = GAME_OVER if phase == "game-over" else ROUND_OVER
        return JSONResponse({"detail": over}, status_code=409)
    if seat not in game.to_act:
        return JSONResponse({"detail": NOT_YOUR_TURN}, status_code=409)
    names = [p["name"] for p in games.state(loaded, seat, seated.seating, [])["players"]]
    move = len(game.moves)
    # A pass is seeded by its round (as the review seeds it): the same hint however many
    # seats passed before it was asked, and the pass the review weighs a pass against.
    first = round_start(game.moves, move) if phase == "passing" else move
    seed = decision_seed(loaded.stored.seed, first, seat)
    view = game.view(seat)

    async def search() -> dict[str, Any]:
        # A search takes a tenth of a second or so: off the event loop.
        began = time.perf_counter()
        advice = await asyncio.to_thread(hint, view, names, seed, BUDGETS.get("hard"))
        metrics: Metrics = request.app.state.metrics
        metrics.coached("hint", time.perf_counter() - began)
        return {"cards": [str(c) for c in advice.cards], "reason": advice.reason, "move": move}

    # Keyed by the stored actions too: after a take-back a move number comes again with
    # another position (the record up to the actions stored says which one).
    advice = await cache.get((f"{game_id}:{loaded.recorded}", move, seat), search)
    if loaded.table.friends:
        # Counted once per decision (a pass's, whoever passed since): asked again, in a
        # second tab or after a lost answer, it is the same hint.
        await games.hinted(game_id, seat, first)
    return advice


# --- history, records and statistics ---------------------------------------------------------

#: Finished games listed in the history, and summed in the statistics (newest first).
HISTORY_GAMES = 50
STATS_GAMES = 1000
NOT_OVER = (
    "A game's record can be exported once it is over: until then it would show the deals to come."
)


def _names(games: GameService, table: Table, seat: int, seating: Seating) -> Names:
    def names(stored: StoredGame, game: Game) -> list[dict[str, Any]]:
        loaded = LoadedGame(stored, game, table)
        players: list[dict[str, Any]] = games.state(loaded, seat, seating, [])["players"]
        return players

    return names


def _finished(
    games: GameService, owner: str, limit: int, since: float | None = None
) -> tuple[list[GameFacts], list[FinishedGame]]:
    """The browser's finished games, newest first (with `since`, those finished after it);
    and apart, those that cannot be replayed (logged), so that one damaged record never
    hides the others, nor goes without a word."""
    found = []
    damaged = []
    for dates in games.store.finished(owner, limit):
        if since is not None and dates.finished <= since:
            break  # newest first: the rest finished before it too
        facts = kept(dates, owner)
        if facts is None:
            try:
                stored = games.store.load(dates.id)
                seating = games.store.seating(dates.id)
                if stored is None or seating is None:
                    continue
                rules = Rules.from_dict(stored.rules)
                table = Table.from_settings(stored.settings, rules.players)
                seat = table.seat_of(stored, seating, owner)
                if seat is None:
                    continue
                facts = facts_of(stored, dates, seat, _names(games, table, seat, seating), owner)
            except Exception:
                log.exception("finished game %s cannot be summed up", dates.id)
                damaged.append(dates)
                continue
        found.append(facts)
    return found, damaged


@router.get("/history")
async def get_history(games: Service, cookie: BrowserCookie = None) -> Any:
    """This browser's finished games, the most recently finished first: when, the rules, the
    opponents and the result."""
    if not cookie:
        return []
    found, damaged = await asyncio.to_thread(_finished, games, owner_key(cookie), HISTORY_GAMES)
    lines = [(facts.finished, history_line(facts)) for facts in found]
    # A damaged record keeps its place, said as what it is.
    lines += [
        (d.finished, {"id": d.id, "finished": when(d.finished), "damaged": True}) for d in damaged
    ]
    return [line for _, line in sorted(lines, key=lambda pair: -pair[0])]


def _stats(games: GameService, owner: str) -> dict[str, Any]:
    since = games.store.stats_since(owner)
    found, damaged = _finished(games, owner, STATS_GAMES, since)
    return {
        **statistics(found),
        "since": None if since is None else when(since),
        "unreadable": len(damaged),
    }


@router.get("/stats")
async def get_stats(games: Service, cookie: BrowserCookie = None) -> Any:
    """This browser's statistics over its finished games (those finished since it last
    reset them, if it did: `since`)."""
    if not cookie:
        return {**statistics([]), "since": None, "unreadable": 0}
    return await asyncio.to_thread(_stats, games, owner_key(cookie))


#: The only body a statistics reset accepts, so that no stray request (an empty POST, a
#: form) wipes them.
RESET_BODY = {"confirm": True}
RESET_HOW = 'To start the statistics afresh, send {"confirm": true} as JSON.'


#: The body, as the API's description shows it (the route reads it itself, to answer any
#: other body with one sentence).
RESET_SCHEMA = {
    "type": "object",
    "properties": {"confirm": {"const": True, "description": "true: start afresh."}},
    "required": ["confirm"],
    "additionalProperties": False,
}


@router.post(
    "/stats/reset",
    responses=REFUSALS,
    openapi_extra={
        "requestBody": {"required": True, "content": {"application/json": {"schema": RESET_SCHEMA}}}
    },
)
async def reset_stats(request: Request, games: Service, cookie: BrowserCookie = None) -> Any:
    """Start this browser's statistics afresh from now (the body is `{"confirm": true}`).
    Its finished games stay in the history, each with its record; nothing is deleted.
    Answers the statistics as they now stand (none yet), with `since`, the moment of the
    reset."""
    try:
        body = json.loads(await request.body())
    except (ValueError, UnicodeDecodeError, RecursionError):  # nested too deep: refused too
        body = None
    if body != RESET_BODY or body.get("confirm") is not True:
        return JSONResponse({"detail": RESET_HOW}, status_code=422)
    if not cookie:
        # A browser the server does not know has no games: its statistics are empty already.
        return {**statistics([]), "since": None, "unreadable": 0}
    key = owner_key(cookie)
    await asyncio.to_thread(games.store.reset_stats, key, time.time())
    return await asyncio.to_thread(_stats, games, key)


@router.get("/games/{game_id}/record", responses=REFUSALS)
async def get_record(game_id: str, games: Service, cookie: BrowserCookie = None) -> Any:
    """A finished game as its JSON record (`hearts replay RECORD.json` shows it)."""
    try:
        seated = await games.loaded(game_id, owner(cookie))
    except Refusal as refusal:
        return refused(refusal)
    loaded = seated.loaded
    if not loaded.game.is_over:
        return JSONResponse({"detail": NOT_OVER}, status_code=409)
    record = to_record(loaded.game)
    if loaded.undos:  # a game with take-backs: its record has them, as stored
        stored = await asyncio.to_thread(games.store.load, game_id)
        if stored is not None:
            record = to_record(loaded.game, stored.actions)
    record["players"] = games.state(loaded, seated.seat, seated.seating, [])["players"]
    headers = {"Content-Disposition": f'attachment; filename="hearts-{game_id}.json"'}
    return JSONResponse(record, headers=headers)


# --- round review --------------------------------------------------------------------------

NOT_FINISHED = "Round {n} is not over yet: it can be reviewed once it is."


def kept_reviews(request: Request) -> Reviews:
    reviews: Reviews = request.app.state.reviews
    return reviews


class Review(BaseModel):
    round: int = Field(description="The round reviewed, counted from 1.")
    decisions: list[dict[str, Any]] = Field(
        description="Each decision of yours: kind, trick, played, preferred, cost, reason, "
        "game_at_stake."
    )
    total_cost: float = Field(description="The decisions' costs added up (points).")
    costliest: list[int] = Field(description="Up to three decisions that cost most, by index.")
    game_end: float | None = Field(
        default=None,
        description="When the round could end the game, the points the costs count a won game "
        "fewer and a lost one more (as the search does); null otherwise.",
    )
    stood_in: int = Field(
        default=0,
        description="Your passes and cards a computer player made for you, when your time ran "
        "out or you were away (not among the decisions reviewed).",
    )


@router.get("/games/{game_id}/review", response_model=Review, responses=REFUSALS)
async def get_review(
    game_id: str,
    games: Service,
    reviews: Annotated[Reviews, Depends(kept_reviews)],
    round: Annotated[int, Query(ge=1, le=10_000, description="The round, counted from 1.")],
    cookie: BrowserCookie = None,
) -> Any:
    """Your decisions in a finished round, each against the hard player's preference after
    a deeper search, with what it cost. Worked out in the background as you play, so it is
    usually ready when the round ends; a decision not ready yet is waited for."""
    try:
        seated = await games.loaded(game_id, owner(cookie))
    except Refusal as refusal:
        return refused(refusal)
    loaded, seat = seated.loaded, seated.seat
    finished = len(loaded.game.results)
    if round == finished + 1 and not loaded.game.is_over:
        return JSONResponse({"detail": NOT_FINISHED.format(n=round)}, status_code=409)
    if round > finished:  # a round the game never had (nor will)
        return JSONResponse({"detail": no_such_round(loaded.game, round)}, status_code=404)
    names = [p["name"] for p in games.state(loaded, seat, seated.seating, [])["players"]]
    game = loaded.game
    moves = list(game.moves)
    return await reviews.round_review(
        game_id, game.rules, loaded.stored.seed, moves, seat, names, round - 1, loaded.stand_ins
    )


@pages.api_route("/stats", methods=["GET", "HEAD"], include_in_schema=False)
def stats_page(request: Request) -> Response:
    assets: Assets = request.app.state.assets
    return assets.page(STATS_PAGE.name, request)
