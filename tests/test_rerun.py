"""Ruling diffs (issue 14): ``domain.rerun`` and ``wake rerun`` re-decide a recorded game's orders
with the same dice under another reading ([AMBIG] option) or other data, and report where the game
first changes, the first order that becomes illegal, and how both lines end."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from domain.cli.app import app
from domain.errors import ScenarioError
from domain.events import CommandIssued
from domain.record import Record, read_record_file, verify_record
from domain.rerun import FieldDiff, Ruling, field_diffs, merge_patch, rerun
from domain.store import GameStore
from tests.helpers import FIXTURES

GAMES = FIXTURES / "games"
IO_MAGAZINE = GAMES / "iron_oak" / "hampton_roads-magazine.wake.json"
IO_PHYSICAL = GAMES / "iron_oak" / "hampton_roads-physical.wake.json"
IO_LEGACY = FIXTURES / "legacy" / "iron_oak-1.0" / "hampton_roads-magazine.wake.json"
SWA_LAST_SHIP = GAMES / "armada" / "core_deployment-last-ship.wake.json"
SWA_LTP = GAMES / "armada" / "core_deployment-ltp-evade.wake.json"
SWA_PHYSICAL = GAMES / "armada" / "core_learning-physical.wake.json"
MZ_RIVER_PLATE = GAMES / "morze" / "river_plate-annihilation.wake.json"
MZ_NARVIK = GAMES / "morze" / "narvik_destroyers-physical.wake.json"

runner = CliRunner()


@cache
def _record(path: Path) -> Record:
    return read_record_file(path)


def wake(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_no_ruling_is_a_verification_of_every_ruleset() -> None:
    for path in (IO_MAGAZINE, SWA_PHYSICAL, MZ_NARVIK):
        record = _record(path)
        report = rerun(record.header, record.events)
        assert report.identical and report.header == record.header
        assert [f.digest for f in report.facts] == [f.digest for f in record.events]
        assert report.rerun_end == report.recorded_end


# Hampton Roads (seed 25) under each Iron & Oak reading that changes it: the first event that
# differs, with its rule (and its topic, recorded and re-run), and the first refused order.
IO_CHANGES = [
    ("swap", "paired", "IO-6.2", "wake.DiceRolled/1", None),  # IO-6.2.2: the hit location
    ("swap", "none", "IO-6.2", "wake.DiceRolled/1", None),
    ("smoke_penalises", "target", "IO-6.2", "wake.DiceRolled/1", None),  # IO-6.2.3C
    ("smoke_penalises", "both", "IO-6.2", "wake.DiceRolled/1", None),
    ("smokestack_response", False, "IO-5.5.1", "wake.DiceRolled/1", None),  # IO-6.3.16
    ("shield_line", "always", "IO-6.2", "iron_oak.GunneryResolved/1", "IO-3.2"),
    ("who_fires", "one_section", None, None, "IO-6.0"),  # refused before any event differs
]
# ... and each reading that cannot matter in that game.
IO_NO_CHANGE = [
    ("drift_when_fouled_with", "immobile_enemy"),
    ("remove_opposed", "target"),
    ("bow_on_limit", "target"),
    ("bow_on_limit", "game"),
    ("gunfire_marker", "reveals_target"),
    ("explosion_fire_level", 2),
    ("crew_loss_bands", "boiler"),
    ("engine_damaged_response", False),
    ("who_fires", "each_section"),
]


@pytest.mark.parametrize(("key", "value", "rule", "topic", "refused_by"), IO_CHANGES)
def test_iron_oak_reading_that_changes_the_game(
    key: str, value: object, rule: str | None, topic: str | None, refused_by: str | None
) -> None:
    record = _record(IO_MAGAZINE)
    report = rerun(record.header, record.events, Ruling(options={key: value}))
    assert not report.identical
    assert report.header.options[key] == value
    assert report.changes == {key: (record.header.options[key], value)}
    if rule is None:
        assert report.divergence is None
    else:
        d = report.divergence
        assert d is not None and d.rule == rule
        assert d.recorded is not None and d.rerun is not None
        assert d.recorded.topic == d.rerun.topic == topic
        assert d.fields and d.recorded_line and d.rerun_line != d.recorded_line
        # everything before the first difference is the recorded game, event for event
        before = d.seq - 1
        assert [f.payload for f in report.facts[:before]] == [
            f.payload for f in record.events[:before]
        ]
        text = "\n".join(d.lines())
        assert f"event {d.seq} differs on re-run (rule {rule}" in text
    if refused_by is None:
        assert report.refusal is None
    else:
        assert report.refusal is not None and report.refusal.rule == refused_by
        assert report.rerun_end.orders == report.refusal.order  # the line stops before it
        assert report.rerun_end.result == "no result"
    assert report.recorded_end is not None and report.recorded_end.result.startswith("CSA")


@pytest.mark.parametrize(("key", "value"), IO_NO_CHANGE)
def test_iron_oak_reading_that_cannot_matter_there(key: str, value: object) -> None:
    record = _record(IO_MAGAZINE)
    report = rerun(record.header, record.events, Ruling(options={key: value}))
    assert report.identical, "\n".join(report.lines())
    assert [f.payload for f in report.facts] == [f.payload for f in record.events]
    assert report.rerun_end == report.recorded_end
    assert report.header.game_id != record.header.game_id


def test_armada_ltp_evade_refuses_the_evade_the_rrg_allowed() -> None:
    """SWA-DEF [AMBIG]: under the Learn to Play Evade a token spent at close range is refused."""
    record = _record(SWA_LAST_SHIP)
    report = rerun(record.header, record.events, Ruling(options={"evade": "ltp_2015"}))
    assert report.divergence is None  # nothing differs before the refused order
    refusal = report.refusal
    assert refusal is not None and refusal.rule == "SWA-DEF"
    assert refusal.command == "spend_defence_token" and refusal.code == "illegal"
    assert "Evade" in refusal.message
    assert report.recorded_end is not None
    assert "every ship of" in report.recorded_end.result
    assert report.rerun_end.result == "no result"
    # and the other way round: the game recorded under ltp_2015 re-run under the RRG reading
    ltp = _record(SWA_LTP)
    back = rerun(ltp.header, ltp.events, Ruling(options={"evade": "rrg_1_6"}))
    assert not back.identical and back.changes == {"evade": ("ltp_2015", "rrg_1_6")}


def test_armada_points_that_cannot_matter_there() -> None:
    record = _record(SWA_LAST_SHIP)  # ends when a side loses its last ship: no score counted
    assert rerun(record.header, record.events, Ruling(options={"points": "updated"})).identical


def test_armada_physical_dice_stream_under_the_other_evade() -> None:
    record = _record(SWA_PHYSICAL)
    report = rerun(record.header, record.events, Ruling(options={"evade": "ltp_2015"}))
    d = report.divergence
    assert d is not None and d.recorded is not None and d.rerun is not None
    assert d.recorded.topic == CommandIssued.TOPIC  # the attack goes on where a token was spent
    assert report.refusal is not None and report.refusal.rule.startswith("SWA-")


def test_morze_initiative_tie_reading() -> None:
    """PL-1 [GAP]: a tie kept by last turn's holder instead of re-rolled."""
    record = _record(MZ_RIVER_PLATE)
    report = rerun(
        record.header, record.events, Ruling(options={"initiative_tie": "keep_previous"})
    )
    d = report.divergence
    assert d is not None and d.rule == "PL-1"
    assert d.recorded is not None and d.recorded.topic == "wake.DiceRolled/1"  # the re-roll
    assert d.rerun is not None and d.rerun.topic == "morze.InitiativeDetermined/1"
    assert any(f.path == "topic" for f in d.fields)
    assert report.refusal is not None and report.refusal.rule == "PL-2"
    assert rerun(record.header, record.events, Ruling(options={"attacks_per_unit": 2})).identical


def test_morze_own_class_table_as_data() -> None:
    """A user's own table: a merge patch over the resolved scenario (PL-5 class table)."""
    record = _record(MZ_RIVER_PLATE)
    patch = {"classes": {"classes": {"light_cruiser": {"hit": 6}}}}
    report = rerun(record.header, record.events, Ruling(data=patch, data_label="mine.json"))
    d = report.divergence
    assert d is not None and d.rule == "PL-4b"
    assert FieldDiff("compared_with", 5, 6) in d.fields
    assert report.changes == {"(data)": (None, "mine.json")}
    assert report.header.scenario["classes"]["classes"]["light_cruiser"]["hit"] == 6
    assert "data mine.json" in report.header.title
    with pytest.raises(ScenarioError, match="light_cruiser"):
        rerun(
            record.header,
            record.events,
            Ruling(data={"classes": {"classes": {"light_cruiser": {"hit": "x"}}}}),
        )


def test_physical_dice_stream_is_the_recorded_faces_in_order(tmp_path: Path) -> None:
    record = _record(IO_PHYSICAL)
    same = rerun(record.header, record.events, Ruling(options={"remove_opposed": "target"}))
    assert same.identical  # every order takes its own faces again
    assert [f.payload for f in same.facts] == [f.payload for f in record.events]
    changed = rerun(record.header, record.events, Ruling(options={"shield_line": "always"}))
    assert changed.divergence is not None and changed.divergence.rule == "IO-6.2"
    # the faces shift to the orders after once one needs other dice, until they no longer fit
    assert changed.refusal is not None and changed.refusal.code == "dice"
    assert "recorded dice stream" in "\n".join(changed.refusal.lines())
    # a physical rerun, as far as it goes, is a record of its own that verifies
    narvik = _record(MZ_NARVIK)
    report = rerun(narvik.header, narvik.events, Ruling(options={"partial_moves": False}))
    assert report.refusal is not None and report.refusal.rule == "PL-2"
    from domain.record import build_record

    assert verify_record(build_record(report.header, report.facts)).events == len(report.facts)


def test_an_older_version_keeps_its_own_readings() -> None:
    """A 1.0 record re-run with one option changed keeps 1.0's readings for the rest
    (the header's options are not re-filled with today's defaults)."""
    record = _record(IO_LEGACY)
    assert record.header.ruleset.version == "1.0"
    report = rerun(record.header, record.events, Ruling(options={"explosion_fire_level": 3}))
    assert report.identical, "\n".join(report.lines())
    assert "shield_line" not in report.header.options


def test_unknown_option_and_bad_value_are_refused() -> None:
    record = _record(IO_MAGAZINE)
    with pytest.raises(ScenarioError, match="unknown iron_oak option 'shield'"):
        rerun(record.header, record.events, Ruling(options={"shield": "always"}))
    with pytest.raises(ScenarioError) as exc:
        rerun(record.header, record.events, Ruling(options={"swap": "bogus"}))
    assert "\n" not in exc.value.message


def test_merge_patch_and_field_diffs() -> None:
    assert merge_patch({"a": {"b": 1, "c": 2}, "d": [1]}, {"a": {"b": 3, "c": None}, "d": [2]}) == {
        "a": {"b": 3},
        "d": [2],
    }
    assert field_diffs({"x": {"y": [1, 2]}, "z": 1}, {"x": {"y": [1, 3]}, "z": 1, "w": 0}) == [
        FieldDiff("x.y[1]", 2, 3),
        FieldDiff("w", "(absent)", 0),
    ]
    assert field_diffs({"n": 1}, {"n": True}) == [FieldDiff("n", 1, True)]


# --- the CLI ---------------------------------------------------------------------------------


def test_cli_exit_codes_and_report(tmp_path: Path) -> None:
    code, out, _ = wake("rerun", str(SWA_LAST_SHIP), "--option", "evade=ltp_2015")
    assert code == 1
    assert "first refused order:" in out and "[rule SWA-DEF]" in out
    assert "recorded line: rebels" in out and "re-run line:   no result" in out
    code, out, _ = wake("rerun", str(SWA_LAST_SHIP), "--option", "points=updated")
    assert code == 0 and "identical: all 93 orders" in out
    code, out, _ = wake("rerun", str(IO_MAGAZINE), "--option", "shield_line=always")
    assert code == 1
    assert "first difference:" in out and "(rule IO-6.2" in out
    assert "  recorded: " in out and "  re-run:   " in out and "hits: 3 != 0" in out


def test_cli_output_is_a_record_of_the_rerun(tmp_path: Path) -> None:
    out_file = tmp_path / "rerun.wake.json"
    code, out, _ = wake(
        "rerun", str(MZ_NARVIK), "--option", "initiative_tie=keep_previous", "-o", str(out_file)
    )
    assert code in (0, 1) and f"saved the rerun as {out_file}" in out
    saved = read_record_file(out_file, strict=True)
    original = _record(MZ_NARVIK)
    assert saved.header.title.startswith(f"rerun of {original.header.game_id} with ")
    assert saved.header.options["initiative_tie"] == "keep_previous"
    assert saved.header.dice == original.header.dice
    assert verify_record(saved).events == len(saved.events)


def test_cli_data_file_and_stored_game(tmp_path: Path) -> None:
    patch = tmp_path / "classes.json"
    patch.write_text(json.dumps({"classes": {"classes": {"light_cruiser": {"hit": 6}}}}), "utf-8")
    code, out, _ = wake("rerun", str(MZ_RIVER_PLATE), "--data", str(patch))
    assert code == 1 and "ruling: data patched (classes.json)" in out and "(rule PL-4b" in out
    store = str(tmp_path / "s.sqlite3")
    code, _, _ = wake("import", str(MZ_RIVER_PLATE), "--store", store)
    assert code == 0
    game_id = GameStore(store).game_ids()[0]
    code, out, _ = wake("rerun", game_id, "--store", store, "--option", "attacks_per_unit=2")
    assert code == 0 and "identical" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--option", "shield=always"], "unknown iron_oak option 'shield'"),
        (["--option", "swap=bogus"], "invalid Iron & Oak option"),
        (["--option", "swap"], "must look like KEY=VALUE"),
        ([], "give --option KEY=VALUE or --data FILE"),
        (["--data", "/nonexistent/x.json"], "data file: /nonexistent/x.json: cannot read"),
    ],
)
def test_cli_refusals_are_one_line_exit_2(args: list[str], message: str) -> None:
    code, out, err = wake("rerun", str(IO_MAGAZINE), *args)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1, err


def test_cli_unreadable_or_tampered_record_is_exit_2(tmp_path: Path) -> None:
    code, _, err = wake("rerun", str(tmp_path / "missing.wake.json"), "--option", "swap=none")
    assert code == 2 and "cannot read" in err and err.count("\n") == 1
    body = json.loads(IO_MAGAZINE.read_text("utf-8"))
    roll = next(e for e in body["events"] if e["topic"] == "wake.DiceRolled/1")
    roll["payload"]["roll"]["faces"][0] = roll["payload"]["roll"]["faces"][0] % 6 + 1
    bad = tmp_path / "bad.wake.json"
    bad.write_text(json.dumps(body), "utf-8")
    code, _, err = wake("rerun", str(bad), "--option", "swap=none")
    assert code == 2 and f"event {roll['seq']}" in err and err.count("\n") == 1


def test_a_ruling_that_is_the_recorded_one_says_so() -> None:
    record = _record(SWA_PHYSICAL)
    ships = record.header.scenario["data"]["ships"]  # Armada: a data part given whole
    # an older record, made before the pass_tokens option existed, does not name it
    options = {k: v for k, v in dict(record.header.options).items() if k != "pass_tokens"}
    header = record.header.model_copy(update={"options": options})
    report = rerun(
        header,
        record.events,
        Ruling(options={"evade": "rrg_1_6", "pass_tokens": "off"}, data={"data": {"ships": ships}}),
    )
    assert report.identical
    text = "\n".join(report.lines())
    assert 'ruling: evade = "rrg_1_6" (as recorded) [rule SWA-DEF]' in text
    assert 'ruling: pass_tokens = "off" (not set in the record) [rule SWA-PASS]' in text
    assert "which leaves the scenario as recorded" in text
    assert f"identical: all {report.orders} orders" in text


def test_a_line_that_ends_earlier() -> None:
    """Deadlier classes (PL-5 data): the rerun ends by annihilation (PL-7) halfway through the
    recorded game; the recorded orders after it are reported as not played."""
    record = _record(GAMES / "morze" / "denmark_strait-turn_limit.wake.json")
    classes = record.header.scenario["classes"]["classes"]
    patch = {
        "classes": {"classes": {k: {"hit": 2, "toughness": 1, "defence": 10} for k in classes}}
    }
    report = rerun(record.header, record.events, Ruling(data=patch))
    assert report.divergence is not None and report.divergence.rule == "PL-4b"
    assert report.refusal is not None and report.refusal.code == "game_over"
    assert "annihilation" in report.rerun_end.result
    assert report.recorded_end is not None and "turn limit" in report.recorded_end.result
    left = report.orders - report.refusal.order
    text = "\n".join(report.lines())
    assert f"the re-run line ends first: {left} recorded order(s) left unplayed" in text
    assert "the re-run line had already ended" in text
