"""The JSON API of the web game: one router, thin handlers around `GameService`.

A browser is known by an HttpOnly cookie made when it starts its first game; a game answers
only to the browser that started it. The cookie is a token this server signed
(`hearts.web.tokens`): any other value owns nothing and is replaced by the next new game.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import secrets
import unicodedata
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import JSONResponse

from .. import ChooseMoon, NextRound, Pass, Play, Rules
from ..ai import LEVELS as AI_LEVELS
from ..moves import as_face
from ..rules import MAX_PLAYERS, MAX_TARGET, MIN_PLAYERS, MIN_TARGET
from .characters import LEVEL_NOTES, LEVELS, OPPONENTS
from .headers import is_https
from .options import PRESETS, RULE_OPTIONS, rules_from_choices, table_sizes
from .quotas import OverQuota, Quotas
from .schemas import (
    Current,
    Empty,
    GameState,
    Invitation,
    InvitationCheck,
    Join,
    Level,
    MoonChoice,
    Move,
    NewGame,
    PassCards,
    PlayCard,
    Problem,
    Reaction,
    SeatKind,
    SeatShown,
)
from .service import (
    HOLD_TIME,
    REACTIONS,
    TURN_TIME,
    GameService,
    MoveFor,
    Refusal,
    seating_preview,
)
from .store import owner_key
from .tokens import COOKIE, SECURE_COOKIE, Tokens
from .unfinished import GameSummary, summaries

COOKIE_AGE = 400 * 24 * 3600  # the longest lifetime browsers accept

router = APIRouter(prefix="/api")
#: The table sizes with their lines and allowed house rules (worked out once, from `Rules`).
TABLES = table_sizes()
REFUSALS: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem} for code in (403, 404, 409, 422, 429)
}
#: The game lengths a table may choose, lowest and highest (`options.rules_from_choices`
#: refuses others). The scorekeeper's model.js offers the same; a test holds them together.
TARGET_RANGE = (MIN_TARGET, MAX_TARGET)
#: The longest name a person may sit under (the scorekeeper's too).
NAME_LENGTH = 24
#: The code points a name may hold at most, whatever it looks like: a family emoji is seven
#: (four people and three joiners), and a letter may carry a few accents.
NAME_CODE_POINTS = NAME_LENGTH * 4
#: The invisible characters a name may hold: U+200D ZERO WIDTH JOINER makes one emoji of
#: several ("👩‍💻", "👨‍👩‍👧‍👦") and U+200C ZERO WIDTH NON-JOINER keeps letters apart in Persian and
#: Indic names. Every other format character stays refused: the bidi controls (U+202A-U+202E,
#: U+2066-U+2069) a person typed could reorder the words round the name on the page.
JOINERS = frozenset("\u200c\u200d")
ZWJ = "\u200d"
#: The turn times a table may have, in seconds (0 or None: no limit).
TURN_TIMES = (5, 600)


def service(request: Request) -> GameService:
    found: GameService = request.app.state.service
    return found


def _https(request: Request) -> bool:
    return is_https(request.scope, request.app.state.settings.https)


async def browser_token(request: Request) -> str | None:
    """The browser's owner token if this server issued it; None for none or any other."""
    value = request.cookies.get(SECURE_COOKIE if _https(request) else COOKIE)
    tokens: Tokens = request.app.state.tokens
    return value if tokens.is_valid(value) else None


Service = Annotated[GameService, Depends(service)]
BrowserCookie = Annotated[str | None, Depends(browser_token)]


def _owner(cookie: str | None) -> str:
    # Without a cookie no game can match: a fresh random key never equals a stored owner.
    return owner_key(cookie) if cookie else owner_key(secrets.token_urlsafe(32))


def over_quota(over: OverQuota) -> JSONResponse:
    headers = {"Retry-After": str(over.retry_after)} if over.retry_after else None
    return JSONResponse({"detail": over.reason}, status_code=over.status, headers=headers)


def refused(refusal: Refusal) -> JSONResponse:
    body: dict[str, Any] = {"detail": refusal.reason}
    if refusal.state is not None:
        body["state"] = refusal.state
    if refusal.field is not None:
        body["field"] = refusal.field
    wait = refusal.retry_after
    headers = {"Retry-After": str(max(1, wait))} if wait is not None else None
    return JSONResponse(body, status_code=refusal.status, headers=headers)


@router.get(
    "/options",
    responses={200: {"content": {"application/json": {}}}, 304: {"description": "Unchanged."}},
)
def options(request: Request) -> Response:
    """The opponents, the levels, every house rule with a line of explanation and the table
    sizes (3 to 10) with what each changes and the house rules it allows. The same for
    everyone until the server is updated: sent with an ETag, and a browser asking again
    with it (If-None-Match) is answered 304 without the body (28 KB)."""
    body, etag = options_body()
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    asked = request.headers.get("if-none-match", "")
    if etag in (tag.strip().removeprefix("W/") for tag in asked.split(",")):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


@functools.cache
def options_body() -> tuple[bytes, str]:
    """`/api/options` as sent, and its ETag (a digest of the body)."""
    body = json.dumps(options_data(), ensure_ascii=False, separators=(",", ":")).encode()
    return body, f'"{hashlib.sha256(body).hexdigest()[:32]}"'


def options_data() -> dict[str, Any]:
    return {
        "opponents": [
            {key: o[key] for key in ("id", "name", "blurb", "face", "quips")} for o in OPPONENTS
        ],
        "levels": [
            {"name": level, "help": LEVEL_NOTES[level]} for level in LEVELS if level in AI_LEVELS
        ],
        "rules": RULE_OPTIONS,
        "presets": PRESETS,
        "defaults": Rules().to_dict(),
        "tables": TABLES,
        "reactions": list(REACTIONS),
        "table_defaults": {"turn_time": TURN_TIME, "hold_time": HOLD_TIME, "fill": "medium"},
        "target_range": list(TARGET_RANGE),
    }


@router.get("/seating", response_model=list[SeatShown], responses={422: {"model": Problem}})
def seating(
    seats: Annotated[
        list[SeatKind],
        Query(
            min_length=MIN_PLAYERS,
            max_length=MAX_PLAYERS,
            description='One per seat, as `POST /api/games` takes them: "you" (exactly once), '
            '"friend" or a computer player\'s level (`?seats=you&seats=friend&seats=easy`).',
        ),
    ],
    fill: Annotated[
        Level, Query(description="The level of computer players in seats nobody takes.")
    ] = "medium",
) -> Any:
    """The table these seats would make, seat by seat, as its lobby will show it before
    anyone joins: the character and level at each computer seat, each friend's seat open
    (with the character that plays it if nobody comes, when that is already known). Nothing
    is made or stored: the start screen asks as the seats are chosen."""
    try:
        return seating_preview(seats, fill)
    except Refusal as refusal:
        return refused(refusal)


#: A name with a control or format character in it (a text-direction mark, a zero-width
#: space): invisible in the box, so the sentence says what to do rather than what it is.
INVISIBLE_IN_NAME = (
    "A name cannot hold invisible characters (pasted text can bring them): type it again."
)


def clean_name(raw: str) -> str:
    """A person's name as the table shows it: spaces trimmed and runs of them made one;
    refused (422) when empty, too long, or holding characters that are not printable (the
    joiners of emoji and scripts, `JOINERS`, are let through)."""
    name = " ".join(raw.split())
    # Something that shows by itself: a letter, a digit, a mark of punctuation or a symbol
    # (an emoji). A lone variation selector, skin tone's joiner or accent showed as nothing.
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in name):
        raise Refusal(422, "Please give a name for the others to see.")
    if name_length(name) > NAME_LENGTH or len(name) > NAME_CODE_POINTS:
        raise Refusal(422, f"A name can be at most {NAME_LENGTH} characters long.")
    if not all(ch.isprintable() or ch in JOINERS for ch in name):
        raise Refusal(422, INVISIBLE_IN_NAME)
    return name


def name_length(name: str) -> int:
    """How many characters a name shows, roughly as a person counts them: an accent, a
    variation selector or a skin tone belongs to the character before it, a character after a
    zero width joiner is part of the emoji it joins, a pair of regional indicators is one flag,
    and a joiner is nothing. Rough, not Unicode's full grapheme rules (no library for those
    here): it is as the page's `nameLength` counts, so the two agree.

    >>> name_length("Ana 👩‍💻"), name_length("👨‍👩‍👧‍👦"), name_length("José"), name_length("🇫🇷")
    (5, 1, 4, 1)
    """
    count = 0
    joined = False  # the character after a ZWJ joins the one before it
    flag = False  # a regional indicator waiting for its pair
    for ch in name:
        if ch in JOINERS:
            joined = ch == ZWJ
            continue
        indicator = "\U0001f1e6" <= ch <= "\U0001f1ff"
        tone = "\U0001f3fb" <= ch <= "\U0001f3ff"  # a skin tone, after the emoji it colours
        if joined or ((unicodedata.category(ch) in ("Mn", "Mc", "Me") or tone) and count):
            joined = False
        elif indicator and flag:
            flag = False
        else:
            count += 1
            flag = indicator
            continue
        flag = False
    return count


def _issue_cookie(request: Request, response: Response, cookie: str | None) -> str:
    """The browser's token, made and set as its cookie if it has none yet."""
    if cookie:
        return cookie
    cookie = str(request.app.state.tokens.issue())
    _set_cookie(request, response, cookie)
    return cookie


def _set_cookie(request: Request, response: Response, token: str) -> None:
    https = _https(request)
    response.set_cookie(
        SECURE_COOKIE if https else COOKIE,
        token,
        max_age=COOKIE_AGE,
        httponly=True,
        # Strict still lets a friend in by a link from a chat app: the page loads without
        # the cookie, and its own requests to this site carry it.
        samesite="strict",
        path="/",
        # Over HTTPS the cookie must never travel in clear; on plain-HTTP loopback it
        # cannot be Secure or the browser would drop it.
        secure=https,
    )


@router.post("/games", response_model=GameState, responses=REFUSALS, status_code=201)
async def new_game(
    body: NewGame,
    request: Request,
    response: Response,
    games: Service,
    cookie: BrowserCookie = None,
) -> Any:
    """Start a game: against computer players (`levels`, one each or one for all), or at a
    table with friends (`seats`); the browser keeps it by a cookie. With `seats` and no
    `rules.players`, the table has as many seats as `seats` lists."""
    choices = body.rules
    if body.seats is not None and "players" not in choices:
        choices = {**choices, "players": len(body.seats)}
    try:
        rules = rules_from_choices(choices)
    except (ValueError, TypeError) as error:
        return JSONResponse({"detail": str(error)}, status_code=422)
    if body.seats is not None and body.levels is not None:
        return JSONResponse({"detail": "Give either seats or levels, not both."}, status_code=422)
    if body.seats is None:
        levels: list[str] = list(body.levels or ["easy"])
        if len(levels) == 1:
            levels *= rules.players - 1
        if len(levels) != rules.players - 1:
            return JSONResponse(
                {
                    "detail": f"A table of {rules.players} needs {rules.players - 1} computer "
                    f"levels, not {len(levels)}."
                },
                status_code=422,
            )
        seats = ["you", *levels]
    else:
        seats = list(body.seats)
    turn_time = body.turn_time or None
    if turn_time is not None and not TURN_TIMES[0] <= turn_time <= TURN_TIMES[1]:
        return JSONResponse(
            {"detail": f"A turn time is off (0) or {TURN_TIMES[0]} to {TURN_TIMES[1]} seconds."},
            status_code=422,
        )
    try:
        name = clean_name(body.name) if body.name is not None else "Host"
    except Refusal as refusal:
        # Said by the name box on the start screen, not over the whole page.
        return JSONResponse({"detail": refusal.reason, "field": "name"}, status_code=422)
    quotas: Quotas = request.app.state.quotas
    address = request.client.host if request.client else None
    # A browser without a cookie is counted under the one it will be given with its game.
    token = cookie or str(request.app.state.tokens.issue())
    try:
        start = await asyncio.to_thread(quotas.admit, owner_key(token), address)
    except OverQuota as over:
        return over_quota(over)
    try:
        created = await games.create(
            owner_key(token),
            rules,
            seats,
            name=name,
            fill=body.fill,
            turn_time=turn_time,
            hold_time=body.hold_time,
            undo=body.undo,
            hints=body.hints,
        )
    except Refusal as refusal:
        # A request refused as it stood (its seats) made no game, so it costs no start. One
        # that failed on the server's side still counts: its game may have been stored.
        await asyncio.to_thread(quotas.withdraw, start)
        return refused(refusal)
    if not cookie:
        _set_cookie(request, response, token)
    games.forget(await asyncio.to_thread(quotas.after_create, owner_key(token)))
    return created


@router.post("/games/{game_id}/invitation", response_model=Invitation, responses=REFUSALS)
async def invitation(
    game_id: str, body: InvitationCheck, games: Service, cookie: BrowserCookie = None
) -> Any:
    """What an invitation link opens, before joining: the host, the people seated, the
    open seats, and whether this browser has a seat there already. (A POST, so that the
    invitation's token stays out of addresses and logs.)"""
    try:
        return await games.invitation(game_id, _owner(cookie), body.invite)
    except Refusal as refusal:
        return refused(refusal)


@router.post("/games/{game_id}/join", response_model=GameState, responses=REFUSALS)
async def join(
    game_id: str,
    body: Join,
    request: Request,
    response: Response,
    games: Service,
    cookie: BrowserCookie = None,
) -> Any:
    """Take a friend's seat at a table by its invitation; a browser already seated there
    gets its seat back."""
    try:
        name = clean_name(body.name)
        cookie = _issue_cookie(request, response, cookie)
        return await games.join(game_id, owner_key(cookie), body.invite, name)
    except Refusal as refusal:
        return refused(refusal)


@router.post("/games/{game_id}/start", response_model=GameState, responses=REFUSALS)
async def start(game_id: str, body: Empty, games: Service, cookie: BrowserCookie = None) -> Any:
    """Start the table now (the host only): computer players take the seats nobody took."""
    try:
        return await games.start(game_id, _owner(cookie))
    except Refusal as refusal:
        return refused(refusal)


@router.post("/games/{game_id}/leave", response_model=GameState, responses=REFUSALS)
async def leave(game_id: str, body: Empty, games: Service, cookie: BrowserCookie = None) -> Any:
    """Leave a table of friends. Mid-game a computer player plays for the caller, and the
    others are told, until the caller opens the game again and takes the seat back; before
    it starts, the caller's seat goes back to the invitation (never the host's)."""
    try:
        return await games.leave(game_id, _owner(cookie))
    except Refusal as refusal:
        return refused(refusal)


@router.post(
    "/games/{game_id}/here",
    status_code=204,
    response_class=Response,
    response_model=None,
    responses=REFUSALS,
)
async def here(game_id: str, games: Service, cookie: BrowserCookie = None) -> Any:
    """The caller's page is open and reaching the server: its answer to each ping of its
    event stream. A person not heard from for a while is shown to the others as
    reconnecting."""
    try:
        await games.here(game_id, _owner(cookie))
    except Refusal as refusal:
        return refused(refusal)
    return Response(status_code=204)


@router.post("/games/{game_id}/react", response_model=GameState, responses=REFUSALS)
async def react(game_id: str, body: Reaction, games: Service, cookie: BrowserCookie = None) -> Any:
    """Send one of the offered reactions to everyone at the table."""
    try:
        return await games.react(game_id, _owner(cookie), body.reaction)
    except Refusal as refusal:
        return refused(refusal)


@router.post("/games/{game_id}/rematch", response_model=GameState, responses=REFUSALS)
async def rematch(
    game_id: str,
    body: Empty,
    request: Request,
    response: Response,
    games: Service,
    cookie: BrowserCookie = None,
) -> Any:
    """After the game: a new one at the same table, with the same people in their seats.
    Making it counts as a new game in the quotas; joining one made already does not."""
    owner = _owner(cookie)
    quotas: Quotas = request.app.state.quotas
    address = request.client.host if request.client else None
    starts: list[str] = []

    async def admit() -> None:
        starts.append(await asyncio.to_thread(quotas.admit, owner, address))

    made = False
    try:
        state, made = await games.rematch(game_id, owner, admit)
    except OverQuota as over:
        return over_quota(over)
    except Refusal as refusal:
        return refused(refusal)
    finally:
        if not made:  # refused, or another process made it first: this request made no game
            for start in starts:
                await asyncio.to_thread(quotas.withdraw, start)
    response.status_code = 201 if made else 200
    return state


@router.get("/games/current", response_model=Current)
async def current_game(games: Service, cookie: BrowserCookie = None) -> Any:
    """The id of this browser's unfinished game, for "Continue game"."""
    return {"id": await games.current(owner_key(cookie)) if cookie else None}


@router.get("/games", response_model=list[GameSummary])
async def unfinished(request: Request, games: Service, cookie: BrowserCookie = None) -> Any:
    """This browser's unfinished games, most recently played first, each saying whether a
    new game would close it."""
    if not cookie:
        return []
    owner = owner_key(cookie)
    quotas: Quotas = request.app.state.quotas
    closing = await asyncio.to_thread(quotas.closed_by_next, owner)
    return await summaries(games, owner, quotas.settings.unfinished_per_browser, closing)


@router.get("/games/{game_id}", response_model=GameState, responses=REFUSALS)
async def get_game(game_id: str, games: Service, cookie: BrowserCookie = None) -> Any:
    """The game as the person sees it now."""
    try:
        return await games.state_of(game_id, _owner(cookie))
    except Refusal as refusal:
        return refused(refusal)


async def _act(
    games: GameService,
    game_id: str,
    cookie: str | None,
    body: Move,
    move_for: MoveFor,
    finish: bool = False,
) -> Any:
    try:
        owner = _owner(cookie)
        return await games.act(game_id, owner, body.move, move_for, finish=finish, undos=body.undos)
    except Refusal as refusal:
        return refused(refusal)


@router.post("/games/{game_id}/pass", response_model=GameState, responses=REFUSALS)
async def pass_cards(
    game_id: str, body: PassCards, games: Service, cookie: BrowserCookie = None
) -> Any:
    """Pass cards; the computer players pass too, and play until it is your turn."""
    try:
        cards = [as_face(card) for card in body.cards]
    except ValueError as error:
        return JSONResponse({"detail": str(error)}, status_code=422)
    return await _act(games, game_id, cookie, body, lambda seat: Pass(seat, cards))


Finish = Annotated[
    bool,
    Query(description="Then, if no point can change hands any more, play the round out."),
]


@router.post("/games/{game_id}/play", response_model=GameState, responses=REFUSALS)
async def play_card(
    game_id: str,
    body: PlayCard,
    games: Service,
    cookie: BrowserCookie = None,
    finish: Finish = False,
) -> Any:
    """Play a card; the computer players answer until it is your turn again."""
    try:
        card = as_face(body.card)
    except ValueError as error:
        return JSONResponse({"detail": str(error)}, status_code=422)
    return await _act(games, game_id, cookie, body, lambda seat: Play(seat, card), finish)


@router.post("/games/{game_id}/moon", response_model=GameState, responses=REFUSALS)
async def choose_moon(
    game_id: str, body: MoonChoice, games: Service, cookie: BrowserCookie = None
) -> Any:
    """You shot the moon under "the shooter chooses": pick how it scores."""
    choice = body.choice
    return await _act(games, game_id, cookie, body, lambda seat: ChooseMoon(seat, choice))


@router.post("/games/{game_id}/next", response_model=GameState, responses=REFUSALS)
async def next_round(game_id: str, body: Move, games: Service, cookie: BrowserCookie = None) -> Any:
    """Deal the next round."""
    return await _act(games, game_id, cookie, body, lambda seat: NextRound())


@router.post("/games/{game_id}/undo", response_model=GameState, responses=REFUSALS)
async def undo(game_id: str, body: Move, games: Service, cookie: BrowserCookie = None) -> Any:
    """Take back your latest pass or card of this round and the computer players' moves
    after it (`move`: the game's move number now); the game as it stood before it."""
    try:
        return await games.undo(game_id, _owner(cookie), body.move, body.undos)
    except Refusal as refusal:
        return refused(refusal)
