"""The Iron & Oak Status Phase of one side (IO-3.1): repair, fire, smoke, repair parties.

Order (IO-3.0 step 1): a) withdraw repair parties, and each remaining party attempts one
repairable critical (IO-3.1.1); b) fire: level-5 fires first, then the others; a level-5 fire
that has not dropped since the side's previous Status Phase explodes (IO-3.1, IO-3.1.2), and
the criticals its attacks roll on nearby ships take effect at once (IO-6.3);
c) the smoke-removal check (IO-GAPS 10: the table's removal die against its target number; a
success lightens the marker one step, heavy to light, light to none); d) new repair parties
(IO-3.1.1). Fort sections check their fires too.
"""

from __future__ import annotations

from domain.chance import table_roll, target_roll
from domain.dice import DiceSource
from domain.errors import IllegalCommand, InvalidCommand
from domain.events import DomainEvent
from domain.rulesets.iron_oak import criticals, gunnery, repair
from domain.rulesets.iron_oak.basics import Side
from domain.rulesets.iron_oak.commands import Status
from domain.rulesets.iron_oak.critical_chain import critical_options, follow_criticals
from domain.rulesets.iron_oak.criticals import CollateralChoices
from domain.rulesets.iron_oak.events import FireChanged, SmokeChanged
from domain.rulesets.iron_oak.sequence import controller
from domain.rulesets.iron_oak.state import (
    Fold,
    FortSectionState,
    IronOakState,
    ShipState,
    StatusChoice,
)
from domain.rulesets.iron_oak.turn_events import (
    RepairParty,
    StatusChecked,
    StatusChosen,
    paused,
)


def _own_unit(state: IronOakState, side: Side, unit: str, rule: str) -> bool:
    """Check ``unit`` is a ship or fort section of ``side``; return whether it has a party."""
    if unit not in state.ships and unit not in state.sections:
        raise InvalidCommand(f"no ship or fort section {unit!r}", rule=rule)
    if controller(state, unit) != side:
        raise IllegalCommand(f"{unit} is not a {side} unit", rule=rule)
    return gunnery.unit(state, unit).repair_party


def _check_choices(state: IronOakState, side: Side, choice: StatusChoice) -> None:
    for unit in choice.withdraw:
        if not _own_unit(state, side, unit, "IO-3.1.1"):
            raise IllegalCommand(f"{unit} has no repair party to withdraw", rule="IO-3.1.1")
    for unit in choice.repair:
        if not _own_unit(state, side, unit, "IO-3.1.1") or unit in choice.withdraw:
            raise IllegalCommand(f"{unit} has no repair party to repair with", rule="IO-3.1.1")
    for unit in choice.place:
        _own_unit(state, side, unit, "IO-3.1.1")
        if unit not in choice.withdraw:
            repair.check_repair_party(state, unit)


def decide_status(
    state: IronOakState,
    side: Side,
    command: Status,
    dice: DiceSource,
    fold: Fold,
    collateral: CollateralChoices | None = None,
) -> list[DomainEvent]:
    """A side's Status Phase. In alternating play (IO-9.3.1) the first player's choices wait
    for the second player's, then both sides' steps run together, level-5 fires first."""
    choice = StatusChoice(
        withdraw=tuple(command.withdraw), repair=dict(command.repair), place=tuple(command.place)
    )
    _check_choices(state, side, choice)
    if state.options.mode == "alternating":
        if side == state.scenario.first_player:
            return [
                StatusChosen(
                    side=side,
                    withdraw=list(choice.withdraw),
                    repair=dict(choice.repair),
                    place=list(choice.place),
                )
            ]
        both = {**state.status_choices, side: choice}
        return run_status(state, both, dice, fold, collateral)
    return run_status(state, {side: choice}, dice, fold, collateral)


def run_status(
    state: IronOakState,
    choices: dict[Side, StatusChoice],
    dice: DiceSource,
    fold: Fold,
    collateral: CollateralChoices | None = None,
) -> list[DomainEvent]:
    """The Status Phase steps (IO-3.0 a-d) for the sides in ``choices`` together. A Collateral
    choice (IO-6.3.4, ``collateral``) not made yet stops the events at its
    ``CollateralAwaited``."""
    events: list[DomainEvent] = []
    scratch = state

    def emit(new: list[DomainEvent]) -> None:
        nonlocal scratch
        for event in new:
            scratch = fold(scratch, event)
            events.append(event)

    def mine(unit: str) -> bool:
        return controller(scratch, unit) in choices

    # a) withdrawals, then each remaining party's repair attempt
    for choice in choices.values():
        emit([RepairParty(unit=u, placed=False) for u in choice.withdraw])
    parties = [s.id for s in scratch.ships.values() if s.afloat and mine(s.id)]
    parties += [u.id for u in scratch.sections.values() if u.side in choices and not u.destroyed]
    for uid in parties:  # ships and fort sections (IO-3.1.1 "a unit")
        if not gunnery.unit(scratch, uid).repair_party or not _afloat(scratch, uid):
            continue
        wanted = choices[controller(scratch, uid)].repair.get(uid)
        if wanted is None and repair.repair_target(scratch, uid) is None:
            continue
        emit(repair.repair_attempt(scratch, uid, dice, wanted))
    # b) fires, level 5 first (IO-3.1, IO-9.3.1)
    opts = critical_options(state)
    units = [s.id for s in scratch.ships.values() if s.afloat and mine(s.id)]
    units += [u.id for u in scratch.sections.values() if u.side in choices and not u.destroyed]
    burning = [u for u in units if _fire(scratch, u) > 0]
    burning.sort(key=lambda u: 0 if _fire(scratch, u) == 5 else 1)
    for unit in burning:
        if _fire(scratch, unit) > 0 and _afloat(scratch, unit):
            new = fire_status(scratch, unit, dice, unit in scratch.level5, opts)
            if state.rules_version >= (1, 1):
                # an Explosion's attacks may roll criticals on the ships around: they take
                # effect at once (IO-6.3), as after gunnery; 1.0 left them unapplied

                new = follow_criticals(scratch, new, dice, fold, collateral)
            emit(new)
            if paused(new):
                return events
    # c) smoke removal
    smoke = scratch.data.tables.smoke
    smoking: list[ShipState | FortSectionState] = [
        s for s in scratch.ships.values() if s.afloat and mine(s.id)
    ]
    smoking += [u for u in scratch.sections.values() if u.side in choices and not u.destroyed]
    for smoker in smoking:  # ships and fort sections (IO-3.1)
        if smoker.smoke == "none":
            continue
        roll = target_roll(
            dice,
            expression=smoke.removal_die,
            target=smoke.removal_target,
            side=controller(scratch, smoker.id),
            purpose="smoke removal",
            rule="IO-3.1.2",
            subject=smoker.id,
        )
        emit([roll])
        if roll.success:
            lighter = "light" if smoker.smoke == "heavy" else "none"
            emit([SmokeChanged(ship=smoker.id, smoke=lighter)])
    # d) new repair parties
    for choice in choices.values():
        for unit in choice.place:
            if _afloat(scratch, unit):
                repair.check_repair_party(scratch, unit)
                emit([RepairParty(unit=unit, placed=True)])
    for side in choices:
        level5 = [
            u
            for u in units
            if controller(scratch, u) == side and _afloat(scratch, u) and _fire(scratch, u) == 5
        ]
        emit([StatusChecked(side=side, level5=level5)])
    return events


def _fire(state: IronOakState, unit: str) -> int:
    if unit in state.ships:
        return state.ships[unit].fire
    return state.sections[unit].fire


def _afloat(state: IronOakState, unit: str) -> bool:
    if unit in state.ships:
        return state.ships[unit].afloat
    return not state.sections[unit].destroyed


def fire_status(
    state: IronOakState,
    unit_id: str,
    dice: DiceSource,
    was_level_5_last_status: bool,
    options: criticals.CriticalOptions = criticals.DEFAULT_OPTIONS,
) -> list[DomainEvent]:
    """The Status Phase fire check of one ship or fort section (IO-3.1, IO-3.1.2): roll
    ``tables.fire.change_die`` on the current level's change rows, then take the new level's
    hits (a fort section's hits count towards its card's ``hits``).

    ``was_level_5_last_status``: the unit's fire stood at level 5 after its side's previous
    Status Phase. The caller tracks it (the state has no field for it). When it is set and the
    roll leaves a level-5 fire at 5, the fire has not dropped: the fire marker is removed and
    the fire resolves as an Explosion critical (IO-6.3.8, the fort version for a section)
    instead of the level's hits. The caller also checks level-5 fires before the others
    (IO-3.1). No fire, a sunk ship or a destroyed section: no events.
    """
    u = gunnery.unit(state, unit_id)
    gone = u.destroyed if isinstance(u, FortSectionState) else not u.afloat
    if gone or u.fire == 0:
        return []
    fire_table = state.data.tables.fire
    rows = fire_table.levels[u.fire].change

    def change(face: int) -> tuple[str, int]:
        to = next(row.to for row in rows if row.low <= face <= row.high)
        return ("out" if to == 0 else f"level {to}"), to

    roll = table_roll(
        dice,
        expression=fire_table.change_die,
        table=change,
        side=gunnery.opponent_of(u),
        purpose="fire level change",
        rule="IO-3.1.2",
        subject=unit_id,
    )
    rolled = int(roll.value)
    if u.fire == 5 and rolled == 5 and was_level_5_last_status:
        changed = FireChanged(unit=unit_id, before=5, rolled=5, after=0, explodes=True)
        after = criticals.apply(state, changed)
        return [
            roll,
            changed,
            *criticals.apply_critical(after, unit_id, "explosion", dice, options),
        ]
    hits = fire_table.levels[rolled].hits if rolled else 0
    return [
        roll,
        FireChanged(unit=unit_id, before=u.fire, rolled=rolled, after=rolled, hits=hits),
    ]
