"""Obstacles (SWA-OVL, RRG "Obstacles"): where they lie, and what they do to a ship that ends its
maneuver on them and to a squadron that ends its move on a station.

* **Ship** (only its final position counts): an asteroid field deals one face-up damage card; a
  debris field two damage on one hull zone; a station lets the ship discard one damage card.
  Damaged Controls adds one face-down card for each obstacle overlapped. The debris zone and
  the station's card are the **owner's** choices: :func:`effects` stops at such an obstacle
  with :class:`.events.ObstacleChoiceAwaited`, the owner answers with ``debris_zone`` or
  ``station_discard`` (:func:`decide_choice`), and the maneuver goes on from there (the
  obstacles still under the ship, then the rest of the maneuver: ``then``). Games recorded
  with version 0.1 re-run with 0.1's reading: Wake chose for the owner (the zone with the most
  shields; a face-up card first).
* **Squadron** (version 0.2 on): one that ends its move overlapping a station recovers one hull
  point, up to its card's hull (:func:`station_repair`). Squadrons ignore asteroids and debris.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

from domain.dice import DiceSource
from domain.errors import IllegalCommand, InvalidCommand
from domain.events import DomainEvent
from domain.frozen import changed
from domain.rulesets.armada.commands import DebrisZone, StationDiscard
from domain.rulesets.armada.damage import overlap_cards
from domain.rulesets.armada.damage_dealing import (
    deal_damage_cards,
    face_up_effects,
    strongest_zone,
    suffer_damage,
)
from domain.rulesets.armada.data import ObstacleKind
from domain.rulesets.armada.events import (
    DamageCardDiscarded,
    ObstacleChoiceAwaited,
    ObstacleChoiceMade,
    ObstacleOverlapped,
    SquadronHullRecovered,
)
from domain.rulesets.armada.geometry import ZONES, Pose, place_obstacle
from domain.rulesets.armada.overlap import bases_overlap, squadron_overlaps
from domain.rulesets.armada.sequence import acting_side
from domain.rulesets.armada.state import ArmadaState, ObstacleChoice, with_squadron

RULE = "SWA-OVL"
OWNERS_CHOICE = (0, 2)
"""The first version in which the owner chooses the debris zone and the station's card, a
squadron is repaired on a station and displaced squadrons touch the ship while there is room."""

Fold = Callable[[ArmadaState, Sequence[DomainEvent]], ArmadaState]
Then = Callable[[ArmadaState, str, DiceSource], list[DomainEvent]]
"""What follows a ship's obstacles in its maneuver (Ruptured Engine, squadrons displaced, the
end of the activation), given the state after them."""


def obstacle_shapes(state: ArmadaState) -> dict[str, tuple[ObstacleKind, Any]]:
    """Obstacle id -> (kind, outline on the play area); computed once per game."""
    setups = tuple(
        (o.id, o.shape, o.x, o.y, o.heading, o.flipped) for o in state.scenario.obstacles
    )

    def make() -> dict[str, tuple[ObstacleKind, Any]]:
        shapes: dict[str, tuple[ObstacleKind, Any]] = {}
        for oid, shape_id, x, y, heading, flipped in setups:
            shape = state.data.obstacles.get(shape_id)
            shapes[oid] = (shape.kind, place_obstacle(shape, Pose(x, y, heading), flipped))
        return shapes

    return state.data.memo(("obstacles", setups), make)


def owners_choose(state: ArmadaState) -> bool:
    """Whether this game is played by the version in which owners make their own choices."""
    return state.rules_version >= OWNERS_CHOICE


# --------------------------------------------------------------------------- ships


def effects(
    state: ArmadaState,
    ship_id: str,
    base: Any,
    dice: DiceSource,
    fold: Fold,
    only: Sequence[str] | None = None,
) -> list[DomainEvent]:
    """SWA-OVL: the effects of the obstacles under a ship's final position ``base``, one after
    another (each on the state the previous ones left), with Damaged Controls' extra card;
    ``only`` limits them to those obstacles (the ones left after an owner's choice). Ends with
    :class:`.events.ObstacleChoiceAwaited` when an obstacle waits for its owner's choice."""
    under = [
        (oid, kind)
        for oid, (kind, outline) in obstacle_shapes(state).items()
        if (only is None or oid in only) and bases_overlap(base, outline)
    ]
    events: list[DomainEvent] = []
    for n, (obstacle, kind) in enumerate(under):
        now = fold(state, events)
        if not now.ships[ship_id].in_play:
            break
        events.append(ObstacleOverlapped(unit=ship_id, obstacle=obstacle, kind=kind))
        extra = overlap_cards(face_up_effects(now, ship_id))  # Damaged Controls
        events += deal_damage_cards(now, ship_id, extra, face_up=False, rule="SWA-DMG", dice=dice)
        now = fold(state, events)
        ship = now.ships[ship_id]
        if not ship.in_play:
            break
        if kind == "asteroid":
            events += deal_damage_cards(now, ship_id, 1, face_up=True, rule=RULE, dice=dice)
        elif owners_choose(now):
            if kind == "debris" or ship.damage:
                later = [oid for oid, _ in under[n + 1 :]]
                events.append(
                    ObstacleChoiceAwaited(
                        ship=ship_id, obstacle=obstacle, kind=kind, chooser=ship.side, later=later
                    )
                )
                return events
        elif kind == "debris":  # 0.1: Wake chose the zone for the owner
            zone = strongest_zone(now, ship_id)
            events += suffer_damage(now, ship_id, 2, zone, rule=RULE, dice=dice)
        elif ship.damage:  # 0.1: a face-up card first
            events += _discard(now, ship_id, next(_face_up(now, ship_id), 0))
    return events


def _face_up(state: ArmadaState, ship_id: str) -> Any:
    return (i for i, c in enumerate(state.ships[ship_id].damage) if c.face_up)


def _discard(state: ArmadaState, ship_id: str, index: int) -> list[DomainEvent]:
    card = state.ships[ship_id].damage[index]
    return [
        DamageCardDiscarded(
            ship=ship_id, index=index, card=card.card, face_up=card.face_up, rule=RULE
        )
    ]


def decide_choice(
    state: ArmadaState,
    side: str | None,
    command: DebrisZone | StationDiscard,
    dice: DiceSource,
    fold: Fold,
    then: Then,
) -> list[DomainEvent]:
    """SWA-OVL: the owner's choice for the obstacle waiting on it, its effect, and the rest of
    the maneuver (the obstacles still under the ship, then ``then``).

    Raises:
        IllegalCommand: no obstacle waits for a choice, another ship, the other kind of order
            (a debris field takes ``debris_zone``, a station ``station_discard``), or a damage
            card the ship does not have. NotYourTurn: not the owner.
    """
    waiting = state.obstacle_choice
    if waiting is None:
        raise IllegalCommand("no obstacle waits for its owner's choice", rule=RULE)
    acting_side(state, side, "ship", RULE)
    if command.ship != waiting.ship:
        raise IllegalCommand(
            f"the choice waiting is for {waiting.ship} on {waiting.obstacle}, not {command.ship}",
            rule=RULE,
        )
    events: list[DomainEvent] = []
    if isinstance(command, DebrisZone):
        if waiting.kind != "debris":
            raise IllegalCommand(
                f"{waiting.obstacle} is a station: choose the damage card to discard "
                "(station_discard)",
                rule=RULE,
            )
        events.append(_made(waiting, zone=command.zone))
        events += suffer_damage(
            fold(state, events), waiting.ship, 2, command.zone, rule=RULE, dice=dice
        )
    else:
        if waiting.kind != "station":
            raise IllegalCommand(
                f"{waiting.obstacle} is a debris field: choose the hull zone that suffers its "
                "two damage (debris_zone)",
                rule=RULE,
            )
        cards = state.ships[waiting.ship].damage
        if command.card is not None and command.card >= len(cards):
            raise InvalidCommand(
                f"{waiting.ship} has {len(cards)} damage card(s); there is no card {command.card}",
                rule=RULE,
            )
        events.append(_made(waiting, card=command.card))
        if command.card is not None:
            events += _discard(state, waiting.ship, command.card)
    now = fold(state, events)
    if now.ships[waiting.ship].in_play:
        base = now.placed(waiting.ship).base
        events += effects(now, waiting.ship, base, dice, fold, waiting.later)
        if events and isinstance(events[-1], ObstacleChoiceAwaited):
            return events
    return [*events, *then(fold(state, events), waiting.ship, dice)]


def _made(
    waiting: ObstacleChoice, *, zone: Any = None, card: int | None = None
) -> ObstacleChoiceMade:
    return ObstacleChoiceMade(
        ship=waiting.ship, obstacle=waiting.obstacle, kind=waiting.kind, zone=zone, card=card
    )


def choices(state: ArmadaState) -> list[BaseModel]:
    """Every answer the obstacle waiting may take: each hull zone of a debris field; for a
    station each face-up card, one face-down card (they are alike to the owner) and none."""
    waiting = state.obstacle_choice
    if waiting is None:
        return []
    if waiting.kind == "debris":
        return [DebrisZone(ship=waiting.ship, zone=zone) for zone in ZONES]
    cards = state.ships[waiting.ship].damage
    face_down = next((i for i, c in enumerate(cards) if not c.face_up), None)
    picks = [i for i, c in enumerate(cards) if c.face_up or i == face_down]
    return [
        *(StationDiscard(ship=waiting.ship, card=i) for i in picks),
        StationDiscard(ship=waiting.ship, card=None),
    ]


def bot_choice(state: ArmadaState) -> BaseModel | None:
    """The bot's answer: the zone with the most shields (it loses no damage card when one is
    avoidable); a face-up damage card first, else a face-down one."""
    waiting = state.obstacle_choice
    if waiting is None:
        return None
    if waiting.kind == "debris":
        return DebrisZone(ship=waiting.ship, zone=strongest_zone(state, waiting.ship))
    return StationDiscard(ship=waiting.ship, card=next(_face_up(state, waiting.ship), 0))


# --------------------------------------------------------------------------- squadrons


def station_repair(
    state: ArmadaState, squadron_id: str, at: tuple[float, float]
) -> list[DomainEvent]:
    """SWA-OVL: a squadron that ends its move at ``at`` overlapping a station recovers one hull
    point, when it has lost any (version 0.2 on)."""
    if not owners_choose(state):
        return []
    squadron = state.squadrons[squadron_id]
    top = state.squadron_card(squadron_id).hull
    if squadron.hull >= top:
        return []
    disc = state.disc(squadron_id, at)
    for oid, (kind, outline) in obstacle_shapes(state).items():
        if kind == "station" and squadron_overlaps(outline, disc):
            return [
                SquadronHullRecovered(squadron=squadron_id, obstacle=oid, hull=squadron.hull + 1)
            ]
    return []


# --------------------------------------------------------------------------- evolve


HANDLES: tuple[type[DomainEvent], ...] = (
    ObstacleChoiceAwaited,
    ObstacleChoiceMade,
    SquadronHullRecovered,
)
"""The events :func:`apply` changes the state for (it returns any other unchanged);
``rules.evolve`` hands this module only these."""


def apply(state: ArmadaState, event: DomainEvent) -> ArmadaState:
    if isinstance(event, ObstacleChoiceAwaited):
        waiting = ObstacleChoice(
            ship=event.ship,
            obstacle=event.obstacle,
            kind=event.kind,
            chooser=event.chooser,
            later=tuple(event.later),
        )
        return changed(state, obstacle_choice=waiting)
    if isinstance(event, ObstacleChoiceMade):
        return changed(state, obstacle_choice=None)
    if isinstance(event, SquadronHullRecovered):
        return with_squadron(state, event.squadron, hull=event.hull)
    return state
