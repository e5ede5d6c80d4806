"""Build the tactics suite (tests/data/tactics.json): positions and their deeply searched answers.

Usage: python benchmarks/tactics_build.py [--deals 60] [--playouts 24000] [--out PATH]

Positions come from rounds played by medium players (and rounds with a moon-shooting player,
for moon attempts and blocks) plus hand-made ones (the queen position of issue 16). Each is
first screened with a short search; those where the choice matters (the worst card costs at
least --spread points more than the best) are searched again far deeper: --playouts playouts
(at least 50 times hard's budget, no candidate dropped), or exactly when the seat holds
--exact-cards cards or fewer (every deal consistent with the seat's view, each solved by
`hearts.ai.endgame`). The answer is every card within --tolerance points (or two standard
errors) of the best; a position is kept when some card is clearly worse (by --spread points
and three standard errors). The depth used is written with every answer.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import pathlib
import random
import statistics
import sys
import time
from typing import Any

from hearts import Round, Rules
from hearts.ai import make_player
from hearts.ai.passing import can_search_pass, evaluate_passes, pass_candidates
from hearts.ai.racing import Arm
from hearts.ai.rollout import Table
from hearts.ai.search import (
    HardPlayer,
    _position,
    _utility,
    distinct_candidates,
    is_moon_hand,
    moon_pass,
    representatives,
    solve_candidates,
)
from hearts.ai.tactics import TacticsPosition, pass_key
from hearts.ai.tracking import POINT_FACES, Knowledge, fold
from hearts.cards import CARDS
from hearts.view import PlayerView

QUEEN_POSITION: dict[str, Any] = {
    "id": "queen-under-the-five",
    "kind": "follow",
    "tags": ["queen"],
    "note": "Spades led with the 5S; the seat holds 2S 3S 4S TS JS QS: never throw the queen.",
    "hands": [
        ["2C", "6C", "9C", "2S", "3S", "4S", "TS", "JS", "QS", "5D", "TD", "2H", "JH"],
        ["3C", "AC", "9S", "KD", "4D", "7H", "8H", "9H", "3D", "6D", "8D", "7C", "8S"],
        ["4C", "5C", "8C", "6S", "7S", "KS", "AD", "QD", "3H", "4H", "5H", "KH", "AH"],
        ["TC", "JC", "QC", "KC", "5S", "AS", "2D", "7D", "9D", "JD", "6H", "TH", "QH"],
    ],
    "pass_direction": "hold",
    "plays": ["2C", "7C", "8C", "KC", "5S"],
    "seat": 0,
}


def record_of(rnd: Round, seat: int, plays: list[str], kind: str) -> dict[str, Any]:
    return {
        "kind": kind,
        "hands": [[str(CARDS[c]) for c in range(104) if rnd.dealt[s] >> c & 1] for s in range(4)],
        "pass_direction": rnd.pass_direction,
        "passes": (
            [[str(CARDS[c]) for c in range(104) if (rnd.given[s] or 0) >> c & 1] for s in range(4)]
            if kind != "pass" and rnd.pass_direction != "hold"
            else None
        ),
        "plays": list(plays),
        "seat": seat,
        "hand_number": rnd.hand_number,
    }


def kind_of(view: PlayerView) -> str:
    if view.phase == "passing":
        return "pass"
    if not view.trick:
        return "lead"
    led = view.trick[0][1] // 13
    return "follow" if view.legal_mask & (0x1FFF << (13 * led)) else "discard"


def harvest(deals: int, seed: str, opponents: str, late: bool = False) -> list[dict[str, Any]]:
    """Decision points from rounds of medium players; with `opponents` "moon" one seat is the
    moon shooter; `late`: only the last tricks."""
    rng = random.Random(seed)
    found: list[dict[str, Any]] = []
    for deal in range(deals):
        rnd = Round.deal(Rules(), seed=f"{seed}:{deal}", hand_number=deal)
        levels = ["medium"] * 4
        if opponents == "moon":
            levels[deal % 4] = "moon"
        bots = [make_player(levels[s], seed=f"{seed}:{deal}:{s}") for s in range(4)]
        if rnd.phase == "passing":
            found.append(record_of(rnd, rng.randrange(4), [], "pass"))
            for s in range(4):
                rnd.give(s, bots[s].choose_pass(rnd.view(s)))
        plays: list[str] = []
        stops = set(rng.sample(range(40, 52), 3) if late else rng.sample(range(52), 4))
        while rnd.phase == "playing":
            seat = rnd.turn
            view = rnd.view(seat)
            if (
                len(plays) in stops
                and levels[seat] != "moon"
                and view.legal_mask & (view.legal_mask - 1)
            ):
                found.append(record_of(rnd, seat, plays, kind_of(view)))
            card = bots[seat].choose_play(view)
            rnd.play(card)
            plays.append(str(card))
    return found


def moon_shooter_positions(deals: int, seed: str) -> list[dict[str, Any]]:
    """The moon shooter's own decisions from the sixth trick on, while it holds every point
    taken so far and at least six of them (moon attempts, if the deep search agrees)."""
    found: list[dict[str, Any]] = []
    for deal in range(deals):
        rnd = Round.deal(Rules(), seed=f"{seed}:{deal}", hand_number=deal)
        shooter = deal % 4
        bots = [
            make_player("moon" if s == shooter else "medium", seed=f"{seed}:{deal}:{s}")
            for s in range(4)
        ]
        if rnd.phase == "passing":
            for s in range(4):
                rnd.give(s, bots[s].choose_pass(rnd.view(s)))
        plays: list[str] = []
        while rnd.phase == "playing":
            seat = rnd.turn
            view = rnd.view(seat)
            if seat == shooter and len(rnd.tricks) >= 5 and view.legal_mask & (view.legal_mask - 1):
                know = Knowledge.from_view(view)
                rivals = any(know.taken[o] & POINT_FACES for o in range(4) if o != seat)
                if not rivals and (know.taken[seat] & POINT_FACES).bit_count() >= 6:
                    found.append(record_of(rnd, seat, plays, kind_of(view)))
            card = bots[seat].choose_play(view)
            rnd.play(card)
            plays.append(str(card))
    return found


def consistent_deals(know: Knowledge, hand_sizes: tuple[int, ...]) -> list[list[int]]:
    """Every deal of the unseen cards that fits the seat's view (small endings only)."""
    n = know.players
    room = [hand_sizes[s] - know.known[s].bit_count() if s != know.seat else 0 for s in range(n)]
    cards = [
        f for f in range(52) if know.unseen >> f & 1 and not any(k >> f & 1 for k in know.known)
    ]
    base = [know.hand if s == know.seat else know.known[s] for s in range(n)]
    deals: list[list[int]] = []

    def place(i: int, hands: list[int]) -> None:
        if i == len(cards):
            deals.append(hands.copy())
            return
        face = cards[i]
        for s in range(n):
            if room[s] and not know.voids[s] >> (face // 13) & 1:
                room[s] -= 1
                hands[s] |= 1 << face
                place(i + 1, hands)
                hands[s] &= ~(1 << face)
                room[s] += 1

    place(0, base.copy())
    return deals


def face_values(arms: list[Arm]) -> dict[int, list[float]]:
    """Per candidate card, the per-deal values of its better plan."""
    best: dict[int, Arm] = {}
    for arm in arms:
        if arm.face not in best or arm.mean < best[arm.face].mean:
            best[arm.face] = arm
    return {face: arm.values for face, arm in best.items()}


def judge(values: dict[Any, list[float]], tolerance: float, spread: float) -> dict[str, Any] | None:
    """The acceptable answers, or None when no candidate is clearly worse than the best."""
    means = {k: statistics.fmean(v) for k, v in values.items()}
    best = min(means, key=lambda k: means[k])
    acceptable, clearly_worse = [], 0
    for key, vals in values.items():
        diffs = [a - b for a, b in zip(vals, values[best], strict=True)]
        mean = statistics.fmean(diffs)
        se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
        if mean <= max(tolerance, 2 * se):
            acceptable.append(key)
        elif mean >= spread and mean > 3 * se:
            clearly_worse += 1
    if not clearly_worse:
        return None
    return {"acceptable": acceptable, "means": means, "best": best}


def analyse(
    data: dict[str, Any], playouts: int, exact_cards: int, tolerance: float, spread: float
) -> dict[str, Any] | None:
    position = TacticsPosition.from_dict({**data, "id": "probe", "answer": []})
    view = position.view
    searcher = HardPlayer(seed="tactics-deep")
    table = Table.of(view.rules)
    started = time.process_time()
    moon_key: str | None = None
    if data["kind"] == "pass":
        if not can_search_pass(view):
            return None
        hand = fold(view.hand_mask)
        moon = moon_pass(hand, view.cards_to_pass) if is_moon_hand(hand) else None
        sets = pass_candidates(hand, view.pass_direction, view.cards_to_pass, moon)
        arms = evaluate_passes(
            view,
            sets,
            random.Random("tactics-deep"),
            playouts,
            playouts // len(sets),
            0.0,
            tuple(sorted(moon)) if moon else None,
            lambda pos: _utility(view, table, pos),
        )
        values = {pass_key(CARDS[f] for f in sets[a.face]): a.values for a in arms}
        moon_key = pass_key(CARDS[f] for f in moon) if moon else None
        depth = {
            "method": "sampled deals, heuristic playouts",
            "playouts": playouts,
            "deals": len(arms[0].values),
            "candidates": len(sets),
        }
    else:
        know = Knowledge.from_view(view)
        candidates = distinct_candidates(know)
        if len(candidates) < 2:
            return None
        if know.hand.bit_count() <= exact_cards:
            deals = consistent_deals(know, view.hand_sizes)
            base = _position(view, know)
            per_face: dict[int, list[float]] = {f: [] for f in candidates}
            for hands in deals:
                start = base.copy()
                start.hands = hands
                for face, value in zip(
                    candidates, solve_candidates(view, table, start, candidates), strict=True
                ):
                    per_face[face].append(value)
            values = {str(CARDS[f]): v for f, v in per_face.items()}
            depth = {"method": "exact: every consistent deal solved", "deals": len(deals)}
        else:
            arms = searcher.evaluate(
                view, know, candidates, budget=playouts, min_samples=8, drop_z=0.0
            )
            values = {str(CARDS[f]): v for f, v in face_values(arms).items()}
            best_arm = min(arms, key=lambda a: a.mean)
            if best_arm.plan == view.seat:
                moon_key = str(CARDS[best_arm.face])
            depth = {
                "method": "sampled deals, heuristic playouts",
                "playouts": playouts,
                "deals": len(arms[0].values),
                "candidates": len(arms),
            }
    verdict = judge(values, tolerance, spread)
    if verdict is None:
        return None
    depth["cpu_seconds"] = round(time.process_time() - started, 1)
    means: dict[str, float] = verdict["means"]
    answer = set(verdict["acceptable"])
    if data["kind"] != "pass":
        know = Knowledge.from_view(view)
        for face, lowest in representatives(know).items():
            if str(CARDS[lowest]) in answer:
                answer.add(str(CARDS[face]))
    tags = list(data.get("tags", []))
    if moon_key is not None and moon_key in verdict["acceptable"]:
        tags.append("moon-attempt")
    return {
        **data,
        "tags": tags,
        "answer": sorted(answer),
        "values": {k: round(v, 3) for k, v in sorted(means.items(), key=lambda kv: kv[1])},
        "depth": depth,
    }


def tags_of(data: dict[str, Any]) -> list[str]:
    position = TacticsPosition.from_dict({**data, "id": "probe", "answer": []})
    view = position.view
    tags = list(data.get("tags", []))
    if view.phase == "playing":
        know = Knowledge.from_view(view)
        if know.moon_threat() is not None:
            tags.append("moon-block")
    return tags


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--moon-deals", type=int, default=40)
    parser.add_argument("--playouts", type=int, default=24000)
    parser.add_argument("--screen", type=int, default=2000)
    parser.add_argument("--exact-cards", type=int, default=3)
    parser.add_argument("--tolerance", type=float, default=0.25)
    parser.add_argument("--spread", type=float, default=1.0)
    parser.add_argument("--limit", type=int, default=60, help="stop after this many positions")
    parser.add_argument("--out", default="tests/data/tactics.json")
    parser.add_argument(
        "--add",
        choices=["moon-attempts", "endings"],
        help="append to --out: the moon shooter's own decisions, or the last three tricks",
    )
    args = parser.parse_args()
    kept: list[dict[str, Any]] = []
    if args.add:
        previous = json.loads(pathlib.Path(args.out).read_text())
        kept = previous["positions"]
        if args.add == "moon-attempts":
            pool = moon_shooter_positions(args.moon_deals, "mooncraft")
        else:
            pool = harvest(args.deals, "tactics-late", "medium", late=True)
        args.limit += len(kept)
    else:
        pool = [QUEEN_POSITION, *harvest(args.moon_deals, "tactics-moon", "moon")]
        pool += harvest(args.deals, "tactics", "medium")
        random.Random("order").shuffle(pool[1:])
    counts: dict[str, int] = {}
    for index, data in enumerate(pool):
        if len(kept) >= args.limit:
            break
        if counts.get(data["kind"], 0) >= args.limit // 3 and data is not QUEEN_POSITION:
            continue
        if args.add and data["kind"] == "pass":
            continue
        screened = analyse(data, args.screen, args.exact_cards, args.tolerance, args.spread)
        if screened is None:
            continue
        deep = analyse(data, args.playouts, args.exact_cards, args.tolerance, args.spread)
        if deep is None:
            continue
        prefix = {"moon-attempts": "moon-", "endings": "ending-"}.get(args.add or "", "")
        deep["id"] = deep.get("id") or f"{prefix}{deep['kind']}-{index}"
        deep["tags"] = tags_of(deep)
        if args.add == "moon-attempts" and "moon-attempt" not in deep["tags"]:
            continue
        kept.append(deep)
        counts[deep["kind"]] = counts.get(deep["kind"], 0) + 1
        print(
            f"{len(kept):3} {deep['id']:<24} answer {deep['answer']} "
            f"{deep['depth']['method'][:6]} {deep['depth']['cpu_seconds']}s",
            flush=True,
        )
    out = {
        "about": "Positions with answers from a far deeper search; rebuilt by "
        "benchmarks/tactics_build.py, scored by benchmarks/ai_tactics.py.",
        "built": datetime.date.today().isoformat(),
        "command": (previous["command"] + "; then " if args.add else "")
        + "python benchmarks/tactics_build.py "
        + " ".join(sys.argv[1:]),
        "tolerance": args.tolerance,
        "spread": args.spread,
        "positions": kept,
    }
    pathlib.Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    pathlib.Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(f"{len(kept)} positions written to {args.out}: {counts}")


if __name__ == "__main__":
    main()
