import pytest

from hearts.cli import main


def test_demo_prints_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "4", "--target", "30"]) == 0
    out = capsys.readouterr().out
    assert "Round 1: pass left" in out
    assert "trick 13:" in out
    assert "Game over after" in out


def test_unknown_command_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["juggle"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
