"""Annotations in the viewer (issue 14), with Streamlit's AppTest (no browser): listed in the log
with a kind/author filter, shown in the explain panel, added from a form to a stored game, never
rendered as markup; a game opened from a file must be kept in the store first, and keeping it
keeps the record's annotations.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from domain.record import read_record_file, write_record
from domain.store import GameStore
from tests.forge import RIVER_PLATE_RECORD
from tests.test_viewer_injection import MARKUP, _assert_no_live_markup

APP = str(Path(__file__).resolve().parents[1] / "viewer" / "app.py")
GAME = "00000000-0000-4000-8000-000000000001"


@pytest.fixture()
def store(tmp_path: Path) -> str:
    location = str(tmp_path / "viewer-notes.sqlite3")
    st = GameStore(location)
    rec = read_record_file(RIVER_PLATE_RECORD)
    st.import_game(rec.header, rec.events)
    st.annotate(GAME, 12, "disputed", "Ann", "the shot should have missed\nsee PL-4b")
    st.annotate(GAME, 0, "note", "Bob", "a game for the club night")
    st.annotate(GAME, 20, "lucky", "Bob", "double six")
    return location


def _app(store: str, monkeypatch: pytest.MonkeyPatch, event: int) -> AppTest:
    monkeypatch.setenv("WAKE_STORE", store)
    monkeypatch.setattr(sys, "argv", ["app.py"])
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["game"] = GAME
    at.query_params["event"] = str(event)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _texts(at: AppTest) -> str:
    return "\n".join(str(t.value) for t in at.text)


def _plain(markdown: str) -> str:
    """Markdown source as read: the viewer escapes text (``\\#`` is a literal ``#``)."""
    return re.sub(r"\\(.)", r"\1", markdown)


def _button(at: AppTest, label: str) -> Any:
    return next(b for b in at.button if b.label == label)


def _move_list_notes(at: AppTest) -> dict[str, Any]:
    """What the scrubber's move list (the log) is given: annotated events and the filter."""
    args: dict[str, Any] = json.loads(at.get("component_instance")[0].proto.json_args)
    notes: dict[str, Any] = args["notes"]
    return notes


def test_the_log_lists_and_filters_annotations(store: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move list (the log, drawn in the browser) shows each annotated event's
    annotations as plain text and, with the annotation filter set, keeps only those events."""
    at = _app(store, monkeypatch, 30)
    notes = _move_list_notes(at)
    assert notes["text"]["12"].startswith(
        "#1 disputed (Ann): the shot should have missed see PL-4b"
    )
    assert "13" not in notes["text"] and notes["only"] is False
    at.multiselect(key="f_note_kind").set_value(["disputed"]).run()
    notes = _move_list_notes(at)
    assert list(notes["text"]) == ["12"] and notes["only"] is True
    at.multiselect(key="f_note_kind").set_value([]).run()
    at.multiselect(key="f_note_author").set_value(["Bob"]).run()
    assert list(_move_list_notes(at)["text"]) == ["20"]  # the game's note is not a log row
    listed = at.dataframe[0].value  # the annotations table: the filter applies
    assert list(listed["#"]) == [2, 3] and list(listed["event"]) == [0, 20]


def test_the_explain_panel_shows_the_current_events_annotations(
    store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _app(store, monkeypatch, 12)
    texts = _texts(at)
    assert "#1 · disputed · by Ann · " in texts
    assert "the shot should have missed\nsee PL-4b" in texts
    assert "double six" not in texts  # another event's
    at = _app(store, monkeypatch, 0)
    assert "a game for the club night" in _texts(at)


def test_an_annotation_added_from_the_form_is_stored_and_listed(
    store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _app(store, monkeypatch, 15)
    form_author = next(w for w in at.text_input if w.label == "Author")
    form_text = next(w for w in at.text_area if w.label == "Text (plain text)")
    form_kind = next(w for w in at.selectbox if w.label == "Kind")
    form_author.input("Cy")
    form_kind.set_value("blunder")
    form_text.input("left the flank open")
    _button(at, "Add annotation").click().run()
    assert not at.exception, [e.value for e in at.exception]
    notes = GameStore(store).annotations(GAME)
    assert (notes[-1].number, notes[-1].event, notes[-1].kind, notes[-1].author) == (
        4, 15, "blunder", "Cy",
    )  # fmt: skip
    assert any("Added annotation #4 on event 15" in _plain(s.value) for s in at.success)
    assert _move_list_notes(at)["text"]["15"].startswith("#4 blunder (Cy)")
    assert "left the flank open" in _texts(at)


def test_a_refused_annotation_says_why_and_stores_nothing(
    store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _app(store, monkeypatch, 15)
    next(w for w in at.text_input if w.label == "Author").input("Cy")
    next(w for w in at.text_area if w.label == "Text (plain text)").input("   ")
    _button(at, "Add annotation").click().run()
    assert any("Not added" in e.value and "empty" in e.value for e in at.error), at.error
    assert len(GameStore(store).annotation_history(GAME)) == 3


def test_annotation_text_is_never_rendered_as_markup(
    store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 12, gap 4, for annotations: the text and the author come out as plain text."""
    author = 'Eve <span style="color:red">x</span> **wake-b** [wake-l](http://127.0.0.1:9/l)'
    GameStore(store).annotate(GAME, 12, "note", author, f"text {MARKUP}")
    at = _app(store, monkeypatch, 12)
    _assert_no_live_markup(at)
    assert f"text {MARKUP}" in _texts(at)
    assert f"by {author}" in _texts(at)


def test_a_game_opened_from_a_file_is_kept_with_its_annotations_before_annotating(
    store: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    st = GameStore(store)
    header, facts = st.facts(GAME)
    record = tmp_path / "annotated.wake.json"
    write_record(header, facts, record, annotations=st.annotations(GAME))
    other = str(tmp_path / "empty.sqlite3")
    monkeypatch.setenv("WAKE_STORE", other)
    monkeypatch.setattr(sys, "argv", ["app.py", "--record", str(record)])
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["event"] = "12"
    at.run()
    assert not at.exception
    assert "the shot should have missed" in _texts(at)  # the record's annotations are shown
    assert any("keep it in the store first" in c.value.lower() for c in at.caption)
    assert not any(b.label == "Add annotation" for b in at.button)
    at.sidebar.button(key="keep_game").click().run()
    assert GameStore(other).annotations(GAME) == st.annotations(GAME)


def test_the_form_sets_who_may_read_an_annotation(
    store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21 item 1 / issue 23 item 3, from the viewer: "Visible to" a side stores the note
    for that side (and the umpire); the choices name the sides by their names; the default
    stores none (the game's own rule applies)."""
    at = _app(store, monkeypatch, 15)
    visible = next(w for w in at.selectbox if w.label == "Visible to")
    assert visible.options[3:] == ["Kriegsmarine (and the umpire)", "Royal Navy (and the umpire)"]
    next(w for w in at.text_input if w.label == "Author").input("Cy")
    next(w for w in at.text_area if w.label == "Text (plain text)").input("their plan, seen")
    visible.set_value("royal_navy")
    _button(at, "Add annotation").click().run()
    assert not at.exception, [e.value for e in at.exception]
    note = GameStore(store).annotations(GAME)[-1]
    assert (note.author, note.visible_to) == ("Cy", "royal_navy")
    assert note.seen_by("royal_navy", False) and not note.seen_by("kriegsmarine", False)
