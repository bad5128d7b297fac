"""Star Wars: Armada game state: immutable models rebuilt by folding events.

* **Ships** carry their card, pose (base centre and heading, :class:`.geometry.Pose`), speed
  dial, shields per hull zone, defence tokens (ready / exhausted / discarded, SWA-DEF), the
  command dial stack (top first) as sealed commitments (SWA-R2, ``domain.sealed``), the dials
  revealed so far, command tokens, damage cards, the commands resolved this round (SWA-R3) and
  whether the ship has activated this round (SWA-2).
* **Squadrons** carry their position, remaining hull and activation slider (SWA-3.4): a
  squadron whose slider shows the initiative token's face has not activated this round.
* The **game** tracks the round, phase and whose turn it is, the first player (who keeps
  initiative all game) and the initiative token's face, the ship activating now
  (:class:`Activation`), the squadron activating now (:class:`SquadronActivation`), squadrons
  waiting to be placed after a ship overlapped them (:class:`Displaced`, SWA-OVL), an
  obstacle's effect waiting for its owner's choice (:class:`ObstacleChoice`, SWA-OVL), the
  damage deck and discards, and the result; ``rules_version`` the ruleset version the game is
  played by (a 0.1 record re-runs with 0.1's readings).

``attack`` is the attack in progress (:class:`.attack_state.AttackState`, SWA-ATK): while it is
set the phases' own orders wait. ``dealings`` are damage cards dealt outside an attack whose
face-up effect waits for a player's choice (SWA-DMG). Nothing here knows the rules beyond the
shapes of the state; the phase modules decide and evolve.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from domain.frozen import changed
from domain.rulesets.armada.attack_state import AttackState
from domain.rulesets.armada.damage import Dealing, DeckState, HeldCard
from domain.rulesets.armada.data import (
    ArmadaData,
    ShipCard,
    SquadronCard,
)
from domain.rulesets.armada.defence import DefenceToken
from domain.rulesets.armada.geometry import Disc, PlacedShip, Pose, Zone, place_ship
from domain.rulesets.armada.options import ArmadaOptions
from domain.rulesets.armada.scenario import Scenario

Phase = Literal["setup", "command", "ship", "squadron", "status", "over"]
CommandName = Literal["navigate", "squadron", "repair", "concentrate_fire"]
COMMANDS: tuple[CommandName, ...] = get_args(CommandName)
TokenStatus = Literal["ready", "exhausted", "discarded"]
Face = Literal["blue", "red"]
"""The two faces of the initiative token and of each activation slider (SWA-3.4)."""


def flipped(face: Face) -> Face:
    return "red" if face == "blue" else "blue"


class _State(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


DefenseTokenState = DefenceToken
"""One defence token (SWA-DEF): ``kind`` and ``state`` ready, exhausted or discarded."""

DamageCardState = HeldCard
"""A damage card dealt to a ship (SWA-DMG): its card id and whether it is face up."""


class Dial(_State):
    """A command dial face down in a ship's stack (SWA-R2): its ``slot`` (the ship's n-th dial
    of the game), the round it was assigned and the ``domain.sealed`` digest of
    ``{"ship", "slot", "command"}``. ``command`` is set only when an opponent set the dial
    openly (Comm Noise, SWA-DMG): it is then public and needs no seal."""

    slot: int
    round: int
    digest: str
    command: CommandName | None = None


class RevealedDial(_State):
    """A dial turned face up at the ship's activation (SWA-2.1): public from then on."""

    slot: int
    round: int
    command: CommandName


class ShipState(_State):
    id: str
    side: str
    card: str
    name: str
    x: float | None = None  # None: not deployed yet (SWA-SETUP)
    y: float | None = None
    heading: float = 0.0
    speed: int = 0
    shields: dict[Zone, int]
    defense: tuple[DefenseTokenState, ...] = ()
    dials: tuple[Dial, ...] = ()  # the stack, top first (SWA-R2)
    next_slot: int = 0
    revealed: tuple[RevealedDial, ...] = ()
    tokens: tuple[CommandName, ...] = ()  # command tokens (SWA-R3)
    resolved: tuple[CommandName, ...] = ()  # commands resolved this round (SWA-R3)
    damage: tuple[DamageCardState, ...] = ()
    activated: bool = False  # a face-up dial on the card this round (SWA-2)
    destroyed: bool = False

    @property
    def deployed(self) -> bool:
        return self.x is not None and self.y is not None

    @property
    def in_play(self) -> bool:
        return self.deployed and not self.destroyed

    @property
    def pose(self) -> Pose:
        return Pose(self.x or 0.0, self.y or 0.0, self.heading)

    @property
    def position(self) -> tuple[float, float]:
        """``pose.position`` without building the pose (the bot reads it in every loop)."""
        return (self.x or 0.0, self.y or 0.0)


class SquadronState(_State):
    id: str
    side: str
    card: str
    name: str
    x: float | None = None  # None: not deployed yet (SWA-SETUP)
    y: float | None = None
    hull: int  # hull points left
    slider: Face = "blue"  # SWA-3.4
    defense: tuple[DefenseTokenState, ...] = ()
    destroyed: bool = False

    @property
    def deployed(self) -> bool:
        return self.x is not None and self.y is not None

    @property
    def in_play(self) -> bool:
        return self.deployed and not self.destroyed

    @property
    def position(self) -> tuple[float, float]:
        return (self.x or 0.0, self.y or 0.0)


class Activation(_State):
    """The ship activating now (SWA-2). ``step``: ``reveal`` — the dial is revealed and the
    Squadron and Repair commands may resolve; ``attack`` — the attack step has begun (set by the
    attack pipeline). ``dial`` is the revealed dial while it is kept unspent; ``attacks`` the
    hull zones that have attacked (SWA-2.2: two at most, from different zones); ``squadrons``
    how many more squadrons the Squadron command may activate (SWA-R3)."""

    ship: str
    step: Literal["reveal", "attack"] = "reveal"
    dial: CommandName | None = None
    attacks: tuple[Zone, ...] = ()
    ship_targets: int = 0  # attacks this activation that targeted a ship (Coolant Discharge)
    squadrons: int = 0


class SquadronActivation(_State):
    """The squadron activating now: in the Squadron Phase (move or attack, SWA-3) or by a
    Squadron command (move and attack in either order, SWA-R3)."""

    squadron: str
    by_ship: str | None = None
    moved: bool = False
    attacked: bool = False


class Displaced(_State):
    """Squadrons a ship's final position overlapped (SWA-OVL): ``placer``, the player not moving
    the ship, places them touching it."""

    ship: str
    squadrons: tuple[str, ...]
    placer: str


class ObstacleChoice(_State):
    """An obstacle under a ship's final position whose effect waits for its owner's choice
    (SWA-OVL): the debris field's hull zone or the station's damage card. ``later`` are the
    obstacles under the ship still to resolve after it."""

    ship: str
    obstacle: str
    kind: Literal["debris", "station"]
    chooser: str
    later: tuple[str, ...] = ()


class LastAttack(_State):
    """The last attack declared (for drawing its line of sight and range), until the next
    maneuver or activation."""

    attacker: str
    zone: Zone | None = None
    defender: str
    defending_zone: Zone | None = None


class LastManeuver(_State):
    """The last maneuver executed (for drawing the tool's path), until the next attack or
    activation: the ship, where it started and the course it took."""

    ship: str
    x: float
    y: float
    heading: float
    clicks: tuple[int, ...]
    side: Literal["left", "right"]


class ArmadaState(_State):
    scenario: Scenario
    data: ArmadaData
    options: ArmadaOptions = ArmadaOptions()
    rules_version: tuple[int, int] = (0, 2)  # the version the game is played by (options.VERSION)
    salt_base: str = ""  # seeds the bot's dial salts (domain.sealed)
    round: int = 1
    phase: Phase = "command"
    active: str | None = None  # the side whose turn it is (setup, ship and squadron phases)
    last: str | None = None  # the side that took the last turn this phase
    initiative: Face = "blue"  # the initiative token's face up (SWA-3.4, SWA-4)
    ships: dict[str, ShipState]
    squadrons: dict[str, SquadronState] = Field(default_factory=dict)
    dials_set: tuple[str, ...] = ()  # sides that have set dials this Command Phase
    activation: Activation | None = None
    squadron_activation: SquadronActivation | None = None
    turn_count: int = 0  # squadron activations in the current Squadron Phase turn
    displaced: Displaced | None = None
    obstacle_choice: ObstacleChoice | None = None  # SWA-OVL: debris zone, station discard
    attack: AttackState | None = None  # the attack in progress (SWA-ATK)
    deck: DeckState = DeckState()  # the damage deck and its discard pile (SWA-DMG)
    deck_shuffled: bool = False  # the setup shuffle has happened (at the first card due)
    dealings: tuple[Dealing, ...] = ()  # cards dealt outside attacks awaiting a choice
    pass_tokens: dict[str, int] = Field(default_factory=dict)  # SWA-PASS (option)
    passed_last: str | None = None  # the side whose last Ship Phase turn was a pass
    last_attack: LastAttack | None = None  # shown on the board (read model overlays)
    last_maneuver: LastManeuver | None = None
    result: dict[str, str] | None = None

    # --- look-ups ----------------------------------------------------------------------

    @property
    def first_player(self) -> str:
        return self.scenario.first_player

    def other(self, side: str) -> str:
        return self.scenario.other(side)

    def card(self, ship_id: str) -> ShipCard:
        return self.data.ships.get(self.ships[ship_id].card)

    def squadron_card(self, squadron_id: str) -> SquadronCard:
        return self.data.squadrons.get(self.squadrons[squadron_id].card)

    def placed(self, ship_id: str) -> PlacedShip:
        """The ship's shapes at its pose (bases, zones, arcs); one object per card and pose
        for the whole game (:meth:`.data.ArmadaData.memo`), so its shapes are computed once."""
        ship = self.ships[ship_id]

        def make() -> PlacedShip:
            card = self.data.ships.get(ship.card)
            hull = self.data.ships.hull(card.hull_geometry)
            return place_ship(hull, self.data.geometry.base_sizes[card.size], ship.pose)

        # keyed by the pose's numbers: building a Pose (validated) per look-up cost more
        return self.data.memo(("placed", ship.card, ship.x, ship.y, ship.heading), make)

    def disc(self, squadron_id: str, at: tuple[float, float] | None = None) -> Disc:
        x, y = at or self.squadrons[squadron_id].position  # a point's JSON form is a list
        centre = (x, y)
        radius = self.data.geometry.squadron_base_radius
        # one disc per centre, so its shapely point is built once
        return self.data.memo(("disc", centre, radius), lambda: Disc(centre, radius))

    def ships_of(self, side: str) -> list[ShipState]:
        """The side's ships in play, in scenario order."""
        return [s for s in self.ships.values() if s.side == side and s.in_play]

    def squadrons_of(self, side: str) -> list[SquadronState]:
        """The side's squadrons in play, in scenario order."""
        return [s for s in self.squadrons.values() if s.side == side and s.in_play]

    def squadron_ready(self, squadron_id: str) -> bool:
        """Not yet activated this round: its slider matches the initiative token (SWA-3.4)."""
        return self.squadrons[squadron_id].slider == self.initiative

    def attacks_allowed(self) -> bool:
        """False in rounds whose attack steps the scenario skips (SWA-2.2, learning round 1)."""
        return self.round not in self.scenario.no_attacks_in_rounds


# --------------------------------------------------------------------------- cheap updates


def with_ship(state: ArmadaState, ship_id: str, **update: Any) -> ArmadaState:
    """``state`` with one ship's fields replaced (``domain.frozen.changed``, for evolve)."""
    ships = dict(state.ships)
    ships[ship_id] = changed(ships[ship_id], **update)
    return changed(state, ships=ships)


def with_squadron(state: ArmadaState, squadron_id: str, **update: Any) -> ArmadaState:
    """``state`` with one squadron's fields replaced."""
    squadrons = dict(state.squadrons)
    squadrons[squadron_id] = changed(squadrons[squadron_id], **update)
    return changed(state, squadrons=squadrons)


def next_side(state: ArmadaState, can_act: Callable[[ArmadaState, str], bool]) -> str | None:
    """Whose turn comes next (SWA-2, SWA-3, SWA-SETUP): the first player opens a phase, then the
    sides alternate; a side with nothing left to do passes, so the other goes again. None when
    neither side can act."""
    if state.last is None:
        order = (state.first_player, state.other(state.first_player))
    else:
        order = (state.other(state.last), state.last)
    return next((side for side in order if can_act(state, side)), None)
