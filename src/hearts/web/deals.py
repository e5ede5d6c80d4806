"""A shuffle anyone can check: a new web game is keyed (`Game(..., keyed=True)`), so each
round is dealt from its own deal key, an HMAC of the game's secret.

While a round is played the state carries its `commitment` (the SHA-256 of its key, hex);
once it is over its result carries the `deal_key`, and
`hearts.Round.deal(rules, seed=deal_key, hand_number=N)` deals exactly the hands played.
The secret itself never leaves the server until the game is over.

Games stored before keyed deals have an integer seed and are dealt from it as they always
were: in the web layer a seed that is text means a keyed game, an integer an old one.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from .. import Game, Rules
from ..record import replay

Seed = int | str
"""A stored game's seed: a secret (text) for a keyed game, an integer for an older one."""

#: Random bytes in a new game's secret (256 bits: the deal keys derived from it have 128).
SECRET_BYTES = 32


def new_secret() -> str:
    return secrets.token_hex(SECRET_BYTES)


def is_keyed(seed: Seed) -> bool:
    return isinstance(seed, str)


def new_game(rules: Rules, seed: Seed) -> Game:
    return Game(rules, seed, keyed=is_keyed(seed))


def replayed(rules: Rules, seed: Seed, actions: Sequence[object]) -> Game:
    """A stored game rebuilt from its record, keyed or not as it was made."""
    return replay(rules, seed, actions, keyed=is_keyed(seed))


def commitment(game: Game) -> dict[str, Any]:
    """`{"commitment": sha256 hex}` while a keyed game's round is being played, else `{}`."""
    if not game.keyed or game.is_over or game.round.phase == "over":
        return {}
    return {"commitment": game.commitment(game.hand_number)}


def results(game: Game) -> list[dict[str, Any]]:
    """Each finished round's result; in a keyed game with the key it was dealt from."""
    found = []
    for result in game.results:
        entry = result.to_dict()
        if game.keyed:
            entry["deal_key"] = game.deal_key(result.hand_number)
        found.append(entry)
    return found
