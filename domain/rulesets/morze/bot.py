"""A deterministic Morze bot: close on the nearest enemy to just inside gun range, fire at the
target with the best expected damage per remaining toughness (weighted by its value)."""

from __future__ import annotations

from domain.board import ContinuousBoard
from domain.rulesets.morze.commands import (
    DeclareAttack,
    EndDeclarations,
    EndMovement,
    Move,
    ResolveAttacks,
    RollInitiative,
)
from domain.rulesets.morze.rules import FULL_MOVE_TOLERANCE, Command, distance
from domain.rulesets.morze.state import MorzeState, Unit

STANDOFF = 0.9  # stop at 90% of own range from the nearest enemy
MIN_STEP = 0.05  # cm; smaller moves are not worth an order


def _board(state: MorzeState) -> ContinuousBoard:
    return ContinuousBoard(width=state.scenario.table.width, height=state.scenario.table.height)


def _nearest_enemy(state: MorzeState, unit: Unit) -> Unit | None:
    enemies = state.alive(state.other(unit.side))
    if not enemies:
        return None
    return min(enemies, key=lambda e: (distance((unit.x, unit.y), (e.x, e.y)), e.id))


def plan_move(state: MorzeState, unit: Unit) -> tuple[float, float] | None:
    """Where the bot moves ``unit`` this turn, or None to stay put."""
    enemy = _nearest_enemy(state, unit)
    if enemy is None:
        return None
    cls = state.unit_class(unit)
    board = _board(state)
    here = (unit.x, unit.y)
    there = (enemy.x, enemy.y)
    gap = distance(here, there)
    if gap == 0:
        return None
    full_only = not state.options.partial_moves
    if cls.range <= 0:  # unarmed: run directly away
        away = (unit.x + (unit.x - enemy.x) * 1000 / gap, unit.y + (unit.y - enemy.y) * 1000 / gap)
        dest = board.step_toward(here, away, cls.speed)
    elif gap <= cls.range * STANDOFF:
        return None
    elif full_only:  # must move the whole speed or not at all: head straight for the enemy
        far = (unit.x + (enemy.x - unit.x) * 1000 / gap, unit.y + (enemy.y - unit.y) * 1000 / gap)
        dest = board.step_toward(here, far, cls.speed)
    else:
        dest = board.step_toward(here, there, cls.speed, stop_short=cls.range * STANDOFF)
    moved = distance(here, dest)
    if full_only and abs(moved - cls.speed) > FULL_MOVE_TOLERANCE:
        return None  # blocked by the table edge: stay put rather than make an illegal move
    return dest if moved >= MIN_STEP else None


def p_damage(state: MorzeState, attacker: Unit, target: Unit) -> float:
    """Chance one attack does damage (PL-4): hit roll, then the defence roll fails."""
    a, t = state.unit_class(attacker), state.unit_class(target)
    p_hit = max(0, 11 - a.hit) / 10
    p_fail_def = max(0, t.defence - 1) / 10
    return p_hit * min(1.0, p_fail_def)


def choose_attack(state: MorzeState, side: str) -> DeclareAttack | None:
    """The best declaration still open to ``side``, or None."""
    assigned: dict[str, float] = {}
    for decl in state.declared:
        a, t = state.units[decl.attacker], state.units[decl.target]
        assigned[t.id] = assigned.get(t.id, 0.0) + 1.1 * p_damage(state, a, t)
    for attacker in sorted(state.alive(side), key=lambda u: u.id):
        cls = state.unit_class(attacker)
        if attacker.attacks >= state.options.attacks_per_unit or cls.range <= 0:
            continue
        best: tuple[float, str] | None = None
        for target in state.alive(state.other(side)):
            if distance((attacker.x, attacker.y), (target.x, target.y)) > cls.range:
                continue
            t_cls = state.unit_class(target)
            remaining = t_cls.toughness - target.damage - assigned.get(target.id, 0.0)
            expected = 1.1 * p_damage(state, attacker, target)
            score = (t_cls.value + 1) * expected / max(remaining, 0.25)
            if remaining <= 0:
                score *= 0.1  # already likely dead: overkill
            if best is None or (score, target.id) > (best[0], best[1]):
                best = (score, target.id)
        if best is not None:
            return DeclareAttack(attacker=attacker.id, target=best[1])
    return None


def bot_command(state: MorzeState, side: str | None) -> Command | None:
    """The bot's next order for ``side`` (``None``: the system step)."""
    if state.phase == "initiative":
        return RollInitiative()
    if state.phase == "resolution":
        return ResolveAttacks()
    if state.phase == "over" or side is None or side != state.active:
        return None
    if state.phase == "movement":
        for unit in sorted(state.alive(side), key=lambda u: u.id):
            if unit.moved:
                continue
            dest = plan_move(state, unit)
            if dest is not None:
                return Move(unit=unit.id, x=dest[0], y=dest[1])
        return EndMovement()
    attack = choose_attack(state, side)
    return attack if attack is not None else EndDeclarations()
