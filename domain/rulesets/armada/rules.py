"""Star Wars: Armada ``decide`` and ``evolve``: one order through the round (SWA-R1).

``decide`` hands the order to its phase's module (setup, Command Phase, Ship Phase commands and
maneuver, squadrons; INTEGRATION POINT: the attack pipeline's orders first) and then appends the
automatic events that follow (:func:`advance`): the next turn, the next phase, the Status Phase,
the end of the game. A refused order raises a typed error with its rule and appends nothing.
``evolve`` folds the sequence events here and hands any other event to the phase modules that
handle it (each module's ``HANDLES``), then to the integration point's ``apply``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from domain.dice import DiceSource
from domain.errors import GameOver, IllegalCommand, InvalidCommand, NotYourTurn
from domain.events import DomainEvent, GameEnded
from domain.frozen import changed
from domain.rulesets.armada import (
    command_phase,
    integration,
    maneuvering,
    obstacles,
    passing,
    scoring,
    setup_phase,
    ship_commands,
    ship_phase,
    squadron_phase,
    status_phase,
)
from domain.rulesets.armada.commands import (
    ActivateSquadron,
    DebrisZone,
    DeployShip,
    DeploySquadrons,
    EndSquadronActivation,
    Maneuver,
    MoveSquadron,
    PassTurn,
    PlaceSquadrons,
    Repair,
    RevealDial,
    SetDials,
    SquadronCommand,
    StationDiscard,
)
from domain.rulesets.armada.events import PhaseBegan, TurnBegan
from domain.rulesets.armada.sequence import to_act
from domain.rulesets.armada.state import ArmadaState, next_side
from domain.words import possessive

MAX_AUTOMATIC = 64
"""Automatic steps after one order, at most (a guard: a round has a handful)."""


def fold_all(state: ArmadaState, events: Sequence[DomainEvent]) -> ArmadaState:
    """``state`` with ``events`` applied in order (a scratch state inside ``decide``)."""
    for event in events:
        state = evolve(state, event)
    return state


class _Folder:
    """:func:`fold_all` for one order's decision, remembering its last fold from each state.
    A maneuver's decision folds its growing list of events from the same state again and again
    (is the ship still in play? what lies under it now?), and ``decide`` then folds them all
    once more: a fold of a state whose events begin with the last fold's from that state goes
    on from that fold's result instead. Folding is a left fold of pure steps, so the state is
    the same."""

    def __init__(self) -> None:
        # per start state's id: the state itself (so the id is not reused meanwhile), the
        # events folded (a snapshot: a decider's list grows in place) and the state after them
        self.last: dict[int, tuple[ArmadaState, tuple[DomainEvent, ...], ArmadaState]] = {}

    def __call__(self, state: ArmadaState, events: Sequence[DomainEvent]) -> ArmadaState:
        entry = self.last.get(id(state))
        if (
            entry is not None
            and entry[0] is state
            and len(events) >= len(entry[1])
            and all(a is b for a, b in zip(entry[1], events[: len(entry[1])], strict=True))
        ):
            after = fold_all(entry[2], events[len(entry[1]) :])
        else:
            after = fold_all(state, events)
        self.last[id(state)] = (state, tuple(events), after)
        return after


#: The rule whose phase a decision belongs to (for a refusal that names it).
_PHASE_RULES: dict[str, str] = {
    "setup": "SWA-SETUP",
    "command": "SWA-R2",
    "ship": "SWA-2",
    "squadron": "SWA-3",
    "status": "SWA-5",
    "over": "SWA-5",
}


def decide(
    state: ArmadaState, side: str | None, command: object, dice: DiceSource
) -> list[DomainEvent]:
    """Validate and resolve one order; the events it causes and the automatic ones after.

    Raises:
        WakeError: a subclass naming the rule; nothing is appended.
    """
    return decide_folded(state, side, command, dice)[0]


def decide_folded(
    state: ArmadaState, side: str | None, command: object, dice: DiceSource
) -> tuple[list[DomainEvent], ArmadaState]:
    """:func:`decide`'s events and the state after them all: finding the automatic steps folds
    every event anyway, so the rollouts' fast path takes that state instead of folding again.

    Raises:
        WakeError: as :func:`decide`.
    """
    if state.phase == "over" or state.result is not None:
        raise GameOver("the game has ended", rule="SWA-5")
    if side is None:  # issue 23 item 12: every Armada decision is a player's
        who = " and ".join(to_act(state)) or "a player"
        raise NotYourTurn(
            f"it is {possessive(who)} decision: the order must name the side giving it (an "
            "order without a side is the umpire's, and Armada gives the umpire no decision)",
            rule="SWA-ATK" if state.attack is not None else _PHASE_RULES[state.phase],
        )
    events = integration.decide(state, side, command, dice)
    if events is None:
        if state.attack is not None:
            raise IllegalCommand("an attack is in progress: finish it first", rule="SWA-2.2")
        if state.dealings:
            who = integration.dealing_chooser(state) or "a player"
            raise IllegalCommand(
                f"a face-up damage card waits for {possessive(who)} choice: make it first",
                rule="SWA-DMG",
            )
        waiting = state.obstacle_choice
        if waiting is not None and not isinstance(command, (DebrisZone, StationDiscard)):
            what = "hull zone" if waiting.kind == "debris" else "damage card to discard"
            raise IllegalCommand(
                f"{waiting.obstacle} under {waiting.ship} waits for "
                f"{possessive(waiting.chooser)} choice of "
                f"the {what}: make it first",
                rule="SWA-OVL",
            )
        folder = _Folder()
        events = _decide(state, side, command, dice, folder)
        automatic, after = advance_folded(folder(state, events))
        return [*events, *automatic], after
    automatic, after = advance_folded(fold_all(state, events))
    return [*events, *automatic], after


def _decide(
    state: ArmadaState,
    side: str | None,
    command: object,
    dice: DiceSource,
    fold: Callable[[ArmadaState, Sequence[DomainEvent]], ArmadaState] = fold_all,
) -> list[DomainEvent]:
    if isinstance(command, DeployShip):
        return setup_phase.decide_ship(state, side, command)
    if isinstance(command, DeploySquadrons):
        return setup_phase.decide_squadrons(state, side, command)
    if isinstance(command, SetDials):
        return command_phase.decide(state, side, command)
    if isinstance(command, RevealDial):
        return ship_phase.decide_reveal(state, side, command, dice, fold)
    if isinstance(command, SquadronCommand):
        return ship_commands.decide_squadron(state, side, command)
    if isinstance(command, Repair):
        return ship_commands.decide_repair(state, side, command)
    if isinstance(command, PassTurn):
        return passing.decide_pass(state, side, command)
    if isinstance(command, Maneuver):
        return maneuvering.decide_maneuver(state, side, command, dice, fold)
    if isinstance(command, PlaceSquadrons):
        return maneuvering.decide_place(state, side, command)
    if isinstance(command, (DebrisZone, StationDiscard)):
        return maneuvering.decide_obstacle_choice(state, side, command, dice, fold)
    if isinstance(command, ActivateSquadron):
        return squadron_phase.decide_activate(state, side, command)
    if isinstance(command, MoveSquadron):
        return squadron_phase.decide_move(state, side, command)
    if isinstance(command, EndSquadronActivation):
        return squadron_phase.decide_end(state, side, command)
    raise InvalidCommand(f"not an Armada order: {command!r}")


# --------------------------------------------------------------------------- automatic steps


def advance(state: ArmadaState) -> list[DomainEvent]:
    """The automatic events after an order, up to the next decision (or the end)."""
    return advance_folded(state)[0]


def advance_folded(state: ArmadaState) -> tuple[list[DomainEvent], ArmadaState]:
    """:func:`advance`'s events and the state after them."""
    events: list[DomainEvent] = []
    for _ in range(MAX_AUTOMATIC):
        step = _next_step(state)
        if not step:
            return events, state
        events += step
        state = fold_all(state, step)
    raise RuntimeError("internal error: the round does not come to a decision")  # pragma: no cover


def _next_step(state: ArmadaState) -> list[DomainEvent]:
    if state.result is not None or state.phase == "over":
        return []
    ended = scoring.immediate(state)
    if ended is not None:
        return [ended]
    if state.phase == "setup":
        if state.active is not None:
            return []
        if setup_phase.done(state):
            return [PhaseBegan(round=state.round, phase="command")]
        return setup_phase.next_turn(state)
    if state.phase == "command":
        if set(state.dials_set) >= set(state.scenario.side_ids):
            return [PhaseBegan(round=state.round, phase="ship")]
        return []
    if state.attack is not None or state.dealings:
        return []
    finished = squadron_phase.finish(state, integration.squadron_can_attack)
    if finished:
        return finished
    busy = (
        state.active is not None
        or state.activation is not None
        or state.squadron_activation is not None
        or state.displaced is not None
        or state.attack is not None
    )
    if state.phase == "ship":
        if busy:
            return []
        side = next_side(state, ship_phase.can_activate)
        if side is not None:
            return [TurnBegan(side=side, rule="SWA-2")]
        return [PhaseBegan(round=state.round, phase="squadron")]
    if state.phase == "squadron":
        if busy:
            return []
        side = next_side(state, squadron_phase.can_activate)
        if side is not None:
            return [TurnBegan(side=side, rule="SWA-3")]
        return [PhaseBegan(round=state.round, phase="status")]
    # the Status Phase needs no decision (SWA-4)
    status = status_phase.resolve(state)
    if state.round >= state.scenario.rounds:
        return [status, scoring.final(status_phase.apply(state, status))]
    return [status, PhaseBegan(round=state.round + 1, phase="command")]


# --------------------------------------------------------------------------- evolve


def evolve(state: ArmadaState, event: DomainEvent) -> ArmadaState:
    """Apply one event; never raises for an event ``decide`` produced."""
    if isinstance(event, PhaseBegan):
        return changed(
            state,
            round=event.round,
            phase=event.phase,
            active=None,
            last=None,
            dials_set=(),
            turn_count=0,
            passed_last=None,
            last_attack=None,  # an overlay lives for its own activation only
            last_maneuver=None,
        )
    if isinstance(event, TurnBegan):
        return changed(
            state,
            active=event.side,
            last=event.side,
            turn_count=0,
            last_attack=None,
            last_maneuver=None,
        )
    if isinstance(event, GameEnded):
        result = {"winner": event.winner or "", "reason": event.reason}
        return changed(state, phase="over", active=None, result=result)
    for module in _route(type(event)):
        state = module(state, event)
    return state


_Apply = Callable[[ArmadaState, DomainEvent], ArmadaState]

#: The phase modules' ``apply`` with the events each handles (its ``HANDLES``), in the order
#: evolve hands an event to them; the integration point's ``apply`` (attacks, defence tokens,
#: the damage deck, units' damage) reads every event and comes last.
_MODULES: tuple[tuple[_Apply, tuple[type[DomainEvent], ...]], ...] = tuple(
    (module.apply, module.HANDLES)
    for module in (
        setup_phase,
        command_phase,
        ship_phase,
        ship_commands,
        maneuvering,
        obstacles,
        squadron_phase,
        status_phase,
        passing,
    )
)
_ROUTES: dict[type, tuple[_Apply, ...]] = {}


def _route(kind: type) -> tuple[_Apply, ...]:
    """The ``apply`` functions an event of ``kind`` goes through, in :data:`_MODULES`' order:
    the modules that handle it (a module returns any other event's state unchanged, so
    skipping it changes nothing) and the integration point. Worked out once per event type."""
    route = _ROUTES.get(kind)
    if route is None:
        route = tuple(apply for apply, handles in _MODULES if issubclass(kind, handles))
        route = _ROUTES[kind] = (*route, integration.apply)
    return route
