"""Issue 13, the explain panel: linked rolls (a hit and the critical it led to, a critical and
its table roll) and what each card played with an order does, in every view."""

from __future__ import annotations

from domain.engine import replay
from domain.explain import explain_event, explanation_lines
from domain.record import read_record_file
from tests.helpers import FIXTURES

HAMPTON = FIXTURES / "games/iron_oak/hampton_roads-alternating.wake.json"


MAGAZINE = FIXTURES / "games/iron_oak/hampton_roads-magazine.wake.json"


def _explained(topic_test: object, viewer: str | None = None, path: object = HAMPTON) -> list[str]:
    record = read_record_file(path)  # type: ignore[arg-type]
    facts = record.events
    index = next(i for i, f in enumerate(facts) if topic_test(f))  # type: ignore[operator]
    before = replay(record.header, facts[:index])
    return explanation_lines(explain_event(before, facts, index, viewer))


def test_a_critical_roll_links_to_the_hit_that_caused_it() -> None:
    """IO-6.3: explaining the Critical Hit Table roll lists the gunnery rolls of the same order
    and the fire result each decided."""
    lines = _explained(
        lambda f: f.topic == "wake.DiceRolled/1" and f.payload["purpose"] == "critical"
    )
    text = "\n".join(lines)
    assert "other rolls of this order (and the event each decided):" in text
    linked = text.split("other rolls of this order")[1]
    assert "gunnery [IO-6.2]" in linked and "fires section" in linked


def test_a_played_card_is_explained_by_its_effect() -> None:
    """IO-7.0: a fire declared with an action card says what the card does, marked
    provisional (the bundled deck is a placeholder)."""
    lines = _explained(
        lambda f: (
            f.topic == "wake.CommandIssued/1"
            and f.payload["command"].get("type") == "declare_fire"
            and f.payload["command"].get("cards")
        )
    )
    assert any(line.strip().startswith("card ") and "(provisional text)" in line for line in lines)


def test_a_hidden_card_is_not_explained_to_the_other_side() -> None:
    """IO-3.4: the card exchanged is hidden from the opponent, so is its text."""

    def exchange(f: object) -> bool:
        payload = f.payload  # type: ignore[attr-defined]
        return bool(
            f.topic == "wake.CommandIssued/1"  # type: ignore[attr-defined]
            and payload["command"].get("type") == "exchange_card"
            and payload["command"].get("discard")
        )

    record = read_record_file(MAGAZINE)
    issued = next(f for f in record.events if exchange(f))
    other = next(s.id for s in record.header.sides if s.id != issued.payload["side"])
    umpire = _explained(exchange, None, MAGAZINE)
    assert any(line.strip().startswith("card ") for line in umpire)
    assert not any(
        line.strip().startswith("card ") for line in _explained(exchange, other, MAGAZINE)
    )
