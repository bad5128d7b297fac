"""Issue 22 item 7: a physical game can always go on. A scribe seals a fleet as a digest alone;
at the reveal it turns out to break the placement rules (ST-1.3–1.8), so it cannot be revealed.
The player shows it and seals again (``correct_fleet``), recorded as a correction
(``FleetCorrected``, then ``FleetCommitted``); the new fleet is revealed and the battle begins.
The whole game, correction included, verifies as a record."""

from __future__ import annotations

from typing import Any

import pytest

from domain.engine import apply_fact, decode, replay
from domain.errors import IllegalCommand, NotYourTurn, WakeError
from domain.events import CommandIssued
from domain.record import build_record, verify_record
from domain.reveals import match_sealed
from domain.ruleset import get_ruleset
from domain.rulesets.ships import events as ev
from domain.rulesets.ships.fleet import Fleet, fleet_content
from domain.sealed import seal
from tests.ships_helpers import commit, fleet, reveal, rules, session, submit, topics
from tests.test_ships_setup import FLEETS, HANDS, ORDER

ILLEGAL = fleet(["musai", "dolos"])  # two ship cards in one box (ST-1.8)
SALT = "test-salt"


def _physical() -> Any:
    """A physical game (no dice seed): the scribe names the order cards and the draws, then
    seals every fleet as a digest alone; P2's breaks ST-1.8."""
    s = session("multi3")
    assert s.header.dice.mode == "physical"
    submit(s, None, {"type": "start_battle", "order": ORDER, "draws": HANDS})
    commit(s, "P2", ILLEGAL)
    commit(s, "P1", FLEETS["P1"])
    commit(s, "P3", FLEETS["P3"])
    return s


def _shown(f: Fleet, salt: str = SALT) -> dict[str, Any]:
    return {"fleet": f.model_dump(mode="json"), "salt": salt}


def _refused(s: Any, side: str, command: dict[str, Any], rule: str) -> WakeError:
    before = len(s.facts)
    with pytest.raises(WakeError) as info:
        submit(s, side, command)
    assert info.value.rule == rule, info.value
    assert len(s.facts) == before
    return info.value


def test_an_illegal_fleet_sealed_by_a_scribe_is_corrected_and_the_game_goes_on() -> None:
    s = _physical()
    error = _refused(s, "P2", {"type": "reveal_fleet", **_shown(ILLEGAL)}, "ST-1.8")
    assert "correct_fleet" in str(error)  # the refusal says where to go from here
    new = FLEETS["P2"]
    digest = seal(fleet_content("P2", rules(s).battle, new), "salt-2").digest
    correction = {"type": "correct_fleet", **_shown(ILLEGAL), "digest": digest}
    events = submit(s, "P2", correction)
    assert topics(events) == ["FleetCorrected", "FleetCommitted"]
    corrected = events[0]
    assert isinstance(corrected, ev.FleetCorrected)
    assert corrected.rule == "ST-1.8" and corrected.fleet == ILLEGAL
    line = get_ruleset("ships").describe(corrected)
    assert "correction" in line and "ST-1.8" in line
    assert rules(s).phase == "reveal" and rules(s).active == "P2"
    reveal(s, "P2", new, "salt-2")
    reveal(s, "P1", FLEETS["P1"])
    events = reveal(s, "P3", FLEETS["P3"])
    assert "FleetsPlaced" in topics(events) and "SegmentStarted" in topics(events)
    assert {u.card for u in rules(s).units.values() if u.owner == "P2"} >= {"musai", "dolos"}
    record = build_record(s.header, s.facts)
    assert verify_record(record).events == len(record.events)


def test_the_umpire_sees_both_seals_opened() -> None:
    """The first seal is opened by the correction, the second by the reveal."""
    s = _physical()
    digest = seal(fleet_content("P2", 1, FLEETS["P2"]), "salt-2").digest
    submit(s, "P2", {"type": "correct_fleet", **_shown(ILLEGAL), "digest": digest})
    reveal(s, "P2", FLEETS["P2"], "salt-2")
    ruleset = get_ruleset("ships")
    state = replay(s.header, [])
    items = []
    for fact in s.facts:
        event = decode(state, fact)
        if not isinstance(event, CommandIssued):
            items.append((fact.seq, ruleset.sealed_items(state.rules, event)))
        state = apply_fact(state, fact)
    index = match_sealed(items)
    p2 = [o for seq in index.commits for o in index.commits[seq] if o.label.startswith("P2")]
    assert len(p2) == 2 and all(o.revealed_at is not None for o in p2)
    assert "musai, dolos" in p2[0].text and p2[1].text != p2[0].text


def test_a_correction_needs_the_sealed_fleet_and_an_illegal_one() -> None:
    """Only the owner, in its reveal step, with the fleet that opens its seal, and only when
    that fleet breaks the placement rules; a new fleet given with its seal must be legal."""
    s = _physical()
    digest = seal(fleet_content("P2", 1, FLEETS["P2"]), "salt-2").digest
    order = {"type": "correct_fleet", **_shown(ILLEGAL), "digest": digest}
    err = _refused(s, "P1", order, "ST-1.9")
    assert isinstance(err, NotYourTurn)
    _refused(s, "P2", {**order, "salt": "wrong"}, "ST-1.9")
    bad_new = seal(fleet_content("P2", 1, ILLEGAL), "salt-3").digest
    shown_bad = {**order, "digest": bad_new, "new_fleet": ILLEGAL.model_dump(mode="json")}
    _refused(s, "P2", {**shown_bad, "new_salt": "salt-3"}, "ST-1.8")
    submit(s, "P2", order)  # the correction itself
    reveal(s, "P2", FLEETS["P2"], "salt-2")
    legal_again = {"type": "correct_fleet", **_shown(FLEETS["P1"]), "digest": digest}
    err = _refused(s, "P1", legal_again, "ST-1.9")
    assert isinstance(err, IllegalCommand) and "reveal it" in str(err)


def test_another_player_sees_the_shown_fleet_but_not_the_new_one() -> None:
    s = _physical()
    digest = seal(fleet_content("P2", 1, FLEETS["P2"]), "salt-2").digest
    order = {
        "type": "correct_fleet",
        **_shown(ILLEGAL),
        "digest": digest,
        "new_fleet": FLEETS["P2"].model_dump(mode="json"),
        "new_salt": "salt-2",
    }
    submit(s, "P2", order)
    ruleset = get_ruleset("ships")
    issued, corrected, committed = (decode(s.state, f) for f in s.facts[-3:])
    seen = ruleset.redact(issued, "P1")
    assert seen.command["new_fleet"] is None and seen.command["new_salt"] is None
    assert seen.command["fleet"] == ILLEGAL.model_dump(mode="json")
    assert ruleset.redact(committed, "P1").fleet is None
    assert ruleset.redact(committed, "P2").fleet == FLEETS["P2"]
    assert isinstance(corrected, ev.FleetCorrected)
