"""Morze w ogniu's orders as a scribe's menu (issue 20): what the side to act may order now.

Movement (PL-2): a ship not yet moved goes to a point clicked on the table, within its speed.
Declarations (PL-3, PL-4a): a ship that may still fire picks a target among the enemy ships in
its gun range. The initiative roll (PL-1) and the resolution of the declared attacks (PL-4) are
steps for the table. Every order is judged again by ``decide`` when it is given.
"""

from __future__ import annotations

from domain.errors import WakeError
from domain.rulesets.morze import rules
from domain.rulesets.morze.commands import DeclareAttack
from domain.rulesets.morze.state import MorzeState
from domain.scribe.menu import MenuChoice, MenuField, MenuOrder


def order_menu(state: MorzeState, side: str | None) -> list[MenuOrder]:
    """The orders open to ``side`` (None: the table's steps) in the current phase."""
    if state.phase == "initiative":
        return [_step("roll_initiative", "Roll for initiative (both sides roll a d10)", "PL-1")]
    if state.phase == "resolution":
        return [_step("resolve_attacks", "Resolve the declared attacks", "PL-4")]
    if state.phase == "over" or side is None or side != state.active:
        return []
    if state.phase == "movement":
        return [*_moves(state, side), _end("end_movement", "End movement", side, "PL-2")]
    return [*_attacks(state, side), _end("end_declarations", "End declarations", side, "PL-3")]


def _step(kind: str, label: str, rule: str) -> MenuOrder:
    return MenuOrder(key=kind, type=kind, label=label, side=None, rule=rule)


def _end(kind: str, label: str, side: str, rule: str) -> MenuOrder:
    return MenuOrder(key=kind, type=kind, label=label, side=side, rule=rule)


def _moves(state: MorzeState, side: str) -> list[MenuOrder]:
    table = state.scenario.table
    out = []
    for unit in state.alive(side):
        if unit.moved:
            continue
        speed = state.unit_class(unit).speed
        exact = "" if state.options.partial_moves else f" (exactly {speed:g} cm: partial moves off)"
        where = MenuField(
            name="to",
            label=f"Where {unit.name} goes",
            kind="point",
            low=0.0,
            high=float(max(table.width, table.height)),
            help=f"a point up to {speed:g} cm from where it stands{exact}",
        )
        out.append(
            MenuOrder(
                key=f"move:{unit.id}",
                type="move",
                label=f"Move {unit.name}",
                side=side,
                fixed={"unit": unit.id},
                fields=[where],
                units=[unit.id],
                rule="PL-2",
            )
        )
    return out


def _attacks(state: MorzeState, side: str) -> list[MenuOrder]:
    out = []
    for attacker in state.alive(side):
        choices = []
        for target in state.alive(state.other(side)):
            command = DeclareAttack(attacker=attacker.id, target=target.id)
            try:
                _, _, dist = rules.check_attack(state, side, command)
            except WakeError:
                continue
            choices.append(MenuChoice(value=target.id, label=target.name, detail=f"{dist:.1f} cm"))
        if not choices:
            continue
        out.append(
            MenuOrder(
                key=f"attack:{attacker.id}",
                type="declare_attack",
                label=f"Declare an attack with {attacker.name}",
                side=side,
                fixed={"attacker": attacker.id},
                fields=[MenuField(name="target", label="Target", choices=choices)],
                units=[attacker.id],
                rule="PL-4a",
            )
        )
    return out
