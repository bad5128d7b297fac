"""Star Wars: Armada in players' words for a scribe's menu (issue 20): units by display name,
hull zones, commands, dice, defence tokens, clicks and measured ranges. No ids, no reprs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from domain.rulesets.armada.attack_events import PoolDie
from domain.rulesets.armada.attack_state import Geometry
from domain.rulesets.armada.defence import DefenceToken
from domain.rulesets.armada.state import ArmadaState, CommandName

COMMAND_WORDS: dict[str, str] = {
    "navigate": "Navigate",
    "squadron": "Squadron",
    "repair": "Repair",
    "concentrate_fire": "Concentrate Fire",
}
TOKEN_WORDS: dict[str, str] = {
    "brace": "Brace",
    "redirect": "Redirect",
    "evade": "Evade",
    "contain": "Contain",
    "scatter": "Scatter",
}


def unit_names(state: ArmadaState) -> dict[str, str]:
    """Every ship's and squadron's display name; a name several units share is numbered in
    scenario order ("TIE Fighter Squadron 3")."""
    units = [(s.id, s.name) for s in state.ships.values()]
    units += [(q.id, q.name) for q in state.squadrons.values()]
    shared = Counter(name for _, name in units)
    seen: Counter[str] = Counter()
    names: dict[str, str] = {}
    for unit, name in units:
        if shared[name] > 1:
            seen[name] += 1
            name = f"{name} {seen[name]}"
        names[unit] = name
    return names


def command(name: CommandName | str) -> str:
    return COMMAND_WORDS.get(name, name.replace("_", " "))


def zone(name: str) -> str:
    """``front`` -> ``front hull zone``."""
    return f"{name} hull zone"


def die(index: int, pool_die: PoolDie) -> str:
    """``die 2: red hit + crit`` (dice numbered from 1 as they lie in the pool)."""
    icons = " + ".join(pool_die.icons) or "blank"
    return f"die {index + 1}: {pool_die.colour} {icons}"


def tokens(held: Sequence[DefenceToken]) -> list[str]:
    """Each defence token as ``Redirect 2 (exhausted)``: numbered when a kind is held twice."""
    kinds = Counter(t.kind for t in held)
    seen: Counter[str] = Counter()
    out = []
    for token in held:
        word = TOKEN_WORDS.get(token.kind, token.kind)
        if kinds[token.kind] > 1:
            seen[token.kind] += 1
            word = f"{word} {seen[token.kind]}"
        out.append(f"{word} ({token.state})")
    return out


def clicks(value: int) -> str:
    """A joint's yaw: ``straight``, ``1 click to starboard``, ``2 clicks to port``."""
    if value == 0:
        return "straight"
    way = "starboard (right)" if value > 0 else "port (left)"
    return f"{abs(value)} click{'s' if abs(value) > 1 else ''} to {way}"


def measured(geometry: Geometry, arc: str | None) -> str:
    """An attack's measurements: ``front arc, medium range (distance 3), obstructed``."""
    parts = [f"{arc} arc"] if arc else []
    band = geometry.range or "beyond long"
    distance = f" (distance {geometry.distance})" if geometry.distance else ""
    parts.append(f"{band} range{distance}" if arc else f"distance {geometry.distance or 1}")
    parts.append("obstructed" if geometry.obstructed else "not obstructed")
    if geometry.defender_engaged:
        parts.append("engaged with another squadron")
    return ", ".join(parts)
