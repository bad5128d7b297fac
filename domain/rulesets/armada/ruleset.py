"""Star Wars: Armada on the Wake ruleset contract (id ``armada``, registered through the
``wake.rulesets`` entry point)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, ClassVar, Literal

import orjson

from domain.cards import HIDDEN_CARD
from domain.commands import OrderParser
from domain.data_versions import ShippedData
from domain.dice import ARMADA_BLACK, ARMADA_BLUE, ARMADA_RED, CustomDie, DiceSource, SeededDice
from domain.errors import WakeError
from domain.events import CommandIssued, DomainEvent, EventRegistry
from domain.frozen import changed
from domain.header import GameHeader
from domain.read_model import GameView
from domain.reveals import SealedItem
from domain.ruleset import Ruleset, RulesetMeta, version_tuple
from domain.rulesets.armada import (
    bot,
    command_phase,
    integration,
    menu,
    passing,
    rules,
    view,
)
from domain.rulesets.armada.attack_events import AttackDeclared, AttackEnded
from domain.rulesets.armada.commands import ArmadaCommand, PassTurn
from domain.rulesets.armada.damage import new_named_deck
from domain.rulesets.armada.damage import redact as redact_damage
from domain.rulesets.armada.data import ArmadaData, resolve_data
from domain.rulesets.armada.events import ARMADA_EVENTS, DamageCardDiscarded, DialsAssigned
from domain.rulesets.armada.options import OPTION_RULES, REPLAYS, VERSION, resolve_options
from domain.rulesets.armada.ruler import ruler as _ruler
from domain.rulesets.armada.scenario import Scenario, load_resolved, resolve_scenario
from domain.rulesets.armada.sequence import to_act
from domain.rulesets.armada.setup_phase import initial_state
from domain.rulesets.armada.state import ArmadaState
from domain.rulesets.armada.summaries import GLOSSARY, RULE_SUMMARIES
from domain.scribe.menu import MenuOrder
from domain.words import possessive

_ORDERS = OrderParser(ArmadaCommand, "Star Wars: Armada")
SEALED = "sealed"
"""What another side sees in place of a dial's digest."""


class ArmadaRuleset(Ruleset[ArmadaState, Any]):
    """Two fleets on a continuous 3'×3' play area; command dials sealed until revealed."""

    meta: ClassVar[RulesetMeta] = RulesetMeta(
        id="armada",
        name="Star Wars: Armada",
        version=".".join(map(str, VERSION)),
        replays=list(REPLAYS),
        min_sides=2,
        max_sides=2,
        board_kind="continuous",
        hidden_information=[
            "command dials until revealed",
            "face-down damage cards",
            "damage deck",
        ],
        rule_prefix="SWA",
        description="Star Wars: Armada learning game (FFG, 2015); seed 002; provisional data",
    )
    events: ClassVar[EventRegistry] = ARMADA_EVENTS.merged(integration.EVENTS)
    rule_summaries: ClassVar[Mapping[str, str]] = RULE_SUMMARIES
    option_rules: ClassVar[Mapping[str, str]] = OPTION_RULES

    def resolve_scenario(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return resolve_scenario(data)

    def shipped_data(self) -> ShippedData:
        """The cards, geometry and obstacles shipped now (no earlier versions shipped)."""
        return ShippedData(parts=resolve_data().model_dump(mode="json"))

    def resolve_options(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return resolve_options(dict(data)).model_dump(mode="json")

    def sides(self, scenario: Mapping[str, Any]) -> list[tuple[str, str]]:
        return [(s["id"], s["name"]) for s in scenario["scenario"]["sides"]]

    def initial_state(self, header: GameHeader) -> ArmadaState:
        scenario, data = _loaded(header.scenario)
        # the seed, or the line's first game id: a variation seals as its parent did
        salt_base = header.salt_base
        state = initial_state(scenario, data, resolve_options(dict(header.options)), salt_base)
        if header.dice.named_cards:  # SWA-DMG: each card drawn is named, none shuffled
            state = changed(state, deck=new_named_deck(data.damage))
        # a game recorded with an older version re-runs with that version's readings
        return state.model_copy(update={"rules_version": version_tuple(header.ruleset.version)})

    def parse_command(self, data: Mapping[str, Any]) -> Any:
        return _ORDERS.parse(data)

    def decide(
        self, state: ArmadaState, side: str | None, command: Any, dice: DiceSource
    ) -> list[DomainEvent]:
        return rules.decide(state, side, command, dice)

    def evolve(self, state: ArmadaState, event: DomainEvent) -> ArmadaState:
        return rules.evolve(state, event)

    def decide_folded(
        self, state: ArmadaState, side: str | None, command: Any, dice: DiceSource
    ) -> tuple[list[DomainEvent], ArmadaState]:
        return rules.decide_folded(state, side, command, dice)

    def to_act(self, state: ArmadaState) -> list[str | None]:
        return list(to_act(state))

    def legal_commands(self, state: ArmadaState, side: str | None) -> list[Any]:
        """A sample of legal orders: the bot's own, the attack pipeline's, and for the Ship and
        Squadron Phases the other ways of going on it finds (each checked with ``decide``)."""
        found: list[Any] = list(integration.commands(state, side))
        if side is not None and passing.may_pass(state, side):
            found.append(PassTurn())
        for command in bot.candidates(state, side):
            try:
                rules.decide(state, side, command, SeededDice(0))
            except WakeError:
                continue
            if command not in found:
                found.append(command)
        return found

    def order_menu(self, state: ArmadaState, side: str | None) -> list[MenuOrder]:
        """Deployment, sealed dials, activations, maneuvers, squadrons and attacks (issue 20)."""
        acting = side is not None and side in to_act(state)
        return menu.order_menu(state, side, self.legal_commands(state, side) if acting else [])

    def seal_order(
        self, state: ArmadaState, side: str | None, order: MenuOrder, values: Mapping[str, Any]
    ) -> Any:
        """The side's command dials sealed with the bot's salts from ``state`` (SWA-R2)."""
        return menu.seal_order(state, side, order, values)

    def bot_command(self, state: ArmadaState, side: str | None) -> Any:
        return bot.bot_command(state, side)

    def with_bot_secret(self, state: ArmadaState, secret: str) -> ArmadaState:
        """The bot's sealed orders take their salts from ``secret`` (issue 12)."""
        return state.model_copy(update={"salt_base": secret})

    def sealed_items(self, state: ArmadaState, event: DomainEvent) -> list[SealedItem]:
        """Command dials set face down (SWA-R2) and turned up at activation (SWA-2.1)."""
        return command_phase.sealed_items(state, event)

    def read_model(self, state: ArmadaState) -> GameView:
        return view.read_model(state)

    def ruler(self, state: ArmadaState, a: str, b: str) -> list[str] | None:
        return _ruler(state, a, b)

    def describe(self, event: DomainEvent) -> str:
        return view.describe(event)

    def event_notes(self, state: ArmadaState, event: DomainEvent) -> list[str]:
        """At an attack's declaration, the defender's defence tokens as they stood: which were
        ready to spend (SWA-DEF; issue 21 item 8)."""
        if not isinstance(event, AttackDeclared):
            return []
        unit = state.ships.get(event.defender) or state.squadrons.get(event.defender)
        tokens = getattr(unit, "defense", ()) if unit is not None else ()
        if not tokens:
            return [f"{event.defender} has no defence tokens [SWA-DEF]"]
        listed = ", ".join(f"{t.kind} {t.state}" for t in tokens)
        ready = sum(1 for t in tokens if t.state == "ready")
        return [f"{possessive(event.defender)} defence tokens: {listed} ({ready} ready) [SWA-DEF]"]

    def names(self, state: ArmadaState) -> dict[str, str]:
        """The damage cards and obstacles by id (issue 21 item 7)."""
        data = state.data
        names = {card.id: card.name for card in data.damage.cards}
        names.update({o.id: o.name for o in data.obstacles.obstacles})
        return names

    def custom_dice(self) -> tuple[CustomDie, ...]:
        """The red, blue and black dice (SWA-DICE)."""
        return (ARMADA_RED, ARMADA_BLUE, ARMADA_BLACK)

    def glossary(self) -> dict[str, str]:
        return dict(GLOSSARY)

    def activation_key(self, state: ArmadaState) -> Hashable | None:
        """A ship's activation (SWA-2), with the squadrons its Squadron command activates, or a
        squadron's in the Squadron Phase (SWA-3); None between activations."""
        if state.activation is not None:
            return ("ship", state.round, state.activation.ship)
        if state.squadron_activation is not None:
            return ("squadron", state.round, state.squadron_activation.squadron)
        return None

    def episode(self, event: DomainEvent) -> Literal["begin", "end"] | None:
        """An attack is one episode, from its declaration to its end (SWA-ATK 1–6)."""
        if isinstance(event, AttackDeclared) and not event.additional:
            return "begin"
        if isinstance(event, AttackEnded):
            return "end"
        return None

    def dump_state(self, state: ArmadaState) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def load_state(self, data: Mapping[str, Any]) -> ArmadaState:
        return ArmadaState.model_validate(dict(data))

    def redact(self, event: DomainEvent, viewer: str | None) -> DomainEvent:
        """Dials a side has set are sealed for the other side until revealed (SWA-R2): it sees
        how many were set, not their digests. The damage deck's order, face-down damage cards
        (even their owner's, RRG) and a destroyed ship's cards are hidden from both sides
        (:func:`.damage.redact`). The umpire, ``None``, sees all."""
        if viewer is None:
            return event
        event = redact_damage(event, viewer)
        if isinstance(event, DamageCardDiscarded) and not event.face_up:
            return event.model_copy(update={"card": HIDDEN_CARD})
        if isinstance(event, DialsAssigned) and event.side != viewer:
            hidden = {ship: [SEALED] * len(d) for ship, d in event.dials.items()}
            return event.model_copy(update={"dials": hidden})
        sealed_order = isinstance(event, CommandIssued) and event.command.get("type") == "set_dials"
        if sealed_order and isinstance(event, CommandIssued) and event.side != viewer:
            dials = event.command.get("dials", {})
            hidden = {ship: [SEALED] * len(d) for ship, d in dials.items()}
            return event.model_copy(update={"command": {"type": "set_dials", "dials": hidden}})
        return event


_LOADED: dict[bytes, tuple[Scenario, ArmadaData]] = {}
_LOADED_LIMIT = 16


def _loaded(data: Mapping[str, Any]) -> tuple[Scenario, ArmadaData]:
    """``load_resolved``, once per distinct scenario and data: the models are frozen, so games
    of the same scenario share them, and with them the data's geometry memo (a simulation's or
    an analysis's games ask the same geometry questions)."""
    try:
        key = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    except (TypeError, orjson.JSONEncodeError):
        return load_resolved(data)
    found = _LOADED.get(key)
    if found is None:
        if len(_LOADED) >= _LOADED_LIMIT:
            _LOADED.clear()
        found = _LOADED[key] = load_resolved(data)
    return found
