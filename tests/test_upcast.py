"""Across ruleset versions (issue 14): facts upcast by topic version, and ``wake verify --rerun``.

Games are recorded with Morze w ogniu 1.0 (the real ruleset), then Morze 2.0 (tests/morze_bump.py:
the light cruiser's Hit number 5 -> 6, PL-4b/PL-5; ``morze.UnitMoved/2`` with an upcaster from
``/1``) is registered in its place, as a new release would be installed. The old records still
read and verify (upcast, their digests untouched); ``wake verify --rerun`` and the pytest plugin's
``--wake-rerun`` name exactly the game the new value changes, at its first light-cruiser to-hit
roll (PL-4b), and no change for a game without light cruisers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from domain import ruleset as registry
from domain.cli.app import app
from domain.engine import Session, decode, header_for, new_game, registry_for
from domain.errors import RecordError, UnknownTopicVersion
from domain.events import DomainEvent, EventRegistry
from domain.record import read_record_file, verify_record, write_record
from domain.rerun import Ruling, rerun
from domain.store import GameStore
from tests.forge import rechain
from tests.helpers import FIXTURES
from tests.morze_bump import Morze2, UnitMoved2

pytest_plugins = ["pytester"]

runner = CliRunner()
SCENARIOS = FIXTURES / "scenarios" / "morze"


def _play(name: str, seed: int, game_id: str) -> Session:
    scenario = json.loads((SCENARIOS / f"{name}.json").read_text("utf-8"))
    session = Session(header_for("morze", scenario, game_id=game_id, seed=seed))
    while session.submit_bot() is not None:
        pass
    return session


def _first_light_cruiser_to_hit(session: Session) -> int:
    """The first to-hit roll (PL-4b) of a light cruiser: where Hit 5 -> 6 first shows."""
    cruisers = {u["id"] for u in session.header.scenario["units"] if u["class"] == "light_cruiser"}
    return next(
        f.seq
        for f in session.facts
        if f.topic == "wake.DiceRolled/1"
        and f.payload["purpose"] == "to hit"
        and f.payload["subject"] in cruisers
    )


@pytest.fixture(scope="module")
def old_games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Two games recorded with morze 1.0: River Plate (light cruisers fire) and the Denmark
    Strait (battleships and a heavy cruiser: the light cruiser's value cannot matter)."""
    assert registry.get_ruleset("morze").meta.version == "1.0"
    folder = tmp_path_factory.mktemp("games-1.0")
    river = _play("river_plate", 3, "00000000-0000-4000-8000-00000000e001")
    strait = _play("denmark_strait", 3, "00000000-0000-4000-8000-00000000e002")
    paths = {
        "river": folder / "river_plate.wake.json",
        "strait": folder / "denmark_strait.wake.json",
    }
    write_record(river.header, river.facts, paths["river"])
    write_record(strait.header, strait.facts, paths["strait"])
    return {
        "folder": folder,
        "paths": paths,
        "text": {k: p.read_bytes() for k, p in paths.items()},
        "changed_at": _first_light_cruiser_to_hit(river),
        "moves": sum(f.topic == "morze.UnitMoved/1" for f in river.facts),
    }


@pytest.fixture
def morze_2() -> Iterator[Morze2]:
    """Morze 2.0 installed in place of 1.0 for one test."""
    registry.register("morze", Morze2)
    try:
        ruleset = registry.get_ruleset("morze")
        assert isinstance(ruleset, Morze2)
        yield ruleset
    finally:
        registry.unregister("morze")


def wake(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


# --- upcasters ---------------------------------------------------------------------------------


class Shot3(DomainEvent):
    TOPIC = "toy.Shot/3"
    target: str
    damage: int
    rule: str


def _v1_to_v2(payload: Mapping[str, Any]) -> dict[str, Any]:
    return {"target": payload["at"], "damage": payload["hits"]}


def _v2_to_v3(payload: Mapping[str, Any]) -> dict[str, Any]:
    return {**payload, "rule": "T-1"}


def test_upcasters_chain_one_version_at_a_time_and_leave_the_stored_payload_alone() -> None:
    """Issue 14: v1 -> v2 -> v3, each step pure; the recorded payload is not changed."""
    reg = EventRegistry([Shot3], upcasters={"toy.Shot/1": _v1_to_v2, "toy.Shot/2": _v2_to_v3})
    stored = {"at": "hood", "hits": 2}
    event = reg.load("toy.Shot/1", stored)
    assert event == Shot3(target="hood", damage=2, rule="T-1")
    assert stored == {"at": "hood", "hits": 2}
    assert reg.load("toy.Shot/2", {"target": "a", "damage": 1}).rule_id() == "T-1"
    assert reg.current("toy.Shot/3", {"x": 1}) == ("toy.Shot/3", {"x": 1})
    assert reg.upcasts() == ["toy.Shot/1", "toy.Shot/2"]


def test_topic_versions_newer_than_the_code_or_without_upcasters_are_typed_errors() -> None:
    """Issue 14: a newer topic version is UnknownTopicVersion naming topic and version; a
    missing step or a payload an upcaster cannot take is a RecordError naming the step."""
    reg = EventRegistry([Shot3], upcasters={"toy.Shot/2": _v2_to_v3})
    with pytest.raises(UnknownTopicVersion, match=r"'toy\.Shot/4' is version 4 .*toy\.Shot/3"):
        reg.load("toy.Shot/4", {})
    with pytest.raises(RecordError, match=r"toy\.Shot/1 has no upcaster to toy\.Shot/2"):
        reg.load("toy.Shot/1", {"at": "a", "hits": 1})
    full = EventRegistry([Shot3], upcasters={"toy.Shot/1": _v1_to_v2, "toy.Shot/2": _v2_to_v3})
    with pytest.raises(RecordError, match=r"toy\.Shot/1 cannot be upcast to toy\.Shot/2: KeyError"):
        full.load("toy.Shot/1", {"hits": 1})
    with pytest.raises(RecordError, match=r"'toy\.Shot/1' \(upcast to toy\.Shot/3\) has an inv"):
        full.load("toy.Shot/1", {"at": "a", "hits": "many"})
    for bad in ("toy.Shot", "toy.Shot/0", "toy.Shot/03", "toy.Shot/-1", "toy.Other/1"):
        with pytest.raises(RecordError, match="unknown event topic"):
            full.load(bad, {})


def test_a_registry_refuses_two_versions_of_an_event_or_an_upcaster_for_nothing() -> None:
    """Issue 14: one class per event name (older versions are upcast), upcasters only from an
    older version of a registered class."""

    class Shot1(DomainEvent):
        TOPIC = "toy.Shot/1"

    with pytest.raises(ValueError, match="already registered at version 3"):
        EventRegistry([Shot3, Shot1])
    with pytest.raises(ValueError, match=r"no event class 'toy\.Shot' newer than version 3"):
        EventRegistry([Shot3], upcasters={"toy.Shot/3": _v2_to_v3})
    with pytest.raises(ValueError, match=r"no event class 'toy\.Gone'"):
        EventRegistry([Shot3], upcasters={"toy.Gone/1": _v2_to_v3})


def test_every_built_in_topic_is_versioned() -> None:
    """DESIGN 6: every stored event is named by an explicit, versioned topic."""
    for ruleset_id in registry.known_rulesets():
        topics = registry_for(ruleset_id).topics()
        assert topics and all(t.rsplit("/", 1)[1].isdigit() for t in topics), ruleset_id


# --- a real version bump: old records load and verify -------------------------------------------


def test_old_records_read_and_verify_under_the_new_version_by_upcasting(
    old_games: dict[str, Any], morze_2: Morze2
) -> None:
    """Issue 14: a morze 1.0 record reads (chain checked over the stored topics and payloads),
    decodes its ``morze.UnitMoved/1`` facts as ``UnitMoved/2`` and re-runs with 1.0's data
    into the same events; the file and its digests are untouched."""
    path = old_games["paths"]["river"]
    record = read_record_file(path, strict=True)
    assert record.header.ruleset.version == "1.0"
    moved = [f for f in record.events if f.topic == "morze.UnitMoved/1"]
    assert len(moved) == old_games["moves"] > 0
    event = decode(new_game(record.header), moved[0])
    assert isinstance(event, UnitMoved2)
    assert (event.start.x, event.end.y) == (moved[0].payload["from_x"], moved[0].payload["to_y"])
    report = verify_record(record)
    assert report.events == len(record.events) and report.result != "in progress"
    assert path.read_bytes() == old_games["text"]["river"]
    code, out = wake("verify", "--strict", *map(str, old_games["paths"].values()))
    assert code == 0, out
    assert out.count(": OK - ") == 2


def test_a_new_game_records_the_new_topic_and_the_new_data(morze_2: Morze2) -> None:
    """Issue 14: 2.0 records ``morze.UnitMoved/2`` and embeds the 2.0 class table (PL-5)."""
    game = _play("river_plate", 3, "00000000-0000-4000-8000-00000000e003")
    assert game.header.ruleset.version == "2.0"
    assert game.header.scenario["classes"]["classes"]["light_cruiser"]["hit"] == 6
    topics = {f.topic for f in game.facts}
    assert "morze.UnitMoved/2" in topics and "morze.UnitMoved/1" not in topics


def test_a_topic_newer_than_the_code_is_refused_exit_2(tmp_path: Path) -> None:
    """Issue 14: a record holding ``morze.UnitMoved/2`` read by a Wake with only morze 1.0 is
    refused, naming the topic and its version (exit 2, one line, no traceback)."""
    body = json.loads(
        read_record_file(
            FIXTURES / "games/morze/river_plate-annihilation.wake.json"
        ).model_dump_json()
    )
    moved = next(e for e in body["events"] if e["topic"] == "morze.UnitMoved/1")
    moved["topic"] = "morze.UnitMoved/2"
    path = tmp_path / "from-the-future.wake.json"
    path.write_text(json.dumps(rechain(body)), "utf-8")
    with pytest.raises(UnknownTopicVersion, match=r"'morze\.UnitMoved/2' is version 2"):
        read_record_file(path)
    code, out = wake("verify", str(path))
    assert code == 2
    assert "INVALID (topic_version)" in out and "morze.UnitMoved/2" in out
    assert "Traceback" not in out
    code, out = wake("verify", "--rerun", str(path))
    assert code == 2 and "INVALID (topic_version)" in out and "morze.UnitMoved/1)" in out


# --- wake verify --rerun -------------------------------------------------------------------------


def test_verify_rerun_lists_exactly_the_games_the_changed_value_alters(
    old_games: dict[str, Any], morze_2: Morze2
) -> None:
    """Issue 14, PL-4b/PL-5: with Hit 6 for light cruisers, River Plate changes at its first
    light-cruiser to-hit roll (needs 6+ instead of 5+); the Denmark Strait, without light
    cruisers, does not change. Exit 1: valid records that diverge on re-run."""
    at = old_games["changed_at"]
    code, out = wake("verify", "--rerun", str(old_games["folder"]))
    assert code == 1, out
    lines = out.splitlines()
    river = next(line for line in lines if "river_plate.wake.json:" in line)
    strait = next(line for line in lines if "denmark_strait.wake.json:" in line)
    assert (
        f"CHANGED (morze 1.0 -> 2.0, with the data it ships now) - first at event {at}, "
        "rule PL-4b" in river
    )
    assert "UNCHANGED (morze 1.0 -> 2.0" in strait
    assert f"event {at} differs on re-run (rule PL-4b" in out
    detail = out[out.index(f"event {at} differs") :]
    assert "needs 5+" in detail.splitlines()[1] and "needs 6+" in detail.splitlines()[2]
    assert "compared_with: 5 != 6" in out
    assert lines[-1] == "re-run with the current rules: 2 game(s): 1 changed, 1 unchanged"
    # the same, one game at a time, as an API
    for key, changed in (("river", True), ("strait", False)):
        record = read_record_file(old_games["paths"][key])
        report = rerun(record.header, record.events, Ruling(current=True))
        assert report.identical is not changed
        assert report.header.ruleset.version == "2.0"
        if changed:
            assert report.divergence is not None and report.divergence.seq == at


def test_verify_rerun_without_a_change_exits_0_and_bad_input_2(
    old_games: dict[str, Any], tmp_path: Path
) -> None:
    """Issue 14: under the rules they were recorded with, nothing changes (exit 0); an
    unreadable file is reported on its line and the others still re-run (exit 2)."""
    code, out = wake("verify", "--rerun", str(old_games["folder"]))
    assert code == 0, out
    assert out.count("UNCHANGED (morze 1.0 -> 1.0)") == 2
    bad = tmp_path / "bad.wake.json"
    bad.write_text('{"format": "wake-record", "format_ver', "utf-8")
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out = wake("verify", "--rerun", str(bad), str(empty), str(old_games["paths"]["river"]))
    assert code == 2, out
    assert f"{bad}: INVALID (record) - " in out and "not valid JSON" in out
    assert f"{empty}: INVALID (record) - {empty}: no *.wake.json files" in out
    assert "river_plate.wake.json: UNCHANGED" in out
    assert out.splitlines()[-1].endswith("0 changed, 1 unchanged, 2 unreadable")


def test_verify_rerun_over_every_stored_game(
    old_games: dict[str, Any], morze_2: Morze2, tmp_path: Path
) -> None:
    """Issue 14: ``--store S --all`` re-runs the stored games (imported 1.0 records, upcast)."""
    store = str(tmp_path / "games.sqlite3")
    for path in old_games["paths"].values():
        code, out = wake("import", str(path), "--store", store)
        assert code == 0, out
    assert len(GameStore(store).game_ids()) == 2
    code, out = wake("verify", "--rerun", "--all", "--store", store)
    assert code == 1, out
    assert "game 00000000-0000-4000-8000-00000000e001: CHANGED" in out
    assert "game 00000000-0000-4000-8000-00000000e002: UNCHANGED" in out


# --- the pytest plugin after the change ----------------------------------------------------------


def test_the_pytest_plugin_reads_which_games_changed(
    old_games: dict[str, Any], morze_2: Morze2, pytester: pytest.Pytester
) -> None:
    """Issue 14: ``pytest games/`` still passes the 1.0 records (they verify under 1.0);
    ``pytest games/ --wake-rerun`` fails exactly River Plate, at the PL-4b roll."""
    games = pytester.mkdir("games")
    for key, path in old_games["paths"].items():
        (games / path.name).write_bytes(old_games["text"][key])
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "games")
    result.assert_outcomes(passed=2)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--wake-rerun", "games")
    result.assert_outcomes(passed=1, failed=1)
    at = old_games["changed_at"]
    result.stdout.fnmatch_lines(
        [
            "*changed under the current rules (morze 1.0 -> 2.0, with the data it ships now)*",
            "FAILED games/river_plate.wake.json::verify - Failed: changed under the*",
        ]
    )
    assert f"event {at} differs on re-run (rule PL-4b" in result.stdout.str()
    verbose = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--wake-rerun", "-v", "games")
    verbose.stdout.fnmatch_lines(["games/denmark_strait.wake.json::verify PASSED*"])
