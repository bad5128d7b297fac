"""Setup (SWA-SETUP): the state before any event, and deployment by orders.

A scenario's units with positions start there; the others are deployed in turns, starting with
the first player: one ship, or two squadrons, per turn (one squadron only when it is the side's
last unit and all its ships are down). A ship goes entirely inside its side's deployment zone —
the strip within distance 3 of its edge of the play area (RRG "Deployment Zone"; the whole play
area is the setup area at 3'×3') — with its speed dial set to a speed on its chart; a squadron
goes entirely within distance 1–2 of a friendly ship (Wake measures from the ship's base:
closest distance to the squadron's centre plus its radius). Nothing may overlap a ship or a
squadron already placed. When every unit is down, round 1 begins with its Command Phase.
"""

from __future__ import annotations

from typing import Any

from shapely.geometry import box

from domain.errors import IllegalCommand, InvalidCommand, WrongSide
from domain.events import DomainEvent
from domain.frozen import changed
from domain.rulesets.armada.arcs import distance_between
from domain.rulesets.armada.commands import DeployShip, DeploySquadrons
from domain.rulesets.armada.data import ArmadaData
from domain.rulesets.armada.events import ShipDeployed, SquadronsDeployed, TurnBegan
from domain.rulesets.armada.geometry import TOLERANCE, ZONES, Disc, Pose, place_ship
from domain.rulesets.armada.options import ArmadaOptions
from domain.rulesets.armada.overlap import (
    bases_overlap,
    discs_overlap,
    outside_play_area,
    squadron_overlaps,
)
from domain.rulesets.armada.passing import starting_tokens
from domain.rulesets.armada.scenario import Scenario
from domain.rulesets.armada.sequence import acting_side
from domain.rulesets.armada.state import (
    ArmadaState,
    DefenseTokenState,
    ShipState,
    SquadronState,
    next_side,
    with_ship,
    with_squadron,
)
from domain.words import possessive

RULE = "SWA-SETUP"


# --------------------------------------------------------------------------- initial state


def initial_state(
    scenario: Scenario, data: ArmadaData, options: ArmadaOptions, salt_base: str
) -> ArmadaState:
    """The state before any event: units at their scenario positions (shields full, defence
    tokens ready, sliders showing the initiative token's face), setup if anything is left to
    deploy, else round 1's Command Phase."""
    ships: dict[str, ShipState] = {}
    for setup in scenario.ships:
        card = data.ships.get(setup.card)
        ships[setup.id] = ShipState(
            id=setup.id,
            side=setup.side,
            card=setup.card,
            name=setup.name or card.name,
            x=setup.x,
            y=setup.y,
            heading=setup.heading % 360.0,
            speed=setup.speed or 0,
            shields={zone: getattr(card.shields, zone) for zone in ZONES},
            defense=tuple(DefenseTokenState(kind=kind) for kind in card.defense_tokens),
        )
    squadrons: dict[str, SquadronState] = {}
    for sq in scenario.squadrons:
        sq_card = data.squadrons.get(sq.card)
        squadrons[sq.id] = SquadronState(
            id=sq.id,
            side=sq.side,
            card=sq.card,
            name=sq.name or sq_card.name,
            x=sq.x,
            y=sq.y,
            hull=sq_card.hull,
            defense=tuple(DefenseTokenState(kind=kind) for kind in sq_card.defense_tokens),
        )
    state = ArmadaState(
        scenario=scenario,
        data=data,
        options=options,
        salt_base=salt_base,
        ships=ships,
        squadrons=squadrons,
        pass_tokens=starting_tokens(scenario, options.pass_tokens != "off"),
    )
    if not done(state):
        state = changed(state, phase="setup")
        state = changed(state, active=next_side(state, can_deploy))
    return state


# --------------------------------------------------------------------------- turns


def undeployed_ships(state: ArmadaState, side: str) -> list[str]:
    return [s.id for s in state.ships.values() if s.side == side and not s.deployed]


def undeployed_squadrons(state: ArmadaState, side: str) -> list[str]:
    return [s.id for s in state.squadrons.values() if s.side == side and not s.deployed]


def squadrons_per_turn(state: ArmadaState, side: str) -> int:
    """How many squadrons a deployment turn places now: two, or one for the last squadron once
    the side's ships are all down, or none (SWA-SETUP)."""
    left = len(undeployed_squadrons(state, side))
    if not state.ships_of(side):
        return 0  # squadrons go near a friendly ship: none is down yet
    if left >= 2:
        return 2
    return 1 if left == 1 and not undeployed_ships(state, side) else 0


def can_deploy(state: ArmadaState, side: str) -> bool:
    return bool(undeployed_ships(state, side)) or squadrons_per_turn(state, side) > 0


def next_turn(state: ArmadaState) -> list[DomainEvent]:
    """After a deployment turn: the next side's turn, or nothing when all is deployed."""
    side = next_side(state, can_deploy)
    return [TurnBegan(side=side, rule=RULE)] if side is not None else []


def done(state: ArmadaState) -> bool:
    ships = all(s.deployed for s in state.ships.values())
    return ships and all(s.deployed for s in state.squadrons.values())


# --------------------------------------------------------------------------- zones


def deployment_zone(state: ArmadaState, side: str) -> Any:
    """The side's deployment zone: within distance 3 of its edge (RRG "Deployment Zone")."""
    area = state.data.geometry.play_area
    depth = state.data.geometry.distance_bands[2]
    edge = state.scenario.deployment.get(side, "bottom")
    w, h = area.width, area.height
    return {
        "bottom": box(0, 0, w, depth),
        "top": box(0, h - depth, w, h),
        "left": box(0, 0, depth, h),
        "right": box(w - depth, 0, w, h),
    }[edge]


def within_distance(ship_base: Any, disc: Disc, edge: float) -> bool:
    """Whether the whole squadron base lies within ``edge`` mm of the ship (RRG "Within")."""
    return distance_between(ship_base, disc.point) + disc.radius <= edge + TOLERANCE


# --------------------------------------------------------------------------- deciding


def _check_free(state: ArmadaState, shape: Any, what: str, disc: Disc | None = None) -> None:
    """A new base overlaps no ship or squadron already placed (SWA-SETUP)."""
    for other in state.ships.values():
        if not other.in_play:
            continue
        base = state.placed(other.id).base
        hit = squadron_overlaps(base, disc) if disc is not None else bases_overlap(shape, base)
        if hit:
            raise IllegalCommand(f"{what} would overlap {other.id}", rule=RULE)
    for sq in state.squadrons.values():
        if not sq.in_play:
            continue
        other_disc = state.disc(sq.id)
        if disc is not None:
            hit = discs_overlap(disc, other_disc)
        else:
            hit = squadron_overlaps(shape, other_disc)
        if hit:
            raise IllegalCommand(f"{what} would overlap squadron {sq.id}", rule=RULE)


def decide_ship(state: ArmadaState, side: str | None, command: DeployShip) -> list[DomainEvent]:
    """SWA-SETUP: one ship into the deployment zone.

    Raises:
        InvalidCommand: no such ship. WrongSide: another side's ship.
        IllegalCommand: already deployed, outside the zone, a speed not on its chart, or an
            overlap.
    """
    acting = acting_side(state, side, "setup", RULE)
    ship = state.ships.get(command.ship)
    if ship is None:
        raise InvalidCommand(f"no ship {command.ship!r}")
    if ship.side != acting:
        raise WrongSide(f"{ship.id} is a {ship.side} ship", rule=RULE)
    if ship.deployed:
        raise IllegalCommand(f"{ship.id} is already deployed", rule=RULE)
    card = state.card(ship.id)
    if command.speed not in card.speed_chart:
        raise IllegalCommand(
            f"{possessive(ship.id)} speed dial must show a speed on its chart "
            f"(1..{card.max_speed}), "
            f"not {command.speed}",
            rule=RULE,
        )
    hull = state.data.ships.hull(card.hull_geometry)
    pose = Pose(command.x, command.y, command.heading).rounded()
    base = place_ship(hull, state.data.geometry.base_sizes[card.size], pose).base
    zone = deployment_zone(state, acting)
    grown = zone.buffer(TOLERANCE, join_style="mitre")
    if outside_play_area(base, state.data.geometry.play_area) or not grown.covers(base):
        raise IllegalCommand(
            f"{ship.id} must be placed entirely inside {possessive(acting)} deployment "
            "zone (within "
            f"distance 3 of its edge)",
            rule=RULE,
        )
    _check_free(state, base, ship.id)
    return [
        ShipDeployed(
            side=acting,
            ship=ship.id,
            x=pose.x,
            y=pose.y,
            heading=pose.heading,
            speed=command.speed,
        )
    ]


def decide_squadrons(
    state: ArmadaState, side: str | None, command: DeploySquadrons
) -> list[DomainEvent]:
    """SWA-SETUP: two squadrons (or the last one) within distance 1–2 of a friendly ship.

    Raises:
        InvalidCommand: no such squadron. WrongSide: another side's squadron.
        IllegalCommand: the wrong number, already deployed, too far from every friendly ship,
            outside the play area, or an overlap.
    """
    acting = acting_side(state, side, "setup", RULE)
    wanted = squadrons_per_turn(state, acting)
    if wanted == 0 or len(command.squadrons) != wanted:
        raise IllegalCommand(
            f"{acting} places {wanted} squadron(s) in a deployment turn now, not "
            f"{len(command.squadrons)} (two a turn; the last one only after every ship)",
            rule=RULE,
        )
    edge = state.data.geometry.distance_bands[1]
    bases = [state.placed(s.id).base for s in state.ships_of(acting)]
    placed: list[Disc] = []
    for sq_id, (x, y) in command.squadrons.items():
        sq = state.squadrons.get(sq_id)
        if sq is None:
            raise InvalidCommand(f"no squadron {sq_id!r}")
        if sq.side != acting:
            raise WrongSide(f"{sq_id} is a {sq.side} squadron", rule=RULE)
        if sq.deployed:
            raise IllegalCommand(f"{sq_id} is already deployed", rule=RULE)
        disc = state.disc(sq_id, (x, y))
        if outside_play_area(disc, state.data.geometry.play_area):
            raise IllegalCommand(f"{sq_id} would be outside the play area", rule=RULE)
        if not any(within_distance(base, disc, edge) for base in bases):
            raise IllegalCommand(
                f"{sq_id} must be placed within distance 1–2 of a friendly ship", rule=RULE
            )
        _check_free(state, None, sq_id, disc)
        if any(discs_overlap(disc, other) for other in placed):
            raise IllegalCommand(f"{sq_id} would overlap another squadron placed now", rule=RULE)
        placed.append(disc)
    positions = {k: (float(x), float(y)) for k, (x, y) in command.squadrons.items()}
    return [SquadronsDeployed(side=acting, positions=positions)]


# --------------------------------------------------------------------------- evolve


HANDLES: tuple[type[DomainEvent], ...] = (ShipDeployed, SquadronsDeployed)
"""The events :func:`apply` changes the state for (it returns any other unchanged);
``rules.evolve`` hands this module only these."""


def apply(state: ArmadaState, event: DomainEvent) -> ArmadaState:
    if isinstance(event, ShipDeployed):
        state = with_ship(
            state, event.ship, x=event.x, y=event.y, heading=event.heading, speed=event.speed
        )
        return changed(state, active=None, last=event.side)
    if isinstance(event, SquadronsDeployed):
        for sq_id, (x, y) in event.positions.items():
            state = with_squadron(state, sq_id, x=x, y=y)
        return changed(state, active=None, last=event.side)
    return state
