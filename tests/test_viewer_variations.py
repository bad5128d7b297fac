"""The viewer's variations panel (issue 14, "Variations (what-if forks)") with Streamlit's AppTest:
the tree of lines, switching to a line (keeping the event when the line has it), and the chart
that compares a curve of two lines. Titles come from records and must stay plain text."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from domain.lineage import fork
from domain.record import read_record_file
from domain.store import GameStore
from tests.helpers import FIXTURES
from viewer.variations import compare_figure, kept_event

APP = str(Path(__file__).resolve().parents[1] / "viewer" / "app.py")
RIVER_PLATE = FIXTURES / "games" / "morze" / "river_plate-annihilation.wake.json"
RIVER_PLATE_ID = "00000000-0000-4000-8000-000000000001"
EARLY, LATE = 52, 101  # River Plate: events ending an order
HOSTILE = "[click](https://evil.example) <b>bold</b> **x**"


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """River Plate and two forks: one after event 52 (short: not played on), one after event
    101 whose title is hostile Markdown/HTML."""
    path = str(tmp_path_factory.mktemp("variations") / "w.sqlite3")
    store = GameStore(path)
    rec = read_record_file(RIVER_PLATE)
    store.import_game(rec.header, rec.events)
    for at, game_id, title in (
        (EARLY, "00000000-0000-4000-8000-0000000000f1", "what if: early"),
        (LATE, "00000000-0000-4000-8000-0000000000f2", HOSTILE),
    ):
        header, facts = fork(rec.header, rec.events, at, title=title, game_id=game_id)
        store.import_game(header, facts)
    return path


def _app(store_path: str, monkeypatch: pytest.MonkeyPatch, **params: str) -> AppTest:
    monkeypatch.setenv("WAKE_STORE", store_path)
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _tree(at: AppTest) -> str:
    return next(t.value for t in at.text if "main line:" in t.value)


def _position(at: AppTest) -> tuple[int, int]:
    """The event the scrubber is sent to, and the event in the link."""
    args = json.loads(at.get("component_instance")[0].proto.json_args)
    return int(args["event"]), int(_param(at, "event"))


def _param(at: AppTest, key: str) -> str:
    value = at.query_params[key]
    return value[0] if isinstance(value, list) else str(value)


def test_tree_lists_the_lines_and_switching_keeps_the_event(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14: the variations as a tree with their fork events; switch to a line at the same
    event when it has it, else at its end."""
    at = _app(store_path, monkeypatch, game=RIVER_PLATE_ID, event="80")
    tree = _tree(at).splitlines()
    assert tree[0].startswith("▶ main line: River Plate, 13 December 1939 · 291 events")
    assert tree[1] == f"  └ after event {EARLY}: what if: early · {EARLY} events · in progress"
    assert tree[2].startswith(f"  └ after event {LATE}: {HOSTILE} · {LATE} events")
    pick = next(s for s in at.selectbox if s.label == "Line")
    pick.set_value("00000000-0000-4000-8000-0000000000f2").run()
    next(b for b in at.button if b.label == "Switch to this line").click().run()
    assert not at.exception
    assert _param(at, "game") == "00000000-0000-4000-8000-0000000000f2"
    assert _position(at) == (80, 80)  # the line has event 80
    assert _tree(at).splitlines()[2].startswith("▶ ")  # now the open line
    pick = next(s for s in at.selectbox if s.label == "Line")
    pick.set_value("00000000-0000-4000-8000-0000000000f1").run()
    next(b for b in at.button if b.label == "Switch to this line").click().run()
    assert _param(at, "game") == "00000000-0000-4000-8000-0000000000f1"
    assert _position(at) == (EARLY, EARLY)  # 80 is past its end: its last event


def test_compare_chart_draws_both_lines(store_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14: one chart with a curve of this line (solid) and the other (dashed), split where
    they part; the other line's hostile title is escaped in the legend."""
    at = _app(store_path, monkeypatch, game=RIVER_PLATE_ID, event="200")
    compare = next(s for s in at.selectbox if s.label == "Compare this line with")
    compare.set_value("00000000-0000-4000-8000-0000000000f2").run()
    next(s for s in at.selectbox if s.label == "Curve").set_value("Victory points").run()
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    spec = next(c for c in charts if "Victory points: this line" in str(c["layout"].get("title")))
    dashes = {trace["line"]["dash"] for trace in spec["data"]}
    assert dashes == {"solid", "dash"}
    names = " ".join(trace["name"] for trace in spec["data"])
    assert "<b>" not in names and "&lt;b&gt;" in names
    assert any(
        c.value == f"The lines share their first {LATE} events (dotted line)." for c in at.caption
    )


def test_a_game_without_variations_says_how_to_make_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(tmp_path / "one.sqlite3")
    rec = read_record_file(RIVER_PLATE)
    GameStore(path).import_game(rec.header, rec.events)
    at = _app(path, monkeypatch, game=RIVER_PLATE_ID)
    assert any("No variations of this game yet" in c.value for c in at.caption)


def test_helpers() -> None:
    assert kept_event(80, 101) == 80 and kept_event(120, 101) == 101 and kept_event(-1, 5) == 0
    fig = compare_figure(
        "t",
        {"A": [(0, 0.0), (5, 2.0)]},
        {"A": [(0, 0.0), (7, 3.0)]},
        this_label="this",
        other_label="<i>x</i>",
        this_end=10,
        other_end=12,
        split=4,
        cursor=6,
    )
    data: Any = fig.to_plotly_json()["data"]
    assert [d["x"][-1] for d in data] == [10, 12]  # carried to each line's end
    assert data[0]["line"]["color"] == data[1]["line"]["color"]  # a side keeps its colour
    assert re.search(r"&lt;i&gt;x&lt;/i&gt;", data[1]["name"])


def test_play_another_order_here_forks_and_opens_the_record_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21 item 13: "Play another order here" makes a fork after the current event (the
    shared events verified as the parent's) and opens the scribe's page on it; the parent's
    log is untouched."""
    path = str(tmp_path / "fork.sqlite3")
    rec = read_record_file(RIVER_PLATE)
    store = GameStore(path)
    store.import_game(rec.header, rec.events)
    at_event = next(f.seq for f in rec.events if f.seq > 10 and f.topic.endswith("CommandIssued/1"))
    at_event -= 1  # just before an order: a fork may start there
    at = _app(path, monkeypatch, game=RIVER_PLATE_ID, event=str(at_event))
    at.radio(key="fork_dice").set_value("rolled at the table")
    at.button(key="fork_here").click().run()
    assert not at.exception, [e.value for e in at.exception]
    forks = [g for g in store.game_ids() if g != RIVER_PLATE_ID]
    assert len(forks) == 1
    header = store.header(forks[0])
    assert header.parent is not None and header.parent.event == at_event
    assert header.dice.physical_at(at_event)
    assert len(store.facts(RIVER_PLATE_ID)[1]) == len(rec.events)
    assert at.query_params.get("game") in (forks[0], [forks[0]])
