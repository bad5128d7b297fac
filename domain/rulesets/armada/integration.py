"""Attacks and the damage deck inside the game: the pipeline (:mod:`.attack`, :mod:`.defence`,
:mod:`.damage`) wired into the phases.

* :func:`decide` takes the attack orders — ``attack`` (SWA-ATK 1), ``additional_target``
  (SWA-ATK 6), every decision inside an attack and every face-up damage card's choice — and
  returns None for any other order. Declaring checks the phase first
  (:func:`.ship_phase.check_ship_attack`: the activating ship, two attacks from different hull
  zones, no attacks in a skipped round; :func:`.squadron_phase.check_squadron_attack`), then
  measures (:mod:`.attack_inputs`) and hands over to :func:`.attack.declare`.
* :func:`apply` folds the pipeline's events into the game: the open attack
  (:func:`.attack_state.begin` at ``AttackDeclared`` with the inputs rebuilt from the state, then
  :func:`.attack_state.apply`), the ships and squadrons it changes, the deck, Concentrate Fire
  spent, Comm Noise's dial, Life Support Failure's tokens, destroyed units.
* Damage outside attacks (overlaps, obstacles, Crew Panic, Ruptured Engine, Thruster Fissure):
  :func:`deal_damage_cards` / :func:`suffer_damage`. A face-up card dealt there whose effect
  needs a choice waits in ``state.dealings`` for its chooser's order; nothing else happens until
  it is made.
* The damage deck is shuffled from the game's dice the first time a card could be dealt
  (:func:`ensure_deck`): the first attack declared or the first damage outside attacks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple, TypeVar

from pydantic import BaseModel

from domain.dice import DiceSource
from domain.errors import IllegalCommand, InvalidCommand, NotYourTurn
from domain.events import DomainEvent, EventRegistry
from domain.frozen import changed
from domain.rulesets.armada import attack as pipeline
from domain.rulesets.armada import attack_state as atk
from domain.rulesets.armada import damage as dmg
from domain.rulesets.armada.arcs import distance_between, in_arc
from domain.rulesets.armada.attack_events import (
    ATTACK_EVENTS,
    AttackDeclared,
    AttackEnded,
    CommNoiseResolved,
    ConcentrateFireSpent,
    DamageCardDealt,
    DamageDeckShuffled,
    DamageSuffered,
    DefenceTokenSpent,
    UnitDestroyed,
)
from domain.rulesets.armada.attack_inputs import (
    Defender,
    attack_options,
    attacker_input,
    defender_input,
    defending_zones,
    measure,
    measure_keyed,
    require_unit,
)
from domain.rulesets.armada.commands import AdditionalTarget, DeclareAttack
from domain.rulesets.armada.damage_dealing import ensure_deck, hull_of, with_deck
from domain.rulesets.armada.geocache import positions, unit_key
from domain.rulesets.armada.geometry import ZONES, Zone
from domain.rulesets.armada.partmemo import remembered
from domain.rulesets.armada.ship_phase import check_ship_attack, mark_ship_attack
from domain.rulesets.armada.squadron_phase import check_squadron_attack, mark_squadron_attack
from domain.rulesets.armada.state import (
    ArmadaState,
    Dial,
    LastAttack,
    with_ship,
    with_squadron,
)

EVENTS = EventRegistry(ATTACK_EVENTS)
"""The attacks', defence tokens' and damage deck's events."""

DECISIONS = (
    atk.RemoveDie,
    atk.ConcentrateFire,
    atk.ConcentrateFireReroll,
    atk.SwarmReroll,
    atk.SpendAccuracy,
    atk.EndAttackEffects,
    atk.SpendDefenceToken,
    atk.EndDefence,
    atk.RedirectDamage,
    atk.EndAttack,
)
CHOICES = (dmg.DiscardDefenceToken, dmg.LoseShieldsZone, dmg.SpeedOrDial, dmg.StripShields)


# --------------------------------------------------------------------------- decide


def decide(
    state: ArmadaState, side: str | None, command: Any, dice: DiceSource
) -> list[DomainEvent] | None:
    """Decide an attack order or a damage card's choice; None: ``command`` is neither.

    Raises:
        WakeError: a subclass naming the rule (SWA-ATK n, SWA-2.2, SWA-3.x, SWA-DEF, SWA-DMG,
            SWA-R3); nothing is appended.
    """
    if isinstance(command, DeclareAttack):
        return _declare(state, side, command, dice)
    if isinstance(command, AdditionalTarget):
        return _additional(state, side, command, dice)
    if isinstance(command, (*DECISIONS, *CHOICES)):
        if state.attack is not None:
            out = pipeline.decide(
                state.attack,
                command,
                dice,
                deck=state.deck,
                catalogue=state.data.damage,
                side=side,
            )
            return out.events
        if isinstance(command, CHOICES) and state.dealings:
            return _resolve_dealing(state, side, command, dice)
        raise IllegalCommand(
            "no attack is in progress and no damage card waits for a choice", rule="SWA-ATK"
        )
    return None


def _declare(
    state: ArmadaState, side: str | None, command: DeclareAttack, dice: DiceSource
) -> list[DomainEvent]:
    if state.attack is not None:
        raise IllegalCommand("an attack is in progress: finish it first", rule="SWA-ATK")
    require_unit(state, command.attacker, "the attacker")
    if command.attacker in state.ships:
        if command.zone is None:
            raise InvalidCommand("a ship attacks from a hull zone: name `zone`")
        check_ship_attack(state, side, command.attacker, command.zone)
    else:
        check_squadron_attack(state, side, command.attacker)
    require_unit(state, command.defender, "the defender")
    attacker = attacker_input(state, command.attacker, command.zone)
    defender = defender_input(state, command.defender, command.defending_zone)
    measured = measure(
        state, command.attacker, command.zone, command.defender, command.defending_zone
    )
    shuffle = ensure_deck(state, dice)
    out = pipeline.declare(
        attacker,
        defender,
        measured.geometry,
        dice,
        deck=with_deck(state, shuffle),
        catalogue=state.data.damage,
        options=attack_options(state),
    )
    return [*shuffle, *out.events]


def _additional(
    state: ArmadaState, side: str | None, command: AdditionalTarget, dice: DiceSource
) -> list[DomainEvent]:
    attack = state.attack
    if attack is None:
        raise IllegalCommand("no attack is in progress", rule="SWA-ATK 6")
    who = pipeline.actor(attack)
    if side is not None and who is not None and side != who:
        raise NotYourTurn(f"{who} decides now in this attack, not {side}", rule="SWA-ATK 6")
    if command.squadron not in state.squadrons:
        raise InvalidCommand(f"no squadron {command.squadron!r}")
    require_unit(state, command.squadron, "the additional target")
    defender = defender_input(state, command.squadron, None)
    assert isinstance(defender, atk.SquadronDefender)
    measured = measure(state, attack.attacker.id, attack.attacker.zone, command.squadron, None)
    out = pipeline.declare_additional(
        attack,
        defender,
        measured.geometry,
        dice,
        deck=state.deck,
        catalogue=state.data.damage,
    )
    return out.events


def _pending(state: ArmadaState) -> tuple[dmg.Dealing, dmg.ShipHull] | None:
    for dealing in state.dealings:
        if dealing.pending is not None:
            return dealing, hull_of(state, dealing.ship)
    return None


def dealing_chooser(state: ArmadaState) -> str | None:
    """The side whose choice a face-up card dealt outside an attack waits for (None: none)."""
    found = _pending(state)
    if found is None:
        return None
    dealing, hull = found
    return dmg.chooser(hull, dealing)


def _resolve_dealing(
    state: ArmadaState, side: str | None, choice: BaseModel, dice: DiceSource
) -> list[DomainEvent]:
    found = _pending(state)
    if found is None:
        raise IllegalCommand("no face-up damage card waits for a choice", rule=dmg.RULE)
    dealing, hull = found
    who = dmg.chooser(hull, dealing)
    if side is not None and who is not None and side != who:
        raise NotYourTurn(
            f"{who} chooses for {dealing.pending} on {dealing.ship}, not {side}", rule=dmg.RULE
        )
    dealt = dmg.resolve_choice(
        hull, dealing, choice, deck=state.deck, dice=dice, catalogue=state.data.damage
    )
    return dealt.events


# --------------------------------------------------------------------------- legal orders


def declarations(state: ArmadaState, side: str | None) -> list[DeclareAttack]:
    """Every attack ``side`` may declare now (the activating ship's zones not yet used, or the
    activating squadron), each checked against the rules without rolling."""
    return list(_declarations(state, side))


class Candidate(NamedTuple):
    """A pair the phase and the cheap pre-checks let through, not yet measured: the attacking
    ``unit`` and its ``zone`` (None: a squadron), the attacker's input, the ``defender`` and its
    ``defending_zone``, and the measurement memo's first-level key parts (``where``,
    ``attacker_at``, ``defender_at``; :func:`.attack_inputs.measure_keyed`). A plain tuple: the
    legal-attack search makes many and declares few."""

    unit: str
    zone: Zone | None
    attacker: atk.Attacker
    defender: str
    defending_zone: Zone | None
    keys: tuple[tuple[int, int, int], tuple[Any, ...], tuple[Any, ...]]


def _declarations(state: ArmadaState, side: str | None) -> Iterator[DeclareAttack]:
    """:func:`declarations`, one at a time: the same checks as :func:`legal_declaration`, in
    its order (:func:`candidates`, then :func:`target_check`)."""
    check = target_check(state)
    for found in candidates(state, side):
        if check(found) is not None:
            yield DeclareAttack(
                attacker=found.unit,
                zone=found.zone,
                defender=found.defender,
                defending_zone=found.defending_zone,
            )


def candidates(state: ArmadaState, side: str | None) -> Iterator[Candidate]:
    """The pairs :func:`declarations` checks, in its order, each with what the checks before
    the defender's input let through: the phase's checks and the attacker's input (built once
    per zone), and a ship's remembered pre-check (:func:`_plausible_keyed`). A pair is a legal
    attack when :func:`target_check` gives its geometry."""
    if side is None or state.attack is not None or state.dealings or state.obstacle_choice:
        return
    attackers: list[tuple[str, tuple[Zone | None, ...]]] = []
    activation = state.activation
    if (
        state.phase == "ship"
        and activation is not None
        and state.squadron_activation is None
        and state.displaced is None
    ):
        zones: tuple[Zone | None, ...] = tuple(z for z in ZONES if z not in activation.attacks)
        attackers.append((activation.ship, zones))
    current = state.squadron_activation
    if current is not None:
        attackers = [(current.squadron, (None,))]
    where = positions(state)  # the memo keys' parts, built once for every pair below
    keys: dict[str, tuple[Any, ...]] = {}
    for unit, zones in attackers:
        unit_at = keys[unit] = unit_key(state, unit)
        for zone in zones:
            built, attacker = False, None
            for defender_id in _enemies(state, unit):
                defender_at = keys.get(defender_id)
                if defender_at is None:
                    defender_at = keys[defender_id] = unit_key(state, defender_id)
                if zone is not None and not _plausible_keyed(
                    state, unit, unit_at, zone, defender_id, defender_at
                ):
                    continue
                if not built:
                    built = True
                    attacker = _refused_or(_checked_attacker, state, side, unit, zone)
                if attacker is None:
                    break  # the phase refuses this zone's every attack
                for dzone in defending_zones(state, defender_id):
                    yield Candidate(
                        unit, zone, attacker, defender_id, dzone, (where, unit_at, defender_at)
                    )


def target_check(state: ArmadaState) -> Callable[[Candidate], atk.Geometry | None]:
    """The rest of :func:`legal_declaration` for a :func:`candidates` pair of ``state``: the
    squadron's distance bound, the defender's input (built once per defending zone for every
    pair asked of this check), the measurement and the pipeline's target checks. The check
    gives the measured geometry of a legal attack, None for a refused one."""
    defenders: dict[tuple[str, Zone | None], Defender | None] = {}
    far: dict[tuple[str, str], bool] = {}  # per squadron and target, not per defending zone

    def check(found: Candidate) -> atk.Geometry | None:
        attacker = found.attacker
        if attacker.kind == "squadron":
            pair = (attacker.id, found.defender)
            if pair not in far:
                far[pair] = _far(state, *pair)
            if far[pair]:
                return None  # the cheap bound first: refused whatever the defender's input
        key = (found.defender, found.defending_zone)
        if key not in defenders:
            defenders[key] = _refused_or(defender_input, state, *key)
        defender = defenders[key]
        if defender is None:
            return None
        return _target_geometry(
            state,
            found.attacker,
            found.zone,
            found.defender,
            found.defending_zone,
            defender,
            found.keys,
        )

    return check


_T = TypeVar("_T")


def _refused_or(make: Callable[..., _T], *args: Any) -> _T | None:
    """``make(*args)``, or None when it raises a refusal (as :func:`legal_declaration` reads
    one)."""
    try:
        return make(*args)
    except (IllegalCommand, InvalidCommand, NotYourTurn, AssertionError):
        return None
    except Exception as exc:
        if getattr(exc, "rule", None) is not None:
            return None
        raise


def _checked_attacker(
    state: ArmadaState, side: str | None, unit: str, zone: Zone | None
) -> atk.Attacker:
    if unit in state.ships:
        assert zone is not None
        check_ship_attack(state, side, unit, zone)
    else:
        check_squadron_attack(state, side, unit)
    return attacker_input(state, unit, zone)


def _target_geometry(
    state: ArmadaState,
    attacker: atk.Attacker,
    zone: Zone | None,
    defender_id: str,
    dzone: Zone | None,
    defender: Defender,
    keys: tuple[tuple[int, int, int], tuple[Any, ...], tuple[Any, ...]],
) -> atk.Geometry | None:
    """The rest of :func:`legal_declaration` once both inputs are built and the squadron's cheap
    distance bound passed: the measurement and the pipeline's target checks; the measured
    geometry, or None when refused. ``keys`` are the measurement memo's first-level parts
    (:func:`.attack_inputs.measure_keyed`)."""
    where, attacker_at, defender_at = keys

    def check() -> atk.Geometry | None:
        geometry = measure_keyed(
            state, where, attacker.id, attacker_at, zone, defender_id, defender_at, dzone
        ).geometry
        pipeline.check_target(attacker, defender, geometry, state.data.damage)
        return geometry

    return _refused_or(check)  # None: refused


def _enemies(state: ArmadaState, unit: str) -> tuple[str, ...]:
    """The units in play not of ``unit``'s side, ships first (scenario order). Remembered per
    the identity of the ships and squadrons parts (:mod:`.partmemo`): every legal-attack search
    asks it, and most orders change neither part."""
    ships, squadrons = state.ships, state.squadrons
    mine = (ships.get(unit) or squadrons[unit]).side
    return remembered((ships, squadrons), ("enemies", mine), lambda: _enemies_of(state, mine))


def _enemies_of(state: ArmadaState, mine: str) -> tuple[str, ...]:
    ships = [s.id for s in state.ships.values() if s.in_play and s.side != mine]
    squadrons = [s.id for s in state.squadrons.values() if s.in_play and s.side != mine]
    return (*ships, *squadrons)


def legal_declaration(state: ArmadaState, side: str | None, order: DeclareAttack) -> bool:
    """Whether ``order`` would be accepted (checked without rolling a die)."""
    try:
        if order.attacker in state.ships:
            assert order.zone is not None
            check_ship_attack(state, side, order.attacker, order.zone)
        else:
            check_squadron_attack(state, side, order.attacker)
        attacker = attacker_input(state, order.attacker, order.zone)
        defender = defender_input(state, order.defender, order.defending_zone)
        if attacker.kind == "squadron" and _far(state, order.attacker, order.defender):
            return False
        geometry = measure(
            state, order.attacker, order.zone, order.defender, order.defending_zone
        ).geometry
        pipeline.check_target(attacker, defender, geometry, state.data.damage)
    except (IllegalCommand, InvalidCommand, NotYourTurn, AssertionError):
        return False
    except Exception as exc:
        if getattr(exc, "rule", None) is not None:
            return False
        raise
    return True


def _plausible(state: ArmadaState, unit: str, zone: Zone | None, defender: str) -> bool:
    """Cheap necessary conditions before measuring: a ship's target touches the zone's arc
    and lies within long range of its base; a squadron's lies near distance 1. Remembered per
    the two units' keys (:func:`_plausible_keyed`)."""
    if zone is None:
        return True
    return _plausible_keyed(
        state,
        unit,
        unit_key(state, unit),
        zone,
        defender,
        unit_key(state, defender),
    )


def _plausible_keyed(
    state: ArmadaState,
    unit: str,
    unit_at: tuple[Any, ...],
    zone: Zone,
    defender: str,
    defender_at: tuple[Any, ...],
) -> bool:
    """:func:`_plausible` with its memo key's parts built by the caller (the same key). The
    answer reads nothing but the two units' keys (:func:`.geocache.unit_key`: card and pose,
    or a squadron's position) and the game data, so it is kept per pair of keys alone: it
    stays valid while other units move (the pre-check is asked for every pair after every
    order)."""
    return state.data.memo(
        ("plausible", unit_at, zone, defender_at),
        lambda: _plausible_here(state, unit, zone, defender),
    )


def _plausible_here(state: ArmadaState, unit: str, zone: Zone, defender: str) -> bool:
    placed = state.placed(unit)
    target = state.placed(defender).base if defender in state.ships else state.disc(defender)
    geometry = state.data.geometry
    reach = geometry.range_bands.long
    # cheap bound first: a base is no closer than its centre's distance less half its diagonal
    # (a squadron's disc, less its radius), so a pair this far apart needs no shapely distance
    gap = math.dist(state.ships[unit].position, _centre(state, defender))
    gap -= _half_diagonal(state, unit) + _half_diagonal(state, defender)
    if gap > reach + 1.0 + FAR_MARGIN:
        return False
    if distance_between(placed.base, target) > reach + 1.0:
        return False
    return in_arc(placed, zone, target)


def _centre(state: ArmadaState, unit: str) -> tuple[float, float]:
    ship = state.ships.get(unit)
    return ship.position if ship is not None else state.squadrons[unit].position


def _half_diagonal(state: ArmadaState, unit: str) -> float:
    """Half the diagonal of a ship's base, or a squadron's radius: no point of the unit's base
    lies farther from its centre."""
    geometry = state.data.geometry
    if unit in state.ships:
        base = geometry.base_sizes[state.card(unit).size]
        return math.hypot(base.width, base.length) / 2
    return geometry.squadron_base_radius


FAR_MARGIN = 1.0
"""mm added to :func:`_far`'s bound: far above rounding, so a pair it calls far really is."""


def _far(state: ArmadaState, attacker: str, defender: str) -> bool:
    """Cheap bound: a squadron's target surely beyond distance 1 (SWA-3.2), so its attack
    need not be measured. The gap between the squadron's disc and a squadron's is at least
    their centres' distance less both radii; the gap to a ship's hull zone, at least the
    centres' distance less the radius and half the diagonal of the ship's base (a zone lies on
    the token, which fits the base around the same centre)."""
    geometry = state.data.geometry
    a = state.squadrons[attacker].position
    reach = geometry.distance_bands[0] + geometry.squadron_base_radius + FAR_MARGIN
    ship = state.ships.get(defender)
    if ship is not None:
        base = geometry.base_sizes[state.card(defender).size]
        reach += math.hypot(base.width, base.length) / 2
        b = ship.position
    else:
        reach += geometry.squadron_base_radius
        b = state.squadrons[defender].position
    return math.dist(a, b) > reach


def additional_targets(state: ArmadaState) -> list[AdditionalTarget]:
    """The squadrons an attack at SWA-ATK 6 may target next."""
    attack = state.attack
    if attack is None or attack.step != "additional":
        return []
    found: list[AdditionalTarget] = []
    for squadron in state.squadrons.values():
        if not squadron.in_play or squadron.side == attack.attacker.side:
            continue
        if squadron.id in attack.targeted:
            continue
        zone = attack.attacker.zone
        if zone is not None and not _plausible(state, attack.attacker.id, zone, squadron.id):
            continue  # not in the zone's arc or beyond long range: refused, unmeasured
        defender = defender_input(state, squadron.id, None)
        geometry = measure(
            state, attack.attacker.id, attack.attacker.zone, squadron.id, None
        ).geometry
        try:
            pipeline.check_target(attack.attacker, defender, geometry, state.data.damage)
        except IllegalCommand:
            continue
        found.append(AdditionalTarget(squadron=squadron.id))
    return found


def commands(state: ArmadaState, side: str | None) -> list[BaseModel]:
    """The attack orders and damage choices ``side`` may give now."""
    if state.attack is not None:
        if pipeline.actor(state.attack) != side:
            return []
        found = list(pipeline.legal_decisions(state.attack, state.data.damage))
        return [*found, *additional_targets(state)]
    if state.dealings:
        found_pending = _pending(state)
        if found_pending is None or dealing_chooser(state) != side:
            return []
        dealing, hull = found_pending
        return list(dmg.legal_choices(hull, dealing))
    return list(declarations(state, side))


def squadron_can_attack(state: ArmadaState, squadron: str) -> bool:
    """Whether the activating ``squadron`` has a target it may attack now: whether any
    :func:`declarations` pair is legal. One is enough, so the pairs are checked nearest
    target first (:func:`nearest_first`), where a legal one usually is."""
    side = state.squadrons[squadron].side
    check = target_check(state)
    return any(check(found) is not None for found in nearest_first(state, candidates(state, side)))


def nearest_first(state: ArmadaState, found: Iterable[Candidate]) -> list[Candidate]:
    """The candidate pairs, nearest target (centre to centre) first, then in their order: for
    a search that stops at the first legal pair (an attack needs its target close: distance
    1 for a squadron), wherever that pair stands in the list."""
    return sorted(found, key=nearest_key(state))


def nearest_key(state: ArmadaState) -> Callable[[Candidate], float]:
    """A candidate's centre-to-centre distance, worked out once per pair of units (a ship
    target is a candidate once per defending zone)."""
    gaps: dict[tuple[str, str], float] = {}

    def gap(found: Candidate) -> float:
        pair = (found.unit, found.defender)
        known = gaps.get(pair)
        if known is None:
            known = gaps[pair] = math.dist(_centre(state, pair[0]), _centre(state, pair[1]))
        return known

    return gap


# --------------------------------------------------------------------------- evolve


def _begin(state: ArmadaState, event: AttackDeclared) -> ArmadaState:
    shown = LastAttack(
        attacker=event.attacker,
        zone=event.zone,
        defender=event.defender,
        defending_zone=event.defending_zone,
    )
    state = changed(state, last_attack=shown, last_maneuver=None)
    geometry = atk.declared_geometry(event)
    if event.additional and state.attack is not None:
        defender = defender_input(state, event.defender, None)
        assert isinstance(defender, atk.SquadronDefender)
        return changed(state, attack=atk.retarget(state.attack, defender, geometry))
    attacker = attacker_input(state, event.attacker, event.zone)
    defender_full = defender_input(state, event.defender, event.defending_zone)
    attack = atk.begin(attacker, defender_full, geometry, attack_options(state))
    state = changed(state, attack=attack)
    if event.attacker_kind == "ship" and event.zone is not None:
        state = mark_ship_attack(state, event.zone)
        if event.defender_kind == "ship" and state.activation is not None:
            activation = state.activation
            state = changed(
                state, activation=changed(activation, ship_targets=activation.ship_targets + 1)
            )
        return state
    return mark_squadron_attack(state, event.attacker)


def _ship_event(state: ArmadaState, ship_id: str, event: DomainEvent) -> ArmadaState:
    if not isinstance(event, dmg.SHIP_EVENTS):
        return state  # apply_ship would hand the hull back unchanged: no hull to build
    hull = hull_of(state, ship_id)
    after = dmg.apply_ship(hull, event)
    if after is hull:
        return state
    update: dict[str, Any] = {
        "shields": after.shields,
        "defense": after.tokens,
        "damage": after.cards,
        "speed": after.speed,
    }
    return with_ship(state, ship_id, **update)


def _unit_of(event: DomainEvent) -> Any:
    """The event's ``unit`` or else its ``ship`` field (None: neither). Read from the fields
    themselves: a missing attribute costs pydantic's ``__getattr__`` and an exception, for
    every event folded."""
    fields = event.__dict__
    return fields.get("unit") or fields.get("ship")


def _units(state: ArmadaState, event: DomainEvent) -> ArmadaState:
    unit = _unit_of(event)
    if not isinstance(unit, str):
        return state
    if unit in state.ships:
        state = _ship_event(state, unit, event)
        life_support = isinstance(event, DamageCardDealt) and event.effect == "no_command_tokens"
        if life_support and getattr(event, "face_up", False):  # Life Support Failure, dealt
            state = with_ship(state, unit, tokens=())
        if isinstance(event, CommNoiseResolved) and event.command is not None:
            ship = state.ships[unit]
            if ship.dials:
                top = ship.dials[0]
                dial = Dial(slot=top.slot, round=top.round, digest="", command=event.command)
                state = with_ship(state, unit, dials=(dial, *ship.dials[1:]))
        if isinstance(event, UnitDestroyed):
            state = with_ship(state, unit, destroyed=True, damage=(), tokens=(), dials=())
        return state
    if unit in state.squadrons:
        match event:
            case DamageSuffered() if event.hull is not None:
                return with_squadron(state, unit, hull=event.hull)
            case DefenceTokenSpent():
                tokens = list(state.squadrons[unit].defense)
                if 0 <= event.token < len(tokens):
                    tokens[event.token] = changed(tokens[event.token], state=event.state)
                return with_squadron(state, unit, defense=tuple(tokens))
            case UnitDestroyed():
                return with_squadron(state, unit, destroyed=True)
    return state


def _dealings(state: ArmadaState, event: DomainEvent) -> ArmadaState:
    ship = _unit_of(event)
    dealings = list(state.dealings)
    index = next((i for i, d in enumerate(dealings) if d.ship == ship), None)
    current = dealings[index] if index is not None else None
    after = dmg.apply_dealing(current, event)
    if after is current:
        return state
    if index is None:
        dealings.append(after) if after is not None else None
    elif after is None:
        dealings.pop(index)
    else:
        dealings[index] = after
    return changed(state, dealings=tuple(dealings))


def apply(state: ArmadaState, event: DomainEvent) -> ArmadaState:
    """Evolve for the attacks', defence tokens' and damage deck's events."""
    if isinstance(event, AttackDeclared):
        return _begin(state, event)
    if isinstance(event, DamageDeckShuffled) and event.reason == "setup":
        state = changed(state, deck_shuffled=True)
    deck = dmg.apply_deck(state.deck, event)
    if deck is not state.deck:
        state = changed(state, deck=deck)
    if state.attack is not None:
        attack = atk.apply(state.attack, event)
        if attack is not state.attack:
            state = changed(state, attack=attack)
    elif isinstance(event, (DamageSuffered, DamageCardDealt)) or state.dealings:
        state = _dealings(state, event)
    if isinstance(event, ConcentrateFireSpent):
        return _concentrate_fire(state, event)
    state = _units(state, event)
    if isinstance(event, AttackEnded):
        state = changed(state, attack=None)
    return state


def _concentrate_fire(state: ArmadaState, event: ConcentrateFireSpent) -> ArmadaState:
    """SWA-R3: the dial and/or token spent; the command resolved this round."""
    ship = state.ships[event.ship]
    tokens = list(ship.tokens)
    if event.spend in ("token", "both") and "concentrate_fire" in tokens:
        tokens.remove("concentrate_fire")
    state = with_ship(
        state,
        event.ship,
        tokens=tuple(tokens),
        resolved=(*ship.resolved, "concentrate_fire"),
    )
    activation = state.activation
    if event.spend in ("dial", "both") and activation is not None:
        state = changed(state, activation=changed(activation, dial=None))
    return state
