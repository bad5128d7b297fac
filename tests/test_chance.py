"""Chance events record exact odds; a tie to be re-rolled is luck-neutral (PL-1)."""

from __future__ import annotations

from fractions import Fraction

from domain.chance import opposed_roll, table_roll, target_roll
from domain.dice import FixedDice


def test_target_roll_records_exact_odds_pl4() -> None:
    event = target_roll(
        FixedDice([4]), expression="d10", target=4, side="a", purpose="to hit", rule="PL-4b"
    )
    assert (event.success, event.p_success, event.p_outcome) == (True, "7/10", "7/10")
    assert (event.value, event.expected) == ("1", "7/10")
    assert event.compared_with == 4 and event.roll.faces == [4]


def test_opposed_tie_with_label_is_neutral_pl1() -> None:
    event = opposed_roll(
        FixedDice([5, 5]),
        actor="d10",
        opponent="d10",
        side="a",
        opponent_side="b",
        purpose="initiative",
        rule="PL-1",
        tie_label="tie",
    )
    assert event.outcome == "tie" and event.success is None
    assert event.p_outcome == "1/10" and event.value == event.expected == "9/20"


def test_opposed_tie_without_label_fails_io_1_6_1() -> None:
    event = opposed_roll(
        FixedDice([5, 5]),
        actor="d10",
        opponent="d10",
        side="a",
        opponent_side="b",
        purpose="check",
        rule="IO-1.6.1.A",
    )
    assert event.outcome == "failure" and event.success is False
    assert event.p_outcome == str(1 - Fraction(9, 20))


def test_table_roll_expected_value_pl4d() -> None:
    event = table_roll(
        FixedDice([10]),
        expression="d10",
        table=lambda t: ("2 damage", 2) if t == 10 else ("1 damage", 1),
        side="a",
        purpose="damage",
        rule="PL-4d",
    )
    assert (event.outcome, event.value, event.p_outcome) == ("2 damage", "2", "1/10")
    assert event.expected == "11/10"
