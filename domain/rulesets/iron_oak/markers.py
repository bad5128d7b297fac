"""Critical markers with a value (IO-6.3.1 Armament, IO-6.3.15 Speed): the steps a marker
takes, and the value a 1st critical sets. It sits below the state and the rule modules, because a
scenario's starting criticals (``state.initial_state``) take these values too."""

from __future__ import annotations

from collections.abc import Sequence

from domain.rulesets.iron_oak.ship_cards import GunSection

ARMAMENT_STEPS = (-2, -4)  # IO-6.3.1: 1st, 2nd
ARMAMENT_LIMITED_STEPS = (-1, -2)  # IO-6.3.1: limited guns
SPEED_STEPS = (-1, -2)  # IO-6.3.15


def all_limited(guns: Sequence[GunSection]) -> bool:
    """Every gun section is limited (d4/d6 at most, IO-6.2.3A): the unit's Armament marker then
    takes the limited values (IO-6.3.1)."""
    return all(gun.limited for gun in guns)


def first_marker_level(name: str, guns: Sequence[GunSection]) -> int:
    """The marker value a 1st critical ``name`` sets on a unit with these guns: Armament −2, or
    −1 when every gun section is limited (IO-6.3.1, IO-6.2.3A); Speed −1 (IO-6.3.15); 0 for the
    others. Starting criticals (``state.initial_state``) take it too."""
    if name == "armament":
        return (ARMAMENT_LIMITED_STEPS if all_limited(guns) else ARMAMENT_STEPS)[0]
    if name == "speed":
        return SPEED_STEPS[0]
    return 0
