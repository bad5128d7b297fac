"""The viewer's variations panel (issue 14): a game's line of play and its variations as a tree,
like the variation list of a chess analysis board, a switch to another line, and a chart that
compares a curve (damage per side, victory points, luck) of this line and one other.

The tree comes from the store (``domain.variations``): the first stored ancestor of the open
game, every game that continues it (forks, saved reruns), theirs, and so on, each with the event
it leaves its parent at. Switching keeps the current event when the other line has it (else its
last event). Titles come from records, so they go out as plain text (``st.text``, selectbox
labels) or escaped (``viewer.safe_text``), never as Markdown or HTML. ``main()`` of
``viewer/app.py`` calls :func:`variations_panel` once; nothing here knows a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from domain.errors import WakeError
from domain.lineage import shared_prefix
from domain.store import GameStore
from domain.variations import Variation, fork_game, line_root, variation_tree
from viewer.figures import PALETTE, TIMESERIES_UIREVISION
from viewer.loading import LoadedGame, LoadError, from_store
from viewer.safe_text import escape_markdown as _md
from viewer.safe_text import escape_plotly
from viewer.timeline import Timeline

#: The curves two lines can be compared on: label -> Timeline series attribute, y-axis title.
CURVES: dict[str, tuple[str, str]] = {
    "Damage taken per side": ("damage_side", "damage taken"),
    "Victory points": ("vp", "VP"),
    "Luck (actual − expected)": ("luck", "actual − expected"),
}


@dataclass(frozen=True)
class Row:
    """One line of the tree as shown: its depth, the game, and a plain-text label."""

    depth: int
    node: Variation
    current: bool

    @property
    def label(self) -> str:
        """Plain text: where the line leaves its parent, its title, length and result."""
        title = " ".join(self.node.title.split()) or self.node.game_id
        where = "main line" if self.node.event is None else f"after event {self.node.event}"
        return f"{where}: {title} · {self.node.length} events · {self.node.result}"


def tree_rows(tree: Variation, current: str) -> list[Row]:
    """The tree, depth first (a parent before its children, children by fork event)."""
    return [Row(depth, node, node.game_id == current) for depth, node in tree.walk()]


def tree_text(rows: list[Row]) -> str:
    """The tree as plain text, the open line marked with ▶."""
    out = []
    for row in rows:
        mark = "▶ " if row.current else "  "
        branch = "  " * max(row.depth - 1, 0) + ("└ " if row.depth else "")
        out.append(f"{mark}{branch}{row.label}")
    return "\n".join(out)


def kept_event(event: int, other_length: int) -> int:
    """The event to show in the other line: the same one when that line has it, else its end."""
    return max(0, min(event, other_length))


def compare_figure(
    title: str,
    this: dict[str, list[tuple[int, float]]],
    other: dict[str, list[tuple[int, float]]],
    *,
    this_label: str,
    other_label: str,
    this_end: int,
    other_end: int,
    split: int,
    cursor: int,
    y_title: str = "",
) -> go.Figure:
    """One chart of a curve in two lines: this line solid, the other dashed, a side's colour
    shared by both; a dotted line where they part (``split``), a solid one at the cursor.

    Every label is escaped for Plotly (record text is never markup)."""
    fig = go.Figure()
    names = list(dict.fromkeys([*this, *other]))
    colours = {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(names)}
    for series, label, end, dash in (
        (this, this_label, this_end, "solid"),
        (other, other_label, other_end, "dash"),
    ):
        for name, points in series.items():
            xs = [seq for seq, _ in points]
            ys = [value for _, value in points]
            if xs and xs[-1] < end:
                xs.append(end)
                ys.append(ys[-1])
            text = escape_plotly(f"{name} · {label}")
            fig.add_trace(
                go.Scatter(
                    name=text,
                    x=xs,
                    y=ys,
                    mode="lines",
                    line_shape="hv",
                    line={"color": colours[name], "width": 2, "dash": dash},
                    hovertemplate=f"event %{{x}}<br>%{{y}}<extra>{text}</extra>",
                )
            )
    fig.add_vline(x=split, line={"color": "#888888", "dash": "dot", "width": 1})
    fig.add_vline(x=cursor, line={"color": "black", "width": 2})
    fig.update_layout(
        title={"text": escape_plotly(title), "x": 0.01, "xanchor": "left"},
        height=320,
        margin={"l": 50, "r": 10, "t": 50, "b": 40},
        uirevision=TIMESERIES_UIREVISION,
        plot_bgcolor="white",
        legend={"orientation": "h", "yanchor": "top", "y": -0.25, "x": 0},
        xaxis_title="event",
        yaxis_title=escape_plotly(y_title),
    )
    return fig


# --- Streamlit ----------------------------------------------------------------------------------


@st.cache_data(ttl=5, show_spinner=False)
def _tree(store: str | None, game_id: str) -> Variation | None:
    """The variation tree the stored game belongs to (None when the game is not stored)."""
    try:
        games = GameStore(store)
        return variation_tree(games, line_root(games, game_id))
    except WakeError:
        return None


@st.cache_resource(max_entries=4, show_spinner="Indexing the other line…")
def _other_line(store: str | None, game_id: str, length: int) -> tuple[LoadedGame, Timeline]:
    game = from_store(store, game_id)
    return game, Timeline(game.header, game.facts)


@st.cache_data(max_entries=16, show_spinner=False)
def _split(key: str, _a: Timeline, _b: Timeline) -> int:
    """Where two lines part: how many leading events they share."""
    return shared_prefix(_a.facts, _b.facts)


def _switch(target: str, event: int, on_switch: Callable[[], None] | None) -> None:
    """Open ``target`` at ``event``: the game in the link, the position kept (the app starts a
    newly picked game at its beginning unless it is already the remembered one)."""
    st.query_params["game"] = target
    st.query_params["event"] = str(event)
    st.session_state["event"] = event
    st.session_state["_game"] = target
    if on_switch is not None:
        on_switch()


TABLE_DICE = "rolled at the table"
GAME_DICE = "the computer's (the game's own seed)"


def _play_another_order(store: str | None, game: LoadedGame, event: int, record_page: Any) -> None:
    """Issue 21 item 13: a new line from this event (``wake fork``), opened on the scribe's
    page to enter another order there."""
    seeded = game.header.dice.mode != "physical"
    left, right = st.columns([3, 2], vertical_alignment="bottom")
    dice = (
        left.radio(
            "Dice from here",
            [TABLE_DICE, GAME_DICE],
            horizontal=True,
            key="fork_dice",
            help="A seeded game's seed carries over only once it is public (the game ended).",
        )
        if seeded
        else TABLE_DICE
    )
    if not right.button(
        "Play another order here",
        key="fork_here",
        help=f"A new line that shares events 1–{event} with this game, on the Record page.",
        width="stretch",
    ):
        return
    title = f"{game.header.title or 'game'}: another order after event {event}"
    try:
        header = fork_game(
            GameStore(store), game.header.game_id, event, title, physical=dice == TABLE_DICE
        )
    except WakeError as exc:
        st.error(_md(exc.message))
        return
    st.switch_page(record_page, query_params={"game": header.game_id})


def variations_panel(
    store: str | None,
    game: LoadedGame,
    tl: Timeline,
    event: int,
    *,
    on_switch: Callable[[], None] | None = None,
    record_page: Any | None = None,
) -> None:
    """The Variations section: the tree, a switch to another line, the compare chart, and
    (with ``record_page``, the scribe's page) "play another order here" on a new fork.
    ``on_switch`` runs when a line is switched to (the app clears its list of stored games)."""
    st.subheader("Variations")
    game_id = game.header.game_id
    ref = game.header.parent
    if record_page is not None and game.source == "store":
        _play_another_order(store, game, event, record_page)
    tree = _tree(store, game_id) if game.source == "store" else None
    if tree is None:
        if ref is not None:
            st.text(f"A variation of {ref.game_id} after event {ref.event}.")
        st.caption(
            "Open a stored game to see its variations (`wake fork`, `wake rerun --save`)."
            if ref is None
            else "Its parent line is shown when this game is opened from the store."
        )
        return
    rows = tree_rows(tree, game_id)
    if len(rows) == 1:
        st.caption(
            "No variations of this game yet: make one with `wake fork GAME --at EVENT` or "
            "`wake rerun GAME --option KEY=VALUE --save`."
        )
        return
    st.text(tree_text(rows))  # plain text: titles come from records
    others = [row for row in rows if not row.current]
    labels = {row.node.game_id: ("  " * row.depth) + row.label for row in others}
    ids = list(labels)
    pick, button = st.columns([4, 1], vertical_alignment="bottom")
    target = pick.selectbox(
        "Line", ids, format_func=lambda i: labels[i], key=f"variation_pick_{game_id}"
    )
    length = next(row.node.length for row in others if row.node.game_id == target)
    button.button(
        "Switch to this line",
        on_click=_switch,
        args=(target, kept_event(event, length), on_switch),
        width="stretch",
        help="Opens the other line at this event when it has it, else at its end.",
    )
    lengths = {row.node.game_id: row.node.length for row in others}
    _compare(store, tl, event, labels, lengths, game_id)


def _compare(
    store: str | None,
    tl: Timeline,
    event: int,
    labels: dict[str, str],
    lengths: dict[str, int],
    me: str,
) -> None:
    ids = list(labels)
    left, right = st.columns([3, 2])
    other_id = left.selectbox(
        "Compare this line with", ids, format_func=lambda i: labels[i], key=f"compare_{me}"
    )
    curve = right.selectbox("Curve", list(CURVES), key="compare_curve")
    if other_id is None or curve is None:
        return
    try:
        _, other = _other_line(store, other_id, lengths[other_id])
    except LoadError as exc:
        st.error(_md(exc))
        return
    attribute, y_title = CURVES[curve]
    split = _split(f"{me}:{tl.length}|{other_id}:{other.length}", tl, other)
    other_title = " ".join(other.header.title.split()) or other_id
    fig = compare_figure(
        f"{curve}: this line (solid) and the other (dashed)",
        getattr(tl, attribute).points,
        getattr(other, attribute).points,
        this_label="this line",
        other_label=other_title,
        this_end=tl.length,
        other_end=other.length,
        split=split,
        cursor=event,
        y_title=y_title,
    )
    st.plotly_chart(fig, key="compare_chart")
    st.caption(f"The lines share their first {split} events (dotted line).")


__all__ = [
    "CURVES",
    "Row",
    "compare_figure",
    "kept_event",
    "tree_rows",
    "tree_text",
    "variations_panel",
]
