"""The Star Wars: Armada bot: legal, deterministic, and sensible enough to make a game of it.

* **Setup**: ships spread across the deployment zone facing the enemy edge at speed 2 (or their
  top speed); squadrons beside a friendly ship.
* **Command Phase**: each new dial is chosen for the round it will be revealed in, from the
  distance to the nearest enemy ship then: Repair when damaged, Concentrate Fire once the enemy
  should be in range, Squadron when squadrons fly near, else Navigate.
* **Ship Phase**: the ship nearest the enemy activates first; a dial it cannot use now is spent
  for its token; Squadron and Repair commands resolve (shields first to the emptiest zones); the
  maneuver is chosen among every course at the speeds Navigate allows, scored on bringing the
  nearest enemy ship to the front arc at about medium range, staying clear of the edges,
  obstacles and other ships. Between its commands and its maneuver it makes the attacks
  :mod:`.attack_bot` finds worth making; inside attacks and for damage cards it decides as
  :mod:`.attack_bot` says.
* **Squadrons** fly at the nearest enemy squadron within reach (to engage it), else at the
  nearest enemy ship; displaced squadrons are put back touching the ship, as near as possible
  to where they were (touching a squadron that touches it only when the ship has no room left).
* **Obstacles**: a debris field's damage goes to the hull zone with the most shields; a station
  takes a face-up damage card first (:func:`.obstacles.bot_choice`).

Sealed dials use salts derived from the game's seed (``command_phase.bot_salt``), so the bot
opens its own dials again at reveal time by trying each command.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import shapely
from pydantic import BaseModel
from shapely.geometry import Point

from domain.errors import WakeError
from domain.frozen import changed
from domain.rulesets.armada import attack_bot
from domain.rulesets.armada.arcs import distance_between
from domain.rulesets.armada.command_phase import (
    bot_salt,
    dial_content,
    dials_needed,
    seal_dials,
)
from domain.rulesets.armada.commands import (
    ActivateSquadron,
    DeployShip,
    DeploySquadrons,
    EndSquadronActivation,
    Maneuver,
    MoveSquadron,
    PassTurn,
    PlaceSquadrons,
    Repair,
    RepairEffect,
    RevealDial,
    SetDials,
    SquadronCommand,
)
from domain.rulesets.armada.damage import (
    damaged_yaw_limits,
    must_panic_before_reveal,
    shields_locked,
)
from domain.rulesets.armada.damage import face_up_effects as dmg_face_up
from domain.rulesets.armada.damage_dealing import face_up_effects
from domain.rulesets.armada.data import ManeuverTool, Size
from domain.rulesets.armada.geometry import (
    HEADING_DECIMALS,
    POSE_DECIMALS,
    ZONES,
    Disc,
    Pose,
    _cos_sin,
)
from domain.rulesets.armada.maneuver import Side, courses, yaw_limits
from domain.rulesets.armada.maneuvering import TOUCH, Mover, room_beside
from domain.rulesets.armada.obstacles import bot_choice, obstacle_shapes
from domain.rulesets.armada.obstacles import choices as obstacle_choices
from domain.rulesets.armada.overlap import (
    bases_overlap,
    discs_overlap,
    outside_play_area,
    squadron_overlaps,
)
from domain.rulesets.armada.passing import may_pass
from domain.rulesets.armada.sequence import to_act
from domain.rulesets.armada.setup_phase import (
    deployment_zone,
    squadrons_per_turn,
    undeployed_ships,
    undeployed_squadrons,
    within_distance,
)
from domain.rulesets.armada.ship_commands import repair_points
from domain.rulesets.armada.squadron_phase import (
    check_move,
    engaged_with,
    in_command_range,
    move_reach,
    ready_squadrons,
)
from domain.rulesets.armada.state import (
    COMMANDS,
    ArmadaState,
    CommandName,
    ShipState,
    SquadronActivation,
)
from domain.sealed import Commitment, verify_reveal

CLOSING = 150.0
"""mm a round the bot expects the fleets to close by, when planning dials ahead."""
WANTED = 150.0
"""mm: the distance to the nearest enemy ship the bot steers for (about medium range)."""
EDGE_MARGIN = 40.0


def bot_command(state: ArmadaState, side: str | None) -> BaseModel | None:
    """The bot's next order for ``side`` (None when it is not to act)."""
    if side is None or side not in to_act(state):
        return None
    if state.attack is not None or state.dealings:
        return attack_bot.bot_command(state, side)
    if state.obstacle_choice is not None:
        return bot_choice(state)
    pipeline = attack_bot.bot_command(state, side)
    if pipeline is not None:
        return pipeline
    if state.phase == "setup":
        return _deploy(state, side)
    if state.phase == "command":
        return _dials(state, side)
    if state.phase == "ship":
        if state.displaced is not None:
            return _place(state)
        if state.squadron_activation is not None:
            return _squadron_step(state)
        if state.activation is None:
            if _wants_to_pass(state, side):
                return PassTurn()
            return _reveal(state, side)
        return _activation_step(state, side)
    if state.phase == "squadron":
        if state.squadron_activation is not None:
            return _squadron_step(state)
        return _activate_squadron(state, side)
    return None


# --------------------------------------------------------------------------- look-ups


def _enemy_ships(state: ArmadaState, side: str) -> list[ShipState]:
    return state.ships_of(state.other(side))


def nearest_enemy(state: ArmadaState, ship: ShipState) -> tuple[ShipState | None, float]:
    """The enemy ship nearest ``ship`` (centre to centre) and its distance."""
    best: tuple[ShipState | None, float] = (None, math.inf)
    for enemy in _enemy_ships(state, ship.side):
        d = math.dist(ship.position, enemy.position)
        if d < best[1]:
            best = (enemy, d)
    return best


def _first_legal(candidates: Iterator[tuple[float, float]], ok: Any) -> tuple[float, float] | None:
    for point in candidates:
        if ok(point):
            return point
    return None


# --------------------------------------------------------------------------- setup


def _heading_for(edge: str) -> float:
    return {"bottom": 0.0, "top": 180.0, "left": 90.0, "right": 270.0}[edge]


def _deploy(state: ArmadaState, side: str) -> BaseModel | None:
    ships = undeployed_ships(state, side)
    if ships:
        return _deploy_ship(state, side, ships[0])
    count = squadrons_per_turn(state, side)
    if count == 0:
        return None
    return _deploy_squadrons(state, side, undeployed_squadrons(state, side)[:count])


def _deploy_ship(state: ArmadaState, side: str, ship_id: str) -> DeployShip | None:
    from domain.rulesets.armada.setup_phase import decide_ship

    edge = state.scenario.deployment.get(side, "bottom")
    heading = _heading_for(edge)
    zone = deployment_zone(state, side)
    minx, miny, maxx, maxy = zone.bounds
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    card = state.card(ship_id)
    speed = min(2, card.max_speed)
    all_ships = [s.id for s in state.ships.values() if s.side == side]
    n = len(all_ships)
    i = all_ships.index(ship_id)
    along_x = edge in ("bottom", "top")
    span = (maxx - minx) if along_x else (maxy - miny)
    start = (minx if along_x else miny) + span * (i + 1) / (n + 1)
    for shift in [0.0, *(s * k for k in range(1, 12) for s in (60.0, -60.0))]:
        x, y = (start + shift, cy) if along_x else (cx, start + shift)
        command = DeployShip(ship=ship_id, x=x, y=y, heading=heading, speed=speed)
        try:
            decide_ship(state, side, command)
        except WakeError:
            continue
        return command
    return None


def _around(
    centre: tuple[float, float], radii: list[float], steps: int = 24
) -> Iterator[tuple[float, float]]:
    for r in radii:
        for k in range(steps):
            a = 2 * math.pi * k / steps
            yield (centre[0] + r * math.sin(a), centre[1] + r * math.cos(a))


def _deploy_squadrons(
    state: ArmadaState, side: str, squadrons: list[str]
) -> DeploySquadrons | None:
    radius = state.data.geometry.squadron_base_radius
    edge = state.data.geometry.distance_bands[1]
    area = state.data.geometry.play_area
    ships = state.ships_of(side)
    bases = [state.placed(s.id).base for s in state.ships.values() if s.in_play]
    discs = [state.disc(s.id) for s in state.squadrons.values() if s.in_play]
    chosen: dict[str, tuple[float, float]] = {}
    for sq_id in squadrons:

        def ok(p: tuple[float, float]) -> bool:
            disc = Disc(p, radius)
            return (
                not outside_play_area(disc, area)
                and any(within_distance(state.placed(s.id).base, disc, edge) for s in ships)
                and not any(squadron_overlaps(b, disc) for b in bases)
                and not any(discs_overlap(disc, d) for d in discs)
                and not any(discs_overlap(disc, Disc(c, radius)) for c in chosen.values())
            )

        spots = (
            p for ship in ships for p in _around(ship.position, [70.0, 85.0, 100.0, 115.0], 16)
        )
        point = _first_legal(spots, ok)
        if point is None:
            return None
        chosen[sq_id] = (round(point[0], 3), round(point[1], 3))
    return DeploySquadrons(squadrons=chosen)


# --------------------------------------------------------------------------- command phase


def plan_command(state: ArmadaState, ship: ShipState, rounds_ahead: int) -> CommandName:
    """The command the bot puts on a dial revealed ``rounds_ahead`` rounds from now."""
    card = state.card(ship.id)
    missing = sum(getattr(card.shields, z) - ship.shields[z] for z in ZONES)
    if ship.damage or missing >= 2:
        return "repair"
    if ship.speed >= 3 and rounds_ahead <= 1:
        return "navigate"  # fast ships slow down to turn in a 3'×3' play area
    _, distance = nearest_enemy(state, ship)
    expected = distance - CLOSING * rounds_ahead
    if expected <= state.data.geometry.range_bands.long + 100.0:
        return "concentrate_fire"
    near = [sq for sq in state.squadrons_of(ship.side) if in_command_range(state, ship.id, sq.id)]
    if card.squadron >= 2 and len(near) >= 2 and rounds_ahead == 0:
        return "squadron"
    return "navigate"


def _dials(state: ArmadaState, side: str) -> SetDials:
    plan: dict[str, list[CommandName]] = {}
    for ship_id, count in dials_needed(state, side).items():
        ship = state.ships[ship_id]
        plan[ship_id] = [plan_command(state, ship, len(ship.dials) + k) for k in range(count)]
    return seal_dials(state, plan)


# --------------------------------------------------------------------------- ship phase


def own_dial(state: ArmadaState, ship: ShipState) -> CommandName | None:
    """Open the bot's own top dial by trying each command with its salt (None: the dial was
    not sealed by the bot, so it cannot play that ship)."""
    top = ship.dials[0]
    if top.command is not None:  # set openly by an opponent (Comm Noise)
        return top.command
    salt = bot_salt(state, ship.id, top.slot)
    for command in COMMANDS:
        if verify_reveal(
            Commitment(digest=top.digest), dial_content(ship.id, top.slot, command), salt
        ):
            return command
    return None


def _useful(state: ArmadaState, ship: ShipState, command: CommandName) -> bool:
    if command == "squadron":
        return any(
            in_command_range(state, ship.id, sq.id) for sq in ready_squadrons(state, ship.side)
        )
    if command == "repair":
        card = state.card(ship.id)
        return bool(ship.damage) or any(ship.shields[z] < getattr(card.shields, z) for z in ZONES)
    if command == "concentrate_fire":
        _, distance = nearest_enemy(state, ship)
        return distance <= state.data.geometry.range_bands.long + 100.0
    return True


def _wants_to_pass(state: ArmadaState, side: str) -> bool:
    """SWA-PASS (option): spend a pass token when allowed and none of the side's unactivated
    ships has an enemy ship within long range — better to move after the enemy has closed in."""
    if state.options.pass_tokens == "off" or not may_pass(state, side):
        return False
    reach = state.data.geometry.range_bands.long
    for ship in state.ships_of(side):
        if not ship.activated:
            base = state.placed(ship.id).base
            for enemy in _enemy_ships(state, side):
                if distance_between(base, state.placed(enemy.id).base) <= reach:
                    return False
    return True


def _reveal(state: ArmadaState, side: str) -> RevealDial | None:
    ships = [s for s in state.ships_of(side) if not s.activated and s.dials]
    if not ships:
        return None
    ship = min(ships, key=lambda s: (nearest_enemy(state, s)[1], s.id))
    command = own_dial(state, ship)
    if command is None:
        return None
    top = ship.dials[0]
    salt = bot_salt(state, ship.id, top.slot) if top.command is None else ""
    to_token = not _useful(state, ship, command) and command not in ship.tokens
    panic = None
    if must_panic_before_reveal(face_up_effects(state, ship.id)):
        # Crew Panic: take the damage while shields can absorb it, else throw the dial away
        panic = "damage" if max(ship.shields.values()) > 0 else "discard"
    if panic == "discard":
        return RevealDial(ship=ship.id, slot=top.slot, panic="discard")
    return RevealDial(
        ship=ship.id, slot=top.slot, command=command, salt=salt, to_token=to_token, panic=panic
    )


def _activation_step(state: ArmadaState, side: str) -> BaseModel | None:
    activation = state.activation
    assert activation is not None
    ship = state.ships[activation.ship]
    if activation.squadrons > 0:
        order = _command_squadron(state, ship)
        if order is not None:
            return order
    if activation.step == "reveal" and "squadron" not in ship.resolved:
        dial = activation.dial == "squadron"
        token = "squadron" in ship.tokens and _useful(state, ship, "squadron")
        if (dial or token) and _useful(state, ship, "squadron"):
            return SquadronCommand(ship=ship.id, dial=dial, token=token)
    if activation.step == "reveal" and "repair" not in ship.resolved:
        dial = activation.dial == "repair"
        token = "repair" in ship.tokens and _useful(state, ship, "repair")
        if dial or token:
            return _repair(state, ship, dial, token)
    if state.attacks_allowed() and len(activation.attacks) < 2:
        attack = attack_bot.best_attack(state, side)
        if attack is not None:
            return attack
    return _maneuver(state, ship)


def _repair(state: ArmadaState, ship: ShipState, dial: bool, token: bool) -> Repair:
    card = state.card(ship.id)
    points = repair_points(state, ship.id, dial, token)
    shields = dict(ship.shields)
    damage = list(ship.damage)
    effects: list[RepairEffect] = []
    maximum = {z: getattr(card.shields, z) for z in ZONES}
    while points > 0:
        face_up = next((i for i, c in enumerate(damage) if c.face_up), None)
        if points >= 3 and damage and (face_up is not None or len(damage) >= card.hull - 2):
            index = face_up if face_up is not None else 0
            damage.pop(index)
            effects.append(RepairEffect(effect="discard_damage", card=index))
            points -= 3
            continue
        effects_now = dmg_face_up(damage, state.data.damage)
        lacking = [
            z
            for z in ZONES
            if shields[z] < maximum[z] and not shields_locked(effects_now, shields[z])
        ]
        if not lacking:
            break
        zone = min(lacking, key=lambda z: (shields[z] - maximum[z], ZONES.index(z)))
        if points >= 2:
            shields[zone] += 1
            effects.append(RepairEffect(effect="recover_shield", zone=zone))
            points -= 2
            continue
        spare = [
            z for z in ZONES if z != zone and shields[z] > 1 and shields[z] >= shields[zone] + 2
        ]
        if not spare:
            break
        source = max(spare, key=lambda z: (shields[z], -ZONES.index(z)))
        shields[source] -= 1
        shields[zone] += 1
        effects.append(RepairEffect(effect="move_shield", source=source, zone=zone))
        points -= 1
    return Repair(ship=ship.id, dial=dial, token=token, effects=effects)


def quick_final(
    start: Pose, size: Size, tool: ManeuverTool, course: Sequence[int], side: Side
) -> Pose:
    """The final pose of a course, as :func:`.maneuver.execute` computes it, without building
    the tool's shapes (the bot scores many courses; a test keeps the two in step)."""
    local, heading = _course_offset(*_tool_key(size, tool), tuple(course), side)
    wx, wy = start.to_world(local)
    return Pose(wx, wy, start.heading + heading).rounded()


def _tool_key(size: Size, tool: ManeuverTool) -> tuple[float, float, float, float, float, float]:
    """What a course's offset depends on besides the course: the base and the tool (the key of
    :func:`_offset_table` and the first arguments of :func:`_course_offset`)."""
    return (
        size.width,
        size.length,
        tool.width,
        tool.first_segment,
        tool.part_segment,
        tool.click_degrees,
    )


@lru_cache(maxsize=256)
def _offset_table(
    width: float,
    length: float,
    tool_width: float,
    first: float,
    part: float,
    click_degrees: float,
) -> dict[tuple[tuple[int, ...], Side], tuple[tuple[float, float], float]]:
    """Per base and tool, :func:`_course_offset`'s answers by course and side, filled as the
    bot asks (one small key per course instead of the cache's eight arguments)."""
    return {}


@lru_cache(maxsize=4096)
def _course_offset(
    width: float,
    length: float,
    tool_width: float,
    first: float,
    part: float,
    click_degrees: float,
    course: tuple[int, ...],
    side: Side,
) -> tuple[tuple[float, float], float]:
    """Where a course leaves the base centre in the ship's own frame, and the turn: the same
    for every start pose, so computed once per base, tool, course and side."""
    sign = 1.0 if side == "right" else -1.0
    anchor = (sign * (width + tool_width) / 2, length / 2)
    x, y = anchor
    heading = 0.0
    for click in course:
        rad = math.radians(heading)
        x, y = x + first * math.sin(rad), y + first * math.cos(rad)
        heading += click * click_degrees
        rad = math.radians(heading)
        x, y = x + part * math.sin(rad), y + part * math.cos(rad)
    turned = Pose(0.0, 0.0, heading).to_world(anchor)
    return (x - turned[0], y - turned[1]), heading


def _margin(pose: Pose, size: Size, width: float, height: float) -> float:
    """How far the base at ``pose`` keeps from the play area's edges (negative: outside)."""
    w, h = size.width / 2, size.length / 2
    to_world = pose.to_world
    x1, y1 = to_world((-w, -h))
    x2, y2 = to_world((-w, h))
    x3, y3 = to_world((w, -h))
    x4, y4 = to_world((w, h))
    return min(
        min(x1, x2, x3, x4),
        min(y1, y2, y3, y4),
        width - max(x1, x2, x3, x4),
        height - max(y1, y2, y3, y4),
    )


def _clearance(pose: Pose, width: float, height: float) -> float:
    """How far the ship's centre may go straight ahead before leaving the play area."""
    return _clearance_at(pose.x, pose.y, pose.heading, width, height)


def _clearance_at(x: float, y: float, heading: float, width: float, height: float) -> float:
    """:func:`_clearance` of the pose ``(x, y, heading)``."""
    rad = math.radians(heading)
    ux, uy = math.sin(rad), math.cos(rad)
    limits = []
    if ux > 1e-9:
        limits.append((width - x) / ux)
    if ux < -1e-9:
        limits.append(-x / ux)
    if uy > 1e-9:
        limits.append((height - y) / uy)
    if uy < -1e-9:
        limits.append(-y / uy)
    return min(limits) if limits else math.inf


def _course_score(
    state: ArmadaState,
    ship: ShipState,
    pose: Pose,
    size: Size,
    speed: int,
    nearest: tuple[ShipState | None, float] | None = None,
) -> float:
    """A course's value before overlaps: close on the nearest enemy ship to about medium
    range with it ahead, keep clear of the edges, and keep room ahead for next round's move
    at this speed."""
    area = state.data.geometry.play_area
    margin = _margin(pose, size, area.width, area.height)
    if margin < 0:
        return -1e9
    score = -max(0.0, EDGE_MARGIN * 3 - margin) * 2.0
    tool = state.data.geometry.maneuver_tool
    next_move = max(1, speed) * (tool.first_segment + tool.part_segment) + size.length / 2
    room = _clearance(pose, area.width, area.height)
    score -= max(0.0, next_move + EDGE_MARGIN - room) * 4.0
    enemy, _ = nearest if nearest is not None else nearest_enemy(state, ship)
    if enemy is not None:
        ex, ey = enemy.position
        d = math.dist(pose.position, (ex, ey))
        bearing = math.degrees(math.atan2(ex - pose.x, ey - pose.y)) % 360.0
        off = abs((bearing - pose.heading + 180.0) % 360.0 - 180.0)
        score -= abs(d - WANTED) + off * 0.8
    return score


def _scored_courses(
    state: ArmadaState,
    mover: Mover,
    options: Sequence[tuple[int, tuple[int, ...], Side]],
    nearest: tuple[ShipState | None, float],
) -> list[tuple[float, int, tuple[int, ...], Side, float, float, float]]:
    """Each option's ``(value, speed, course, side, x, y, heading)``: the value
    :func:`_course_score` gives :func:`quick_final`'s pose, less 3 at speed 0, and that pose's
    numbers. The same arithmetic in the same order, without a :class:`Pose` object per course
    (the bot scores some fifty courses a maneuver; a test keeps the two in step)."""
    geometry = state.data.geometry
    area, tool, size = geometry.play_area, mover.tool, mover.size
    width, height = area.width, area.height
    start = mover.start
    a, b, d, e, xoff, yoff = start._matrix
    start_heading = start.heading
    hw, hh = size.width / 2, size.length / 2
    segment = tool.first_segment + tool.part_segment
    half_length = size.length / 2
    key = _tool_key(size, tool)
    offsets = _offset_table(*key)
    enemy = nearest[0]
    ex, ey = enemy.position if enemy is not None else (0.0, 0.0)
    isfinite, dist, atan2, degrees = math.isfinite, math.dist, math.atan2, math.degrees
    radians, msin, mcos = math.radians, math.sin, math.cos
    found: list[tuple[float, int, tuple[int, ...], Side, float, float, float]] = []
    append = found.append
    for speed, course, side in options:
        offset = offsets.get((course, side))
        if offset is None:
            offset = offsets[(course, side)] = _course_offset(*key, course, side)
        (lx, ly), turn = offset
        wx, wy, wh = a * lx + b * ly + xoff, d * lx + e * ly + yoff, start_heading + turn
        if not (isfinite(wx) and isfinite(wy) and isfinite(wh)):
            quick_final(start, size, tool, course, side)  # raises as it always did
        # Pose(wx, wy, wh).rounded(): the heading folded into [0, 360) at each Pose made
        x, y = round(wx, POSE_DECIMALS), round(wy, POSE_DECIMALS)
        heading = round(wh % 360.0, HEADING_DECIMALS) % 360.0 % 360.0
        # _margin: the base's corners (-hw, -hh), (-hw, hh), (hw, -hh), (hw, hh) on the play
        # area (Pose.to_world's arithmetic, written out: no list per course)
        cos, sin = _cos_sin(heading)
        x1, x2 = cos * -hw + sin * -hh + x, cos * -hw + sin * hh + x
        x3, x4 = cos * hw + sin * -hh + x, cos * hw + sin * hh + x
        y1, y2 = -sin * -hw + cos * -hh + y, -sin * -hw + cos * hh + y
        y3, y4 = -sin * hw + cos * -hh + y, -sin * hw + cos * hh + y
        margin = min(
            min(x1, x2, x3, x4),
            min(y1, y2, y3, y4),
            width - max(x1, x2, x3, x4),
            height - max(y1, y2, y3, y4),
        )
        if margin < 0:
            value = -1e9
        else:
            value = -max(0.0, EDGE_MARGIN * 3 - margin) * 2.0
            next_move = max(1, speed) * segment + half_length
            # _clearance_at(x, y, heading, width, height), written out
            rad = radians(heading)
            ux, uy = msin(rad), mcos(rad)
            room = math.inf
            if ux > 1e-9:
                room = (width - x) / ux
            elif ux < -1e-9:
                room = -x / ux
            if uy > 1e-9:
                room = min(room, (height - y) / uy)
            elif uy < -1e-9:
                room = min(room, -y / uy)
            value -= max(0.0, next_move + EDGE_MARGIN - room) * 4.0
            if enemy is not None:
                gap = dist((x, y), (ex, ey))
                bearing = degrees(atan2(ex - x, ey - y)) % 360.0
                off = abs((bearing - heading + 180.0) % 360.0 - 180.0)
                value -= abs(gap - WANTED) + off * 0.8
        append((value - (3.0 if speed == 0 else 0.0), speed, course, side, x, y, heading))
    return found


def _penalty(
    state: ArmadaState, ship: ShipState, mover: Mover, pose: Pose, hazards: list[Any]
) -> float:
    """What overlaps at the final position cost: another ship, obstacles that hurt, friendly
    squadrons to be displaced."""
    base = mover.base(pose)
    penalty = 0.0
    if mover.ships_hit(pose):
        penalty += 400.0
    penalty += 150.0 * sum(1 for h in hazards if bases_overlap(base, h))
    own = [state.disc(sq.id) for sq in state.squadrons_of(ship.side)]
    penalty += 30.0 * sum(1 for disc in own if squadron_overlaps(base, disc))
    return penalty


def _maneuver(state: ArmadaState, ship: ShipState) -> Maneuver:
    activation = state.activation
    card = state.card(ship.id)
    nav_dial = activation is not None and activation.dial == "navigate"
    nav_token = "navigate" in ship.tokens
    if "navigate" in ship.resolved:
        nav_dial = nav_token = False
    mover = Mover(state, ship.id)
    hazards = [o for kind, o in obstacle_shapes(state).values() if kind != "station"]
    steps = int(nav_dial) + int(nav_token)
    speeds = [
        s for s in range(ship.speed - steps, ship.speed + steps + 1) if 0 <= s <= card.max_speed
    ]
    effects = face_up_effects(state, ship.id)
    nearest = nearest_enemy(state, ship)  # the same for every course scored
    options: list[tuple[int, tuple[int, ...], Side]] = []
    for speed in speeds:
        for course in courses(damaged_yaw_limits(yaw_limits(card, speed), effects)):
            for side in ("right", "left") if course else ("right",):
                tool_side: Side = "right" if side == "right" else "left"
                options.append((speed, tuple(course), tool_side))
    ranked = _scored_courses(state, mover, options, nearest)
    ranked.sort(key=lambda c: (-c[0], c[1], c[2], c[3]))
    best: tuple[float, int, tuple[int, ...], Side] | None = None
    for value, speed, course, side, x, y, heading in ranked:
        if best is not None and value <= best[0]:
            break  # penalties only lower a value: nothing further down can win
        other: Side = "left" if side == "right" else "right"
        if course and mover.overlaps_tool(course, side) and not mover.overlaps_tool(course, other):
            continue
        total = value - _penalty(state, ship, mover, Pose(x, y, heading), hazards)
        if best is None or total > best[0]:
            best = (total, speed, course, side)
    assert best is not None, "speed 0 is always a legal maneuver"
    _, speed, course, side = best
    change = abs(speed - ship.speed)
    use_dial = nav_dial and change >= 1
    use_token = nav_token and (change == 2 or (change == 1 and not nav_dial))
    return Maneuver(
        ship=ship.id,
        speed=speed,
        clicks=list(course),
        side=side,
        navigate_dial=use_dial,
        navigate_token=use_token,
    )


# --------------------------------------------------------------------------- squadrons


def _target_point(state: ArmadaState, sq_id: str) -> tuple[float, float] | None:
    """Where the squadron would like to go: to just short of the nearest enemy squadron within
    reach (to engage it), else of the nearest enemy ship (to attack it), as far as it can."""
    sq = state.squadrons[sq_id]
    here = sq.position
    radius = state.data.geometry.squadron_base_radius
    reach = move_reach(state, sq_id)
    enemies = sorted(
        (math.dist(here, e.position), e.id) for e in state.squadrons_of(state.other(sq.side))
    )
    if enemies and enemies[0][0] - 2 * radius <= reach + 60.0:
        target = state.squadrons[enemies[0][1]].position
        gap = enemies[0][0] - 2 * radius
    else:
        ships = _enemy_ships(state, sq.side)
        if not ships:
            return None
        bases = {s.id: state.placed(s.id).base for s in ships}
        enemy = min(ships, key=lambda s: (distance_between(bases[s.id], Point(here)), s.id))
        target = enemy.position
        gap = distance_between(bases[enemy.id], Point(here)) - radius
    d = math.dist(here, target)
    travel = min(reach - 0.01, gap - 12.0)
    if d == 0 or travel <= 0:
        return None
    ux, uy = (target[0] - here[0]) / d, (target[1] - here[1]) / d
    return (here[0] + ux * travel, here[1] + uy * travel)


def _move_for(state: ArmadaState, sq_id: str) -> tuple[float, float] | None:
    if engaged_with(state, sq_id):
        return None
    aim = _target_point(state, sq_id)
    if aim is None:
        return None
    here = state.squadrons[sq_id].position
    dx, dy = aim[0] - here[0], aim[1] - here[1]
    for turn in (0, 15, -15, 30, -30, 50, -50):
        for scale in (1.0, 0.75, 0.5, 0.25):
            a = math.radians(turn)
            x = here[0] + scale * (dx * math.cos(a) - dy * math.sin(a))
            y = here[1] + scale * (dx * math.sin(a) + dy * math.cos(a))
            point = (round(x, 3), round(y, 3))
            try:
                check_move(state, sq_id, point)
            except WakeError:
                continue
            if outside_play_area(state.disc(sq_id, point), state.data.geometry.play_area):
                continue
            return point
    return None


def _command_squadron(state: ArmadaState, ship: ShipState) -> ActivateSquadron | None:
    ready = [
        sq for sq in ready_squadrons(state, ship.side) if in_command_range(state, ship.id, sq.id)
    ]
    if not ready:
        return None
    sq = ready[0]
    return ActivateSquadron(squadron=sq.id, move_to=_move_for(state, sq.id))


def _squadron_step(state: ArmadaState) -> BaseModel:
    current = state.squadron_activation
    assert current is not None
    if not current.moved and (current.by_ship is not None or not current.attacked):
        point = _move_for(state, current.squadron)
        if point is not None:
            return MoveSquadron(squadron=current.squadron, x=point[0], y=point[1])
    return EndSquadronActivation(squadron=current.squadron)


def _activate_squadron(state: ArmadaState, side: str) -> ActivateSquadron | None:
    ready = ready_squadrons(state, side)
    if not ready:
        return None
    # the first engaged squadron, else the first ready one: engagement asked only until found
    sq = next((s for s in ready if engaged_with(state, s.id)), ready[0])
    if state.attacks_allowed():
        trial = changed(state, squadron_activation=SquadronActivation(squadron=sq.id))
        if attack_bot.worth_attacking(trial, side):
            return ActivateSquadron(squadron=sq.id)  # attack from where it is
    return ActivateSquadron(squadron=sq.id, move_to=_move_for(state, sq.id))


def _place(state: ArmadaState) -> PlaceSquadrons | None:
    """SWA-OVL: each displaced squadron touching the ship, as near as possible to where it was,
    while the ship has room beside it (:func:`.maneuvering.room_beside`); only then touching a
    squadron that touches the ship."""
    displaced = state.displaced
    assert displaced is not None
    radius = state.data.geometry.squadron_base_radius
    area = state.data.geometry.play_area
    ship_base = state.placed(displaced.ship).base
    bases = [state.placed(s.id).base for s in state.ships.values() if s.in_play]
    discs = [
        state.disc(s.id)
        for s in state.squadrons.values()
        if s.in_play and s.id not in displaced.squadrons
    ]
    chosen: dict[str, tuple[float, float]] = {}
    for sq_id in displaced.squadrons:
        origin = state.squadrons[sq_id].position
        taken = [*discs, *(Disc(c, radius) for c in chosen.values())]

        def ok(p: tuple[float, float], taken: list[Disc] = taken) -> bool:
            disc = Disc(p, radius)
            return (
                not outside_play_area(disc, area)
                and not any(squadron_overlaps(b, disc) for b in bases)
                and not any(discs_overlap(disc, d) for d in taken)
            )

        room = room_beside(state, displaced.ship, taken)
        # the first legal point along the room, nearest the squadron's old place first
        point = _nearest_along(room, origin, ok)
        if point is None and room.is_empty:
            touching = [d.centre for d in taken if distance_between(ship_base, d) <= TOUCH]
            around = (p for c in touching for p in _around(c, [2 * radius + TOUCH / 2], 36))
            point = _first_legal(around, ok)
        if point is None:
            return None
        chosen[sq_id] = (point[0], point[1])
    return PlaceSquadrons(positions=chosen)


def _along(lines: Any, step: float = 2.0) -> list[tuple[float, float]]:
    """Points every ``step`` mm along a (multi)line geometry, its ends included."""
    if lines.is_empty:
        return []
    points: list[tuple[float, float]] = []
    for part in getattr(lines, "geoms", [lines]):
        if part.geom_type == "Point":
            points.append(part.coords[0])
            continue
        n = max(2, math.ceil(part.length / step) + 1)
        # one vectorised call: the same GEOS interpolation as ``part.interpolate`` per point
        spots = shapely.line_interpolate_point(part, [i / (n - 1) for i in range(n)], True)
        points += [(x, y) for x, y in shapely.get_coordinates(spots).tolist()]
    return points


NEAR_SLACK = 1e-6
"""mm: more than :func:`_rough_along`'s points can differ from GEOS's (about 1e-12 mm on a
table of a metre), so a point this much nearer than another's rough distance is nearer."""


def _nearest_along(
    lines: Any,
    origin: tuple[float, float],
    ok: Callable[[tuple[float, float]], bool],
    step: float = 2.0,
) -> tuple[float, float] | None:
    """The first point ``p`` with ``ok(p)`` of :func:`_along`'s points ordered by
    ``(math.dist(p, origin), p)``, or None: the same point, without GEOS interpolating every
    point along the room (a few hundred, most of a placement's time). Every point's distance is
    first estimated from a rough interpolation (:func:`_rough_along`); GEOS's own points are
    then computed for the nearest few, and one of them is taken in order only while it is
    nearer than every point not computed can be (their rough distance less
    :data:`NEAR_SLACK`); otherwise more are computed."""
    if lines.is_empty:
        return None
    parts = list(getattr(lines, "geoms", [lines]))
    where: list[tuple[int, float]] = []  # each point's part and fraction, in _along's order
    rough: list[np.ndarray] = []
    for k, part in enumerate(parts):
        if part.geom_type == "Point":
            where.append((k, -1.0))
            rough.append(np.asarray(part.coords[0], dtype=float).reshape(1, 2))
            continue
        n = max(2, math.ceil(part.length / step) + 1)
        fractions = [i / (n - 1) for i in range(n)]
        where += [(k, f) for f in fractions]
        rough.append(_rough_along(np.asarray(part.coords, dtype=float), fractions))
    points = np.concatenate(rough)
    gaps = np.hypot(points[:, 0] - origin[0], points[:, 1] - origin[1])
    order = np.argsort(gaps, kind="stable").tolist()
    total = len(order)
    exact: dict[int, tuple[float, float]] = {}
    count = min(total, 16)
    while True:
        wanted: dict[int, list[int]] = {}
        for i in order[:count]:
            if i not in exact:
                wanted.setdefault(where[i][0], []).append(i)
        for k, indices in wanted.items():
            part = parts[k]
            if part.geom_type == "Point":
                exact[indices[0]] = part.coords[0]
                continue
            fractions = [where[i][1] for i in indices]
            spots = shapely.line_interpolate_point(part, fractions, normalized=True)
            coords = shapely.get_coordinates(spots).tolist()
            for i, (x, y) in zip(indices, coords, strict=True):
                exact[i] = (x, y)
        bound = float(gaps[order[count]]) - NEAR_SLACK if count < total else math.inf
        keyed = sorted((math.dist(exact[i], origin), exact[i]) for i in order[:count])
        for gap, point in keyed:
            if gap >= bound:
                break  # a point not computed yet may come first
            if ok(point):
                return point
        else:
            if count == total:
                return None
        count = min(total, count * 4)


def _rough_along(coords: np.ndarray, fractions: Sequence[float]) -> np.ndarray:
    """Points at ``fractions`` of a line's length (as ``line_interpolate_point`` with
    ``normalized``), by numpy: within a hair of GEOS's (:data:`NEAR_SLACK`), not equal."""
    steps = np.hypot(*(coords[1:] - coords[:-1]).T)
    ends = np.concatenate(([0.0], np.cumsum(steps)))
    at = np.asarray(fractions) * ends[-1]
    seg = np.clip(np.searchsorted(ends, at, side="right") - 1, 0, len(steps) - 1)
    length = steps[seg]
    t = np.divide(at - ends[seg], length, out=np.zeros_like(at), where=length > 0)
    start, end = coords[seg], coords[seg + 1]
    found: np.ndarray = start + (end - start) * np.clip(t, 0.0, 1.0)[:, None]
    return found


# --------------------------------------------------------------------------- legal samples


def candidates(state: ArmadaState, side: str | None) -> list[BaseModel]:
    """Orders to try for ``legal_commands``: the bot's own, and other ways to go on (every
    ship's top dial when the bot can open it, each ready squadron without moving, a straight
    maneuver at each speed the ship may take, ending a squadron's activation)."""
    found: list[BaseModel] = []
    own = bot_command(state, side)
    if own is not None:
        found.append(own)
    if side is None or side not in to_act(state):
        return found
    if state.obstacle_choice is not None:
        return [*found, *(c for c in obstacle_choices(state) if c not in found)]
    if state.phase == "ship" and state.activation is None and state.displaced is None:
        for ship in state.ships_of(side):
            if ship.activated or not ship.dials:
                continue
            top = ship.dials[0]
            salt = bot_salt(state, ship.id, top.slot)
            for command in COMMANDS:
                content = dial_content(ship.id, top.slot, command)
                if verify_reveal(Commitment(digest=top.digest), content, salt):
                    found.append(
                        RevealDial(ship=ship.id, slot=top.slot, command=command, salt=salt)
                    )
                    found.append(
                        RevealDial(
                            ship=ship.id, slot=top.slot, command=command, salt=salt, to_token=True
                        )
                    )
    if state.phase == "ship" and state.activation is not None and state.squadron_activation is None:
        ship = state.ships[state.activation.ship]
        for speed in range(state.card(ship.id).max_speed + 1):
            for side_ in ("right", "left"):
                found.append(Maneuver(ship=ship.id, speed=speed, clicks=[0] * speed, side=side_))
    if state.squadron_activation is None and state.displaced is None:
        for sq in ready_squadrons(state, side):
            found.append(ActivateSquadron(squadron=sq.id))
    if state.squadron_activation is not None:
        found.append(EndSquadronActivation(squadron=state.squadron_activation.squadron))
    return found
