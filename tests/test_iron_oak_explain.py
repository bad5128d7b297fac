"""Explaining Iron & Oak gunnery from a recorded game (issue 4's "done when"): both dice pools,
the hit location, every modifier with its rule ID, the damage-chart band and the exact odds."""

from __future__ import annotations

from fractions import Fraction

from domain.engine import replay
from domain.explain import explain_event, explanation_lines
from domain.record import read_record_file
from tests.helpers import FIXTURES

GAME = FIXTURES / "games/iron_oak/mobile_bay-fort-magazine.wake.json"


def test_io_6_2_every_gunnery_event_explains_pools_location_modifiers_band_and_odds() -> None:
    """IO-6.2, IO-6.2.1: each GunneryResolved of a recorded game is explained by its d8
    location roll and the opposed gunnery roll (gun dice vs the location's defence dice, each
    modifier with its rule and a summary), the band of the Standard Damage Chart in words and
    the exact odds of that band."""
    record = read_record_file(GAME, strict=True)
    facts = record.events
    gunnery = [i for i, f in enumerate(facts) if f.topic == "iron_oak.GunneryResolved/1"]
    assert len(gunnery) >= 10
    with_modifiers = 0
    for index in gunnery:
        fact = facts[index]
        ex = explain_event(replay(record.header, facts[:index]), facts, index)
        payload = fact.payload
        if payload["attack"] != "guns" or payload["target"].count("."):
            continue  # explosion attacks and fire at forts have no d8 / ship location
        location, contest = ex.rolls[-2], ex.rolls[-1]
        assert location.purpose.startswith("hit location") and location.rule in ("IO-6.2", "IO-9.1")
        assert payload["location"] in location.outcome
        assert [r.label for r in contest.rolls] == ["roll", "opposed by"]
        assert contest.rolls[0].total == payload["cr"] and contest.rolls[1].total == payload["dr"]
        for line in contest.rolls:
            for mod in line.modifiers:
                assert mod.rule.startswith("IO-") and mod.rule_summary
        with_modifiers += any(line.modifiers for line in contest.rolls)
        assert payload["band_text"] in ex.text
        odds = Fraction(payload["p_band"][payload["band"]])
        assert 0 < odds <= 1 and f"{odds.numerator}/{odds.denominator}" in ex.text
        assert ex.rule == "IO-6.2" and ex.rule_summary
        text = "\n".join(explanation_lines(ex))
        assert "strictly greater" in text
    assert with_modifiers > 0
