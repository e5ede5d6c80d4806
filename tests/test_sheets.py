"""The printable sheets: one page of the right size, the rules in the text, the CLI."""

from __future__ import annotations

import argparse
import base64
import re
import zlib
from pathlib import Path

import pytest

from hearts import sheets
from hearts.cli import sheets as sheets_cli

LETTER = (612.0, 792.0)
A4 = (595.276, 841.89)


def pdf_streams(data: bytes) -> list[bytes]:
    """Decoded content streams of a reportlab PDF (ASCII85 and Flate filters)."""
    out = []
    for match in re.finditer(rb"<<(.*?)>>\s*stream\r?\n(.*?)endstream", data, re.S):
        header, body = match.group(1), match.group(2).strip()
        if b"ASCII85Decode" in header:
            body = base64.a85decode(body.removesuffix(b"~>"))
        if b"FlateDecode" in header:
            body = zlib.decompress(body)
        out.append(body)
    return out


def unescape(raw: bytes) -> bytes:
    def one(m: re.Match[bytes]) -> bytes:
        code = m.group(1)
        if code[:1].isdigit():
            return bytes([int(code, 8)])
        return {b"n": b"\n", b"r": b"\r", b"t": b"\t"}.get(code, code)

    return re.sub(rb"\\([0-7]{1,3}|.)", one, raw)


def pdf_text(data: bytes) -> str:
    """All text shown on the page, pieces joined by spaces and whitespace collapsed."""
    pieces: list[str] = []
    for stream in pdf_streams(data):
        for m in re.finditer(rb"\(((?:\\.|[^\\)])*)\)\s*Tj", stream):
            pieces.append(unescape(m.group(1)).decode("cp1252", "replace"))
    return re.sub(r"\s+", " ", " ".join(pieces))


def page_info(data: bytes) -> tuple[int, tuple[float, float]]:
    counts = re.findall(rb"/Count (\d+)", data)
    assert counts, "no page tree"
    box = re.search(rb"/MediaBox \[ ?([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) ?\]", data)
    assert box is not None
    return int(counts[0]), (float(box.group(3)), float(box.group(4)))


def assert_size(size: tuple[float, float], expected: tuple[float, float]) -> None:
    assert size == pytest.approx(expected, abs=0.5)


# --- rule sheet ------------------------------------------------------------------------------


@pytest.mark.parametrize(("paper", "size"), [("letter", LETTER), ("a4", A4), ("A4", A4)])
def test_rule_sheet_is_one_page_of_the_paper(paper: str, size: tuple[float, float]) -> None:
    data = sheets.rule_sheet_pdf(paper)
    assert data.startswith(b"%PDF-")
    pages, got = page_info(data)
    assert pages == 1
    assert_size(got, size)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_rule_sheet_holds_the_key_rules(paper: str) -> None:
    text = pdf_text(sheets.rule_sheet_pdf(paper)).lower()
    for phrase in [
        "pass",
        "left",
        "right",
        "across",
        "hold",
        "two of clubs",
        "follow suit",
        "no hearts and no queen of spades on this trick",
        "nobody may lead a heart until a heart has been played",
        "queen of spades",
        "13 points",
        "26",
        "shoot the moon",
        "every other player scores 26",
        "100",
        "lowest total wins",
        "2 of diamonds",
        "two decks",
        "cancel",
        "52",
        # the house rules box
        "house rules",
        "takes 26 off",
        "jack of diamonds",
        "adds up to 16",
        "exactly 100",
        "scatter",
    ]:
        assert phrase in text, phrase


def test_rule_sheet_draws_suits_with_a_symbol_font() -> None:
    data = sheets.rule_sheet_pdf()
    assert b"/BaseFont /Symbol" in data
    assert b"/Title (Hearts: the rules on one page)" in data


def test_sheets_are_deterministic() -> None:
    assert sheets.rule_sheet_pdf() == sheets.rule_sheet_pdf()
    assert sheets.score_sheet_pdf(5) == sheets.score_sheet_pdf(5)


def test_unknown_paper_is_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="Paper must be 'letter' or 'a4'"):
        sheets.rule_sheet_pdf("legal")


# --- score sheet -----------------------------------------------------------------------------


def pass_labels(text: str) -> list[str]:
    return re.findall(r"\b(Left|Right|Across|Hold|No pass)\b", text)


@pytest.mark.parametrize(
    ("players", "paper", "size"),
    [
        (4, "letter", LETTER),
        (3, "letter", LETTER),
        (6, "a4", A4),
        (7, "letter", (LETTER[1], LETTER[0])),
        (10, "a4", (A4[1], A4[0])),
    ],
)
def test_score_sheet_is_one_page(players: int, paper: str, size: tuple[float, float]) -> None:
    data = sheets.score_sheet_pdf(players=players, paper=paper)
    pages, got = page_info(data)
    assert pages == 1
    assert_size(got, size)


@pytest.mark.parametrize("players", range(3, 11))
def test_score_sheet_has_a_column_per_player(players: int) -> None:
    text = pdf_text(sheets.score_sheet_pdf(players=players))
    for p in range(1, players + 1):
        assert f"Player {p}" in text
    assert f"Player {players + 1}" not in text
    assert text.count("Points") == players
    assert text.count("Total") >= players


def test_four_player_sheet_prints_the_pass_of_each_round() -> None:
    text = pdf_text(sheets.score_sheet_pdf(players=4))
    assert pass_labels(text) == ["Left", "Right", "Across", "Hold"] * 5
    rows = re.findall(r"\b(\d+) (Left|Right|Across|Hold)\b", text)
    assert [int(n) for n, _ in rows] == list(range(1, 21))
    assert rows[2] == ("3", "Across")
    assert "Final total" in text
    assert "adds up to 26" in text


def test_three_and_five_players_pass_left_right_hold() -> None:
    for players in (3, 5):
        text = pdf_text(sheets.score_sheet_pdf(players=players, rounds=12))
        assert pass_labels(text) == ["Left", "Right", "Hold"] * 4


def test_two_deck_sheet_has_no_passing_and_52_points() -> None:
    text = pdf_text(sheets.score_sheet_pdf(players=8))
    assert pass_labels(text) == ["No pass"] * 20
    assert "two decks" in text
    assert "adds up to 52" in text


def test_score_sheet_rounds_can_grow() -> None:
    text = pdf_text(sheets.score_sheet_pdf(players=4, rounds=30))
    assert len(pass_labels(text)) == 30


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 2}, "3 to 10 players, not 2"),
        ({"players": 11}, "3 to 10 players, not 11"),
        ({"rounds": 5}, "10 to 30 rounds, not 5"),
        ({"paper": "tabloid"}, "Paper must be"),
    ],
)
def test_bad_score_sheet_requests_say_why(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sheets.score_sheet_pdf(**kwargs)  # type: ignore[arg-type]


def test_pass_cycles() -> None:
    assert sheets.pass_cycle(4) == ("left", "right", "across", "hold")
    assert sheets.pass_cycle(3) == sheets.pass_cycle(5) == ("left", "right", "hold")
    assert sheets.pass_cycle(6) == ()
    assert sheets.pass_directions(8, 2) == ("none", "none")
    assert sheets.decks_for(5) == 1
    assert sheets.decks_for(6) == 2


# --- command line ----------------------------------------------------------------------------


def cli(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="hearts")
    sheets_cli.register(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(argv)


def test_cli_writes_both_sheets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "print"
    args = cli(["sheets", "--out", str(out), "--paper", "a4", "--players", "5"])
    assert args.func(args) == 0
    rules, score = out / "rules-a4.pdf", out / "score-5p-a4.pdf"
    assert rules.read_bytes() == sheets.rule_sheet_pdf("a4")
    assert score.read_bytes() == sheets.score_sheet_pdf(5, "a4")
    assert str(rules) in capsys.readouterr().out


def test_cli_defaults_to_letter_and_four_players(tmp_path: Path) -> None:
    args = cli(["sheets", "--out", str(tmp_path)])
    assert args.func(args) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rules-letter.pdf", "score-4p-letter.pdf"]


def test_cli_refuses_bad_player_counts(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli(["sheets", "--out", "x", "--players", "12"])
    assert exit_info.value.code == 2
    assert "players must be from 3 to 10, not 12" in capsys.readouterr().err


def test_cli_refuses_a_file_as_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "file.txt"
    target.write_text("x")
    args = cli(["sheets", "--out", str(target)])
    assert args.func(args) == 2
    assert "is a file, not a folder" in capsys.readouterr().err
