"""The computer opponents: names, a line of character each, and how their faces look.

Nine of them, enough for the largest table (ten seats). The computer players of a table
take them in order, in seat order (`cast`): at a table of one person and N - 1 computer
players, the first N - 1 characters; the state names each seat's character by its `id`.
The face fields are read by the front end's SVG face drawer (styles: bun, curls, bob;
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
            "queen": "Noted. Filed. Not forgiven.",
            "moon": "Steady as she goes. All of it.",
            "clean": "Calm waters.",
        },
    },
    {
        "style": "bertie",
        "id": "bertie",
        "name": "Bertie",
        "blurb": "Night-shift baker. Loves a gamble and will try for the moon.",
        "face": {"skin": "#f1c9a5", "hair": "#b5651d", "style": "curls", "extra": "toque"},
        "quips": {
            "queen": "Ouch. That one was still warm.",
            "moon": "Every last crumb!",
            "clean": "Light as a sponge.",
        },
    },
    {
        "style": "tamsin",
        "id": "tamsin",
        "name": "Tamsin",
        "blurb": "Crossword setter. Quiet, patient, and hard to read.",
        "face": {"skin": "#8d5a3b", "hair": "#d9d2c5", "style": "bob", "extra": "glasses"},
        "quips": {
            "queen": "Bad luck, ten letters: misfortune.",
            "moon": "A full set. How tidy.",
            "clean": "Nothing to declare.",
        },
    },
    {
        "id": "oskar",
        "name": "Oskar",
        "blurb": "Beekeeper. Slow to lead, quick to duck a trick.",
        "face": {"skin": "#e0ac82", "hair": "#6b4f2a", "style": "curls", "extra": "glasses"},
        "quips": {
            "queen": "Stung, and I saw it coming.",
            "moon": "The whole hive. Every drop.",
            "clean": "Not a sting on me.",
        },
    },
    {
        "id": "priya",
        "name": "Priya",
        "blurb": "Air-traffic controller. Keeps every card in its lane.",
        "face": {"skin": "#a86f4c", "hair": "#1d1a1a", "style": "bob", "extra": "none"},
        "quips": {
            "queen": "Unscheduled arrival.",
            "moon": "Cleared for landing: all of it.",
            "clean": "Clear skies.",
        },
    },
    {
        "id": "dunstan",
        "name": "Dunstan",
        "blurb": "Retired bus driver. Chatty, generous, and sneakier than he looks.",
        "face": {"skin": "#f3d2b3", "hair": "#9a9a9a", "style": "bob", "extra": "cap"},
        "quips": {
            "queen": "Well, that's my stop.",
            "moon": "All aboard, and nobody else.",
            "clean": "Exact fare, no change.",
        },
    },
    {
        "id": "ngozi",
        "name": "Ngozi",
        "blurb": "Chess coach. Plans three tricks ahead and smiles about it.",
        "face": {"skin": "#6e4330", "hair": "#111111", "style": "bun", "extra": "none"},
        "quips": {
            "queen": "A sacrifice. Temporarily.",
            "moon": "Checkmate, in hearts.",
            "clean": "A quiet positional game.",
        },
    },
    {
        "id": "felix",
        "name": "Felix",
        "blurb": "Street magician. Loves a surprise, even when it is on him.",
        "face": {"skin": "#d9a07a", "hair": "#3a2314", "style": "curls", "extra": "none"},
        "quips": {
            "queen": "And for my next trick, I vanish.",
            "moon": "Ta-da! Every heart.",
            "clean": "Nothing up my sleeve.",
        },
    },
    {
        "id": "agnieszka",
        "name": "Agnieszka",
        "blurb": "Librarian. Remembers every card and says nothing.",
        "face": {"skin": "#f0c8a8", "hair": "#c9a25a", "style": "bun", "extra": "glasses"},
        "quips": {
            "queen": "Overdue, and now fined.",
            "moon": "The complete collection.",
            "clean": "Shh. Nothing taken.",
        },
    },
)


def cast(seats: Iterable[int]) -> dict[int, dict[str, Any]]:
    """The character at each of these seats (the computer players'), in order."""
    return dict(zip(sorted(seats), OPPONENTS, strict=False))


LEVELS: Final = ("easy", "medium", "hard", "expert")
LEVEL_NOTES: Final = {
    "easy": "Plays safe, simple cards and misses tricks a sharp player would see.",
    "medium": "Tracks what has been played and passes with a plan.",
    "hard": "Thinks ahead through likely deals; slower and much tougher.",
    "expert": "Searches three times deeper, plans its pass, reads who has shed the queen.",
}
