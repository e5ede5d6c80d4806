"""The referee: loads a game from its record, applies a seat's move, lets the computer
players answer, stores the new moves and says what that seat sees.

A table holds any mix of people and computer players. Each person is a browser (its cookie's
hash) in a seat; friends take their seats through the table's invitation, and the table
starts when every seat is taken or when its host says so (empty seats then get computer
players). A person whose turn runs past the table's turn time, or who has been gone past
its hold time, is played for by a computer player and marked away until any request from
them takes the seat back.

The engine's events are kept by move (`hearts.web.events.Journal`), so an answer and every
event stream (`hearts.web.live`) show each seat exactly the events it may see, each marked
with its move number. At a table of several people, a person's move is stored and announced
before the computer players answer, so the others see the card at once.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import math
import re
import secrets
import time
import weakref
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from .. import ChooseMoon, Game, IllegalMoveError, Move, NextRound, Pass, Play, Rules
from ..record import (
    STAND_IN,
    action_to_move,
    fold,
    move_to_action,
    stood_in,
    take_back_point,
    undo_action,
    undos,
)
from .bots import BotPool, Computers, Styles, stand_in
from .cache import SizedCache
from .characters import LEVELS, cast, cast_by_seat
from .deals import commitment, is_keyed, new_game, new_secret, replayed, results
from .events import Journal, journal_for_browser
from .finish import finish_settled_round
from .metrics import Decisions, Metrics
from .notify import Hub
from .options import house_rule_names
from .store import Person, Seating, StoredGame
from .stores import GameStore, StoreUnavailable

#: Games kept replayed in memory, weighed by their moves (a long game is ~5,000).
CACHE_ACTIONS = 100_000
#: Moves whose events a loaded game keeps, for answers and streams that catch up.
JOURNAL_MOVES = 800
#: What a person is told about a stored game that cannot be replayed. The engine's own
#: reason goes to the log only: it can name cards the person may not see.
DAMAGED = "This saved game is damaged and cannot be read; your other games are not affected."
NO_SUCH_GAME = "This browser has no game with that id."
#: Every id the service makes (`secrets.token_urlsafe`), with room to spare: anything else is
#: no game, said before the store is asked (PostgreSQL refuses a NUL in text with an error).
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
NOT_STARTED = "The game starts when every seat is taken or the host starts it."
BAD_INVITE = "This invitation is not valid for this table; ask for a new link."
TABLE_FULL = "Every seat at this table is taken; ask the host for a new table."
GAME_OVER = "This game is over; ask the host for a new table."
#: A link to a table that started: full (someone took the last seat, perhaps a moment ago),
#: or started by the host with the open seats given to computer players.
STARTED_FULL = (
    "This table is full: someone took the last seat and the game has begun. "
    "Ask the host to start a new table for you."
)
STARTED_EARLY = (
    "The host started this game before you joined, and a computer player took the open "
    "seat. Ask the host to start a new table for you."
)
#: Take-backs: why one is refused.
UNDO_FRIENDS = (
    "Take-backs are for games against computer players only: at a table with friends the "
    "others have already seen your card."
)
UNDO_ELSEWHERE = (
    "A move was taken back in another tab or window since this screen last heard from the "
    "game; here is the game as it stands now."
)
UNDO_OFF = "Take-backs were switched off when this game was started."
UNDO_GAME_OVER = "The game is over, so nothing can be taken back."
UNDO_ROUND_OVER = (
    "This round is over and scored (its deal key is shown), so its cards can no longer be "
    "taken back."
)
UNDO_NOTHING = (
    "You have not passed or played a card in this round yet, so there is nothing to take back."
)
#: Table settings: seconds a person has for a move (None: no limit), seconds a person who
#: has gone keeps the seat before a computer player takes it over, and who fills seats.
TURN_TIME = 30
HOLD_TIME = 120
#: How often, by default, an open page's event stream notes its person as here (seconds).
HEARTBEAT = 15.0
FILL = "medium"
#: A person whose page has not been heard from for this many of its heartbeats (its
#: answers to the event stream's pings, every `live.PING` seconds: 37.5 s by default) is
#: shown to the others as reconnecting, until it is heard from again or the hold time runs
#: out (the stream itself proves nothing: a phone gone offline leaves it open, and the
#: server's pings go into a socket nobody reads for many minutes).
QUIET_BEATS = 2.5
#: Seconds a turn that began before this process was serving again (it started, or its
#: database came back after being away) runs on at least, from that moment: the time left
#: went by while nobody could move, and a card the person chose meanwhile waits in their
#: page, tried again at most 15 s apart (`hold` in the page's main.js), so it lands before
#: a computer player moves for them (the server's clock moved first after a restart and
#: stored its own card instead). The same holds for a person not heard from since: their
#: page could not reach the server, so they are not taken for gone at once. Also how long
#: a turn clock that could not read the database waits before it looks again.
RETURN_GRACE = 20.0
#: Seconds more for a game's first pass at a table with a turn time: the game starts itself
#: when the last friend sits down (or the last of a rematch comes back), and its clock ran
#: while the pages were still drawing the table (at 15 s a move, the computer players once
#: passed for everyone).
START_GRACE = 5.0
#: A round's end waits this many turn times for people still reading it before the next
#: round is dealt (a card's 30 s took the coach's review away mid-read).
READING_TURNS = 2
#: Seconds between notes of a person's presence in the store (not one write per request).
TOUCH_EVERY = 10.0
#: Seats whose latest presence note this process remembers.
TOUCHED_KEPT = 10_000
#: The least time between two reactions of one seat.
REACTION_GAP = 2.0
#: The least time between two leavings of one person (each tells everyone at the table: a
#: loop of leaving and coming back was a stream of updates for all of them).
LEAVE_GAP = 3.0
#: People whose latest leaving this process remembers.
LEFT_KEPT = 10_000
#: Reactions a person can send: a key, a short label and an emoji (no free text).
REACTIONS: tuple[dict[str, str], ...] = (
    {"key": "nice", "label": "Nice one", "emoji": "👍"},
    {"key": "ouch", "label": "Ouch", "emoji": "😬"},
    {"key": "haha", "label": "Ha!", "emoji": "😄"},
    {"key": "oops", "label": "Oops", "emoji": "🙈"},
    {"key": "thanks", "label": "Thanks", "emoji": "🙏"},
    {"key": "gg", "label": "Good game", "emoji": "🤝"},
)
REACTION_KEYS = frozenset(r["key"] for r in REACTIONS)
log = logging.getLogger("hearts.web")

T = TypeVar("T")

MoveFor = Callable[[int], Move]
"""A move still to be given its seat: the caller's, known once the game is loaded."""


class Refusal(Exception):
    """A request the referee turns down: an HTTP status and one sentence for the person."""

    def __init__(
        self,
        status: int,
        reason: str,
        state: dict[str, Any] | None = None,
        retry_after: int | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        #: The box of the form the refusal is about ("name"), said beside it; None: the form.
        self.field = field
        #: The game as it now stands, for a conflict: the browser catches up from it.
        self.state = state
        #: Seconds to wait before asking again, for a refusal of too many at once (429).
        self.retry_after = retry_after


@dataclass(frozen=True)
class Table:
    """Who sits where: a level for each computer seat, None for a person's seat; the host's
    seat; the invitation for friends' seats; and the table's clock."""

    seats: tuple[str | None, ...]
    host: int = 0
    invite: str | None = None
    fill: str = FILL
    turn_time: int | None = None
    hold_time: int = HOLD_TIME
    undo: bool = True
    """Whether the person may take back a pass or a card (a table of one person only)."""
    hints: bool = True
    """Whether people may ask the coach for a hint (a table of friends may say no; a table
    of one person always may)."""
    rematch_of: str | None = None
    """The game this table is the rematch of: it waits for that game's people to come
    back, and any of them may start it."""
    seat_cast: bool = False
    """Whether its characters go by seat from the host's left (`cast_by_seat`), as the start
    screen shows them: every table made since 2026-12-05. Tables made before keep theirs
    (`cast`: the computer seats first, then the friends' seats nobody took), so that no
    character is renamed in the middle of a game or in a finished game's record."""

    @classmethod
    def from_settings(cls, settings: dict[str, Any], players: int) -> Table:
        seats = settings.get("seats")
        if seats is None:
            # Records from before tables of any size: the person first, then the levels.
            seats = [None, *settings["levels"]]
        people = [seat for seat, level in enumerate(seats) if level is None]
        table = cls(
            tuple(seats),
            host=settings.get("host", people[0] if people else 0),
            invite=settings.get("invite"),
            fill=settings.get("fill", FILL),
            turn_time=settings.get("turn_time"),
            hold_time=settings.get("hold_time", HOLD_TIME),
            undo=settings.get("undo", True) is True,
            # Tables from before the setting have none: hints allowed, as they were.
            hints=settings.get("hints", True) is not False,
            rematch_of=settings.get("rematch_of"),
            seat_cast=settings.get("cast") == "seat",
        )
        if len(table.seats) != players or table.host not in table.people:
            raise ValueError(f"{players} players seated as {seats!r}")
        if any(level not in LEVELS for level in (*table.computers.values(), table.fill)):
            raise ValueError(f"unknown levels in {seats!r}")
        if not isinstance(table.rematch_of, str | None):
            raise ValueError(f"a rematch of {table.rematch_of!r}")
        return table

    def to_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = {"seats": list(self.seats), "host": self.host}
        if self.seat_cast:
            settings["cast"] = "seat"
        if self.friends:
            settings |= {
                "invite": self.invite,
                "fill": self.fill,
                "turn_time": self.turn_time,
                "hold_time": self.hold_time,
                "hints": self.hints,
            }
            if self.rematch_of is not None:
                settings["rematch_of"] = self.rematch_of
        else:
            settings["undo"] = self.undo
        return settings

    @property
    def computers(self) -> Computers:
        """The seats computer players hold from the start."""
        return {seat: level for seat, level in enumerate(self.seats) if level is not None}

    @property
    def people(self) -> list[int]:
        return [seat for seat, level in enumerate(self.seats) if level is None]

    @property
    def friends(self) -> bool:
        """Whether more than one person sits here (the table is live: streams, clocks)."""
        return len(self.people) > 1

    def playing(self, seating: Seating) -> Computers:
        """The seats computer players play now: their own, and once the table has started
        every person's seat nobody took and every away person's seat."""
        playing = self.computers
        if seating.started:
            for seat in self.people:
                person = seating.people.get(seat)
                if self.friends and (person is None or person.owner is None or person.away):
                    playing[seat] = self.fill
        return playing

    def characters(self, seating: Seating) -> dict[int, dict[str, Any]]:
        """The character at each seat a computer player holds as its own: the table's
        computer seats and, once a table of friends has started, the seats nobody took (a
        person away keeps their own name; a computer player stands in, plain)."""
        filled = []
        if self.friends and seating.started:
            for seat in self.people:
                person = seating.people.get(seat)
                if person is None or person.owner is None:
                    filled.append(seat)
        if self.seat_cast:
            return cast_by_seat(len(self.seats), self.host, [*self.computers, *filled])
        # The lobby's characters keep their seats; those filled at the start come after.
        return cast(self.computers, then=filled)

    def computer_names(self, seating: Seating) -> list[str]:
        """The names of the characters playing here, and of those who would take the seats
        nobody took if the table started now: a person joining is not to share one."""
        now = self.characters(seating)
        at_start = self.characters(replace(seating, started=True)) if self.friends else {}
        names = [c["name"] for _, c in sorted((now | at_start).items())]
        return list(dict.fromkeys(names))

    def styles(self, seating: Seating) -> Styles:
        """The characters' tastes by seat, for the computer players (`bots.advance`)."""
        return {seat: c.get("style") for seat, c in self.characters(seating).items()}

    def seat_of(self, stored: StoredGame, seating: Seating, owner: str) -> int | None:
        """The seat a browser plays at this table, or None if it has none."""
        for person in seating.people.values():
            if person.owner == owner:
                return person.seat
        if not seating.people and owner == stored.owner:
            return self.host  # a game from before seats were stored
        return None


@dataclass
class LoadedGame:
    stored: StoredGame
    game: Game
    table: Table
    journal: Journal = field(default_factory=list)
    """The events of the latest moves by move, so a retried move and a stream catching up
    are answered without replaying anything."""
    moved_at: float = 0.0
    """When the latest move was stored (a turn's clock starts then)."""
    recorded: int = -1
    """How many actions the store holds for this game: its moves, and its take-backs
    (`hearts.record.undo_action`), so after a take-back more than `len(game.moves)`."""
    undos: int = -1
    """How many take-backs the store holds for this game."""
    round_base: Game | None = None
    """The game as its current round began, once a take-back needed it: a take-back never
    crosses a round, so the next one in this round replays from here, not from the start."""
    stood_in: frozenset[int] | None = None
    """The numbers of the moves a computer player made for a person away (not theirs to
    be reviewed on)."""

    def __post_init__(self) -> None:
        if self.recorded < 0:
            self.recorded = len(self.stored.actions)
        if self.undos < 0:
            self.undos = undos(self.stored.actions)
        if self.stood_in is None:
            self.stood_in = stood_in(self.stored.actions)

    @property
    def stand_ins(self) -> frozenset[int]:
        return self.stood_in or frozenset()

    def since(self, number: int) -> Journal | None:
        """The journal of moves after move count `number`; None if it no longer reaches."""
        if number >= len(self.game.moves):
            return []
        kept = self.journal
        if not kept or kept[0][0] > number + 1:
            return None
        return [entry for entry in kept if entry[0] > number]

    def moved_on(
        self, game: Game, entries: Journal, recorded: int, stood_in: Iterable[int] = ()
    ) -> LoadedGame:
        """This game moved on to `game` by the moves of `entries`; the store now holds
        `recorded` actions; computer players made the moves numbered `stood_in` for people
        away."""
        kept = [*self.journal, *entries]
        if kept and len(kept) > JOURNAL_MOVES:
            kept = kept[-JOURNAL_MOVES:]
        marked = self.stand_ins | frozenset(stood_in)
        return replace(self, game=game, journal=kept, recorded=recorded, stood_in=marked)

    def taken_back(self, game: Game, recorded: int, base: Game) -> LoadedGame:
        """This game taken back to `game` (its first moves) by a take-back now stored, from
        `base`, the game as the round began: the journal keeps only the moves standing."""
        standing = len(game.moves)
        kept = [entry for entry in self.journal if entry[0] <= standing]
        marked = frozenset(n for n in self.stand_ins if n < standing)
        return replace(
            self,
            game=game,
            journal=kept,
            recorded=recorded,
            undos=self.undos + 1,
            round_base=base,
            stood_in=marked,
        )


@dataclass(frozen=True)
class Rematch:
    """A rematch being made: the finished game, its people, the browser that asked, and
    whether the finished game's characters went by seat (a table made before they did keeps
    its rule, so nobody's character moves seats between a game and its rematch)."""

    of: str
    seating: Seating
    by: str
    seat_cast: bool = True


@dataclass
class Seated:
    """A request's game, the caller's seat and the table's people."""

    loaded: LoadedGame
    seat: int
    seating: Seating


class GameService:
    def __init__(
        self,
        store: GameStore,
        bots: BotPool,
        cache_actions: int = CACHE_ACTIONS,
        hub: Hub | None = None,
        heartbeat: float = HEARTBEAT,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        #: Games, people's moves and streams are counted here (`hearts.web.metrics`).
        self.metrics = metrics or bots.metrics
        #: How often an open page's stream notes its person as here (`live`'s ping).
        self.heartbeat = heartbeat
        self.bots = bots
        self.hub = hub or Hub()
        self._cache: SizedCache[str, LoadedGame] = SizedCache(cache_actions)
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._clocks: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._touched: dict[tuple[str, int], float] = {}
        #: When each person last left a table in this process (game, owner): `LEAVE_GAP`.
        self._left: dict[tuple[str, str], float] = {}
        #: The event streams open in this process, by (game, seat).
        self._streams: dict[tuple[str, int], int] = {}
        #: Called on the event loop with (before, after) each time moves are stored (the
        #: coach's background reviews); quick, they leave their work to a task.
        self.watchers: list[Callable[[LoadedGame, LoadedGame], None]] = []
        #: When this process began serving, or last read its store after finding it away:
        #: turns begun before then get `RETURN_GRACE` from then (`_deadline`).
        self.resumed = time.time()
        self._store_away = False

    # --- loading -----------------------------------------------------------------------

    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    async def _loaded(self, game_id: str, fresh: bool = False) -> LoadedGame:
        """The game, from the cache or the store; a missing game is a 404."""
        if not GAME_ID.fullmatch(game_id):
            raise Refusal(404, NO_SUCH_GAME)
        loaded = None if fresh else self._cache.get(game_id)
        if loaded is not None:
            return loaded
        stored = await self._read_whole(self.store.load, game_id)
        # A replay costs as much as the game is long: never on the event loop.
        loaded = await asyncio.to_thread(_replayed, stored)
        self._remember(game_id, loaded)
        return loaded

    async def _seating(self, game_id: str) -> Seating:
        if not GAME_ID.fullmatch(game_id):
            raise Refusal(404, NO_SUCH_GAME)
        # A seat's row no server wrote is `ValueError` (`store.person`): the table damaged.
        seating = await self._read_whole(self.store.seating, game_id, ValueError)
        return replace(seating, read_at=time.time())

    async def _read_whole(
        self,
        read: Callable[[str], T | None],
        game_id: str,
        damage: type[Exception] = Exception,
    ) -> T:
        """`read(game_id)` (`_read`): a 404 for no such game, and a 500 saying it is damaged
        for a record `read` cannot make sense of (`damage`); the database away stays a 503."""
        try:
            found = await self._read(read, game_id)
        except StoreUnavailable:
            raise  # the database is away, not the game damaged: a 503
        except damage:
            log.exception("stored game %s cannot be read", game_id)
            raise Refusal(500, DAMAGED) from None
        if found is None:
            raise Refusal(404, NO_SUCH_GAME)
        return found

    async def _read(self, read: Callable[[str], T], game_id: str) -> T:
        """`read(game_id)` from the store, off the event loop, noting when the store is away
        and when it answers again (`resumed`: the turns waiting meanwhile get a grace)."""
        try:
            answer = await asyncio.to_thread(read, game_id)
        except StoreUnavailable:
            self._store_away = True
            raise
        if self._store_away:
            self._store_away = False
            self.resumed = time.time()
        return answer

    async def _seated(self, game_id: str, owner: str, present: bool = True) -> Seated:
        """The game and the caller's seat; a game the caller has no seat at is missing (a
        stranger cannot even learn that an id exists). The store is trusted over the cache
        when they disagree (another process moved the game on), and a request from an away
        person takes the seat back, unless it is not `present` at the table (the start
        screen's list of unfinished games only reads it)."""
        loaded = await self._loaded(game_id)
        seating = await self._seating(game_id)
        seat = loaded.table.seat_of(loaded.stored, seating, owner)
        if seat is None:
            raise Refusal(404, NO_SUCH_GAME)
        if seating.moves != loaded.recorded:
            loaded = await self._caught_up(game_id, loaded)
        person = seating.people.get(seat)
        if person is not None and loaded.table.friends and present:
            now = time.time()
            if person.away and await asyncio.to_thread(self.store.set_away, game_id, seat, False):
                self.hub.poke(game_id)
                seating = await self._seating(game_id)
                loaded.moved_at = seating.updated_at  # the turn clock starts again
                self._wind(loaded, seating)
                if _rematch_complete(loaded.table, seating):
                    loaded, seating, _ = await self._begin(loaded, seating)
            if person.page_closed:
                # Their page is back (a reload, a phone that dropped its connection): the
                # others see them here again now, not a heartbeat later.
                await self.seen(game_id, seat)
                self.hub.poke(game_id)
                seating = await self._seating(game_id)
            elif now - self._touched.get((game_id, seat), 0.0) > TOUCH_EVERY:
                await self.seen(game_id, seat)
        return Seated(loaded, seat, seating)

    async def _caught_up(self, game_id: str, loaded: LoadedGame) -> LoadedGame:
        """The game as stored now. When the kept game's moves begin the stored record, only
        the new moves are applied to it (so their events are journalled for the streams,
        and a process following another's moves pays per move, not per game); else the
        record is replayed."""
        stored = await self._read_whole(self.store.load, game_id)
        caught = await asyncio.to_thread(_moved_on_to, loaded, stored)
        if caught is None:
            caught = await asyncio.to_thread(_replayed, stored)
        self._remember(game_id, caught)
        return caught

    def _remember(self, game_id: str, loaded: LoadedGame) -> None:
        kept = self._cache.get(game_id)
        if kept is not None and kept.recorded > loaded.recorded:
            return  # a stream caught up from an older read than a request's since: keep newer
        self._cache.put(game_id, loaded, weight=len(loaded.game.moves))

    def forget(self, game_ids: list[str]) -> None:
        """Drop games the store no longer holds (closed by a quota, or expired)."""
        for game_id in game_ids:
            self._cache.discard(game_id)
            clock = self._clocks.pop(game_id, None)
            if clock is not None:
                clock.cancel()

    # --- storing -----------------------------------------------------------------------

    async def _store(
        self,
        loaded: LoadedGame,
        game: Game,
        entries: Journal,
        stand_ins: Collection[int] = (),
    ) -> LoadedGame | None:
        """Store the moves `game` made since `loaded` and announce them, the moves of seats
        `stand_ins` marked as a computer player's made for a person away; the game moved on,
        or None if another request stored a move first (nothing of this one is kept)."""
        done = len(loaded.game.moves)
        if len(game.moves) == done:
            return loaded
        game_id = loaded.stored.id
        new_moves = [move_to_action(m) for m in game.moves[done:]]
        marked = []
        for number, action in enumerate(new_moves, done):
            if action.get("seat") in stand_ins:
                action[STAND_IN] = True
                marked.append(number)
        # Passes that leave others still to pass do not start the turn clock again: every
        # pass of a round runs on one clock from the deal (each pass gave the slowest passer
        # the whole turn time again).
        clock = not (
            game.round is not None
            and game.round.phase == "passing"
            and all(action["type"] == "pass" for action in new_moves)
        )
        stored = await asyncio.to_thread(
            self.store.append, game_id, loaded.recorded, new_moves, _status(game), clock
        )
        if not stored:
            return None
        if game.is_over and not loaded.game.is_over:
            self.metrics.game_finished()  # once: only one request stores a move number
        work = loaded.moved_on(game, entries, loaded.recorded + len(new_moves), marked)
        if clock:
            work.moved_at = time.time()
        self._remember(game_id, work)
        self.hub.publish(game_id, work.recorded)
        for watch in self.watchers:
            watch(loaded, work)
        return work

    async def _advance(self, loaded: LoadedGame, seating: Seating) -> tuple[LoadedGame, Journal]:
        """The computer players' moves (and away people's) until a person must act; stored."""
        playing = loaded.table.playing(seating)
        if not seating.started or not set(loaded.game.to_act) <= set(playing):
            return loaded, []
        game = loaded.game.copy()
        styles = loaded.table.styles(seating)
        entries = await self.bots.advance(game, playing, loaded.stored.seed, styles)
        # The seats of people away: what is played there is not theirs to be reviewed on.
        away = [s for s, p in seating.people.items() if p.owner is not None and s in playing]
        work = await self._store(loaded, game, entries, away)
        if work is None:  # another process answered first: take the game as it stands
            return await self._loaded(loaded.stored.id, fresh=True), []
        return work, entries

    # --- requests ----------------------------------------------------------------------

    async def create(
        self,
        owner: str,
        rules: Rules,
        seats: list[str],
        *,
        name: str = "Host",
        fill: str = FILL,
        turn_time: int | None = TURN_TIME,
        hold_time: int = HOLD_TIME,
        undo: bool = True,
        hints: bool = True,
        rematch: Rematch | None = None,
    ) -> dict[str, Any]:
        """A new table: `seats` has one entry per seat, "you" (the creator), "friend" (a
        person invited by link) or a level. A rematch seats the finished game's people, each
        away until they come to it (the one who asked is there): it starts once all are,
        or when one of them starts it."""
        if len(seats) != rules.players:
            raise Refusal(
                422, f"A table of {rules.players} needs {rules.players} seats, not {len(seats)}."
            )
        levels, host = seat_levels(seats)
        friends = "friend" in seats
        table = Table(
            levels,
            host=host,
            invite=secrets.token_urlsafe(24) if friends else None,  # 192 random bits
            fill=fill,
            turn_time=turn_time if friends else None,
            hold_time=hold_time,
            undo=undo and not friends,
            hints=hints or not friends,
            rematch_of=rematch.of if rematch is not None else None,
            seat_cast=rematch is None or rematch.seat_cast,
        )
        game_id = secrets.token_urlsafe(18)
        seed = new_secret()
        game = new_game(rules, seed)
        if rematch is None:
            people = [Person(host, owner, name)] + [
                Person(seat, None, "") for seat in table.people if seat != host
            ]
        else:
            people = [
                Person(p.seat, p.owner, p.name, away=p.owner not in (None, rematch.by))
                for p in rematch.seating.people.values()
            ]
            if all(p.owner != owner for p in people):  # a game from before seats were kept
                people.append(Person(host, owner, name, away=owner != rematch.by))
        started = not friends or (rematch is not None and not any(p.away for p in people))
        seating = Seating(started, None, time.time(), 0, {p.seat: p for p in people})
        if friends and rematch is None:  # alone, a person is "You" to themselves
            same = next((c for c in table.computer_names(seating) if _same_name(c, name)), None)
            if same is not None:
                raise Refusal(409, name_taken(same), field="name")
        stored = StoredGame(
            game_id, owner, rules.to_dict(), seed, table.to_settings(), "active", [], started
        )
        loaded = LoadedGame(stored, game, table)
        entries: Journal = []
        if started:
            entries = await self.bots.advance(
                game, table.playing(seating), seed, table.styles(seating)
            )
        made = await asyncio.to_thread(
            self.store.create,
            game_id,
            owner,
            rules.to_dict(),
            seed,
            table.to_settings(),
            [move_to_action(m) for m in game.moves],
            _status(game),
            people,
            started,
            rematch.of if rematch else None,
        )
        if not made:
            raise Refusal(409, "A rematch of this game was started already.")
        self.metrics.game_started()
        loaded = loaded.moved_on(game, entries, len(game.moves))
        self._remember(game_id, loaded)
        me = next(p.seat for p in people if p.owner == owner)
        return self.state(loaded, me, seating, entries)

    async def _invited(self, game_id: str, invite: str) -> LoadedGame:
        """The game `invite` opens; a wrong invitation and an unknown game are the same 404,
        so a link tells a stranger nothing of which games exist."""
        try:
            loaded = await self._loaded(game_id)
        except Refusal as refusal:
            raise Refusal(404, BAD_INVITE) if refusal.status == 404 else refusal from None
        expected = loaded.table.invite
        if expected is None or not hmac.compare_digest(invite.encode(), expected.encode()):
            raise Refusal(404, BAD_INVITE)
        return loaded

    async def join(self, game_id: str, owner: str, invite: str, name: str) -> dict[str, Any]:
        """Seat the browser in a free friend's seat of the table `invite` opens."""
        async with self._lock(game_id):
            loaded = await self._invited(game_id, invite)
            seating = await self._seating(game_id)
            if any(p.owner == owner for p in seating.people.values()):
                seated = await self._seated(game_id, owner)  # back in the same seat
                return self.state(seated.loaded, seated.seat, seated.seating, [])
            if seating.started:
                raise Refusal(409, _started(loaded, seating))
            names = [p.name for p in seating.people.values() if p.owner]
            names += loaded.table.computer_names(seating)
            same = next((taken for taken in names if _same_name(taken, name)), None)
            if same is not None:
                raise Refusal(409, name_taken(same))  # as they are called, not as typed
            seat = await asyncio.to_thread(self.store.join, game_id, owner, name)
            if seat is None:
                raise Refusal(409, TABLE_FULL)
            self.hub.poke(game_id)
            seating = await self._seating(game_id)
            if all(p.owner is not None for p in seating.people.values()):
                return await self._start(loaded, seating, seat)
            return self.state(loaded, seat, seating, [])

    async def invitation(self, game_id: str, owner: str, invite: str) -> dict[str, Any]:
        """What a friend's link opens, before anyone joins: who invited, who sits there
        already, the seats still open, and whether this browser has a seat there."""
        loaded = await self._invited(game_id, invite)
        seating = await self._seating(game_id)
        people = seating.people
        host = people.get(loaded.table.host)
        mine = next((seat for seat, p in sorted(people.items()) if p.owner == owner), None)
        open_seats = [seat for seat, p in sorted(people.items()) if p.owner is None]
        free = len(open_seats)
        closed = None
        if mine is None and seating.started:
            closed = _started(loaded, seating)
        elif mine is None and not free:
            closed = TABLE_FULL
        # The seat the link gives this browser now: its own, or the lowest open one, as
        # `store.join` seats a friend (another friend quicker to join takes it first).
        seat = mine if mine is not None else None if closed else open_seats[0]
        return {
            "host": host.name if host is not None else None,
            "players": loaded.game.rules.players,
            "target_score": loaded.game.rules.target_score,
            "seated": [p.name for _, p in sorted(people.items()) if p.owner is not None],
            "open": free,
            "computers": sum(level is not None for level in loaded.table.seats),
            "characters": loaded.table.computer_names(seating),
            "started": seating.started,
            "yours": mine is not None,
            "closed": closed,
            "seat": seat,
            "host_seat": loaded.table.host,
            # The rules a friend sits down to: partners above all (whose partner they are).
            "partnership": loaded.game.rules.partnership,
            "hints": loaded.table.hints,
            "turn_time": loaded.table.turn_time,
            "house_rules": house_rule_names(loaded.game.rules),
        }

    async def start(self, game_id: str, owner: str) -> dict[str, Any]:
        """The host starts the table: computer players take the seats nobody took."""
        async with self._lock(game_id):
            seated = await self._seated(game_id, owner)
            if seated.seating.started:
                raise Refusal(409, "This game has started already.")
            table = seated.loaded.table
            if seated.seat != table.host and table.rematch_of is None:
                raise Refusal(403, "Only the person who made the table can start it.")
            return await self._start(seated.loaded, seated.seating, seated.seat)

    async def _start(self, loaded: LoadedGame, seating: Seating, seat: int) -> dict[str, Any]:
        loaded, seating, entries = await self._begin(loaded, seating)
        return self.state(loaded, seat, seating, entries)

    async def _begin(
        self, loaded: LoadedGame, seating: Seating
    ) -> tuple[LoadedGame, Seating, Journal]:
        """Start a waiting table: computer players take the seats nobody took (and stand
        in for anyone away), and the clock starts."""
        game_id = loaded.stored.id
        await asyncio.to_thread(self.store.start, game_id)
        self.hub.poke(game_id)
        seating = replace(seating, started=True, updated_at=time.time())
        loaded, entries = await self._advance(loaded, seating)
        seating = await self._seating(game_id)
        self._wind(loaded, seating)
        return loaded, seating, entries

    async def state_of(self, game_id: str, owner: str, present: bool = True) -> dict[str, Any]:
        seated = await self.loaded(game_id, owner, present)
        return self.state(seated.loaded, seated.seat, seated.seating, [])

    async def _settled(self, game_id: str, owner: str, present: bool = True) -> Seated:
        """`_seated`, with any computer moves a stopped process (or an older version, which
        left a computer player's moon unscored after a round played out) left unmade made
        now."""
        seated = await self._seated(game_id, owner, present)
        loaded, _ = await self._advance(seated.loaded, seated.seating)
        seated.loaded = loaded
        if loaded.table.friends:
            self._wind(loaded, seated.seating)
        return seated

    async def loaded(self, game_id: str, owner: str, present: bool = True) -> Seated:
        """The game as the store holds it now, the caller's seat and the table, for a
        request that only reads it (a 404 Refusal for a game the caller has no seat at);
        `present` as for `_seated`."""
        async with self._lock(game_id):
            return await self._settled(game_id, owner, present)

    async def current(self, owner: str) -> str | None:
        return await asyncio.to_thread(self.store.latest_unfinished, owner)

    async def act(
        self,
        game_id: str,
        owner: str,
        number: int,
        move_for: MoveFor,
        *,
        finish: bool = False,
        undos: int | None = None,
    ) -> dict[str, Any]:
        """Make the caller's move at move number `number`, then the computer players'
        (and with `finish`, the rest of a round in which no point can change hands).
        `undos`, if given, is the take-backs the caller's screen has seen (`_seen_undos`)."""
        async with self._lock(game_id):
            seated = await self._seated(game_id, owner)
            loaded, seat, seating = seated.loaded, seated.seat, seated.seating
            if not seating.started:
                raise Refusal(409, NOT_STARTED, self.state(loaded, seat, seating, []))
            self._seen_undos(loaded, seat, seating, undos)
            move = move_for(seat)
            done = len(loaded.game.moves)
            if number < done and _passes_cross(loaded.game, number, move):
                number = done  # the people of a table pass at once: no pass goes stale
            if number < done:
                return await self._answer_retry(loaded, seat, seating, number, move)
            if number > done:
                raise Refusal(
                    409,
                    f"Move {number} has not been reached; the game is at move {done}.",
                    self.state(loaded, seat, seating, []),
                )
            if loaded.table.friends and isinstance(move, NextRound) and _between(loaded.game):
                # Each person reads the round's end at their own pace: the next round is
                # dealt once everyone here has asked for it (or the turn time runs out).
                await asyncio.to_thread(self.store.set_ready, game_id, seat, done)
                seating = await self._seating(game_id)
                if _unready(loaded, seating):
                    self.hub.poke(game_id)
                    self._wind(loaded, seating)
                    return self.state(loaded, seat, seating, [])
            game = loaded.game.copy()
            try:
                entries: Journal = [(done + 1, game.apply(move))]
            except IllegalMoveError as error:
                # A move of a kind the seat may make now but wrong (a card it may not play)
                # is a 422; one it may not make at all now (not its turn) is a 409.
                if _expected(move, game, seat):
                    raise Refusal(422, str(error)) from None
                raise Refusal(409, str(error), self.state(loaded, seat, seating, [])) from None
            table = loaded.table
            if table.friends:
                # Stored and announced at once: the others see the card while the
                # computer players think.
                work = await self._store(loaded, game, entries)
                if work is not None:
                    work, more = await self._advance(work, seating)
                    entries += more
            else:
                playing, styles = table.playing(seating), table.styles(seating)
                entries += await self.bots.advance(game, playing, loaded.stored.seed, styles)
                if finish:  # a settled round ends at once, when the person asks for it
                    finished = await asyncio.to_thread(finish_settled_round, game, seat)
                    if finished:  # it may end in a computer player's moon, theirs to score
                        entries += finished
                        entries += await self.bots.advance(
                            game, playing, loaded.stored.seed, styles
                        )
                work = await self._store(loaded, game, entries)
            if work is None:
                # Another request stored this move first; answer from what it stored.
                loaded = await self._loaded(game_id, fresh=True)
                return await self._answer_retry(loaded, seat, seating, number, move)
            self.metrics.moved(move_to_action(move)["type"])
            seating = replace(seating, updated_at=time.time())
            self._wind(work, seating)
            return self.state(work, seat, seating, [e for e in entries if e[0] > number])

    async def undo(
        self, game_id: str, owner: str, number: int, undos: int | None = None
    ) -> dict[str, Any]:
        """Take back the caller's latest pass or card of this round, and the computer
        players' moves after it, at move number `number` (the game's move count now): the
        game as it stood before that move. The take-back is stored as an action of its own
        (`hearts.record.undo_action`): nothing stored is ever deleted. `undos` as in `act`."""
        async with self._lock(game_id):
            seated = await self._seated(game_id, owner)
            loaded, seat, seating = seated.loaded, seated.seat, seated.seating
            table = loaded.table
            if table.friends:
                raise Refusal(403, UNDO_FRIENDS)
            if not table.undo:
                raise Refusal(403, UNDO_OFF)
            self._seen_undos(loaded, seat, seating, undos)
            game = loaded.game
            done = len(game.moves)
            if number != done:
                raise Refusal(
                    409,
                    f"Move {number} is not the game's move now: it is at move {done}.",
                    self.state(loaded, seat, seating, []),
                )
            to = undo_point(game, seat)
            if isinstance(to, str):
                raise Refusal(409, to, self.state(loaded, seat, seating, []))
            stored = loaded.stored
            began = _round_began(game)
            base = loaded.round_base
            if base is None or len(base.moves) != began:
                keyed = is_keyed(stored.seed)
                base = await asyncio.to_thread(
                    Game.replay, game.rules, stored.seed, game.moves[:began], keyed=keyed
                )
            back = base.copy()
            for move in game.moves[began:to]:
                back.apply(move)
            saved = await asyncio.to_thread(
                self.store.append, game_id, loaded.recorded, [undo_action(to)], _status(back)
            )
            if not saved:
                # Another request stored an action first: nothing of this one was kept.
                loaded = await self._loaded(game_id, fresh=True)
                raise Refusal(
                    409,
                    f"The game moved on while taking back; it is at move {len(loaded.game.moves)}.",
                    self.state(loaded, seat, seating, []),
                )
            self.metrics.moved("undo")
            work = loaded.taken_back(back, loaded.recorded + 1, base)
            work.moved_at = time.time()
            self._remember(game_id, work)
            self.hub.publish(game_id, work.recorded)
            return self.state(work, seat, replace(seating, updated_at=work.moved_at), [])

    def _seen_undos(
        self, loaded: LoadedGame, seat: int, seating: Seating, undos: int | None
    ) -> None:
        """Refuse a move from a screen that has not seen every take-back made so far: after
        a take-back in another tab and play since, the move count can be the one that
        screen shows while the cards on the table are not (a 409 with the game as it is)."""
        if undos is not None and undos != loaded.undos:
            raise Refusal(409, UNDO_ELSEWHERE, self.state(loaded, seat, seating, []))

    async def _answer_retry(
        self, loaded: LoadedGame, seat: int, seating: Seating, number: int, move: Move
    ) -> dict[str, Any]:
        """A move sent again (a lost answer): only the latest move a person made is answered
        as it was; an older one is a conflict, answered with the game as it stands."""
        game = loaded.game
        latest = _latest_move_of(game, seat)
        if number != latest or game.moves[number] != move:
            raise Refusal(
                409,
                f"Move {number} was already made; the game is at move {len(game.moves)}.",
                self.state(loaded, seat, seating, []),
            )
        return self.state(loaded, seat, seating, await self.journal_since(loaded, number))

    async def journal_since(self, loaded: LoadedGame, number: int) -> Journal:
        """The events of the moves after move count `number`: from the kept journal, or (for
        a long way back, or a game just loaded) by replaying the record up to there, off
        the event loop."""
        kept = loaded.since(number)
        if kept is not None:
            return kept
        return await asyncio.to_thread(_replayed_since, loaded, number)

    async def react(self, game_id: str, owner: str, reaction: str) -> dict[str, Any]:
        """A reaction from the caller's seat, for everyone at the table to see."""
        async with self._lock(game_id):
            seated = await self._seated(game_id, owner)
            if reaction not in REACTION_KEYS:
                raise Refusal(422, f"{reaction!r} is not one of the reactions offered.")
            person = seated.seating.people.get(seated.seat)
            now = time.time()
            if (
                person is not None
                and person.reaction_at
                and now - person.reaction_at < REACTION_GAP
            ):
                wait = math.ceil(REACTION_GAP - (now - person.reaction_at))
                raise Refusal(
                    429, "One reaction at a time, please: try again in a moment.", retry_after=wait
                )
            await asyncio.to_thread(self.store.react, game_id, seated.seat, reaction, now)
            self.hub.poke(game_id)
            seating = await self._seating(game_id)
            return self.state(seated.loaded, seated.seat, seating, [])

    async def hinted(self, game_id: str, seat: int, decision: int) -> None:
        """The person at `seat` of a table of friends took the coach's hint for `decision`
        (a card's move count, or a pass's round's first): counted once per decision, and the
        others are told (table news)."""
        if await asyncio.to_thread(self.store.count_hint, game_id, seat, decision):
            self.hub.poke(game_id)

    async def leave(self, game_id: str, owner: str) -> dict[str, Any]:
        """The caller leaves a table of friends. Before it starts, their seat goes back to
        the invitation for someone else to take (the host's stays: the table is theirs).
        Once it has started, a computer player plays for them from now on, as for someone
        whose page has gone, and the others are told at once instead of when the hold time
        runs out; their seat stays theirs: any later request of theirs takes it back
        (`_seated`), so this one reads the table without."""
        async with self._lock(game_id):
            seated = await self._seated(game_id, owner, present=False)
            loaded, seat, seating = seated.loaded, seated.seat, seated.seating
            if not loaded.table.friends:
                raise Refusal(409, "This game has nobody else at it: it waits for you as it is.")
            if not seating.started:
                if seat != loaded.table.host:  # the host's seat stays (`_give_back`)
                    self._note_leaving(game_id, owner)
                return await self._give_back(loaded, seat, seating, owner)
            if loaded.game.is_over:  # nothing is left to play for them
                return self.state(loaded, seat, seating, [])
            person = seating.people.get(seat)
            if person is not None and not person.away:
                self._note_leaving(game_id, owner)  # leaving again while away changes nothing
            if await asyncio.to_thread(self.store.set_away, game_id, seat, True):
                # Gone now, not a heartbeat ago: the others' pages stop showing them here.
                await asyncio.to_thread(self.store.touch, game_id, seat, 0.0)
                self._touched.pop((game_id, seat), None)
                self.hub.poke(game_id)
                seating = await self._seating(game_id)
                loaded, _ = await self._advance(loaded, seating)
                seating = await self._seating(game_id)
                self._wind(loaded, seating)
            return self.state(loaded, seat, seating, [])

    def _note_leaving(self, game_id: str, owner: str) -> None:
        """Note that `owner` leaves `game_id` now, or refuse it (429) if they left there
        less than `LEAVE_GAP` ago. Kept per process: with several, a person who leaves
        through each in turn is let go that many times as often, which still bounds it."""
        now = time.monotonic()
        key = (game_id, owner)
        last = self._left.get(key)
        if last is not None and now - last < LEAVE_GAP:
            wait = math.ceil(LEAVE_GAP - (now - last))
            raise Refusal(
                429, "You left this table a moment ago: try again in a moment.", retry_after=wait
            )
        if len(self._left) > LEFT_KEPT:
            self._left = {k: at for k, at in self._left.items() if now - at < LEAVE_GAP}
        self._left[key] = now

    async def _give_back(
        self, loaded: LoadedGame, seat: int, seating: Seating, owner: str
    ) -> dict[str, Any]:
        """Free the caller's seat of a table not yet started (`leave`): the state as the
        others see it now, their seat open again."""
        game_id = loaded.stored.id
        if seat == loaded.table.host:
            raise Refusal(409, "This is your table: it waits for your friends until you start it.")
        if await asyncio.to_thread(self.store.free_seat, game_id, seat, owner):
            self._touched.pop((game_id, seat), None)
            self.hub.poke(game_id)
            seating = await self._seating(game_id)
        return self.state(loaded, seat, seating, [])

    async def rematch(
        self, game_id: str, owner: str, admit: Callable[[], Awaitable[None]] | None = None
    ) -> tuple[dict[str, Any], bool]:
        """A new game at this table, its people in their seats; the state, and whether this
        request made it (the first one does; later ones join it). `admit` is awaited before
        one is made (the quotas: it raises to refuse), never for joining one."""
        async with self._lock(game_id):
            seated = await self._seated(game_id, owner)
            loaded, seating = seated.loaded, seated.seating
            if not loaded.game.is_over:
                raise Refusal(409, "A rematch can be started once this game is over.")
            made = seating.rematch is None
            if made and admit is not None:
                await admit()
            if made:
                table = loaded.table
                seats = [
                    "you" if s == table.host else level or "friend"
                    for s, level in enumerate(table.seats)
                ]
                try:
                    state = await self.create(
                        loaded.stored.owner,
                        loaded.game.rules,
                        seats,
                        fill=table.fill,
                        turn_time=table.turn_time,
                        hold_time=table.hold_time,
                        undo=table.undo,
                        hints=table.hints,
                        rematch=Rematch(game_id, seating, owner, table.seat_cast),
                    )
                except Refusal:
                    made = False  # another process made it first
                else:
                    self.hub.poke(game_id)
                    if state["table"]["seat"] == seated.seat:
                        return state, True
            seating = await self._seating(game_id)
        if seating.rematch is None:
            raise Refusal(409, "The rematch could not be started; please try again.")
        return await self.state_of(seating.rematch, owner), made

    # --- streams -----------------------------------------------------------------------

    async def opening(
        self, game_id: str, owner: str, since: int | None
    ) -> tuple[Seated, dict[str, Any]]:
        """What a stream opens with: the whole state, with the events after move count
        `since` when it is given (a browser reconnecting)."""
        async with self._lock(game_id):
            seated = await self._settled(game_id, owner)
            entries: Journal = []
            if since is not None and 0 <= since < len(seated.loaded.game.moves):
                entries = await self.journal_since(seated.loaded, since)
            return seated, self.state(seated.loaded, seated.seat, seated.seating, entries)

    async def moved(
        self, game_id: str, seat: int, shown: int, told: int, seating: Seating
    ) -> tuple[Seated, dict[str, Any]]:
        """For a stream that has shown the game up to move count `shown`, told that it now
        has `told` moves, and last saw the table as `seating`: the state now, with the
        events since.

        Without the game's lock: a request holding it may be waiting on the computer players
        after storing a person's card, and that card must reach the streams now. When this
        process stored the moves (the usual case) they are in its cache; moves stored by
        another process are read from the store."""
        loaded = await self._loaded(game_id)
        if loaded.recorded < told:
            seating = await self._seating(game_id)
            if seating.moves != loaded.recorded:
                loaded = await self._caught_up(game_id, loaded)
        seating = replace(
            seating,
            updated_at=max(seating.updated_at, loaded.moved_at),
            moves=loaded.recorded,
        )
        entries = await self.journal_since(loaded, shown)
        return Seated(loaded, seat, seating), self.state(loaded, seat, seating, entries)

    async def table_news(
        self, game_id: str, seat: int, before: Seating
    ) -> tuple[Seating, dict[str, Any] | None]:
        """For a stream that last saw the table as `before`: the table now, and a state with
        what changed as events (None when nothing it would show did)."""
        seating = await self._seating(game_id)
        # A person is not told of their own hint, as if by someone else.
        notices = [n for n in _notices(before, seating) if n["type"] != "hint" or n["seat"] != seat]
        notices += _quiet_notices(before, seating, self.heartbeat)
        if not notices:
            return seating, None
        loaded = await self._loaded(game_id)
        self._wind(loaded, seating)
        state = self.state(loaded, seat, seating, [])
        moves = len(loaded.game.moves)
        state["events"] = [{**notice, "n": moves} for notice in notices]
        return seating, state

    async def heartbeats(self, game_id: str, seating: Seating) -> Seating:
        """`seating` with each person's latest heartbeat from the store (who is here, and
        the turn clock's hold, are worked out from them); the rest as the caller last saw
        it, so that what changed is still told as table news."""
        now = await self._seating(game_id)
        people = {
            seat: replace(
                person, seen_at=now.people[seat].seen_at, left_at=now.people[seat].left_at
            )
            if seat in now.people
            else person
            for seat, person in seating.people.items()
        }
        return replace(seating, people=people, read_at=now.read_at)

    async def seating(self, game_id: str) -> Seating:
        """The table's people as the store has them now (a stream checks who holds its
        seat)."""
        return await self._seating(game_id)

    def stream_opened(self, game_id: str, seat: int) -> None:
        """An event stream of the person at `seat` opened in this process."""
        key = (game_id, seat)
        self._streams[key] = self._streams.get(key, 0) + 1
        self.metrics.stream_opened()

    def stream_closed(self, game_id: str, seat: int, kept: bool = True) -> None:
        """An event stream of theirs ended: when it was their last in this process, their
        page has closed (or lost its connection), and the others are told now instead of
        when the heartbeats run out. Called from a stream being cancelled, so the store is
        written by a task of its own. A stream whose browser no longer holds the seat
        (`kept` False: it left, and someone else may sit there now) says nothing of the
        seat's person."""
        key = (game_id, seat)
        self.metrics.stream_closed()
        left = self._streams.get(key, 0) - 1
        if left > 0:
            self._streams[key] = left
            return
        self._streams.pop(key, None)
        if not kept:
            return
        self._touched.pop(key, None)  # their next request notes them here at once
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a stream closed outside the loop, at the process's exit
            return
        # Noted as of now, though written a moment later: a reload's first request, made
        # meanwhile, is later than the close and shows the person here.
        task = loop.create_task(self._page_closed(game_id, seat, time.time()))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _page_closed(self, game_id: str, seat: int, at: float) -> None:
        if (game_id, seat) in self._streams:
            return  # a page of theirs opened again meanwhile
        try:
            await asyncio.to_thread(self.store.page_closed, game_id, seat, at)
        except StoreUnavailable:
            return  # the heartbeats run out instead
        self.hub.poke(game_id)

    async def here(self, game_id: str, owner: str) -> None:
        """The caller's page is still open and reaching the server (its answer to a ping of
        its event stream). Usually one write, no read: the store notes it only for the seat
        this browser holds, and not if it is away or its page closed; then the longer way
        (`_seated`) takes the seat back and tells the others. A browser with no seat here is
        told the game is missing."""
        if not GAME_ID.fullmatch(game_id):
            raise Refusal(404, NO_SUCH_GAME)
        now = time.time()
        if await asyncio.to_thread(self.store.heard_from, game_id, owner, now):
            return
        seated = await self._seated(game_id, owner)
        if seated.loaded.table.friends and seated.seat in seated.seating.people:
            await self.seen(game_id, seated.seat)

    async def seen(self, game_id: str, seat: int) -> None:
        """A stream's heartbeat: the person is still here."""
        now = time.time()
        if len(self._touched) > TOUCHED_KEPT:
            self._touched.clear()  # only an economy: forgetting costs one write each
        self._touched[(game_id, seat)] = now
        await asyncio.to_thread(self.store.touch, game_id, seat, now)

    # --- the table's clock -------------------------------------------------------------

    def _wind(self, loaded: LoadedGame, seating: Seating) -> None:
        """Set this game's alarm for the moment the people it waits on are played for."""
        game_id = loaded.stored.id
        old = self._clocks.pop(game_id, None)
        if old is not None:
            old.cancel()
        due = _deadline(loaded, seating, time.time(), self.heartbeat, self.resumed)
        if due is None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, due[0] - time.time()) + 0.05
        self._clocks[game_id] = loop.call_later(delay, self._ring, game_id)

    def _ring(self, game_id: str) -> None:
        self._clocks.pop(game_id, None)
        task = asyncio.get_running_loop().create_task(self._time_up(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _time_up(self, game_id: str) -> None:
        """The turn time (or a gone person's hold time) has run out: a computer player makes
        the move of each person waited on who is still at the table (heard from within the
        hold time), and that person's next move is theirs again; the people gone are marked
        away and played for until they come back. A finished round is dealt on.

        (Everyone marked away at their first late move once let the computer players play
        a whole round in a second while three people sat at the pass screen.)"""
        try:
            async with self._lock(game_id):
                loaded = await self._loaded(game_id)
                seating = await self._seating(game_id)
                if seating.moves != loaded.recorded:
                    loaded = await self._caught_up(game_id, loaded)
                now = time.time()
                due = _deadline(loaded, seating, now, self.heartbeat, self.resumed)
                if due is None or due[0] > now:
                    self._wind(loaded, seating)
                    return
                hold = _hold(loaded.table, self.heartbeat)
                here = [s for s in due[1] if _heard_within(seating, s, now, hold)]
                for seat in due[1]:
                    if seat in here:
                        continue
                    if await asyncio.to_thread(self.store.set_away, game_id, seat, True):
                        self.hub.poke(game_id)
                seating = await self._seating(game_id)
                game = loaded.game
                if here and game.to_act:
                    played = game.copy()
                    fill = dict.fromkeys(here, loaded.table.fill)
                    styles = loaded.table.styles(seating)
                    spent: Decisions = []
                    entries = await asyncio.to_thread(
                        stand_in, played, fill, loaded.stored.seed, styles, spent
                    )
                    self.metrics.decided(spent)
                    work = await self._store(loaded, played, entries, here)
                    loaded = work if work is not None else await self._loaded(game_id, fresh=True)
                    game = loaded.game
                if _between(game) and _deal_due(loaded, seating, now):
                    dealt = game.copy()
                    work = await self._store(
                        loaded, dealt, [(len(game.moves) + 1, dealt.apply(NextRound()))]
                    )
                    loaded = work if work is not None else await self._loaded(game_id, fresh=True)
                loaded, _ = await self._advance(loaded, seating)
                self._wind(loaded, await self._seating(game_id))
        except StoreUnavailable as error:
            # Looked at again later (no request may come to wind it once the database is
            # back); the turn then runs on for `RETURN_GRACE` from its return.
            log.warning("the clock of game %s could not act: %s", game_id, error)
            if game_id not in self._clocks:
                loop = asyncio.get_running_loop()
                self._clocks[game_id] = loop.call_later(RETURN_GRACE, self._ring, game_id)
        except Refusal as error:
            log.warning("the clock of game %s could not act: %s", game_id, error)
        except Exception:
            log.exception("the clock of game %s failed", game_id)

    def close(self) -> None:
        for clock in self._clocks.values():
            clock.cancel()
        self._clocks.clear()

    # --- what a seat sees --------------------------------------------------------------

    def state(
        self, loaded: LoadedGame, seat: int, seating: Seating, entries: Journal
    ) -> dict[str, Any]:
        game = loaded.game
        view = game.view(seat)
        reasons: dict[str, str] = {}
        if view.is_my_turn:
            legal = view.legal_mask
            for card in view.hand:
                if not legal >> card & 1:
                    reasons[str(card)] = game.why_not(Play(seat, card)) or ""
        return {
            "id": loaded.stored.id,
            "move": len(game.moves),
            "phase": game.phase,
            "view": view.to_dict(),
            "reasons": reasons,
            "events": journal_for_browser(entries, seat, loaded.stand_ins),
            "results": results(game),
            **commitment(game),
            "scores": list(game.scores),
            "winners": list(game.winners),
            "play_on": None if game.play_on is None else game.play_on.to_dict(),
            "moon_pending": game.moon_pending,
            "moon_stake": game.moon_stake,
            "moon_scores": _moon_scores(game),
            "players": _players(loaded.table, seat, seating, self.heartbeat),
            "table": _table_state(loaded, seat, seating, self.heartbeat, self.resumed),
            "undo": _undo_state(loaded, seat),
        }


def undo_point(game: Game, seat: int) -> int | str:
    """How many moves stand once `seat`'s latest pass or card of this round is taken back
    (with every move after it), or the sentence saying why nothing can be. A round that is
    over is scored and its deal key shown, so a take-back never crosses into it."""
    if game.is_over:
        return UNDO_GAME_OVER
    if game.phase not in ("passing", "playing"):
        return UNDO_ROUND_OVER
    to = take_back_point(game, seat)
    return UNDO_NOTHING if to is None else to


def _round_began(game: Game) -> int:
    """How many moves the game had when its current round was dealt."""
    for number in range(len(game.moves) - 1, -1, -1):
        if isinstance(game.moves[number], NextRound):
            return number + 1
    return 0


def _undo_state(loaded: LoadedGame, seat: int) -> dict[str, Any]:
    table = loaded.table
    allowed = table.undo and not table.friends
    to = undo_point(loaded.game, seat) if allowed else None
    return {
        "allowed": allowed,
        "to": to if isinstance(to, int) else None,
        "used": loaded.undos,
    }


def _table_state(
    loaded: LoadedGame, seat: int, seating: Seating, heartbeat: float, resumed: float = 0.0
) -> dict[str, Any]:
    table = loaded.table
    now = time.time()
    open_seats = [
        s for s in table.people if (p := seating.people.get(s)) is not None and p.owner is None
    ]
    if seating.started or not table.friends:
        open_seats = []
    due = _deadline(loaded, seating, now, heartbeat, resumed)
    stood_in = _stood_in_this_round(loaded, seat)
    invite = None
    if open_seats and seat == table.host and table.invite:
        invite = f"/?table={loaded.stored.id}#invite={table.invite}"
    return {
        "seat": seat,
        "host": seat == table.host,
        "host_seat": table.host,
        "can_start": table.friends
        and not seating.started
        and (seat == table.host or table.rematch_of is not None),
        "rematch_of": table.rematch_of,
        "friends": table.friends,
        "started": seating.started,
        "open_seats": open_seats,
        "invite": invite,
        "turn_time": table.turn_time,
        "hold_time": _hold(table, heartbeat),
        "fill": table.fill,
        "hints": table.hints,
        "waiting_on": (
            list(loaded.game.to_act) or _unready(loaded, seating) if seating.started else []
        ),
        "deadline": due[0] if due is not None else None,
        "now": now if due is not None else None,
        "rematch": seating.rematch,
        "stood_in": len(stood_in),
        "pass_stood_in": any(isinstance(move, Pass) for move in stood_in),
    }


def _stood_in_this_round(loaded: LoadedGame, seat: int) -> list[Move]:
    """`seat`'s moves this round that a computer player made for them (their time ran out,
    or they were away)."""
    game, first = loaded.game, _round_began(loaded.game)
    moves = (game.moves[n] for n in loaded.stand_ins if n >= first)
    return [move for move in moves if getattr(move, "seat", None) == seat]


def _moon_scores(game: Game) -> dict[str, list[int]] | None:
    scores = game.moon_scores()
    return None if scores is None else {choice: list(row) for choice, row in scores.items()}


def seat_levels(seats: Sequence[str]) -> tuple[tuple[str | None, ...], int]:
    """A new table's seats as it is asked for ("you" exactly once, "friend" or a computer
    player's level at each seat) as `Table` keeps them: the level at each seat, None for a
    person's, and the seat of the person asking."""
    if list(seats).count("you") != 1:
        raise Refusal(422, 'Exactly one seat must be "you".')
    return tuple(None if kind in ("you", "friend") else kind for kind in seats), seats.index("you")


def _started(loaded: LoadedGame, seating: Seating) -> str:
    """Why a link to a table that has started seats nobody more."""
    if loaded.game.is_over:
        return GAME_OVER
    people = [seating.people.get(seat) for seat in loaded.table.people]
    if all(person is not None and person.owner is not None for person in people):
        return STARTED_FULL
    return STARTED_EARLY


def seating_preview(seats: Sequence[str], fill: str) -> list[dict[str, Any]]:
    """The seats of a table asked for with `seats` (as `GameService.create` takes them) as
    its lobby shows them before anyone has joined, by the lobby's own code (`_players`), so
    that the start screen shows the table the invite will seat. Each friend's seat also has
    `stand_in`: the character that plays it if nobody takes it (characters go by seat, so
    that does not depend on which of the other friends come)."""
    levels, host = seat_levels(seats)
    table = Table(levels, host=host, fill=fill, seat_cast=True)
    people = {seat: Person(seat, _HOST if seat == host else None, "") for seat in table.people}
    shown = _players(table, host, Seating(False, None, 0.0, 0, people))
    for entry in shown:
        if entry["you"]:
            entry["name"] = "You"
    return shown


#: The owner of the host's seat in a table that is only being looked at (never stored).
_HOST = "host"


def _players(
    table: Table, me: int, seating: Seating, heartbeat: float = HEARTBEAT
) -> list[dict[str, Any]]:
    """Names for the seats: people by the names they chose ("You" at a table of one),
    computer players by their characters' (`Table.characters`, named by `character`). A
    seat nobody has taken yet names as `stand_in` the character that plays it if the table
    starts now: the one `Table.characters` gives it once the table as it stands has started,
    as the start itself does, so the lobby never says one name and the table seats another."""
    characters = table.characters(seating)
    at_start: dict[int, dict[str, Any]] = {}
    if table.friends and not seating.started:
        at_start = table.characters(replace(seating, started=True))
    now = time.time()
    players = []
    for seat, level in enumerate(table.seats):
        person = seating.people.get(seat)
        entry: dict[str, Any] = {
            "seat": seat,
            "level": level,
            "person": level is None,
            "you": seat == me,
            "away": False,
            "connected": False,
            "reconnecting": False,
            "open": False,
        }
        character = characters.get(seat)
        if character is not None:
            entry |= {"name": character["name"], "character": character["id"]}
            if level is None:  # a seat nobody took: a computer player holds it
                entry |= {"level": table.fill, "person": False}
        elif not table.friends:
            entry["name"] = "You" if seat == me else "Guest"
            entry["connected"] = seat == me
        elif person is not None and person.owner is not None:
            entry["name"] = person.name
            entry["away"] = person.away
            entry["hints"] = person.hints
            entry["connected"] = seat == me or (
                person.seen_at is not None
                and now - person.seen_at < QUIET_BEATS * heartbeat
                and not person.page_closed
            )
            # Gone quiet without closing the page: shown as reconnecting until they are
            # heard from again, or marked away once the hold time runs out.
            entry["reconnecting"] = seat != me and _quiet(person, now, heartbeat)
        else:
            stand_in = at_start.get(seat)
            entry |= {
                "name": "Open seat",
                "open": True,
                "stand_in": stand_in["id"] if stand_in is not None else None,
            }
        players.append(entry)
    return players


def _between(game: Game) -> bool:
    """Whether a round is over and the next is not dealt yet (the game goes on)."""
    return not game.to_act and not game.is_over


def name_taken(name: str) -> str:
    """The refusal of a name someone at the table has already (`name` as they are called,
    whatever the case typed). The page shows it as text: the name is set apart (U+2068
    FIRST STRONG ISOLATE ... U+2069 POP DIRECTIONAL ISOLATE), so a right-to-left one leaves
    the words round it in their order."""
    return (
        f"Someone at this table is called \u2068{name}\u2069 already:"
        " add an initial, or choose another name."
    )


def _same_name(a: str, b: str) -> bool:
    """Names the others could not tell apart: the same letters, whatever their case."""
    return a.strip().casefold() == b.strip().casefold()


def _rematch_complete(table: Table, seating: Seating) -> bool:
    """Whether a rematch waiting to start has everyone back from the game before it."""
    if seating.started or table.rematch_of is None:
        return False
    return not any(p.away for p in seating.people.values() if p.owner is not None)


def _here(seating: Seating) -> list[int]:
    """The seats of the people at the table and not away."""
    return [s for s, p in seating.people.items() if p.owner is not None and not p.away]


def _unready(loaded: LoadedGame, seating: Seating) -> list[int]:
    """Between rounds at a table of friends: the people here who have not asked for the
    next round yet (none at any other moment)."""
    game = loaded.game
    if not loaded.table.friends or not _between(game):
        return []
    done = len(game.moves)
    return [s for s in _here(seating) if seating.people[s].ready != done]


def _reading_until(table: Table, seating: Seating) -> float:
    """When a round's end stops waiting for people still reading it (its points, the
    coach's review): `READING_TURNS` turn times after the round's last card, or never at a
    table without a turn time."""
    if not table.turn_time:
        return math.inf
    return seating.updated_at + READING_TURNS * table.turn_time


def _deal_due(loaded: LoadedGame, seating: Seating, now: float) -> bool:
    """Whether the clock deals the next round now: everyone here has asked for it, or the
    reading time has passed (a table with nobody here waits for it, or for ever)."""
    if _here(seating) and not _unready(loaded, seating):
        return True
    return now >= _reading_until(loaded.table, seating)


def _hold(table: Table, heartbeat: float) -> float:
    """The hold time as it works: never under two of a page's heartbeats, so that an open
    page is never taken for a closed one."""
    return max(table.hold_time, 2 * heartbeat)


def _heard_within(seating: Seating, seat: int, now: float, hold: float) -> bool:
    """Whether the person at `seat` was heard from (a request, their page's heartbeat)
    within the last `hold` seconds: still at the table, if slow."""
    person = seating.people.get(seat)
    return person is not None and person.seen_at is not None and now < person.seen_at + hold


def _deadline(
    loaded: LoadedGame, seating: Seating, now: float, heartbeat: float, resumed: float = 0.0
) -> tuple[float, list[int]] | None:
    """When the table stops waiting on its people, and for which seats: the turn time from
    the latest move, or sooner for a person gone past the hold time. None if no clock runs.
    The game's first pass has `START_GRACE` more. A person counts as gone only once two of
    their page's heartbeats have been missed, so a hold time shorter than that never takes
    an open page for a closed one. A turn that
    began before `resumed` (the process started, or its store came back) runs on until
    `RETURN_GRACE` after it at least: nobody could move or be heard from meanwhile."""
    table = loaded.table
    hold = _hold(table, heartbeat)
    game = loaded.game
    if not table.friends or not seating.started or game.is_over:
        return None
    waiting = game.to_act
    turn = seating.updated_at + table.turn_time if table.turn_time else math.inf
    if game.hand_number == 0 and game.phase == "passing":
        turn += START_GRACE  # the pages were still drawing the table as it started
    grace = resumed + RETURN_GRACE if seating.updated_at < resumed else -math.inf
    if not waiting:
        # A finished round: dealt on once every person here has asked for the next one, or
        # when the reading time has passed. A person gone past the hold time is marked away
        # (and no longer waited for); one who is here but reading is not.
        unready = _unready(loaded, seating)
        if _here(seating) and not unready:
            return seating.updated_at, []
        seen = {seat: seating.people[seat].seen_at for seat in unready}
        gone = [(at + hold, seat) for seat, at in seen.items() if at is not None]
        first = min([_reading_until(table, seating), *(when for when, _ in gone)])
        if first == math.inf:
            return None
        first = max(first, grace)
        return first, [seat for when, seat in gone if when <= max(first, now)]
    due: list[tuple[float, int]] = []
    for seat in waiting:
        person = seating.people.get(seat)
        if person is None or person.owner is None or person.away:
            continue
        when = turn
        if person.seen_at is not None:
            when = min(when, person.seen_at + hold)
        if when < math.inf:
            due.append((max(when, grace), seat))
    if not due:
        return None
    first = min(when for when, _ in due)
    return first, [seat for when, seat in due if when <= max(first, now)]


def _quiet(person: Person, at: float, heartbeat: float) -> bool:
    """Whether a person's page had gone quiet at `at` without closing: not heard from for
    `QUIET_BEATS` heartbeats (a phone gone offline), and not yet marked away."""
    return (
        person.owner is not None
        and not person.away
        and person.seen_at is not None
        and not person.page_closed
        and at - person.seen_at >= QUIET_BEATS * heartbeat
    )


def _quiet_notices(before: Seating, after: Seating, heartbeat: float) -> list[dict[str, Any]]:
    """People whose pages went quiet between two reads of the table (`reconnecting`), or were
    heard from again (`reconnected`): the others' pages show it at once, not at the next
    move. Each read is judged at its own time."""
    notices: list[dict[str, Any]] = []
    for seat, now in after.people.items():
        was = before.people.get(seat)
        if was is None or was.owner != now.owner:
            continue
        quiet_then = _quiet(was, before.read_at, heartbeat)
        quiet_now = _quiet(now, after.read_at, heartbeat)
        if quiet_now and not quiet_then:
            notices.append({"type": "reconnecting", "seat": seat})
        elif quiet_then and not quiet_now and not now.away and not now.page_closed:
            notices.append({"type": "reconnected", "seat": seat})
    return notices


def _notices(before: Seating, after: Seating) -> list[dict[str, Any]]:
    """What changed at a table, as events: people joining or leaving, going away, coming back,
    closing their page or opening it again, reacting and asking the coach for a hint; the
    table starting; a rematch.

    A seat's news comes in the order it can have happened: arriving (joined, back, page
    opened), then what the person did while here (ready, hint, reaction), then going (page
    closed, away, left). A stream may see several changes at once (it woke once for two
    pokes), and a person acts only while here: a request from someone away brings them back
    first (`_seated`). The others' log said "Fox is away" before "Fox is ready for the next
    round" when Fox had asked for it and then left."""
    notices: list[dict[str, Any]] = []
    if after.started and not before.started:
        notices.append({"type": "started"})
    for seat, now in after.people.items():
        was = before.people.get(seat)
        came: list[dict[str, Any]] = []
        did: list[dict[str, Any]] = []
        went: list[dict[str, Any]] = []
        if now.owner is not None and (was is None or was.owner is None):
            came.append({"type": "joined", "seat": seat, "name": now.name})
        if was is not None and was.owner is not None and now.owner is None:
            # Gone from a table not yet started: their seat is open again.
            went.append({"type": "left", "seat": seat, "name": was.name})
        if was is not None and now.away != was.away:
            (went if now.away else came).append(
                {"type": "away" if now.away else "back", "seat": seat}
            )
        if was is not None and now.page_closed != was.page_closed:
            (went if now.page_closed else came).append(
                {"type": "page-closed" if now.page_closed else "page-opened", "seat": seat}
            )
        if now.ready is not None and (was is None or was.ready != now.ready):
            did.append({"type": "ready", "seat": seat})
        if was is not None and now.hints > was.hints:
            did.append({"type": "hint", "seat": seat, "hints": now.hints})
        if now.reaction_at is not None and (
            was is None or was.reaction_at is None or now.reaction_at > was.reaction_at
        ):
            did.append({"type": "reaction", "seat": seat, "reaction": now.reaction})
        notices += came + did + went
    if after.rematch is not None and before.rematch is None:
        notices.append({"type": "rematch", "id": after.rematch})
    return notices


def _moved_on_to(loaded: LoadedGame, stored: StoredGame) -> LoadedGame | None:
    """`loaded` with the moves `stored` has beyond it applied, or None when its moves are
    not the start of the stored record (or a stored move is refused: then a replay says
    whether the record is damaged)."""
    done = loaded.recorded
    if len(stored.actions) <= done or undos(stored.actions[done:]):
        return None  # nothing new, or a take-back: replayed
    standing: list[object] = list(stored.actions[:done])
    try:
        if loaded.undos:  # folded only where there is something to fold (rare)
            standing = fold(standing)
    except IllegalMoveError:
        return None
    if [move_to_action(m) for m in loaded.game.moves] != [_unmarked(a) for a in standing]:
        return None
    game = loaded.game.copy()
    entries: Journal = []
    marked = []
    try:
        for action in stored.actions[done:]:
            if isinstance(action, dict) and action.get(STAND_IN) is True:
                marked.append(len(game.moves))
            entries.append((len(game.moves) + 1, game.apply(action_to_move(action))))
    except (IllegalMoveError, ValueError, KeyError, TypeError):
        return None
    caught = loaded.moved_on(game, entries, len(stored.actions), marked)
    caught.stored = stored
    caught.moved_at = stored.updated_at
    return caught


def _unmarked(action: object) -> object:
    """A saved move without its stand-in mark, as `move_to_action` writes it."""
    if isinstance(action, dict) and STAND_IN in action:
        return {k: v for k, v in action.items() if k != STAND_IN}
    return action


def _replayed(stored: StoredGame) -> LoadedGame:
    """The stored game replayed; a record the engine refuses, or settings the web game
    cannot seat, is reported as damaged rather than served half-loaded."""
    try:
        rules = Rules.from_dict(stored.rules)
        table = Table.from_settings(stored.settings, rules.players)
        game = replayed(rules, stored.seed, stored.actions)
    except Exception:
        log.exception("stored game %s cannot be replayed", stored.id)
        raise Refusal(500, DAMAGED) from None
    return LoadedGame(stored, game, table, moved_at=stored.updated_at)


def _latest_move_of(game: Game, seat: int) -> int:
    """The number of the latest move `seat` made, or any person could have made (a deal of
    the next round); -1 if none."""
    for number in range(len(game.moves) - 1, -1, -1):
        mover = getattr(game.moves[number], "seat", None)
        if mover is None or mover == seat:
            return number
    return -1


def _replayed_since(loaded: LoadedGame, number: int) -> Journal:
    """The events of moves after move count `number`, by replaying the record up to there
    (it costs as much as the game is long)."""
    stored = loaded.stored
    game = replayed(
        Rules.from_dict(stored.rules),
        stored.seed,
        [move_to_action(m) for m in loaded.game.moves[:number]],
    )
    entries: Journal = []
    for move in loaded.game.moves[number:]:
        entries.append((len(game.moves) + 1, game.apply(move)))
    return entries


def _passes_cross(game: Game, number: int, move: Move) -> bool:
    """Whether `move` is a pass sent at move `number` while only other seats' passes were
    stored since: each person's pass depends on their own hand alone, so it still stands."""
    if not isinstance(move, Pass):
        return False
    since = game.moves[number:]
    return all(isinstance(m, Pass) and m.seat != move.seat for m in since)


def _expected(move: Move, game: Game, seat: int) -> bool:
    """Whether a move of this kind is the seat's to make now. A refusal of one that is not
    is a 409 (wrong time); of one that is, a 422 (wrong move)."""
    phase = game.phase
    if isinstance(move, Play):
        return phase == "playing" and game.round.turn == seat
    if isinstance(move, Pass):
        return phase == "passing" and seat in game.to_act
    if isinstance(move, ChooseMoon):
        return phase == "moon-choice" and game.moon_pending == seat
    return phase == "round-over"


def _status(game: Game) -> str:
    return "over" if game.is_over else "active"
