"""Iron & Oak movement: orders that hold a ship, path checks, the movement roll and hazards.

Rules covered: IO-4.0 (who may move, drift or neither), IO-4.1/4.2 (anchor, weigh), IO-5.0 and
IO-5.1.1-5.1.6 (paths and the movement roll), IO-5.3 (towing: no Maneuver 2, tow modifier, the
towed ship follows and checks its own hazards, IO-5.4), IO-5.4.1-5.4.3 (shallows, hulks and
obstructions, mines; a mine's hits can sink the ship, IO-6.2.3J) and the Steering critical's
one-direction moves (IO-6.3.17).

Everything here is a pure function of the state: nothing is mutated, rolls come back as
``DiceRolled`` events followed by the Iron & Oak events that record what they meant, and
:func:`apply` folds those events into a new state.

Readings of unclear rules ([AMBIG]) are marked where they are made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Literal

from domain.board import GridBoard
from domain.chance import opposed_roll, table_roll
from domain.dice import DiceSource, Modifier
from domain.errors import IllegalCommand
from domain.events import DiceRolled, DomainEvent
from domain.rulesets.iron_oak.basics import Direction, Side
from domain.rulesets.iron_oak.criticals import STEERING_HORIZONTAL, STEERING_VERTICAL
from domain.rulesets.iron_oak.events import HazardChecked, ShipMoved
from domain.rulesets.iron_oak.gunnery import sink
from domain.rulesets.iron_oak.state import (
    Cell,
    IronOakState,
    ShipState,
    cell_key,
    fold_all,
)
from domain.words import possessive

Maneuver = Literal[0, 1, 2]
# "towed": towed by a working tower, the ship goes where the tower takes it (IO-5.3)
MoveReason = Literal["move", "drift", "stuck", "towed"]
DriftWhenFouledWith = Literal["movable_enemy", "immobile_enemy"]

# Fouling markers that are not ships (IO-4.0: fouled with these, a ship neither moves nor drifts).
OBSTACLES = ("hulk", "obstruction", "heavy_obstruction")

# Critical movement modifiers the seed gives as plain numbers (IO-6.3.6, IO-6.3.13, IO-6.3.16).
ENGINE_DAMAGED_MOVEMENT = -2
RUDDER_MOVEMENT = -4
SMOKESTACK_MOVEMENT = -2

# Grid steps per direction: column grows to the E, row grows to the S (row 0 is the N edge).
STEPS: dict[Direction, Cell] = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}
_COMPASS: tuple[Direction, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


# --------------------------------------------------------------------------- helpers


def _ship(state: IronOakState, ship: str) -> ShipState:
    if ship not in state.ships:
        raise IllegalCommand(f"there is no ship {ship!r}", rule="IO-5.0")
    return state.ships[ship]


def _side(ship: ShipState) -> Side:
    """The side a ship fights for: a captured ship belongs to its captor (IO-6.2.3I)."""
    return ship.captured_by or ship.side


def _other(side: Side) -> Side:
    return "USA" if side == "CSA" else "CSA"


def board(state: IronOakState) -> GridBoard:
    grid = state.scenario.grid
    return GridBoard(columns=grid.columns, rows=grid.rows)


def _here(ship: ShipState, rule: str) -> Cell:
    if ship.cell is None:
        raise IllegalCommand(f"{ship.id} is off the map", rule=rule)
    return ship.cell


def immobile(ship: ShipState) -> bool:
    """Cannot move and does not drift (IO-4.0): anchored, aground, fouled with an obstacle.

    [AMBIG] "Immobile" (IO-5.3, IO-5.6.4) is read as exactly IO-4.0's first list, plus a ship
    that is no longer afloat. An unpowered ship still drifts, so it is not immobile.
    """
    return (
        not ship.afloat
        or ship.anchored
        or ship.aground
        or any(f in OBSTACLES for f in ship.fouled_with)
    )


def _fouled_ships(state: IronOakState, ship: ShipState) -> list[ShipState]:
    return [state.ships[f] for f in ship.fouled_with if f in state.ships]


def _tow_partners(state: IronOakState, ship: ShipState) -> list[ShipState]:
    """The ship it tows and the ship towing it (IO-5.3), when they are in the game."""
    return [
        state.ships[x] for x in (ship.towing, ship.towed_by) if x is not None and x in state.ships
    ]


def _working_tower(state: IronOakState, ship: ShipState) -> bool:
    """Towed by a ship that is afloat, powered and not immobile: it takes the towed ship along."""
    if ship.towed_by is None or ship.towed_by not in state.ships:
        return False
    tower = state.ships[ship.towed_by]
    return tower.afloat and tower.powered and not immobile(tower)


# --------------------------------------------------------------------------- orders (IO-4)


def check_anchor(state: IronOakState, ship: str) -> None:
    """IO-4.1: anchor only in a GB of depth 4 or less, and not when already anchored."""
    s = _ship(state, ship)
    cell = _here(s, "IO-4.1")
    if s.anchored:
        raise IllegalCommand(f"{ship} is already anchored", rule="IO-4.1")
    depth = state.box(cell).depth
    if depth > 4:
        raise IllegalCommand(
            f"{ship} cannot anchor in {cell}: depth {depth} is over 4", rule="IO-4.1"
        )


def check_weigh(state: IronOakState, ship: str) -> None:
    """IO-4.2: only an anchored ship can weigh anchor."""
    if not _ship(state, ship).anchored:
        raise IllegalCommand(f"{ship} is not anchored", rule="IO-4.2")


def can_move(
    state: IronOakState,
    ship: str,
    drift_when_fouled_with: DriftWhenFouledWith = "movable_enemy",
) -> tuple[bool, MoveReason]:
    """IO-4.0: may the ship move (``"move"``), must it drift (``"drift"``), does it go with its
    tower (``"towed"``) or neither (``"stuck"``)? Checked in this order:

    * anchored, aground, or fouled with a hulk or obstruction: stuck (IO-4.0);
    * towing, or towed by, a ship that is immobile: stuck (IO-5.3 "if either ship becomes
      immobile, neither moves"), so the pair does not drift either;
    * towed by a ship that is afloat, powered and not immobile: ``"towed"`` (IO-5.3): it neither
      moves by itself nor drifts, even without power; it follows its tower, and may only take
      Maneuver 0 (:func:`check_path`). [AMBIG] This holds even when it is also fouled with a
      ship;
    * without power (Boiler or Engine-Stopped critical): drift (IO-4.0, IO-5.2);
    * fouled with another ship: never a free move. [AMBIG] IO-4.0 says it drifts when fouled
      with an enemy that *cannot* move, IO-5.2 when fouled with a *movable* enemy. The option
      picks which of the two drifts; in the other case the ship is stuck. The default follows
      IO-5.2, which IO-5.6.4 supports ("both drift until ... one is immobile").
    """
    s = _ship(state, ship)
    if immobile(s):
        return False, "stuck"
    if any(immobile(partner) for partner in _tow_partners(state, s)):
        return False, "stuck"
    if _working_tower(state, s):
        return False, "towed"
    if not s.powered:
        return False, "drift"
    fouled = _fouled_ships(state, s)
    if fouled:
        any_immobile = any(immobile(other) for other in fouled)
        drifts = any_immobile if drift_when_fouled_with == "immobile_enemy" else not any_immobile
        return False, "drift" if drifts else "stuck"
    return True, "move"


# --------------------------------------------------------------------------- paths (IO-5.0/5.1)


def check_path(
    state: IronOakState,
    ship: str,
    path: Sequence[Cell],
    maneuver: Maneuver,
    drift_when_fouled_with: DriftWhenFouledWith = "movable_enemy",
) -> None:
    """Refuse an illegal move order with the rule it breaks (IO-4.0, IO-5.0, IO-5.1.4-6, IO-5.3,
    IO-6.3.17).

    ``path[0]`` is the ship's box. Maneuver 0 is the path of one box; Maneuver 1 one step to a
    neighbouring box; Maneuver 2 exactly two steps ending two boxes away, with at most one
    diagonal step and no diagonal squeeze between two boxes holding afloat enemy ships. A
    towing ship cannot use Maneuver 2; a towed ship (:func:`can_move` ``"towed"``) only takes
    Maneuver 0, staying with its tower (IO-5.3); a bank cannot be entered. A ship with a
    Steering critical moves only vertically (the column never changes) or only horizontally
    (the row never changes), as the marker's level says (IO-6.3.17; a level of 0, direction
    unknown, restricts nothing). Entering or leaving the map is not handled here.
    """
    s = _ship(state, ship)
    movable, reason = can_move(state, ship, drift_when_fouled_with)
    if reason == "towed" and maneuver != 0:
        raise IllegalCommand(
            f"{ship} is towed by {s.towed_by} and moves with it (Maneuver 0 only)", rule="IO-5.3"
        )
    if not movable and reason != "towed":
        raise IllegalCommand(f"{ship} cannot move this turn ({reason})", rule="IO-4.0")
    here = _here(s, "IO-5.1.5")
    if maneuver not in (0, 1, 2):
        raise IllegalCommand(f"there is no Maneuver {maneuver!r}", rule="IO-5.0")
    if not path or tuple(path[0]) != here:
        start = tuple(path[0]) if path else None
        raise IllegalCommand(
            f"the path must start in {possessive(ship)} box {here}, not {start}", rule="IO-5.0"
        )
    cells = [(int(c), int(r)) for c, r in path]
    if maneuver == 0:
        if len(cells) != 1:
            raise IllegalCommand(
                f"Maneuver 0 stays in {here}: the path must be that box alone, got {cells}",
                rule="IO-5.1.4",
            )
        return
    if maneuver == 2 and s.towing is not None:
        raise IllegalCommand(
            f"{ship} is towing {s.towing} and cannot use Maneuver 2", rule="IO-5.3"
        )
    rule = "IO-5.1.5" if maneuver == 1 else "IO-5.1.6"
    grid = board(state)
    if len(cells) != maneuver + 1:
        raise IllegalCommand(
            f"Maneuver {maneuver} takes exactly {maneuver} step(s), the path has {len(cells) - 1}",
            rule=rule,
        )
    problem = grid.validate_path(cells, max_steps=maneuver, max_diagonals=1)
    if problem is not None:
        raise IllegalCommand(f"{ship}: {problem}", rule=rule)
    if maneuver == 2 and grid.distance(cells[0], cells[-1]) != 2:
        raise IllegalCommand(
            f"{ship}: Maneuver 2 must end two boxes away; {cells[-1]} is "
            f"{grid.distance(cells[0], cells[-1])} from {cells[0]}",
            rule=rule,
        )
    for i in range(1, len(cells)):
        if state.box(cells[i]).bank:
            raise IllegalCommand(
                f"{ship}: step {i} {cells[i - 1]}->{cells[i]} enters a bank", rule="IO-5.0"
            )
    _check_steering(s, cells)
    if maneuver == 2:
        # [AMBIG] the squeeze ban is written under Maneuver 2 only (IO-5.1.6), so a single
        # diagonal step of Maneuver 1 is not checked.
        side = _side(s)

        def enemy_at(cell: Cell) -> bool:
            return any(_side(o) != side for o in state.ships_in(cell))

        for i in range(1, len(cells)):
            if grid.diagonal_squeeze(cells[i - 1], cells[i], enemy_at):
                raise IllegalCommand(
                    f"{ship}: step {i} {cells[i - 1]}->{cells[i]} squeezes diagonally between "
                    f"two boxes holding enemy ships",
                    rule="IO-5.1.6",
                )


def _check_steering(s: ShipState, cells: Sequence[Cell]) -> None:
    """IO-6.3.17: with a Steering critical every step keeps the column (vertical only) or the
    row (horizontal only); a diagonal step breaks either."""
    steering = s.criticals.get("steering")
    if steering is None or steering.level not in (STEERING_VERTICAL, STEERING_HORIZONTAL):
        return
    vertical = steering.level == STEERING_VERTICAL
    for i, (a, b) in enumerate(pairwise(cells), start=1):
        if (a[0] != b[0]) if vertical else (a[1] != b[1]):
            only = "vertically (N/S)" if vertical else "horizontally (E/W)"
            raise IllegalCommand(
                f"{s.id} has a Steering critical and may move only {only}: step {i} {a}->{b}",
                rule="IO-6.3.17",
            )


# --------------------------------------------------------------------------- modifiers


def _step_direction(a: Cell, b: Cell) -> Direction:
    step = (b[0] - a[0], b[1] - a[1])
    for name, vec in STEPS.items():
        if vec == step:
            return name
    raise ValueError(f"{a}->{b} is not a single step")


def _current_modifier(state: IronOakState, path: Sequence[Cell]) -> Modifier | None:
    """IO-5.1.2, with the current of the origin box.

    With the current: every step goes in the current's direction. Against it: some step goes
    toward the box the current comes from, dead ahead or either forward diagonal (the three
    directions within 45° of the current's source).
    """
    if len(path) < 2:
        return None
    current = state.box(path[0]).current
    if current is None:
        return None
    table = state.data.tables.current
    steps = [_step_direction(a, b) for a, b in pairwise(path)]
    flow = _COMPASS.index(current.direction)
    source = (flow + 4) % 8
    against = {_COMPASS[(source + k) % 8] for k in (-1, 0, 1)}
    what = f"{current.strength} current flowing {current.direction}"
    if all(step == current.direction for step in steps):
        value = table.rapid_with if current.strength == "rapid" else table.moderate_with
        return Modifier(value, "IO-5.1.2", f"with the {what}")
    if any(step in against for step in steps):
        value = table.rapid_against if current.strength == "rapid" else table.moderate_against
        return Modifier(value, "IO-5.1.2", f"against the {what}")
    return None


def move_modifiers(state: IronOakState, ship: str, path: Sequence[Cell]) -> list[Modifier]:
    """The modifiers to the ship's movement roll along ``path`` (zero values left out)."""
    s = _ship(state, ship)
    card = state.card(ship)
    table = state.data.tables
    mods: list[Modifier] = []
    if s.crew_damage >= card.crew.light:
        mods.append(Modifier(table.modifiers.crew_light_movement, "IO-6.2.3G", "light crew damage"))
    if "captain" in s.criticals:
        mods.append(Modifier(table.modifiers.captain, "IO-6.3.3", "Captain critical"))
    if "engine_damaged" in s.criticals:
        mods.append(Modifier(ENGINE_DAMAGED_MOVEMENT, "IO-6.3.6", "Engine-Damaged critical"))
    if "rudder" in s.criticals:
        mods.append(Modifier(RUDDER_MOVEMENT, "IO-6.3.13", "Rudder critical"))
    speed = s.criticals.get("speed")
    if speed is not None:
        # the marker's value; a marker without one counts −1 per occurrence, at most −2
        level = speed.level if speed.level else -min(speed.count, 2)
        mods.append(Modifier(level, "IO-6.3.15", f"Speed critical {level}"))
    if "smokestack" in s.criticals:
        mods.append(Modifier(SMOKESTACK_MOVEMENT, "IO-6.3.16", "Smokestack destroyed"))
    if s.fire in table.fire.levels:
        mods.append(
            Modifier(table.fire.levels[s.fire].movement, "IO-3.1.2", f"level-{s.fire} fire")
        )
    if s.opposed:
        mods.append(Modifier(table.modifiers.opposed, "IO-5.1.3", "Opposed marker"))
    current = _current_modifier(state, path)
    if current is not None:
        mods.append(current)
    if s.towing is not None and s.towing in state.ships:
        tower = card.hit_value
        rule = "IO-5.3"
        if state.options.tugs and "tug" in card.icons:
            tower, rule = 2 * tower, "IO-9.2"  # optional: tugs count double hit value
        diff = tower - state.card(s.towing).hit_value
        mods.append(
            Modifier(table.tow.modifier(diff), rule, f"towing {s.towing} (hit value diff {diff})")
        )
    mods += state.card_modifiers(ship, "movement")  # IO-7.0: movement cards played on it
    return [m for m in mods if m.value != 0]


# --------------------------------------------------------------------------- hazards (IO-5.4)


def heavily_damaged(state: IronOakState, ship: str) -> bool:
    """IO-3.5.1: hits at the 3rd Movement Chart row."""
    return state.ships[ship].hits >= state.card(ship).heavy_damage_at


def effective_draft(state: IronOakState, ship: str) -> int:
    """IO-5.4.1 with IO-6.2.3F: the card's draft, +1 when heavily damaged."""
    draft = state.card(ship).draft
    if heavily_damaged(state, ship):
        draft += state.data.tables.modifiers.heavy_damage_draft
    return draft


def torpedo_damage(
    dice: DiceSource,
    column: Mapping[int, int],
    *,
    side: str | None,
    purpose: str,
    rule: str,
    subject: str | None,
    target_unit: str | None,
) -> DiceRolled:
    """A d8 on a column of the torpedo damage table: face -> hits (IO-5.4.3, IO-5.6.2)."""
    return table_roll(
        dice,
        expression="d8",
        table=lambda face: (f"{column[face]} hits", column[face]),
        side=side,
        purpose=purpose,
        rule=rule,
        subject=subject,
        target_unit=target_unit,
    )


def check_hazards(
    state: IronOakState, ship: str, cell: Cell, dice: DiceSource
) -> list[DomainEvent]:
    """IO-5.4: the hazard checks of one ship in one box, in the order shallows, hulks and
    obstructions, then each mine. Each check is its ``DiceRolled``(s) then a ``HazardChecked``.

    [AMBIG] A check that ends the move (grounding, a mine going off) stops the remaining checks
    in that box. Fouling also ends the move, as a ship fouled with an obstacle cannot move
    (IO-4.0). All hulks and obstructions of a box make one check.
    """
    s = _ship(state, ship)
    side = _side(s)
    opponent = _other(side)
    hazards = state.data.tables.hazard
    box = state.box(cell)
    events: list[DomainEvent] = []
    cards = state.card_modifiers(ship, "hazard")  # IO-7.0: e.g. a card hindering hazard checks

    excess = effective_draft(state, ship) - box.depth
    if excess >= 1:
        roll = opposed_roll(
            dice,
            actor=hazards.shallows.dice_for(excess),
            opponent=hazards.shallows.against,
            side=side,
            opponent_side=opponent,
            purpose="shallows",
            rule="IO-5.4.1",
            subject=ship,
            actor_modifiers=cards,
        )
        ok = bool(roll.success)
        events += [
            roll,
            HazardChecked(
                ship=ship,
                cell=cell,
                hazard="shallows",
                passed=ok,
                effect="none" if ok else "aground",
                ends_move=not ok,
            ),
        ]
        if not ok:
            return events

    hulks = box.markers.count("hulk")
    heavy = "heavy_obstruction" in box.markers
    obstruction = "obstruction" in box.markers
    if hulks or heavy or obstruction:
        kind: Literal["hulk", "obstruction", "heavy_obstruction"] = (
            "heavy_obstruction" if heavy else "obstruction" if obstruction else "hulk"
        )
        mods: list[Modifier] = []
        if heavy:
            mods.append(Modifier(hazards.hulk.heavy_obstruction, "IO-5.4.2", "heavy obstruction"))
        # [AMBIG] the first obstacle of the box is free; every further hulk is "extra"
        extra = hulks - (0 if heavy or obstruction else 1)
        if extra > 0:
            mods.append(
                Modifier(hazards.hulk.per_extra_hulk * extra, "IO-5.4.2", f"{extra} extra hulk(s)")
            )
        roll = opposed_roll(
            dice,
            actor=hazards.hulk.roll,
            opponent=hazards.hulk.against,
            side=side,
            opponent_side=opponent,
            purpose=kind.replace("_", " "),
            rule="IO-5.4.2",
            subject=ship,
            actor_modifiers=[m for m in mods if m.value != 0] + cards,
        )
        ok = bool(roll.success)
        events += [
            roll,
            HazardChecked(
                ship=ship,
                cell=cell,
                hazard=kind,
                passed=ok,
                effect="none" if ok else "fouled",
                ends_move=not ok,
            ),
        ]
        if not ok:
            return events

    mine_column = state.data.tables.torpedo.mine
    for _ in range(box.markers.count("mine")):
        roll = opposed_roll(
            dice,
            actor=hazards.mine.roll,
            opponent=hazards.mine.against,
            side=side,
            opponent_side=opponent,
            purpose="mine",
            rule="IO-5.4.3",
            subject=ship,
            actor_modifiers=cards,
        )
        events.append(roll)
        if roll.success:
            events.append(
                HazardChecked(ship=ship, cell=cell, hazard="mine", passed=True, effect="none")
            )
            continue
        damage = torpedo_damage(
            dice,
            mine_column,
            side=opponent,
            purpose="mine damage",
            rule="IO-5.4.3",
            subject=None,
            target_unit=ship,
        )
        events += [
            damage,
            HazardChecked(
                ship=ship,
                cell=cell,
                hazard="mine",
                passed=False,
                effect="mine",
                hits=int(damage.value),
                ends_move=True,
            ),
        ]
        return events
    return events


def ends_move(events: Sequence[DomainEvent]) -> bool:
    return any(isinstance(e, HazardChecked) and e.ends_move for e in events)


# --------------------------------------------------------------------------- the move


def _attached(state: IronOakState, tower: str, towed: str) -> bool:
    """``towed`` is still afloat and in ``tower``'s tow."""
    t = state.ships[towed]
    return t.afloat and t.towed_by == tower


def resolve_move(
    state: IronOakState,
    ship: str,
    path: Sequence[Cell],
    maneuver: Maneuver,
    dice: DiceSource,
    drift_when_fouled_with: DriftWhenFouledWith = "movable_enemy",
) -> list[DomainEvent]:
    """IO-5.1.1: check the order, then roll and check hazards.

    Order of events (and of dice drawn):

    1. hazards of the origin box (IO-5.4; for Maneuver 0 these are the only rolls, IO-5.1.4).
       If one ends the move the ship stays put and there is no movement roll. Otherwise, for
       Maneuver 1 or 2 of a towing ship, the towed ship's hazards in its box with its own draft
       (IO-5.4 "linked ships each check"); if one ends its move and it is still in the tow
       (grounded, fouled, a mine that did not sink it), neither ship moves (IO-5.3) and there
       is no movement roll;
    2. the movement roll: the Movement Chart dice for the ship's hits against the Movement
       Opposition dice of the maneuver, with :func:`move_modifiers`, results floored at 1; a
       strictly higher result succeeds (IO-1.6.1.A/B);
    3. on success, hazards of the destination box (IO-5.4 names only the origin and the
       destination, so the middle box of Maneuver 2 is not checked), first the tower's, then,
       if the tow still holds (the tower did not sink), the towed ship's with its own draft;
    4. ``ShipMoved``: on success the towed ship goes to the destination with its tower.

    A towed ship that grounds or fouls in the destination stops there, with its tower, and the
    tow is *not* released: [AMBIG] IO-5.3 "if either ship becomes immobile, neither moves"
    keeps both in place (:func:`can_move` ``"stuck"``) and IO-4.3.1 gives +2 to the refloat of
    an aground ship a friendly ship is attached to; the owner may release the tow at the start
    of the Order Phase (IO-5.3). For Maneuver 0 the towed ship's box is not checked here: it
    checks its own hazards when it carries out its own order (Maneuver 0, IO-5.1.4).
    """
    check_path(state, ship, path, maneuver, drift_when_fouled_with)
    s = state.ships[ship]
    cells = [(int(c), int(r)) for c, r in path]
    here = cells[0]
    events: list[DomainEvent] = list(check_hazards(state, ship, here, dice))
    if maneuver == 0:
        return [*events, ShipMoved(ship=ship, path=cells, success=True)]
    towed = s.towing if s.towing is not None and s.towing in state.ships else None
    if ends_move(events):
        # [AMBIG] the tower stays put, so its towed ship does not leave the box either
        return [*events, ShipMoved(ship=ship, path=cells, success=False)]
    if towed is not None and _attached(state, ship, towed):
        towed_cell = state.ships[towed].cell or here
        checks = check_hazards(fold_all(state, events, apply), towed, towed_cell, dice)
        events += checks
        if ends_move(checks) and _attached(fold_all(state, events, apply), ship, towed):
            return [*events, ShipMoved(ship=ship, path=cells, success=False)]
    opposition = state.data.tables.movement_opposition
    side = _side(s)
    roll = opposed_roll(
        dice,
        actor=state.card(ship).movement_dice(s.hits),
        opponent=opposition.maneuver_1 if maneuver == 1 else opposition.maneuver_2,
        side=side,
        opponent_side=_other(side),
        purpose="movement",
        rule="IO-5.1.1",
        subject=ship,
        actor_modifiers=move_modifiers(state, ship, cells),
        floor=1,
    )
    events.append(roll)
    if roll.success:
        events += check_hazards(fold_all(state, events, apply), ship, cells[-1], dice)
        scratch = fold_all(state, events, apply)
        if towed is not None and _attached(scratch, ship, towed):
            events += check_hazards(scratch, towed, cells[-1], dice)
    return [*events, ShipMoved(ship=ship, path=cells, success=bool(roll.success))]


# --------------------------------------------------------------------------- folding


def _update(state: IronOakState, ship: ShipState, **changes: object) -> IronOakState:
    ships = dict(state.ships)
    ships[ship.id] = ship.model_copy(update=changes)
    return state.model_copy(update={"ships": ships})


def _moved(state: IronOakState, event: ShipMoved) -> IronOakState:
    s = state.ships[event.ship]
    if len(event.path) < 2 or not s.afloat:  # Maneuver 0, or sunk on the way: nothing changes
        return state
    changes: dict[str, object] = {"opposed": False}  # the Opposed −1 is spent (IO-5.1.3)
    if event.success:
        changes["cell"] = event.path[-1]
        changes["smoke"] = "none"  # IO-5.1.5, IO-5.1.6: success removes the smoke marker
    state = _update(state, s, **changes)
    if event.success and s.towing is not None and s.towing in state.ships:
        # IO-5.3: the towed ship stays in line with its tower
        state = _update(state, state.ships[s.towing], cell=event.path[-1])
    return state


def _hazard(state: IronOakState, event: HazardChecked) -> IronOakState:
    s = state.ships[event.ship]
    if event.effect == "aground":
        return _update(state, s, aground=True)
    if event.effect == "fouled":
        return _update(state, s, fouled_with=(*s.fouled_with, event.hazard))
    if event.effect == "mine":
        cell: Cell = (event.cell[0], event.cell[1])
        markers: list[str] = list(state.box(cell).markers)
        if "mine" in markers:
            markers.remove("mine")
        all_markers = dict(state.markers)
        all_markers[cell_key(cell)] = tuple(markers)
        state = state.model_copy(update={"markers": all_markers})
        shields = dict(s.shields)
        shields["WL"] = state.data.tables.damage_chart.shield_floor  # IO-5.4.3
        hits = s.hits + event.hits
        ships = dict(state.ships)
        ships[s.id] = s.model_copy(update={"hits": hits, "shields": shields})
        if s.afloat and hits >= state.card(s.id).hit_value:
            # IO-6.2.3J: it sinks in the mine's box (a destination box is reached before its
            # ShipMoved is folded), with gunnery's handling of markers, tows and the Hulk
            ships[s.id] = ships[s.id].model_copy(update={"cell": cell})
            return sink(state, s.id, ships)
        return state.model_copy(update={"ships": ships})
    return state


def apply(state: IronOakState, event: DomainEvent) -> IronOakState:
    """Fold a movement event into a new state; other events (rolls) leave the state as is.

    A mine's hits that reach the card's hit value sink the ship (IO-5.4.3, IO-6.2.3J).
    """
    if isinstance(event, ShipMoved):
        return _moved(state, event)
    if isinstance(event, HazardChecked):
        return _hazard(state, event)
    return state
