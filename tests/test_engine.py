"""Engine-level behaviour on Morze games: determinism, replay, tamper detection, physical dice.

A game is its header plus a hash-chained list of facts. Seeded dice make a game reproducible
(die n is a pure function of the seed and n); physical dice arrive as faces in each order's
envelope (IO-1.6: a d10 showing 0 reads as 10). Replay folds stored facts and never throws dice.
"""

from __future__ import annotations

import copy
import re
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.dice import seeded_face
from domain.engine import (
    CommandEnvelope,
    Fact,
    Session,
    apply_event,
    decode,
    header_for,
    replay,
)
from domain.errors import DiceMismatch, GameOver, InvalidCommand, RecordError, WakeError
from domain.header import GameHeader

DICE = "wake.DiceRolled/1"

SCENARIO_3V3: dict[str, Any] = {
    "id": "three-a-side",
    "title": "Three a side",
    "table": {"width": 120, "height": 80},
    "sides": [{"id": "a", "name": "Side A"}, {"id": "b", "name": "Side B"}],
    "units": [
        {"id": "a1", "side": "a", "class": "battleship", "x": 10, "y": 20},
        {"id": "a2", "side": "a", "class": "destroyer", "x": 10, "y": 40},
        {"id": "a3", "side": "a", "class": "light_cruiser", "x": 10, "y": 60},
        {"id": "b1", "side": "b", "class": "heavy_cruiser", "x": 110, "y": 20},
        {"id": "b2", "side": "b", "class": "destroyer", "x": 110, "y": 40},
        {"id": "b3", "side": "b", "class": "corvette", "x": 110, "y": 60},
    ],
    "victory": {"annihilation": True, "turn_limit": 8},
}

DUEL: dict[str, Any] = {
    "id": "duel",
    "title": "Duel",
    "table": {"width": 100, "height": 100},
    "sides": [{"id": "a", "name": "Side A"}, {"id": "b", "name": "Side B"}],
    "units": [
        {"id": "a1", "side": "a", "class": "battleship", "x": 10, "y": 50},
        {"id": "b1", "side": "b", "class": "battleship", "x": 30, "y": 50},
    ],
}


def bot_game(seed: int) -> Session:
    session = Session(header_for("morze", SCENARIO_3V3, game_id="bot", seed=seed))
    while session.submit_bot():
        pass
    return session


def dice_faces(facts: list[Fact]) -> list[int]:
    faces: list[int] = []
    for fact in facts:
        if fact.topic == DICE:
            faces += fact.payload["roll"]["faces"]
            if fact.payload["opposed_by"]:
                faces += fact.payload["opposed_by"]["faces"]
    return faces


def order(
    side: str | None, command: dict[str, Any], dice: list[int] | None = None
) -> CommandEnvelope:
    return CommandEnvelope(side=side, command=command, dice=dice)


ROLL = {"type": "roll_initiative"}


def assert_refused(session: Session, envelope: CommandEnvelope, error: type[WakeError]) -> str:
    """The order is refused with ``error`` and the session is left exactly as it was."""
    state, facts = session.state, list(session.facts)
    with pytest.raises(error) as info:
        session.submit(envelope)
    assert session.facts == facts
    assert session.state == state
    return str(info.value)


# --- determinism -------------------------------------------------------------------------------


def test_bot_game_finishes_on_the_turn_limit_or_annihilation() -> None:
    """PL-7 with scenario victory: a bot game ends, and then nothing more can be ordered."""
    session = bot_game(1)
    result = session.state.result
    assert result is not None and result.rule == "PL-7"
    assert session.facts[-1].topic == "wake.GameEnded/1"
    assert session.state.rules.turn <= 8
    assert session.submit_bot() is None
    assert_refused(session, order(None, ROLL), GameOver)


def test_same_seed_gives_identical_facts_and_digests() -> None:
    first, second = bot_game(7), bot_game(7)
    assert [f.topic for f in first.facts] == [f.topic for f in second.facts]
    assert [f.payload for f in first.facts] == [f.payload for f in second.facts]
    assert [f.digest for f in first.facts] == [f.digest for f in second.facts]
    assert first.facts == second.facts
    assert first.state.head == second.state.head


def test_different_seeds_give_different_dice_and_chains() -> None:
    first, second = bot_game(7), bot_game(8)
    assert dice_faces(first.facts) != dice_faces(second.facts)
    assert first.state.head != second.state.head


def test_seeded_dice_are_a_pure_function_of_seed_and_position() -> None:
    """Die n of a seeded game is seeded_face(seed, n, 10); positions run on without gaps."""
    session = bot_game(11)
    position = 0
    for fact in session.facts:
        if fact.topic != DICE:
            continue
        assert fact.payload["first_die"] == position
        for face in dice_faces([fact]):
            assert face == seeded_face(11, position, 10)
            position += 1
    assert session.state.dice_position == position > 0


def test_the_dice_position_never_goes_back() -> None:
    """A roll recorded after one drawn later (a ruleset may record a critical's rolls before the
    attack rolls drawn first) must not move the next die back: die n is thrown once per game."""
    session = bot_game(11)
    rolls = [f for f in session.facts if f.topic == DICE]
    late, early = rolls[-1], rolls[0]
    state = replay(session.header, [])
    for fact in (late, early):
        state = apply_event(state, decode(state, fact), fact.digest)
    assert state.dice_position == late.payload["first_die"] + len(dice_faces([late]))


def test_fact_sequence_and_chain_are_contiguous() -> None:
    session = bot_game(3)
    assert [f.seq for f in session.facts] == list(range(1, len(session.facts) + 1))
    assert session.state.seq == len(session.facts)
    assert session.state.head == session.facts[-1].digest
    assert len({f.digest for f in session.facts}) == len(session.facts)
    issued = [f for f in session.facts if f.topic == "wake.CommandIssued/1"]
    assert [f.payload["index"] for f in issued] == list(range(len(issued)))
    assert session.state.commands == len(issued)


# --- replay ------------------------------------------------------------------------------------


def test_replay_equals_live_state() -> None:
    session = bot_game(5)
    replayed = replay(session.header, session.facts)
    assert replayed.rules == session.state.rules
    assert replayed == session.state


def test_session_reloaded_from_facts_continues_identically() -> None:
    header = header_for("morze", SCENARIO_3V3, game_id="bot", seed=21)
    live = Session(header)
    for _ in range(40):
        assert live.submit_bot()
    reloaded = Session(header, live.facts)
    assert reloaded.state == live.state
    while True:
        ahead = live.submit_bot()
        assert reloaded.submit_bot() == ahead
        if ahead is None:
            break
    assert reloaded.state.result is not None
    assert reloaded.facts == live.facts


def tampered(facts: list[Fact], index: int, payload: dict[str, Any]) -> list[Fact]:
    copied = list(facts)
    copied[index] = facts[index].model_copy(update={"payload": payload})
    return copied


def test_replay_detects_a_changed_dice_face() -> None:
    session = bot_game(5)
    index = next(
        i
        for i, f in enumerate(session.facts)
        if f.topic == DICE and f.payload["purpose"] == "to hit"
    )
    fact = session.facts[index]
    payload = copy.deepcopy(fact.payload)
    face = payload["roll"]["faces"][0]
    payload["roll"]["faces"][0] = face % 10 + 1
    payload["roll"]["natural"] = payload["roll"]["total"] = face % 10 + 1
    forged = tampered(session.facts, index, payload)
    with pytest.raises(RecordError, match=rf"\bevent {fact.seq}\b"):
        replay(session.header, forged)
    # The original log is untouched and still replays.
    assert session.facts[index].payload["roll"]["faces"] == [face]
    assert replay(session.header, session.facts).rules == session.state.rules


def test_replay_detects_a_changed_initiative_roll() -> None:
    session = bot_game(5)
    index = next(i for i, f in enumerate(session.facts) if f.topic == DICE)
    fact = session.facts[index]
    payload = copy.deepcopy(fact.payload)
    payload["opposed_by"]["faces"] = [payload["opposed_by"]["faces"][0] % 10 + 1]
    with pytest.raises(RecordError, match=rf"\bevent {fact.seq}\b"):
        replay(session.header, tampered(session.facts, index, payload))
    with pytest.raises(RecordError, match=rf"\bevent {fact.seq}\b"):
        Session(session.header, tampered(session.facts, index, payload))


def test_replay_detects_a_dropped_fact() -> None:
    session = bot_game(5)
    facts = session.facts[:10] + session.facts[11:]
    with pytest.raises(RecordError, match=r"\bevent 12\b"):
        replay(session.header, facts)


def test_replay_detects_a_changed_header() -> None:
    session = bot_game(5)
    other = header_for("morze", SCENARIO_3V3, game_id="bot", seed=6)
    with pytest.raises(RecordError, match=r"\bevent 1\b"):
        replay(other, session.facts)


def test_replay_never_throws_dice() -> None:
    """A physical game replays from its facts alone, without the entered faces."""
    header = header_for("morze", DUEL, game_id="p", seed=None)
    session = Session(header)
    session.submit(order(None, ROLL, [3, 8]))
    assert replay(header, session.facts) == session.state


# --- physical dice -----------------------------------------------------------------------------


def physical() -> Session:
    return Session(header_for("morze", DUEL, game_id="p", seed=None))


def test_physical_initiative_takes_the_entered_faces() -> None:
    session = physical()
    facts = session.submit(order(None, ROLL, [3, 8]))
    assert facts[0].topic == "wake.CommandIssued/1"
    assert facts[0].payload["dice"] == [3, 8]
    roll = next(f.payload for f in facts if f.topic == DICE)
    assert roll["roll"]["faces"] == [3] and roll["opposed_by"]["faces"] == [8]
    assert session.state.rules.initiative == "b"
    assert session.state.dice_position == 2


@pytest.mark.parametrize(
    "faces",
    [[], [7], [5, 5], [5, 5, 2]],
    ids=["none", "one", "tie-needs-a-reroll", "reroll-half-entered"],
)
def test_physical_too_few_faces_is_refused(faces: list[int]) -> None:
    """PL-1 needs two d10 (four after a tie)."""
    assert_refused(physical(), order(None, ROLL, faces), DiceMismatch)


@pytest.mark.parametrize("faces", [[7, 3, 4], [5, 5, 3, 7, 1]])
def test_physical_too_many_faces_is_refused(faces: list[int]) -> None:
    assert_refused(physical(), order(None, ROLL, faces), DiceMismatch)


def test_physical_faces_for_an_order_that_throws_no_dice_are_refused() -> None:
    session = physical()
    session.submit(order(None, ROLL, [3, 8]))
    assert_refused(session, order("a", {"type": "end_movement"}, [4]), DiceMismatch)
    session.submit(order("a", {"type": "end_movement"}))


@pytest.mark.parametrize("bad", [11, -1, 12, 100])
def test_physical_face_off_the_d10_is_refused(bad: int) -> None:
    message = assert_refused(physical(), order(None, ROLL, [bad, 3]), DiceMismatch)
    assert str(bad) in message


def test_physical_d10_zero_reads_as_ten() -> None:
    """IO-1.6 / PL dice: a d10 showing 0 is a 10, so A's 0 beats B's 9."""
    session = physical()
    facts = session.submit(order(None, ROLL, [0, 9]))
    roll = next(f.payload for f in facts if f.topic == DICE)
    assert roll["roll"]["faces"] == [10] and roll["roll"]["total"] == 10
    assert facts[0].payload["dice"] == [10, 9]
    assert session.state.rules.initiative == "a"


def test_physical_tie_reroll_records_all_four_faces() -> None:
    session = physical()
    facts = session.submit(order(None, ROLL, [5, 5, 3, 7]))
    assert facts[0].payload["dice"] == [5, 5, 3, 7]
    assert len([f for f in facts if f.topic == DICE]) == 2
    assert session.state.rules.initiative == "b"


def test_physical_attack_chain_uses_exactly_the_faces_it_needs() -> None:
    """PL-4: hit, defence (only on a hit), damage (only on a failed defence)."""
    session = physical()
    session.submit(order(None, ROLL, [3, 8]))  # b holds initiative: a acts first
    for side in ("a", "b"):
        session.submit(order(side, {"type": "end_movement"}))
    session.submit(order("a", {"type": "declare_attack", "attacker": "a1", "target": "b1"}))
    session.submit(order("a", {"type": "end_declarations"}))
    session.submit(order("b", {"type": "end_declarations"}))
    resolve = {"type": "resolve_attacks"}
    assert_refused(session, order(None, resolve, [4, 2]), DiceMismatch)  # needs a damage die
    assert_refused(session, order(None, resolve, [4, 2, 10, 1]), DiceMismatch)
    facts = session.submit(order(None, resolve, [4, 2, 0]))  # 0 = 10: critical
    assert facts[0].payload["dice"] == [4, 2, 10]
    assert session.state.rules.units["b1"].damage == 2
    assert replay(session.header, session.facts) == session.state


def test_physical_order_without_dice_needs_no_faces() -> None:
    session = physical()
    session.submit(order(None, ROLL, [9, 1]))
    facts = session.submit(order("b", {"type": "move", "unit": "b1", "x": 35, "y": 50}))
    assert facts[0].payload["dice"] is None


def test_seeded_game_refuses_entered_dice() -> None:
    session = Session(header_for("morze", DUEL, game_id="s", seed=1))
    message = assert_refused(session, order(None, ROLL, [3, 8]), DiceMismatch)
    assert "seeded" in message
    facts = session.submit(order(None, ROLL))
    assert facts[0].payload["dice"] is None


def test_physical_header_has_no_seed_and_seeded_header_keeps_it() -> None:
    assert header_for("morze", DUEL, game_id="p", seed=None).dice.mode == "physical"
    seeded = header_for("morze", DUEL, game_id="s", seed=42)
    assert (seeded.dice.mode, seeded.dice.seed) == ("seeded", 42)


# --- other refusals ----------------------------------------------------------------------------


def test_malformed_order_is_refused_without_trace() -> None:
    session = Session(header_for("morze", DUEL, game_id="s", seed=1))
    assert_refused(session, order(None, {"type": "teleport"}), InvalidCommand)
    assert_refused(session, order(None, {"type": "move", "unit": "a1"}), InvalidCommand)


def test_order_from_an_unknown_side_is_refused() -> None:
    session = Session(header_for("morze", DUEL, game_id="s", seed=1))
    assert_refused(session, order("zz", ROLL), InvalidCommand)


def test_order_from_an_unknown_side_is_refused_for_unit_orders() -> None:
    session = Session(header_for("morze", DUEL, game_id="s", seed=1))
    session.submit(order(None, ROLL))
    assert_refused(session, order("zz", {"type": "end_movement"}), WakeError)


# --- property: any seed ------------------------------------------------------------------------


def _fraction(text: str) -> Fraction:
    assert re.fullmatch(r"-?\d+(/\d+)?", text), text
    return Fraction(text)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**53 - 1))
def test_any_seeded_bot_game_replays_and_records_exact_odds(seed: int) -> None:
    session = bot_game(seed)
    assert session.state.result is not None
    replayed = replay(session.header, session.facts)
    assert replayed.rules == session.state.rules
    assert replayed == session.state
    rolls = [f.payload for f in session.facts if f.topic == DICE]
    assert rolls
    for roll in rolls:
        p_outcome = _fraction(roll["p_outcome"])
        assert 0 <= p_outcome <= 1
        if roll["comparison"] == "table":  # a damage roll has no success, only outcomes
            assert roll["p_success"] is None
        else:
            p_success = _fraction(roll["p_success"])
            assert 0 <= p_success <= 1
            if roll["outcome"] == "success":
                assert p_outcome == p_success
            elif roll["outcome"] == "failure" and roll["purpose"] != "initiative":
                assert p_outcome == 1 - p_success
        assert p_outcome > 0  # what happened cannot have been impossible
        assert roll["roll"]["expression"] == "d10"
        faces = roll["roll"]["faces"] + (roll["opposed_by"] or {"faces": []})["faces"]
        assert faces and all(1 <= face <= 10 for face in faces)


def test_header_round_trips() -> None:
    header = header_for("morze", SCENARIO_3V3, game_id="h", seed=3)
    assert GameHeader.model_validate(header.model_dump(mode="json")) == header


@pytest.mark.parametrize("bad", ["nan", "inf", "-inf"])
def test_non_finite_coordinates_are_refused_pl2(bad: str) -> None:
    """PL-2: a move to NaN or infinity is not a point on the table; refused, nothing appended."""
    from domain.errors import InvalidCommand
    from tests.helpers import small_scenario as _small

    session = Session(header_for("morze", _small(), game_id="nan", seed=1))
    session.submit(CommandEnvelope(command={"type": "roll_initiative"}))
    mover = session.state.rules.active
    unit = session.state.rules.alive(mover)[0]
    before = list(session.facts)
    with pytest.raises(InvalidCommand):
        session.submit(
            CommandEnvelope(
                side=mover, command={"type": "move", "unit": unit.id, "x": float(bad), "y": unit.y}
            )
        )
    assert session.facts == before
