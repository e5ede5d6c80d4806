"""The parser every `hearts` command is built with: a number an option takes is read here.

An option declared with `type=int` or `type=float` (or a `Number`, for a range) is read by
`Number`, and what is not such a number is refused in one sentence naming the option, with
status 2, as a bad `HEARTS_*` setting is (hearts.web.settings): argparse printed its usage
block and "argument --port: invalid int value: 'abc'".

>>> Parser(prog="hearts serve").add_argument("--port", type=int).type("abc")
Traceback (most recent call last):
...
hearts.cli.parser.OptionError: --port must be a whole number, not 'abc'.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


def typed(text: str) -> str:
    """Text as typed, in the plain form the commands read: the full-width letters, digits and
    signs a CJK keyboard types ("２Ｃ", "ｍｅｄｉｕｍ＊３") and other compatible forms made
    the usual ones (Unicode's NFKC). Not for a file name or an address, which name what they
    name as they are.

    >>> typed("１０Ｈ"), typed("ｈａｒｄ：２０００"), typed("target_score＝５０")
    ('10H', 'hard:2000', 'target_score=50')
    """
    return unicodedata.normalize("NFKC", text)


class OptionError(Exception):
    """A value on the command line that cannot be used, in one sentence. Not a ValueError:
    argparse would catch that and print its usage block and its own words instead."""


@dataclass(frozen=True)
class Number:
    """The type of an option that takes a number: `kind` int (a whole number) or float,
    from `low` to `high` where they are given. `Parser` fills in `option`, its name.

    >>> Number(int, 10, 30, "--rounds")("5")
    Traceback (most recent call last):
    ...
    hearts.cli.parser.OptionError: --rounds must be a whole number from 10 to 30, not 5.
    >>> Number(float, option="--idle-timeout")("2.5")
    2.5
    """

    kind: type[int] | type[float] = int
    low: int | None = None
    high: int | None = None
    option: str = "the option"

    def __call__(self, text: str) -> int | float:
        refused = OptionError(f"{self.option} must be {self.takes()}, not {text[:20]!r}.")
        try:
            value = self.kind(typed(text))  # "－３", a full-width minus, too
        except ValueError:
            raise refused from None
        if isinstance(value, float) and not math.isfinite(value):
            raise refused  # "nan" and "inf" read as floats, and compare as no number does
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            raise OptionError(f"{self.option} must be {self.takes()}, not {value}.")
        return value

    def takes(self) -> str:
        """What the option takes, in words: "a whole number from 10 to 30"."""
        what = "a whole number" if self.kind is int else "a number"
        if self.low is not None and self.high is not None:
            return f"{what} from {self.low} to {self.high}"
        if self.low is not None:
            return f"{what}, {self.low} or more"
        if self.high is not None:
            return f"{what}, {self.high} or less"
        return what


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, but a line of a description or an epilog that starts with a space is
    kept as it is written (a list, a table), and the text around it is wrapped as usual."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        lines: list[str] = []
        paragraph: list[str] = []
        for line in [*text.splitlines(), ""]:
            if line.strip() and not line.startswith(" "):
                paragraph.append(line)
                continue
            if paragraph:
                lines.append(super()._fill_text(" ".join(paragraph), width, indent))
                paragraph = []
            if line.strip():
                lines.append(indent + line)
        return "\n".join(lines)


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose numbers are read by `Number`: one sentence for a bad one,
    naming the option, and status 2 (argparse's own status for what it refuses). A word
    from a list of choices is read `typed`, as a number is."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def add_argument(self, *names: Any, **kwargs: Any) -> argparse.Action:
        if "choices" in kwargs and "type" not in kwargs:
            kwargs["type"] = typed
        kind = kwargs.get("type")
        if kind is int or kind is float:
            kind = Number(kind)
        if isinstance(kind, Number):
            kwargs["type"] = dataclasses.replace(kind, option=names[0])
        return super().add_argument(*names, **kwargs)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        try:
            return super().parse_known_args(args, namespace)
        except OptionError as error:
            # A command's own parser answers first, so the sentence names the command.
            self.exit(2, f"{self.prog}: {error}\n")
