"""Printable sheets for playing Hearts with real cards: a one-page rule sheet and a score sheet.

Pure functions that return PDF bytes (vector text drawn by reportlab), so the web layer can
serve them and the command line can write them to files.

>>> rule_sheet_pdf()[:5]
b'%PDF-'
>>> score_sheet_pdf(players=5, passing="no-hold")[:5]
b'%PDF-'
"""

from __future__ import annotations

import dataclasses
import io
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.pagesizes import A4, landscape, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, KeepInFrame, Paragraph, Table, TableStyle
from reportlab.platypus.frames import Frame

from hearts.cards import RANK_NAMES, SUIT_NAMES, parse_card
from hearts.rules import (
    MAX_PLAYERS,
    MAX_TARGET,
    MIN_PLAYERS,
    MIN_TARGET,
    MOON_RULES,
    NO_HOLD_CYCLE,
    SCATTER_CYCLE,
    SMALL_TABLE_CYCLE,
    STANDARD_CYCLE,
    TIE_RULES,
    BonusCard,
    Rules,
    UsualCycle,
)
from hearts.scoring import BONUS_CARD_POINTS
from hearts.words import listed

PAPERS: dict[str, tuple[float, float]] = {"letter": letter, "a4": A4}
MIN_ROUNDS = 10
MAX_ROUNDS = 30
DEFAULT_ROUNDS = 20
#: The passing choices of a score sheet, in the scorekeeper's words. None is the table's usual.
#: "standard" and "no-hold" go across only at four players (what they have always meant
#: there); "across" and "across-no-hold" bring it to any even table, and so does "scatter".
PASSING: Final = ("standard", "no-hold", "across", "across-no-hold", "scatter", "none")
#: The numbers of cards the game offers to pass (the start screen's choices; a test checks).
PASS_COUNTS: Final = (1, 2, 3, 4)

#: The scorekeeper's choices a sheet prints, in its words (model.js; a test holds them together).
MOON_CHOICES: Final = MOON_RULES
BONUS_CHOICES: Final[dict[str, BonusCard | None]] = {"none": None, "jack": "JD", "ten": "TD"}
EXACT_CHOICES: Final = ("none", "fifty", "zero", "half")
TIE_CHOICES: Final = TIE_RULES
#: "Drops back to 50": the scorekeeper's and the game's number.
EXACT_FIFTY: Final = 50


@dataclass(frozen=True)
class Agreed:
    """The rules a table agreed on before the first deal, as the scorekeeper keeps them.

    A sheet printed with them says these rules as the table's own, not as choices.

    >>> Agreed(target=50, moon="choose").rules(4).moon_rule
    'choose'
    >>> Agreed(target=40, exact="fifty").rules(4)
    Traceback (most recent call last):
    ...
    ValueError: Dropping back to 50 needs a game to more than 50, not to 40.
    """

    target: int = Rules().target_score
    moon: str = "add"
    bonus: str = "none"
    exact: str = "none"
    tie: str = "share"
    sun: bool = False
    partnership: bool = False

    def rules(self, players: int, passing: str | None = None) -> Rules:
        """The table's `Rules`: its size and passing (see `table_rules`) with these choices."""
        base = table_rules(players, passing)
        for name, value, choices in (
            ("moon", self.moon, MOON_CHOICES),
            ("bonus", self.bonus, tuple(BONUS_CHOICES)),
            ("exact", self.exact, EXACT_CHOICES),
            ("tie", self.tie, TIE_CHOICES),
        ):
            if value not in choices:
                words = ", ".join(choices[:-1]) + f" or {choices[-1]}"
                raise ValueError(f"{name} must be {words}, not {str(value)[:20]!r}.")
        if not MIN_TARGET <= self.target <= MAX_TARGET:
            raise ValueError(
                f"target must be from {MIN_TARGET} to {MAX_TARGET}, not {self.target}."
            )
        if self.exact == "fifty" and self.target <= EXACT_FIFTY:
            raise ValueError(
                f"Dropping back to {EXACT_FIFTY} needs a game to more than {EXACT_FIFTY}, "
                f"not to {self.target}."
            )
        reset = {"none": None, "fifty": EXACT_FIFTY, "zero": 0, "half": self.target // 2}
        # The engine checks the rest: partnership only at its table, in its own words.
        return dataclasses.replace(
            base,
            target_score=self.target,
            moon_rule=self.moon,  # type: ignore[arg-type]  # checked above
            bonus_card=BONUS_CHOICES[self.bonus],
            exactly_target_resets_to=reset[self.exact],
            tie_rule=self.tie,  # type: ignore[arg-type]  # checked above
            shoot_the_sun=self.sun,
            partnership=self.partnership,
        )


#: The engine's names (`Rules` fields) of the rules `Agreed` keeps, as `hearts sheets --rule`
#: takes them: a game's scoring, which the sheets print as its own.
AGREED_RULES: Final = (
    "target_score",
    "moon_rule",
    "bonus_card",
    "exactly_target_resets_to",
    "tie_rule",
    "shoot_the_sun",
    "partnership",
)
#: The rules that only set the table, which the sheets print too.
TABLE_RULES: Final = ("players", "pass_cycle")


def sheet_choices(rules: Rules, passing: str | None = None) -> tuple[str | None, Agreed]:
    """A game's `Rules` (checked by the engine) in the sheets' words: its passing (None for
    the table's usual) and the scoring it `Agreed` on. `passing` is one asked for apart: given
    with a cycle of the rules' own, it is refused. A rule the sheets cannot print is refused
    too: a sheet must not print the standard rule for a table that plays another.

    >>> sheet_choices(Rules(target_score=50, exactly_target_resets_to=25))
    (None, Agreed(target=50, moon='add', bonus='none', exact='half', tie='share', sun=False, \
partnership=False))
    >>> sheet_choices(Rules(pass_cycle=NO_HOLD_CYCLE))[0]
    'no-hold'
    >>> sheet_choices(Rules(points_on_first_trick=True))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: The sheets cannot print points_on_first_trick: they print a game's ...
    """
    usual = Rules(players=rules.players)
    unprintable = [
        field.name
        for field in dataclasses.fields(Rules)
        if field.name not in AGREED_RULES + TABLE_RULES
        and getattr(rules, field.name) != getattr(usual, field.name)
    ]
    if unprintable:
        raise ValueError(
            f"The sheets cannot print {listed(unprintable)}: they print a game's "
            f"{listed(AGREED_RULES)}, and its pass_cycle in the words of --passing."
        )
    if isinstance(rules.pass_cycle, UsualCycle):
        chosen = passing
    elif passing is not None:
        raise ValueError("Give the passing once: --passing or the rules' pass_cycle, not both.")
    else:
        chosen = next(
            (word for word in PASSING if cycle_of(rules.players, word) == rules.pass_cycle), None
        )
        if chosen is None:
            raise ValueError(
                f"The sheets cannot print a pass cycle of {listed(rules.pass_cycle)}: they print "
                f"the passings of --passing ({listed(PASSING, 'or')})."
            )
    target = rules.target_score
    reset = rules.exactly_target_resets_to
    # At a game to 100, half the target is 50: said as the usual "drops back to 50".
    drops = {target // 2: "half", None: "none", 0: "zero", EXACT_FIFTY: "fifty"}
    if reset not in drops:
        raise ValueError(
            f"The sheets print a drop on the target to 0, to {EXACT_FIFTY} or to half the "
            f"target ({target // 2}), not to {reset}."
        )
    bonus = next(word for word, code in BONUS_CHOICES.items() if code == rules.bonus_card)
    agreed = Agreed(
        target=target,
        moon=rules.moon_rule,
        bonus=bonus,
        exact=drops[reset],
        tie=rules.tie_rule,
        sun=rules.shoot_the_sun,
        partnership=rules.partnership,
    )
    agreed.rules(rules.players, chosen)  # what the sheets check beyond the engine
    return chosen, agreed


def cycle_of(players: int, passing: str) -> tuple[str, ...] | None:
    """The pass cycle of a passing choice at this table; None where the table cannot play it."""
    try:
        return table_rules(players, passing).pass_cycle
    except ValueError:
        return None


INK = colors.HexColor("#1c1b1f")
MUTED = colors.HexColor("#55525c")
RED = colors.HexColor("#b3261e")
RULE = colors.HexColor("#8a8590")
SHADE = colors.HexColor("#f3efe7")
SHADE_DARK = colors.HexColor("#e6dfd2")

SUIT_GLYPHS = {"spades": "\u2660", "hearts": "\u2665", "diamonds": "\u2666", "clubs": "\u2663"}
RED_SUITS = {"hearts", "diamonds"}


def page_size(paper: str) -> tuple[float, float]:
    """Width and height in points of a paper name ("letter" or "a4").

    >>> page_size("a4")[0] < page_size("letter")[0]
    True
    """
    try:
        return PAPERS[paper.lower()]
    except KeyError:
        raise ValueError(f"Paper must be 'letter' or 'a4', not {paper!r}.") from None


def check_players(players: int) -> int:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(
            f"A Hearts score sheet is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}."
        )
    return players


def table_rules(players: int, passing: str | None = None) -> Rules:
    """The rules a sheet is printed for: the standard game at that table, and a passing choice.

    `passing` takes the scorekeeper's words: "standard" (left, right, across, hold with four
    players; left, right, hold otherwise), "no-hold" (the same without the hold), "across"
    (left, right, across, hold), "across-no-hold" (left, right, across), "scatter" (left,
    right, across, then one card to each) or "none". The three with "across" need an even
    table. None keeps the table's usual cycle (two decks pass nothing).

    >>> table_rules(4, "no-hold").pass_cycle
    ('left', 'right', 'across')
    >>> table_rules(6, "across").pass_cycle
    ('left', 'right', 'across', 'hold')
    >>> table_rules(8).pass_cycle
    ('hold',)
    """
    check_players(players)
    if passing is None:
        return Rules(players=players)
    four = players == len(STANDARD_CYCLE)
    cycles = {
        "standard": STANDARD_CYCLE if four else SMALL_TABLE_CYCLE,
        "no-hold": NO_HOLD_CYCLE if four else SMALL_TABLE_CYCLE[:-1],
        "across": STANDARD_CYCLE,
        "across-no-hold": NO_HOLD_CYCLE,
        "scatter": SCATTER_CYCLE,
        "none": ("hold",),
    }
    if passing not in cycles:
        choices = ", ".join(PASSING[:-1]) + f" or {PASSING[-1]}"
        raise ValueError(f"Passing must be {choices}, not {passing[:20]!r}.")
    try:
        return Rules(players=players, pass_cycle=cycles[passing])
    except ValueError:
        reason = f"nobody sits across with {players} players: passing across needs an even number."
        if passing.startswith("across"):
            raise ValueError(reason[0].upper() + reason[1:]) from None
        raise ValueError(
            f"{passing.capitalize()} passing has a round across, and {reason}"
        ) from None


def passes(rules: Rules) -> bool:
    """Does anyone pass at this table? (A cycle of hold rounds only means no passing.)"""
    return any(direction != "hold" for direction in rules.pass_cycle)


def pass_directions(rules: Rules, rounds: int) -> tuple[str, ...]:
    """The pass direction of each of the first `rounds` rounds ("none" without passing).

    >>> pass_directions(Rules(), 5)
    ('left', 'right', 'across', 'hold', 'left')
    """
    if not passes(rules):
        return ("none",) * rounds
    return tuple(rules.pass_direction(i) for i in range(rounds))


# ---------------------------------------------------------------------------------------------
# Drawing helpers


def suit(name: str, size: float | None = None) -> str:
    """Paragraph markup for a suit glyph in the Symbol font, red for hearts and diamonds."""
    colour = "#b3261e" if name in RED_SUITS else "#1c1b1f"
    size_attr = f' size="{size}"' if size else ""
    return f'<font name="Symbol" color="{colour}"{size_attr}>{SUIT_GLYPHS[name]}</font>'


def card(code: str, size: float | None = None) -> str:
    """Paragraph markup for one card: "2C" -> 2 and a club sign, "TD" -> 10 and a red diamond."""
    face = parse_card(code)
    rank = "10" if face.rank == RANK_NAMES.index("ten") else str(face)[0]
    return f"{rank}{suit(SUIT_NAMES[face.suit], size)}"


def card_words(code: str) -> str:
    """ "3C" -> "three of clubs"."""
    return parse_card(code).name


def card_list(codes: Sequence[str]) -> str:
    """Markup for cards left out of a deal, a pair of the same card as "2♦ 2♦"."""
    return " ".join(card(code) for code in codes)


QS = card("QS")


def draw_suit_row(canvas: Canvas, x: float, y: float, size: float, gap: float) -> float:
    """Draw the four suits left to right from (x, y); returns the x after the last one."""
    for name in ("spades", "hearts", "clubs", "diamonds"):
        canvas.setFillColor(RED if name in RED_SUITS else INK)
        canvas.setFont("Symbol", size)
        glyph = SUIT_GLYPHS[name]
        canvas.drawString(x, y, glyph)
        x += canvas.stringWidth(glyph, "Symbol", size) + gap
    return x


def new_canvas(buffer: io.BytesIO, size: tuple[float, float], title: str) -> Canvas:
    canvas = Canvas(buffer, pagesize=size, invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setAuthor("hearts")
    canvas.setSubject("Hearts, the card game")
    canvas.setCreator("hearts sheets")
    return canvas


# ---------------------------------------------------------------------------------------------
# Rule sheet


@dataclass(frozen=True)
class RuleStyles:
    body: ParagraphStyle
    step: ParagraphStyle
    heading: ParagraphStyle
    box_heading: ParagraphStyle
    box_body: ParagraphStyle


def rule_styles() -> RuleStyles:
    body = ParagraphStyle(
        "body", fontName="Helvetica", fontSize=10.5, leading=13, textColor=INK, alignment=TA_LEFT
    )
    return RuleStyles(
        body=body,
        step=ParagraphStyle("step", parent=body, spaceBefore=3),
        heading=ParagraphStyle(
            "heading",
            parent=body,
            fontName="Helvetica-Bold",
            fontSize=13,
            leading=15,
            textColor=RED,
            spaceBefore=6,
            spaceAfter=1.5,
        ),
        box_heading=ParagraphStyle(
            "box_heading",
            parent=body,
            fontName="Helvetica-Bold",
            fontSize=12.5,
            leading=15,
            textColor=INK,
            spaceAfter=3,
        ),
        box_body=ParagraphStyle(
            "box_body", parent=body, fontSize=9.3, leading=11.3, spaceBefore=1.5
        ),
    )


def numbered(number: int, title: str, text: str, style: ParagraphStyle) -> Paragraph:
    return Paragraph(
        f'<font name="Helvetica-Bold" color="#b3261e">{number}</font>&nbsp;&nbsp;'
        f"<b>{title}.</b> {text}",
        style,
    )


PASS_WORDS = {
    "left": "to the <b>left</b>",
    "right": "to the <b>right</b>",
    "across": "<b>across</b> the table",
    "scatter": "one card to each other player (a <b>scatter</b>)",
}


def cycle_words(rules: Rules) -> str:
    """ "left in round 1, right in round 2, ... nobody passes in round 4 (a keep round)"; a
    scatter says how much of the hand it gives, which at ten players is nearly all of it.

    >>> from hearts.rules import SCATTER_CYCLE
    >>> cycle_words(Rules(players=10, pass_cycle=SCATTER_CYCLE)).split(", and ")[1]
    'one card to each other player (a <b>scatter</b>: 9 of 10 cards) in round 4'
    """
    others = rules.players - 1
    words = {
        **PASS_WORDS,
        "scatter": PASS_WORDS["scatter"].removesuffix(")")
        + f": {others} of {rules.hand_size} cards)",
    }
    parts = [
        f"nobody passes in round {i + 1} (a <b>keep</b> round)"
        if direction == "hold"
        else f"{words[direction]} in round {i + 1}"
        for i, direction in enumerate(rules.pass_cycle)
    ]
    return ", ".join(parts[:-1]) + f", and {parts[-1]}"


def short_cycle(cycle: Sequence[str]) -> str:
    """ "left, right, then a keep round"."""
    words = [("a keep round" if d == "hold" else d) for d in cycle]
    return ", ".join(words[:-1]) + f", then {words[-1]}"


def deal_words(rules: Rules) -> str:
    """The deal, in the sheet's words, for one table.

    >>> deal_words(Rules(players=7))[:62]
    'Deal two 52-card decks shuffled together (no jokers) clockwise'
    """
    if rules.players == Rules().players and rules.decks == 1 and not rules.kitty:
        return (
            "Deal one 52-card deck (no jokers) clockwise: "
            f"{rules.hand_size} cards each with four players. The deal moves one seat left "
            "each round."
        )
    decks = "one 52-card deck" if rules.decks == 1 else "two 52-card decks shuffled together"
    removed = rules.removed_cards
    out = f" First take out the {card_list(removed)}." if removed else ""
    kitty = f" The {rules.kitty_size} left over lie face down: the kitty." if rules.kitty else ""
    return (
        f"Deal {decks} (no jokers) clockwise: {rules.hand_size} cards each with "
        f"{rules.players} players.{out}{kitty} The deal moves one seat left each round."
    )


def rule_columns(
    s: RuleStyles, table: Rules | None = None, agreed: bool = False
) -> tuple[list[Flowable], list[Flowable]]:
    """The text of the rule sheet, written for this project, as two columns of flowables.

    Every number that depends on the table (cards each, cards left out, who leads, the pass
    cycle, points a round) is read from `Rules`, so the sheet says what the engine plays.
    `agreed`: the table's scoring rules (moon, sun, target, bonus card, landing on the target,
    ties, partners) are its own, told as the rules, and other tables' are left out.
    """
    four, three, five = Rules(), Rules(players=3), Rules(players=5)
    here = table or four  # the table the steps describe: one printed for, or four players
    points = here.round_points
    left: list[Flowable] = [
        Paragraph("The aim", s.heading),
        Paragraph(
            "Take as few points as you can. Each heart you win in a trick costs "
            f"<b>1 point</b>, the queen of spades ({QS}) <b>13</b>"
            + (bonus_aim(here) if agreed else "")
            + ". "
            + (
                partners_aim(here) + "Aces are high; no trumps."
                if agreed and here.partnership
                else "Everyone plays alone; aces are high; no trumps."
            ),
            s.body,
        ),
        Paragraph("A round, step by step", s.heading),
        numbered(
            1,
            "Deal",
            deal_words(here),
            s.step,
        ),
        numbered(
            2,
            "Pass",
            f"Each player gives {here.pass_count} cards face down: "
            f"{cycle_words(here)}; then again from the start. Pass before you "
            "look at the cards coming to you."
            if passes(here)
            else "Nobody passes at this table: each plays the cards dealt.",
            s.step,
        ),
        numbered(
            3,
            "First trick",
            f"Whoever holds the {card_words(here.opening_card)} ({card(here.opening_card)}) "
            "leads it. Clockwise, everyone plays one card. No hearts and no queen of spades "
            "on this trick, unless your hand holds nothing else.",
            s.step,
        ),
        numbered(
            4,
            "Follow suit",
            "Play a card of the suit led if you can; if not, play any card (your chance to "
            "shed hearts and the queen). The highest card of the suit led wins the trick "
            "and its winner leads next.",
            s.step,
        ),
        numbered(
            5,
            "Breaking hearts",
            "Nobody may lead a heart until a heart has been played on an earlier trick, "
            "unless they hold only hearts.",
            s.step,
        ),
        numbered(
            6,
            "Count",
            f"Each player counts the hearts and {queens(here)} in "
            f"the tricks they won. The points of a round always add up to <b>{points}</b>: "
            "check it." + (bonus_count(here) if agreed else ""),
            s.step,
        ),
    ]
    if here.players == four.players and not agreed:
        # The four-player sheet tells the other one-deck tables in short; a sheet printed
        # for three or five says its own table in the steps (and a two-deck one has longer
        # steps), so it leaves this out rather than say another table's passing.
        left += [
            Paragraph("Three or five players", s.heading),
            Paragraph(
                f"Three players: take out the {card_list(three.removed_cards)} "
                f"({three.hand_size} cards each). Five: take out the "
                f"{card_list(five.removed_cards)} ({five.hand_size} each); the "
                f"{card_words(five.opening_card)} ({card(five.opening_card)}) then leads. "
                f"Passing goes {short_cycle(three.pass_cycle)}.",
                s.body,
            ),
        ]
    right: list[Flowable] = [
        Paragraph("Points at a glance", s.heading),
        points_table(s, points, here if agreed else None),
        Paragraph("Shooting the moon", s.heading),
        Paragraph(
            moon_words(here)
            if agreed
            else (
                f"Win <b>every</b> heart and {queens(here)} of spades in one round and you "
                "<b>shoot the moon</b>: you score 0 and every other player "
                f"scores {points}. Miss one heart and the points are all yours."
            ),
            s.body,
        ),
        Paragraph("End of the game", s.heading),
        Paragraph(
            end_words(here)
            if agreed
            else (
                "The game ends after the round in which someone reaches "
                f"<b>{four.target_score}</b> or more. The <b>lowest total wins</b>. Players tied "
                "for the lowest share the win; or, if your table agrees, play on until one "
                "player is lowest alone."
            ),
            s.body,
        ),
        # The two-deck rules on a sheet for their tables, and on the four-player sheet;
        # never on one printed for three or five, where they cannot apply.
        *(
            two_decks(s, named=table is not None)
            if here.decks > 1 or (here.players == four.players and not agreed)
            else []
        ),
    ]
    return left, right


def bonus_name(rules: Rules) -> str:
    """ "the jack of diamonds (J♦)", or "each jack of diamonds (J♦)" with two decks."""
    assert rules.bonus_card is not None
    each = "each" if rules.decks > 1 else "the"
    return f"{each} {card_words(rules.bonus_card)} ({card(rules.bonus_card)})"


def bonus_aim(rules: Rules) -> str:
    """What the aim adds for a table's bonus card: nothing without one."""
    if rules.bonus_card is None:
        return ""
    return f"; {bonus_name(rules)} takes <b>{BONUS_CARD_POINTS} off</b> whoever wins it"


def bonus_count(rules: Rules) -> str:
    """What the count adds for a table's bonus card: nothing without one."""
    if rules.bonus_card is None:
        return ""
    return (
        f" Then {bonus_name(rules)} takes {BONUS_CARD_POINTS} off its winner: "
        f"<b>{bonus_round_points(rules)}</b> in all."
    )


def partners_aim(rules: Rules) -> str:
    """What the aim says of a partnership table instead of "Everyone plays alone"."""
    return (
        "<b>Partners</b> sit across: players 1 and 3 play against 2 and 4, and each team's "
        "points are added together. "
    )


def moon_words(rules: Rules) -> str:
    """How this table scores a moon (and a sun, if it plays one), in the sheet's words.

    >>> moon_words(Agreed(moon="choose").rules(4)).split("</b>: ")[1][:48]
    'you choose: take 26 off your total, or every oth'
    """
    points = rules.round_points
    if rules.partnership:
        win = (
            f"Win <b>every</b> heart and {queens(rules)} of spades in one round between you "
            "and your partner, and your team <b>shoots the moon</b>: "
        )
        ways = {
            "add": f"you both score 0 and the other team scores {points} each.",
            "subtract": f"you both take <b>{points} off</b> and the other team scores 0.",
            "choose": f"your team chooses: both take {points} off, or the other team "
            f"scores {points} each.",
            "add-unless-losing": f"you both score 0 and the other team scores {points} each, "
            f"unless that ends the game with them winning: then you both take {points} off "
            "instead.",
        }
        sun = "Win <b>every trick</b> between you and your team <b>shoots the sun</b>"
    else:
        win = (
            f"Win <b>every</b> heart and {queens(rules)} of spades in one round and you "
            "<b>shoot the moon</b>: "
        )
        ways = {
            "add": f"you score 0 and every other player scores {points}.",
            "subtract": f"you take <b>{points} off</b> your total and every other player scores 0.",
            "choose": f"you choose: take {points} off your total, or every other player "
            f"scores {points}.",
            "add-unless-losing": f"you score 0 and every other player scores {points}, unless "
            f"that ends the game with someone else winning: then you take {points} off instead.",
        }
        sun = "Win <b>every trick</b> and you <b>shoot the sun</b>"
    text = win + ways[rules.moon_rule] + " Miss one heart and the points are all yours."
    if rules.shoot_the_sun:
        text += f" {sun}: it counts {2 * points}, scored the same way."
    if rules.bonus_card is not None:
        copies = "each" if rules.decks > 1 else "the"
        text += (
            f" {copies.capitalize()} {card_words(rules.bonus_card)} still takes "
            f"{BONUS_CARD_POINTS} off whoever won it."
        )
    return text


def end_words(rules: Rules) -> str:
    """How this table's game ends: its target, landing on it exactly, and a tie.

    >>> end_words(Agreed(target=50, exact="zero", tie="play-on").rules(4))[:68]
    'The game ends after the round in which someone reaches <b>50</b> or '
    """
    target = rules.target_score
    text = f"The game ends after the round in which someone reaches <b>{target}</b> or more."
    reset = rules.exactly_target_resets_to
    if reset is not None:
        text += f" A total of <b>exactly {target}</b> drops back to {reset} instead."
    text += " The <b>lowest total wins</b>."
    if rules.tie_rule == "play-on":
        text += " Players tied for the lowest <b>play on</b> until one is lowest alone."
    else:
        text += " Players tied for the lowest <b>share</b> the win."
    return text


def queens(rules: Rules) -> str:
    """ "the queen", or "both queens" with two decks."""
    return "both queens" if rules.decks > 1 else "the queen"


def two_decks(s: RuleStyles, named: bool = False) -> list[Flowable]:
    """Cancellation Hearts, 6 to 10 players, as the engine plays it. On a sheet `named` for
    one table its own pass step says who passes, so the usual way is not told here too."""
    tables = [Rules(players=n) for n in range(MAX_PLAYERS - 4, MAX_PLAYERS + 1)]
    rules = tables[0]
    small = ParagraphStyle("small", parent=s.body, fontSize=9.3, leading=11.3)
    rows = [
        [
            Paragraph(f"<b>{t.players}</b> players", small),
            Paragraph(f"{t.hand_size} each", small),
            Paragraph(card_list(t.removed_cards), small),
        ]
        for t in tables
    ]
    table = Table(rows, colWidths=[54, 46, 150], hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LINEBELOW", (0, 0), (-1, -2), 0.5, SHADE_DARK),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
                ("LEFTPADDING", (0, 0), (-1, -1), 2),
            ]
        )
    )
    return [
        Paragraph("Six to ten players: two decks", s.heading),
        Paragraph(
            "Shuffle two decks together, leave out the cards in the table and deal the "
            f"rest evenly. One {card(rules.opening_card)} is always left out, so whoever holds "
            f"the other {card(rules.opening_card)} leads. Identical cards on one trick "
            "<b>cancel</b>: neither can win it. If every card of the suit led cancels, "
            "the same player leads again and the next trick's winner takes the cards too "
            "(on the last trick, its leader does). A round holds "
            f"<b>{rules.round_points}</b> points; a moon "
            "takes them all." + ("" if named else " Usually nobody passes."),
            s.body,
        ),
        table,
    ]


def points_table(s: RuleStyles, points: int, rules: Rules | None = None) -> Table:
    """Points a card costs; with a table that plays a bonus card (`rules`), that card too."""
    big = ParagraphStyle("big", parent=s.body, fontName="Helvetica-Bold", fontSize=13.5, leading=15)
    bonus = rules.bonus_card if rules is not None else None
    rows = [
        [
            Paragraph(suit("hearts", 15), big),
            Paragraph("Each heart", s.body),
            Paragraph("1 point", big),
        ],
        [
            Paragraph(f"Q{suit('spades', 13.5)}", big),
            Paragraph("Queen of spades", s.body),
            Paragraph("13 points", big),
        ],
    ]
    if bonus is not None:
        rows.append(
            [
                Paragraph(card(bonus, 13.5), big),
                Paragraph(card_words(bonus).capitalize(), s.body),
                Paragraph(f"{BONUS_CARD_POINTS} off", big),
            ]
        )
    total = points if rules is None or bonus is None else bonus_round_points(rules)
    rows += [
        ["", Paragraph("Any other card", s.body), Paragraph("0", big)],
        ["", Paragraph("<b>Every round, in all</b>", s.body), Paragraph(str(total), big)],
    ]
    table = Table(rows, colWidths=[34, 120, 86], hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LINEBELOW", (0, 0), (-1, -2), 0.5, SHADE_DARK),
                ("LINEABOVE", (0, -1), (-1, -1), 1.0, INK),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
                ("LEFTPADDING", (0, 0), (-1, -1), 2),
            ]
        )
    )
    return table


def two_deck_rules() -> Rules:
    """The smallest table that plays with two decks (read from `Rules`, not assumed)."""
    return next(
        rules
        for rules in (Rules(players=n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))
        if rules.decks == 2
    )


def bonus_round_points(rules: Rules) -> int:
    """Points a round adds up to when the bonus card is played: every copy takes 10 off.

    >>> bonus_round_points(Rules()), bonus_round_points(Rules(players=8))
    (16, 32)
    """
    return rules.round_points - BONUS_CARD_POINTS * rules.decks


def or_list(words: Sequence[object]) -> str:
    """ "1, 2 or 4"."""
    text = [str(word) for word in words]
    return ", ".join(text[:-1]) + f" or {text[-1]}"


def _offered(table: Rules | None, **rule: object) -> bool:
    """Whether the house rule `rule` can be played at `table` (any table: some can)."""
    if table is None:
        return True
    try:
        Rules.from_dict({**table.to_dict(), **rule})
    except (ValueError, TypeError):
        return False
    return True


#: The house rules a scorekeeper's game has already settled: a sheet of its agreed rules
#: says them in the text, not in the box.
SETTLED: Final = (
    "Moon, other ways",
    "The sun",
    "Bonus card",
    "Exactly the target",
    "Partnership",
    "Shorter game",
)


def house_rules_box(
    s: RuleStyles, width: float, at: Rules | None = None, agreed: bool = False
) -> Table:
    """The common house rules; for one table (`at`), only those it can play, in its cards.
    With `agreed` rules (see `Agreed`), only those the scorekeeper does not settle."""
    one, two = Rules(), two_deck_rules()
    opening = (at or one).opening_card
    points, points_two = one.round_points, two.round_points
    kitty = Rules(kitty=True)
    target = one.target_score
    other_counts = [n for n in PASS_COUNTS if n != one.pass_count]
    items = [
        (
            "Moon, other ways",
            f"the shooter takes {points} off instead ({points_two} with two decks); or the "
            "shooter chooses; or the others get the points unless that ends the game with "
            "someone else winning.",
        ),
        (
            "The sun",
            f"win every trick and it counts {2 * points} ({2 * points_two} with two decks), "
            "scored like a moon.",
        ),
        (
            "Bonus card",
            f"the jack of diamonds ({card('JD')}), or the ten, takes {BONUS_CARD_POINTS} off "
            f"whoever wins it; a round then adds up to {bonus_round_points(one)}, or "
            f"{bonus_round_points(two)} with two decks (each copy counts).",
        ),
        ("Exactly the target", f"a total of exactly {target} drops to {target // 2}, or to 0."),
        (
            "Partnership",
            "four players, partners sitting across score as a team and shoot the moon "
            "together; they may also <b>pass to each other</b> every round.",
        ),
        (
            "The kitty",
            "one deck only; leave no card out: the spare ones lie face down (four players: "
            f"{kitty.hand_size} each, {kitty.kitty_size} down) for the first to win a point "
            "card.",
        ),
        (
            "Passing",
            f"pass {or_list(other_counts)} cards instead of {one.pass_count}; skip the keep "
            "round; or make it a scatter, one card to each other player.",
        ),
        (
            "Dealer's left leads",
            f"any card to the first trick, instead of the {card(opening)}.",
        ),
        (
            "Softer start",
            "points allowed on the first trick; or the Q" + suit("spades") + " breaks hearts too; "
            "or <b>hearts any time</b>: they may be led from the start.",
        ),
        (
            "Heart lead instead of the queen",
            f"holding only hearts and the {QS} before hearts break, you may lead a heart "
            "instead of the queen.",
        ),
        (
            "Queen at first chance",
            f"the {QS} must be played as soon as it is safe: when you cannot follow suit, or "
            f"when a higher spade is already on the trick.",
        ),
        ("Shorter game", f"play to {target // 2}."),
    ]
    playable = {
        "Partnership": _offered(at, partnership=True),
        "The kitty": _offered(at, kitty=True),
    }
    items = [(name, text) for name, text in items if playable.get(name, True)]
    heading = "House rules: agree on them before the first deal"
    if agreed:
        items = [(name, text) for name, text in items if name not in SETTLED]
        items = [
            (name, f"pass {or_list(other_counts)} cards instead of {one.pass_count}.")
            if name == "Passing"
            else (name, text)
            for name, text in items
        ]
        heading = "More house rules, if your table agrees before the first deal"
    col_width = (width - 24) / 2
    paragraphs = [Paragraph(f"<b>{name}:</b> {text}", s.box_body) for name, text in items]
    split = balanced_split(paragraphs, col_width - 6)
    rows = [
        [Paragraph(heading, s.box_heading), ""],
        [paragraphs[:split], paragraphs[split:]],
    ]
    table = Table(rows, colWidths=[col_width + 12, col_width + 12])
    table.setStyle(
        TableStyle(
            [
                ("SPAN", (0, 0), (1, 0)),
                ("BACKGROUND", (0, 0), (-1, -1), SHADE),
                ("BOX", (0, 0), (-1, -1), 1.2, RED),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 10),
                ("RIGHTPADDING", (0, 0), (-1, -1), 8),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                ("TOPPADDING", (0, 0), (-1, 0), 7),
                ("BOTTOMPADDING", (0, -1), (-1, -1), 8),
            ]
        )
    )
    return table


def balanced_split(paragraphs: Sequence[Paragraph], width: float) -> int:
    """Where to cut a list of paragraphs into two columns of about the same height."""
    heights = [p.wrap(width, 10_000)[1] + p.style.spaceBefore for p in paragraphs]
    return min(
        range(1, len(paragraphs)),
        key=lambda cut: max(sum(heights[:cut]), sum(heights[cut:])),
    )


def add_to_frame(canvas: Canvas, frame: Frame, flowables: list[Flowable]) -> None:
    """Lay flowables into a frame; raises if they do not fit, so a sheet never spills."""
    box = KeepInFrame(frame._aW, frame._aH, flowables, mode="error")
    frame.addFromList([box], canvas)


def table_lines(rules: Rules) -> tuple[str, str]:
    """What the title band says about one table: its size and deal, then its passing.

    >>> table_lines(table_rules(5, "no-hold"))
    ('For this table: 5 players, one deck, 10 cards each', 'Pass 3 cards in turn: left, right')
    >>> table_lines(table_rules(8))[1]
    'Nobody passes'
    >>> table_lines(table_rules(6, "scatter"))[1]
    'Pass 3 in turn: left, right, across, 1 to each'
    """
    decks = "one deck" if rules.decks == 1 else "two decks"
    size = f"For this table: {rules.players} players, {decks}, {rules.hand_size} cards each"
    if not passes(rules):
        return size, "Nobody passes"
    turns = ", ".join(PASS_LABELS[direction].lower() for direction in rules.pass_cycle)
    if "scatter" in rules.pass_cycle:  # a scatter passes one card to each, not pass_count
        turns = turns.replace(PASS_LABELS["scatter"].lower(), "1 to each")
        return size, f"Pass {rules.pass_count} in turn: {turns}"
    return size, f"Pass {rules.pass_count} cards in turn: {turns}"


def rule_sheet_pdf(
    paper: str = "letter",
    players: int | None = None,
    passing: str | None = None,
    agreed: Agreed | None = None,
) -> bytes:
    """The standard game of Hearts on one page, with a box of common house rules.

    Given `players` or `passing` (as for `score_sheet_pdf`; players default to the usual
    table's), the title band also names that table: its size, cards each and passing.
    Given the rules a table `agreed` on (a scorekeeper's game), the sheet tells those as the
    game's rules, and the box holds only the house rules they leave open.

    >>> b"/Count 1" in rule_sheet_pdf("a4")
    True
    >>> rule_sheet_pdf(players=5, passing="scatter")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Scatter passing has a round across, and nobody sits across with 5 players: ...
    """
    width, height = page_size(paper)
    table = None
    seats = Rules().players if players is None else players
    if agreed is not None:
        table = agreed.rules(seats, passing)
    elif players is not None or passing is not None:
        table = table_rules(seats, passing)
    styles = rule_styles()
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (width, height), "Hearts: the rules on one page")
    margin = 36.0
    inner = width - 2 * margin

    # Title band.
    top = height - margin
    canvas.setFillColor(INK)
    canvas.setFont("Helvetica-Bold", 34)
    canvas.drawString(margin, top - 30, "Hearts")
    draw_suit_row(
        canvas, margin + canvas.stringWidth("Hearts", "Helvetica-Bold", 34) + 14, top - 28, 24, 6
    )
    canvas.setFillColor(MUTED)
    canvas.setFont("Helvetica", 12)
    if table is None:
        canvas.drawRightString(width - margin, top - 14, "The whole game on one page")
        canvas.drawRightString(width - margin, top - 30, "3 to 10 players, best with 4")
    else:
        # The table's own choices, in ink: what this printout was made for.
        canvas.setFillColor(INK)
        for y, line in zip((top - 14, top - 30), table_lines(table), strict=True):
            canvas.drawRightString(width - margin, y, line)
    canvas.setStrokeColor(RED)
    canvas.setLineWidth(2)
    canvas.line(margin, top - 42, width - margin, top - 42)

    # House rules box at the foot of the page.
    box = house_rules_box(styles, inner, table, agreed is not None)
    _, box_height = box.wrap(inner, height)
    footer_y = margin - 14
    box_y = margin + 4
    box.drawOn(canvas, margin, box_y)

    # Two columns between the title and the box.
    gap = 20.0
    col_width = (inner - gap) / 2
    col_top = top - 46
    col_bottom = box_y + box_height + 6
    left, right = rule_columns(styles, table, agreed is not None)
    for index, flowables in enumerate((left, right)):
        frame = Frame(
            margin + index * (col_width + gap),
            col_bottom,
            col_width,
            col_top - col_bottom,
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
            showBoundary=0,
        )
        add_to_frame(canvas, frame, flowables)
    canvas.setStrokeColor(SHADE_DARK)
    canvas.setLineWidth(0.8)
    mid = margin + col_width + gap / 2
    canvas.line(mid, col_bottom + 6, mid, col_top - 8)

    canvas.setFillColor(MUTED)
    canvas.setFont("Helvetica", 8.5)
    canvas.drawString(
        margin,
        footer_y,
        "Keep score on the matching score sheet, or with the Hearts scorekeeper on a phone.",
    )
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


# ---------------------------------------------------------------------------------------------
# Score sheet

PASS_LABELS = {
    "left": "Left",
    "right": "Right",
    "across": "Across",
    "hold": "Keep",
    "scatter": "Scatter",
    "none": "Keep",
}


def draw_pass_arrow(canvas: Canvas, direction: str, x: float, y: float, size: float) -> None:
    """A small vector mark for a pass direction, centred on (x, y). Text always goes with it."""
    half = size / 2
    canvas.saveState()
    canvas.setStrokeColor(INK)
    canvas.setFillColor(INK)
    canvas.setLineWidth(1.2)
    if direction in ("left", "right", "across"):
        sign = {"left": -1.0, "right": 1.0}.get(direction, 0.0)
        if direction == "across":
            tip, tail = (x, y + half), (x, y - half)
            wing = ((x - half * 0.55, y + half * 0.35), (x + half * 0.55, y + half * 0.35))
        else:
            tip, tail = (x + sign * half, y), (x - sign * half, y)
            wing = (
                (x + sign * half * 0.35, y + half * 0.55),
                (x + sign * half * 0.35, y - half * 0.55),
            )
        canvas.line(tail[0], tail[1], tip[0], tip[1])
        path = canvas.beginPath()
        path.moveTo(*tip)
        path.lineTo(*wing[0])
        path.lineTo(*wing[1])
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
    elif direction == "hold":
        canvas.circle(x, y, half * 0.55, stroke=1, fill=0)
    elif direction == "scatter":
        # Spokes from the middle: one card to each other player.
        base = y - half * 0.6
        for dx, dy in ((-0.95, 0.3), (-0.5, 0.95), (0.5, 0.95), (0.95, 0.3)):
            canvas.line(x, base, x + dx * half, base + dy * half * 1.2)
            canvas.circle(x + dx * half, base + dy * half * 1.2, half * 0.16, stroke=0, fill=1)
    canvas.restoreState()


#: The least height of a score sheet's row, in points (6 mm): room to write a number with a pen.
#: Rounds that would make rows shorter go on to a second page (a sideways sheet of 30 rounds
#: had rows of 4.4 mm).
MIN_ROW_HEIGHT = 6 * 72 / 25.4
#: The space left each side of a column's "Points" and "Total", in points.
LABEL_PAD = 3.0
#: Room each side of a player's name in its column.
NAME_PAD = 4.0


def score_pages(rounds: int, fits: int) -> list[list[int | str]]:
    """The rows of each page of a score sheet: round numbers (from 1), "final" for the final
    total, and with two pages "on" (the foot of the first: the game goes on) and "carried"
    (the head of the second, where each total is brought over), balanced between the pages.
    `fits` is the most rows a page holds.

    >>> score_pages(12, 20)
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 'final']]
    >>> [(page[0], page[-2], page[-1]) for page in score_pages(30, 21)]
    [(1, 16, 'on'), ('carried', 30, 'final')]
    """
    numbers: list[int | str] = list(range(1, rounds + 1))
    if rounds + 1 <= fits:
        return [[*numbers, "final"]]
    first = (rounds + 2) // 2  # the second page also holds the carried and the final rows
    return [[*numbers[:first], "on"], ["carried", *numbers[first:], "final"]]


#: The longest name a score sheet takes, in characters (code points): room for the
#: scorekeeper's 24 letters, accents written as marks of their own, and a little more.
MAX_NAME_CHARS: Final = 64
#: The sheets' fonts (Helvetica, reportlab's standard fonts) hold the characters of
#: Windows-1252: Latin letters with the accents of western Europe, and a few more.
FONT_ENCODING: Final = "cp1252"
#: The bold of the names Helvetica cannot print, shipped with the package (its license beside
#: it): DejaVu Sans Bold, for the rest of Latin, Greek, Cyrillic and a few more alphabets.
UNICODE_FONT: Final = "DejaVuSans-Bold"
UNICODE_FONT_FILE: Final = Path(__file__).parent / "fonts" / "DejaVuSans-Bold.ttf"
#: Bidirectional classes of right-to-left text: reportlab lays every line out left to right,
#: so Hebrew would print backwards and Arabic backwards and unjoined, though the font has both.
RIGHT_TO_LEFT: Final = frozenset({"R", "AL", "AN"})
#: The bold of a name Helvetica prints, as every sheet has always printed it.
NAME_FONT: Final = "Helvetica-Bold"
#: Characters that print nothing, or do what a name must not: controls (a new line, a tab),
#: the invisible format characters (a zero-width space, a right-to-left override, a joiner),
#: line and paragraph separators, private-use, surrogate and unassigned code points.
HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})


def check_player_names(names: Sequence[str], players: int) -> tuple[str, ...]:
    """The players' names for a score sheet's columns, in seat order, trimmed; "" keeps a
    column unnamed. ValueError in a sentence for more names than players, a name too long, or
    one with a character that prints nothing (a control, an invisible character).

    >>> check_player_names([" Ann ", "", "Cy"], 4)
    ('Ann', '', 'Cy')
    >>> check_player_names(["Ann", "B\u200bob"], 4)
    Traceback (most recent call last):
    ...
    ValueError: Name 2 has a character that does not print (U+200B); write names in letters.
    """
    if len(names) > players:
        raise ValueError(
            f"A score sheet for {players} players takes {players} names at most, not {len(names)}."
        )
    out = []
    for number, name in enumerate(names, 1):
        if len(name) > MAX_NAME_CHARS:
            raise ValueError(
                f"Name {number} is {len(name)} characters long; keep names to {MAX_NAME_CHARS}."
            )
        hidden = next((c for c in name if unicodedata.category(c) in HIDDEN_CATEGORIES), None)
        if hidden is not None:
            raise ValueError(
                f"Name {number} has a character that does not print (U+{ord(hidden):04X}); "
                "write names in letters."
            )
        out.append(" ".join(name.split()))  # spaces within kept single, none at the ends
    return tuple(out)


_unicode_lock = threading.Lock()
_unicode_cover: frozenset[int] | None = None


def unicode_font_cover() -> frozenset[int]:
    """The code points `UNICODE_FONT` has a glyph for. The font is read and registered with
    reportlab the first time a name asks for it, once in the process; a sheet of names
    Helvetica prints never loads it."""
    global _unicode_cover
    with _unicode_lock:
        if _unicode_cover is None:
            font = TTFont(UNICODE_FONT, str(UNICODE_FONT_FILE))
            pdfmetrics.registerFont(font)
            _unicode_cover = frozenset(font.face.charToGlyph)
        return _unicode_cover


def name_font(name: str) -> str | None:
    """The font a name is printed in: Helvetica-Bold where it holds every character (as
    always), else DejaVu Sans Bold where that does, or None where neither can print it well.
    DejaVu is not asked to print a right-to-left script (it would come out backwards) or a
    picture symbol such as an emoji or a suit (they print in outline, or not at all).

    >>> [name_font(n) for n in ("Zoë Ångström", "Łukasz", "Ольга", "王小明", "Ana 😀", "דוד")]
    ['Helvetica-Bold', 'DejaVuSans-Bold', 'DejaVuSans-Bold', None, None, None]
    """
    text = unicodedata.normalize("NFC", name)
    try:
        text.encode(FONT_ENCODING)
    except UnicodeEncodeError:
        pass
    else:
        return NAME_FONT
    cover = unicode_font_cover()
    if all(
        ord(c) in cover
        and unicodedata.bidirectional(c) not in RIGHT_TO_LEFT
        and unicodedata.category(c) != "So"
        for c in text
    ):
        return UNICODE_FONT
    return None


def printable(name: str) -> bool:
    """Can a sheet print the name in one of its fonts (`name_font`)? ("Zoë" and "Łukasz" yes,
    "王" no: it would print as black boxes.)"""
    return name_font(name) is not None


def fitted_name(
    name: str, width: float, font: str, largest: float, smallest: float
) -> tuple[tuple[str, ...], float]:
    """The lines and font size to print a name in `width`: one line, or two broken at a space,
    at the largest size that fits, down to `smallest`; past that two lines, the second cut
    with an ellipsis.

    >>> fitted_name("Ann", 60, "Helvetica-Bold", 11, 7)
    (('Ann',), 11)
    >>> fitted_name("Maximiliane Konstantin", 60, "Helvetica-Bold", 11, 7)
    (('Maximiliane', 'Konstantin'), 10.5)
    >>> fitted_name("Maximiliane Konstantinopoulos", 60, "Helvetica-Bold", 11, 7)
    (('Maximiliane', 'Konstantinopo…'), 7)
    """
    text = unicodedata.normalize("NFC", name)

    def fits(line: str, size: float) -> bool:
        return bool(pdfmetrics.stringWidth(line, font, size) <= width)

    size = largest
    while size >= smallest:
        if fits(text, size):
            return (text,), size
        lines = simpleSplit(text, font, size, width)
        if len(lines) == 2 and all(fits(line, size) for line in lines):
            return tuple(lines), size
        size -= 0.5
    cut = len(text)
    while cut > 1 and not fits(text[:cut], smallest):
        cut -= 1
    first, space, _ = text[:cut].rpartition(" ")
    first = first if space and first else text[:cut]
    rest = text[len(first) :].strip()
    if fits(rest, smallest):  # a long word broken in two, whole
        return (first, rest), smallest
    while rest and not fits(rest + "\u2026", smallest):
        rest = rest[:-1]
    return (first, rest.rstrip() + "\u2026"), smallest


def score_sheet_pdf(
    players: int = 4,
    paper: str = "letter",
    rounds: int = DEFAULT_ROUNDS,
    passing: str | None = None,
    agreed: Agreed | None = None,
    names: Sequence[str] = (),
) -> bytes:
    """A score sheet laid out for keeping the score of a Hearts game by hand.

    With the rules a table `agreed` on, its target, moon rule and bonus card are filled in
    and the reminders at the foot are its own. The players' `names` (`check_player_names`)
    head their columns, shrunk or cut to fit, in Helvetica where it can print them and in
    DejaVu Sans where not ("Łukasz", "Ольга"); a column without one, or with one neither font
    prints (`printable`: Chinese, emoji), keeps "Player N" and room to write it in.

    A column per player (points of the round and running total), a row per round with its
    pass direction printed, and a final row. Seven or more players turn the page sideways;
    rounds that would leave a row under `MIN_ROW_HEIGHT` go on to a second page (`score_pages`).
    `passing` is one of `PASSING` (see `table_rules`); None is the table's usual cycle.

    >>> b"/Count 1" in score_sheet_pdf(players=6)
    True
    >>> b"/Count 2" in score_sheet_pdf(players=8, rounds=30)
    True
    >>> score_sheet_pdf(players=11)
    Traceback (most recent call last):
    ...
    ValueError: A Hearts score sheet is for 3 to 10 players, not 11.
    """
    rules = table_rules(players, passing) if agreed is None else agreed.rules(players, passing)
    heads = check_player_names(names, players)
    if not MIN_ROUNDS <= rounds <= MAX_ROUNDS:
        raise ValueError(f"A score sheet has {MIN_ROUNDS} to {MAX_ROUNDS} rounds, not {rounds}.")
    size = page_size(paper)
    if players >= 7:
        size = landscape(size)
    width, height = size
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, size, f"Hearts score sheet for {players} players")
    margin = 32.0
    footer_height = 30.0
    table_top = height - margin - 48 - 16  # under the title and the fill-in fields
    room = table_top - (margin + footer_height) - SCORE_HEADER_HEIGHT
    pages = score_pages(rounds, int(room // MIN_ROW_HEIGHT))
    row_h = room / max(len(page) for page in pages)
    directions = pass_directions(rules, rounds)
    for number, rows in enumerate(pages, 1):
        page = f"page {number} of {len(pages)}" if len(pages) > 1 else ""
        draw_score_heading(canvas, rules, width, height, margin, page, agreed is not None)
        draw_score_table(
            canvas, rules, rows, directions, (margin, width - margin), table_top, row_h, heads
        )
        # Footer reminders.
        footer_style = ParagraphStyle(
            "footer", fontName="Helvetica", fontSize=9, leading=11.5, textColor=MUTED
        )
        footer = Paragraph(" ".join(footer_lines(rules, agreed is not None)), footer_style)
        _, footer_h = footer.wrap(width - 2 * margin, footer_height)
        footer.drawOn(canvas, margin, margin + footer_height - 6 - footer_h)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


#: The height of the score table's header: the players' names, then "Points" and "Total".
NAME_HEIGHT, SUB_HEIGHT = 34.0, 16.0
SCORE_HEADER_HEIGHT = NAME_HEIGHT + SUB_HEIGHT


#: A moon rule in a score sheet's "Moon rule" field, with the points of a round.
MOON_FIELD = {
    "add": "others get {points}",
    "subtract": "shooter takes {points} off",
    "choose": "shooter chooses",
    "add-unless-losing": "others get {points} unless losing",
}


def score_fields(rules: Rules) -> dict[str, str]:
    """What a sheet of agreed rules writes in its fields.

    >>> score_fields(Agreed(target=50, moon="choose", bonus="jack").rules(4))
    {'Game to': '50', 'Moon rule': 'shooter chooses', 'Bonus card': 'jack of diamonds'}
    """
    bonus = "none" if rules.bonus_card is None else card_words(rules.bonus_card)
    moon = MOON_FIELD[rules.moon_rule].format(points=rules.round_points)
    return {"Game to": str(rules.target_score), "Moon rule": moon, "Bonus card": bonus}


def draw_score_heading(
    canvas: Canvas,
    rules: Rules,
    width: float,
    height: float,
    margin: float,
    page: str,
    agreed: bool = False,
) -> None:
    """The title, what the table plays (and the page, of two), and the fill-in fields (with
    `agreed` rules, those filled in)."""
    top = height - margin
    canvas.setFillColor(INK)
    canvas.setFont("Helvetica-Bold", 24)
    title = "Hearts score sheet"
    canvas.drawString(margin, top - 22, title)
    draw_suit_row(
        canvas, margin + canvas.stringWidth(title, "Helvetica-Bold", 24) + 12, top - 21, 17, 4
    )
    canvas.setFont("Helvetica", 10.5)
    canvas.setFillColor(MUTED)
    deck_text = "one deck" if rules.decks == 1 else "two decks"
    pass_text = "" if passes(rules) else ", no passing"
    page_text = f", {page}" if page else ""
    canvas.drawRightString(
        width - margin, top - 10, f"{rules.players} players, {deck_text}{pass_text}{page_text}"
    )
    canvas.drawRightString(
        width - margin, top - 24, f"Each round's points add up to {rules.round_points}"
    )
    field_y = top - 48
    canvas.setFont("Helvetica", 11)
    canvas.setFillColor(INK)
    fields = (("Date", 92.0), ("Game to", 40.0), ("Moon rule", 100.0), ("Bonus card", 56.0))
    if agreed:
        fields = (("Date", 72.0), ("Game to", 30.0), ("Moon rule", 130.0), ("Bonus card", 86.0))
    filled = score_fields(rules) if agreed else {}
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.7)
    # Stretch (or shrink) the fill-in lines so the four fields fill the width exactly.
    gap = 16.0
    label_widths = [canvas.stringWidth(label, "Helvetica", 11) + 5 for label, _ in fields]
    room = width - 2 * margin - sum(label_widths) - gap * (len(fields) - 1)
    scale = room / sum(w for _, w in fields)
    x = margin
    for (label, line_width), label_width in zip(fields, label_widths, strict=True):
        canvas.drawString(x, field_y, label)
        start = x + label_width
        canvas.line(start, field_y - 2, start + line_width * scale, field_y - 2)
        if label in filled:  # written on its line, smaller if it would run past the end
            room_w = line_width * scale - 4
            font = min(11.0, room_w / canvas.stringWidth(filled[label], "Helvetica-Bold", 1))
            canvas.setFont("Helvetica-Bold", font)
            canvas.drawString(start + 2, field_y, filled[label])
            canvas.setFont("Helvetica", 11)
        x = start + line_width * scale + gap


def draw_score_table(
    canvas: Canvas,
    rules: Rules,
    rows: Sequence[int | str],
    directions: Sequence[str],
    edges: tuple[float, float],
    table_top: float,
    row_h: float,
    names: Sequence[str] = (),
) -> None:
    """One page's table: the header (the players' `names`, see `score_sheet_pdf`), then `rows`
    (see `score_pages`) of height `row_h`."""
    players = rules.players
    left, right = edges
    round_w, pass_w = 40.0, (64.0 if passes(rules) else 50.0)
    player_w = (right - left - round_w - pass_w) / players
    name_h, sub_h = NAME_HEIGHT, SUB_HEIGHT
    first_row_top = table_top - name_h - sub_h
    bottom = first_row_top - len(rows) * row_h
    players_left = left + round_w + pass_w
    # A row that is not a round's spans the round and pass columns with its label.
    spanned = {i for i, row in enumerate(rows) if isinstance(row, str)}

    # Shading: header, alternate rows, the rows that are not rounds.
    canvas.setFillColor(SHADE)
    canvas.rect(left, first_row_top, right - left, name_h + sub_h, stroke=0, fill=1)
    for r, row in enumerate(rows):
        y = first_row_top - (r + 1) * row_h
        if r in spanned:
            canvas.setFillColor(SHADE_DARK)
        elif isinstance(row, int) and row % 2 == 0:
            canvas.setFillColor(colors.HexColor("#faf8f4"))
        else:
            continue
        canvas.rect(left, y, right - left, row_h, stroke=0, fill=1)

    # Grid lines.
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.5)
    for r in range(len(rows) + 1):
        y = first_row_top - r * row_h
        canvas.line(left, y, right, y)
    canvas.line(players_left, table_top - name_h, right, table_top - name_h)
    for p in range(players):
        middle = players_left + p * player_w + player_w / 2
        canvas.line(
            middle, table_top - name_h, middle, bottom + row_h if rows[-1] == "on" else bottom
        )
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(1.2)
    canvas.rect(left, bottom, right - left, table_top - bottom, stroke=1, fill=0)
    for r in range(len(rows)):  # the round column's line, broken where a label spans it
        if r not in spanned:
            y = first_row_top - r * row_h
            canvas.line(left + round_w, y, left + round_w, y - row_h)
    canvas.line(left + round_w, table_top, left + round_w, first_row_top)
    cells_bottom = bottom + row_h if rows[-1] == "on" else bottom  # that row is one label
    for p in range(players):
        x0 = players_left + p * player_w
        canvas.line(x0, table_top, x0, cells_bottom)
    canvas.line(left, first_row_top, right, first_row_top)
    for r in spanned:
        for y in (first_row_top - r * row_h, first_row_top - (r + 1) * row_h):
            canvas.line(left, y, right, y)

    # Header text.
    canvas.setFillColor(INK)
    canvas.setFont("Helvetica-Bold", 10)
    header_mid = table_top - (name_h + sub_h) / 2 - 3.5
    canvas.drawCentredString(left + round_w / 2, header_mid, "Round")
    canvas.drawCentredString(left + round_w + pass_w / 2, header_mid, "Pass")
    # "Points" fits its half of the column with room each side (at 10 players it touched).
    widest = max(canvas.stringWidth(w, "Helvetica-Bold", 1) for w in ("Points", "Total"))
    sub_font = min(9.0, (player_w / 2 - 2 * LABEL_PAD) / widest)
    for p in range(players):
        x0 = players_left + p * player_w
        name = names[p] if p < len(names) else ""
        font = name_font(name) if name else None
        if font is not None:
            lines, size = fitted_name(name, player_w - 2 * NAME_PAD, font, 11, 7)
            canvas.setFont(font, size)
            canvas.setFillColor(INK)
            leading = size * 1.15
            first_y = table_top - name_h / 2 + (len(lines) - 1) * leading / 2 - size * 0.35
            for n, line in enumerate(lines):
                canvas.drawCentredString(x0 + player_w / 2, first_y - n * leading, line)
        else:
            canvas.setFont("Helvetica", 8)
            canvas.setFillColor(MUTED)
            canvas.drawString(x0 + 4, table_top - 10, f"Player {p + 1}")
        canvas.setFont("Helvetica-Bold", sub_font)
        canvas.setFillColor(INK)
        sub_y = first_row_top + 5
        canvas.drawCentredString(x0 + player_w / 4, sub_y, "Points")
        canvas.drawCentredString(x0 + 3 * player_w / 4, sub_y, "Total")

    # Rows: number and pass direction, or what a row that is not a round is for.
    number_font = min(12.0, row_h * 0.5)
    labels = {
        "final": "Final total",
        "carried": "From page 1",
        "on": "Continued on page 2: carry each total over.",
    }
    for r, row in enumerate(rows):
        y_mid = first_row_top - (r + 0.5) * row_h
        canvas.setFillColor(INK)
        if isinstance(row, str):
            canvas.setFont("Helvetica-Bold", number_font)
            canvas.drawString(left + 6, y_mid - number_font * 0.35, labels[row])
            continue
        canvas.setFont("Helvetica-Bold", number_font)
        canvas.drawCentredString(left + round_w / 2, y_mid - number_font * 0.35, str(row))
        direction = directions[row - 1]
        label = PASS_LABELS[direction]
        canvas.setFont("Helvetica", min(10.0, row_h * 0.45))
        if direction == "none":
            canvas.setFillColor(MUTED)
            canvas.drawCentredString(left + round_w + pass_w / 2, y_mid - 3.4, label)
        else:
            draw_pass_arrow(canvas, direction, left + round_w + 10, y_mid, min(10.0, row_h * 0.5))
            canvas.drawString(left + round_w + 19, y_mid - 3.4, label)


def footer_lines(rules: Rules, agreed: bool = False) -> Sequence[str]:
    decks = rules.decks
    total = rules.round_points
    jack = "the jack of diamonds takes" if decks == 1 else "both jacks of diamonds take"
    bonus = f" ({total - 10 * decks} when {jack} 10 off)"
    if agreed:  # the table's own bonus card, or none
        face = rules.bonus_card
        name = "" if face is None else card_words(face).split(" of ")[0]
        taken = f"the {name} of diamonds takes" if decks == 1 else f"both {name}s of diamonds take"
        bonus = "" if face is None else f" ({bonus_round_points(rules)} when {taken} 10 off)"
    deal = f"{rules.hand_size} cards each"
    if rules.removed_cards:
        deal += f", leave out {card_list(rules.removed_cards)}"
    return (
        f"Deal {deal}. Each heart 1 point, {'the' if decks == 1 else 'each'} queen of spades"
        f" 13: every round adds up to {total}{bonus}.",
        f"Moon: the shooter scores 0 and everyone else {total}, unless your table plays "
        "another moon rule."
        if not agreed
        else agreed_moon_line(rules),
        "The game ends after the round in which someone reaches the target; the lowest total wins."
        if not agreed
        else agreed_end_line(rules),
    )


def agreed_moon_line(rules: Rules) -> str:
    """The foot's moon reminder for a table's own moon rule (and sun, and partners)."""
    total = rules.round_points
    words = {
        "add": f"the shooter scores 0 and everyone else {total}",
        "subtract": f"the shooter takes {total} off and everyone else scores 0",
        "choose": f"the shooter chooses: {total} off, or {total} to everyone else",
        "add-unless-losing": f"everyone else gets {total}, unless that ends the game with "
        f"someone else winning: then the shooter takes {total} off",
    }
    line = f"Moon: {words[rules.moon_rule]}."
    if rules.shoot_the_sun:
        line += f" Sun (every trick): {2 * total}, scored the same way."
    if rules.partnership:
        line += " Partners: players 1 and 3 against 2 and 4, a team's points added together."
    return line


def agreed_end_line(rules: Rules) -> str:
    """The foot's reminder of a table's own target, landing on it, and ties."""
    target = rules.target_score
    line = f"The game ends after the round in which someone reaches {target}"
    if rules.exactly_target_resets_to is not None:
        line += f" (exactly {target} drops back to {rules.exactly_target_resets_to})"
    tie = "a tie for the lowest plays on" if rules.tie_rule == "play-on" else "a tie shares it"
    return line + f"; the lowest total wins, {tie}."


# ---------------------------------------------------------------------------------------------
# Files


def write_sheets(
    out_dir: Path,
    paper: str = "letter",
    players: int | None = None,
    rounds: int = DEFAULT_ROUNDS,
    passing: str | None = None,
    agreed: Agreed | None = None,
    names: Sequence[str] = (),
) -> list[Path]:
    """Write the rule sheet and the score sheet into out_dir; returns their paths.

    Given `players` or `passing`, the rule sheet names that table too; the score sheet is for
    four players unless told otherwise. With the rules a table `agreed` on, both sheets are
    that game's, as the web routes print them (the rule sheet names the table, four players
    unless told), and the players' `names` head the score sheet's columns. Each file's name
    says its table, so sheets for two tables can share a folder: rules-letter.pdf (every
    table), rules-5p-letter.pdf, score-4p-letter.pdf, score-4p-no-hold-letter.pdf.
    """
    page_size(paper)
    seats = Rules().players if players is None else players
    named = players is not None or passing is not None or agreed is not None
    # Checks every choice first.
    rules = rule_sheet_pdf(paper, seats if named else None, passing, agreed)
    score = score_sheet_pdf(seats, paper, rounds, passing, agreed, names)
    out_dir.mkdir(parents=True, exist_ok=True)
    paper = paper.lower()
    table = f"{seats}p" + (f"-{passing.lower()}" if passing else "")
    outputs: list[tuple[Path, bytes]] = [
        (out_dir / (f"rules-{table}-{paper}.pdf" if named else f"rules-{paper}.pdf"), rules),
        (out_dir / f"score-{table}-{paper}.pdf", score),
    ]
    for path, data in outputs:
        path.write_bytes(data)
    return [path for path, _ in outputs]
