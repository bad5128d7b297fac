"""Iron & Oak on the Wake ruleset contract (registered as ``iron_oak``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import ValidationError

from domain.cards import redact_draw
from domain.commands import OrderParser
from domain.data_versions import ShippedData
from domain.dice import DiceSource
from domain.errors import ScenarioError, WakeError, validation_summary
from domain.events import CardDrawn, CommandIssued, DomainEvent, EventRegistry
from domain.header import GameHeader
from domain.read_model import GameView
from domain.reveals import SealedItem
from domain.ruleset import Ruleset, RulesetMeta, version_tuple
from domain.rulesets.iron_oak import bot, menu, orders, rules, view
from domain.rulesets.iron_oak.commands import IronOakCommand, Pass
from domain.rulesets.iron_oak.data import DataSet, load_scenario, resolve_data
from domain.rulesets.iron_oak.events import IRON_OAK_EVENTS
from domain.rulesets.iron_oak.evolve import evolve
from domain.rulesets.iron_oak.options import (
    LEGACY_READINGS,
    OPTION_RULES,
    REPLAYS,
    VERSION,
    IronOakOptions,
)
from domain.rulesets.iron_oak.passing import long_form as pass_long_form
from domain.rulesets.iron_oak.ruler import ruler as _ruler
from domain.rulesets.iron_oak.sequence import to_act
from domain.rulesets.iron_oak.state import IronOakState, initial_state
from domain.rulesets.iron_oak.summaries import GLOSSARY, RULE_SUMMARIES
from domain.rulesets.iron_oak.turn_events import (
    TURN_EVENTS,
    CardExchanged,
    CardsDealt,
    CollateralAwaited,
)
from domain.scribe.menu import MenuOrder
from domain.words import possessive

_ORDERS = OrderParser(IronOakCommand, "Iron & Oak")
DATA_PARTS = ("ships", "forts", "cards", "tables")
HIDDEN = "?"


#: Digests (``domain.data_versions.data_digest``) of the earlier versions of each data part that
#: Wake shipped, so that games played with them are re-run with today's (``wake verify --rerun``).
#: When a shipped data file changes, add the digest of the part as games embedded it before.
EARLIER_DATA: dict[str, tuple[str, ...]] = {
    # Iron & Oak 1.0's tables (fixtures/legacy/iron_oak-1.0): the damage chart before the
    # seed's layout (IO-6.2), the Movement Opposition table with cross_t and ram
    "tables": ("a3c4638c4b5e7d6fe8544d519c98911ef771cbe3d79d264725e82ed7cb17738f",),
}


class IronOakRuleset(Ruleset[IronOakState, Any]):
    """Two sides on a 5×5 grid of boxes; sealed order cards and hidden action-card hands."""

    meta: ClassVar[RulesetMeta] = RulesetMeta(
        id="iron_oak",
        name="Iron & Oak",
        version=".".join(map(str, VERSION)),
        replays=list(REPLAYS),
        min_sides=2,
        max_sides=2,
        board_kind="grid",
        hidden_information=["order cards until revealed", "action-card hands", "exchanged cards"],
        rule_prefix="IO",
        description="ACW ironclads (GMT Games, 2013); seed 000; provisional data (IO-GAPS)",
    )
    events: ClassVar[EventRegistry] = IRON_OAK_EVENTS.merged(TURN_EVENTS)
    rule_summaries: ClassVar[Mapping[str, str]] = RULE_SUMMARIES
    option_rules: ClassVar[Mapping[str, str]] = OPTION_RULES

    def resolve_scenario(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A bare scenario (bundled cards and tables), or ``{"scenario": {...}, "ships": ...,
        "forts": ..., "cards": ..., "tables": ...}`` where each data part given replaces the
        bundled one whole. The result embeds everything, so a game never depends on files."""
        if "scenario" in data and "data" in data:  # already resolved
            parts = data["data"]
            dataset = resolve_data(**{k: parts.get(k) for k in DATA_PARTS})
            scenario = load_scenario(data["scenario"], dataset)
        else:
            wrapped = "scenario" in data
            unknown = set(data) - {"scenario", *DATA_PARTS} if wrapped else set()
            if unknown:
                raise ScenarioError(f"unknown Iron & Oak scenario key(s): {sorted(unknown)}")
            dataset = resolve_data(**{k: data.get(k) for k in DATA_PARTS} if wrapped else {})
            scenario = load_scenario(data["scenario"] if wrapped else data, dataset)
        return {
            "id": scenario.id,
            "title": scenario.title,  # the game's title when none is given (issue 22)
            "scenario": scenario.model_dump(mode="json"),
            "data": dataset.model_dump(mode="json"),
        }

    def shipped_data(self) -> ShippedData:
        """The cards and tables shipped now, and the earlier versions games were played with."""
        return ShippedData(parts=resolve_data().model_dump(mode="json"), earlier=EARLIER_DATA)

    def resolve_options(self, data: Mapping[str, Any]) -> dict[str, Any]:
        try:
            return IronOakOptions.model_validate(dict(data)).model_dump(mode="json")
        except ValidationError as exc:
            raise ScenarioError(f"invalid Iron & Oak option: {validation_summary(exc)}") from exc

    def sides(self, scenario: Mapping[str, Any]) -> list[tuple[str, str]]:
        return [("CSA", "Confederacy"), ("USA", "Union")]

    def initial_state(self, header: GameHeader) -> IronOakState:
        resolved = self.resolve_scenario(header.scenario)
        dataset = DataSet.model_validate(resolved["data"])
        scenario = load_scenario(resolved["scenario"], dataset)
        state = initial_state(scenario, dataset)
        legacy = LEGACY_READINGS.get(header.ruleset.version, {})
        return state.model_copy(
            update={
                "options": IronOakOptions.model_validate({**legacy, **header.options}),
                "rules_version": version_tuple(header.ruleset.version),
                "salt_base": header.salt_base,  # a variation seals as its parent did
                "physical_dice": header.dice.physical_from_start,
                "named_cards": header.dice.named_cards,
            }
        )

    def parse_command(self, data: Mapping[str, Any]) -> Any:
        return _ORDERS.parse(data)

    def decide(
        self, state: IronOakState, side: str | None, command: Any, dice: DiceSource
    ) -> list[DomainEvent]:
        return rules.decide(state, side, command, dice)

    def evolve(self, state: IronOakState, event: DomainEvent) -> IronOakState:
        return evolve(state, event)

    def to_act(self, state: IronOakState) -> list[str | None]:
        return list(to_act(state))

    def legal_commands(self, state: IronOakState, side: str | None) -> list[Any]:
        found = bot.legal_commands(state, side)
        try:  # "nothing this step", where the rules allow it
            pass_long_form(state, side)
        except WakeError:
            return found
        return [*found, Pass()] if found else found

    def bot_command(self, state: IronOakState, side: str | None) -> Any:
        return bot.bot_command(state, side)

    def describe_order(self, command: Mapping[str, Any], before: GameView | None = None) -> str:
        """An answer to declared fire says which fire a Misfire stops and that every other
        declared fire is resolved (IO-3.3.2 D/E; issue 21 item 8); other orders as usual."""
        if command.get("type") != "respond_fire":
            return super().describe_order(command, before)
        misfire = command.get("misfire")
        if not isinstance(misfire, Mapping):
            return "respond to fire: no Misfire; every declared fire is resolved (IO-3.3.2E)"
        section = misfire.get("section")
        which = f"section {section} fire" if section is not None else "fire"
        return (
            f"respond to fire: plays {misfire.get('card')} on {possessive(misfire.get('firer'))} "
            f"{which}, which does not happen (IO-3.3.2D); every other declared fire is "
            "resolved (IO-3.3.2E)"
        )

    def order_notes(self, state: IronOakState, command: Mapping[str, Any]) -> list[str]:
        """What each action card named in the order does (IO-7.0; the bundled deck's texts
        are provisional and say so)."""
        notes: list[str] = []
        for card_id in _card_ids(command):
            try:
                card = state.data.cards.get(card_id)
            except KeyError:
                continue
            mark = " (provisional text)" if "effect" in card.provisional else ""
            line = f"card {card.name}: {card.effect}{mark}"
            if line not in notes:
                notes.append(line)
        return notes

    def sealed_items(self, state: IronOakState, event: DomainEvent) -> list[SealedItem]:
        """Order cards sealed in the Order Phase (IO-3.2) and turned up in the movement
        segment (IO-3.3.1 A)."""
        return orders.sealed_items(state, event)

    def event_notes(self, state: IronOakState, event: DomainEvent) -> list[str]:
        """A fire declaration: each fire's range when declared (IO-6.1)."""
        return view.fire_notes(state, event)

    def names(self, state: IronOakState) -> dict[str, str]:
        """The action cards by id (issue 21 item 7)."""
        return {card.id: card.name for card in state.data.cards.cards}

    def glossary(self) -> dict[str, str]:
        return dict(GLOSSARY)

    def with_bot_secret(self, state: IronOakState, secret: str) -> IronOakState:
        """The bot's sealed orders take their salts from ``secret`` (issue 12)."""
        return state.model_copy(update={"salt_base": secret})

    def order_menu(self, state: IronOakState, side: str | None) -> list[MenuOrder]:
        return menu.order_menu(state, side)

    def seal_order(
        self, state: IronOakState, side: str | None, order: MenuOrder, values: Mapping[str, Any]
    ) -> Any:
        return menu.seal_order(state, side, order, values)

    def read_model(self, state: IronOakState) -> GameView:
        return view.read_model(state)

    def ruler(self, state: IronOakState, a: str, b: str) -> list[str] | None:
        return _ruler(state, a, b)

    def describe(self, event: DomainEvent) -> str:
        return view.describe(event)

    def dump_state(self, state: IronOakState) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def load_state(self, data: Mapping[str, Any]) -> IronOakState:
        return IronOakState.model_validate(dict(data))

    def redact(self, event: DomainEvent, viewer: str | None) -> DomainEvent:
        """Hands, the deck order and exchanged cards are hidden from the other side (IO-3.4), and
        so is a card drawn by name; the odds of each draw are the umpire's alone (what is left of
        the one deck tells the other hand). Order cards are sealed commitments until revealed
        (IO-3.2). A resolution stopped for a
        Collateral choice (IO-6.3.4) keeps the dice drawn so far, some for rolls not yet shown:
        the sides do not see them."""
        if viewer is None:
            return event
        if isinstance(event, CollateralAwaited):
            return event.model_copy(update={"faces": []})
        if isinstance(event, CardsDealt):
            hands = {
                side: (cards if side == viewer else [HIDDEN] * len(cards))
                for side, cards in event.hands.items()
            }
            return event.model_copy(update={"hands": hands, "faces": []})
        if isinstance(event, CardExchanged) and event.side != viewer:
            return event.model_copy(
                update={"discarded": HIDDEN, "drawn": HIDDEN if event.drawn else None}
            )
        if isinstance(event, CardDrawn):  # one deck, two hidden hands: the odds tell them
            return redact_draw(event, viewer, shared_deck=True)
        if isinstance(event, CommandIssued) and event.cards:
            own = event.side == viewer and event.command.get("type") == "exchange_card"
            if not own:  # the deal's cards are both hands
                event = event.model_copy(update={"cards": [HIDDEN] * len(event.cards)})
        if isinstance(event, CommandIssued) and event.side != viewer:
            kind = event.command.get("type")
            if kind == "exchange_card" or (kind == "deal" and event.command.get("hands")):
                return event.model_copy(update={"command": {"type": kind, "sealed": True}})
            if kind == "declare_fire" or kind == "respond_fire" or kind == "respond_movement":
                return event  # cards played are public once played
        return event


def _card_ids(value: Any) -> list[str]:
    """The action cards an order names: ``card``, ``discard`` and ``draw`` fields at any depth
    (a hidden card is not in the order as another side sees it)."""
    found: list[str] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key in ("card", "discard", "draw") and isinstance(item, str):
                found.append(item)
            else:
                found.extend(_card_ids(item))
    elif isinstance(value, list | tuple):
        for item in value:
            found.extend(_card_ids(item))
    return found
