"""Terminal rendering of read models, logs and explanations (rich). No rules knowledge."""

from __future__ import annotations

import sys
from collections.abc import Callable

from rich.console import Console
from rich.table import Table
from rich.text import Text

__all__ = ["Console", "Table", "console", "explain", "log_line", "state_table"]

from domain.engine import Fact, GameState, decode
from domain.explain import event_names, event_text, explain_event, explanation_lines
from domain.move_list import side_names
from domain.read_model import HIDDEN_KIND, GameView, SideView, UnitView, redact_view
from domain.words import Names, capitalised, humanise, point_text, unit_labels

NOT_APPLICABLE = "-"
"""A cell with nothing to say (a card's damage, a face-down stack's status)."""
Row = tuple[str, str, str, str, str, str]
"""A table row: unit, side, kind, where, damage, status."""
ZONE_WORDS = {"hand": "in hand"}
"""A zone as a sentence says where a unit is, where its name alone does not."""


def side_label(side: SideView) -> str:
    """A side as the table names it: its display name (``royal_navy`` -> ``Royal Navy``), with
    its seat where players call it by one too (``Earth Defence Force (P1)``, ``Union (USA)``;
    ``domain.move_list.side_names`` keeps those seats as they are)."""
    if side.id in side_names([side]) or side.id == side.name:
        return side.name
    return f"{side.name} ({side.id})"


def _where(unit: UnitView) -> str:
    """Where a unit is: a point on the table, a box, a zone, or why it is on none of them
    (the ruleset's ``off_board``, else its status: sunk, destroyed)."""
    if unit.position is not None:
        return point_text(unit.position)
    if unit.cell is not None:
        return f"box ({unit.cell[0]}, {unit.cell[1]})"
    if unit.zone is not None:
        return ZONE_WORDS.get(unit.zone, humanise(unit.zone))
    if unit.off_board:
        return unit.off_board
    if unit.status != "active":
        return f"off the table ({humanise(unit.status)})"
    return "off the table"


def _unit_rows(view: GameView) -> list[tuple[str, ...]]:
    """One row a unit (unit, side, kind, where, damage, status), sides in the view's order,
    each side's units on the table first: a unit by the name the move list gives it; the
    private units this view may see (cards in a hand, a face-down fleet) by name, the same
    card held twice as one row (``Point defence ×2``); the units another side keeps hidden
    from this view (``redact_view``'s placeholders) as one row a zone, their count only."""
    order = {s.id: i for i, s in enumerate(view.sides)}
    sides = {s.id: side_label(s) for s in view.sides}
    plain = Names()  # a name that is an id (a scenario's ``merchant_01``) humanised, as the log
    labels = {uid: plain.text(label) for uid, label in unit_labels(view.units).items()}
    rows: list[tuple[int, int, str, Row]] = []
    stacks: dict[tuple[str, str, str, str, str], int] = {}  # side, name, kind, where, status
    hidden: dict[tuple[str, str], int] = {}
    for unit in view.units:
        where = _where(unit)
        if unit.kind == HIDDEN_KIND:
            hidden[(unit.side, where)] = hidden.get((unit.side, where), 0) + 1
        elif unit.private:
            key = (unit.side, unit.name, unit.kind, where, unit.status)
            stacks[key] = stacks.get(key, 0) + 1
        else:
            label = labels.get(unit.id, unit.name)
            damage = f"{unit.damage}/{unit.strength}"
            row = (label, unit.side, unit.kind, where, damage, unit.status)
            rows.append((order.get(unit.side, len(order)), 0, label, row))
    for (side, name, kind, where, status), count in stacks.items():
        label = name if count == 1 else f"{name} ×{count}"
        row = (label, side, kind, where, NOT_APPLICABLE, status)
        rows.append((order.get(side, len(order)), 1, label, row))
    for (side, where), count in hidden.items():
        row = (f"{count} face down", side, "hidden from this view", where, NOT_APPLICABLE, "")
        rows.append((order.get(side, len(order)), 2, where, row))
    return [
        (
            label,
            sides.get(side, humanise(side)),
            capitalised(humanise(kind)),
            where,
            damage,
            humanise(status) if status else NOT_APPLICABLE,
        )
        for *_, (label, side, kind, where, damage, status) in sorted(rows)
    ]


def state_table(view: GameView, seq: int) -> Table:
    """Units of a game view as a table in players' words (issue 21 item 7), titled with the
    turn, the phase and the side to act, the VP below: each unit by the name the move list
    gives it (``domain.words.unit_labels``), its side by name, its kind and status in words,
    where it is (a point, a box, a zone, or why it is on none). Another side's hidden units
    (a side's view, ``redact_view``) are only counted, face down."""
    names = {s.id: side_label(s) for s in view.sides}
    vps = ", ".join(
        f"{s.name} {s.vp} VP ({s.units_active}/{s.units_total} afloat)" for s in view.sides
    )
    acting = view.active_side
    title = (
        f"{view.ruleset_name} - {view.scenario} - event {seq} - turn {view.turn}, "
        f"{view.phase}" + (f", {names.get(acting, humanise(acting))} to act" if acting else "")
    )
    table = Table(title=Text(title))
    for col in ("unit", "side", "kind", "where", "damage", "status"):
        table.add_column(col)
    rows = _unit_rows(view)
    for row in rows:
        style = "dim" if row[5] not in ("active", NOT_APPLICABLE) else ""
        table.add_row(*(Text(cell) for cell in row), style=style)
    caption = vps if rows else f"No units in play yet ({view.phase}).\n{vps}"
    if view.result is not None:
        winner = view.result.winner
        said = f"{names.get(winner, humanise(winner))} wins" if winner else "a draw"
        caption += f"\nRESULT: {said}"
    table.caption = Text(caption)
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
