"""Shared helpers for the Armada tests: registering the ruleset in process, small scenarios, and
a game driver that seals and reveals command dials as a player would.

The ruleset is an entry point (``armada``); the ``armada`` fixture registers this checkout's
class in process for one test and removes it afterwards (other tests check that nothing is left
registered in process), so the tests play the code under test whatever is installed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest

from domain import ruleset as registry
from domain.engine import CommandEnvelope, Session, decode, header_for
from domain.errors import WakeError
from domain.events import DomainEvent
from domain.rulesets.armada.command_phase import bot_salt, dial_content
from domain.rulesets.armada.ruleset import ArmadaRuleset
from domain.rulesets.armada.state import ArmadaState
from domain.sealed import seal

GAME_ID = "00000000-0000-4000-8000-0000000a0001"


@pytest.fixture
def armada() -> Iterator[ArmadaRuleset]:
    """The ruleset registered in process as ``armada`` for one test."""
    registry.register("armada", ArmadaRuleset)
    try:
        yield registry.get_ruleset("armada")  # type: ignore[misc]
    finally:
        registry._REGISTERED.pop("armada", None)
        registry._INSTANCES.pop("armada", None)


def bundled(name: str) -> dict[str, Any]:
    """A bundled scenario file."""
    text = (
        resources.files("domain.rulesets.armada")
        .joinpath(f"data/scenarios/{name}.json")
        .read_text("utf-8")
    )
    data: dict[str, Any] = json.loads(text)
    return data


def ship(
    sid: str, side: str, card: str, x: float, y: float, heading: float = 0.0, speed: int = 1
) -> dict[str, Any]:
    return {
        "id": sid,
        "side": side,
        "card": card,
        "x": x,
        "y": y,
        "heading": heading,
        "speed": speed,
    }


def squadron(sid: str, side: str, card: str, x: float, y: float) -> dict[str, Any]:
    return {"id": sid, "side": side, "card": card, "x": x, "y": y}


def scenario(
    ships: list[dict[str, Any]],
    squadrons: list[dict[str, Any]] | None = None,
    *,
    first: str = "rebels",
    rounds: int = 6,
    no_attacks: list[int] | None = None,
    obstacles: list[dict[str, Any]] | None = None,
    deployment: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A small scenario: Empire against the Rebels on the 3'×3' play area."""
    data: dict[str, Any] = {
        "id": "test_armada",
        "title": "test",
        "sides": [
            {"id": "empire", "name": "Galactic Empire", "faction": "empire"},
            {"id": "rebels", "name": "Rebel Alliance", "faction": "rebel"},
        ],
        "first_player": first,
        "rounds": rounds,
        "no_attacks_in_rounds": no_attacks or [],
        "ships": ships,
        "squadrons": squadrons or [],
        "obstacles": obstacles or [],
    }
    if deployment:
        data["deployment"] = deployment
    return data


def duel() -> dict[str, Any]:
    """A Victory II (Empire, bottom, facing north) against a CR90 A and a Nebulon-B Escort
    (Rebels, top, facing south), far apart, with a TIE and an X-wing each."""
    return scenario(
        [
            ship("victory", "empire", "victory_ii", 457.2, 150.0, 0.0, 2),
            ship("cr90", "rebels", "cr90_a", 300.0, 780.0, 180.0, 3),
            ship("nebulon", "rebels", "nebulon_b_escort", 600.0, 780.0, 180.0, 2),
        ],
        [
            squadron("tie", "empire", "tie_fighter", 360.0, 150.0),
            squadron("xwing", "rebels", "x_wing", 450.0, 700.0),
        ],
    )


class Game:
    """A game driven one order at a time; dials are sealed with known salts."""

    def __init__(
        self,
        data: dict[str, Any],
        seed: int | None = 5,
        options: dict[str, Any] | None = None,
        version: str | None = None,
    ) -> None:
        header = header_for("armada", data, game_id=GAME_ID, seed=seed, options=options or {})
        if version is not None:  # a game as an older version of the ruleset recorded it
            ref = header.ruleset.model_copy(update={"version": version})
            header = header.model_copy(update={"ruleset": ref})
        self.session = Session(header)
        self.commands: dict[tuple[str, int], str] = {}
        self.events: list[DomainEvent] = []

    @property
    def state(self) -> ArmadaState:
        rules: ArmadaState = self.session.state.rules
        return rules

    @property
    def ruleset(self) -> ArmadaRuleset:
        found: ArmadaRuleset = self.session.state.ruleset  # type: ignore[assignment]
        return found

    def do(self, side: str | None, order: dict[str, Any]) -> list[DomainEvent]:
        facts = self.session.submit(CommandEnvelope(side=side, command=order))
        self.events = [decode(self.session.state, f) for f in facts[1:]]
        return self.events

    def refuse(
        self, side: str | None, order: dict[str, Any], error: type[WakeError], rule: str | None
    ) -> WakeError:
        """The order is refused with ``error`` naming ``rule``, and nothing is appended."""
        before = (len(self.session.facts), self.session.state)
        with pytest.raises(error) as info:
            self.session.submit(CommandEnvelope(side=side, command=order))
        if rule is not None:
            assert info.value.rule == rule, info.value
        assert (len(self.session.facts), self.session.state) == before
        return info.value

    def salt(self, ship_id: str, slot: int) -> str:
        """The bot's salt, so the bot can go on with dials a test set."""
        return bot_salt(self.state, ship_id, slot)

    def seal_dials(self, plan: dict[str, list[str]]) -> dict[str, Any]:
        """The ``set_dials`` order for ``plan`` (ship -> commands, top first)."""
        dials: dict[str, list[str]] = {}
        for ship_id, commands in plan.items():
            first = self.state.ships[ship_id].next_slot
            digests = []
            for k, command in enumerate(commands):
                slot = first + k
                self.commands[(ship_id, slot)] = command
                content = dial_content(ship_id, slot, command)  # type: ignore[arg-type]
                digests.append(seal(content, self.salt(ship_id, slot)).digest)
            dials[ship_id] = digests
        return {"type": "set_dials", "dials": dials}

    def set_dials(self, side: str, plan: dict[str, list[str]]) -> list[DomainEvent]:
        return self.do(side, self.seal_dials(plan))

    def reveal_order(self, ship_id: str, **extra: Any) -> dict[str, Any]:
        top = self.state.ships[ship_id].dials[0].slot
        return {
            "type": "reveal_dial",
            "ship": ship_id,
            "slot": top,
            "command": self.commands[(ship_id, top)],
            "salt": self.salt(ship_id, top),
            **extra,
        }

    def reveal(self, ship_id: str, **extra: Any) -> list[DomainEvent]:
        side = self.state.ships[ship_id].side
        return self.do(side, self.reveal_order(ship_id, **extra))

    def maneuver(self, ship_id: str, **fields: Any) -> list[DomainEvent]:
        side = self.state.ships[ship_id].side
        speed = fields.pop("speed", self.state.ships[ship_id].speed)
        clicks = fields.pop("clicks", [0] * speed)
        order = {"type": "maneuver", "ship": ship_id, "speed": speed, "clicks": clicks, **fields}
        return self.do(side, order)

    def bot(self) -> list[DomainEvent]:
        """One order from the bot for whoever is to act."""
        facts = self.session.submit_bot()
        assert facts is not None
        self.events = [decode(self.session.state, f) for f in facts[1:]]
        return self.events

    def play_until(self, done: Any, limit: int = 2000) -> None:
        for _ in range(limit):
            if done(self.state):
                return
            self.bot()
        raise AssertionError("the condition never came")


def of(events: list[DomainEvent], kind: type[DomainEvent]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
