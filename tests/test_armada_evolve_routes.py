"""Armada's ``evolve`` hands an event only to the phase modules that handle it (each module's
``HANDLES``): every module's ``HANDLES`` names exactly the event types its ``apply`` tests
with ``isinstance(event, ...)``, and routing an event gives the state of folding it through
every module; the integration point builds a ship's hull only for the events ``apply_ship``
handles."""

from __future__ import annotations

import ast
import inspect
import json

import pytest

from domain.engine import header_for
from domain.events import DomainEvent, GameEnded
from domain.fastplay import FastGame, play_out
from domain.rulesets.armada import rules
from domain.rulesets.armada.events import DialRevealed, PhaseBegan, TurnBegan, TurnPassed
from domain.rulesets.armada.state import ArmadaState
from tests.helpers import FIXTURES

MODULES = [inspect.getmodule(apply) for apply, _ in rules._MODULES]


def _tested_types(module: object) -> set[str]:
    """The names ``apply`` passes to ``isinstance(event, ...)``."""
    tree = ast.parse(inspect.getsource(module.apply))  # type: ignore[attr-defined]
    names: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "isinstance"
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == "event"
        ):
            kinds = node.args[1]
            for kind in kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]:
                assert isinstance(kind, ast.Name)
                names.add(kind.id)
    return names


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_handles_names_every_event_apply_tests(module: object) -> None:
    handles = {kind.__name__ for kind in module.HANDLES}  # type: ignore[attr-defined]
    assert handles == _tested_types(module)


def test_route_keeps_the_modules_order_and_ends_with_the_integration_point() -> None:
    route = rules._route(DialRevealed)
    assert [inspect.getmodule(a).__name__.rsplit(".", 1)[-1] for a in route] == [  # type: ignore[union-attr]
        "ship_phase",
        "passing",
        "integration",
    ]
    assert rules._route(TurnPassed)[-1] is rules.integration.apply
    assert len(rules._route(PhaseBegan)) == 2  # passing and the integration point


def _every_module(state: ArmadaState, event: DomainEvent) -> ArmadaState:
    """evolve as it was before routing: every module's ``apply`` in turn."""
    if isinstance(event, (PhaseBegan, TurnBegan, GameEnded)):
        return rules.evolve(state, event)
    for apply, _ in rules._MODULES:
        state = apply(state, event)
    return rules.integration.apply(state, event)


@pytest.mark.parametrize("seed", [2, 5])
def test_routed_evolve_equals_every_module_in_turn(seed: int) -> None:
    """Over a bot game, every event folded by the routed evolve gives the state that folding
    it through every module's ``apply`` gives."""
    data = json.loads((FIXTURES / "scenarios/armada/core_learning.json").read_text())
    header = header_for("armada", data, game_id=f"routes-{seed}", seed=seed)
    game = FastGame.new(header)
    events: list[DomainEvent] = []
    play_out(game, seed, watch=lambda side, command, caused: events.extend(caused))
    assert game.result is not None
    state = FastGame.new(header).rules
    for event in events:
        routed = rules.evolve(state, event)
        assert routed == _every_module(state, event), type(event).__name__
        state = routed


def test_ship_events_name_every_case_of_apply_ship() -> None:
    """``damage.SHIP_EVENTS`` (the integration point builds a ship's hull only for these) names
    exactly the event classes ``apply_ship`` matches on."""
    from domain.rulesets.armada import damage

    tree = ast.parse(inspect.getsource(damage.apply_ship))
    matched = {
        node.cls.id
        for node in ast.walk(tree)
        if isinstance(node, ast.MatchClass) and isinstance(node.cls, ast.Name)
    }
    assert {kind.__name__ for kind in damage.SHIP_EVENTS} == matched
