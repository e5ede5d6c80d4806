"""`hearts replay`: what it shows of a record, and how it refuses a damaged one."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from hearts import Game, Rules, record
from hearts.ai import make_player
from hearts.cli import main
from hearts.cli.terminal import seat_names
from hearts.driver import play_out
from hearts.events import Received, RoundScored
from hearts.moves import Pass


def finished(rules: Rules, seed: int | str = 3) -> Game:
    game = Game(rules, seed)
    players = [make_player("easy", seed=f"{seed}:{s}") for s in range(rules.players)]
    for _ in play_out(game, players):
        pass
    return game


def replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | bytes, *args: str
) -> tuple[int, str, str]:
    path = tmp_path / "record.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    code = main(["replay", str(path), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def refused_in_one_line(code: int, out: str, err: str) -> str:
    assert code == 2 and out == "", (code, out)
    assert err.startswith("hearts replay: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and len(err) < 200, err
    return err


def good_record() -> dict[str, Any]:
    return record.to_record(finished(Rules(target_score=30)))


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("[" * 100_000 + "]" * 100_000, "nests too deep to be a game record."),
        (None, "holds a number too long to read."),  # a seed of 5,000 digits
    ],
)
def test_a_record_python_cannot_parse_is_refused_in_one_line(
    content: str | None, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if content is None:
        content = json.dumps(good_record()).replace('"seed": 3', '"seed": ' + "7" * 5000)
        assert "7" * 5000 in content
    err = refused_in_one_line(*replayed(tmp_path, capsys, content))
    assert words in err


def test_whatever_else_a_damaged_record_trips_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("a fault nobody foresaw")

    monkeypatch.setattr("hearts.cli.replay._show", broken)
    err = refused_in_one_line(*replayed(tmp_path, capsys, json.dumps(good_record())))
    assert "is damaged: it cannot be replayed." in err


def test_a_huge_move_is_quoted_briefly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = good_record()
    data["actions"][0]["cards"] = ["2C"] * 100_000
    err = refused_in_one_line(*replayed(tmp_path, capsys, json.dumps(data)))
    assert "Move 1 (seat 0 passes 2♣ 2♣ 2♣ " in err
    assert "…) breaks the rules; the game would tell seat 0: Pass exactly 3 cards." in err
    data["actions"][0] = {"type": "play", "seat": 0, "card": "Z" * 100_000}
    err = refused_in_one_line(*replayed(tmp_path, capsys, json.dumps(data)))
    assert 'A play names one card, like "QS".' in err


def test_a_seed_that_is_not_text_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = good_record()
    data["seed"] = "\ud800x"
    err = refused_in_one_line(*replayed(tmp_path, capsys, json.dumps(data)))
    assert "The record's seed holds characters that are not text." in err


def test_standard_input_is_named_as_such(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"{not json")))
    assert main(["replay", "-"]) == 2
    assert capsys.readouterr().err == "hearts replay: Standard input is not JSON.\n"


def test_a_record_that_starts_with_a_byte_order_mark_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps(good_record())
    code, out, err = replayed(tmp_path, capsys, b"\xef\xbb\xbf" + text.encode())
    assert code == 0 and err == "" and "Game over after" in out


def test_a_move_by_a_seat_the_table_does_not_have_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = good_record()
    data["actions"] = [{"type": "play", "seat": 99, "card": "2C"}]
    err = refused_in_one_line(*replayed(tmp_path, capsys, json.dumps(data)))
    assert "Move 1 (seat 99 plays 2♣): There is no seat 99 at this table." in err


def test_names_and_refusals_reach_the_terminal_without_control_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An escape sequence in a name cleared the screen; a newline faked a line of the replay.
    data = good_record()
    data["players"] = [
        {"seat": 0, "name": "\x1b[2J\x1b[31mEVIL"},
        {"seat": 1, "name": "Ann\nGame over"},
        {"seat": 2, "name": "\u202eevil"},
        {"seat": 3, "name": "Zoë"},
    ]
    code, out, err = replayed(tmp_path, capsys, json.dumps(data))
    assert code == 0 and err == ""
    assert "\x1b" not in out and "\u202e" not in out and "\nGame over:" not in out
    assert "\\x1b[2J\\x1b[31mEVIL" in out and "Ann\\nGame over" in out and "\\u202eevil" in out
    assert "Zoë" in out
    data["actions"][0]["type"] = "\x1b[2J"
    err = refused_in_one_line(*replayed(tmp_path, capsys, json.dumps(data)))
    assert "\x1b" not in err and "Move 1 (\\x1b[2J)" in err


def test_an_unfinished_record_shows_the_cards_on_the_table_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from hearts.events import Played, RoundScored

    game = Game(Rules(), seed=3)
    players = [make_player("easy", seed=s) for s in range(4)]
    played: list[Played] = []
    for event in play_out(game, players):
        if isinstance(event, Played):
            played.append(event)
            if len(played) == 6:  # the first trick and two cards of the second
                break
    code, out, err = replayed(tmp_path, capsys, json.dumps(record.to_record(game)))
    assert code == 0 and err == ""
    names = ["You", "West", "North", "East"]  # a record without names: as `hearts play`'s
    on_table = ", ".join(f"{names[e.seat]} {e.card.symbol}" for e in played[4:])
    assert f"  trick  2: {on_table} (unfinished)" in out
    assert out.endswith("\nThe game is unfinished: the record ends during round 1.\n")
    for event in play_out(game, players, next_round=False):
        if isinstance(event, RoundScored):
            break
    code, out, err = replayed(tmp_path, capsys, json.dumps(record.to_record(game)))
    assert out.endswith("\nThe game is unfinished: the record ends after round 1.\n")
    assert "(unfinished)" not in out
    code, out, err = replayed(tmp_path, capsys, json.dumps(good_record()))
    assert "unfinished" not in out


def test_a_partners_moon_names_both_and_the_choice_and_the_kittys_points_are_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from hearts.events import KittyTaken, MoonChosen, RoundScored
    from hearts.scoring import team_of

    rules = Rules(moon_rule="choose", partnership=True, target_score=30)
    game = Game(rules, 14)  # a game in which the moon team shoots once
    seats = [make_player("moon" if s % 2 == 0 else "random", seed=f"14:{s}") for s in range(4)]
    events = list(play_out(game, seats))
    moons = [e.result for e in events if isinstance(e, RoundScored) and e.result.shooter]
    chosen = [e for e in events if isinstance(e, MoonChosen)]
    assert moons and chosen
    code, out, err = replayed(tmp_path, capsys, json.dumps(record.to_record(game)))
    assert code == 0 and err == ""
    names = seat_names(rules.players)  # a record without names: as `hearts play`'s
    first, second = (names[s] for s in team_of(rules, moons[0].shooter or 0))
    choice = chosen[0]
    chooser = names[choice.seat]
    # The team shot it: the partner is not "everyone else", and the points come off both.
    words = (
        "add the points to the other team"
        if choice.choice == "add"
        else "take the points off their team's totals"
    )
    # Told as done ("You choose to add" read as a question still open).
    assert f"  {first} and {second} shot the moon!\n  {chooser} chose to {words}" in out

    game = finished(Rules.preset("omnibus", kitty=True, target_score=30))
    again = Game(game.rules, game.seed)
    taken = [e for m in game.moves for e in again.apply(m) if isinstance(e, KittyTaken)]
    code, out, err = replayed(tmp_path, capsys, json.dumps(record.to_record(game)))
    shown = [line for line in out.splitlines() if " the kitty: " in line]
    assert taken and len(shown) == len(taken)
    for event, line in zip(taken, shown, strict=True):
        if event.points:
            unit = "point" if abs(event.points) == 1 else "points"
            assert line.endswith(f" ({event.points} {unit})"), line


def test_a_trick_that_takes_the_cards_held_over_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its points may be the held-over cards', not its own: "-> You, 3 points" misled."""
    from hearts.events import TrickWon

    game = finished(Rules(players=6, target_score=1), seed=32)
    again = Game(game.rules, game.seed)
    tricks = [e for m in game.moves for e in again.apply(m) if isinstance(e, TrickWon)]
    taking = [t for t in tricks if t.carried]
    assert any(t.held_over for t in tricks) and len(taking) == 1
    code, out, err = replayed(tmp_path, capsys, json.dumps(record.to_record(game)))
    assert code == 0 and err == ""
    carried = taking[0]
    line = next(x for x in out.splitlines() if x.startswith(f"  trick {carried.number + 1:>2}: "))
    assert line.endswith(
        f" -> {seat_names(6)[carried.winner]}, with the {len(carried.carried)} cards held over, "
        f"{carried.points} points"
    ), line
    assert out.count("held over") == 2  # that trick, and the one held over


def test_a_move_against_the_rules_is_said_as_the_seats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "Move 5 (seat 1 plays 3C): You do not hold the three of clubs": "You" was the reader.
    data = good_record()
    plays = [i for i, a in enumerate(data["actions"]) if a["type"] == "play"]
    first = data["actions"][plays[0]]
    first["card"] = "AS" if first["card"] != "AS" else "KS"
    err = refused_in_one_line(*replayed(tmp_path, capsys, json.dumps(data)))
    seat = first["seat"]
    symbol = "A♠" if first["card"] == "AS" else "K♠"
    said = f"Move {plays[0] + 1} (seat {seat} plays {symbol}) breaks the rules; the game"
    assert said in err and f"would tell seat {seat}: " in err, err


def test_a_record_over_the_size_cap_is_refused_before_it_is_read_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A 43 MB record took 2.8 s and some 500 MB before it was refused. A good record padded
    # past the cap (JSON allows the spaces) was read whole, and replayed.
    from hearts.cli.replay import RECORD_LIMIT

    text = json.dumps(good_record())
    code, out, err = replayed(tmp_path, capsys, text + " " * (RECORD_LIMIT - len(text)))
    assert code == 0 and err == "" and "Game over after" in out  # at the cap: read
    padded = text + " " * (RECORD_LIMIT + 1 - len(text))
    err = refused_in_one_line(*replayed(tmp_path, capsys, padded))
    assert err == (
        f"hearts replay: {tmp_path / 'record.json'} is over 8 MB, too large to be a game record "
        "(the longest game's is under 1 MB).\n"
    )
    # Standard input (a pipe, a file that grows): no more than a byte past the cap is read.
    piped = io.BytesIO((text + " " * 2 * RECORD_LIMIT).encode())
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(piped))
    assert main(["replay", "-"]) == 2
    assert "Standard input is over 8 MB" in capsys.readouterr().err
    assert piped.tell() == RECORD_LIMIT + 1


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ("rules", "The record has no rules: they say how many played and how points were scored"),
        ("seed", "The record has no seed: the cards are dealt from it"),
        ("actions", "The record has no actions: it lists the moves made"),
    ],
)
def test_a_record_without_a_key_it_needs_says_which(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, words: str
) -> None:
    # Without its rules a five-seat record was read as a game of four and refused at its first
    # pass: "Move 1 (seat 0 passes ['3C', 'AC', '3D']) breaks the rules; ... You do not hold
    # the three of clubs."
    data = record.to_record(finished(Rules(players=5, target_score=30)))
    del data[key]
    err = refused_in_one_line(*replayed(tmp_path, capsys, json.dumps(data)))
    assert err.startswith(f"hearts replay: {words}"), err
    assert "Move 1" not in err


def test_a_bad_move_names_its_cards_as_the_game_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = good_record()
    passing = data["actions"][0]
    passing["cards"] = ["QS", "QS", "10h"]
    err = refused_in_one_line(*replayed(tmp_path, capsys, json.dumps(data)))
    assert f"Move 1 (seat {passing['seat']} passes Q♠ Q♠ 10♥) breaks the rules" in err, err
    assert "[" not in err and "'" not in err
    passing["cards"] = ["QS", "ZZ"]  # what is no card is quoted as it was written
    err = refused_in_one_line(*replayed(tmp_path, capsys, json.dumps(data)))
    assert f"Move 1 (seat {passing['seat']} passes Q♠ ZZ): 'ZZ' is not a card" in err, err


def test_a_round_a_one_round_game_does_not_have_is_refused_plainly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = finished(Rules(target_score=1))  # the first round's points end it
    assert len(game.results) == 1
    code, out, err = replayed(tmp_path, capsys, json.dumps(record.to_record(game)), "--round", "99")
    assert refused_in_one_line(code, out, err) == (
        "hearts replay: the game has only round 1, not 99.\n"
    )


def test_a_scatter_pass_names_the_seat_each_card_went_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The cards of a scatter were listed lowest first beside the seats in order, so a card
    # was said to go where it did not: "West passes A♦ Q♠ K♥ to North, East and You" when
    # the Q♠ went to You.
    rules = Rules(pass_cycle=("scatter",), target_score=20)
    game = Game(rules, 11)
    names = seat_names(rules.players)
    highest_first = sorted(game.view(0).hand, reverse=True)[:3]
    game.apply(Pass(0, tuple(highest_first)))
    players = [make_player("easy", seed=f"11:{s}") for s in range(rules.players)]
    events = list(
        itertools.takewhile(lambda e: not isinstance(e, RoundScored), play_out(game, players))
    )
    for _ in play_out(game, players):  # the rest of the game, for a record of it whole
        pass
    # Where each card went, as the engine says: the receiver and its giver.
    went = {
        (giver, card): event.seat
        for event in events
        if isinstance(event, Received)
        for card, giver in zip(event.cards, event.givers, strict=True)
    }
    code, out, err = replayed(tmp_path, capsys, json.dumps(record.to_record(game)), "--round", "1")
    assert code == 0, err
    sent = [f"{card.symbol} to {names[went[0, card]]}" for card in highest_first]
    assert f"You pass {sent[0]}, {sent[1]} and {sent[2]}" in out, out
    # Every seat's line pairs each card with the seat that received it.
    passes = [line.strip() for line in out.splitlines() if " to " in line]
    assert len(passes) == rules.players, out
    for seat, line in enumerate(passes):
        for card, receiver in ((card, to) for (giver, card), to in went.items() if giver == seat):
            assert f"{card.symbol} to {names[receiver]}" in line, (line, card, receiver)
