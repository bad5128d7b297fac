"""Star Wars: Armada events (past-tense facts), topics ``armada.<Name>/1``.

The sequence of play (phases, turns, the Status Phase), deployment, sealed dials and their
reveal, commands resolved, maneuvers and overlaps, squadron activations and moves. Dice are
engine ``wake.DiceRolled/1`` events; the end of the game is the engine's ``wake.GameEnded/1``.
The attacks', defence tokens' and damage deck's events (``UnitDestroyed`` among them, re-exported
here) are in :mod:`.attack_events` and registered next to these (``integration.EVENTS``).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from domain.events import DomainEvent, EventRegistry
from domain.rulesets.armada.attack_events import UnitDestroyed
from domain.rulesets.armada.geometry import Zone
from domain.rulesets.armada.state import CommandName, Face, Phase

Point = tuple[float, float]

__all__ = ["UnitDestroyed"]  # re-exported: one event class for every destroyed unit


class PhaseBegan(DomainEvent):
    """A phase of a round begins (SWA-R1): Command, Ship, Squadron or Status."""

    TOPIC: ClassVar[str] = "armada.PhaseBegan/1"
    RULE: ClassVar[str] = "SWA-R1"
    AUTOMATIC: ClassVar[bool] = True
    round: int
    phase: Phase


class TurnBegan(DomainEvent):
    """It is ``side``'s turn: to deploy (SWA-SETUP), to activate a ship (SWA-2) or two
    squadrons (SWA-3); the other side had nothing left to do when it is the same side again."""

    TOPIC: ClassVar[str] = "armada.TurnBegan/1"
    RULE: ClassVar[str] = "SWA-2"
    AUTOMATIC: ClassVar[bool] = True
    side: str
    rule: str = "SWA-2"


class ShipDeployed(DomainEvent):
    """SWA-SETUP: a ship placed in its deployment zone with its speed dial set."""

    TOPIC: ClassVar[str] = "armada.ShipDeployed/1"
    RULE: ClassVar[str] = "SWA-SETUP"
    side: str
    ship: str
    x: float
    y: float
    heading: float
    speed: int


class SquadronsDeployed(DomainEvent):
    """SWA-SETUP: one or two squadrons placed within distance 1–2 of a friendly ship."""

    TOPIC: ClassVar[str] = "armada.SquadronsDeployed/1"
    RULE: ClassVar[str] = "SWA-SETUP"
    side: str
    positions: dict[str, Point]


class DialsAssigned(DomainEvent):
    """SWA-R2: a side's new dials, face down under each ship's stack: the ``domain.sealed``
    digests, in order, slots numbered on from ``first_slot``. Hidden: redacted for the other
    side."""

    TOPIC: ClassVar[str] = "armada.DialsAssigned/1"
    RULE: ClassVar[str] = "SWA-R2"
    side: str
    dials: dict[str, list[str]]
    first_slot: dict[str, int] = Field(default_factory=dict)


class DialRevealed(DomainEvent):
    """SWA-2.1: the ship activates; its top dial is turned face up (the salt opened the seal)."""

    TOPIC: ClassVar[str] = "armada.DialRevealed/1"
    RULE: ClassVar[str] = "SWA-2.1"
    ship: str
    slot: int
    command: CommandName
    salt: str


class TurnPassed(DomainEvent):
    """SWA-PASS: ``side`` spends a pass token instead of activating a ship (``tokens_left``
    after it); the turn goes to the opponent."""

    TOPIC: ClassVar[str] = "armada.TurnPassed/1"
    RULE: ClassVar[str] = "SWA-PASS"
    side: str
    tokens_left: int


class DialDiscarded(DomainEvent):
    """SWA-DMG (Crew Panic): the ship throws its top dial away unrevealed and activates with no
    command this round. The dial's content stays sealed."""

    TOPIC: ClassVar[str] = "armada.DialDiscarded/1"
    RULE: ClassVar[str] = "SWA-DMG"
    ship: str
    slot: int


class TokenGained(DomainEvent):
    """SWA-2.1 / SWA-R3: the revealed dial is spent for its command token. ``discarded``: the
    token given up at once — the new one when the ship already had one like it, or one chosen
    when the ship held more than its command value."""

    TOPIC: ClassVar[str] = "armada.TokenGained/1"
    RULE: ClassVar[str] = "SWA-R3"
    ship: str
    command: CommandName
    discarded: CommandName | None = None


class CommandResolved(DomainEvent):
    """SWA-R3: a command resolved, spending the revealed dial and/or a token (once per round).
    ``amount``: squadrons the Squadron command may activate, or the Repair command's
    engineering points (0 for the others)."""

    TOPIC: ClassVar[str] = "armada.CommandResolved/1"
    RULE: ClassVar[str] = "SWA-R3"
    ship: str
    command: CommandName
    dial: bool
    token: bool
    amount: int = 0


class ShieldsRepaired(DomainEvent):
    """SWA-R3 Repair: one repair effect on shields: a shield moved from ``source`` to ``zone``
    (1 point) or recovered on ``zone`` (2 points)."""

    TOPIC: ClassVar[str] = "armada.ShieldsRepaired/1"
    RULE: ClassVar[str] = "SWA-R3"
    ship: str
    effect: Literal["move_shield", "recover_shield"]
    zone: Zone
    source: Zone | None = None
    points: int


class DamageCardDiscarded(DomainEvent):
    """A damage card discarded from a ship: the Repair command's repair hull (3 points,
    SWA-R3) or a station the ship overlaps (SWA-OVL)."""

    TOPIC: ClassVar[str] = "armada.DamageCardDiscarded/1"
    RULE: ClassVar[str] = "SWA-R3"
    ship: str
    index: int
    card: str
    face_up: bool
    points: int = 0
    rule: str = "SWA-R3"


class SpeedChanged(DomainEvent):
    """SWA-R3 Navigate: the speed dial changed during Determine Course."""

    TOPIC: ClassVar[str] = "armada.SpeedChanged/1"
    RULE: ClassVar[str] = "SWA-R3"
    ship: str
    before: int
    after: int


class ShipManeuvered(DomainEvent):
    """SWA-2.3: a ship executed its maneuver. ``clicks`` and ``side`` are the course and the
    tool's side; ``speed`` is the speed it moved at, below the dial's when it overlapped
    another ship at ``overlapped_at`` (SWA-OVL step-down); the final pose is exact (mm, degrees
    clockwise from +y)."""

    TOPIC: ClassVar[str] = "armada.ShipManeuvered/1"
    RULE: ClassVar[str] = "SWA-2.3"
    ship: str
    clicks: list[int]
    side: Literal["left", "right"]
    speed: int
    overlapped_at: list[int] = Field(default_factory=list)
    x: float
    y: float
    heading: float


class ShipsOverlapped(DomainEvent):
    """SWA-OVL: the moving ship overlapped ``other`` (the closest one it overlapped); each is
    dealt one face-down damage card (the damage deck's events follow)."""

    TOPIC: ClassVar[str] = "armada.ShipsOverlapped/1"
    RULE: ClassVar[str] = "SWA-OVL"
    ship: str
    other: str


class ObstacleOverlapped(DomainEvent):
    """SWA-OVL: a ship's final position overlaps an obstacle; its effect follows (asteroid: a
    face-up damage card; debris: two damage on the hull zone its owner picks; station: the
    owner may discard a damage card; :class:`ObstacleChoiceAwaited` asks the owner)."""

    TOPIC: ClassVar[str] = "armada.ObstacleOverlapped/1"
    RULE: ClassVar[str] = "SWA-OVL"
    unit: str
    obstacle: str
    kind: Literal["asteroid", "debris", "station"]


class ObstacleChoiceAwaited(DomainEvent):
    """SWA-OVL: the effect of ``obstacle`` under a ship's final position waits for its owner
    (``chooser``): the hull zone that suffers a debris field's two damage, or the damage card a
    station lets the ship discard. ``later``: the obstacles under the ship still to resolve."""

    TOPIC: ClassVar[str] = "armada.ObstacleChoiceAwaited/1"
    RULE: ClassVar[str] = "SWA-OVL"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    obstacle: str
    kind: Literal["debris", "station"]
    chooser: str
    later: list[str] = Field(default_factory=list)


class ObstacleChoiceMade(DomainEvent):
    """SWA-OVL: the owner's choice for an obstacle's effect: the debris field's ``zone``, or the
    station's damage card to discard (``card``, its index on the ship; None: none)."""

    TOPIC: ClassVar[str] = "armada.ObstacleChoiceMade/1"
    RULE: ClassVar[str] = "SWA-OVL"
    ship: str
    obstacle: str
    kind: Literal["debris", "station"]
    zone: Zone | None = None
    card: int | None = None


class SquadronHullRecovered(DomainEvent):
    """SWA-OVL: a squadron that ended its move overlapping a station recovers one hull point;
    ``hull`` is its hull after."""

    TOPIC: ClassVar[str] = "armada.SquadronHullRecovered/1"
    RULE: ClassVar[str] = "SWA-OVL"
    AUTOMATIC: ClassVar[bool] = True
    squadron: str
    obstacle: str
    hull: int


class SquadronsDisplaced(DomainEvent):
    """SWA-OVL: the ship's final position overlapped these squadrons; ``placer`` (the player
    not moving the ship) places them touching it."""

    TOPIC: ClassVar[str] = "armada.SquadronsDisplaced/1"
    RULE: ClassVar[str] = "SWA-OVL"
    ship: str
    squadrons: list[str]
    placer: str


class SquadronsPlaced(DomainEvent):
    """SWA-OVL: displaced squadrons placed touching the ship that overlapped them."""

    TOPIC: ClassVar[str] = "armada.SquadronsPlaced/1"
    RULE: ClassVar[str] = "SWA-OVL"
    side: str
    positions: dict[str, Point]


class ActivationEnded(DomainEvent):
    """SWA-2: the ship's activation is over; its dial lies face up on its card (an unspent dial
    is discarded, SWA-R3) and it cannot activate again this round."""

    TOPIC: ClassVar[str] = "armada.ActivationEnded/1"
    RULE: ClassVar[str] = "SWA-2"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    unspent: CommandName | None = None


class SquadronActivated(DomainEvent):
    """SWA-3 / SWA-3.4: a squadron activates and its slider toggles to ``slider``; ``by_ship``
    names the ship whose Squadron command activated it (SWA-R3)."""

    TOPIC: ClassVar[str] = "armada.SquadronActivated/1"
    RULE: ClassVar[str] = "SWA-3.4"
    squadron: str
    slider: Face
    by_ship: str | None = None


class SquadronMoved(DomainEvent):
    """SWA-3.1: a squadron moved, its centre ``distance`` mm (no farther than its speed's
    distance band)."""

    TOPIC: ClassVar[str] = "armada.SquadronMoved/1"
    RULE: ClassVar[str] = "SWA-3.1"
    squadron: str
    x: float
    y: float
    distance: float


class SquadronActivationEnded(DomainEvent):
    """SWA-3: the squadron's activation is over."""

    TOPIC: ClassVar[str] = "armada.SquadronActivationEnded/1"
    RULE: ClassVar[str] = "SWA-3"
    AUTOMATIC: ClassVar[bool] = True
    squadron: str


class StatusResolved(DomainEvent):
    """SWA-4: exhausted defence tokens are readied and the initiative token flipped to
    ``initiative``; the next round (if any) begins with its Command Phase."""

    TOPIC: ClassVar[str] = "armada.StatusResolved/1"
    RULE: ClassVar[str] = "SWA-4"
    AUTOMATIC: ClassVar[bool] = True
    round: int
    readied: dict[str, int] = Field(default_factory=dict)
    initiative: Face


ARMADA_EVENTS = EventRegistry(
    [
        PhaseBegan,
        TurnBegan,
        ShipDeployed,
        SquadronsDeployed,
        DialsAssigned,
        DialRevealed,
        DialDiscarded,
        TurnPassed,
        TokenGained,
        CommandResolved,
        ShieldsRepaired,
        DamageCardDiscarded,
        SpeedChanged,
        ShipManeuvered,
        ShipsOverlapped,
        ObstacleOverlapped,
        ObstacleChoiceAwaited,
        ObstacleChoiceMade,
        SquadronHullRecovered,
        SquadronsDisplaced,
        SquadronsPlaced,
        ActivationEnded,
        SquadronActivated,
        SquadronMoved,
        SquadronActivationEnded,
        StatusResolved,
    ]
)
