"""The hard player's playout: a round played to its end on raw masks by a heuristic policy.

One deck (faces 0..51), any house rule: legality is the engine's one core,
`hearts.legality.legal_mask`, written out inside the playout loop for one deck (a test
replays playouts of every house rule through `Round`, and another holds the search's
decisions to a record made while the playout still called the core). Every seat plays the
medium heuristics in their fast form, with a little noise; a seat told to shoot takes every
trick it can and discards no points, and the others then stop a moon: they keep points
off the shooter's tricks, take a point trick from it when they can (the Q♠ only from a
shooter with six hearts already), and duck its tricks low, keeping their high cards.

The playout is most of a searching player's time, so it is written for speed: plain ints,
the policy inlined, tables for the seat order, and its random numbers handed in as a list
(`play_numbers`) so that the candidates of one sampled deal share one list of numbers
instead of seeding a generator each.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..cards import parse_card
from ..rules import Rules
from ..scoring import score_points, team_of
from .tracking import HEARTS_FACES, HIGH_SPADES, POINT_FACES, QUEEN, SUIT_FACES, dealt_faces

NOISE = 0.06
RIVAL_WEIGHT = 0.3
"""The share of the rivals' average score the searching seat counts against its own."""
GAME_END_WEIGHT = 30.0
"""Points a round that ends the game is worth on top, won or lost."""

WEIGHTS_FILE = Path(__file__).with_name("playout_weights.json")
"""The learned playout policy's weights (`benchmarks/playout_policy.py` fits and writes them),
fitted to the card hard's search chose."""
VALUED_WEIGHTS_FILE = Path(__file__).with_name("playout_weights_valued.json")
"""The same model's weights fitted to the full search's value of every card (soft targets;
`benchmarks/playout_policy.py --tau`)."""


@dataclass(frozen=True, slots=True)
class Table:
    """Facts about the rules that the playout reads many times."""

    rules: Rules
    players: int
    queen_breaks: bool
    bonus: int
    points_dealt: int
    opening: int
    no_points_first: bool = False
    """No points on the first trick (`Rules.points_on_first_trick` off)."""
    two_of_clubs: bool = False
    must_break: bool = False
    hearts_instead_of_queen: bool = False
    queen_at_first_chance: bool = False
    teams: tuple[tuple[int, ...], ...] = ()
    """`scoring.team_of` of every seat."""
    rivals: tuple[tuple[int, ...], ...] = ()
    """Every seat's rivals: the seats outside its team."""
    orders: tuple[tuple[int, ...], ...] = ()
    """The seats in playing order from each leader."""
    followers: tuple[tuple[int, ...], ...] = ()
    """The same without the leader."""
    fitted_leads: bool = False
    """Every seat leads by `_fitted_lead`, closer to the search's own leads, instead of
    medium's `_lead` (`Table.with_fitted_leads`; `SearchSettings.fitted_leads`)."""
    learned: tuple[tuple[float, ...], ...] = ()
    """The learned policy's weights for leads, follows and discards (`learned_weights`;
    `Table.with_learned_policy`), or () for medium's policy. Every seat picks the legal card
    of highest score (`_learned_card`) except where the moon rules it (shooting, stopping);
    a kind given no weights is played as medium plays it."""

    @staticmethod
    @functools.lru_cache(maxsize=64)
    def of(rules: Rules) -> Table:
        bonus = 0 if rules.bonus_card is None else 1 << parse_card(rules.bonus_card)
        seats = range(rules.players)
        teams = tuple(team_of(rules, s) for s in seats)
        return Table(
            rules=rules,
            players=rules.players,
            queen_breaks=rules.queen_breaks_hearts,
            bonus=bonus,
            points_dealt=dealt_faces(rules) & POINT_FACES,
            opening=1 << parse_card(rules.opening_card),
            no_points_first=not rules.points_on_first_trick,
            two_of_clubs=rules.first_lead == "two-of-clubs",
            must_break=rules.must_break_hearts,
            hearts_instead_of_queen=rules.lead_hearts_instead_of_queen,
            queen_at_first_chance=rules.queen_at_first_chance,
            teams=teams,
            rivals=tuple(tuple(r for r in seats if r not in teams[s]) for s in seats),
            orders=tuple(tuple((s + i) % rules.players for i in seats) for s in seats),
            followers=tuple(tuple((s + i) % rules.players for i in seats[1:]) for s in seats),
        )

    def with_fitted_leads(self) -> Table:
        return dataclasses.replace(self, fitted_leads=True)

    def with_learned_policy(self, weights: str = WEIGHTS_FILE.name) -> Table:
        """The learned policy with the weights of this file of the package (`learned_weights`):
        `WEIGHTS_FILE`, fitted to hard's cards, or `VALUED_WEIGHTS_FILE`, to the search's
        values of every card."""
        return dataclasses.replace(self, learned=learned_weights(weights))


@dataclass(slots=True)
class Position:
    """A round part-way through, every hand known (one sampled deal)."""

    hands: list[int]
    trick: list[int]
    leader: int
    first_trick: bool
    hearts_broken: bool
    played: int
    points: list[int]
    """Points taken so far, the bonus card included."""
    point_cards: list[int]
    """Point cards taken so far, to tell a moon."""
    tricks_won: list[int]
    kitty: int
    """The hidden kitty, or 0 once taken (or without one)."""

    def copy(self) -> Position:
        return Position(
            self.hands.copy(),
            self.trick.copy(),
            self.leader,
            self.first_trick,
            self.hearts_broken,
            self.played,
            self.points.copy(),
            self.point_cards.copy(),
            self.tricks_won.copy(),
            self.kitty,
        )


_CLUBS, _DIAMONDS, _SPADES_SUIT, _HEARTS_SUIT = (SUIT_FACES[s] for s in (0, 1, 3, 2))
_ALL = _CLUBS | _DIAMONDS | _SPADES_SUIT | _HEARTS_SUIT
_NON_POINTS = _ALL & ~POINT_FACES
_NON_HEARTS = _ALL & ~HEARTS_FACES
_NON_QUEEN = _ALL & ~QUEEN
_SPADE_GUARDS = QUEEN | HIGH_SPADES
_RANK_COLUMN = 1 | 1 << 13 | 1 << 26 | 1 << 39
_SUIT_OF = {1 << face: SUIT_FACES[face // 13] for face in range(52)}
"""A card's bit to its suit's mask."""


def _top_rank(mask: int) -> int:
    """The bit of the highest-ranked card in a mask, whatever its suit (spades win ties)."""
    rank = ((mask | mask >> 13 | mask >> 26 | mask >> 39) & 0x1FFF).bit_length() - 1
    if rank < 0:
        return 0
    column = mask & (_RANK_COLUMN << rank)  # that rank's cards, one bit a suit
    return 1 << (column.bit_length() - 1)


def _low_rank(mask: int) -> int:
    best = 0
    best_rank = 99
    for suit in range(4):
        cards = mask & SUIT_FACES[suit]
        if cards:
            low = cards & -cards
            rank = low.bit_length() - 1 - 13 * suit
            if rank < best_rank:
                best, best_rank = low, rank
    return best


def _lead_choices(hand: int, allowed: int, played: int) -> tuple[int, bool]:
    """The cards worth leading (while the Q♠ is out: not the queen we hold, nor the K♠ or
    A♠ if we hold no queen, unless nothing else is left), and whether to fish for her with
    spades (out, and none of the Q♠, K♠ and A♠ in hand)."""
    if played & QUEEN:
        return allowed, False
    risky = QUEEN if hand & QUEEN else HIGH_SPADES
    return allowed & ~risky or allowed, not hand & _SPADE_GUARDS


def _lead(hand: int, allowed: int, played: int, shooting: bool) -> int:
    """The lowest card of the suit where it has the fewest unseen cards under it.

    Keys are doubled so that they are whole numbers: a suit nobody else holds counts 100
    (we would win and everyone discards on us), hearts one more and, while the Q♠ is out
    and we hold none of the high spades, spades one fewer; the first suit of lowest key wins.
    """
    if shooting:
        return _top_rank(allowed & _NON_HEARTS or allowed)
    candidates, fishing = _lead_choices(hand, allowed, played)
    unknown = _ALL & ~(played | hand)
    best = 0
    best_key = 198
    cards = candidates & _CLUBS
    if cards:
        best = cards & -cards
        out = unknown & _CLUBS
        best_key = (out & (best - 1)).bit_count() << 1 if out else 100
    cards = candidates & _DIAMONDS
    if cards:
        low = cards & -cards
        out = unknown & _DIAMONDS
        key = (out & (low - 1)).bit_count() << 1 if out else 100
        if key < best_key:
            best, best_key = low, key
    cards = candidates & _HEARTS_SUIT
    if cards:
        low = cards & -cards
        out = unknown & _HEARTS_SUIT
        key = ((out & (low - 1)).bit_count() << 1) + 1 if out else 100
        if key < best_key:
            best, best_key = low, key
    cards = candidates & _SPADES_SUIT
    if cards:
        low = cards & -cards
        out = unknown & _SPADES_SUIT
        key = ((out & (low - 1)).bit_count() << 1) - fishing if out else 100
        if key < best_key:
            best = low
    return best


def _fitted_lead(hand: int, allowed: int, played: int, shooting: bool) -> int:
    """The lowest card of the suit of lowest key: the unseen cards under that card, plus
    three for each card we hold of the suit, less the suit's unseen cards, less six for
    spades while fishing for the Q♠ (holding none of the Q♠, K♠ and A♠); a suit nobody
    else holds is led last. Leads from short suits with many cards out, as the search does.

    The weights were fitted to the leads hard's search chose in 150 rounds of hard players
    (the key's weights tried on half of its 1,645 leads, checked on the other half): the
    playout's lead agrees with the search's in 54% of them instead of `_lead`'s 47%, and as
    much on other rounds. In play it is not shown stronger (docs/benchmarks.md, "Issue 16,
    fifth part"), so no level uses it yet.
    """
    if shooting:
        return _top_rank(allowed & _NON_HEARTS or allowed)
    candidates, fishing = _lead_choices(hand, allowed, played)
    unknown = _ALL & ~(played | hand)
    best = 0
    best_key = 1 << 20
    for suit in range(4):
        cards = candidates & SUIT_FACES[suit]
        if not cards:
            continue
        low = cards & -cards
        out = unknown & SUIT_FACES[suit]
        key = 1000
        if out:
            key = (
                (out & (low - 1)).bit_count()
                + 3 * (hand & SUIT_FACES[suit]).bit_count()
                - out.bit_count()
            )
            if fishing and cards & _SPADES_SUIT:
                key -= 6
        if key < best_key:
            best, best_key = low, key
    return best


FEATURES = (
    "queen",
    "high spade",
    "heart",
    "rank",
    "unseen under",
    "unseen over",
    "held in suit",
    "suit all seen",
    "spade, Q out",
    "spade, fishing",
    "high spade, Q out",
    "wins",
    "wins the points",
    "wins last",
    "wins, overtakable",
    "wins spades, Q out",
    "voids the suit",
    "lowest held",
    "highest held",
    "none under",
    "none over",
    "last",
    "points on trick",
    "unseen in suit",
    "wins high",
    "lowest held, unseen under",
    "lowest held, held in suit",
    "lowest held, unseen in suit",
    "highest held, unseen under",
    "ducks high",
    "low spade, Q out",
    "heart's rank",
    "held in suit, unseen in suit",
)
"""What `card_features` measures of a card, in order."""


@functools.lru_cache(maxsize=4)
def learned_weights(name: str = WEIGHTS_FILE.name) -> tuple[tuple[float, ...], ...]:
    """The learned policy's weights (leads, follows, discards), read once from the package's
    file `name` (`WEIGHTS_FILE` or `VALUED_WEIGHTS_FILE`)."""
    path = WEIGHTS_FILE.with_name(name)  # a bare name: the package's folder
    data = json.loads(path.read_text(encoding="utf-8"))
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"{name} was fitted to other features")
    return tuple(tuple(float(w) for w in data[kind]) for kind in ("lead", "follow", "discard"))


def card_features(
    bit: int, hand: int, played: int, trick_mask: int, best: int, led_suit: int, last: bool
) -> list[float]:
    """What the seat to play knows of playing `bit` (`FEATURES`): its own hand, the cards
    played (`played` and `trick_mask`, the trick so far), the card winning the trick so far
    (`best`, 0 on the lead) and the suit led (0 on the lead), and whether it plays last."""
    unseen = _ALL & ~(played | trick_mask | hand)
    suit = _SUIT_OF[bit]
    out = unseen & suit
    below = (out & (bit - 1)).bit_count()
    above = (out & ~((bit << 1) - 1)).bit_count()
    mine = hand & suit
    held = mine.bit_count()
    lowest = not mine & (bit - 1)
    highest = not mine & ~((bit << 1) - 1)
    rank = ((bit.bit_length() - 1) % 13) / 12.0
    queen_out = bool(unseen & QUEEN)
    spade = suit == _SPADES_SUIT
    high = bool(bit & HIGH_SPADES)
    wins = bool(led_suit & bit) and bit > best
    on_trick = trick_mask | bit
    points = (on_trick & HEARTS_FACES).bit_count() + (13 if on_trick & QUEEN else 0)
    return [
        1.0 if bit == QUEEN else 0.0,
        1.0 if high else 0.0,
        1.0 if bit & HEARTS_FACES else 0.0,
        rank,
        below / 13.0,
        above / 13.0,
        held / 13.0,
        0.0 if out else 1.0,
        1.0 if spade and queen_out else 0.0,
        1.0 if spade and queen_out and not hand & _SPADE_GUARDS else 0.0,
        1.0 if high and queen_out else 0.0,
        1.0 if wins else 0.0,
        points / 13.0 if wins else 0.0,
        1.0 if wins and last else 0.0,
        above / 13.0 if wins and not last else 0.0,
        1.0 if wins and not last and spade and queen_out else 0.0,
        1.0 if held == 1 else 0.0,
        1.0 if lowest else 0.0,
        1.0 if highest else 0.0,
        0.0 if below else 1.0,
        0.0 if above else 1.0,
        1.0 if last else 0.0,
        points / 13.0,
        out.bit_count() / 13.0,
        rank if wins else 0.0,
        below / 13.0 if lowest else 0.0,
        held / 13.0 if lowest else 0.0,
        out.bit_count() / 13.0 if lowest else 0.0,
        below / 13.0 if highest else 0.0,
        rank if led_suit & bit and not wins else 0.0,
        1.0 if spade and queen_out and bit < QUEEN else 0.0,
        rank if bit & HEARTS_FACES else 0.0,
        held * out.bit_count() / 169.0,
    ]


def _card_score(
    w: tuple[float, ...],
    bit: int,
    hand: int,
    played: int,
    trick_mask: int,
    best: int,
    led_suit: int,
    last: bool,
) -> float:
    """The weights times the card's `card_features`, summed in the features' order, terms
    of a zero feature left out (the same number: adding w * 0.0 changes no sum). Written out
    because the playout scores a card many times: a list of features a card cost seven
    times medium's whole playout."""
    unseen = _ALL & ~(played | trick_mask | hand)
    suit = _SUIT_OF[bit]
    out = unseen & suit
    out_count = out.bit_count()
    below = (out & (bit - 1)).bit_count()
    above = (out & ~((bit << 1) - 1)).bit_count()
    mine = hand & suit
    held = mine.bit_count()
    lowest = not mine & (bit - 1)
    highest = not mine & ~((bit << 1) - 1)
    rank = ((bit.bit_length() - 1) % 13) / 12.0
    queen_out = unseen & QUEEN != 0
    spade = suit == _SPADES_SUIT
    high = bit & HIGH_SPADES != 0
    heart = bit & HEARTS_FACES != 0
    wins = led_suit & bit != 0 and bit > best
    on_trick = trick_mask | bit
    points = (on_trick & HEARTS_FACES).bit_count() + (13 if on_trick & QUEEN else 0)
    score = 0.0
    if bit == QUEEN:
        score += w[0]
    if high:
        score += w[1]
    if heart:
        score += w[2]
    if rank:
        score += w[3] * rank
    if below:
        score += w[4] * (below / 13.0)
    if above:
        score += w[5] * (above / 13.0)
    if held:
        score += w[6] * (held / 13.0)
    if not out:
        score += w[7]
    if spade and queen_out:
        score += w[8]
        if not hand & _SPADE_GUARDS:
            score += w[9]
    if high and queen_out:
        score += w[10]
    if wins:
        score += w[11]
        if points:
            score += w[12] * (points / 13.0)
        if last:
            score += w[13]
        else:
            if above:
                score += w[14] * (above / 13.0)
            if spade and queen_out:
                score += w[15]
    if held == 1:
        score += w[16]
    if lowest:
        score += w[17]
    if highest:
        score += w[18]
    if not below:
        score += w[19]
    if not above:
        score += w[20]
    if last:
        score += w[21]
    if points:
        score += w[22] * (points / 13.0)
    if out_count:
        score += w[23] * (out_count / 13.0)
    if wins and rank:
        score += w[24] * rank
    if lowest:
        if below:
            score += w[25] * (below / 13.0)
        if held:
            score += w[26] * (held / 13.0)
        if out_count:
            score += w[27] * (out_count / 13.0)
    if highest and below:
        score += w[28] * (below / 13.0)
    if led_suit & bit and not wins and rank:
        score += w[29] * rank
    if spade and queen_out and bit < QUEEN:
        score += w[30]
    if heart and rank:
        score += w[31] * rank
    if held and out_count:
        score += w[32] * (held * out_count / 169.0)
    return score


def _learned_card(
    weights: tuple[float, ...],
    allowed: int,
    hand: int,
    played: int,
    trick_mask: int,
    best: int,
    led_suit: int,
    last: bool,
    special: int,
) -> int:
    """The allowed card of highest score (`_card_score`: the weights times its
    `card_features`), the lowest first on a tie; of cards that play alike (next in a suit
    with no unseen card between, neither of them in `special`: the Q♠ and the bonus card)
    only the lowest is scored."""
    unseen = _ALL & ~(played | trick_mask | hand)
    choice = 0
    top = 0.0
    previous = 0
    bits = allowed
    while bits:
        bit = bits & -bits
        bits ^= bit
        alike = (
            previous != 0
            and _SUIT_OF[previous] & bit != 0
            and not (previous | bit) & special
            and not unseen & (bit - 1) & ~((previous << 1) - 1)
        )
        previous = bit
        if alike:
            continue
        score = _card_score(weights, bit, hand, played, trick_mask, best, led_suit, last)
        if not choice or score > top:
            choice, top = bit, score
    return choice


def _holder(point_cards: list[int]) -> int:
    """The one seat that has taken points so far, -1 for none, -2 for several."""
    holder = -1
    for seat, mask in enumerate(point_cards):
        if mask:
            if holder != -1:
                return -2
            holder = seat
    return holder


def _threat(holder: int, point_cards: list[int], shooter: int) -> int:
    """The seat everyone else should stop, or -1: the planned shooter while nobody else has
    a point, or else the one seat holding every point taken so far and plenty of them."""
    if shooter >= 0:
        return shooter if holder == -1 or holder == shooter else -1
    if holder < 0:
        return -1
    taken = point_cards[holder]
    hearts = (taken & HEARTS_FACES).bit_count()
    return holder if hearts >= 6 or (taken & QUEEN and hearts >= 3) else -1


def numbers_needed(pos: Position) -> int:
    """How many random numbers a playout of `pos` may draw: at most two a card (whether to
    play at random, and which card)."""
    return 2 * sum(hand.bit_count() for hand in pos.hands)


def draw_numbers(rng: random.Random, count: int) -> list[float]:
    """The next `count` numbers of `rng.random()`, in order."""
    return list(itertools.starmap(rng.random, itertools.repeat((), count)))


class SharedNumbers:
    """The random numbers of one sampled deal, for every candidate's playout to read from
    the first: the same numbers, in order, as a generator seeded for each candidate would
    give. Drawn as needed: a playout reads about one a card that has a choice, and at most
    two a card (`numbers_needed`)."""

    def __init__(self, rng: random.Random, first: int) -> None:
        self.draw = rng.random
        self.numbers = draw_numbers(rng, first)

    def reader(self) -> Iterator[float]:
        """The numbers from the first: those drawn so far, then new ones (kept for the
        other readers)."""
        return itertools.chain(self.numbers, self._tail())

    def _tail(self) -> Iterator[float]:
        numbers = self.numbers
        at = len(numbers)  # where the reader's pass over the list ended
        while True:
            if at == len(numbers):
                numbers.append(self.draw())
            yield numbers[at]
            at += 1


def play_out(
    table: Table,
    pos: Position,
    rng: random.Random,
    shooter: int = -1,
    noise: float = NOISE,
    planner: int = -1,
    record: list[int] | None = None,
) -> Position:
    """Play `pos` (changed in place) to the end of the round and return it.

    `shooter` is a seat that plays for the moon (-1 for none). A seat other than `planner`
    (the seat searching) that has every point so far and plenty of them plays for the moon
    too, so that the search sees a rival's moon coming. `record`, if given, gets every
    card played, in order (the tests replay them through `Round`). The playout uses the
    next `numbers_needed(pos)` numbers of `rng.random()`, in order (it draws them first).
    """
    numbers = draw_numbers(rng, numbers_needed(pos))
    return play_numbers(table, pos, numbers, shooter, noise, planner, record)


def play_numbers(
    table: Table,
    pos: Position,
    numbers: Iterable[float],
    shooter: int = -1,
    noise: float = NOISE,
    planner: int = -1,
    record: list[int] | None = None,
    scored_only: bool = False,
) -> Position:
    """`play_out` with its random numbers given: the playout reads `numbers` from the start,
    one at a time, as `play_out` reads its generator (at most `numbers_needed(pos)` of them).
    So the candidates of one sampled deal share one list (`SharedNumbers`) instead of
    seeding a generator each: the same numbers either way.

    With `scored_only`, when the rules have no sun (the only use of tricks won), it stops
    once no card left in a hand can change the score (no point card, no bonus card) and does
    not count tricks won: the points and point cards taken, so the results, are those of the
    whole playout, but the hands, tricks won and the rest are not the round's end. The
    search scores only.

    Legality is the engine's (`hearts.legality.legal_mask`) written out for one deck;
    `tests/test_ai_search.py` replays playouts of every house rule through `Round`.
    """
    n = table.players
    orders = table.orders
    followers = table.followers
    bonus = table.bonus
    queen_breaks = table.queen_breaks
    opening = table.opening
    no_points_first = table.no_points_first
    two_of_clubs = table.two_of_clubs
    must_break = table.must_break
    hearts_instead = table.hearts_instead_of_queen
    queen_first = table.queen_at_first_chance
    fitted_leads = table.fitted_leads
    learned = table.learned
    special = QUEEN | bonus
    hands = pos.hands
    points = pos.points
    point_cards = pos.point_cards
    tricks_won = pos.tricks_won
    kitty = pos.kitty
    trick = pos.trick
    leader = pos.leader
    first = pos.first_trick
    broken = pos.hearts_broken
    played = pos.played
    next_number = iter(numbers).__next__
    trick_mask = 0  # the cards on the table (0 before the lead)
    best = 0
    best_seat = leader
    led_suit = SUIT_FACES[trick[0] // 13] if trick else 0
    for i, c in enumerate(trick):
        bit = 1 << c
        trick_mask |= bit
        if bit & led_suit and bit > best:
            best, best_seat = bit, (leader + i) % n
    seats = orders[leader][len(trick) :]
    trick.clear()
    if not trick_mask and not hands[leader]:
        return pos  # nothing left to play (a full trick on the table is still settled)
    watch = table.points_dealt | bonus  # cards that still change the score
    stop_early = scored_only and not table.rules.shoot_the_sun
    count_tricks = not stop_early  # tricks won count only for the sun
    holder = _holder(point_cards)
    threat = _threat(holder, point_cards, shooter)
    going_for_moon = shooter if shooter >= 0 or threat == planner else threat
    while True:
        if not trick_mask:
            # The lead (legality as `hearts.legality.legal_mask`, for one deck).
            seat = leader
            hand = allowed = hands[seat]
            if first and two_of_clubs and allowed & opening:
                allowed &= opening
            if must_break and not broken and allowed & HEARTS_FACES:
                others = allowed & _NON_HEARTS
                if others and not (hearts_instead and not others & _NON_QUEEN):
                    allowed = others
            if not allowed & (allowed - 1):
                bit = allowed
            elif next_number() < noise and seat != shooter:
                bits = allowed
                for _ in range(int(next_number() * allowed.bit_count())):
                    bits &= bits - 1
                bit = bits & -bits
            elif learned and learned[0] and seat != going_for_moon:
                bit = _learned_card(learned[0], allowed, hand, played, 0, 0, 0, False, special)
            else:
                bit = (
                    _fitted_lead(hand, allowed, played, seat == going_for_moon)
                    if fitted_leads
                    else _lead(hand, allowed, played, seat == going_for_moon)
                )
            hands[seat] = hand ^ bit
            led_suit = _SUIT_OF[bit]
            best, best_seat = bit, seat
            if record is not None:
                record.append(bit.bit_length() - 1)
            trick_mask = bit
            if not broken and (bit & HEARTS_FACES or (queen_breaks and bit & QUEEN)):
                broken = True
            seats = followers[leader]
        last_seat = orders[leader][-1]
        careful = queen_first or (first and no_points_first)
        for seat in seats:
            # The legal cards (as `hearts.legality.legal_mask`, for one deck).
            hand = hands[seat]
            follow = hand & led_suit
            allowed = follow or hand
            if careful:  # a house rule or the first trick narrows it further
                if first and no_points_first and allowed & _NON_POINTS:
                    allowed &= _NON_POINTS
                if (
                    queen_first
                    and allowed & QUEEN
                    and (not follow or (led_suit == _SPADES_SUIT and trick_mask & HIGH_SPADES))
                ):
                    allowed &= QUEEN
            # The card.
            if not allowed & (allowed - 1):
                bit = allowed
            elif next_number() < noise and seat != shooter:
                bits = allowed
                for _ in range(int(next_number() * allowed.bit_count())):
                    bits &= bits - 1
                bit = bits & -bits
            elif seat == going_for_moon:
                if follow:  # holding the suit led, every legal card follows
                    bit = 1 << (allowed.bit_length() - 1)
                else:
                    bit = _low_rank(allowed & _NON_POINTS or allowed)
            elif (
                learned
                and (learned[1] if follow else learned[2])
                and not (threat >= 0 and threat != seat and best_seat == threat)
            ):
                bit = _learned_card(
                    learned[1] if follow else learned[2],
                    allowed,
                    hand,
                    played,
                    trick_mask,
                    best,
                    led_suit,
                    seat == last_seat,
                    special,
                )
            elif follow:
                # The medium follow: the Q♠ under a high spade, else the highest card that
                # ducks, else (last, or on the first trick) the highest, else the lowest.
                # Stopping a moon: the lowest card that wins a point trick from the shooter
                # (but the Q♠ is taken only from one that has six hearts already: nobody
                # eats 13 points to stop a moon that has hardly begun), else the lowest
                # card that ducks, keeping the high ones to win a point trick later.
                follow = allowed
                if follow & QUEEN and best & HIGH_SPADES:
                    bit = QUEEN
                else:
                    below = follow & (best - 1)
                    stopping = threat >= 0 and threat != seat and best_seat == threat
                    if (
                        stopping
                        and (trick_mask & POINT_FACES or follow & HEARTS_FACES)
                        and follow & ~below & _NON_QUEEN
                        and (
                            not trick_mask & QUEEN
                            or (point_cards[threat] & HEARTS_FACES).bit_count() >= 6
                        )
                    ):
                        above = follow & ~below & _NON_QUEEN
                        bit = above & -above
                    elif below and stopping:
                        bit = below & -below
                    elif below:
                        bit = 1 << (below.bit_length() - 1)
                    elif seat == last_seat or first:
                        safe = follow & _NON_QUEEN or follow
                        bit = 1 << (safe.bit_length() - 1)
                    else:
                        bit = follow & -follow
            # The medium discard (no point to a moon shooter's trick while stopping one).
            elif threat >= 0 and threat != seat and best_seat == threat and allowed & _NON_POINTS:
                bit = _top_rank(allowed & _NON_POINTS)
            elif allowed & QUEEN:
                bit = QUEEN
            elif allowed & HIGH_SPADES and not (played | trick_mask) & QUEEN and not hand & QUEEN:
                bit = 1 << ((allowed & HIGH_SPADES).bit_length() - 1)
            elif allowed & HEARTS_FACES:
                bit = 1 << ((allowed & HEARTS_FACES).bit_length() - 1)
            else:
                bit = _top_rank(allowed)
            hands[seat] = hand ^ bit
            if follow and bit > best:  # it followed suit, and goes over
                best, best_seat = bit, seat
            if record is not None:
                record.append(bit.bit_length() - 1)
            trick_mask |= bit
            if not broken and (bit & HEARTS_FACES or (queen_breaks and bit & QUEEN)):
                broken = True
        winner = best_seat
        played |= trick_mask
        if count_tricks:
            tricks_won[winner] += 1
        if trick_mask & POINT_FACES:
            points[winner] += (trick_mask & HEARTS_FACES).bit_count() + (
                13 if trick_mask & QUEEN else 0
            )
            point_cards[winner] |= trick_mask & POINT_FACES
            if kitty:
                points[winner] += (kitty & HEARTS_FACES).bit_count() + (13 if kitty & QUEEN else 0)
                point_cards[winner] |= kitty & POINT_FACES
                if kitty & bonus:
                    points[winner] -= 10
                kitty = 0
            if holder != -2:  # once two seats have points, nobody is shooting
                if holder == -1:
                    holder = winner
                elif holder != winner:
                    holder = -2
                threat = _threat(holder, point_cards, shooter)
                going_for_moon = shooter if shooter >= 0 or threat == planner else threat
        if trick_mask & bonus:
            points[winner] -= 10
        leader = winner
        trick_mask = 0
        first = False
        if not hands[leader] or (stop_early and not watch & ~played):
            break
    pos.leader = leader
    pos.first_trick = first
    pos.hearts_broken = broken
    pos.played = played
    pos.kitty = kitty
    return pos


def play_card(pos: Position, seat: int, face: int, table: Table) -> None:
    """Play `face` from `seat`'s hand onto the trick (the search's own card)."""
    bit = 1 << face
    pos.hands[seat] &= ~bit
    pos.trick.append(face)
    pos.played |= bit
    if bit & HEARTS_FACES or (table.queen_breaks and bit & QUEEN):
        pos.hearts_broken = True


def round_scores(table: Table, pos: Position, totals: tuple[int, ...]) -> list[int]:
    """What each seat adds to its total for the round in `pos` (finished), moons included."""
    rules = table.rules
    n = table.players
    points = pos.points
    point_cards = pos.point_cards
    teams = table.teams
    shooter = -1
    if rules.partnership:
        team_points = [sum(points[m] for m in teams[s]) for s in range(n)]
        for seat in range(2):
            taken = 0
            for member in teams[seat]:
                taken |= point_cards[member]
            if taken == table.points_dealt:
                shooter = seat
                break
    else:
        team_points = points.copy()
        if table.points_dealt in point_cards:
            shooter = point_cards.index(table.points_dealt)
    if shooter < 0:
        return team_points
    raw = [
        (point_cards[s] & HEARTS_FACES).bit_count() + 13 * bool(point_cards[s] & QUEEN)
        for s in range(n)
    ]
    bonus = [(raw[s] - points[s]) // 10 for s in range(n)]
    sun = sum(pos.tricks_won[m] for m in teams[shooter]) == rules.hand_size
    return list(score_points(rules, totals, raw, bonus, shooter, sun).scores)


def utility(table: Table, totals: tuple[int, ...], scores: list[int], me: int) -> float:
    """Seat `me`'s result (lower is better) of a round that adds `scores` to `totals`."""
    rivals = table.rivals[me]
    rival_points = 0
    for s in rivals:
        rival_points += scores[s]
    value = scores[me] - RIVAL_WEIGHT * rival_points / len(rivals)
    target = table.rules.target_score
    ended = False
    for t, s in zip(totals, scores, strict=True):
        if t + s >= target:
            ended = True
            break
    if ended:
        best_rival = min(totals[s] + scores[s] for s in rivals)
        after_me = totals[me] + scores[me]
        value += -GAME_END_WEIGHT if after_me <= best_rival else GAME_END_WEIGHT
    return value


#: How many points better a styled seat counts a moon it shot, per point of its appetite.
MOON_GLORY = 3.0


@dataclass(frozen=True, slots=True)
class Scorer:
    """A searching seat's value of a finished playout (lower is better): its `utility`,
    and its taste (`search.Style`): points added when it took the Q♠, and the glory of a
    moon: `MOON_GLORY` times its appetite taken off a moon plan's playout that shot it.
    (A flat bonus on every moon plan's playout made a plan that seldom comes off look as
    good as one that does, and Bertie went for hopeless moons.)"""

    table: Table
    totals: tuple[int, ...]
    seat: int
    queen_caution: float = 0.0
    moon_appetite: float = 0.0

    def value(self, pos: Position, plan: int) -> float:
        table = self.table
        scores = round_scores(table, pos, self.totals)
        value = utility(table, self.totals, scores, self.seat)
        if self.queen_caution and pos.point_cards[self.seat] & QUEEN:
            value += self.queen_caution
        if plan >= 0 and self.moon_appetite and self.shot(pos):
            value -= MOON_GLORY * self.moon_appetite
        return value

    def shot(self, pos: Position) -> bool:
        """Whether this seat (or its team) took every point card of the round."""
        table = self.table
        taken = 0
        for member in table.teams[self.seat]:
            taken |= pos.point_cards[member]
        return taken == table.points_dealt


def play_candidates(
    table: Table,
    start: Position,
    seat: int,
    candidates: list[tuple[int, int]],
    numbers: SharedNumbers,
    noise: float,
    scorer: Scorer,
) -> list[float]:
    """Each candidate (face, plan) of `seat` played in `start` (one sampled deal), the round
    played out from the same numbers for each (scored only), and its value."""
    values = []
    for face, plan in candidates:
        pos = start.copy()
        play_card(pos, seat, face, table)
        play_numbers(table, pos, numbers.reader(), plan, noise, seat, None, True)
        values.append(scorer.value(pos, plan))
    return values
