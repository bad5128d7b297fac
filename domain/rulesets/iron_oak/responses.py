"""Response dice (IO-6.3): the modifiers a ship's criticals give the dice it rolls when it is the
target of a Crossing the T or a ram or spar attempt (Boiler, Captain, Engine-Damaged and
Engine-Stopped, Speed, Smokestack, Steering), and the helm criticals that bar a ship from
crossing the T, ramming or using its spar (Rudder IO-6.3.13, Steering IO-6.3.17)."""

from __future__ import annotations

from domain.dice import Modifier
from domain.rulesets.iron_oak.criticals import DEFAULT_OPTIONS, RULES, CriticalOptions, _ship
from domain.rulesets.iron_oak.gunnery import armament_penalty as armament_penalty
from domain.rulesets.iron_oak.state import (
    IronOakState,
)

#: Response-dice modifiers against Crossing-the-T and ram/spar (Speed uses its marker value).
RESPONSE: dict[str, int] = {
    "boiler": -5,  # IO-6.3.2
    "captain": -1,  # IO-6.3.3
    "engine_damaged": -2,  # IO-6.3.6 [AMBIG]
    "engine_stopped": -5,  # IO-6.3.7
    "smokestack": -2,  # IO-6.3.16 [AMBIG]
    "steering": -3,  # IO-6.3.17
}


def response_modifiers(
    state: IronOakState, ship_id: str, options: CriticalOptions = DEFAULT_OPTIONS
) -> list[Modifier]:
    """Modifiers to the dice ``ship_id`` rolls as the target of a Crossing-the-T or a ram/spar
    attempt: Boiler −5 (IO-6.3.2), Captain −1 (IO-6.3.3), Engine-Damaged −2 (IO-6.3.6 [AMBIG],
    ``options.engine_damaged_response``), Engine-Stopped −5 (IO-6.3.7), Speed marker −1/−2
    (IO-6.3.15), Smokestack −2 (IO-6.3.16 [AMBIG], ``options.smokestack_response``),
    Steering −3 (IO-6.3.17)."""
    ship = _ship(state, ship_id)
    off = set()
    if not options.engine_damaged_response:
        off.add("engine_damaged")
    if not options.smokestack_response:
        off.add("smokestack")
    out: list[Modifier] = []
    for name in RULES:
        if name not in ship.criticals or name in off:
            continue
        value = ship.criticals[name].level if name == "speed" else RESPONSE.get(name, 0)
        if value:
            label = name.replace("_", " ").capitalize()
            out.append(Modifier(value, RULES[name], f"{ship_id} {label} critical"))
    return out


def blocks_t_ram_spar(state: IronOakState, ship_id: str) -> str | None:
    """The rule that forbids ``ship_id`` to cross the T or ram/spar (Rudder IO-6.3.13, Steering
    IO-6.3.17), or None."""
    ship = _ship(state, ship_id)
    for name in ("rudder", "steering"):
        if name in ship.criticals:
            return RULES[name]
    return None
