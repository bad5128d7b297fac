"""Behaviour of the Morze w ogniu ruleset (seed 004, rule IDs PL-1..PL-7 of the rules digest).

Every game here is driven through ``Session`` with scripted d10 faces (``FixedDice``), so each
roll's outcome is chosen by the test: initiative rolls side A then side B; each attack rolls to
hit, then defence only on a hit, then damage only if the defence failed; attacks resolve in
declaration order. The helper checks that every scripted face is consumed, so each face list
also pins down *how many* dice a step throws.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from domain.dice import FixedDice
from domain.engine import CommandEnvelope, Fact, Session, header_for
from domain.errors import (
    DiceMismatch,
    GameOver,
    IllegalCommand,
    NotYourTurn,
    WakeError,
    WrongPhase,
    WrongSide,
)
from domain.rulesets.morze.state import MorzeState

DICE = "wake.DiceRolled/1"
PHASE = "morze.PhaseBegan/1"

# Seed 004 tables, transcribed from the Polish original (the seed wins over any digest).
# PL-2 movement table: class -> speed in cm.
SEED_SPEED = {
    "merchant": 8,  # Statki handlowe, WOLNO
    "corvette": 8,  # Korwety, WOLNO
    "submarine": 8,  # Okręty podwodne, WOLNO
    "battleship": 10,  # Pancerniki, STANDARD
    "heavy_cruiser": 10,  # Krążowniki, STANDARD
    "light_cruiser": 10,
    "destroyer": 12,  # Niszczyciele, SZYBKO
    "schnellboot": 15,  # Schnellbooty, BARDZO SZYBKO
    "torpedo_boat": 15,  # Kutry torpedowe, BARDZO SZYBKO
}
# PL-4/PL-5 class table: class -> (range cm, hit N+, defence N+, toughness).
SEED_COMBAT = {
    "battleship": (30, 4, 3, 4),
    "heavy_cruiser": (25, 4, 4, 3),
    "light_cruiser": (20, 5, 5, 2),
    "destroyer": (15, 5, 6, 2),
    "corvette": (15, 5, 7, 1),
    "schnellboot": (10, 6, 8, 1),
    "submarine": (10, 6, 9, 1),
}


# --- helpers ---------------------------------------------------------------------------------


def unit(uid: str, side: str, cls: str, x: float, y: float) -> dict[str, Any]:
    return {"id": uid, "side": side, "class": cls, "x": x, "y": y}


def scenario(
    *units: dict[str, Any], turn_limit: int | None = None, annihilation: bool = True
) -> dict[str, Any]:
    return {
        "id": "test",
        "title": "test",
        "table": {"width": 100, "height": 100},
        "sides": [{"id": "a", "name": "Side A"}, {"id": "b", "name": "Side B"}],
        "units": list(units),
        "victory": {"annihilation": annihilation, "turn_limit": turn_limit},
    }


def topics(facts: list[Fact]) -> list[str]:
    return [f.topic for f in facts]


def of(facts: list[Fact], topic: str) -> list[dict[str, Any]]:
    return [f.payload for f in facts if f.topic == topic]


class Game:
    """A Morze session with short-hand orders and scripted dice."""

    def __init__(
        self,
        *units: dict[str, Any],
        options: dict[str, Any] | None = None,
        turn_limit: int | None = None,
    ) -> None:
        self.header = header_for(
            "morze",
            scenario(*units, turn_limit=turn_limit),
            game_id="t",
            seed=1,
            options=options,
        )
        self.s = Session(self.header)

    @property
    def rules(self) -> MorzeState:
        rules = self.s.state.rules
        assert isinstance(rules, MorzeState)
        return rules

    def submit(
        self, side: str | None, command: dict[str, Any], faces: list[int] | None = None
    ) -> list[Fact]:
        dice = None if faces is None else FixedDice(faces, start=self.s.state.dice_position)
        facts = self.s.submit(CommandEnvelope(side=side, command=command), dice=dice)
        # Every scripted face must be used: the face list pins down how many dice were thrown.
        assert dice is None or dice.remaining == 0, f"{dice.remaining} scripted face(s) unused"
        return facts

    # orders
    def roll(self, *faces: int) -> list[Fact]:
        return self.submit(None, {"type": "roll_initiative"}, list(faces))

    def initiative(self, holder: str) -> list[Fact]:
        return self.roll(7, 3) if holder == "a" else self.roll(3, 7)

    def move(self, side: str, uid: str, x: float, y: float) -> list[Fact]:
        return self.submit(side, {"type": "move", "unit": uid, "x": x, "y": y})

    def end_movement(self, side: str) -> list[Fact]:
        return self.submit(side, {"type": "end_movement"})

    def declare(self, side: str, attacker: str, target: str) -> list[Fact]:
        return self.submit(side, {"type": "declare_attack", "attacker": attacker, "target": target})

    def end_declarations(self, side: str) -> list[Fact]:
        return self.submit(side, {"type": "end_declarations"})

    def resolve(self, *faces: int) -> list[Fact]:
        return self.submit(None, {"type": "resolve_attacks"}, list(faces))

    # whole phases
    def to_declaration(self, holder: str = "b") -> None:
        """Roll initiative for ``holder``; both sides skip movement (non-holder first)."""
        self.initiative(holder)
        other = "a" if holder == "b" else "b"
        self.end_movement(other)
        self.end_movement(holder)

    def play_turn(
        self,
        holder: str,
        attacks: dict[str, list[tuple[str, str]]],
        faces: list[int],
    ) -> list[Fact]:
        """One turn without movement; ``attacks[side]`` is that side's declarations."""
        self.to_declaration(holder)
        other = "a" if holder == "b" else "b"
        for side in (other, holder):
            for attacker, target in attacks.get(side, []):
                self.declare(side, attacker, target)
            self.end_declarations(side)
        return self.resolve(*faces)

    def refused(
        self,
        side: str | None,
        command: dict[str, Any],
        error: type[WakeError],
        rule: str | None,
        faces: list[int] | None = None,
    ) -> WakeError:
        """Submit an order that must be refused with exactly ``error``; nothing may change."""
        state, facts = self.s.state, list(self.s.facts)
        with pytest.raises(WakeError) as info:
            self.submit(side, command, faces)
        assert type(info.value) is error, f"{type(info.value).__name__}: {info.value}"
        assert info.value.rule == rule, str(info.value)
        assert self.s.facts == facts
        assert len(self.s.facts) == len(facts)
        assert self.s.state == state
        assert self.s.state.rules == state.rules
        return info.value


def move_cmd(uid: str, x: float, y: float) -> dict[str, Any]:
    return {"type": "move", "unit": uid, "x": x, "y": y}


def attack_cmd(attacker: str, target: str) -> dict[str, Any]:
    return {"type": "declare_attack", "attacker": attacker, "target": target}


def duel(cls_a: str = "battleship", cls_b: str = "battleship", gap: float = 20) -> Game:
    """Two units on the y=50 line, ``gap`` cm apart, plus a far-away reserve each."""
    return Game(
        unit("a1", "a", cls_a, 10, 50),
        unit("b1", "b", cls_b, 10 + gap, 50),
        unit("a9", "a", "battleship", 0, 0),
        unit("b9", "b", "battleship", 100, 100),
    )


# --- PL-1 initiative -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "holder"), [((8, 2), "a"), ((2, 8), "b"), ((10, 9), "a"), ((1, 2), "b")]
)
def test_pl1_higher_d10_gets_initiative_and_moves_second(
    faces: tuple[int, int], holder: str
) -> None:
    g = duel()
    facts = g.roll(*faces)
    assert topics(facts) == ["wake.CommandIssued/1", DICE, "morze.InitiativeDetermined/1", PHASE]
    determined = of(facts, "morze.InitiativeDetermined/1")[0]
    assert determined["side"] == holder
    assert determined["rolls"] == {"a": faces[0], "b": faces[1]}
    other = "b" if holder == "a" else "a"
    # The holder moves second: the first movement phase belongs to the other side.
    assert of(facts, PHASE) == [{"turn": 1, "phase": "movement", "side": other}]
    assert g.rules.initiative == holder
    assert g.rules.active == other
    assert g.rules.phase == "movement"


def test_pl1_initiative_roll_is_recorded_with_exact_odds() -> None:
    g = duel()
    roll = of(g.roll(6, 4), DICE)[0]
    assert roll["purpose"] == "initiative"
    assert roll["rule"] == "PL-1"
    assert roll["roll"]["side"] == "a" and roll["roll"]["expression"] == "d10"
    assert roll["roll"]["faces"] == [6] and roll["roll"]["total"] == 6
    assert roll["opposed_by"]["side"] == "b" and roll["opposed_by"]["faces"] == [4]
    assert roll["outcome"] == "success" and roll["success"] is True
    # P(A's d10 > B's d10) = 45/100.
    assert roll["p_success"] == "9/20"
    assert roll["p_outcome"] == "9/20"


def test_pl1_tie_is_rerolled_by_default() -> None:
    g = duel()
    facts = g.roll(5, 5, 3, 7)
    rolls = of(facts, DICE)
    assert len(rolls) == 2
    assert rolls[0]["outcome"] == "tie"
    assert Fraction(rolls[0]["p_outcome"]) == Fraction(1, 10)
    assert (rolls[1]["roll"]["faces"], rolls[1]["opposed_by"]["faces"]) == ([3], [7])
    assert of(facts, "morze.InitiativeDetermined/1")[0]["side"] == "b"
    assert of(facts, PHASE)[0]["side"] == "a"


def test_pl1_tie_needs_another_roll_so_two_faces_are_not_enough() -> None:
    """PL-1: the refusal names the rule and says the tie needs re-roll faces."""
    g = duel()
    error = g.refused(None, {"type": "roll_initiative"}, DiceMismatch, "PL-1", faces=[4, 4])
    assert "tied 4-4" in error.message and "2 more d10 faces for the re-roll" in error.message


def test_pl1_keep_previous_option_keeps_last_turns_holder_on_a_tie() -> None:
    g = Game(
        unit("a1", "a", "battleship", 10, 10),
        unit("b1", "b", "battleship", 90, 90),
        options={"initiative_tie": "keep_previous"},
    )
    g.play_turn("a", {}, [])
    assert g.rules.turn == 2 and g.rules.phase == "initiative"
    facts = g.roll(4, 4)  # a single tied roll: no re-roll under this option
    assert len(of(facts, DICE)) == 1
    determined = of(facts, "morze.InitiativeDetermined/1")[0]
    assert determined["side"] == "a"
    assert "tie" in determined["reason"]
    assert of(facts, PHASE)[0] == {"turn": 2, "phase": "movement", "side": "b"}


def test_pl1_keep_previous_keeps_b_too() -> None:
    g = Game(
        unit("a1", "a", "battleship", 10, 10),
        unit("b1", "b", "battleship", 90, 90),
        options={"initiative_tie": "keep_previous"},
    )
    g.play_turn("b", {}, [])
    facts = g.roll(9, 9)
    assert of(facts, "morze.InitiativeDetermined/1")[0]["side"] == "b"


def test_pl1_keep_previous_still_rerolls_a_tie_in_turn_one() -> None:
    g = Game(
        unit("a1", "a", "battleship", 10, 10),
        unit("b1", "b", "battleship", 90, 90),
        options={"initiative_tie": "keep_previous"},
    )
    facts = g.roll(2, 2, 8, 1)  # no previous holder yet
    assert len(of(facts, DICE)) == 2
    assert of(facts, "morze.InitiativeDetermined/1")[0]["side"] == "a"


def test_pl1_default_tie_in_turn_two_is_rerolled_not_kept() -> None:
    g = Game(unit("a1", "a", "battleship", 10, 10), unit("b1", "b", "battleship", 90, 90))
    g.play_turn("a", {}, [])
    facts = g.roll(4, 4, 1, 9)
    assert len(of(facts, DICE)) == 2
    assert of(facts, "morze.InitiativeDetermined/1")[0]["side"] == "b"


def test_pl1_initiative_cannot_be_rolled_twice_in_a_turn() -> None:
    g = duel()
    g.initiative("a")
    g.refused(None, {"type": "roll_initiative"}, WrongPhase, "PL-1", faces=[5, 6])


# --- PL-2 movement ---------------------------------------------------------------------------


def test_pl2_non_initiative_side_moves_first() -> None:
    g = duel()
    g.initiative("a")  # a holds initiative, so b must move first
    g.refused("a", move_cmd("a1", 15, 50), NotYourTurn, "PL-2")
    g.refused("a", {"type": "end_movement"}, NotYourTurn, "PL-2")
    g.move("b", "b1", 35, 50)
    facts = g.end_movement("b")
    assert of(facts, PHASE) == [{"turn": 1, "phase": "movement", "side": "a"}]
    g.refused("b", move_cmd("b9", 95, 95), NotYourTurn, "PL-2")
    g.move("a", "a1", 15, 50)
    facts = g.end_movement("a")
    # PL-3: declarations start with the side without initiative again.
    assert of(facts, PHASE) == [{"turn": 1, "phase": "declaration", "side": "b"}]


def test_pl2_move_is_recorded_and_applied() -> None:
    g = duel()
    g.initiative("b")
    facts = g.move("a", "a1", 16, 58)  # 6-8-10 triangle
    moved = of(facts, "morze.UnitMoved/1")[0]
    assert moved["unit"] == "a1" and moved["side"] == "a"
    assert (moved["from_x"], moved["from_y"], moved["to_x"], moved["to_y"]) == (10, 50, 16, 58)
    assert moved["distance"] == pytest.approx(10.0)
    assert moved["speed"] == 10
    assert (g.rules.units["a1"].x, g.rules.units["a1"].y) == (16, 58)


def test_pl2_move_longer_than_speed_is_refused() -> None:
    g = duel("destroyer")
    g.initiative("b")
    error = g.refused("a", move_cmd("a1", 22.01, 50), IllegalCommand, "PL-2")
    assert "12" in error.message and "speed" in error.message


@pytest.mark.parametrize(("cls", "speed"), sorted(SEED_SPEED.items()))
def test_pl2_move_exactly_at_class_speed_is_allowed(cls: str, speed: int) -> None:
    """PL-2 movement table: every class may move its full speed, straight from its centre."""
    g = duel(cls)
    g.initiative("b")
    g.move("a", "a1", 10 + speed, 50)
    assert g.rules.units["a1"].x == 10 + speed


@pytest.mark.parametrize(("cls", "speed"), sorted(SEED_SPEED.items()))
def test_pl2_move_just_over_class_speed_is_refused(cls: str, speed: int) -> None:
    g = duel(cls)
    g.initiative("b")
    g.refused("a", move_cmd("a1", 10, 50 - speed - 0.01), IllegalCommand, "PL-2")


def test_pl2_move_is_measured_as_a_straight_line() -> None:
    """Destroyer speed 12: (7.2, 9.6) is exactly 12 cm away; (8.5, 8.5) is 12.02 cm away."""
    g = Game(
        unit("a1", "a", "destroyer", 0, 0),
        unit("a2", "a", "destroyer", 50, 50),
        unit("b1", "b", "battleship", 100, 100),
    )
    g.initiative("b")
    g.refused("a", move_cmd("a1", 8.5, 8.5), IllegalCommand, "PL-2")
    g.move("a", "a1", 7.2, 9.6)
    g.move("a", "a2", 58.4, 58.4)  # 11.88 cm diagonally: fine


def test_pl2_move_off_the_table_is_refused() -> None:
    g = Game(unit("a1", "a", "battleship", 2, 50), unit("b1", "b", "battleship", 90, 50))
    g.initiative("b")
    g.refused("a", move_cmd("a1", -3, 50), IllegalCommand, "PL-2")
    g.move("a", "a1", 0, 50)  # the edge itself is on the table


def test_pl2_off_table_with_a_short_move_is_refused() -> None:
    g = Game(unit("a1", "a", "battleship", 99, 99), unit("b1", "b", "battleship", 10, 10))
    g.initiative("b")
    g.refused("a", move_cmd("a1", 101, 99), IllegalCommand, "PL-2")
    g.refused("a", move_cmd("a1", 99, 100.1), IllegalCommand, "PL-2")
    g.move("a", "a1", 100, 100)


def test_pl2_a_unit_moves_once_per_turn() -> None:
    g = duel()
    g.initiative("b")
    g.move("a", "a1", 14, 50)
    g.refused("a", move_cmd("a1", 18, 50), IllegalCommand, "PL-2")
    g.move("a", "a9", 5, 0)  # another unit still may


def test_pl2_moving_an_enemy_unit_is_refused() -> None:
    g = duel()
    g.initiative("b")
    g.refused("a", move_cmd("b1", 25, 50), WrongSide, "PL-2")


def test_pl2_moving_in_the_declaration_phase_is_refused() -> None:
    g = duel()
    g.to_declaration("b")
    assert g.rules.phase == "declaration" and g.rules.active == "a"
    g.refused("a", move_cmd("a1", 15, 50), WrongPhase, "PL-2")
    g.refused("a", {"type": "end_movement"}, WrongPhase, "PL-2")


def test_pl2_moving_before_initiative_is_refused() -> None:
    g = duel()
    g.refused("a", move_cmd("a1", 15, 50), WrongPhase, "PL-2")


def test_pl2_full_speed_option_requires_exactly_full_speed() -> None:
    g = Game(
        unit("a1", "a", "destroyer", 10, 50),
        unit("a2", "a", "battleship", 10, 20),
        unit("b1", "b", "battleship", 90, 50),
        options={"partial_moves": False},
    )
    g.initiative("b")
    g.refused("a", move_cmd("a1", 21, 50), IllegalCommand, "PL-2")
    g.refused("a", move_cmd("a1", 22.5, 50), IllegalCommand, "PL-2")
    g.move("a", "a1", 22, 50)
    g.move("a", "a2", 16, 28)  # 10 cm diagonally


def test_pl2_partial_moves_are_allowed_by_default() -> None:
    g = duel()
    g.initiative("b")
    g.move("a", "a1", 11, 50)
    g.move("a", "a9", 0, 0)  # a zero move is a (trivial) partial move


def test_pl2_moves_next_turn_again() -> None:
    """PL-7: the 'moved' mark lasts one turn only."""
    g = duel()
    g.initiative("b")
    g.move("a", "a1", 20, 50)
    g.end_movement("a")
    g.end_movement("b")
    g.end_declarations("a")
    g.end_declarations("b")
    g.resolve()
    g.initiative("b")
    g.move("a", "a1", 25, 50)
    assert g.rules.units["a1"].x == 25


# --- PL-3 declaration order and simultaneous resolution --------------------------------------


def test_pl3_non_initiative_side_declares_first_and_resolution_waits_for_both() -> None:
    g = duel()
    g.to_declaration("a")
    assert g.rules.active == "b"
    g.refused("a", attack_cmd("a1", "b1"), NotYourTurn, "PL-3")
    g.refused("a", {"type": "end_declarations"}, NotYourTurn, "PL-3")
    g.refused(None, {"type": "resolve_attacks"}, WrongPhase, "PL-3", faces=[])
    g.declare("b", "b1", "a1")
    facts = g.end_declarations("b")
    assert of(facts, PHASE) == [{"turn": 1, "phase": "declaration", "side": "a"}]
    g.refused("b", attack_cmd("b9", "a1"), NotYourTurn, "PL-3")
    # Still no dice: resolution cannot start before the initiative side has declared.
    g.refused(None, {"type": "resolve_attacks"}, WrongPhase, "PL-3", faces=[3, 3])
    g.declare("a", "a1", "b1")
    facts = g.end_declarations("a")
    assert of(facts, PHASE) == [{"turn": 1, "phase": "resolution", "side": None}]
    assert all(f.payload["purpose"] == "initiative" for f in g.s.facts if f.topic == DICE)
    # Declaration order: b1 (non-initiative) resolves first, then a1.
    facts = g.resolve(3, 2)  # b1 misses on 3 (needs 4), a1 misses on 2
    resolved = of(facts, "morze.AttackResolved/1")
    assert [r["attacker"] for r in resolved] == ["b1", "a1"]
    assert [d["subject"] for d in of(facts, DICE)] == ["b1", "a1"]


def test_pl3_units_destroyed_this_turn_still_fire() -> None:
    """Both destroyers (toughness 2) die to criticals; the second attack still resolves."""
    g = Game(
        unit("a1", "a", "destroyer", 10, 50),
        unit("b1", "b", "destroyer", 20, 50),
        unit("a9", "a", "battleship", 0, 0),
        unit("b9", "b", "battleship", 100, 100),
    )
    facts = g.play_turn("b", {"a": [("a1", "b1")], "b": [("b1", "a1")]}, [5, 1, 10, 5, 1, 10])
    resolved = of(facts, "morze.AttackResolved/1")
    assert resolved == [
        {
            "attacker": "a1",
            "target": "b1",
            "hit": True,
            "defended": False,
            "damage": 2,
            "critical": True,
        },
        {
            "attacker": "b1",
            "target": "a1",
            "hit": True,
            "defended": False,
            "damage": 2,
            "critical": True,
        },
    ]
    destroyed = of(facts, "morze.UnitDestroyed/1")
    assert sorted(d["unit"] for d in destroyed) == ["a1", "b1"]
    # Removal comes after every attack has resolved.
    kinds = topics(facts)
    assert max(i for i, t in enumerate(kinds) if t == "morze.AttackResolved/1") < min(
        i for i, t in enumerate(kinds) if t == "morze.UnitDestroyed/1"
    )
    assert g.rules.units["a1"].destroyed and g.rules.units["b1"].destroyed
    assert g.rules.vp == {"a": 3, "b": 3}
    assert g.rules.phase == "initiative" and g.rules.turn == 2


def test_pl3_one_attack_per_unit_per_turn() -> None:
    g = Game(
        unit("a1", "a", "battleship", 10, 50),
        unit("b1", "b", "battleship", 20, 50),
        unit("b2", "b", "battleship", 20, 60),
    )
    g.to_declaration("b")
    g.declare("a", "a1", "b1")
    g.refused("a", attack_cmd("a1", "b2"), IllegalCommand, "PL-3")
    g.refused("a", attack_cmd("a1", "b1"), IllegalCommand, "PL-3")


def test_pl3_attacks_per_unit_option() -> None:
    g = Game(
        unit("a1", "a", "battleship", 10, 50),
        unit("b1", "b", "battleship", 20, 50),
        unit("b2", "b", "battleship", 20, 60),
        options={"attacks_per_unit": 2},
    )
    g.to_declaration("b")
    g.declare("a", "a1", "b1")
    g.declare("a", "a1", "b2")
    g.refused("a", attack_cmd("a1", "b1"), IllegalCommand, "PL-3")


def test_pl3_a_unit_attacks_again_next_turn() -> None:
    g = duel()
    g.play_turn("b", {"a": [("a1", "b1")]}, [1])
    g.to_declaration("b")
    g.declare("a", "a1", "b1")


def test_pl3_declaring_in_the_movement_phase_is_refused() -> None:
    g = duel()
    g.initiative("b")
    g.refused("a", attack_cmd("a1", "b1"), WrongPhase, "PL-3")


# --- PL-4 attack procedure -------------------------------------------------------------------


def test_pl4a_range_is_centre_to_centre_and_exact_range_is_allowed() -> None:
    """Battleship range 30: (18, 24) away is exactly 30 cm; (18, 24.1) is beyond."""
    g = Game(
        unit("a1", "a", "battleship", 0, 0),
        unit("b1", "b", "battleship", 18, 24),
        unit("b2", "b", "battleship", 18, 24.1),
        unit("b3", "b", "battleship", 30, 0.5),
    )
    g.to_declaration("b")
    g.refused("a", attack_cmd("a1", "b2"), IllegalCommand, "PL-4a")
    g.refused("a", attack_cmd("a1", "b3"), IllegalCommand, "PL-4a")
    facts = g.declare("a", "a1", "b1")
    declared = of(facts, "morze.AttackDeclared/1")[0]
    assert declared["distance"] == pytest.approx(30.0)
    assert declared["range"] == 30


def test_pl4a_out_of_range_message_names_the_range() -> None:
    g = duel("destroyer", gap=15.5)
    g.to_declaration("b")
    error = g.refused("a", attack_cmd("a1", "b1"), IllegalCommand, "PL-4a")
    assert "15" in error.message


@pytest.mark.parametrize(("cls", "stats"), sorted(SEED_COMBAT.items()))
def test_pl4a_each_class_fires_exactly_to_its_seed_range(
    cls: str, stats: tuple[int, int, int, int]
) -> None:
    rng = stats[0]
    g = Game(
        unit("a1", "a", cls, 10, 50),
        unit("b1", "b", "battleship", 10 + rng, 50),
        unit("b2", "b", "battleship", 10, 50 + rng + 0.01),
    )
    g.to_declaration("b")
    g.refused("a", attack_cmd("a1", "b2"), IllegalCommand, "PL-4a")
    g.declare("a", "a1", "b1")


def test_pl4b_battleship_hits_on_4() -> None:
    g = duel()
    facts = g.play_turn("b", {"a": [("a1", "b1")]}, [4, 3])  # hit, then b1 defends on 3
    hit, defence = of(facts, DICE)
    assert defence["purpose"] == "defence" and defence["success"] is True
    assert hit["purpose"] == "to hit" and hit["rule"] == "PL-4b"
    assert hit["subject"] == "a1" and hit["target"] == "b1"
    assert hit["roll"]["side"] == "a"
    assert hit["roll"]["expression"] == "d10"
    assert hit["roll"]["faces"] == [4] and hit["roll"]["total"] == 4
    assert hit["compared_with"] == 4
    assert hit["outcome"] == "success" and hit["success"] is True
    assert hit["p_success"] == "7/10"
    assert of(facts, "morze.AttackResolved/1")[0]["hit"] is True


def test_pl4b_battleship_misses_on_3_and_throws_no_more_dice() -> None:
    g = duel()
    facts = g.play_turn("b", {"a": [("a1", "b1")]}, [3])
    (hit,) = of(facts, DICE)
    assert hit["outcome"] == "failure" and hit["success"] is False
    assert hit["p_success"] == "7/10" and hit["p_outcome"] == "3/10"
    assert of(facts, "morze.AttackResolved/1")[0] == {
        "attacker": "a1",
        "target": "b1",
        "hit": False,
        "defended": None,
        "damage": 0,
        "critical": False,
    }
    assert g.rules.units["b1"].damage == 0


@pytest.mark.parametrize(("cls", "stats"), sorted(SEED_COMBAT.items()))
def test_pl4b_each_class_hits_on_its_seed_number(
    cls: str, stats: tuple[int, int, int, int]
) -> None:
    hit_on = stats[1]
    g = duel(cls, gap=5)
    miss = of(g.play_turn("b", {"a": [("a1", "b1")]}, [hit_on - 1]), DICE)[0]
    assert miss["success"] is False and miss["compared_with"] == hit_on
    assert Fraction(miss["p_success"]) == Fraction(11 - hit_on, 10)
    hit = of(g.play_turn("b", {"a": [("a1", "b1")]}, [hit_on, 10]), DICE)[0]
    assert hit["success"] is True


def test_pl4c_defence_on_or_above_the_number_avoids_damage() -> None:
    g = duel("battleship", "destroyer", gap=10)
    facts = g.play_turn("b", {"a": [("a1", "b1")]}, [9, 6])
    _, defence = of(facts, DICE)
    assert defence["purpose"] == "defence" and defence["rule"] == "PL-4c"
    assert defence["roll"]["side"] == "b"  # the defender rolls
    assert defence["subject"] == "b1"
    assert defence["roll"]["expression"] == "d10" and defence["roll"]["faces"] == [6]
    assert defence["roll"]["total"] == 6 and defence["compared_with"] == 6
    assert defence["outcome"] == "success" and defence["success"] is True
    assert defence["p_success"] == "1/2"  # destroyer defends on 6+
    assert of(facts, "morze.AttackResolved/1")[0]["defended"] is True
    assert of(facts, "morze.AttackResolved/1")[0]["damage"] == 0
    assert g.rules.units["b1"].damage == 0


def test_pl4c_failed_defence_leads_to_a_damage_roll() -> None:
    g = duel("battleship", "destroyer", gap=10)
    facts = g.play_turn("b", {"a": [("a1", "b1")]}, [9, 5, 1])
    _, defence, damage = of(facts, DICE)
    assert defence["outcome"] == "failure" and defence["p_outcome"] == "1/2"
    assert damage["purpose"] == "damage" and damage["rule"] == "PL-4d"
    assert damage["roll"]["side"] == "a"  # the attacker rolls damage
    assert of(facts, "morze.AttackResolved/1")[0]["defended"] is False
    assert g.rules.units["b1"].damage == 1


@pytest.mark.parametrize(("cls", "stats"), sorted(SEED_COMBAT.items()))
def test_pl4c_each_class_defends_on_its_seed_number(
    cls: str, stats: tuple[int, int, int, int]
) -> None:
    defence_on = stats[2]
    g = Game(
        unit("a1", "a", "battleship", 10, 50),
        unit("a2", "a", "battleship", 10, 60),
        unit("b1", "b", cls, 15, 55),
        unit("b9", "b", "battleship", 100, 100),
    )
    # a1 hits and b1 defends exactly on its number; a2 hits and b1 fails by one, 1 damage.
    facts = g.play_turn(
        "b", {"a": [("a1", "b1"), ("a2", "b1")]}, [10, defence_on, 10, defence_on - 1, 1]
    )
    d1, d2 = (d for d in of(facts, DICE) if d["purpose"] == "defence")
    assert d1["compared_with"] == defence_on
    assert (d1["success"], d2["success"]) == (True, False)
    assert Fraction(d1["p_success"]) == Fraction(11 - defence_on, 10)
    assert [r["damage"] for r in of(facts, "morze.AttackResolved/1")] == [0, 1]


@pytest.mark.parametrize(("face", "damage"), [(1, 1), (5, 1), (9, 1), (10, 2)])
def test_pl4d_damage_is_1_on_1_to_9_and_2_on_10(face: int, damage: int) -> None:
    g = duel()
    facts = g.play_turn("b", {"a": [("a1", "b1")]}, [10, 1, face])
    roll = of(facts, DICE)[2]
    assert roll["purpose"] == "damage" and roll["rule"] == "PL-4d"
    assert roll["roll"]["expression"] == "d10" and roll["roll"]["faces"] == [face]
    assert roll["roll"]["total"] == face
    assert roll["value"] == str(damage)
    assert roll["p_outcome"] == ("1/10" if damage == 2 else "9/10")
    assert Fraction(roll["expected"]) == Fraction(11, 10)
    resolved = of(facts, "morze.AttackResolved/1")[0]
    assert resolved["damage"] == damage
    assert resolved["critical"] is (damage == 2)
    assert ("critical" in roll["outcome"]) is (damage == 2)
    assert g.rules.units["b1"].damage == damage


def test_pl4_battleship_on_battleship_odds_match_the_digest_sanity_check() -> None:
    """Digest PL sanity check: 70% to hit, defence fails 20%, so 14% of shots do damage."""
    g = duel()
    hit, defence, _ = of(g.play_turn("b", {"a": [("a1", "b1")]}, [4, 2, 3]), DICE)
    assert Fraction(hit["p_success"]) * Fraction(defence["p_outcome"]) == Fraction(14, 100)


def test_pl4_attacking_a_friendly_unit_is_refused() -> None:
    g = duel()
    g.to_declaration("b")
    g.refused("a", attack_cmd("a1", "a9"), IllegalCommand, "PL-4")


def test_pl4_attacking_with_an_enemy_unit_is_refused() -> None:
    g = duel()
    g.to_declaration("b")
    g.refused("a", attack_cmd("b1", "a1"), WrongSide, "PL-3")


def test_pl4_unarmed_merchant_cannot_attack() -> None:
    g = duel("merchant", gap=1)
    g.to_declaration("b")
    error = g.refused("a", attack_cmd("a1", "b1"), IllegalCommand, "PL-4")
    assert "gun" in error.message


def test_pl4_merchant_can_be_attacked() -> None:
    g = duel("battleship", "merchant", gap=5)
    g.to_declaration("b")
    g.declare("a", "a1", "b1")


# --- PL-5 damage and destruction -------------------------------------------------------------


def test_pl5_damage_accumulates_across_turns_until_toughness() -> None:
    """Battleship toughness 4: survives 3 damage, destroyed at 4."""
    g = duel()
    g.play_turn("b", {"a": [("a1", "b1")]}, [4, 2, 10])  # critical: 2
    assert g.rules.units["b1"].damage == 2 and not g.rules.units["b1"].destroyed
    g.play_turn("a", {"a": [("a1", "b1")]}, [3])  # miss: damage is kept
    assert g.rules.units["b1"].damage == 2
    facts = g.play_turn("b", {"a": [("a1", "b1")]}, [7, 1, 9])  # 1 more: 3 of 4
    assert of(facts, "morze.UnitDestroyed/1") == []
    assert g.rules.units["b1"].damage == 3 and not g.rules.units["b1"].destroyed
    facts = g.play_turn("b", {"a": [("a1", "b1")]}, [7, 1, 1])  # 4 of 4
    assert of(facts, "morze.UnitDestroyed/1") == [
        {"unit": "b1", "side": "b", "damage": 4, "toughness": 4, "vp_to": "a", "vp": 12}
    ]
    assert g.rules.units["b1"].destroyed


def test_pl5_overkill_also_destroys() -> None:
    """Damage 2 on a unit with 1 point left takes it past toughness: still destroyed."""
    g = duel("battleship", "destroyer", gap=10)
    g.play_turn("b", {"a": [("a1", "b1")]}, [9, 1, 1])
    facts = g.play_turn("b", {"a": [("a1", "b1")]}, [9, 1, 10])
    (destroyed,) = of(facts, "morze.UnitDestroyed/1")
    assert destroyed["damage"] == 3 and destroyed["toughness"] == 2


@pytest.mark.parametrize(("cls", "stats"), sorted(SEED_COMBAT.items()))
def test_pl5_each_class_has_its_seed_toughness(cls: str, stats: tuple[int, int, int, int]) -> None:
    """T-1 single-damage attacks leave the unit afloat; the T-th destroys it (same turn)."""
    toughness = stats[3]
    around = [(10, 60), (20, 50), (10, 40), (0, 50)]
    attackers = [unit(f"a{i}", "a", "battleship", x, y) for i, (x, y) in enumerate(around)]
    g = Game(*attackers, unit("b1", "b", cls, 10, 50), unit("b9", "b", "battleship", 100, 100))
    hits = [(f"a{i}", "b1") for i in range(toughness - 1)]
    g.play_turn("b", {"a": hits}, [10, 1, 1] * (toughness - 1))
    assert g.rules.units["b1"].damage == toughness - 1
    assert not g.rules.units["b1"].destroyed
    facts = g.play_turn("b", {"a": [("a3", "b1")]}, [10, 1, 1])
    assert [d["unit"] for d in of(facts, "morze.UnitDestroyed/1")] == ["b1"]


def test_pl5_damage_from_several_attacks_in_one_turn_adds_up() -> None:
    g = Game(
        unit("a1", "a", "battleship", 10, 50),
        unit("a2", "a", "battleship", 10, 60),
        unit("b1", "b", "heavy_cruiser", 20, 55),
        unit("b9", "b", "battleship", 100, 100),
    )
    facts = g.play_turn("b", {"a": [("a1", "b1"), ("a2", "b1")]}, [4, 1, 10, 4, 1, 1])
    assert [d["unit"] for d in of(facts, "morze.UnitDestroyed/1")] == ["b1"]  # 3 of 3


# --- PL-6 removal and victory points ---------------------------------------------------------


def destroyed_b1() -> Game:
    """a1 sinks destroyer b1 in turn 1; both sides keep other units."""
    g = Game(
        unit("a1", "a", "battleship", 10, 50),
        unit("a2", "a", "destroyer", 30, 50),
        unit("b1", "b", "destroyer", 20, 50),
        unit("b2", "b", "battleship", 20, 70),
    )
    g.play_turn("b", {"a": [("a1", "b1")]}, [4, 1, 10])
    return g


def test_pl6_destroyed_unit_awards_its_value_to_the_other_side() -> None:
    g = destroyed_b1()
    assert g.rules.units["b1"].destroyed
    assert g.rules.vp == {"a": 3, "b": 0}  # destroyer value 3
    assert [u.id for u in g.rules.alive("b")] == ["b2"]


def test_pl6_destroyed_unit_cannot_be_targeted_next_turn() -> None:
    g = destroyed_b1()
    g.to_declaration("b")
    g.refused("a", attack_cmd("a1", "b1"), IllegalCommand, "PL-6")
    g.refused("a", attack_cmd("a2", "b1"), IllegalCommand, "PL-6")
    g.declare("a", "a1", "b2")


def test_pl6_destroyed_unit_cannot_move_or_attack_next_turn() -> None:
    g = destroyed_b1()
    g.initiative("a")  # b moves first
    g.refused("b", move_cmd("b1", 25, 50), IllegalCommand, "PL-6")
    g.end_movement("b")
    g.end_movement("a")
    g.refused("b", attack_cmd("b1", "a1"), IllegalCommand, "PL-6")


def test_pl6_survivors_keep_their_damage() -> None:
    g = Game(
        unit("a1", "a", "battleship", 10, 50),
        unit("a2", "a", "battleship", 10, 60),
        unit("b1", "b", "destroyer", 20, 50),
        unit("b2", "b", "battleship", 20, 60),
    )
    g.play_turn("b", {"a": [("a1", "b1"), ("a2", "b2")]}, [4, 1, 10, 4, 1, 5])
    assert g.rules.units["b1"].destroyed
    assert g.rules.units["b2"].damage == 1 and not g.rules.units["b2"].destroyed
    assert g.rules.vp == {"a": 3, "b": 0}


# --- PL-7 end of turn and end of game --------------------------------------------------------


def test_pl7_turn_ends_after_resolution_and_next_starts_with_initiative() -> None:
    g = duel()
    facts = g.play_turn("b", {}, [])
    assert topics(facts)[-2:] == ["morze.TurnEnded/1", PHASE]
    assert of(facts, "morze.TurnEnded/1") == [{"turn": 1}]
    assert of(facts, PHASE) == [{"turn": 2, "phase": "initiative", "side": None}]
    assert g.rules.turn == 2 and g.rules.phase == "initiative"
    assert g.rules.initiative is None and g.rules.declared == ()
    g.refused("a", move_cmd("a1", 12, 50), WrongPhase, "PL-2")
    g.initiative("a")


def test_pl7_annihilation_ends_the_game() -> None:
    g = Game(unit("a1", "a", "battleship", 10, 50), unit("b1", "b", "destroyer", 20, 50))
    facts = g.play_turn("b", {"a": [("a1", "b1")]}, [4, 1, 10])
    assert topics(facts)[-2:] == ["morze.TurnEnded/1", "wake.GameEnded/1"]
    ended = of(facts, "wake.GameEnded/1")[0]
    assert ended["winner"] == "a" and ended["rule"] == "PL-7"
    assert "annihilation" in ended["reason"]
    assert ended["vp"] == {"a": 3, "b": 0}
    assert g.s.state.result is not None and g.s.state.result.winner == "a"
    assert g.rules.phase == "over" and g.rules.winner == "a"
    assert of(facts, PHASE) == []


def test_pl7_mutual_annihilation_is_a_draw() -> None:
    g = Game(unit("a1", "a", "destroyer", 10, 50), unit("b1", "b", "destroyer", 20, 50))
    facts = g.play_turn("a", {"a": [("a1", "b1")], "b": [("b1", "a1")]}, [5, 1, 10, 5, 1, 10])
    ended = of(facts, "wake.GameEnded/1")[0]
    assert ended["winner"] is None and "annihilation" in ended["reason"]


def test_pl7_turn_limit_ends_with_the_vp_winner() -> None:
    g = Game(
        unit("a1", "a", "battleship", 10, 50),
        unit("b1", "b", "destroyer", 20, 50),
        unit("b2", "b", "battleship", 90, 90),
        turn_limit=2,
    )
    facts = g.play_turn("b", {"a": [("a1", "b1")]}, [4, 1, 10])
    assert of(facts, "wake.GameEnded/1") == []  # turn 1 of 2
    facts = g.play_turn("a", {}, [])
    ended = of(facts, "wake.GameEnded/1")[0]
    assert ended["winner"] == "a" and ended["vp"] == {"a": 3, "b": 0}
    assert "turn limit" in ended["reason"] and ended["rule"] == "PL-7"


def test_pl7_turn_limit_on_equal_vp_is_a_draw() -> None:
    g = Game(
        unit("a1", "a", "battleship", 10, 10), unit("b1", "b", "battleship", 90, 90), turn_limit=1
    )
    facts = g.play_turn("b", {}, [])
    ended = of(facts, "wake.GameEnded/1")[0]
    assert ended["winner"] is None and ended["vp"] == {"a": 0, "b": 0}
    assert g.rules.phase == "over" and g.rules.winner is None


def test_pl7_turn_limit_equal_nonzero_vp_is_a_draw() -> None:
    g = Game(
        unit("a1", "a", "destroyer", 10, 50),
        unit("a2", "a", "battleship", 0, 0),
        unit("b1", "b", "destroyer", 20, 50),
        unit("b2", "b", "battleship", 100, 100),
        turn_limit=1,
    )
    facts = g.play_turn("a", {"a": [("a1", "b1")], "b": [("b1", "a1")]}, [5, 1, 10, 5, 1, 10])
    ended = of(facts, "wake.GameEnded/1")[0]
    assert ended["vp"] == {"a": 3, "b": 3} and ended["winner"] is None


def test_pl7_annihilation_takes_precedence_over_the_turn_limit() -> None:
    g = Game(
        unit("a1", "a", "battleship", 10, 50), unit("b1", "b", "destroyer", 20, 50), turn_limit=1
    )
    facts = g.play_turn("b", {"a": [("a1", "b1")]}, [4, 1, 10])
    assert "annihilation" in of(facts, "wake.GameEnded/1")[0]["reason"]


@pytest.mark.parametrize(
    ("side", "command", "faces"),
    [
        (None, {"type": "roll_initiative"}, [7, 3]),
        ("a", {"type": "move", "unit": "a1", "x": 12, "y": 50}, None),
        ("b", {"type": "end_movement"}, None),
        ("a", {"type": "declare_attack", "attacker": "a1", "target": "b1"}, None),
        ("a", {"type": "end_declarations"}, None),
        (None, {"type": "resolve_attacks"}, []),
    ],
)
def test_pl7_after_the_game_ends_every_order_is_refused(
    side: str | None, command: dict[str, Any], faces: list[int] | None
) -> None:
    g = Game(
        unit("a1", "a", "battleship", 10, 10), unit("b1", "b", "battleship", 90, 90), turn_limit=1
    )
    g.play_turn("b", {}, [])
    assert g.s.state.result is not None
    g.refused(side, command, GameOver, None, faces=faces)
    assert g.s.submit_bot() is None


# --- refusals ----------------------------------------------------------------------------------


def test_refused_orders_append_nothing_and_later_orders_still_work() -> None:
    """A sequence of refusals in one game leaves the log and state exactly as they were."""
    g = duel()
    g.initiative("a")
    before = (len(g.s.facts), g.s.state)
    for side, command in [
        ("a", move_cmd("a1", 12, 50)),
        ("b", move_cmd("a1", 12, 50)),
        ("b", move_cmd("b1", 45, 50)),
        ("b", move_cmd("b1", 30, -1)),
        ("b", attack_cmd("b1", "a1")),
        (None, {"type": "end_movement"}),
        ("c", {"type": "end_movement"}),
        ("b", {"type": "fly"}),
        ("b", move_cmd("zz", 1, 1)),
    ]:
        with pytest.raises(WakeError):
            g.submit(side, command)
    assert (len(g.s.facts), g.s.state) == before
    g.move("b", "b1", 35, 50)
    assert g.s.state.seq == len(g.s.facts)


# --- the bot plays by the same rules -------------------------------------------------------------


BOT_FLEET = (
    unit("a1", "a", "battleship", 10, 20),
    unit("a2", "a", "destroyer", 10, 40),
    unit("a3", "a", "light_cruiser", 10, 60),
    unit("b1", "b", "heavy_cruiser", 90, 20),
    unit("b2", "b", "destroyer", 90, 40),
    unit("b3", "b", "corvette", 90, 60),
)


@pytest.mark.parametrize(
    "options", [{}, {"attacks_per_unit": 2}, {"initiative_tie": "keep_previous"}]
)
def test_bot_orders_are_always_legal(options: dict[str, Any]) -> None:
    g = Game(*BOT_FLEET, options=options, turn_limit=6)
    while g.s.submit_bot():
        pass
    assert g.s.state.result is not None


def test_bot_orders_are_legal_with_full_speed_moves_only() -> None:
    """PL-2 option partial_moves=False: the bot must move exactly full speed (or not at all)."""
    g = Game(*BOT_FLEET, options={"partial_moves": False}, turn_limit=6)
    while g.s.submit_bot():
        pass
    assert g.s.state.result is not None
