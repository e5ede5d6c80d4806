"""FROZEN: the hard player as it was at commit d7c14a2 (before issue 16), for benchmarks only.

Not part of the package and never imported by it. `benchmarks/ai_duel.py` plays the current
levels against it on the same deals, so that "no weaker than the old hard" is measured
against the same player every time. Do not edit these files except to keep them importing;
they are copies of src/hearts/ai/{tracking,medium,sampling,rollout,search}.py of that commit.
"""

from __future__ import annotations

from .search import HardPlayer as FrozenHardPlayer

__all__ = ["FrozenHardPlayer"]
