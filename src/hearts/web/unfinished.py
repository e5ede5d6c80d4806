"""This browser's unfinished games, for the start screen: starting a new game never loses
the one in progress, and each can be taken up again."""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import BaseModel, Field

from .service import GameService, Refusal
from .store import unfinished_games

#: How many unfinished games the start screen lists.
LISTED = 5


class GameSummary(BaseModel):
    id: str
    round: int = Field(description="The round being played, counted from 1.")
    phase: str
    target: int = Field(description="The score that ends the game.")
    names: list[str]
    scores: list[int]
    friends: bool = Field(description="Whether other people play at this table.")


async def summaries(games: GameService, owner: str) -> list[dict[str, Any]]:
    """A line for each unfinished game; a game that cannot be loaded is left out."""
    ids = await asyncio.to_thread(unfinished_games, games.store, owner, LISTED)
    found = []
    for game_id in ids:
        try:
            # Only read: a person who left a table of friends is still away from it.
            state = await games.state_of(game_id, owner, present=False)
        except Refusal:
            continue
        view = state["view"]
        found.append(
            {
                "id": game_id,
                "round": view["hand_number"] + 1,
                "phase": state["phase"],
                "target": view["rules"]["target_score"],
                "names": [player["name"] for player in state["players"]],
                "scores": state["scores"],
                "friends": state["table"]["friends"],
            }
        )
    return found
