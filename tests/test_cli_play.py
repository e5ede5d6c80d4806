"""`hearts play`: a whole game in the terminal, typed by a scripted person."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import pytest

from hearts import Game, Rules
from hearts.ai import Player, make_player
from hearts.cli import main
from hearts.cli.play import (
    ENDLESS,
    LINE_LIMIT,
    NO_LINE_END,
    NOT_TEXT,
    TOO_LONG,
    TerminalGame,
    format_hand,
)


def scripted_game(
    rules: Rules, mistakes: Iterator[str]
) -> tuple[TerminalGame, list[str], list[str]]:
    """A game where seat 0 types a few wrong things, then what a medium player would."""
    game = Game(rules, seed=12)
    bots = {s: make_player("medium", seed=s) for s in range(1, rules.players)}
    me = make_player("medium", seed=0)
    out: list[str] = []
    refused: list[str] = []

    def ask(prompt: str) -> str:
        out.append(prompt)
        wrong = next(mistakes, None)
        if wrong is not None:
            return wrong
        view = game.view(0)
        if prompt == "Your card: " and not refused:
            # Once, a card the rules refuse: one held but not legal, or one not held.
            bad = [c for c in view.hand if c not in view.legal] or [
                c for c in game.round.hand(1) if c not in view.hand
            ]
            reason = game.round.why_illegal(bad[0], seat=0)
            assert reason is not None
            refused.append(reason)
            return str(bad[0])
        if game.phase == "passing":
            return " ".join(str(c) for c in me.choose_pass(view))
        if game.phase == "moon-choice":
            return me.choose_moon(view)
        return str(me.choose_play(view))

    return TerminalGame(game, bots, ask, out.append), out, refused


def test_a_whole_game_in_the_terminal() -> None:
    rules = Rules(target_score=40, moon_rule="choose")
    held = str(Game(rules, seed=12).view(0).hand[0])  # scripted_game's deal
    mistakes = iter(["help", "QS QS QS", "ZZ", "hand", "score", "AH", held])
    terminal, out, refused = scripted_game(rules, mistakes)
    assert terminal.run() == 0
    text = "\n".join(out)
    assert terminal.game.is_over
    assert "Game over" in text and "Score: You" in text
    assert "Pass exactly 3 cards: you gave 1." in text  # a bad pass says how many were given
    assert "You do not hold the ace of hearts." in text  # before how many: "AH" alone
    assert "You chose the queen of spades twice." in text or "do not hold" in text
    assert refused and refused[0] in out  # a refused card is answered with the engine's reason
    assert "takes the trick" in text and "Round 1 over" in text


#: The browser game's hand order (cards.js): clubs, diamonds, spades, hearts, low to high.
SUITS, RANKS = "♣♦♠♥", ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def in_web_order(symbols: list[str]) -> bool:
    keys = [(SUITS.index(s[-1]), RANKS.index(s[:-1])) for s in symbols]
    return keys == sorted(keys)


def test_hand_is_sorted_by_suit_with_legal_cards_marked() -> None:
    game = Game(Rules(), seed=3)
    for seat in range(4):
        game.give(seat, game.round.hand(seat)[:3])
    seat = game.round.turn
    view = game.view(seat)
    lines = format_hand(view, mark_legal=True).splitlines()
    assert lines[-1].strip().startswith("(* marks")
    starred = [line for line in lines if "*" in line and "marks" not in line]
    assert starred == [
        "  ♣ "
        + " ".join(
            c.symbol[:-1] + ("*" if c in view.legal else "")
            for c in sorted((c for c in view.hand if c.suit == 0), key=lambda c: c.rank)
        )
    ]
    shown = [f"{word.rstrip('*')}{line[2]}" for line in lines[:-1] for word in line[4:].split()]
    assert in_web_order(shown) and len(shown) == len(view.hand)


def test_play_demo_and_replay_name_the_seats_and_order_the_cards_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `hearts play` said "You" and showed spades first, high to low; `hearts demo` said
    # "South", and `hearts replay` "Seat 1", both with clubs first and spades last.
    import re

    from hearts.driver import play_out
    from hearts.record import to_record

    assert main(["demo", "--seed", "4", "--target", "30"]) == 0
    demo = capsys.readouterr().out
    game = Game(Rules(target_score=30), seed=4)
    for _ in play_out(game, [make_player("easy", seed=s) for s in range(4)]):
        pass
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_record(game)))  # no names: the terminal's are used
    assert main(["replay", str(path)]) == 0
    replay = capsys.readouterr().out
    terminal, out, _ = scripted_game(Rules(target_score=30), iter([]))
    assert terminal.run() == 0
    play = "\n".join(out)
    for text in (demo, replay, play):
        assert "South" not in text and "Seat " not in text
        assert re.search(r"\bYou (pass|play|take)\b", text) and "West" in text, text[:300]
        assert "You passes" not in text and "You takes" not in text
    passed = re.findall(r"You pass (.+?)(?: to |$)", demo + replay, re.MULTILINE)
    dealt = re.findall(r"^ +(?:You|West|North|East): (.+)$", replay, re.MULTILINE)
    received = re.findall(r"^You received: (.+)$", play, re.MULTILINE)
    assert passed and dealt and received
    for cards in passed + dealt + received:
        assert in_web_order(cards.split()), cards


def test_quit_and_end_of_input_leave_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = iter(["quit", "y"])
    monkeypatch.setattr("hearts.cli.play.read_line", lambda prompt="": next(answers))
    assert main(["play", "--seed", "4", "--level", "easy"]) == 0
    assert capsys.readouterr().out.endswith("\nGame left unfinished.\n")

    def end_of_input(prompt: str = "") -> str:
        raise EOFError

    monkeypatch.setattr("hearts.cli.play.read_line", end_of_input)
    assert main(["play", "--seed", "4", "--level", "hard"]) == 0
    assert capsys.readouterr().out.endswith("\nThe input ended: game left unfinished.\n")
    # Started with standard input closed (`hearts play <&-`): a traceback, before.
    monkeypatch.undo()
    monkeypatch.setattr("sys.stdin", None)
    assert main(["play", "--seed", "4"]) == 0
    captured = capsys.readouterr()
    assert captured.out.endswith("\nThe input ended: game left unfinished.\n")
    assert captured.err == ""
    assert main(["play", "--level", "genius"]) == 2
    assert "not a level" in capsys.readouterr().err


def test_the_level_takes_a_budget_as_the_sim_does(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seated: list[dict[int, object]] = []

    class Seated:
        def __init__(self, game: Game, bots: dict[int, object], *rest: object) -> None:
            seated.append(bots)

        def run(self) -> int:
            return 0

    monkeypatch.setattr("hearts.cli.play.TerminalGame", Seated)
    for level, budget in (("hard:2000", 2000), ("expert:0.1s", 0.1)):
        assert main(["play", "--seed", "4", "--level", level]) == 0
        assert capsys.readouterr().out.startswith(f"Hearts against 3 {level} players.")
        bots = seated.pop().values()
        assert {(b.level, b.budget) for b in bots} == {(level.partition(":")[0], budget)}  # type: ignore[attr-defined]
    for level, why in (("medium:50", "only hard and expert search"), ("hard:x", "not a budget")):
        assert main(["play", "--level", level]) == 2
        assert why in capsys.readouterr().err
    assert not seated


def test_each_event_is_shown_as_it_happens() -> None:
    # The events were printed only once the game was over: a person played blind.
    terminal, out, _ = scripted_game(Rules(target_score=40), iter([]))
    seen_at_prompt: list[str] = []
    ask = terminal.ask

    def watching(prompt: str) -> str:
        seen_at_prompt.append("\n".join(out))
        return ask(prompt)

    terminal.ask = watching
    assert terminal.run() == 0
    text = "\n".join(out)
    second_pass = text.index("Round 2: pass")
    assert text.index("Round 1 over") < second_pass
    # By the time the person passes in round 2, round 1 has been told in full.
    asked = next(shown for shown in seen_at_prompt if "Round 2: pass" in shown)
    assert "Round 1 over" in asked and "takes the trick" in asked
    # The score after round 1 is round 1's, not the game's end.
    first = terminal.game.results[0].totals
    names = ["You", "West", "North", "East"]
    after_one = text[text.index("Round 1 over") : second_pass]
    assert ", ".join(f"{n} {t}" for n, t in zip(names, first, strict=True)) in after_one
    assert "You takes" not in text


def test_a_scatter_says_the_order_typed_decides_who_gets_which() -> None:
    terminal, out, _ = scripted_game(Rules(players=5, pass_cycle=("scatter",)), iter(["quit", "y"]))
    assert terminal.run() == 0
    assert "pass 4 cards one to each player: the first you type goes to Player 2, then " in (
        "\n".join(out)
    )


def test_a_scatter_says_who_gave_each_card_received() -> None:
    # "You received: K♦ Q♠ K♠" did not say who gave the Q♠, which is what a scatter is about.
    rules = Rules(pass_cycle=("scatter",), target_score=20)
    terminal, out, _ = scripted_game(rules, iter([]))
    assert terminal.run() == 0
    lines = [line for line in out if line.startswith("You received: ")]
    assert len(lines) == len(terminal.game.results) >= 1
    for line in lines:
        each = line.removeprefix("You received: ").replace(" and ", ", ").split(", ")
        givers = [part.split(" from ")[1] for part in each]
        assert sorted(givers) == ["East", "North", "West"], line


def test_the_kitty_is_told_when_dealt_and_when_taken() -> None:
    terminal, out, _ = scripted_game(Rules(players=3, kitty=True, target_score=30), iter([]))
    assert terminal.run() == 0
    text = "\n".join(out)
    note = "1 card lies face down: the first to take a point card takes it too."
    assert note in out
    assert "takes the kitty: " in text or "You take the kitty: " in text
    # Said under its round's heading (a pass's, or "a keep round"), never before it.
    told = [i for i, line in enumerate(out) if line == note]
    assert len(told) == len(terminal.game.results) >= 3
    assert all(out[i - 1].startswith("\nRound ") for i in told), [out[i - 1] for i in told]
    assert any(": a keep round, so nobody passes." in out[i - 1] for i in told)
    terminal, out, _ = scripted_game(Rules(players=5, kitty=True), iter(["quit", "y"]))
    assert terminal.run() == 0
    assert "2 cards lie face down: the first to take a point card takes them too." in out


def test_partners_are_told_and_what_each_scored_is_shown() -> None:
    terminal, out, _ = scripted_game(Rules(partnership=True, target_score=30), iter([]))
    assert terminal.run() == 0
    text = "\n".join(out)
    assert "You and North are partners: each of you is scored your team's points." in text
    assert "Scored this round: You +" in text


def test_a_total_dropped_back_is_said() -> None:
    from hearts.scoring import RoundResult

    terminal, out, _ = scripted_game(Rules(target_score=20, exactly_target_resets_to=0), iter([]))
    result = RoundResult(0, (2, 0, 20, 4), (2, 0, 20, 4), (2, 0, 0, 4), reset=(2,))
    terminal._round_over(result)
    assert "North landed on 20 exactly and dropped back to 0." in out


def test_the_moon_choice_names_the_points_at_stake() -> None:
    """A sun or two decks move 52 points, not 26."""
    from types import SimpleNamespace

    from hearts.cli.play import _Person

    terminal, out, _ = scripted_game(Rules(moon_rule="choose"), iter(["maybe", "subtract"]))
    scores = {"add": (0, 52, 52, 52), "subtract": (-52, 0, 0, 0)}
    terminal.game = SimpleNamespace(moon_stake=52, moon_scores=lambda: scores)  # type: ignore[assignment]
    view = Game(Rules(moon_rule="choose"), seed=1).view(0)
    assert _Person(terminal).choose_moon(view) == "subtract"
    assert "Add 52 to everyone else, or take 52 off your score?" in out[0]
    assert "Type add (52 to everyone else) or subtract (52 off your score)." in out


class _Asked(Exception):
    """Stops a game at the moon choice it would ask of seat 0."""


def at_the_moon_choice(rules: Rules, seed: int) -> Game:
    """A game stopped where seat 0 chooses how its moon scores (moon players at even seats)."""
    from hearts.driver import play_out
    from hearts.view import PlayerView

    class Stops:
        def __init__(self, player: Player) -> None:
            self.player = player
            self.choose_pass = player.choose_pass
            self.choose_play = player.choose_play

        def choose_moon(self, view: PlayerView) -> str:
            raise _Asked

    game = Game(rules, seed)
    levels = ("moon", "random")
    seats = [Stops(make_player(levels[s % 2], seed=f"{seed}:{s}")) for s in range(rules.players)]
    with pytest.raises(_Asked):
        for _ in play_out(game, seats):  # type: ignore[arg-type]
            pass
    assert game.moon_pending == 0
    return game


def test_a_partners_moon_choice_speaks_of_teams_and_the_scores_the_engine_will_give() -> None:
    """With partners the team shot it, and with Omnibus the J♦ counts either way: the other
    team took it, so "add" gives them 16 each, not 26."""
    from hearts.cli.play import _Person

    rules = Rules.preset("omnibus", moon_rule="choose", partnership=True, target_score=1000)
    game = at_the_moon_choice(rules, seed=34)
    assert game.moon_stake == 26
    assert game.moon_scores() == {"add": (0, 16, 0, 16), "subtract": (-26, -10, -26, -10)}
    terminal, out, _ = scripted_game(rules, iter(["maybe", "add"]))
    terminal.game = game
    assert _Person(terminal).choose_moon(game.view(0)) == "add"
    assert out[:2] == [
        "\nYour team shot the moon! Add 26 to the other team's score, or take 26 off your team's?",
        "This round either way (the J♦ counts too): add: You +0, West +16, North +0, East +16; "
        "subtract: You -26, West -10, North -26, East -10.",
    ]
    assert "Type add (26 to the other team) or subtract (26 off your team)." in out
    assert "everyone else" not in "\n".join(out)
    # Alone and without a bonus card, the stake says it all: no second line.
    alone = at_the_moon_choice(Rules(moon_rule="choose"), seed=7)
    assert alone.moon_scores() == {"add": (0, 26, 26, 26), "subtract": (-26, 0, 0, 0)}
    terminal, out, _ = scripted_game(alone.rules, iter(["s"]))
    terminal.game = alone
    assert _Person(terminal).choose_moon(alone.view(0)) == "subtract"
    assert out[0] == "\nYou shot the moon! Add 26 to everyone else, or take 26 off your score?"
    assert not any(line.startswith("This round either way") for line in out)
    assert Game(rules, 1).moon_scores() is None
    # Another team's choice is said in team words too; alone, in a shooter's own words;
    # after "West shot the moon!" (it came first, before anyone was told of the moon).
    from hearts.events import MoonChosen
    from hearts.scoring import RoundResult

    for table, choice, said in (
        (rules, "add", "West adds the points to your team."),
        (rules, "subtract", "West takes the points off their team's totals."),
        (alone.rules, "add", "West adds the points to everyone else."),
        (alone.rules, "subtract", "West takes the points off their own total."),
    ):
        terminal, out, _ = scripted_game(table, iter([]))
        terminal._show(MoonChosen(1, choice))  # type: ignore[arg-type]
        assert out == []  # said under the moon itself, which the round's end tells
        taken = (0, 26, 0, 0)
        scored = RoundResult(0, taken, taken, taken, shooter=1, moon_choice=choice)  # type: ignore[arg-type]
        terminal._round_over(scored)
        shot = [line for line in out if "shot the moon!" in line]
        assert shot and out.index(said) == out.index(shot[0]) + 1, out


def test_the_moon_choice_answers_the_commands_and_takes_a_first_letter() -> None:
    from hearts.cli.play import COMMANDS_HELP, HELP, _Person

    view = Game(Rules(moon_rule="choose"), seed=1).view(0)
    for typed, choice in (("a", "add"), ("S", "subtract"), ("sub", "subtract"), ("ADD", "add")):
        answers = iter(["help", "score", "hand", typed])
        terminal, out, _ = scripted_game(Rules(moon_rule="choose"), answers)
        assert _Person(terminal).choose_moon(view) == choice
        assert any('or just "a" or "s".' in line and COMMANDS_HELP in line for line in out)
        assert any(line.startswith("Score: You 0") for line in out)
        assert not any("Type add (26" in line and "just" not in line for line in out)
    assert '"help" this help' in COMMANDS_HELP and COMMANDS_HELP in HELP


def test_cards_that_cancel_and_a_trick_held_over_are_said() -> None:
    from hearts import parse_card
    from hearts.events import TrickWon

    terminal, out, _ = scripted_game(Rules(players=6, target_score=1), iter([]))
    assert terminal.run() == 0
    tricks = []
    again = Game(terminal.game.rules, seed=terminal.game.seed)
    for move in terminal.game.moves:
        tricks += [e for e in again.apply(move) if isinstance(e, TrickWon)]
    cancelled = [t for t in tricks if t.cancelled]
    said = [line for line in out if line.endswith("cancel each other.")]
    assert cancelled and len(said) == len(cancelled)
    assert said[0].startswith(f"The two {cancelled[0].cancelled[0].symbol}")
    # A trick whose every card of the suit led cancelled, and the trick that takes its cards.
    ad, kd, qd = (parse_card(c) for c in ("AD", "KD", "QD"))
    plays = tuple(enumerate([ad, ad, kd, kd, qd, qd]))
    out.clear()
    terminal._show(TrickWon(3, 0, plays, 0, 0, cancelled=(ad, ad, kd, kd, qd, qd), held_over=True))
    terminal._show(TrickWon(4, 0, plays, 2, 3, carried=(ad, ad, kd, kd, qd, qd)))
    assert out == [
        "The two Q♦, the two K♦ and the two A♦ cancel each other.",
        "Every card of the suit led cancelled: the cards wait for the next trick.",
        "Player 3 takes the trick and the 6 cards held over (3 points).",
    ]


def test_several_cards_at_one_card_and_bytes_that_are_not_text_are_answered_plainly() -> None:
    game = Game(Rules(pass_count=0), seed=1)
    bots = {s: make_player("easy", seed=s) for s in range(1, 4)}
    answers = iter(["\udcff\udcfe", "AC JC 10C", "quit", "y"])
    out: list[str] = []
    assert TerminalGame(game, bots, lambda prompt: next(answers), out.append).run() == 0
    assert "That is not text this game can read; type a card like QS." in out
    assert "Play one card: type just that one, like QS." in out
    assert not any("\udcff" in line or "is not a card" in line for line in out)


def test_a_record_is_written_at_quit_and_replays_under_the_same_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    answers = iter(["quit", "y"])
    monkeypatch.setattr("hearts.cli.play.read_line", lambda prompt="": next(answers))
    assert main(["play", "--seed", "4", "--level", "easy", "--record", str(path)]) == 0
    assert f"The game's record is in {path}: hearts replay {path}" in capsys.readouterr().out
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "   You: " in out and "  West: " in out and "the game is unfinished" in out.lower()

    def interrupted(prompt: str = "") -> str:
        raise KeyboardInterrupt

    path.unlink()
    monkeypatch.setattr("hearts.cli.play.read_line", interrupted)
    assert main(["play", "--seed", "4", "--record", str(path)]) == 130  # Ctrl-C keeps it too
    assert path.exists()
    assert capsys.readouterr().err == "\nStopped.\n"  # a short line, no traceback
    assert main(["play", "--record", str(tmp_path)]) == 2
    assert "is a folder: give a file name to write in it." in capsys.readouterr().err


def test_a_line_too_long_is_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    # A line over 1,000 characters ended the game. `hearts play < /dev/zero` had held one
    # endless line in memory (3 GB in 3 s): no more than a line's limit is kept.
    endless = b"x" * (LINE_LIMIT * 50) + b"\n" + b"x" * (LINE_LIMIT + 1) + b"\nscore\n"
    record = tmp_path / "game.json"
    done = _play(endless, record)
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    said = done.stdout.decode()
    assert said.count(TOO_LONG) == 2 and len(said) < 10 * LINE_LIMIT
    assert TOO_LONG == "That line is over 1,000 characters, too long to be a move; try again."
    assert said.index(TOO_LONG) < said.index("Score: You 0")  # asked again, and answered
    assert said.endswith(f"\nThe input ended: game left unfinished.\n{_saved(record)}\n")
    assert record.exists()  # written as at a quit
    # At a terminal (`input()`), a long line is refused alike.
    answers = iter(["QS " * 400, "quit", "y"])
    out: list[str] = []
    bots = {s: make_player("easy", seed=s) for s in range(1, 4)}
    game = Game(Rules(), seed=4)
    assert TerminalGame(game, bots, lambda prompt: next(answers), out.append).run() == 0
    assert TOO_LONG in out and not any("QS QS" in line for line in out)


def test_input_from_dev_zero_ends_the_game(tmp_path: Path) -> None:
    # `hearts play < /dev/zero` read and dropped its endless line a piece at a time until
    # Ctrl-C: the first NUL byte now ends the game as the end of the input does.
    record = tmp_path / "game.json"
    with open("/dev/zero", "rb") as zeros:
        done = _play(zeros, record)  # the timeout turns the old endless read into a failure
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    said = done.stdout.decode()
    assert NOT_TEXT == "The input is not text (it holds a NUL byte)"
    assert said.endswith(f"\n{NOT_TEXT}: game left unfinished.\n{_saved(record)}\n")
    assert len(said) < 10 * LINE_LIMIT and TOO_LONG not in said
    assert json.loads(record.read_text("utf-8"))["actions"] == []  # written as at a quit


def test_a_binary_file_ends_the_game_without_a_traceback(tmp_path: Path) -> None:
    # A binary file: lines of bytes that are not UTF-8, then a NUL byte. Read where the
    # locale decodes strictly (en_US.UTF-8, not the C.UTF-8 of the tests), the first such
    # byte raised UnicodeDecodeError, a traceback; it is refused in a sentence now, and the
    # NUL ends the game, the lines after it never read as moves.
    blob = b"\x89PNG\r\n\x1a\n\xff\xd8\xff\xe0\n" + bytes(range(256)) + b"\nscore\n" * 3
    record = tmp_path / "game.json"
    done = _play(blob, record, PYTHONIOENCODING="utf-8:strict")
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    said = done.stdout.decode()
    assert said.count("That is not text this game can read; type a card like QS.") == 2
    assert said.endswith(f"\n{NOT_TEXT}: game left unfinished.\n{_saved(record)}\n")
    assert "Score: You" not in said and record.exists()


def test_text_with_no_line_end_ends_the_game(tmp_path: Path) -> None:
    # `tr '\0' x < /dev/zero | hearts play` is one line that never ends: past a hundred
    # times the line limit, it ends the game rather than being read until Ctrl-C.
    assert ENDLESS == 100 * LINE_LIMIT
    endless = b"x" * (ENDLESS + LINE_LIMIT) + b"\nscore\n"
    record = tmp_path / "game.json"
    done = _play(endless, record)
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    said = done.stdout.decode()
    assert NO_LINE_END == "The input ran past 100,000 characters with no line end"
    assert said.endswith(f"\n{NO_LINE_END}: game left unfinished.\n{_saved(record)}\n")
    assert "Score: You" not in said and TOO_LONG not in said


def _play(stdin: bytes | BinaryIO, record: Path, **env: str) -> subprocess.CompletedProcess[bytes]:
    """`hearts play --seed 4 --record RECORD` in a process of its own, reading `stdin`."""
    return subprocess.run(
        [Path(sys.executable).with_name("hearts"), "play", "--seed", "4", "--record", str(record)],
        input=stdin if isinstance(stdin, bytes) else None,
        stdin=None if isinstance(stdin, bytes) else stdin,
        capture_output=True, timeout=60, check=False, env={**os.environ, **env},
    )  # fmt: skip


def _saved(record: Path) -> str:
    return f"The game's record is in {record}: hearts replay {record}"


def answering(game: Game, script: list[str], level: str = "easy") -> tuple[TerminalGame, list[str]]:
    """A terminal game against players of `level` where seat 0 follows `script`: "pass"
    passes its three lowest cards, "play" plays its lowest legal card, anything else is
    typed."""
    bots = {s: make_player(level, seed=s) for s in range(1, game.rules.players)}
    steps = iter(script)
    out: list[str] = []

    def ask(prompt: str) -> str:
        out.append(prompt)
        step = next(steps, "quit")
        view = terminal.game.view(0)
        if step == "pass":
            return " ".join(str(c) for c in view.hand[:3])
        if step == "play":
            return str(view.legal[0])
        return step

    terminal = TerminalGame(game, bots, ask, out.append)
    return terminal, out


def test_undo_takes_back_your_latest_pass_or_card_of_the_round_as_the_web_game_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from hearts.cli.play import HELP, NOTHING_TO_TAKE_BACK
    from hearts.moves import Pass, Play
    from hearts.record import actions_of, fold, from_record, to_record

    script = ["undo", "pass", "undo", "pass", "play", "play", "undo", "play", "quit"]
    terminal, out = answering(Game(Rules(), seed=12), script)
    assert terminal.run() == 0
    assert '"undo" takes back your latest pass or card of this round' in HELP
    # Nothing of the round yet; then the pass (and the computer players' cards after it).
    assert out[out.index("Cards to pass (3): ") + 1] == NOTHING_TO_TAKE_BACK
    taken = [line for line in out if line.startswith("\nYou take back your ")]
    assert len(taken) == 2 and taken[0].startswith("\nYou take back your pass")
    game = terminal.game
    mine = [m for m in game.moves if isinstance(m, Pass | Play) and m.seat == 0]
    assert [type(m) for m in mine] == [Pass, Play, Play]  # three of mine stand: pass, 2 cards
    # The card taken back was the second played; the one played again stands in its place.
    actions = terminal.actions()
    assert [a["to"] for a in actions if a["type"] == "undo"] == [0, game.moves.index(mine[2])]
    assert fold(actions) == actions_of(game)
    again = from_record(to_record(game, actions))
    assert again.moves == game.moves
    # The same input, the same game: take-backs and all.
    terminal2, out2 = answering(Game(Rules(), seed=12), script)
    assert terminal2.run() == 0 and out2 == out and terminal2.actions() == actions
    # `--record` keeps the take-backs, as the browser game does, and the replay says so.
    answers = iter(["JS 6S 2S", "undo", "quit", "y"])
    monkeypatch.setattr("hearts.cli.play.read_line", lambda prompt="": next(answers))
    path = tmp_path / "game.json"
    assert main(["play", "--seed", "4", "--level", "easy", "--record", str(path)]) == 0
    assert "You take back your pass and the 2 cards played after it." in capsys.readouterr().out
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.startswith("1 take-back during play (not shown).")


def test_a_card_taken_back_and_played_again_gets_the_same_replies() -> None:
    # "undo" must not let a person fish for kinder replies: each computer player decides by
    # its seed and what its seat sees (`BasePlayer.rng_for`), so the same card played again
    # meets the same cards, even from players that draw every card at random.
    game = Game(Rules(), seed=12)
    script = ["pass", "play", "play", "undo", "play", "quit"]
    terminal, _ = answering(game, script, level="random")
    assert terminal.run() == 0
    actions = terminal.actions()
    undo = next(i for i, a in enumerate(actions) if a["type"] == "undo")
    to = int(actions[undo]["to"])
    first, again = actions[to:undo], actions[undo + 1 :]
    assert len(first) > 1 and first == again  # the card, and every reply after it


def test_undo_and_hint_at_the_moon_choice_say_why_not() -> None:
    from hearts.cli.play import NO_HINT_AT_MOON, TRICKS_PLAYED, _Person

    game = at_the_moon_choice(Rules(moon_rule="choose"), seed=7)
    terminal, out = answering(game, ["undo", "hint", "add"])
    assert _Person(terminal).choose_moon(game.view(0)) == "add"
    assert TRICKS_PLAYED in out and NO_HINT_AT_MOON in out


def test_hint_gives_the_coachs_card_and_reason_the_same_for_a_seed() -> None:
    from hearts.ai.hint import hint
    from hearts.cli.play import HELP

    assert '"hint" asks the coach' in HELP
    terminal, out = answering(Game(Rules(), seed=12), ["hint", "pass", "hint", "quit"])
    assert terminal.run() == 0
    hints = [line for line in out if line.startswith("Hint: ")]
    assert len(hints) == 2
    assert hints[0].startswith("Hint: Pass the ") and " to West, on your left: " in hints[0]
    # The coach's own words (`hearts.ai.hint`, as the browser game's Hint), seeded by the game
    # and the decision: asked again at the same card, the same hint.
    game = terminal.game
    view = game.view(0)
    advice = hint(view, ["You", "West", "North", "East"], seed=f"12:{len(game.moves)}:0")
    assert hints[1] == f"Hint: {advice.reason}" and advice.cards[0] in view.legal
    assert advice.cards[0].symbol in hints[1]
    again, out2 = answering(Game(Rules(), seed=12), ["hint", "pass", "hint", "quit"])
    assert again.run() == 0 and out2 == out


def test_only_quit_leaves_and_it_asks_first() -> None:
    # A lone "Q" (half of "QS"), "q" or "exit" ended the game at once, lost without --record.
    from hearts.cli.play import HELP, LEAVE, NEAR_QUIT

    script = ["6C 8C JC", "Q", "q", "exit", "quit", "n", "quit", "maybe", "y"]
    terminal, out = answering(Game(Rules(), seed=1), script)
    assert terminal.run() == 0
    queen, leave = NEAR_QUIT["q"], NEAR_QUIT["exit"]
    assert out.count(queen) == 2 and out.count(leave) == 1
    assert 'To leave the game, type "quit".' in queen and "QS" in queen
    assert out.count(LEAVE) == 3 and "Then the game goes on." in out
    assert 'Type "y" to leave the game, or "n" to play on.' in out
    assert out[-1] == "\nGame left unfinished."
    # Nothing was lost at "n": the pass stands and the same card is asked for.
    assert len(terminal.game.moves) >= 4 and terminal.game.phase == "playing"
    assert out[out.index("Then the game goes on.") + 1] == "Your card: "
    assert '"quit" leaves the game (you are asked first)' in HELP

    # The end of the input at the question leaves, as it does anywhere.
    def ends_at_the_question(prompt: str) -> str:
        if prompt == LEAVE:
            raise EOFError
        return "quit"

    ended, said = answering(Game(Rules(), seed=1), [])
    ended.ask = ends_at_the_question
    assert ended.run() == 0 and said[-1] == "\nThe input ended: game left unfinished."


def test_a_tie_played_on_past_the_target_says_why_the_game_goes_on() -> None:
    # `hearts play --players 5 --seed 1 --rule tie_rule=play-on --rule target_score=10`,
    # the bots seeded as `run` seeds them: Player 5 passed 10 and the game just went on.
    rules = Rules(players=5, tie_rule="play-on", target_score=10)
    terminal, out = answering(Game(rules, seed=1), ["pass"] + ["play"] * 10, level="medium")
    terminal.bots = {s: make_player("medium", seed=f"1:{s}") for s in range(1, 5)}
    assert terminal.run() == 0
    score = out.index("Score: You 7, Player 2 0, Player 3 6, Player 4 0, Player 5 13 (game to 10).")
    assert out[score + 1] == (
        "Player 5 has reached the target of 10, but Player 2 and Player 4 are tied for the "
        "lowest total (0). With ties played on, the game goes on until one player alone has "
        "the lowest."
    )
    assert out[score + 2].startswith("\nRound 2: ")
    # With the tie shared, the same round ends the game: nothing more to say.
    shared, said = answering(
        Game(Rules(players=5, target_score=10), seed=1), ["pass"] + ["play"] * 10
    )
    shared.bots = {s: make_player("medium", seed=f"1:{s}") for s in range(1, 5)}
    assert shared.run() == 0 and shared.game.is_over
    assert not any("tied for the lowest" in line for line in said)


def test_a_pass_says_where_its_receiver_sits() -> None:
    # "Round 1: pass 3 cards to Player 2." said nothing of where Player 2 sits.
    for rules, to in (
        (Rules(players=5), "Player 2, on your left"),
        (Rules(players=3, pass_cycle=("right",)), "Player 3, on your right"),
        (Rules(players=6, pass_cycle=("across",)), "Player 4, across from you"),
        (Rules(), "West, on your left"),
    ):
        terminal, out = answering(Game(rules, seed=1), ["quit", "y"])
        terminal.run()
        assert f"\nRound 1: pass 3 cards to {to}." in out, out[:3]
    # One card is one card ("pass 1 cards").
    terminal, out = answering(Game(Rules(pass_count=1), seed=1), ["quit", "y"])
    terminal.run()
    assert "\nRound 1: pass 1 card to West, on your left." in out, out[:3]


def test_the_rules_in_force_and_a_partner_are_said_at_the_start(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = iter(["quit", "y"] * 3)
    monkeypatch.setattr("hearts.cli.play.read_line", lambda prompt="": next(answers))
    assert main(["play", "--seed", "21", "--rule", "partnership=true"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # "against 3 medium players" counted North, the partner, among them.
    assert lines[0].startswith(
        "Hearts with North (a medium player) as your partner, against 2 medium players. Seed 21."
    )
    assert lines[1] == "House rules: partners. The game ends when someone reaches 100."
    # "(a expert player)": the article goes with the level's word.
    args = ["play", "--seed", "21", "--rule", "partnership=true", "--level", "expert"]
    assert main(args) == 0
    assert capsys.readouterr().out.startswith("Hearts with North (an expert player) as your")
    assert main(["play", "--seed", "21", "--rules", "casual", "--rule", "target_score=50"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Hearts against 3 medium players. Seed 21.")
    assert lines[1] == (
        "House rules: points on the first trick; the queen breaks hearts. The game ends when "
        "someone reaches 50."
    )
    # --help names every preset and what it changes.
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    usage = capsys.readouterr().out.splitlines()
    for said in (
        "  standard       no house rule",
        "  short          a game to 50",
        "  casual         points on the first trick; the queen breaks hearts",
        "  strict         queen at the first chance",
        "  omnibus        bonus card: jack of diamonds",
        "  moon-subtract  shooting the moon: the shooter loses 26",
    ):
        assert said in usage, usage


def test_ctrl_c_at_a_prompt_says_the_record_on_a_line_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"

    def interrupted(prompt: str = "") -> str:
        print(prompt, end="")  # as `input` leaves it: the cursor after the prompt
        raise KeyboardInterrupt

    monkeypatch.setattr("hearts.cli.play.read_line", interrupted)
    assert main(["play", "--seed", "4", "--record", str(path)]) == 130
    out = capsys.readouterr().out
    assert out.endswith(f"Cards to pass (3): \n{_saved(path)}\n")


def test_score_in_a_round_says_the_points_taken_so_far() -> None:
    # "score" gave the game's totals alone: what a moon is watched by, the points taken in
    # the round so far, could only be added up from the tricks.
    terminal, out = answering(Game(Rules(), seed=12), ["score", "pass"] + ["play"] * 6 + ["score"])
    terminal.run()
    said = [line for line in out if line.startswith("Points taken this round so far: ")]
    assert len(said) == 1  # not at the pass: no trick played yet
    view = terminal.game.view(0)
    names = ["You", "West", "North", "East"]
    shown = ", ".join(f"{n} {p}" for n, p in zip(names, view.points_taken, strict=True))
    assert said[0] == f"Points taken this round so far: {shown}."


def test_at_a_terminal_lines_can_be_edited_and_called_back() -> None:
    # At a terminal a typo meant typing the whole line again, and the up arrow typed
    # "^[[A" into the line, which the game then could not read.
    import pty
    import select

    hearts = Path(sys.executable).with_name("hearts")
    pid, terminal = pty.fork()
    if pid == 0:  # the child: the game, at the terminal's other end
        os.execv(str(hearts), [str(hearts), "play", "--seed", "7", "--level", "easy"])
    said = b""
    scores = b"Score: You 0, West 0"

    waiting = select.poll()  # not select.select: in a long run the descriptor passes 1023
    waiting.register(terminal, select.POLLIN)

    def read_until(text: bytes, times: int = 1) -> None:
        nonlocal said
        while said.count(text) < times:
            assert waiting.poll(30_000), said.decode(errors="replace")[-400:]
            said += os.read(terminal, 4096)

    try:
        read_until(b"Cards to pass (3): ")
        # "scoer", then back two, delete the "e", on past the "r", and the "e" after it.
        os.write(terminal, b"scoer\x1b[D\x1b[D\x1b[3~\x1b[Ce\r")
        read_until(scores)
        start = len(said)
        os.write(terminal, b"\x1b[A\r")  # the line before, called back
        read_until(scores, times=2)
        assert b"^[[A" not in said[start:], said[start:]
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(terminal)
