"""The mandatory maneuver (SWA-2.3) with Navigate (SWA-R3) and overlapping (SWA-OVL).

* **Determine course**: the speed dial, changed by one with a Navigate dial or token (two with
  both) within 0..the chart's top speed; the clicks, one per joint, each within the speed
  chart's yaw for the new speed (SWA-2.3a), one joint raised by one with a Navigate dial
  ("–"→"I"→"II").
* **Move ship** with the maneuver tool (:mod:`.maneuver`) on the chosen side. A final position
  that would overlap the tool must be taken with the tool on the other side (SWA-2.3b), unless
  it overlaps the tool on both sides.
* **Overlapping** (SWA-OVL): a final position overlapping another ship retries at speed − 1 …
  0 with the course's first clicks; then the ship and the closest ship it overlapped (among the
  ships overlapped at the last speed tried, measured from its final position — Wake's reading)
  are each dealt a face-down damage card (INTEGRATION POINT: ``integration.deal_damage_cards``).
  A base partly outside the play area is destroyed. Obstacles under the final position take
  effect (:mod:`.obstacles`: asteroid, one face-up damage card; debris, two damage on the hull
  zone the owner picks; station, the damage card the owner picks is discarded); the maneuver
  goes on after the owner's choice (:func:`decide_obstacle_choice`, :func:`finish_maneuver`).
  Squadrons under the final position are placed touching the ship by the player not moving it
  (``place_squadrons``, within :data:`TOUCH` mm) as long as the ship has room beside it, and
  only then touching a squadron that touches it (:func:`room_beside`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.dice import DiceSource
from domain.errors import IllegalCommand, InvalidCommand
from domain.events import DomainEvent
from domain.frozen import changed
from domain.rulesets.armada import obstacles
from domain.rulesets.armada.arcs import distance_between
from domain.rulesets.armada.commands import DebrisZone, Maneuver, PlaceSquadrons, StationDiscard
from domain.rulesets.armada.damage import (
    damage_after_maneuver,
    damage_on_speed_change,
    damaged_yaw_limits,
    overlap_cards,
)
from domain.rulesets.armada.damage_dealing import (
    deal_damage_cards,
    face_up_effects,
    strongest_zone,
    suffer_damage,
)
from domain.rulesets.armada.events import (
    ActivationEnded,
    CommandResolved,
    ObstacleChoiceAwaited,
    ShipManeuvered,
    ShipsOverlapped,
    SpeedChanged,
    SquadronsDisplaced,
    SquadronsPlaced,
    UnitDestroyed,
)
from domain.rulesets.armada.geocache import content_token
from domain.rulesets.armada.geometry import Disc, Pose, place_ship
from domain.rulesets.armada.maneuver import (
    CourseError,
    Side,
    check_course,
    execute,
    final_pose,
    raise_joint,
    yaw_limits,
)
from domain.rulesets.armada.overlap import (
    closest,
    discs_overlap,
    outside_play_area,
    room_touching,
    ships_overlapped,
    squadron_overlaps,
    squadrons_overlapped,
    step_down,
)
from domain.rulesets.armada.sequence import acting_side
from domain.rulesets.armada.ship_commands import check_spend
from domain.rulesets.armada.ship_phase import activating
from domain.rulesets.armada.state import (
    ArmadaState,
    Displaced,
    LastManeuver,
    with_ship,
    with_squadron,
)
from domain.words import possessive

TOUCH = 0.5
"""mm: a placed squadron within this gap of the ship (without overlapping) touches it."""

Fold = Callable[[ArmadaState, Sequence[DomainEvent]], ArmadaState]


class Mover:
    """One ship's maneuver geometry: final poses, bases and the other ships' bases."""

    def __init__(self, state: ArmadaState, ship_id: str) -> None:
        self.state = state
        ship = state.ships[ship_id]
        card = state.card(ship_id)
        self.start = ship.pose
        self.card = ship.card
        self.hull = state.data.ships.hull(card.hull_geometry)
        self.size = state.data.geometry.base_sizes[card.size]
        self.tool = state.data.geometry.maneuver_tool
        self.others = {
            s.id: state.placed(s.id).base
            for s in state.ships.values()
            if s.in_play and s.id != ship_id
        }
        self._tool_at: int | None = None  # overlaps_tool's key part, made when first asked

    def base(self, pose: Pose) -> Any:
        # the key of ``ArmadaState.placed``: the bot's candidate poses, the maneuver decided and
        # the ship standing there afterwards share one placed ship (and its shrunk base)
        placed = self.state.data.memo(
            ("placed", self.card, pose.x, pose.y, pose.heading),
            lambda: place_ship(self.hull, self.size, pose),
        )
        return placed.base

    def final(self, course: Sequence[int], side: Side) -> Pose:
        return final_pose(self.start, self.size, self.tool, course, side)

    def overlaps_tool(self, course: Sequence[int], side: Side) -> bool:
        def make() -> bool:
            move = execute(self.start, self.size, self.tool, course, side)
            return move.overlaps_tool(self.base(move.final))

        # pure geometry of the hull, base, tool and start pose: remembered with the data, the
        # hull, base and start as one token (hashing the base's model and the pose per course
        # cost more than the look-up)
        if self._tool_at is None:
            self._tool_at = content_token(("tool", self.hull.id, self.size, self.start))
        key = ("tool", self._tool_at, tuple(course), side)
        return self.state.data.memo(key, make)

    def ships_hit(self, pose: Pose) -> tuple[str, ...]:
        return ships_overlapped(self.base(pose), self.others)


def determine_course(state: ArmadaState, command: Maneuver) -> tuple[int, tuple[int, ...]]:
    """The new speed and the checked course (SWA-2.3a, SWA-R3 Navigate).

    Raises:
        IllegalCommand: a Navigate spend that is not possible, a speed change beyond it or off
            the chart, a joint that cannot be raised, or a click beyond the (raised) chart.
    """
    ship = state.ships[command.ship]
    card = state.card(ship.id)
    nav = command.navigate_dial or command.navigate_token
    if nav:
        check_spend(state, ship.id, "navigate", command.navigate_dial, command.navigate_token)
    speed = ship.speed if command.speed is None else command.speed
    allowed = int(command.navigate_dial) + int(command.navigate_token)
    if abs(speed - ship.speed) > allowed:
        raise IllegalCommand(
            f"{ship.id} is at speed {ship.speed}; changing to {speed} needs a Navigate command "
            "(one step for the dial or a token, two for both)",
            rule="SWA-R3",
        )
    if speed > card.max_speed:
        raise IllegalCommand(
            f"{possessive(card.name)} speed chart stops at {card.max_speed}, not {speed}",
            rule="SWA-R3",
        )
    limits = damaged_yaw_limits(yaw_limits(card, speed), face_up_effects(state, ship.id))
    if command.raise_joint is not None:
        if not command.navigate_dial:
            raise IllegalCommand("only a Navigate dial raises a joint's yaw", rule="SWA-R3")
        try:
            limits = raise_joint(limits, command.raise_joint)
        except CourseError as exc:
            raise IllegalCommand(f"{ship.id}: {exc}", rule="SWA-R3") from None
    try:
        course = check_course(command.clicks, limits)
    except CourseError as exc:
        chart = "/".join("–" if y == 0 else "I" * y for y in limits) or "none"
        raise IllegalCommand(
            f"{ship.id} at speed {speed} (yaw {chart}): {exc}", rule="SWA-2.3a"
        ) from None
    return speed, course


def decide_maneuver(
    state: ArmadaState, side: str | None, command: Maneuver, dice: DiceSource, fold: Fold
) -> list[DomainEvent]:
    """SWA-2.3: the activating ship's maneuver, with its overlaps; it ends the activation
    unless displaced squadrons wait to be placed.

    Raises:
        IllegalCommand: see :func:`determine_course`; the tool overlapping the final position
            on the chosen side only (SWA-2.3b).
    """
    ship = activating(state, side, command.ship, "SWA-2.3")
    speed, course = determine_course(state, command)
    mover = Mover(state, ship.id)
    other_side: Side = "left" if command.side == "right" else "right"
    if (
        course
        and mover.overlaps_tool(course, command.side)
        and not mover.overlaps_tool(course, other_side)
    ):
        raise IllegalCommand(
            f"{ship.id} would overlap the maneuver tool on its {command.side} side: insert "
            f"the tool on the {other_side} side",
            rule="SWA-2.3b",
        )
    events: list[DomainEvent] = []
    if command.navigate_dial or command.navigate_token:
        events.append(
            CommandResolved(
                ship=ship.id,
                command="navigate",
                dial=command.navigate_dial,
                token=command.navigate_token,
            )
        )
    if speed != ship.speed:
        events.append(SpeedChanged(ship=ship.id, before=ship.speed, after=speed))
        fissure = damage_on_speed_change(face_up_effects(state, ship.id), ship.speed, speed)
        events += _hook_damage(fold(state, events), ship.id, fissure, dice)
        if not fold(state, events).ships[ship.id].in_play:
            return _ended(state, events, ship.id, fold)
    result = step_down(
        len(course),
        lambda s: mover.final(course[:s], command.side),
        lambda pose: bool(mover.ships_hit(pose)),
    )
    final = result.pose
    events.append(
        ShipManeuvered(
            ship=ship.id,
            clicks=list(course),
            side=command.side,
            speed=result.speed,
            overlapped_at=list(result.overlapped_at),
            x=final.x,
            y=final.y,
            heading=final.heading,
        )
    )
    base = mover.base(final)
    if result.overlapped:
        hit = mover.ships_hit(mover.final(course[: result.speed + 1], command.side))
        other = closest(base, {h: mover.others[h] for h in hit}) or hit[0]
        events.append(ShipsOverlapped(ship=ship.id, other=other))
        for victim in (ship.id, other):
            now = fold(state, events)
            if not now.ships[victim].in_play:
                continue
            extra = overlap_cards(face_up_effects(now, victim))  # Damaged Controls
            events += deal_damage_cards(
                now, victim, 1 + extra, face_up=False, rule="SWA-OVL", dice=dice
            )
    if not fold(state, events).ships[ship.id].in_play:  # destroyed by its overlap damage
        return _ended(state, events, ship.id, fold)
    if outside_play_area(base, state.data.geometry.play_area):
        cards = [c.card for c in fold(state, events).ships[ship.id].damage]
        events.append(
            UnitDestroyed(
                unit=ship.id,
                kind="ship",
                cards=cards,
                reason="part of its base left the play area",
                rule="SWA-OVL",
            )
        )
        return _ended(state, events, ship.id, fold)
    events += obstacles.effects(fold(state, events), ship.id, base, dice, fold)
    if events and isinstance(events[-1], ObstacleChoiceAwaited):
        return events  # the owner chooses; decide_obstacle_choice goes on from there
    return [*events, *finish_maneuver(fold(state, events), ship.id, dice, fold)]


def finish_maneuver(
    state: ArmadaState, ship_id: str, dice: DiceSource, fold: Fold
) -> list[DomainEvent]:
    """The rest of a maneuver once the obstacles under the ship are resolved: Ruptured Engine,
    the squadrons it overlapped (SWA-OVL: to be placed by the other player) or the end of the
    activation."""
    events: list[DomainEvent] = []
    if state.ships[ship_id].in_play:  # Ruptured Engine
        ruptured = damage_after_maneuver(
            face_up_effects(state, ship_id), state.ships[ship_id].speed
        )
        events += _hook_damage(state, ship_id, ruptured, dice)
    after = fold(state, events)
    if not after.ships[ship_id].in_play:
        return _ended(state, events, ship_id, fold)
    discs = {s.id: after.disc(s.id) for s in after.squadrons.values() if s.in_play}
    under = squadrons_overlapped(after.placed(ship_id).base, discs)
    if under:
        placer = state.other(state.ships[ship_id].side)
        events.append(SquadronsDisplaced(ship=ship_id, squadrons=list(under), placer=placer))
        return events
    return _ended(state, events, ship_id, fold)


def decide_obstacle_choice(
    state: ArmadaState,
    side: str | None,
    command: DebrisZone | StationDiscard,
    dice: DiceSource,
    fold: Fold,
) -> list[DomainEvent]:
    """SWA-OVL: the owner's choice for a debris field or a station under its ship, and the rest
    of the maneuver (:func:`.obstacles.decide_choice`)."""

    def then(after: ArmadaState, ship_id: str, more: DiceSource) -> list[DomainEvent]:
        return finish_maneuver(after, ship_id, more, fold)

    return obstacles.decide_choice(state, side, command, dice, fold, then)


def _hook_damage(
    state: ArmadaState, ship_id: str, amount: int, dice: DiceSource
) -> list[DomainEvent]:
    """Damage a face-up card deals outside attacks (Thruster Fissure, Ruptured Engine), on the
    zone Wake picks for the owner (:func:`.damage_dealing.strongest_zone`)."""
    if amount <= 0:
        return []
    zone = strongest_zone(state, ship_id)
    return suffer_damage(state, ship_id, amount, zone, rule="SWA-DMG", dice=dice)


def _ended(
    state: ArmadaState, events: list[DomainEvent], ship_id: str, fold: Fold
) -> list[DomainEvent]:
    """``events`` and the end of the activation (an unspent dial is discarded, SWA-R3)."""
    activation = fold(state, events).activation
    unspent = activation.dial if activation is not None else None
    return [*events, ActivationEnded(ship=ship_id, unspent=unspent)]


# --------------------------------------------------------------------------- placing squadrons


def decide_place(
    state: ArmadaState, side: str | None, command: PlaceSquadrons
) -> list[DomainEvent]:
    """SWA-OVL: the squadrons a ship overlapped, placed touching it by the other player.

    Raises:
        IllegalCommand: nothing to place, not exactly the displaced squadrons, a position
            outside the play area, overlapping a ship or squadron, touching neither the ship
            nor a squadron that touches it, or touching only a squadron while the ship still
            has room beside it (version 0.2 on).
    """
    acting = acting_side(state, side, "ship", "SWA-OVL")
    displaced = state.displaced
    if displaced is None:
        raise IllegalCommand("no squadrons wait to be placed", rule="SWA-OVL")
    if set(command.positions) != set(displaced.squadrons):
        raise IllegalCommand(
            f"place exactly the squadrons {displaced.ship} overlapped: "
            f"{', '.join(displaced.squadrons)}",
            rule="SWA-OVL",
        )
    ship_base = state.placed(displaced.ship).base
    bases = [state.placed(s.id).base for s in state.ships.values() if s.in_play]
    fixed = {
        s.id: state.disc(s.id)
        for s in state.squadrons.values()
        if s.in_play and s.id not in displaced.squadrons
    }
    placed: dict[str, Disc] = {}
    for sq_id, (x, y) in command.positions.items():
        if sq_id not in state.squadrons:
            raise InvalidCommand(f"no squadron {sq_id!r}")
        disc = state.disc(sq_id, (x, y))
        if outside_play_area(disc, state.data.geometry.play_area):
            raise IllegalCommand(f"{sq_id} cannot be placed outside the play area", rule="SWA-OVL")
        if any(squadron_overlaps(b, disc) for b in bases):
            raise IllegalCommand(f"{sq_id} would overlap a ship", rule="SWA-OVL")
        if any(discs_overlap(disc, d) for d in [*fixed.values(), *placed.values()]):
            raise IllegalCommand(f"{sq_id} would overlap a squadron", rule="SWA-OVL")
        placed[sq_id] = disc
    on_ship = {k for k, d in placed.items() if distance_between(ship_base, d) <= TOUCH}
    anchors = [
        *(d for d in fixed.values() if distance_between(ship_base, d) <= TOUCH),
        *(placed[k] for k in on_ship),
    ]
    for sq_id, disc in placed.items():
        if sq_id in on_ship:
            continue
        if not any(distance_between(disc, d) <= TOUCH for d in anchors):
            raise IllegalCommand(
                f"{sq_id} must touch {displaced.ship} (or a squadron touching it)",
                rule="SWA-OVL",
            )
        others = [*fixed.values(), *(d for k, d in placed.items() if k != sq_id)]
        if (
            obstacles.owners_choose(state)
            and not room_beside(state, displaced.ship, others).is_empty
        ):
            raise IllegalCommand(
                f"{sq_id} must touch {displaced.ship} itself: there is still room beside it (a "
                "squadron goes touching another squadron only when the ship has none left)",
                rule="SWA-OVL",
            )
    positions = {k: (float(x), float(y)) for k, (x, y) in command.positions.items()}
    unspent = state.activation.dial if state.activation is not None else None
    return [
        SquadronsPlaced(side=acting, positions=positions),
        ActivationEnded(ship=displaced.ship, unspent=unspent),
    ]


def room_beside(state: ArmadaState, ship_id: str, discs: Sequence[Disc]) -> Any:
    """Where a displaced squadron's centre may still go touching ``ship_id``, the other
    squadrons being at ``discs`` (:func:`.overlap.room_touching`)."""
    bases = [state.placed(s.id).base for s in state.ships.values() if s.in_play and s.id != ship_id]
    return room_touching(
        state.placed(ship_id).base,
        state.data.geometry.squadron_base_radius,
        TOUCH,
        state.data.geometry.play_area,
        bases,
        discs,
    )


# --------------------------------------------------------------------------- evolve


HANDLES: tuple[type[DomainEvent], ...] = (
    SpeedChanged,
    ShipManeuvered,
    SquadronsDisplaced,
    SquadronsPlaced,
)
"""The events :func:`apply` changes the state for (it returns any other unchanged);
``rules.evolve`` hands this module only these."""


def apply(state: ArmadaState, event: DomainEvent) -> ArmadaState:
    if isinstance(event, SpeedChanged):
        return with_ship(state, event.ship, speed=event.after)
    if isinstance(event, ShipManeuvered):
        ship = state.ships[event.ship]
        shown = LastManeuver(
            ship=event.ship,
            x=ship.x or 0.0,
            y=ship.y or 0.0,
            heading=ship.heading,
            clicks=tuple(event.clicks[: event.speed]),
            side=event.side,
        )
        state = changed(state, last_maneuver=shown, last_attack=None)
        return with_ship(state, event.ship, x=event.x, y=event.y, heading=event.heading)
    if isinstance(event, SquadronsDisplaced):
        displaced = Displaced(
            ship=event.ship, squadrons=tuple(event.squadrons), placer=event.placer
        )
        return changed(state, displaced=displaced)
    if isinstance(event, SquadronsPlaced):
        for sq_id, (x, y) in event.positions.items():
            state = with_squadron(state, sq_id, x=x, y=y)
        return changed(state, displaced=None)
    return state
