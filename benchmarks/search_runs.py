"""How often the card winning the trick parts a run of cards that play alike.

Usage: python benchmarks/search_runs.py [--rounds 300]

Plays --rounds rounds of four medium players and, at every follow with a choice of cards,
counts the search's candidates (`search.representatives`: one per run of cards that play
alike) as it groups them now and as it did before 2026-12-05, when the cards on the trick
counted as gone and a run could span the card winning the trick (the 7♥ ducking under the
8♥ and the 9♥ going over it were one candidate).
"""

from __future__ import annotations

import argparse

from hearts import Game, Rules
from hearts.ai import make_player
from hearts.ai.search import representatives
from hearts.ai.tracking import QUEEN, SUIT_FACES, Knowledge, bonus_face


def grouped_before(know: Knowledge) -> dict[int, int]:
    """`representatives` as it was: every card played, the trick's included, counted gone."""
    special = QUEEN | bonus_face(know.rules)
    gone = know.played | know.hand
    result: dict[int, int] = {}
    for suit in range(4):
        previous = -1
        for face in (f for f in range(13 * suit, 13 * suit + 13) if know.legal >> f & 1):
            alike = (
                previous >= 0
                and not (special >> face & 1 or special >> previous & 1)
                and all(gone >> f & 1 for f in range(previous + 1, face))
            )
            result[face] = result[previous] if alike else face
            previous = face
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    follows = parted = before = now = 0
    for seed in range(args.rounds):
        game = Game(Rules(), seed)
        players = [make_player("medium", seed=f"{seed}:{s}") for s in range(4)]
        while not game.results:
            if game.phase == "passing":
                for seat in game.round.waiting_to_pass():
                    game.give(seat, players[seat].choose_pass(game.view(seat)))
                continue
            seat = game.round.turn
            assert seat is not None
            view = game.view(seat)
            know = Knowledge.from_view(view)
            if know.trick and len(view.legal) > 1:
                led = know.trick[0][1] // 13
                if know.legal & SUIT_FACES[led]:
                    follows += 1
                    old = len(set(grouped_before(know).values()))
                    new = len(set(representatives(know).values()))
                    parted += old != new
                    before += old
                    now += new
            game.play(players[seat].choose_play(view))
    print(
        f"{follows} follows with a choice; the winning card parted a run in {parted} "
        f"({100 * parted / follows:.1f}%); candidates a follow {before / follows:.2f} before, "
        f"{now / follows:.2f} now"
    )


if __name__ == "__main__":
    main()
