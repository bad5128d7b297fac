"""Issue 21 item 14: a ruler between two units in the ruleset's own measures — Morze's distance
against each gun's range (PL-4a), Iron & Oak's boxes and range bands (IO-6.1), Armada's arc,
range band and obstruction per hull zone (SWA-ATK 1, SWA-RNG) — and the plain distance on the
board for a ruleset without a ruler; only units the viewer may see."""

from __future__ import annotations

import re
from pathlib import Path

from domain.record import read_record_file
from viewer.ruler import measure
from viewer.timeline import Timeline

GAMES = Path("fixtures/games")
REPR = re.compile(r"\[\]|\{'|\['|\bNone\b|\bTrue\b|\bFalse\b")


def _timeline(ruleset: str, name: str = "") -> Timeline:
    path = next(p for p in sorted((GAMES / ruleset).glob("*.wake.json")) if p.name.startswith(name))
    record = read_record_file(path)
    return Timeline(record.header, record.events)


def _first_attack(tl: Timeline, kind: str) -> int:
    return next(s for s in range(1, tl.length + 1) if (i := tl.info(s)) and i.kind == kind)


def _shown(tl: Timeline, seq: int) -> int:
    return sum(1 for u in tl.view_at(seq).units if not u.private)


def test_morze_measures_against_each_guns_range() -> None:
    """PL-4a: a declared attack's target is within the firer's gun range by the ruler too."""
    tl = _timeline("morze", "river_plate")
    seq = _first_attack(tl, "AttackDeclared")
    fact = tl.facts[seq - 1].payload
    lines = measure(tl, seq, None, fact["attacker"], fact["target"])
    names = {u.id: u.name for u in tl.view_at(seq).units}
    assert lines[0].startswith(f"{names[fact['attacker']]} to {names[fact['target']]}: ")
    assert re.search(r"\d+\.\d cm", lines[0])
    within = f"{names[fact['target']]} is within {names[fact['attacker']]}'s gun range"
    assert any(line.startswith(within) and "[PL-4a]" in line for line in lines), lines


def test_iron_oak_gives_the_band_a_shot_was_fired_at() -> None:
    """IO-6.1: the ruler's band from firer to target is the band the recorded shot used."""
    tl = _timeline("iron_oak")
    seq = _first_attack(tl, "GunneryResolved")
    shot = tl.facts[seq - 1].payload
    lines = measure(tl, seq - 1, None, shot["firer"], shot["target"])
    band = shot["range"].replace("_", " ")
    assert any(f"would fire at {band} range [IO-6.1]" in line for line in lines), lines


def test_armada_reads_arc_range_and_obstruction() -> None:
    """SWA-ATK 1 / SWA-RNG: the declared attack's zone reads the declared range band."""
    tl = _timeline("armada", "core_learning-score")
    seq = _first_attack(tl, "AttackDeclared")
    declared = tl.facts[seq - 1].payload
    lines = measure(tl, seq, None, declared["attacker"], declared["defender"])
    zone = declared["zone"]
    where = f"'s {zone} arc: " if zone else ": "
    assert any(where in line and f"{declared['range']} range" in line for line in lines), lines
    assert all(not REPR.search(line) for line in lines)


def test_a_ruleset_without_a_ruler_and_hidden_units() -> None:
    """SHIPS has no distances: the ruler says so in words; a face-down card is not measurable
    from another seat's view."""
    tl = _timeline("ships")
    side = tl.first_view.sides[0].id
    seq = next(
        n
        for n in range(1, tl.length + 1)
        if any(u.private and u.side != side for u in tl.view_at(n).units)
    )
    view = tl.view_at(seq)
    hidden = next(u for u in view.units if u.private and u.side != side)
    mine = next(u for u in view.units if u.side == side)
    assert measure(tl, seq, side, hidden.id, mine.id) == ["Pick two units on the board."]
    later = next(n for n in range(seq, tl.length + 1) if _shown(tl, n) >= 2)
    shown = [u for u in tl.view_at(later).units if not u.private]
    lines = measure(tl, later, None, shown[0].id, shown[1].id)
    assert lines and not REPR.search(" ".join(lines)), lines
