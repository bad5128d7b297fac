"""What every figure of the viewer shares: the side palette, colours, sizes, and the small
formatting helpers (a value as a person reads it, HTML-escaped text for Plotly, a marker's fill
and size from its damage)."""

from __future__ import annotations

import html

from domain.read_model import Detail, FeatureView, OverlayView, ShapeView, UnitView
from domain.words import value_text

# Okabe-Ito colour-blind-friendly palette, in side order.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
ATTACK_COLOUR = "#C00000"
FOCUS_COLOUR = "#111111"
BOARD_UIREVISION = "wake-board"
TIMESERIES_UIREVISION = "wake-timeseries"

MIN_FILL_ALPHA = 0.15  # fill opacity of a unit whose damage has reached its strength
MAX_MARKER_SIZE = 28
SLOT_RADIUS = 0.28  # ring radius of units sharing one cell / box (cell size 1)
SLOT_SPAN = 0.38  # half-width of the square used when a cell / box holds many units

SHAPED_MARKER_SIZE = 9  # the marker of a unit drawn with shapes: small, over its centre
SHAPE_FILL_ALPHA = {"base": 0.10, "zone": 0.30, "heading": 0.90}
FEATURE_FILL = "rgba(128,128,128,0.30)"
FEATURE_LINE = "#7F7F7F"
OUT_LINE = "#A0A0A0"
OVERLAY_COLOURS = {"line_of_sight": ATTACK_COLOUR, "range": "#6A3D9A", "path": "#117733"}
OVERLAY_OTHER = ("#882255", "#44AA99", "#999933", "#332288")
CIRCLE_QUAD_SEGS = 8  # a circle is drawn as a 32-gon

Point = tuple[float, float]
Geometry = ShapeView | FeatureView | OverlayView
MAX_TURN_MARKS = 40  # turn lines a time-series chart draws at most
BOARD_HEIGHT = 560
TALL_BOARD_HEIGHT = 760


def _fmt(value: Detail | float) -> str:
    """A detail as players read it: yes/no, short numbers, lists in words (issue 21 item 7)."""
    return value_text(value)


def _esc(text: str) -> str:
    return html.escape(text, quote=False)


def _rgba(hex_colour: str, alpha: float) -> str:
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha:.2f})"


def _damage_ratio(unit: UnitView) -> float:
    if unit.strength <= 0:
        return 0.0 if unit.damage <= 0 else 1.0
    return min(max(unit.damage / unit.strength, 0.0), 1.0)


def _marker_size(unit: UnitView) -> float:
    if unit.shapes:  # its shapes show it; the marker only marks the centre and holds the hover
        return float(SHAPED_MARKER_SIZE)
    return float(min(10 + 3 * max(unit.strength, 0), MAX_MARKER_SIZE))
