"""Morze w ogniu's ruler (issue 21 item 14): the distance between two units in cm and whether
each one's guns reach the other (PL-4a: a target within the firer's gun range)."""

from __future__ import annotations

from domain.rulesets.morze.rules import EPSILON, distance
from domain.rulesets.morze.state import MorzeState


def ruler(state: MorzeState, a: str, b: str) -> list[str] | None:
    first, second = state.units.get(a), state.units.get(b)
    if first is None or second is None or first.destroyed or second.destroyed:
        return None
    apart = distance((first.x, first.y), (second.x, second.y))
    name = {u.id: u.name or u.id for u in (first, second)}
    lines = [f"{name[a]} to {name[b]}: {apart:.1f} cm"]
    for firer, target in ((first, second), (second, first)):
        cls = state.unit_class(firer)
        if cls.range <= 0:
            lines.append(f"{name[firer.id]} ({cls.name}) has no guns [PL-4]")
        elif firer.side == target.side:
            continue
        else:
            reach = "within" if apart <= cls.range + EPSILON else "out of"
            lines.append(
                f"{name[target.id]} is {reach} {name[firer.id]}'s gun range "
                f"({cls.range:g} cm) [PL-4a]"
            )
    return lines
