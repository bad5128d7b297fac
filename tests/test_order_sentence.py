"""Issue 13 (explain panel): the order behind an event reads as a sentence, never as a raw dict,
and never shows a sealed dial's salt."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.commands import order_sentence
from domain.engine import replay
from domain.events import CommandIssued
from domain.explain import explain_event, explanation_lines
from domain.move_list import log_lines
from domain.record import read_record_file
from tests.helpers import FIXTURES, RECORDS
from viewer.timeline import Timeline


def test_an_order_reads_as_a_sentence_without_secrets() -> None:
    sentence = order_sentence(
        {
            "type": "reveal_dial",
            "ship": "victory",
            "slot": 3,
            "command": "navigate",
            "salt": "9f2c0a1b7d",
            "to_token": False,
            "discard_token": None,
        }
    )
    assert sentence == "reveal dial: ship victory, slot 3, command navigate"
    assert order_sentence({"type": "end_movement"}) == "end movement"
    long = order_sentence({"type": "x", "text": "y" * 1000})
    assert len(long) <= 400


def test_explain_shows_the_armada_reveal_without_its_salt() -> None:
    """SWA-2.1: explaining a revealed dial gives the order in words; its salt, which only
    proves the sealed choice, is not shown."""
    path: Path = FIXTURES / "games/armada/core_learning-score.wake.json"
    record = read_record_file(path)
    index = next(i for i, f in enumerate(record.events) if f.topic == "armada.DialRevealed/1")
    salt = record.events[index].payload["salt"]
    before = replay(record.header, record.events[:index])
    lines = "\n".join(explanation_lines(explain_event(before, record.events, index)))
    assert "reveal dial: " in lines and "ship " in lines and "command " in lines
    assert salt not in lines


LONG_FLOAT = re.compile(r"(?<![\w.])\d+\.\d{3,}\b")
"""A float with three decimals or more: never in text a person reads."""


def test_a_move_order_reads_as_players_say_it() -> None:
    """Issue 21 (leftovers, item 1), PL-2 / SWA-3.1: an order that puts a unit somewhere says
    which unit goes where, the position in whole numbers (never "move to 353.474, 355.403"),
    and how far, to a tenth of the board's unit, where the board it was given on is known."""
    squadron = {"move_to": [353.474, 355.403], "squadron": "tie_1", "type": "activate_squadron"}
    assert order_sentence(squadron) == "activate squadron: tie_1 to (353, 355)"
    move = {"type": "move", "unit": "achilles", "x": 95.27, "y": 62.71}
    assert order_sentence(move) == "achilles moves to (95, 63)"
    placed = {"positions": {"tie_3": [433.6194549262705, 344.7448633680598]}}
    assert order_sentence({"type": "place_squadrons", **placed}) == (
        "place squadrons: positions tie_3 (434, 345)"
    )
    # a 0 is said (heading 0), a flag not set is not
    deploy = {"type": "deploy_ship", "ship": "victory", "x": 457.2, "y": 92.8, "heading": 0.0}
    assert order_sentence({**deploy, "speed": 2, "to_token": False}) == (
        "deploy ship: victory to (457, 93), heading 0, speed 2"
    )


@pytest.mark.parametrize(
    ("path", "topic", "said"),
    [
        (
            "games/morze/river_plate-annihilation.wake.json",
            "morze.UnitMoved/1",
            "Royal Navy: HMNZS Achilles moves 10 cm to (95, 63)",
        ),
        (
            "games/armada/core_learning-score.wake.json",
            "armada.SquadronMoved/1",
            "Galactic Empire: activate squadron: TIE Fighter Squadron 1 moves 245.5 mm to "
            "(353, 355)",
        ),
    ],
)
def test_the_explain_order_line_says_who_moves_how_far_and_where(
    path: str, topic: str, said: str
) -> None:
    """Issue 21 (leftovers, item 1), PL-2 / SWA-3.1: the explain panel's Order line of a move
    names the unit, the distance in the board's unit and the position in whole numbers, in the
    viewer (``Timeline.state_at`` gives the board the order was given on) and in the move
    list."""
    record = read_record_file(FIXTURES / path)
    tl = Timeline(record.header, record.events)
    index = next(i for i, f in enumerate(tl.facts) if f.topic == topic)
    ex = explain_event(
        tl.state_at(index), tl.facts, index, None, tl.names_at(index + 1, None), tl.state_at
    )
    lines = "\n".join(explanation_lines(ex))
    assert said in lines, lines
    assert not LONG_FLOAT.search(lines), lines
    order = tl.events[index - 1] if tl.facts[index - 1].topic == CommandIssued.TOPIC else None
    rows = [e.text for e in tl.events if e.kind == "CommandIssued"]
    assert not any(LONG_FLOAT.search(r) for r in rows)
    assert order is None or said.split(": ", 1)[1] in order.text


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_log_line_of_a_bundled_game_has_a_long_float(path: Path) -> None:
    """Issue 21 (leftovers, item 1): `wake log` of every bundled game writes no float with
    three decimals or more (an order's position, a squadron placed by the overlap rule)."""
    record = read_record_file(path)
    bad = [line for line in log_lines(record.header, record.events) if LONG_FLOAT.search(line)]
    assert not bad, bad[:5]
