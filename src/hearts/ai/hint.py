"""The coach's hint: what the hard player would do in a seat's place, and why, in one sentence
a person understands, built from what its search found.

On the seat's turn it runs the hard player's search with every candidate on every deal
(`FullSearch`: hard itself races them and drops the ones that surely trail), so every option
has an average over the same deals, and the card it suggests is the one the full search
would play (as strong as hard's, measured); the reason quotes the search's averages for that
card and the next best, and the facts of the position the seat can see (the trick, the Q♠,
the voids others have shown, a moon in the making). During a pass it suggests the hard
player's pass and says what makes each card dangerous to keep.

>>> from hearts import Round, Rules
>>> rnd = Round.deal(Rules(), seed=3)
>>> advice = hint(rnd.view(0), ["You", "Marisol", "Bertie", "Tamsin"], seed=1)
>>> len(advice.cards), advice.reason.startswith("Pass the ")
(3, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..cards import CARDS, DECK_SIZE, HEARTS, SPADES, Card
from ..rules import Rules
from ..view import PlayerView
from ..words import listed as _list
from .medium import explain_play
from .passing import pass_faces
from .racing import Arm, paired_error
from .rollout import GAME_END_WEIGHT
from .search import (
    FullSearch,
    HardPlayer,
    distinct_candidates,
    is_moon_hand,
    is_queen_gamble,
    representatives,
)
from .tracking import (
    HEARTS_FACES,
    HIGH_SPADES,
    POINT_FACES,
    QUEEN,
    SUIT_FACES,
    Knowledge,
    bonus_face,
    card_for_face,
    fold,
)

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
TEN_RANK = 8  # a face's rank counted from the two
SUIT_WORDS = ("club", "diamond", "heart", "spade")
QUEEN_FACE = QUEEN.bit_length() - 1
GAME_END = f"{GAME_END_WEIGHT:g}"
#: Said after a margin the search's deals cannot tell from chance (`_within_chance`).
CHANCE = "(could be chance)"


@dataclass(frozen=True)
class Option:
    """One card the search tried: its average result over the deals it was tried in
    (points for the seat, counting the game; lower is better)."""

    card: Card
    average: float
    deals: int
    moon: bool = False
    error: float = 0.0
    """The standard error of its difference from the best option, over the same deals: a
    difference within two of them is one the search cannot tell from none."""


@dataclass(frozen=True)
class Hint:
    cards: tuple[Card, ...]
    reason: str
    options: tuple[Option, ...] = ()
    """The cards searched, best first (none for a pass, a forced card or a heuristic)."""


def hint(
    view: PlayerView,
    names: Sequence[str],
    seed: int | str | None = None,
    budget: int | float | None = None,
    weigh: Card | None = None,
) -> Hint:
    """The hard player's advice for `view`'s seat; `names[s]` is what seat s is called.
    The review gives the card the person played as `weigh`: its options then hold that
    card's average too, whatever the hard player would leave out (`HardPlayer.evaluate`).

    Raises ValueError when the seat has nothing to decide (not its turn, its pass made)."""
    player = FullSearch(seed=seed, budget=budget)
    if view.phase == "passing":
        if view.passed_mask is not None or view.cards_to_pass == 0:
            raise ValueError("This seat has nothing to pass now.")
        return _pass_hint(view, names, player)
    if not view.legal_mask:
        raise ValueError("This seat has no card to play now.")
    return _play_hint(view, names, player, weigh)


# --- the pass ------------------------------------------------------------------------------


def _pass_hint(view: PlayerView, names: Sequence[str], player: HardPlayer) -> Hint:
    cards = player.choose_pass(view)
    hand = fold(view.hand_mask)
    faces = [card.face for card in cards]
    to = _pass_target(view, names)
    what = f"Pass {_the(c.symbol for c in cards)}{to}"
    if len(view.pass_to) > 1:
        # A scatter: the cards go out in the order chosen, one to each player in turn.
        each = (f"the {c.symbol} to {names[s]}" for c, s in zip(cards, view.pass_to, strict=True))
        what = f"Pass {_list(each)}"
    if (
        view.rules.decks == 1
        and is_moon_hand(hand)
        and sorted(faces) != sorted(pass_faces(hand, view.pass_direction, view.cards_to_pass))
    ):
        return Hint(
            tuple(cards),
            f"{what}: your hand is strong enough to try for the moon, so give away the low "
            "cards that could not win a trick and keep your winners.",
        )
    reasons = _pass_reasons([card.face for card in view.hand], faces, view.pass_direction)
    return Hint(tuple(cards), f"{what}: {_list(reasons)}.")


def _pass_target(view: PlayerView, names: Sequence[str]) -> str:
    if len(view.pass_to) != 1:
        return ""
    seat = view.pass_to[0]
    side = {"left": "on your left", "right": "on your right", "across": "across from you"}
    where = side.get(view.pass_direction)
    return f" to {names[seat]}" + (f", {where}" if where else "")


def _pass_reasons(held: Sequence[int], faces: list[int], direction: str) -> list[str]:
    """What makes the passed cards (`faces`) dangerous to keep, one clause per kind of card.
    `held` is the hand's faces, each copy apart (two decks may deal a card twice)."""
    reasons: list[str] = []
    kept = list(held)
    for face in faces:
        kept.remove(face)

    def count(cards: Iterable[int], suit: int) -> int:
        return sum(1 for f in cards if f // 13 == suit)

    low_spades = sum(1 for f in held if f // 13 == SPADES and not (1 << f) & (QUEEN | HIGH_SPADES))
    if QUEEN_FACE in faces and low_spades >= 3:
        # Three low spades are a guard most players keep her behind: the reason is the
        # search's, not a rule of thumb (a strong player doubted "only 3").
        guard = _count(low_spades, "lower spade")
        reasons.append(
            f"the Q♠ came out better passed than kept behind your {guard} in the coach's search"
        )
    elif QUEEN_FACE in faces:
        # The guards named: "only 1 low spade" read oddly when that spade was the J♠.
        below = sorted(
            (f for f in held if f // 13 == SPADES and f < QUEEN_FACE and f not in faces),
            reverse=True,
        )
        guard = "no lower spade" if not below else f"only {_the(CARDS[f].symbol for f in below)}"
        reasons.append(f"the Q♠ has {guard} to hide behind")
    high = [f for f in faces if (1 << f) & HIGH_SPADES]
    if high:
        cards = _the(CARDS[f].symbol for f in sorted(high, reverse=True))
        if QUEEN_FACE in faces or QUEEN_FACE in kept or QUEEN_FACE not in held:
            reasons.append(f"{cards} could catch the Q♠ on a spade lead")
        else:
            reasons.append(f"{cards} would win spade tricks")
    # A ten or higher would win tricks; a lower card is said only as what passing it does,
    # when that is a reason: a suit left short (the 6♥ "would win tricks full of hearts"
    # was a strong player's first doubt).
    unwanted: list[int] = []  # the tens and higher, hearts first, said in one clause
    shorts: list[str] = []
    voided: list[int] = []
    searched: list[int] = []  # low cards the search chose, said in one clause
    for suit in (HEARTS, 0, 1):
        mine = sorted((f for f in faces if f // 13 == suit), reverse=True)
        if not mine:
            continue
        left = count(kept, suit)
        if suit != HEARTS and not left:
            voided.append(suit)
            continue
        high = [f for f in mine if f % 13 >= TEN_RANK]
        unwanted.extend(high)
        low = [f for f in mine if f % 13 < TEN_RANK]
        if low:
            cards = _the(CARDS[f].symbol for f in low)
            if left <= 1:
                # One card left or none is a suit about to be emptied: a reason. Two low
                # clubs kept ("passing the 7♣ leaves you 2 clubs") was not one.
                short = f"a single {SUIT_WORDS[suit]}" if left else f"no {SUIT_NAMES[suit]}"
                also = " with the rest" if high else ""
                shorts.append(f"passing {cards}{also} leaves you {short}")
            else:
                searched.extend(low)
    if unwanted:
        # One clause for the high cards: of hearts alone, "tricks full of hearts"; of one other
        # suit, its tricks named ("diamond tricks"); of several, "tricks".
        kinds = sorted({f // 13 for f in unwanted})
        which = "tricks you would rather lose"
        if kinds == [HEARTS]:
            which = "tricks full of hearts"
        elif len(kinds) == 1:
            which = f"{SUIT_WORDS[kinds[0]]} {which}"
        # Every card passed is among them: named once, in the hint's first words.
        cards = (
            "each" if len(unwanted) == len(faces) > 1 else _the(CARDS[f].symbol for f in unwanted)
        )
        reasons.append(f"{cards} would win {which}")
    reasons.extend(shorts)
    if searched:
        cards = _the(CARDS[f].symbol for f in searched)
        reasons.append(f"{cards} came out best to give away in the coach's search")
    if voided:
        gone = [f for f in faces if f // 13 in voided]
        # Every card passed is of the suits emptied: named once, in the hint's first words.
        cards = (
            "that" if len(gone) == len(faces) else f"passing {_the(CARDS[f].symbol for f in gone)}"
        )
        suits = " and ".join(SUIT_NAMES[s] for s in voided)
        either = "either is" if len(voided) > 1 else "they are"
        reasons.append(f"{cards} empties your {suits}, so you can throw points when {either} led")
    low = [f for f in faces if f // 13 == SPADES and not (1 << f) & (QUEEN | HIGH_SPADES)]
    if low:
        reasons.append(f"{_the(CARDS[f].symbol for f in low)} {_is(len(low))} the least useful")
    return reasons


# --- a card to play ------------------------------------------------------------------------


def _play_hint(
    view: PlayerView, names: Sequence[str], player: HardPlayer, weigh: Card | None = None
) -> Hint:
    legal = view.legal_mask
    know = Knowledge.from_view(view)
    if not legal & (legal - 1):
        card = CARDS[legal.bit_length() - 1]
        only = f"{_action(know, card.face, names, view.partner)}: it is your only legal card."
        return Hint((card,), only)
    if view.rules.decks != 1:
        # Two decks: the hard player plays by medium's rules of thumb, no search.
        face, rule = explain_play(know)
        card = CARDS[card_for_face(legal, face)]
        context = _context(know, view, names, face)
        why = _rule_of_thumb(rule, know, names, face)
        return Hint((card,), _sentence(_action(know, face, names, view.partner), why, context))
    candidates = distinct_candidates(know)
    if len(candidates) == 1:
        card = CARDS[card_for_face(legal, candidates[0])]
        same = "every card you can play does as well here"
        context = _context(know, view, names, candidates[0])
        return Hint(
            (card,), _sentence(_action(know, candidates[0], names, view.partner), same, context)
        )
    runs = representatives(know)
    weighed = -1 if weigh is None else runs[weigh.face]
    arms = player.evaluate(view, know, candidates, weigh=weighed)
    # A queen gamble weighed for the review is never the coach's own choice.
    gamble = QUEEN_FACE if is_queen_gamble(know) else -1
    best = min(
        (a for a in arms if a.active and not (a.face == gamble and a.plan < 0)),
        key=lambda a: (a.mean, a.face),
    )
    shooter = moon_watch(know, view)
    kept = _stopper_kept(know, shooter, best, arms, gamble)
    if kept is not None:
        stopper, best = best, kept
    card = CARDS[card_for_face(legal, best.face)]
    options = _options(arms, legal)
    # Cards that play alike with it are named together, unless nothing else was weighed
    # (the reason then says that they play alike).
    weighed_others = any(a.values and a.face != best.face for a in arms)
    alike_cards = _alike(runs, best.face) if weighed_others else []
    action = _action(know, best.face, names, view.partner, alike_cards)
    plain = min(
        (a for a in arms if a.values and a.plan < 0 and a.face != gamble),
        key=lambda a: (a.mean, a.face),
        default=None,
    )
    bonus = ""
    if best.plan >= 0 and (plain is None or not _within_chance(plain, best)):
        action = f"Go for the moon and {action[0].lower()}{action[1:]}"
        numbers = _numbers(best, arms)
    elif best.plan >= 0 and plain is not None:
        # A moon plan the search cannot tell from playing without it is a possibility to
        # keep open, not the plan to follow: the card is said plainly.
        numbers = _numbers(best, arms) + _moon_open(best, plain, arms)
    else:
        winning = know.winning_face()
        under = [f for f in range(DECK_SIZE) if legal >> f & 1 and f < (winning or 0)]
        alike = CARDS[winning].symbol if winning is not None and len(under) > 1 else ""
        numbers = _numbers(best, arms, gamble >= 0, alike) + _moon_weighed(best, arms)
        bonus = _bonus_words(know, view.rules, best.face, names)
        numbers += bonus
    if kept is not None and shooter is not None:
        numbers, bonus = _stopper_words(stopper, best, names[shooter], len(best.values)), ""
    if game_at_stake(view):
        numbers += (
            f" (winning the game counted as {GAME_END} points fewer, losing it as {GAME_END} more)"
        )
    context = _context(know, view, names, best.face, bool(bonus), moon_said=kept is not None)
    return Hint((card,), _sentence(action, numbers, context), options)


def _rule_of_thumb(rule: str, know: Knowledge, names: Sequence[str], face: int) -> str:
    """Why the rule of thumb (`medium.explain_play`) that chose `face` chose it, in words."""
    card = CARDS[face].symbol
    winning = know.winning_face()
    threat = know.moon_threat()
    shooter = names[threat] if threat is not None else "a rival"
    words = {
        # "an A♣", "an 8♣": the article of the card's spoken name.
        "only": f"every card you can play is {'an' if card[0] in 'A8' else 'a'} {card}",
        "lead": "of your leads, the one least likely to win a trick with points in it",
        "cancelled": "every card on the trick so far is cancelled, so your lowest goes",
        "queen-under": (
            f"the {CARDS[winning].symbol if winning is not None else 'trick'} is above it, "
            "so the queen goes to that card's owner"
        ),
        "stop-moon": f"{shooter} may be going for the moon: taking this trick stops it",
        "stop-team": (
            "the other team has taken every point so far: taking a point from them stops their moon"
        ),
        "duck": "the highest card you hold that still goes under",
        "last-bonus": f"you play last and the trick has no points: the {card} is yours",
        "last": "you play last and cannot go under, so your highest goes",
        "first-trick": "no points can fall on the first trick, so a high card costs nothing",
        "low-spade": "with the Q♠ still out, your lowest spade leaves others to go over it",
        "none-after": "nobody after you can follow, so the trick is yours whichever you play",
        "low": "others still to play can go over it",
        "feed-partner": "your partner wins this trick: a card without points",
        "feed-shooter": f"{shooter} may be going for the moon: no points for them",
        "block-moon": (
            "the other team has taken every point so far: a heart on your partner's trick"
            " stops their moon"
        ),
        "queen": "thrown away, the Q♠ is 13 points you can no longer take",
        "high-spade": f"with the Q♠ still out, the {card} could catch her later",
        "high-over-low-hearts": f"with only low hearts left, the {card} is the bigger danger",
        "top-heart": "your highest heart, the one most likely to win a trick later",
        "danger": "of your cards, the one most likely to win a trick later",
    }
    return words.get(rule, "")


def game_at_stake(view: PlayerView) -> bool:
    """Whether this round may end the game: then the search's results (and the review's
    costs) count the game's result as well as the round's points (`rollout.utility`).

    >>> from hearts import Round, Rules
    >>> game_at_stake(Round.deal(Rules(), seed=3).view(0))
    False
    >>> game_at_stake(Round.deal(Rules(target_score=20), seed=3).view(0))
    True
    """
    return max(view.scores) + view.rules.round_points >= view.rules.target_score


def _options(arms: list[Arm], legal: int) -> tuple[Option, ...]:
    ranked = sorted((a for a in arms if a.values), key=lambda a: (a.mean, a.face))
    return tuple(
        Option(
            CARDS[card_for_face(legal, a.face)],
            a.mean,
            len(a.values),
            a.plan >= 0,
            paired_error(a, ranked[0]),
        )
        for a in ranked
    )


#: A difference within this many standard errors (of the paired difference, over the same
#: deals) is one the search's deals cannot tell from chance, and the hint says so.
CLOSE = 2.0


def _numbers(best: Arm, arms: list[Arm], gamble: bool = False, alike: str = "") -> str:
    """The search's own finding: how much better the best card comes out than the next best,
    over the same deals. A difference, as the review's costs are: the averages themselves
    are results as the search scores them (our points less a share of the rivals'), which
    can read as fewer than no points at all. `gamble`: the Q♠ could go over the trick's
    spade and was left unweighed; `alike`: the winning card, when more than one spade under
    it could be played (they play alike)."""
    others = [a for a in arms if a.values and a.face != best.face]
    deals = f"over {_deals(len(best.values), 'possible deal')}"
    if not others:
        # The cards left play alike, and the queen gamble was not weighed (the hard player
        # never throws her over a lower spade while lower ones are out): said as what a
        # learner can use, never as "the only card weighed".
        queen = "the Q♠ would win this trick unless a higher spade falls on her after you"
        if gamble and alike:
            return f"your spades under the {alike} play alike, and {queen}"
        if gamble:
            return queen
        return "the cards you could play instead play alike with it"
    second = min(others, key=lambda a: (a.mean, a.face))
    card = CARDS[second.face].symbol
    gap = round(second.mean - best.mean, 1)
    if gap <= 0:
        return f"as good as the {card}, the next best, {deals}"
    found = f"{_points(gap)} better than the {card}, the next best, {deals}"
    if _within_chance(second, best):
        return f"{found} {CHANCE}"
    return found


def _within_chance(other: Arm, best: Arm) -> bool:
    """Whether `best` comes out ahead of `other` by no more than the search's deals can
    tell from chance (`CLOSE` standard errors of the paired difference)."""
    return other.mean - best.mean <= CLOSE * paired_error(other, best)


def _action(
    know: Knowledge,
    face: int,
    names: Sequence[str],
    partner: int | None,
    alike: Sequence[int] = (),
) -> str:
    """What the card does on this trick, in a few words (a partner's trick said as one).
    `alike`: the cards in hand that play alike with it (it among them), named together."""
    card = CARDS[face].symbol
    action = _plain_action(know, face, names, partner)
    if len(alike) > 1:
        both = _list((CARDS[f].symbol for f in sorted(alike)), "or")
        action = action.replace(f"the {card}", f"your {both} (they play alike)", 1)
    return action


def _alike(runs: dict[int, int], face: int) -> list[int]:
    """The legal cards that play alike with `face` (`search.representatives`), it included."""
    return [f for f, run in runs.items() if run == runs.get(face, face)]


def _plain_action(know: Knowledge, face: int, names: Sequence[str], partner: int | None) -> str:
    card = CARDS[face].symbol
    if not know.trick:
        return f"Lead the {card}"
    led = know.trick[0][1] // 13
    winning, seat = know.winning_face(), know.winning_seat()
    last = len(know.trick) == know.players - 1
    if face // 13 != led:
        cost = ""
        if seat is None:
            owner = "the trick"
        elif seat == partner:
            owner = f"your partner {names[seat]}'s trick"
            cost = _team_cost(know, face, names, seat, last)
        else:
            owner = f"{names[seat]}'s trick"
        if face == QUEEN_FACE:
            return f"Throw the Q♠ on {owner}{cost}"
        return f"Throw away the {card} on {owner}{cost}"
    if winning == face:
        return f"Cancel the {card} on the table with your own {card}"
    if winning is None or face > winning:
        if last:
            return f"Take the trick with the {card}"
        if winning is None:
            return f"Play the {card}"
        return f"Go over the {CARDS[winning].symbol} with the {card}"
    return f"Duck under the {CARDS[winning].symbol} with the {card}"


def moon_watch(know: Knowledge, view: PlayerView) -> int | None:
    """A rival seat (or a rival team's member) that has taken every point so far, once a
    strong player would watch it for the moon: by about the middle of the round, or as soon
    as the rival who took the Q♠ has taken hearts as well (every heart played so far). The
    hard players' own rule (`Knowledge.moon_threat`, six hearts or the queen and three) came
    too late for a learner: a tester first read it at trick 11."""
    alone = know.sole_point_takers()
    if alone is None:
        return None
    members, taken = alone
    played = len(view.tricks)
    tricks = played + len(view.hand) + (1 if any(s == know.seat for s, _ in know.trick) else 0)
    queen_and_hearts = bool(taken & QUEEN) and bool(taken & HEARTS_FACES)
    if not (queen_and_hearts or 2 * played >= tricks - 1):
        return know.moon_threat()
    return know.one_to_stop(members)


def _stopper(know: Knowledge, shooter: int | None, face: int) -> bool:
    """Whether playing `face` gives away the last card the seat holds that can stop the
    shooter's moon: the only heart in hand above every heart still out, thrown on a trick of
    another suit that the shooter (or the shooter's partner) is winning."""
    if shooter is None or not know.trick or not (1 << face) & HEARTS_FACES:
        return False
    if face // 13 == know.trick[0][1] // 13:
        return False
    winner = know.winning_seat()
    partnered = know.rules.partnership and winner is not None and winner % 2 == shooter % 2
    if winner != shooter and not partnered:
        return False
    out = know.outstanding(HEARTS)
    top = out.bit_length() - 1 if out else -1
    masters = [f for f in range(DECK_SIZE) if know.hand >> f & 1 and f // 13 == HEARTS and f > top]
    return masters == [face]


def _stopper_kept(
    know: Knowledge, shooter: int | None, best: Arm, arms: list[Arm], gamble: int
) -> Arm | None:
    """The best card that keeps the moon's last stopper, when `best` would give it away and
    the search cannot tell keeping it from throwing it (a margin within chance): the playouts
    let moons through more often than a careful player does, so a near thing is kept."""
    if best.plan >= 0 or not _stopper(know, shooter, best.face):
        return None
    others = [
        a
        for a in arms
        if a.active and a.values and a.plan < 0 and a.face != best.face and a.face != gamble
    ]
    keep = min(others, key=lambda a: (a.mean, a.face), default=None)
    if keep is None or not _within_chance(keep, best):
        return None
    return keep


def _stopper_words(stopper: Arm, kept: Arm, shooter: str, deals: int) -> str:
    card = CARDS[stopper.face].symbol
    gap = round(kept.mean - stopper.mean, 1)
    over = f"over {_deals(deals, 'possible deal')}"
    found = (
        f"thrown away, the {card} is only {_points(gap)} better {over} {CHANCE}"
        if gap > 0
        else f"thrown away, the {card} is no better {over}"
    )
    return f"that keeps your {card}, the last card you hold that can stop {shooter}'s moon; {found}"


def _bonus_words(know: Knowledge, rules: Rules, face: int, names: Sequence[str]) -> str:
    """The bonus card (the J♦ of Omnibus Hearts, 10 points off its taker) when it decides
    the card: on the trick, taken by this card or left to the winner; or the card itself,
    taking its own trick or thrown on a rival's. Empty when it does not bear on the choice."""
    mask = bonus_face(rules)
    if not mask or rules.decks != 1 or not know.trick:
        return ""
    bonus = CARDS[mask.bit_length() - 1].symbol
    led = know.trick[0][1] // 13
    winning, seat = know.winning_face(), know.winning_seat()
    last = len(know.trick) == know.players - 1
    over = face // 13 == led and (winning is None or face > winning)
    on_trick = any(1 << f == mask for _, f in know.trick)
    partner = seat is not None and rules.partnership and seat % 2 == know.seat % 2
    if on_trick:
        could_take = any(
            know.legal >> f & 1 and f // 13 == led and f > (winning or -1) for f in range(52)
        )
        if over and last:
            return f"; it takes the {bonus} on the trick, 10 points off your score"
        if over:
            return f"; it goes for the {bonus} on the trick, 10 points off your score if it holds"
        if last and could_take and seat is not None and not partner:
            return f"; it leaves the {bonus} and its 10 points to {names[seat]}"
        return ""
    if 1 << face != mask:
        return ""
    if over and last:
        return f"; the {bonus} takes its own trick, 10 points off your score"
    if face // 13 != led and seat is not None and not partner:
        return f"; the {bonus} and its 10 points go to {names[seat]} if the trick stays theirs"
    return ""


def _team_cost(know: Knowledge, face: int, names: Sequence[str], partner: int, last: bool) -> str:
    """What a card with points thrown on the partner's trick does to the team: partners
    score their points together (`scoring.score_points`), so a heart or the Q♠ there counts
    against the thrower as well, and the bonus card's 10 points come off for both. Said with
    the condition it holds on: the partner keeping the trick, when a rival plays after this
    seat, and the team not shooting the moon, when it has taken every point so far."""
    points = bool((1 << face) & HEARTS_FACES) + 13 * ((1 << face) == QUEEN)
    bonus = (1 << face) == bonus_face(know.rules)
    if not points and not bonus:
        return ""
    keeps = "" if last else f" if {names[partner]} keeps it"
    if bonus:
        return f", where its 10 points come off your team's score{keeps}"
    said = f", where {'its 1 point counts' if points == 1 else f'its {points} points count'}"
    team = (know.seat, partner)
    holders = {s for s in range(know.players) if know.taken[s] & POINT_FACES}
    if holders and holders <= set(team):
        # Every point so far is the team's: taking them all would shoot the moon.
        return f"{said} against your team{keeps}, unless your team shoots the moon"
    return f"{said} against your team{keeps}"


def _context(
    know: Knowledge,
    view: PlayerView,
    names: Sequence[str],
    face: int | None = None,
    bonus_said: bool = False,
    moon_said: bool = False,
) -> list[str]:
    """Facts of the position that bear on the choice of `face`, most telling first. Of the
    suits the others lack, only the one that matters: the suit led on a trick, or on a lead
    the suit of the card led. `bonus_said`, `moon_said`: the reason already says the bonus
    card's part, or the moon it keeps a stopper for."""
    facts: list[str] = []
    threat = moon_watch(know, view)
    if threat is not None and not moon_said:
        facts.append(f"{names[threat]} has taken every point so far and may be going for the moon")
    points = know.trick_points()
    if points:
        facts.append(f"the trick already holds {_count(points, 'point')}")
    bonus = bonus_face(view.rules).bit_length() - 1
    copies = sum(1 for _, f in know.trick if f == bonus) if bonus >= 0 and not bonus_said else 0
    if copies == 1:
        facts.append(f"the {CARDS[bonus].symbol} on it takes 10 points off its winner")
    elif copies:  # both, with two decks: each takes its 10
        facts.append(f"the two {CARDS[bonus].symbol} on it take 20 points off its winner")
    # With two decks there are two queens of spades, each counted on its own.
    decks = view.rules.decks
    mine, out = _queens(view)
    if mine:
        spades = _spades(view.hand_mask) - mine
        guard = "no other spade" if spades == 0 else _count(spades, "other spade")
        which = "the Q♠" if decks == 1 else ("both Q♠" if mine == 2 else "a Q♠")
        facts.append(f"you hold {which} with {guard}")
    elif out and (view.rules.points_on_first_trick or not know.first_trick):
        # (Not on a first trick where no points may fall: the queen out does not bear on it.)
        which = "the Q♠ is" if decks == 1 else ("both Q♠ are" if out == 2 else "one Q♠ is")
        facts.append(f"{which} still out")
    led = know.trick[0][1] // 13 if know.trick else None
    if led is None and face is not None:
        led = face // 13  # on a lead, the suit led is the card's
    for suit in range(4):
        if led is not None and suit != led:
            continue  # only the suit led matters
        seats = [s for s in range(know.players) if s != know.seat and know.voids[s] >> suit & 1]
        if seats:
            have = "has" if len(seats) == 1 else "have"
            facts.append(f"{_list(names[s] for s in seats)} {have} no {SUIT_NAMES[suit]}")
    return facts


def _copies(mask: int, face: int) -> int:
    """How many copies of a face (one a deck) a card mask holds."""
    return (mask >> face & 1) + (mask >> (face + DECK_SIZE) & 1)


def _queens(view: PlayerView) -> tuple[int, int]:
    """Copies of the Q♠ in the seat's hand, and copies still hidden from it."""
    seen = view.hand_mask | view.played_mask | view.kitty_mask
    mine = _copies(view.hand_mask, QUEEN_FACE)
    return mine, view.rules.decks - _copies(seen, QUEEN_FACE)


def _spades(mask: int) -> int:
    """Spades in a card mask, both decks' copies counted."""
    return sum((mask >> shift & SUIT_FACES[SPADES]).bit_count() for shift in (0, DECK_SIZE))


def _moon_weighed(best: Arm, arms: list[Arm]) -> str:
    """A moon the search weighed and let go, said: a hint that went for the moon a card ago
    must not drop the plan without a word."""
    moons = [a for a in arms if a.values and a.plan >= 0]
    if best.plan >= 0 or not moons:
        return ""
    gap = round(min(a.mean for a in moons) - best.mean, 1)
    if gap <= 0:
        return "; going for the moon instead is no better"
    return f"; going for the moon instead: {_points(gap)} worse"


def _moon_open(best: Arm, plain: Arm, arms: list[Arm]) -> str:
    """A moon plan (`best`) that comes out ahead of the best card played without one
    (`plain`) by a margin that could be chance, said as a possibility to keep in mind: the
    results quoted before it are the plan's."""
    others = [a for a in arms if a.values and a.face != best.face]
    second = min(others, key=lambda a: (a.mean, a.face), default=None)
    card = CARDS[plain.face].symbol
    which = (
        "playing it without" if plain.face == best.face else f"the {card} played without the moon"
    )
    said = "; that is going for the moon with it"
    keep = "so keep the moon in mind"
    if second is plain:
        # The margin over the next best, just said, is the margin over a plain card.
        return f"{said} and the {card} without, {keep}"
    gap = round(plain.mean - best.mean, 1)
    if gap <= 0:
        return f"{said}, as good as {which}, {keep}"
    return f"{said}, {_points(gap)} better than {which} {CHANCE}, {keep}"


def _sentence(action: str, numbers: str, context: list[str]) -> str:
    """The advice, why, then the position's facts, said apart as things worth knowing: joined
    to the reason with a bare semicolon they read as part of it, and a player took "Lead the
    K♣: …; Marisol and Bertie have no clubs" as the coach's reason to lead into two voids."""
    facts = f" Worth knowing: {_list(context[:2])}." if context else ""
    return f"{action}: {numbers}.{facts}" if numbers else f"{action}.{facts}"


def _deals(n: int, word: str = "deal") -> str:
    """A count of sampled deals, rounded as a person would say it: "62 / 666 deals" read
    as oddly exact, so about 60, about 700; a round hundred or ten is said as it is.

    >>> _deals(62), _deals(666), _deals(500), _deals(8), _deals(1, "possible deal")
    ('about 60 deals', 'about 650 deals', '500 deals', '8 deals', '1 possible deal')
    """
    if n < 10:
        return _count(n, word)
    step = 10 if n < 100 else 50 if n < 1000 else 100
    rounded = max(step, int(n / step + 0.5) * step)
    return f"{rounded} {word}s" if rounded == n else f"about {rounded} {word}s"


def _points(value: float) -> str:
    return f"{value:.1f} points"


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _is(n: int) -> str:
    return "is" if n == 1 else "are"


def _the(items: Iterable[object]) -> str:
    return "the " + _list(items)


__all__ = ["Hint", "Option", "game_at_stake", "hint", "moon_watch"]
