"""Random legal play at every table, 3 to 10 players, with and without a kitty.

A small referee written here, apart from the engine, follows each round card by card: whose
turn it is, who wins each trick (cancellation included), where held-over cards go, who takes
the kitty. The engine must agree with it on every trick, play every card exactly once, hand
out exactly the deck's points, and survive a trip through a game record.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hearts import Card, Game, IllegalMoveError, PlayerView, Round, Rules, play_out
from hearts.cards import DECK_SIZE, POINT_MASK, parse_card, points_of
from hearts.events import Played, PlayStarted
from hearts.record import actions_of, dumps, loads, replay
from hearts.scoring import MOON_CHOICES, MoonChoice, dealt_mask, moon_shooter, score_round, team_of

#: (players, kitty, partnership): every table the engine seats.
TABLES = (
    [(n, False, False) for n in range(3, 11)]
    + [(n, True, False) for n in (3, 4, 5)]
    + [(4, False, True), (4, True, True)]
)

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cycles(players: int) -> list[tuple[str, ...]]:
    """Pass cycles that make sense at this table."""
    options: list[tuple[str, ...]] = [("hold",), ("left", "right", "hold"), ("right",)]
    if players % 2 == 0:
        options.append(("across", "left"))
    if players - 1 < Rules(players=players).hand_size:
        options.append(("scatter",))
    return options


@st.composite
def tables(draw: st.DrawFn, players: int, kitty: bool, partnership: bool) -> Rules:
    return Rules(
        players=players,
        kitty=kitty,
        partnership=partnership,
        partners_pass=partnership and draw(st.booleans()),
        pass_cycle=draw(st.sampled_from(cycles(players))),
        bonus_card=draw(st.sampled_from([None, "JD"])),
        points_on_first_trick=draw(st.booleans()),
        must_break_hearts=draw(st.booleans()),
        first_lead=draw(st.sampled_from(["two-of-clubs", "dealer-left"])),
        shoot_the_sun=draw(st.booleans()),
        queen_breaks_hearts=draw(st.booleans()),
        queen_at_first_chance=draw(st.booleans()),
        lead_hearts_instead_of_queen=draw(st.booleans()),
        moon_rule=draw(st.sampled_from(["add", "subtract", "choose", "add-unless-losing"])),
    )


def mask(cards: object) -> int:
    total = 0
    for card in cards:  # type: ignore[attr-defined]
        total |= 1 << int(card)
    return total


def bonus_points(rules: Rules, cards: int) -> int:
    if rules.bonus_card is None:
        return 0
    jack = parse_card(rules.bonus_card)
    return -10 * ((cards >> jack & 1) + (cards >> (jack + DECK_SIZE) & 1))


def referee_winner(cards: list[int], cancellation: bool) -> int | None:
    """Index of the winning card, or None when every card of the suit led is cancelled."""
    faces = [c % DECK_SIZE for c in cards]
    led = faces[0] // 13
    candidates = [f for f in faces if f // 13 == led]
    if cancellation:
        candidates = [f for f in candidates if faces.count(f) == 1]
    return faces.index(max(candidates)) if candidates else None


class Referee:
    """Follows a round from its first card and predicts every trick's outcome."""

    def __init__(self, rnd: Round) -> None:
        self.rules = rnd.rules
        self.players = rnd.players
        self.leader = rnd.turn
        self.trick: list[int] = []
        self.waiting = 0
        self.taken = [0] * rnd.players
        self.kitty = rnd.kitty
        self.kitty_taker: int | None = None
        self.cards_left = sum(rnd.hand_mask(s).bit_count() for s in range(rnd.players))

    def expected_turn(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    def played(self, rnd: Round, card: int) -> None:
        self.trick.append(card)
        self.cards_left -= 1
        if len(self.trick) < self.players:
            return
        trick, self.trick = self.trick, []
        result = rnd.tricks[-1]
        assert [int(c) for c in result.cards] == trick and result.leader == self.leader
        index = referee_winner(trick, self.rules.cancellation)
        if index is None and self.cards_left:
            assert result.held_over and result.winner == self.leader and result.carried == ()
            self.waiting |= mask(trick)
            return
        winner = self.leader if index is None else (self.leader + index) % self.players
        assert result.winner == winner and not result.held_over
        assert mask(result.carried) == self.waiting
        self.taken[winner] |= mask(trick) | self.waiting
        self.waiting = 0
        if self.kitty and self.kitty_taker is None and mask(trick) & POINT_MASK:
            self.kitty_taker = winner
            self.taken[winner] |= self.kitty
        self.leader = winner


class CheckingSeat:
    """Every seat of a checked round: passes and plays random legal cards, and before each
    card checks the round against the referee (and that a refused card changes nothing)."""

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        self.referee: Referee | None = None
        self.chosen: Card | None = None

    def choose_pass(self, view: PlayerView) -> list[Card]:
        return self.rng.sample(view.hand, view.cards_to_pass)

    def choose_play(self, view: PlayerView) -> Card:
        rnd, seat, referee = self.game.round, view.seat, self.referee
        assert referee is not None and seat == referee.expected_turn()
        legal = rnd.legal_cards()
        assert legal and all(card in rnd.hand(seat) for card in legal)
        refused = [c for c in rnd.hand(seat) if c not in legal]
        if refused:
            card = self.rng.choice(refused)
            reason = rnd.why_illegal(card)
            assert reason and reason.endswith(".")
            before = rnd.hand_mask(seat)
            with pytest.raises(IllegalMoveError):
                self.game.play(card)
            assert rnd.hand_mask(seat) == before and rnd.turn == seat
        assert view.kitty_mask == (rnd.kitty if referee.kitty_taker is not None else 0)
        assert view.held_over_mask == referee.waiting
        self.chosen = self.rng.choice(legal)
        return self.chosen

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return self.rng.choice(MOON_CHOICES)


def play_round_checked(game: Game, rng: random.Random) -> None:
    """Play the current round of `game` to its end through the driver with random legal
    moves, checking every step against the referee."""
    rnd = game.round
    n = game.rules.players
    seat = CheckingSeat(game, rng)
    hands_at_start: list[int] = []

    def start_play() -> None:
        if rnd.pass_direction != "hold" and game.rules.pass_count:
            for s in range(n):
                targets = rnd.pass_recipients(s)
                assert targets and s not in targets
                if game.rules.partners_pass:
                    assert targets == [(s + 2) % 4]
        seat.referee = Referee(rnd)
        hands_at_start[:] = [rnd.hand_mask(s) for s in range(n)]
        assert not mask_overlaps([*hands_at_start, rnd.kitty])

    if rnd.phase == "playing":
        start_play()
    for event in play_out(game, [seat] * n, next_round=False):
        if isinstance(event, PlayStarted):
            start_play()
        elif isinstance(event, Played):
            # By name: with two decks, either copy of the face may go.
            assert seat.chosen is not None and event.card.face == seat.chosen.face
            assert seat.referee is not None
            seat.referee.played(rnd, int(event.card))
    assert seat.referee is not None
    check_finished_round(game, seat.referee, hands_at_start)


def union(masks: list[int]) -> int:
    total = 0
    for m in masks:
        total |= m
    return total


def mask_overlaps(masks: list[int]) -> bool:
    seen = 0
    for m in masks:
        if seen & m:
            return True
        seen |= m
    return False


def check_finished_round(game: Game, referee: Referee, hands_at_start: list[int]) -> None:
    rnd = game.round
    rules = game.rules
    dealt = dealt_mask(rules)
    played = [int(c) for t in rnd.tricks for c in t.cards]
    assert len(played) == len(set(played)) == rules.hand_size * rules.players
    assert mask(played) == dealt & ~rnd.kitty == union(hands_at_start)
    assert len(rnd.tricks) == rules.tricks_per_round
    assert not rnd.tricks[-1].held_over and rnd.held_over == 0
    assert rnd.taken == referee.taken
    assert rnd.kitty_taker == referee.kitty_taker
    assert not mask_overlaps(rnd.taken) and union(rnd.taken) == dealt
    for seat in range(rules.players):
        taken = rnd.taken[seat]
        assert rnd.points_taken[seat] == points_of(taken) + bonus_points(rules, taken)
    total = rules.round_points + bonus_points(rules, dealt)
    assert sum(rnd.points_taken) == total
    result = game.results[-1] if game.moon_pending is None else None
    shooter, _ = moon_shooter(rules, rnd.taken)
    if result is None:
        assert shooter is not None
        result = score_round(rules, rnd, [0] * rules.players)
    teams = [team_of(rules, s) for s in range(rules.players)]
    team_points = [sum(rnd.points_taken[m] for m in team) for team in teams]
    if shooter is None:
        assert list(result.scores) == team_points
    else:
        shooters = teams[shooter]
        took = union([rnd.taken[m] for m in shooters])
        assert points_of(took & POINT_MASK) == rules.round_points
        sun = rules.shoot_the_sun and took == dealt
        amount = rules.round_points * (2 if sun else 1)
        for seat, team in enumerate(teams):
            bonus = sum(bonus_points(rules, rnd.taken[m]) for m in team)
            if result.moon_choice == "add":
                assert result.scores[seat] == bonus + (0 if seat in shooters else amount)
            else:
                assert result.scores[seat] == bonus - (amount if seat in shooters else 0)
    if rules.partnership:
        assert result.totals[0] == result.totals[2] and result.totals[1] == result.totals[3]


@pytest.mark.parametrize(("players", "kitty", "partnership"), TABLES)
@SETTINGS
@given(data=st.data(), seed=st.integers(0, 10**6), cut=st.integers(0, 200))
def test_random_rounds_follow_the_rules_of_every_table(
    players: int, kitty: bool, partnership: bool, data: st.DataObject, seed: int, cut: int
) -> None:
    rules = data.draw(tables(players, kitty, partnership), label="rules")
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    play_round_checked(game, rng)
    # The record rebuilds the same game, and so does one cut in the middle of the round.
    again = loads(dumps(game))
    assert actions_of(again) == actions_of(game) and again.scores == game.scores
    assert again.round.tricks == game.round.tricks and again.round.taken == game.round.taken
    middle = replay(rules, seed, actions_of(game)[: min(cut, len(actions_of(game)))])
    reloaded = loads(dumps(middle))
    for seat in range(players):
        assert reloaded.round.view(seat).to_dict() == middle.round.view(seat).to_dict()
