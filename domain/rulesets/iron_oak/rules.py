"""Iron & Oak ``decide`` and ``evolve``: one order through the sequence of play (IO-3).

``decide`` checks the order belongs to the current step and side, lets the phase's module
resolve it, and appends the events that open the next step. A resolution that comes to the
target's Collateral choice (IO-6.3.4) stops there and goes on with ``choose_collateral`` (see
"IO-6.3.4 choice" below). ``evolve`` folds resolution events through the rule modules
(movement, maneuvers, gunnery, criticals) and the turn events here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from pydantic import BaseModel, TypeAdapter

from domain.dice import CardRequest, CustomDie, DiceSource, Die
from domain.errors import IllegalCommand, NotYourTurn, WrongPhase
from domain.events import DomainEvent, GameEnded
from domain.rulesets.iron_oak import fire, hands, orders, status
from domain.rulesets.iron_oak.basics import Side
from domain.rulesets.iron_oak.commands import (
    AssignOrders,
    ChooseCollateral,
    Deal,
    DeclareFire,
    EndTurn,
    ExchangeCard,
    IronOakCommand,
    Pass,
    RespondFire,
    RespondMovement,
    RevealOrder,
    Status,
)
from domain.rulesets.iron_oak.criticals import CollateralChoices
from domain.rulesets.iron_oak.evolve import evolve
from domain.rulesets.iron_oak.passing import long_form as pass_long_form
from domain.rulesets.iron_oak.sequence import SIDES, advance, movers_left, to_act
from domain.rulesets.iron_oak.state import (
    IronOakState,
    ShipState,
    fold_all,
)
from domain.rulesets.iron_oak.turn_events import (
    CollateralAwaited,
    CollateralChosen,
    FireDeclared,
    ResolutionCheckpoint,
    StepBegan,
    paused,
)
from domain.words import possessive

_COMMANDS: TypeAdapter[Any] = TypeAdapter(IronOakCommand)

PHASE_OF = {
    Deal: ("setup", "IO-3.4"),
    Status: ("status", "IO-3.1"),
    AssignOrders: ("orders", "IO-3.2"),
    RevealOrder: ("movement", "IO-3.3.1"),
    RespondMovement: ("movement", "IO-3.3.1"),
    DeclareFire: ("gunnery", "IO-3.3.2"),
    RespondFire: ("gunnery", "IO-3.3.2"),
    ExchangeCard: ("exchange", "IO-3.4"),
    EndTurn: ("victory", "IO-3.5"),
}


def decide(
    state: IronOakState, side: str | None, command: object, dice: DiceSource
) -> list[DomainEvent]:
    if state.awaiting is not None or isinstance(command, ChooseCollateral):
        return _choose_collateral(state, side, command, dice)
    if isinstance(command, Pass):  # "nothing this step": the step's empty order, same events
        command = pass_long_form(state, side)
    phase, rule = PHASE_OF[type(command)]  # type: ignore[index]
    if state.phase != phase:
        raise WrongPhase(
            f"{type(command).__name__} belongs to the {phase} step; it is the {state.phase} "
            f"step of turn {state.turn}",
            rule=rule,
        )
    expected = to_act(state)
    if side is not None and side not in expected and None not in expected:
        raise NotYourTurn(
            f"it is {possessive(', '.join(str(s) for s in expected))} decision", rule=rule
        )
    if side is None and None not in expected:  # issue 23 item 12: a player's decision
        raise NotYourTurn(
            f"it is {possessive(', '.join(str(s) for s in expected))} decision: the order must "
            "name that side (an order without a side is the umpire's, and the umpire decides "
            "only the steps the rules give it)",
            rule=rule,
        )
    acting: Side | None = side if side in SIDES else None
    if acting is None and None not in expected:
        acting = expected[0]
    recorded = _Recorded(dice)
    events = _resolve(state, acting, command, recorded, ())
    if not paused(events):
        return events
    assert isinstance(command, BaseModel)
    held = ResolutionCheckpoint(command=command.model_dump(mode="json"), side=acting)
    return [held, *_hold(events, recorded, ())]


def _resolve(
    state: IronOakState,
    side: Side | None,
    command: object,
    dice: DiceSource,
    made: Sequence[str],
) -> list[DomainEvent]:
    """One order's events: its resolution and the steps it opens; or, when a Collateral choice
    not among ``made`` comes up (IO-6.3.4, from 1.1), its events up to a CollateralAwaited."""
    choices = CollateralChoices(made) if state.rules_version >= (1, 1) else None
    events = _decide(state, side, command, dice, choices)
    if not paused(events) and _step_done(state, events):
        events += advance(state, events, evolve)
    return events


def _decide(
    state: IronOakState,
    side: Side | None,
    command: object,
    dice: DiceSource,
    choices: CollateralChoices | None,
) -> list[DomainEvent]:
    if isinstance(command, Deal):
        return hands.deal(state, side, command, dice)
    if isinstance(command, EndTurn):
        return victory(state)
    if side is None:
        raise NotYourTurn("a side must give this order", rule="IO-3.0")
    if isinstance(command, Status):
        return status.decide_status(state, side, command, dice, evolve, choices)
    if isinstance(command, AssignOrders):
        return orders.decide_orders(state, side, command)
    if isinstance(command, RevealOrder):
        return orders.decide_reveal(state, side, command)
    if isinstance(command, RespondMovement):
        return orders.decide_respond(state, side, command, dice, evolve, choices)
    if isinstance(command, DeclareFire):
        return fire.decide_declare(state, side, command)
    if isinstance(command, RespondFire):
        return fire.decide_respond(state, side, command, dice, evolve, choices)
    if isinstance(command, ExchangeCard):
        return hands.exchange(state, side, command, dice)
    raise IllegalCommand(f"unknown order {command!r}")  # pragma: no cover


# --------------------------------------------------------------------------- IO-6.3.4 choice
#
# A resolution that comes to a Collateral choice of the target's side stops there: the order's
# events so far are recorded after a ResolutionCheckpoint (which keeps the state before the
# order) and end with a CollateralAwaited (the dice drawn so far, the choices made). The
# choose_collateral order runs the stopped order again from the kept state, with the same dice
# faces and the choices made plus the new one, and records the events that follow the ones
# already recorded (up to the next choice, or to the end). The run is deterministic, so the
# recorded events come out again unchanged (checked), and every die is drawn exactly as a
# re-run of the game draws it.


class _Recorded:
    """A dice source that first hands out ``replay`` (faces drawn for this resolution before it
    stopped, from die ``start``), then draws from ``inner``; it keeps every face it gave."""

    def __init__(
        self, inner: DiceSource, replay: Sequence[int] = (), start: int | None = None
    ) -> None:
        self.inner = inner
        self.replay = list(replay)
        self.start = inner.position if start is None else start
        self.faces: list[int] = []
        self.position = self.start

    def draw(self, die: Die | CustomDie) -> int:
        if len(self.faces) < len(self.replay):
            face = die.read_face(self.replay[len(self.faces)], self.position)
            self.position += 1
        else:
            face = self.inner.draw(die)
            self.position = self.inner.position
        self.faces.append(face)
        return face

    def draw_card(self, request: CardRequest) -> str:
        # no resolution that stops for a choice draws a card (IO-3.4 draws only in the deal
        # and the exchange), so nothing is replayed here
        card = self.inner.draw_card(request)
        self.position = self.inner.position
        return card


def _hold(events: Sequence[DomainEvent], dice: _Recorded, made: Sequence[str]) -> list[DomainEvent]:
    """``events`` (ending with a CollateralAwaited) with that event completed with what the
    resolution needs to go on."""
    awaited = cast(CollateralAwaited, events[-1])
    update = {
        "faces": list(dice.faces),
        "start": dice.start,
        "next_die": dice.position,
        "choices": list(made),
        "emitted": len(events) - 1,
    }
    return [*events[:-1], awaited.model_copy(update=update)]


def _choose_collateral(
    state: IronOakState, side: str | None, command: object, dice: DiceSource
) -> list[DomainEvent]:
    """IO-6.3.4: the target's side chooses the Collateral location; the stopped order goes on.

    Raises:
        IllegalCommand: no choice is awaited, another order while one is, or a location that
            is not a candidate (IO-6.3.4).
        NotYourTurn: another side than the target's (IO-6.3.4).
    """
    awaiting, resuming = state.awaiting, state.resuming
    if awaiting is None or resuming is None:
        raise IllegalCommand("no Collateral location is waiting to be chosen", rule="IO-6.3.4")
    wanted = f"{awaiting.side} chooses where {possessive(awaiting.unit)} Collateral damage goes"
    if not isinstance(command, ChooseCollateral):
        raise IllegalCommand(f"the resolution has stopped: {wanted} first", rule="IO-6.3.4")
    if side != awaiting.side:  # an order without a side is not the target's (issue 23 #12)
        raise NotYourTurn(f"the target's side chooses: {wanted}", rule="IO-6.3.4")
    if command.location not in awaiting.candidates:
        raise IllegalCommand(
            f"Collateral after the hit on {awaiting.hit} goes to "
            f"{' or '.join(awaiting.candidates)}, not {command.location}",
            rule="IO-6.3.4",
        )
    base = resuming.base
    original = _COMMANDS.validate_python(resuming.command)
    made = (*awaiting.choices, command.location)
    recorded = _Recorded(dice, awaiting.faces, awaiting.start)
    events = _resolve(base, resuming.side, original, recorded, made)
    done = fold_all(base, events[: awaiting.emitted], evolve)
    if done != state.model_copy(update={"awaiting": None, "resuming": None}):
        raise RuntimeError("internal error: the stopped order did not run the same again")
    stopped = paused(events)
    if stopped:
        events = _hold(events, recorded, made)
    chosen = CollateralChosen(
        unit=awaiting.unit, side=awaiting.side, location=command.location, final=not stopped
    )
    return [chosen, *events[awaiting.emitted :]]


def _step_done(state: IronOakState, events: Sequence[DomainEvent]) -> bool:
    if any(isinstance(e, GameEnded | StepBegan) for e in events):
        return False
    if state.phase == "movement":
        after = fold_all(state, events, evolve)
        return after.pending_move is None and not movers_left(after)
    if state.phase == "gunnery":
        declared = [e for e in events if isinstance(e, FireDeclared)]
        return not declared or not declared[0].fires
    return True


# --------------------------------------------------------------------------- victory (IO-3.5)


def victory_points(state: IronOakState) -> dict[Side, int]:
    """VP so far (IO-3.5.1, IO-6.2.3I): each enemy ship sunk or captured is worth its card's VP
    to the other side (a captured ship that later sinks still counts once); a ship that left
    the map by the scenario's exit scores its ``exit_vp`` for its own side."""
    vp: dict[Side, int] = {"CSA": 0, "USA": 0}
    for ship in state.ships.values():
        enemy: Side = "USA" if ship.side == "CSA" else "CSA"
        if ship.status == "sunk" or ship.captured_by is not None:
            vp[enemy] += state.card(ship.id).vp
        elif ship.status == "exited" and ship.id in state.scenario.victory.exit_vp:
            vp[ship.side] += state.scenario.victory.exit_vp[ship.id]
    return vp


def in_play(state: IronOakState, side: Side) -> list[ShipState]:
    """The side's ships still fighting: afloat, not captured, not retiring."""
    return [
        s
        for s in state.ships.values()
        if s.side == side and s.status == "active" and s.captured_by is None
    ]


def victory(state: IronOakState) -> list[DomainEvent]:
    """IO-3.5: end the game at the turn limit or when a side has no ship left fighting; the
    side with more VP wins (equal VP: a draw)."""
    vp = victory_points(state)
    gone = [side for side in SIDES if not in_play(state, side)]
    if state.turn < state.scenario.turn_limit and not gone:
        return []
    reason = (
        f"turn limit {state.scenario.turn_limit} reached"
        if not gone
        else f"{' and '.join(gone)} ha{'ve' if len(gone) > 1 else 's'} no ship left fighting"
    )
    winner: Side | None = None
    if vp["CSA"] != vp["USA"]:
        winner = "CSA" if vp["CSA"] > vp["USA"] else "USA"
    return [GameEnded(winner=winner, reason=reason, rule="IO-3.5", vp=dict(vp))]
