"""Issue 13, the explain panel: hovering a roll, a comparison or an event line tells what its
dice notation, floors, target numbers and rule terms mean (the element's ``help=`` tooltip),
while the explanation itself stays plain or escaped text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from domain.glossary import Term
from domain.record import read_record_file
from domain.store import GameStore
from tests.helpers import FIXTURES
from viewer.glossary import TOOLTIP_TERMS, tooltip

APP = str(Path(__file__).resolve().parents[1] / "viewer" / "app.py")
GAMES = {
    "morze": FIXTURES / "games/morze/river_plate-annihilation.wake.json",
    "iron_oak": FIXTURES / "games/iron_oak/hampton_roads-alternating.wake.json",
    "ships": FIXTURES / "games/ships/multi2-duel.wake.json",
}


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("glossary") / "w.sqlite3")
    store = GameStore(path)
    for record_path in GAMES.values():
        rec = read_record_file(record_path)
        store.import_game(rec.header, rec.events)
    return path


def _open(store_path: str, monkeypatch: pytest.MonkeyPatch, game: str, event: int) -> AppTest:
    monkeypatch.setenv("WAKE_STORE", store_path)
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["game"] = read_record_file(GAMES[game]).header.game_id
    at.query_params["event"] = str(event)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _plain(markdown: str) -> str:
    """Escaped Markdown as read (``\\-`` is a literal ``-``)."""
    return re.sub(r"\\(.)", r"\1", markdown).replace("\u2060", "")


def _help_of(at: AppTest, contains: str) -> str:
    """The tooltip of the first text or Markdown element whose text has ``contains``."""
    for element in [*at.text, *at.markdown]:
        if contains in _plain(element.value):
            return _plain(element.proto.help)
    raise AssertionError(f"no element shows {contains!r}")


def _seq(game: str, topic: str, **payload: object) -> int:
    events = read_record_file(GAMES[game]).events
    return next(
        f.seq
        for f in events
        if f.topic == topic and all(f.payload.get(k) == v for k, v in payload.items())
    )


def test_a_gunnery_roll_says_what_its_pool_and_floor_mean(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """IO-1.6.1 (the highest die of a pool), IO-6.2.1 (a floor of 1 is a minimum, not
    rounding), IO-1.6.1.A/B (ties fail), in the tooltips of the roll and its comparison."""
    at = _open(
        store_path,
        monkeypatch,
        "iron_oak",
        _seq("iron_oak", "wake.DiceRolled/1", purpose="gunnery"),
    )
    roll = _help_of(at, "floor 1")
    assert "keep only the highest face" in roll and "IO-1.6.1" in roll
    assert "**floor 1** — a minimum, not rounding" in roll and "IO-6.2.1" in roll
    comparison = _help_of(at, "Comparison:")
    assert "equal totals fail" in comparison and "IO-1.6.1.A/B" in comparison


def test_a_to_hit_roll_says_what_its_target_number_means(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PL-4b: "needs at least 4 (4+)" is a target number on one d10."""
    at = _open(
        store_path, monkeypatch, "morze", _seq("morze", "wake.DiceRolled/1", purpose="to hit")
    )
    comparison = _help_of(at, "needs at least")
    assert re.search(r"\*\*\d+\+\*\* — a target number", comparison) and "PL-4b" in comparison
    assert "faces 1–10" in _help_of(at, "rolls d10")


def test_an_attack_declaration_says_where_its_target_stands(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ST-2.2: the range is the segment (event line); ST-0: the target's box (the note)."""
    at = _open(store_path, monkeypatch, "ships", _seq("ships", "ships.AttackDeclared/1"))
    assert "ST-2.2" in _help_of(at, " range")
    note = _help_of(at, "stands in")
    assert "**vanguard**" in note or "**rearguard**" in note


def test_an_element_without_terms_has_no_tooltip(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _open(store_path, monkeypatch, "morze", 1)
    event_line = next(m for m in at.markdown if m.value.startswith("**Event "))
    assert event_line.proto.help == ""


def test_tooltips_escape_what_they_quote() -> None:
    """The record's text never becomes markup, in a tooltip either: a term as written and its
    meaning are escaped (a link stays text); a long list is cut."""
    help_text = tooltip([Term("[x](https://e.example)", "k", "*bold* <b>x</b>")])
    assert help_text is not None
    assert "](" not in help_text and "<b>" not in help_text and "\\*bold\\*" in help_text
    many = tooltip([Term(f"d{n}", "dN", "a die") for n in range(2, 4 + TOOLTIP_TERMS)])
    assert many is not None and many.count("**") == 2 * TOOLTIP_TERMS and "2 more" in many
    assert tooltip([]) is None
