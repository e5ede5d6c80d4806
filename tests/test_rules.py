import dataclasses

import pytest

from hearts import PRESETS, Rules


def test_defaults_are_the_standard_game() -> None:
    rules = Rules()
    assert rules.players == 4
    assert rules.pass_count == 3
    assert rules.pass_cycle == ("left", "right", "across", "hold")
    assert rules.points_on_first_trick is False
    assert rules.must_break_hearts is True
    assert rules.queen_breaks_hearts is False
    assert rules.lead_hearts_instead_of_queen is False
    assert rules.bonus_card is None
    assert rules.moon_rule == "add"
    assert rules.target_score == 100
    assert rules.hand_size == 13
    assert rules.round_points == 26
    assert rules.opening_card == "2C"


def test_rules_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().target_score = 50  # type: ignore[misc]


def test_pass_cycle_repeats_every_four_rounds() -> None:
    rules = Rules()
    assert [rules.pass_direction(h) for h in range(6)] == [
        "left",
        "right",
        "across",
        "hold",
        "left",
        "right",
    ]
    assert Rules.preset("no-hold").pass_direction(3) == "left"
    assert Rules.preset("scatter").pass_direction(3) == "scatter"
    assert Rules().cards_to_pass("scatter") == 3
    assert Rules().cards_to_pass("hold") == 0


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"target_score": 0}, "target score"),
        ({"target_score": -5}, "target score"),
        ({"pass_count": 13}, "passed"),
        ({"pass_cycle": ("left", "sideways")}, "not a pass direction"),
        ({"pass_cycle": ()}, "at least one direction"),
        ({"bonus_card": "QD"}, "bonus card"),
        ({"moon_rule": "double"}, "moon rule"),
        ({"tie_rule": "coin"}, "tie rule"),
        ({"first_lead": "anyone"}, "first-lead"),
        ({"exactly_target_resets_to": 100}, "exactly"),
        ({"players": 2}, "3 to 10"),
        ({"players": 11}, "3 to 10"),
        ({"partners_pass": True}, "partnership"),
    ],
)
def test_nonsense_is_refused_with_a_sentence(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message) as error:
        Rules(**changes)  # type: ignore[arg-type]
    text = str(error.value)
    assert (text[0].isupper() or text[0] == "'") and text.endswith(".")


def test_dict_round_trip_for_every_preset() -> None:
    for name in PRESETS:
        rules = Rules.preset(name)
        assert Rules.from_dict(rules.to_dict()) == rules


def test_from_dict_refuses_unknown_fields_and_wrong_types() -> None:
    with pytest.raises(ValueError, match="Unknown rule 'jokers'"):
        Rules.from_dict({"jokers": True})
    with pytest.raises(ValueError, match="on or off"):
        Rules.from_dict({"shoot_the_sun": "yes"})
    with pytest.raises(ValueError, match="whole number"):
        Rules.from_dict({"target_score": "100"})
    with pytest.raises(ValueError, match="object"):
        Rules.from_dict(["players", 4])  # type: ignore[arg-type]


def test_unknown_preset() -> None:
    with pytest.raises(ValueError, match="no preset called 'fast'"):
        Rules.preset("fast")


def test_preset_with_changes() -> None:
    assert Rules.preset("short", bonus_card="TD").bonus_card == "TD"
    assert Rules.preset("short", bonus_card="TD").target_score == 50


def test_a_preset_with_a_round_across_at_a_table_with_nobody_across() -> None:
    # "no-hold" is left and right there, as the sheets print it; a scatter is refused in
    # words that say why (not "Nobody sits across", a pass the user never asked for).
    assert Rules.preset("no-hold", players=5).pass_cycle == ("left", "right")
    assert Rules.preset("no-hold", players=6).pass_cycle == ("left", "right", "across")
    with pytest.raises(ValueError, match=r"^The scatter preset has a round across, and nobody"):
        Rules.preset("scatter", players=5)
    # A cycle chosen with the preset is the user's own: refused as it stands.
    with pytest.raises(ValueError, match="Nobody sits across with 5 players"):
        Rules.preset("no-hold", players=5, pass_cycle=("left", "across"))
