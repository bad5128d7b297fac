"""Issue 23 item 2: nothing unverified is stored, by any path. ``wake import``, ``wake demo`` and
the viewer's "Keep it in the store" all go through ``domain.importing.import_record``, which
re-runs the record before anything is written."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from domain.errors import RecordDivergence
from domain.importing import import_record
from domain.record import read_record_file
from domain.store import GameStore
from tests.cli_helpers import wake
from tests.forge import first_event, forged

APP = str(Path(__file__).resolve().parents[1] / "viewer" / "app.py")
ROLL = "wake.DiceRolled/1"


def _forged_seeded_record(tmp_path: Path) -> Path:
    """River Plate (seeded) with its first roll's die changed and the chain recomputed: it reads
    as a record, and its re-run gives another die (event 2)."""
    text = forged(
        lambda b: first_event(b, ROLL)["payload"]["roll"].update(faces=[9], natural=9, total=9)
    )
    path = tmp_path / "forged.wake.json"
    path.write_text(text, "utf-8")
    return path


def test_import_record_refuses_a_record_that_does_not_re_run(tmp_path: Path) -> None:
    """Issue 23 item 2: the shared import path verifies; the store stays empty."""
    store = GameStore(str(tmp_path / "s.sqlite3"))
    record = read_record_file(_forged_seeded_record(tmp_path))
    with pytest.raises(RecordDivergence):
        import_record(store, record)
    assert store.game_ids() == []


def test_the_viewer_does_not_keep_a_record_that_fails_verification(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 23 item 2: "Keep it in the store" refuses what ``wake import`` refuses."""
    record = _forged_seeded_record(tmp_path)
    store = str(tmp_path / "keep.sqlite3")
    code, out, _ = wake("import", str(record), "--store", store)
    assert code == 2 and "event 2" in out
    monkeypatch.setenv("WAKE_STORE", store)
    monkeypatch.setattr(sys, "argv", ["app.py", "--record", str(record)])
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert any("NOT verified" in w.value for w in at.warning)
    at.sidebar.button(key="keep_game").click().run()
    assert not at.exception
    assert [e.value for e in at.sidebar.error if "Not kept" in e.value]
    assert not at.sidebar.success
    assert GameStore(store).game_ids() == []
