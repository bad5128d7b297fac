"""Crossing the T (IO-5.5): the order, its bars (a failed T on the same target last turn,
helm criticals, IO-6.3.13 / IO-6.3.17), the opposed movement roll at −1, and the Bow-on or
Stern-on relation it leaves (IO-5.5.1, IO-5.5.2)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Literal

from domain.chance import opposed_roll
from domain.dice import DiceSource, Modifier
from domain.errors import IllegalCommand
from domain.events import DomainEvent
from domain.rulesets.iron_oak.events import CrossTAttempted
from domain.rulesets.iron_oak.maneuvers import (
    check_enemy_in_gb,
    check_helm,
    on_map_cell,
    own_maneuver_modifiers,
    side_of,
)
from domain.rulesets.iron_oak.state import (
    IronOakState,
    PairKind,
)
from domain.words import possessive

CrossKind = PairKind  # "bow_on" or "stern_on": what the target becomes (IO-5.5.1, IO-5.5.2)

OpposedReading = Literal["target", "mover"]


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
    s, _ = check_enemy_in_gb(state, ship, target, "IO-5.5")
    for flag, what in (
        (s.anchored, "anchored"),
        (bool(s.fouled_with), "fouled"),
        (s.aground, "aground"),
    ):
        if flag:
            raise IllegalCommand(f"{ship} is {what} and cannot cross the T", rule="IO-5.5")
    if not s.powered:
        raise IllegalCommand(f"{ship} has no power and cannot move", rule="IO-4.0")
    check_helm(s, "cross the T")
    if target in failed_last_turn:
        raise IllegalCommand(
            f"{ship} failed to cross {possessive(target)} T last turn and may not try it again",
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
    cell = on_map_cell(s, "IO-5.5")
    mods = [Modifier(state.data.tables.modifiers.crossing_t, "IO-5.5", "crossing the T")]
    mods += own_maneuver_modifiers(state, ship, cell, opposed_by, target)
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
        side=side_of(s),
        opponent_side=side_of(t),
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
