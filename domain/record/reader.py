"""Read records: untrusted input, plain JSON only, every problem reported as a ``RecordError``.

Checks, in order: size, JSON, format id and version, structure (schema), the hash chain over the
events, and that the derived ``commands``/``chance`` sections agree with the events. ``strict``
mode (for fixtures) also requires the canonical text form, so hand-edited files are caught.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from domain.engine import new_game
from domain.errors import RecordError, WakeError
from domain.events import CommandIssued
from domain.record.model import FORMAT_ID, FORMAT_VERSION, Record
from domain.record.writer import build_record, dumps

MAX_RECORD_BYTES = 256 * 1024 * 1024


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "(top level)"
    more = f" (and {exc.error_count() - 1} more problems)" if exc.error_count() > 1 else ""
    return f"{where}: {err['msg']}{more}"


def read_record(data: bytes | str, *, strict: bool = False, source: str = "record") -> Record:
    """Parse and check a record.

    Raises:
        RecordError: the file is not a valid, untampered Wake record (the message says why).
        UnknownRuleset: the record's ruleset is not available.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(f"{source}: larger than {MAX_RECORD_BYTES} bytes")
    try:
        body: Any = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RecordError(f"{source}: not UTF-8 text ({exc.reason})") from exc
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"{source}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg} "
            "(truncated or corrupted file?)"
        ) from exc
    if not isinstance(body, dict) or body.get("format") != FORMAT_ID:
        raise RecordError(f'{source}: not a Wake record (missing "format": "{FORMAT_ID}")')
    version = body.get("format_version")
    if version != FORMAT_VERSION:
        raise RecordError(
            f"{source}: record format version {version!r} is not supported "
            f"(this Wake reads version {FORMAT_VERSION})"
        )
    try:
        record = Record.model_validate(body)
    except ValidationError as exc:
        raise RecordError(f"{source}: invalid record: {_first_error(exc)}") from exc
    check_chain(record, source)
    expected = build_record(record.header, record.events)
    if expected.commands != record.commands:
        raise RecordError(f"{source}: the commands section does not match the events")
    if expected.chance != record.chance:
        bad = next(
            (c for c, e in zip(record.chance, expected.chance, strict=False) if c != e), None
        )
        where = f" at event {bad.seq}" if bad else ""
        raise RecordError(f"{source}: the chance section does not match the events{where}")
    if expected.chain != record.chain:
        raise RecordError(f"{source}: the chain summary (genesis/head/length) does not match")
    if strict and dumps(record) != raw.decode("utf-8"):
        raise RecordError(
            f"{source}: strict mode: not in canonical form (edited by hand? re-export it with "
            "`wake export`)"
        )
    return record


def check_chain(record: Record, source: str = "record") -> None:
    """Replay the events without dice, checking sequence, topics, payloads and every digest.

    Raises:
        RecordError: the first event that does not fit, by number.
    """
    from domain.engine import apply_fact

    try:
        state = new_game(record.header)
    except WakeError as exc:
        raise type(exc)(f"{source}: {exc.message}", rule=exc.rule) from exc
    if record.header.genesis_digest() != record.chain.genesis:
        raise RecordError(
            f"{source}: header does not match the chain's genesis digest (the header was altered)"
        )
    command_index = -1
    for fact in record.events:
        if fact.topic == CommandIssued.TOPIC:
            command_index += 1
        if fact.command != command_index:
            raise RecordError(
                f"{source}: event {fact.seq} names command {fact.command}, expected {command_index}"
            )
        try:
            state = apply_fact(state, fact)
        except RecordError as exc:
            raise RecordError(f"{source}: {exc.message}") from exc


def read_record_file(path: Path, *, strict: bool = False) -> Record:
    """Read a record from a file.

    Raises:
        RecordError: unreadable or invalid file.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RecordError(f"{path}: cannot read ({exc.strerror})") from exc
    return read_record(data, strict=strict, source=str(path))
