"""A playout policy learned from the search's own cards: fitted on some rounds, checked on others.

Usage: python benchmarks/playout_policy.py [--rounds 400] [--seed agree] [--ridge 1.0]
                                           [--write] [--load FILE] [--save FILE]
                                           [--values] [--tau 1,2,4] [--regret-steps N]

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

Fitted to the search's values (issue 16, twelfth part): --values keeps, with every decision
played, the coach's full search's average result of every distinct legal card
(`playout_agreement.search_values`, saved as a sixth field of the line). --tau T1,T2,... with
--check fits to soft targets softmax(-value / τ) instead of hard's card: τ is chosen among
those given by the playout's mean regret (points the card gives up against the search's best
card, by the search's values) on the odd rounds of the fitting decisions, fitted on their
even ones; then it is fitted on all of them and judged on the --check decisions (regret and
agreement, per kind and where the Q♠ may be discarded) beside medium's policy, the weights
fitted to hard's card (`playout_weights.json`) and those refitted to hard's card on the same
decisions. --regret-steps N tries N further steps on the softmax's expected regret, kept if
they lower the odd rounds' regret. --write then writes `playout_weights_valued.json`
(`rollout.VALUED_WEIGHTS_FILE`); the first file stays as it was measured.
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
from hearts.ai.search import QUEEN_FACE
from hearts.ai.tracking import SUIT_FACES

KINDS = ("lead", "follow", "discard")


POSITION = [f.name for f in dataclasses.fields(Position)]


def save(seen: list[Decision], path: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for d in seen:
            pos = {name: getattr(d.pos, name) for name in POSITION}
            alike = [[face, rep] for face, rep in d.alike.items()]
            row = [pos, d.seat, d.choice, alike, d.round]
            if d.values is not None:
                row.append([[face, round(v, 4)] for face, v in sorted(d.values.items())])
            f.write(json.dumps(row) + "\n")


def load(path: str) -> list[Decision]:
    seen = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            pos, seat, choice, alike, rnd, *more = json.loads(line)
            position = Position(*(pos[name] for name in POSITION))
            values = {int(f): float(v) for f, v in more[0]} if more else None
            seen.append(Decision(position, seat, choice, dict(map(tuple, alike)), rnd, values))
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


def fit(part: list[Decision], ridge: float, tau: float = 0.0, steps: int = 0) -> list[float]:
    """The conditional logit's weights on these decisions (Newton's method, ridge penalty).

    With `tau` 0, fitted to the search's card; otherwise to soft targets, every card weighed
    by softmax(-value / tau) of the full search's values (`Decision.values`, lower is
    better): the cross-entropy's gradient is then the targets' mean features less the
    model's, and its Hessian the same as with one card chosen. With `steps`, the weights
    then go on (Adam, `steps` steps) to lower the softmax's expected regret, the sum over
    cards of p(card) times the points it gives up against the best card (not convex: it
    starts from the soft targets' fit), with the same ridge."""
    import numpy as np  # only here: NumPy is not a dependency of the project

    width = len(FEATURES)
    most = max(len(d.alike) for d in part)
    xs = np.zeros((len(part), most, width))
    mask = np.zeros((len(part), most), dtype=bool)
    target = np.zeros((len(part), most))
    for n, d in enumerate(part):
        cards, rows = options(d)
        xs[n, : len(rows)] = rows
        mask[n, : len(rows)] = True
        if tau:
            assert d.values is not None
            values = np.array([d.values[c] for c in cards])
            q = np.exp(-(values - values.min()) / tau)
            target[n, : len(rows)] = q / q.sum()
        else:
            target[n, cards.index(d.choice)] = 1.0
    w = np.zeros(width)
    picked = np.einsum("nm,nmf->nf", target, xs)
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
    if steps:
        assert tau, "the expected regret needs the values"
        loss = np.zeros((len(part), most))
        for n, d in enumerate(part):
            assert d.values is not None
            cards = sorted(set(d.alike.values()))
            values = np.array([d.values[c] for c in cards])
            loss[n, : len(cards)] = values - values.min()
        moment, square = np.zeros(width), np.zeros(width)
        for t in range(1, steps + 1):
            scores = np.where(mask, xs @ w, -np.inf)
            scores -= scores.max(axis=1, keepdims=True)
            p = np.exp(scores)
            p /= p.sum(axis=1, keepdims=True)
            expected = (p * loss).sum(axis=1, keepdims=True)
            grad = np.einsum("nm,nmf->f", p * (loss - expected), xs) / len(part)
            grad += ridge * w / len(part)
            moment = 0.9 * moment + 0.1 * grad
            square = 0.999 * square + 0.001 * grad * grad
            w -= 0.02 * (moment / (1 - 0.9**t)) / (np.sqrt(square / (1 - 0.999**t)) + 1e-8)
    return [float(v) for v in w]


def argmax_card(weights: list[float], d: Decision) -> int:
    cards, rows = options(d)
    scores = [sum(w * x for w, x in zip(weights, row, strict=True)) for row in rows]
    return cards[scores.index(max(scores))]


def shares(name: str, hits: Counter[str], total: Counter[str]) -> str:
    parts = ", ".join(f"{k} {hits[k] / total[k]:.1%} of {total[k]}" for k in KINDS if total[k])
    return f"  {name}: {sum(hits.values()) / sum(total.values()):.1%} ({parts})"


def regret(d: Decision, card: int) -> float:
    """Points the card gives up against the search's best, by the search's own values."""
    assert d.values is not None
    return d.values[card] - min(d.values.values())


def queen_discard(d: Decision) -> bool:
    """A discard where the Q♠ may be played."""
    return kind(d) == "discard" and QUEEN_FACE in d.alike


def fit_kinds(
    part: list[Decision], ridge: float, tau: float, steps: int = 0
) -> dict[str, list[float]]:
    return {k: fit([d for d in part if kind(d) == k], ridge, tau, steps) for k in KINDS}


def learned_table(weights: dict[str, list[float]]) -> Table:
    return dataclasses.replace(Table.of(Rules()), learned=tuple(tuple(weights[k]) for k in KINDS))


def judge(table: Table, part: list[Decision]) -> dict[str, list[float]]:
    """Per group (all, each kind, Q♠ discards): [decisions, agreeing with hard's card, regret
    summed, its squares summed, the Q♠ dropped]."""
    groups: dict[str, list[float]] = {g: [0.0] * 5 for g in ("all", *KINDS, "Q♠ discard")}
    for d in part:
        card = policy_card(table, d)
        loss = regret(d, card)
        names = ["all", kind(d)] + (["Q♠ discard"] if queen_discard(d) else [])
        for g in names:
            row = groups[g]
            row[0] += 1
            row[1] += card == d.choice
            row[2] += loss
            row[3] += loss * loss
            row[4] += card == QUEEN_FACE
    return groups


def interval(row: list[float]) -> str:
    n, total, squares = row[0], row[2], row[3]
    mean = total / n
    spread = max(squares / n - mean * mean, 0.0) ** 0.5
    return f"{mean:.3f} ± {1.96 * spread / n**0.5:.3f}"


def valued(args: argparse.Namespace, fitting: list[Decision], checking: list[Decision]) -> None:
    """Soft targets from the search's values: τ chosen on the odd rounds of the fitting
    decisions (fitted on the even ones) by the playout's mean regret, then fitted on all of
    them and judged on the checked decisions beside medium's policy and the old weights."""
    fitting = [d for d in fitting if d.values and set(d.values) == set(d.alike.values())]
    checking = [d for d in checking if d.values and set(d.values) == set(d.alike.values())]
    print(f"with every card's value: {len(fitting)} to fit, {len(checking)} to check")
    even = [d for d in fitting if d.round % 2 == 0]
    odd = [d for d in fitting if d.round % 2 == 1]
    taus = [float(t) for t in args.tau.split(",")]
    best_tau, best = taus[0], float("inf")
    for tau in [0.0, *taus]:
        tried = judge(learned_table(fit_kinds(even, args.ridge, tau)), odd)
        print(
            f"  τ {tau:g}{' (hard card)' if not tau else ''}, on the odd rounds: "
            f"regret {interval(tried['all'])}"
            f", agreement {tried['all'][1] / tried['all'][0]:.1%}, Q♠ discards "
            f"{interval(tried['Q♠ discard'])}"
        )
        if tau and tried["all"][2] < best:
            best_tau, best = tau, tried["all"][2]
    print(f"τ chosen: {best_tau:g}")
    steps = 0
    if args.regret_steps:
        tried = judge(learned_table(fit_kinds(even, args.ridge, best_tau, args.regret_steps)), odd)
        print(
            f"  τ {best_tau:g} then {args.regret_steps} steps on the expected regret, on the "
            f"odd rounds: regret {interval(tried['all'])}, agreement "
            f"{tried['all'][1] / tried['all'][0]:.1%}, Q♠ discards {interval(tried['Q♠ discard'])}"
        )
        if tried["all"][2] < best:
            steps = args.regret_steps
        print(f"steps on the expected regret kept: {steps}")
    weights = fit_kinds(fitting, args.ridge, best_tau, steps)
    for k in KINDS:
        print(f"{k}:")
        for feature, w in sorted(zip(FEATURES, weights[k], strict=True), key=lambda t: -abs(t[1])):
            print(f"    {w:+7.2f} {feature}")
    rounds = len({d.round for d in fitting})
    data: dict[str, Any] = {
        "about": (
            "The playout's learned policy fitted to the search's values "
            "(rollout.VALUED_WEIGHTS_FILE): per kind of decision, weights of rollout.FEATURES, "
            "a conditional logit fitted to soft targets softmax(-value / tau) of the full "
            f"search's value of every card in {rounds} rounds of four hard players (seed "
            f"{args.seed!r}) by benchmarks/playout_policy.py, tau {best_tau:g}, ridge "
            f"{args.ridge}" + (f", then {steps} steps on the expected regret." if steps else ".")
        ),
        "features": list(FEATURES),
        **{k: [round(w, 4) for w in weights[k]] for k in KINDS},
    }
    if args.write:
        path = rollout.VALUED_WEIGHTS_FILE
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path}")
    base = Table.of(Rules())
    tables = {
        "medium's policy": base,
        "learned from hard's card (playout_weights.json)": base.with_learned_policy(),
        "hard's card, refitted on these decisions": learned_table(
            fit_kinds(fitting, args.ridge, 0)
        ),
        f"learned from the values, τ {best_tau:g}, {steps} regret steps": learned_table(
            {k: data[k] for k in KINDS}
        ),
    }
    for label, part in (("fitted on", fitting), ("checked on", checking)):
        print(
            f"{label} {len(part)} decisions (regret in points, 95% intervals; agreement; "
            "Q♠ dropped where she may be discarded):"
        )
        for name, table in tables.items():
            groups = judge(table, part)
            print(f"  {name}:")
            for g, row in groups.items():
                extra = f", Q♠ dropped {row[4]:.0f} of {row[0]:.0f}" if g == "Q♠ discard" else ""
                print(
                    f"    {g:10} {row[0]:6.0f}: regret {interval(row)}, agrees "
                    f"{row[1] / row[0]:.1%}{extra}"
                )
        names = list(tables)
        losses = {n: [regret(d, policy_card(tables[n], d)) for d in part] for n in names}
        print("  the last one's regret less each other's, paired decision by decision:")
        for name in names[:-1]:
            print(f"    {name}:")
            for g in ("all", *KINDS, "Q♠ discard"):
                gaps = [
                    a - b
                    for d, a, b in zip(part, losses[names[-1]], losses[name], strict=True)
                    if g == "all" or g == kind(d) or (g == "Q♠ discard" and queen_discard(d))
                ]
                summary = [len(gaps), 0.0, sum(gaps), sum(x * x for x in gaps)]
                print(f"      {g:10} {len(gaps):6}: {interval(summary)}")


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
    parser.add_argument("--values", action="store_true")
    parser.add_argument("--tau")
    parser.add_argument("--regret-steps", type=int, default=0)
    args = parser.parse_args()
    if args.tau and not args.check:
        parser.error("--tau fits on all the decisions and needs --check to judge them")
    start = time.perf_counter()
    if args.load:
        seen = load(args.load)
    else:
        seen = list(decisions(args.rounds, args.seed, values=args.values))
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
    if args.tau:
        valued(args, fitting, checking)
        print(f"{time.perf_counter() - start:.0f} s in all")
        return
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
