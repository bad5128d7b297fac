"""Morze w ogniu (d10 WWII naval skirmish, seed 004, rules PL-1..PL-7) on the Wake contract.

Registered as ``morze`` through the ``wake.rulesets`` entry point (pyproject.toml).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from domain.board import ContinuousBoard
from domain.commands import OrderParser
from domain.data_versions import ShippedData
from domain.dice import DiceSource
from domain.errors import WakeError
from domain.events import DomainEvent, EventRegistry
from domain.header import GameHeader
from domain.read_model import GameView
from domain.ruleset import Ruleset, RulesetMeta
from domain.rulesets.morze import bot, menu, rules, view
from domain.rulesets.morze.commands import (
    DeclareAttack,
    EndDeclarations,
    EndMovement,
    MorzeCommand,
    Move,
    ResolveAttacks,
    RollInitiative,
)
from domain.rulesets.morze.data import (
    ClassTable,
    Scenario,
    bundled_classes,
    resolve_options,
    resolve_scenario,
)
from domain.rulesets.morze.data import Options as MorzeOptions
from domain.rulesets.morze.events import MORZE_EVENTS
from domain.rulesets.morze.ruler import ruler as _ruler
from domain.rulesets.morze.state import MorzeState, Unit
from domain.scribe.menu import MenuOrder

RULE_SUMMARIES: dict[str, str] = {
    "PL-1": "Initiative: each player rolls d10; the higher roll gets initiative and moves second.",
    "PL-2": "Movement: the side without initiative moves all units first; straight line from "
    "the model's centre, up to the class speed.",
    "PL-3": "Attacks: non-initiative side declares all, then the initiative side; all resolve "
    "simultaneously.",
    "PL-4": "Attack: range centre to centre; d10 to hit; defender d10 to defend; d10 damage.",
    "PL-4a": "Range is measured centre to centre and must not exceed the attacker's range.",
    "PL-4b": "To hit: roll d10, success on a roll at least the attacker's Hit number.",
    "PL-4c": "Defence: the defender rolls d10; at least its Defence number avoids the damage.",
    "PL-4d": "Damage: d10, 1-9 = 1 damage, 10 = 2 damage (critical).",
    "PL-5": "A unit is destroyed when accumulated damage reaches its Toughness; damage persists.",
    "PL-6": "Destroyed units are removed; damage on survivors is recorded.",
    "PL-7": "End of turn: the next turn starts with an initiative roll. Victory is scenario data.",
}

GLOSSARY: dict[str, str] = {
    # readings of Wake's generic notation (domain.glossary.GENERIC_KINDS)
    "N+": "Morze w ogniu: a class's Hit and Defence numbers are target numbers on one d10 (PL-4b, "
    "PL-4c, PL-5): 4+ succeeds on 4–10, 7 chances in 10.",
    "strictly greater": "Morze w ogniu: the initiative roll (PL-1): each side rolls a d10 and the "
    "higher gets initiative; a tie is not in the rules [GAP]: by default it is re-rolled until "
    "the sides differ (option initiative_tie; keep_previous: last turn's holder keeps it).",
    # terms
    "tie": "both initiative d10s equal (PL-1): re-rolled by default (option initiative_tie).",
    "critical": "a damage d10 of 10 (PL-4d): 2 damage instead of 1.",
    "cm": "distances on the table in centimetres; an attack's distance/range is measured centre to "
    "centre and must not exceed the attacker's range (PL-4a).",
}
"""Terms of the explanations and what they mean in Morze w ogniu (``Ruleset.glossary``)."""

#: The rule each option's reading belongs to (``Ruleset.option_rules``: ruling diffs name it).
OPTION_RULES: dict[str, str] = {
    "initiative_tie": "PL-1",
    "partial_moves": "PL-2",
    "attacks_per_unit": "PL-3",
}

_ORDERS = OrderParser(MorzeCommand, "Morze w ogniu")


class MorzeRuleset(Ruleset[MorzeState, Any]):
    """Two sides on a continuous table; no hidden information."""

    meta: ClassVar[RulesetMeta] = RulesetMeta(
        id="morze",
        name="Morze w ogniu",
        version="1.0",
        min_sides=2,
        max_sides=2,
        board_kind="continuous",
        hidden_information=[],
        rule_prefix="PL",
        description="d10 WWII naval skirmish (minimodele.pl); seed 004",
    )
    events: ClassVar[EventRegistry] = MORZE_EVENTS
    rule_summaries: ClassVar[Mapping[str, str]] = RULE_SUMMARIES
    option_rules: ClassVar[Mapping[str, str]] = OPTION_RULES

    def glossary(self) -> dict[str, str]:
        return dict(GLOSSARY)

    def class_table(self) -> ClassTable:
        """The class table this version ships (PL-2, PL-5): ``data/classes.json``."""
        return bundled_classes()

    def resolve_scenario(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return resolve_scenario(data, self.class_table()).model_dump(mode="json", by_alias=True)

    def shipped_data(self) -> ShippedData:
        """The class table this version ships (PL-2, PL-5): the scenario's ``classes`` part."""
        return ShippedData(parts={"classes": self.class_table().model_dump(mode="json")})

    def data_parts(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        classes = scenario.get("classes")
        return {"classes": classes} if classes is not None else {}

    def with_data_parts(
        self, scenario: Mapping[str, Any], parts: Mapping[str, Any]
    ) -> dict[str, Any]:
        return self.resolve_scenario({**scenario, **parts})

    def resolve_options(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return resolve_options(data).model_dump(mode="json")

    def sides(self, scenario: Mapping[str, Any]) -> list[tuple[str, str]]:
        return [(s["id"], s["name"]) for s in scenario["sides"]]

    def initial_state(self, header: GameHeader) -> MorzeState:
        scenario = Scenario.model_validate(header.scenario)
        units = {
            u.id: Unit(
                id=u.id, side=u.side, name=u.name or u.id, unit_class=u.unit_class, x=u.x, y=u.y
            )
            for u in scenario.units
        }
        return MorzeState(
            scenario=scenario,
            options=MorzeOptions.model_validate(header.options),
            units=units,
            vp={s.id: 0 for s in scenario.sides},
        )

    def parse_command(self, data: Mapping[str, Any]) -> Any:
        return _ORDERS.parse(data)

    def decide(
        self, state: MorzeState, side: str | None, command: Any, dice: DiceSource
    ) -> list[DomainEvent]:
        return rules.decide(state, side, command, dice)

    def evolve(self, state: MorzeState, event: DomainEvent) -> MorzeState:
        return rules.evolve(state, event)

    def to_act(self, state: MorzeState) -> list[str | None]:
        if state.phase in ("initiative", "resolution"):
            return [None]
        if state.phase == "over":
            return []
        return [state.active]

    def legal_commands(self, state: MorzeState, side: str | None) -> list[Any]:
        if state.phase == "initiative":
            return [RollInitiative()]
        if state.phase == "resolution":
            return [ResolveAttacks()]
        if state.phase == "over" or side is None or side != state.active:
            return []
        found: list[Any] = []
        if state.phase == "movement":
            board = ContinuousBoard(
                width=state.scenario.table.width, height=state.scenario.table.height
            )
            for unit in state.alive(side):
                if unit.moved:
                    continue
                speed = state.unit_class(unit).speed
                here = (unit.x, unit.y)
                targets = [
                    (unit.x + dx * 1000, unit.y + dy * 1000)
                    for dx, dy in (
                        (1, 0),
                        (1, 1),
                        (0, 1),
                        (-1, 1),
                        (-1, 0),
                        (-1, -1),
                        (0, -1),
                        (1, -1),
                    )
                ]
                planned = bot.plan_move(state, unit)
                candidates = [board.step_toward(here, t, speed) for t in targets]
                candidates += [planned] if planned else []
                for x, y in candidates:
                    found.extend(self._if_legal(state, side, Move(unit=unit.id, x=x, y=y)))
            return [*found, EndMovement()]
        for attacker in state.alive(side):
            for target in state.alive(state.other(side)):
                found.extend(
                    self._if_legal(
                        state, side, DeclareAttack(attacker=attacker.id, target=target.id)
                    )
                )
        return [*found, EndDeclarations()]

    @staticmethod
    def _if_legal(state: MorzeState, side: str, command: Move | DeclareAttack) -> list[Any]:
        try:
            if isinstance(command, Move):
                rules.check_move(state, side, command)
            else:
                rules.check_attack(state, side, command)
        except WakeError:
            return []
        return [command]

    def order_menu(self, state: MorzeState, side: str | None) -> list[MenuOrder]:
        return menu.order_menu(state, side)

    def bot_command(self, state: MorzeState, side: str | None) -> Any:
        return bot.bot_command(state, side)

    def read_model(self, state: MorzeState) -> GameView:
        return view.read_model(state)

    def ruler(self, state: MorzeState, a: str, b: str) -> list[str] | None:
        return _ruler(state, a, b)

    def describe(self, event: DomainEvent) -> str:
        return view.describe(event)

    def dump_state(self, state: MorzeState) -> dict[str, Any]:
        return state.model_dump(mode="json", by_alias=True)

    def load_state(self, data: Mapping[str, Any]) -> MorzeState:
        return MorzeState.model_validate(dict(data))
