"""The ruleset contract and the registry of rule systems.

A ruleset is a set of pure functions over its own immutable state:

* ``decide(state, side, command, dice) -> events`` validates an order against the rules and
  resolves it, throwing dice from ``dice``; it raises a ``WakeError`` subclass (with the rule ID)
  to refuse an order and never changes ``state``.
* ``evolve(state, event) -> state`` applies one fact; no validation, no dice, no clock.

Everything else (legal commands, bot, read model, one-line descriptions, rule summaries) serves the
CLI and viewer. See docs/ruleset-contract.md for how each rule system maps onto it.

Rulesets are plugins: an installed package declares each in the ``wake.rulesets`` entry-point group
(the built-in ones too, in pyproject.toml), and this module finds them by name. It never imports a
ruleset itself, so the rulesets sit above it and nothing here depends on them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any, ClassVar, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from domain.commands import order_sentence
from domain.data_versions import PartChoice, ShippedData, choose_parts
from domain.dice import CustomDie, DiceSource
from domain.errors import InvalidCommand, UnknownRuleset
from domain.events import DomainEvent, EventRegistry
from domain.header import GameHeader
from domain.read_model import GameView
from domain.reveals import SealedItem
from domain.scribe.menu import MenuOrder

#: The entry-point group a package declares its rulesets in (``id = "module:RulesetClass"``).
ENTRY_POINT_GROUP = "wake.rulesets"

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


def version_tuple(version: str) -> tuple[int, int]:
    """A ruleset version as a comparable pair: ``"1.0"`` → ``(1, 0)``, ``"0.2"`` → ``(0, 2)``
    (a state's ``rules_version``, for the fixes an older version's records replay without)."""
    major, _, minor = version.partition(".")
    return int(major), int(minor or 0)


class Ruleset(ABC, Generic[S, C]):
    """One rule system. Subclasses are stateless; all game state lives in ``S``."""

    meta: ClassVar[RulesetMeta]
    events: ClassVar[EventRegistry]
    rule_summaries: ClassVar[Mapping[str, str]]
    #: Each option's rule: the rule whose reading the option settles (``smoke_penalises`` ->
    #: ``IO-6.2.3C``), which ruling diffs name (:meth:`option_rule`). Default: none.
    option_rules: ClassVar[Mapping[str, str]] = {}
    #: Options added to the current version after games were recorded without them: a header
    #: of that version may leave them out, and their default is the reading those games were
    #: played under. Every other option must be in a current header (issue 23 item 11).
    options_added_later: ClassVar[frozenset[str]] = frozenset()

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

    def decide_folded(
        self, state: S, side: str | None, command: C, dice: DiceSource
    ) -> tuple[list[DomainEvent], S]:
        """``decide``'s events and the state after evolving them all (for the rollouts' fast
        path). A ruleset whose ``decide`` already folds its events to find the automatic steps
        after an order overrides this to hand that state back instead of folding twice.

        Raises:
            WakeError: as ``decide``.
        """
        events = self.decide(state, side, command, dice)
        for event in events:
            state = self.evolve(state, event)
        return events, state

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

    # --- data: the tables a scenario embeds (domain.data_versions) ---------------------------

    def shipped_data(self) -> ShippedData:
        """The data this version ships, each part as :meth:`data_parts` finds it in a resolved
        scenario, and the digests of every earlier shipped version of each part. Default: none
        (a ruleset whose data is not bundled)."""
        return ShippedData()

    def data_parts(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        """The data parts a resolved scenario embeds, by name. Default: the ``data`` object of
        the ``{"scenario": ..., "data": {part: table}}`` form (Iron & Oak, Armada, SHIPS)."""
        data = scenario.get("data")
        return dict(data) if isinstance(data, Mapping) else {}

    def with_data_parts(
        self, scenario: Mapping[str, Any], parts: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A resolved scenario with ``parts`` in place of the tables of the same names, resolved
        (validated) again. Default: for the ``data`` object of :meth:`data_parts`' form.

        Raises:
            ScenarioError: the ruleset refuses the result.
        """
        data = scenario.get("data")
        merged = {**(data if isinstance(data, Mapping) else {}), **parts}
        return self.resolve_scenario({**scenario, "data": merged})

    def current_data(
        self, scenario: Mapping[str, Any], given: Mapping[str, Any] | None = None
    ) -> tuple[dict[str, Any], list[PartChoice]]:
        """A recorded game's resolved scenario with the data this version ships now in place of
        each table the game took from a shipped version (told by digest, never by label), and
        what was chosen for each part (``domain.data_versions``); ``given``: tables (as the
        ruleset's data files) to use in place of the shipped ones. ``wake verify --rerun``
        re-decides old games with it after a rules or data change.

        Raises:
            DataNotAvailable: a table is a changed copy of a shipped one and is not given.
            ScenarioError: a given table, or the result, is refused.
        """
        shipped = self.shipped_data()
        if not shipped.parts and not given:
            return dict(scenario), []
        tables = {
            name: self.data_parts(self.with_data_parts(scenario, {name: table}))[name]
            for name, table in (given or {}).items()
        }
        choices = choose_parts(self.data_parts(scenario), shipped, tables)
        return self.with_data_parts(scenario, {c.name: c.part for c in choices}), choices

    def current_scenario(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        """:meth:`current_data`'s scenario, with no table given.

        Raises:
            DataNotAvailable, ScenarioError: as :meth:`current_data`.
        """
        return self.current_data(scenario)[0]

    def describe_order(self, command: Mapping[str, Any], before: GameView | None = None) -> str:
        """An order (its JSON form) as one readable sentence for explanations. Default:
        :func:`domain.commands.order_sentence` (the type in words, then the fields; secrets
        such as a sealed dial's salt left out; a unit put somewhere on the table as
        ``achilles moves 9.8 cm to (95, 63)``). ``before``: the read model of the board the
        order was given on, where the caller has it (how far a unit moves is measured on
        it). A ruleset may say it better."""
        return order_sentence(command, before)

    def order_notes(self, state: S, command: Mapping[str, Any]) -> list[str]:
        """Lines that say what an order (its JSON form, as the viewer may see it) brings into
        play that its sentence only names: what each card played with it does, for
        explanations. Default: none."""
        return []

    def event_notes(self, state: S, event: DomainEvent) -> list[str]:
        """Lines that say what the state just before ``event`` makes of it where the event
        does not carry it: the range or zone relation at an attack's declaration. ``event`` is
        the one the viewer may see (redacted); say nothing the viewer may not know. For
        explanations. Default: none."""
        return []

    def names(self, state: S) -> dict[str, str]:
        """Display names of the ids this ruleset's texts use beyond the read model's units and
        sides: catalogue entries such as cards (``"mega_particle": "Mega-particle cannon"``) and
        damage cards, by id, for text a person reads (:class:`domain.words.Names`). Only names
        every side may know (a catalogue, not who holds what). Default: none (ids in
        ``snake_case`` are then humanised)."""
        return {}

    def custom_dice(self) -> Sequence[CustomDie]:
        """The custom dice this ruleset rolls (Armada's coloured dice), so that explanations show
        a pool's dice by colour and icons. Default: none."""
        return ()

    def glossary(self) -> dict[str, str]:
        """This ruleset's terms and what each means here, citing the rule (``"CR": "combat
        result (IO-6.2): ..."``), for explanations: a key naming one of Wake's generic notations
        (:data:`domain.glossary.GENERIC_KINDS`: ``"floor"``, ``"keep-highest"``, ``"N+"``, ...)
        adds this ruleset's reading to it; any other key is a term found literally in the text
        (:func:`domain.glossary.find_terms`). Default: none."""
        return {}

    def with_bot_secret(self, state: S, secret: str) -> S:
        """``state`` as the bot sees it where a secret is known that the players do not know:
        the secret seed of a committed-seed game (``domain.engine.bot_secret``). A ruleset whose
        bot seals orders derives their salts from it, so that nobody can open the bot's sealed
        orders by trying each possible one; anywhere else, the salts derive from public data.
        Default: the state unchanged (a bot that seals nothing)."""
        return state

    def sealed_items(self, state: S, event: DomainEvent) -> list[SealedItem]:
        """What ``event`` (as recorded, the umpire's view) commits to under seal or opens, given
        the state just before it: a :class:`domain.reveals.SealedCommit` (the digest and a
        label, ``"monitor order card"``) for each choice it seals, a
        :class:`domain.reveals.SealedReveal` (the content and salt exactly as sealed, and the
        content in a few plain words) for each one it opens. ``domain.reveals.match_sealed``
        pairs them by digest, recomputed from content and salt, so the umpire's view shows a
        sealed choice's content at the moment it was made. Called for every fact except
        ``CommandIssued`` (the facts an order causes carry its seals). Default: nothing sealed.
        """
        return []

    def order_menu(self, state: S, side: str | None) -> list[MenuOrder] | None:
        """What ``side`` may order now, as a menu a scribe's page or terminal renders
        (:mod:`domain.scribe.menu`): each order with its fields still to choose and the values
        the rules allow, in players' words; a unit picked on the board, a move as a point, the
        cards of a hand as a pick of several, a secret choice marked ``secret`` in an order
        marked ``sealed`` (built by :meth:`seal_order`). Default ``None``: the scribe builds a
        menu from :meth:`legal_commands` (every field a choice among the listed values)."""
        return None

    def seal_order(
        self, state: S, side: str | None, order: MenuOrder, values: Mapping[str, Any]
    ) -> C:
        """The order that commits ``side``'s secret ``values`` for a ``sealed`` menu order (an
        order card, a command dial, a face-down fleet), sealed with salts derived as this
        ruleset's bot derives its own from the state the scribe passes: the state as
        :meth:`with_bot_secret` makes it with that side's own secret, so the side's later
        reveals come out of :meth:`legal_commands` and :meth:`order_menu` like the bot's.

        Raises:
            InvalidCommand: the values do not make an order (default: no sealed orders).
        """
        raise InvalidCommand(f"{self.meta.name} has no sealed orders")

    def ruler(self, state: S, a: str, b: str) -> list[str] | None:
        """Lines in players' words measuring between units ``a`` and ``b`` with this ruleset's
        own measures (issue 21 item 14: a range dispute settled on the board): the distance,
        and whether each can fire at the other and at what range, citing the rule. Default
        ``None``: the viewer falls back to the plain distance between the two on the board."""
        return None

    def episode(self, event: DomainEvent) -> Literal["begin", "end"] | None:
        """Whether ``event`` opens or closes an episode that spans several orders (an Armada
        attack: declared, decided step by step, ended). ``explain`` shows every event and roll
        of the episode an event belongs to. Default: no episodes."""
        return None

    def activation_key(self, state: S) -> Hashable | None:
        """What activation ``state`` is in, for analysis points one per activation (an Armada
        ship's or squadron's activation): equal keys, the same activation. Default: None, and
        ``domain.analysis`` groups a side's consecutive orders instead."""
        return None

    def option_rule(self, name: str) -> str:
        """The rule an option's reading belongs to (``""`` when the ruleset names none)."""
        return self.option_rules.get(name, "")

    def rule_summary(self, rule_id: str) -> str:
        """One-line summary of a rule ID (``PL-4``, ``IO-5.4.1``); longest known prefix wins."""
        key = rule_id
        while key:
            if key in self.rule_summaries:
                return self.rule_summaries[key]
            key = key.rpartition(".")[0] if "." in key else ""
        return ""


class PluginInfo(BaseModel):
    """Where a ruleset comes from: a ``wake.rulesets`` entry point (or ``register``)."""

    model_config = ConfigDict(frozen=True)

    id: str
    target: str  # "module:attribute" of the entry point, or "registered in process"
    distribution: str  # the installed package that declares it ("" when registered in process)
    error: str = ""  # why it could not be loaded ("" when it loads)


_REGISTERED: dict[str, Callable[[], Ruleset[Any, Any]]] = {}
_INSTANCES: dict[str, Ruleset[Any, Any]] = {}


def register(ruleset_id: str, factory: Callable[[], Ruleset[Any, Any]]) -> None:
    """Make a ruleset available in this process under ``ruleset_id`` (tests, notebooks). An
    installed package registers through the ``wake.rulesets`` entry-point group instead."""
    _REGISTERED[ruleset_id] = factory
    _INSTANCES.pop(ruleset_id, None)


def unregister(ruleset_id: str) -> None:
    """Undo :func:`register`: ``ruleset_id`` is found through its entry point again (if any)."""
    _REGISTERED.pop(ruleset_id, None)
    _INSTANCES.pop(ruleset_id, None)


@cache
def _entry_points() -> dict[str, EntryPoint]:
    """The ``wake.rulesets`` entry points of every installed distribution, by name. The first
    one found wins when two packages declare the same name."""
    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(point.name, point)
    return found


def _load(ruleset_id: str, point: EntryPoint) -> Ruleset[Any, Any]:
    """Instantiate the ruleset an entry point names (a ``Ruleset`` subclass or a factory).

    Raises:
        UnknownRuleset: it cannot be imported, is not a ruleset, or carries another id.
    """
    where = f"ruleset plugin {ruleset_id!r} ({point.value})"
    try:
        target = point.load()
        ruleset = target()
    except Exception as exc:  # a third party's import error must not take Wake down
        raise UnknownRuleset(f"{where} failed to load: {type(exc).__name__}: {exc}") from exc
    if not isinstance(ruleset, Ruleset):
        raise UnknownRuleset(f"{where} is not a domain.ruleset.Ruleset")
    if ruleset.meta.id != ruleset_id:
        raise UnknownRuleset(f"{where} declares the id {ruleset.meta.id!r}")
    return ruleset


def get_ruleset(ruleset_id: str) -> Ruleset[Any, Any]:
    """The ruleset registered as ``ruleset_id`` (in process first, then by entry point).

    Raises:
        UnknownRuleset: nothing is registered under that id, or its plugin does not load.
    """
    ruleset = _INSTANCES.get(ruleset_id)
    if ruleset is not None:
        return ruleset
    factory = _REGISTERED.get(ruleset_id)
    if factory is not None:
        ruleset = factory()
    else:
        point = _entry_points().get(ruleset_id)
        if point is None:
            known = ", ".join(known_rulesets()) or "none"
            raise UnknownRuleset(f"unknown ruleset {ruleset_id!r} (known: {known})")
        ruleset = _load(ruleset_id, point)
    _INSTANCES[ruleset_id] = ruleset
    return ruleset


def known_rulesets() -> Sequence[str]:
    """Ids of every ruleset registered in process or declared by an installed package."""
    return sorted({*_REGISTERED, *_entry_points()})


def plugins() -> list[PluginInfo]:
    """Every ruleset found, where it comes from, and whether it loads (for ``wake rulesets``)."""
    found: list[PluginInfo] = []
    points = _entry_points()
    for rid in known_rulesets():
        point = points.get(rid)
        if rid in _REGISTERED or point is None:
            found.append(PluginInfo(id=rid, target="registered in process", distribution=""))
            continue
        dist = point.dist.name if point.dist is not None else ""
        try:
            get_ruleset(rid)
            error = ""
        except UnknownRuleset as exc:
            error = exc.message
        found.append(PluginInfo(id=rid, target=point.value, distribution=dist, error=error))
    return found
