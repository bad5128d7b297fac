"""Write records: one canonical text form, so export -> import -> export is byte-identical."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from domain.engine import Fact
from domain.events import CommandIssued, DiceRolled
from domain.header import GameHeader
from domain.record.model import Chain, ChanceOutcome, Record, RecordedCommand


def build_record(header: GameHeader, facts: Sequence[Fact]) -> Record:
    """Assemble the record of a game from its header and facts."""
    commands: list[RecordedCommand] = []
    chance: list[ChanceOutcome] = []
    for fact in facts:
        if fact.topic == CommandIssued.TOPIC:
            issued = CommandIssued.model_validate(fact.payload)
            commands.append(
                RecordedCommand(
                    index=issued.index, side=issued.side, command=issued.command, dice=issued.dice
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
        header=header,
        commands=commands,
        chance=chance,
        events=list(facts),
        chain=Chain(
            genesis=genesis, head=facts[-1].digest if facts else genesis, length=len(facts)
        ),
    )


def dumps(record: Record) -> str:
    """The canonical text of a record."""
    body = record.model_dump(mode="json")
    return json.dumps(body, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def write_record(header: GameHeader, facts: Sequence[Fact], path: Path | None = None) -> str:
    """Render (and with ``path``, atomically write) the record of a game; returns its text."""
    text = dumps(build_record(header, facts))
    if path is not None:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    return text
