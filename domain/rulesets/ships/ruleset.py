"""SHIPS & TACTICS multiplayer on the Wake ruleset contract (registered as ``ships``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final

from pydantic import ValidationError

from domain.cards import redact_draw
from domain.commands import OrderParser
from domain.data_versions import ShippedData
from domain.dice import DiceSource
from domain.errors import ScenarioError
from domain.events import CardDrawn, CommandIssued, DomainEvent, EventRegistry
from domain.header import GameHeader
from domain.read_model import GameView
from domain.reveals import SealedItem
from domain.ruleset import Ruleset, RulesetMeta
from domain.rulesets.ships import bot, menu, menu_fleet, rules, setup, view
from domain.rulesets.ships.commands import ShipsCommand
from domain.rulesets.ships.data import DATA_PARTS, DataSet, load_scenario, resolve_data
from domain.rulesets.ships.events import SHIPS_EVENTS, CardsDrawn, DeckShuffled, FleetCommitted
from domain.rulesets.ships.evolve import evolve
from domain.rulesets.ships.flow import to_act
from domain.rulesets.ships.options import OPTION_RULES, VERSION, ShipsOptions
from domain.rulesets.ships.state import Player, ShipsState
from domain.rulesets.ships.summaries import GLOSSARY, RULE_SUMMARIES
from domain.scribe.menu import MenuOrder

_ORDERS = OrderParser(ShipsCommand, "SHIPS & TACTICS")
HIDDEN = "?"


#: Digests of the decks Wake shipped before (``{card: copies}`` objects, data version 1).
EARLIER_DECKS: Final = ("5211c9608b6be3c2da33de4dac8346816018d835c9665440cb65aa0f65a877a1",)


class ShipsRuleset(Ruleset[ShipsState, Any]):
    """2–6 players seated in a circle; hands, deck order and face-down fleets are hidden."""

    #: ST-3.1 line weapons' readings, added within 1.0: their defaults are how games recorded
    #: before them were played (the bundled SHIPS games among them).
    options_added_later: ClassVar[frozenset[str]] = frozenset(
        {"line_centre_on_self", "line_empty_seats"}
    )

    meta: ClassVar[RulesetMeta] = RulesetMeta(
        id="ships",
        name="SHIPS & TACTICS (SHIPSマルチ)",
        version=".".join(map(str, VERSION)),
        min_sides=2,
        max_sides=6,
        board_kind="zones",
        hidden_information=["hands", "deck order", "fleets until revealed"],
        rule_prefix="ST",
        description=(
            "doujin card wargame, multiplayer variant; seed 003; provisional cards, decks and "
            "combat engine (ST-GAPS)"
        ),
    )
    events: ClassVar[EventRegistry] = SHIPS_EVENTS
    rule_summaries: ClassVar[Mapping[str, str]] = RULE_SUMMARIES
    option_rules: ClassVar[Mapping[str, str]] = OPTION_RULES

    def resolve_scenario(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A bare scenario (bundled cards, decks and combat table), optionally with ``cards``,
        ``decks`` and ``combat`` objects replacing the bundled files whole; or an already
        resolved one. The result embeds everything."""
        if "scenario" in data and "data" in data:
            dataset = resolve_data(data["data"])
            scenario = load_scenario(data["scenario"], dataset)
        else:
            dataset = resolve_data({k: data.get(k) for k in DATA_PARTS})
            bare = {k: v for k, v in data.items() if k not in DATA_PARTS}
            scenario = load_scenario(bare, dataset)
        return {
            "id": scenario.id,
            "title": scenario.title,
            "scenario": scenario.model_dump(mode="json"),
            "data": dataset.model_dump(mode="json"),
        }

    def shipped_data(self) -> ShippedData:
        """The cards, decks and combat table shipped now, and the decks shipped before their
        order became a list (issue 23 item 8: the same decks, in the same order)."""
        return ShippedData(
            parts=resolve_data({}).model_dump(mode="json"), earlier={"decks": EARLIER_DECKS}
        )

    def resolve_options(self, data: Mapping[str, Any]) -> dict[str, Any]:
        try:
            return ShipsOptions.model_validate(dict(data)).model_dump(mode="json")
        except ValidationError as exc:
            raise ScenarioError(f"invalid SHIPS option: {exc}") from exc

    def sides(self, scenario: Mapping[str, Any]) -> list[tuple[str, str]]:
        return [(p["id"], p["name"]) for p in scenario["scenario"]["players"]]

    def initial_state(self, header: GameHeader) -> ShipsState:
        resolved = self.resolve_scenario(header.scenario)
        dataset = DataSet.model_validate(resolved["data"])
        scenario = load_scenario(resolved["scenario"], dataset)
        players = {p.id: Player(id=p.id, name=p.name, deck_id=p.deck) for p in scenario.players}
        return ShipsState(
            scenario=scenario,
            data=dataset,
            options=ShipsOptions.model_validate(header.options),
            seating=tuple(p.id for p in scenario.players),
            players=players,
            salt_base=header.salt_base,  # a variation seals as its parent did
            physical=header.dice.physical_from_start,
            named_cards=header.dice.named_cards,
        )

    def parse_command(self, data: Mapping[str, Any]) -> Any:
        return _ORDERS.parse(data)

    def decide(
        self, state: ShipsState, side: str | None, command: Any, dice: DiceSource
    ) -> list[DomainEvent]:
        return rules.decide(state, side, command, dice)

    def evolve(self, state: ShipsState, event: DomainEvent) -> ShipsState:
        return evolve(state, event)

    def to_act(self, state: ShipsState) -> list[str | None]:
        return to_act(state)

    def legal_commands(self, state: ShipsState, side: str | None) -> list[Any]:
        return bot.legal_commands(state, side)

    def bot_command(self, state: ShipsState, side: str | None) -> Any:
        return bot.bot_command(state, side)

    def order_menu(self, state: ShipsState, side: str | None) -> list[MenuOrder]:
        return menu.order_menu(state, side)

    def seal_order(
        self, state: ShipsState, side: str | None, order: MenuOrder, values: Mapping[str, Any]
    ) -> Any:
        """ST-1.3: the fleet placed face down, sealed as the bot seals its own."""
        return menu_fleet.seal(state, side, order, values)

    def with_bot_secret(self, state: ShipsState, secret: str) -> ShipsState:
        """The bot's sealed fleets take their salts from ``secret`` (issue 12)."""
        return state.model_copy(update={"salt_base": secret})

    def sealed_items(self, state: ShipsState, event: DomainEvent) -> list[SealedItem]:
        """Fleets placed face down (ST-1.3) and turned face up (ST-1.9)."""
        return setup.sealed_items(state, event)

    def read_model(self, state: ShipsState) -> GameView:
        return view.read_model(state)

    def describe(self, event: DomainEvent) -> str:
        return view.describe(event)

    def event_notes(self, state: ShipsState, event: DomainEvent) -> list[str]:
        """A declared attack: the box each target stands in (ST-0, ST-GAPS-REACH); an outcome
        of a provisional rule: that rule, marked provisional (hits, air battles, boarding,
        hacking, Minovsky particles)."""
        return [
            *view.attack_notes(state, event),
            *view.hit_notes(state, event),
            *view.provisional_notes(state, event),
        ]

    def names(self, state: ShipsState) -> dict[str, str]:
        """Every card of the game's card set by id (issue 21 item 7)."""
        return {card.id: card.name for card in state.data.cards.cards}

    def glossary(self) -> dict[str, str]:
        return dict(GLOSSARY)

    def dump_state(self, state: ShipsState) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def load_state(self, data: Mapping[str, Any]) -> ShipsState:
        return ShipsState.model_validate(dict(data))

    def redact(self, event: DomainEvent, viewer: str | None) -> DomainEvent:
        """Nobody sees a deck's order (the shuffle faces), only its own deck's list; a player
        sees only its own draws
        (ST-1.2, ST-1.7, ST-4.3) and, in a physical game, only its own named draws (the cards
        entered with a battle's setup are every player's, so none of them). A face-down
        fleet is a digest to everyone but its owner until revealed (ST-1.3, ST-1.9); cards
        played are public once played."""
        if viewer is None:
            return event
        if isinstance(event, DeckShuffled):
            deck = event.deck if event.player == viewer else [HIDDEN] * len(event.deck)
            return event.model_copy(update={"faces": [], "deck": deck})
        if isinstance(event, CardsDrawn) and event.player != viewer:
            return event.model_copy(update={"cards": [HIDDEN] * len(event.cards)})
        if isinstance(event, CardDrawn):  # each player draws from its own deck
            return redact_draw(event, viewer)
        if isinstance(event, CommandIssued) and event.cards:  # every player's draws at once
            event = event.model_copy(update={"cards": [HIDDEN] * len(event.cards)})
        if isinstance(event, FleetCommitted) and event.player != viewer and event.fleet:
            return event.model_copy(update={"fleet": None})
        if (
            isinstance(event, CommandIssued)
            and event.side != viewer
            and event.command.get("type") == "form_fleet"
        ):
            return event.model_copy(
                update={"command": {**event.command, "fleet": None, "salt": None}}
            )
        if (
            isinstance(event, CommandIssued)
            and event.side != viewer
            and event.command.get("type") == "correct_fleet"
        ):  # the fleet shown is public; the new one stays face down
            hidden = {**event.command, "new_fleet": None, "new_salt": None}
            return event.model_copy(update={"command": hidden})
        if isinstance(event, CommandIssued) and event.command.get("draws"):
            draws = {
                pid: (cards if pid == viewer else [HIDDEN] * len(cards))
                for pid, cards in event.command["draws"].items()
            }
            return event.model_copy(update={"command": {**event.command, "draws": draws}})
        return event
