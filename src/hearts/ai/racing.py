"""Racing candidates on shared samples: drop the ones that surely trail, stop when one is left.

Every candidate (an arm) is tried on the same sampled deals with the same random numbers, so
the difference between two arms deal by deal has far less noise than either result alone.
"""

from __future__ import annotations

import itertools
import math
import operator
from dataclasses import dataclass


@dataclass(slots=True)
class Arm:
    """One candidate (a card, under a plan) and its result in every deal tried so far."""

    plan: int
    face: int
    values: list[float]
    active: bool = True
    protected: bool = False
    """Never dropped (the default choice that others must clearly beat)."""

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else 0.0


def race(
    arms: list[Arm], drop_z: float, tolerance: float = 0.05, prior: tuple[float, float] = (0, 0)
) -> None:
    """Drop the active arms that trail the best one by more than `drop_z` standard errors of
    the paired difference (the same deals and random numbers for both), and those that are
    surely within `tolerance` points of it (nothing to gain by telling them apart).

    `prior` is (deals, variance): the variance of a difference is taken as if that many more
    deals had shown that variance. A few deals often show no difference at all between two
    cards that differ only when the queen or a moon comes into it, and without a prior they
    would look surely alike."""
    active = [a for a in arms if a.active]
    count = len(active[0].values)
    if len(active) < 2 or count < 2 or drop_z <= 0:
        return
    best = min(active, key=lambda a: (a.mean, a.face))
    for arm in active:
        if arm is best or arm.protected:
            continue
        mean, var = _paired(arm.values, best.values)
        if prior[0]:
            var = (var * (count - 1) + prior[0] * prior[1]) / (count - 1 + prior[0])
        error = drop_z * math.sqrt(var / count)
        if mean > error or mean + error < tolerance:
            arm.active = False


def _paired(values: list[float], others: list[float]) -> tuple[float, float]:
    """The mean and sample variance of `values[i] - others[i]` (lists of one length, at least
    two), with the arithmetic of the plain loops: the same differences, summed in order."""
    count = len(values)
    if len(others) != count:
        raise ValueError("Paired results need as many values on each side.")
    diffs = list(map(operator.sub, values, others))
    mean = sum(diffs) / count
    squares = map(pow, map(operator.sub, diffs, itertools.repeat(mean)), itertools.repeat(2))
    return mean, sum(squares) / (count - 1)


def clearly_better(arm: Arm, than: Arm, margin: float, z: float) -> bool:
    """Whether `arm` beats `than` (lower is better) by more than `margin` points and by `z`
    standard errors of the paired difference, over the deals both were tried in."""
    count = min(len(arm.values), len(than.values))
    if count < 2:
        return False
    diffs = [b - a for a, b in zip(arm.values[:count], than.values[:count], strict=True)]
    mean = sum(diffs) / count
    var = sum((d - mean) ** 2 for d in diffs) / (count - 1)
    return mean > margin and mean > z * math.sqrt(var / count)


def paired_error(arm: Arm, than: Arm) -> float:
    """The standard error of `arm`'s difference from `than`, over the deals both were tried
    in (0 with fewer than two)."""
    count = min(len(arm.values), len(than.values))
    if count < 2:
        return 0.0
    _, variance = _paired(arm.values[:count], than.values[:count])
    return math.sqrt(variance / count)


__all__ = ["Arm", "clearly_better", "paired_error", "race"]
