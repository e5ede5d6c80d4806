"""What the terminal commands share: text from outside (a record, a file name) made safe to
print, and a file to write checked before the work that fills it."""

from __future__ import annotations

from pathlib import Path


def check_writable(path: Path, what: str) -> None:
    """`ValueError` with a sentence unless `path` can be written (found out before the work,
    not after it); a file this made to find out is removed again."""
    if not path.parent.is_dir():
        raise ValueError(f"There is no folder {str(path.parent)!r} to write {str(path)!r} in.")
    if path.is_dir():
        raise ValueError(f"{str(path)!r} is a folder: give a file name to write in it.")
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        why = error.strerror or "the system refused"
        raise ValueError(f"Cannot write {what} to {str(path)!r}: {why}.") from None
    if not existed:
        path.unlink(missing_ok=True)


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
