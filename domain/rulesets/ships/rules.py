"""SHIPS & TACTICS ``decide``: one order to its events (nothing changes on a refusal)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.dice import DiceSource
from domain.errors import GameOver, InvalidCommand
from domain.events import DomainEvent
from domain.rulesets.ships import setup, turns
from domain.rulesets.ships.commands import (
    AirStrike,
    Attack,
    Board,
    CorrectFleet,
    Defend,
    EndTurn,
    FormFleet,
    Hack,
    LaunchAircraft,
    LineAttack,
    Minovsky,
    RevealFleet,
    StartBattle,
)
from domain.rulesets.ships.flow import Emitter
from domain.rulesets.ships.state import ShipsState

_HANDLERS: dict[type, Callable[[ShipsState, str | None, Any], Emitter]] = {
    FormFleet: setup.form_fleet,
    RevealFleet: setup.reveal_fleet,
    CorrectFleet: setup.correct_fleet,
    Minovsky: turns.minovsky,
    LaunchAircraft: turns.launch,
    Attack: turns.attack,
    LineAttack: turns.line_attack,
    Defend: turns.defend,
    AirStrike: turns.air_strike,
    Board: turns.board,
    Hack: turns.hack,
    EndTurn: turns.end_turn,
}


def decide(
    state: ShipsState, side: str | None, command: Any, dice: DiceSource
) -> list[DomainEvent]:
    """Validate and resolve one order.

    Raises:
        WakeError: the order is refused, naming the rule (ST-…).
    """
    if state.finished:
        raise GameOver("the five battles are over", rule="ST-4.4")
    if side is not None and side not in state.players:
        raise InvalidCommand(f"unknown player {side!r}")
    if isinstance(command, StartBattle):
        return setup.start_battle(state, side, command, dice).events
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise InvalidCommand(f"unknown order {type(command).__name__}")
    return handler(state, side, command).events
