"""Issue 12, gap 8 (part): a stored row's topic is looked up in Wake's allow-list
(``STORED_TOPICS``), never imported. The library resolves a topic ``module:attr`` by importing the
module, so a snapshot row whose topic was set to ``this:s`` ran ``import this``."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from domain.aggregate import STORED_TOPICS, Game
from domain.errors import StoreError
from domain.store import GameStore
from tests.helpers import game_with_a_snapshot, run_sql


def test_the_allow_list_is_wakes_own() -> None:
    assert set(STORED_TOPICS) == {
        "wake.Game/1",
        "wake.Game.Created/1",
        "wake.Game.FactRecorded/1",
        "wake.Game.Snapshot/1",
        "wake.GameSeed/1",  # a committed-seed game's secret seed (domain.seed_commit)
        "wake.GameSeed.Created/1",
        "wake.GameSeed.Revealed/1",
        "wake.GameSignatures/1",  # signatures kept with a stored game (domain.record.signing)
        "wake.GameSignatures.Created/1",
        "wake.GameSignatures.Added/1",
        "wake.GameAnnotations/1",  # a game's annotations (issue 14, domain.annotations)
        "wake.GameAnnotations.Created/1",
        "wake.GameAnnotations.Added/1",
        "wake.GameAnnotations.Withdrawn/1",
        "wake.ScribeTable/1",  # a table recording a game as played (issue 20, domain.scribe)
        "wake.ScribeTable.Created/1",
        "wake.ScribeTable.LineMoved/1",
        "wake.ScribeTable.LinkIssued/1",
        "wake.ScribeTable.LinkRevoked/1",
        "wake.ScribeLinks/1",  # capability links' hashes -> their table
        "wake.ScribeLinks.Created/1",
        "wake.ScribeLinks.Added/1",
        "wake.GameAnalysis/1",  # win probabilities by rollouts (issue 24, domain.analysis)
        "wake.GameAnalysis.Created/1",
        "wake.GameAnalysis.Started/1",
        "wake.GameAnalysis.Estimated/1",
    }
    assert STORED_TOPICS[Game.Snapshot.TOPIC] is Game.Snapshot


def _read_in_fresh_process(path: str, gid: str) -> subprocess.CompletedProcess[str]:
    """Read the game in a new interpreter and report whether ``this`` got imported (its
    import prints the Zen of Python, and ``sys.modules`` shows it)."""
    code = textwrap.dedent(
        f"""
        import sys
        from domain.errors import WakeError
        from domain.store import GameStore
        try:
            GameStore({path!r}).state({gid!r})
            print("LOADED")
        except WakeError as exc:
            print("REFUSED", exc)
        print("IMPORTED" if "this" in sys.modules else "NOT IMPORTED")
        """
    )
    root = Path(__file__).resolve().parents[1]
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=120
    )


def test_a_snapshot_row_with_a_foreign_topic_is_refused_and_nothing_imported(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "s.sqlite3")
    gid = game_with_a_snapshot(path)
    run_sql(path, "UPDATE stored_snapshots SET topic = 'this:s'")
    done = _read_in_fresh_process(path, gid)
    assert done.returncode == 0, done.stderr
    assert "REFUSED" in done.stdout and "has the topic 'this:s', which is not one of" in done.stdout
    assert "NOT IMPORTED" in done.stdout and "Beautiful is better" not in done.stdout
    with pytest.raises(StoreError, match="'this:s', which is not one of Wake's"):
        GameStore(path).state(gid)


def test_a_snapshot_body_naming_a_foreign_class_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sqlite3")
    gid = game_with_a_snapshot(path)
    con = sqlite3.connect(path)
    (state,) = con.execute("SELECT state FROM stored_snapshots").fetchone()
    body = json.loads(state)
    assert body["topic"] == Game.TOPIC
    body["topic"] = "this:s"
    con.execute("UPDATE stored_snapshots SET state = ?", (json.dumps(body).encode(),))
    con.commit()
    con.close()
    done = _read_in_fresh_process(path, gid)
    assert "REFUSED" in done.stdout and "names the class 'this:s'" in done.stdout, done
    assert "NOT IMPORTED" in done.stdout


def test_an_unreadable_snapshot_body_is_a_store_error(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sqlite3")
    gid = game_with_a_snapshot(path)
    con = sqlite3.connect(path)
    (state,) = con.execute("SELECT state FROM stored_snapshots").fetchone()
    body = json.loads(state)
    del body["state"]["header"]
    con.execute("UPDATE stored_snapshots SET state = ?", (json.dumps(body).encode(),))
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="cannot be read"):
        GameStore(path).state(gid)
