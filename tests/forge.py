"""Forged records for tests of untrusted input: edit a record's JSON, then recompute its chain.

A chain without a key proves only that nobody edited a record *without* recomputing it (issue 12,
gap 1), so these forgeries pass the reader's chain check and reach whatever comes after it: the
checks of what the fields hold, the viewer, import and verify.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from domain.canonical import sha256_hex
from domain.engine import Fact, fact_digest
from domain.header import GameHeader
from domain.record import build_record
from tests.helpers import FIXTURES

RIVER_PLATE_RECORD = FIXTURES / "games" / "morze" / "river_plate-annihilation.wake.json"


def load(path: Path = RIVER_PLATE_RECORD) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return body


def rechain(body: dict[str, Any], *, derived: bool = True) -> dict[str, Any]:
    """Recompute genesis, every digest, the chain summary and (if they still decode) the derived
    ``commands``/``chance`` sections of an edited record body; returns it."""
    header = GameHeader.model_validate(body["header"])
    head = sha256_hex(header.encode(body["header"]))
    body["chain"] = {**body.get("chain", {}), "genesis": head}
    for event in body["events"]:
        event["digest"] = fact_digest(
            head,
            event["seq"],
            event["command"],
            event["topic"],
            event["automatic"],
            event["payload"],
            header.format_version,
        )
        head = event["digest"]
    body["chain"].update(head=head, length=len(body["events"]))
    if derived:
        try:
            rec = build_record(
                GameHeader.model_validate(body["header"]),
                [Fact.model_validate(e) for e in body["events"]],
            )
        except ValueError:
            return body
        dumped = rec.model_dump(mode="json")
        body["commands"], body["chance"] = dumped["commands"], dumped["chance"]
    return body


def forged(edit: Callable[[dict[str, Any]], Any], path: Path = RIVER_PLATE_RECORD) -> str:
    """The text of the record at ``path`` after ``edit`` changed its body, re-chained."""
    body = copy.deepcopy(load(path))
    edit(body)
    return json.dumps(rechain(body), indent=1, ensure_ascii=False)


def first_event(body: dict[str, Any], topic: str) -> dict[str, Any]:
    return next(e for e in body["events"] if e["topic"] == topic)
