"""Annotations (issue 14): comments on an event or on the game, kept beside the game and in the
record's ``annotations`` section, never in the game's events or chain.

Round trip export -> import -> export byte for byte; the game's chain (genesis, digests, head)
and state untouched; refused annotations append nothing; a binding to the wrong chain digest
refused on reading, on import and by the store's audit; signatures do not cover annotations.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, get_args

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.aggregate import annotations_stream_id
from domain.annotations import (
    KINDS,
    MAX_AUTHOR,
    MAX_TEXT,
    Annotation,
    Kind,
    fit_text,
    new_annotation,
)
from domain.audit import audit_game
from domain.errors import AnnotationError, GameNotFound, NoSuchEvent, RecordError, StoreError
from domain.record import read_record, read_record_file, signing, write_record
from domain.record.writer import dumps
from domain.store import GameStore
from tests.forge import RIVER_PLATE_RECORD

GAME = "00000000-0000-4000-8000-000000000001"
MARKUP = "<script>alert(1)</script> **bold** [link](http://127.0.0.1:9/x)"


def _river_plate(location: str) -> GameStore:
    st = GameStore(location)
    rec = read_record_file(RIVER_PLATE_RECORD)
    st.import_game(rec.header, rec.events, rec.seed_reveal)
    return st


@pytest.fixture()
def store(location: str) -> GameStore:
    """River Plate in a fresh store: SQLite, then PostgreSQL (``tests/conftest.location``)."""
    return _river_plate(location)


@pytest.fixture()
def sqlite_store(tmp_path: Path) -> GameStore:
    return _river_plate(str(tmp_path / "notes.sqlite3"))


def _rows(st: GameStore) -> int:
    return len(st.recorder.select_notifications(start=1, limit=1_000_000))


def _export(st: GameStore, game_id: str = GAME) -> str:
    header, facts = st.facts(game_id)
    return write_record(header, facts, annotations=st.annotations(game_id))


def test_annotations_leave_the_game_state_and_chain_untouched(store: GameStore) -> None:
    """Issue 14: annotations never change the game's state or its chain of game facts."""
    header, facts = store.facts(GAME)
    before = store.state(GAME)
    store.annotate(GAME, 12, "disputed", "Ann", "the shot should have missed")
    store.annotate(GAME, 0, "note", "Bob", "a good game\nwell played")
    assert store.facts(GAME) == (header, facts)
    after = store.state(GAME)
    assert after == before and after.head == facts[-1].digest
    assert store.state(GAME, 12) == store.state(GAME, 12, from_snapshot=False, verify=True)
    text = _export(store)
    rec = read_record(text)
    assert rec.events == facts and rec.header == header
    assert rec.chain.genesis == header.genesis_digest() and rec.chain.head == facts[-1].digest
    # the record without its annotations is byte for byte the record as recorded
    body = json.loads(text)
    del body["annotations"]
    assert json.dumps(body, indent=1, ensure_ascii=False) + "\n" == RIVER_PLATE_RECORD.read_text()


def test_export_import_export_is_byte_identical(store: GameStore, tmp_path: Path) -> None:
    store.annotate(GAME, 12, "disputed", "Ann", f"the shot should have missed {MARKUP}")
    store.annotate(GAME, 291, "lucky", "Bob", "the last hit")
    store.annotate(GAME, 0, "ruling", "Umpire", "PL-4b applies\nas written")
    store.withdraw_annotation(GAME, 2, "Bob")  # withdrawn: not exported
    first = _export(store)
    rec = read_record(first, strict=True)
    assert rec.annotations is not None
    assert [(n.number, n.event, n.kind) for n in rec.annotations] == [
        (1, 12, "disputed"),
        (3, 0, "ruling"),
    ]
    other = GameStore(str(tmp_path / "other.sqlite3"))
    other.import_game(rec.header, rec.events, rec.seed_reveal, annotations=rec.annotations or ())
    assert _export(other) == first
    assert other.annotations(GAME) == list(rec.annotations)
    # numbers go on after the highest imported one
    assert other.annotate(GAME, 3, "note", "Cy", "next").number == 4


def test_a_record_without_annotations_has_no_section(store: GameStore) -> None:
    text = _export(store)
    assert '"annotations"' not in text
    assert text == RIVER_PLATE_RECORD.read_text("utf-8")


def test_each_annotation_is_bound_to_the_chain_digest_after_its_event(store: GameStore) -> None:
    _, facts = store.facts(GAME)
    on_event = store.annotate(GAME, 12, "note", "Ann", "x")
    on_game = store.annotate(GAME, 0, "note", "Ann", "y")
    assert on_event.digest == facts[11].digest
    assert on_game.digest == store.facts(GAME)[0].genesis_digest()


@pytest.mark.parametrize(
    ("event", "kind", "author", "text", "error", "message"),
    [
        (12, "verdict", "Ann", "x", AnnotationError, "unknown annotation kind 'verdict'"),
        (292, "note", "Ann", "x", NoSuchEvent, "has events 1..291"),
        (-1, "note", "Ann", "x", NoSuchEvent, "not -1"),
        (12, "note", "Ann", "   ", AnnotationError, "the text is empty"),
        (12, "note", "", "x", AnnotationError, "author"),
        (12, "note", "Ann\nBob", "x", AnnotationError, "U+000A"),
        (12, "note", "Ann", "red \x1b[31m", AnnotationError, "U+001B"),
        (12, "note", "Ann", "a\x00b", AnnotationError, "U+0000"),
        (12, "note", "Ann", "evil \u202eexe.txt", AnnotationError, "U+202E"),
        (12, "note", "Ann", "x" * (MAX_TEXT + 1), AnnotationError, f"at most {MAX_TEXT}"),
        (12, "note", "A" * (MAX_AUTHOR + 1), "x", AnnotationError, f"at most {MAX_AUTHOR}"),
    ],
)
def test_refused_annotations_append_nothing(
    store: GameStore,
    event: int,
    kind: str,
    author: str,
    text: str,
    error: type[Exception],
    message: str,
) -> None:
    store.annotate(GAME, 1, "note", "Ann", "before")
    rows = _rows(store)
    with pytest.raises(error) as caught:
        store.annotate(GAME, event, kind, author, text)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    assert _rows(store) == rows
    assert [n.text for n in store.annotations(GAME)] == ["before"]


def test_an_unknown_game_cannot_be_annotated(store: GameStore) -> None:
    rows = _rows(store)
    with pytest.raises(GameNotFound):
        store.annotate("00000000-0000-4000-8000-00000000dead", 0, "note", "Ann", "x")
    assert _rows(store) == rows


def test_line_feeds_are_kept_and_windows_line_ends_become_line_feeds(store: GameStore) -> None:
    note = store.annotate(GAME, 3, "note", "  Ann ", "one\r\ntwo\nthree  ")
    assert note.text == "one\ntwo\nthree" and note.author == "Ann"


def test_only_the_author_withdraws_and_withdrawn_ones_stay_in_the_history(
    store: GameStore,
) -> None:
    store.annotate(GAME, 5, "blunder", "Ann", "wrong target")
    with pytest.raises(AnnotationError, match="only its author"):
        store.withdraw_annotation(GAME, 1, "Bob")
    with pytest.raises(AnnotationError, match="no annotation #7"):
        store.withdraw_annotation(GAME, 7, "Ann")
    store.withdraw_annotation(GAME, 1, "Ann")
    with pytest.raises(AnnotationError, match="withdrawn"):
        store.withdraw_annotation(GAME, 1, "Ann")
    assert store.annotations(GAME) == []
    [(note, gone)] = store.annotation_history(GAME)
    assert note.text == "wrong target" and gone is not None and gone.author == "Ann"
    assert '"annotations"' not in _export(store)


def _annotated_body(store: GameStore) -> dict[str, Any]:
    store.annotate(GAME, 12, "disputed", "Ann", "x")
    body: dict[str, Any] = json.loads(_export(store))
    return body


def test_a_record_annotation_bound_to_another_digest_is_refused(store: GameStore) -> None:
    body = _annotated_body(store)
    body["annotations"][0]["digest"] = body["events"][12]["digest"]  # event 13's, not 12's
    with pytest.raises(RecordError, match=r"annotation #1\) on event 12 is bound to digest"):
        read_record(json.dumps(body))


def test_import_refuses_a_wrong_binding_and_stores_nothing(
    store: GameStore, tmp_path: Path
) -> None:
    rec = read_record(_export(store))
    wrong = new_annotation(
        number=1, event=12, digest=rec.events[12].digest, kind="note", author="Ann", text="x"
    )
    other = GameStore(str(tmp_path / "other.sqlite3"))
    with pytest.raises(AnnotationError, match="another version of this game"):
        other.import_game(rec.header, rec.events, None, annotations=[wrong])
    assert other.game_ids() == [] and _rows(other) == 0
    beyond = wrong.model_copy(update={"event": 400})
    with pytest.raises(AnnotationError, match="the game has 291 events"):
        other.import_game(rec.header, rec.events, None, annotations=[beyond])
    assert other.game_ids() == []


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda n: n.update(event="12"), "event: Input should be a valid integer"),
        (lambda n: n.update(kind="verdict"), "kind: Input should be"),
        (lambda n: n.update(text="a\u0007b"), "U+0007"),
        (lambda n: n.update(time="2024-02-30T10:00:00Z"), "time"),
        (lambda n: n.update(number=0), "number"),
        (lambda n: n.update(extra=1), "extra: Extra inputs are not permitted"),
    ],
)
def test_record_annotations_are_read_strictly(store: GameStore, edit: Any, message: str) -> None:
    body = _annotated_body(store)
    edit(body["annotations"][0])
    with pytest.raises(RecordError, match=r"annotations\[0\] \(annotation 1\)") as caught:
        read_record(json.dumps(body))
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_record_annotation_numbers_must_increase_and_the_section_must_not_be_empty(
    store: GameStore,
) -> None:
    store.annotate(GAME, 1, "note", "Ann", "x")
    body = _annotated_body(store)
    body["annotations"].reverse()
    with pytest.raises(RecordError, match="numbers must increase"):
        read_record(json.dumps(body))
    body["annotations"] = []
    with pytest.raises(RecordError, match="empty annotations section"):
        read_record(json.dumps(body))


def test_signatures_do_not_cover_annotations(store: GameStore) -> None:
    """Annotations are commentary: adding or removing one keeps a signature valid."""
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    signed = signing.sign(read_record(_export(store)), key, "Ann", "umpire")
    note = store.annotate(GAME, 12, "ruling", "Umpire", "hit stands")
    annotated = read_record(dumps(signed.model_copy(update={"annotations": [note]})))
    assert annotated.annotations == [note]
    assert [check.valid for check in signing.check_signatures(annotated)] == [True]


def test_the_store_audit_flags_an_annotation_bound_to_another_digest(
    sqlite_store: GameStore,
) -> None:
    """``wake verify --game``: an annotation row edited behind Wake's back is caught."""
    store = sqlite_store
    note = store.annotate(GAME, 12, "note", "Ann", "x")
    audit_game(store, GAME)
    other = store.facts(GAME)[1][20].digest
    db = sqlite3.connect(store.location)
    stream = annotations_stream_id(GAME).hex
    with db:
        rows = db.execute(
            "SELECT originator_version, state FROM stored_events WHERE originator_id = ?",
            (stream,),
        ).fetchall()
        assert any(note.digest.encode() in state for _, state in rows)
        for version, state in rows:
            db.execute(
                "UPDATE stored_events SET state = ? WHERE originator_id = ? AND "
                "originator_version = ?",
                (bytes(state).replace(note.digest.encode(), other.encode()), stream, version),
            )
    db.close()
    with pytest.raises(StoreError, match=r"annotation #1\) on event 12 is bound to digest"):
        audit_game(GameStore(store.location), GAME)


def test_kinds_are_a_closed_documented_set() -> None:
    assert list(KINDS) == ["ruling", "note", "disputed", "blunder", "lucky"]
    assert get_args(Kind) == tuple(KINDS)
    docs = (Path(__file__).resolve().parents[1] / "docs" / "disputes.md").read_text("utf-8")
    for kind in KINDS:
        assert f"`{kind}`" in docs


def test_generated_text_is_made_fit() -> None:
    text = fit_text("a\x1bb\r\n" + "x" * (2 * MAX_TEXT))
    assert len(text) <= MAX_TEXT and text.startswith("a b\nx") and text.endswith("…")
    Annotation.model_validate(
        {"number": 1, "event": 0, "digest": "0" * 64, "kind": "ruling", "author": "A",
         "time": "2024-01-01T00:00:00Z", "text": text},
        strict=True,
    )  # fmt: skip


def test_two_annotators_at_once_both_get_in_numbered_in_turn(
    store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write conflict on the annotations stream is retried on the fresh stream (as orders
    are): nobody's annotation is lost and numbers stay unique."""
    store.annotate(GAME, 1, "note", "Ann", "first")
    other = GameStore(store.location)
    stale = [store._annotations(GAME)]  # what this writer read before the other one wrote
    other.annotate(GAME, 2, "note", "Bob", "second")
    fresh = store._annotations
    monkeypatch.setattr(store, "_annotations", lambda gid: stale.pop() if stale else fresh(gid))
    note = store.annotate(GAME, 3, "note", "Cy", "third")
    assert store.conflicts == 1 and note.number == 3
    assert [(n.number, n.author) for n in GameStore(store.location).annotations(GAME)] == [
        (1, "Ann"), (2, "Bob"), (3, "Cy"),
    ]  # fmt: skip
