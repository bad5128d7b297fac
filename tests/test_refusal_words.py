"""Issue 21 (leftovers, item 2): a refused order names units and sides as players do, in every
ruleset: "HMS Exeter's speed", "Victory I-class Star Destroyer is activating, not CR90 Corvette
B", never "exeter's speed" or "victory is activating, not cr90". The rule ID of the refusal is
kept as it was."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from domain.engine import CommandEnvelope, Session, execute, header_for, named_refusal, replay
from domain.errors import IllegalCommand, WakeError, WrongSide
from domain.read_model import GameView, redact_view
from domain.record import read_record_file
from domain.words import Names, possessive
from tests.helpers import FIXTURES
from tests.words_scan import id_pattern

GAMES = [
    "games/morze/convoy_battle-large.wake.json",
    "games/armada/core_learning-score.wake.json",
    "games/iron_oak/mobile_bay-fire5.wake.json",
    "games/ships/multi4-line_weapon.wake.json",
]
CUTS = 6
"""Positions of each game at which orders are tried."""


def _refusals(path: Path) -> list[tuple[str, WakeError, dict[str, str]]]:
    """Orders refused at a few positions of the game at ``path``: each legal order with the unit
    or side it names swapped for another unit or side of the game, given by every side."""
    record = read_record_file(path)
    facts = record.events
    found: list[tuple[str, WakeError, dict[str, str]]] = []
    seen: set[str] = set()
    for cut in range(0, len(facts), max(1, len(facts) // CUTS)):
        state = replay(record.header, facts[:cut])
        if state.result is not None:
            continue
        ruleset = state.ruleset
        view = ruleset.read_model(state.rules)
        named = _named(view)
        sides = [s.id for s in record.header.sides]
        for side in sides:
            for legal in list(ruleset.legal_commands(state.rules, side))[:8]:
                order: dict[str, Any] = legal.model_dump(mode="json")
                tried = [order] + [
                    {**order, key: other}
                    for key, value in order.items()
                    if isinstance(value, str) and value in named
                    for other in list(named)[:10]
                ]
                for command in tried:
                    for who in sides[:2]:
                        try:
                            execute(state, CommandEnvelope(side=who, command=command))
                        except WakeError as exc:
                            shape = re.sub(r"\d+", "#", exc.message)
                            if shape not in seen:
                                seen.add(shape)
                                # what the side refused may know: not another's hidden card
                                found.append((who, exc, _named(redact_view(view, who))))
    return found


def _named(view: GameView) -> dict[str, str]:
    named = {u.id: u.name for u in view.units if u.name not in ("", "hidden", u.id)}
    named.update({s.id: s.name for s in view.sides if s.id.islower() and s.id != s.name})
    return named


def _ids_left(text: str, named: dict[str, str]) -> list[str]:
    """The ids of ``named`` written in ``text`` as ids (display names themselves left out: the
    side ``escort`` is inside "Convoy escort")."""
    for name in sorted(set(named.values()), key=len, reverse=True):
        text = text.replace(name, "")
    return [i for i in named if i in text and id_pattern(i).search(text)]


def test_the_morze_speed_refusal_names_the_unit() -> None:
    """PL-2 (rules.py's check_move): a move beyond a unit's speed names the unit, as "HMS
    Exeter's speed", not "exeter's speed"; the rule stays PL-2."""
    scenario = json.loads((FIXTURES / "scenarios/morze/river_plate.json").read_text("utf-8"))
    session = Session(header_for("morze", scenario, game_id="w", seed=1))
    for _ in range(40):
        if session.state.rules.phase == "movement":
            break
        session.submit_bot()
    rules = session.state.rules
    side = rules.active
    assert side is not None
    unit = next(u for u in rules.units.values() if u.side == side)
    enemy = next(u for u in rules.units.values() if u.side != side)
    too_far = {"type": "move", "unit": unit.id, "x": 0.0, "y": 0.0}
    with pytest.raises(IllegalCommand) as far:
        session.submit(CommandEnvelope(side=side, command=too_far))
    assert far.value.rule == "PL-2"
    assert f"than {possessive(unit.name)} speed of" in far.value.message
    assert not id_pattern(unit.id).search(far.value.message)
    theirs_order = {"type": "move", "unit": enemy.id, "x": enemy.x, "y": enemy.y}
    with pytest.raises(WrongSide) as theirs:
        session.submit(CommandEnvelope(side=side, command=theirs_order))
    sides = {s["id"]: s["name"] for s in scenario["sides"]}
    assert theirs.value.rule == "PL-2"
    assert theirs.value.message == (
        f"{enemy.name} belongs to {sides[enemy.side]}, not {sides[side]}"
    )


def test_a_named_refusal_keeps_its_class_and_rule() -> None:
    """Issue 21: naming rewrites the message only; a typo (an unknown id) stays as typed."""
    record = read_record_file(FIXTURES / GAMES[1])
    state = replay(record.header, [])
    error = IllegalCommand("victory is activating, not cr90; no ship 'tie_99'", rule="SWA-2.3")
    named = named_refusal(state, error, "empire")
    assert type(named) is IllegalCommand and named.rule == "SWA-2.3" and named.code == "illegal"
    assert str(named) == (
        "[SWA-2.3] Victory II-class Star Destroyer is activating, not CR90 Corvette A; no ship "
        "'tie_99'"
    )
    assert Names({"escort": "Convoy escort"}).ids("Convoy escort is to move; 'escort'") == (
        "Convoy escort is to move; 'Convoy escort'"
    )


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.split("/")[1])
def test_refusals_in_every_ruleset_name_units_and_sides(game: str) -> None:
    """Issue 21 (leftovers, item 2): orders refused at positions of a bundled game of each
    ruleset (another side's unit, a unit not activating, a target out of reach ...) write no
    unit or side by its id where it has a name; each refusal with a rule keeps it."""
    refusals = _refusals(FIXTURES / game)
    assert len(refusals) >= 3, [str(e) for _, e, _ in refusals]
    bad = [f"{who}: {exc}" for who, exc, named in refusals if _ids_left(exc.message, named)]
    assert not bad, bad[:8]
