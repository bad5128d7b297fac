"""Issue 24 item 2 through the app (Streamlit's AppTest, no browser): the scrubber receives the
win-probability graph of a stored analysis for the umpire and, once the game is over, for a
side; a side's view of a live game receives none (and the page says why nothing is drawn)."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from domain.analysis import stored
from domain.analysis.model import CAVEAT
from domain.record import read_record_file
from domain.store import GameStore
from tests.helpers import FIXTURES

APP = str(Path(__file__).resolve().parents[1] / "viewer" / "app.py")
ANALYSED = FIXTURES / "games/morze/channel_skirmish-analysed.wake.json"
LIVE_AT = 150
HIDDEN_NOTE = "a side sees it once the game is over"


def _store(tmp_path: Path, live: bool) -> tuple[str, str]:
    """A store holding the analysed game (whole, or its first LIVE_AT events: a live game)
    and its analysis (for the live game: the points analysed so far); its path and game id."""
    rec = read_record_file(ANALYSED)
    assert rec.analysis is not None
    path = str(tmp_path / ("live.sqlite3" if live else "done.sqlite3"))
    store = GameStore(path)
    events = rec.events[:LIVE_AT] if live else rec.events
    store.import_game(rec.header, events)
    analysis = rec.analysis
    if live:
        analysis = analysis.model_copy(
            update={
                "points": [p for p in analysis.points if p.after <= LIVE_AT],
                "estimates": [e for e in analysis.estimates if e.seq <= LIVE_AT],
            }
        )
    stored.save_analysis(store, rec.header.game_id, analysis)
    return path, rec.header.game_id


def _app(store: str, game: str, monkeypatch: pytest.MonkeyPatch, event: int = 100) -> AppTest:
    monkeypatch.setenv("WAKE_STORE", store)
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["game"] = game
    at.query_params["event"] = str(event)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _received(at: AppTest) -> str:
    """The scrubber's payload as the browser receives it (JSON text)."""
    args: dict[str, Any] = json.loads(at.get("component_instance")[0].proto.json_args)
    return zlib.decompress(base64.b64decode(args["payload"])).decode("utf-8")


def _view_as(at: AppTest, side: str) -> None:
    at.sidebar.radio[0].set_value(side).run()
    assert not at.exception, [e.value for e in at.exception]


def _captions(at: AppTest) -> str:
    return "\n".join(c.value for c in at.caption)


def test_a_live_game_shows_its_analysis_to_the_umpire_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, game = _store(tmp_path, live=True)
    at = _app(store, game, monkeypatch)
    umpire = json.loads(_received(at))
    assert umpire["length"] == LIVE_AT and umpire["winprob"]["caveat"] == CAVEAT
    assert umpire["winprob"]["series"]["royal_navy"]
    noted, note = next(iter(umpire["winprob"]["notes"].items()))
    at = _app(store, game, monkeypatch, int(noted))  # the explain panel gives the note too
    assert f"Analysis of event {noted}" in _captions(at)
    assert note in [t.value for t in at.text]
    for side in ("royal_navy", "kriegsmarine"):
        _view_as(at, side)
        text = _received(at)
        assert "winprob" not in json.loads(text), side
        assert CAVEAT not in text and "bots" not in text, side
        assert HIDDEN_NOTE in _captions(at), side
        assert "Analysis of event" not in _captions(at)
        assert note not in [t.value for t in at.text]


def test_a_finished_game_shows_its_analysis_to_every_side(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, game = _store(tmp_path, live=False)
    at = _app(store, game, monkeypatch)
    assert "winprob" in json.loads(_received(at))
    _view_as(at, "kriegsmarine")
    graph = json.loads(_received(at))["winprob"]
    assert graph["turning"] and graph["notes"]
    assert "kept with the game in the store" in graph["about"]
    assert HIDDEN_NOTE not in _captions(at)


def _open_record(path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> AppTest:
    """``wake view RECORD-FILE``: the app opens the file through the reader."""
    import sys

    monkeypatch.setenv("WAKE_STORE", str(tmp_path / "unused.sqlite3"))
    monkeypatch.setattr(sys, "argv", ["app.py", "--record", str(path)])
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_an_opened_record_draws_its_analysis_section_when_it_fits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _open_record(ANALYSED, monkeypatch, tmp_path)
    graph = json.loads(_received(at))["winprob"]
    assert "from the record's analysis section" in graph["about"]
    # the same record with an analysis made by another Wake: not drawn, and the page says why
    body = json.loads(ANALYSED.read_text("utf-8"))
    body["analysis"]["spec"]["wake_version"] = "0.0.0-older"
    stale = tmp_path / "stale.wake.json"
    stale.write_text(json.dumps(body), "utf-8")
    at = _open_record(stale, monkeypatch, tmp_path)
    assert "winprob" not in json.loads(_received(at))
    assert "The record's analysis is not drawn: it was made with morze 1.0, Wake 0.0.0-older" in (
        _captions(at).replace("\\", "")
    )
