"""Issue 13 (side and umpire views): for every event of every bundled game with hidden
information, what a side is shown of it — the log line and the whole Explain text (the order
behind it, the episode, the rolls) — contains none of the values that side's redaction hides in
that event or in the order behind it (card ids, dial digests, salts, ...), unless the side has
seen that value by then in its own redacted view of the game (up to the end of the order, or of
the attack the event belongs to: a card dealt face up, a dial once revealed)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from domain.engine import apply_fact, decode, replay
from domain.events import CardDrawn, CommandIssued, DomainEvent
from domain.explain import explain_event, explanation_lines
from domain.record import read_record_file
from domain.ruleset import get_ruleset
from tests.helpers import RECORDS


def _hidden_games() -> list[Path]:
    found = []
    for path in RECORDS:
        record = read_record_file(path)
        if get_ruleset(record.header.ruleset.id).meta.hidden_information:
            found.append(path)
    return found


def _leaves(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _leaves(v)
    elif isinstance(value, str):
        yield value


def _distinctive(text: str) -> bool:
    """Values worth searching for: not short, not a number, not a common word."""
    return len(text) >= 5 and not text.replace(".", "").isdigit()


def _hidden(event: DomainEvent, seen: DomainEvent) -> set[str]:
    shown = set(_leaves(seen.model_dump(mode="json")))
    return {v for v in _leaves(event.model_dump(mode="json")) if v not in shown and _distinctive(v)}


@pytest.mark.parametrize("path", _hidden_games(), ids=lambda p: p.name)
def test_a_side_is_never_shown_what_its_view_hides(path: Path) -> None:
    _check(path)


def test_the_check_has_values_to_look_for() -> None:
    """The search is not empty: Armada's sealed dials and face-down cards and the SHIPS hands
    give values a side has not seen (Iron & Oak's hidden cards are names both sides hold, so
    the value search finds nothing to look for there; its sealed orders are tested elsewhere)."""
    games = {p.name: p for p in _hidden_games()}
    assert _check(games["core_learning-score.wake.json"]) > 0
    assert _check(games["multi4-line_weapon.wake.json"]) > 0


@cache
def _check(path: Path) -> int:
    """Check one game; how many (event, side) pairs had unseen hidden values to look for."""
    record = read_record_file(path)
    sides = [s.id for s in record.header.sides]
    facts = record.events
    state = replay(record.header, [])
    ruleset = state.ruleset
    first_seen: dict[str, dict[str, int]] = {side: {} for side in sides}
    order_end: dict[int, int] = {}  # seq -> last seq of the order it belongs to
    walk = state
    start = 0
    for i, fact in enumerate(facts):  # when each side first sees each value
        event = decode(walk, fact)
        if isinstance(event, CommandIssued):
            start = i
        for side in sides:
            for value in _leaves(ruleset.redact(event, side).model_dump(mode="json")):
                first_seen[side].setdefault(value, fact.seq)
        walk = apply_fact(walk, fact)
        order_end[facts[start].seq] = fact.seq
    last_of_order: dict[int, int] = {}
    current = facts[0].seq if facts else 0
    for fact in facts:
        if fact.topic == CommandIssued.TOPIC:
            current = fact.seq
        last_of_order[fact.seq] = order_end.get(current, fact.seq)
    cause: CommandIssued | None = None
    checked = 0
    for index, fact in enumerate(facts):
        event = decode(state, fact)
        if isinstance(event, CommandIssued):
            cause = event
        for side in sides:
            hidden = _hidden(event, ruleset.redact(event, side))
            if cause is not None:
                hidden |= _hidden(cause, ruleset.redact(cause, side))
            if not hidden:
                continue
            explanation = explain_event(state, facts, index, side)
            limit = max(
                last_of_order[fact.seq], explanation.episode[-1].seq if explanation.episode else 0
            )
            hidden = {h for h in hidden if first_seen[side].get(h, limit + 1) > limit}
            if not hidden:
                continue
            text = ruleset.describe(ruleset.redact(event, side)) + "\n"
            text += "\n".join(explanation_lines(explanation))
            leaked = sorted(h for h in hidden if h in text)
            assert not leaked, f"event {fact.seq} seen by {side}: {leaked}"
            checked += 1
        state = apply_fact(state, fact)
    return checked


@pytest.mark.parametrize("path", _hidden_games(), ids=lambda p: p.name)
def test_the_game_summary_keeps_a_sides_view(path: Path) -> None:
    """Issue 13: the viewer's game summary (result, losses, key moments) names nothing a side
    never sees in the whole game (its key moments are the rolls' log lines as that side reads
    them; a hidden card is never a loss)."""
    from viewer.timeline import Timeline

    record = read_record_file(path)
    timeline = Timeline(record.header, record.events)
    state = replay(record.header, [])
    ruleset = state.ruleset
    sides = [s.id for s in record.header.sides]
    seen: dict[str, set[str]] = {side: set() for side in sides}
    hidden: dict[str, set[str]] = {side: set() for side in sides}
    names: dict[str, str] = {}  # a card drawn by name: its id -> its display name
    for fact in record.events:
        event = decode(state, fact)
        if isinstance(event, CardDrawn) and event.card and event.name:
            names[event.card] = event.name
        for side in sides:
            shown = ruleset.redact(event, side)
            seen[side] |= set(_leaves(shown.model_dump(mode="json")))
            hidden[side] |= _hidden(event, shown)
        state = apply_fact(state, fact)
    for side in sides:
        # a card's display name is seen with its id (a fleet revealed names its cards by id)
        seen[side] |= {names[v] for v in seen[side] if v in names}
        never = hidden[side] - seen[side]
        text = "\n".join(timeline.summary(viewer=side))
        leaked = sorted(value for value in never if value in text)
        assert not leaked, f"{side}'s summary shows {leaked}"
