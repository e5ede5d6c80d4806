"""The coach's routes: a hint on the person's turn (more routes follow: history, records,
statistics). Kept apart from `api.py`, whose routes play the game; these only read it.

Refusals are as everywhere in the API: `{"detail": "one sentence"}`, 404 for an unknown game
or another browser's game (answered alike), 409 for a request at the wrong time.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from ..ai.hint import hint
from .api import REFUSALS, BrowserCookie, Service, refused
from .bots import BUDGETS, decision_seed
from .service import Refusal
from .store import owner_key

router = APIRouter(prefix="/api")

NOT_YOUR_TURN = "It is not your turn, so there is nothing to hint yet."
ROUND_OVER = "The round is over, so there is no card to choose."


def owner(cookie: str | None) -> str:
    # Without a cookie no game can match: a fresh random key never equals a stored owner.
    return owner_key(cookie) if cookie else owner_key(secrets.token_urlsafe(32))


class Hint(BaseModel):
    cards: list[str] = Field(description="The cards the hard player would pass, or its card.")
    reason: str = Field(description="Why, in one sentence, from what its search found.")
    move: int = Field(description="The move number the hint is for.")


@router.get("/games/{game_id}/hint", response_model=Hint, responses=REFUSALS)
async def get_hint(game_id: str, games: Service, cookie: BrowserCookie = None) -> Any:
    """What the hard player would do in your place now, and why."""
    try:
        loaded, seat = await games.loaded(game_id, owner(cookie))
    except Refusal as refusal:
        return refused(refusal)
    game = loaded.game
    phase = game.phase
    if phase in ("round-over", "game-over", "moon-choice"):
        return JSONResponse({"detail": ROUND_OVER}, status_code=409)
    if seat not in game.to_act:
        return JSONResponse({"detail": NOT_YOUR_TURN}, status_code=409)
    names = [player["name"] for player in games.state(loaded, seat, [])["players"]]
    move = len(game.moves)
    seed = decision_seed(loaded.stored.seed, move, seat)
    view = game.view(seat)
    # A search takes a tenth of a second or so: off the event loop.
    advice = await asyncio.to_thread(hint, view, names, seed, BUDGETS.get("hard"))
    return {"cards": [str(card) for card in advice.cards], "reason": advice.reason, "move": move}
