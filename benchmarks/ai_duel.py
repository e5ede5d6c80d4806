"""Two players on the same deals, paired: which is stronger, and what a decision costs.

Usage: python benchmarks/ai_duel.py A [A2 ...] B [--against hard] [--deals 250] [--workers 2]
                                     [--out results.jsonl]
       python benchmarks/ai_duel.py --summarize results.jsonl

A and B are levels ("hard", "expert", "hard:500" with a budget of playouts, "hard:0.05s" of
seconds), "frozen" (the hard player
as it was before issue 16, `benchmarks/frozen_hard/`), or a variant below. For every deal
and every seat, A plays that seat against three --against players, then B plays the same
seat of the same deal against the same three (same seeds). The difference A minus B in
points a round is paired seat by seat and deal by deal; its 95% interval is over deals.
Also reported: each player's decision CPU time (median, p95) and the moons it shot.
With more than two names, every one before the last is played on the same deals and seats
and compared with the last (which is played once per seat, not once per comparison).
`--out` appends every round to a JSON-lines file as it finishes, so a run stopped early
still counts: `--summarize` reports from that file. `--baseline FILE` takes the last
player's rounds from such a file instead of playing them again (every player is seeded, so
a round replays exactly; the first `--verify` rounds are played again to check that).

Variants ("expert-..." ones are of "expert-before", expert until 2026-12-01, so that their
runs replay): "hard-heuristic-pass" / "expert-heuristic-pass" (the level with medium's
pass), "expert-searched-pass" (expert's searched pass, 4,000 playouts, no margin for
medium's pass, raced at 3 standard errors), "hard-searched-pass" (hard with a searched pass:
2,000 playouts raced at 2 standard errors, no margin for medium's pass), "expert-no-endgame"
(expert without the exact solver), "racing" (hard with its candidates raced, `RACING_HARD`;
"racing:480" at 480 playouts), "full" (hard with the full search, `OLD_HARD`, whatever
hard's setting is), "lean" (racing at 400 playouts with a prior on the variance of a
difference: 8 deals of variance 3), "lean1000" (the same at 1,000 playouts), "expert-prior"
(expert with hard's prior on the variance), "quiet" (hard with playouts without noise: no
random cards), "noisy" (twice the noise), "reader" (hard reading who lacks the Q♠:
`tracking.queen_shy`), "expert-next" (hard's race at 3,000 playouts, a searched pass, the
exact solver, the read: today's expert's settings under hard's name), "expert-before",
"expert-wide" (today's expert at 8,000 playouts a card and 5,000 a pass), "hard-pass1200"
(hard with a searched pass at 1,200 playouts), "expert-pass5000" (today's expert with its
pass at 5,000 playouts), "expert-endgame4" and "expert-endgame5" (today's expert solving
each sampled deal exactly from four or five cards in hand), "expert-learned" (today's expert
whose playouts in its play follow the learned policy, `Table.with_learned_policy`),
"expert-learned-medium-discard" (the same with medium's discard in the playouts),
"expert-valued" (today's expert whose playouts in its play follow the learned policy fitted
to the search's values of every card, `Table.with_learned_policy("playout_weights_valued.json")`),
"expert-infer" (today's expert with inference: each deal searched is one of 4 sampled, drawn
by how well the rivals' past plays fit medium's rules, `SearchSettings.infer_pool`).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import pathlib
import statistics
import sys
import time
from collections.abc import Iterator
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from frozen_hard import FrozenHardPlayer

from hearts import Round, Rules
from hearts.ai import Player, make_player
from hearts.ai.rollout import VALUED_WEIGHTS_FILE, Table
from hearts.ai.search import OLD_HARD, RACING_HARD, ExpertPlayer, HardPlayer, SearchSettings
from hearts.cards import QUEEN_MASK, points_of
from hearts.scoring import score_round


class HardHeuristicPass(HardPlayer):
    settings = dataclasses.replace(HardPlayer.settings, pass_playouts=0)


class HardSearchedPass(HardPlayer):
    settings = dataclasses.replace(
        HardPlayer.settings, pass_playouts=2000, pass_margin=0.0, pass_drop_z=2.0
    )


class HardPass1200(HardPlayer):
    """Hard with a searched pass at 1,200 playouts (2 standard errors, no margin)."""

    settings = dataclasses.replace(HardSearchedPass.settings, pass_playouts=1200)


class ExpertBefore(ExpertPlayer):
    """Expert as it was until it took hard's race (2026-12-01); the expert variants below
    are variants of it, so that their measuring runs replay."""

    settings = SearchSettings(
        playouts=1200,
        min_samples=20,
        drop_z=3.0,
        endgame_cards=3,
        pass_playouts=4000,
        pass_margin=0.0,
        pass_drop_z=2.5,
    )


class ExpertHeuristicPass(ExpertBefore):
    settings = dataclasses.replace(ExpertBefore.settings, pass_playouts=0)


class ExpertSearchedPass(ExpertBefore):
    settings = dataclasses.replace(
        ExpertBefore.settings, pass_playouts=4000, pass_margin=0.0, pass_drop_z=3.0
    )


class ExpertPrior(ExpertBefore):
    settings = dataclasses.replace(ExpertBefore.settings, prior=(8.0, 3.0))


class ExpertNoEndgame(ExpertBefore):
    settings = dataclasses.replace(ExpertBefore.settings, endgame_cards=0)


class RacingHard(HardPlayer):
    settings = RACING_HARD


class FullHard(HardPlayer):
    settings = OLD_HARD


class LeanHard(HardPlayer):
    settings = dataclasses.replace(
        OLD_HARD, playouts=400, min_samples=10, drop_z=2.5, prior=(8.0, 3.0)
    )


class LeanHard1000(HardPlayer):
    """What became hard's own setting (`search.HARD`); kept so the measuring run replays."""

    settings = dataclasses.replace(LeanHard.settings, playouts=1000)


class QuietHard(HardPlayer):
    """Hard with playouts that never play a random card (no noise)."""

    settings = dataclasses.replace(HardPlayer.settings, noise=0.0)


class NoisyHard(HardPlayer):
    """Hard with twice the noise in its playouts."""

    settings = dataclasses.replace(HardPlayer.settings, noise=0.12)


class ReaderHard(HardPlayer):
    """Hard whose deals keep the Q♠ away from seats that passed up a chance to drop it."""

    settings = dataclasses.replace(HardPlayer.settings, read_queen=True)


class ExpertNext(HardPlayer):
    """Expert's setting (`search.EXPERT`) under hard's name, as measured before it became
    expert's (the name seeds the random numbers, so today's expert draws others)."""

    settings = dataclasses.replace(
        HardPlayer.settings,
        playouts=3000,
        endgame_cards=3,
        pass_playouts=2000,
        pass_margin=0.0,
        pass_drop_z=2.0,
        read_queen=True,
    )


class ExpertWide(ExpertPlayer):
    """Today's expert with the time the compiled search freed: 8,000 playouts a card and
    5,000 a pass (instead of 3,000 and 2,000)."""

    settings = dataclasses.replace(ExpertPlayer.settings, playouts=8000, pass_playouts=5000)


class ExpertPass5000(ExpertPlayer):
    """Today's expert with its pass searched at 5,000 playouts instead of 2,000."""

    settings = dataclasses.replace(ExpertPlayer.settings, pass_playouts=5000)


class ExpertFittedPlay(ExpertPlayer):
    """Expert whose playouts lead as the search does (`fitted_leads`) in its play."""

    settings = dataclasses.replace(ExpertPlayer.settings, fitted_leads=True)


class ExpertFittedLeads(ExpertFittedPlay):
    """The same in its searched pass too."""

    def pass_table(self, view: Any) -> Table:
        return Table.of(view.rules).with_fitted_leads()


class HardFittedPlay(HardPlayer):
    """Hard with expert's playout leads in its play (its pass as hard's)."""

    settings = dataclasses.replace(HardPlayer.settings, fitted_leads=True)


class ExpertLearned(ExpertPlayer):
    """Today's expert whose playouts in its play follow the learned policy
    (`Table.with_learned_policy`; its pass as expert's)."""

    def table(self, view: Any) -> Table:
        return Table.of(view.rules).with_learned_policy()


class ExpertLearnedMediumDiscard(ExpertPlayer):
    """`expert-learned` with medium's discard in its playouts (the learned leads and follows)."""

    def table(self, view: Any) -> Table:
        table = Table.of(view.rules).with_learned_policy()
        return dataclasses.replace(table, learned=(*table.learned[:2], ()))


class ExpertValued(ExpertPlayer):
    """Today's expert whose playouts in its play follow the learned policy fitted to the
    full search's value of every card (`VALUED_WEIGHTS_FILE`; its pass as expert's)."""

    def table(self, view: Any) -> Table:
        return Table.of(view.rules).with_learned_policy(VALUED_WEIGHTS_FILE.name)


class ExpertInfer(ExpertPlayer):
    """Today's expert whose deals are weighed by how well the rivals' past plays fit medium's
    rules (`hearts.ai.inference`): each deal searched is one of 4 sampled, by weight."""

    settings = dataclasses.replace(ExpertPlayer.settings, infer_pool=4, infer_epsilon=0.4)


class ExpertEndgame5(ExpertPlayer):
    """Today's expert solving each sampled deal exactly from five cards in hand (not three)."""

    settings = dataclasses.replace(ExpertPlayer.settings, endgame_cards=5)


class ExpertEndgame4(ExpertPlayer):
    """Today's expert solving each sampled deal exactly from four cards in hand."""

    settings = dataclasses.replace(ExpertPlayer.settings, endgame_cards=4)


VARIANTS: dict[str, type[Any]] = {
    "expert-endgame4": ExpertEndgame4,
    "expert-endgame5": ExpertEndgame5,
    "expert-fitted-play": ExpertFittedPlay,
    "expert-learned": ExpertLearned,
    "expert-learned-medium-discard": ExpertLearnedMediumDiscard,
    "expert-valued": ExpertValued,
    "expert-infer": ExpertInfer,
    "expert-fitted-leads": ExpertFittedLeads,
    "hard-fitted-play": HardFittedPlay,
    "frozen": FrozenHardPlayer,
    "hard-heuristic-pass": HardHeuristicPass,
    "hard-searched-pass": HardSearchedPass,
    "expert-heuristic-pass": ExpertHeuristicPass,
    "expert-searched-pass": ExpertSearchedPass,
    "expert-no-endgame": ExpertNoEndgame,
    "expert-prior": ExpertPrior,
    "racing": RacingHard,
    "full": FullHard,
    "lean": LeanHard,
    "lean1000": LeanHard1000,
    "quiet": QuietHard,
    "noisy": NoisyHard,
    "reader": ReaderHard,
    "expert-next": ExpertNext,
    "expert-before": ExpertBefore,
    "expert-wide": ExpertWide,
    "hard-pass1200": HardPass1200,
    "expert-pass5000": ExpertPass5000,
}


def make(spec: str, seed: str) -> Player:
    """A player from "level", "level:budget" or "level/style" (e.g. "hard/bertie"); a budget
    is playouts ("hard:500") or seconds ("hard:0.05s")."""
    spec, _, style = spec.partition("/")
    name, _, budget_text = spec.partition(":")
    budget: int | float | None = None
    if budget_text.endswith("s"):
        budget = float(budget_text[:-1])
    elif budget_text:
        budget = int(budget_text)
    if name in VARIANTS:
        player: Player = VARIANTS[name](seed, budget)
        return player
    return make_player(name, seed=seed, budget=budget, style=style or None)


@dataclasses.dataclass
class SeatResult:
    score: int
    moon: bool
    cpu: list[float]
    attempt: bool = False
    """The seat took the Q♠ and all hearts but two or fewer (a moon tried, shot or not)."""
    queen: bool = False
    """The seat took the Q♠."""
    passed_queen: bool | None = None
    """Dealt the Q♠ in a round with a pass: whether it passed her (None: not dealt her, or
    no pass)."""


def seat_zero_decisions(player: Player, rnd: Round) -> Iterator[tuple[float, str]]:
    """`player` in seat 0 of `rnd` against three medium players, to the round's end: the CPU
    seconds and the choice of each of its decisions (the speed benchmarks' loop)."""
    bots = [player] + [make_player("medium", seed=s) for s in range(1, rnd.rules.players)]
    if rnd.phase == "passing":
        for seat, bot in enumerate(bots):
            start = time.process_time()
            cards = bot.choose_pass(rnd.view(seat))
            if seat == 0:
                yield time.process_time() - start, " ".join(str(c) for c in cards)
            rnd.give(seat, cards)
    while rnd.phase == "playing":
        seat = rnd.turn
        start = time.process_time()
        card = bots[seat].choose_play(rnd.view(seat))
        if seat == 0:
            yield time.process_time() - start, str(card)
        rnd.play(card)


def play_seat(spec: str, against: str, rules: Rules, seed: str, deal: int, seat: int) -> SeatResult:
    """One round of `deal` with `spec` at `seat` and `against` everywhere else."""
    n = rules.players
    bots = [
        make(spec if s == seat else against, f"{seed}:{deal}:{s}:{'me' if s == seat else 'o'}")
        for s in range(n)
    ]
    rnd = Round.deal(rules, f"{seed}:{deal}", deal)
    cpu: list[float] = []

    def ask(s: int, passing: bool) -> Any:
        view = rnd.view(s)
        start = time.process_time()
        choice = bots[s].choose_pass(view) if passing else bots[s].choose_play(view)
        if s == seat:
            cpu.append(time.process_time() - start)
        return choice

    passed_queen = None
    if rnd.phase == "passing":
        if rnd.view(seat).hand_mask & QUEEN_MASK:
            passed_queen = False
        for s in range(n):
            cards = ask(s, True)
            if s == seat and passed_queen is not None:
                passed_queen = any(QUEEN_MASK >> c & 1 for c in cards)
            rnd.give(s, cards)
    while rnd.phase == "playing":
        rnd.play(ask(rnd.turn, False))
    result = score_round(rules, rnd, [0] * n)
    taken = rnd.taken[seat]
    attempt = bool(taken & QUEEN_MASK) and points_of(taken) >= rules.round_points - 2
    queen = bool(taken & QUEEN_MASK)
    return SeatResult(
        result.scores[seat], result.shooter == seat, cpu, attempt, queen, passed_queen
    )


def _task(args: tuple[tuple[str, ...], str, str, int, int]) -> tuple[int, int, list[SeatResult]]:
    names, against, seed, deal, seat = args
    rules = Rules()
    return deal, seat, [play_seat(name, against, rules, seed, deal, seat) for name in names]


Rows = dict[int, dict[int, list[SeatResult]]]
"""deal -> seat -> one result per player name, in the order named."""


def ci95(values: list[float]) -> float:
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.95 * (len(ordered) - 1))] if ordered else 0.0


def whole_deals(rows: Rows, seats: int) -> list[int]:
    """The deals with every seat played (a deal counts only whole, so seats stay balanced)."""
    return sorted(d for d, by_seat in rows.items() if len(by_seat) == seats)


def report(names: list[str], rows: Rows, seats: int, against: str, seed: str) -> list[str]:
    """The report's lines: each player's points a round, CPU per decision and moons, then
    each player before the last minus the last, paired by deal."""
    deals = whole_deals(rows, seats)
    lines = [
        f"{len(deals) * seats} rounds each ({len(deals)} whole deals x {seats} seats) "
        f"against {against}, seed {seed!r}"
    ]
    if len(deals) < 2:
        return [*lines, "  too few whole deals for an interval"]
    means = [
        [statistics.fmean(rows[d][s][i].score for s in range(seats)) for d in deals]
        for i in range(len(names))
    ]
    for i, name in enumerate(names):
        cpu = [t for d in deals for s in range(seats) for t in rows[d][s][i].cpu]
        moons = sum(rows[d][s][i].moon for d in deals for s in range(seats))
        lines.append(
            f"  {name:<22} {statistics.fmean(means[i]):6.2f} ± {ci95(means[i]):.2f} "
            f"points/round, cpu ms median {1000 * statistics.median(cpu):.2f} "
            f"p95 {1000 * p95(cpu):.2f} ({len(cpu)} decisions), moons {moons}"
        )
    last = names[-1]
    for i, name in enumerate(names[:-1]):
        diffs = [x - y for x, y in zip(means[i], means[-1], strict=True)]
        lines.append(
            f"  {name} minus {last}: {statistics.fmean(diffs):+.3f} ± {ci95(diffs):.3f} "
            f"points/round (95% interval, paired by deal)"
        )
    return lines


def save(out: Any, deal: int, seat: int, names: list[str], results: list[SeatResult]) -> None:
    # By name; in order when a name comes twice (a level against itself before a change,
    # `--baseline`), where a dict kept only the last of them.
    played: Any = [dataclasses.asdict(r) for r in results]
    if len(set(names)) == len(names):
        played = dict(zip(names, played, strict=True))
    record = {"deal": deal, "seat": seat, "results": played}
    out.write(json.dumps(record) + "\n")
    out.flush()


def load(path: str) -> tuple[list[str], Rows, dict[str, str]]:
    """Names, rows and the run's settings from a --out file (its first line is the header)."""
    with open(path, encoding="utf-8") as lines:
        header = json.loads(next(lines))
        names: list[str] = header["names"]
        rows: Rows = {}
        for line in lines:
            if not line.strip():
                continue
            record = json.loads(line)
            played = record["results"]
            if isinstance(played, dict):
                played = [played[n] for n in names]
            results = [SeatResult(**r) for r in played]
            rows.setdefault(record["deal"], {})[record["seat"]] = results
    return names, rows, {"against": header["against"], "seed": header["seed"]}


def stored_rounds(
    path: str, name: str, against: str, seed: str
) -> dict[tuple[int, int], SeatResult]:
    """`name`'s rounds in an earlier --out file, which must have the same seed and opponents."""
    saved_names, saved_rows, run = load(path)
    if name not in saved_names or run != {"against": against, "seed": seed}:
        raise SystemExit(f"{path} holds no rounds of {name} against {against}, seed {seed!r}.")
    index = saved_names.index(name)
    return {(d, s): r[index] for d, by_seat in saved_rows.items() for s, r in by_seat.items()}


def verify(
    tasks: list[tuple[tuple[str, ...], str, str, int, int]],
    baseline: dict[tuple[int, int], SeatResult],
) -> None:
    """Play the stored player again on these rounds: every round must come out the same."""
    for names, against, seed, deal, seat in tasks:
        again = play_seat(names[-1], against, Rules(), seed, deal, seat)
        stored = baseline[deal, seat]
        if (again.score, again.moon, again.queen) != (stored.score, stored.moon, stored.queen):
            raise SystemExit(f"{names[-1]} plays deal {deal}, seat {seat} differently now.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="players; each but the last against the last")
    parser.add_argument("--against", default="hard")
    parser.add_argument("--deals", type=int, default=250)
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", default="duel")
    parser.add_argument("--out", help="append every round to this JSON-lines file")
    parser.add_argument("--summarize", metavar="FILE", help="report from a --out file and stop")
    parser.add_argument(
        "--baseline",
        metavar="FILE",
        help="take the last player's rounds from this earlier --out file of the same seed and "
        "opponents instead of playing them again (players are seeded, so a round replays "
        "exactly); the first --verify of them are played again and must agree",
    )
    parser.add_argument("--verify", type=int, default=8)
    args = parser.parse_args()
    seats = Rules().players
    if args.summarize:
        saved_names, saved_rows, run = load(args.summarize)
        print("\n".join(report(saved_names, saved_rows, seats, run["against"], run["seed"])))
        return
    if len(args.names) < 2:
        parser.error("name at least two players: each but the last is compared with the last.")
    names: list[str] = args.names
    tasks = [
        (tuple(names), args.against, args.seed, d, s)
        for d in range(args.first_deal, args.first_deal + args.deals)
        for s in range(seats)
    ]
    baseline: dict[tuple[int, int], SeatResult] = {}
    if args.baseline:
        baseline = stored_rounds(args.baseline, names[-1], args.against, args.seed)
        verify(tasks[: args.verify], baseline)
        tasks = [(t[0][:-1], *t[1:]) for t in tasks if (t[3], t[4]) in baseline]
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115
    if out is not None and out.tell() == 0:
        out.write(json.dumps({"names": names, "against": args.against, "seed": args.seed}) + "\n")
    started = time.perf_counter()
    rows: Rows = {}
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for done, (deal, seat, results) in enumerate(pool.imap_unordered(_task, tasks), 1):
            if baseline:
                results = [*results, baseline[deal, seat]]
            rows.setdefault(deal, {})[seat] = results
            if out is not None:
                save(out, deal, seat, names, results)
            if done % 100 == 0:
                for line in report(names, rows, seats, args.against, args.seed)[-len(names) + 1 :]:
                    print(f"  so far:{line}", file=sys.stderr, flush=True)
            if done % 40 == 0 or done == len(tasks):
                print(
                    f"  {done}/{len(tasks)} rounds, {time.perf_counter() - started:.0f}s",
                    file=sys.stderr,
                    flush=True,
                )
    if out is not None:
        out.close()
    print("\n".join(report(names, rows, seats, args.against, args.seed)))
    print(f"  ({time.perf_counter() - started:.0f}s)")


if __name__ == "__main__":
    main()
