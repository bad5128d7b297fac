"""Issue 12, gaps 5, 6 and 9: a record file is untrusted input. Whatever it holds, reading it ends
in a ``RecordError`` with one line naming the problem, within bounded memory and time; what
other JSON parsers could read differently (duplicate keys, ``true`` for 1, ``"1"`` for 1,
NaN, 1e400, lone surrogates, a non-canonical game id) is refused, with or without ``--strict``.
"""

from __future__ import annotations

import json
import os
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from domain import safe_json
from domain.errors import RecordError
from domain.record import read_record, read_record_file
from domain.record import reader as record_reader
from domain.record.reader import MAX_EVENTS, MAX_RECORD_BYTES, read_bounded
from tests.forge import RIVER_PLATE_RECORD, first_event, forged, load

COMMAND = "wake.CommandIssued/1"
ROLL = "wake.DiceRolled/1"


def refused(data: str | bytes, match: str) -> str:
    with pytest.raises(RecordError, match=match) as info:
        read_record(data, source="r.wake.json")
    message = str(info.value)
    assert "\n" not in message and len(message) < 400, message
    return message


def test_the_bundled_record_reads() -> None:
    assert read_record(RIVER_PLATE_RECORD.read_bytes()).header.game_id.endswith("0001")


# --- gap 5: bounded before and while reading ---------------------------------------------------


def test_size_is_checked_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "big.wake.json"
    path.write_bytes(b" " * 2000)
    with pytest.raises(RecordError, match="larger than the limit of 1000 bytes"):
        read_bounded(path, limit=1000)
    assert read_bounded(path, limit=2000) == b" " * 2000
    assert MAX_RECORD_BYTES == 32 * 1024 * 1024


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_symlink_to_dev_zero_is_refused_without_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refused from the opened file's kind, before a byte is read: reading is a failure here
    (not a timing check: speed is for benchmarks)."""
    link = tmp_path / "zero.wake.json"
    link.symlink_to("/dev/zero")

    def no_reading(*args: object, **kwargs: object) -> None:
        raise AssertionError("the device was read")

    monkeypatch.setattr(os, "fdopen", no_reading)
    with pytest.raises(RecordError, match="a character device, not a regular file"):
        read_record_file(link)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.wake.json"
    os.mkfifo(fifo)
    with pytest.raises(RecordError, match=r"a pipe \(FIFO\), not a regular file"):
        read_record_file(fifo)


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="a directory, not a regular file"):
        read_record_file(tmp_path)


def test_a_missing_file_says_it_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"cannot read \(No such file or directory\)"):
        read_record_file(tmp_path / "nope.wake.json")


def test_deep_nesting_is_refused_before_parsing() -> None:
    deep = '{"format": "wake-record", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    refused(deep, "nested deeper than 64 levels")
    refused(
        forged(lambda b: b["events"][3]["payload"].update(deep=json.loads("[" * 70 + "]" * 70))),
        "nested deeper than 64 levels",
    )


def test_too_many_events_are_refused_before_validation() -> None:
    body = {
        "format": "wake-record",
        "format_version": 1,
        "header": {},
        "commands": [],
        "chance": [],
        "events": [{}] * (MAX_EVENTS + 1),
        "chain": {},
    }
    refused(json.dumps(body), f"{MAX_EVENTS + 1} items in events, more than the limit")


def test_empty_events_cost_little_memory() -> None:
    """The probe: a 1.2 MB file of empty events peaked at 2.7 GB (pydantic collected an error
    for every field of every event). Now the first bad event stops the read."""
    body = {
        "format": "wake-record",
        "format_version": 1,
        **{k: v for k, v in load().items() if k in ("header", "chain")},
        "commands": [],
        "chance": [],
        "events": [{}] * 99_000,
    }
    text = json.dumps(body, separators=(",", ":"))
    assert len(text) > 250_000
    tracemalloc.start()
    try:
        refused(text, r"events\[0\] \(event 1\): seq: Field required")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100 * 1024 * 1024, peak


def test_the_container_and_item_limits() -> None:
    with pytest.raises(safe_json.JSONInputError, match="more than 10 objects and arrays"):
        safe_json.loads("[" + ",".join(["{}"] * 11) + "]", max_containers=10)
    with pytest.raises(safe_json.JSONInputError, match="more than 10 values"):
        safe_json.loads('["a,b,c,d,e,f,g,h,i,j,k", ' + ",".join(['"x"'] * 10) + "]", max_items=10)
    commas_in_strings = '["a,b,c,d,e,f,g,h,i,j,k,l,m", "[[[[[[[[[[[[", "\\\\", "\\"[{"]'
    assert len(safe_json.loads(commas_in_strings, max_items=10, max_containers=2)) == 4


# --- gap 6: every case of the probe is one line --------------------------------------------------


@pytest.mark.parametrize(
    ("value", "match"),
    [
        ("9" * 4301, "integer with 4301 digits is outside"),
        ("9007199254740992", "integer 9007199254740992 is outside"),
        ("NaN", "NaN is not a JSON number"),
        ("-Infinity", "-Infinity is not a JSON number"),
        ("1e400", "number 1e400 is out of range"),
        ('"\\ud800"', r"lone UTF-16 surrogate"),
        ('"\\udc00 x"', r"lone UTF-16 surrogate"),
    ],
)
def test_numbers_and_strings_other_parsers_disagree_on(value: str, match: str) -> None:
    text = forged(lambda b: first_event(b, ROLL)["payload"].update(value="PLACEHOLDER"))
    refused(text.replace('"PLACEHOLDER"', value), match)


def test_a_surrogate_pair_is_text() -> None:
    text = forged(lambda b: b["header"].update(title="\U0001f600"))
    rec = read_record(text.replace("\U0001f600", "\\ud83d\\ude00"))
    assert rec.header.title == "\U0001f600"


def test_unknown_option_in_a_header() -> None:
    text = forged(lambda b: b["header"]["options"].update(bogus=1))
    refused(text, r"the header.s options: invalid Morze options: bogus: Extra inputs")


def test_invalid_scenario_in_a_header() -> None:
    text = forged(lambda b: b["header"]["scenario"].update(units=5))
    refused(text, r"header does not describe a game morze can start: units: Input should be")


def test_negative_order_index() -> None:
    text = forged(lambda b: first_event(b, COMMAND)["payload"].update(index=-1))
    refused(text, "event 1 is order #0 but says its index is -1")


def test_an_event_that_fits_its_schema_but_not_the_game() -> None:
    def edit(body: dict[str, Any]) -> None:
        moved = next(e for e in body["events"] if e["topic"] == "morze.UnitMoved/1")
        moved["payload"]["unit"] = "no_such_ship"

    refused(forged(edit), r"event \d+: cannot be applied to the game \(KeyError")


@pytest.mark.parametrize(
    "game_id",
    [
        "not-a-uuid",
        "00000000-0000-4000-8000-00000000000A",
        "{00000000-0000-4000-8000-000000000001}",
        "00000000000040008000000000000001",
    ],
)
def test_game_id_must_be_a_canonical_uuid(game_id: str) -> None:
    text = forged(lambda b: b["header"].update(game_id=game_id))
    refused(text, "is not a UUID in canonical form")


def test_schema_errors_number_events_from_one() -> None:
    def edit(body: dict[str, Any]) -> None:
        body["events"][5]["automatic"] = "yes"

    refused(forged(edit), r"events\[5\] \(event 6\): automatic: Input should be a valid boolean")


# --- gap 9: no coercion, no duplicate keys, outside --strict too ------------------------------


def test_format_version_true_is_not_1() -> None:
    text = RIVER_PLATE_RECORD.read_text("utf-8").replace(
        '"format_version": 2', '"format_version": true', 1
    )
    refused(text, "record format version True is not supported")


def test_seed_as_text_is_not_a_number() -> None:
    text = forged(lambda b: b["header"]["dice"].update(seed="1"))
    refused(text, r"header.dice.seed: Input should be a valid integer")


def test_true_is_not_a_number_in_a_fact() -> None:
    text = forged(lambda b: b["events"][0].update(command=True))
    refused(text, r"events\[0\] \(event 1\): command: Input should be a valid integer")


def test_duplicate_keys_are_refused() -> None:
    text = RIVER_PLATE_RECORD.read_text("utf-8").replace(
        '"title":', '"title": "first", "title":', 1
    )
    refused(text, "duplicate key 'title' in an object")


def test_all_bundled_records_still_read_strictly() -> None:
    from tests.helpers import RECORDS

    for path in RECORDS:
        read_record_file(path, strict=True)


def test_limits_are_documented() -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "record-format.md").read_text()
    for name in (
        "MAX_RECORD_BYTES",
        "MAX_EVENTS",
        "MAX_DEPTH",
        "MAX_CONTAINERS",
        "MAX_ITEMS",
        "MAX_SAFE_INTEGER",
    ):
        assert name in doc, name
    assert record_reader.MAX_EVENTS == MAX_EVENTS
