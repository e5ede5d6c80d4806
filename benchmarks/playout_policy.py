"""A playout policy learned from the search's own cards: fitted on some rounds, checked on others.

Usage: python benchmarks/playout_policy.py [--rounds 400] [--seed agree] [--ridge 1.0]
                                           [--write] [--load FILE] [--save FILE]

Needs NumPy, which is not a dependency of the project: install it into the virtual
environment for this benchmark only (`.venv/bin/pip install numpy`). NumPy is imported only
inside the fitting; the playout reads the fitted weights in plain Python.

Four hard players play --rounds rounds, and every decision with a choice is kept with every
hand as it really was (`playout_agreement.decisions`). For each legal card (cards that play
alike counted as one, the lowest of them, as `search.representatives` groups them) the
playout's features (`rollout.card_features`: only what the seat to play knows) are taken,
and a conditional logit (a softmax over the legal cards, one linear score a card) is fitted
per kind of decision (lead, follow, discard) by Newton's method, with a ridge penalty of
--ridge on the weights, on the even-numbered rounds. On the odd-numbered rounds it reports
how often the card of highest score is the search's card, and then how often the playout
itself (`play_numbers` without noise, `Table.with_learned_policy` with these weights, the
moon's own rules kept) plays the search's card, next to medium's policy (`Table.of`) as
`playout_agreement.py` reports it.

--speed N times N playouts (with the playout's noise) from every checked position, once
with medium's policy and once with the learned one, in CPU time (compiled if `make native`
has built the current source; the line says which).

--write writes the weights to src/hearts/ai/playout_weights.json (the package's file).
--check FILE fits on every round of the decisions played or loaded, and checks on the
decisions in FILE (kept by --save from rounds of another seed) instead of the odd rounds.
--save FILE keeps the decisions (JSON lines) and --load FILE reads them instead of playing.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import pathlib
import random
import sys
import time
from collections import Counter
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from playout_agreement import Decision, decisions, kind, policy_card

from hearts import Rules
from hearts.ai import rollout
from hearts.ai.rollout import FEATURES, Position, Table, card_features, play_out
from hearts.ai.tracking import SUIT_FACES

KINDS = ("lead", "follow", "discard")


POSITION = [f.name for f in dataclasses.fields(Position)]


def save(seen: list[Decision], path: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for d in seen:
            pos = {name: getattr(d.pos, name) for name in POSITION}
            alike = [[face, rep] for face, rep in d.alike.items()]
            f.write(json.dumps([pos, d.seat, d.choice, alike, d.round]) + "\n")


def load(path: str) -> list[Decision]:
    seen = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            pos, seat, choice, alike, rnd = json.loads(line)
            position = Position(*(pos[name] for name in POSITION))
            seen.append(Decision(position, seat, choice, dict(map(tuple, alike)), rnd))
    return seen


def options(d: Decision) -> tuple[list[int], list[list[float]]]:
    """The decision's distinct legal cards (lowest of each run alike) and their features."""
    pos = d.pos
    hand = pos.hands[d.seat]
    trick_mask = 0
    for face in pos.trick:
        trick_mask |= 1 << face
    led_suit = SUIT_FACES[pos.trick[0] // 13] if pos.trick else 0
    best = 0
    for face in pos.trick:
        if 1 << face & led_suit and 1 << face > best:
            best = 1 << face
    last = len(pos.trick) == len(pos.hands) - 1
    cards = sorted(set(d.alike.values()))
    rows = [
        card_features(1 << c, hand, pos.played, trick_mask, best, led_suit, last) for c in cards
    ]
    return cards, rows


def fit(part: list[Decision], ridge: float) -> list[float]:
    """The conditional logit's weights on these decisions (Newton's method, ridge penalty)."""
    import numpy as np  # only here: NumPy is not a dependency of the project

    width = len(FEATURES)
    most = max(len(d.alike) for d in part)
    xs = np.zeros((len(part), most, width))
    mask = np.zeros((len(part), most), dtype=bool)
    chosen = np.zeros(len(part), dtype=int)
    for n, d in enumerate(part):
        cards, rows = options(d)
        xs[n, : len(rows)] = rows
        mask[n, : len(rows)] = True
        chosen[n] = cards.index(d.choice)
    w = np.zeros(width)
    picked = xs[np.arange(len(part)), chosen]
    for _ in range(30):
        scores = np.where(mask, xs @ w, -np.inf)
        scores -= scores.max(axis=1, keepdims=True)
        p = np.exp(scores)
        p /= p.sum(axis=1, keepdims=True)
        mean = np.einsum("nm,nmf->nf", p, xs)
        grad = (picked - mean).sum(axis=0) - ridge * w
        second = np.einsum("nm,nmf,nmg->fg", p, xs, xs) - mean.T @ mean
        step = np.linalg.solve(second + ridge * np.eye(width), grad)
        w += step
        if np.abs(step).max() < 1e-8:
            break
    return [float(v) for v in w]


def argmax_card(weights: list[float], d: Decision) -> int:
    cards, rows = options(d)
    scores = [sum(w * x for w, x in zip(weights, row, strict=True)) for row in rows]
    return cards[scores.index(max(scores))]


def shares(name: str, hits: Counter[str], total: Counter[str]) -> str:
    parts = ", ".join(f"{k} {hits[k] / total[k]:.1%} of {total[k]}" for k in KINDS if total[k])
    return f"  {name}: {sum(hits.values()) / sum(total.values()):.1%} ({parts})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--seed", default="agree")
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--load")
    parser.add_argument("--save")
    parser.add_argument("--check")
    parser.add_argument("--speed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    if args.load:
        seen = load(args.load)
    else:
        seen = list(decisions(args.rounds, args.seed))
        if args.save:
            save(seen, args.save)
    rounds = len({d.round for d in seen})
    print(f"{len(seen)} decisions of hard in {rounds} rounds ({time.perf_counter() - start:.0f} s)")
    if args.check:
        fitting, checking = seen, load(args.check)
        print(f"fitting on all of them, checking on {len(checking)} decisions of {args.check}")
    else:
        fitting = [d for d in seen if d.round % 2 == 0]
        checking = [d for d in seen if d.round % 2 == 1]
    weights: dict[str, list[float]] = {}
    for k in KINDS:
        part = [d for d in fitting if kind(d) == k]
        weights[k] = fit(part, args.ridge)
        print(f"{k}: fitted on {len(part)} decisions")
        for feature, w in sorted(zip(FEATURES, weights[k], strict=True), key=lambda t: -abs(t[1])):
            print(f"    {w:+7.2f} {feature}")
    data: dict[str, Any] = {
        "about": (
            "The playout's learned policy (rollout.Table.with_learned_policy): per kind of "
            "decision, weights of rollout.FEATURES, a conditional logit fitted to hard's "
            f"cards in {'all' if args.check else 'the even-numbered'} of {rounds} rounds of "
            f"four hard players (seed {args.seed!r}) by benchmarks/playout_policy.py, "
            f"ridge {args.ridge}."
        ),
        "features": list(FEATURES),
        **{k: [round(w, 4) for w in weights[k]] for k in KINDS},
    }
    path = rollout.WEIGHTS_FILE
    if args.write:
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path}")
    base = Table.of(Rules())
    learned = dataclasses.replace(base, learned=tuple(tuple(data[k]) for k in KINDS))
    for label, part in (("fitted on", fitting), ("checked on", checking)):
        total: Counter[str] = Counter(kind(d) for d in part)
        hits = {name: Counter[str]() for name in ("medium", "score", "playout")}
        for d in part:
            k = kind(d)
            hits["medium"][k] += policy_card(base, d) == d.choice
            hits["score"][k] += argmax_card(data[k], d) == d.choice
            hits["playout"][k] += policy_card(learned, d) == d.choice
        print(f"{label} {len(part)} decisions:")
        print(shares("medium's policy (today's playout)", hits["medium"], total))
        print(shares("learned, the card of highest score", hits["score"], total))
        print(shares("learned, in the playout", hits["playout"], total))
    if args.speed:
        how = "compiled" if rollout.__file__.endswith(".so") else "source"
        print(f"playouts, {args.speed} from each checked position ({how}):")
        for name, table in (("medium's", base), ("learned", learned)):
            rng = random.Random(1)
            began = time.process_time()
            for d in checking:
                for _ in range(args.speed):
                    play_out(table, d.pos.copy(), rng)
            spent = time.process_time() - began
            each = spent / (args.speed * len(checking)) * 1e6
            print(f"  {name}: {each:.1f} µs CPU a playout ({spent:.1f} s)")
    print(f"{time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    main()
