"""The SQLite store: state from the store == live state == snapshot-restored state, a game replays
identically after a restart, refused orders and bad imports change nothing."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.aggregate import Game
from domain.engine import CommandEnvelope, Session, header_for, replay
from domain.errors import GameNotFound, IllegalCommand, RecordError, StoreError
from domain.record import read_record, write_record
from domain.store import SNAPSHOT_INTERVAL, GameStore
from tests.helpers import bot_game, small_scenario
from tests.pg import pg_schema


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    """Every store test runs on the embedded SQLite store and on a real PostgreSQL server."""
    if request.param == "sqlite":
        yield GameStore(str(tmp_path / "store" / "wake.sqlite3"))
        return
    with pg_schema() as url:
        yield GameStore(url)


def _count_rows(store: GameStore) -> int:
    return len(store.recorder.select_notifications(start=1, limit=1_000_000))


def test_store_file_is_created_on_first_use(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "dir" / "w.sqlite3"
    GameStore(str(path))
    assert path.exists()


def test_store_live_and_snapshot_states_agree(store: GameStore) -> None:
    session = bot_game(seed=5, scenario=small_scenario(turn_limit=20), game_id=str(uuid.uuid4()))
    assert len(session.facts) > SNAPSHOT_INTERVAL + 10
    gid = store.import_game(session.header, session.facts)
    snapshots = list(store.snapshots.get(uuid.UUID(gid))) if store.snapshots else []
    assert snapshots, "a game longer than the interval has snapshots"
    assert store.state(gid).rules == session.state.rules
    for n in (
        0,
        1,
        SNAPSHOT_INTERVAL - 1,
        SNAPSHOT_INTERVAL,
        SNAPSHOT_INTERVAL + 7,
        len(session.facts),
    ):
        expected = replay(session.header, session.facts[:n])
        got = store.state(gid, at_event=n)
        assert got.seq == n
        assert got.rules == expected.rules and got.head == expected.head
    # restoring straight from a snapshot event gives the same state as folding the events
    snap = snapshots[-1]
    restored = snap.mutate(None)
    assert isinstance(restored, Game)
    folded = replay(session.header, session.facts[: snap.originator_version - 1])
    assert restored.state == folded


def test_game_replays_identically_after_restart(tmp_path: Path) -> None:
    """A new process reading the same file rebuilds the same state (read model as JSON)."""
    db = tmp_path / "w.sqlite3"
    session = bot_game(seed=8, game_id=str(uuid.uuid4()))
    GameStore(str(db)).import_game(session.header, session.facts)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "domain.cli.app",
            "show",
            session.header.game_id,
            "--json",
            "--store",
            str(db),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    live = session.state.ruleset.read_model(session.state.rules).model_dump(mode="json")
    assert json.loads(out)["view"] == live


def test_refused_order_appends_nothing(store: GameStore) -> None:
    header = header_for("morze", small_scenario(), game_id=str(uuid.uuid4()), seed=1)
    gid = store.create_game(header)
    store.submit(gid, CommandEnvelope(command={"type": "roll_initiative"}))
    before = _count_rows(store)
    state = store.state(gid)
    with pytest.raises(IllegalCommand) as info:
        mover = state.rules.active
        unit = state.rules.alive(mover)[0]
        store.submit(
            gid,
            CommandEnvelope(
                side=mover, command={"type": "move", "unit": unit.id, "x": unit.x + 50, "y": unit.y}
            ),
        )
    assert info.value.rule == "PL-2"
    assert _count_rows(store) == before
    assert store.state(gid) == state


def test_export_import_export_is_identical(store: GameStore, tmp_path: Path) -> None:
    session = bot_game(seed=11, game_id=str(uuid.uuid4()))
    first = write_record(session.header, session.facts)
    record = read_record(first, strict=True)
    gid = store.import_game(record.header, record.events)
    header, facts = store.facts(gid)
    assert write_record(header, facts) == first


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(min_value=0, max_value=2**31 - 1))
def test_round_trip_property(tmp_path: Path, seed: int) -> None:
    """For any seed: export -> import -> export is identical and store state == live state."""
    store = GameStore(str(tmp_path / f"p{seed}.sqlite3"))
    session = bot_game(seed=seed, game_id=str(uuid.uuid4()))
    text = write_record(session.header, session.facts)
    gid = store.import_game(session.header, session.facts)
    assert store.state(gid).rules == session.state.rules
    header, facts = store.facts(gid)
    assert write_record(header, facts) == text


def test_bad_import_changes_no_store(store: GameStore) -> None:
    session = bot_game(seed=2, game_id=str(uuid.uuid4()))
    broken = list(session.facts)
    broken[10] = broken[10].model_copy(update={"payload": {**broken[10].payload, "x": 1}})
    before = _count_rows(store)
    with pytest.raises(RecordError):
        store.import_game(session.header, broken)
    assert _count_rows(store) == before
    assert store.game_ids() == []


def test_duplicate_import_is_refused(store: GameStore) -> None:
    session = bot_game(seed=2, game_id=str(uuid.uuid4()))
    store.import_game(session.header, session.facts)
    before = _count_rows(store)
    with pytest.raises(StoreError, match="already"):
        store.import_game(session.header, session.facts)
    assert _count_rows(store) == before


def test_unknown_game_is_reported(store: GameStore) -> None:
    with pytest.raises(GameNotFound):
        store.state(str(uuid.uuid4()))
    with pytest.raises(GameNotFound):
        store.state("not-a-uuid")


def test_list_and_summary(store: GameStore) -> None:
    session = bot_game(seed=4, game_id=str(uuid.uuid4()))
    gid = store.import_game(session.header, session.facts)
    assert store.game_ids() == [gid]
    summary = store.summary(gid)
    assert summary.ruleset == "morze" and summary.events == len(session.facts)
    assert summary.result != "in progress"


def test_live_session_equals_store_after_each_command(store: GameStore) -> None:
    """Orders submitted one by one through the store give the same facts as in memory."""
    header = header_for("morze", small_scenario(turn_limit=2), game_id=str(uuid.uuid4()), seed=9)
    gid = store.create_game(header)
    session = Session(header)
    while True:
        state = session.state
        ruleset = state.ruleset
        sides = ruleset.to_act(state.rules)
        if not sides or state.result is not None:
            break
        command = ruleset.bot_command(state.rules, sides[0])
        envelope = CommandEnvelope(side=sides[0], command=command.model_dump(mode="json"))
        assert store.submit(gid, envelope) == session.submit(envelope)
    assert store.facts(gid)[1] == session.facts
