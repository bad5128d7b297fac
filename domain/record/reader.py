"""Read records: untrusted input, plain JSON only, every problem reported as a ``RecordError``.

Checks, in order: size, JSON, format id and version, structure (schema), the hash chain over the
events, that the derived ``commands``/``chance`` sections agree with the events, and that every
annotation is bound to the chain digest after its event. ``strict``
mode (for fixtures) also requires the canonical text form, so hand-edited files are caught.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any, Final
from uuid import UUID

from pydantic import BaseModel, ValidationError

from domain import safe_json
from domain.annotations import MAX_ANNOTATIONS, Annotation, binding_problem, chain_digests
from domain.canonical import jcs
from domain.engine import Fact, GameState, decode, new_game
from domain.errors import LineageError, RecordError, WakeError, validation_summary
from domain.events import CommandIssued
from domain.record.model import (
    FORMAT_ID,
    MAX_VARIATIONS,
    READABLE_VERSIONS,
    ChanceOutcome,
    Record,
    RecordedCommand,
    tree_problem,
)
from domain.record.writer import build_record, dumps
from domain.seed_commit import checked_seed

#: The largest record file read (the largest bundled record is 868 KB). Parsed JSON takes up
#: to about ten times its text, so this bounds a read's memory before any other check.
MAX_RECORD_BYTES: Final = 32 * 1024 * 1024
#: The most events (and orders, and rolls) a record may hold: 57 times the largest bundled game.
MAX_EVENTS: Final = 100_000

# the record's lists: name in the file, model of an item, how a person numbers an item
_LISTS: Final[tuple[tuple[str, type[BaseModel], str], ...]] = (
    ("commands", RecordedCommand, "order #{i}"),
    ("chance", ChanceOutcome, "roll {n}"),
    ("events", Fact, "event {n}"),
)


def _first_error(exc: ValidationError) -> str:
    return validation_summary(exc, limit=1)


def canonical_uuid(value: str) -> bool:
    """True if ``value`` is a UUID in its canonical form (lower case, hyphenated)."""
    try:
        return str(UUID(value)) == value
    except (ValueError, TypeError, AttributeError):
        return False


def _structure(body: dict[str, Any], source: str) -> Record:
    """The record model, validated strictly (no coercion: ``"1"`` is not 1, ``true`` is not 1),
    list items one at a time so that a bad file stops at its first bad item."""
    items: dict[str, list[Any]] = {}
    for name, model, label in _LISTS:
        raw = body.get(name)
        if not isinstance(raw, list):
            continue  # the whole-record validation below names the problem
        if len(raw) > MAX_EVENTS:
            raise RecordError(
                f"{source}: {len(raw)} items in {name}, more than the limit of {MAX_EVENTS}"
            )
        checked = []
        for i, item in enumerate(raw):
            try:
                checked.append(model.model_validate(item, strict=True))
            except ValidationError as exc:
                where = label.format(i=i, n=i + 1)
                raise RecordError(
                    f"{source}: invalid record: {name}[{i}] ({where}): {_first_error(exc)}"
                ) from None
        items[name] = checked
    notes = body.get("annotations")
    if isinstance(notes, list):  # outside the chain, but read as strictly as the rest
        if len(notes) > MAX_ANNOTATIONS:
            raise RecordError(
                f"{source}: {len(notes)} annotations, more than the limit of {MAX_ANNOTATIONS}"
            )
        checked = []
        for i, item in enumerate(notes):
            try:
                checked.append(Annotation.model_validate(item, strict=True))
            except ValidationError as exc:
                problem = _first_error(exc).replace("Value error, ", "")
                raise RecordError(
                    f"{source}: invalid record: annotations[{i}] (annotation {i + 1}): {problem}"
                ) from None
        items["annotations"] = checked
    try:
        record = Record.model_validate({**body, **items}, strict=True)
    except ValidationError as exc:
        raise RecordError(f"{source}: invalid record: {_first_error(exc)}") from None
    if not canonical_uuid(record.header.game_id):
        raise RecordError(
            f"{source}: header.game_id {record.header.game_id[:60]!r} is not a UUID in canonical "
            "form (lower-case hex with hyphens, like 00000000-0000-4000-8000-000000000001)"
        )
    return record


def read_record(data: bytes | str, *, strict: bool = False, source: str = "record") -> Record:
    """Parse and check a record.

    The text is bounded before it is parsed (``MAX_RECORD_BYTES``, then the JSON limits of
    ``domain.safe_json``: nesting, number of objects, numbers, duplicate keys, surrogates), the
    number of events before they are validated (``MAX_EVENTS``).

    Raises:
        RecordError: the file is not a valid, untampered Wake record (the message says why).
        UnknownRuleset: the record's ruleset is not available.
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(
            f"{source}: {len(raw)} bytes, larger than the limit of {MAX_RECORD_BYTES} bytes"
        )
    try:
        body: Any = safe_json.loads(raw)
    except safe_json.JSONInputError as exc:
        hint = " (truncated or corrupted file?)" if "not valid JSON" in str(exc) else ""
        raise RecordError(f"{source}: {exc}{hint}") from None
    if not isinstance(body, dict) or body.get("format") != FORMAT_ID:
        raise RecordError(f'{source}: not a Wake record (missing "format": "{FORMAT_ID}")')
    lines = body.pop("variations", None)
    record = _checked(body, source)
    if lines is not None:
        record = _with_variations(record, lines, source)
    if strict and dumps(record) != raw.decode("utf-8"):
        raise RecordError(
            f"{source}: strict mode: not in canonical form (edited by hand? re-export it with "
            "`wake export`)"
        )
    return record


def _checked(body: dict[str, Any], source: str) -> Record:
    """One game's record from its parsed JSON object, every check but the canonical text."""
    version = body.get("format_version")
    if type(version) is not int or version not in READABLE_VERSIONS:
        shown = repr(version) if len(repr(version)) <= 40 else repr(version)[:37] + "..."
        raise RecordError(
            f"{source}: record format version {shown} is not supported "
            f"(this Wake reads versions {', '.join(map(str, READABLE_VERSIONS))})"
        )
    record = _structure(body, source)
    if record.header.format_version != record.format_version:
        raise RecordError(
            f"{source}: a format {record.format_version} record whose header is of format "
            f"{record.header.format_version} (its digests could not be checked by either rule)"
        )
    check_chain(record, source)
    _check_lineage(record, source)
    checked_seed(record.header.dice, record.seed_reveal, source)
    try:
        expected = build_record(record.header, record.events, record.seed_reveal)
    except (ValidationError, ValueError) as exc:
        raise RecordError(f"{source}: an event does not fit: {validation_summary(exc)}") from None
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
    if record.annotations is not None:
        if not record.annotations:
            raise RecordError(f"{source}: an empty annotations section (leave it out instead)")
        chain = chain_digests(record.chain.genesis, [fact.digest for fact in record.events])
        problem = binding_problem(
            record.annotations, chain, [side.id for side in record.header.sides]
        )
        if problem is not None:
            raise RecordError(f"{source}: {problem}")
    return record


def _with_variations(record: Record, lines: Any, source: str) -> Record:
    """``record`` with the records of its variations section, each checked as a record of its
    own, one tree with ``record``, and against its parent in the file."""
    from domain.lineage import check_against_parent

    if not isinstance(lines, list) or not lines:
        raise RecordError(f"{source}: the variations section is not a non-empty list")
    if len(lines) > MAX_VARIATIONS:
        raise RecordError(
            f"{source}: {len(lines)} variations, more than the limit of {MAX_VARIATIONS}"
        )
    checked: list[Record] = []
    for i, line in enumerate(lines, 1):
        where = f"{source}: variation {i}"
        if not isinstance(line, dict) or line.get("format") != FORMAT_ID:
            raise RecordError(f'{where}: not a Wake record (missing "format": "{FORMAT_ID}")')
        if "variations" in line:
            raise RecordError(f"{where}: has variations of its own (list them all once)")
        checked.append(_checked(line, where))
    if sum(len(line.events) for line in checked) + len(record.events) > MAX_EVENTS:
        raise RecordError(f"{source}: more than {MAX_EVENTS} events with its variations")
    problem = tree_problem(record.header, [line.header for line in checked])
    if problem is not None:
        raise RecordError(f"{source}: {problem}")
    games = {line.header.game_id: line for line in [record, *checked]}
    for i, line in enumerate(checked, 1):
        ref = line.header.parent
        parent = games.get(ref.game_id) if ref is not None else None
        if parent is None:
            continue
        try:
            check_against_parent(line.header, parent.header, parent.events)
        except LineageError as exc:
            raise LineageError(f"{source}: variation {i}: {exc.message}") from None
    return record.model_copy(update={"variations": checked})


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
    typed = record.format_version >= 2
    command_index = -1
    for fact in record.events:
        if fact.topic == CommandIssued.TOPIC:
            command_index += 1
        if fact.command != command_index:
            raise RecordError(
                f"{source}: event {fact.seq} names command {fact.command}, expected {command_index}"
            )
        if fact.topic == CommandIssued.TOPIC:
            index = fact.payload.get("index")
            if type(index) is not int or index != command_index:
                raise RecordError(
                    f"{source}: event {fact.seq} is order #{command_index} but says its index is "
                    f"{str(index)[:20]}"
                )
        try:
            state = apply_fact(state, fact)
        except RecordError as exc:  # keeps its type (UnknownTopicVersion: a newer topic)
            raise type(exc)(f"{source}: {exc.message}", rule=exc.rule) from exc
        if typed:
            _check_typed(state, fact, source)


def _check_typed(state: GameState, fact: Fact, source: str) -> None:
    """Format 2: a payload must be exactly its event's canonical form. The event is decoded
    leniently (pydantic reads ``"25"`` as 25 and ``true`` as 1); re-encoded, it must give the
    very bytes the record holds, so a value of the wrong type, an unknown spelling or a
    field the event would write differently is refused by name, not coerced.

    Raises:
        RecordError: the first event whose payload is not in its typed form.
    """
    event = decode(state, fact)
    if fact.topic != event.TOPIC:
        return  # an older version of the event, upcast: its recorded form is the older one
    if jcs(event.payload()) != jcs(fact.payload):
        fields = event.payload()
        wrong = next(
            (
                k
                for k in sorted(set(fields) | set(fact.payload))
                if jcs(fields.get(k)) != jcs(fact.payload.get(k))
            ),
            "?",
        )
        raise RecordError(
            f"{source}: event {fact.seq} ({fact.topic}): field {wrong!r} is not of its event's "
            "type (format 2 reads payloads strictly: no coercion)"
        )


def _check_lineage(record: Record, source: str) -> None:
    """A variation's shared events must be the prefix its header names (``domain.lineage``)."""
    from domain.lineage import check_prefix

    try:
        check_prefix(record.header, record.events)
    except LineageError as exc:
        raise LineageError(f"{source}: {exc.message}") from None


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a pipe (FIFO)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def read_bounded(path: Path, limit: int = MAX_RECORD_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    The file is opened without blocking (a FIFO does not hang), checked to be a regular file
    after symlinks are followed (``/dev/zero``, a pipe, a directory are refused) and no longer
    than ``limit``, then at most ``limit + 1`` bytes are read (a file growing meanwhile is
    refused too): nothing unbounded is ever read.

    Raises:
        RecordError: cannot be opened, not a regular file, or too large.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise RecordError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise RecordError(f"{path}: {_kind(info.st_mode)}, not a regular file")
        too_big = f"{path}: larger than the limit of {limit} bytes"
        if info.st_size > limit:
            raise RecordError(f"{too_big} ({info.st_size} bytes)")
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise RecordError(f"{path}: cannot read ({exc.strerror})") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise RecordError(too_big)
    return data


def read_record_file(path: Path, *, strict: bool = False) -> Record:
    """Read a record from a file (see :func:`read_bounded` and :func:`read_record`).

    Raises:
        RecordError: unreadable, special, too large or invalid file.
        UnknownRuleset: the record's ruleset is not available.
    """
    return read_record(read_bounded(path), strict=strict, source=str(path))
