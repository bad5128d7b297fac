"""Star Wars: Armada orders (imperative); the JSON form is ``{"type": ..., ...}``.

One order per decision a player makes: deploying a ship or two squadrons (SWA-SETUP); the
Command Phase's sealed dials (SWA-R2); in the Ship Phase revealing the activating ship's top
dial (keep it or spend it for a token, SWA-2.1), the Squadron and Repair commands (SWA-R3), the
maneuver with any Navigate command (SWA-2.3), placing squadrons a ship overlapped
(SWA-OVL, by the opponent) and the owner's choices for a debris field and a station (SWA-OVL);
squadron activations, moves and their end (SWA-3, SWA-R3).

Attacks: :class:`DeclareAttack` and :class:`AdditionalTarget` here; every decision inside an
attack (remove a die, Concentrate Fire, accuracy, defence tokens, Redirect, the end of a step)
and every choice a face-up damage card asks for is an order too — the models of
:mod:`.attack_state` and :mod:`.damage`, listed in :data:`ArmadaCommand`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.rulesets.armada.attack_state import (
    ConcentrateFire,
    ConcentrateFireReroll,
    EndAttack,
    EndAttackEffects,
    EndDefence,
    RedirectDamage,
    RemoveDie,
    SpendAccuracy,
    SpendDefenceToken,
    SwarmReroll,
)
from domain.rulesets.armada.damage import (
    DiscardDefenceToken,
    LoseShieldsZone,
    SpeedOrDial,
    StripShields,
)
from domain.rulesets.armada.geometry import Zone
from domain.rulesets.armada.maneuver import Side as ToolSide
from domain.rulesets.armada.state import CommandName

Point = tuple[float, float]


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class DeployShip(_Command):
    """SWA-SETUP: place one ship in the side's deployment zone with its speed dial set to a
    speed on its chart."""

    type: Literal["deploy_ship"] = "deploy_ship"
    ship: str
    x: float = Field(allow_inf_nan=False)
    y: float = Field(allow_inf_nan=False)
    heading: float = Field(allow_inf_nan=False)
    speed: int = Field(ge=0)


class DeploySquadrons(_Command):
    """SWA-SETUP: place two squadrons (one only when it is the side's last unit) within
    distance 1–2 of a friendly ship."""

    type: Literal["deploy_squadrons"] = "deploy_squadrons"
    squadrons: dict[str, Point]


class SetDials(_Command):
    """SWA-R2: the side's new command dials, face down under each ship's stack: ``dials`` maps
    each ship to the ``domain.sealed`` digests of ``{"ship", "slot", "command"}`` (slots
    numbered on from the ship's last dial, the first digest's dial placed first), as many as
    the ship lacks to hold its command value."""

    type: Literal["set_dials"] = "set_dials"
    dials: dict[str, list[str]]


class RevealDial(_Command):
    """SWA-2 / SWA-2.1: activate ``ship`` by revealing its top dial (its ``slot``, command and
    salt open the seal). ``to_token``: spend it at once for the matching command token;
    ``discard_token`` names the token given up when the ship then holds more than its command
    value (default: the new one). With Crew Panic face up (SWA-DMG) ``panic`` says first what
    the ship does: ``damage`` (1 damage on ``panic_zone``, default the zone with the most
    shields) or ``discard`` (the dial is thrown away unrevealed: no command, no token this
    round; ``command`` and ``salt`` are then left out). A dial an opponent set openly (Comm
    Noise) needs no salt."""

    type: Literal["reveal_dial"] = "reveal_dial"
    ship: str
    slot: int
    command: CommandName | None = None
    salt: str = ""
    to_token: bool = False
    discard_token: CommandName | None = None
    panic: Literal["damage", "discard"] | None = None
    panic_zone: Zone | None = None


class SquadronCommand(_Command):
    """SWA-R3 Squadron, after the reveal: spend the dial and/or the token to activate up to
    the ship's squadron value (dial) plus one (token) squadrons at close–medium range, chosen
    and activated one at a time with ``activate_squadron``."""

    type: Literal["squadron_command"] = "squadron_command"
    ship: str
    dial: bool = True
    token: bool = False


class RepairEffect(_Command):
    """One repair effect (SWA-R3): ``move_shield`` (1 point) from ``source`` to ``zone``;
    ``recover_shield`` (2 points) on ``zone``; ``discard_damage`` (3 points) the ship's damage
    card at index ``card``."""

    effect: Literal["move_shield", "recover_shield", "discard_damage"]
    zone: Zone | None = None
    source: Zone | None = None
    card: int | None = None


class Repair(_Command):
    """SWA-R3 Repair, after the reveal: spend the dial (engineering value points) and/or the
    token (half, rounded up) and resolve ``effects`` one at a time; points left are lost."""

    type: Literal["repair"] = "repair"
    ship: str
    dial: bool = True
    token: bool = False
    effects: list[RepairEffect] = Field(default_factory=list)


class Maneuver(_Command):
    """SWA-2.3: the activating ship's mandatory maneuver. ``speed``: the speed dial after a
    Navigate command (None: unchanged); ``clicks``: one per joint up to that speed, signed
    (positive to starboard); ``side``: the side of the ship the tool goes on. A Navigate dial
    (``navigate_dial``) changes speed by one and/or raises ``raise_joint``'s yaw by one; a
    token (``navigate_token``) changes speed by one (SWA-R3)."""

    type: Literal["maneuver"] = "maneuver"
    ship: str
    speed: int | None = Field(default=None, ge=0)
    clicks: list[int] = Field(default_factory=list)
    side: ToolSide = "right"
    navigate_dial: bool = False
    navigate_token: bool = False
    raise_joint: int | None = None


class PlaceSquadrons(_Command):
    """SWA-OVL: the player not moving the ship places the squadrons it overlapped, each
    touching that ship (or touching a squadron that touches it)."""

    type: Literal["place_squadrons"] = "place_squadrons"
    positions: dict[str, Point]


class DebrisZone(_Command):
    """SWA-OVL: the owner picks the hull zone of ``ship`` that suffers a debris field's two
    damage."""

    type: Literal["debris_zone"] = "debris_zone"
    ship: str
    zone: Zone


class StationDiscard(_Command):
    """SWA-OVL: the owner picks the damage card ``ship`` discards on a station (``card``: its
    index among the ship's damage cards; any face-down one will do, they are alike to the
    owner), or none (``null``)."""

    type: Literal["station_discard"] = "station_discard"
    ship: str
    card: int | None = Field(default=None, ge=0)


class ActivateSquadron(_Command):
    """SWA-3 / SWA-R3: activate a squadron (its slider toggles, SWA-3.4); with ``move_to`` it
    moves there at once (SWA-3.1). In the Squadron Phase a moved squadron's activation ends;
    one that has not moved may attack or end its activation."""

    type: Literal["activate_squadron"] = "activate_squadron"
    squadron: str
    move_to: Point | None = None


class MoveSquadron(_Command):
    """SWA-3.1: move the activating squadron (activated by a Squadron command, after its
    attack)."""

    type: Literal["move_squadron"] = "move_squadron"
    squadron: str
    x: float = Field(allow_inf_nan=False)
    y: float = Field(allow_inf_nan=False)


class PassTurn(_Command):
    """SWA-PASS (option ``pass_tokens``): spend a pass token instead of activating a ship."""

    type: Literal["pass_turn"] = "pass_turn"


class DeclareAttack(_Command):
    """SWA-ATK 1: ``attacker`` (the activating ship, from its hull ``zone``; or the activating
    squadron, no zone) attacks ``defender`` (an enemy ship's ``defending_zone``, or an enemy
    squadron). The attack then waits for the decisions inside it (SWA-ATK 2–6)."""

    type: Literal["attack"] = "attack"
    attacker: str
    zone: Zone | None = None
    defender: str
    defending_zone: Zone | None = None


class AdditionalTarget(_Command):
    """SWA-ATK 6: after a ship's attack on a squadron, declare another enemy squadron in the
    same arc and at attack range as the attack's next defender."""

    type: Literal["additional_target"] = "additional_target"
    squadron: str


class EndSquadronActivation(_Command):
    """SWA-3: the activating squadron ends its activation (moving or attacking is optional)."""

    type: Literal["end_squadron_activation"] = "end_squadron_activation"
    squadron: str


ArmadaCommand = Annotated[
    DeployShip
    | DeploySquadrons
    | SetDials
    | RevealDial
    | SquadronCommand
    | Repair
    | Maneuver
    | PlaceSquadrons
    | DebrisZone
    | StationDiscard
    | ActivateSquadron
    | MoveSquadron
    | EndSquadronActivation
    | PassTurn
    | DeclareAttack
    | AdditionalTarget
    | RemoveDie
    | ConcentrateFire
    | ConcentrateFireReroll
    | SwarmReroll
    | SpendAccuracy
    | EndAttackEffects
    | SpendDefenceToken
    | EndDefence
    | RedirectDamage
    | EndAttack
    | DiscardDefenceToken
    | LoseShieldsZone
    | SpeedOrDial
    | StripShields,
    Field(discriminator="type"),
]
