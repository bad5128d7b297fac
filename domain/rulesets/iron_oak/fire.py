"""The Iron & Oak gunnery segment (IO-3.3.2, IO-6.0): declare, cards, one Misfire, resolve.

A) the side's own Gunfire markers come off (night, done when the step begins); B) the side
declares which gun sections of which ships and fort sections fire at which target (IO-6.0,
option ``who_fires``: by default each unit fires at one target with any of its gun sections,
each section once); C) the firer plays gunnery cards on declared fires; D) the opponent may play
one Misfire card, stopping one declared fire; E) fire resolves in declaration order (a unit
sunk or a target gone by then does not fire; criticals resolve at once, IO-6.3). At night every
unit that fired gets a Gunfire marker (IO-6.2.4).

A *declared fire* is one gun section's shot at its target (IO-6.2 rolls one section's dice,
「艦の砲セクションのダイス」): gunnery cards, Strike! and the Misfire act on one such shot, named
by ``firer`` and ``section`` (no section: the firer's first declared shot).
"""

from __future__ import annotations

from domain.dice import DiceSource
from domain.errors import IllegalCommand, InvalidCommand, NotYourTurn, WakeError
from domain.events import DomainEvent
from domain.rulesets.iron_oak import gunnery
from domain.rulesets.iron_oak.basics import Side
from domain.rulesets.iron_oak.commands import DeclareFire, RespondFire
from domain.rulesets.iron_oak.critical_chain import follow_criticals
from domain.rulesets.iron_oak.criticals import CollateralChoices
from domain.rulesets.iron_oak.events import GunneryResolved
from domain.rulesets.iron_oak.gunnery import GunneryOptions
from domain.rulesets.iron_oak.hands import check_play, hand, played
from domain.rulesets.iron_oak.movement import heavily_damaged
from domain.rulesets.iron_oak.sequence import controller, other
from domain.rulesets.iron_oak.state import Fold, IronOakState, fold_all
from domain.rulesets.iron_oak.turn_events import (
    FireCancelled,
    FireDeclared,
    GunfireMarkers,
    ShipCaptured,
    paused,
)
from domain.words import possessive


def gunnery_options(state: IronOakState) -> GunneryOptions:
    o = state.options
    return GunneryOptions(
        swap=o.swap, smoke_penalises=o.smoke_penalises, low_freeboard=o.low_freeboard
    )


def _unit_side(state: IronOakState, unit: str) -> Side | None:
    if unit in state.ships or unit in state.sections:
        return controller(state, unit)
    return None


def decide_declare(state: IronOakState, side: Side, command: DeclareFire) -> list[DomainEvent]:
    if state.phase != "gunnery" or state.fire_declared:
        raise IllegalCommand(
            "fire is declared at the start of the gunnery segment", rule="IO-3.3.2"
        )
    who_fires = state.options.who_fires
    sections: set[tuple[str, int]] = set()
    targets: dict[str, str] = {}  # each unit's first target
    for fire in command.fires:
        owner = _unit_side(state, fire.firer)
        if owner is None:
            raise InvalidCommand(f"no ship or fort section {fire.firer!r}")
        if owner != side:
            raise IllegalCommand(f"{fire.firer} is not a {side} unit", rule="IO-6.0")
        if (fire.firer, fire.section) in sections:
            raise IllegalCommand(
                f"{possessive(fire.firer)} gun section {fire.section} is declared twice",
                rule="IO-6.0",
            )
        if who_fires == "one_section" and fire.firer in targets:
            raise IllegalCommand(f"{fire.firer} may fire one gun section only", rule="IO-6.0")
        one_target = who_fires == "one_target" or fire.firer in state.sections
        first = targets.setdefault(fire.firer, fire.target)
        if one_target and first != fire.target:
            raise IllegalCommand(
                f"{fire.firer} may fire at one target only: {first}, not also {fire.target}",
                rule="IO-6.0",
            )
        sections.add((fire.firer, fire.section))
        gunnery.check_fire(state, fire.firer, fire.section, fire.target, plunging=fire.plunging)
    held = hand(state, side)
    events: list[DomainEvent] = [
        FireDeclared(side=side, fires=[f.model_dump(mode="json") for f in command.fires])
    ]
    for play in command.cards:
        card = check_play(state, side, play, "gunnery", "own", held)
        chosen = next(
            (
                f
                for f in command.fires
                if f.firer == play.firer and (play.section is None or f.section == play.section)
            ),
            None,
        )
        if chosen is None:
            raise IllegalCommand(
                f"{card.name} must be played on a declared fire (firer, section)", rule="IO-3.3.2"
            )
        if card.use not in ("gunnery", "strike"):
            raise IllegalCommand(f"{card.name} cannot be played on your own fire", rule="IO-7.0")
        events.append(played(side, card, chosen.firer, "own", section=chosen.section))
    return events


def decide_respond(
    state: IronOakState,
    side: Side,
    command: RespondFire,
    dice: DiceSource,
    fold: Fold,
    choices: CollateralChoices | None = None,
) -> list[DomainEvent]:
    if state.phase != "gunnery" or not state.fire_declared:
        raise IllegalCommand("no declared fire is waiting for the Misfire window", rule="IO-3.3.2")
    assert state.active is not None
    if side != other(state.active):
        raise NotYourTurn("the opponent of the firing side plays the Misfire", rule="IO-3.3.2")
    events: list[DomainEvent] = []
    cancelled: tuple[str, int] | None = None
    if command.misfire is not None:
        play = command.misfire
        card = check_play(state, side, play, "gunnery", "opponent", hand(state, side))
        if card.use != "misfire":
            raise IllegalCommand(
                f"only one Misfire card may be played against enemy fire, not {card.name}",
                rule="IO-3.3.2",
            )
        target = next(
            (
                f
                for f in state.fire_orders
                if f.firer == play.firer and (play.section is None or play.section == f.section)
            ),
            None,
        )
        if target is None:
            raise IllegalCommand("the Misfire must name a declared fire (firer)", rule="IO-3.3.2")
        cancelled = (target.firer, target.section)
        events += [
            played(side, card, target.firer, "opponent", section=target.section),
            FireCancelled(firer=target.firer, section=target.section),
        ]
    return events + resolve_all(fold_all(state, events, fold), dice, fold, cancelled, choices)


def resolve_all(
    state: IronOakState,
    dice: DiceSource,
    fold: Fold,
    cancelled: tuple[str, int] | None,
    choices: CollateralChoices | None = None,
) -> list[DomainEvent]:
    """IO-3.3.2 E: every declared fire that still can, in declaration order. A Collateral
    choice (IO-6.3.4, ``choices``) not made yet stops the events at its ``CollateralAwaited``."""
    events: list[DomainEvent] = []
    scratch = state
    fired: list[str] = []
    opts = gunnery_options(state)
    for fire in state.fire_orders:
        if cancelled == (fire.firer, fire.section):
            continue
        try:
            gunnery.check_fire(
                scratch, fire.firer, fire.section, fire.target, plunging=fire.plunging
            )
        except WakeError:
            continue  # the firer or its target is gone, or the target moved out of reach
        new = gunnery.resolve_fire(
            scratch, fire.firer, fire.section, fire.target, dice, opts, plunging=fire.plunging
        )
        new = follow_criticals(scratch, new, dice, fold, choices)
        if paused(new):
            return events + new
        scratch = fold_all(scratch, new, fold)
        events += new
        fired.append(fire.firer)
        strike = any(
            e.unit == fire.firer and e.use == "strike" and e.section in (None, fire.section)
            for e in state.effects
        )
        damaged = any(  # hull hits or shield damage
            isinstance(e, GunneryResolved)
            and e.firer == fire.firer
            and (e.hits > 0 or e.shield_after < e.shield_before)
            for e in new
        )
        if strike and damaged and fire.target in scratch.ships:
            captured = _strike(scratch, fire.target, controller(scratch, fire.firer))
            if captured is not None:
                scratch = fold(scratch, captured)
                events.append(captured)
    if scratch.scenario.night and fired:
        marker = GunfireMarkers(units=sorted(set(fired)), placed=True)
        events.append(marker)
    return events


def _strike(state: IronOakState, target: str, by: Side) -> ShipCaptured | None:
    """IO-6.2.3I ("Strike!"): a ship at heavy damage or heavy crew damage strikes its colours."""
    ship = state.ships[target]
    if not ship.afloat or ship.status == "captured":
        return None
    heavy_crew = ship.crew_damage >= state.card(target).crew.heavy
    if heavily_damaged(state, target) or heavy_crew:
        return ShipCaptured(ship=target, by=by)
    return None
