"""Viewer timeline: state at any event equals a full replay; series, turn marks, swings and luck
are derived correctly from the events (generic: DiceRolled odds, read models)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from domain.engine import replay
from domain.events import DiceRolled
from domain.record import read_record_file
from tests.helpers import FIXTURES
from viewer.timeline import Timeline

RIVER_PLATE = FIXTURES / "games" / "morze" / "river_plate-annihilation.wake.json"


@pytest.fixture(scope="module")
def timeline() -> Timeline:
    record = read_record_file(RIVER_PLATE)
    return Timeline(record.header, record.events, checkpoint_every=50)


def test_state_at_equals_full_replay(timeline: Timeline) -> None:
    for n in (0, 1, 49, 50, 51, 137, timeline.length):
        expected = replay(timeline.header, timeline.facts[:n])
        got = timeline.state_at(n)
        assert got.seq == n and got.rules == expected.rules and got.head == expected.head


def test_turn_starts_match_read_models(timeline: Timeline) -> None:
    turns = [t for t, _ in timeline.turn_starts]
    assert turns == sorted(turns) and turns[0] == 1 and len(turns) > 3
    for turn, seq in timeline.turn_starts[1:]:
        assert timeline.view_at(seq).turn == turn
        assert timeline.view_at(seq - 1).turn == turn - 1
        assert timeline.next_turn_start(seq - 1) == seq
        assert timeline.prev_turn_start(seq + 1) == seq


def test_kills_are_swings_at_destruction_events_pl5(timeline: Timeline) -> None:
    destroyed = {f.seq for f in timeline.facts if f.topic == "morze.UnitDestroyed/1"}
    kills = {s.seq for s in timeline.swings if s.kind == "kill"}
    assert kills == destroyed and kills


def test_damage_series_end_at_final_damage(timeline: Timeline) -> None:
    final = timeline.view_at(timeline.length)
    for unit in final.units:
        assert timeline.damage_unit.points[unit.name][-1] == (timeline.length, unit.damage)
    for side in final.sides:
        assert timeline.vp.points[side.name][-1][1] == side.vp


def test_luck_is_actual_minus_expected_per_side(timeline: Timeline) -> None:
    luck: dict[str, Fraction] = {}
    for fact in timeline.facts:
        if fact.topic == DiceRolled.TOPIC:
            roll = DiceRolled.model_validate(fact.payload)
            delta = Fraction(roll.value) - Fraction(roll.expected)
            side = roll.roll.side or ""
            luck[side] = luck.get(side, Fraction(0)) + delta
            if roll.opposed_by is not None and roll.opposed_by.side:
                opp = roll.opposed_by.side
                luck[opp] = luck.get(opp, Fraction(0)) - delta
    for side_id, total in luck.items():
        name = timeline.side_names[side_id]
        assert timeline.luck.points[name][-1][1] == pytest.approx(float(total))


def test_luck_swings_are_the_rarest_outcomes(timeline: Timeline) -> None:
    """Lucky = the five least likely successes, unlucky = the five least likely failures."""
    rolls = [
        (Fraction(f.payload["p_outcome"]), f.seq, f.payload["success"])
        for f in timeline.facts
        if f.topic == DiceRolled.TOPIC
    ]
    for kind, wanted in (("lucky", True), ("unlucky", False)):
        expected = {seq for _, seq, _ in sorted(r for r in rolls if r[2] is wanted)[:5]}
        assert {s.seq for s in timeline.swings if s.kind == kind} == expected


def test_event_index_carries_sides_and_units(timeline: Timeline) -> None:
    declared = next(e for e in timeline.events if e.kind == "AttackDeclared")
    fact = timeline.facts[declared.seq - 1]
    assert declared.side == fact.payload["side"]
    assert declared.units == (fact.payload["attacker"], fact.payload["target"])


def test_the_game_summary_names_result_losses_vp_luck_and_key_moments() -> None:
    """Issue 13 (polish): a short summary of a bundled game: the result, each side's losses,
    VP and luck, and key moments with their event numbers."""
    from domain.record import read_record_file
    from tests.helpers import FIXTURES
    from viewer.timeline import Timeline

    record = read_record_file(FIXTURES / "games/armada/core_learning-last-ship.wake.json")
    tl = Timeline(record.header, record.events)
    lines = tl.summary()
    assert lines[0].startswith("Result: ") and "destroyed" in lines[0]
    assert sum(1 for line in lines if "units lost" in line and "VP" in line) == 2
    assert "Key moments:" in lines
    moments = [line for line in lines if line.startswith("  event ")]
    assert 0 < len(moments) <= 6 and any("(kill)" in m for m in moments)
