"""Issue 23 items 4, 10 and 13: every file Wake reads goes through the bounded reader, a bad store
path is bad input, and a stored row relabelled to another allowed topic is a typed error: exit 2
and one line, never a traceback, a hang or exit 3."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from domain import datafiles
from domain.aggregate import STORED_TOPICS, Game
from domain.errors import ScenarioError, StoreError
from domain.store import GameStore
from tests.cli_helpers import wake
from tests.helpers import FIXTURES, game_with_a_snapshot, run_sql

RECORD = FIXTURES / "games" / "morze" / "river_plate-annihilation.wake.json"


def _bad_file(tmp_path: Path, kind: str) -> Path:
    """A path Wake must refuse to read as a file: a directory, a FIFO, a link to /dev/zero,
    a sparse file far over the limits, or (for a store) a regular file that is no database."""
    path = tmp_path / f"{kind}.json"
    if kind == "dir":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "huge":
        with path.open("wb") as handle:
            handle.truncate(100 * 2**20)
    else:
        path.write_bytes(b"not a database " * 1000)
    return path


KINDS = ["dir", "fifo", "zero", "huge", "garbage"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_bad_store_path_is_bad_input(kind: str, tmp_path: Path) -> None:
    """Issue 23 item 10: ``wake list --store DIR|FIFO|/dev/zero|a big file``: exit 2, one line."""
    code, _, err = wake("list", "--store", str(_bad_file(tmp_path, kind)))
    assert code == 2 and err.startswith("error (store): cannot open store") and err.count("\n") == 1


@pytest.mark.parametrize("kind", ["dir", "fifo", "zero", "huge"])
def test_rerun_data_is_read_bounded(kind: str, tmp_path: Path) -> None:
    """Issue 23 item 4: ``wake rerun --data`` on a special or huge file: exit 2, one line."""
    code, _, err = wake("rerun", str(RECORD), "--data", str(_bad_file(tmp_path, kind)))
    assert code == 2 and "data file" in err and err.count("\n") == 1


@pytest.mark.parametrize("kind", ["dir", "fifo", "zero", "huge"])
def test_a_rulesets_data_file_is_read_bounded(kind: str, tmp_path: Path) -> None:
    """Issue 23 item 4: the rulesets' ``read_json`` (your own tables) reads bounded too."""
    with pytest.raises(ScenarioError, match="cannot read Iron & Oak data file"):
        datafiles.read_json(_bad_file(tmp_path, kind), "Iron & Oak data file")


@pytest.mark.parametrize(
    "topic", sorted(t for t in STORED_TOPICS if t not in (Game.Snapshot.TOPIC, Game.TOPIC))
)
def test_a_snapshot_row_relabelled_to_another_allowed_topic(topic: str, tmp_path: Path) -> None:
    """Issue 23 item 13: a snapshot row relabelled to another of Wake's topics is refused."""
    path = str(tmp_path / "s.sqlite3")
    gid = game_with_a_snapshot(path)
    run_sql(path, "UPDATE stored_snapshots SET topic = ?", topic)
    with pytest.raises(StoreError):
        GameStore(path).state(gid)
    code, _, err = wake("show", gid, "--store", path)
    assert code == 2 and err.startswith("error (store)") and err.count("\n") == 1


def test_a_side_stream_row_relabelled_is_a_typed_error(tmp_path: Path) -> None:
    """Issue 23 item 13: an annotation row relabelled to a game's fact is refused, exit 2."""
    path = str(tmp_path / "s.sqlite3")
    gid = game_with_a_snapshot(path)
    assert wake("annotate", gid, "1", "--author", "A", "--kind", "note", "--text", "x",
                "--store", path)[0] == 0  # fmt: skip
    run_sql(
        path,
        "UPDATE stored_events SET topic = ? WHERE topic = ?",
        Game.FactRecorded.TOPIC,
        "wake.GameAnnotations.Added/1",
    )
    code, _, err = wake("annotations", gid, "--store", path)
    assert code == 2 and "does not read" in err and err.count("\n") == 1
