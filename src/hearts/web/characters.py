"""The three computer opponents: names, a line of character each, and how their faces look.

Each has a `style` (`hearts.ai.STYLES`) that the searching levels play with: Marisol is
careful with the queen and seldom tries the moon, Bertie tries it readily, Tamsin between.

Seats run clockwise from the person (seat 0): seat 1 sits on the person's left, seat 2
across, seat 3 on the right. The face fields are read by the front end's SVG face drawer.
"""

from __future__ import annotations

from typing import Any, Final

OPPONENTS: Final[tuple[dict[str, Any], ...]] = (
    {
        "seat": 1,
        "style": "marisol",
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
        "seat": 2,
        "style": "bertie",
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
        "seat": 3,
        "style": "tamsin",
        "name": "Tamsin",
        "blurb": "Crossword setter. Quiet, patient, and hard to read.",
        "face": {"skin": "#8d5a3b", "hair": "#d9d2c5", "style": "bob", "extra": "glasses"},
        "quips": {
            "queen": "Thirteen letters: misfortune.",
            "moon": "A full set. How tidy.",
            "clean": "Nothing to declare.",
        },
    },
)

STYLE_BY_SEAT: Final = {o["seat"]: o["style"] for o in OPPONENTS}

LEVELS: Final = ("easy", "medium", "hard", "expert")
LEVEL_NOTES: Final = {
    "easy": "Plays safe, simple cards and misses tricks a sharp player would see.",
    "medium": "Tracks what has been played and passes with a plan.",
    "hard": "Thinks ahead through likely deals; slower and much tougher.",
    "expert": "Searches deeper, plans its pass and works out the last tricks exactly.",
}
