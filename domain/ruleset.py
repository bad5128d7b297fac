"""The ruleset contract and the registry of rule systems.

A ruleset is a set of pure functions over its own immutable state:

* ``decide(state, side, command, dice) -> events`` validates an order against the rules and
  resolves it, throwing dice from ``dice``; it raises a ``WakeError`` subclass (with the rule ID)
  to refuse an order and never changes ``state``.
* ``evolve(state, event) -> state`` applies one fact; no validation, no dice, no clock.

Everything else (legal commands, bot, read model, one-line descriptions, rule summaries) serves the
CLI and viewer. See docs/ruleset-contract.md for how each rule system maps onto it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from domain.dice import DiceSource
from domain.errors import UnknownRuleset
from domain.events import DomainEvent, EventRegistry
from domain.header import GameHeader
from domain.read_model import GameView

S = TypeVar("S")
C = TypeVar("C", bound=BaseModel)


class RulesetMeta(BaseModel):
    """What a ruleset is, for registries, headers and viewers."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    version: str
    min_sides: int
    max_sides: int
    board_kind: Literal["continuous", "grid", "zones"]
    hidden_information: list[str]
    rule_prefix: str
    description: str = ""
    # Older versions of this ruleset whose games it still re-runs with their own readings (a
    # game's header names the version it was recorded with; see Ruleset.initial_state).
    replays: list[str] = []


class Ruleset(ABC, Generic[S, C]):
    """One rule system. Subclasses are stateless; all game state lives in ``S``."""

    meta: ClassVar[RulesetMeta]
    events: ClassVar[EventRegistry]
    rule_summaries: ClassVar[Mapping[str, str]]

    # --- setting up -------------------------------------------------------------------------

    @abstractmethod
    def resolve_scenario(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """Validate a scenario file and return it fully resolved (data tables embedded).

        Raises:
            ScenarioError: the scenario is invalid.
        """

    @abstractmethod
    def resolve_options(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """Validate ruleset options and return them with every default filled in.

        Raises:
            ScenarioError: an unknown option or a bad value.
        """

    @abstractmethod
    def sides(self, scenario: Mapping[str, Any]) -> list[tuple[str, str]]:
        """(id, name) of each side of a resolved scenario, in seating order."""

    @abstractmethod
    def initial_state(self, header: GameHeader) -> S:
        """The state before any event: a pure function of the header."""

    # --- the pure core ----------------------------------------------------------------------

    @abstractmethod
    def parse_command(self, data: Mapping[str, Any]) -> C:
        """Turn a command's JSON form into its model.

        Raises:
            InvalidCommand: unknown command type or bad fields.
        """

    @abstractmethod
    def decide(self, state: S, side: str | None, command: C, dice: DiceSource) -> list[DomainEvent]:
        """Validate and resolve one order; return the events it causes.

        Raises:
            WakeError: a subclass naming the problem and the rule (nothing is appended).
        """

    @abstractmethod
    def evolve(self, state: S, event: DomainEvent) -> S:
        """Apply one event. Never raises, never rolls."""

    # --- serving players, bots and viewers --------------------------------------------------

    @abstractmethod
    def to_act(self, state: S) -> list[str | None]:
        """Sides expected to give the next order; ``None`` means an umpire/system step
        (an initiative roll, resolving declared attacks) that any side may trigger."""

    @abstractmethod
    def legal_commands(self, state: S, side: str | None) -> list[C]:
        """Concrete legal orders for ``side`` now. Continuous moves are sampled (the full move
        set is infinite): the list is representative, not exhaustive."""

    @abstractmethod
    def bot_command(self, state: S, side: str | None) -> C | None:
        """The bot's next order for ``side`` (or the system step for ``None``)."""

    @abstractmethod
    def read_model(self, state: S) -> GameView:
        """A plain view of the state for viewers."""

    @abstractmethod
    def describe(self, event: DomainEvent) -> str:
        """One line of text for the log."""

    @abstractmethod
    def dump_state(self, state: S) -> dict[str, Any]:
        """JSON form of the state (snapshots)."""

    @abstractmethod
    def load_state(self, data: Mapping[str, Any]) -> S:
        """Inverse of ``dump_state``."""

    def redact(self, event: DomainEvent, viewer: str | None) -> DomainEvent:
        """The event as ``viewer`` may see it (``None`` = umpire sees all). Default: public."""
        return event

    def rule_summary(self, rule_id: str) -> str:
        """One-line summary of a rule ID (``PL-4``, ``IO-5.4.1``); longest known prefix wins."""
        key = rule_id
        while key:
            if key in self.rule_summaries:
                return self.rule_summaries[key]
            key = key.rpartition(".")[0] if "." in key else ""
        return ""


_REGISTRY: dict[str, Callable[[], Ruleset[Any, Any]]] = {}
_INSTANCES: dict[str, Ruleset[Any, Any]] = {}


def register(ruleset_id: str, factory: Callable[[], Ruleset[Any, Any]]) -> None:
    """Make a ruleset available under ``ruleset_id``."""
    _REGISTRY[ruleset_id] = factory


def get_ruleset(ruleset_id: str) -> Ruleset[Any, Any]:
    """The ruleset registered as ``ruleset_id``.

    Raises:
        UnknownRuleset: nothing is registered under that id.
    """
    _load_builtin()
    if ruleset_id not in _INSTANCES:
        factory = _REGISTRY.get(ruleset_id)
        if factory is None:
            known = ", ".join(sorted(_REGISTRY)) or "none"
            raise UnknownRuleset(f"unknown ruleset {ruleset_id!r} (known: {known})")
        _INSTANCES[ruleset_id] = factory()
    return _INSTANCES[ruleset_id]


def known_rulesets() -> Sequence[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def _load_builtin() -> None:
    # Imported lazily: the rulesets import this module.
    import domain.rulesets.iron_oak
    import domain.rulesets.morze  # noqa: F401
