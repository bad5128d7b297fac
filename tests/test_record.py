"""Record format v1: round trip, schema, and bad records (truncated, wrong version, tampered,
unknown ruleset, illegal command) refused with a clear error."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from domain.errors import RecordDivergence, RecordError, UnknownRuleset
from domain.record import read_record, verify_record, write_record
from domain.record.schema import checked_in_schema, schema_text
from domain.record.writer import dumps
from tests.helpers import RECORDS, bot_game


@pytest.fixture(scope="module")
def text() -> str:
    session = bot_game(seed=3)
    return write_record(session.header, session.facts)


def _mutate(text: str, fn: Any) -> str:
    body = json.loads(text)
    fn(body)
    return json.dumps(body, indent=1, ensure_ascii=False) + "\n"


def test_round_trip_is_byte_identical(text: str) -> None:
    record = read_record(text, strict=True)
    assert dumps(record) == text
    report = verify_record(record)
    assert report.events == len(record.events)


def test_checked_in_schema_matches_models_and_accepts_records(text: str) -> None:
    assert json.loads(schema_text()) == checked_in_schema()
    jsonschema.validate(json.loads(text), checked_in_schema())


def test_schema_rejects_unknown_fields(text: str) -> None:
    body = json.loads(text)
    body["header"]["surprise"] = 1
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(body, checked_in_schema())


def test_truncated_file_is_refused(text: str) -> None:
    with pytest.raises(RecordError, match="not valid JSON at line"):
        read_record(text[: len(text) // 2])


def test_wrong_format_version_is_refused(text: str) -> None:
    bad = _mutate(text, lambda b: b.update(format_version=3))
    with pytest.raises(RecordError, match="version 3 is not supported"):
        read_record(bad)


def test_not_a_record_is_refused() -> None:
    with pytest.raises(RecordError, match="not a Wake record"):
        read_record('{"hello": 1}')
    with pytest.raises(RecordError, match="not UTF-8"):
        read_record(b"\xff\xfe\x00")


def test_unknown_ruleset_is_refused(text: str) -> None:
    bad = _mutate(text, lambda b: b["header"]["ruleset"].update(id="chess"))
    with pytest.raises(UnknownRuleset, match="chess"):
        read_record(bad)


def _first_roll(body: dict[str, Any], purpose: str = "to hit") -> dict[str, Any]:
    return next(
        e
        for e in body["events"]
        if e["topic"] == "wake.DiceRolled/1" and e["payload"]["purpose"] == purpose
    )


def test_tampered_roll_is_caught_at_that_event(text: str) -> None:
    body = json.loads(text)
    event = _first_roll(body)
    event["payload"]["roll"]["faces"] = [11 - event["payload"]["roll"]["faces"][0]]
    with pytest.raises(RecordError, match=f"event {event['seq']} .*digest does not match"):
        read_record(json.dumps(body))


def test_tampered_header_is_caught(text: str) -> None:
    bad = _mutate(text, lambda b: b["header"]["dice"].update(seed=99))
    with pytest.raises(RecordError, match="genesis"):
        read_record(bad)


def test_rechained_tampered_roll_diverges_at_that_event(text: str) -> None:
    """Even with every digest recomputed, re-running the orders exposes a changed roll (PL-4b)."""
    from domain.engine import Fact, fact_digest
    from domain.record.writer import build_record

    record = read_record(text)
    target = next(
        f
        for f in record.events
        if f.topic == "wake.DiceRolled/1" and f.payload["purpose"] == "to hit"
    )
    facts: list[Fact] = []
    head = record.header.genesis_digest()
    for fact in record.events:
        payload = fact.payload
        if fact.seq == target.seq:
            roll = dict(payload["roll"])
            face = 11 - roll["faces"][0]
            roll.update(faces=[face], natural=face, total=face)
            payload = {**payload, "roll": roll}
        digest = fact_digest(
            head,
            fact.seq,
            fact.command,
            fact.topic,
            fact.automatic,
            payload,
            record.header.format_version,
        )
        facts.append(fact.model_copy(update={"payload": payload, "digest": digest}))
        head = digest
    forged = read_record(dumps(build_record(record.header, facts)), strict=True)
    with pytest.raises(RecordDivergence) as info:
        verify_record(forged)
    assert f"event {target.seq} differs" in str(info.value)
    assert info.value.rule == "PL-4b"
    assert "recorded:" in str(info.value) and "re-run:" in str(info.value)


def test_illegal_command_in_record_is_reported_with_rule(text: str) -> None:
    """A forged record whose order breaks PL-2 fails verification naming the rule."""
    from domain.engine import CommandEnvelope, Session

    record = read_record(text)
    session = Session(record.header)
    session.submit(CommandEnvelope(command={"type": "roll_initiative"}))
    mover = session.state.rules.active
    unit = next(u for u in session.state.rules.alive(mover))
    # Bypass decide: forge a move three times the unit's speed and chain it properly.
    from domain.engine import fact_digest
    from domain.events import CommandIssued
    from domain.rulesets.morze.events import UnitMoved

    facts = list(session.facts)
    head, seq = session.state.head, session.state.seq
    index = session.state.commands
    speed = session.state.rules.unit_class(unit).speed
    events = [
        CommandIssued(
            index=index,
            side=mover,
            command={"type": "move", "unit": unit.id, "x": unit.x + 3 * speed, "y": unit.y},
        ),
        UnitMoved(
            unit=unit.id,
            side=mover,
            from_x=unit.x,
            from_y=unit.y,
            to_x=unit.x + 3 * speed,
            to_y=unit.y,
            distance=3 * speed,
            speed=speed,
        ),
    ]
    from domain.engine import Fact
    from domain.record.writer import build_record

    for event in events:
        seq += 1
        digest = fact_digest(
            head, seq, index, event.TOPIC, False, event.payload(), record.header.format_version
        )
        facts.append(
            Fact(
                seq=seq,
                command=index,
                topic=event.TOPIC,
                automatic=False,
                payload=event.payload(),
                digest=digest,
            )
        )
        head = digest
    forged = read_record(dumps(build_record(record.header, facts)))
    with pytest.raises(RecordDivergence, match="refused on re-run") as info:
        verify_record(forged)
    assert info.value.rule == "PL-2"


def test_strict_mode_rejects_hand_formatting(text: str) -> None:
    reformatted = json.dumps(json.loads(text), indent=2)
    read_record(reformatted)  # accepted normally
    with pytest.raises(RecordError, match="canonical"):
        read_record(reformatted, strict=True)


def test_derived_sections_must_match_events(text: str) -> None:
    def change_chance(body: dict[str, Any]) -> None:
        body["chance"][0]["faces"] = [0]

    with pytest.raises(RecordError, match="chance section"):
        read_record(_mutate(text, change_chance))


@pytest.mark.parametrize("path", RECORDS, ids=[p.name for p in RECORDS])
def test_every_fixture_matches_the_schema(path: Any) -> None:
    jsonschema.validate(json.loads(path.read_text("utf-8")), checked_in_schema())
