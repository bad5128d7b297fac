"""Star Wars: Armada's ruler (issue 21 item 14): from each hull zone of a ship (or from a
squadron) to the other unit, whether it is in arc, the range band, the distance band, and
whether the line of sight is obstructed (SWA-ATK 1, SWA-RNG), measured as an attack would be."""

from __future__ import annotations

from domain.rulesets.armada.attack_inputs import defending_zones, measure
from domain.rulesets.armada.geometry import ZONES
from domain.rulesets.armada.state import ArmadaState


def _name(state: ArmadaState, unit: str) -> str:
    found = state.ships.get(unit) or state.squadrons.get(unit)
    return found.name if found is not None and found.name else unit


def _in_play(state: ArmadaState, unit: str) -> bool:
    found = state.ships.get(unit) or state.squadrons.get(unit)
    return found is not None and found.in_play


def _from(state: ArmadaState, firer: str, target: str) -> list[str]:
    zones = ZONES if firer in state.ships else (None,)
    lines = []
    for zone in zones:
        best = None
        for defending in defending_zones(state, target):
            geometry = measure(state, firer, zone, target, defending).geometry
            if geometry.in_arc and geometry.range is not None and geometry.line_of_sight:
                best = (defending, geometry)
                break
        where = f"{_name(state, firer)}'s {zone} arc" if zone else _name(state, firer)
        if best is None:
            lines.append(f"{where}: {_name(state, target)} out of arc or range [SWA-ATK 1]")
            continue
        defending, geometry = best
        parts = [f"{geometry.range} range"]
        if geometry.distance is not None:
            parts.append(f"distance {geometry.distance}")
        if defending is not None:
            parts.append(f"to its {defending} zone")
        if geometry.obstructed:
            parts.append("obstructed")
        lines.append(f"{where}: {', '.join(parts)} [SWA-RNG]")
    return lines


def ruler(state: ArmadaState, a: str, b: str) -> list[str] | None:
    if not (_in_play(state, a) and _in_play(state, b)) or a == b:
        return None
    return [f"{_name(state, a)} and {_name(state, b)}:", *_from(state, a, b), *_from(state, b, a)]
