"""Iron & Oak's ruler (issue 21 item 14): how many boxes apart two units are and the range
band each would fire at (IO-6.1: short in the same box, medium adjacent, long two boxes away;
point blank between fouled ships)."""

from __future__ import annotations

from domain.rulesets.iron_oak.gunnery import _chebyshev, fire_range, in_play, unit
from domain.rulesets.iron_oak.state import IronOakState
from domain.rulesets.iron_oak.view import unit_name

BANDS = {"point_blank": "point blank", "short": "short", "medium": "medium", "long": "long"}


def ruler(state: IronOakState, a: str, b: str) -> list[str] | None:
    known = set(state.ships) | set(state.sections)
    if a not in known or b not in known or not (in_play(state, a) and in_play(state, b)):
        return None
    first, second = unit(state, a), unit(state, b)
    if first.cell is None or second.cell is None:
        return None
    name = {a: unit_name(state, a), b: unit_name(state, b)}
    boxes = _chebyshev(first.cell, second.cell)
    apart = "in the same box" if boxes == 0 else f"{boxes} box{'es' if boxes != 1 else ''} apart"
    lines = [f"{name[a]} and {name[b]}: {apart}"]
    for firer, target in ((a, b), (b, a)):
        band = fire_range(state, firer, target)
        if band is None:
            lines.append(f"{name[target]} is out of {name[firer]}'s range [IO-6.1]")
        else:
            lines.append(f"{name[firer]} would fire at {BANDS[band]} range [IO-6.1]")
    return lines
