"""Computer players: legal under every rule, honest (the view only), deterministic."""

from __future__ import annotations

import pickle
import random

import pytest

from hearts import CARDS, PRESETS, Game, Round, Rules, play_out
from hearts.ai import LEVELS, Player, choose_moon, make_player
from hearts.ai.medium import MediumPlayer, explain_play
from hearts.ai.search import distinct_candidates
from hearts.ai.tracking import HEARTS_FACES, QUEEN, SUIT_FACES, Knowledge, lowest, partner_of
from hearts.cards import Card
from hearts.record import actions_of
from hearts.view import PlayerView

SMALL_BUDGET = 24  # playouts: enough to exercise the search, cheap enough for a unit test

VARIANTS = [
    *(Rules.preset(name) for name in PRESETS),
    Rules(players=3),
    Rules(players=5),
    Rules(players=6),
    Rules(players=9),
    Rules(kitty=True),
    Rules(players=3, kitty=True),
    Rules(partnership=True, partners_pass=True),
    Rules(first_lead="dealer-left"),
    Rules(points_on_first_trick=True, must_break_hearts=False),
    Rules(lead_hearts_instead_of_queen=True),
    Rules(moon_rule="choose", shoot_the_sun=True),
    Rules(moon_rule="add-unless-losing", bonus_card="TD"),
    Rules(players=5, pass_cycle=("scatter",)),
]


def bot(level: str, seed: int) -> Player:
    return make_player(level, seed=seed, budget=SMALL_BUDGET if level == "hard" else None)


def play_game(rules: Rules, levels: list[str], seed: int, max_rounds: int) -> Game:
    """Play through the driver and `Game`, which refuse any illegal pass or card."""
    game = Game(rules, seed=seed)
    bots = [bot(levels[s % len(levels)], seed * 10 + s) for s in range(rules.players)]
    for _ in range(max_rounds):
        for _event in play_out(game, bots, next_round=False):
            pass
        if game.is_over:
            break
        game.next_round()
    return game


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: repr(r.to_dict())[:60])
def test_every_level_plays_legally_under_every_rule(rules: Rules) -> None:
    game = play_game(rules, ["hard", "medium", "easy", "random"], seed=3, max_rounds=2)
    assert len(game.results) >= 1
    moves = [a for a in actions_of(game) if a["type"] == "play"]
    assert len(moves) >= rules.hand_size * rules.players


def test_many_standard_rounds_stay_legal() -> None:
    game = play_game(Rules(target_score=60), ["medium", "easy", "medium", "hard"], 11, 30)
    assert game.is_over
    assert sum(game.results[0].points_taken) == 26


def _swap_hidden_cards(rnd: Round, seat: int) -> tuple[Round, int, int]:
    """The same round with one same-suit card swapped between two other seats' dealt hands,
    both cards unpassed and unplayed: `seat` cannot tell the two rounds apart."""
    n = rnd.players
    others = [s for s in range(n) if s != seat]
    touched = rnd.played_mask
    for s in range(n):
        touched |= (rnd.given[s] or 0) | (rnd.received[s] or 0)
    for a in others:
        for b in others:
            if a >= b:
                continue
            for suit in range(4):
                block = 0x1FFF << (13 * suit)
                mine_a = rnd.dealt[a] & block & ~touched
                mine_b = rnd.dealt[b] & block & ~touched
                if mine_a and mine_b:
                    card_a = mine_a & -mine_a
                    card_b = mine_b & -mine_b
                    dealt = list(rnd.dealt)
                    dealt[a] = dealt[a] ^ card_a | card_b
                    dealt[b] = dealt[b] ^ card_b | card_a
                    twin = Round(
                        rnd.rules,
                        dealt,
                        pass_direction=rnd.pass_direction,
                        dealer=rnd.dealer,
                        hand_number=rnd.hand_number,
                    )
                    return twin, a, b
    raise AssertionError("no two other seats share an untouched suit")


def test_players_decide_from_the_view_alone() -> None:
    """Two rounds that differ only in cards the seat cannot see get the same decisions."""
    rules = Rules()
    rnd = Round.deal(rules, seed=21, hand_number=0)
    helpers = [make_player("medium", seed=s) for s in range(4)]
    passes = []
    for seat in range(4):
        cards = helpers[seat].choose_pass(rnd.view(seat))
        passes.append(cards)
        rnd.give(seat, cards)
    plays = []
    for _ in range(17):  # four tricks and a card
        card = helpers[rnd.turn].choose_play(rnd.view(rnd.turn))
        plays.append(card)
        rnd.play(card)
    seat = rnd.turn
    twin, a, b = _swap_hidden_cards(rnd, seat)
    for s in range(4):
        twin.give(s, passes[s])
    for card in plays:
        twin.play(card)
    assert twin.hand_mask(a) != rnd.hand_mask(a) and twin.hand_mask(b) != rnd.hand_mask(b)
    assert twin.view(seat) == rnd.view(seat)
    for level in LEVELS:
        first = make_player(level, seed=5, budget=200).choose_play(rnd.view(seat))
        second = make_player(level, seed=5, budget=200).choose_play(twin.view(seat))
        assert first == second, level


@pytest.mark.parametrize("level", LEVELS)
def test_passes_are_decided_from_the_view_alone(level: str) -> None:
    """The searched passes (hard, expert) sample the other hands; they must not peek."""
    for hand_number in range(3):
        rnd = Round.deal(Rules(), seed=30 + hand_number, hand_number=hand_number)
        twin, a, _ = _swap_hidden_cards(rnd, 0)
        assert twin.hand_mask(a) != rnd.hand_mask(a)
        assert twin.view(0) == rnd.view(0)
        first = make_player(level, seed=2, budget=80).choose_pass(rnd.view(0))
        second = make_player(level, seed=2, budget=80).choose_pass(twin.view(0))
        assert first == second, level


@pytest.mark.parametrize("level", LEVELS)
def test_fixed_seed_and_budget_repeat_every_decision(level: str) -> None:
    rnd = Round.deal(Rules(), seed=8, hand_number=1)
    first, second = make_player(level, 4, 60), make_player(level, 4, 60)
    for seat in range(4):
        view = rnd.view(seat)
        cards = first.choose_pass(view)
        assert cards == second.choose_pass(view)
        rnd.give(seat, cards)
    while rnd.phase == "playing":
        view = rnd.view(rnd.turn)
        card = first.choose_play(view)
        assert card == second.choose_play(view)
        rnd.play(card)


@pytest.mark.parametrize("level", LEVELS)
def test_players_survive_pickling(level: str) -> None:
    """The web game rebuilds players in a process pool; a copy decides as the original."""
    player = make_player(level, seed="game-7:2", budget=40)
    copy = pickle.loads(pickle.dumps(player))
    rnd = Round.deal(Rules(), seed=2, hand_number=3)
    view = rnd.view(rnd.turn)
    assert copy.choose_play(view) == player.choose_play(view)
    assert isinstance(copy, Player)


def test_asking_out_of_turn_is_refused_plainly() -> None:
    rnd = Round.deal(Rules(), seed=6, hand_number=0)
    waiting = (rnd.turn + 1) % 4
    for level in LEVELS:
        player = make_player(level, seed=1)
        with pytest.raises(ValueError, match="no card to play now"):
            player.choose_play(rnd.view(0))
        cards = player.choose_pass(rnd.view(waiting))
        assert len(cards) == 3
    for seat in range(4):
        rnd.give(seat, rnd.hand(seat)[:3])
    with pytest.raises(ValueError, match="nothing to pass"):
        make_player("hard").choose_pass(rnd.view(0))
    with pytest.raises(ValueError, match="no card to play now"):
        make_player("hard").choose_play(rnd.view((rnd.turn + 1) % 4))


def test_bad_levels_and_budgets_are_refused() -> None:
    with pytest.raises(ValueError, match="not a level"):
        make_player("grandmaster")
    with pytest.raises(ValueError, match="budget"):
        make_player("hard", budget=0)
    with pytest.raises(ValueError, match="budget"):
        make_player("hard", budget=True)


def _moon_round(scores: list[int], rules: Rules) -> Round:
    """Seat 0 holds every club, so it wins every trick and everyone else's points."""
    rnd = Round.deal(rules, seed=0, hand_number=3)
    deck = [c for h in range(4) for c in rnd.hand(h)]
    clubs = [c for c in deck if c.suit == 0]
    rest = [c for c in deck if c.suit != 0]
    hands = [clubs, rest[0:13], rest[13:26], rest[26:39]]
    rnd = Round.from_hands(rules, hands, "hold", scores=scores)
    players = [make_player("medium", seed=s) for s in range(4)]
    while rnd.phase == "playing":
        rnd.play(players[rnd.turn].choose_play(rnd.view(rnd.turn)))
    assert rnd.points_taken[0] == 26
    return rnd


def test_moon_choice_takes_the_game_when_it_can() -> None:
    rules = Rules(moon_rule="choose")
    # Adding 26 ends the game with us lowest: add.
    assert choose_moon(_moon_round([10, 80, 85, 90], rules).view(0)) == "add"
    # Adding 26 would end the game with seat 2 lowest: subtract instead.
    assert choose_moon(_moon_round([80, 75, 10, 90], rules).view(0)) == "subtract"
    assert make_player("hard").choose_moon(_moon_round([80, 75, 10, 90], rules).view(0)) == (
        "subtract"
    )


def test_tracking_sees_voids_and_passed_cards() -> None:
    rnd = Round.deal(Rules(), seed=4, hand_number=0)
    players = [make_player("medium", seed=s) for s in range(4)]
    for seat in range(4):
        rnd.give(seat, players[seat].choose_pass(rnd.view(seat)))
    while len(rnd.tricks) < 6:
        rnd.play(players[rnd.turn].choose_play(rnd.view(rnd.turn)))
    know = Knowledge.from_view(rnd.view(0))
    for seat in range(4):
        for suit in range(4):
            if know.voids[seat] >> suit & 1:
                assert not rnd.hand_mask(seat) & (0x1FFF << (13 * suit))
    left = rnd.pass_recipients(0)[0]
    passed = rnd.given[0]
    assert passed is not None
    assert know.known[left] == passed & ~rnd.played_mask
    assert know.known[left] & rnd.hand_mask(left) == know.known[left]
    hidden = 0
    for seat in range(1, 4):
        hidden |= rnd.hand_mask(seat)
    assert know.unseen == hidden


def test_touching_cards_are_one_candidate() -> None:
    rules = Rules()
    hands = [
        ["2C", "3C", "4C", "9D", "TD", "JD", "2H", "3H", "QS", "KS", "5S", "6S", "8S"],
        ["5C", "6C", "7C", "8C", "2D", "3D", "4D", "4H", "5H", "6H", "2S", "3S", "4S"],
        ["9C", "TC", "JC", "QC", "5D", "6D", "7D", "7H", "8H", "9H", "7S", "9S", "TS"],
        ["KC", "AC", "8D", "QD", "KD", "AD", "TH", "JH", "QH", "KH", "AH", "JS", "AS"],
    ]
    rnd = Round.from_hands(rules, hands, "hold")
    rnd.play("2C")
    rnd.play("5C")
    rnd.play("9C")
    rnd.play("KC")
    rnd.play("AD")  # seat 3 won and leads diamonds; seat 0 follows
    know = Knowledge.from_view(rnd.view(0))
    # 9D, TD and JD touch: one candidate.
    assert [str(CARDS[f]) for f in distinct_candidates(know)] == ["9D"]
    for card in ("9D", "2D", "5D", "JS"):  # seat 3 wins the diamonds and leads a spade
        rnd.play(card)
    # QS has points of its own and 8S is apart from 6S (7S is out): 5S, 8S, QS, KS.
    spades = [str(CARDS[f]) for f in distinct_candidates(Knowledge.from_view(rnd.view(0)))]
    assert spades == ["5S", "8S", "QS", "KS"]


def test_random_level_is_uniform_enough_to_be_a_floor() -> None:
    rnd = Round.deal(Rules(), seed=1, hand_number=3)
    rnd.play("2C")
    view = rnd.view(rnd.turn)
    assert len(view.legal) > 1
    rng = random.Random(0)
    seen = {make_player("random", seed=str(rng.random())).choose_play(view) for _ in range(40)}
    assert seen == set(view.legal)


class _Watched(MediumPlayer):
    """A medium player whose every card is noted with what it knew when it chose it."""

    def __init__(self, seed: int, seen: list[tuple[Knowledge, int, str]]) -> None:
        super().__init__(seed=seed)
        self.seen = seen

    def pick_play(self, view: PlayerView) -> Card:
        know = Knowledge.from_view(view)
        face, rule = explain_play(know)
        self.seen.append((know, face, rule))
        return super().pick_play(view)


def test_medium_partners_take_a_point_from_a_side_that_has_every_one() -> None:
    # Two medium partners ducked every trick, so two random players shot the moon as a team
    # in a third of their rounds: a team needs its own defence, a point taken in time.
    rules = Rules(partnership=True)
    seen: list[tuple[Knowledge, int, str]] = []
    for seed in range(40):
        game = Game(rules, seed=f"partners:{seed}")
        seats: list[Player] = [
            _Watched(seed * 4 + s, seen) if s % 2 == 0 else make_player("random", seed=s)
            for s in range(rules.players)
        ]
        for _event in play_out(game, seats, next_round=False):
            pass
    took = blocked = 0
    for know, face, rule in seen:
        alone = know.sole_point_takers()
        if alone is None or not know.trick or know.legal & (know.legal - 1) == 0:
            continue
        winner = know.winning_seat()
        led = know.trick[0][1] // 13
        follow = know.legal & SUIT_FACES[led]
        if follow and winner in alone[0] and know.trick_points():
            above = follow & ~((1 << know.winning_face()) - 1) & ~QUEEN  # type: ignore[operator]
            if above:
                assert face == lowest(above) and rule in ("stop-moon", "stop-team"), rule
                took += 1
        last = len(know.trick) == know.players - 1
        partner = partner_of(rules, know.seat)
        if not follow and last and winner == partner and know.legal & HEARTS_FACES:
            assert (1 << face) & HEARTS_FACES and rule == "block-moon", (rule, face)
            blocked += 1
    assert took >= 20 and blocked >= 5, (took, blocked)
