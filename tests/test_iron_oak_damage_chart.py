"""Iron & Oak: the Standard Damage Chart (IO-6.2) and the hit-location die, through real orders.

Virginia (CSA) and Cumberland (USA, wooden) share box (2, 2) of Hampton Roads; in CSA's gunnery
segment of turn 1 Virginia fires its Broadside (d10d6) at Cumberland, and the dice are rigged:
the yellow d8 (1: B, defence d6d4; 2-5: A, d8d4), the gun dice, then the defence dice. No
modifier applies to that fire, so CR and DR are the highest faces.

A game recorded with ruleset 1.0 is built as such a record's header is: version "1.0", the
options 1.0 knew, and the damage chart in 1.0's format (taken from a 1.0 record).
"""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest

from domain.engine import Session, header_for, replay
from domain.explain import explain_event
from domain.record import read_record_file
from domain.rulesets.iron_oak.data import resolve_data
from domain.rulesets.iron_oak.gunnery import read_chart
from domain.rulesets.iron_oak.options import ShieldLine
from domain.rulesets.iron_oak.tables import DamageChart
from tests.helpers import FIXTURES
from tests.test_iron_oak_turn import (
    GAME_ID,
    Rigged,
    doctor,
    events,
    play_until,
    scenario,
    submit,
)
from viewer.timeline import Timeline

LEGACY_RECORD = FIXTURES / "legacy" / "iron_oak-1.0" / "hampton_roads-magazine.wake.json"


def broadside_game(version: str = "1.1", **options: Any) -> Session:
    """Virginia and Cumberland in box (2, 2), Monitor out of the way; ``version`` "1.0" makes
    it a game recorded with 1.0."""
    scen = scenario(at={"virginia": (2, 2), "cumberland": (2, 2), "monitor": (4, 4)})
    header = header_for("iron_oak", scen, game_id=GAME_ID, seed=7, options=options)
    if version == "1.0":
        old = read_record_file(LEGACY_RECORD, strict=True).header
        data = {**header.scenario["data"], "tables": old.scenario["data"]["tables"]}
        header = header.model_copy(
            update={
                "ruleset": header.ruleset.model_copy(update={"version": "1.0"}),
                "options": dict(old.options),
                "scenario": {**header.scenario, "data": data},
            }
        )
    return Session(header)


def broadside(s: Session, *faces: int) -> dict[str, Any]:
    """Virginia's Broadside at Cumberland with ``faces`` (d8, d10, d6, defence dice): the
    GunneryResolved payload."""
    play_until(s, "gunnery", "CSA")
    fire = {"firer": "virginia", "section": 1, "target": "cumberland"}
    submit(s, "CSA", {"type": "declare_fire", "fires": [fire]})
    new = submit(s, "USA", {"type": "respond_fire"}, Rigged(s, *faces))
    [resolved] = events(new, "GunneryResolved")
    return resolved


def last_fire(s: Session) -> int:
    """The index of the game's last GunneryResolved fact."""
    return max(i for i, f in enumerate(s.facts) if f.topic.startswith("iron_oak.GunneryResolved/"))


def log_line(s: Session, index: int) -> str:
    """The move list's line of fact ``index`` (units by name, issue 21 item 7)."""
    return Timeline(s.header, s.facts).text(index + 1, None)


# --------------------------------------------------------------------------- the d8 face


def test_io_6_2_the_hit_location_d8_face_is_recorded() -> None:
    """IO-6.2 (the yellow d8 picks the location): GunneryResolved records the face rolled, and
    the log line shows it."""
    s = broadside_game()
    resolved = broadside(s, 3, 4, 1, 2, 1)
    assert (resolved["face"], resolved["location"]) == (3, "A")
    assert "hit A (d8 3)" in log_line(s, last_fire(s))


def test_io_6_2_a_1_0_game_still_records_face_0() -> None:
    """IO-6.2: games recorded with 1.0 recorded no d8 face (0); re-running them still does."""
    s = broadside_game("1.0")
    resolved = broadside(s, 3, 4, 1, 2, 1)
    assert (resolved["face"], resolved["location"]) == (0, "A")


# --------------------------------------------------------------------------- IO-6.2 the chart


def test_io_6_2_double_band_undamaged_location_takes_2_hits_and_shield_minus_2() -> None:
    """IO-6.2, 2·DR ≤ CR < 3·DR, last line 「シールド被害を-2増やし、2ヒット」 (shield damage −2
    and 2 hits): CR 6 vs DR 3 on Cumberland's undamaged (wooden) bow meets none of the band's
    rows, so the last line applies: 2 hits and shield −2 (1.0 gave 0 hits)."""
    s = broadside_game()
    resolved = broadside(s, 1, 6, 1, 3, 1)
    assert (resolved["location"], resolved["cr"], resolved["dr"]) == ("B", 6, 3)
    assert resolved["band"] == "double"
    assert (resolved["hits"], resolved["shield_before"], resolved["shield_after"]) == (2, 0, -2)
    cumberland = s.state.rules.ships["cumberland"]
    assert (cumberland.hits, cumberland.shield("B")) == (2, -2)


def test_io_6_2_double_band_damaged_wood_takes_the_rows_hits_and_keeps_its_shield() -> None:
    """IO-6.2, 2·DR band, row 「木部でシールド被害あり:2ヒット」 (wood with shield damage: 2
    hits): a row applies, so the last line (shield −2) does not (literal reading)."""
    s = broadside_game()
    doctor(s, "cumberland", shields={"B": -1})
    resolved = broadside(s, 1, 5, 1, 3, 1)  # DR 3 − 1 = 2, CR 5
    assert (resolved["band"], resolved["hits"], resolved["shield_after"]) == ("double", 2, -1)


def test_io_6_2_over_band_no_shield_damage_is_no_effect() -> None:
    """IO-6.2, DR < CR < 2·DR, row 「シールド被害がない:効果なし」 (no shield damage: no effect):
    the undamaged bow takes neither hits nor the band's −1 shield step (literal reading)."""
    s = broadside_game()
    resolved = broadside(s, 1, 5, 1, 3, 1)
    assert (resolved["band"], resolved["hits"], resolved["shield_after"]) == ("over", 0, 0)


@pytest.mark.parametrize(
    ("faces", "band", "hits", "after"),
    [((1, 6, 1, 3, 1), "double", 0, -2), ((1, 5, 1, 3, 1), "over", 0, -1)],
    ids=["double", "over"],
)
def test_io_6_2_shield_line_always_steps_every_hit_and_takes_hits_from_rows(
    faces: tuple[int, ...], band: str, hits: int, after: int
) -> None:
    """IO-6.2 option ``shield_line=always`` (the other reading, 1.0's): the band's shield step
    applies in every case and an undamaged location, which no row names, takes no hits."""
    s = broadside_game(shield_line="always")
    resolved = broadside(s, *faces)
    assert (resolved["band"], resolved["hits"], resolved["shield_after"]) == (band, hits, after)


def test_io_6_2_a_1_0_game_keeps_1_0s_chart() -> None:
    """IO-6.2: a game recorded with 1.0 (its chart in 1.0's format, no ``shield_line`` in its
    options) still reads the 2·DR band as 1.0 did: an undamaged location takes −2 and no hits,
    and the band is recorded without the row."""
    s = broadside_game("1.0")
    assert s.state.rules.options.shield_line == "always"
    resolved = broadside(s, 1, 6, 1, 3, 1)
    assert (resolved["band"], resolved["hits"], resolved["shield_after"]) == ("double", 0, -2)
    assert resolved["band_text"] == "2·DR ≤ CR < 3·DR"


def test_io_6_2_the_log_and_explanation_show_the_row_read() -> None:
    """IO-6.2: the log line and the explanation of a fire name the chart row that was read."""
    s = broadside_game()
    broadside(s, 1, 6, 1, 3, 1)
    index = last_fire(s)
    explained = explain_event(replay(s.header, s.facts[:index]), s.facts, index)
    row = 'wood, shield 0: no row applies, so the last line "shield damage -2, 2 hits"'
    assert explained.text == log_line(s, index)
    assert "hit B (d8 1), CR 6 vs DR 3 → 2·DR ≤ CR < 3·DR [" + row + "], 2 hits" in explained.text


# --------------------------------------------------------------------------- the chart as data

CHART = resolve_data().tables.damage_chart


@pytest.mark.parametrize(
    ("band", "armoured", "shield", "otherwise", "always"),
    [
        # band, armour?, shield → (hits, shield step) literal / always
        ("over", False, 0, (0, 0), (0, -1)),  # no shield damage: no effect
        ("over", False, -1, (1, 0), (1, -1)),  # wood with shield damage: 1 hit
        ("over", True, -1, (0, -1), (0, -1)),  # armour at −1: no row, the last line
        ("over", True, -2, (1, 0), (1, -1)),  # armour −2 or worse: 1 hit
        ("double", False, 0, (2, -2), (0, -2)),
        ("double", False, -3, (2, 0), (2, -2)),
        ("double", True, 0, (2, -2), (0, -2)),
        ("double", True, -1, (2, -2), (0, -2)),
        ("double", True, -4, (2, 0), (2, -2)),
        ("no_effect", True, -2, (0, 0), (0, 0)),
    ],
)
def test_io_6_2_every_row_of_the_bundled_chart(
    band: str,
    armoured: bool,
    shield: int,
    otherwise: tuple[int, int],
    always: tuple[int, int],
) -> None:
    """IO-6.2: the bands' rows, first match first, and the last line under both readings of
    ``shield_line``."""
    readings: list[tuple[ShieldLine, tuple[int, int]]] = [
        ("otherwise", otherwise),
        ("always", always),
    ]
    for how, expected in readings:
        hits, step, _ = read_chart(CHART, band, armoured=armoured, shield=shield, shield_line=how)
        assert (hits, step) == expected, how


def test_io_6_2_a_1_0_chart_loads_and_reads_as_1_0_did() -> None:
    """IO-6.2: the damage chart format of 1.0 (hits per wood/armour, damaged/undamaged, one
    shield step a band), embedded in 1.0 records, loads into rows and under ``always`` gives
    1.0's hits and shields for every band and location state."""
    old = read_record_file(LEGACY_RECORD, strict=True).header.scenario["data"]["tables"]
    old_chart = old["damage_chart"]
    chart = DamageChart.model_validate(old_chart)
    for band, armoured, shield in product(
        ("no_effect", "over", "double", "critical"), (False, True), range(0, -5, -1)
    ):
        cells = old_chart[band]
        material = "armour" if armoured else "wood"
        damaged = shield <= old_chart["armour_damaged_at"] if armoured else shield < 0
        expected = (
            cells[f"{material}_{'damaged' if damaged else 'undamaged'}"],
            cells["shield_step"],
        )
        hits, step, _ = read_chart(
            chart, band, armoured=armoured, shield=shield, shield_line="always"
        )
        assert (hits, step) == expected, (band, material, shield)
