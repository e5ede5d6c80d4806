"""Request and response models of the JSON API (what /docs shows)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from ..rules import MAX_PASS_COUNT

Level = Literal["easy", "medium", "hard", "expert"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


SeatKind = Literal["you", "friend", "easy", "medium", "hard", "expert"]


class NewGame(Strict):
    levels: list[Level] | None = Field(
        default=None,
        min_length=1,
        max_length=9,
        description=(
            "How sharp each computer player is, one per seat clockwise from your left "
            "(players - 1 of them), or a single level for all. Default: easy. "
            "Not with `seats`."
        ),
    )
    seats: list[SeatKind] | None = Field(
        default=None,
        min_length=3,
        max_length=10,
        description=(
            'One entry per seat: "you" (exactly once), "friend" (a person with the '
            "invitation link) or a computer player's level. Without `rules.players` the "
            "table has this many seats."
        ),
    )
    name: str | None = Field(default=None, description="Your name, as the others see it.")
    fill: Level = Field(
        default="medium",
        description="The level of computer players in seats nobody took, or for away people.",
    )
    turn_time: StrictInt | None = Field(
        default=30,
        description="Seconds a person has for a move before a computer player moves for "
        "them (0 or null: no limit); 5 to 600.",
    )
    hold_time: StrictInt = Field(
        default=120,
        ge=10,
        le=3600,
        description="Seconds a person who has gone keeps the seat before a computer player "
        "takes it over until they return.",
    )
    rules: dict[str, Any] = Field(
        default_factory=dict, description="Changes from the standard rules, by field name."
    )
    undo: StrictBool = Field(
        default=True,
        description="Allow take-backs (`POST /api/games/{id}/undo`); only against computer "
        "players: a table with friends never has them.",
    )
    hints: StrictBool = Field(
        default=True,
        description="Allow the coach's hints (`POST /api/games/{id}/hint`) at a table with "
        "friends (the others are told of each one); a game against computer players always "
        "has them.",
    )


class Join(Strict):
    invite: StrictStr = Field(max_length=200, description="The token of the invitation link.")
    name: StrictStr = Field(max_length=200, description="Your name, as the others see it.")


class InvitationCheck(Strict):
    invite: StrictStr = Field(max_length=200, description="The token of the invitation link.")


class Invitation(BaseModel):
    host: str | None = Field(description="The name of the person who made the table.")
    players: int = Field(description="Seats at the table.")
    target_score: int = Field(description="The score that ends the game.")
    seated: list[str] = Field(description="The people seated already, by seat.")
    open: int = Field(description="Seats kept for friends and not taken yet.")
    computers: int = Field(description="Seats the host gave to computer players.")
    characters: list[str] = Field(
        default_factory=list,
        description="The computer players' names: those seated, and those who would take the"
        " open seats if the table started now. A person joining takes none of them.",
    )
    started: bool = Field(description="Whether the game has started.")
    yours: bool = Field(description="Whether this browser has a seat at the table.")
    closed: str | None = Field(
        description="Why the link cannot seat this browser now (full, started), or null."
    )
    seat: int | None = Field(
        default=None,
        description="The seat the link gives this browser now: its own, else the lowest open "
        "one (a friend who joins first takes it); null when it cannot seat this browser.",
    )
    host_seat: int = Field(description="The host's seat.")
    partnership: bool = Field(description="Whether the players across score together.")
    turn_time: int | None = Field(
        default=None, description="Seconds each person has for a move; null: no limit."
    )
    hints: bool = Field(
        default=True, description="Whether the coach's hints are allowed at this table."
    )
    house_rules: list[str] = Field(
        description="The house rules chosen, by their names and the choice made "
        "('Bonus card: jack of diamonds')."
    )


class Reaction(Strict):
    reaction: StrictStr = Field(max_length=20, description="One of /api/options reactions.")


class Empty(Strict):
    pass


class Move(Strict):
    move: StrictInt = Field(ge=0, description="The number of actions taken so far.")
    undos: StrictInt | None = Field(
        default=None,
        ge=0,
        description="Take-backs made in this game as the sender last saw it (`undo.used`). "
        "Given, a move from a screen that has not seen a take-back made since (in another "
        "tab) is refused with the game as it stands, even at the same move number.",
    )


class PlayCard(Move):
    card: StrictStr = Field(description='The card to play, like "QS".', max_length=8)


class PassCards(Move):
    cards: list[StrictStr] = Field(
        max_length=MAX_PASS_COUNT, description='The cards to pass, like ["QS"].'
    )


class MoonChoice(Move):
    choice: Literal["add", "subtract"] = Field(
        description='"add": 26 to everyone else; "subtract": 26 off your own total.'
    )


class Player(BaseModel):
    seat: int
    name: str = Field(description="Plain text: show it as text, never as markup.")
    level: str | None = Field(description="The computer player's level; null for a person.")
    person: bool
    you: bool
    away: bool = Field(description="A computer player plays for this person until they return.")
    connected: bool
    reconnecting: bool = Field(
        default=False,
        description="A person whose page has not been heard from for a while, though it has "
        "not closed (a phone gone offline): their seat is held for them until the hold time.",
    )
    open: bool = Field(description="A friend's seat nobody has taken yet.")
    character: str | None = Field(
        default=None,
        description="The computer character at this seat (an `id` of /api/options' opponents).",
    )
    stand_in: str | None = Field(
        default=None,
        description="At a friend's seat nobody has taken yet, the character that plays it if "
        "the table starts now (an `id` of /api/options' opponents): it follows as people "
        "join. Null elsewhere.",
    )
    hints: int | None = Field(
        default=None,
        description="At a table of friends, the coach's hints this person has taken (each "
        "decision counted once); null elsewhere.",
    )


class SeatShown(BaseModel):
    seat: int
    name: str = Field(description='The character\'s name, "Open seat" or "You".')
    level: str | None = Field(description="The computer player's level; null for a person.")
    you: bool
    open: bool = Field(description="A friend's seat, open until someone takes it.")
    character: str | None = Field(
        default=None,
        description="The computer character at this seat (an `id` of /api/options' opponents).",
    )
    stand_in: str | None = Field(
        default=None,
        description="At a friend's seat, the character that plays it if nobody takes it "
        "(characters go by seat: whichever other friends come, it is the same); null elsewhere.",
    )


class TableState(BaseModel):
    seat: int = Field(description="The caller's seat.")
    host: bool = Field(description="Whether the caller made the table.")
    host_seat: int = Field(description="The seat of the person who made the table.")
    can_start: bool = Field(
        description="Whether the caller may start the table now (the host; anyone at a rematch)."
    )
    rematch_of: str | None = Field(
        description="The game this table is the rematch of: it waits for that game's people."
    )
    friends: bool = Field(description="Whether several people sit here (the table is live).")
    started: bool
    open_seats: list[int]
    invite: str | None = Field(description="The invitation link (for the host, while open).")
    turn_time: int | None
    hold_time: int
    fill: str
    hints: bool = Field(
        default=True,
        description="Whether the coach's hints are allowed here (a table of friends may say "
        "no; a game against computer players always has them).",
    )
    waiting_on: list[int] = Field(description="The seats whose move is awaited.")
    deadline: float | None = Field(
        description="When the people awaited are played for (seconds since the epoch)."
    )
    now: float | None = Field(description="The server's clock, with a deadline.")
    rematch: str | None = Field(description="The rematch game's id, once someone started it.")
    stood_in: int = Field(
        default=0,
        description=(
            "Your moves this round a computer player made, when your time ran out or you were away."
        ),
    )
    pass_stood_in: bool = Field(
        default=False,
        description="Whether your pass this round was one of them (`view.passed` says what went).",
    )


class UndoState(BaseModel):
    allowed: bool = Field(description="Whether this game allows take-backs at all.")
    to: int | None = Field(
        description="The move count a take-back now would go back to; null when none can."
    )
    used: int = Field(description="Take-backs made in this game so far.")


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
    play_on: dict[str, list[int]] | None = Field(
        default=None,
        description="Between rounds, when someone reached the target but the lowest total is "
        'tied and the tie rule plays on: the seats that "reached" it and those "tied".',
    )
    moon_pending: int | None
    moon_stake: int | None = Field(
        description="While a moon awaits its shooter's choice: the points it moves (a sun's twice)."
    )
    moon_scores: dict[str, list[int]] | None = Field(
        default=None,
        description="While a moon awaits its shooter's choice: each seat's score this round "
        'under "add" and under "subtract", the bonus card included.',
    )
    players: list[Player]
    table: TableState
    undo: UndoState


class Current(BaseModel):
    id: str | None = Field(description="The browser's game in progress, if any.")


class Problem(BaseModel):
    detail: str
    state: GameState | None = Field(
        default=None, description="With a conflict (409): the game as it now stands."
    )
