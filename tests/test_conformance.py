"""The published conformance suite (domain.conformance) run against every ruleset found, over every
scenario shipped for it in fixtures/scenarios/<ruleset>/: bot games finish; the same seed gives
identical events; live state == replayed state == state restored from a store snapshot; a record
round-trips byte for byte and verifies; refused orders append nothing; read models are well
formed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.conformance import check_refusals, check_ruleset
from domain.ruleset import known_rulesets
from domain.scribe.start import bundled_scenarios
from tests.helpers import FIXTURES

CASES = [
    (rid, path)
    for rid in known_rulesets()
    for path in sorted((FIXTURES / "scenarios" / rid).glob("*.json"))
]


def test_every_ruleset_ships_a_scenario() -> None:
    assert {rid for rid, _ in CASES} == set(known_rulesets())


def test_the_fixture_scenarios_are_the_bundled_ones() -> None:
    """fixtures/scenarios/<ruleset>/ (what ``make fixtures`` records from) holds exactly the
    scenarios each ruleset ships in its package's data/scenarios/, each the same."""
    bundled = {(s.ruleset, s.name): s.data for s in bundled_scenarios()}
    fixtures = {(rid, path.stem): json.loads(path.read_text("utf-8")) for rid, path in CASES}
    assert fixtures == bundled


@pytest.mark.parametrize("rid, path", CASES, ids=[f"{r}-{p.stem}" for r, p in CASES])
def test_ruleset_conformance(rid: str, path: Path, tmp_path: Path) -> None:
    check_ruleset(rid, json.loads(path.read_text("utf-8")), workdir=tmp_path)


@pytest.mark.parametrize("rid, path", CASES, ids=[f"{r}-{p.stem}" for r, p in CASES])
def test_refusals_append_nothing(rid: str, path: Path) -> None:
    """An order from a side that is not to act, at each step of a game, is refused and appends
    nothing."""
    assert check_refusals(rid, json.loads(path.read_text("utf-8"))) > 0
