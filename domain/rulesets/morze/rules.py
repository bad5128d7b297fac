"""Morze w ogniu rules as pure functions: ``decide`` validates and resolves, ``evolve`` applies.

Turn (PL-1..PL-7): initiative roll -> the side without initiative moves all its units, then the
initiative side -> declarations in the same order -> all attacks resolve simultaneously (units
destroyed this turn still fire) -> destroyed units are removed -> end of turn and victory check.
"""

from __future__ import annotations

import math

from domain.chance import opposed_roll, table_roll, target_roll
from domain.dice import DiceExhausted, DiceSource
from domain.errors import (
    DiceMismatch,
    IllegalCommand,
    InvalidCommand,
    NotYourTurn,
    WrongPhase,
    WrongSide,
)
from domain.events import DiceRolled, DomainEvent, GameEnded
from domain.frozen import changed
from domain.rulesets.morze.commands import (
    DeclareAttack,
    EndDeclarations,
    EndMovement,
    Move,
    ResolveAttacks,
    RollInitiative,
)
from domain.rulesets.morze.events import (
    AttackDeclared,
    AttackResolved,
    DeclarationsEnded,
    InitiativeDetermined,
    MovementEnded,
    PhaseBegan,
    TurnEnded,
    UnitDestroyed,
    UnitMoved,
)
from domain.rulesets.morze.state import Declared, MorzeState, Phase, Unit
from domain.words import possessive

# Limits are hard: a move or range may exceed its limit by at most a micrometre (float noise).
EPSILON = 1e-4
# "Exactly the full speed" (partial_moves off) is judged to a tenth of a millimetre, finer than
# any tape measure; positions are recorded to 0.01 cm.
FULL_MOVE_TOLERANCE = 0.01
MAX_INITIATIVE_REROLLS = 1000

Command = RollInitiative | Move | EndMovement | DeclareAttack | EndDeclarations | ResolveAttacks


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Straight-line distance, centre to centre (PL-2, PL-4a)."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


# --- validation shared by decide and legal_commands ----------------------------------------------


def _require_phase(state: MorzeState, phase: Phase, rule: str, what: str) -> None:
    if state.phase != phase:
        raise WrongPhase(
            f"{what} is only possible in the {phase} phase; it is the {state.phase} phase",
            rule=rule,
        )


def _side_name(state: MorzeState, side: str | None) -> str:
    """A side as players call it (the scenario's name), for refusals."""
    return next((s.name for s in state.scenario.sides if s.id == side), str(side))


def _require_active(state: MorzeState, side: str | None, rule: str) -> str:
    if side is None:
        raise InvalidCommand("this order must name the side giving it", rule=rule)
    if side != state.active:
        raise NotYourTurn(
            f"{_side_name(state, side)} cannot act now: {_side_name(state, state.active)} is to "
            f"{state.phase}",
            rule=rule,
        )
    return side


def _own_unit(state: MorzeState, side: str, unit_id: str, rule: str) -> Unit:
    unit = state.units.get(unit_id)
    if unit is None:
        raise InvalidCommand(f"there is no unit {unit_id!r}")
    if unit.side != side:
        raise WrongSide(
            f"{unit.name} belongs to {_side_name(state, unit.side)}, not "
            f"{_side_name(state, side)}",
            rule=rule,
        )
    if unit.destroyed:
        raise IllegalCommand(f"{unit.name} was destroyed and removed from play", rule="PL-6")
    return unit


def check_move(state: MorzeState, side: str | None, command: Move) -> tuple[Unit, float]:
    """Raise unless ``command`` is a legal move now (PL-2); return the unit and the distance."""
    _require_phase(state, "movement", "PL-2", "moving")
    side = _require_active(state, side, "PL-2")
    unit = _own_unit(state, side, command.unit, "PL-2")
    cls = state.unit_class(unit)
    if unit.moved:
        raise IllegalCommand(f"{unit.name} has already moved this turn", rule="PL-2")
    dist = distance((unit.x, unit.y), (command.x, command.y))
    if dist > cls.speed + EPSILON:
        raise IllegalCommand(
            f"move of {dist:.2f} cm is longer than {possessive(unit.name)} speed of "
            f"{cls.speed:g} cm ({cls.speed_class}, {cls.name})",
            rule="PL-2",
        )
    if not state.options.partial_moves and abs(dist - cls.speed) > FULL_MOVE_TOLERANCE:
        raise IllegalCommand(
            f"partial moves are off: {unit.name} must move exactly {cls.speed:g} cm", rule="PL-2"
        )
    table = state.scenario.table
    if not (
        -EPSILON <= command.x <= table.width + EPSILON
        and -EPSILON <= command.y <= table.height + EPSILON
    ):
        raise IllegalCommand(
            f"({command.x:g}, {command.y:g}) is off the {table.width:g}x{table.height:g} cm table",
            rule="PL-2",
        )
    return unit, dist


def check_attack(
    state: MorzeState, side: str | None, command: DeclareAttack
) -> tuple[Unit, Unit, float]:
    """Raise unless ``command`` is a legal declaration now (PL-3, PL-4a)."""
    _require_phase(state, "declaration", "PL-3", "declaring attacks")
    side = _require_active(state, side, "PL-3")
    attacker = _own_unit(state, side, command.attacker, "PL-3")
    cls = state.unit_class(attacker)
    if attacker.attacks >= state.options.attacks_per_unit:
        raise IllegalCommand(
            f"{attacker.name} has already declared its attack this turn", rule="PL-3"
        )
    if cls.range <= 0:
        raise IllegalCommand(f"{attacker.name} ({cls.name}) has no guns", rule="PL-4")
    target = state.units.get(command.target)
    if target is None:
        raise InvalidCommand(f"there is no unit {command.target!r}")
    if target.side == side:
        raise IllegalCommand(f"{target.name} is a friendly unit", rule="PL-4")
    if target.destroyed:
        raise IllegalCommand(f"{target.name} was destroyed and removed", rule="PL-6")
    dist = distance((attacker.x, attacker.y), (target.x, target.y))
    if dist > cls.range + EPSILON:
        raise IllegalCommand(
            f"{target.name} is {dist:.2f} cm away, out of {possessive(attacker.name)} range of "
            f"{cls.range:g} cm ({cls.name})",
            rule="PL-4a",
        )
    return attacker, target, dist


# --- decide --------------------------------------------------------------------------------------


def decide(
    state: MorzeState, side: str | None, command: Command, dice: DiceSource
) -> list[DomainEvent]:
    """Validate ``command`` and return the events it causes (PL-1..PL-7)."""
    if state.phase == "over":
        raise WrongPhase("the game is over", rule="PL-7")
    if isinstance(command, RollInitiative):
        return _roll_initiative(state, dice)
    if isinstance(command, Move):
        unit, dist = check_move(state, side, command)
        return [
            UnitMoved(
                unit=unit.id,
                side=unit.side,
                from_x=unit.x,
                from_y=unit.y,
                to_x=command.x,
                to_y=command.y,
                distance=round(dist, 4),
                speed=state.unit_class(unit).speed,
            )
        ]
    if isinstance(command, EndMovement):
        _require_phase(state, "movement", "PL-2", "ending movement")
        mover = _require_active(state, side, "PL-2")
        return [MovementEnded(side=mover), _next_after(state, mover, "movement")]
    if isinstance(command, DeclareAttack):
        attacker, target, dist = check_attack(state, side, command)
        return [
            AttackDeclared(
                attacker=attacker.id,
                target=target.id,
                side=attacker.side,
                distance=round(dist, 4),
                range=state.unit_class(attacker).range,
            )
        ]
    if isinstance(command, EndDeclarations):
        _require_phase(state, "declaration", "PL-3", "ending declarations")
        declarer = _require_active(state, side, "PL-3")
        return [DeclarationsEnded(side=declarer), _next_after(state, declarer, "declaration")]
    _require_phase(state, "resolution", "PL-3", "resolving attacks")
    return _resolve(state, dice)


def _next_after(state: MorzeState, side: str, phase: Phase) -> PhaseBegan:
    """PL-2/PL-3: the side without initiative acts first, then the initiative side."""
    assert state.initiative is not None
    if side != state.initiative:
        return PhaseBegan(turn=state.turn, phase=phase, side=state.initiative)
    if phase == "movement":
        return PhaseBegan(turn=state.turn, phase="declaration", side=state.other(state.initiative))
    return PhaseBegan(turn=state.turn, phase="resolution", side=None)


def _roll_initiative(state: MorzeState, dice: DiceSource) -> list[DomainEvent]:
    """PL-1: each side rolls d10, the higher gets initiative; ties per the option."""
    _require_phase(state, "initiative", "PL-1", "rolling for initiative")
    a, b = state.side_ids
    events: list[DomainEvent] = []
    for _ in range(MAX_INITIATIVE_REROLLS):
        start = dice.position
        try:
            roll = opposed_roll(
                dice,
                actor="d10",
                opponent="d10",
                side=a,
                opponent_side=b,
                purpose="initiative",
                rule="PL-1",
                tie_label="tie",
            )
        except DiceExhausted as exc:
            if not events:
                raise
            raise _reroll_faces_missing(state, events, dice.position - start) from exc
        events.append(roll)
        assert roll.opposed_by is not None
        rolls = {a: roll.roll.total, b: roll.opposed_by.total}
        if roll.outcome != "tie":
            winner, reason = (a if roll.success else b), "higher roll"
            break
        if state.options.initiative_tie == "keep_previous" and state.previous_initiative:
            winner, reason = state.previous_initiative, "tie: last turn's holder keeps it (option)"
            break
    else:  # pragma: no cover - 10^-1000 odds
        raise IllegalCommand("initiative tied too many times", rule="PL-1")
    events.append(InitiativeDetermined(turn=state.turn, side=winner, rolls=rolls, reason=reason))
    events.append(PhaseBegan(turn=state.turn, phase="movement", side=state.other(winner)))
    return events


def _reroll_faces_missing(state: MorzeState, ties: list[DomainEvent], drawn: int) -> DiceMismatch:
    """PL-1 with physical dice: the faces entered ran out on a re-roll after a tie. Say so, and
    how many faces the re-roll still needs (``drawn`` of its two were entered)."""
    a, b = state.side_ids
    tied = ", then ".join(
        f"{e.roll.total}-{e.opposed_by.total}"
        for e in ties
        if isinstance(e, DiceRolled) and e.opposed_by is not None
    )
    missing = 2 - drawn
    a_name, b_name = _side_name(state, a), _side_name(state, b)
    which = (
        f"one for each side, {possessive(a_name)} first" if missing == 2 else possessive(b_name)
    )
    entered = 2 * len(ties) + drawn
    return DiceMismatch(
        f"the initiative roll tied {tied}, and a tie is re-rolled: enter {missing} more d10 "
        f"face{'s' if missing > 1 else ''} for the re-roll ({which}) after the {entered} "
        "already entered",
        rule="PL-1",
    )


def _damage_table(total: int) -> tuple[str, int]:
    """PL-4d: 1-9 = 1 damage, 10 = 2 damage (critical)."""
    return ("2 damage (critical)", 2) if total >= 10 else ("1 damage", 1)


def _resolve(state: MorzeState, dice: DiceSource) -> list[DomainEvent]:
    """PL-4 for every declared attack, then PL-5/PL-6 accounting, PL-7 end of turn."""
    events: list[DomainEvent] = []
    scratch = state
    for decl in state.declared:
        attacker, target = state.units[decl.attacker], state.units[decl.target]
        a_cls, t_cls = state.unit_class(attacker), state.unit_class(target)
        hit = target_roll(
            dice,
            expression="d10",
            target=a_cls.hit,
            side=attacker.side,
            purpose="to hit",
            rule="PL-4b",
            subject=attacker.id,
            target_unit=target.id,
        )
        events.append(hit)
        defended: bool | None = None
        damage, critical = 0, False
        if hit.success:
            defence = target_roll(
                dice,
                expression="d10",
                target=t_cls.defence,
                side=target.side,
                purpose="defence",
                rule="PL-4c",
                subject=target.id,
                target_unit=attacker.id,
            )
            events.append(defence)
            defended = bool(defence.success)
            if not defended:
                dmg = table_roll(
                    dice,
                    expression="d10",
                    table=_damage_table,
                    side=attacker.side,
                    purpose="damage",
                    rule="PL-4d",
                    subject=attacker.id,
                    target_unit=target.id,
                )
                events.append(dmg)
                damage = int(dmg.value)
                critical = damage == 2
        resolved = AttackResolved(
            attacker=attacker.id,
            target=target.id,
            hit=bool(hit.success),
            defended=defended,
            damage=damage,
            critical=critical,
        )
        events.append(resolved)
        scratch = evolve(scratch, resolved)
    for unit in scratch.units.values():
        toughness = scratch.unit_class(unit).toughness
        if not unit.destroyed and unit.damage >= toughness:  # PL-5: "=" read as ">="
            destroyed = UnitDestroyed(
                unit=unit.id,
                side=unit.side,
                damage=unit.damage,
                toughness=toughness,
                vp_to=scratch.other(unit.side),
                vp=scratch.unit_class(unit).value,
            )
            events.append(destroyed)
            scratch = evolve(scratch, destroyed)
    events.append(TurnEnded(turn=state.turn))
    ended = _victory(scratch)
    events.append(
        ended if ended else PhaseBegan(turn=state.turn + 1, phase="initiative", side=None)
    )
    return events


def _victory(state: MorzeState) -> GameEnded | None:
    """Scenario victory (PL-7 has none): annihilation, then the turn limit on VP."""
    a, b = state.side_ids
    vp = dict(state.vp)
    alive = {s: len(state.alive(s)) for s in (a, b)}
    if state.scenario.victory.annihilation and (alive[a] == 0 or alive[b] == 0):
        winner = None if alive[a] == alive[b] == 0 else (a if alive[a] else b)
        return GameEnded(winner=winner, reason="annihilation", rule="PL-7", vp=vp)
    limit = state.scenario.victory.turn_limit
    if limit is not None and state.turn >= limit:
        winner = None if vp[a] == vp[b] else (a if vp[a] > vp[b] else b)
        return GameEnded(
            winner=winner, reason=f"turn limit ({limit}) on victory points", rule="PL-7", vp=vp
        )
    return None


# --- evolve --------------------------------------------------------------------------------------


def _with_unit(state: MorzeState, unit: Unit) -> MorzeState:
    return changed(state, units={**state.units, unit.id: unit})


def evolve(state: MorzeState, event: DomainEvent) -> MorzeState:
    """Apply one fact to the state. Never validates, never rolls."""
    if isinstance(event, InitiativeDetermined):
        return changed(state, initiative=event.side)
    if isinstance(event, PhaseBegan):
        return changed(state, turn=event.turn, phase=event.phase, active=event.side)
    if isinstance(event, UnitMoved):
        unit = state.units[event.unit]
        return _with_unit(state, changed(unit, x=event.to_x, y=event.to_y, moved=True))
    if isinstance(event, AttackDeclared):
        unit = state.units[event.attacker]
        moved = _with_unit(state, changed(unit, attacks=unit.attacks + 1))
        declared = Declared(attacker=event.attacker, target=event.target)
        return changed(moved, declared=(*state.declared, declared))
    if isinstance(event, AttackResolved):
        target = state.units[event.target]
        return _with_unit(state, changed(target, damage=target.damage + event.damage))
    if isinstance(event, UnitDestroyed):
        unit = state.units[event.unit]
        updated = _with_unit(state, changed(unit, destroyed=True))
        vp = dict(state.vp)
        vp[event.vp_to] = vp.get(event.vp_to, 0) + event.vp
        return changed(updated, vp=vp)
    if isinstance(event, TurnEnded):
        units = {  # units that neither moved nor attacked are shared, not copied
            uid: changed(u, moved=False, attacks=0) if u.moved or u.attacks else u
            for uid, u in state.units.items()
        }
        return changed(
            state,
            units=units,
            declared=(),
            previous_initiative=state.initiative,
            initiative=None,
            active=None,
        )
    if isinstance(event, GameEnded):
        return changed(state, phase="over", active=None, winner=event.winner)
    # DiceRolled, MovementEnded, DeclarationsEnded: facts for the log; phases move on PhaseBegan.
    return state
