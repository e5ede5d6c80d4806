"""Tournaments between computer players, with duplicate deals.

Every deal is played once for each rotation of the players round the table, so each player
gets every seat of every deal and luck of the cards cancels out. With partners the lineup is
first seated so that each team holds one kind of player where it can (`seating`): a rotation
keeps partners partners, so a medium seated with an easy would share its team's points with
it at every table, and the two could not be told apart. A deal is one round
(``mode="rounds"``) or the seed of a whole game (``mode="games"``).

>>> from hearts import Rules
>>> report = run_tournament(TournamentConfig(
...     players=parse_lineup(["medium", "random*3"], 4), rules=Rules(), deals=2, seed=1))
>>> report.rounds, sorted(report.by_name)
(8, ['medium', 'random'])
"""

from __future__ import annotations

import math
import multiprocessing
import signal
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import ai
from .ai import LEVELS, Player, make_player
from .ai.search import SearchSettings
from .cards import QUEEN_MASK, Card, points_of
from .driver import play_out
from .events import RoundScored
from .game import Game
from .round import Round
from .rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from .scoring import MoonChoice, team_of
from .view import PlayerView

MODES = ("rounds", "games")
#: The levels a budget changes (the others decide without searching).
SEARCHING = ("hard", "expert")
#: The most playouts a budget may ask for a decision (a million take minutes each).
MAX_PLAYOUTS = 1_000_000
#: The most deals a tournament may ask for: each is played at every seat, and each table's
#: results are kept for the report, so ten million deals filled gigabytes before the first.
MAX_DEALS = 10_000


def plays_as_medium(level: str, rules: Rules) -> bool:
    """Whether a level plays by medium's rules of thumb at this table: hard and expert search,
    and moon plans its moon, with one deck only, so with two (6 to 10 players) they decide as
    medium does (`hearts.ai.plays_as_medium`).

    >>> plays_as_medium("expert", Rules(players=6)), plays_as_medium("expert", Rules())
    (True, False)
    """
    return ai.plays_as_medium(level, rules)


def as_medium_note(levels: Sequence[str], rules: Rules) -> str | None:
    """The sentence that says which of `levels` play as medium at this table, if any, and why:
    what of them knows only one deck."""
    by_reason: dict[str, list[str]] = {}
    for level in dict.fromkeys(levels):
        if plays_as_medium(level, rules):
            reason = ai.PLAYERS[level].one_deck_only
            by_reason.setdefault(reason or "", []).append(level)
    sentences: list[str] = []
    for reason, named in by_reason.items():
        one = len(named) == 1
        who = " and ".join(named)
        whose = f"{'its' if one else 'their'} {reason} knows only one deck."
        if not sentences:
            sentences.append(f"With two decks, {who} play{'s' if one else ''} as medium: {whose}")
        else:
            sentences.append(f"So do{'es' if one else ''} {who}: {whose}")
    return " ".join(sentences) or None


@dataclass(frozen=True)
class PlayerSpec:
    """A level and an optional budget, written "hard", "hard:2000" (playouts) or "hard:0.1s"."""

    level: str
    budget: int | float | None = None

    @property
    def name(self) -> str:
        if self.budget is None:
            return self.level
        if isinstance(self.budget, float):
            return f"{self.level}:{self.budget:g}s"
        return f"{self.level}:{self.budget}"

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        level, _, budget_text = text.strip().partition(":")
        if not level:
            raise ValueError(
                f"{text.strip()!r} names no player; write a level first, like medium or hard:2000."
            )
        if level not in LEVELS:
            raise ValueError(f"{level!r} is not a level; choose one of {', '.join(LEVELS)}.")
        if not budget_text:
            return cls(level)
        if level not in SEARCHING:
            raise ValueError(
                f"{text.strip()!r}: only {' and '.join(SEARCHING)} search, so only they take a "
                "budget."
            )
        digits = budget_text.isascii() and budget_text.isdigit()
        if digits and (
            len(budget_text) > len(str(MAX_PLAYOUTS)) or int(budget_text) > MAX_PLAYOUTS
        ):
            raise ValueError(
                f"{text.strip()!r}: a budget is 1 to {MAX_PLAYOUTS:,} playouts, or seconds like "
                "0.1s."
            )
        try:
            if budget_text.endswith("s"):
                seconds = float(budget_text[:-1])
                if 0 < seconds < math.inf:
                    return cls(level, seconds)
            elif budget_text.isascii() and 0 < int(budget_text) <= MAX_PLAYOUTS:
                return cls(level, int(budget_text))
        except ValueError:
            pass
        raise ValueError(
            f"{budget_text!r} is not a budget; write playouts like 2000 or seconds like 0.1s."
        )

    def make(self, seed: int | str) -> Player:
        return make_player(self.level, seed=seed, budget=self.budget)


def parse_lineup(words: Sequence[str], seats: int | None = None) -> list[PlayerSpec]:
    """Players for every seat from words like "hard", "medium*3": exactly `seats` of them,
    or with `seats` None, as many as a table may seat (the lineup then sets the table's size).

    >>> [p.name for p in parse_lineup(["hard", "medium*4"])]
    ['hard', 'medium', 'medium', 'medium', 'medium']
    >>> parse_lineup(["hard", "medium"])
    Traceback (most recent call last):
    ...
    ValueError: A table seats 3 to 10 players; 2 were given.
    """
    most = MAX_PLAYERS if seats is None else seats
    table = f"This table seats {seats}" if seats is not None else f"A table seats at most {most}"
    lineup: list[PlayerSpec] = []
    for word in words:
        text, star, count = word.partition("*")
        if star and not text.strip():
            raise ValueError(f"{word!r} repeats no player; write the player first, like medium*3.")
        times = 1
        if star:
            if not (count.isascii() and count.isdigit()):
                raise ValueError(f"{word!r}: write a repeat as a whole number, like medium*3.")
            if int(count) < 1:
                raise ValueError(f"{word!r}: a repeat must be at least 1, like medium*3.")
            times = int(count)
            if len(lineup) + times > most:  # before a list of a billion players is made
                raise ValueError(f"{table} players; {word!r} gives more.")
        lineup.extend([PlayerSpec.parse(text)] * times)
    if seats is None and not MIN_PLAYERS <= len(lineup) <= MAX_PLAYERS:
        raise ValueError(
            f"A table seats {MIN_PLAYERS} to {MAX_PLAYERS} players; {_given(len(lineup))}."
        )
    if seats is not None and len(lineup) != seats:
        raise ValueError(f"{table} players; {_given(len(lineup))}.")
    return lineup


def seats_named(words: Sequence[str]) -> int | None:
    """How many seats words like "hard", "medium*3" fill, or None where a repeat is no whole
    number (`parse_lineup` says what is wrong with it).

    >>> seats_named(["hard", "medium*4"]), seats_named(["medium*x"])
    (5, None)
    """
    total = 0
    for word in words:
        _, star, count = word.partition("*")
        if star and not (count.isascii() and count.isdigit() and len(count) < 6):
            return None
        total += int(count) if star else 1
    return total


def _given(count: int) -> str:
    return "1 was given" if count == 1 else f"{count} were given"


@dataclass(frozen=True)
class TournamentConfig:
    players: list[PlayerSpec]
    rules: Rules
    deals: int
    seed: int | str = 1
    mode: str = "rounds"
    workers: int = 1


@dataclass
class EntryResult:
    """One lineup entry's results from one table (one deal, one rotation)."""

    scores: list[int] = field(default_factory=list)
    moons: int = 0
    moons_blocked: int = 0
    moon_attempts: int = 0
    wins: float = 0.0
    games: int = 0
    times: list[float] = field(default_factory=list)


@dataclass
class TableResult:
    deal: int
    rotation: int
    entries: list[EntryResult]


def seating(players: Sequence[PlayerSpec], rules: Rules) -> list[int]:
    """The lineup entry at each seat before any rotation: the lineup's order, except that with
    partners the entries of one name fill a team together, where there are enough of them.

    >>> lineup = parse_lineup(["medium", "medium", "easy", "easy"], 4)
    >>> seating(lineup, Rules()), seating(lineup, Rules(partnership=True))
    ([0, 1, 2, 3], [0, 2, 1, 3])
    """
    n = rules.players
    if not rules.partnership:
        return list(range(n))
    names = list(dict.fromkeys(p.name for p in players))
    by_name = sorted(range(n), key=lambda entry: names.index(players[entry].name))
    teams = dict.fromkeys(team_of(rules, seat) for seat in range(n))
    seats = [seat for team in teams for seat in team]
    at = [0] * n
    for seat, entry in zip(seats, by_name, strict=True):
        at[seat] = entry
    return at


def partners(config: TournamentConfig) -> list[tuple[str, ...]]:
    """The names on each team as `seating` seats them (the same in every rotation), or none
    when everyone plays alone."""
    rules = config.rules
    if not rules.partnership:
        return []
    at = seating(config.players, rules)
    teams = dict.fromkeys(team_of(rules, seat) for seat in range(rules.players))
    return [tuple(config.players[at[seat]].name for seat in team) for team in teams]


def shared_team_note(config: TournamentConfig, names: Sequence[str]) -> str | None:
    """The sentence that says the two names compared share a team at every table, if they do
    (a lineup with too few of one kind to fill a team): the team's points count for both."""
    if len(names) != 2:
        return None
    shared = [team for team in partners(config) if set(names) <= set(team)]
    if not shared:
        return None
    first, second = names
    return (
        f"With partners, a team holds both {first} and {second} at every table: its points "
        "count for both, so their difference understates the gap between them."
    )


class _Timed:
    """A player whose every decision is timed into `times`."""

    def __init__(self, player: Player, times: list[float]) -> None:
        self.player = player
        self.times = times

    def choose_pass(self, view: PlayerView) -> list[Card]:
        start = time.perf_counter()
        cards = self.player.choose_pass(view)
        self.times.append(time.perf_counter() - start)
        return cards

    def choose_play(self, view: PlayerView) -> Card:
        start = time.perf_counter()
        card = self.player.choose_play(view)
        self.times.append(time.perf_counter() - start)
        return card

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return self.player.choose_moon(view)


def _moon_attempt(rules: Rules, rnd: Round) -> tuple[list[int], list[int]]:
    """(the team that went for the moon, the seats that stopped it): a team that took the Q♠
    and every heart, or all but one or two of them, went for the moon."""
    n = rules.players
    points_dealt = rules.round_points
    for seat in range(n):
        team = team_of(rules, seat)
        taken = 0
        for member in team:
            taken |= rnd.taken[member]
        raw = points_of(taken)
        if taken & QUEEN_MASK and points_dealt - 2 <= raw <= points_dealt:
            blockers = [s for s in range(n) if s not in team and points_of(rnd.taken[s]) > 0]
            return list(team), blockers
    return [], []


def play_table(config: TournamentConfig, deal: int, rotation: int) -> TableResult:
    """Play one deal (a round or a game) with the lineup rotated `rotation` seats."""
    rules = config.rules
    n = rules.players
    home = seating(config.players, rules)
    seat_entry = [home[(seat - rotation) % n] for seat in range(n)]  # each moved on `rotation`
    bots = [
        config.players[seat_entry[s]].make(f"{config.seed}:{deal}:{seat_entry[s]}")
        for s in range(n)
    ]
    times: list[list[float]] = [[] for _ in range(n)]
    entries = [EntryResult() for _ in range(n)]
    deal_seed = f"{config.seed}:{deal}"

    def once_a_name(seats: Iterable[int]) -> list[int]:
        """One entry for each name among `seats`: a team's moon is one round's event, so a
        name counts it once, though two of its entries share the team."""
        first: dict[str, int] = {}
        for seat in seats:
            first.setdefault(config.players[seat_entry[seat]].name, seat_entry[seat])
        return list(first.values())

    def record(rnd: Round, scores: Sequence[int], shooter: int | None) -> None:
        for seat in range(n):
            entries[seat_entry[seat]].scores.append(scores[seat])
        if shooter is not None:
            for entry in once_a_name(team_of(rules, shooter)):
                entries[entry].moons += 1
        team, blockers = _moon_attempt(rules, rnd)
        for entry in once_a_name(blockers):
            entries[entry].moons_blocked += 1
        for entry in once_a_name(team):
            entries[entry].moon_attempts += 1

    seats = [_Timed(bot, times[s]) for s, bot in enumerate(bots)]
    rounds = config.mode == "rounds"
    game = Game(rules, deal_seed, first_hand=deal if rounds else 0)
    for event in play_out(game, seats, next_round=not rounds):
        if isinstance(event, RoundScored):
            record(game.round, event.result.scores, event.result.shooter)
    if not rounds:
        winners = game.winners
        # A seat whose team won alone won a whole game; a tie between teams shares it.
        teams = {team_of(rules, seat) for seat in winners}
        for seat in winners:
            entries[seat_entry[seat]].wins += 1 / len(teams)
        for finished in entries:
            finished.games = 1
    for seat in range(n):
        entries[seat_entry[seat]].times.extend(times[seat])
    return TableResult(deal, rotation, entries)


def _play_task(task: tuple[TournamentConfig, int, int]) -> TableResult:
    return play_table(*task)


@dataclass
class NameReport:
    """Everything one player name (merged over its entries) did in a tournament."""

    name: str
    entries: int
    rounds: int
    points_per_round: float
    ci95: float
    moons: int
    moons_blocked: int
    moon_attempts: int
    games: int
    wins: float
    decision_ms_median: float
    decision_ms_p95: float
    per_deal: list[float]

    def to_dict(self) -> dict[str, Any]:
        """Plain data; `per_deal` (points per round in each deal, in deal order) lets two
        tournaments on the same seed be compared deal by deal."""
        data = dict(self.__dict__)
        data["per_deal"] = [round(v, 4) for v in self.per_deal]
        return data


@dataclass
class TournamentReport:
    config: TournamentConfig
    rounds: int
    seconds: float
    by_name: dict[str, NameReport]
    difference: tuple[str, str, float, float] | None
    """(first name, second name, mean per-round points of first minus second, 95% CI)."""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "players": [p.name for p in self.config.players],
            "rules": self.config.rules.to_dict(),
            "deals": self.config.deals,
            "mode": self.config.mode,
            "seed": self.config.seed,
            "rounds": self.rounds,
            "seconds": round(self.seconds, 2),
            "results": [r.to_dict() for r in self.by_name.values()],
        }
        teams = partners(self.config)
        if teams:
            data["partners"] = [list(team) for team in teams]
        note = as_medium_note([p.level for p in self.config.players], self.config.rules)
        if note is not None:
            data["note"] = note
        if self.difference is not None:
            a, b, diff, ci = self.difference
            data["difference"] = {"first": a, "second": b, "points_per_round": diff, "ci95": ci}
            shared = shared_team_note(self.config, (a, b))
            if shared is not None:
                data["difference"]["note"] = shared
        return data


def _ci95(values: Sequence[float]) -> float:
    if len(values) < 2:
        return math.inf
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def _percentile(values: Sequence[float], fraction: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def summarize(
    config: TournamentConfig, tables: Sequence[TableResult], seconds: float
) -> TournamentReport:
    names = list(dict.fromkeys(p.name for p in config.players))
    per_deal: dict[str, dict[int, list[int]]] = {name: {} for name in names}
    merged = {name: EntryResult() for name in names}
    for table in tables:
        for index, entry in enumerate(table.entries):
            name = config.players[index].name
            per_deal[name].setdefault(table.deal, []).extend(entry.scores)
            total = merged[name]
            total.scores.extend(entry.scores)
            total.moons += entry.moons
            total.moons_blocked += entry.moons_blocked
            total.moon_attempts += entry.moon_attempts
            total.wins += entry.wins
            total.games += entry.games
            total.times.extend(entry.times)
    reports: dict[str, NameReport] = {}
    for name in names:
        total = merged[name]
        deal_means = [statistics.fmean(v) for _, v in sorted(per_deal[name].items()) if v]
        reports[name] = NameReport(
            name=name,
            entries=sum(1 for p in config.players if p.name == name),
            rounds=len(total.scores),
            points_per_round=statistics.fmean(total.scores) if total.scores else 0.0,
            ci95=_ci95(deal_means),
            moons=total.moons,
            moons_blocked=total.moons_blocked,
            moon_attempts=total.moon_attempts,
            games=total.games,
            wins=total.wins,
            decision_ms_median=1000 * statistics.median(total.times) if total.times else 0.0,
            decision_ms_p95=1000 * _percentile(total.times, 0.95),
            per_deal=deal_means,
        )
    difference = None
    if len(names) == 2:
        first, second = (reports[name].per_deal for name in names)
        diffs = [a - b for a, b in zip(first, second, strict=True)]
        difference = (names[0], names[1], statistics.fmean(diffs), _ci95(diffs))
    rounds = sum(len(t.entries[0].scores) for t in tables)
    return TournamentReport(config, rounds, seconds, reports, difference)


def check_deals(deals: int) -> None:
    """`ValueError` with a sentence unless a tournament may play `deals` deals."""
    if not 1 <= deals <= MAX_DEALS:
        raise ValueError(f"Play 1 to {MAX_DEALS:,} deals, not {deals:,}.")


def run_tournament(
    config: TournamentConfig, progress: Callable[[int, int], None] | None = None
) -> TournamentReport:
    """Play every deal in every rotation and report; `progress(done, total)` after each table."""
    if config.mode not in MODES:
        raise ValueError(f"{config.mode!r} is not a mode; use rounds or games.")
    check_deals(config.deals)
    n = config.rules.players
    if len(config.players) != n:
        raise ValueError(f"This table seats {n} players; {_given(len(config.players))}.")
    tasks = ((config, d, r) for d in range(config.deals) for r in range(n))  # made as played
    total = config.deals * n
    start = time.perf_counter()
    tables: list[TableResult] = []
    results: Iterator[TableResult]
    workers = min(config.workers, total)  # a worker with no table would start for nothing
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers, _ignore_interrupt) as pool:
            results = pool.imap(_play_task, tasks)
            tables = _collect(results, total, progress)
    else:
        results = (_play_task(t) for t in tasks)
        tables = _collect(results, total, progress)
    return summarize(config, tables, time.perf_counter() - start)


def _ignore_interrupt() -> None:
    """In each worker: Ctrl-C is the parent's to answer ("Stopped."), which then ends the
    pool; each worker printed its own traceback of the interrupt (77 lines for two)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _collect(
    results: Iterator[TableResult], total: int, progress: Callable[[int, int], None] | None
) -> list[TableResult]:
    tables = []
    for table in results:
        tables.append(table)
        if progress is not None:
            progress(len(tables), total)
    return tables


#: How often the progress is written as a line of its own when it goes to a file or a pipe.
PROGRESS_LINE_SECONDS = 30.0


def progress_bar(stream: Any = None, unit: str = "rounds") -> Callable[[int, int], None]:
    """The progress with an estimate of the time left, counted in `unit` (a table is a round,
    or in games mode a game): on a terminal a bar redrawn in place, twice a second at most;
    anywhere else (a log file, a pipe) a plain line every `PROGRESS_LINE_SECONDS`, so that
    nothing fills up with redrawn frames."""
    out = stream if stream is not None else sys.stderr
    start = time.perf_counter()
    isatty = getattr(out, "isatty", None)
    terminal = bool(isatty()) if callable(isatty) else False
    last_shown = [0.0 if terminal else start]  # a bar drawn at once, a line after a while

    def show(done: int, total: int) -> None:
        now = time.perf_counter()
        elapsed = now - start
        left = elapsed / done * (total - done) if done else 0.0
        counts = f"{done}/{total} {unit}, {elapsed:.0f}s, about {left:.0f}s left"
        if not terminal:
            if done < total and now - last_shown[0] >= PROGRESS_LINE_SECONDS:
                last_shown[0] = now
                out.write(counts + "\n")
                out.flush()
            return
        if done < total and now - last_shown[0] < 0.5:
            return  # redraw at most twice a second
        last_shown[0] = now
        width = 30
        filled = width * done // total
        bar = "#" * filled + "." * (width - filled)
        out.write(f"\r[{bar}] {counts} ")
        if done == total:
            out.write("\n")
        out.flush()

    return show


def format_report(report: TournamentReport) -> str:
    config = report.config
    kind = "game" if config.mode == "games" else "deal"  # a game's seed, or one round's
    deals = f"1 {kind}" if config.deals == 1 else f"{config.deals} {kind}s"
    width = max(14, *(len(name) + 2 for name in report.by_name))
    lines = [
        f"{report.rounds} rounds ({deals} x {config.rules.players} rotations, "
        f"mode {config.mode}) in {report.seconds:.1f}s",
        "",
        f"{'player':<{width}}{'seats':>6}{'points/round':>14}{'95% CI':>10}{'tried':>7}"
        f"{'moons':>7}{'blocked':>9}{'games won':>13}{'ms median':>11}{'ms p95':>9}",
    ]
    for r in report.by_name.values():
        # A shared win counts as a fraction: one decimal is enough to read.
        won = f"{f'{r.wins:.1f}'.removesuffix('.0')}/{r.games}" if r.games else "-"
        interval = f"±{r.ci95:.2f}" if math.isfinite(r.ci95) else "-"  # one deal: none
        lines.append(
            f"{r.name:<{width}}{r.entries:>6}{r.points_per_round:>14.2f}{interval:>10}"
            f"{r.moon_attempts:>7}{r.moons:>7}{r.moons_blocked:>9}{won:>13}"
            f"{r.decision_ms_median:>11.2f}{r.decision_ms_p95:>9.2f}"
        )
    lines += ["", *_column_notes(config)]
    teams = partners(config)
    if teams:
        lines += ["", f"Partners: {', '.join(' and '.join(team) for team in teams)}."]
    if report.difference is not None:
        a, b, diff, ci = report.difference
        interval = f"95% CI ±{ci:.2f}" if math.isfinite(ci) else "one deal: no interval"
        lines += ["", f"{a} minus {b}: {diff:+.2f} points per round ({interval})"]
        # Hearts counts against: fewer points are the better result.
        if math.isfinite(ci) and abs(diff) > ci:
            lines.append(f"Fewer points are better: {a if diff < 0 else b} did better.")
        else:
            lines.append(
                "Fewer points are better; the interval reaches 0, so neither is shown better."
            )
        shared = shared_team_note(config, (a, b))
        if shared is not None:
            lines.append(shared)
    note = as_medium_note([p.level for p in config.players], config.rules)
    if note is not None:
        lines += ["", note]
    overruns = [line for r in report.by_name.values() if (line := budget_overrun(config, r))]
    if overruns:
        lines += ["", *overruns]
    return "\n".join(lines)


def _column_notes(config: TournamentConfig) -> list[str]:
    """What the moon columns and "games won" count: with partners a team's moon is one event,
    counted once for a name, and a team's win is a whole win for each of its seats."""
    if config.rules.partnership:
        lines = [
            "tried: rounds a player's team took the Q♠ and every heart, or all but one or two; "
            "moons: rounds its team shot the moon; blocked: rounds it took the last point or two "
            "of another team's try. A round counts once for a player, even when two of its "
            "seats share the team."
        ]
        won = "games its seats' teams won, of the games its seats played"
        tie = "a tie between teams"
    else:
        lines = [
            "tried: rounds a player took the Q♠ and every heart, or all but one or two; blocked: "
            "rounds it took the last point or two of another player's try."
        ]
        won = "games its seats won, of the games they played"
        tie = "a tie"
    if config.mode == "games":
        lines.append(
            f"games won: {won}; a win shared in {tie} counts in part (half each for two), "
            "so the count may be a fraction."
        )
    return lines


def budget_overrun(config: TournamentConfig, result: NameReport) -> str | None:
    """The sentence that says a time budget was not kept, if it was not: a search (a play's
    or a pass's) samples at least `min_samples` deals however little time is left."""
    spec = next(p for p in config.players if p.name == result.name)
    if not isinstance(spec.budget, float) or plays_as_medium(spec.level, config.rules):
        return None
    budget_ms = 1000 * spec.budget
    if result.decision_ms_p95 <= budget_ms:
        return None
    settings = getattr(ai.PLAYERS[spec.level], "settings", None)
    floor = settings.min_samples if isinstance(settings, SearchSettings) else 1
    p95 = result.decision_ms_p95
    return (
        f"{result.name} took longer than its {budget_ms:g} ms a decision ({p95:.1f} ms at the "
        f"95th percentile): a pass or a play searches at least {floor} sampled deals "
        "however short the time."
    )


__all__ = [
    "MAX_DEALS",
    "PlayerSpec",
    "TournamentConfig",
    "TournamentReport",
    "as_medium_note",
    "budget_overrun",
    "check_deals",
    "format_report",
    "parse_lineup",
    "partners",
    "play_table",
    "plays_as_medium",
    "progress_bar",
    "run_tournament",
    "seating",
    "shared_team_note",
]
