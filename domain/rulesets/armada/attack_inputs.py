"""The attack pipeline's inputs, built from the game state: who attacks, who defends, and what
the geometry measures between them (SWA-ATK 1, SWA-RNG, SWA-3.2).

The pipeline (:mod:`.attack`) is pure and knows no game state; this module is the one place
that reads an :class:`.state.ArmadaState` for it. The same functions build the inputs when an
attack is decided and when its ``AttackDeclared`` is folded again, so a replay rebuilds exactly
the attack that was decided.

Measurements (readings in docs/armada.md):

* ship → ship: range from the attacking hull zone to the part of the defending zone inside the
  arc; line of sight between targeting points, lost through another of the defender's zones;
  obstructed by obstacles and other ships' bases (:mod:`.arcs`, :mod:`.sight`).
* ship → squadron: range to the part of the disc inside the arc; sight from the zone's
  targeting point to the disc's centre.
* squadron → anything: distance 1 (360°), to the defending hull zone of a ship (sight to its
  targeting point, lost through another zone) or to another squadron's disc (centre to centre).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, get_args

from shapely.geometry import LineString

from domain.errors import IllegalCommand, InvalidCommand
from domain.frozen import assembled
from domain.rulesets.armada.arcs import (
    distance_band,
    distance_between,
    in_arc,
    ship_attack_range,
    squadron_attack_range,
)
from domain.rulesets.armada.attack_state import (
    Attacker,
    AttackOptions,
    Geometry,
    ShipDefender,
    SquadronDefender,
)
from domain.rulesets.armada.damage import ShipHull
from domain.rulesets.armada.damage_dealing import hull_of
from domain.rulesets.armada.data import ShipCard, SizeClass, SquadronCard
from domain.rulesets.armada.geocache import obstacles_key, positions, ships_in_play, unit_key
from domain.rulesets.armada.geometry import ZONES, Zone
from domain.rulesets.armada.obstacles import obstacle_shapes
from domain.rulesets.armada.partmemo import remembered
from domain.rulesets.armada.sight import Sight, trace
from domain.rulesets.armada.squadron_phase import engaged_with
from domain.rulesets.armada.state import Activation, ArmadaState, ShipState, SquadronState

Defender = ShipDefender | SquadronDefender


_OPTIONS: dict[str, AttackOptions] = {}


def attack_options(state: ArmadaState) -> AttackOptions:
    """The attack's rule readings: one shared (frozen) model per reading (built for every
    attack declared and folded)."""
    evade = state.options.evade
    found = _OPTIONS.get(evade)
    if found is None:
        found = _OPTIONS[evade] = AttackOptions(evade=evade)
    return found


def attacker_input(state: ArmadaState, unit: str, zone: Zone | None) -> Attacker:
    """The attacker as the pipeline sees it (a ship's hull zone, or a squadron)."""
    if unit in state.ships:
        if zone is None:
            raise InvalidCommand("a ship attacks from a hull zone: name `zone`")
        ship = state.ships[unit]
        data = state.data
        activation = state.activation
        # the two things _ship_attacker reads of the activation, as values: the activation
        # changes at every order of it, these seldom
        dial = activation is not None and activation.ship == ship.id and activation.dial
        targets = activation.ship_targets if activation is not None else 0
        return remembered(
            (ship, data),
            ("attacker", zone, dial == "concentrate_fire", targets),
            lambda: _ship_attacker(ship, data.ships.get(ship.card), activation, zone),
        )
    if unit in state.squadrons:
        if zone is not None:
            raise InvalidCommand("a squadron has no hull zone: leave `zone` out")
        squadron = state.squadrons[unit]
        engaging = engaged_with(state, unit)
        engaged = bool(engaging)
        escort = any("escort" in state.squadron_card(s).keywords for s in engaging)
        data = state.data
        # per what it reads: the squadron's id, side and card and the two engagement answers
        # (the bot tries every squadron's attacks again after every order, and a squadron's
        # state is a new object after each event of it, so its identity is too fine a key)
        return data.memo(
            ("squadron attacker", squadron.id, squadron.side, squadron.card, engaged, escort),
            lambda: _squadron_attacker(
                squadron, data.squadrons.get(squadron.card), engaged, escort
            ),
        )
    raise InvalidCommand(f"no ship or squadron {unit!r}")


def _squadron_attacker(
    squadron: SquadronState, card: SquadronCard, engaged: bool, escort: bool
) -> Attacker:
    return Attacker(
        id=squadron.id,
        side=squadron.side,
        kind="squadron",
        battery=card.battery,
        anti_squadron=card.anti_squadron,
        keywords=tuple(card.keywords),
        engaged=engaged,
        engaged_with_escort=escort,
    )


def _ship_attacker(
    ship: ShipState, card: ShipCard, activation: Activation | None, zone: Zone
) -> Attacker:
    dial = activation is not None and activation.ship == ship.id and activation.dial
    resolved = "concentrate_fire" in ship.resolved
    return Attacker(
        id=ship.id,
        side=ship.side,
        kind="ship",
        zone=zone,
        size=card.size,
        battery=getattr(card.battery, zone),
        anti_squadron=card.anti_squadron,
        concentrate_fire_dial=dial == "concentrate_fire" and not resolved,
        concentrate_fire_token="concentrate_fire" in ship.tokens and not resolved,
        face_up=tuple(c.card for c in ship.damage if c.face_up),
        ship_attacks_this_round=activation.ship_targets if activation is not None else 0,
    )


def defender_input(state: ArmadaState, unit: str, zone: Zone | None) -> Defender:
    """The defender as the pipeline sees it (a ship with its defending hull zone, or a
    squadron)."""
    if unit in state.ships:
        if zone is None:
            raise InvalidCommand("name the defending hull zone (`defending_zone`) of a ship")
        ship = state.ships[unit]
        return remembered(
            (ship, state.data),
            ("defender", zone),
            lambda: _ship_defender(hull_of(state, unit), zone, state.card(unit).size),
        )
    if unit in state.squadrons:
        if zone is not None:
            raise InvalidCommand("a squadron has no hull zone: leave `defending_zone` out")
        squadron = state.squadrons[unit]
        return remembered(
            (squadron, state.data),
            ("defender",),
            lambda: SquadronDefender(
                id=unit,
                side=squadron.side,
                hull=squadron.hull,
                tokens=squadron.defense,
                keywords=tuple(state.squadron_card(unit).keywords),
                destroyed=squadron.destroyed,
            ),
        )
    raise InvalidCommand(f"no ship or squadron {unit!r}")


SIZE_CLASSES: frozenset[str] = frozenset(get_args(SizeClass))


def _ship_defender(hull: ShipHull, zone: Zone, size: SizeClass) -> ShipDefender:
    """``ShipDefender(**dict(hull), zone=zone, size=size)`` without validating again what the
    hull's validation passed (and without pydantic's ``__iter__``): a defender's input is built
    for every ship state the legal-attack search meets. ``zone`` and ``size`` are checked here
    as validation would check them."""
    if zone not in ZONES or size not in SIZE_CLASSES:
        return ShipDefender(**dict(hull), zone=zone, size=size)  # raises as validation does
    return assembled(ShipDefender, **hull.__dict__, zone=zone, size=size)


@dataclass(frozen=True)
class Measured:
    """The measured :class:`.attack_state.Geometry` and the lines behind it (for overlays)."""

    geometry: Geometry
    range_line: Any = None
    sight: Sight | None = None
    distance_mm: float | None = None


def _obstructions(
    state: ArmadaState, exclude: tuple[str, ...]
) -> tuple[dict[str, Any], dict[str, Any]]:
    obstacles = {oid: outline for oid, (_, outline) in obstacle_shapes(state).items()}
    ships = {
        s.id: state.placed(s.id).base
        for s in state.ships.values()
        if s.in_play and s.id not in exclude
    }
    return obstacles, ships


def _band(state: ArmadaState, distance: float) -> int | None:
    return distance_band(distance, state.data.geometry.distance_bands)


def _engaged_elsewhere(state: ArmadaState, squadron: str, attacker: str) -> bool:
    return any(s != attacker for s in engaged_with(state, squadron))


def measure(
    state: ArmadaState,
    attacker: str,
    zone: Zone | None,
    defender: str,
    defending_zone: Zone | None,
) -> Measured:
    """SWA-ATK 1 / SWA-RNG: arc, range and distance bands, line of sight and obstruction from
    ``attacker`` (its ``zone`` for a ship) to ``defender`` (its ``defending_zone`` for a
    ship).

    Remembered per the positions that decide it (:mod:`.geocache`): the units', the other
    ships' in play and the obstacles'; and before building that key, per where everything
    stands (:func:`.geocache.positions`, cheaper to build; it misses whenever any unit moved)."""
    return measure_keyed(
        state,
        positions(state),
        attacker,
        unit_key(state, attacker),
        zone,
        defender,
        unit_key(state, defender),
        defending_zone,
    )


def measure_keyed(
    state: ArmadaState,
    where: tuple[int, int, int],
    attacker: str,
    attacker_key: tuple[Any, ...],
    zone: Zone | None,
    defender: str,
    defender_key: tuple[Any, ...],
    defending_zone: Zone | None,
) -> Measured:
    """:func:`measure` with its first memo level's parts built by the caller, once for many
    questions: ``where`` is ``positions(state)``, ``attacker_key`` and ``defender_key`` the
    units' :func:`.geocache.unit_key` (the same key, so the same remembered answer)."""
    return state.data.memo(
        # the units' own keys too: a unit out of play is not in ``positions``
        ("measure", where, attacker_key, zone, defender_key, defending_zone),
        lambda: _measure_by_positions(state, attacker, zone, defender, defending_zone),
    )


def _measure_by_positions(
    state: ArmadaState,
    attacker: str,
    zone: Zone | None,
    defender: str,
    defending_zone: Zone | None,
) -> Measured:
    defender_is_ship = defender in state.ships
    engaged = (not defender_is_ship) and _engaged_elsewhere(state, defender, attacker)
    key = (
        "measure",
        unit_key(state, attacker),
        zone,
        unit_key(state, defender),
        defending_zone,
        ships_in_play(state, (attacker, defender)),
        obstacles_key(state),
        engaged,
    )
    return state.data.memo(
        key, lambda: _measure(state, attacker, zone, defender, defending_zone, engaged)
    )


def _measure(
    state: ArmadaState,
    attacker: str,
    zone: Zone | None,
    defender: str,
    defending_zone: Zone | None,
    engaged: bool,
) -> Measured:
    bands = state.data.geometry.range_bands
    obstacles, ships = _obstructions(state, (attacker, defender))
    defender_is_ship = defender in state.ships
    if attacker in state.ships:
        assert zone is not None
        placed = state.placed(attacker)
        if defender_is_ship:
            assert defending_zone is not None
            target = state.placed(defender)
            measured = ship_attack_range(placed, zone, target, defending_zone, bands)
            sight = trace(
                placed.targeting_point(zone),
                target.targeting_point(defending_zone),
                defender=target,
                defending_zone=defending_zone,
                obstacles=obstacles,
                ships=ships,
                hidden=(placed.token, target.token),
            )
            through = measured.through_other_zone if measured is not None else False
        else:
            disc = state.disc(defender)
            measured = squadron_attack_range(placed, zone, disc, bands)
            sight = trace(
                placed.targeting_point(zone),
                disc.centre,
                obstacles=obstacles,
                ships=ships,
                hidden=(placed.token,),
            )
            through = False
        if measured is None:
            return Measured(Geometry(in_arc=False, range=None, distance=None), None, sight)
        band = None if measured.band == "beyond" else measured.band
        geometry = Geometry(
            in_arc=True,
            range=band,
            distance=_band(state, measured.distance),
            line_of_sight=sight.clear and not through,
            obstructed=sight.obstructed,
            defender_engaged=engaged,
        )
        return Measured(geometry, measured.line, sight, measured.distance)
    disc = state.disc(attacker)
    if defender_is_ship:
        assert defending_zone is not None
        target = state.placed(defender)
        distance = distance_between(disc, target.zone(defending_zone))
        sight = trace(
            disc.centre,
            target.targeting_point(defending_zone),
            defender=target,
            defending_zone=defending_zone,
            obstacles=obstacles,
            ships=ships,
            hidden=(target.token,),
        )
    else:
        other = state.disc(defender)
        distance = distance_between(disc, other)
        sight = trace(disc.centre, other.centre, obstacles=obstacles, ships=ships)
    geometry = Geometry(
        in_arc=True,
        range="close",
        distance=_band(state, distance),
        line_of_sight=sight.clear,
        obstructed=sight.obstructed,
        defender_engaged=engaged,
    )
    return Measured(geometry, LineString([disc.centre, disc.centre]), sight, distance)


def in_any_arc(state: ArmadaState, ship: str, zone: Zone, unit: str) -> bool:
    """Cheap pre-check: any part of ``unit`` in the zone's firing arc."""
    placed = state.placed(ship)
    target = state.placed(unit).token if unit in state.ships else state.disc(unit)
    return in_arc(placed, zone, target)


def defending_zones(state: ArmadaState, unit: str) -> tuple[Zone | None, ...]:
    """The zones a unit can defend with: a ship's four hull zones, or None for a squadron."""
    return ZONES if unit in state.ships else (None,)


def require_unit(state: ArmadaState, unit: str, what: str) -> None:
    if unit not in state.ships and unit not in state.squadrons:
        raise InvalidCommand(f"no ship or squadron {unit!r} ({what})")
    in_play = (state.ships.get(unit) or state.squadrons[unit]).in_play
    if not in_play:
        raise IllegalCommand(f"{unit} is not in play", rule="SWA-ATK 1")
