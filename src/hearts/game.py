"""A game: rounds until someone reaches the target, moves in and events out.

>>> from hearts import Game, NextRound, Rules
>>> game = Game(Rules(target_score=50), seed=1)
>>> game.phase, game.round.pass_direction, game.scores, game.to_act
('passing', 'left', [0, 0, 0, 0], (0, 1, 2, 3))
>>> game.why_not(NextRound())
'The round is not over yet.'
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import Literal

from .cards import CARDS, DECK_SIZE, cards_of, points_of
from .events import (
    Dealt,
    Event,
    GameOver,
    HeartsBroken,
    KittyTaken,
    MoonAwaitingChoice,
    MoonChosen,
    Passed,
    Played,
    PlayStarted,
    Received,
    RoundScored,
    TrickWon,
)
from .moves import CardLike, ChooseMoon, Move, NextRound, Pass, Play
from .round import IllegalMoveError, Round, deck_cards
from .rules import Rules
from .scoring import (
    MOON_CHOICES,
    MoonChoice,
    PlayOn,
    RoundResult,
    bonus_copies,
    is_game_over,
    lowest,
    moon_shooter,
    play_on,
    score_round,
)
from .view import PlayerView

GamePhase = Literal["passing", "playing", "moon-choice", "round-over", "game-over"]


class Game:
    """Rounds until someone reaches the target score; the lowest total wins.

    Every change is a move through `apply`, which returns what happened as events;
    `moves` is the game's complete history and `Game.replay(rules, seed, moves)` rebuilds
    the identical state. `to_act` names the seats whose move is awaited; `why_not(move)`
    says why a move would be refused (None if it would not), `can(move)` whether it may
    be made. `give`, `play`, `choose_moon` and `next_round` are shorthands for `apply`.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int | str = 0,
        *,
        deals: Sequence[Sequence[Sequence[str]]] | None = None,
        first_hand: int = 0,
        keyed: bool = False,
    ) -> None:
        """A new game. Rounds are dealt from `seed`; `deals` fixes the first rounds' hands
        (a list per round of the players' cards, clockwise from seat 0), as records and
        tests of set positions need. `first_hand` numbers the first round (it sets the
        pass direction and the dealer), so a tournament can play deal N of a seed alone.

        With `keyed`, round N is dealt from its own deal key (`deal_key(N)`, derived from
        the seed, which stays secret): publishing a finished round's key lets anyone check
        that deal without learning anything of the rounds still to come."""
        self.rules = rules if rules is not None else Rules()
        self.seed = seed
        self.keyed = keyed
        self.deals = [[list(hand) for hand in deal] for deal in deals] if deals else None
        self.first_hand = first_hand
        self.scores: list[int] = [0] * self.rules.players
        self.results: list[RoundResult] = []
        self.moves: list[Move] = []
        self.round = self._deal(first_hand)
        self.moon_pending: int | None = None
        """The seat that shot the moon and must choose how it is scored, if any."""

    # --- state -----------------------------------------------------------------------------

    @property
    def hand_number(self) -> int:
        return self.round.hand_number

    @property
    def phase(self) -> GamePhase:
        if self.moon_pending is not None:
            return "moon-choice"
        if self.round.phase != "over":
            return self.round.phase
        return "game-over" if self.is_over else "round-over"

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats whose move is awaited: every seat still to pass, the seat to play, or
        the shooter to choose. Empty between rounds (anyone may deal on) and at the end."""
        if self.moon_pending is not None:
            return (self.moon_pending,)
        phase = self.round.phase
        if phase == "passing":
            return tuple(self.round.waiting_to_pass())
        if phase == "playing":
            return (self.round.turn,)
        return ()

    @property
    def moon_stake(self) -> int | None:
        """The points a moon awaiting its shooter's choice moves, to their total or to
        everyone else's: 26 a deck, twice that for a sun. None when no choice is awaited."""
        if self.moon_pending is None:
            return None
        _, sun = moon_shooter(self.rules, self.round.taken)
        return self.rules.round_points * (2 if sun and self.rules.shoot_the_sun else 1)

    def moon_scores(self) -> dict[MoonChoice, tuple[int, ...]] | None:
        """What each seat would score this round under each choice of the moon awaiting its
        shooter (the stake, and the bonus card where there is one), or None when no choice is
        awaited: with the J♦ in the other team's tricks, "add" gives them 16 each, not 26."""
        if self.moon_pending is None:
            return None
        return {
            choice: score_round(self.rules, self.round, self.scores, choice).scores
            for choice in MOON_CHOICES
        }

    @property
    def is_over(self) -> bool:
        if self.round.phase != "over" or self.moon_pending is not None:
            return False
        return is_game_over(self.rules, self.scores)

    @property
    def winners(self) -> list[int]:
        """The seats with the lowest total once the game is over (several on a shared tie;
        both partners of the winning team in Partnership Hearts)."""
        return lowest(self.scores) if self.is_over else []

    @property
    def play_on(self) -> PlayOn | None:
        """Between rounds, why the game goes on though someone reached the target (the
        lowest total is tied, and the tie rule plays on), else None: said so that nobody
        wonders why it did not end.

        >>> game = Game(Rules(players=5, tie_rule="play-on", target_score=10), seed=1)
        >>> game.play_on is None
        True
        """
        if self.round.phase != "over" or self.moon_pending is not None:
            return None
        return play_on(self.rules, self.scores)

    @property
    def last_result(self) -> RoundResult | None:
        return self.results[-1] if self.results else None

    def view(self, seat: int) -> PlayerView:
        return self.round.view(seat)

    def deal_key(self, hand_number: int) -> str:
        """The key round `hand_number` is dealt from in a keyed game: 128 bits as hex,
        an HMAC of the secret seed, so one round's key tells nothing of another's.

        >>> game = Game(Rules(), seed="secret", keyed=True)
        >>> key = game.deal_key(0)
        >>> Round.deal(Rules(), seed=key, hand_number=0).dealt == game.round.dealt
        True
        """
        message = f"hearts-deal:{hand_number}".encode()
        return hmac.new(str(self.seed).encode(), message, hashlib.sha256).hexdigest()[:32]

    def commitment(self, hand_number: int) -> str:
        """SHA-256 of the round's deal key (hex): shown while the round is played, so the
        key revealed at its end can be checked against it."""
        return hashlib.sha256(self.deal_key(hand_number).encode()).hexdigest()

    def start_events(self) -> list[Event]:
        """The events that began the current round (its deal, and the first lead when there
        is no pass): what a seat joining now is told first."""
        rnd = self.round
        events: list[Event] = [
            Dealt(
                rnd.hand_number,
                rnd.dealer,
                rnd.pass_direction,
                tuple(tuple(cards_of(mask)) for mask in rnd.dealt),
                rnd.kitty.bit_count(),
            )
        ]
        if rnd.cards_to_pass() == 0:
            events.append(PlayStarted(rnd.leader))
        return events

    # --- moves -----------------------------------------------------------------------------

    def why_not(self, move: Move) -> str | None:
        """None if `apply(move)` would be accepted now, else one sentence saying why not."""
        if isinstance(move, Play):
            if self.moon_pending is not None or self.round.phase == "over":
                return "This round is over."
            return self.round.why_illegal(move.card, seat=move.seat)
        if isinstance(move, Pass):
            if self.round.phase == "over":
                return "This round is over."
            return self.round.why_pass_illegal(move.seat, move.cards)
        if isinstance(move, ChooseMoon):
            if self.moon_pending is None:
                return "There is no moon to score now."
            if move.seat != self.moon_pending:
                return "Only the player who shot the moon chooses how it scores."
            return None
        if isinstance(move, NextRound):
            if self.round.phase != "over" or self.moon_pending is not None:
                return "The round is not over yet."
            if self.is_over:
                return "The game is over."
            return None
        return f"{move!r} is not a move; use Pass, Play, ChooseMoon or NextRound."

    def can(self, move: Move) -> bool:
        return self.why_not(move) is None

    def apply(self, move: Move) -> list[Event]:
        """Make a move and return what happened; an illegal move raises `IllegalMoveError`
        with the reason, and changes nothing."""
        if isinstance(move, Play):
            events = self._play(move)
        elif isinstance(move, Pass):
            events = self._pass(move)
        elif isinstance(move, ChooseMoon):
            events = self._moon(move)
        elif isinstance(move, NextRound):
            reason = self.why_not(move)
            if reason is not None:
                raise IllegalMoveError(reason)
            self.round = self._deal(self.round.hand_number + 1)
            events = self.start_events()
        else:
            raise IllegalMoveError(
                f"{move!r} is not a move; use Pass, Play, ChooseMoon or NextRound."
            )
        self.moves.append(move)
        return events

    def give(self, seat: int, cards: Sequence[CardLike]) -> list[Event]:
        return self.apply(Pass(seat, cards))

    def play(self, card: CardLike) -> list[Event]:
        """The seat to play plays `card`."""
        return self.apply(Play(self.round.turn, card))

    def choose_moon(self, choice: MoonChoice) -> list[Event]:
        """The moon shooter's choice under the "choose" rule: "add" or "subtract"."""
        seat = self.moon_pending if self.moon_pending is not None else -1
        return self.apply(ChooseMoon(seat, choice))

    def next_round(self) -> list[Event]:
        return self.apply(NextRound())

    def _pass(self, move: Pass) -> list[Event]:
        rnd = self.round
        if rnd.phase == "over":
            raise IllegalMoveError("This round is over.")
        rnd.give(move.seat, move.cards)
        given = tuple(CARDS[number] for number in rnd.passed(move.seat))
        events: list[Event] = [Passed(move.seat, tuple(rnd.pass_recipients(move.seat)), given)]
        if rnd.phase == "playing":
            for seat, received in enumerate(rnd.received):
                cards = tuple(cards_of(received or 0))
                events.append(Received(seat, cards, rnd.givers[seat]))
            events.append(PlayStarted(rnd.leader))
        return events

    def _play(self, move: Play) -> list[Event]:
        rnd = self.round
        if self.moon_pending is not None or rnd.phase != "playing" or move.seat != rnd.turn:
            reason = self.why_not(move)
            raise IllegalMoveError(reason or "It is not your turn yet.")
        tricks_before = len(rnd.tricks)
        broken_before = rnd.hearts_broken
        kitty_before = rnd.kitty_taker
        points_before = rnd.points_taken[:]
        rnd.play(move.card)
        done = len(rnd.tricks) > tricks_before
        played = rnd.tricks[-1].cards[-1] if done else rnd.trick[-1][1]
        events: list[Event] = [Played(move.seat, played)]
        if rnd.hearts_broken and not broken_before:
            events.append(HeartsBroken())
        if done:
            events.append(self._trick_event(points_before, kitty_before))
            if kitty_before is None and rnd.kitty_taker is not None:
                kitty = rnd.kitty
                events.append(
                    KittyTaken(rnd.kitty_taker, tuple(cards_of(kitty)), _worth(self.rules, kitty))
                )
        if rnd.is_over:
            events += self._round_over()
        return events

    def _trick_event(self, points_before: list[int], kitty_before: int | None) -> TrickWon:
        rnd = self.round
        trick = rnd.tricks[-1]
        gained = rnd.points_taken[trick.winner] - points_before[trick.winner]
        if kitty_before is None and rnd.kitty_taker is not None:
            gained -= _worth(self.rules, rnd.kitty)
        faces = [c % DECK_SIZE for c in trick.cards]
        cancelled = tuple(c for c in trick.cards if faces.count(c % DECK_SIZE) > 1)
        return TrickWon(
            number=len(rnd.tricks) - 1,
            leader=trick.leader,
            plays=tuple(zip(trick.seats(rnd.players), trick.cards, strict=True)),
            winner=trick.winner,
            points=0 if trick.held_over else gained,
            points_taken=tuple(rnd.points_taken),
            cancelled=cancelled if self.rules.cancellation else (),
            carried=trick.carried,
            held_over=trick.held_over,
        )

    def _moon(self, move: ChooseMoon) -> list[Event]:
        reason = self.why_not(move)
        if reason is not None:
            raise IllegalMoveError(reason)
        self.moon_pending = None
        return [MoonChosen(move.seat, move.choice), *self._score(move.choice)]

    def _deal(self, hand_number: int) -> Round:
        rules = self.rules
        index = hand_number - self.first_hand
        if self.deals is None or index >= len(self.deals):
            seed = self.deal_key(hand_number) if self.keyed else self.seed
            return Round.deal(rules, seed, hand_number, scores=self.scores)
        hands = self.deals[index]
        kitty: list[int] = []
        if rules.kitty:
            held = {str(card) for hand in hands for card in hand}
            kitty = [c for c in deck_cards(rules) if str(CARDS[c]) not in held]
        return Round.from_hands(
            rules,
            hands,
            rules.pass_direction(hand_number),
            dealer=hand_number % rules.players,
            kitty=kitty,
            hand_number=hand_number,
            scores=self.scores,
        )

    def _round_over(self) -> list[Event]:
        shooter, _ = moon_shooter(self.rules, self.round.taken)
        if shooter is not None and self.rules.moon_rule == "choose":
            self.moon_pending = shooter
            return [MoonAwaitingChoice(shooter)]
        return self._score(None)

    def _score(self, choice: MoonChoice | None) -> list[Event]:
        result = score_round(self.rules, self.round, self.scores, choice)
        self.results.append(result)
        self.scores = list(result.totals)
        events: list[Event] = [RoundScored(result)]
        if self.is_over:
            events.append(GameOver(tuple(self.winners), tuple(self.scores)))
        return events

    # --- records ---------------------------------------------------------------------------

    @classmethod
    def replay(
        cls,
        rules: Rules,
        seed: int | str,
        moves: Sequence[Move],
        *,
        deals: Sequence[Sequence[Sequence[str]]] | None = None,
        first_hand: int = 0,
        keyed: bool = False,
    ) -> Game:
        """Rebuild a game from its moves; raises `IllegalMoveError` naming the bad one."""
        game = cls(rules, seed, deals=deals, first_hand=first_hand, keyed=keyed)
        for index, move in enumerate(moves):
            try:
                game.apply(move)
            except IllegalMoveError as error:
                raise IllegalMoveError(f"Move {index + 1} ({describe(move)}): {error}") from None
        return game

    def copy(self) -> Game:
        other = Game.__new__(Game)
        other.rules = self.rules
        other.seed = self.seed
        other.keyed = self.keyed
        other.deals = self.deals
        other.first_hand = self.first_hand
        other.scores = self.scores.copy()
        other.results = self.results.copy()
        other.moves = self.moves.copy()
        other.round = self.round.copy()
        other.moon_pending = self.moon_pending
        return other


def _worth(rules: Rules, mask: int) -> int:
    """Points in a set of cards, the bonus card included."""
    return points_of(mask) - 10 * bonus_copies(rules, mask)


def describe(move: Move) -> str:
    """A move in a few words, for error messages, its cards written as a person reads them
    everywhere else (hearts.record, the terminal, the browser game).

    >>> describe(Play(0, "QS")), describe(Pass(2, ["10H", "2C", "AS"]))
    ('seat 0 plays Q♠', 'seat 2 passes 10♥ 2♣ A♠')
    """
    if isinstance(move, Play):
        return f"seat {move.seat} plays {move.card.symbol}"
    if isinstance(move, Pass):
        return f"seat {move.seat} passes {' '.join(c.symbol for c in move.cards)}"
    if isinstance(move, ChooseMoon):
        return f"seat {move.seat} chooses {move.choice}"
    return "the next round"
