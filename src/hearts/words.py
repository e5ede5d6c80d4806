"""Small pieces of English the terminal commands and the coach share."""

from __future__ import annotations

from collections.abc import Iterable


def listed(items: Iterable[object], last: str = "and") -> str:
    """ "Ann", "Ann and Bea", "Ann, Bea and Cal" (or "1, yes or on" with `last` "or")."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def counted(n: int, word: str) -> str:
    """ "1 round", "2 rounds"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
