"""Following criticals through to their end (IO-6.3): the criticals a gunnery, ram, spar or
refloat event names are applied in order, with those of every ship a Boiler, Explosion or
Magazine attacks, and a Collateral critical with a choice stops the resolution for the target's
side (IO-6.3.4). Gunnery, the movement orders and the Status Phase all resolve through here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from domain.chance import table_roll
from domain.dice import DiceSource
from domain.events import DomainEvent
from domain.rulesets.iron_oak import criticals
from domain.rulesets.iron_oak.basics import Location
from domain.rulesets.iron_oak.criticals import CriticalOptions
from domain.rulesets.iron_oak.events import (
    CriticalRolled,
    GunneryResolved,
    RamResolved,
    RefloatAttempted,
    SparResolved,
)
from domain.rulesets.iron_oak.sequence import controller, other
from domain.rulesets.iron_oak.state import Fold, IronOakState
from domain.rulesets.iron_oak.turn_events import CollateralAwaited


def critical_options(state: IronOakState) -> CriticalOptions:
    """The game's options that the critical effects read (IO-6.3 [AMBIG] readings)."""
    o = state.options
    return CriticalOptions(
        explosion_fire_level=o.explosion_fire_level,
        crew_loss_bands=o.crew_loss_bands,
        engine_damaged_response=o.engine_damaged_response,
        smokestack_response=o.smokestack_response,
    )


def follow_criticals(
    state: IronOakState,
    events: Sequence[DomainEvent],
    dice: DiceSource,
    fold: Fold,
    choices: criticals.CollateralChoices | None = None,
) -> list[DomainEvent]:
    """Resolve the criticals a refloat, spar, ram or gunnery event names (IO-6.3), in order,
    including those of the ships a Boiler, Explosion or Magazine attacks in turn: each named
    critical goes through :func:`criticals.apply_critical` and its own events are followed the
    same way; a refloat's WL-column roll is 2d6 on the Critical Hit Table's WL column
    (IO-4.3.1). A unit sunk or destroyed meanwhile takes no further critical.

    Collateral (IO-6.3.4) with more than one location to choose from takes the target side's
    next choice from ``choices``; when that choice has not been made yet the events stop with
    a :class:`CollateralAwaited` (the caller stops too, see ``turn_events.paused``). Without
    ``choices`` (Wake 1.0) the computer chooses."""
    out: list[DomainEvent] = []
    scratch = state
    opts = critical_options(state)
    queue = list(events)
    hit_at: dict[str, str] = {}  # the location each unit was last hit on (Collateral needs it)
    while queue:
        event = queue.pop(0)
        out.append(event)
        scratch = fold(scratch, event)
        named: list[tuple[str, str, str | None]] = []  # (unit, critical, location)
        if isinstance(event, GunneryResolved):
            hit_at[event.target] = event.location
        elif isinstance(event, RefloatAttempted):
            if event.critical:
                named.append((event.ship, event.critical, None))
            if event.wl_column_roll:
                roll, rolled = _wl_column(scratch, event.ship, dice)
                out += [roll, rolled]
                scratch = fold(fold(scratch, roll), rolled)
                named.append((event.ship, rolled.critical, "WL"))
        elif isinstance(event, SparResolved | RamResolved) and event.critical:
            named.append((event.ship, event.critical, "WL"))
        elif isinstance(event, CriticalRolled):
            named.append((event.unit, event.critical, hit_at.get(event.unit)))
        for unit, name, location in named:
            if not _in_play(scratch, unit):
                continue
            chosen: str | None = None
            if choices is not None and location is not None:
                candidates = _collateral_choice(scratch, unit, name, location)
                if len(candidates) > 1:
                    chosen = choices.take()
                    if chosen is None:  # the target's side chooses: the resolution stops
                        return [*out, _awaited(scratch, unit, name, location, candidates)]
            queue[:0] = criticals.apply_critical(
                scratch, unit, name, dice, opts, location=location, collateral_to=chosen
            )
    return out


def _collateral_choice(state: IronOakState, unit: str, name: str, location: str) -> list[str]:
    """The locations the target's side chooses among if critical ``name`` on ``unit`` takes
    effect as Collateral after a hit on ``location`` (IO-6.3.4), else none."""
    if not criticals.becomes_collateral(state, unit, name):
        return []
    return list(criticals.collateral_candidates(state, unit, location))


def _awaited(
    state: IronOakState, unit: str, name: str, hit: str, candidates: Sequence[str]
) -> CollateralAwaited:
    ship = state.ships[unit]
    return CollateralAwaited(
        unit=unit,
        side=controller(state, unit),
        critical=name,
        hit=hit,
        candidates=list(candidates),
        shields={c: ship.shield(cast(Location, c)) for c in candidates},
    )


def _in_play(state: IronOakState, unit: str) -> bool:
    if unit in state.ships:
        return state.ships[unit].afloat
    return unit in state.sections and not state.sections[unit].destroyed


def _wl_column(
    state: IronOakState, ship: str, dice: DiceSource
) -> tuple[DomainEvent, CriticalRolled]:
    table = state.data.tables.critical_table
    entries: Mapping[int, str] = table.wl_other
    s = state.ships[ship]
    roll = table_roll(
        dice,
        expression=table.dice,
        table=lambda total: (entries[total], 0),  # luck-neutral: which critical
        side=other(s.side),
        purpose="critical",
        rule="IO-4.3.1",
        subject=ship,
        target_unit=ship,
    )
    return roll, CriticalRolled(
        unit=ship, column="wl_other", total=roll.roll.total, critical=roll.outcome
    )
