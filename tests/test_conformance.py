"""Conformance suite run against every registered ruleset, over every scenario shipped for it in
fixtures/scenarios/<ruleset>/: bot games finish; the same seed gives identical events; live
state == replayed state == state restored from a store snapshot; a record round-trips byte for
byte and verifies; refused orders append nothing; read models are well formed."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest

from domain.engine import CommandEnvelope, Session, header_for, replay
from domain.errors import WakeError
from domain.record import read_record, verify_record, write_record
from domain.ruleset import get_ruleset, known_rulesets
from domain.store import GameStore
from tests.helpers import FIXTURES

CASES = [
    (rid, path)
    for rid in known_rulesets()
    for path in sorted((FIXTURES / "scenarios" / rid).glob("*.json"))
]


def _bot_game(rid: str, scenario: dict[str, Any], seed: int) -> Session:
    session = Session(
        header_for(
            rid,
            scenario,
            game_id=str(uuid.uuid5(uuid.NAMESPACE_URL, f"{rid}{scenario.get('id')}{seed}")),
            seed=seed,
        )
    )
    for _ in range(100_000):
        if session.submit_bot() is None:
            break
    return session


def test_every_ruleset_ships_a_scenario() -> None:
    assert {rid for rid, _ in CASES} == set(known_rulesets())


@pytest.mark.parametrize("rid, path", CASES, ids=[f"{r}-{p.stem}" for r, p in CASES])
def test_ruleset_conformance(rid: str, path: Path, tmp_path: Path) -> None:
    scenario = json.loads(path.read_text("utf-8"))
    ruleset = get_ruleset(rid)
    session = _bot_game(rid, scenario, seed=17)
    assert session.state.result is not None, "bots must be able to finish a game"
    again = _bot_game(rid, scenario, seed=17)
    assert [f.digest for f in again.facts] == [f.digest for f in session.facts]
    assert replay(session.header, session.facts).rules == session.state.rules
    # store with snapshots == live
    store = GameStore(str(tmp_path / "c.sqlite3"))
    gid = store.import_game(session.header, session.facts)
    assert store.state(gid).rules == session.state.rules
    # record round trip and verification
    text = write_record(session.header, session.facts)
    record = read_record(text, strict=True)
    assert verify_record(record).events == len(session.facts)
    # state JSON round trip (snapshots)
    assert ruleset.load_state(ruleset.dump_state(session.state.rules)) == session.state.rules
    # read model is well formed at the start and the end
    for state in (replay(session.header, []), session.state):
        view = ruleset.read_model(state.rules)
        assert {s.id for s in view.sides} == {s.id for s in session.header.sides}
        assert all(u.side in {s.id for s in view.sides} for u in view.units)
        assert view.board.kind == ruleset.meta.board_kind
    # every rule an event cites has a summary
    for fact in session.facts:
        rule = fact.payload.get("rule")
        if isinstance(rule, str):
            assert ruleset.rule_summary(rule), f"no summary for {rule}"


@pytest.mark.parametrize("rid, path", CASES, ids=[f"{r}-{p.stem}" for r, p in CASES])
def test_refusals_append_nothing(rid: str, path: Path) -> None:
    """An order from the wrong side at each step of a game is refused and appends nothing."""
    scenario = json.loads(path.read_text("utf-8"))
    session = Session(header_for(rid, scenario, game_id="r", seed=3))
    sides = [s.id for s in session.header.sides]
    refused = 0
    for _ in range(200):
        ruleset = session.state.ruleset
        acting = ruleset.to_act(session.state.rules)
        if not acting or session.state.result is not None:
            break
        side = acting[0]
        command = ruleset.bot_command(session.state.rules, side)
        assert command is not None
        if side is not None:
            wrong = next(s for s in sides if s != side)
            before = (len(session.facts), session.state)
            with pytest.raises(WakeError):
                session.submit(CommandEnvelope(side=wrong, command=command.model_dump(mode="json")))
            assert (len(session.facts), session.state) == before
            refused += 1
        session.submit(CommandEnvelope(side=side, command=command.model_dump(mode="json")))
    assert refused > 0
