"""The coach's hint (`hearts.ai.hint`): the hard player's own choice, with a reason built from
what its search found in that position."""

from __future__ import annotations

import pytest

import hearts
from hearts.ai import make_player
from hearts.ai.hint import _action, _context, _deals, _pass_reasons, _rule_of_thumb, hint
from hearts.ai.medium import explain_play
from hearts.ai.search import FullSearch, representatives
from hearts.ai.tracking import POINT_FACES, Knowledge
from hearts.cards import CARDS, HEARTS, parse_card
from hearts.rules import BonusCard

NAMES = ["You", "Marisol", "Bertie", "Tamsin"]
BUDGET = 120


def positions(
    seed: int, players: int = 4, rules: hearts.Rules | None = None
) -> list[hearts.PlayerView]:
    """Seat 0's view at each of its decisions in one round, others playing medium."""
    rules = rules or hearts.Rules(players=players)
    players = rules.players
    game = hearts.Game(rules, seed)
    bots = [make_player("medium", seed=s) for s in range(players)]
    views = []
    if game.phase == "passing":
        views.append(game.view(0))
        for seat in range(players):
            game.give(seat, bots[seat].choose_pass(game.view(seat)))
    while game.phase == "playing":
        seat = game.round.turn
        if seat == 0:
            views.append(game.view(0))
        game.play(bots[seat].choose_play(game.view(seat)))
    return views


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_hint_is_the_full_searchs_own_choice(seed: int) -> None:
    # Hard itself races its candidates; the hint gives every one the same deals.
    for view in positions(seed):
        advice = hint(view, NAMES, seed=f"h{seed}", budget=BUDGET)
        player = FullSearch(seed=f"h{seed}", budget=BUDGET)
        if view.phase == "passing":
            assert list(advice.cards) == player.choose_pass(view)
        else:
            assert list(advice.cards) == [player.choose_play(view)]
        assert advice.reason.endswith(".") and "\n" not in advice.reason


def faces(text: str) -> list[int]:
    """The faces of the cards written ("QC 8C 6H"), in that order, each copy apart."""
    return [parse_card(word).face for word in text.split()]


def test_the_reason_quotes_the_search() -> None:
    searched = 0
    reasons = set()
    closes = set()
    for seed in range(1, 5):
        for view in positions(seed)[1:]:
            advice = hint(view, NAMES, seed=seed, budget=BUDGET)
            reasons.add(advice.reason)
            action = advice.reason.split(":")[0]
            # The card, or it among the cards that play alike with it ("your 8♣ or 9♣").
            assert f"the {advice.cards[0].symbol}" in action or (
                "(they play alike)" in action and advice.cards[0].symbol in action
            )
            if len({option.card for option in advice.options}) < 2:
                continue
            searched += 1
            # The next best is another card (the same card under the moon plan is not).
            best = advice.options[0]
            second = next(o for o in advice.options if o.card != best.card)
            assert best.card == advice.cards[0] and best.average <= second.average
            assert f"over {_deals(best.deals, 'possible deal')}" in advice.reason
            # The gap to the next best, as the review's costs are: never fewer than no points.
            gap = round(second.average - best.average, 1)
            said = f"{gap:.1f} points better than" if gap > 0 else "as good as"
            assert f"{said} the {second.card.symbol}, the next best" in advice.reason
            assert "−" not in advice.reason
            # A gap within two standard errors of the paired difference is said to be one
            # the deals cannot tell from chance; a clear one is not.
            close = gap > 0 and second.average - best.average <= 2 * second.error
            assert ("(could be chance)" in advice.reason) == close
            closes.add(close)
    assert searched >= 10
    assert closes == {True, False}  # both kinds of gap were seen
    assert len(reasons) >= searched  # every position its own sentence


def test_the_reason_names_the_facts_of_the_position() -> None:
    # Seat 2 leads the 2♣, seat 3 plays its only club, the A♣; seat 0 can only duck, holding
    # the queen with one other spade.
    game = hearts.Round.from_hands(
        hearts.Rules(),
        [
            ["QS", "3S", "5C", "KC", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD"],
            ["2S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS", "AS", "JD", "QD"],
            ["2C", "3C", "4C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KD", "AD", "2H"],
            ["AC", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
        ],
        pass_direction="hold",
    )
    game.play("2C")
    game.play("AC")
    advice = hint(game.view(0), NAMES, seed=1, budget=BUDGET)
    card = advice.cards[0].symbol
    assert advice.reason.startswith(f"Duck under the A♣ with the {card}: ")
    assert "you hold the Q♠ with 1 other spade" in advice.reason
    other = "5♣" if card == "K♣" else "K♣"
    assert f"the {other}, the next best" in advice.reason


def test_a_void_shown_and_points_on_the_trick_are_said() -> None:
    game = hearts.Round.from_hands(
        hearts.Rules(),
        [
            ["QS", "3S", "5C", "KC", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD"],
            ["2S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS", "AS", "JD", "QD"],
            ["2C", "3C", "4C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KD", "AD", "2H"],
            ["AC", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
        ],
        pass_direction="hold",
    )
    for card in ("2C", "AC", "5C", "JD", "3H"):  # seat 1 shows no clubs; seat 3 leads a heart
        game.play(card)
    advice = hint(game.view(0), NAMES, seed=1, budget=BUDGET)
    assert advice.reason.startswith("Throw ")  # no hearts to follow with
    # The facts are told as such, not joined to the reason as if they were part of it.
    assert ". Worth knowing: the trick already holds 1 point" in advice.reason
    # Seat 1's void is in clubs, not the suit led: not said on this trick.
    assert "Marisol" not in advice.reason


def test_every_table_size_gets_a_hint() -> None:
    for players in (3, 5, 8):
        names = ["You"] + [f"Player {s}" for s in range(1, players)]
        for view in positions(players, players)[:4]:
            advice = hint(view, names, seed=1, budget=BUDGET)
            assert advice.cards and advice.reason.endswith(".")


def test_no_hint_when_the_seat_has_nothing_to_decide() -> None:
    rnd = hearts.Round.deal(hearts.Rules(), seed=4, hand_number=3)  # a keep round
    other = next(seat for seat in range(4) if seat != rnd.turn)
    with pytest.raises(ValueError, match="no card to play"):
        hint(rnd.view(other), NAMES, seed=1)
    passing = hearts.Round.deal(hearts.Rules(), seed=4)
    passing.give(0, passing.hand(0)[:3])
    with pytest.raises(ValueError, match="nothing to pass"):
        hint(passing.view(0), NAMES, seed=1)


def test_with_two_decks_each_queen_of_spades_is_counted() -> None:
    # Six players: two decks, two Q♠. What the coach says of them, seat by seat, as cards go.
    rules = hearts.Rules(players=6, pass_cycle=("hold",))
    names = [f"P{seat}" for seat in range(rules.players)]
    said: set[str] = set()
    for seed in range(12):
        rnd = hearts.Round.deal(rules, seed, 0)
        played: list[str] = []
        while rnd.phase == "playing":
            for seat in range(rules.players):
                view = rnd.view(seat)
                hand = [str(card) for card in view.hand]
                mine, out = hand.count("QS"), 2 - hand.count("QS") - played.count("QS")
                facts = _context(Knowledge.from_view(view), view, names)
                if mine:
                    which = "both Q♠" if mine == 2 else "a Q♠"
                    spades = sum(card.endswith("S") for card in hand) - mine
                    guard = "no other spade" if spades == 0 else f"{spades} other spade"
                    expected = f"you hold {which} with {guard}"
                    assert any(fact.startswith(expected) for fact in facts), (facts, hand)
                elif out and not view.tricks:
                    # The first trick, where no points may fall: the queen out is not said.
                    expected = "none"
                    assert not any("Q♠" in fact for fact in facts), facts
                elif out:
                    expected = "both Q♠ are still out" if out == 2 else "one Q♠ is still out"
                    assert expected in facts, (facts, hand, played)
                else:
                    assert not any("Q♠" in fact for fact in facts), facts
                said.add(expected if mine or out else "none")
            card = rnd.legal_cards()[-1]  # the highest: the queens go early
            played.append(str(card))
            rnd.play(card)
    assert {"both Q♠ are still out", "one Q♠ is still out", "none"} <= said
    assert any(s.startswith("you hold a Q♠") for s in said)


def test_a_scatter_hint_says_which_card_goes_to_whom() -> None:
    rules = hearts.Rules(players=5, pass_cycle=("scatter",))
    view = hearts.Round.deal(rules, 3, 0).view(0)
    names = ["You", "Marisol", "Bertie", "Tamsin", "Oskar"]
    advice = hint(view, names, seed=1, budget=BUDGET)
    assert len(advice.cards) == len(view.pass_to) == 4
    # The cards go out in the order chosen, one to each player in turn (the engine's order).
    pairs = zip(advice.cards, view.pass_to, strict=True)
    each = [f"the {card.symbol} to {names[seat]}" for card, seat in pairs]
    assert advice.reason.startswith(f"Pass {', '.join(each[:-1])} and {each[-1]}")


def test_on_a_lead_only_the_suit_led_is_said_to_be_lacking() -> None:
    # "Lead the 7♦: … Bertie has no clubs" named a void of another suit than the lead's.
    from hearts.ai.hint import SUIT_NAMES

    rules = hearts.Rules(pass_cycle=("hold",))
    bots = [make_player("medium", seed=s) for s in range(4)]
    said = 0
    for seed in range(6):
        rnd = hearts.Round.deal(rules, seed, 0)
        while rnd.phase == "playing":
            seat = rnd.turn
            view = rnd.view(seat)
            if not view.trick:
                know = Knowledge.from_view(view)
                for card in view.legal:
                    facts = _context(know, view, NAMES, card.face)
                    lacking = [f for f in facts if " no " in f and "other spade" not in f]
                    for fact in lacking:
                        assert fact.endswith(f"no {SUIT_NAMES[card.suit]}"), (card, facts)
                    said += len(lacking)
            rnd.play(bots[seat].choose_play(view))
    assert said > 0  # the rounds had leads into suits someone lacked


def test_a_queen_passed_without_a_low_spade_is_said_plainly() -> None:

    def reasons(hand: list[str]) -> list[str]:
        return _pass_reasons([parse_card(c).face for c in hand], [parse_card("QS").face], "left")

    # "has only no low spade" was the words before.
    assert reasons(["QS", "KH", "2C"]) == ["the Q♠ has no lower spade to hide behind"]
    assert reasons(["QS", "3S", "2C"]) == ["the Q♠ has only the 3♠ to hide behind"]
    # Her guard named: "only 1 low spade" was said when that spade was the J♠.
    assert reasons(["QS", "JS", "2C"]) == ["the Q♠ has only the J♠ to hide behind"]
    # Three low spades are a guard most players keep her behind: never "only 3".
    assert reasons(["QS", "3S", "7S", "9S", "KS"]) == [
        "the Q♠ came out better passed than kept behind your 3 lower spades in the coach's search"
    ]


def test_the_points_on_a_trick_count_every_copy_and_the_bonus_card_is_said() -> None:
    # Two decks: "5♥, J♥, 5♥, 8♦, 4♥" was said to hold 3 points (the second 5♥ lost in a
    # mask of faces); a cancelled card still scores.
    rules = hearts.Rules(players=6, pass_cycle=("hold",))
    names = [f"P{seat}" for seat in range(rules.players)]
    checked = 0
    for seed in range(40):
        rnd = hearts.Round.deal(rules, seed, 0)
        while rnd.phase == "playing":
            view = rnd.view(rnd.turn)
            trick = [str(card) for _, card in view.trick]
            points = sum(c.endswith("H") for c in trick) + 13 * trick.count("QS")
            facts = _context(Knowledge.from_view(view), view, names)
            said = [f for f in facts if f.startswith("the trick already holds")]
            if points:
                assert said == [f"the trick already holds {points} point{'s' * (points > 1)}"]
                checked += len(set(trick)) < len(trick)  # a card there twice
            else:
                assert said == []
            rnd.play(rnd.legal_cards()[0])
    assert checked > 0
    # Omnibus: the J♦ on the trick is said as what it is, not as points.
    game = hearts.Round.from_hands(
        hearts.Rules(bonus_card="JD"),
        [
            ["QS", "3S", "5C", "KC", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD"],
            ["2S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS", "AS", "3H", "QD"],
            ["2C", "3C", "4C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KD", "AD", "2H"],
            ["AC", "JD", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
        ],
        pass_direction="hold",
    )
    for card in ("2C", "AC", "5C", "QD", "JD"):  # seat 3 takes the first trick, leads the J♦
        game.play(card)
    facts = _context(Knowledge.from_view(game.view(0)), game.view(0), NAMES)
    assert "the J♦ on it takes 10 points off its winner" in facts
    assert not any(f.startswith("the trick already holds") for f in facts)
    # Two decks: both J♦ on one trick take 10 each (it was said as one).
    rules = hearts.Rules(players=6, pass_cycle=("hold",), bonus_card="JD")
    names = [f"P{seat}" for seat in range(rules.players)]
    both = 0
    for seed in range(200):
        rnd = hearts.Round.deal(rules, seed, 0)
        while rnd.phase == "playing" and not both:
            view = rnd.view(rnd.turn)
            if [str(card) for _, card in view.trick].count("JD") == 2:
                facts = _context(Knowledge.from_view(view), view, names)
                assert "the two J♦ on it take 20 points off its winner" in facts, facts
                both += 1
            jacks = [c for c in rnd.legal_cards() if str(c) == "JD"]
            rnd.play(jacks[0] if jacks else rnd.legal_cards()[0])
        if both:
            break
    assert both


def test_a_pass_of_middling_cards_is_not_said_to_win_tricks() -> None:
    # "The 9♥ and 6♥ would win tricks full of hearts", "the Q♣ and 8♣ would win club tricks
    # you would rather lose": a strong player doubts the low cards' half of it. A low card
    # is said as leaving a suit short, or as the search's choice.

    hand = faces("QC 8C 3C 2C 9H 6H AH 4D 5D 7S 8S 9S JS")
    # Two cards of a suit kept is no reason ("passing the 7♣ leaves you 2 clubs", from
    # 3♣ 4♣ 7♣), and the search's low cards are said in one clause, not one a suit.
    assert _pass_reasons(hand, faces("QC 8C 6H"), "left") == [
        "the Q♣ would win club tricks you would rather lose",
        "the 6♥ and 8♣ came out best to give away in the coach's search",
    ]
    omnibus = faces("3C 4C 7C 7D 2D 3D 4D QS 2S 5H 6H 7H 8H")
    assert _pass_reasons(omnibus, faces("7C 7D QS"), "left") == [
        "the Q♠ has only the 2♠ to hide behind",
        "the 7♣ and 7♦ came out best to give away in the coach's search",
    ]
    assert _pass_reasons(hand, faces("9H 6H AH"), "left") == [
        "the A♥ would win tricks full of hearts",
        "passing the 9♥ and 6♥ with the rest leaves you no hearts",
    ]
    assert _pass_reasons(hand, faces("8C 4D 5D"), "left") == [
        "the 8♣ came out best to give away in the coach's search",
        "passing the 4♦ and 5♦ empties your diamonds, so you can throw points when they are led",
    ]
    # Two suits emptied: one clause, not two run together; the cards, all of the pass, are
    # not named again.
    short = faces("QC 2C 4D 2H 9H 6H AH 7S 8S 9S JS KS AS")
    assert _pass_reasons(short, faces("QC 2C 4D"), "left") == [
        "that empties your clubs and diamonds, so you can throw points when either is led"
    ]


def test_a_pass_says_its_high_cards_in_one_clause() -> None:
    # "The A♣ would win club tricks you would rather lose and the K♦ would win diamond tricks
    # you would rather lose": the same reason twice. The high cards of every suit are one
    # clause, its suit named when there is one; "each" when they are the whole pass.

    hand = faces("AC KC 3C 2C KD AD 4D 5D AH 9H 7S 8S 9S")
    assert _pass_reasons(hand, faces("AC KD 2C"), "left") == [
        "the A♣ and K♦ would win tricks you would rather lose",
        "the 2♣ came out best to give away in the coach's search",
    ]
    assert _pass_reasons(hand, faces("AC KD AH"), "left") == [
        "each would win tricks you would rather lose"
    ]
    assert _pass_reasons(hand, faces("AD KD 2C"), "left")[0] == (
        "the A♦ and K♦ would win diamond tricks you would rather lose"
    )
    assert _pass_reasons(hand, faces("AH 2C 3C"), "left")[0] == (
        "the A♥ would win tricks full of hearts"
    )
    # Low spades are not high cards: they are only the least useful.
    assert _pass_reasons(hand, faces("9S 8S 7S"), "left")[-1] == (
        "the 9♠, 8♠ and 7♠ are the least useful"
    )
    # A high spade passed while the queen is out of the hand: it could catch her.
    spades = faces("AS KS 3C 2C KD AD 4D 5D AH 9H 7S 8S 9S")
    assert _pass_reasons(spades, faces("AS KS 2C"), "left")[0] == (
        "the A♠ and K♠ could catch the Q♠ on a spade lead"
    )


def test_with_two_decks_a_pass_counts_the_copy_kept() -> None:
    # 7♣ 7♣ held, one passed: "leaves you with no clubs" while a 7♣ stayed in hand.

    hand = faces("7C 7C 9D 9D 5D 3S 4S 5S QS KH")
    assert _pass_reasons(hand, faces("7C KH 5D"), "left")[1:] == [
        "passing the 7♣ leaves you a single club",
        "the 5♦ came out best to give away in the coach's search",
    ]
    assert not any("no clubs" in r for r in _pass_reasons(hand, faces("7C KH 5D"), "left"))
    assert _pass_reasons(faces("QS 3S 3S 4S 2C"), faces("QS"), "left") == [
        "the Q♠ came out better passed than kept behind your 3 lower spades in the coach's search"
    ]


def test_a_partners_trick_is_said_to_be_the_partners() -> None:
    """In Partnership Hearts a card thrown on the partner's trick stays in the team: the hint
    says whose trick it is as a partner, where a rival's is said by name alone."""
    game = hearts.Round.from_hands(
        hearts.Rules(partnership=True),
        [
            ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
            ["2C", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "AH"],
            ["AC", "KS", "AS", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH"],
            ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "QH", "KH"],
        ],
        pass_direction="hold",
    )
    for card in ("2C", "AC", "3C"):  # Bertie, across from seat 0, wins the trick so far
        game.play(card)
    advice = hint(game.view(0), NAMES, seed=1, budget=BUDGET)
    assert "on your partner Bertie's trick" in advice.reason, advice.reason


def test_a_moon_weighed_and_let_go_is_said() -> None:
    """A hint that went for the moon a card ago must not drop the plan without a word: when
    the search weighed the moon and chose otherwise, the hint says by how much it lost."""
    weighed = []
    for seed in (1, 2, 7):
        for view in positions(seed):
            if view.phase != "playing":
                continue
            advice = hint(view, NAMES, seed=1, budget=BUDGET)
            if any(option.moon for option in advice.options):
                weighed.append(advice.reason)
    assert len(weighed) >= 3  # these deals' strong hands weigh the moon
    for reason in weighed:
        assert "going for the moon instead" in reason, reason


def test_a_moon_plan_that_wins_by_chance_is_kept_in_mind_not_followed() -> None:
    """A strong player found "Go for the moon and …" said of a plan that came out ahead of
    playing without it by a margin the search could not tell from chance. Then the card is
    said plainly and the moon as a possibility; a clear margin keeps the plan."""
    names = NAMES[:3]
    close, clear = [], []
    for seed in (5, 9, 32):  # three-player deals where the search goes for the moon
        for view in positions(seed, 3):
            if view.phase != "playing":
                continue
            advice = hint(view, names, seed=1, budget=BUDGET)
            if not advice.options or not advice.options[0].moon:
                continue
            best = advice.options[0]
            plain = next(o for o in advice.options if not o.moon)
            if plain.average - best.average <= 2 * plain.error:
                close.append(advice.reason)
            else:
                clear.append(advice.reason)
    assert len(close) >= 3 and len(clear) >= 3, (close, clear)
    for reason in close:
        assert not reason.startswith("Go for the moon"), reason
        action, why = reason.split(": ", 1)
        assert "moon" not in action, reason
        assert "; that is going for the moon with it" in why, reason
        assert "so keep the moon in mind" in why, reason
    for reason in clear:
        assert reason.startswith("Go for the moon and "), reason
        assert "keep the moon in mind" not in reason, reason


def test_points_thrown_on_a_partners_trick_are_said_to_count_against_the_team() -> None:
    """Partners score their points together, so a heart or the Q♠ thrown on the partner's
    trick counts against the thrower's team: the hint says so, with "if Bertie keeps it" when
    a rival still plays after; a card without points gets no such words."""
    rules = hearts.Rules(partnership=True)
    seen: dict[str, str] = {}
    for seed in (5, 12, 35, 57):  # deals where the hint throws points on Bertie's trick
        for view in positions(seed, rules=rules):
            if view.phase != "playing" or not view.trick:
                continue
            action = hint(view, NAMES, seed=1, budget=BUDGET).reason.split(": ", 1)[0]
            if "on your partner Bertie's trick" not in action:
                continue
            card = next(c for c in view.hand if c.symbol in action)
            last = len(view.trick) == rules.players - 1
            keeps = "" if last else " if Bertie keeps it"
            if card.symbol == "Q♠":
                said = f", where its 13 points count against your team{keeps}"
            elif card.suit == HEARTS:
                said = f", where its 1 point counts against your team{keeps}"
            else:
                said = ""
            points = [t & POINT_FACES for t in Knowledge.from_view(view).taken]
            if said and (points[0] or points[2]) and not (points[1] or points[3]):
                said += ", unless your team shoots the moon"  # every point so far is theirs
            assert action.endswith(f"on your partner Bertie's trick{said}"), action
            seen.setdefault(said, action)
    assert {
        "",
        ", where its 13 points count against your team if Bertie keeps it",
        ", where its 1 point counts against your team",
        ", where its 1 point counts against your team if Bertie keeps it",
        ", where its 1 point counts against your team if Bertie keeps it, unless your team "
        "shoots the moon",
    } <= set(seen), seen


@pytest.mark.parametrize(
    ("bonus", "card", "said"),
    [
        (
            None,
            "3H",
            "its 1 point counts against your team if Bertie keeps it, unless your team "
            "shoots the moon",
        ),
        ("JD", "JD", "its 10 points come off your team's score if Bertie keeps it"),
    ],
)
def test_a_card_on_a_partners_trick_says_what_it_does_to_the_team(
    bonus: BonusCard | None, card: str, said: str
) -> None:
    """When every point taken so far is the team's, a heart on the partner's trick counts
    against it unless the team goes on to take them all (the moon); the bonus card there
    takes its 10 points off the team's score."""
    game = hearts.Round.from_hands(
        hearts.Rules(partnership=True, bonus_card=bonus),
        [
            ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "JD", "2H", "3H", "4H", "5H", "6H"],
            ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "QS"],
            ["AC", "AS", "KS", "JS", "TS", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
            ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TD", "9D", "QD", "KD", "AD"],
        ],
        pass_direction="hold",
    )
    # Bertie (seat 2) wins the first trick, then the Q♠ and the 2♥ on the A♠, and leads again.
    for played in ("2C", "AC", "2S", "2D", "AS", "3S", "2H", "QS", "KS", "4S"):
        game.play(played)
    view = game.view(0)
    face = hearts.parse_card(card)
    action = _action(Knowledge.from_view(view), face.face, NAMES, view.partner)
    assert action == f"Throw away the {face.symbol} on your partner Bertie's trick, where {said}"


def test_with_two_decks_a_hint_says_which_rule_of_thumb_chose_the_card() -> None:
    """Two decks are played by rules of thumb, not searched: the hint says which rule chose
    the card and why (it said only the position's facts, "both Q♠ are still out")."""
    rules = hearts.Rules(players=8)
    names = [f"P{seat}" for seat in range(rules.players)]
    seen: dict[str, str] = {}
    for seed in range(6):
        for view in positions(seed, rules.players):
            if view.phase != "playing" or len(view.legal) < 2:
                continue
            rule = explain_play(Knowledge.from_view(view))[1]
            reason = hint(view, names, seed=1).reason
            why = reason.split(": ", 1)[1].split(" Worth knowing")[0].split(";")[0].rstrip(".")
            assert "Q♠ are still out" not in why and "have no" not in why, reason
            seen.setdefault(rule, why)
    assert len(seen) >= 8, seen  # most of the rules met, each with its own words
    assert len(set(seen.values())) == len(seen), seen
    assert seen["duck"] == "the highest card you hold that still goes under"


def test_on_a_first_trick_without_points_the_queen_out_is_not_said() -> None:
    # "Go over the 9♣ with the K♣ … the Q♠ is still out" on the first trick, where no points
    # may fall: a fact that does not bear on the card. With points allowed there, it does.
    for rules, said in ((hearts.Rules(), False), (hearts.Rules(points_on_first_trick=True), True)):
        rnd = hearts.Round.deal(rules, 4, 0)
        for seat in range(rules.players):
            rnd.give(seat, rnd.hand(seat)[:3])
        view = rnd.view(rnd.turn)
        assert not view.tricks and not any(str(c) == "QS" for c in view.hand)
        facts = _context(Knowledge.from_view(view), view, NAMES)
        assert ("the Q♠ is still out" in facts) is said, facts


def test_a_lone_card_left_after_the_queen_gamble_is_said_as_a_learner_can_use_it() -> None:
    """The low spades under the trick play alike and the Q♠ gamble is left out, so one card
    was weighed: the hint said "the only card weighed over 8 deals that fit what you have
    seen". It says that the lower spades play alike, and what the queen would do."""
    import random

    rnd = hearts.Round.deal(hearts.Rules(), seed=24)
    for seat in range(4):
        rnd.give(seat, rnd.hand(seat)[:3])
    rng = random.Random(24)
    while rnd.turn != 0 or not rnd.view(0).trick or str(rnd.view(0).trick[0][1]) != "JS":
        rnd.play(rng.choice(rnd.legal_cards()))
    view = rnd.view(0)
    assert sorted(str(c) for c in rnd.legal_cards()) == ["5S", "6S", "QS"]
    advice = hint(view, NAMES, seed=24, budget=100)
    assert [str(c) for c in advice.cards] == ["5S"]
    assert advice.reason.startswith(
        "Duck under the J♠ with the 5♠: your spades under the J♠ play alike, and the Q♠ would"
        " win this trick unless a higher spade falls on her after you"
    ), advice.reason
    assert "only card weighed" not in advice.reason


def test_the_deals_searched_are_said_as_a_round_number() -> None:
    # "over 62 / 83 / 142 / 166 / 666 deals" read oddly exact.
    said = [_deals(n) for n in (62, 83, 142, 166, 666, 500, 1000, 8)]
    assert said == [
        "about 60 deals",
        "about 80 deals",
        "about 150 deals",
        "about 150 deals",
        "about 650 deals",
        "500 deals",
        "1000 deals",
        "8 deals",
    ]


def early_moon() -> hearts.Round:
    """Trick 4: Marisol has taken the Q♠ and two hearts, every point so far, and leads the
    K♦; seat 0 follows. The hard players' own rule (six hearts, or the queen and three)
    first warned of her moon at trick 11 in a tester's game."""
    game = hearts.Round.from_hands(
        hearts.Rules(),
        [
            "2C 3C 4C 2D 3D 4D 5D 3S 4S 5S AH KH 5H".split(),
            "AC KC QC AD KD QD JD AS KS 2S 6H 7H 8H".split(),
            "5C 6C 7C 8C QS JS TS 9S 8S 2H 3H 4H 9H".split(),
            "9C TC JC TD 9D 8D 7D 6D 7S 6S TH JH QH".split(),
        ],
        pass_direction="hold",
    )
    for card in "2C AC 5C 9C AS QS 7S 3S AD 2H 6D 2D KD 4H 7D".split():
        game.play(card)
    return game


def test_a_moon_is_warned_of_once_the_queens_taker_has_every_heart_played() -> None:
    game = early_moon()
    advice = hint(game.view(0), NAMES, seed=1, budget=BUDGET)
    assert "Marisol has taken every point so far and may be going for the moon" in advice.reason
    # Hearts taken by another seat: no moon to warn of.
    view = game.view(0)
    know = Knowledge.from_view(view)
    know.taken[3] |= 1 << parse_card("TH").face
    assert not any("moon" in fact for fact in _context(know, view, NAMES))


def test_a_moon_is_warned_of_by_the_middle_of_the_round() -> None:
    """Without the queen taken: a rival with every point so far is watched from the middle
    of the round (six tricks of thirteen played), however few hearts they hold, and not
    before."""
    queen = 1 << parse_card("QS").face

    def warned(know: Knowledge, view: hearts.PlayerView, seat: int) -> bool:
        said = f"{NAMES[seat]} has taken every point so far and may be going for the moon"
        return said in _context(know, view, NAMES)

    early = middle = 0
    for seed in range(1, 30):
        for view in positions(seed)[1:]:
            know = Knowledge.from_view(view)
            holders = [s for s in range(4) if know.taken[s] & POINT_FACES]
            if len(holders) != 1 or holders[0] == 0 or any(t & queen for t in know.taken):
                continue
            hearts_taken = (know.taken[holders[0]] & POINT_FACES).bit_count()
            if len(view.tricks) >= 6:
                middle += hearts_taken < 6  # the hard players' own rule would not warn
                assert warned(know, view, holders[0])
            elif hearts_taken < 6:
                early += 1
                assert not warned(know, view, holders[0])
    assert early and middle


def stopper_position() -> hearts.Round:
    """Trick 6: Marisol has taken the Q♠ and the 8♥ and leads the A♦; seat 0, with no
    diamonds, holds the A♥, the only heart it has above every heart still out."""
    game = hearts.Round.from_hands(
        hearts.Rules(),
        [
            "2C 3C 4C 5C 6C 3S 4S 5S 6S AH 5H 4H 3H".split(),
            "AC KC QC AD KD QD JD TD AS KS KH QH JH".split(),
            "7C 8C 9C 9D 8D 7D QS JS TS 2S 2H 6H 7H".split(),
            "TC JC 6D 5D 4D 3D 2D 9S 8S 7S 8H 9H TH".split(),
        ],
        pass_direction="hold",
    )
    moves = "2C AC 7C TC AS QS 9S 3S KS 2S 8S 4S KC 8C JC 5C QC 9C 8H 6C AD 9D 6D"
    for card in moves.split():
        game.play(card)
    return game


def test_a_hint_keeps_the_last_heart_that_can_stop_a_live_moon() -> None:
    """The tester's hint gave away the only heart that could stop the moon. With this seed
    the search puts throwing the A♥ on Marisol's trick first, by a margin it cannot tell from
    chance: the hint keeps it and says why."""
    view = stopper_position().view(0)
    advice = hint(view, NAMES, seed=5)
    assert advice.options[0].card == parse_card("AH")  # the search's own first
    assert advice.cards[0] != parse_card("AH")
    assert "that keeps your A♥, the last card you hold that can stop Marisol's moon" in (
        advice.reason
    )
    assert "(could be chance)" in advice.reason or "no better" in advice.reason
    # Over other seeds: the A♥ is given away only where the search finds that clearly
    # better than keeping it; a near thing keeps it.
    kept = given = 0
    for seed in range(20):
        advice = hint(view, NAMES, seed=seed, budget=400)
        if advice.options[0].card != parse_card("AH"):
            continue
        if advice.cards[0] == parse_card("AH"):
            given += 1
            assert "could be chance" not in advice.reason, advice.reason
        else:
            kept += 1
            assert "the last card you hold that can stop Marisol's moon" in advice.reason
    assert kept


def test_cards_that_play_alike_are_named_together() -> None:
    """ "Throw away the 3♣" read as if the 3♣ were better than the 4♣ beside it: touching
    cards with none between them out play alike, and the hint names them together."""
    view = stopper_position().view(0)
    advice = hint(view, NAMES, seed=0, budget=BUDGET)
    runs = representatives(Knowledge.from_view(view))
    alike = sorted(f for f, run in runs.items() if run == runs[advice.cards[0].face])
    assert len(alike) > 1
    symbols = [CARDS[f].symbol for f in alike]
    both = ", ".join(symbols[:-1]) + " or " + symbols[-1]
    assert f"your {both} (they play alike)" in advice.reason.split(":")[0], advice.reason
    said = 0
    for seed in (1, 2):
        for view in positions(seed)[1:]:
            advice = hint(view, NAMES, seed=seed, budget=BUDGET)
            runs = representatives(Knowledge.from_view(view))
            face = advice.cards[0].face
            group = [f for f, run in runs.items() if run == runs.get(face, face)]
            action = advice.reason.split(":")[0]
            assert ("(they play alike)" in action) == (
                len(group) > 1 and len(set(runs.values())) > 1
            )
            said += "(they play alike)" in action
    assert said


def test_a_card_on_the_trick_parts_cards_that_would_otherwise_play_alike() -> None:
    """The 8♦ winning the trick lies between the 7♦ and the 9♦: the 7♦ ducks and the 9♦
    takes it. They were one run (cards played count as gone), so the search never tried the
    9♦, and the hint said "Duck under the 8♦ with your 7♦ or 9♦ (they play alike)"."""
    hands = [
        "2C 5D 7D 9D JD AD 2S 3S 4S 5S 6S 7S 8S".split(),
        "KC 2D 3D 4D 6D TD QD KD 9S TS JS QS KS".split(),
        "3C 5C 8D AS 2H 3H 4H 5H 6H 7H 8H 9H TH".split(),
        "4C AC 6C 7C 8C 9C TC JC QC JH QH KH AH".split(),
    ]
    game = hearts.Round.from_hands(hearts.Rules(), hands, pass_direction="hold")
    for card in "2C KC 3C 4C 2D 8D AC".split():
        game.play(card)
    view = game.view(0)
    runs = representatives(Knowledge.from_view(view))
    symbol = {face: CARDS[face].symbol for face in runs}
    grouped = sorted({tuple(symbol[f] for f in runs if runs[f] == run) for run in runs.values()})
    assert grouped == [("5♦",), ("7♦",), ("9♦",), ("A♦",), ("J♦",)], grouped
    # A card on the trick that is not winning it parts nothing: with the 6♦ led and the 8♦
    # over it, the 5♦ and the 7♦ both duck.
    ducked = hearts.Round.from_hands(hearts.Rules(), hands, pass_direction="hold")
    for card in "2C KC 3C 4C 6D 8D AC".split():
        ducked.play(card)
    runs = representatives(Knowledge.from_view(ducked.view(0)))
    assert runs[parse_card("7D").face] == runs[parse_card("5D").face]
    assert runs[parse_card("9D").face] != runs[parse_card("7D").face]
    # With the 8♦ gone in an earlier trick instead, the 7♦ and the 9♦ do play alike.
    later = hearts.Round.from_hands(
        hearts.Rules(),
        [
            "2C 5D 7D 9D JD AD 2S 3S 4S 5S 6S 7S 8S".split(),
            "KC 8D 3D 4D 6D TD QD KD 9S TS JS QS KS".split(),
            "3C 5C 2D AS 2H 3H 4H 5H 6H 7H 8H 9H TH".split(),
            "4C AC 6C 7C 8C 9C TC JC QC JH QH KH AH".split(),
        ],
        pass_direction="hold",
    )
    for card in "2C KC 3C 4C 8D 2D AC 5D 3D AS QC".split():
        later.play(card)
    runs = representatives(Knowledge.from_view(later.view(0)))
    assert runs[parse_card("9D").face] == runs[parse_card("7D").face]


def test_the_only_card_is_an_ace_or_an_eight() -> None:
    # Two decks, both copies the only legal card: "every card you can play is a A♣".
    know = Knowledge.from_view(positions(0)[0])
    for card, said in (("AC", "is an A♣"), ("8D", "is an 8♦"), ("QS", "is a Q♠")):
        reason = _rule_of_thumb("only", know, NAMES, parse_card(card).face)
        assert reason.endswith(said), reason


def test_the_bonus_card_taken_or_left_is_said() -> None:
    """Omnibus: no hint ever said the J♦ decided it. Seat 0 plays last to Marisol's Q♦,
    Bertie's K♦ and Tamsin's J♦, holding the A♦ and low diamonds."""
    game = hearts.Round.from_hands(
        hearts.Rules(bonus_card="JD"),
        [
            "QS 3S 5C KC 2D 3D 4D 5D 6D 7D 8D 9D AD".split(),
            "AC 4S 5S 6S 7S 8S 9S TS JS KS AS 3H QD".split(),
            "2C 3C 4C 6C 7C 8C 9C TC JC QC KD TD 2H".split(),
            "2S JD 4H 5H 6H 7H 8H 9H TH JH QH KH AH".split(),
        ],
        pass_direction="hold",
    )
    for card in "2C 2S 5C AC QD KD JD".split():
        game.play(card)
    advice = hint(game.view(0), NAMES, seed=1, budget=BUDGET)
    assert advice.cards == (parse_card("AD"),)
    assert "; it takes the J♦ on the trick, 10 points off your score" in advice.reason
    # Said once: the fact "the J♦ on it takes 10 points off its winner" is not repeated.
    assert advice.reason.count("J♦") == 1
