"""This browser's unfinished games, for the start screen: starting a new game never loses
the one in progress, and each can be taken up again."""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from typing import Any

from pydantic import BaseModel, Field

from .. import Rules
from .history import when
from .options import house_rule_names
from .service import GameService, Refusal
from .store import unfinished_games

#: How many tables with others at them (joined, or waiting for friends) the start screen
#: lists beside the browser's own unfinished games, which it lists all of: the few it
#: keeps (`Settings.unfinished_per_browser`). A fixed five hid a browser's own game once
#: it sat at a table of friends too, or kept more than five.
WITH_OTHERS_LISTED = 5
DAMAGED_LINE: dict[str, Any] = {
    "round": None,
    "phase": None,
    "target": None,
    "names": [],
    "scores": [],
    "levels": [],
    "house_rules": [],
    "friends": False,
    "damaged": True,
}


class GameSummary(BaseModel):
    id: str
    round: int | None = Field(description="The round being played, counted from 1.")
    phase: str | None
    target: int | None = Field(description="The score that ends the game.")
    names: list[str]
    scores: list[int]
    levels: list[str | None] = Field(
        default_factory=list,
        description="Each seat's computer player's level, seat by seat; null for a person.",
    )
    house_rules: list[str] = Field(
        default_factory=list,
        description="The house rules played, by their names on the start screen and the "
        "choice made ('Partners', 'Shooting the moon: the shooter chooses'); the game's length "
        "is `target`.",
    )
    friends: bool = Field(description="Whether other people play at this table.")
    started: bool = Field(
        default=True,
        description="Whether the game has begun; a table of friends waits for them until then.",
    )
    open_seats: list[int] = Field(
        default_factory=list,
        description="The seats still waiting for a friend (their names are no player's).",
    )
    played: str = Field(
        description="When a card was last played or the game was changed (ISO 8601, UTC)."
    )
    damaged: bool = Field(
        default=False,
        description="The game's record is damaged and cannot be read (the rest is null, or "
        "empty): it cannot be continued.",
    )
    closes: bool = Field(
        default=False,
        description="Starting a new game closes (removes) this one: the browser keeps a few "
        "unfinished games of its own, and this is the one untouched longest. A table with a "
        "seat for anyone else is never closed so.",
    )


async def summaries(
    games: GameService, owner: str, kept: int, closing: Collection[str] = ()
) -> list[dict[str, Any]]:
    """A line for each unfinished game (`kept` of the browser's own at most, and a few
    tables with others); a game whose record cannot be read says so. The games in
    `closing` are those a new game would close (`Quotas.closed_by_next`)."""
    limit = kept + WITH_OTHERS_LISTED
    listed = await asyncio.to_thread(unfinished_games, games.store, owner, limit)
    found: list[dict[str, Any]] = []
    for game_id, played in listed:
        closes = game_id in closing
        try:
            # Only read: a person who left a table of friends is still away from it.
            state = await games.state_of(game_id, owner, present=False)
        except Refusal as refusal:
            if refusal.status == 500:  # damaged, not gone: it went from the list unsaid
                line = {"id": game_id, "played": when(played), "closes": closes}
                found.append(DAMAGED_LINE | line)
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
                # What else tells two games apart at a glance: who plays at what level, and
                # which house rules (three new games read alike but for their times).
                "levels": [None if p["person"] else p["level"] for p in state["players"]],
                "house_rules": house_rule_names(Rules.from_dict(view["rules"])),
                "friends": state["table"]["friends"],
                "started": state["table"]["started"],
                "open_seats": state["table"]["open_seats"],
                "played": when(played),
                "closes": closes,
            }
        )
    return found
