"""The hard player's parts: deal sampling and the heuristic playout."""

from __future__ import annotations

import dataclasses
import random
import time

import pytest

from hearts import Round, Rules
from hearts.ai import make_player, sampling
from hearts.ai.racing import _paired
from hearts.ai.rollout import (
    FEATURES,
    VALUED_WEIGHTS_FILE,
    WEIGHTS_FILE,
    Position,
    SharedNumbers,
    Table,
    _card_score,
    card_features,
    draw_numbers,
    learned_weights,
    numbers_needed,
    play_numbers,
    play_out,
    round_scores,
)
from hearts.ai.sampling import Sampler, sample_deal
from hearts.ai.search import EXPERT, ExpertPlayer, _position
from hearts.ai.tracking import QUEEN, SUIT_FACES, Knowledge, fold, queen_shy
from hearts.cards import CardSet, points_of
from hearts.scoring import score_round

RULES = [
    Rules(),
    Rules(players=3),
    Rules(players=5, pass_cycle=("scatter",)),
    Rules(kitty=True),
    Rules(bonus_card="JD", queen_breaks_hearts=True),
    Rules(points_on_first_trick=True, queen_at_first_chance=True),
    Rules(first_lead="dealer-left", must_break_hearts=False),
    Rules(partnership=True, moon_rule="choose", shoot_the_sun=True),
]


def rounds_in_play(rules: Rules, seed: int) -> list[Round]:
    """Snapshots of one medium-played round, one per trick."""
    rnd = Round.deal(rules, seed=seed, hand_number=seed)
    bots = [make_player("medium", seed=s) for s in range(rules.players)]
    if rnd.phase == "passing":
        for seat in range(rules.players):
            rnd.give(seat, bots[seat].choose_pass(rnd.view(seat)))
    snapshots = []
    step = 0
    while rnd.phase == "playing":
        if step % (rules.players + 1) == 0:
            snapshots.append(rnd.copy())
        rnd.play(bots[rnd.turn].choose_play(rnd.view(rnd.turn)))
        step += 1
    return snapshots


@pytest.mark.parametrize("rules", RULES, ids=lambda r: str(r.players))
def test_sampled_deals_fit_everything_the_seat_knows(rules: Rules) -> None:
    rng = random.Random(1)
    for seed in range(3):
        for rnd in rounds_in_play(rules, seed):
            seat = rnd.turn
            view = rnd.view(seat)
            know = Knowledge.from_view(view)
            kitty_size = view.kitty_size if rules.kitty and view.kitty_taker is None else 0
            for _ in range(5):
                hands, kitty = sample_deal(know, view.hand_sizes, kitty_size, rng)
                assert hands[seat] == fold(view.hand_mask)
                assert [h.bit_count() for h in hands] == list(view.hand_sizes)
                assert kitty.bit_count() == kitty_size
                union = kitty
                for s, hand in enumerate(hands):
                    assert not union & hand, "a card dealt twice"
                    union |= hand
                    assert hand & know.known[s] == know.known[s]
                    for suit in range(4):
                        if know.voids[s] >> suit & 1:
                            assert not hand & (0x1FFF << (13 * suit))
                assert union == know.unseen | fold(view.hand_mask)


def holder_of_the_queen(rnd: Round) -> int | None:
    return next((s for s in range(rnd.rules.players) if fold(rnd.view(s).hand_mask) & QUEEN), None)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: str(r.players))
def test_the_queen_is_read_away_only_from_seats_that_let_it_go(rules: Rules) -> None:
    """Medium drops the Q♠ at every clear chance, so a seat read as lacking it never holds it;
    and seats are read so (on every rule set but partnership, which is not read)."""
    marked = 0
    for seed in range(4):
        for rnd in rounds_in_play(rules, seed):
            shy = queen_shy(rnd.view(rnd.turn))
            holder = holder_of_the_queen(rnd)
            assert holder is None or holder == rnd.turn or not shy >> holder & 1
            assert not shy >> rnd.turn & 1
            marked += shy.bit_count()
    assert (marked == 0) == rules.partnership


def test_deals_put_the_queen_away_from_seats_read_as_lacking_it() -> None:
    rules = Rules()
    read = 0
    for seed in range(6):
        for rnd in rounds_in_play(rules, seed):
            view = rnd.view(rnd.turn)
            shy = queen_shy(view)
            if not shy:
                continue
            read += 1
            know = Knowledge.from_view(view)
            sure = Sampler(know, view.hand_sizes, 0, shy, trust=1.0)
            rng = random.Random(seed)
            for _ in range(20):
                hands, _ = sure.sample(rng)
                assert [h.bit_count() for h in hands] == list(view.hand_sizes)
                for s, hand in enumerate(hands):
                    for suit in range(4):
                        if know.voids[s] >> suit & 1:
                            assert not hand & (0x1FFF << (13 * suit))
                    # Every seat may be read as lacking it; then the queen goes anywhere.
                    if hand & QUEEN and shy | 1 << view.seat != (1 << rules.players) - 1:
                        assert not shy >> s & 1
    assert read > 5


@pytest.mark.parametrize(
    "policy", ["medium", "fitted-leads", "learned", "learned-medium-discard", "valued"]
)
@pytest.mark.parametrize("rules", RULES, ids=lambda r: str(r.players))
def test_playouts_are_legal_and_score_like_the_engine(rules: Rules, policy: str) -> None:
    """A playout's cards, replayed through `Round`, are all legal and give the same points
    (with every playout policy: medium's, the fitted leads, the learned ones)."""
    rng = random.Random(2)
    table = Table.of(rules)
    if policy == "fitted-leads":
        table = table.with_fitted_leads()
    elif policy == "learned":
        table = table.with_learned_policy()
    elif policy == "learned-medium-discard":
        learned = table.with_learned_policy().learned
        table = dataclasses.replace(table, learned=(*learned[:2], ()))
    elif policy == "valued":
        table = table.with_learned_policy(VALUED_WEIGHTS_FILE.name)
    for seed in range(2):
        for rnd in rounds_in_play(rules, seed):
            view = rnd.view(rnd.turn)
            know = Knowledge.from_view(view)
            pos: Position = _position(view, know)
            pos.hands = [rnd.hand_mask(s) for s in range(rules.players)]
            pos.kitty = rnd.kitty if rules.kitty and rnd.kitty_taker is None else 0
            cards: list[int] = []
            shooter = rng.choice([-1, -1, rnd.turn])
            play_out(table, pos, rng, shooter=shooter, record=cards)
            for card in cards:
                rnd.play(card)  # raises if the playout broke a rule
            assert rnd.phase == "over"
            assert pos.points == rnd.points_taken
            engine = score_round(rules, rnd, [0] * rules.players).scores
            assert round_scores(table, pos, (0,) * rules.players) == list(engine)


def test_the_learned_policy_loads_its_weights_and_plays_its_own_cards() -> None:
    """The weights file holds a weight a feature for leads, follows and discards, and the
    learned policy, with no noise, plays other cards than medium's in some playouts."""
    weights = learned_weights()
    assert [len(w) for w in weights] == [len(FEATURES)] * 3
    rules = Rules()
    learned = Table.of(rules).with_learned_policy()
    assert learned.learned == weights and not Table.of(rules).learned
    differ = 0
    for rnd in rounds_in_play(rules, 5):
        view = rnd.view(rnd.turn)
        pos = _position(view, Knowledge.from_view(view))
        pos.hands = [rnd.hand_mask(s) for s in range(rules.players)]
        cards: list[list[int]] = [[], []]
        for table, record in zip((Table.of(rules), learned), cards, strict=True):
            play_numbers(table, pos.copy(), [0.5] * numbers_needed(pos), -1, 0.0, -1, record)
        differ += cards[0] != cards[1]
        # A kind given no weights plays as medium's: none at all is medium's playout.
        none: list[int] = []
        table = dataclasses.replace(learned, learned=((), (), ()))
        play_numbers(table, pos.copy(), [0.5] * numbers_needed(pos), -1, 0.0, -1, none)
        assert none == cards[0]
    assert differ > 0


def test_the_weights_fitted_to_the_values_are_a_second_file_beside_the_first() -> None:
    """`with_learned_policy` reads the package's weights file it is given: the weights
    fitted to the search's values (`VALUED_WEIGHTS_FILE`) are other weights of the same
    features, and without a name it still reads the first file (so the recorded duels of
    "expert-learned" replay)."""
    first = learned_weights()
    valued = learned_weights(VALUED_WEIGHTS_FILE.name)
    assert [len(w) for w in valued] == [len(FEATURES)] * 3
    assert valued != first
    assert learned_weights(WEIGHTS_FILE.name) == first
    table = Table.of(Rules())
    assert table.with_learned_policy().learned == first
    assert table.with_learned_policy(VALUED_WEIGHTS_FILE.name).learned == valued
    with pytest.raises(FileNotFoundError):
        learned_weights("no_such_weights.json")


def test_the_learned_score_is_the_weights_times_the_features() -> None:
    """`_card_score`, written out for speed, is exactly the sum, in order, of the weights
    times `card_features` (any weights: each term is checked), so the playout plays the
    card the fitted model scores highest."""
    rng = random.Random(3)
    rules = Rules()
    checked = 0
    for seed in range(3):
        for rnd in rounds_in_play(rules, seed):
            view = rnd.view(rnd.turn)
            know = Knowledge.from_view(view)
            hand = fold(view.hand_mask)
            trick_mask = 0
            for _, card in view.trick:
                trick_mask |= 1 << (card % 52)
            led = SUIT_FACES[view.trick[0][1] % 52 // 13] if view.trick else 0
            best = 0
            for _, card in view.trick:
                if 1 << (card % 52) & led and 1 << (card % 52) > best:
                    best = 1 << (card % 52)
            last = len(view.trick) == rules.players - 1
            played = know.played & ~trick_mask
            for face in range(52):
                if not hand >> face & 1:
                    continue
                weights = tuple(rng.uniform(-3, 3) for _ in FEATURES)
                features = card_features(1 << face, hand, played, trick_mask, best, led, last)
                total = 0.0
                for w, x in zip(weights, features, strict=True):
                    total += w * x
                score = _card_score(weights, 1 << face, hand, played, trick_mask, best, led, last)
                assert score == total
                checked += 1
    assert checked > 100


def test_hard_respects_a_time_budget_without_a_seed_change_of_legality() -> None:
    rnd = Round.deal(Rules(), seed=9, hand_number=3)
    rnd.play("2C")
    player = make_player("hard", seed=1, budget=0.01)
    card = player.choose_play(rnd.view(rnd.turn))
    assert card in rnd.legal_cards()


class PassWithoutEnd(ExpertPlayer):
    """Expert whose searched pass would play a million playouts and never drop a candidate:
    only the clock can end it early."""

    settings = dataclasses.replace(EXPERT, pass_playouts=1_000_000, pass_drop_z=0.0)


def test_a_time_budget_holds_the_searched_pass_too() -> None:
    """A budget of seconds ends the searched pass as it ends a play. The pass used to count
    its playouts whatever the budget: here a million of them, a minute or more at 0.05 s.
    The bound is loose (at least ten sampled deals are searched however short the time)."""
    rnd = Round.deal(Rules(), seed=4, hand_number=0)
    view = rnd.view(0)
    player = PassWithoutEnd(seed=1, budget=0.05)
    began = time.process_time()
    cards = player.choose_pass(view)
    spent = time.process_time() - began
    assert len(cards) == view.cards_to_pass and set(cards) <= set(view.hand)
    assert spent < 3.0, f"the pass took {spent:.1f} s of CPU on a budget of 0.05 s"


@pytest.mark.parametrize("rules", RULES, ids=lambda r: str(r.players))
def test_a_playout_stopped_when_nothing_left_scores_scores_as_the_whole(rules: Rules) -> None:
    """The search's playouts stop once no card left can change the score; what they score
    (points, point cards, the result) is the whole playout's, from the same numbers."""
    rng = random.Random(3)
    table = Table.of(rules)
    stopped_early = 0
    for seed in range(3):
        for rnd in rounds_in_play(rules, seed):
            view = rnd.view(rnd.turn)
            know = Knowledge.from_view(view)
            start: Position = _position(view, know)
            start.hands = [rnd.hand_mask(s) for s in range(rules.players)]
            start.kitty = rnd.kitty if rules.kitty and rnd.kitty_taker is None else 0
            numbers = draw_numbers(rng, numbers_needed(start))
            shooter = rng.choice([-1, -1, rnd.turn])
            whole = play_numbers(table, start.copy(), numbers, shooter, planner=rnd.turn)
            short = play_numbers(
                table, start.copy(), numbers, shooter, planner=rnd.turn, scored_only=True
            )
            assert short.points == whole.points
            assert short.point_cards == whole.point_cards
            totals = (0,) * rules.players
            assert round_scores(table, short, totals) == round_scores(table, whole, totals)
            stopped_early += sum(short.hands) != 0
    if not rules.shoot_the_sun:
        assert stopped_early, "some playout must end before the last trick"


def test_play_out_plays_the_numbers_its_generator_gives() -> None:
    rules = Rules()
    table = Table.of(rules)
    for rnd in rounds_in_play(rules, 4):
        view = rnd.view(rnd.turn)
        start: Position = _position(view, Knowledge.from_view(view))
        start.hands = [rnd.hand_mask(s) for s in range(rules.players)]
        by_generator: list[int] = []
        by_numbers: list[int] = []
        play_out(table, start.copy(), random.Random(8), record=by_generator)
        numbers = draw_numbers(random.Random(8), numbers_needed(start))
        play_numbers(table, start.copy(), numbers, record=by_numbers)
        assert by_generator == by_numbers
        assert len(by_numbers) == sum(h.bit_count() for h in start.hands)


def test_the_sampler_deals_as_with_the_library_shuffle(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sampler's shuffle, written out for speed, draws exactly what `random.shuffle`
    draws (on a Python where it would not, the sampler uses the library's)."""
    rnd = rounds_in_play(Rules(), 5)[2]
    view = rnd.view(rnd.turn)
    sampler = Sampler(Knowledge.from_view(view), view.hand_sizes, 0)
    written_out = [sampler.sample(random.Random(seed)) for seed in range(50)]
    monkeypatch.setattr(sampling, "_SHUFFLE_WRITTEN_OUT", False)
    library = [sampler.sample(random.Random(seed)) for seed in range(50)]
    assert written_out == library
    assert len({tuple(hands) for hands, _ in library}) == 50


def test_racing_pairs_results_with_the_plain_arithmetic() -> None:
    rng = random.Random(6)
    for _ in range(200):
        count = rng.randint(2, 120)
        ours = [rng.uniform(-30, 30) for _ in range(count)]
        best = [rng.randint(-26, 26) - 0.3 * rng.randint(0, 26) for _ in range(count)]
        diffs = [x - y for x, y in zip(ours, best, strict=True)]
        mean = sum(diffs) / count
        var = sum((d - mean) ** 2 for d in diffs) / (count - 1)
        assert _paired(ours, best) == (mean, var)
    with pytest.raises(ValueError, match="as many values"):
        _paired([1.0, 2.0], [1.0])


def test_shared_numbers_give_every_reader_the_generators_numbers() -> None:
    """Every candidate of a deal reads the numbers a generator seeded for it would give,
    however far past the first batch one reader goes before the next starts."""
    shared = SharedNumbers(random.Random(11), 3)
    expected = random.Random(11)
    wanted = [expected.random() for _ in range(40)]
    first = shared.reader()
    assert [next(first) for _ in range(10)] == wanted[:10]
    second = shared.reader()
    assert [next(second) for _ in range(40)] == wanted
    assert [next(first) for _ in range(30)] == wanted[10:]
    assert [next(shared.reader()) for _ in range(1)] == wanted[:1]


def _mask(cards: str) -> int:
    return CardSet.parse(cards).mask if cards else 0


def _face(card: str) -> int:
    return _mask(card).bit_length() - 1


def _follow_in_playout(
    hands: list[str], trick: list[str], leader: int, taken: dict[int, str], shooter: int
) -> str:
    """The next card a playout plays from this position (no noise: every number high)."""
    point_cards = [_mask(taken.get(s, "")) for s in range(4)]
    start = Position(
        hands=[_mask(h) for h in hands],
        trick=[_face(c) for c in trick],
        leader=leader,
        first_trick=False,
        hearts_broken=True,
        played=0,
        points=[points_of(m) for m in point_cards],
        point_cards=point_cards,
        tricks_won=[0] * 4,
        kitty=0,
    )
    played: list[int] = []
    play_numbers(Table.of(Rules()), start, [0.99] * 64, shooter, planner=1, record=played)
    return str(CardSet(1 << played[0]))


def test_a_rival_eats_the_queen_to_stop_a_moon_only_once_it_is_well_on_its_way() -> None:
    # Seat 2 plays for the moon (the search's plan) and throws the Q♠ over a 5♠; seat 3
    # could go over with the A♠. With no point taken yet it ducks; against six hearts
    # taken already it takes her.
    hands = ["2D", "3D", "AH", "AS 3S"]
    trick = ["4S", "5S", "QS"]
    assert _follow_in_playout(hands, trick, 0, {}, shooter=2) == "3S"
    six = {2: "2H 3H 4H 5H 6H 7H"}
    assert _follow_in_playout(hands, trick, 0, six, shooter=2) == "AS"


def test_a_rival_ducks_a_moon_low_and_keeps_the_heart_that_stops_it() -> None:
    # Seat 3 has every point so far (the Q♠ and three hearts) and leads the A♥. Seat 0
    # cannot go over: it ducks with the 3♥ and keeps the Q♥ to win the next heart.
    hands = ["QH 3H", "2D 3D", "4D 5D", "JH"]
    taken = {3: "QS 2H 4H 5H"}
    assert _follow_in_playout(hands, ["AH"], 3, taken, shooter=-1) == "3H"
    # With nobody shooting it plays the highest heart that ducks, as medium does.
    assert _follow_in_playout(hands, ["AH"], 3, {}, shooter=-1) == "QH"
