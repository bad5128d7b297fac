"""A dispute report: one self-contained HTML page about one event of one game, for an organiser.

The page holds the board at that moment (plotly's own HTML with plotly.js embedded: it opens
offline, no CDN), the event and the order behind it in words, the rule with its one-line
summary, the whole episode (an attack from declaration to end), every roll with its faces,
modifiers and exact odds, the ruling diffs asked for (``domain.rerun``: the same orders and dice
under another ruling), and the annotations of that event and of the game as a whole (issue 14),
the ruling diffs kept with ``wake rerun --annotate`` among them.

Every piece of text from the record (annotations included) is HTML-escaped: a record is
untrusted input.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from domain.annotations import Annotation
from domain.engine import Fact, decode, replay
from domain.errors import NoSuchEvent
from domain.event_kinds import topic_words
from domain.explain import (
    Explanation,
    command_line,
    event_names,
    event_text,
    explain_event,
    outcome_line,
    percent,
    roll_lines,
)
from domain.header import GameHeader
from domain.rerun import Ruling, rerun
from viewer.figures import board_figure, board_height

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; color: #222; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
.meta { color: #555; } pre { background: #f6f6f6; padding: .8rem; white-space: pre-wrap; }
.current { font-weight: bold; } table { border-collapse: collapse; }
td, th { border: 1px solid #ddd; padding: .3rem .6rem; text-align: left; vertical-align: top; }
"""


@dataclass(frozen=True)
class ReportRequest:
    """What to report: the event (1-based, as ``wake log`` numbers it), the side whose view it
    is (None: the umpire's, everything) and the rulings to compare."""

    event: int
    viewer: str | None = None
    rulings: Sequence[Ruling] = field(default_factory=tuple)
    annotations: Sequence[Annotation] = field(default_factory=tuple)  # the game's, standing


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _explanation_html(ex: Explanation) -> str:
    parts = [f"<p><b>Event {ex.seq}</b>: {_e(ex.text)}</p>"]
    kind = topic_words(ex.topic)
    parts.append(f"<p class='meta'>{_e(kind)}{' (automatic)' if ex.automatic else ''}</p>")
    parts.extend(f"<p>{_e(note)}</p>" for note in ex.notes)
    if ex.rule:
        parts.append(f"<p><b>Rule {_e(ex.rule)}</b>: {_e(ex.rule_summary)}</p>")
    if ex.command is not None:
        parts.append(f"<p><b>Order</b> {_e(command_line(ex.command))}</p>")
    if ex.chance is not None:
        note = f" ({_e(ex.chance_note)})" if ex.chance_note else ""
        parts.append(f"<p>Chance of this outcome: <b>{_e(percent(ex.chance))}</b>{note}</p>")
    if ex.episode:
        rows = "".join(
            f"<tr class='{'current' if step.current else ''}'><td>{step.seq}</td>"
            f"<td>{_e(step.text)}</td><td>{_e(step.rule)}</td><td>{_e(step.rule_summary)}</td>"
            "</tr>"
            for step in ex.episode
        )
        parts.append(
            "<h2>The whole episode</h2><table><tr><th>event</th><th>what happened</th>"
            f"<th>rule</th><th>the rule says</th></tr>{rows}</table>"
        )
    for roll in ex.rolls:
        lines = [f"{roll.purpose} [{roll.rule}] (event {roll.seq}): {roll.rule_summary}"]
        if roll.subject or roll.target:
            lines.append(f"  {roll.subject or 'no unit'} -> {roll.target or 'no target'}")
        for line in roll.rolls:
            lines += [f"  {text}" for text in roll_lines(line)]
        lines += [
            f"  comparison: {roll.comparison}",
            f"  {outcome_line(roll)}",
            f"  value {roll.value} against an expected {roll.expected}",
        ]
        parts.append(f"<pre>{_e(chr(10).join(lines))}</pre>")
    return "\n".join(parts)


def _rulings_html(header: GameHeader, facts: Sequence[Fact], rulings: Sequence[Ruling]) -> str:
    if not rulings:
        return (
            "<p>No other ruling was asked for (<code>wake report … --option KEY=VALUE</code> "
            "adds one).</p>"
        )
    blocks = []
    for ruling in rulings:
        report = rerun(header, facts, ruling)
        blocks.append(f"<pre>{_e(chr(10).join(report.lines()))}</pre>")
    return "\n".join(blocks)


def _annotations_html(notes: Sequence[Annotation], event: int) -> str:
    """The annotations of ``event`` and of the game as a whole, as a table of escaped text."""
    shown = [n for n in notes if n.event == event] + [n for n in notes if n.event == 0]
    if not shown:
        return (
            "<p>No annotations on this event or on the game (<code>wake annotate GAME EVENT "
            "--author NAME --kind KIND --text TEXT</code> adds one).</p>"
        )
    rows = "".join(
        f"<tr><td>#{n.number}</td><td>{_e(n.target)}</td><td>{_e(n.kind)}</td>"
        f"<td>{_e(n.author)}</td><td>{_e(n.time)}</td><td><pre>{_e(n.text)}</pre></td></tr>"
        for n in shown
    )
    return (
        "<p class='meta'>Commentary kept with the game, outside its hash chain and not covered "
        "by signatures: each is bound to the chain digest after its event.</p>"
        "<table class='annotations'><tr><th>#</th><th>on</th><th>kind</th><th>author</th>"
        f"<th>time (UTC)</th><th>text</th></tr>{rows}</table>"
    )


def _kept_rulings_html(notes: Sequence[Annotation], event: int) -> str:
    kept = [n for n in notes if n.kind == "ruling" and n.event in (event, 0)]
    if not kept:
        return ""
    listed = ", ".join(f"#{n.number} ({_e(n.target)}, by {_e(n.author)})" for n in kept)
    return (
        f"<p>Ruling diffs and rulings kept with the game for this event: {listed}, listed "
        "under Annotations below.</p>"
    )


def build_report(header: GameHeader, facts: Sequence[Fact], request: ReportRequest) -> str:
    """The report page as HTML text.

    Raises:
        NoSuchEvent: the event is not in the game.
        WakeError: a ruling is refused (an unknown option, a bad value).
    """
    if not 1 <= request.event <= len(facts):
        raise NoSuchEvent(f"event {request.event} is not in this game (1..{len(facts)})")
    index = request.event - 1
    before = replay(header, facts[:index])
    after = replay(header, facts[: index + 1])
    ruleset = after.ruleset
    explanation = explain_event(
        before, facts, index, request.viewer, state_at=lambda n: replay(header, facts[:n])
    )
    event = decode(before, facts[index])
    seen = ruleset.redact(event, request.viewer)
    if seen != event:  # as in the viewer: a side sees what it may of a sealed event, no more
        explanation = replace(
            explanation,
            text=event_names(before, facts[index], request.viewer).text(event_text(ruleset, seen)),
            command=None,
            rolls=[],
            notes=(),
        )
    view = ruleset.read_model(after.rules)
    figure = board_figure(view, height=board_height(view))
    board = figure.to_html(full_html=False, include_plotlyjs=True, config={"responsive": True})
    who = request.viewer or "the umpire (everything)"
    sides = ", ".join(s.name for s in header.sides)
    side_names = {s.id: s.name for s in header.sides}
    result = after.result
    state_line = (
        f"{side_names.get(result.winner or '', result.winner or 'draw')} ({result.reason})"
        if result is not None
        else "in progress"
    )
    body = [
        f"<h1>Dispute report: event {request.event} of "
        f"{_e(header.title or header.scenario_id)}</h1>",
        f"<p class='meta'>{_e(ruleset.meta.name)} {_e(header.ruleset.version)} · {_e(sides)} · "
        f"game {_e(header.game_id)} · {len(facts)} events · dice: {_e(header.dice.mode)} · "
        f"result at this event: {_e(state_line)} · seen as {_e(who)}</p>",
        "<h2>The board after this event</h2>",
        board,
        "<h2>What happened and why</h2>",
        _explanation_html(explanation),
        "<h2>Other rulings (same orders, same dice)</h2>",
        _rulings_html(header, facts, request.rulings),
        _kept_rulings_html(request.annotations, request.event),
        "<h2>Annotations</h2>",
        _annotations_html(request.annotations, request.event),
    ]
    title = f"Wake dispute report: event {request.event}"
    return (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{_e(title)}</title>"
        f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>"
    )


def report_options(pairs: dict[str, Any]) -> list[Ruling]:
    """One ruling per option (each compared with the game as recorded on its own)."""
    return [Ruling(options={key: value}) for key, value in pairs.items()]
