"""The ruler (issue 21 item 14): pick two units and read, in the ruleset's own measures, how far
apart they are and whether and at what range each can fire at the other (``Ruleset.ruler``);
a ruleset without its own ruler gets the plain distance on the board. Only units the viewer
may see are offered."""

from __future__ import annotations

import math

import streamlit as st

from domain.read_model import GameView, UnitView, redact_view
from viewer.timeline import Timeline


def _fallback(view: GameView, a: UnitView, b: UnitView) -> list[str]:
    if a.position is not None and b.position is not None:
        apart = math.dist(a.position, b.position)
        return [f"{a.name} to {b.name}: {apart:.1f} {view.board.unit} (straight line)"]
    if a.cell is not None and b.cell is not None:
        boxes = max(abs(a.cell[0] - b.cell[0]), abs(a.cell[1] - b.cell[1]))
        return [f"{a.name} and {b.name}: {boxes} box{'es' if boxes != 1 else ''} apart"]
    return [f"{view.ruleset_name} measures no distance between {a.name} and {b.name}"]


def measure(tl: Timeline, event: int, viewer: str | None, a: str, b: str) -> list[str]:
    """What the ruler reads between units ``a`` and ``b`` at ``event``."""
    view = redact_view(tl.view_at(event), viewer)
    units = {u.id: u for u in view.units if not u.private}
    if a not in units or b not in units:
        return ["Pick two units on the board."]
    lines = tl.ruleset.ruler(tl.state_at(event).rules, a, b)
    return lines if lines else _fallback(view, units[a], units[b])


def ruler_panel(tl: Timeline, event: int, viewer: str | None) -> None:
    """Two unit pickers and what the ruler reads between them, in an expander."""
    view = redact_view(tl.view_at(event), viewer)
    units = [u for u in view.units if not u.private and u.status == "active"]
    if len(units) < 2:
        return
    names = {u.id: u.name for u in units}
    with st.expander("Ruler: measure between two units"):
        left, right = st.columns(2)
        ids = list(names)
        a = left.selectbox("From", ids, format_func=names.__getitem__, key="ruler_a")
        b = right.selectbox("To", ids, index=1, format_func=names.__getitem__, key="ruler_b")
        if a == b:
            st.caption("Pick two different units.")
            return
        st.text("\n".join(measure(tl, event, viewer, str(a), str(b))))  # plain text
