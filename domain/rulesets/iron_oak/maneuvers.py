"""Iron & Oak maneuvers: what the maneuver modules share, and applying their facts.

The procedures live in one module per section of the seed: :mod:`.drift` (IO-5.2),
:mod:`.refloat` (IO-4.3), :mod:`.unfoul` (IO-4.4), :mod:`.towing` (IO-5.3), :mod:`.crossing_t`
(IO-5.5) and :mod:`.ramming` (IO-5.6). Each is a pure function of the state: rolls come back as
``DiceRolled`` events followed by the events that record what they meant, and :func:`apply`
folds those events into a new state (it is part of ``evolve``). Criticals are *named* in the
events (``critical``, ``wl_column_roll``) and applied by :mod:`.critical_chain`.

Here: the helpers the procedures share (the ship, its side, its box, the rule checks common to
a T and a ram) and the pair relations Bow-on / Stern-on (IO-5.5.1, IO-5.5.2, option
``bow_on_limit``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from domain.dice import Modifier
from domain.errors import IllegalCommand
from domain.events import DiceRolled, DomainEvent
from domain.rulesets.iron_oak import movement
from domain.rulesets.iron_oak.basics import Side
from domain.rulesets.iron_oak.events import (
    CrossTAttempted,
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
from domain.rulesets.iron_oak.movement import move_modifiers
from domain.rulesets.iron_oak.state import (
    Cell,
    IronOakState,
    Pair,
    PairKind,
    ShipState,
)
from domain.words import possessive

BowOnLimit = Literal["crossing_ship", "target", "game"]  # IO-5.5.1 / IO-5.5.2 [AMBIG]


def named_ship(state: IronOakState, ship: str, rule: str) -> ShipState:
    if ship not in state.ships:
        raise IllegalCommand(f"there is no ship {ship!r}", rule=rule)
    return state.ships[ship]


def side_of(ship: ShipState) -> Side:
    """The side a ship fights for: a captured ship belongs to its captor (IO-6.2.3I)."""
    return ship.captured_by or ship.side


def other_side(side: Side) -> Side:
    return "USA" if side == "CSA" else "CSA"


def on_map_cell(ship: ShipState, rule: str) -> Cell:
    if not ship.afloat or ship.cell is None:
        raise IllegalCommand(f"{ship.id} is not afloat on the map", rule=rule)
    return ship.cell


def folded(state: IronOakState, events: Sequence[DomainEvent]) -> IronOakState:
    for event in events:
        state = apply(state, event)
    return state


def roll_totals(roll: DiceRolled) -> tuple[int, int]:
    assert roll.opposed_by is not None
    return roll.roll.total, roll.opposed_by.total


def check_helm(ship: ShipState, what: str) -> None:
    """IO-6.3.13 / IO-6.3.17: Rudder or Steering: cannot cross the T or ram/spar."""
    if "rudder" in ship.criticals:
        raise IllegalCommand(f"{ship.id} has a Rudder critical and cannot {what}", rule="IO-6.3.13")
    if "steering" in ship.criticals:
        raise IllegalCommand(
            f"{ship.id} has a Steering critical and cannot {what}", rule="IO-6.3.17"
        )


def check_enemy_in_gb(
    state: IronOakState, ship: str, target: str, rule: str
) -> tuple[ShipState, ShipState]:
    if ship == target:
        raise IllegalCommand(f"{ship} cannot target itself", rule=rule)
    s, t = named_ship(state, ship, rule), named_ship(state, target, rule)
    here, there = on_map_cell(s, rule), on_map_cell(t, rule)
    if side_of(s) == side_of(t):
        raise IllegalCommand(f"{target} is a friendly ship", rule=rule)
    if here != there:
        raise IllegalCommand(f"{target} is not in {possessive(ship)} GB {here}", rule=rule)
    return s, t


def own_maneuver_modifiers(
    state: IronOakState, ship: str, cell: Cell, opposed_by: str | None, target: str
) -> list[Modifier]:
    """The ship's movement modifiers for a Maneuver 0 in ``cell`` (movement.move_modifiers),
    without the Opposed −1 when the marker was placed by ``target`` (IO-5.1.3)."""
    mods = move_modifiers(state, ship, [cell])
    if opposed_by is not None and opposed_by == target:
        mods = [m for m in mods if m.rule != "IO-5.1.3"]
    return mods + state.card_modifiers(ship, "contact")  # IO-7.0: cards on the contact roll


def drift_group(state: IronOakState, ship: ShipState) -> list[str]:
    """The ship's fouled ships and tow partners (not itself) that drift with it: afloat and not
    immobile (IO-4.0: an anchored, aground or obstacle-fouled ship does not drift)."""
    ids = [f for f in ship.fouled_with if f in state.ships]
    ids += [x for x in (ship.towing, ship.towed_by) if x is not None and x in state.ships]
    return [i for i in dict.fromkeys(ids) if i != ship.id and not movement.immobile(state.ships[i])]


def _drifted(state: IronOakState, event: ShipDrifted) -> IronOakState:
    s = state.ships[event.ship]
    end: Cell = (event.path[-1][0], event.path[-1][1])
    ships = dict(state.ships)
    members = [s.id, *drift_group(state, s)]
    for member in members:
        changes: dict[str, object] = {"cell": end}
        if event.result == "exited":
            changes.update(cell=None, edge=event.edge, status="exited")
        if event.result == "aground" and member == s.id:
            changes["aground"] = True
        ships[member] = ships[member].model_copy(update=changes)
    return state.model_copy(update={"ships": ships})


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


def _tow(state: IronOakState, tower: str, towed: str, attach: bool) -> IronOakState:
    ships = dict(state.ships)
    ships[tower] = ships[tower].model_copy(update={"towing": towed if attach else None})
    if towed in ships:
        ships[towed] = ships[towed].model_copy(update={"towed_by": tower if attach else None})
    return state.model_copy(update={"ships": ships})


def set_pair(
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


def drop_pairs(state: IronOakState, a: str, b: str) -> IronOakState:
    pairs = tuple(p for p in state.pairs if {p.ship, p.other} != {a, b})
    return state.model_copy(update={"pairs": pairs})


def _crossed(state: IronOakState, event: CrossTAttempted) -> IronOakState:
    ships = dict(state.ships)
    for sid in event.opposed_removed:
        ships[sid] = ships[sid].model_copy(update={"opposed": False})
    state = state.model_copy(update={"ships": ships})
    if event.success:
        state = set_pair(state, event.target, event.ship, event.kind, state.options.bow_on_limit)
    return state


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
    return drop_pairs(state.model_copy(update={"ships": ships}), event.ship, event.target)


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
        return set_pair(state, event.ship, event.target, "bow_on", "target")
    return movement.apply(state, event)
