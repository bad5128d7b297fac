"""Iron & Oak's ``pass`` order ("nothing this step"), driven through the engine like a player.

Where the rules let a side do nothing (IO-3.1 Status choices, IO-3.3.1 C the opponent's movement
cards, IO-3.3.2 B/C no fire, IO-3.3.2 D no Misfire, IO-3.4 no exchange) ``pass`` gives exactly
the facts of the step's empty order; where they require something (IO-3.2 an order card on
every ship, IO-5.0 every ship tries to move, the deal IO-3.4 and the Victory Phase IO-3.5) it is
refused with the rule and what to give instead, and nothing is appended.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.engine import Fact, Session
from domain.errors import IllegalCommand, NotYourTurn
from domain.record import read_record, verify_record, write_record
from domain.ruleset import get_ruleset
from domain.rulesets.iron_oak.commands import Pass
from tests.test_iron_oak_turn import (
    doctor,
    new_game,
    play_until,
    quiet_command,
    refused,
    scenario,
    stay,
    submit,
)

PASS = {"type": "pass"}
EMPTY = [
    {"type": "status"},
    {"type": "respond_movement"},
    {"type": "declare_fire"},
    {"type": "respond_fire"},
    {"type": "exchange_card"},
]


def without_orders(facts: list[Fact]) -> list[tuple[str, bool, Any]]:
    """The facts with each order's own record reduced to its side: what the orders caused."""
    out = []
    for fact in facts:
        payload: Any = fact.payload
        if fact.topic == "wake.CommandIssued/1":
            payload = (payload["index"], payload["side"])
        out.append((fact.topic, fact.automatic, payload))
    return out


def fork(s: Session) -> Session:
    """A copy of the game in its current state (also a state set up by ``doctor``)."""
    copy = Session(s.header, s.facts)
    copy.state = s.state
    return copy


def long_and_pass(s: Session, side: str | None, long: dict[str, Any]) -> list[Fact]:
    """Give ``long`` on a copy of the game and ``pass`` on the game itself: the same facts."""
    other = fork(s)
    expected = submit(other, side, long)
    got = submit(s, side, PASS)
    assert without_orders(got) == without_orders(expected)
    assert s.state.rules == other.state.rules
    assert got[0].payload["command"] == PASS  # the log says what the player said
    return got


@pytest.mark.parametrize("mode", ["standard", "alternating"])
def test_io3_pass_in_every_step_with_nothing_to_do_gives_the_long_forms_facts(mode: str) -> None:
    """IO-3: two quiet turns where every empty order (status, respond_movement, declare_fire,
    exchange_card) is given as ``pass`` have the same facts as the long forms; the record with
    ``pass`` verifies (every order re-decided)."""
    s = new_game(scenario(at={"virginia": (2, 3)}), mode=mode)
    passes = 0
    while s.state.rules.turn < 3:
        side, command = quiet_command(s.state.rules)
        if command in EMPTY:
            long_and_pass(s, side, command)
            passes += 1
        else:
            submit(s, side, command)
    assert passes >= 12
    verify_record(read_record(write_record(s.header, s.facts), strict=True))


def test_io3_3_2_pass_in_the_misfire_window_plays_no_misfire() -> None:
    """IO-3.3.2 D: the opponent "may use one Misfire"; passing the window lets the declared fire
    resolve, with the same dice and facts as ``respond_fire`` with no card."""
    s = new_game(scenario(at={"virginia": (1, 1)}))
    play_until(s, "gunnery", "USA")
    fire = {"firer": "cumberland", "section": 0, "target": "virginia"}
    submit(s, "USA", {"type": "declare_fire", "fires": [fire]})
    facts = long_and_pass(s, "CSA", {"type": "respond_fire"})
    assert any(f.topic == "iron_oak.GunneryResolved/1" for f in facts)


def test_io3_3_1_pass_in_the_opponents_movement_window_plays_no_card() -> None:
    """IO-3.3.1 C: the opponent may play "as many movement cards as wished", so none: the move
    is carried out with the same facts as ``respond_movement`` with no cards."""
    s = new_game(scenario(at={"virginia": (2, 3)}))
    play_until(s, "movement", "USA")
    submit(s, "USA", stay(s.state.rules, "cumberland"))
    facts = long_and_pass(s, "CSA", {"type": "respond_movement"})
    assert any(f.topic == "iron_oak.OrderCompleted/1" for f in facts)


def test_io3_2_pass_is_refused_while_a_ship_needs_an_order_card() -> None:
    """IO-3.2: an order card on every ship under command; ``pass`` is refused with the rule
    and the ships that need one; nothing is appended."""
    s = new_game(scenario(at={"virginia": (2, 3)}))
    play_until(s, "orders", "USA")
    error = refused(s, "USA", PASS, IllegalCommand, "IO-3.2")
    assert "USS Cumberland, USS Monitor" in error.message and "assign_orders" in error.message


def test_io3_2_a_side_with_no_ship_under_command_may_pass_its_order_phase() -> None:
    """IO-3.2: a side whose ships are all gone has no order card to place: ``pass`` records
    the empty Order Phase (as ``assign_orders`` with no seals would)."""
    s = new_game(scenario(at={"virginia": (2, 3)}))
    play_until(s, "status", "CSA")
    doctor(s, "virginia", status="sunk")
    submit(s, "CSA", PASS)
    assert s.state.rules.phase == "orders" and s.state.rules.active == "CSA"
    facts = long_and_pass(s, "CSA", {"type": "assign_orders", "seals": {}})
    assigned = [f.payload for f in facts if f.topic == "iron_oak.OrdersAssigned/1"]
    assert assigned == [{"side": "CSA", "seals": {}, "numbers": {}, "released_tows": []}]


def test_io5_0_pass_is_refused_for_a_ship_that_must_try_to_move() -> None:
    """IO-5.0: in the movement segment every ship must try to move (an order or a drift);
    the mover cannot pass and is told which ships still have to reveal."""
    s = new_game(scenario(at={"virginia": (2, 3)}))
    play_until(s, "movement", "USA")
    error = refused(s, "USA", PASS, IllegalCommand, "IO-5.0")
    assert "reveal_order for USS Cumberland or USS Monitor" in error.message


def test_io3_4_io3_5_pass_is_refused_at_the_deal_and_the_victory_phase() -> None:
    """IO-3.4 / IO-3.5: the deal and the victory check are system steps, not choices."""
    s = new_game(scenario(at={"virginia": (2, 3)}))
    error = refused(s, None, PASS, IllegalCommand, "IO-3.4")
    assert '{"type": "deal"}' in error.message
    play_until(s, "victory")
    error = refused(s, "USA", PASS, IllegalCommand, "IO-3.5")
    assert '{"type": "end_turn"}' in error.message


def test_io3_0_only_the_side_to_act_may_pass() -> None:
    """IO-3.0: the side whose decision it is passes; the other is refused, nothing appended."""
    s = new_game(scenario(at={"virginia": (2, 3)}))
    play_until(s, "status", "USA")
    refused(s, "CSA", PASS, NotYourTurn, "IO-3.0")
    submit(s, "USA", PASS)


def test_io3_pass_is_listed_among_the_legal_orders_only_where_allowed() -> None:
    """`wake legal` shows ``pass`` in a step with nothing required, not in the Order Phase."""
    s = new_game(scenario(at={"virginia": (2, 3)}))
    legal = get_ruleset("iron_oak").legal_commands
    play_until(s, "status", "USA")
    assert Pass() in legal(s.state.rules, "USA")
    play_until(s, "orders", "USA")
    assert Pass() not in legal(s.state.rules, "USA")
    s.submit_bot()  # the bot's own order cards, which its legal orders can open
    assert s.state.rules.phase == "movement"
    assert Pass() not in legal(s.state.rules, "USA")
