"""Request and response models of the JSON API (what /docs shows)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

Level = Literal["easy", "medium", "hard", "expert"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewGame(Strict):
    levels: list[Level] = Field(
        default=["easy"],
        min_length=1,
        max_length=9,
        description=(
            "How sharp each computer player is, one per seat clockwise from your left "
            "(players - 1 of them), or a single level for all."
        ),
    )
    rules: dict[str, Any] = Field(
        default_factory=dict, description="Changes from the standard rules, by field name."
    )


class Move(Strict):
    move: StrictInt = Field(ge=0, description="The number of actions taken so far.")


class PlayCard(Move):
    card: StrictStr = Field(description='The card to play, like "QS".', max_length=8)


class PassCards(Move):
    cards: list[StrictStr] = Field(max_length=13, description='The cards to pass, like ["QS"].')


class MoonChoice(Move):
    choice: Literal["add", "subtract"] = Field(
        description='"add": 26 to everyone else; "subtract": 26 off your own total.'
    )


class Player(BaseModel):
    seat: int
    name: str
    level: str | None


class GameState(BaseModel):
    id: str
    move: int = Field(description="Actions taken so far: send it with the next move.")
    phase: str = Field(description="passing, playing, moon-choice, round-over or game-over.")
    view: dict[str, Any] = Field(description="What the caller's seat may know.")
    reasons: dict[str, str] = Field(description="Why each held card cannot be played now.")
    events: list[dict[str, Any]] = Field(description="What happened since the move sent.")
    results: list[dict[str, Any]] = Field(
        description="Each finished round; in a game dealt from keys, with its deal_key."
    )
    commitment: str | None = Field(
        default=None,
        description="While a round is played: the SHA-256 (hex) of the key it was dealt from.",
    )
    scores: list[int]
    winners: list[int]
    moon_pending: int | None
    players: list[Player]


class Current(BaseModel):
    id: str | None = Field(description="The browser's game in progress, if any.")


class Problem(BaseModel):
    detail: str
    state: GameState | None = Field(
        default=None, description="With a conflict (409): the game as it now stands."
    )
