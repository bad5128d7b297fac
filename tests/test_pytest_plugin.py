"""Recorded games as tests (issue 14): Wake's pytest plugin, installed through the ``pytest11``
entry point, collects every ``*.wake.json`` as a test that re-runs the record; a failure names the
first divergent event, both versions and the rule. Run here with ``pytester`` on temp folders."""

from __future__ import annotations

import json
import tomllib
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, RECORDS

pytest_plugins = ["pytester"]

REPO = FIXTURES.parent
SEEDED = FIXTURES / "games" / "morze" / "river_plate-annihilation.wake.json"
PHYSICAL = FIXTURES / "games" / "morze" / "narvik_destroyers-physical.wake.json"


def _tamper(source: Path, target: Path) -> int:
    """Change one recorded die face, recompute nothing; return the event's number."""
    body = json.loads(source.read_text("utf-8"))
    rolls = [e for e in body["events"] if e["topic"] == "wake.DiceRolled/1"]
    event = rolls[len(rolls) // 2]
    faces = event["payload"]["roll"]["faces"]
    faces[0] = faces[0] % 10 + 1
    target.write_text(json.dumps(body, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return int(event["seq"])


def _copy(source: Path, target: Path) -> None:
    target.write_bytes(source.read_bytes())


def test_declared_as_a_pytest11_entry_point() -> None:
    found = {p.name: p.value for p in entry_points(group="pytest11")}
    assert found.get("wake") == "domain.pytest_plugin"


def test_good_records_pass_tampered_ones_fail_at_the_event_with_the_rule(
    pytester: pytest.Pytester,
) -> None:
    games = pytester.mkdir("games")
    _copy(SEEDED, games / "seeded.wake.json")
    _copy(PHYSICAL, games / "physical.wake.json")
    seeded_at = _tamper(SEEDED, games / "seeded-tampered.wake.json")
    physical_at = _tamper(PHYSICAL, games / "physical-tampered.wake.json")
    result = pytester.runpytest("-p", "no:cacheprovider", "games")
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(
        [
            "FAILED games/physical-tampered.wake.json::verify - Failed: altered record*",
            "FAILED games/seeded-tampered.wake.json::verify - Failed: altered record*",
        ]
    )
    out = result.stdout.str()
    for seq in (seeded_at, physical_at):
        # the rule ID and its one-line summary, both versions described, the differing field
        assert f"event {seq} differs on re-run (rule PL-" in out
        assert f"event {seq} (wake.DiceRolled/1): digest does not match" in out
    assert "  recorded: " in out and "  re-run:   " in out
    assert "roll.faces[0]: " in out
    assert "Traceback" not in out and "domain/" not in out  # reads like an assertion, no stack


def test_a_changed_rule_is_named_with_the_first_changed_event(pytester: pytest.Pytester) -> None:
    """What a rules designer sees after changing the rules: a sound record (chain intact) whose
    outcomes the engine no longer gives. Built here by playing the orders under another class
    table (PL-5: a light cruiser's Hit number 6) and chaining the facts to the original header."""
    from domain.engine import Fact, fact_digest
    from domain.record import read_record_file, write_record
    from domain.rerun import Ruling, rerun

    record = read_record_file(SEEDED)
    patch = {"classes": {"classes": {"light_cruiser": {"hit": 6}}}}
    played = rerun(record.header, record.events, Ruling(data=patch))
    assert played.divergence is not None
    head, facts = record.header.genesis_digest(), []
    for fact in played.facts:
        head = fact_digest(
            head,
            fact.seq,
            fact.command,
            fact.topic,
            fact.automatic,
            fact.payload,
            record.header.format_version,
        )
        facts.append(Fact(**{**fact.model_dump(), "digest": head}))
    write_record(record.header, facts, pytester.path / "old.wake.json")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert f"event {played.divergence.seq} differs on re-run (rule PL-4b" in out
    assert "compared_with: 6 != 5" in out
    assert "does not check" not in out  # the record itself is sound


def test_unreadable_records_fail_as_their_own_items(pytester: pytest.Pytester) -> None:
    """Issue 22 item 12: each unreadable ``*.wake.json`` is a failing item with one message;
    the session is not interrupted and the readable records still run."""
    pytester.makefile(".wake.json", truncated='{"format": "wake-record", "format_ver')
    pytester.makefile(".wake.json", other='{"hello": "world"}')
    body = json.loads(SEEDED.read_text("utf-8"))
    body["header"]["ruleset"]["id"] = "no_such_ruleset"
    (pytester.path / "unknown.wake.json").write_text(json.dumps(body), "utf-8")
    _copy(SEEDED, pytester.path / "good.wake.json")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=3)
    result.stdout.fnmatch_lines(
        [
            "FAILED other.wake.json::verify - Failed: cannot read the recorded game: *",
            "FAILED truncated.wake.json::verify - Failed: cannot read the recorded game*",
            "FAILED unknown.wake.json::verify - Failed: cannot read the recorded game: *",
        ]
    )
    out = result.stdout.str()
    assert "not a Wake record" in out and "not valid JSON at line 1" in out
    assert "unknown ruleset 'no_such_ruleset'" in out
    assert "Interrupted" not in out and "error" not in out.splitlines()[-1]
    assert "Traceback" not in out


def test_wake_rerun_tells_a_tampered_record_from_a_rules_change(
    pytester: pytest.Pytester,
) -> None:
    """Issue 22 item 12: under ``--wake-rerun`` an edited roll is reported as an altered
    record (its chain does not check), never as "changed under the current rules"."""
    seq = _tamper(SEEDED, pytester.path / "tampered.wake.json")
    result = pytester.runpytest("-p", "no:cacheprovider", "--wake-rerun")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "changed under the current rules" not in out
    assert "altered record (not a rules change): event" in out
    assert f"event {seq} (wake.DiceRolled/1): digest does not match" in out


def test_strict_mode_requires_the_canonical_form(pytester: pytest.Pytester) -> None:
    body = json.loads(SEEDED.read_text("utf-8"))
    (pytester.path / "compact.wake.json").write_text(json.dumps(body), "utf-8")
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)
    strict = pytester.runpytest("-p", "no:cacheprovider", "--wake-strict")
    strict.assert_outcomes(failed=1)
    strict.stdout.fnmatch_lines(["*strict mode: not in canonical form*"])
    pytester.makeini("[pytest]\nwake_strict = true\n")
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(failed=1)


def test_off_with_p_no_wake(pytester: pytest.Pytester) -> None:
    _copy(SEEDED, pytester.path / "game.wake.json")
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:wake")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_the_projects_own_fixtures_are_collected_once_each() -> None:
    """The corpus runs through the plugin (testpaths), strictly, and nowhere else."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
    ini = config["tool"]["pytest"]["ini_options"]
    assert "fixtures/games" in ini["testpaths"] and ini["wake_strict"] is True
    tests = [p.name for p in (REPO / "tests").glob("*.wake.json")]
    assert tests == []  # nothing under tests/ that the plugin would collect a second time
    assert len(RECORDS) == len({p.name for p in RECORDS}) >= 19


def test_the_projects_own_fixtures_collect_as_one_item_each(pytester: pytest.Pytester) -> None:
    ini = REPO / "pyproject.toml"
    result = pytester.runpytest(
        "--collect-only", "-q", "-p", "no:cacheprovider", "-c", str(ini), str(FIXTURES / "games")
    )
    counts = [line for line in result.stdout.lines if ".wake.json: " in line]  # -q -q: per file
    assert len(counts) == len(RECORDS) and all(line.endswith(".wake.json: 1") for line in counts)
