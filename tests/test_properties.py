"""Random legal play under random house rules: invariants that must always hold."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hearts import Game, Round, Rules
from hearts.cards import DECK_SIZE, POINT_MASK, cards_of
from hearts.playout import PlayoutState, legal_mask
from hearts.record import dumps, loads

house_rules = st.builds(
    Rules,
    pass_cycle=st.sampled_from(
        [("left", "right", "across", "hold"), ("left", "right", "across"), ("scatter",)]
    ),
    points_on_first_trick=st.booleans(),
    must_break_hearts=st.booleans(),
    queen_breaks_hearts=st.booleans(),
    lead_hearts_instead_of_queen=st.booleans(),
    queen_at_first_chance=st.booleans(),
    first_lead=st.sampled_from(["two-of-clubs", "dealer-left"]),
    moon_rule=st.sampled_from(["add", "subtract", "choose", "add-unless-losing"]),
    shoot_the_sun=st.booleans(),
    bonus_card=st.sampled_from([None, "JD", "TD"]),
    target_score=st.integers(min_value=20, max_value=120),
)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_pass(rnd: Round, rng: random.Random) -> None:
    for seat in rnd.waiting_to_pass():
        rnd.give(seat, rng.sample(rnd.hand(seat), rnd.cards_to_pass()))


def hidden_from(rnd: Round, seat: int) -> set[str]:
    """Cards `seat` must not see: what the others still hold, less what it passed them."""
    hidden = set()
    passed = rnd.given[seat] or 0
    for other in range(rnd.players):
        if other != seat:
            for card in cards_of(rnd.hand_mask(other) & ~passed):
                hidden.add(str(card))
    return hidden


def cards_in(data: object) -> set[str]:
    """Every card-like string anywhere in a JSON-ready value."""
    found: set[str] = set()
    if isinstance(data, str) and len(data) == 2 and data[1] in "CDHS":
        found.add(data)
    elif isinstance(data, dict):
        for value in data.values():
            found |= cards_in(value)
    elif isinstance(data, list | tuple):
        for value in data:
            found |= cards_in(value)
    return found


@SETTINGS
@given(rules=house_rules, seed=st.integers(0, 10**6), hand_number=st.integers(0, 7))
def test_random_round_invariants(rules: Rules, seed: int, hand_number: int) -> None:
    rng = random.Random(seed)
    rnd = Round.deal(rules, seed=seed, hand_number=hand_number)
    random_pass(rnd, rng)
    played: list[int] = []
    expected_turn = rnd.turn
    while rnd.phase == "playing":
        assert rnd.turn == expected_turn
        legal = rnd.legal_cards()
        assert legal, "the seat to play always has a legal card"
        for card in rnd.hand(rnd.turn):
            assert (rnd.why_illegal(card) is None) == (card in legal)
        # The fast playout path agrees with the referee on every legal set.
        if rules.decks == 1:
            state = PlayoutState.from_round(rnd)
            assert legal_mask(state, rnd.hand_mask(rnd.turn)) == rnd.legal_mask()
        # Nobody's view shows another seat's hidden cards.
        for seat in range(4):
            data = rnd.view(seat).to_dict()
            data.pop("rules")  # names the bonus card, which is public
            assert not cards_in(data) & hidden_from(rnd, seat)
        card = rng.choice(legal)
        played.append(int(card))
        tricks_before = len(rnd.tricks)
        rnd.play(card)
        if len(rnd.tricks) > tricks_before:
            trick = rnd.tricks[-1]
            led = trick.cards[0].suit
            best = max(c for c in trick.cards if c.suit == led)
            assert trick.seats(4)[trick.cards.index(best)] == trick.winner
            expected_turn = trick.winner
        else:
            expected_turn = (expected_turn + 1) % 4
    assert len(rnd.tricks) == 13
    assert sorted(played) == list(range(DECK_SIZE))
    penalty = [
        (rnd.taken[s] & POINT_MASK & ((1 << 52) - 1)).bit_count() + 12 * (rnd.taken[s] >> 49 & 1)
        for s in range(4)
    ]
    assert sum(penalty) == 26


@SETTINGS
@given(rules=house_rules, seed=st.integers(0, 10**6))
def test_random_games_round_trip_through_records(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    for _ in range(rng.randrange(1, 200)):
        if game.is_over:
            break
        phase = game.phase
        if phase == "passing":
            random_pass_game(game, rng)
        elif phase == "playing":
            game.play(rng.choice(game.round.legal_cards()))
        elif phase == "moon-choice":
            game.choose_moon(rng.choice(["add", "subtract"]))
        else:
            result = game.last_result
            assert result is not None
            if result.shooter is None and rules.bonus_card is None:
                assert sum(result.scores) == 26
            game.next_round()
    again = loads(dumps(game))
    assert again.phase == game.phase
    assert again.scores == game.scores
    for seat in range(4):
        assert again.view(seat) == game.view(seat)


def random_pass_game(game: Game, rng: random.Random) -> None:
    rnd = game.round
    for seat in rnd.waiting_to_pass():
        game.give(seat, rng.sample(rnd.hand(seat), rnd.cards_to_pass()))
