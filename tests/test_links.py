"""Issue 21 item 4: every attack is drawn from the attacker to every target, labelled with the
range and the result (Morze PL-4 fire, Iron & Oak IO-6.2 gunnery, Armada SWA-ATK 1, SHIPS ST-3.1
line weapons hitting up to three vanguards)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from domain.links import Link, links_of
from domain.record import read_record_file
from viewer.scrubber.payload import build_payload
from viewer.timeline import Timeline

GAMES = Path("fixtures/games")


def test_a_line_weapon_draws_a_line_to_each_vanguard_it_hits() -> None:
    """ST-3.1: a line centred on a player hits the vanguards of it and its two neighbours."""
    declared = {
        "player": "P1",
        "ship": "P1-b1-V1",
        "line": True,
        "segment": "long",
        "targets": ["P2-b1-V1", "P3-b1-V1", "P4-b1-V1"],
    }
    assert links_of(declared) == [
        Link("P1-b1-V1", t, "long range") for t in ("P2-b1-V1", "P3-b1-V1", "P4-b1-V1")
    ]


def test_labels_say_range_and_result_in_players_words() -> None:
    """PL-4 (Morze: measured distance against the gun's range), SWA-ATK 1 (a band, obstructed),
    IO-6.2 (a band and the hits)."""
    morze = {"attacker": "graf_spee", "target": "ajax", "distance": 22.4961, "range": 25}
    assert links_of(morze) == [Link("graf_spee", "ajax", "distance 22.5 (gun range 25)")]
    resolved = {"attacker": "graf_spee", "target": "ajax", "hit": True, "damage": 2}
    assert links_of(resolved)[0].label == "hit, 2 damage"
    armada = {"attacker": "victory", "defender": "cr90", "range": "long", "distance": 5}
    armada |= {"obstructed": True}
    assert links_of(armada)[0].label == "long range, distance band 5, obstructed"
    iron = {"firer": "monitor", "target": "virginia", "range": "medium", "hits": 1}
    assert links_of(iron)[0].label == "medium range; 1 damage"


def test_no_line_without_a_target_or_to_itself() -> None:
    assert links_of({"ship": "virginia", "target": None}) == []
    assert links_of({"unit": "cumberland", "hits": 2}) == []
    assert links_of({"ship": "a", "target": "a"}) == []


def test_every_bundled_ruleset_draws_its_attacks() -> None:
    """Over the bundled games: each ruleset's attack events carry lines in the scrubber's
    payload, and a SHIPS declaration draws one line per target."""
    per_ruleset: Counter[str] = Counter()
    for ruleset in ("morze", "iron_oak", "armada", "ships"):
        path = sorted((GAMES / ruleset).glob("*.wake.json"))[0]
        record = read_record_file(path)
        payload = build_payload(Timeline(record.header, record.events), None)
        for fact, event in zip(record.events, payload["events"], strict=True):
            lines = event[4] or []
            per_ruleset[ruleset] += len(lines)
            if fact.topic == "ships.AttackDeclared/1":
                assert len(lines) == len(fact.payload["targets"])
            for source, target, _label in lines:
                assert source != target
    assert all(per_ruleset[r] > 0 for r in ("morze", "iron_oak", "armada", "ships")), per_ruleset
