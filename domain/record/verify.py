"""Verify a record by re-running its orders through the engine and comparing every event.

A seeded game re-throws its dice from the seed; a physical-dice game re-uses the faces entered
with each order. The first event that differs is reported with both versions and its rule.
A record of an older ruleset version whose events have since changed shape is compared in the
current form: each recorded fact upcast by its topic version (``domain.topics``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.canonical import canonical_json
from domain.divergence import divergence
from domain.engine import CommandEnvelope, Fact, Session, upcast_fact
from domain.errors import RecordDivergence, SealedSeed, WakeError
from domain.events import CommandIssued
from domain.record.model import Record
from domain.seed_commit import checked_seed


@dataclass(frozen=True)
class VerifyReport:
    game_id: str
    ruleset: str
    scenario: str
    commands: int
    events: int
    result: str
    variations: int = 0  # the other lines of its variation tree, each verified the same way


def _divergence(session: Session, recorded: Fact | None, rerun: Fact | None) -> RecordDivergence:
    """The first event that differs, in words: both versions and the differing fields, the
    same readable diff as ``wake rerun`` (``domain.divergence``)."""
    found = divergence(session.state, recorded, rerun)
    err = RecordDivergence("\n".join(found.lines()), rule=found.rule or None)
    err.seq = found.seq  # type: ignore[attr-defined]
    return err


def _body(fact: Fact) -> bytes:
    """What a digest covers, as canonical JSON (so ``true`` is not ``1``)."""
    return canonical_json(
        {
            "seq": fact.seq,
            "command": fact.command,
            "topic": fact.topic,
            "automatic": fact.automatic,
            "payload": fact.payload,
        }
    )


def verify_record(
    record: Record, progress: Callable[[int, int], Any] | None = None
) -> VerifyReport:
    """Re-run every order of ``record`` and compare the events one by one.

    Raises:
        RecordDivergence: the first event that differs, or an order the engine now refuses.
        SealedSeed: the dice seed is committed and not revealed: nothing can be re-run.
        RecordError, UnknownRuleset: the record cannot be replayed at all.
    """
    seed = checked_seed(record.header.dice, record.seed_reveal)
    if record.header.dice.sealed and seed is None:
        raise SealedSeed(
            "the dice seed is still sealed (the header commits to it; the record reveals it "
            "once the game has ended, or the umpire with wake reveal-seed): the chain is "
            "intact, but the orders cannot be re-run, so the dice are not verified"
        )
    session = Session(record.header, seed=seed)
    events = record.events
    total = len(events)
    ruleset_id = record.header.ruleset.id
    upcast = False  # once a fact is upcast, the re-run's chain of digests is another one
    pos = 0
    while pos < total:
        first = upcast_fact(ruleset_id, events[pos])
        if first.topic != CommandIssued.TOPIC:
            raise _divergence(session, first, None)
        issued = CommandIssued.model_validate(first.payload)
        envelope = CommandEnvelope(
            side=issued.side,
            command=issued.command,
            dice=issued.dice,
            cards=issued.cards,
            time=issued.time,
        )
        try:
            produced = session.submit(envelope)
        except WakeError as exc:
            err = RecordDivergence(
                f"event {first.seq}: order #{issued.index} ({issued.command.get('type')}) is "
                f"refused on re-run: {exc}",
                rule=exc.rule,
            )
            err.seq = first.seq  # type: ignore[attr-defined]
            raise err from exc
        for offset, rerun in enumerate(produced):
            recorded = events[pos + offset] if pos + offset < total else None
            # by value and by digest: {"x": true} == {"x": 1} in Python, not in the chain
            if recorded == rerun and recorded.digest == rerun.digest:
                continue
            if recorded is None:
                raise _divergence(session, recorded, rerun)
            current = upcast_fact(ruleset_id, recorded)
            upcast = upcast or current is not recorded
            # an upcast record: compared by content in canonical form (the digests cover the
            # recorded form, and the record's own chain was checked when it was read)
            if not upcast or _body(current) != _body(rerun):
                raise _divergence(session, current, rerun)
        pos += len(produced)
        if progress is not None:
            progress(pos, total)
    state = session.state
    result = "in progress"
    if state.result is not None:
        result = f"{state.result.winner or 'draw'} ({state.result.reason})"
    for i, line in enumerate(record.variations or (), 1):
        _verify_variation(i, line)
    return VerifyReport(
        game_id=record.header.game_id,
        ruleset=record.header.ruleset.id,
        scenario=record.header.scenario_id,
        commands=state.commands,
        events=state.seq,
        result=result,
        variations=len(record.variations or ()),
    )


def _verify_variation(i: int, line: Record) -> None:
    """Variation ``i`` of a record verified as a record of its own (its lineage within the file
    was checked when the file was read)."""
    where = f"variation {i} (game {line.header.game_id})"
    try:
        verify_record(line)
    except (RecordDivergence, SealedSeed) as exc:
        err = type(exc)(f"{where}: {exc.message}", rule=exc.rule)
        raise err from None
