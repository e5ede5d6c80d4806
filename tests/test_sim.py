"""Tournaments: duplicate deals, the report, and the `hearts sim` command."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from hearts import Rules
from hearts.cli import main
from hearts.sim import (
    MAX_DEALS,
    PlayerSpec,
    TournamentConfig,
    as_medium_note,
    budget_overrun,
    format_report,
    parse_lineup,
    play_table,
    progress_bar,
    run_tournament,
)


def test_lineups_parse_levels_budgets_and_repeats() -> None:
    lineup = parse_lineup(["hard:500", "medium*2", "easy"], 4)
    assert [p.name for p in lineup] == ["hard:500", "medium", "medium", "easy"]
    assert PlayerSpec.parse("hard:0.05s").budget == 0.05
    with pytest.raises(ValueError, match="seats 4 players; 3"):
        parse_lineup(["medium*3"], 4)
    with pytest.raises(ValueError, match="not a level"):
        parse_lineup(["wizard*4"], 4)
    with pytest.raises(ValueError, match="not a budget"):
        PlayerSpec.parse("hard:-3")


def test_every_player_gets_every_seat_of_every_deal() -> None:
    config = TournamentConfig(parse_lineup(["medium", "random*3"], 4), Rules(), deals=3, seed=5)
    report = run_tournament(config)
    assert report.rounds == 12
    medium = report.by_name["medium"]
    assert medium.rounds == 12 and report.by_name["random"].rounds == 36
    # Duplicate deals: the same deal in every rotation hands out the same 26 points a table.
    for deal in range(3):
        tables = [play_table(config, deal, r) for r in range(4)]
        for table in tables:
            assert sum(e.scores[0] for e in table.entries) in (26, 78)
    assert report.difference is not None and report.difference[0] == "medium"
    data = json.loads(json.dumps(report.to_dict()))
    assert data["rounds"] == 12 and {r["name"] for r in data["results"]} == {"medium", "random"}


def test_with_partners_each_kind_of_player_fills_a_team_so_the_two_can_be_compared(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from hearts.scoring import team_of
    from hearts.sim import seating

    rules = Rules(partnership=True)
    for words in (["medium", "medium", "easy", "easy"], ["medium", "easy", "medium", "easy"]):
        config = TournamentConfig(parse_lineup(words, 4), rules, deals=3)
        for rotation in range(rules.players):
            home = seating(config.players, rules)
            at = [home[(seat - rotation) % rules.players] for seat in range(rules.players)]
            for seat in range(rules.players):  # each team one kind, in every rotation
                names = {config.players[at[s]].name for s in team_of(rules, seat)}
                assert len(names) == 1, (words, rotation)
        report = run_tournament(config)
        assert report.difference is not None and report.difference[2] != 0
        medium, easy = report.by_name["medium"], report.by_name["easy"]
        assert medium.per_deal != easy.per_deal  # not one team's points, counted twice
        text = format_report(report)
        assert "Partners: medium and medium, easy and easy." in text
        assert "holds both" not in text
        assert report.to_dict()["partners"] == [["medium", "medium"], ["easy", "easy"]]
    # One medium against three easies: a team must hold both, and the report says so.
    config = TournamentConfig(parse_lineup(["medium", "easy*3"], 4), rules, deals=2)
    report = run_tournament(config)
    note = (
        "With partners, a team holds both medium and easy at every table: its points count "
        "for both, so their difference understates the gap between them."
    )
    assert report.difference is not None
    said = format_report(report)
    assert f"(95% CI ±{report.difference[3]:.2f})\nFewer points are better" in said
    assert said.endswith(f"\n{note}")
    assert report.to_dict()["difference"]["note"] == note
    # Alone, everyone keeps the lineup's seat, and nothing is said of partners.
    alone = run_tournament(TournamentConfig(parse_lineup(["medium*2", "easy*2"], 4), Rules(), 1))
    assert seating(alone.config.players, Rules()) == [0, 1, 2, 3]
    assert "Partners" not in format_report(alone) and "partners" not in alone.to_dict()
    assert main(["sim", "--quiet", "--deals", "2", "--rule", "partnership=true",
                 "medium", "medium", "easy", "easy"]) == 0  # fmt: skip
    assert "medium minus easy: +0.00 points per round (95% CI ±0.00)" not in (
        capsys.readouterr().out
    )


def test_games_mode_plays_to_the_target_and_counts_wins() -> None:
    rules = Rules(target_score=30, moon_rule="choose")
    config = TournamentConfig(parse_lineup(["easy*2", "medium*2"], 4), rules, deals=2, mode="games")
    report = run_tournament(config)
    wins = sum(r.wins for r in report.by_name.values())
    assert wins == pytest.approx(8)  # 2 games x 4 rotations, shared wins split
    assert all(r.games == 8 * r.entries for r in report.by_name.values())


def test_tournaments_repeat_exactly_with_a_seed() -> None:
    config = TournamentConfig(parse_lineup(["hard:30", "easy*3"], 4), Rules(), deals=1, seed=3)
    first = run_tournament(config).by_name["hard:30"].per_deal
    assert run_tournament(config).by_name["hard:30"].per_deal == first


def test_sim_command_prints_a_report_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "medium", "easy*3", "--deals", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "points/round" in out and "medium minus easy" in out
    assert main(["sim", "medium*3", "--players-count", "3", "--deals", "1", "--json", "-"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"]["players"] == 3 and data["rounds"] == 3


def test_sim_command_refuses_bad_input_in_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "medium", "easy", "--quiet"]) == 2
    assert "A table seats 3 to 10 players; 2 were given." in capsys.readouterr().err
    assert main(["sim", "medium*4", "--rule", "moon_rule=sometimes", "--quiet"]) == 2
    assert "not a moon rule" in capsys.readouterr().err
    # A report to a folder that does not exist is refused before the tournament, not after.
    assert main(["sim", "easy*4", "--deals", "1", "--json", "/no/such/folder/x.json"]) == 2
    assert "no folder" in capsys.readouterr().err
    # Each of these was a traceback, a tournament for nothing, or a budget ignored.
    refused = {
        "medium*99999999999999999999": "gives more",  # an OverflowError, then a MemoryError
        "medium:100": "only hard and expert search",
        "moon:123456789012": "only hard and expert search",
        "hard:infs": "not a budget",
        "hard:nans": "not a budget",
        "hard:99999999999": "a budget is 1 to 1,000,000 playouts",
    }
    for word, words in refused.items():
        assert main(["sim", word, "medium*3", "--deals", "1", "--quiet"]) == 2, word
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err, (word, err)
    assert main(["sim", "easy*4", "--deals", "1", "--quiet", "--json", "/"]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert main(["sim", "easy*4", "--deals", "1", "--quiet", "--json", ""]) == 2
    assert "Give --json a file" in capsys.readouterr().err
    assert main(["sim", "easy*4", "--deals", "1", "--quiet", "--seed", "x²"]) == 0  # a word seed
    with pytest.raises(ValueError, match="whole number"):  # "²".isdigit() is true
        parse_lineup(["medium*²", "medium*2"], 4)  # (the command reads it as 2: NFKC)


def test_the_report_keeps_its_columns(capsys: pytest.CaptureFixture[str]) -> None:
    # Shared wins are fractions, and a long name is as wide as it is: nothing runs into the
    # next column; one deal has no interval ("±inf" before).
    quick = "hard:0.0000001s"  # the fewest deals a decision
    assert main(["sim", quick, "medium*3", "--deals", "1", "--quiet", "--mode", "games",
                 "--rule", "target_score=10"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("4 rounds (1 game x 4 rotations"), lines[0]  # games, not deals
    header = lines[2]
    assert header.startswith("player")
    rows = lines[3:5]
    assert rows[0].startswith("hard:1e-07s ") and rows[1].startswith("medium ")
    for row in rows:
        assert len(row) == len(header), (header, row)
        assert "inf" not in row
        won = row[header.index("blocked") + len("blocked") : header.index("games won") + 9]
        assert "/" in won and won.strip().count(".") <= 1
    assert "tried:" in out and "(one deal: no interval)" in out


def test_ctrl_c_stops_a_command_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("hearts.sim.run_tournament", interrupted)
    assert main(["sim", "easy*4", "--deals", "1", "--quiet"]) == 130
    assert capsys.readouterr().err.strip() == "Stopped."


def test_ctrl_c_with_workers_says_stopped_and_nothing_from_the_workers() -> None:
    """Ctrl-C at a terminal reaches the whole process group: each worker printed its own
    "Process SpawnPoolWorker-1:" and, now and then, 77 lines of traceback."""
    import signal
    import subprocess
    import sys
    import time

    command = "import sys; from hearts.cli import main; sys.exit(main(sys.argv[1:]))"
    args = ["sim", "hard", "easy*3", "--deals", "400", "--workers", "2"]
    run = subprocess.Popen(
        [sys.executable, "-c", command, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # a process group of its own, as a terminal's job is
    )
    children = Path(f"/proc/{run.pid}/task/{run.pid}/children")

    def workers() -> int:
        ids = children.read_text().split() if children.exists() else []
        lines = [
            Path(f"/proc/{i}/cmdline").read_bytes() for i in ids if Path(f"/proc/{i}").exists()
        ]
        return sum(b"spawn_main" in line for line in lines)

    try:
        deadline = time.monotonic() + 60
        while workers() < 2 and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert workers() == 2
        time.sleep(2)  # past their start, into the tables
        os.killpg(run.pid, signal.SIGINT)
        _, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    said = err.decode()
    assert run.returncode == 130, said
    assert said.rstrip().endswith("Stopped."), said
    assert "Traceback" not in said and "SpawnPoolWorker" not in said, said


def test_a_reader_that_goes_away_ends_the_command_quietly() -> None:
    """`hearts sim ... | head`: a closed pipe was a BrokenPipeError traceback."""
    import subprocess
    import sys

    command = "import sys; from hearts.cli import main; sys.exit(main(sys.argv[1:]))"
    args = ["sim", "medium*4", "--deals", "2", "--quiet", "--json", "-"]
    run = subprocess.Popen(
        [sys.executable, "-c", command, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert run.stdout is not None and run.stderr is not None
    run.stdout.close()  # nobody reads the report
    err = run.stderr.read().decode()
    assert run.wait(timeout=120) == 1
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def test_absurd_deal_counts_are_refused_naming_the_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Ten million deals built every table in memory first: 2.5 GB in ten seconds.
    for deals in (MAX_DEALS + 1, 10_000_000, 0):
        assert main(["sim", "medium*4", "--deals", str(deals), "--quiet"]) == 2
        err = capsys.readouterr().err
        assert err == f"hearts sim: Play 1 to {MAX_DEALS:,} deals, not {deals:,}.\n", err
    config = TournamentConfig(parse_lineup(["random*4"], 4), Rules(), deals=MAX_DEALS + 1)
    with pytest.raises(ValueError, match="Play 1 to"):
        run_tournament(config)


def test_the_moon_level_that_plays_as_medium_with_two_decks_is_said_too(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from hearts.ai import LEVELS, plays_as_medium

    # What the note says: the same deals, the same points, moon or medium, its pass too.
    for rules in (Rules(players=6, pass_cycle=("left",)), Rules(players=6)):
        moon = run_tournament(TournamentConfig(parse_lineup(["moon", "medium*5"], 6), rules, 1))
        medium = run_tournament(TournamentConfig(parse_lineup(["medium*6"], 6), rules, 1))
        assert moon.by_name["moon"].per_deal == medium.by_name["medium"].per_deal
    note = "With two decks, moon plays as medium: its plan to shoot the moon knows only one deck."
    assert format_report(moon).endswith("\n\n" + note) and moon.to_dict()["note"] == note
    assert [level for level in LEVELS if plays_as_medium(level, rules)] == [
        "hard",
        "expert",
        "moon",
    ]
    assert not any(plays_as_medium(level, Rules()) for level in LEVELS)
    assert as_medium_note(["hard", "moon", "expert", "easy"], rules) == (
        "With two decks, hard and expert play as medium: their search knows only one deck. "
        "So does moon: its plan to shoot the moon knows only one deck."
    )
    monkeypatch.setattr("hearts.cli.play.read_line", lambda prompt="": "quit")
    assert main(["play", "--players", "6", "--level", "moon", "--seed", "3"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == note


def test_a_search_that_plays_as_medium_with_two_decks_is_said(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = Rules(players=6)
    hard = run_tournament(TournamentConfig(parse_lineup(["hard:50", "medium*5"], 6), rules, 1))
    medium = run_tournament(TournamentConfig(parse_lineup(["medium*6"], 6), rules, 1))
    # What the note says: the same deals, the same points, hard or medium.
    assert hard.by_name["hard:50"].per_deal == medium.by_name["medium"].per_deal
    note = "With two decks, hard plays as medium: its search knows only one deck."
    assert format_report(hard).endswith("\n\n" + note) and hard.to_dict()["note"] == note
    assert "two decks" not in format_report(medium) and "note" not in medium.to_dict()
    assert as_medium_note(["hard", "expert", "easy"], rules) == (
        "With two decks, hard and expert play as medium: their search knows only one deck."
    )
    assert as_medium_note(["hard", "expert"], Rules()) is None
    monkeypatch.setattr("hearts.cli.play.read_line", lambda prompt="": "quit")
    assert main(["play", "--players", "6", "--level", "expert", "--seed", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Hearts against 5 expert players.")
    assert out[1] == "With two decks, expert plays as medium: its search knows only one deck."


def test_the_players_named_set_the_tables_size_unless_it_is_given(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Five players named at the default four seats were refused ("This table seats 4 players;
    # 'medium*4' gives more"): now they seat five.
    assert main(["sim", "easy", "medium*4", "--deals", "1", "--quiet", "--json", "-"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"]["players"] == 5 and data["players"] == ["easy"] + ["medium"] * 4
    assert data["rounds"] == 5  # one deal, at each of five rotations
    # A size given that the players named do not fill is one sentence saying both.
    for size, said in (
        (["--players-count", "4"], "--players-count 4"),
        (["--rule", "players=6"], "--rule players=6"),
    ):
        assert main(["sim", "easy", "medium*4", *size, "--quiet"]) == 2
        captured = capsys.readouterr()
        seats = said[-1]
        assert captured.err == (
            f"hearts sim: {said} seats {seats} players, but 5 were given; give {seats}, or "
            f"leave out {said}.\n"
        )
        assert captured.out == ""
    # Too many or too few for any table.
    for words, message in (
        (["easy*6", "medium*5"], "A table seats at most 10 players; 'medium*5' gives more."),
        (["easy", "medium"], "A table seats 3 to 10 players; 2 were given."),
    ):
        assert main(["sim", *words, "--quiet"]) == 2
        assert capsys.readouterr().err == f"hearts sim: {message}\n"


def test_lineup_refusals_say_what_is_wrong(capsys: pytest.CaptureFixture[str]) -> None:
    refused = {
        ("medium",): "A table seats 3 to 10 players; 1 was given.",
        ("hard:2000000", "medium*3"): "'hard:2000000': a budget is 1 to 1,000,000 playouts,",
        ("medium", "*3"): "'*3' repeats no player; write the player first, like medium*3.",
        (":5", "medium*3"): "':5' names no player; write a level first, like medium",
    }
    for words, message in refused.items():
        assert main(["sim", *words, "--deals", "1", "--quiet"]) == 2, words
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, (words, err)


def test_progress_is_a_bar_on_a_terminal_and_plain_lines_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    lineup = parse_lineup(["random*4"], 4)
    screen = Terminal()
    run_tournament(TournamentConfig(lineup, Rules(), deals=2), progress_bar(screen))
    assert screen.getvalue().startswith("\r[") and "8/8 rounds, " in screen.getvalue()
    log = io.StringIO()  # a file or a pipe: no frames redrawn with "\r"
    run_tournament(TournamentConfig(lineup, Rules(), deals=2), progress_bar(log))
    assert log.getvalue() == ""
    monkeypatch.setattr("hearts.sim.PROGRESS_LINE_SECONDS", 0.0)
    config = TournamentConfig(lineup, Rules(target_score=20), deals=1, mode="games")
    run_tournament(config, progress_bar(log, unit="games"))
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue() and lines[0].startswith("1/4 games, ") and len(lines) == 3


def test_a_report_that_cannot_be_written_is_refused_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It failed after the whole tournament, with "[Errno 13] ..." and exit 1.
    if os.geteuid() != 0:
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o500)
        path = locked / "report.json"
    elif Path("/sys/kernel").is_dir():  # root writes anywhere but in /sys
        path = Path("/sys/kernel/hearts-report.json")
    else:
        pytest.skip("no folder here refuses a file to root")
    assert main(["sim", "easy*4", "--deals", "1", "--json", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert (
        captured.err
        == f"hearts sim: Cannot write the report to {str(path)!r}: Permission denied.\n"
    )
    report = tmp_path / "report.json"
    assert main(["sim", "easy*4", "--deals", "1", "--quiet", "--json", str(report)]) == 0
    assert json.loads(report.read_text())["rounds"] == 4


def test_the_difference_says_which_did_better_only_when_the_interval_does() -> None:
    # "hard minus medium: -12.35" meant nothing to someone who does not know that Hearts
    # counts against.
    from dataclasses import replace

    played = run_tournament(TournamentConfig(parse_lineup(["medium", "random*3"], 4), Rules(), 2))
    clear = replace(played, difference=("medium", "random", -7.9, 0.6))
    assert "Fewer points are better: medium did better." in format_report(clear)
    worse = replace(played, difference=("medium", "random", 7.9, 0.6))
    assert "Fewer points are better: random did better." in format_report(worse)
    unclear = replace(played, difference=("medium", "random", -0.4, 0.6))
    assert "the interval reaches 0, so neither is shown better" in format_report(unclear)


def test_a_teams_moon_counts_once_a_round_for_the_team() -> None:
    # moon*2 with partners: "tried 540, moons 428" over 400 rounds, each team moon counted
    # for both seats, under a footer that said "rounds a player took the Q♠ and every heart".
    rules = Rules(partnership=True)
    config = TournamentConfig(parse_lineup(["moon*2", "medium*2"], 4), rules, deals=6, seed=1)
    moon = [i for i, p in enumerate(config.players) if p.name == "moon"]
    shot = 0
    for deal in range(config.deals):
        for rotation in range(rules.players):
            table = play_table(config, deal, rotation)  # one round: moon counts 0 or 1
            moons = sum(table.entries[i].moons for i in moon)
            tried = sum(table.entries[i].moon_attempts for i in moon)
            assert moons <= tried <= 1, (deal, rotation, moons, tried)
            shot += moons
    assert shot > 0  # the moon team did shoot: there was a moon to count twice
    report = run_tournament(config)
    assert report.by_name["moon"].moons == shot <= report.rounds
    text = format_report(report)
    assert "moons: rounds its team shot the moon" in text
    assert "A round counts once for a player, even when two of its seats share the team." in text


def test_a_teams_win_is_whole_for_each_seat_and_the_footer_says_shares_are_parts() -> None:
    # With partners, each seat of the winning team counted half a game: 2 seats won 1 game.
    rules = Rules(partnership=True, target_score=30)
    config = TournamentConfig(
        parse_lineup(["medium*2", "easy*2"], 4), rules, deals=2, seed=4, mode="games"
    )
    for rotation in range(rules.players):
        table = play_table(config, 0, rotation)
        assert sum(e.wins for e in table.entries) == pytest.approx(2), rotation  # a team's
    report = run_tournament(config)
    assert sum(r.wins for r in report.by_name.values()) == pytest.approx(16)
    text = format_report(report)
    assert (
        "games won: games its seats' teams won, of the games its seats played; a win shared in "
        "a tie between teams counts in part (half each for two), so the count may be a fraction."
    ) in text
    alone = TournamentConfig(parse_lineup(["medium", "easy*3"], 4), Rules(target_score=10), 1)
    said = format_report(run_tournament(replace(alone, mode="games")))
    assert (
        "games won: games its seats won, of the games they played; a win shared in a tie " in said
    )
    assert "games won:" not in format_report(run_tournament(alone))  # no games, no column


def test_a_time_budget_below_the_fewest_sampled_deals_is_said(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # "hard:0.001s" showed a p95 of 29 ms a decision, and nothing said why.
    config = TournamentConfig(parse_lineup(["hard:0.0000001s", "medium*3"], 4), Rules(), 1)
    report = run_tournament(config)
    hard = report.by_name["hard:1e-07s"]
    said = budget_overrun(config, hard)
    assert said == (
        f"hard:1e-07s took longer than its 0.0001 ms a decision ({hard.decision_ms_p95:.1f} ms "
        "at the 95th percentile): a pass or a play searches at least 10 sampled deals however "
        "short the time."
    )
    assert format_report(report).endswith("\n\n" + said)
    assert budget_overrun(config, replace(hard, decision_ms_p95=0.00001)) is None  # kept
    playouts = TournamentConfig(parse_lineup(["hard:20", "medium*3"], 4), Rules(), 1)
    assert budget_overrun(playouts, run_tournament(playouts).by_name["hard:20"]) is None
    with pytest.raises(SystemExit):
        main(["sim", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    floor = "a pass or a play, though each searches at least 10 sampled deals"
    assert f"{floor} however long they take" in shown
    assert f"deals (or games) to play, 1 to {MAX_DEALS:,} (100)" in shown


def test_the_help_says_what_the_tournament_module_holds() -> None:
    from hearts.ai.search import EXPERT, HARD
    from hearts.cli import sim as sim_cli

    assert sim_cli.MAX_DEALS == MAX_DEALS
    assert sim_cli.FEWEST_SAMPLES == HARD.min_samples == EXPERT.min_samples
