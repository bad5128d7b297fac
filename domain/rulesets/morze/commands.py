"""Morze w ogniu orders (imperative): the JSON form is ``{"type": ..., ...}``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Command(BaseModel):
    # NaN/infinite coordinates would slip through distance checks (nan > speed is False)
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


class RollInitiative(_Command):
    """PL-1: both players roll d10 for initiative (a system step any side may trigger)."""

    type: Literal["roll_initiative"] = "roll_initiative"


class Move(_Command):
    """PL-2: move a unit in a straight line from its centre to (x, y)."""

    type: Literal["move"] = "move"
    unit: str
    x: float
    y: float


class EndMovement(_Command):
    """PL-2: the side has moved every unit it wants to move."""

    type: Literal["end_movement"] = "end_movement"


class DeclareAttack(_Command):
    """PL-3/PL-4a: declare that ``attacker`` fires at ``target``."""

    type: Literal["declare_attack"] = "declare_attack"
    attacker: str
    target: str


class EndDeclarations(_Command):
    """PL-3: the side has declared all its attacks."""

    type: Literal["end_declarations"] = "end_declarations"


class ResolveAttacks(_Command):
    """PL-3/PL-4: resolve every declared attack simultaneously (a system step)."""

    type: Literal["resolve_attacks"] = "resolve_attacks"


MorzeCommand = Annotated[
    RollInitiative | Move | EndMovement | DeclareAttack | EndDeclarations | ResolveAttacks,
    Field(discriminator="type"),
]
