"""What docs/record-format.md says about the hash chain, checked on a real record (issue 22
item 16): event 1 chains from the genesis digest (the header's), each later event from the one
before; every digest is 64 lowercase hex characters, and an upper-case one does not read."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from domain.errors import RecordError
from domain.header import GameHeader
from domain.record import read_record_file
from tests.helpers import FIXTURES

RECORDS = [
    FIXTURES / "games" / "morze" / "river_plate-annihilation.wake.json",  # format 2
    FIXTURES / "records-v1" / "river_plate-annihilation.v1.wake.json",  # format 1
]
LOWER_HEX = re.compile(r"[0-9a-f]{64}")


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_event_1_chains_from_the_genesis_digest(path: Path) -> None:
    body = json.loads(path.read_text("utf-8"))
    header = GameHeader.model_validate(body["header"])
    canonical = header.encode
    genesis = hashlib.sha256(canonical(body["header"])).hexdigest()
    assert body["chain"]["genesis"] == genesis
    previous = genesis
    for event in body["events"]:
        content = {k: event[k] for k in ("seq", "command", "topic", "automatic", "payload")}
        digest = hashlib.sha256(previous.encode("ascii") + canonical(content)).hexdigest()
        assert event["digest"] == digest, event["seq"]
        assert LOWER_HEX.fullmatch(event["digest"])
        previous = digest
    assert body["chain"]["head"] == previous


def test_an_upper_case_digest_does_not_read(tmp_path: Path) -> None:
    body = json.loads(RECORDS[0].read_text("utf-8"))
    body["events"][0]["digest"] = body["events"][0]["digest"].upper()
    path = tmp_path / "upper.wake.json"
    path.write_text(json.dumps(body), "utf-8")
    with pytest.raises(RecordError, match="event 1"):
        read_record_file(path)


def test_the_record_format_says_so() -> None:
    text = (FIXTURES.parent / "docs" / "record-format.md").read_text("utf-8")
    assert "event 1 is the genesis digest" in text
    assert "64 lowercase hex" in text
