"""Routes for the printable sheets and the scorekeeper page.

`GET /sheets/rules.pdf?paper=letter|a4&players=3..10&passing=...` (players and passing are
optional and name the table in the title band), `GET /sheets/score.pdf?players=3..10&paper=...
&rounds=10..30&passing=...&name=Ann&name=Bea...` (the choices of `hearts.sheets.PASSING`; a
name a seat, heading its column; both also answer HEAD), `GET /scorekeeper` and its static files
under `/scorekeeper/`. The main app includes `router`.

Both sheets also take the rules a scorekeeper's game was started with, in its words:
`target=1..1000&moon=add|subtract|choose|add-unless-losing&bonus=none|jack|ten
&exact=none|fifty|zero|half&tie=share|play-on&sun=yes|no&partnership=yes|no`. Any of them
makes the sheet that game's: the rule sheet tells them as the rules, the score sheet fills
them in; one left out is the standard game's. A name a sheet does not take, or one given
twice, is refused: a typo must not print the standard rules as the table's.

A sheet drawn anew (not in `cached_rules`/`cached_score`) counts against the client's
address (`paid_by`, the app's `SheetRenders`): past its share in a minute, 429.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from hearts import sheets
from hearts.rules import MAX_PLAYERS, MAX_TARGET, MIN_PLAYERS, MIN_TARGET, Rules

from .assets import version_of
from .quotas import OverQuota, SheetRenders

router = APIRouter()

STATIC_DIR = Path(__file__).parent / "static" / "scorekeeper"
ASSET_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*\.(js|css|svg|webmanifest|png)$")
MEDIA_TYPES = {
    "js": "text/javascript; charset=utf-8",
    "css": "text/css; charset=utf-8",
    "svg": "image/svg+xml",
    "webmanifest": "application/manifest+json",
    "png": "image/png",
}
# Files change with a deploy, not by the minute: let browsers check back each time (the
# service worker keeps the offline copy).
NO_CACHE = {"Cache-Control": "no-cache"}
# The scorekeeper loads only its own files: no outside scripts, styles, fonts or frames.
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)
PDF_CACHE = {"Cache-Control": "public, max-age=86400"}

PaperParam = Annotated[
    str, Query(description="Paper size: letter (default) or a4.", examples=["letter", "a4"])
]
#: The table a sheet is for when no size is asked for: the game's usual one.
USUAL_PLAYERS = Rules().players
PlayersParam = Annotated[
    str, Query(description="Number of players, 3 to 10 (6 or more play with two decks).")
]
TablePlayersParam = Annotated[
    str | None,
    Query(
        description="Number of players, 3 to 10: the sheet then names that table. "
        "Left out: the sheet for every table.",
    ),
]
RoundsParam = Annotated[
    str, Query(description=f"Rounds on the sheet, {sheets.MIN_ROUNDS} to {sheets.MAX_ROUNDS}.")
]
PassingParam = Annotated[
    str | None,
    Query(
        description="The passing of the game, in the scorekeeper's words: "
        + ", ".join(sheets.PASSING)
        + ". Left out: the table's usual passing.",
    ),
]
NamesParam = Annotated[
    list[str] | None,
    Query(
        description="A player's name, once a seat in seat order (at most one a player, "
        f"{sheets.MAX_NAME_CHARS} characters each): it heads the player's column.",
    ),
]


AGREED = {
    "target": f"The game's target score, {MIN_TARGET} to {MAX_TARGET}.",
    "moon": "How a moon is scored: " + ", ".join(sheets.MOON_CHOICES) + ".",
    "bonus": "The bonus card: " + ", ".join(sheets.BONUS_CHOICES) + ".",
    "exact": "A total of exactly the target drops back: " + ", ".join(sheets.EXACT_CHOICES) + ".",
    "tie": "A tie for the lowest total at the end: " + ", ".join(sheets.TIE_CHOICES) + ".",
    "sun": "Shooting the sun is played: yes or no.",
    "partnership": "Partners sit across and score together (four players): yes or no.",
}
SWITCHES = {"yes": True, "no": False}
#: The names each sheet takes in its query; anything else is refused.
RULES_NAMES = frozenset({"paper", "players", "passing", *AGREED})
SCORE_NAMES = RULES_NAMES | {"rounds", "name"}
#: The names given more than once on purpose: a player's name a seat, in seat order.
REPEATED = frozenset({"name"})


def asked_rules(
    target: Annotated[str | None, Query(description=AGREED["target"])] = None,
    moon: Annotated[str | None, Query(description=AGREED["moon"])] = None,
    bonus: Annotated[str | None, Query(description=AGREED["bonus"])] = None,
    exact: Annotated[str | None, Query(description=AGREED["exact"])] = None,
    tie: Annotated[str | None, Query(description=AGREED["tie"])] = None,
    sun: Annotated[str | None, Query(description=AGREED["sun"])] = None,
    partnership: Annotated[str | None, Query(description=AGREED["partnership"])] = None,
) -> dict[str, str | None]:
    """A game's rules as the query gives them, None for each left out (both sheets take
    them; `parse_agreed` checks them)."""
    return {
        "target": target,
        "moon": moon,
        "bonus": bonus,
        "exact": exact,
        "tie": tie,
        "sun": sun,
        "partnership": partnership,
    }


AskedRules = Annotated[dict[str, str | None], Depends(asked_rules)]


def bad_request(message: str) -> HTTPException:
    return HTTPException(status_code=400, detail=message)


#: What a messenger or a mail may add to a link shared through it ("fbclid", "utm_source"):
#: passed over, so a sheet's link still opens when someone sends it on.
ADDED_ON_THE_WAY = frozenset({"fbclid", "gclid", "msclkid", "igshid", "mc_cid", "mc_eid"})


def check_names(request: Request, names: frozenset[str], sheet: str) -> None:
    """Refuse a name the sheet does not take, and a name given twice (which one to print?)."""
    seen: set[str] = set()
    for name, _ in request.query_params.multi_items():
        if name in ADDED_ON_THE_WAY or name.startswith("utm_"):
            continue
        if name not in names:
            known = ", ".join(sorted(names)[:-1]) + f" and {sorted(names)[-1]}"
            raise bad_request(f"The {sheet} takes {known}; not {name[:20]!r}.")
        if name in seen and name not in REPEATED:
            raise bad_request(f"{name} is given more than once.")
        seen.add(name)


def parse_choice(name: str, text: str | None, choices: tuple[str, ...], usual: str) -> str:
    if text is None:
        return usual
    value = text.strip().lower()
    if value not in choices:
        words = ", ".join(choices[:-1]) + f" or {choices[-1]}"
        raise bad_request(f"{name} must be {words}, not {text[:20]!r}.")
    return value


def parse_agreed(
    asked: dict[str, str | None], players: int, passing: str | None
) -> sheets.Agreed | None:
    """The rules of a scorekeeper's game in the query, checked at this table; None if none."""
    if all(value is None for value in asked.values()):
        return None
    usual = sheets.Agreed()
    target = asked["target"]
    switches = tuple(SWITCHES)
    agreed = sheets.Agreed(
        target=usual.target
        if target is None
        else parse_whole("target", target, MIN_TARGET, MAX_TARGET),
        moon=parse_choice("moon", asked["moon"], sheets.MOON_CHOICES, usual.moon),
        bonus=parse_choice("bonus", asked["bonus"], tuple(sheets.BONUS_CHOICES), usual.bonus),
        exact=parse_choice("exact", asked["exact"], sheets.EXACT_CHOICES, usual.exact),
        tie=parse_choice("tie", asked["tie"], sheets.TIE_CHOICES, usual.tie),
        sun=SWITCHES[parse_choice("sun", asked["sun"], switches, "no")],
        partnership=SWITCHES[parse_choice("partnership", asked["partnership"], switches, "no")],
    )
    try:
        agreed.rules(players, passing)
    except ValueError as error:
        raise bad_request(str(error)) from None
    return agreed


def parse_paper(paper: str) -> str:
    value = paper.strip().lower()
    if value not in sheets.PAPERS:
        raise bad_request(f"paper must be 'letter' or 'a4', not {paper[:20]!r}.")
    return value


#: More digits than any number a sheet takes, and still far short of what int() refuses.
MAX_DIGITS = 9


def parse_whole(name: str, text: str, low: int, high: int) -> int:
    # Plain digits only: int() also reads "1_0", "+4" and other scripts' digits.
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()):
        raise bad_request(f"{name} must be a whole number from {low} to {high}.")
    if len(digits.lstrip("0")) > MAX_DIGITS:
        # Far too big, and too long to read as a number at all (int() refuses over 4300 digits).
        raise bad_request(f"{name} must be from {low} to {high}, not a {len(digits)}-digit number.")
    value = int(digits)
    if not low <= value <= high:
        raise bad_request(f"{name} must be from {low} to {high}, not {value}.")
    return value


def parse_passing(passing: str | None, players: int) -> str | None:
    if passing is None:
        return None
    value = passing.strip().lower()
    if value not in sheets.PASSING:
        choices = ", ".join(sheets.PASSING[:-1]) + f" or {sheets.PASSING[-1]}"
        raise bad_request(f"passing must be {choices}, not {passing[:20]!r}.")
    try:
        sheets.table_rules(players, value)
    except ValueError as error:
        raise bad_request(str(error)) from None
    return value


#: Every valid rule sheet fits: (the general sheet + 8 table sizes x 7 passing choices) x
#: 2 papers, about 5.5 KB each, under a megabyte in all.
RULE_SHEETS = (1 + (MAX_PLAYERS - MIN_PLAYERS + 1) * (len(sheets.PASSING) + 1)) * len(sheets.PAPERS)


#: Who pays for a sheet drawn anew: set by a route for its request (`paid_by`), and called by
#: the cached functions only when they draw, so a sheet served from the cache is free.
RENDER_GATE: ContextVar[Callable[[], None] | None] = ContextVar("render_gate", default=None)


def _charge() -> None:
    gate = RENDER_GATE.get()
    if gate is not None:
        gate()  # raises OverQuota past the client's share; nothing is cached then


@contextmanager
def paid_by(request: Request) -> Iterator[None]:
    """Sheets drawn within are counted against the request's client address
    (`hearts.web.quotas.SheetRenders`, the app's `sheet_renders`); past its share, a 429
    with Retry-After and a sentence. An app without one (a test's) draws freely."""
    renders: SheetRenders | None = getattr(request.app.state, "sheet_renders", None)
    if renders is None:
        yield
        return
    address = request.client.host if request.client else None
    token = RENDER_GATE.set(lambda: renders.admit(address))
    try:
        yield
    except OverQuota as over:
        headers = {"Retry-After": str(over.retry_after)} if over.retry_after else None
        raise HTTPException(over.status, detail=over.reason, headers=headers) from None
    finally:
        RENDER_GATE.reset(token)


@lru_cache(maxsize=RULE_SHEETS)
def cached_rules(
    paper: str, players: int | None, passing: str | None, agreed: sheets.Agreed | None = None
) -> bytes:
    _charge()
    return sheets.rule_sheet_pdf(paper, players, passing, agreed)


#: Every valid score sheet with the table's usual passing fits (8 table sizes x 2 papers x
#: 21 lengths = 336, ~4.5 KB each, about 1.5 MB in all), so a client asking for them in turn
#: cannot make it thrash; the other passing choices take a share of the same room. A sheet
#: with a name in DejaVu Sans carries the font's letters, about 27 KB: some 9 MB if every
#: sheet kept had one.
SCORE_SHEETS = (
    (MAX_PLAYERS - MIN_PLAYERS + 1)
    * len(sheets.PAPERS)
    * (sheets.MAX_ROUNDS - sheets.MIN_ROUNDS + 1)
)


@lru_cache(maxsize=SCORE_SHEETS)
def cached_score(
    players: int,
    paper: str,
    rounds: int,
    passing: str | None,
    agreed: sheets.Agreed | None = None,
    names: tuple[str, ...] = (),
) -> bytes:
    _charge()
    return sheets.score_sheet_pdf(
        players=players, paper=paper, rounds=rounds, passing=passing, agreed=agreed, names=names
    )


def pdf(request: Request, data: bytes, filename: str) -> Response:
    headers = {"Content-Disposition": f'inline; filename="{filename}"', **PDF_CACHE}
    if request.method == "HEAD":
        # What a GET would send, without the body: a link checker or a download manager asks.
        headers["Content-Length"] = str(len(data))
        return Response(media_type="application/pdf", headers=headers)
    return Response(content=data, media_type="application/pdf", headers=headers)


@router.get("/sheets/rules.pdf", response_class=Response, tags=["sheets"])
@router.head("/sheets/rules.pdf", include_in_schema=False)  # the same answer, without the body
def rules_pdf(
    request: Request,
    asked: AskedRules,
    paper: PaperParam = "letter",
    players: TablePlayersParam = None,
    passing: PassingParam = None,
) -> Response:
    """The rules of Hearts on one page, with the common house rules in a box.

    With `players` or `passing` (checked as for the score sheet; players default to the
    usual table's) the title band names that table: its size, cards each and passing. With
    any of a game's rules (`target`, `moon`, `bonus`, `exact`, `tie`, `sun`, `partnership`)
    the sheet tells that game's rules as the rules (those left out are the standard game's).
    """
    check_names(request, RULES_NAMES, "rule sheet")
    size = parse_paper(paper)
    count = USUAL_PLAYERS
    if players is not None:
        count = parse_whole("players", players, MIN_PLAYERS, MAX_PLAYERS)
    chosen = parse_passing(passing, count)
    agreed = parse_agreed(asked, count, chosen)
    with paid_by(request):
        if players is None and passing is None and agreed is None:
            return pdf(request, cached_rules(size, None, None), f"hearts-rules-{size}.pdf")
        data = cached_rules(size, count, chosen, agreed)
    return pdf(request, data, f"hearts-rules-{count}p-{size}.pdf")


@router.get("/sheets/score.pdf", response_class=Response, tags=["sheets"])
@router.head("/sheets/score.pdf", include_in_schema=False)  # the same answer, without the body
def score_pdf(
    request: Request,
    asked: AskedRules,
    players: PlayersParam = str(USUAL_PLAYERS),
    paper: PaperParam = "letter",
    rounds: RoundsParam = str(sheets.DEFAULT_ROUNDS),
    passing: PassingParam = None,
    name: NamesParam = None,
) -> Response:
    """A score sheet laid out for Hearts: a column per player, the pass of every round.

    With a game's rules (as for the rule sheet) its target, moon rule and bonus card are
    filled in. With `name` once a seat, in seat order, the players' names head their columns
    (shrunk or cut to fit; one the sheet's font cannot print, Chinese or emoji, keeps
    "Player N" to be written in)."""
    check_names(request, SCORE_NAMES, "score sheet")
    count = parse_whole("players", players, MIN_PLAYERS, MAX_PLAYERS)
    size = parse_paper(paper)
    rows = parse_whole("rounds", rounds, sheets.MIN_ROUNDS, sheets.MAX_ROUNDS)
    chosen = parse_passing(passing, count)
    agreed = parse_agreed(asked, count, chosen)
    try:
        heads = sheets.check_player_names(name or (), count)
    except ValueError as error:
        raise bad_request(str(error)) from None
    with paid_by(request):
        data = cached_score(count, size, rows, chosen, agreed, heads)
    return pdf(request, data, f"hearts-score-{count}p-{size}.pdf")


# Its files answered 304 when the browser's copy is current: the service worker refreshes
# every file on each visit, and each came back whole (about 88 KB a visit).
FILES = StaticFiles(directory=STATIC_DIR)


async def _file(name: str, request: Request, headers: dict[str, str]) -> Response:
    response = await FILES.get_response(name, request.scope)
    response.headers.update(headers)
    return response


#: The worker's cache name as written in sw.js; served, it is the folder's hash instead.
WORKER_VERSION = '"scorekeeper-dev"'


@lru_cache(maxsize=1)
def worker() -> tuple[bytes, str]:
    """sw.js as served, and its ETag. Its cache is named after the hash of every file of the
    folder, so any change to them is a new worker that fetches the set whole: named by hand,
    a release that changed modules and not the name left phones mixing old and new ones (the
    worker refreshes its files one by one in the background)."""
    text = (STATIC_DIR / "sw.js").read_text(encoding="utf-8")
    assert WORKER_VERSION in text, "sw.js names its cache scorekeeper-dev"
    body = text.replace(WORKER_VERSION, f'"scorekeeper-{version_of(STATIC_DIR)}"').encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:20] + '"'


def _worker(request: Request, headers: dict[str, str]) -> Response:
    body, etag = worker()
    headers = {**headers, "ETag": etag}
    asked = request.headers.get("if-none-match", "")
    if etag in (tag.strip().removeprefix("W/") for tag in asked.split(",")):
        return Response(status_code=304, headers=headers)
    return Response(body, headers=headers)  # to a HEAD, the server sends the headers alone


@router.api_route("/scorekeeper", methods=["GET", "HEAD"], include_in_schema=False)
async def scorekeeper_page(request: Request) -> Response:
    headers = {
        **NO_CACHE,
        "Content-Security-Policy": PAGE_POLICY,
        "Content-Type": "text/html; charset=utf-8",
    }
    return await _file("index.html", request, headers)


@router.get("/scorekeeper/", include_in_schema=False)
def scorekeeper_slash() -> RedirectResponse:
    return RedirectResponse("/scorekeeper", status_code=308)


@router.api_route("/scorekeeper/{name}", methods=["GET", "HEAD"], include_in_schema=False)
async def scorekeeper_asset(name: str, request: Request) -> Response:
    match = ASSET_NAME.match(name)
    path = STATIC_DIR / name
    if match is None or name == "index.html" or not path.is_file():
        raise HTTPException(status_code=404, detail=f"No scorekeeper file called {name[:40]!r}.")
    headers = {**NO_CACHE, "Content-Type": MEDIA_TYPES[match.group(1)]}
    if name == "sw.js":
        # The worker lives under /scorekeeper/ but must also control the page /scorekeeper.
        headers["Service-Worker-Allowed"] = "/scorekeeper"
        return _worker(request, headers)
    return await _file(name, request, headers)
