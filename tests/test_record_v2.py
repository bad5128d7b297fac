"""Record format 2 (issue 12): RFC 8785 canonical JSON, order times under the chain, strict
payloads, and format-1 records still read and verified by format 1's rules."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.canonical import jcs, jcs_strict
from domain.engine import CommandEnvelope, Session, header_for
from domain.errors import RecordError
from domain.header import GameHeader
from domain.record import read_record, read_record_file, verify_record, write_record
from domain.store import GameStore
from tests.forge import rechain
from tests.helpers import FIXTURES

V1 = FIXTURES / "records-v1"
V2_RIVER_PLATE = FIXTURES / "games" / "morze" / "river_plate-annihilation.wake.json"

# --- RFC 8785 ---------------------------------------------------------------------------------

_SAFE = 2**53 - 1
_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-_SAFE, max_value=_SAFE)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([8.0, -0.0, 1e16, 1e20, 1e21, 1e-6, 1e-7, 0.00001, 123456789012345680.0])
    | st.text()
)
_keys = st.text() | st.sampled_from(["\u20ac", "\r", "\ufb33", "1", "\U0001f600", "\u0080", "ö"])
_json = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(_json)
def test_fast_encoder_agrees_with_the_rfc8785_reference(value: Any) -> None:
    """The orjson fast path writes exactly what the reference implementation writes."""
    assert jcs(value) == rfc8785.dumps(value)


_tricky_floats = (
    st.floats(min_value=1e-9, max_value=1e-4)
    | st.floats(min_value=1e14, max_value=1e23)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.integers(min_value=-(10**7), max_value=10**7).map(float)
)


@settings(max_examples=3000, deadline=None)
@given(_tricky_floats)
def test_every_float_range_agrees_with_the_reference(value: float) -> None:
    """Where ECMAScript and orjson choose differently between digits and an exponent."""
    assert jcs([value, -value]) == rfc8785.dumps([value, -value])


def test_rfc8785_examples() -> None:
    """Numbers as ECMAScript prints them, keys in UTF-16 order (RFC 8785, 3.2.2 and 3.2.3)."""
    assert jcs([8.0, -0.0, 1e21, 1e-7, 0.00001, 4.50, 2e-3, 1e30]) == (
        b"[8,0,1e+21,1e-7,0.00001,4.5,0.002,1e+30]"
    )
    keys = {"\u20ac": 1, "\r": 2, "\ufb33": 3, "1": 4, "\U0001f600": 5, "\u0080": 6, "ö": 7}
    order = list(json.loads(jcs(keys)))
    assert order == ["\r", "1", "\u0080", "ö", "\u20ac", "\U0001f600", "\ufb33"]


def test_what_has_no_canonical_form_is_refused_on_the_write_path() -> None:
    for bad in (float("nan"), float("inf"), 2**53):
        with pytest.raises(ValueError, match="RFC 8785"):
            jcs_strict({"x": bad})


# --- the chain of a format-2 record, checked with nothing but the standard ------------------


def _independent_chain(body: dict[str, Any]) -> list[str]:
    """The record's digests computed from its JSON with the rfc8785 package and hashlib only,
    as a verifier in another language would (docs/record-format.md)."""
    head = hashlib.sha256(rfc8785.dumps(body["header"])).hexdigest()
    assert head == body["chain"]["genesis"]
    digests = []
    for event in body["events"]:
        fields = {k: event[k] for k in ("seq", "command", "topic", "automatic", "payload")}
        head = hashlib.sha256(head.encode("ascii") + rfc8785.dumps(fields)).hexdigest()
        digests.append(head)
    return digests


@pytest.mark.parametrize(
    "path",
    sorted((FIXTURES / "games").glob("*/*.wake.json"))[::4],
    ids=lambda p: p.name,
)
def test_any_language_can_check_the_chain(path: Path) -> None:
    """Format 2's digests are SHA-256 over RFC 8785 text: recomputed independently, they are
    the record's."""
    body = json.loads(path.read_text("utf-8"))
    assert body["format_version"] == 2
    assert _independent_chain(body) == [e["digest"] for e in body["events"]]


# --- times ----------------------------------------------------------------------------------


def test_each_order_carries_its_time_under_the_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the real clock, every order is stamped, in order, and a re-run reuses the times."""
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    scenario = json.loads((FIXTURES / "scenarios/morze/river_plate.json").read_text("utf-8"))
    session = Session(
        header_for("morze", scenario, game_id="00000000-0000-4000-8000-0000000000aa", seed=4)
    )
    for _ in range(12):
        session.submit_bot()
    times = [f.payload["time"] for f in session.facts if f.topic == "wake.CommandIssued/1"]
    assert len(times) == 12 and times == sorted(times)
    assert all(t.endswith("Z") and "T" in t for t in times)
    record = read_record(write_record(session.header, session.facts))
    assert [c.time for c in record.commands] == times
    assert verify_record(record).commands == 12  # re-run with the recorded times


def test_an_edited_time_breaks_the_chain() -> None:
    body = json.loads(V2_RIVER_PLATE.read_text("utf-8"))
    issued = next(e for e in body["events"] if e["topic"] == "wake.CommandIssued/1")
    issued["payload"]["time"] = "2020-01-01T00:00:00.000000Z"
    with pytest.raises(RecordError, match=r"event 1 .*digest does not match"):
        read_record(json.dumps(body))


def test_an_order_time_is_checked_for_its_form() -> None:
    with pytest.raises(ValueError, match="String should match pattern"):
        CommandEnvelope(command={"type": "end_phase"}, time="yesterday")


# --- strict payloads ------------------------------------------------------------------------


def _forge_speed(value: Any) -> str:
    body = json.loads(V2_RIVER_PLATE.read_text("utf-8"))
    moved = next(e for e in body["events"] if e["topic"] == "morze.UnitMoved/1")
    moved["payload"]["speed"] = value
    return json.dumps(rechain(body))


@pytest.mark.parametrize("value", ["8", True])
def test_format_2_payloads_are_not_coerced(value: Any) -> None:
    """A re-chained record whose payload holds ``"8"`` or ``true`` for a number is refused,
    naming the field (pydantic alone would read them as 8 and 1)."""
    with pytest.raises(RecordError, match=r"field 'speed' is not of its event's type"):
        read_record(_forge_speed(value))


def test_a_number_written_another_way_is_the_same_number() -> None:
    """8 and 8.0 are one value in RFC 8785: a record writing either verifies."""
    body = json.loads(V2_RIVER_PLATE.read_text("utf-8"))
    moved = next(e for e in body["events"] if e["topic"] == "morze.UnitMoved/1")
    speed = moved["payload"]["speed"]
    text = json.dumps(body).replace(f'"speed": {speed},', f'"speed": {float(speed)},', 1)
    assert verify_record(read_record(text)).events == len(body["events"])


def test_format_and_header_must_agree() -> None:
    body = json.loads(V2_RIVER_PLATE.read_text("utf-8"))
    body["format_version"] = 1
    with pytest.raises(RecordError, match="format 1 record whose header is of format 2"):
        read_record(json.dumps(body))


# --- format 1 -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(V1.glob("*.wake.json")), ids=lambda p: p.name)
def test_format_1_records_read_verify_and_export_unchanged(path: Path, tmp_path: Path) -> None:
    """A record made before format 2 keeps format 1's rules: it verifies, imports, and exports
    byte for byte as it was (its digests cannot be re-made without breaking its signatures)."""
    text = path.read_text("utf-8")
    record = read_record(text, strict=True)
    assert record.format_version == 1 and record.header.format_version == 1
    assert "format_version" not in json.loads(text)["header"]
    verify_record(record)
    store = GameStore(str(tmp_path / "s.sqlite3"))
    game_id = store.import_game(record.header, record.events)
    header, facts = store.facts(game_id)
    assert write_record(header, facts) == text
    assert store.state(game_id, from_snapshot=False, verify=True).head == record.chain.head


def test_an_order_given_to_a_format_1_game_carries_no_time(tmp_path: Path) -> None:
    """A stored format-1 game played on stays a format-1 game (no field its readers lack)."""
    record = read_record_file(sorted(V1.glob("river_plate*.wake.json"))[0])
    cut = next(i for i, f in enumerate(record.events) if f.command == 3)
    header = GameHeader.model_validate(record.header.model_dump())
    session = Session(header, record.events[:cut])
    facts = session.submit_bot()
    assert facts is not None and "time" not in facts[0].payload
    assert read_record(write_record(session.header, session.facts)).format_version == 1
