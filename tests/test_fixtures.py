"""Regression corpus: the recorded games in fixtures/games cover what the issues require, and
changing any single roll makes reading fail at that event.

Re-running every recorded game to exactly its recorded events is not here: pytest collects each
``fixtures/games/**/*.wake.json`` through Wake's own plugin (``domain/pytest_plugin.py``;
``testpaths`` and ``wake_strict`` in pyproject.toml), one test item per record, so each game is
verified once (strictly, in canonical form), exactly as it would be in any other project."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.engine import replay
from domain.errors import RecordError
from domain.record import read_record, read_record_file
from tests.helpers import RECORDS


def test_the_corpus_covers_the_required_games() -> None:
    """Issue 2: >= 5 Morze games: a large one (>= 20 units a side, >= 10 turns), one with
    physical dice, one ending by annihilation and one by the turn limit (PL-7 victory data)."""
    records = [read_record_file(p, strict=True) for p in RECORDS]
    morze = [r for r in records if r.header.ruleset.id == "morze"]
    assert len(morze) >= 5
    assert any(r.header.dice.mode == "physical" for r in morze)
    reasons = [r.events[-1].payload.get("reason", "") for r in morze]
    assert "annihilation" in reasons
    assert any(reason.startswith("turn limit") for reason in reasons)
    big = []
    for r in morze:
        units = r.header.scenario["units"]
        per_side = min(sum(1 for u in units if u["side"] == s.id) for s in r.header.sides)
        turns = max(e.payload.get("turn", 0) for e in r.events if e.topic == "morze.TurnEnded/1")
        big.append(per_side >= 20 and turns >= 10)
    assert any(big)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_every_bundled_game_has_a_title(path: Path) -> None:
    """Issue 22 item 17: a record's title is its scenario's (the Iron & Oak ones were empty)."""
    header = read_record_file(path).header
    assert header.title.strip(), path.name


def test_the_iron_oak_corpus_reaches_every_required_situation() -> None:
    """Issue 4: >= 5 Iron & Oak games across the three scenarios, one with physical dice, one in
    alternating mode (IO-9.3), reaching a sinking (IO-6.2.3J), a ram (IO-5.6.3), a spar attack
    (IO-5.6.2), a critical chain (a level-5 fire, IO-3.1.2, or a Magazine, IO-6.3.11), a
    grounding (IO-5.4.1), a mine going off (IO-5.4.3) and a Collateral location chosen by the
    target's side (IO-6.3.4)."""
    records = [read_record_file(p, strict=True) for p in RECORDS]
    io = [r for r in records if r.header.ruleset.id == "iron_oak"]
    assert len(io) >= 5
    assert {r.header.scenario_id for r in io} == {
        "hampton_roads",
        "mobile_bay_gauntlet",
        "wassaw_sound",
    }
    assert any(r.header.dice.mode == "physical" for r in io)
    assert any(r.header.options.get("mode") == "alternating" for r in io)
    seen: set[str] = set()
    for r in io:
        for e in r.events:
            p = e.payload
            if e.topic == "iron_oak.RamResolved/1":
                seen.add("ram")
            if e.topic == "iron_oak.SparResolved/1":
                seen.add("spar")
            if e.topic == "iron_oak.CollateralAwaited/1":
                seen.add("collateral choice")
            if e.topic == "iron_oak.HazardChecked/1" and p["effect"] == "mine":
                seen.add("mine")
            if e.topic == "iron_oak.FireChanged/1" and p["after"] == 5:
                seen.add("chain")
            if e.topic == "iron_oak.CriticalApplied/1" and (
                p["name"] == "magazine" or p.get("fire") == 5
            ):
                seen.add("chain")
            if e.topic == "iron_oak.HazardChecked/1" and p["effect"] == "aground":
                seen.add("grounding")
            if e.topic == "iron_oak.ShipDrifted/1" and p["result"] == "aground":
                seen.add("grounding")
        final = replay(r.header, r.events).rules
        if any(s.status == "sunk" for s in final.ships.values()):
            seen.add("sinking")
    assert seen == {
        "ram",
        "spar",
        "chain",
        "grounding",
        "sinking",
        "mine",
        "collateral choice",
    }


def test_the_armada_corpus_reaches_every_required_situation() -> None:
    """Issue 10: >= 5 Armada games across both scenarios, one entered with physical dice, one
    ending when a side loses its last ship (SWA-5), one going the six rounds to a score
    (SWA-5), one with two ships overlapping (SWA-OVL), one under the other Evade reading
    (SWA-DEF); between them attacks on ships and squadrons, a defence token spent, a damage
    card dealt face up (SWA-ATK 5) and a squadron destroyed."""
    records = [read_record_file(p, strict=True) for p in RECORDS]
    swa = [r for r in records if r.header.ruleset.id == "armada"]
    assert len(swa) >= 5
    assert {r.header.scenario_id for r in swa} == {"core_learning", "core_deployment"}
    assert any(r.header.dice.mode == "physical" for r in swa)
    assert any(dict(r.header.options).get("evade") == "ltp_2015" for r in swa)
    reasons = [r.events[-1].payload.get("reason", "") for r in swa]
    assert any(reason.startswith("every ship of") for reason in reasons)
    assert any(reason == "round 6 is over" for reason in reasons)
    topics: set[str] = set()
    seen: set[str] = set()
    for r in swa:
        for e in r.events:
            topics.add(e.topic)
            p = e.payload
            if e.topic == "armada.AttackDeclared/1":
                seen.add(f"attack on a {p['defender_kind']}")
            if e.topic == "armada.DamageCardDealt/1" and p["face_up"]:
                seen.add("face-up card")
            if e.topic == "armada.UnitDestroyed/1" and p["kind"] == "squadron":
                seen.add("squadron destroyed")
    assert "armada.ShipsOverlapped/1" in topics
    assert "armada.DefenceTokenSpent/1" in topics
    assert seen == {
        "attack on a ship",
        "attack on a squadron",
        "face-up card",
        "squadron destroyed",
    }


@pytest.mark.parametrize("path", RECORDS, ids=[p.name for p in RECORDS])
def test_changing_a_roll_fails_at_that_event(path: Path) -> None:
    text = path.read_text("utf-8")
    body = json.loads(text)
    rolls = [e for e in body["events"] if e["topic"] == "wake.DiceRolled/1"]
    # card games record their chance as shuffle faces (a deck, the order cards) instead
    shuffles = [e for e in body["events"] if e["payload"].get("faces")]
    if not rolls and not shuffles:
        pytest.skip("no dice thrown: the cards were named by the scribe")
    event = (rolls or shuffles)[len(rolls or shuffles) // 2]
    faces = event["payload"]["roll"]["faces"] if rolls else event["payload"]["faces"]
    faces[0] = faces[0] % 10 + 1
    with pytest.raises(RecordError, match=f"event {event['seq']} "):
        read_record(json.dumps(body))
