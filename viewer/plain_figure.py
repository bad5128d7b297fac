"""A board figure built as plain dicts: the few ``plotly.graph_objects.Figure`` calls the board's
drawing code makes (``add_trace``, ``add_shape``, ``add_annotation``, ``update_layout``,
``update_xaxes``/``update_yaxes``, reading ``layout.shapes`` and ``layout.annotations``), with
none of plotly's property machinery.

Why: a hosted table draws the board for every view at every event (issue 20's load). Plotly's
figure spends about 50 ms of a board's 53 ms resolving property paths and deep-copying, even
with validation off; the drawing itself is a few milliseconds. The JSON is the same as the
validated figure's (``tests/test_board_json.py`` compares them for every ruleset), so a page
cannot tell which built it; static images and reports still use plotly's checked figure.

The drawing code builds traces with :func:`scatter`, which returns a plain dict while a plain
figure is being drawn (:func:`drawing_plain`) and a ``go.Scatter`` otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import Any

import plotly.graph_objects as go

_PLAIN: ContextVar[bool] = ContextVar("wake_plain_figure", default=False)

# Plotly's "magic underscore" names the drawing code uses; any other name with an underscore
# must be a property of its own (``plot_bgcolor``), or building refuses it rather than guess.
_PATHS = {"title_text": ("title", "text")}
_NAMES = {"plot_bgcolor", "paper_bgcolor"}


def _key(name: str) -> tuple[str, ...]:
    if name in _PATHS:
        return _PATHS[name]
    if "_" in name and name not in _NAMES:
        raise ValueError(f"the plain figure does not know the property {name!r}")
    return (name,)


def _clean(value: Any) -> Any:
    """A value as plotly stores it: ``None`` means unset, tuples are lists."""
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def _merge(target: dict[str, Any], updates: dict[str, Any]) -> None:
    """Plotly's update: nested dicts merge, anything else (lists included) replaces."""
    for name, value in updates.items():
        if value is None:
            continue
        *parents, last = _key(name)
        place = target
        for parent in parents:
            place = place.setdefault(parent, {})
        if isinstance(value, dict) and isinstance(place.get(last), dict):
            _merge(place[last], value)
        else:
            place[last] = _clean(value)


class PlainLayout:
    """The layout's dict, with the two lists the drawing code reads back."""

    def __init__(self) -> None:
        self.body: dict[str, Any] = {}

    @property
    def shapes(self) -> tuple[dict[str, Any], ...]:
        return tuple(self.body.get("shapes", ()))

    @property
    def annotations(self) -> tuple[dict[str, Any], ...]:
        return tuple(self.body.get("annotations", ()))


class PlainFigure:
    """What the board's drawing code does to a figure, on dicts."""

    def __init__(self) -> None:
        self.data: list[dict[str, Any]] = []
        self.layout = PlainLayout()

    def add_trace(self, trace: dict[str, Any] | go.Scatter) -> PlainFigure:
        if not isinstance(trace, dict):  # built outside drawing_plain(): its own JSON
            trace = trace.to_plotly_json()
        self.data.append(trace)
        return self

    def _append(self, where: str, item: dict[str, Any]) -> None:
        entry: dict[str, Any] = {}
        _merge(entry, item)
        self.layout.body.setdefault(where, []).append(entry)

    def add_shape(self, **shape: Any) -> PlainFigure:
        self._append("shapes", shape)
        return self

    def add_annotation(self, **note: Any) -> PlainFigure:
        self._append("annotations", note)
        return self

    def update_layout(self, **updates: Any) -> PlainFigure:
        _merge(self.layout.body, updates)
        return self

    def update_xaxes(self, **updates: Any) -> PlainFigure:
        _merge(self.layout.body.setdefault("xaxis", {}), updates)
        return self

    def update_yaxes(self, **updates: Any) -> PlainFigure:
        _merge(self.layout.body.setdefault("yaxis", {}), updates)
        return self

    def to_json(self) -> str:
        layout = {**self.layout.body, "template": _template()}
        data = [{k: v for k, v in trace.items() if k != "uid"} for trace in self.data]
        # plotly leaves traces' uids out of a figure's JSON (plotly.js makes its own)
        return json.dumps({"data": data, "layout": layout}, separators=(",", ":"))


@cache
def _template() -> dict[str, Any]:
    """The default template, as a new plotly figure carries it in its JSON."""
    template: dict[str, Any] = go.Figure().to_plotly_json()["layout"].get("template", {})
    plain: dict[str, Any] = json.loads(json.dumps(template, cls=_Encoder))
    return plain


class _Encoder(json.JSONEncoder):
    def default(self, o: Any) -> Any:  # plotly's template holds its own objects
        to_json = getattr(o, "to_plotly_json", None)
        return to_json() if to_json is not None else super().default(o)


@contextmanager
def drawing_plain() -> Iterator[None]:
    """While this is open, :func:`scatter` builds dicts for a :class:`PlainFigure`."""
    token = _PLAIN.set(True)
    try:
        yield
    finally:
        _PLAIN.reset(token)


def scatter(**trace: Any) -> Any:
    """A scatter trace: a ``go.Scatter``, or its dict while a plain figure is drawn."""
    if not _PLAIN.get():
        return go.Scatter(**trace)
    return {"type": "scatter", **_clean(trace)}


Figure = go.Figure | PlainFigure  # what the board's drawing code draws on
Trace = go.Scatter | dict[str, Any]  # what :func:`scatter` builds
