"""Morze w ogniu read model and one-line event descriptions for the generic viewers."""

from __future__ import annotations

from domain.chance import describe_roll
from domain.commands import order_sentence
from domain.events import CommandIssued, DiceRolled, DomainEvent, GameEnded
from domain.read_model import BoardView, GameView, ResultView, RingView, SideView, UnitView
from domain.rulesets.morze.events import (
    AttackDeclared,
    AttackResolved,
    DeclarationsEnded,
    InitiativeDetermined,
    MovementEnded,
    PhaseBegan,
    TurnEnded,
    UnitDestroyed,
    UnitMoved,
)
from domain.rulesets.morze.state import MorzeState
from domain.words import value_text


def read_model(state: MorzeState) -> GameView:
    """Plain view of a Morze game: units on a continuous table, sides with VP."""
    targets = {d.attacker: d.target for d in state.declared}
    units = []
    for unit in state.units.values():
        cls = state.unit_class(unit)
        units.append(
            UnitView(
                id=unit.id,
                side=unit.side,
                name=unit.name or unit.id,
                kind=cls.name,
                status="destroyed" if unit.destroyed else "active",
                damage=unit.damage,
                strength=cls.toughness,
                position=(unit.x, unit.y),
                details={
                    "class": unit.unit_class,
                    "speed_cm": cls.speed,
                    "range_cm": cls.range,
                    "hit": f"{cls.hit}+",
                    "defence": f"{cls.defence}+",
                    "toughness": cls.toughness,
                    "value": cls.value,
                    "moved": unit.moved,
                    "target": targets.get(unit.id),
                    "provisional": ", ".join(cls.provisional) or None,
                },
                rings=[] if unit.destroyed else _rings(cls.speed, cls.range),
            )
        )
    sides = [
        SideView(
            id=s.id,
            name=s.name,
            vp=state.vp.get(s.id, 0),
            units_total=sum(1 for u in state.units.values() if u.side == s.id),
            units_active=len(state.alive(s.id)),
            details={"initiative": state.initiative == s.id},
        )
        for s in state.scenario.sides
    ]
    result = None
    if state.phase == "over":
        result = ResultView(winner=state.winner, reason="", rule="PL-7", vp=dict(state.vp))
    return GameView(
        ruleset="morze",
        ruleset_name="Morze w ogniu",
        scenario=getattr(state.scenario, "title", "") or state.scenario.id,
        turn=state.turn,
        phase=state.phase,
        active_side=state.active,
        sides=sides,
        units=units,
        board=BoardView(
            kind="continuous",
            width=state.scenario.table.width,
            height=state.scenario.table.height,
            unit="cm",
        ),
        result=result,
    )


def _rings(speed: float, reach: float) -> list[RingView]:
    """PL-2: a move is a straight line of up to the speed from the model's centre; PL-4: range
    is checked centre to centre. A class that cannot move or attack (0) has no ring."""
    rings = []
    if speed > 0:
        rings.append(
            RingView(kind="move", label=f"move up to {speed:g} cm", distance=speed, rule="PL-2")
        )
    if reach > 0:
        rings.append(
            RingView(kind="range", label=f"gun range {reach:g} cm", distance=reach, rule="PL-4")
        )
    return rings


def describe(event: DomainEvent) -> str:
    """One line of text for the log."""
    if isinstance(event, CommandIssued):
        # the order in words, as every ruleset's log writes it (never the dict's repr)
        return f"order #{event.index} by {event.side or 'umpire'}: {order_sentence(event.command)}"
    if isinstance(event, DiceRolled):
        return describe_roll(event)
    if isinstance(event, InitiativeDetermined):
        return (
            f"turn {event.turn}: {event.side} has initiative ({event.reason}; rolls "
            f"{value_text(event.rolls)})"
        )
    if isinstance(event, PhaseBegan):
        return f"turn {event.turn}: {event.phase} phase" + (
            f", {event.side} to act" if event.side else ""
        )
    if isinstance(event, UnitMoved):
        return (
            f"{event.unit} moves ({event.from_x:g}, {event.from_y:g}) -> "
            f"({event.to_x:g}, {event.to_y:g}), {event.distance:.2f}/{event.speed:g} cm"
        )
    if isinstance(event, MovementEnded):
        return f"{event.side} ends movement"
    if isinstance(event, AttackDeclared):
        return (
            f"{event.attacker} declares attack on {event.target} "
            f"({event.distance:.2f}/{event.range:g} cm)"
        )
    if isinstance(event, DeclarationsEnded):
        return f"{event.side} ends declarations"
    if isinstance(event, AttackResolved):
        if not event.hit:
            res = "miss"
        elif event.defended:
            res = "hit, defended"
        else:
            res = f"hit, {event.damage} damage" + (" (critical)" if event.critical else "")
        return f"{event.attacker} -> {event.target}: {res}"
    if isinstance(event, UnitDestroyed):
        return (
            f"{event.unit} destroyed ({event.damage}/{event.toughness} damage); "
            f"{event.vp} VP to {event.vp_to}"
        )
    if isinstance(event, TurnEnded):
        return f"turn {event.turn} ends"
    if isinstance(event, GameEnded):
        who = event.winner or "nobody (draw)"
        vp = ", ".join(f"{side} {points}" for side, points in event.vp.items())
        return f"game over: {who} wins by {event.reason}; VP {vp}"
    return type(event).__name__
