"""Iron & Oak: the Standard Damage Chart (IO-6.2) and the hit-location die, through real orders.

Virginia (CSA) and Cumberland (USA, wooden) share box (2, 2) of Hampton Roads; in CSA's gunnery
segment of turn 1 Virginia fires its Broadside (d10d6) at Cumberland, and the dice are rigged:
the yellow d8 (1: B, defence d6d4; 2-5: A, d8d4), the gun dice, then the defence dice. No
modifier applies to that fire, so CR and DR are the highest faces.

A game recorded with ruleset 1.0 is built as such a record's header is: version "1.0", the
options 1.0 knew, and the damage chart in 1.0's format (taken from a 1.0 record).
"""

from __future__ import annotations

from typing import Any

from domain.engine import Session, header_for
from domain.record import read_record_file
from tests.helpers import FIXTURES
from tests.test_iron_oak_turn import (
    GAME_ID,
    Rigged,
    events,
    play_until,
    scenario,
    submit,
)

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


# --------------------------------------------------------------------------- the d8 face


def test_io_6_2_the_hit_location_d8_face_is_recorded() -> None:
    """IO-6.2 (the yellow d8 picks the location): GunneryResolved records the face rolled, and
    the log line shows it."""
    s = broadside_game()
    resolved = broadside(s, 3, 4, 1, 2, 1)
    assert (resolved["face"], resolved["location"]) == (3, "A")
    line = s.state.ruleset.describe(s.state.ruleset.events.load(*_last(s, "GunneryResolved")))
    assert "hit A (d8 3)" in line


def test_io_6_2_a_1_0_game_still_records_face_0() -> None:
    """IO-6.2: games recorded with 1.0 recorded no d8 face (0); re-running them still does."""
    s = broadside_game("1.0")
    resolved = broadside(s, 3, 4, 1, 2, 1)
    assert (resolved["face"], resolved["location"]) == (0, "A")


def _last(s: Session, name: str) -> tuple[str, dict[str, Any]]:
    fact = next(f for f in reversed(s.facts) if f.topic.split(".", 1)[1].startswith(name + "/"))
    return fact.topic, fact.payload
