"""The decision points of a game: where a side gave an order worth evaluating.

``every`` chooses how fine the graph is: ``order`` (each order a side gave), ``activation`` (the
first order of each activation, as the ruleset groups orders: ``Ruleset.activation_key``; a
ruleset without activations groups a side's consecutive orders) or ``turn`` (the first order of
each game turn, from the read model). Orders the engine gives for nobody (an initiative roll)
are never points: there is no decision in them.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from domain.engine import Fact, fold, new_game
from domain.events import CommandIssued
from domain.header import GameHeader

Every = Literal["order", "activation", "turn"]
EVERY: tuple[Every, ...] = ("order", "activation", "turn")


@dataclass(frozen=True)
class DecisionPoint:
    """One order to evaluate: ``before`` is the number of events before its order fact (the
    position the side decided in), ``after`` the number once its events are applied; ``side``
    gave ``command`` (its JSON, as recorded)."""

    index: int
    before: int
    after: int
    side: str
    command: dict[str, Any]
    bot_command: dict[str, Any] | None = None
    """What the bot would have ordered for ``side`` in the position (None: nothing, or the
    same order)."""


def default_every(ruleset_id: str) -> Every:
    """One point per activation for every ruleset: a graph a person reads at a glance."""
    return "activation"


def find_points(header: GameHeader, facts: Sequence[Fact], every: Every) -> list[DecisionPoint]:
    """The game's decision points, in order.

    Raises:
        RecordError: the facts do not replay (they are folded without digest checks: the caller
            has verified the game).
    """
    state = new_game(header)
    ruleset = state.ruleset
    found: list[DecisionPoint] = []
    last: Hashable = object()
    orders = [i for i, f in enumerate(facts) if f.topic == CommandIssued.TOPIC]
    bounds = [*orders, len(facts)]
    for k, start in enumerate(orders):
        end = bounds[k + 1]
        order = CommandIssued.model_validate(facts[start].payload)
        before = state
        state = fold(state, (f.__dict__ for f in facts[start:end]), check=False)
        if order.side is None:
            continue
        key: Hashable
        if every == "order":
            key = start
        elif every == "turn":
            key = ruleset.read_model(state.rules).turn
        else:
            key = ruleset.activation_key(state.rules)
            if key is None:
                key = ("side", order.side)
        if key == last:
            continue
        last = key
        bot = ruleset.bot_command(before.rules, order.side)
        alternative = bot.model_dump(mode="json") if bot is not None else None
        if alternative == ruleset.parse_command(order.command).model_dump(mode="json"):
            alternative = None
        found.append(
            DecisionPoint(len(found), before.seq, end, order.side, order.command, alternative)
        )
    return found
