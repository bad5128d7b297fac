"""The scribe's board (issue 20): a Streamlit component that draws a board figure and returns
what was clicked — a unit that may be picked, a point on a continuous table, a box of a grid —
so that orders are entered where a player would point, not typed."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, TypedDict

import plotly.graph_objects as go
import streamlit.components.v1 as components

from viewer.components import component_dir

STATIC = Path(__file__).with_name("static")
FILES = ("index.html", "board.js")

_component = components.declare_component(
    "wake_board_input", path=str(component_dir("board-input", STATIC, FILES))
)

Free = Literal["none", "point", "cell"]


class Click(TypedDict, total=False):
    """What was clicked: ``kind`` ``unit`` (``id``), ``point`` (``x``, ``y``) or ``cell``
    (``c``, ``r``); ``n`` tells one click from another; ``figure`` is the key of the figure
    clicked on."""

    kind: str
    id: str
    x: float
    y: float
    c: int
    r: int
    n: str
    figure: str


def as_click(value: Any) -> Click | None:
    """The component's value as a :class:`Click`, or None (nothing clicked, or not ours)."""
    if not isinstance(value, dict) or value.get("kind") not in ("unit", "point", "cell"):
        return None
    try:
        click = Click(kind=str(value["kind"]), n=str(value["n"])[:80])
        click["figure"] = str(value.get("figure") or "")
        if click["kind"] == "unit":
            click["id"] = str(value["id"])[:200]
        elif click["kind"] == "point":
            click["x"], click["y"] = float(value["x"]), float(value["y"])
        else:
            click["c"], click["r"] = int(value["c"]), int(value["r"])
    except (KeyError, TypeError, ValueError):
        return None
    return click


def board_input(
    figure: go.Figure | str,
    *,
    key: str,
    figure_key: str,
    pickable: list[str],
    free: Free = "none",
    hint: str = "",
) -> Click | None:
    """Draw ``figure`` (or its JSON); the last click (a unit among ``pickable``, or a free
    point or box)."""
    value = _component(
        figure=figure if isinstance(figure, str) else figure.to_json(),
        figure_key=figure_key,
        pickable=pickable,
        free=free,
        hint=hint,
        key=key,
        default=None,
    )
    return as_click(value)
