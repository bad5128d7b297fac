"""Iron & Oak maneuvers: drift, refloat, unfoul, towing, Crossing the T, ram and spar torpedo.

Rules covered: IO-5.2 (drift), IO-4.3 / IO-4.3.1 / IO-4.3.2 (refloat), IO-4.4 (unfoul), IO-5.3
(attaching and releasing a tow), IO-5.5 / IO-5.5.1 / IO-5.5.2 (Crossing the T), IO-5.6 /
IO-5.6.1-5.6.5 (ram and spar: hazards, contact, spar, ram, fouling, aftermath), and the bars of
IO-6.3.12 (Ram −5), IO-6.3.13 (Rudder), IO-6.3.14 (spar destroyed), IO-6.3.17 (Steering).

Everything is a pure function of the state. Rolls come back as ``DiceRolled`` events followed by
the events below, which record what the rolls meant; :func:`apply` folds them into a new state.
Criticals are *named* in the events (``critical``, ``wl_column_roll``) but not placed here: the
criticals slice applies them.

What the caller tracks (the state has no memory of previous turns):

* the ships that failed to cross a target's T last turn (IO-5.5), passed to
  :func:`check_cross_t` as ``failed_last_turn``;
* the targets a ship rammed or spar-attacked last turn (IO-5.6.5 "may not ram or spar the same
  target next turn"), passed to :func:`check_ram` as ``attacked_last_turn``;
* who placed an Opposed marker (IO-5.1.3), passed as ``opposed_by``: the −1 of the marker does not
  apply to a ram, spar or Crossing the T against the opposing ship;
* "first Order Phase fouled with a movable ship" for :func:`unfoul` (IO-4.4);
* the Point Blank range of IO-5.6.5 in the next gunnery segment.

The new event classes are defined here for now; the lead will move them to ``events.py``.
Readings of unclear rules are marked [AMBIG] where they are made.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Literal

from domain.chance import opposed_roll, table_roll
from domain.dice import DiceSource, Modifier, modified_distribution, p_at_least_times, parse
from domain.errors import IllegalCommand
from domain.events import DiceRolled, DomainEvent
from domain.rulesets.iron_oak import movement
from domain.rulesets.iron_oak.data import Edge, Side
from domain.rulesets.iron_oak.events import (
    ContactRolled,
    CrossTAttempted,
    HazardChecked,
    RamAftermath,
    RamResolved,
    RefloatAttempted,
    ShipDrifted,
    ShipsFouled,
    SparResolved,
    TowAttached,
    TowReleased,
    UnfoulAttempted,
)
from domain.rulesets.iron_oak.gunnery import sink as _sink
from domain.rulesets.iron_oak.movement import (
    STEPS,
    DriftWhenFouledWith,
    can_move,
    check_hazards,
    ends_move,
    move_modifiers,
)
from domain.rulesets.iron_oak.state import (
    Cell,
    IronOakState,
    Pair,
    PairKind,
    ShipState,
    fold_all,
)

# --------------------------------------------------------------------------- constants (seed)

# IO-4.3.1: refloat of a powered ship, then the engine-strain check
REFLOAT_POWERED = ("d10d8", "d10")
ENGINE_STRAIN = ("d10d8", "d8")
# IO-4.3.1, already Engine-Damaged
REFLOAT_ENGINE_DAMAGED = ("d8", "d10d8")
# IO-4.3.2: unpowered (Boiler or Engine-Stopped)
REFLOAT_UNPOWERED = ("d6", "d10d8")
REFLOAT_TOW_BONUS = 2
# the opponent's result at this multiple of the ship's or more adds a WL critical (IO-4.3)
TRIPLE = 3
# criticals that stop a friendly tower from giving the +2 (IO-4.3.1)
TOW_BONUS_BARRED = frozenset({"engine_damaged", "rudder", "speed", "smokestack", "steering"})

# IO-4.4: the "Status Changed & Orders" table's unfoul roll
UNFOUL = ("d10", "d10d4")
UNFOUL_HEAVY_OBSTRUCTION = -2

# IO-6.3.12: Ram critical, −5 to ram resolution
RAM_CRITICAL = -5

SPAR_CRITICAL = "spar_torpedo"  # IO-5.6.2 / IO-6.3.14
RAM_CRITICAL_NAME = "ram"  # IO-5.6.3 / IO-6.3.12

CrossKind = PairKind  # "bow_on" or "stern_on": what the target becomes (IO-5.5.1, IO-5.5.2)
OpposedReading = Literal["target", "mover"]
BowOnLimit = Literal["crossing_ship", "target", "game"]  # IO-5.5.1 / IO-5.5.2 [AMBIG]


# --------------------------------------------------------------------------- events


# --------------------------------------------------------------------------- helpers


def _ship(state: IronOakState, ship: str, rule: str) -> ShipState:
    if ship not in state.ships:
        raise IllegalCommand(f"there is no ship {ship!r}", rule=rule)
    return state.ships[ship]


def _side(ship: ShipState) -> Side:
    """The side a ship fights for: a captured ship belongs to its captor (IO-6.2.3I)."""
    return ship.captured_by or ship.side


def _other(side: Side) -> Side:
    return "USA" if side == "CSA" else "CSA"


def _on_map(ship: ShipState, rule: str) -> Cell:
    if not ship.afloat or ship.cell is None:
        raise IllegalCommand(f"{ship.id} is not afloat on the map", rule=rule)
    return ship.cell


def _scratch(state: IronOakState, events: Sequence[DomainEvent]) -> IronOakState:
    for event in events:
        state = apply(state, event)
    return state


def _totals(roll: DiceRolled) -> tuple[int, int]:
    assert roll.opposed_by is not None
    return roll.roll.total, roll.opposed_by.total


def _no_helm_criticals(ship: ShipState, what: str) -> None:
    """IO-6.3.13 / IO-6.3.17: Rudder or Steering: cannot cross the T or ram/spar."""
    if "rudder" in ship.criticals:
        raise IllegalCommand(f"{ship.id} has a Rudder critical and cannot {what}", rule="IO-6.3.13")
    if "steering" in ship.criticals:
        raise IllegalCommand(
            f"{ship.id} has a Steering critical and cannot {what}", rule="IO-6.3.17"
        )


def _enemy_in_gb(
    state: IronOakState, ship: str, target: str, rule: str
) -> tuple[ShipState, ShipState]:
    if ship == target:
        raise IllegalCommand(f"{ship} cannot target itself", rule=rule)
    s, t = _ship(state, ship, rule), _ship(state, target, rule)
    here, there = _on_map(s, rule), _on_map(t, rule)
    if _side(s) == _side(t):
        raise IllegalCommand(f"{target} is a friendly ship", rule=rule)
    if here != there:
        raise IllegalCommand(f"{target} is not in {ship}'s GB {here}", rule=rule)
    return s, t


def _own_maneuver_modifiers(
    state: IronOakState, ship: str, cell: Cell, opposed_by: str | None, target: str
) -> list[Modifier]:
    """The ship's movement modifiers for a Maneuver 0 in ``cell`` (movement.move_modifiers),
    without the Opposed −1 when the marker was placed by ``target`` (IO-5.1.3)."""
    mods = move_modifiers(state, ship, [cell])
    if opposed_by is not None and opposed_by == target:
        mods = [m for m in mods if m.rule != "IO-5.1.3"]
    return mods + state.card_modifiers(ship, "contact")  # IO-7.0: cards on the contact roll


# --------------------------------------------------------------------------- drift (IO-5.2)


def _exit_edge(state: IronOakState, cell: Cell) -> Edge | None:
    """The edge a cell outside the grid lies beyond (None inside). [AMBIG] off a corner the
    vertical edge (N/S) is named first."""
    grid = state.scenario.grid
    col, row = cell
    if row < 0:
        return "N"
    if row >= grid.rows:
        return "S"
    if col < 0:
        return "W"
    if col >= grid.columns:
        return "E"
    return None


def _drift_events(state: IronOakState, ship: str, dice: DiceSource) -> list[DomainEvent]:
    s = state.ships[ship]
    here = _on_map(s, "IO-5.2")
    group = _group(state, s)
    # IO-5.4: a hazard is checked in the box a ship moves from and the box it moves to, and
    # linked ships each check. A check that ends the move holds the whole group (IO-5.3:
    # if either ship becomes immobile, neither moves); there is no drift roll.
    events: list[DomainEvent] = []
    for member in [ship, *group]:
        scratch = fold_all(state, events, apply)
        if scratch.ships[member].afloat:
            events += check_hazards(scratch, member, here, dice)
        if ends_move(events) or not fold_all(state, events, apply).ships[ship].afloat:
            held = ShipDrifted(ship=ship, path=[here], result="stay", effect="hazard")
            return [*events, held]
    drift_table = state.data.tables.drift

    def read(face: int) -> tuple[str, int]:
        effect = drift_table.effect(face)
        return effect, {"stay": 0, "drift_1": 1, "drift_2": 2}[effect]

    roll = table_roll(
        dice,
        expression="d10",
        table=read,
        side=_side(s),
        purpose="drift",
        rule="IO-5.2",
        subject=ship,
    )
    steps = int(roll.value)
    current = state.box(here).current
    path: list[Cell] = [here]
    result: Literal["stay", "drifted", "exited", "aground"] = "stay"
    edge: Edge | None = None
    if current is not None and steps > 0:
        dc, dr = STEPS[current.direction]
        result = "drifted"
        for _ in range(steps):
            last = path[-1]
            nxt = (last[0] + dc, last[1] + dr)
            edge = _exit_edge(state, nxt)
            if edge is not None:
                result = "exited"  # IO-5.2: drifting off the map leaves the game
                break
            if state.box(nxt).bank:
                result = "aground"  # IO-5.2: grounds in the previous GB
                break
            path.append(nxt)
    events += [
        roll,
        ShipDrifted(ship=ship, path=path, result=result, effect=roll.outcome, edge=edge),
    ]
    end = path[-1]
    if result == "exited" or end == here:
        return events
    # IO-5.4 destination: each ship the current carried into a new box checks its hazards
    # there, the rolling ship first; one already aground on the bank checks nothing more
    for member in [ship, *group]:
        scratch = fold_all(state, events, apply)
        m = scratch.ships[member]
        if m.afloat and m.cell == end and not m.aground:
            events += check_hazards(scratch, member, end, dice)
    return events


def drift(
    state: IronOakState,
    ship: str,
    dice: DiceSource,
    drift_when_fouled_with: DriftWhenFouledWith = "movable_enemy",
) -> list[DomainEvent]:
    """IO-5.2: roll d10 on the Drift table and drift 0, 1 or 2 GB with the current of the ship's
    box (no current: the ship stays).

    Each step goes one box in the current's direction. A step past the map edge: the ship leaves
    the game (status ``exited``). A step onto a bank: the ship grounds in the box before it.
    The ship's fouled and towing partners go with it (only the first ship of a group rolls,
    IO-5.2), except a partner that is immobile (anchored, aground, fouled with an obstacle,
    IO-4.0), which stays where it is; [AMBIG] only the rolling ship grounds on a bank (attached
    ships check separately, IO-5.4).

    Hazards (IO-5.4 names the box a ship moves from and the box it moves to; linked ships each
    check): before the roll, the ship and then each ship of its group check the hazards of
    their box; a check that ends a move (grounding, fouling, a mine) holds the whole group, which
    does not drift (``ShipDrifted`` ``stay`` with effect ``hazard``, no roll). After a drift into
    another box on the map, each ship that went there and is not aground checks that box's
    hazards. The middle box of a two-box drift is not checked, as for Maneuver 2.

    Raises:
        IllegalCommand: IO-5.2 (not afloat on the map); IO-4.0 (anchored, aground or fouled with
            an obstacle, or in a tow with such a ship: it does not drift); IO-5.3 (towed by a
            powered ship that can move: it goes with its tower and does not drift).
    """
    s = _ship(state, ship, "IO-5.2")
    _on_map(s, "IO-5.2")
    _, reason = can_move(state, ship, drift_when_fouled_with)
    if reason == "stuck":
        raise IllegalCommand(f"{ship} cannot move or drift this turn", rule="IO-4.0")
    if reason == "towed":
        raise IllegalCommand(
            f"{ship} is towed by {s.towed_by}: it goes with its tower and does not drift",
            rule="IO-5.3",
        )
    return _drift_events(state, ship, dice)


def _group(state: IronOakState, ship: ShipState) -> list[str]:
    """The ship's fouled ships and tow partners (not itself) that drift with it: afloat and not
    immobile (IO-4.0: an anchored, aground or obstacle-fouled ship does not drift)."""
    ids = [f for f in ship.fouled_with if f in state.ships]
    ids += [x for x in (ship.towing, ship.towed_by) if x is not None and x in state.ships]
    return [i for i in dict.fromkeys(ids) if i != ship.id and not movement.immobile(state.ships[i])]


def _drifted(state: IronOakState, event: ShipDrifted) -> IronOakState:
    s = state.ships[event.ship]
    end: Cell = (event.path[-1][0], event.path[-1][1])
    ships = dict(state.ships)
    members = [s.id, *_group(state, s)]
    for member in members:
        changes: dict[str, object] = {"cell": end}
        if event.result == "exited":
            changes.update(cell=None, edge=event.edge, status="exited")
        if event.result == "aground" and member == s.id:
            changes["aground"] = True
        ships[member] = ships[member].model_copy(update=changes)
    return state.model_copy(update={"ships": ships})


# --------------------------------------------------------------------------- refloat (IO-4.3)


def _tow_bonus(state: IronOakState, s: ShipState) -> bool:
    """IO-4.3.1: a friendly ship tows the aground ship, is powered and has none of the barred
    criticals. [AMBIG] IO-4.3.2's "friendly tow" is read with the same conditions."""
    if s.towed_by is None or s.towed_by not in state.ships:
        return False
    tower = state.ships[s.towed_by]
    return (
        tower.afloat
        and _side(tower) == _side(s)
        and tower.powered
        and not any(c in tower.criticals for c in TOW_BONUS_BARRED)
    )


def _p_triple(roll: DiceRolled) -> str:
    """P(opponent ≥ 3× ship) for the dice and modifiers of ``roll`` (p_at_least_times)."""
    assert roll.opposed_by is not None
    ship = modified_distribution(
        parse(roll.roll.expression),
        [Modifier(m.value, m.rule, m.reason) for m in roll.roll.modifiers],
        roll.roll.floor,
    )
    opponent = modified_distribution(
        parse(roll.opposed_by.expression),
        [Modifier(m.value, m.rule, m.reason) for m in roll.opposed_by.modifiers],
        roll.opposed_by.floor,
    )
    return str(p_at_least_times(opponent, ship, TRIPLE))


def refloat(state: IronOakState, ship: str, dice: DiceSource) -> list[DomainEvent]:
    """IO-4.3: try to get an aground ship off. Three branches:

    * powered (IO-4.3.1): d10d8 (+2 tow) vs d10; on success the Aground marker goes, then the
      engine strain check d10d8 vs d8: failure names ``engine_damaged``, and an opponent result
      ≥ 3× the ship's sets ``wl_column_roll``;
    * already Engine-Damaged (IO-4.3.1): d8 (+2 tow) vs d10d8; failure names ``engine_stopped``;
      ≥ 3× sets ``wl_column_roll``;
    * unpowered, Boiler or Engine-Stopped (IO-4.3.2): d6 (+2 tow) vs d10d8; ≥ 3× sets
      ``wl_column_roll``.

    The 3× test compares the two totals of the roll it belongs to (the strain roll in the
    powered branch) and the event records its exact chance.

    Raises:
        IllegalCommand: IO-4.3 (no such ship, not afloat on the map, not aground).
    """
    s = _ship(state, ship, "IO-4.3")
    _on_map(s, "IO-4.3")
    if not s.aground:
        raise IllegalCommand(f"{ship} is not aground", rule="IO-4.3")
    side, opponent = _side(s), _other(_side(s))
    bonus = _tow_bonus(state, s)
    if not s.powered:
        branch: Literal["powered", "engine_damaged", "unpowered"] = "unpowered"
        rule, (mine, theirs) = "IO-4.3.2", REFLOAT_UNPOWERED
    elif "engine_damaged" in s.criticals:
        branch, rule, (mine, theirs) = "engine_damaged", "IO-4.3.1", REFLOAT_ENGINE_DAMAGED
    else:
        branch, rule, (mine, theirs) = "powered", "IO-4.3.1", REFLOAT_POWERED
    mods = [Modifier(REFLOAT_TOW_BONUS, rule, "towed by a friendly powered ship")] if bonus else []
    roll = opposed_roll(
        dice,
        actor=mine,
        opponent=theirs,
        side=side,
        opponent_side=opponent,
        purpose="refloat",
        rule=rule,
        subject=ship,
        actor_modifiers=mods,
    )
    events: list[DomainEvent] = [roll]
    success = bool(roll.success)
    critical: str | None = None
    judged = roll
    if branch == "powered" and success:
        strain = opposed_roll(
            dice,
            actor=ENGINE_STRAIN[0],
            opponent=ENGINE_STRAIN[1],
            side=side,
            opponent_side=opponent,
            purpose="engine strain",
            rule=rule,
            subject=ship,
        )
        events.append(strain)
        judged = strain
        if not strain.success:
            critical = "engine_damaged"
    elif branch == "engine_damaged" and not success:
        critical = "engine_stopped"
    mine_total, theirs_total = _totals(judged)
    triple = theirs_total >= TRIPLE * mine_total
    # the powered branch adds the WL critical only after a failed strain check
    wl = triple and (branch != "powered" or critical is not None)
    events.append(
        RefloatAttempted(
            ship=ship,
            success=success,
            critical=critical,
            wl_column_roll=wl,
            branch=branch,
            rule=rule,
            tow_bonus=bonus,
            ship_result=mine_total,
            opponent_result=theirs_total,
            p_triple=_p_triple(judged) if branch != "powered" or judged is not roll else "0",
        )
    )
    return events


# --------------------------------------------------------------------------- unfoul (IO-4.4)


def unfoul(
    state: IronOakState,
    ship: str,
    dice: DiceSource,
    first_order_fouled_with_movable: bool,
) -> list[DomainEvent]:
    """IO-4.4: d10 (−2 when fouled with a heavy obstruction) vs d10d4.

    Success removes the Fouled marker: every foul of the ship, and this ship from the other
    ship of a ship-ship foul. On failure, when the caller says this is the first Order Phase in
    which the ship is fouled (``first_order_fouled_with_movable``; the turn's Order Phase is its
    first fouled with another movable ship, ``IronOakState.fouled_since``, not its first unfoul
    attempt as 1.0 had it), it checks drift (IO-5.2) at once, but only if it is fouled with
    another ship that can move (IO-4.4 "他の移動可能な船"):
    at least one fouled partner ship afloat, not anchored, aground or fouled with an obstacle,
    and powered; and only if the ship itself is not immobile (IO-4.0). Immobile partners do not
    drift with it (:func:`drift`).

    Raises:
        IllegalCommand: IO-4.4 (no such ship, not afloat on the map, not fouled).
    """
    s = _ship(state, ship, "IO-4.4")
    _on_map(s, "IO-4.4")
    if not s.fouled_with:
        raise IllegalCommand(f"{ship} is not fouled", rule="IO-4.4")
    mods = (
        [Modifier(UNFOUL_HEAVY_OBSTRUCTION, "IO-4.4", "heavy obstruction")]
        if "heavy_obstruction" in s.fouled_with
        else []
    )
    roll = opposed_roll(
        dice,
        actor=UNFOUL[0],
        opponent=UNFOUL[1],
        side=_side(s),
        opponent_side=_other(_side(s)),
        purpose="unfoul",
        rule="IO-4.4",
        subject=ship,
        actor_modifiers=mods,
    )
    success = bool(roll.success)
    events: list[DomainEvent] = [roll, UnfoulAttempted(ship=ship, success=success)]
    if not success and first_order_fouled_with_movable and _fouled_with_movable(state, s):
        events += _drift_events(state, ship, dice)
    return events


def _fouled_with_movable(state: IronOakState, s: ShipState) -> bool:
    """IO-4.4: fouled with another ship that can move, and not immobile itself (IO-4.0)."""
    return not movement.immobile(s) and fouled_with_movable_ship(state, s)


def fouled_with_movable_ship(state: IronOakState, s: ShipState) -> bool:
    """IO-4.4 「他の移動可能な船とからまって」: at least one ship it is fouled with is afloat,
    powered and not immobile (anchored, aground, fouled with an obstacle)."""
    partners = [state.ships[f] for f in s.fouled_with if f in state.ships and f != s.id]
    return any(p.powered and not movement.immobile(p) for p in partners)


def first_fouled_order_phases(state: IronOakState, ships: Collection[str]) -> dict[str, int]:
    """IO-4.4: ``fouled_since`` after an Order Phase in which ``ships`` got their order cards:
    each of them fouled with another movable ship gets this turn, unless an earlier Order Phase
    of its present fouling is recorded already."""
    since = dict(state.fouled_since)
    for ship in ships:
        s = state.ships.get(ship)
        if s is not None and ship not in since and fouled_with_movable_ship(state, s):
            since[ship] = state.turn
    return since


def still_fouled(state: IronOakState) -> IronOakState:
    """``state`` without the ``fouled_since`` entries of ships no longer fouled with a ship (an
    unfoul, a partner sunk or gone), so that a later fouling starts its count again."""
    if not state.fouled_since:
        return state
    kept = {
        ship: turn
        for ship, turn in state.fouled_since.items()
        if ship in state.ships and any(f in state.ships for f in state.ships[ship].fouled_with)
    }
    if len(kept) == len(state.fouled_since):
        return state
    return state.model_copy(update={"fouled_since": kept})


def _unfouled(state: IronOakState, event: UnfoulAttempted) -> IronOakState:
    if not event.success:
        return state
    s = state.ships[event.ship]
    ships = dict(state.ships)
    for other in s.fouled_with:
        if other in ships:
            o = ships[other]
            ships[other] = o.model_copy(
                update={"fouled_with": tuple(f for f in o.fouled_with if f != s.id)}
            )
    ships[s.id] = s.model_copy(update={"fouled_with": ()})
    return state.model_copy(update={"ships": ships})


# --------------------------------------------------------------------------- towing (IO-5.3)


def attach_tow(state: IronOakState, tower: str, towed: str) -> list[DomainEvent]:
    """IO-5.3: a friendly powered ship attaches to one ship in its GB.

    Raises:
        IllegalCommand: IO-5.3 (itself, not afloat on the map, another GB, an enemy, the tower
            unpowered, either ship already towing or towed).
    """
    if tower == towed:
        raise IllegalCommand(f"{tower} cannot tow itself", rule="IO-5.3")
    a, b = _ship(state, tower, "IO-5.3"), _ship(state, towed, "IO-5.3")
    here, there = _on_map(a, "IO-5.3"), _on_map(b, "IO-5.3")
    if here != there:
        raise IllegalCommand(f"{towed} is not in {tower}'s GB {here}", rule="IO-5.3")
    if _side(a) != _side(b):
        raise IllegalCommand(f"{towed} is not friendly to {tower}", rule="IO-5.3")
    if not a.powered:
        raise IllegalCommand(f"{tower} has no power and cannot tow", rule="IO-5.3")
    for s in (a, b):
        if s.towing is not None or s.towed_by is not None:
            raise IllegalCommand(f"{s.id} is already in a tow", rule="IO-5.3")
    return [TowAttached(tower=tower, towed=towed)]


def release_tow(state: IronOakState, tower: str) -> list[DomainEvent]:
    """IO-5.3: release the tow (at the start of the Order Phase; the caller checks the phase).

    Raises:
        IllegalCommand: IO-5.3 (no such ship, not towing).
    """
    a = _ship(state, tower, "IO-5.3")
    if a.towing is None:
        raise IllegalCommand(f"{tower} is not towing", rule="IO-5.3")
    return [TowReleased(tower=tower, towed=a.towing)]


def _tow(state: IronOakState, tower: str, towed: str, attach: bool) -> IronOakState:
    ships = dict(state.ships)
    ships[tower] = ships[tower].model_copy(update={"towing": towed if attach else None})
    if towed in ships:
        ships[towed] = ships[towed].model_copy(update={"towed_by": tower if attach else None})
    return state.model_copy(update={"ships": ships})


# --------------------------------------------------------------------------- pairs


def _set_pair(
    state: IronOakState, ship: str, other: str, kind: PairKind, limit: BowOnLimit
) -> IronOakState:
    """``ship`` becomes ``kind`` to ``other`` (the crossing ship): any earlier relation of
    ``ship`` to ``other`` goes, and so do the pairs of the same kind that "only one ship Bow-on
    (Stern-on) at a time" (IO-5.5.1, IO-5.5.2) rules out, per ``limit``
    (``options.bow_on_limit``): ``crossing_ship`` — the one ``other`` held before;
    ``target`` — the one ``ship`` was in before; ``game`` — every other one."""

    def replaced(p: Pair) -> bool:
        if p.ship == ship and p.other == other:
            return True
        if p.kind != kind:
            return False
        return {"crossing_ship": p.other == other, "target": p.ship == ship, "game": True}[limit]

    pairs = [p for p in state.pairs if not replaced(p)]
    pairs.append(Pair(ship=ship, other=other, kind=kind))
    return state.model_copy(update={"pairs": tuple(pairs)})


def _drop_pairs(state: IronOakState, a: str, b: str) -> IronOakState:
    pairs = tuple(p for p in state.pairs if {p.ship, p.other} != {a, b})
    return state.model_copy(update={"pairs": pairs})


# --------------------------------------------------------------------------- Crossing the T


def check_cross_t(
    state: IronOakState,
    ship: str,
    target: str,
    kind: CrossKind,
    failed_last_turn: Collection[str] = frozenset(),
) -> None:
    """Refuse an illegal Crossing-the-T order with its rule (IO-5.5).

    "Started the Order Phase in the target's GB" is taken as: in the same GB now.
    ``failed_last_turn`` holds the targets whose T this ship failed to cross last turn; the
    caller tracks it (the state has no memory of earlier turns).

    Raises:
        IllegalCommand: IO-5.5 (not an enemy in the same GB, anchored, fouled, aground, a
            failed attempt on this target last turn, a kind other than bow/stern); IO-4.0 (no
            power: it cannot move); IO-6.3.13 (Rudder); IO-6.3.17 (Steering). A towing ship may
            cross the T: the seed bars towing only from Maneuver 2 (IO-5.3) and from the
            Opposing Maneuver (IO-5.1.3).
    """
    if kind not in ("bow_on", "stern_on"):
        raise IllegalCommand(f"cross the bow or the stern, not {kind!r}", rule="IO-5.5")
    s, _ = _enemy_in_gb(state, ship, target, "IO-5.5")
    for flag, what in (
        (s.anchored, "anchored"),
        (bool(s.fouled_with), "fouled"),
        (s.aground, "aground"),
    ):
        if flag:
            raise IllegalCommand(f"{ship} is {what} and cannot cross the T", rule="IO-5.5")
    if not s.powered:
        raise IllegalCommand(f"{ship} has no power and cannot move", rule="IO-4.0")
    _no_helm_criticals(s, "cross the T")
    if target in failed_last_turn:
        raise IllegalCommand(
            f"{ship} failed to cross {target}'s T last turn and may not try it again",
            rule="IO-5.5",
        )


def cross_t(
    state: IronOakState,
    ship: str,
    target: str,
    kind: CrossKind,
    dice: DiceSource,
    response: Sequence[Modifier] = (),
    *,
    failed_last_turn: Collection[str] = frozenset(),
    opposed_by: str | None = None,
    remove_opposed: OpposedReading = "mover",
) -> list[DomainEvent]:
    """IO-5.5: both ships roll their Movement Chart dice; a strictly higher ship result succeeds
    and the target becomes Bow-on (IO-5.5.1) or Stern-on (IO-5.5.2) to the ship.

    The ship's roll: the crossing −1 (IO-5.5), its movement modifiers for staying in its box
    (:func:`movement.move_modifiers`, without the Opposed −1 when ``opposed_by`` is the target,
    IO-5.1.3) and −1 when the target is already Bow-on to it (IO-5.5.1 "other maneuver
    attempts"). The target's roll: its Movement Chart dice with ``response`` (the response-dice
    modifiers, computed by the caller). Both floored at 1 as movement rolls are.

    [AMBIG] "If the target made an Opposing Maneuver, remove the Opposed marker": an Opposing
    Maneuver by the target put the marker on its enemy, so by default (``remove_opposed=
    "mover"``) the crossing ship's marker goes when ``opposed_by`` is the target;
    ``"target"`` removes the target's own marker instead. Either way it goes on every attempt,
    as the seed places the removal at the declaration, before the roll.

    Raises:
        IllegalCommand: see :func:`check_cross_t`.
    """
    check_cross_t(state, ship, target, kind, failed_last_turn)
    s, t = state.ships[ship], state.ships[target]
    cell = _on_map(s, "IO-5.5")
    mods = [Modifier(state.data.tables.modifiers.crossing_t, "IO-5.5", "crossing the T")]
    mods += _own_maneuver_modifiers(state, ship, cell, opposed_by, target)
    if state.relation(target, ship) == "bow_on":
        mods.append(
            Modifier(
                state.data.tables.modifiers.bow_on_other_maneuver,
                "IO-5.5.1",
                f"{target} is Bow-on to {ship}",
            )
        )
    roll = opposed_roll(
        dice,
        actor=state.card(ship).movement_dice(s.hits),
        opponent=state.card(target).movement_dice(t.hits),
        side=_side(s),
        opponent_side=_side(t),
        purpose="crossing the T",
        rule="IO-5.5.1" if kind == "bow_on" else "IO-5.5.2",
        subject=ship,
        target_unit=target,
        actor_modifiers=[m for m in mods if m.value != 0],
        opponent_modifiers=list(response),
        floor=1,
    )
    if remove_opposed == "target":
        removed = [target] if t.opposed else []
    else:
        removed = [ship] if s.opposed and opposed_by == target else []
    return [
        roll,
        CrossTAttempted(
            ship=ship,
            target=target,
            kind=kind,
            success=bool(roll.success),
            opposed_removed=removed,
        ),
    ]


def _crossed(state: IronOakState, event: CrossTAttempted) -> IronOakState:
    ships = dict(state.ships)
    for sid in event.opposed_removed:
        ships[sid] = ships[sid].model_copy(update={"opposed": False})
    state = state.model_copy(update={"ships": ships})
    if event.success:
        state = _set_pair(state, event.target, event.ship, event.kind, state.options.bow_on_limit)
    return state


# --------------------------------------------------------------------------- ram and spar


def check_ram(
    state: IronOakState,
    ship: str,
    target: str,
    spar: bool,
    ram: bool,
    attacked_last_turn: Collection[str] = frozenset(),
) -> None:
    """Refuse an illegal ram/spar order with its rule (IO-5.6).

    "Started the Order Phase in the enemy's GB" is taken as: in the same GB now.
    ``attacked_last_turn`` holds the targets this ship rammed or spar-attacked last turn
    (IO-5.6.5); the caller tracks it. A Ram critical does not bar a ram: it is −5 to the ram roll
    (IO-6.3.12). A Spar critical bars a spar attack (IO-6.3.14), except on a card with
    ``spar_reattack`` (IO-1.0.1.1 J: only USS Spuyten Duyvil may attack with its spar again).
    [AMBIG] The marker does not tell the Spar critical a spar attack leaves (IO-5.6.2) from one
    rolled on the Critical Hit Table; ``spar_reattack`` ignores both.

    Raises:
        IllegalCommand: IO-5.6 (no attack declared, not an enemy in the same GB); IO-4.0 (the
            ship cannot move: anchored, aground, fouled, unpowered, towed); IO-5.6.2 (no spar
            torpedo); IO-6.3.14 (spar torpedo destroyed, unless ``spar_reattack``); IO-5.6.3
            (no ram, or the target's card has no WL); IO-5.5.2 (the ship crossed the target's
            stern); IO-6.3.13 (Rudder); IO-6.3.17 (Steering); IO-5.6.5 (attacked the same
            target last turn).
    """
    if not (spar or ram):
        raise IllegalCommand(f"{ship} must declare a ram, a spar attack or both", rule="IO-5.6")
    s, _ = _enemy_in_gb(state, ship, target, "IO-5.6")
    movable, reason = can_move(state, ship)
    if not movable:
        raise IllegalCommand(f"{ship} cannot move this turn ({reason})", rule="IO-4.0")
    card = state.card(ship)
    if spar and card.spar is None:
        raise IllegalCommand(f"{ship} has no spar torpedo", rule="IO-5.6.2")
    if spar and SPAR_CRITICAL in s.criticals and not card.spar_reattack:
        raise IllegalCommand(f"{ship}'s spar torpedo is destroyed", rule="IO-6.3.14")
    if ram and card.ram is None:
        raise IllegalCommand(f"{ship} has no ram", rule="IO-5.6.3")
    if ram and state.card(target).location("WL") is None:
        raise IllegalCommand(f"{target} has no waterline to ram", rule="IO-5.6.3")
    if state.relation(target, ship) == "stern_on":
        raise IllegalCommand(
            f"{ship} crossed {target}'s stern and may not ram or spar it", rule="IO-5.5.2"
        )
    _no_helm_criticals(s, "ram or spar")
    if target in attacked_last_turn:
        raise IllegalCommand(f"{ship} rammed or spar-attacked {target} last turn", rule="IO-5.6.5")


def _wl_after(state: IronOakState, ship: ShipState, hits: int) -> int:
    floor = state.data.tables.damage_chart.shield_floor
    return max(floor, ship.shield("WL") - hits)


def _sank(state: IronOakState, ship: str) -> bool:
    return not state.ships[ship].afloat


def ram_spar(
    state: IronOakState,
    ship: str,
    target: str,
    spar: bool,
    ram: bool,
    dice: DiceSource,
    response: Sequence[Modifier] = (),
    *,
    attacked_last_turn: Collection[str] = frozenset(),
    opposed_by: str | None = None,
) -> list[DomainEvent]:
    """IO-5.6: a ram and/or spar attack, in the order of the rule. Dice drawn in this order:

    i) the attacker's hazards in its box (:func:`movement.check_hazards`); [AMBIG] a hazard that
       ends the move (grounding, fouling, a mine) ends the attack there;
    ii) contact (IO-5.6.1): the attacker's Movement Chart dice with its movement modifiers
       (no Opposed −1 when ``opposed_by`` is the target, IO-5.1.3) and +1 against a target
       Bow-on to it (IO-5.5.1), against the target's Movement Chart dice, or d10 −5 when it is
       anchored, aground or fouled; ``response`` modifies the target's roll in both cases
       [AMBIG]; both floored at 1 as movement rolls are. A strictly higher attacker succeeds;
    iii) spar (IO-5.6.2), before the ram: d10d8 vs d4; on success d8 Spar Torp → hits on the
       target and its WL shield to −4, then d8 Ship Spar → hits on the attacker, its WL shield
       grows by those hits, and it gets a Spar critical (named);
    iv) ram (IO-5.6.3), if both ships are still afloat: the ram dice (−5 with a Ram critical,
       IO-6.3.12 [AMBIG] placement) vs the target's WL defence dice modified by its WL shield
       damage [AMBIG: as a defence roll, IO-6.2.1; this is why the spar goes first], both
       floored at 1; hits by the difference, ⌊attack / 2⌋ (min 1) each on a tie; WL shields grow
       by the hits (to −4); then, if the attacker is afloat, the ram check d10d8 vs d8, failure
       names a Ram critical;
    v) fouling (IO-5.6.4), if contact succeeded and neither ship sank: d10d8 vs d8 after a ram,
       d6 for a spar alone; failure fouls both ships (and ends any T between them, IO-5.5.3);
    vi) aftermath (IO-5.6.5), if contact succeeded and both ships are afloat: the attacker is
       Bow-on to the target for gunnery (``IronOakState.combat_relation``; a crossed T of
       either ship is left as it is). The "no ram or spar of this target next turn" bar, the
       Point Blank range and the aftermath's end are the caller's to track.

    Raises:
        IllegalCommand: see :func:`check_ram`.
    """
    check_ram(state, ship, target, spar, ram, attacked_last_turn)
    a, t = state.ships[ship], state.ships[target]
    cell = _on_map(a, "IO-5.6")
    side, opponent = _side(a), _side(t)
    table = state.data.tables
    events: list[DomainEvent] = list(check_hazards(state, ship, cell, dice))
    now = _scratch(state, events)
    if _sank(now, ship) or any(isinstance(e, HazardChecked) and e.ends_move for e in events):
        return events

    # ii) contact
    mods = _own_maneuver_modifiers(now, ship, cell, opposed_by, target)
    if now.relation(target, ship) == "bow_on":
        mods.append(
            Modifier(table.modifiers.bow_on_ram_spar, "IO-5.5.1", f"{target} is Bow-on to {ship}")
        )
    t = now.ships[target]
    immobile = t.anchored or t.aground or bool(t.fouled_with)
    target_mods = list(response)
    if immobile:
        target_dice = table.ram_spar.immobile_target_contact
        target_mods.insert(
            0,
            Modifier(
                table.ram_spar.immobile_target_modifier,
                "IO-5.6.1",
                f"{target} is anchored, aground or fouled",
            ),
        )
    else:
        target_dice = now.card(target).movement_dice(t.hits)
    contact = opposed_roll(
        dice,
        actor=now.card(ship).movement_dice(now.ships[ship].hits),
        opponent=target_dice,
        side=side,
        opponent_side=opponent,
        purpose="ram/spar contact",
        rule="IO-5.6.1",
        subject=ship,
        target_unit=target,
        actor_modifiers=[m for m in mods if m.value != 0],
        opponent_modifiers=target_mods,
        floor=1,
    )
    touched = bool(contact.success)
    events += [
        contact,
        ContactRolled(ship=ship, target=target, success=touched, immobile_target=immobile),
    ]
    if not touched:
        return events

    # iii) spar, before the ram
    if spar:
        detonation = opposed_roll(
            dice,
            actor=table.ram_spar.spar.roll,
            opponent=table.ram_spar.spar.against,
            side=side,
            opponent_side=opponent,
            purpose="spar detonation",
            rule="IO-5.6.2",
            subject=ship,
            target_unit=target,
        )
        events.append(detonation)
        if detonation.success:
            torpedo = table.torpedo
            on_target = movement.torpedo_damage(
                dice,
                torpedo.spar_torp,
                side=side,
                purpose="spar torpedo damage",
                rule="IO-5.6.2",
                subject=ship,
                target_unit=target,
            )
            on_self = movement.torpedo_damage(
                dice,
                torpedo.ship_spar,
                side=opponent,
                purpose="ship spar damage",
                rule="IO-5.6.2",
                subject=ship,
                target_unit=ship,
            )
            self_hits = int(on_self.value)
            events += [
                on_target,
                on_self,
                SparResolved(
                    ship=ship,
                    target=target,
                    detonated=True,
                    target_hits=int(on_target.value),
                    attacker_hits=self_hits,
                    target_wl_after=table.damage_chart.shield_floor,
                    attacker_wl_after=_wl_after(now, now.ships[ship], self_hits),
                    critical=SPAR_CRITICAL,
                ),
            ]
        else:
            events.append(SparResolved(ship=ship, target=target, detonated=False))
        now = _scratch(state, events)

    # iv) ram
    if ram and not _sank(now, ship) and not _sank(now, target):
        events += _ram(now, ship, target, dice)
        now = _scratch(state, events)

    if _sank(now, ship) or _sank(now, target):
        return events

    # v) fouling
    check = table.ram_spar.fouling_after_ram if ram else table.ram_spar.fouling_spar_only
    fouling = opposed_roll(
        dice,
        actor=check.roll,
        opponent=check.against,
        side=side,
        opponent_side=opponent,
        purpose="fouling",
        rule="IO-5.6.4",
        subject=ship,
        target_unit=target,
    )
    events.append(fouling)
    if not fouling.success:
        events.append(ShipsFouled(ship=ship, target=target))

    # vi) aftermath
    events.append(RamAftermath(ship=ship, target=target))
    return events


def _ram(state: IronOakState, ship: str, target: str, dice: DiceSource) -> list[DomainEvent]:
    a, t = state.ships[ship], state.ships[target]
    ram_dice = state.card(ship).ram
    wl = state.card(target).location("WL")
    assert ram_dice is not None and wl is not None  # check_ram refused otherwise
    attack_mods = (
        [Modifier(RAM_CRITICAL, "IO-6.3.12", "Ram critical")]
        if RAM_CRITICAL_NAME in a.criticals
        else []
    )
    shield = t.shield("WL")
    defence_mods = [Modifier(shield, "IO-6.2.1", "WL shield damage")] if shield else []
    roll = opposed_roll(
        dice,
        actor=ram_dice,
        opponent=wl.defence,
        side=_side(a),
        opponent_side=_side(t),
        purpose="ram",
        rule="IO-5.6.3",
        subject=ship,
        target_unit=target,
        actor_modifiers=attack_mods,
        opponent_modifiers=defence_mods,
        floor=1,
    )
    attack, defence = _totals(roll)
    diff = attack - defence
    if diff > 0:
        target_hits, attacker_hits = diff, 0
    elif diff < 0:
        target_hits, attacker_hits = 0, -diff
    else:
        target_hits = attacker_hits = max(1, attack // 2)
    events: list[DomainEvent] = [roll]
    attacker_sinks = a.hits + attacker_hits >= state.card(ship).hit_value
    passed: bool | None = None
    critical: str | None = None
    if not attacker_sinks:
        check = state.data.tables.ram_spar.ram_check
        ram_check = opposed_roll(
            dice,
            actor=check.roll,
            opponent=check.against,
            side=_side(a),
            opponent_side=_side(t),
            purpose="ram check",
            rule="IO-5.6.3",
            subject=ship,
        )
        events.append(ram_check)
        passed = bool(ram_check.success)
        critical = None if passed else RAM_CRITICAL_NAME
    events.append(
        RamResolved(
            ship=ship,
            target=target,
            attack=attack,
            defence=defence,
            diff=diff,
            target_hits=target_hits,
            attacker_hits=attacker_hits,
            target_wl_after=_wl_after(state, t, target_hits),
            attacker_wl_after=_wl_after(state, a, attacker_hits),
            ram_check_passed=passed,
            critical=critical,
        )
    )
    return events


# --------------------------------------------------------------------------- folding


def _damage(state: IronOakState, ship_id: str, hits: int, wl_after: int) -> IronOakState:
    """Add hull hits and set the WL shield; a ship whose hits reach its hit value sinks
    (gunnery's IO-6.2.3J handling: markers removed, Hulk where due)."""
    ship = state.ships[ship_id]
    if not ship.afloat:
        return state
    shields = dict(ship.shields)
    shields["WL"] = wl_after
    ships = dict(state.ships)
    ships[ship_id] = ship.model_copy(update={"hits": ship.hits + hits, "shields": shields})
    if ship.hits + hits >= state.card(ship_id).hit_value:
        return _sink(state, ship_id, ships)
    return state.model_copy(update={"ships": ships})


def _fouled(state: IronOakState, event: ShipsFouled) -> IronOakState:
    ships = dict(state.ships)
    for me, other in ((event.ship, event.target), (event.target, event.ship)):
        s = ships[me]
        if other not in s.fouled_with:
            ships[me] = s.model_copy(update={"fouled_with": (*s.fouled_with, other)})
    # IO-5.5.3: a ram or spar attack that leaves both ships fouled ends the T between them
    return _drop_pairs(state.model_copy(update={"ships": ships}), event.ship, event.target)


def apply(state: IronOakState, event: DomainEvent) -> IronOakState:
    """Fold a maneuver event into a new state; hazard and move events go to
    :func:`movement.apply`; rolls and other events leave the state as is.

    Criticals named by RefloatAttempted, SparResolved and RamResolved are not placed here.
    """
    if isinstance(event, ShipDrifted):
        return _drifted(state, event)
    if isinstance(event, RefloatAttempted):
        if event.success:
            ships = dict(state.ships)
            ships[event.ship] = ships[event.ship].model_copy(update={"aground": False})
            return state.model_copy(update={"ships": ships})
        return state
    if isinstance(event, UnfoulAttempted):
        return _unfouled(state, event)
    if isinstance(event, TowAttached):
        return _tow(state, event.tower, event.towed, attach=True)
    if isinstance(event, TowReleased):
        return _tow(state, event.tower, event.towed, attach=False)
    if isinstance(event, CrossTAttempted):
        return _crossed(state, event)
    if isinstance(event, SparResolved):
        if not event.detonated:
            return state
        state = _damage(state, event.target, event.target_hits, event.target_wl_after)
        return _damage(state, event.ship, event.attacker_hits, event.attacker_wl_after)
    if isinstance(event, RamResolved):
        state = _damage(state, event.target, event.target_hits, event.target_wl_after)
        return _damage(state, event.ship, event.attacker_hits, event.attacker_wl_after)
    if isinstance(event, ShipsFouled):
        return _fouled(state, event)
    if isinstance(event, RamAftermath):
        if state.rules_version >= (1, 1):
            # a Bow-on for gunnery only, kept in ``aftermath`` by evolve.evolve: writing it into
            # the crossed-T pairs dropped the attacker's other Bow-on (IO-5.6.5 fix, 1.1)
            return state
        return _set_pair(state, event.ship, event.target, "bow_on", "target")
    return movement.apply(state, event)
