"""Write records: one canonical text form, so export -> import -> export is byte-identical."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from domain.analysis.model import Analysis
from domain.annotations import Annotation
from domain.engine import Fact
from domain.errors import RecordError
from domain.events import CommandIssued, DiceRolled
from domain.header import GameHeader
from domain.record.model import Chain, ChanceOutcome, Record, RecordedCommand, Signature
from domain.seed_commit import SeedSecret


def build_record(
    header: GameHeader,
    facts: Sequence[Fact],
    seed_reveal: SeedSecret | None = None,
    signatures: Sequence[Signature] = (),
    annotations: Sequence[Annotation] = (),
    analysis: Analysis | None = None,
    variations: Sequence[Record] = (),
) -> Record:
    """Assemble the record of a game from its header and facts (and the revealed seed of a
    game whose header commits to it, the signatures kept with it, its standing annotations and
    the records of the other lines of its variation tree)."""
    commands: list[RecordedCommand] = []
    chance: list[ChanceOutcome] = []
    for fact in facts:
        if fact.topic == CommandIssued.TOPIC:
            issued = CommandIssued.model_validate(fact.payload)
            commands.append(
                RecordedCommand(
                    index=issued.index,
                    side=issued.side,
                    command=issued.command,
                    dice=issued.dice,
                    time=issued.time,
                    cards=issued.cards,
                )
            )
        elif fact.topic == DiceRolled.TOPIC:
            roll = DiceRolled.model_validate(fact.payload)
            chance.append(
                ChanceOutcome(
                    seq=fact.seq,
                    rule=roll.rule,
                    purpose=roll.purpose,
                    side=roll.roll.side,
                    expression=roll.roll.expression,
                    faces=roll.roll.faces,
                    opposed_expression=roll.opposed_by.expression if roll.opposed_by else None,
                    opposed_faces=roll.opposed_by.faces if roll.opposed_by else None,
                    outcome=roll.outcome,
                )
            )
    genesis = header.genesis_digest()
    return Record(
        format_version=header.format_version,
        header=header,
        commands=commands,
        chance=chance,
        events=list(facts),
        seed_reveal=seed_reveal,
        signatures=list(signatures) or None,
        annotations=list(annotations) or None,
        analysis=analysis,
        variations=list(variations) or None,
        chain=Chain(
            genesis=genesis, head=facts[-1].digest if facts else genesis, length=len(facts)
        ),
    )


def dumps(record: Record) -> str:
    """The canonical text of a record."""
    return json.dumps(_body(record), indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def _body(record: Record) -> dict[str, Any]:
    """A record as the JSON object of its canonical text (its variations each the same way)."""
    # a record without a reveal, signatures, annotations or variations is written exactly as
    # before they existed
    absent = {"seed_reveal"} if record.seed_reveal is None else set()
    if not record.signatures:
        absent.add("signatures")
    if not record.annotations:
        absent.add("annotations")
    if record.analysis is None:
        absent.add("analysis")
    absent.add("variations")
    body: dict[str, Any] = record.model_dump(mode="json", exclude=absent)
    for command in body["commands"]:
        if record.format_version == 1:  # format 1 had no times: its text stays as it was
            del command["time"]
        if command["cards"] is None:  # only orders with cards drawn by name carry them
            del command["cards"]
    if record.variations:
        body["variations"] = [_body(line) for line in record.variations]
    return body


def write_record(
    header: GameHeader,
    facts: Sequence[Fact],
    path: Path | None = None,
    seed_reveal: SeedSecret | None = None,
    signatures: Sequence[Signature] = (),
    annotations: Sequence[Annotation] = (),
    analysis: Analysis | None = None,
    variations: Sequence[Record] = (),
) -> str:
    """Render (and with ``path``, atomically write) the record of a game (with its standing
    ``annotations``, if any); returns its text.

    The text goes to a new temporary file beside ``path``, which then replaces ``path``; if
    anything fails the temporary file is removed and ``path`` is untouched.

    Raises:
        RecordError: ``path`` is a directory or cannot be written.
    """
    record = build_record(
        header, facts, seed_reveal, signatures, annotations, analysis, variations
    )
    text = dumps(record)
    if path is not None:
        write_text_atomic(text, path)
    return text


def write_text_atomic(text: str, path: Path) -> None:
    """Write ``text`` to a new temporary file beside ``path``, which then replaces ``path``; if
    anything fails the temporary file is removed and ``path`` is untouched.

    Raises:
        RecordError: ``path`` is a directory or cannot be written.
    """
    if path.is_dir():
        raise RecordError(f"{path} is a directory; give a file name for the record")
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise RecordError(f"{path}: cannot write ({exc.strerror or exc})") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
