"""What `hearts play` and `hearts sim` say to input they refuse, and what they accept."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from hearts import Game, Rules, parse_card
from hearts.ai import make_player
from hearts.cli import main
from hearts.cli.play import HELP, TerminalGame
from hearts.cli.rule_options import rule_changes
from hearts.cli.sim import max_workers
from hearts.moves import Pass, Play
from hearts.sim import TournamentConfig, parse_lineup, run_tournament


def test_absurd_workers_are_refused_in_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    # 500 workers for 4 tables on a 2-core machine started 500 processes and hung.
    for workers in ("500", "0", str(max_workers() + 1)):
        assert main(["sim", "medium*4", "--deals", "1", "--workers", workers, "--quiet"]) == 2
        err = capsys.readouterr().err
        assert f"Use 1 to {max_workers()} workers: 4 for each of this machine's" in err, err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_no_more_workers_start_than_there_are_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []

    class FakePool:
        """Plays the tables here, and notes how many processes it was asked for."""

        def __init__(self, processes: int) -> None:
            started.append(processes)

        def __enter__(self) -> FakePool:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def imap(self, func: Any, tasks: Any) -> Iterator[Any]:
            return map(func, tasks)

    class Context:
        def Pool(self, processes: int, initializer: Any = None) -> FakePool:
            assert initializer is not None  # each worker leaves Ctrl-C to the parent
            return FakePool(processes)

    monkeypatch.setattr("hearts.sim.multiprocessing.get_context", lambda method: Context())
    lineup = parse_lineup(["random*4"], 4)
    report = run_tournament(TournamentConfig(lineup, Rules(), deals=1, workers=64))
    assert started == [4] and report.rounds == 4  # one deal, four rotations: four tables
    run_tournament(TournamentConfig(lineup, Rules(), deals=3, workers=5))
    assert started == [4, 5]


def test_a_repeat_of_none_says_at_least_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match=r"'medium\*0': a repeat must be at least 1"):
        parse_lineup(["medium*0", "easy*4"], 4)
    assert main(["sim", "medium*0", "easy*4", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "a repeat must be at least 1, like medium*3." in err and "whole number" not in err


def test_a_pass_cycle_may_be_written_with_commas(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert rule_changes(["pass_cycle=left,right"]) == {"pass_cycle": ["left", "right"]}
    assert rule_changes(["pass_cycle=left, right hold"]) == {
        "pass_cycle": ["left", "right", "hold"]
    }
    assert rule_changes(['pass_cycle=["left","right"]', "pass_cycle=null"]) == {"pass_cycle": None}
    # "keep", the word every screen and sheet uses for a round with no pass, is "hold" too.
    for written in ("pass_cycle=left,right,keep", 'pass_cycle=["left","right","keep"]'):
        assert rule_changes([written]) == {"pass_cycle": ["left", "right", "hold"]}
    args = ["sim", "easy*4", "--deals", "1", "--quiet", "--json", "-"]
    assert main([*args, "--rule", "pass_cycle=left,right"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"]["pass_cycle"] == ["left", "right"]
    monkeypatch.setattr("hearts.cli.play.read_line", lambda prompt="": "quit")
    assert main(["play", "--seed", "4", "--rule", "pass_cycle=right,left"]) == 0
    capsys.readouterr()
    # What is not a cycle at all says how one is written.
    for command in (["play"], ["sim", "easy*4", "--quiet"]):
        assert main([*command, "--rule", "pass_cycle=5"]) == 2
        err = capsys.readouterr().err
        assert 'like pass_cycle=left,right,keep or pass_cycle=["left","right"].' in err, err


@pytest.mark.parametrize(
    "command",
    [["play"], ["sim", "easy*4", "--mode", "games", "--quiet"], ["sim", "easy*4", "--quiet"]],
)
def test_a_target_past_the_games_longest_is_refused_naming_the_range(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # A target of 10**11 was taken, and the game never ended. The bound is the web game's.
    from hearts.rules import MAX_TARGET
    from hearts.web.options import rules_from_choices

    assert MAX_TARGET == 1000 and rules_from_choices({"target_score": 1000}).target_score == 1000
    with pytest.raises(ValueError, match="at most 1000"):
        rules_from_choices({"target_score": 1001})
    for target in (0, MAX_TARGET + 1, 10**11):
        assert main([*command, "--rule", f"target_score={target}"]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err == (
            f"hearts {command[0]}: The target score must be a whole number from 1 to 1000.\n"
        )


def test_an_unknown_rule_lists_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["play"], ["sim", "easy*4", "--quiet"]):
        assert main([*command, "--rule", "bogus=1"]) == 2
        err = capsys.readouterr().err
        assert "Unknown rule 'bogus'; the rules are players, pass_count, pass_cycle," in err
        assert "partnership and partners_pass." in err


def test_a_size_given_twice_differently_and_an_empty_seed_are_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # `--rule players=5 --players 4` played four without a word, and `--seed ''` played a
    # game whose seed read "Seed ." and could not be given again.
    refused = {
        ("play", "--rule", "players=5", "--players", "4"): (
            "hearts play: --players 4 and --rule players=5 seat different tables;"
        ),
        ("sim", "easy*3", "--players-count", "3", "--rule", "players=4", "--quiet"): (
            "hearts sim: --players-count 3 and --rule players=4 seat different tables;"
        ),
        ("play", "--seed", ""): "hearts play: --seed needs a word or a number.",
        ("sim", "easy*4", "--seed", " ", "--quiet"): "hearts sim: --seed needs a word or a number.",
    }
    for command, said in refused.items():
        status: int | str | None
        try:
            status = main(list(command))
        except SystemExit as exit:  # refused by the parser, before the command ran
            status = exit.code
        assert status == 2
        err = capsys.readouterr().err
        assert err.startswith(said) and err.count("\n") == 1, err
    # The same size twice is one size.
    assert main(["sim", "easy*5", "--players-count", "5", "--rule", "players=5", "--deals", "1",
                 "--quiet"]) == 0  # fmt: skip


def test_an_ace_may_be_typed_as_1_and_the_help_says_so() -> None:
    # The card parser reads "1" as an ace on purpose ("1H" is the ace of hearts): the help
    # says so, so that "You do not hold the ace of hearts" after "1H" is no surprise.
    assert Play(0, "1H").card == parse_card("AH")
    assert '"1H"' in HELP and "ace" in HELP


def test_a_pass_of_the_wrong_size_says_how_many_were_given() -> None:
    game = Game(Rules(), seed=12)
    bots = {s: make_player("easy", seed=s) for s in range(1, 4)}
    hand = [str(c) for c in game.view(0).hand]
    answers = iter([hand[0], " ".join(hand[:2]), " ".join(hand[:4]), "quit", "y"])
    out: list[str] = []
    TerminalGame(game, bots, lambda prompt: next(answers), out.append).run()
    assert "Pass exactly 3 cards: you gave 1." in out
    assert "Pass exactly 3 cards: you gave 2." in out
    assert "Pass exactly 3 cards: you gave 4." in out


def _wide(text: str) -> str:
    """`text` as a CJK keyboard types it in full-width forms: "2C" as "２Ｃ"."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def test_full_width_cards_and_commands_are_read_as_their_usual_forms() -> None:
    # "２Ｃ" and "１０♥" typed on a CJK keyboard were "'２Ｃ' is not a card", and "ｑｕｉｔ" too.
    game = Game(Rules(), seed=12)
    bots = {s: make_player("easy", seed=s) for s in range(1, 4)}
    hand = game.view(0).hand
    tens = [c for c in hand if c.symbol.startswith("10")]
    passed = (tens + [c for c in hand if c not in tens])[:3]
    assert tens, "the deal has a ten to pass, typed as 10"
    answers = iter([_wide(" ".join(c.symbol for c in passed)), "ｑｕｉｔ", "ｙ"])
    played: list[str] = []

    def ask(prompt: str) -> str:
        if prompt == "Your card: " and not played:
            played.append(str(game.view(0).legal[0]))
            return f"\u3000{_wide(played[0])}"  # after an ideographic space, as typed
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    out: list[str] = []
    TerminalGame(game, bots, ask, out.append).run()
    assert out[-1] == "\nGame left unfinished.", out[-3:]
    assert not [line for line in out if "not a card" in line], out
    mine = [m for m in game.moves if getattr(m, "seat", None) == 0]
    assert mine[0] == Pass(0, passed) and mine[1] == Play(0, played[0]), mine


FULL_WIDTH_OPTIONS = {
    "play": ["--level", "easy", "--seed", "5", "--rules", "casual"],
    "sim": ["random*3", "--players-count", "3", "--seed", "5", "--deals", "2", "--mode", "games"],
}


@pytest.mark.parametrize("command", FULL_WIDTH_OPTIONS)
def test_full_width_options_are_read_as_their_usual_forms(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `--rule target_score＝５０` and `medium＊３` were refused, and `--seed ５` was another
    # seed than 5.
    monkeypatch.setattr("hearts.cli.play.read_line", lambda prompt="": "quit")
    said = []
    for form in (str, _wide):
        words = FULL_WIDTH_OPTIONS[command]
        argv = [command, *(w if w.startswith("--") else form(w) for w in words)]
        argv += ["--rule", form("target_score=50"), "--rule", form("pass_cycle=left,right")]
        if command == "sim":
            argv += ["--quiet", "--json", "-"]
        assert main(argv) == 0, capsys.readouterr().err
        out = capsys.readouterr().out
        if command == "sim":  # the report, without the times it took
            report = json.loads(out)
            out = json.dumps([report[k] for k in ("players", "rules", "mode", "seed", "rounds")])
            out += json.dumps([r["per_deal"] for r in report["results"]])
        said.append(out)
    assert said[0] == said[1], said
    assert "50" in said[0] and "5" in said[0]
