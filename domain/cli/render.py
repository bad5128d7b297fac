"""Terminal rendering of read models, logs and explanations (rich). No rules knowledge."""

from __future__ import annotations

import sys
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

__all__ = ["Console", "Table", "console", "explain", "log_line", "state_table"]

from domain.engine import Fact, GameState, decode
from domain.explain import event_names, event_text, explain_event, explanation_lines
from domain.read_model import GameView, redact_view


def state_table(view: GameView, seq: int) -> Table:
    """Units of a game view as a table, titled with turn, phase and VP."""
    vps = ", ".join(
        f"{s.name} {s.vp} VP ({s.units_active}/{s.units_total} afloat)" for s in view.sides
    )
    title = (
        f"{view.ruleset_name} - {view.scenario} - event {seq} - turn {view.turn}, "
        f"{view.phase}" + (f", {view.active_side} to act" if view.active_side else "")
    )
    table = Table(title=title, caption=vps)
    for col in ("unit", "side", "kind", "where", "damage", "status"):
        table.add_column(col)
    for unit in sorted(view.units, key=lambda u: (u.side, u.id)):
        if unit.position is not None:
            where = f"({unit.position[0]:.1f}, {unit.position[1]:.1f})"
        elif unit.cell is not None:
            where = f"box {unit.cell}"
        else:
            where = unit.zone or ""
        style = "dim" if unit.status != "active" else ""
        table.add_row(
            unit.id,
            unit.side,
            unit.kind,
            where,
            f"{unit.damage}/{unit.strength}",
            unit.status,
            style=style,
        )
    if view.result is not None:
        table.caption = f"{vps}\nRESULT: {view.result.winner or 'draw'}"
    return table


def log_line(state: GameState, fact: Fact, viewer: str | None = None) -> str:
    """One event's line in players' words, as the move list writes it, for an event printed on
    its own (``wake submit``, ``wake demo --terminal``): the order's sentence or the event's
    description (``domain.explain.event_text``) with the names ``viewer`` knows around it
    (``domain.explain.event_names``); ``viewer`` (a side) reads it with hidden information
    redacted. A whole game's log is ``domain.move_list.log_lines``."""
    event = decode(state, fact)
    if viewer is not None:
        event = state.ruleset.redact(event, viewer)
    board = redact_view(state.ruleset.read_model(state.rules), viewer)
    text = event_names(state, fact, viewer).text(event_text(state.ruleset, event, board))
    marker = "*" if fact.automatic else " "
    return f"{fact.seq:>6}{marker} {text}"


def explain(
    state_before: GameState,
    facts: list[Fact],
    index: int,
    state_at: Callable[[int], GameState] | None = None,
) -> list[str]:
    """Text explanation of ``facts[index]`` (see ``domain.explain``; ``state_at``: the state
    after an earlier event, for the board the order was given on)."""
    return explanation_lines(explain_event(state_before, facts, index, state_at=state_at))


def console() -> Console:
    """Terminal output; when piped or captured, wide enough that ids and log lines never wrap."""
    return Console(highlight=False, width=None if sys.stdout.isatty() else 160)
