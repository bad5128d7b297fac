"""Reach rings in the read models (issue 13: range and movement rings for a selected unit), over
every position of bundled games: what each ruleset says a unit reaches, and the rule it cites.
The browser tests (tests/browser/test_board_browser.py) check how the viewer draws them."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.read_model import GameView, RingView
from domain.record import read_record_file
from domain.rulesets.armada.data import bundled_geometry
from tests.helpers import FIXTURES
from viewer.timeline import Timeline

GAMES = FIXTURES / "games"


def _views(path: Path, every: int = 7) -> list[GameView]:
    rec = read_record_file(path)
    tl = Timeline(rec.header, rec.events)
    return [tl.view_at(seq) for seq in range(0, tl.length + 1, every)]


def _rings(ring: list[RingView], kind: str) -> list[tuple[str, float, bool, str]]:
    return [(r.label, r.distance, r.from_edge, r.rule) for r in ring if r.kind == kind]


def test_morze_units_reach_their_speed_pl_2_and_gun_range_pl_4_from_the_centre() -> None:
    for view in _views(GAMES / "morze" / "river_plate-annihilation.wake.json"):
        for unit in view.units:
            if unit.status != "active":
                assert unit.rings == [], unit.id  # a destroyed unit reaches nothing
                continue
            speed, reach = unit.details["speed_cm"], unit.details["range_cm"]
            assert isinstance(speed, (int, float)) and isinstance(reach, (int, float))
            assert [(r.distance, r.from_edge, r.rule) for r in unit.rings if r.kind == "move"] == (
                [(speed, False, "PL-2")] if speed > 0 else []
            )
            assert [(r.distance, r.rule) for r in unit.rings if r.kind == "range"] == (
                [(reach, "PL-4")] if reach > 0 else []
            )


@pytest.mark.parametrize(
    "name", ["mobile_bay-fort-magazine", "hampton_roads-magazine", "mobile_bay-mines-grounding"]
)
def test_iron_oak_ranges_io_6_1_and_maneuvers_io_5_1_5_and_5_1_6_in_boxes(name: str) -> None:
    """Short / Medium / Long at 0 / 1 / 2 GB for every ship afloat on the map and every fort
    section standing; Maneuver 1 and 2 only for a powered ship that is not anchored, aground,
    fouled or captured."""
    seen_free = False
    for view in _views(GAMES / "iron_oak" / f"{name}.wake.json"):
        for unit in view.units:
            ranges = [(r.distance, r.rule) for r in unit.rings if r.kind == "range"]
            moves = [(r.distance, r.rule) for r in unit.rings if r.kind == "move"]
            if unit.cell is None or unit.status in ("sunk", "destroyed", "exited", "struck"):
                assert unit.rings == [], (unit.id, unit.status)
                continue
            assert ranges == [(0, "IO-6.1"), (1, "IO-6.1"), (2, "IO-6.1")], unit.id
            d = unit.details
            stuck = bool(
                d.get("anchored") or d.get("aground") or d.get("fouled_with")
                or d.get("captured_by") or d.get("unpowered")
            )  # fmt: skip
            if unit.kind == "fort" or stuck:
                assert moves == [], (unit.id, d)
            else:
                assert moves == [(1, "IO-5.1.5"), (2, "IO-5.1.6")], unit.id
                seen_free = True
    assert seen_free


def test_armada_ships_show_the_range_bands_swa_rng_and_squadrons_swa_3_1_to_3_3() -> None:
    """Ships: close / medium / long from the base. Squadrons: attack at distance 1 (SWA-3.2),
    move to the band of their speed (SWA-3.1), not at all while engaged (SWA-3.3)."""
    geometry = bundled_geometry()
    bands = geometry.range_bands
    distances = geometry.distance_bands
    engaged = free = 0
    for path in sorted((GAMES / "armada").glob("core_learning-*.wake.json")):
        for view in _views(path, every=11):
            for unit in view.units:
                if unit.status != "active":
                    assert unit.rings == [], unit.id
                    continue
                if unit.kind == "ship":
                    assert [(r.distance, r.from_edge, r.rule) for r in unit.rings] == [
                        (bands.close, True, "SWA-RNG"),
                        (bands.medium, True, "SWA-RNG"),
                        (bands.long, True, "SWA-RNG"),
                    ]
                    continue
                speed = unit.details["speed"]
                assert isinstance(speed, int)
                assert [(r.distance, r.rule) for r in unit.rings if r.kind == "range"] == [
                    (distances[0], "SWA-3.2")
                ]
                moves = [(r.distance, r.rule) for r in unit.rings if r.kind == "move"]
                if unit.details["engaged_with"]:
                    engaged += 1
                    assert moves == [], unit.id
                else:
                    free += 1
                    assert moves == [(distances[speed - 1], "SWA-3.1")], unit.id
    assert engaged and free, "the games have engaged and free squadrons"


def test_ships_and_tactics_zones_have_no_rings() -> None:
    """A zones board has no distances to draw (ST: ranges are segments, not measures)."""
    for view in _views(GAMES / "ships" / "multi4-line_weapon.wake.json", every=13):
        assert all(u.rings == [] for u in view.units)
