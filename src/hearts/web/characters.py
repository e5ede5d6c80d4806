"""The computer opponents: names, a line of character each, and how their faces look.

Nine of them, enough for the largest table (ten seats). The computer players of a table
take them in order, in seat order (`cast`): at a table of one person and N - 1 computer
players, the first N - 1 characters; the state names each seat's character by its `id`.
Each has three lines of each kind of quip (the queen taken, a moon, a round with nothing
taken), which the page takes in turn round by round: one line every clean round read as a
loop. The face fields are read by the front end's SVG face drawer (styles: bun, curls, bob;
extras: cap, toque, glasses or none).

The first three have a playing `style` (`hearts.ai.STYLES`) that the searching levels play
with: Marisol is careful with the queen and seldom tries the moon, Bertie tries it readily,
Tamsin between. The others play the plain game.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

OPPONENTS: Final[tuple[dict[str, Any], ...]] = (
    {
        "style": "marisol",
        "id": "marisol",
        "name": "Marisol",
        "blurb": "Retired ferry captain. Counts every card and never panics.",
        "face": {"skin": "#c68863", "hair": "#2b2b2b", "style": "bun", "extra": "cap"},
        "quips": {
            "queen": (
                "Noted. Filed. Not forgiven.",
                "Rough crossing, that one.",
                "Man overboard: me.",
            ),
            "moon": (
                "Steady as she goes. All of it.",
                "Full hold, captain's share.",
                "Every heart brought safe to harbour.",
            ),
            "clean": ("Calm waters.", "Flat sea, no cargo.", "A smooth passage."),
        },
    },
    {
        "style": "bertie",
        "id": "bertie",
        "name": "Bertie",
        "blurb": "Night-shift baker. Loves a gamble and will try for the moon.",
        "face": {"skin": "#f1c9a5", "hair": "#b5651d", "style": "curls", "extra": "toque"},
        "quips": {
            "queen": (
                "Ouch. That one was still warm.",
                "Burnt the whole batch.",
                "Who put that in my oven?",
            ),
            "moon": ("Every last crumb!", "The whole bakery, fresh out!", "Risen to the top!"),
            "clean": ("Light as a sponge.", "Not a crumb on me.", "Clean tins tonight."),
        },
    },
    {
        "style": "tamsin",
        "id": "tamsin",
        "name": "Tamsin",
        "blurb": "Crossword setter. Quiet, patient, and hard to read.",
        "face": {"skin": "#8d5a3b", "hair": "#d9d2c5", "style": "bob", "extra": "glasses"},
        "quips": {
            "queen": (
                "Bad luck, ten letters: misfortune.",
                "Five letters, thirteen points.",
                "One across: unwelcome lady.",
            ),
            "moon": ("A full set. How tidy.", "Every square filled.", "Solved, in ink."),
            "clean": ("Nothing to declare.", "Blank grid.", "No clues taken."),
        },
    },
    {
        "id": "oskar",
        "name": "Oskar",
        "blurb": "Beekeeper. Slow to lead, quick to duck a trick.",
        "face": {"skin": "#e0ac82", "hair": "#6b4f2a", "style": "curls", "extra": "glasses"},
        "quips": {
            "queen": (
                "Stung, and I saw it coming.",
                "The queen bee, of course.",
                "Right in the smoker.",
            ),
            "moon": (
                "The whole hive. Every drop.",
                "A bumper harvest.",
                "All the honey, none of the stings.",
            ),
            "clean": ("Not a sting on me.", "Quiet hive today.", "The bees behaved."),
        },
    },
    {
        "id": "priya",
        "name": "Priya",
        "blurb": "Air-traffic controller. Keeps every card in its lane.",
        "face": {"skin": "#a86f4c", "hair": "#1d1a1a", "style": "bob", "extra": "none"},
        "quips": {
            "queen": (
                "Unscheduled arrival.",
                "She was not on my flight plan.",
                "Diverted to my runway.",
            ),
            "moon": (
                "Cleared for landing: all of it.",
                "Every flight on my strip.",
                "Full traffic, zero delays.",
            ),
            "clean": ("Clear skies.", "Nothing on the radar.", "Quiet shift."),
        },
    },
    {
        "id": "dunstan",
        "name": "Dunstan",
        "blurb": "Retired bus driver. Chatty, generous, and sneakier than he looks.",
        "face": {"skin": "#f3d2b3", "hair": "#9a9a9a", "style": "bob", "extra": "cap"},
        "quips": {
            "queen": (
                "Well, that's my stop.",
                "Fare dodger, that queen.",
                "Terminus for me, then.",
            ),
            "moon": (
                "All aboard, and nobody else.",
                "Full route, every stop.",
                "Standing room only: mine.",
            ),
            "clean": ("Exact fare, no change.", "Empty bus, on time.", "No passengers this run."),
        },
    },
    {
        "id": "ngozi",
        "name": "Ngozi",
        "blurb": "Chess coach. Plans three tricks ahead and smiles about it.",
        "face": {"skin": "#6e4330", "hair": "#111111", "style": "bun", "extra": "none"},
        "quips": {
            "queen": (
                "A sacrifice. Temporarily.",
                "I allowed that. Mostly.",
                "A gambit that went wrong.",
            ),
            "moon": ("Checkmate, in hearts.", "Every piece, every square.", "Mate in thirteen."),
            "clean": ("A quiet positional game.", "Solid, nothing hanging.", "A draw with myself."),
        },
    },
    {
        "id": "felix",
        "name": "Felix",
        "blurb": "Street magician. Loves a surprise, even when it is on him.",
        "face": {"skin": "#d9a07a", "hair": "#3a2314", "style": "curls", "extra": "none"},
        "quips": {
            "queen": (
                "And for my next trick, I vanish.",
                "Pick a card. Not that one.",
                "The queen was up my sleeve all along.",
            ),
            "moon": (
                "Ta-da! Every heart.",
                "Abracadabra: all of them!",
                "The full deck, by magic.",
            ),
            "clean": (
                "Nothing up my sleeve.",
                "Empty hands, see?",
                "Now you see them, now you don't.",
            ),
        },
    },
    {
        "id": "agnieszka",
        "name": "Agnieszka",
        "blurb": "Librarian. Remembers every card and says nothing.",
        "face": {"skin": "#f0c8a8", "hair": "#c9a25a", "style": "bun", "extra": "glasses"},
        "quips": {
            "queen": (
                "Overdue, and now fined.",
                "Returned to the wrong shelf.",
                "That one was not on my list.",
            ),
            "moon": (
                "The complete collection.",
                "Every volume, catalogued.",
                "The full set, signed.",
            ),
            "clean": ("Shh. Nothing taken.", "Nothing borrowed.", "Quiet in the stacks."),
        },
    },
)


def cast(seats: Iterable[int], then: Iterable[int] = ()) -> dict[int, dict[str, Any]]:
    """The character at each of these seats (the computer players'), in order, and after
    them at the seats of `then` (filled later: a table of friends' seats nobody took), so
    that a seat's character never changes when another seat is filled.

    >>> {seat: c["name"] for seat, c in cast([3]).items()}
    {3: 'Marisol'}
    >>> {seat: c["name"] for seat, c in cast([3], then=[2]).items()}
    {3: 'Marisol', 2: 'Bertie'}
    """
    order = sorted(seats) + sorted(set(then) - set(seats))
    return dict(zip(order, OPPONENTS, strict=False))


def cast_by_seat(players: int, host: int, seats: Iterable[int]) -> dict[int, dict[str, Any]]:
    """The character at each of these seats when characters go by seat: the first on the
    host's left, the next after, round the table, whoever sits at the others. So the start
    screen, the lobby and the table name the same character at a seat, whichever friends
    come (`cast` moved the ones after a friend's seat when nobody took it).

    >>> {seat: c["name"] for seat, c in cast_by_seat(4, 0, [1, 3]).items()}
    {1: 'Marisol', 3: 'Tamsin'}
    >>> {seat: c["name"] for seat, c in cast_by_seat(4, 2, [0, 3]).items()}
    {0: 'Bertie', 3: 'Marisol'}
    """
    round_the_table = [(host + step) % players for step in range(1, players)]
    by_seat = dict(zip(round_the_table, OPPONENTS, strict=False))
    return {seat: by_seat[seat] for seat in sorted(seats)}


LEVELS: Final = ("easy", "medium", "hard", "expert")
LEVEL_NOTES: Final = {
    "easy": "Plays safe, simple cards and misses tricks a sharp player would see.",
    "medium": "Tracks what has been played and passes with a plan.",
    "hard": "Thinks ahead through likely deals; slower and much tougher.",
    "expert": "Searches three times deeper, plans its pass, reads who has shed the queen.",
}
