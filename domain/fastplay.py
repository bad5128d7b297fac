"""The rollouts' fast path: the same rules code as a recorded game, without the record.

A recorded order goes through ``engine.execute`` (parse, decide, an order fact, each event's
payload re-encoded in RFC 8785 form and chained by SHA-256 digests) and ``engine.fold`` (each
stored payload decoded back into an event, then ``evolve``). A rollout needs none of that: it
keeps no log, so :class:`FastGame` hands the bot's command straight to the ruleset's ``decide``
and folds the events ``decide`` returned straight into the state with ``evolve``
(``Ruleset.decide_folded``: a ruleset that folds them inside ``decide`` anyway hands that state
back). The dice are the same (die n of a seed is a pure function of the seed and n), the rules
are the same functions, so the events are the same: ``tests/test_fastplay.py`` checks them
against the recorded path for every bundled game and for bot games of every ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.dice import DiceSource, SeededDice
from domain.engine import GameState, initial_rules
from domain.errors import GameOver
from domain.events import DomainEvent, GameEnded, dice_end
from domain.header import GameHeader
from domain.ruleset import Ruleset, get_ruleset

MAX_ORDERS = 200_000
"""Orders a rollout may take before it is called unfinished (as ``simulate``)."""


@dataclass
class FastGame:
    """A game state folded without a log: the ruleset's state and the engine's counters.

    ``seq`` counts events as a recorded game would (an order fact plus the events it caused), so
    an event's place in a rollout reads like its place in a record."""

    ruleset: Ruleset[Any, Any]
    rules: Any
    seq: int
    commands: int
    dice_position: int
    result: GameEnded | None

    @classmethod
    def new(cls, header: GameHeader) -> FastGame:
        """A new game (as ``engine.new_game``, without the genesis digest: no log chains from
        it)."""
        return cls(get_ruleset(header.ruleset.id), initial_rules(header), 0, 0, 0, None)

    @classmethod
    def from_state(cls, state: GameState) -> FastGame:
        """Continue from an engine state (a replayed game, the umpire's view of a position)."""
        return cls(
            state.ruleset,
            state.rules,
            state.seq,
            state.commands,
            state.dice_position,
            state.result,
        )

    @property
    def over(self) -> bool:
        return self.result is not None

    def apply(self, side: str | None, command: Any, dice: DiceSource) -> list[DomainEvent]:
        """Decide ``command`` (a parsed command model) for ``side`` with ``dice`` and fold its
        events; returns them.

        Raises:
            WakeError: the order is refused (the game is unchanged).
        """
        if self.result is not None:
            raise GameOver("the game has ended; no more orders are accepted")
        events, rules = self.ruleset.decide_folded(self.rules, side, command, dice)
        position, result = self.dice_position, self.result
        for event in events:
            if type(event) is GameEnded:
                result = event
            end = dice_end(event)
            if end is not None and end > position:
                position = end
        self.rules, self.dice_position, self.result = rules, position, result
        self.commands += 1
        self.seq += 1 + len(events)
        return events

    def bot_step(self, seed: int) -> tuple[str | None, Any, list[DomainEvent]] | None:
        """The bot's next order for the first side to act that has one, thrown with ``seed``'s
        dice from this game's dice position: (side, command, events), or None when nobody can
        act (as ``engine.bot_order``)."""
        if self.result is not None:
            return None
        ruleset, rules = self.ruleset, self.rules
        for side in ruleset.to_act(rules):
            command = ruleset.bot_command(rules, side)
            if command is not None:
                events = self.apply(side, command, SeededDice(seed, start=self.dice_position))
                return side, command, events
        return None


def play_out(
    game: FastGame,
    seed: int,
    *,
    max_orders: int = MAX_ORDERS,
    watch: Callable[[str | None, Any, list[DomainEvent]], None] | None = None,
) -> FastGame:
    """Let the bots play ``game`` to its end (or until nobody can act), throwing ``seed``'s dice;
    ``watch`` sees each order and its events. Returns the same game, played."""
    for _ in range(max_orders):
        step = game.bot_step(seed)
        if step is None:
            break
        if watch is not None:
            watch(*step)
    return game


__all__ = ["MAX_ORDERS", "FastGame", "play_out"]
