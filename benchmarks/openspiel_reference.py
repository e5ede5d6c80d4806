"""An outside reference: our hard player against OpenSpiel's ISMCTS bot on OpenSpiel's hearts.

OpenSpiel is installed for this benchmark only, in its own virtual environment, never as a
dependency of the package:

    python3 -m venv .venv-openspiel
    .venv-openspiel/bin/pip install open-spiel==2.0.2
    nice -n 19 .venv-openspiel/bin/python benchmarks/openspiel_reference.py --deals 100 \\
        --workers 2 --out /tmp/openspiel.jsonl
    .venv-openspiel/bin/python benchmarks/openspiel_reference.py --summarize /tmp/openspiel.jsonl

(`hearts` is imported from this checkout's src/ when it is not installed in that venv.)

OpenSpiel referees: its state is the game, on its default parameters. Our engine follows
every action in a `Round` dealt the same cards (each OpenSpiel card, rank * 4 + suit, maps
to ours, suit * 13 + rank; the suits are in the same order), and our player is asked on that
round's view of its seat. After every action both must agree on the cards the next player
may play, and at the end on every seat's points, or the run stops.

OpenSpiel's defaults and our `Rules` (`RULES` below):

- one round, not a game to 100; the pass direction is a chance event, each of no pass, left
  (the next seat), across and right equally likely: our "hold", "left", "across", "right";
- three cards passed; the 2♣ leads the first trick (can_lead_any_club false);
- no hearts or Q♠ on the first trick unless the hand holds nothing else
  (no_pts_on_first_trick): our `points_on_first_trick=False`;
- hearts must be broken before they are led (must_break_hearts), and the Q♠ breaks them
  too (qs_breaks_hearts): our `queen_breaks_hearts=True`; holding only hearts and the Q♠
  before hearts are broken, the Q♠ must be led (can_lead_hearts_instead_of_qs false): our
  `lead_hearts_instead_of_queen=False`;
- a moon scores 0 for the shooter and 26 for each other seat: our `moon_rule="add"`;
- no J♦ bonus, no bonus for taking no trick: our `bonus_card=None`.

The only difference left is the game around the round: our player still values a round
inside a game to 100 from 0 all (its search subtracts 0.3 of the rivals' points), while
OpenSpiel's bot maximises 26 minus its own points.

The ISMCTS bot is OpenSpiel's C++ `ISMCTSBot` with 1,000 simulations a move, a random
rollout evaluator (one rollout), UCT constant 2.0, unlimited world samples, and the action
with the most visits played (its strongest final policy).

OpenSpiel 2.0.2's `HeartsState::ResampleFromInfostate` crashes (segmentation fault) when the
bot is asked to pass after the seat that passes to it has passed: during the pass it copies
that seat's real passed cards into a resampled deal that does not hold them. A seat's pass
depends only on its own hand and the direction (its information state holds nothing of the
others' passes), so ISMCTS passes here from a copy of the deal turned round so that its seat
is seat 0, which passes first. Play uses the real state.

Duplicate deals: each deal (pass direction and cards, from --seed) is played twice, our
player in seats 0 and 2 and ISMCTS in 1 and 3, then the other way round. Per deal, our
points a round (the mean of its four seat-rounds) minus ISMCTS's; the 95% interval is over
deals. Also reported: CPU time per decision (median, p95) of each.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import pathlib
import random
import statistics
import sys
import time
import zlib
from dataclasses import asdict, dataclass
from typing import Any

try:
    import hearts  # noqa: F401
except ImportError:  # run from the OpenSpiel venv, which does not install the package
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "src"))

from hearts import Round, Rules
from hearts.ai import Player, make_player
from hearts.cards import DECK_SIZE
from hearts.rules import PassDirection
from hearts.scoring import score_round

SIMULATIONS = 1000
UCT_C = 2.0
RULES = Rules(queen_breaks_hearts=True)
DIRECTIONS: tuple[PassDirection, ...] = ("hold", "left", "across", "right")
"""OpenSpiel's pass directions by number (0 no pass, then left, across, right)."""
EXPECTED_PARAMETERS = {
    "pass_cards": True,
    "no_pts_on_first_trick": True,
    "can_lead_any_club": False,
    "jd_bonus": False,
    "avoid_all_tricks_bonus": False,
    "must_break_hearts": True,
    "qs_breaks_hearts": True,
    "can_lead_hearts_instead_of_qs": False,
}
"""OpenSpiel's defaults that `RULES` mirrors; the run stops if the installed version differs."""
SUITS = 4
RANKS = DECK_SIZE // SUITS


def card_of(action: int) -> int:
    """Our card for an OpenSpiel card action (rank * 4 + suit -> suit * 13 + rank).

    >>> card_of(10 * 4 + 3), card_of(0)  # OpenSpiel's Q♠ and 2♣
    (49, 0)
    """
    return (action % SUITS) * RANKS + action // SUITS


def action_of(card: int) -> int:
    """OpenSpiel's action for our card.

    >>> all(action_of(card_of(a)) == a for a in range(52))
    True
    """
    return (card % RANKS) * SUITS + card // RANKS


def spiel() -> Any:
    """OpenSpiel's module, imported only when a game is played (the mapping needs none)."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        raise SystemExit(
            "OpenSpiel is not installed here: it is a benchmark's own environment, not a "
            "dependency of the package. See docs/benchmarks.md, 'Outside reference', for "
            "the two lines that set up .venv-openspiel."
        ) from None
    return pyspiel


def load_game() -> Any:
    game = spiel().load_game("hearts")
    parameters = game.get_parameters()
    for name, value in EXPECTED_PARAMETERS.items():
        if parameters.get(name) != value:
            raise SystemExit(f"OpenSpiel's default {name} is {parameters.get(name)}, not {value}.")
    return game


def make_deal(seed: str, deal: int, seats: int) -> tuple[int, list[int]]:
    """The pass direction (OpenSpiel's number) and the deck in OpenSpiel's deal order."""
    rng = random.Random(f"{seed}:{deal}")
    direction = rng.randrange(len(DIRECTIONS))
    deck = list(range(seats * RANKS))
    rng.shuffle(deck)
    return direction, deck


def open_state(game: Any, direction: int, deck: list[int], turn: int = 0) -> Any:
    """OpenSpiel's state after the deal; with `turn`, seat k holds seat k + turn's cards."""
    seats = game.num_players()
    state = game.new_initial_state()
    state.apply_action(direction)
    for i in range(len(deck)):
        state.apply_action(deck[(i // seats) * seats + (i % seats + turn) % seats])
    return state


class Ismcts:
    """OpenSpiel's ISMCTS bot for one seat of one game."""

    def __init__(self, seed: int) -> None:
        pyspiel = spiel()
        self.evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        self.bot = pyspiel.ISMCTSBot(
            seed,
            self.evaluator,
            UCT_C,
            SIMULATIONS,
            -1,
            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            False,
            False,
        )

    def step(self, state: Any) -> int:
        return int(self.bot.step(state))


@dataclass
class GameResult:
    points: list[int]
    ours: list[int]
    """Seats our player held."""
    our_cpu: list[float]
    their_cpu: list[float]
    moons: int


def play_game(
    game: Any, seed: str, deal: int, ours: tuple[int, ...], level: str, budget: int | None
) -> GameResult:
    """One play of `deal` with our player in the seats `ours` and ISMCTS in the others."""
    seats = game.num_players()
    direction, deck = make_deal(seed, deal, seats)
    state = open_state(game, direction, deck)
    hands = [[card_of(a) for a in deck[s::seats]] for s in range(seats)]
    rnd = Round.from_hands(RULES, hands, DIRECTIONS[direction])
    tag = f"{seed}:{deal}:{'-'.join(map(str, ours))}"
    players: dict[int, Player] = {
        s: make_player(level, seed=f"{tag}:{s}", budget=budget) for s in ours
    }
    bots = {
        s: Ismcts(zlib.crc32(f"{tag}:{s}".encode()) & 0x7FFFFFFF)
        for s in range(seats)
        if s not in ours
    }
    our_cpu: list[float] = []
    their_cpu: list[float] = []
    if rnd.phase == "passing":
        passes: list[list[int]] = []
        for s in range(seats):
            started = time.process_time()
            if s in players:
                cards = [int(c) for c in players[s].choose_pass(rnd.view(s))]
                our_cpu.append(time.process_time() - started)
            else:
                turned = open_state(game, direction, deck, turn=s)
                actions = []
                for _ in range(rnd.cards_to_pass()):
                    action = bots[s].step(turned)
                    turned.apply_action(action)
                    actions.append(action)
                their_cpu.append(time.process_time() - started)
                cards = [card_of(a) for a in actions]
            passes.append(cards)
        for s, cards in enumerate(passes):
            if state.current_player() != s:
                raise RuntimeError(f"OpenSpiel expects seat {state.current_player()} to pass.")
            for card in cards:
                state.apply_action(action_of(card))
            rnd.give(s, cards)
    while not state.is_terminal():
        seat = state.current_player()
        legal = sorted(card_of(a) for a in state.legal_actions())
        if seat != rnd.turn or legal != sorted(int(c) for c in rnd.legal_cards()):
            raise RuntimeError(
                f"deal {deal}: OpenSpiel and the engine disagree on the move "
                f"(seat {seat} or {rnd.turn}; {legal} or {rnd.legal_cards()})."
            )
        started = time.process_time()
        if seat in players:
            card = int(players[seat].choose_play(rnd.view(seat)))
            our_cpu.append(time.process_time() - started)
        else:
            card = card_of(bots[seat].step(state))
            their_cpu.append(time.process_time() - started)
        state.apply_action(action_of(card))
        rnd.play(card)
    theirs = [round(26 - r) for r in state.returns()]
    result = score_round(RULES, rnd, [0] * seats)
    if theirs != list(result.scores):
        raise RuntimeError(f"deal {deal}: OpenSpiel scores {theirs}, the engine {result.scores}.")
    return GameResult(theirs, list(ours), our_cpu, their_cpu, int(result.shooter is not None))


def layouts(seats: int) -> list[tuple[int, ...]]:
    """Our seats in each play of a deal: every other seat, then the rest."""
    return [tuple(range(0, seats, 2)), tuple(range(1, seats, 2))]


def _task(args: tuple[str, int, str, int | None]) -> dict[str, Any]:
    seed, deal, level, budget = args
    game = load_game()
    games = [play_game(game, seed, deal, ours, level, budget) for ours in layouts(4)]
    return {"deal": deal, "games": [asdict(g) for g in games]}


def ci95(values: list[float]) -> float:
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.95 * (len(ordered) - 1))] if ordered else 0.0


def report(records: list[dict[str, Any]], level: str) -> list[str]:
    ours_means, theirs_means, diffs = [], [], []
    our_cpu: list[float] = []
    their_cpu: list[float] = []
    moons = 0
    for record in records:
        mine: list[int] = []
        theirs: list[int] = []
        for g in record["games"]:
            for seat, points in enumerate(g["points"]):
                (mine if seat in g["ours"] else theirs).append(points)
            our_cpu += g["our_cpu"]
            their_cpu += g["their_cpu"]
            moons += g["moons"]
        ours_means.append(statistics.fmean(mine))
        theirs_means.append(statistics.fmean(theirs))
        diffs.append(ours_means[-1] - theirs_means[-1])
    if len(records) < 2:
        return ["too few deals for an interval"]
    rounds = sum(len(g["points"]) for r in records for g in r["games"]) // 2
    return [
        f"{len(records)} deals, each played twice (seats swapped): {rounds} seat-rounds each",
        f"  {level:<8} {statistics.fmean(ours_means):6.2f} ± {ci95(ours_means):.2f} points/round, "
        f"cpu ms median {1000 * statistics.median(our_cpu):.1f} p95 {1000 * p95(our_cpu):.1f}",
        f"  ismcts   {statistics.fmean(theirs_means):6.2f} ± {ci95(theirs_means):.2f} "
        "points/round, "
        f"cpu ms median {1000 * statistics.median(their_cpu):.1f} "
        f"p95 {1000 * p95(their_cpu):.1f} ({SIMULATIONS} simulations)",
        f"  {level} minus ismcts: {statistics.fmean(diffs):+.3f} ± {ci95(diffs):.3f} "
        f"points/round (95% interval over deals); moons {moons}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--seed", default="openspiel")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--budget", type=int, default=None, help="our player's playouts")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", help="append every deal to this JSON-lines file")
    parser.add_argument("--summarize", metavar="FILE", help="report from a --out file and stop")
    args = parser.parse_args()
    if args.summarize:
        with open(args.summarize, encoding="utf-8") as lines:
            header = json.loads(next(lines))
            saved = [json.loads(line) for line in lines if line.strip()]
        print("\n".join(report(saved, header["level"])))
        return
    load_game()
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115
    if out is not None and out.tell() == 0:
        out.write(json.dumps({"level": args.level, "budget": args.budget, "seed": args.seed}))
        out.write("\n")
    tasks = [
        (args.seed, d, args.level, args.budget)
        for d in range(args.first_deal, args.first_deal + args.deals)
    ]
    started = time.perf_counter()
    records: list[dict[str, Any]] = []
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for record in pool.imap_unordered(_task, tasks):
            records.append(record)
            if out is not None:
                out.write(json.dumps(record) + "\n")
                out.flush()
            if len(records) % 10 == 0:
                print(
                    f"  {len(records)}/{len(tasks)} deals, {time.perf_counter() - started:.0f}s; "
                    + " ".join(report(records, args.level)[-1:]),
                    file=sys.stderr,
                    flush=True,
                )
    if out is not None:
        out.close()
    print("\n".join(report(records, args.level)))
    print(f"  ({time.perf_counter() - started:.0f}s)")


if __name__ == "__main__":
    main()
