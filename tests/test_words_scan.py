"""Issue 21 item 7: no Python reprs, digests or internal unit ids in any text the viewer shows,
for every event of every bundled game, in the umpire's view and in each side's
(``tests/words_scan.py`` says what is read and what is refused)."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.engine import header_for, new_game
from domain.record import read_record_file
from domain.scribe.start import bundled_scenarios
from tests.helpers import RECORDS
from tests.words_scan import game_views, id_like_name, problems, scan_game
from viewer.timeline import Timeline

BOARD_TRACES_JS = Path(__file__).resolve().parents[1] / "viewer/scrubber/static/board-traces.js"


def test_the_scan_finds_what_it_looks_for() -> None:
    assert problems("P2 hits P1-b1-V1: cards []", {"P1-b1-V1": "Andromeda (P1)"}) == [
        "empty list []",
        "unit id P1-b1-V1 (named Andromeda (P1))",
    ]
    assert problems("VP {'P1': 57}; location None; activated False", {}) == [
        "dict repr {'",
        "None",
        "False",
    ]
    assert problems("dials victory " + "ab" * 32, {}) == ["hex digest"]
    assert problems("wake.DiceRolled/1 · automatic", {}) == ["event topic"]
    assert problems("dice roll · automatic; see rules/PL-4.md or 1.5/2", {}) == []
    assert problems("activate squadron: move to 353.474, 355.403", {}) == [
        "float with 3+ decimals"
    ]
    assert problems("moves 245.5 mm to (353, 355); 10.00/10 cm; version 1.0.2", {}) == []
    # an id inside a longer id or a word is not the unit
    assert problems("tie_10 and victory_points", {"tie_1": "TIE", "victory": "V"}) == []
    assert problems("Andromeda (P1) hits Gwazine (P2)", {"P1-b1-V1": "Andromeda"}) == []


def test_an_id_for_a_name_is_found() -> None:
    assert id_like_name("merchant_01", "merchant_01")
    assert id_like_name("tb1", "tb1")
    assert id_like_name("s_1", "s1")  # a code, not the id
    assert id_like_name("hood", "hood")
    assert id_like_name("HMS Hood", "HMS Hood")  # the id itself, however written
    assert not id_like_name("merchant_01", "SS Empire Heron")
    assert not id_like_name("u_1", "U-47")
    assert not id_like_name("nurnberg", "Nürnberg")
    assert not id_like_name("fort_morgan.water_battery", "Fort Morgan: Water battery")


def test_every_bundled_scenario_names_its_units_as_players_do() -> None:
    """Issue 21 item 7: every unit of every scenario a ruleset ships has a display name a
    player says ("SS Empire Heron", "U-47", "S-38"), not its id or an id-like code
    (``merchant_01``, ``s1``): the scans above cannot tell a name equal to its id from a name.
    The units are read from each ruleset's read model at the start of a game (SHIPS' fleets are
    built from its cards during setup, so its scenarios place none)."""
    found: list[str] = []
    checked: set[str] = set()
    for scenario in bundled_scenarios():
        header = header_for(
            scenario.ruleset,
            scenario.data,
            game_id="00000000-0000-4000-8000-000000000000",
            seed=1,
        )
        state = new_game(header)
        for unit in state.ruleset.read_model(state.rules).units:
            checked.add(scenario.ruleset)
            if id_like_name(unit.id, unit.name):
                found.append(f"{scenario.ruleset}/{scenario.name}: {unit.id} named {unit.name!r}")
    assert checked >= {"morze", "iron_oak", "armada"}
    assert not found, f"{len(found)} units named by an id, e.g. " + "; ".join(found[:10])


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_text_of_every_bundled_game_is_in_players_words(path: Path) -> None:
    record = read_record_file(path)
    tl = Timeline(record.header, record.events)
    viewers: list[str | None] = [None]
    if tl.ruleset.meta.hidden_information:
        viewers += [side.id for side in record.header.sides]
    found: list[tuple[str, str, str]] = []
    texts = 0
    views = game_views(tl)
    for viewer in viewers:
        scan = scan_game(path, viewer, tl, views)
        texts += scan.texts
        found += scan.problems
    assert texts > tl.length * len(viewers)  # every event read, in every view
    shown = "\n".join(f"{where}: {what}: {text}" for where, what, text in found[:15])
    assert not found, f"{len(found)} texts in Python's words, e.g.\n{shown}"


def test_the_board_hover_names_a_unit_without_its_id() -> None:
    """The in-browser board's hover (the scrubber's ``board-traces.js``) shows the unit's name,
    not its id."""
    source = BOARD_TRACES_JS.read_text(encoding="utf-8")
    hover = source[source.index("function hover(") :]
    hover = hover[: hover.index("\n  }\n")]
    assert "u.id" not in hover
