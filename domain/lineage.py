"""Variations (issue 14): a game that continues another from one of its events.

A variation's header names its parent (``GameHeader.parent``: the parent's id, the event, the
parent's genesis digest and its chain digest after that event). Its first ``event`` facts are the
parent's, unchanged in content (seq, order, topic, automatic flag, payload) and chained from the
variation's own genesis. Re-chaining them from the parent's genesis must give the digest the
header names, so anyone holding only the variation can check that it continues exactly that
prefix of *some* game with that genesis (:func:`check_prefix`); with the parent at hand, its own
genesis and its digest after the event are compared too (:func:`check_against_parent`), so a
parent altered and re-chained is caught.

Two kinds of variation: a **fork** (:func:`fork`) copies the prefix and is played on under the
same rules; a **rerun saved as a variation** (:func:`as_variation`) re-decided every order under
another ruling and shares the recorded events up to its first difference. Pure functions: the
store and the CLI sit on top (``domain.variations``, ``domain.cli.fork``).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from domain.canonical import canonical_json
from domain.engine import Fact, fact_digest
from domain.errors import InvalidCommand, LineageError, NoSuchEvent, SealedSeed
from domain.events import CommandIssued
from domain.header import GameHeader, ParentRef
from domain.plain_text import plain_problem


def chain_head(genesis: str, facts: Sequence[Fact], format_version: int) -> str:
    """The digest after ``facts`` re-chained from ``genesis`` (their own digests ignored), by
    the digest rule of record format ``format_version``."""
    head = genesis
    for fact in facts:
        head = fact_digest(
            head, fact.seq, fact.command, fact.topic, fact.automatic, fact.payload, format_version
        )
    return head


def rechain(header: GameHeader, facts: Sequence[Fact]) -> list[Fact]:
    """``facts`` with the same content, chained from ``header``'s genesis."""
    head = header.genesis_digest()
    out: list[Fact] = []
    for fact in facts:
        head = fact_digest(
            head,
            fact.seq,
            fact.command,
            fact.topic,
            fact.automatic,
            fact.payload,
            header.format_version,
        )
        out.append(fact.model_copy(update={"digest": head}))
    return out


def parent_ref(parent: GameHeader, facts: Sequence[Fact], event: int) -> ParentRef:
    """The reference a variation of ``parent`` sharing its first ``event`` facts carries."""
    genesis = parent.genesis_digest()
    digest = chain_head(
        genesis, facts[:event], parent.format_version
    )  # recomputed: a stored digest is not trusted
    return ParentRef(
        game_id=parent.game_id, event=event, genesis=genesis, digest=digest, origin=parent.origin
    )


def order_bounds(facts: Sequence[Fact], event: int) -> tuple[int, int] | None:
    """(first, last) event of the order that ``event`` lies strictly inside, or None when
    ``event`` ends an order (or is 0): a fork starts between orders."""
    if event == 0 or event >= len(facts) or facts[event].topic == CommandIssued.TOPIC:
        return None
    first = event
    while first > 1 and facts[first - 1].topic != CommandIssued.TOPIC:
        first -= 1
    last = event
    while last < len(facts) and facts[last].topic != CommandIssued.TOPIC:
        last += 1
    return first, last


def fork(
    parent: GameHeader,
    facts: Sequence[Fact],
    event: int,
    *,
    title: str = "",
    game_id: str | None = None,
    seed_public: bool = False,
    physical: bool = False,
) -> tuple[GameHeader, list[Fact]]:
    """A new game that starts from the state after ``event`` of ``parent``: the parent's header
    (same ruleset, scenario, options, dice, sides) with a new id, a title and ``parent``, and
    copies of the parent's first ``event`` facts chained from the fork's genesis. Seeded dice
    continue at the parent's dice position (it is folded from the copied rolls); physical dice
    are entered with each new order.

    A committed seed (``dice.commitment``) is kept only when ``seed_public`` (the parent has
    ended or its seed was revealed): the fork throws die n of the same seed as the parent
    would, so forking a live game with a sealed seed would disclose the parent's next dice.

    ``physical``: the fork is played on at the table. Its dice are physical from ``event`` on;
    the copied prefix keeps the parent's seed (or commitment) as ``dice.seeded_events`` so its
    orders still re-run with the seed's dice. State built in the prefix stays as the seed made
    it (a deck shuffled there keeps the order the seed dealt).

    Raises:
        InvalidCommand: a title holding a control or bidirectional character.

    Raises:
        NoSuchEvent: ``event`` is not 0..len(facts), or lies inside an order (its events are
            one decision: a fork starts before or after the whole order).
        SealedSeed: the parent's seed is sealed and still secret.
    """
    if not 0 <= event <= len(facts):
        raise NoSuchEvent(
            f"--at takes an event 0..{len(facts)} of game {parent.game_id} "
            f"(0 = its start), not {event}"
        )
    inside = order_bounds(facts, event)
    if inside is not None:
        first, last = inside
        raise NoSuchEvent(
            f"event {event} lies inside order #{facts[first - 1].command} (events {first}-{last}); "
            f"a fork starts between orders: --at {last} (after that order) or --at {first - 1} "
            "(before it)"
        )
    if parent.dice.sealed and not seed_public:
        raise SealedSeed(
            f"game {parent.game_id} is live and its dice seed is sealed: a fork throws the "
            "parent's dice stream, so it would show the dice the parent has yet to throw; fork "
            f"it once the game has ended or after `wake reveal-seed {parent.game_id}`"
        )
    shown = parent.title or parent.game_id
    dice = parent.dice
    if physical and dice.mode == "seeded":
        dice = dice.model_copy(update={"mode": "physical", "seeded_events": event})
    elif physical and dice.seeded_events is not None and event < dice.seeded_events:
        dice = dice.model_copy(update={"seeded_events": event})  # a fork inside the prefix
    problem = plain_problem(title, "the title")  # issue 23 item 9: never an escape sequence
    if problem is not None:
        raise InvalidCommand(problem)
    header = parent.model_copy(
        update={
            "game_id": game_id or str(uuid.uuid4()),
            "title": title or f"fork of {shown} at event {event}",
            "parent": parent_ref(parent, facts, event),
            "dice": dice,
        }
    )
    return header, rechain(header, facts[:event])


def _content(fact: Fact) -> bytes:
    """A fact's chained content as canonical JSON (``true`` is not ``1`` here)."""
    return canonical_json([fact.seq, fact.command, fact.topic, fact.automatic, fact.payload])


def shared_prefix(recorded: Sequence[Fact], again: Sequence[Fact]) -> int:
    """How many leading facts two lines have in common (same content; digests ignored)."""
    count = 0
    for a, b in zip(recorded, again, strict=False):
        if _content(a) != _content(b):
            break
        count += 1
    return count


def with_parent(header: GameHeader, original: GameHeader) -> GameHeader:
    """``header`` (a rerun's) as a variation of ``original`` whose shared prefix is not known
    yet: the parent's id and origin set (they decide how sealed choices are salted), event 0.
    :func:`as_variation` sets the real prefix once the rerun is done."""
    return header.model_copy(update={"parent": parent_ref(original, (), 0)})


def as_variation(
    original: GameHeader, facts: Sequence[Fact], header: GameHeader, produced: Sequence[Fact]
) -> tuple[GameHeader, list[Fact]]:
    """A rerun's header and facts as a variation of ``original``: its parent is the original at
    the last event before the first difference (the end of the shared prefix), and its facts
    are re-chained under the final header (their content does not depend on the prefix)."""
    event = shared_prefix(facts, produced)
    final = header.model_copy(update={"parent": parent_ref(original, facts, event)})
    return final, rechain(final, produced)


ParentCheck = Literal["stored", "file", "absent", "none"]


@dataclass(frozen=True)
class LineageReport:
    """What was checked of a variation's parent, in words for ``wake verify``."""

    checked: ParentCheck
    parent: ParentRef | None
    note: str = ""  # why the parent was not available, when it was looked for

    def describe(self) -> str:
        ref = self.parent
        if ref is None:
            return "not a variation"
        at = f"variation of {ref.game_id} at event {ref.event}"
        if self.checked == "stored":
            return f"{at}: parent prefix checked against the stored parent"
        if self.checked == "file":
            return f"{at}: parent prefix checked against the parent record given"
        why = f" ({self.note})" if self.note else ""
        return (
            f"{at}: parent not available{why}: prefix consistent with the digest named in "
            "the header"
        )


def check_prefix(header: GameHeader, facts: Sequence[Fact]) -> None:
    """A variation's first ``parent.event`` facts, re-chained from the parent's genesis, must
    give the digest its header names (nothing to check for a game that is no variation).

    Raises:
        LineageError: the game is shorter than the prefix it claims, or the prefix is not the
            one whose digest the header names.
    """
    ref = header.parent
    if ref is None:
        return
    if ref.event > len(facts):
        raise LineageError(
            f"the header says the game continues event {ref.event} of {ref.game_id}, but it "
            f"holds only {len(facts)} events"
        )
    if ref.event == 0:
        if ref.digest != ref.genesis:
            raise LineageError(
                "the header's parent digest at event 0 is not the parent's genesis digest"
            )
        return
    if chain_head(ref.genesis, facts[: ref.event], header.format_version) != ref.digest:
        raise LineageError(
            f"its first {ref.event} events are not the prefix of {ref.game_id} named in the "
            "header (re-chained from the parent's genesis they do not give the parent's digest)"
        )


def check_against_parent(
    header: GameHeader, parent: GameHeader, parent_facts: Sequence[Fact]
) -> None:
    """The parent at hand is the one the variation names: same id, same genesis (so the same
    header), and its chain digest after ``parent.event`` equals the one named.

    Raises:
        LineageError: another game, a parent whose header or prefix was altered (re-chained or
            not), or a parent shorter than the fork event.
    """
    ref = header.parent
    if ref is None:
        return
    if parent.game_id != ref.game_id:
        raise LineageError(f"the parent given is game {parent.game_id}, not {ref.game_id}")
    if parent.genesis_digest() != ref.genesis:
        raise LineageError(
            f"the parent {ref.game_id}'s header does not give the genesis digest the variation "
            "names: the parent was altered (or is another game under its id)"
        )
    if ref.event > len(parent_facts):
        raise LineageError(
            f"the parent {ref.game_id} has {len(parent_facts)} events, fewer than the fork "
            f"event {ref.event}"
        )
    if chain_head(ref.genesis, parent_facts[: ref.event], parent.format_version) != ref.digest:
        raise LineageError(
            f"the parent {ref.game_id}'s chain after event {ref.event} is not the one the "
            "variation names: the parent's events up to the fork were altered"
        )


__all__ = [
    "LineageReport",
    "ParentCheck",
    "as_variation",
    "chain_head",
    "check_against_parent",
    "check_prefix",
    "fork",
    "order_bounds",
    "parent_ref",
    "rechain",
    "shared_prefix",
    "with_parent",
]
