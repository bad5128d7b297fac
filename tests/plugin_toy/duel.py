"""``duel``: two gunboats exchange fire in turn; each shot is a d6, a hit on 4+ (DUEL-1); the
first boat to take three hits sinks, and after ten shots each the less damaged boat wins
(DUEL-2). Small on purpose: everything a ruleset must provide, nothing more."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from domain.chance import describe_roll, target_roll
from domain.dice import DiceSource
from domain.errors import InvalidCommand, NotYourTurn, ScenarioError
from domain.events import CommandIssued, DiceRolled, DomainEvent, EventRegistry, GameEnded
from domain.header import GameHeader
from domain.read_model import BoardView, GameView, ResultView, SideView, UnitView
from domain.ruleset import Ruleset, RulesetMeta

SIDES = ("red", "blue")
HITS_TO_SINK = 3
SHOTS = 10


class Fire(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    type: Literal["fire"] = "fire"
    aim: Literal["hull", "bridge"] = "hull"  # the bridge is harder to hit (5+)


class Shot(DomainEvent):
    """A shot was fired; ``hit`` says whether it hit."""

    TOPIC: ClassVar[str] = "duel.Shot/1"
    RULE: ClassVar[str] = "DUEL-1"
    side: str
    hit: bool


class DuelState(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    scenario: str
    shots: dict[str, int] = {"red": 0, "blue": 0}
    hits: dict[str, int] = {"red": 0, "blue": 0}  # hits taken
    over: bool = False


def _other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


class DuelRuleset(Ruleset[DuelState, Fire]):
    meta: ClassVar[RulesetMeta] = RulesetMeta(
        id="duel",
        name="Gunboat duel (test plugin)",
        version="0.1",
        min_sides=2,
        max_sides=2,
        board_kind="continuous",
        hidden_information=[],
        rule_prefix="DUEL",
    )
    events: ClassVar[EventRegistry] = EventRegistry([Shot])
    rule_summaries: ClassVar[Mapping[str, str]] = {
        "DUEL-1": "Each side fires in turn: d6, a hit on 4+ (5+ aimed at the bridge).",
        "DUEL-2": "Three hits sink a boat; after ten shots each, fewer hits taken wins.",
    }

    def resolve_scenario(self, data: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(data.get("id"), str):
            raise ScenarioError("a duel scenario needs an 'id'")
        return {"id": data["id"], "title": str(data.get("title", ""))}

    def resolve_options(self, data: Mapping[str, Any]) -> dict[str, Any]:
        if data:
            raise ScenarioError(f"duel has no options: {sorted(data)}")
        return {}

    def sides(self, scenario: Mapping[str, Any]) -> list[tuple[str, str]]:
        return [(s, s.title()) for s in SIDES]

    def initial_state(self, header: GameHeader) -> DuelState:
        return DuelState(scenario=str(header.scenario["id"]))

    def parse_command(self, data: Mapping[str, Any]) -> Fire:
        try:
            return Fire.model_validate(dict(data))
        except ValidationError as exc:
            raise InvalidCommand(f"not a duel order: {dict(data)}") from exc

    def decide(
        self, state: DuelState, side: str | None, command: Fire, dice: DiceSource
    ) -> list[DomainEvent]:
        acting = self.to_act(state)
        if side not in acting:
            raise NotYourTurn(f"{acting[0]} fires now", rule="DUEL-1")
        assert side is not None
        target = 5 if command.aim == "bridge" else 4
        roll = target_roll(
            dice, expression="d6", target=target, side=side, purpose="shot", rule="DUEL-1"
        )
        hit = roll.outcome == "success"
        events: list[DomainEvent] = [roll, Shot(side=side, hit=hit)]
        shots = {**state.shots, side: state.shots[side] + 1}
        hits = dict(state.hits)
        if hit:
            hits[_other(side)] += 1
        if hits[_other(side)] >= HITS_TO_SINK:
            events.append(GameEnded(winner=side, reason="sunk", rule="DUEL-2", vp=self._vp(hits)))
        elif min(shots.values()) >= SHOTS:
            red, blue = hits["red"], hits["blue"]
            winner = None if red == blue else ("red" if red < blue else "blue")
            vp = self._vp(hits)
            events.append(GameEnded(winner=winner, reason="shots", rule="DUEL-2", vp=vp))
        return events

    @staticmethod
    def _vp(hits: Mapping[str, int]) -> dict[str, int]:
        return {side: hits[_other(side)] for side in SIDES}

    def evolve(self, state: DuelState, event: DomainEvent) -> DuelState:
        if isinstance(event, Shot):
            hits = dict(state.hits)
            if event.hit:
                hits[_other(event.side)] += 1
            shots = {**state.shots, event.side: state.shots[event.side] + 1}
            return state.model_copy(update={"shots": shots, "hits": hits})
        if isinstance(event, GameEnded):
            return state.model_copy(update={"over": True})
        return state

    def to_act(self, state: DuelState) -> list[str | None]:
        if state.over:
            return []
        return ["red" if state.shots["red"] <= state.shots["blue"] else "blue"]

    def legal_commands(self, state: DuelState, side: str | None) -> list[Fire]:
        return [Fire(), Fire(aim="bridge")] if side in self.to_act(state) else []

    def bot_command(self, state: DuelState, side: str | None) -> Fire | None:
        return Fire() if side in self.to_act(state) else None

    def read_model(self, state: DuelState) -> GameView:
        units = [
            UnitView(
                id=side,
                side=side,
                name=f"{side} gunboat",
                kind="gunboat",
                status="sunk" if state.hits[side] >= HITS_TO_SINK else "active",
                damage=state.hits[side],
                strength=HITS_TO_SINK,
                position=(10.0 + 80.0 * i, 50.0),
            )
            for i, side in enumerate(SIDES)
        ]
        acting = self.to_act(state)
        return GameView(
            ruleset=self.meta.id,
            ruleset_name=self.meta.name,
            scenario=state.scenario,
            turn=min(state.shots.values()) + 1,
            phase="over" if state.over else "fire",
            active_side=acting[0] if acting else None,
            sides=[
                SideView(
                    id=side,
                    name=side.title(),
                    vp=state.hits[_other(side)],
                    units_total=1,
                    units_active=int(state.hits[side] < HITS_TO_SINK),
                )
                for side in SIDES
            ],
            units=units,
            board=BoardView(kind="continuous", width=100.0, height=100.0),
            result=ResultView(winner=None, reason="", rule="DUEL-2", vp={}) if state.over else None,
        )

    def describe(self, event: DomainEvent) -> str:
        # every event comes here: this ruleset's own and the engine's three
        if isinstance(event, Shot):
            return f"{event.side} fires: {'hit' if event.hit else 'miss'}"
        if isinstance(event, CommandIssued):
            return f"order #{event.index} by {event.side}: {self.describe_order(event.command)}"
        if isinstance(event, DiceRolled):
            return describe_roll(event)
        if isinstance(event, GameEnded):
            return f"game over: {event.winner or 'draw'} ({event.reason}, {event.rule})"
        return type(event).__name__

    def dump_state(self, state: DuelState) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def load_state(self, data: Mapping[str, Any]) -> DuelState:
        return DuelState.model_validate(dict(data))
