"""Variations (issue 14, "Variations (what-if forks)"): ``wake fork``, reruns saved as variations
(``wake rerun --save``), ``wake variations`` and ``wake verify``'s parent check.

A fork's header names its parent (id, event, the parent's genesis and its chain digest after the
event); its first events are the parent's, re-chained from the fork's own genesis, so the prefix
is checkable without the parent and, with it, against the parent's actual chain.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from domain.cli.app import app
from domain.engine import CommandEnvelope, Session, bot_order
from domain.errors import LineageError, NoSuchEvent, SealedSeed
from domain.events import CommandIssued
from domain.header import GameHeader
from domain.lineage import check_against_parent, check_prefix, fork, order_bounds
from domain.record import Record, build_record, read_record, read_record_file, verify_record
from domain.record.writer import dumps
from domain.store import GameStore
from tests.forge import rechain
from tests.helpers import FIXTURES

GAMES = FIXTURES / "games"
RIVER_PLATE = GAMES / "morze" / "river_plate-annihilation.wake.json"
RIVER_PLATE_ID = "00000000-0000-4000-8000-000000000001"
NARVIK = GAMES / "morze" / "narvik_destroyers-physical.wake.json"
IO_PHYSICAL = GAMES / "iron_oak" / "hampton_roads-physical.wake.json"
MORZE_SCENARIO = FIXTURES / "scenarios" / "morze" / "river_plate.json"
AT = 101  # River Plate: event 101 ends order #35 (exeter moves), event 100 is inside it

runner = CliRunner()


def wake(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def verify(*args: str) -> tuple[int, str]:
    """``wake verify``: exit code and its report (written above the progress bar, on stderr)."""
    code, out, err = wake("verify", *args)
    return code, out + err


@cache
def _record(path: Path) -> Record:
    return read_record_file(path)


def _orders(rec: Record) -> list[tuple[int, CommandIssued]]:
    return [
        (f.seq, CommandIssued.model_validate(f.payload))
        for f in rec.events
        if f.topic == CommandIssued.TOPIC
    ]


def _content(facts: Any) -> list[tuple[Any, ...]]:
    return [(f.seq, f.command, f.topic, f.automatic, f.payload) for f in facts]


def _fork_file(tmp_path: Path, store: str, at: int = AT) -> tuple[str, Path, Path]:
    """River Plate imported, forked after ``at``, both exported: (fork id, fork, parent)."""
    code, out, err = wake("fork", str(RIVER_PLATE), "--at", str(at), "--store", store)
    assert code == 0, err
    fork_id = out.strip()
    fork_file, parent_file = tmp_path / "fork.wake.json", tmp_path / "parent.wake.json"
    # each file the game alone: these tests check a variation against a parent file given
    alone = "--no-variations"
    assert wake("export", fork_id, "-o", str(fork_file), alone, "--store", store)[0] == 0
    assert wake("export", RIVER_PLATE_ID, "-o", str(parent_file), alone, "--store", store)[0] == 0
    return fork_id, fork_file, parent_file


# --- the header ---------------------------------------------------------------------------------


def test_a_game_that_is_no_variation_keeps_its_header_form_and_genesis() -> None:
    """Issue 14: the new header field is left out when absent, so no genesis digest changes."""
    rec = _record(RIVER_PLATE)
    assert "parent" not in rec.header.model_dump(mode="json")
    assert rec.header.genesis_digest() == rec.chain.genesis
    assert rec.header.salt_base == str(rec.header.dice.seed)
    narvik = _record(NARVIK).header  # physical: salted from the game id, as before forks
    assert narvik.salt_base == narvik.game_id == narvik.origin


def test_fork_header_names_the_parent_and_its_prefix() -> None:
    """Issue 14: the fork copies the parent's first AT events (same content) re-chained from its
    own genesis; re-chained from the parent's genesis they give the parent's digest at AT."""
    rec = _record(RIVER_PLATE)
    header, facts = fork(rec.header, rec.events, AT, title="what if")
    ref = header.parent
    assert ref is not None
    assert (ref.game_id, ref.event, ref.origin) == (RIVER_PLATE_ID, AT, RIVER_PLATE_ID)
    assert ref.genesis == rec.chain.genesis and ref.digest == rec.events[AT - 1].digest
    assert header.title == "what if" and header.game_id != rec.header.game_id
    assert header.dice == rec.header.dice and header.scenario == rec.header.scenario
    assert _content(facts) == _content(rec.events[:AT])
    assert facts[0].digest != rec.events[0].digest  # chained from the fork's genesis
    check_prefix(header, facts)
    check_against_parent(header, rec.header, rec.events)
    record = read_record(dumps(build_record(header, facts)), strict=True)
    assert verify_record(record).events == AT
    state = Session(header, facts).state
    parent_state = Session(rec.header, rec.events[:AT]).state
    assert state.rules == parent_state.rules
    assert state.dice_position == parent_state.dice_position  # seeded dice continue there


def test_fork_refuses_an_event_inside_an_order_or_out_of_range() -> None:
    rec = _record(RIVER_PLATE)
    assert order_bounds(rec.events, AT - 1) == (AT - 1, AT)
    with pytest.raises(
        NoSuchEvent, match=r"inside order #35 \(events 100-101\).*--at 101.*--at 99"
    ):
        fork(rec.header, rec.events, AT - 1)
    for bad in (-1, len(rec.events) + 1):
        with pytest.raises(NoSuchEvent, match=f"0..{len(rec.events)}"):
            fork(rec.header, rec.events, bad)
    header, facts = fork(rec.header, rec.events, 0)  # the start: no shared event
    assert facts == [] and header.parent is not None
    assert header.parent.digest == header.parent.genesis == rec.chain.genesis


def test_a_fork_whose_prefix_was_edited_does_not_read() -> None:
    """Issue 14: the prefix check needs no parent: a fork record whose shared events were edited
    and re-chained from the fork's own genesis no longer gives the digest its header names."""
    rec = _record(RIVER_PLATE)
    header, facts = fork(rec.header, rec.events, AT)
    body = json.loads(dumps(build_record(header, facts)))
    move = next(e for e in body["events"] if e["topic"] == "morze.UnitMoved/1")
    move["payload"]["to_x"] += 1.0  # the chain is recomputed: only the prefix check can see it
    with pytest.raises(LineageError, match=f"first {AT} events are not the prefix of"):
        read_record(json.dumps(rechain(body)))
    body = json.loads(dumps(build_record(header, facts)))
    body["header"]["parent"]["event"] = AT + 5  # longer than the game: refused by number
    with pytest.raises(LineageError, match=f"holds only {AT} events"):
        read_record(json.dumps(rechain(body)))


# --- verify: the parent at hand -----------------------------------------------------------------


def test_verify_says_which_parent_check_it_did(tmp_path: Path) -> None:
    """Issue 14: "verification checks the parent prefix when the parent is available, and says so
    when it is not"."""
    store = str(tmp_path / "s.db")
    fork_id, fork_file, parent_file = _fork_file(tmp_path, store)
    code, out = verify(str(fork_file))
    assert code == 0
    assert (
        f"variation of {RIVER_PLATE_ID} at event {AT}: parent not available: prefix consistent "
        "with the digest named in the header" in out
    )
    code, out = verify(str(fork_file), "--parent", str(parent_file))
    assert code == 0 and "parent prefix checked against the parent record given" in out
    code, out = verify(str(fork_file), "--store", store)
    assert code == 0 and "parent prefix checked against the stored parent" in out
    code, out = verify("--game", fork_id, "--store", store)
    assert code == 0 and "parent prefix checked against the stored parent" in out
    code, out = verify(str(fork_file), "--parent", str(NARVIK))
    assert code == 0 and f"no parent file given is game {RIVER_PLATE_ID}" in out
    code, out = verify(str(fork_file), "--store", str(tmp_path / "empty.db"))
    assert code == 0 and "parent not available (not in the store)" in out
    code, out = verify(str(parent_file), "--store", store)  # not a variation
    assert code == 0 and "variation" not in out
    with_fork = tmp_path / "with-fork.wake.json"  # exported with its fork (issue 20 item 4)
    assert wake("export", RIVER_PLATE_ID, "-o", str(with_fork), "--store", store)[0] == 0
    code, out = verify(str(with_fork))
    assert code == 0 and "1 variation(s) (other lines of this game), each re-run" in out


def test_verify_catches_a_tampered_parent(tmp_path: Path) -> None:
    """Issue 14 test: "fork prefix verification (a tampered parent is caught)": a parent record
    whose header or events up to the fork were edited and re-chained reads as a record (its
    chain was recomputed), but the fork names the original genesis and digest, so the parent
    check fails (exit 1); an edit after the fork event is outside the shared prefix."""
    store = str(tmp_path / "s.db")
    _, fork_file, parent_file = _fork_file(tmp_path, store)
    body = json.loads(parent_file.read_text("utf-8"))

    def edited(edit: Any, name: str) -> Path:
        copy = json.loads(json.dumps(body))
        edit(copy)
        path = tmp_path / name
        path.write_text(json.dumps(rechain(copy)), "utf-8")
        read_record_file(path)  # a well-formed record: only the fork can tell it was altered
        return path

    def title(b: dict[str, Any]) -> None:
        b["header"]["title"] = "River Plate (as we remember it)"

    def early_move(b: dict[str, Any]) -> None:
        b["events"][AT - 1]["payload"]["to_y"] += 0.5  # event 101: exeter's move

    def late_roll(b: dict[str, Any]) -> None:
        roll = next(e for e in b["events"][AT:] if e["topic"] == "wake.DiceRolled/1")
        roll["payload"]["purpose"] = "edited after the fork"

    for name, edit, message in (
        ("header.wake.json", title, "header does not give the genesis digest"),
        ("early.wake.json", early_move, f"chain after event {AT} is not the one"),
    ):
        code, out = verify(str(fork_file), "--parent", str(edited(edit, name)))
        assert code == 1, out
        assert f"{fork_file}: PARENT MISMATCH - " in out and message in out
    code, out = verify(str(fork_file), "--parent", str(edited(late_roll, "late.json")))
    assert code == 0 and "checked against the parent record given" in out


# --- playing on ---------------------------------------------------------------------------------


def test_seeded_fork_played_on_by_bots_continues_the_dice_stream(tmp_path: Path) -> None:
    """Issue 14: the fork is played on with ``wake play --bots``; its dice continue at the
    parent's dice position (die n = f(seed, n)), so the same bots throw the same dice and play
    the parent's own continuation, event for event."""
    store = str(tmp_path / "s.db")
    fork_id, _, _ = _fork_file(tmp_path, store)
    code, _, err = wake("play", fork_id, "--bots", "--store", store)
    assert code == 0, err
    st = GameStore(store)
    _, played = st.facts(fork_id)
    assert _content(played) == _content(_record(RIVER_PLATE).events)
    assert wake("verify", "--game", fork_id, "--store", store)[0] == 0


def test_physical_fork_played_on_with_entered_faces(tmp_path: Path) -> None:
    """Issue 14: a physical-dice fork takes the faces rolled at the table with each order
    (``wake submit --dice``); a wrong count is refused and appends nothing."""
    store = str(tmp_path / "s.db")
    rec = _record(NARVIK)
    orders = _orders(rec)
    seq, nxt = orders[12]  # order #12 rolls for initiative with two physical faces
    at = seq - 1  # fork just before it
    assert nxt.command == {"type": "roll_initiative"} and nxt.dice
    code, out, err = wake("fork", str(NARVIK), "--at", str(at), "--store", store)
    assert code == 0, err
    fork_id = out.strip()
    st = GameStore(store)
    order = json.dumps(nxt.command)
    code, _, err = wake("submit", fork_id, order, "--dice", "3", "--store", store)
    assert code == 2 and err.count("\n") == 1 and "error (dice)" in err
    assert st.state(fork_id).seq == at  # refused: nothing appended
    faces = ",".join(str(face) for face in nxt.dice)
    code, out, err = wake("submit", fork_id, order, "--dice", faces, "--store", store)
    assert code == 0, err
    _, played = st.facts(fork_id)
    following = [f for f in rec.events[at:] if f.command == nxt.index]
    assert _content(played[at:]) == _content(following)  # the same faces, the same events
    assert wake("verify", "--game", fork_id, "--store", store)[0] == 0


def test_bots_of_a_physical_fork_open_the_order_cards_sealed_before_it() -> None:
    """IO-3.2 (sealed order cards) through a fork: the bot reveals the card it sealed in the
    parent, salted from the line's origin (``header.salt_base``), not from the fork's new id."""
    rec = _record(IO_PHYSICAL)
    orders = _orders(rec)
    k = next(i for i, (_, o) in enumerate(orders) if o.command["type"] == "assign_orders")
    at, reveal = orders[k + 1][0] - 1, orders[k + 1][1]
    assert reveal.command["type"] == "reveal_order"
    header, facts = fork(rec.header, rec.events, at)
    assert header.salt_base == rec.header.game_id != header.game_id
    envelope = bot_order(Session(header, facts).state)
    assert envelope == CommandEnvelope(side=reveal.side, command=reveal.command)


def test_a_live_sealed_seed_game_forks_only_once_its_seed_is_public(tmp_path: Path) -> None:
    """Issue 14 (decision): a fork throws the parent's dice stream, so a live game whose seed is
    committed and unrevealed is refused with one line (nothing stored); after ``wake
    reveal-seed`` (or the end) the fork keeps the commitment, holds the seed as revealed, and its
    record carries the reveal and verifies."""
    store = str(tmp_path / "s.db")
    code, out, _ = wake("start", "morze", str(MORZE_SCENARIO), "--store", store)
    game_id = out.strip().splitlines()[-1]
    assert wake("submit", game_id, '{"type": "roll_initiative"}', "--store", store)[0] == 0
    st = GameStore(store)
    assert st.header(game_id).dice.sealed
    at = str(st.state(game_id).seq)  # after the initiative order
    code, _, err = wake("fork", game_id, "--at", at, "--store", store)
    assert code == 2 and err.count("\n") == 1 and "error (sealed_seed)" in err
    assert "reveal-seed" in err and st.game_ids() == [game_id]
    with pytest.raises(SealedSeed):
        fork(st.header(game_id), st.facts(game_id)[1], int(at))
    assert wake("reveal-seed", game_id, "--store", store)[0] == 0
    code, out, err = wake("fork", game_id, "--at", at, "--store", store)
    assert code == 0, err
    fork_id = out.strip()
    assert st.header(fork_id).dice == st.header(game_id).dice
    assert wake("play", fork_id, "--bots", "--store", store)[0] == 0
    assert wake("play", game_id, "--bots", "--store", store)[0] == 0
    assert _content(st.facts(fork_id)[1]) == _content(st.facts(game_id)[1])
    exported = tmp_path / "fork.wake.json"
    assert wake("export", fork_id, "-o", str(exported), "--store", store)[0] == 0
    assert read_record_file(exported).seed_reveal is not None
    code, out = verify(str(exported), "--store", store)
    assert code == 0 and "checked against the stored parent" in out


def test_fork_export_import_export_is_byte_identical(tmp_path: Path) -> None:
    """Issue 14: a fork is exported and imported like any game (export -> import -> export)."""
    store = str(tmp_path / "s.db")
    fork_id, fork_file, _ = _fork_file(tmp_path, store)
    assert wake("play", fork_id, "--bots", "--store", store)[0] == 0
    assert wake("export", fork_id, "-o", str(fork_file), "--store", store)[0] == 0
    other = str(tmp_path / "other.db")
    code, out, err = wake("import", str(fork_file), "--strict", "--store", other)
    assert code == 0, out + err
    again = tmp_path / "again.wake.json"
    assert wake("export", fork_id, "-o", str(again), "--store", other)[0] == 0
    assert again.read_bytes() == fork_file.read_bytes()
    header = read_record_file(again, strict=True).header
    assert header.parent is not None and header.parent.event == AT
    assert '"parent": {' in again.read_text("utf-8")


def test_bad_fork_input_is_one_line_and_stores_nothing(tmp_path: Path) -> None:
    store = str(tmp_path / "s.db")
    for args, message in (
        (["nope", "--at", "3"], "error (not_found): 'nope' is not a game id"),
        ([str(RIVER_PLATE), "--at", "100"], "error (no_event): event 100 lies inside order #35"),
        ([str(RIVER_PLATE), "--at", "9999"], "error (no_event): --at takes an event 0..291"),
        ([str(tmp_path / "missing.wake.json"), "--at", "1"], "error (record): "),
    ):
        code, _, err = wake("fork", *args, "--store", store)
        assert code == 2 and err.startswith(message) and err.count("\n") == 1, err
    assert GameStore(store).game_ids() == [RIVER_PLATE_ID]  # the parent was imported, no fork


# --- reruns saved as variations, and the tree ---------------------------------------------------


def test_rerun_save_stores_a_variation_at_the_first_difference(tmp_path: Path) -> None:
    """Issue 14: "Save the rerun as a variation": its parent is the game at the last event
    before the first difference (PL-5 class table: light cruisers hit on 6, first seen at the
    PL-4b roll it changes)."""
    store = str(tmp_path / "s.db")
    patch = tmp_path / "mine.json"
    patch.write_text(json.dumps({"classes": {"classes": {"light_cruiser": {"hit": 6}}}}), "utf-8")
    args = ["rerun", str(RIVER_PLATE), "--data", str(patch), "--save", "--store", store]
    code, out, err = wake(*args)
    assert code == 1, err
    first = int(out.split("first difference:\n  event ")[1].split()[0])
    saved_line = out.strip().splitlines()[-1]
    assert saved_line.startswith("stored the rerun as game ")
    assert saved_line.endswith(f"a variation of {RIVER_PLATE_ID} after event {first - 1}")
    st = GameStore(store)
    rerun_id = saved_line.split()[5].rstrip(",")
    header, facts = st.facts(rerun_id)
    ref = header.parent
    assert ref is not None and ref.game_id == RIVER_PLATE_ID and ref.event == first - 1
    parent = _record(RIVER_PLATE)
    assert ref.digest == parent.events[first - 2].digest
    assert _content(facts[: first - 1]) == _content(parent.events[: first - 1])
    assert _content(facts[first - 1 : first]) != _content(parent.events[first - 1 : first])
    code, out, _ = wake(*args)  # the same rerun again: found, not stored twice
    assert out.strip().endswith(f"the rerun is already stored as game {rerun_id}")
    assert len(st.game_ids()) == 2
    code, out = verify("--game", rerun_id, "--store", store)
    assert code == 0 and "checked against the stored parent" in out
    exported = tmp_path / "rerun.wake.json"  # -o still writes the same record
    wake("rerun", str(RIVER_PLATE), "--data", str(patch), "-o", str(exported))
    assert read_record_file(exported).header == header


def test_variations_lists_the_tree(tmp_path: Path) -> None:
    """Issue 14: ``wake variations GAME``: children and their children with the fork event,
    title, length and result; record text is printed without control characters."""
    store = str(tmp_path / "s.db")
    fork_id, _, _ = _fork_file(tmp_path, store)
    assert wake("play", fork_id, "--bots", "--store", store)[0] == 0
    _, played = GameStore(store).facts(fork_id)
    at = next(n for n in range(200, len(played)) if order_bounds(played, n) is None)
    code, out, err = wake(  # issue 23 item 9: a title with an escape is refused at the source
        "fork", fork_id, "--at", str(at), "--title", "deep\x1b[2Jline", "--store", store
    )
    assert code == 2 and "control character U+001B" in err
    code, out, err = wake("fork", fork_id, "--at", str(at), "--title", "deep", "--store", store)
    assert code == 0, err
    grandchild = out.strip()
    code, out, err = wake("fork", RIVER_PLATE_ID, "--at", "52", "--store", store)
    sibling = out.strip()
    code, out, _ = wake("variations", RIVER_PLATE_ID, "--store", store)
    assert code == 0
    lines = out.strip().splitlines()
    assert lines[0].startswith(f"{RIVER_PLATE_ID}  River Plate")
    assert lines[0].endswith("291 events, royal_navy (annihilation)")
    assert lines[1].startswith(f"  └ {sibling}  after event 52: fork of River Plate")
    assert lines[1].endswith("52 events, in progress")
    assert lines[2].startswith(f"  └ {fork_id}  after event {AT}: ")
    assert lines[3] == f"    └ {grandchild}  after event {at}: deep - {at} events, in progress"
    assert lines[4] == "3 variation(s)"
    code, out, _ = wake("variations", grandchild, "--store", store)
    assert out.splitlines()[0] == f"variation of {fork_id} after event {at}"
    assert out.strip().endswith("0 variation(s)")
    code, _, err = wake("variations", "00000000-0000-4000-8000-00000000dead", "--store", store)
    assert code == 2 and err.startswith("error (not_found)")


def test_header_parent_is_validated() -> None:
    rec = _record(RIVER_PLATE)
    body = rec.header.model_dump(mode="json")
    body["parent"] = {"game_id": RIVER_PLATE_ID, "event": -1, "genesis": "x", "digest": "y"}
    with pytest.raises(ValueError):
        GameHeader.model_validate(body)
