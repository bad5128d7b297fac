"""Issue 13 (explain panel): the order behind an event reads as a sentence, never as a raw dict,
and never shows a sealed dial's salt."""

from __future__ import annotations

from pathlib import Path

from domain.commands import order_sentence
from domain.engine import replay
from domain.explain import explain_event, explanation_lines
from domain.record import read_record_file
from tests.helpers import FIXTURES


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
