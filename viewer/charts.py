"""Time-series charts of the replay viewer (damage, victory points, luck): step lines over event
numbers with turn marks and a cursor. Split from ``viewer.figures`` (issue 22 item 18)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import plotly.graph_objects as go

from viewer.figure_style import MAX_TURN_MARKS, PALETTE, TIMESERIES_UIREVISION, _esc


def timeseries_figure(
    title: str,
    series: dict[str, list[tuple[int, float]]],
    *,
    cursor: int,
    turn_starts: Sequence[tuple[int, int]] = (),
    y_title: str = "",
    colours: dict[str, str] | None = None,
    end: int | None = None,
    height: int = 300,
) -> go.Figure:
    """Step lines over event numbers (value holds until the next point), with a cursor line.

    Every point carries its event seq in ``customdata`` so a click can move the replay there.
    """
    fig = go.Figure()
    fig.update_layout(
        title={"text": _esc(title), "x": 0.01, "xanchor": "left"},
        height=height,
        margin={"l": 50, "r": 10, "t": 50, "b": 40},
        uirevision=TIMESERIES_UIREVISION,
        clickmode="event+select",
        plot_bgcolor="white",
        legend={"orientation": "h", "yanchor": "top", "y": -0.25, "x": 0},
    )
    if not series:
        fig.add_annotation(
            text="no data",
            xref="paper",
            yref="paper",
            x=0.5,
            y=0.5,
            showarrow=False,
            font={"size": 14, "color": "#888888"},
        )
        fig.update_xaxes(visible=False)
        fig.update_yaxes(visible=False)
        return fig

    for i, (name, points) in enumerate(series.items()):
        xs = [seq for seq, _ in points]
        ys = [value for _, value in points]
        sizes = [6.0] * len(xs)
        if end is not None and xs and xs[-1] < end:
            xs.append(end)  # carry the last value to the end; no marker: nothing happened there
            ys.append(ys[-1])
            sizes.append(0.0)
        colour = (colours or {}).get(name, PALETTE[i % len(PALETTE)])
        fig.add_trace(
            go.Scatter(
                name=_esc(name),
                x=xs,
                y=ys,
                mode="lines+markers",
                line_shape="hv",
                line={"color": colour, "width": 2},
                marker={"size": sizes, "color": colour},
                customdata=xs,
                hovertemplate=f"event %{{x}}<br>%{{y}}<extra>{_esc(name)}</extra>",
            )
        )

    # turn lines in one layout update (adding shapes one by one is quadratic in plotly: a
    # 400-turn game took half a minute per chart); a long game labels every n-th turn only
    step = max(1, math.ceil(len(turn_starts) / MAX_TURN_MARKS))
    marks = list(turn_starts)[::step]
    shapes = [
        {
            "type": "line",
            "x0": seq,
            "x1": seq,
            "xref": "x",
            "y0": 0,
            "y1": 1,
            "yref": "paper",
            "layer": "below",
            "line": {"color": "#BBBBBB", "width": 1, "dash": "dot"},
        }
        for _, seq in marks
    ]
    notes = [
        {
            "x": seq,
            "y": 1,
            "xref": "x",
            "yref": "paper",
            "text": f"T{turn}",
            "showarrow": False,
            "xanchor": "left",
            "yanchor": "top",
            "font": {"size": 9, "color": "#888888"},
        }
        for turn, seq in marks
    ]
    fig.update_layout(
        shapes=[*fig.layout.shapes, *shapes], annotations=[*fig.layout.annotations, *notes]
    )
    _cursor(fig, cursor)
    fig.update_xaxes(title_text="event", showgrid=True, gridcolor="#EEEEEE", zeroline=False)
    fig.update_yaxes(title_text=y_title, showgrid=True, gridcolor="#EEEEEE", zeroline=False)
    return fig


def _cursor(fig: go.Figure, cursor: int) -> None:
    fig.add_shape(
        type="line",
        x0=cursor,
        x1=cursor,
        xref="x",
        y0=0,
        y1=1,
        yref="paper",
        line={"color": "#222222", "width": 2},
    )
    fig.add_annotation(
        x=cursor,
        y=1,
        xref="x",
        yref="paper",
        text=f"event {cursor}",
        showarrow=False,
        yanchor="bottom",
        font={"size": 10, "color": "#222222"},
    )
