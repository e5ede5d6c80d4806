"""Text from outside (a record, a file name) made safe to print on a terminal."""

from __future__ import annotations


def printable(text: str) -> str:
    r"""`text` with every character a terminal would act on or hide written as its escape:
    control codes (an escape sequence clears the screen, a newline fakes a line), format
    characters (a right-to-left override turns text round) and lone surrogates.

    >>> printable("Ann\x1b[2J\nBea\u202e")
    'Ann\\x1b[2J\\nBea\\u202e'
    >>> printable("Zoë ♠")
    'Zoë ♠'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escaped(c) for c in text)


def _escaped(char: str) -> str:
    return char.encode("unicode_escape").decode("ascii")
