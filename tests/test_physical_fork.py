"""A fork continued with physical dice (issue 22 item 14): play on at the table from a what-if
position. ``wake fork GAME --at N --physical`` keeps the seed (or the commitment) for the shared
prefix, whose orders still re-run with the seed's dice (``DiceSpec.seeded_events``), and takes
faces rolled at the table for every later order. The fork verifies standalone and against its
parent; a deck shuffled in the seeded prefix carries on in the order the seed dealt it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.engine import Fact, replay
from domain.events import CommandIssued
from domain.header import DiceSpec
from domain.lineage import fork
from domain.record import build_record, read_record_file, verify_record
from domain.rerun import Ruling, rerun
from domain.store import GameStore
from tests.cli_helpers import wake
from tests.helpers import FIXTURES

RIVER_PLATE = FIXTURES / "games" / "morze" / "river_plate-annihilation.wake.json"
MORZE_SCENARIO = FIXTURES / "scenarios" / "morze" / "river_plate.json"
SHIPS_DUEL = FIXTURES / "games" / "ships" / "multi2-duel.wake.json"
IO_MAGAZINE = FIXTURES / "games" / "iron_oak" / "hampton_roads-magazine.wake.json"
AT = 101  # River Plate: event 101 ends order #35


def _faces(facts: list[Fact], order: int) -> list[int]:
    """The faces the seed threw for one recorded order, in rolling order."""
    faces: list[int] = []
    for fact in facts:
        if fact.command == order and fact.topic == "wake.DiceRolled/1":
            faces += fact.payload["roll"]["faces"]
            faces += (fact.payload.get("opposed_by") or {}).get("faces", [])
    return faces


def _without_dice(fact: Fact) -> tuple[object, ...]:
    payload = {k: v for k, v in fact.payload.items() if k != "dice"}
    return (fact.seq, fact.command, fact.topic, fact.automatic, payload)


def test_fork_physical_plays_on_with_faces_and_verifies(tmp_path: Path) -> None:
    """Item 14: the fork's header keeps the seed for its first AT events; the next orders take
    faces rolled at the table (``wake submit --dice``): given the faces the seed threw, the
    parent's own continuation comes out event for event, each order now carrying its faces.
    The fork's record verifies (prefix re-run with the seed, the rest with the faces), against
    its parent too."""
    store = str(tmp_path / "s.db")
    code, out, err = wake("fork", str(RIVER_PLATE), "--at", str(AT), "--physical", "--store", store)
    assert code == 0, err
    fork_id = out.strip()
    st = GameStore(store)
    parent = read_record_file(RIVER_PLATE)
    dice = st.header(fork_id).dice
    assert dice == DiceSpec(mode="physical", seed=parent.header.dice.seed, seeded_events=AT)
    assert f"physical dice from event {AT + 1}" in err
    orders = [
        (f.seq, CommandIssued.model_validate(f.payload))
        for f in parent.events[AT:]
        if f.topic == CommandIssued.TOPIC
    ][:30]
    rolled = 0
    for _, order in orders:
        faces = _faces(parent.events, order.index)
        args = ["submit", fork_id, json.dumps(order.command), "--store", store]
        args += ["--side", order.side] if order.side else []
        if faces:
            rolled += 1
            code, _, err = wake(*args)  # no faces for an order that rolls: refused
            assert code == 2 and "error (dice)" in err and err.count("\n") == 1
        code, _, err = wake(*args, *(["--dice", ",".join(map(str, faces))] if faces else []))
        assert code == 0, err
    assert rolled >= 3
    _, played = st.facts(fork_id)
    expected = [f for f in parent.events[AT:] if f.command <= orders[-1][1].index]
    assert [_without_dice(f) for f in played[AT:]] == [_without_dice(f) for f in expected]
    issued = [
        CommandIssued.model_validate(f.payload) for f in played if f.topic == CommandIssued.TOPIC
    ]
    assert not any(o.dice for o in issued[: orders[0][1].index])  # the seeded prefix
    assert any(o.dice for o in issued[orders[0][1].index :])  # the table's faces after it
    assert wake("verify", "--game", fork_id, "--store", store)[0] == 0
    exported = tmp_path / "fork.wake.json"
    assert wake("export", fork_id, "-o", str(exported), "--store", store)[0] == 0
    record = read_record_file(exported)
    assert verify_record(record).events == len(played)
    code, out, err = wake("verify", str(exported), "--parent", str(RIVER_PLATE))
    assert code == 0, out + err
    assert "parent prefix checked against the parent record given" in out
    # a rerun of the fork keeps the seed for the prefix and the faces after it
    report = rerun(record.header, record.events, Ruling(options={"attacks_per_unit": 1}))
    assert report.identical, "\n".join(report.lines())


def test_fork_physical_of_a_game_with_a_committed_seed(tmp_path: Path) -> None:
    """Item 14: a stored game whose seed is committed (``wake start``'s default) forks to
    physical dice once its seed is public; the fork keeps the commitment and the store holds
    the seed as revealed, so its export verifies."""
    store = str(tmp_path / "s.db")
    code, out, _ = wake("start", "morze", str(MORZE_SCENARIO), "--store", store)
    game_id = out.strip().splitlines()[-1]
    assert wake("play", game_id, "--bots", "--store", store)[0] == 0
    st = GameStore(store)
    at = next(
        f.seq - 1 for f in st.facts(game_id)[1] if f.topic == CommandIssued.TOPIC and f.seq > 60
    )
    code, out, err = wake("fork", game_id, "--at", str(at), "--physical", "--store", store)
    assert code == 0, err
    fork_id = out.strip()
    dice = st.header(fork_id).dice
    assert dice.mode == "physical" and dice.seeded_events == at
    assert dice.commitment == st.header(game_id).dice.commitment and dice.seed is None
    assert wake("verify", "--game", fork_id, "--store", store)[0] == 0
    exported = tmp_path / "fork.wake.json"
    assert wake("export", fork_id, "-o", str(exported), "--store", store)[0] == 0
    assert verify_record(read_record_file(exported)).events == at


def test_physical_fork_refused_inside_an_order_and_for_a_live_sealed_seed(tmp_path: Path) -> None:
    """Item 14: the same refusals as any fork (between orders only, a live sealed seed)."""
    store = str(tmp_path / "s.db")
    code, _, err = wake("fork", str(RIVER_PLATE), "--at", "100", "--physical", "--store", store)
    assert code == 2 and "lies inside order" in err and err.count("\n") == 1
    code, out, _ = wake("start", "morze", str(MORZE_SCENARIO), "--store", store)
    game_id = out.strip().splitlines()[-1]
    assert wake("submit", game_id, '{"type": "roll_initiative"}', "--store", store)[0] == 0
    at = str(GameStore(store).state(game_id).seq)
    code, _, err = wake("fork", game_id, "--at", at, "--physical", "--store", store)
    assert code == 2 and "error (sealed_seed)" in err


@pytest.mark.parametrize("path", [SHIPS_DUEL, IO_MAGAZINE])
def test_a_deck_shuffled_in_the_seeded_prefix_carries_on(path: Path) -> None:
    """Item 14 (documented): SHIPS & TACTICS decks (ST-1) and Iron & Oak's action cards (IO-3.4)
    are shuffled with the seed; after a physical fork the decks stand in the order the seed
    dealt them (the fork's state at the fork point is the parent's, cards and all: the cards
    do not turn into named physical cards), and the fork's prefix re-runs with the seed."""
    record = read_record_file(path)
    at = next(f.seq - 1 for f in record.events if f.topic == CommandIssued.TOPIC and f.seq > 200)
    header, facts = fork(record.header, record.events, at, physical=True)
    assert header.dice.seeded_events == at and header.dice.mode == "physical"
    parent_state = replay(record.header, record.events[:at])
    fork_state = replay(header, facts)
    ruleset = parent_state.ruleset
    assert ruleset.dump_state(fork_state.rules) == ruleset.dump_state(parent_state.rules)
    assert verify_record(build_record(header, facts)).events == at


def test_a_header_with_seeded_events_is_validated() -> None:
    """Item 14: ``seeded_events`` only with physical dice and a seed or commitment."""
    with pytest.raises(ValueError, match="seeded_events"):
        DiceSpec(mode="seeded", seed=3, seeded_events=5)
    with pytest.raises(ValueError, match="needs the seed"):
        DiceSpec(mode="physical", seeded_events=5)
    with pytest.raises(ValueError, match="physical dice take no seed"):
        DiceSpec(mode="physical", seed=3)
    assert "seeded_events" not in DiceSpec(mode="physical").model_dump(mode="json")
