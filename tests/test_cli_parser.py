"""Every `hearts` command's options: their help says the default, and a number that is not
one is refused in one sentence naming the option (hearts.cli.parser)."""

from __future__ import annotations

import argparse
import re

import pytest

from hearts.cli import COMMANDS, build_parser, main
from hearts.cli.parser import Number, OptionError


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    found = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(found[0].choices)


def _options_taking_a_value() -> list[tuple[str, argparse.Action]]:
    return [
        (name, action)
        for name, parser in _commands().items()
        for action in parser._actions
        if action.option_strings and action.nargs != 0 and not action.required
    ]


@pytest.mark.parametrize(
    ("command", "action"), _options_taking_a_value(), ids=lambda x: getattr(x, "dest", x)
)
def test_every_options_help_says_its_default(command: str, action: argparse.Action) -> None:
    # `hearts serve --help` said "(8000)" of --port and nothing of --host's 127.0.0.1.
    said = " ".join((action.help or "").split())
    if action.default is None:
        # Left to a variable, a preset or the machine: said in words, or as "(10)".
        assert "default" in said or re.search(r"\(\d+\)", said), (command, said)
    elif action.default != []:  # a repeatable option given no times: nothing changed
        value = re.escape(f"{action.default}")
        assert re.search(rf"\({value}\)|default:? {value}\b", said), (command, said)


def test_the_commands_checked_are_all_of_them() -> None:
    assert set(_commands()) == set(COMMANDS)
    assert {"--host", "--deals", "--round", "--target"} <= {
        a.option_strings[0] for _, a in _options_taking_a_value()
    }


NUMERIC = [
    (["serve", "--port", "abc"], "hearts serve: --port must be a whole number, not 'abc'."),
    (["serve", "--metrics-port", "9x"], "hearts serve: --metrics-port must be a whole number"),
    (["serve", "--max-connections", "1.5"], "hearts serve: --max-connections must be a whole"),
    (["serve", "--header-timeout", "soon"], "hearts serve: --header-timeout must be a number"),
    (["serve", "--body-timeout", "nan"], "hearts serve: --body-timeout must be a number, not"),
    (["serve", "--idle-timeout", "inf"], "hearts serve: --idle-timeout must be a number, not"),
    (["play", "--players", "four"], "hearts play: --players must be a whole number, not 'four'."),
    (["sim", "easy*4", "--deals", "lots"], "hearts sim: --deals must be a whole number, not"),
    (["sim", "easy*4", "--workers", "2.0"], "hearts sim: --workers must be a whole number"),
    (["sim", "easy*4", "--players-count", "x"], "hearts sim: --players-count must be a whole"),
    (["sheets", "--out", "x", "--rounds", "many"], "hearts sheets: --rounds must be a whole"),
    (
        ["sheets", "--out", "x", "--rounds", "5"],
        "hearts sheets: --rounds must be a whole number from 10 to 30, not 5.",
    ),
    (
        ["sheets", "--out", "x", "--players", "12"],
        "hearts sheets: --players must be a whole number from 3 to 10, not 12.",
    ),
    (["demo", "--seed", "s"], "hearts demo: --seed must be a whole number, not 's'."),
    (["demo", "--target", "far"], "hearts demo: --target must be a whole number, not 'far'."),
    (["replay", "x.json", "--round", "last"], "hearts replay: --round must be a whole number"),
]


@pytest.mark.parametrize(("argv", "sentence"), NUMERIC, ids=[" ".join(a) for a, _ in NUMERIC])
def test_a_bad_number_is_one_sentence_naming_the_option(
    argv: list[str], sentence: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # `hearts serve --port abc` printed argparse's usage block and "invalid int value".
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(sentence) and captured.err.count("\n") == 1, captured.err
    assert captured.err.endswith(".\n") and "usage" not in captured.err


REFUSED = [
    (["sim", "easy*4", "--fast"], "hearts sim: There is no option --fast."),
    (["sim", "easy*4", "--fast=1", "--faster"], "hearts sim: There is no option --fast."),
    (["replay", "a.json", "b.json"], "hearts replay: 'b.json' is more than hearts replay takes."),
    (["sim"], "hearts sim: The players must be given."),
    (["sheets"], "hearts sheets: --out must be given."),
    (["play", "--seed"], "hearts play: --seed needs a value."),
    (
        ["sim", "easy*4", "--mode", "fast"],
        "hearts sim: --mode must be rounds or games, not 'fast'.",
    ),
    (["sheets", "--out", "x", "--paper", "b5"], "hearts sheets: --paper must be letter or a4, not"),
    (["sim", "easy*4", "--quiet=yes"], "hearts sim: --quiet takes no value."),
    (["sim", "easy*4", "--r", "x"], "hearts sim: --r could be --rules or --rule: write it out."),
    ([], "hearts: Name a command: serve, migrate, play, sim, sheets, demo or replay."),
]


@pytest.mark.parametrize(("argv", "sentence"), REFUSED, ids=[" ".join(a) for a, _ in REFUSED])
def test_what_else_argparse_refuses_is_one_sentence_and_where_to_read_more(
    argv: list[str], sentence: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # `hearts sim easy*4 --fast` printed the usage block, then "hearts: error: unrecognized
    # arguments: --fast", in the name of `hearts`, not of `hearts sim`.
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    command = " ".join(["hearts", *argv[:1]])
    assert captured.out == ""
    assert captured.err.startswith(sentence), captured.err
    assert captured.err.endswith(f". See {command} --help.\n"), captured.err
    assert captured.err.count("\n") == 1 and "usage" not in captured.err


def test_every_numeric_option_is_read_by_number() -> None:
    # One mechanism: an option declared `type=int` or `type=float` is read by `Number`.
    for _, action in _options_taking_a_value():
        assert action.type not in (int, float), action.option_strings
    kinds = {a.option_strings[0]: a.type for _, a in _options_taking_a_value()}
    assert kinds["--port"] == Number(int, option="--port")
    assert kinds["--idle-timeout"] == Number(float, option="--idle-timeout")


def test_a_good_number_is_read_as_before() -> None:
    args = build_parser().parse_args(["serve", "--port", "8123", "--header-timeout", "2.5"])
    assert (args.port, args.header_timeout) == (8123, 2.5)
    args = build_parser().parse_args(["sheets", "--out", "x", "--rounds", "10", "--players", "3"])
    assert (args.rounds, args.players) == (10, 3)
    assert build_parser().parse_args(["demo", "--seed", "-3"]).seed == -3
    with pytest.raises(OptionError, match=r"^--n must be a number, 1 or more, not 0.5\.$"):
        Number(float, low=1, option="--n")("0.5")


def test_every_command_has_a_description_and_hearts_says_its_version(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # `hearts replay --help` and `hearts demo --help` had only their usage line.
    from importlib.metadata import version

    for name, parser in _commands().items():
        assert parser.description and parser.description.endswith("."), name
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out == f"hearts {version('hearts')}\n"


def _deepest_bracket(text: str) -> int:
    """How deep brackets go in `text`: 1 for "(a) [b]", 2 for "(a (b))"."""
    depth = deepest = 0
    for char in text:
        if char in "([":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")]":
            depth -= 1
    return deepest


@pytest.mark.parametrize("command", COMMANDS)
def test_no_help_puts_brackets_within_brackets(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The presets read "scatter (passing: left, right, across, one card to each (3 cards))",
    # and the sim's players "... (seconds for each play, ... by playouts))".
    from hearts.rules import PRESETS

    monkeypatch.setenv("COLUMNS", "100")
    text = _commands()[command].format_help()
    assert _deepest_bracket(text) == 1, text
    if command in ("play", "sim", "sheets"):  # each preset on a line of its own, its name first
        listed = [line.split()[0] for line in text.split("\npresets:\n")[1].splitlines()]
        assert listed == list(PRESETS), text
        assert "  scatter        passing: left, right, across, one card to each (3 cards)" in text
