"""Squadrons (SWA-3): activations, moves, engagement, and the Squadron command's activations.

* **Squadron Phase** (SWA-3): after the Ship Phase, starting with the first player, each side in
  turn activates two squadrons (one when it has only one left; it must activate a second if
  able); a side with none left passes. A squadron activated now moves **or** attacks.
* **Squadron command** (SWA-R3): during the Ship Phase the activating ship's command activates
  friendly squadrons at close–medium range of it (measured from its base), one at a time; each
  may move **and** attack, in either order.
* **Activation slider** (SWA-3.4): activating toggles the squadron's slider; a squadron may
  activate only while its slider matches the initiative token, so once per round.
* **Move** (SWA-3.1): up to the squadron's speed on the distance side of the ruler — Wake's
  reading of "placed along the ruler up to its speed's band": the centre moves at most that
  band's outer edge — and not onto a ship or another squadron. It may stay where it is. A base
  left partly outside the play area is destroyed (SWA-OVL); one that ends its move on a station
  recovers one hull (SWA-OVL, :func:`.obstacles.station_repair`).
* **Engagement** (SWA-3.3): a squadron at distance 1 of an enemy squadron is engaged and cannot
  move; it must attack a squadron rather than a ship (the attack pipeline asks
  :func:`engaged_with`); two squadrons whose line of sight is obstructed by an obstacle or a
  ship are not engaged (RRG "Engagement").
* **Attack** (SWA-3.2): INTEGRATION POINT — :func:`check_squadron_attack`,
  :func:`mark_squadron_attack`, ``integration.squadron_can_attack``. An activation with nothing
  left to do ends at once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from domain.errors import IllegalCommand, InvalidCommand, WrongSide
from domain.events import DomainEvent
from domain.frozen import changed
from domain.rulesets.armada.arcs import distance_band, distance_between
from domain.rulesets.armada.commands import (
    ActivateSquadron,
    EndSquadronActivation,
    MoveSquadron,
)
from domain.rulesets.armada.events import (
    SquadronActivated,
    SquadronActivationEnded,
    SquadronMoved,
    UnitDestroyed,
)
from domain.rulesets.armada.geocache import enemy_squadrons, obstacles_key, positions, ships_in_play
from domain.rulesets.armada.geometry import TOLERANCE
from domain.rulesets.armada.obstacles import obstacle_shapes, station_repair
from domain.rulesets.armada.overlap import discs_overlap, outside_play_area, squadron_overlaps
from domain.rulesets.armada.sequence import acting_side
from domain.rulesets.armada.sight import obstructed_between
from domain.rulesets.armada.state import (
    ArmadaState,
    Phase,
    SquadronActivation,
    SquadronState,
    flipped,
    with_squadron,
)

RULE = "SWA-3"
Fold = Callable[[ArmadaState, Sequence[DomainEvent]], ArmadaState]


# --------------------------------------------------------------------------- look-ups


def engaged_with(state: ArmadaState, squadron_id: str) -> list[str]:
    """The enemy squadrons engaged with ``squadron_id`` (SWA-3.3): at distance 1 of it, unless
    line of sight between the two (centre to centre) is obstructed by an obstacle or a ship —
    RRG "Engagement": obstructed squadrons are not engaged, though they may still attack each
    other. In scenario order. Remembered per the positions that decide it (:mod:`.geocache`),
    and before building that key per where everything stands (:func:`.geocache.positions`)."""
    found = state.data.memo(
        ("engaged", positions(state), squadron_id),
        lambda: _engaged_by_positions(state, squadron_id),
    )
    return list(found)


def _engaged_by_positions(state: ArmadaState, squadron_id: str) -> tuple[str, ...]:
    me = state.squadrons[squadron_id]
    if not me.in_play:
        return ()
    enemies = enemy_squadrons(state, me.side)
    if not enemies:
        return ()
    key = ("engaged", me.x, me.y, enemies, ships_in_play(state), obstacles_key(state))
    return state.data.memo(key, lambda: tuple(_engaged_with(state, squadron_id)))


def _engaged_with(state: ArmadaState, squadron_id: str) -> list[str]:
    me = state.squadrons[squadron_id]
    disc = state.disc(squadron_id)
    edges = state.data.geometry.distance_bands
    near = [
        sq.id
        for sq in state.squadrons.values()
        if sq.in_play
        and sq.side != me.side
        and distance_band(distance_between(disc, state.disc(sq.id)), edges) == 1
    ]
    if not near:
        return []
    obstacles = {oid: outline for oid, (_, outline) in obstacle_shapes(state).items()}
    ships = {s.id: state.placed(s.id).base for s in state.ships.values() if s.in_play}
    return [
        other
        for other in near
        if not obstructed_between(
            disc.centre, state.disc(other).centre, obstacles=obstacles, ships=ships
        )
    ]


def ready_squadrons(state: ArmadaState, side: str) -> list[SquadronState]:
    """The side's squadrons in play that have not activated this round (SWA-3.4)."""
    return [s for s in state.squadrons_of(side) if state.squadron_ready(s.id)]


def can_activate(state: ArmadaState, side: str) -> bool:
    return bool(ready_squadrons(state, side))


def move_reach(state: ArmadaState, squadron_id: str) -> float:
    """How far (mm) the squadron's centre may move: its speed's distance band edge (SWA-3.1)."""
    speed = state.squadron_card(squadron_id).speed
    if speed <= 0:
        return 0.0
    return state.data.geometry.distance_bands[min(speed, 5) - 1]


def in_command_range(state: ArmadaState, ship_id: str, squadron_id: str) -> bool:
    """At close–medium range of the ship (SWA-R3 Squadron): any part of the squadron's base
    within the medium band of the ship's base."""
    base = state.placed(ship_id).base
    edge = state.data.geometry.range_bands.medium
    return distance_between(base, state.disc(squadron_id)) <= edge + TOLERANCE


# --------------------------------------------------------------------------- moving


def check_move(state: ArmadaState, squadron_id: str, to: tuple[float, float]) -> float:
    """The distance of a legal move (SWA-3.1, SWA-3.3).

    Raises:
        IllegalCommand: the squadron is engaged, the move is beyond its speed, or it would end
            on a ship or another squadron.
    """
    engaged = engaged_with(state, squadron_id)
    if engaged:
        raise IllegalCommand(
            f"{squadron_id} is engaged with {', '.join(engaged)} and cannot move",
            rule="SWA-3.3",
        )
    sq = state.squadrons[squadron_id]
    distance = math.dist(sq.position, to)
    reach = move_reach(state, squadron_id)
    if distance > reach + TOLERANCE:
        speed = state.squadron_card(squadron_id).speed
        raise IllegalCommand(
            f"{squadron_id} moves at most distance {speed} ({reach} mm), not {distance:.1f} mm",
            rule="SWA-3.1",
        )
    disc = state.disc(squadron_id, to)
    for ship in state.ships.values():
        if ship.in_play and squadron_overlaps(state.placed(ship.id).base, disc):
            raise IllegalCommand(f"{squadron_id} cannot end on {ship.id}", rule="SWA-3.1")
    for other in state.squadrons.values():
        if other.in_play and other.id != squadron_id and discs_overlap(disc, state.disc(other.id)):
            raise IllegalCommand(f"{squadron_id} cannot end on {other.id}", rule="SWA-3.1")
    return distance


def _moved(state: ArmadaState, squadron_id: str, to: tuple[float, float]) -> list[DomainEvent]:
    distance = check_move(state, squadron_id, to)
    events: list[DomainEvent] = [
        SquadronMoved(squadron=squadron_id, x=float(to[0]), y=float(to[1]), distance=distance)
    ]
    if outside_play_area(state.disc(squadron_id, to), state.data.geometry.play_area):
        events.append(
            UnitDestroyed(
                unit=squadron_id,
                kind="squadron",
                reason="part of its base left the play area",
                rule="SWA-3.1",
            )
        )
        return events
    return [*events, *station_repair(state, squadron_id, to)]


CanAttack = Callable[[ArmadaState, str], bool]
"""Whether the activating squadron has a target it may attack now (the attack pipeline's
answer, :func:`.integration.squadron_can_attack`)."""


def finish(state: ArmadaState, can_attack: CanAttack) -> list[DomainEvent]:
    """End the activation when nothing is left for the squadron to do: in the Squadron Phase
    once it has moved or attacked, or when it has no attack and did not move (an activation
    without moving or attacking); by a Squadron command once it has moved and attacked, or
    moved with no attack to make. Nothing while an attack is in progress."""
    current = state.squadron_activation
    if current is None or state.attack is not None:
        return []
    sq = state.squadrons[current.squadron]

    def able() -> bool:  # asked only when the answer decides (the legal-attack search is dear)
        return (
            sq.in_play
            and not current.attacked
            and state.attacks_allowed()
            and can_attack(state, sq.id)
        )

    if current.by_ship is None:
        done = current.moved or current.attacked or not able()
    else:
        done = current.moved and (current.attacked or not able())
    if done or not sq.in_play:
        return [SquadronActivationEnded(squadron=current.squadron)]
    return []


# --------------------------------------------------------------------------- deciding


def decide_activate(
    state: ArmadaState, side: str | None, command: ActivateSquadron
) -> list[DomainEvent]:
    """SWA-3 / SWA-R3: activate a squadron (and move it at once with ``move_to``).

    Raises:
        InvalidCommand: no such squadron. WrongSide: an enemy squadron.
        IllegalCommand: a squadron is already activating; it has activated this round
            (SWA-3.4); in the Ship Phase, no Squadron command activations left or the squadron
            beyond medium range of the ship; a move that is not legal (SWA-3.1, SWA-3.3).
    """
    phase: Phase = "ship" if state.phase == "ship" else "squadron"
    acting = acting_side(state, side, phase, RULE)
    sq = state.squadrons.get(command.squadron)
    if sq is None:
        raise InvalidCommand(f"no squadron {command.squadron!r}")
    if sq.side != acting:
        raise WrongSide(f"{sq.id} is a {sq.side} squadron", rule=RULE)
    if not sq.in_play:
        raise IllegalCommand(f"{sq.id} is not in play", rule=RULE)
    if state.squadron_activation is not None:
        raise IllegalCommand(
            f"{state.squadron_activation.squadron} is activating: end its activation first",
            rule=RULE,
        )
    if not state.squadron_ready(sq.id):
        raise IllegalCommand(
            f"{sq.id} has activated this round (its slider shows {sq.slider}, the initiative "
            f"token {state.initiative})",
            rule="SWA-3.4",
        )
    by_ship: str | None = None
    if phase == "ship":
        activation = state.activation
        if activation is None or activation.squadrons <= 0 or state.displaced is not None:
            raise IllegalCommand(
                "in the Ship Phase squadrons activate only by the activating ship's Squadron "
                "command",
                rule="SWA-R3",
            )
        if state.attack is not None or activation.step != "reveal":
            raise IllegalCommand(
                "the Squadron command's squadrons activate after the reveal, before the ship's "
                "attack step",
                rule="SWA-R3",
            )
        if not in_command_range(state, activation.ship, sq.id):
            raise IllegalCommand(
                f"{sq.id} is beyond medium range of {activation.ship}", rule="SWA-R3"
            )
        by_ship = activation.ship
    events: list[DomainEvent] = [
        SquadronActivated(squadron=sq.id, slider=flipped(sq.slider), by_ship=by_ship)
    ]
    if command.move_to is not None:
        events += _moved(state, sq.id, command.move_to)
    return events


def _current(state: ArmadaState, side: str | None, squadron_id: str) -> SquadronActivation:
    phase: Phase = "ship" if state.phase == "ship" else "squadron"
    acting_side(state, side, phase, RULE)
    current = state.squadron_activation
    if current is None or current.squadron != squadron_id:
        now = current.squadron if current is not None else "no squadron"
        raise IllegalCommand(f"{squadron_id} is not activating ({now} is)", rule=RULE)
    if state.attack is not None:
        raise IllegalCommand("an attack is in progress", rule="SWA-2.2")
    return current


def decide_move(state: ArmadaState, side: str | None, command: MoveSquadron) -> list[DomainEvent]:
    """SWA-3.1: move the activating squadron (one that has not moved, and in the Squadron
    Phase has not attacked).

    Raises:
        IllegalCommand: it is not activating, it has moved, it attacked in the Squadron Phase,
            or the move is not legal.
    """
    current = _current(state, side, command.squadron)
    if current.moved:
        raise IllegalCommand(f"{command.squadron} has moved this activation", rule="SWA-3.1")
    if current.attacked and current.by_ship is None:
        raise IllegalCommand(
            f"{command.squadron} attacked; in the Squadron Phase a squadron moves or attacks",
            rule=RULE,
        )
    events = _moved(state, command.squadron, (command.x, command.y))
    return events


def decide_end(
    state: ArmadaState, side: str | None, command: EndSquadronActivation
) -> list[DomainEvent]:
    """SWA-3: the activating squadron ends its activation."""
    _current(state, side, command.squadron)
    return [SquadronActivationEnded(squadron=command.squadron)]


# --------------------------------------------------------------------------- attack seam


def check_squadron_attack(state: ArmadaState, side: str | None, squadron_id: str) -> None:
    """INTEGRATION POINT for the attack pipeline: may the activating squadron attack now?

    Raises:
        IllegalCommand: it is not activating, it has attacked, it moved in the Squadron Phase,
            or attacks are skipped this round (SWA-2.2).
    """
    current = _current(state, side, squadron_id)
    if current.attacked:
        raise IllegalCommand(f"{squadron_id} has attacked this activation", rule="SWA-3.2")
    if current.moved and current.by_ship is None:
        raise IllegalCommand(
            f"{squadron_id} moved; in the Squadron Phase a squadron moves or attacks", rule=RULE
        )
    if not state.attacks_allowed():
        raise IllegalCommand(
            f"both players skip attacks in round {state.round} of this scenario",
            rule="SWA-2.2",
        )


def mark_squadron_attack(state: ArmadaState, squadron_id: str) -> ArmadaState:
    """For the pipeline's evolve: the activating squadron has attacked."""
    current = state.squadron_activation
    if current is None or current.squadron != squadron_id:
        return state
    return changed(state, squadron_activation=changed(current, attacked=True))


# --------------------------------------------------------------------------- evolve


HANDLES: tuple[type[DomainEvent], ...] = (SquadronActivated, SquadronMoved, SquadronActivationEnded)
"""The events :func:`apply` changes the state for (it returns any other unchanged);
``rules.evolve`` hands this module only these."""


def apply(state: ArmadaState, event: DomainEvent) -> ArmadaState:
    if isinstance(event, SquadronActivated):
        state = with_squadron(state, event.squadron, slider=event.slider)
        current = SquadronActivation(squadron=event.squadron, by_ship=event.by_ship)
        state = changed(state, squadron_activation=current)
        if event.by_ship is not None and state.activation is not None:
            activation = state.activation
            fewer = changed(activation, squadrons=activation.squadrons - 1)
            return changed(state, activation=fewer)
        return changed(state, turn_count=state.turn_count + 1)
    if isinstance(event, SquadronMoved):
        state = with_squadron(state, event.squadron, x=event.x, y=event.y)
        moving = state.squadron_activation
        if moving is not None and moving.squadron == event.squadron:
            state = changed(state, squadron_activation=changed(moving, moved=True))
        return state
    if isinstance(event, SquadronActivationEnded):
        state = changed(state, squadron_activation=None)
        active = state.active
        over = active is not None and (state.turn_count >= 2 or not can_activate(state, active))
        if state.phase == "squadron" and over:
            state = changed(state, active=None)
        return state
    return state
