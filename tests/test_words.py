"""Issue 22 item 17: text a person reads writes a possessive as English does and names units
without Python reprs: "rebels' turn", never "rebels's turn"; "graf_spee's range", never
"'graf_spee''s". The log lines of every bundled game and the refusals that name a side or a unit
are scanned."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from domain.engine import CommandEnvelope, Session, apply_fact, decode, header_for, replay
from domain.errors import WakeError
from domain.events import CommandIssued
from domain.record import read_record_file
from domain.words import possessive
from tests.helpers import FIXTURES, RECORDS

BAD = re.compile(r"\b\w*s's\b|'\w+''s|\w''s")
"""A possessive 's after a word ending in s, or after a quoted repr."""
QUOTED_ID = re.compile(r"'[a-z0-9_]+'")
"""A unit or side id in quotes: a Python repr in a sentence."""


def test_possessive() -> None:
    assert possessive("rebels") == "rebels'"
    assert possessive("graf_spee") == "graf_spee's"
    assert possessive("Rebel Alliance") == "Rebel Alliance's"


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_every_log_line_of_a_bundled_game_writes_possessives_right(path: Path) -> None:
    record = read_record_file(path)
    state = replay(record.header, [])
    ruleset = state.ruleset
    bad: list[str] = []
    for fact in record.events:
        event = decode(state, fact)
        texts = [ruleset.describe(event)]
        if isinstance(event, CommandIssued):
            texts.append(ruleset.describe_order(event.command))
        bad += [t for t in texts if BAD.search(t)]
        state = apply_fact(state, fact)
    assert not bad, bad[:5]


def _refusal(session: Session, side: str | None, order: dict[str, Any]) -> str:
    with pytest.raises(WakeError) as info:
        session.submit(CommandEnvelope(side=side, command=order))
    return str(info.value)


def test_morze_refusals_name_units_as_words() -> None:
    """PL-2 / PL-4a: a move beyond a unit's speed and a target beyond its range name the unit
    without quotes: "graf_spee's range", not "'graf_spee''s range"."""
    import json

    scenario = json.loads((FIXTURES / "scenarios/morze/river_plate.json").read_text("utf-8"))
    session = Session(header_for("morze", scenario, game_id="w", seed=1))
    for _ in range(40):  # the bots play on to the first declaration
        rules = session.state.rules
        if rules.phase == "declaration":
            break
        session.submit_bot()
    rules = session.state.rules
    side = rules.active
    mine = next(u for u in rules.units.values() if u.side == side and not u.destroyed)
    enemy = next(u for u in rules.units.values() if u.side != side and not u.destroyed)
    far = {"type": "declare_attack", "attacker": mine.id, "target": enemy.id}
    texts = []
    if (mine.x - enemy.x) ** 2 + (mine.y - enemy.y) ** 2 > rules.unit_class(mine).range ** 2:
        texts.append(_refusal(session, side, far))
    texts.append(_refusal(session, side, {"type": "move", "unit": mine.id, "x": 0.0, "y": 0.0}))
    other = next(s for s in ("kriegsmarine", "royal_navy") if s != side)
    texts.append(_refusal(session, other, {"type": "end_declarations"}))
    for text in texts:
        assert not BAD.search(text) and not QUOTED_ID.search(text), text


def test_an_armada_refusal_names_the_side_whose_decision_it_is() -> None:
    """SWA-2: "it is Rebel Alliance's decision, not Galactic Empire's" (sides by name, issue
    21)."""
    import json

    scenario = json.loads((FIXTURES / "scenarios/armada/core_learning.json").read_text("utf-8"))
    session = Session(header_for("armada", scenario, game_id="w", seed=1))
    while session.state.rules.phase == "command":
        session.submit_bot()
    text = _refusal(session, "empire", {"type": "pass_turn"})
    assert "Rebel Alliance's decision" in text and not BAD.search(text), text
