"""Auditing a stored game (``wake verify --game``): everything everyday reads take on trust.

Reads start from the newest snapshot and trust the store's rows; an audit re-runs every order
(dice, rules, digest chain) and compares every snapshot with the state its events lead to.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from domain.audit import audit_game
from domain.cli.app import app
from domain.errors import GameNotFound, RecordError, StoreError
from domain.store import SNAPSHOT_INTERVAL, GameStore
from tests.helpers import bot_game, small_scenario


def stored(location: str) -> tuple[GameStore, str, int]:
    session = bot_game(seed=9, scenario=small_scenario(turn_limit=20), game_id=str(uuid.uuid4()))
    assert len(session.facts) > 2 * SNAPSHOT_INTERVAL
    store = GameStore(location)
    return store, store.import_game(session.header, session.facts), len(session.facts)


def _rewrite(path: str, table: str, version: int, change: object) -> None:
    con = sqlite3.connect(path)
    (state,) = con.execute(
        f"SELECT state FROM {table} WHERE originator_version=?", (version,)
    ).fetchone()
    body = json.loads(state)
    change(body)  # type: ignore[operator]
    con.execute(
        f"UPDATE {table} SET state=? WHERE originator_version=?",
        (json.dumps(body).encode(), version),
    )
    con.commit()
    con.close()


def test_clean_game_passes_with_its_counts(location: str) -> None:
    store, gid, events = stored(location)
    seen: list[int] = []
    report = audit_game(store, gid, progress=lambda done, total: seen.append(done))
    assert report.events == events
    assert report.game_id == gid
    assert seen and seen[-1] == events


def test_altered_roll_is_named_by_event(tmp_path: Path) -> None:
    """A dice face changed in the store (digest left alone) is named by its event: reading the
    game's facts checks every digest, before anything is re-run (issue 12, gap 8)."""
    path = str(tmp_path / "a.sqlite3")
    store, gid, _ = stored(path)
    _, facts = store.facts(gid)
    roll = next(f for f in facts if f.topic == "wake.DiceRolled/1")

    def change(body: dict) -> None:  # type: ignore[type-arg]
        faces = body["fact"]["payload"]["roll"]["faces"]
        faces[0] = faces[0] % 10 + 1

    _rewrite(path, "stored_events", roll.seq + 1, change)
    with pytest.raises(RecordError, match=f"event {roll.seq} .*digest does not match"):
        audit_game(store, gid)


def test_altered_snapshot_is_found(tmp_path: Path) -> None:
    """A snapshot that no longer matches its events is reported with the event it follows;
    ordinary reads would have trusted it."""
    path = str(tmp_path / "s.sqlite3")
    store, gid, _ = stored(path)
    version = 2 * SNAPSHOT_INTERVAL

    def change(body: dict) -> None:  # type: ignore[type-arg]
        body["state"]["commands"] += 1

    _rewrite(path, "stored_snapshots", version, change)
    with pytest.raises(StoreError, match=f"snapshot after event {version - 1} differs"):
        audit_game(store, gid)


def test_unknown_game() -> None:
    with pytest.raises(GameNotFound):
        audit_game(GameStore(":memory:"), str(uuid.uuid4()))


def test_cli_verify_game(tmp_path: Path) -> None:
    path = str(tmp_path / "c.sqlite3")
    _, gid, events = stored(path)
    runner = CliRunner()
    result = runner.invoke(app, ["verify", "--game", gid, "--store", path])
    assert result.exit_code == 0, result.output
    assert f"game {gid}: OK - {events} events" in result.output
    result = runner.invoke(app, ["verify", "--game", str(uuid.uuid4()), "--store", path])
    assert result.exit_code == 2 and "INVALID" in result.output  # not a divergence: exit 2
    result = runner.invoke(app, ["verify"])
    assert result.exit_code == 2 and "--game ID" in result.output
