"""The store's read path: lean rows, folds with and without snapshots, and the verified rebuild.

Every way of rebuilding a stored game (newest snapshot + tail, every row from the first, every row
with its digest chain checked, the library's mapper when a compressor is configured) must give the
state an in-memory session reaches by playing the same orders.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.engine import CommandEnvelope, Fact, Session, fold, new_game, replay
from domain.errors import GameNotFound, RecordError
from domain.record import read_record_file
from domain.recorders import LeanRows
from domain.store import SNAPSHOT_INTERVAL, GameStore
from tests.helpers import bot_game, small_scenario
from tests.pg import pg_schema

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(params=["sqlite", "postgres", "postgres-table-lock"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "wake.sqlite3")
        return
    with pg_schema("table" if request.param.endswith("lock") else "none") as url:
        yield url


def long_game() -> Session:
    session = bot_game(seed=3, scenario=small_scenario(turn_limit=20), game_id=str(uuid.uuid4()))
    assert len(session.facts) > 3 * SNAPSHOT_INTERVAL
    return session


def test_every_recorder_reads_rows_lean(location: str) -> None:
    """SQLite and both PostgreSQL recorders offer ``select_rows`` with the library's bounds."""
    store = GameStore(location)
    session = long_game()
    gid = store.import_game(session.header, session.facts)
    recorder = store.recorder
    assert isinstance(recorder, LeanRows)
    uid = uuid.UUID(gid)
    rows = recorder.select_rows(uid)
    assert len(rows) == len(session.facts) + 1  # the header row, then one row per fact
    assert [topic for topic, _ in rows] == [e.topic for e in recorder.select_events(uid)]
    window = recorder.select_rows(uid, gt=10, lte=20)
    assert [json.loads(state)["fact"]["seq"] for _, state in window] == list(range(10, 20))
    assert recorder.select_rows(uuid.uuid4()) == []


def test_full_fold_equals_snapshot_load_and_live_state(location: str) -> None:
    store = GameStore(location)
    session = long_game()
    gid = store.import_game(session.header, session.facts)
    latest = store.state(gid)
    assert latest == session.state
    assert store.state(gid, from_snapshot=False) == session.state
    assert store.state(gid, from_snapshot=False, verify=True) == session.state
    for n in (0, 1, SNAPSHOT_INTERVAL, SNAPSHOT_INTERVAL + 1, 2 * SNAPSHOT_INTERVAL - 1):
        expected = replay(session.header, session.facts[:n])
        assert store.state(gid, at_event=n) == expected
        assert store.state(gid, at_event=n, from_snapshot=False) == expected


def test_iron_oak_game_folds_from_rows(tmp_path: Path) -> None:
    """The read path is ruleset-generic: an Iron & Oak fixture (card deals with ``next_die``,
    criticals, forts) rebuilds to the same state from rows and from snapshots."""
    record = read_record_file(ROOT / "fixtures/games/iron_oak/mobile_bay-fort-magazine.wake.json")
    session = Session(record.header, record.events)
    assert len(session.facts) > SNAPSHOT_INTERVAL
    store = GameStore(str(tmp_path / "io.sqlite3"))
    gid = store.import_game(record.header, record.events)
    assert store.state(gid) == session.state
    assert store.state(gid, from_snapshot=False, verify=True) == session.state
    assert store.state(gid).dice_position == session.state.dice_position > 0


def test_submitting_after_a_lean_load_continues_the_chain(location: str) -> None:
    """Orders decided on a game loaded through the read path append at the right version."""
    store = GameStore(location)
    session = long_game()
    played = session.facts[: 2 * SNAPSHOT_INTERVAL + 5]
    cut = max(i for i, f in enumerate(played) if f.command != played[-1].command)
    gid = store.import_game(session.header, played[: cut + 1])
    live = Session(session.header, played[: cut + 1])
    for _ in range(5):
        live_facts = live.submit_bot()
        assert live_facts is not None
        issued = live_facts[0].payload
        stored = store.submit(gid, CommandEnvelope(side=issued["side"], command=issued["command"]))
        assert stored == live_facts
    assert store.state(gid) == live.state
    assert store.state(gid, from_snapshot=False, verify=True) == live.state


def _tamper_sqlite(path: str, seq: int) -> None:
    """Change a stored fact without fixing its digest, straight in the file."""
    con = sqlite3.connect(path)
    rows = con.execute(
        "SELECT originator_id, originator_version, state FROM stored_events ORDER BY 2"
    ).fetchall()
    uid, version, state = rows[seq]  # row 0 is the header, row n is fact n
    body = json.loads(state)
    assert body["fact"]["seq"] == seq
    body["fact"]["automatic"] = not body["fact"]["automatic"]
    con.execute(
        "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?",
        (json.dumps(body).encode(), uid, version),
    )
    con.commit()
    con.close()


def test_verified_rebuild_finds_an_altered_row(tmp_path: Path) -> None:
    path = str(tmp_path / "t.sqlite3")
    store = GameStore(path)
    session = long_game()
    gid = store.import_game(session.header, session.facts)
    _tamper_sqlite(path, 7)
    with pytest.raises(RecordError, match=r"event 7 .*digest does not match"):
        store.state(gid, from_snapshot=False, verify=True)
    # the default read trusts the store's own rows, as it trusts its snapshots
    assert store.state(gid, from_snapshot=False).seq == len(session.facts)


def test_compressed_store_reads_through_the_library_mapper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a compressor the stored bytes are not JSON: the mapper path gives the same games."""
    monkeypatch.setenv("COMPRESSOR_TOPIC", "eventsourcing.compressor:ZlibCompressor")
    store = GameStore(str(tmp_path / "z.sqlite3"))
    assert store.mapper.compressor is not None
    session = long_game()
    gid = store.import_game(session.header, session.facts)
    header, facts = store.facts(gid)
    assert header == session.header and facts == session.facts
    assert store.state(gid) == session.state
    assert store.state(gid, at_event=60, from_snapshot=False) == replay(
        session.header, session.facts[:60]
    )


def test_unknown_or_malformed_game_ids(tmp_path: Path) -> None:
    store = GameStore(str(tmp_path / "u.sqlite3"))
    with pytest.raises(GameNotFound, match="no game"):
        store.state(str(uuid.uuid4()), from_snapshot=False)
    with pytest.raises(GameNotFound, match="not a game id"):
        store.facts("nope")


def test_fold_names_a_missing_field_and_an_unknown_topic() -> None:
    session = bot_game(seed=1, game_id=str(uuid.uuid4()))
    start = new_game(session.header)
    broken = dict(session.facts[0].__dict__)
    del broken["digest"]
    with pytest.raises(RecordError, match="event 1: the stored fact has no 'digest' field"):
        fold(start, [broken], check=False)
    odd = dict(session.facts[1].__dict__, topic="morze.Nonsense/1")
    with pytest.raises(RecordError, match=r"unknown event topic 'morze\.Nonsense/1'"):
        fold(replay(session.header, session.facts[:1]), [odd], check=False)


def test_fold_of_many_equals_one_at_a_time() -> None:
    """``fold`` over all facts, ``replay`` and per-fact folding agree at every step."""
    session = bot_game(seed=4, game_id=str(uuid.uuid4()))
    state = new_game(session.header)
    for k, fact in enumerate(session.facts, start=1):
        state = fold(state, [fact.__dict__])
        if k % 17 == 0:
            assert state == replay(session.header, session.facts[:k], check=False)
    assert state == session.state
    assert isinstance(session.facts[0], Fact)


def test_in_memory_store_leaves_no_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``:memory:`` is SQLite's private in-process store: it works and writes nothing to disk."""
    monkeypatch.chdir(tmp_path)
    store = GameStore(":memory:")
    session = bot_game(seed=2, game_id=str(uuid.uuid4()))
    gid = store.import_game(session.header, session.facts)
    assert store.state(gid, from_snapshot=False) == session.state
    assert list(tmp_path.iterdir()) == []


def test_every_read_of_the_facts_refuses_an_altered_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 12, gap 8: log, explain, export and the viewer read a game's facts through
    ``GameStore.facts``, which checks every digest: a row edited in the store is named, and
    never shown or exported as the game."""
    from typer.testing import CliRunner

    from domain.cli.app import app
    from viewer.loading import LoadError, from_store

    path = str(tmp_path / "t.sqlite3")
    store = GameStore(path)
    session = long_game()
    gid = store.import_game(session.header, session.facts)
    assert len(store.facts(gid)[1]) == len(session.facts)
    _tamper_sqlite(path, 7)
    with pytest.raises(RecordError, match=r"event 7 .*the stored row was altered outside Wake"):
        store.facts(gid)
    with pytest.raises(LoadError, match="event 7"):
        from_store(path, gid)
    monkeypatch.setenv("WAKE_STORE", path)
    runner = CliRunner()
    out = tmp_path / "out.wake.json"
    for args in (["log", gid], ["explain", gid, "9"], ["export", gid, "-o", str(out)]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "event 7" in result.output and "altered" in result.output
    assert not out.exists()
