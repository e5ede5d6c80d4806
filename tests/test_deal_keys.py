"""A shuffle anyone can check: each round of a keyed game is dealt from its own key, whose
SHA-256 is known while the round is played and which is revealed when it ends."""

from __future__ import annotations

import hashlib

import pytest

from hearts import Game, Round, Rules
from hearts.record import dumps, loads

from helpers import play_game


@pytest.mark.parametrize("players", [4, 3, 8])
def test_every_round_is_dealt_from_its_key(players: int) -> None:
    game = Game(Rules(players=players, target_score=60), seed="a secret of the server", keyed=True)
    dealt: list[tuple[int, ...]] = []

    def remember(g: Game) -> None:
        if not g.round.tricks and not g.round.trick and len(dealt) == g.hand_number:
            dealt.append(g.round.dealt)

    remember(game)
    play_game(game, on_step=remember)
    assert len(dealt) == len(game.results) >= 2
    keys = [game.deal_key(n) for n in range(len(dealt))]
    assert len(set(keys)) == len(keys) and all(len(k) == 32 for k in keys)  # 128 bits
    for number, key in enumerate(keys):
        assert hashlib.sha256(key.encode()).hexdigest() == game.commitment(number)
        again = Round.deal(Rules(players=players, target_score=60), seed=key, hand_number=number)
        assert again.dealt == dealt[number]


def test_a_key_tells_nothing_of_the_next_round() -> None:
    game = Game(Rules(), seed=12345, keyed=True)
    assert game.deal_key(1) != game.deal_key(0)
    other = Game(Rules(), seed=12346, keyed=True)
    assert other.deal_key(0) != game.deal_key(0)
    # The seed itself does not deal the round: only its key does.
    assert Round.deal(Rules(), seed=12345, hand_number=0).dealt != game.round.dealt


def test_a_keyed_record_replays_keyed() -> None:
    game = play_game(Game(Rules(target_score=30), seed=7, keyed=True))
    again = loads(dumps(game))
    assert again.keyed and again.scores == game.scores and again.round.dealt == game.round.dealt
