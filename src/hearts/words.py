"""Small pieces of English the terminal commands and the coach share."""

from __future__ import annotations

from collections.abc import Iterable


def listed(items: Iterable[object]) -> str:
    """ "Ann", "Ann and Bea", "Ann, Bea and Cal"."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def counted(n: int, word: str) -> str:
    """ "1 round", "2 rounds"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
