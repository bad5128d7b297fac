"""A fleet as a player forms it face down (ST-1.3–1.8): ship cards in the vanguard and rearguard
boxes, each with the aircraft it carries and the characters attached to it or to its aircraft.

The plan is what a player's ``domain.sealed`` commitment covers (:func:`fleet_content`); it is
revealed with its salt once everyone has placed (ST-1.9)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AircraftPlan(_Model):
    card: str
    characters: list[str] = Field(default_factory=list)


class ShipPlan(_Model):
    card: str
    characters: list[str] = Field(default_factory=list)
    aircraft: list[AircraftPlan] = Field(default_factory=list)


class Fleet(_Model):
    vanguard: list[ShipPlan] = Field(default_factory=list)
    rearguard: list[ShipPlan] = Field(default_factory=list)

    def cards(self) -> list[str]:
        """Every card the fleet takes from the hand."""
        out: list[str] = []
        for ship in [*self.vanguard, *self.rearguard]:
            out.append(ship.card)
            out.extend(ship.characters)
            for plane in ship.aircraft:
                out.append(plane.card)
                out.extend(plane.characters)
        return out


def fleet_content(player: str, battle: int, fleet: Fleet | Mapping[str, Any]) -> dict[str, Any]:
    """What a fleet's seal commits to: the player, the battle and the plan (a ``Fleet``, or its
    JSON form as ``Fleet.model_dump(mode="json")`` gives it)."""
    plan = fleet.model_dump(mode="json") if isinstance(fleet, Fleet) else dict(fleet)
    return {"player": player, "battle": battle, "fleet": plan}


def fleet_text(fleet: Fleet) -> str:
    """A fleet in a few plain words: ``vanguard andromeda (kodai); rearguard isokaze``, each
    ship with its characters and aircraft (an aircraft's characters after a ``+``)."""

    def ship(plan: ShipPlan) -> str:
        aboard = [*plan.characters]
        aboard += ["+".join([plane.card, *plane.characters]) for plane in plan.aircraft]
        return f"{plan.card} ({', '.join(aboard)})" if aboard else plan.card

    lines = [
        f"{name} {', '.join(ship(p) for p in plans) or 'empty'}"
        for name, plans in (("vanguard", fleet.vanguard), ("rearguard", fleet.rearguard))
    ]
    return "; ".join(lines)
