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
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from ..words import listed


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


def seed_text(text: str) -> str:
    """A `--seed`, read `typed`: any word or number, but not nothing (`--seed ''` played a
    game whose seed no one could give again, as the start line showed "Seed .").

    >>> seed_text("ｇａｍｅ７")
    'game7'
    >>> seed_text("  ")
    Traceback (most recent call last):
    ...
    hearts.cli.parser.OptionError: --seed needs a word or a number.
    """
    seed = typed(text).strip()
    if not seed:
        raise OptionError("--seed needs a word or a number.")
    return seed


def same_size(option: str, count: int, changes: dict[str, object]) -> None:
    """Refuse a table's size given twice, differently: `option` (as "--players 4") and a
    `--rule players=` among `changes` (the first went without a word).

    >>> same_size("--players 4", 4, {"players": 5})
    Traceback (most recent call last):
    ...
    ValueError: --players 4 and --rule players=5 seat different tables; give one of them.
    """
    given = changes.get("players")
    if given is not None and given != count:
        raise ValueError(
            f"{option} and --rule players={given} seat different tables; give one of them."
        )


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
    from a list of choices is read `typed`, as a number is. What else argparse refuses (an
    option it does not know, a value missing, a choice not among the choices) is one
    sentence too, and where to read more: argparse printed its usage block and "error:
    unrecognized arguments: --fast"."""

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

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:  # said by the command they were given to, as argparse's own refusals are
            self._command(parsed).error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {self._sentence(message)} See {self.prog} --help.\n")

    def _command(self, parsed: argparse.Namespace) -> Parser:
        """The parser of the command `parsed` names (this one's, where it names none)."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                chosen = action.choices.get(str(getattr(parsed, action.dest, "")))
                if isinstance(chosen, Parser):
                    return chosen._command(parsed)
        return self

    def _sentence(self, message: str) -> str:
        """argparse's words for what it refuses, as a sentence for a person."""
        if match := re.match(r"unrecognized arguments: (\S+)", message):
            word = match[1]
            if word.startswith("-"):
                return f"There is no option {word.partition('=')[0]}."
            return f"{word!r} is more than {self.prog} takes."
        if match := re.match(r"the following arguments are required: (.+)", message):
            names = match[1].split(", ")
            actions = [self._action(name) for name in names]
            if any(isinstance(a, argparse._SubParsersAction) for a in actions):
                return f"Name a command: {listed(self._commands(), 'or')}."
            said = [n if n.startswith("-") else f"the {n}" for n in names]
            given = "must be given" if len(said) == 1 else "must all be given"
            return f"{listed(said)[0].upper()}{listed(said)[1:]} {given}."
        if match := re.match(r"ambiguous option: (\S+?)(?:=\S*)? could match (.+)", message):
            return f"{match[1]} could be {listed(match[2].split(', '), 'or')}: write it out."
        if match := re.match(r"argument (\S+): (.+)", message):
            name, what = match[1].split("/")[-1], match[2]
            action = self._action(name)
            if what.startswith("expected"):
                return f"{name} needs a value."
            if what.startswith("ignored explicit argument"):
                return f"{name} takes no value."
            if (chose := re.match(r"invalid choice: (.+?) \(choose from", what)) and action:
                if isinstance(action, argparse._SubParsersAction):
                    return f"{chose[1]} is not a command: choose {listed(self._commands(), 'or')}."
                choices = listed(action.choices or (), "or")
                return f"{name} must be {choices}, not {chose[1]}."
            if other := re.match(r"not allowed with argument (\S+)", what):
                return f"{name} and {other[1].split('/')[-1]} cannot be given together."
        return f"{message[:1].upper()}{message[1:].rstrip('.')}."

    def _action(self, name: str) -> argparse.Action | None:
        """The option or argument argparse calls `name` in its messages."""
        for action in self._actions:
            if name in action.option_strings or name in (action.metavar, action.dest):
                return action
        return None

    def _commands(self) -> list[str]:
        return [
            name
            for action in self._actions
            if isinstance(action, argparse._SubParsersAction)
            for name in action.choices
        ]
