import json
import re
from pathlib import Path

import pytest

from hearts import Game, Rules
from hearts.ai import make_player
from hearts.cli import main
from hearts.events import TrickWon
from hearts.record import to_record


def test_demo_prints_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "4", "--target", "30"]) == 0
    out = capsys.readouterr().out
    assert "Round 1: pass left" in out
    assert "trick 13:" in out
    assert "Game over after" in out


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
def test_output_to_a_full_disk_is_one_line_not_a_traceback() -> None:
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        ran = subprocess.run(
            [sys.executable, "-c", "import sys; from hearts.cli import main; sys.exit(main())",
             "demo", "--seed", "4", "--target", "30"],
            stdout=full, stderr=subprocess.PIPE, text=True, timeout=120,
        )  # fmt: skip
    assert ran.returncode == 1
    assert ran.stderr == "hearts: the output could not be written: no space left.\n"


def test_unknown_command_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["juggle"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err == (
        "hearts: 'juggle' is not a command: choose serve, migrate, play, sim, sheets, demo or "
        "replay. See hearts --help.\n"
    )


def test_a_two_deck_replay_pairs_twins_and_names_what_cancelled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = Rules(players=6, target_score=1)
    game = Game(rules, seed=2)
    bots = [make_player("medium", seed=s) for s in range(rules.players)]
    while not game.is_over:
        seat = game.to_act[0] if game.to_act else None
        if seat is None:
            game.next_round()
        elif game.phase == "passing":
            game.give(seat, bots[seat].choose_pass(game.view(seat)))
        else:
            game.play(bots[seat].choose_play(game.view(seat)))
    path = tmp_path / "six.json"
    path.write_text(json.dumps(to_record(game)))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    rounds = len(game.results)
    assert f"Game over after {rounds} round{'' if rounds == 1 else 's'}:" in out
    dealt = re.compile(r"^\s+(You|Player \d+): ")  # no names in the record: `hearts play`'s
    hands = [line.split(": ", 1)[1].split() for line in out.splitlines() if dealt.match(line)]
    assert len(hands) >= rules.players
    for hand in hands:  # a card's two copies side by side, suits together
        for card in set(hand):
            if hand.count(card) == 2:
                assert hand[hand.index(card) + 1] == card, hand
    cancelled = [t for t in game_tricks(game) if t]
    assert cancelled and out.count("(cancelled: ") == len(cancelled)


def game_tricks(game: Game) -> list[tuple[str, ...]]:
    """The cards each trick of the game cancelled, replayed from its record."""
    again = Game(game.rules, seed=game.seed)
    found = []
    for move in game.moves:
        for event in again.apply(move):
            if isinstance(event, TrickWon):
                found.append(tuple(str(c) for c in event.cancelled))
    return found


def test_the_target_help_names_the_rules_own_range(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The help wrote the lowest target as a literal 1 beside the rules' highest: a lowest
    # target moved in hearts.rules would have left `hearts demo --help` still saying 1.
    from hearts.cli import demo

    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr(demo, "MIN_TARGET", 7, raising=False)  # (the old help had no name)
    monkeypatch.setattr(demo, "MAX_TARGET", 700)
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    assert "score that ends the game, 7 to 700 (100)" in capsys.readouterr().out


def test_a_target_out_of_range_is_one_line_naming_the_range(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A target of 10**11 was taken, and the game never ended.
    for target in ("0", "-5", "1001", str(10**11)):
        assert main(["demo", "--target", target]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err == (
            "hearts demo: The target score must be a whole number from 1 to 1000.\n"
        )
