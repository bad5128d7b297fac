"""Wake replay viewer (Streamlit): pick a game, scrub it event by event, see why things happened.

Run with ``wake view`` (or ``streamlit run viewer/app.py -- [--store S] [--game ID | --record F]``).
The position lives in the URL (``?game=ID&event=N``) so a link points at a disputed moment.
Everything is drawn from generic read models, timelines and explanations: no rules here.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import logging
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from domain.annotations import Annotation
from domain.engine import decode
from domain.errors import WakeError
from domain.explain import Explanation, explain_event, percent
from domain.read_model import redact_view, sides_label
from domain.record import write_record
from domain.store import GameStore, store_location
from viewer import annotations as notes_ui
from viewer.figures import (
    MAX_TURN_MARKS,
    Highlight,
    board_figure,
    board_height,
    figure_png,
    side_colours,
    timeseries_figure,
)
from viewer.loading import (
    LoadedGame,
    LoadError,
    Trust,
    check_game,
    from_bytes,
    from_file,
    from_store,
    list_games,
)
from viewer.safe_text import escape_markdown as _md
from viewer.safe_text import escape_plotly
from viewer.timeline import Timeline
from viewer.variations import variations_panel

UMPIRE = "Umpire (everything)"
LOG_ROWS = 500  # rows sent to the browser: keeps a scrub step independent of game length
KEYS_JS = """
<script>
const doc = window.parent.document;
if (!doc.wakeKeys) {
  doc.wakeKeys = true;
  doc.addEventListener('keydown', (e) => {
    const t = e.target;
    const tag = (t && t.tagName) || '';
    if (tag === 'INPUT' || tag === 'TEXTAREA' || (t && t.isContentEditable)) return;
    if (t && t.getAttribute && t.getAttribute('role') === 'slider') return; // slider keys
    const map = {ArrowRight: 'Next event', ArrowLeft: 'Previous event',
                 PageDown: 'Next turn', PageUp: 'Previous turn',
                 n: 'Next swing', p: 'Previous swing', Home: 'Start', End: 'End'};
    let label = map[e.key];
    if (e.shiftKey && e.key === 'ArrowRight') label = 'Next turn';
    if (e.shiftKey && e.key === 'ArrowLeft') label = 'Previous turn';
    if (!label) return;
    const button = Array.from(doc.querySelectorAll('button'))
      .find((b) => b.innerText.replace(/[«»‹›]/g, '').trim() === label);
    if (button) { e.preventDefault(); button.click(); }
  });
}
</script>
"""


# --- command line and caching -------------------------------------------------------------------


def _cli_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="wake view")
    parser.add_argument("--store", default=None)
    parser.add_argument("--game", default=None)
    parser.add_argument("--record", default=None)
    args, _ = parser.parse_known_args(sys.argv[1:])
    args.store = store_location(args.store)  # resolved once: caches key on the real location
    return args


@st.cache_resource(max_entries=8, show_spinner="Indexing the game…")
def _timeline(key: str, _game: LoadedGame) -> Timeline:
    """One timeline per game version (key = id + length, or the upload's hash)."""
    return Timeline(_game.header, _game.facts)


@st.cache_resource(max_entries=16, show_spinner="Verifying the game (re-running its orders)…")
def _trust(key: str, _game: LoadedGame) -> Trust:
    """One verification per game version (same key as the timeline): scrubbing stays fast."""
    return check_game(_game)


@st.cache_data(ttl=5, show_spinner=False)
def _games(store: str | None) -> list[dict[str, Any]]:
    return [s.model_dump() for s in list_games(store)]


def _offer_to_keep(store: str | None, game: LoadedGame) -> None:
    """A game opened from a file is not in the store, so a link to it (``?game=``) would not
    open it: say so, and offer to keep it there (imported as ``wake import`` does: checked
    first, nothing stored if it fails)."""
    sb = st.sidebar
    game_id = game.header.game_id
    try:
        stored = {g["game_id"] for g in _games(store)}
    except LoadError:
        stored = set()
    if game_id in stored:
        sb.caption("This game is also in the store: its link opens it.")
        return
    sb.caption("This game is not in the store: a link to it opens nothing until it is kept.")
    if sb.button("Keep it in the store", key="keep_game"):
        try:
            kept = [check.signature for check in game.signatures if check.valid]
            GameStore(store).import_game(
                game.header,
                game.facts,
                game.seed_reveal,
                signatures=kept,
                annotations=game.annotations,
            )
        except WakeError as exc:
            sb.error(f"Not kept: {_md(exc)}")
            return
        _games.clear()
        sb.success("Kept: the link in the address bar now opens this game.")


# --- navigation callbacks -----------------------------------------------------------------------


def _go(seq: int) -> None:
    st.session_state["event"] = max(0, min(int(seq), st.session_state.get("_length", 0)))


def _on_chart_select(key: str) -> None:
    state = st.session_state.get(key)
    points = (state or {}).get("selection", {}).get("points", []) if state else []
    if points:
        point = points[0]
        seq = point.get("customdata")
        if isinstance(seq, list):
            seq = seq[0] if seq else None
        _go(int(seq if seq is not None else point.get("x", 0)))


# --- page parts ---------------------------------------------------------------------------------


def _pick_game(args: argparse.Namespace) -> tuple[str, LoadedGame] | None:
    """Sidebar: choose a stored game or upload a record. Returns (cache key, game)."""
    sb = st.sidebar
    sb.header("Game")
    upload = sb.file_uploader(
        "Open a record file",
        type=["json"],
        help="A .wake.json record; it is validated, never executed.",
    )
    if upload is not None:
        data = upload.getvalue()
        try:
            game = from_bytes(data, upload.name)
        except LoadError as exc:
            sb.error(_md(exc))
            st.error(f"Could not open {_md(upload.name)}: {_md(exc)}")
            return None
        st.query_params["game"] = game.header.game_id
        _offer_to_keep(args.store, game)
        return "upload:" + hashlib.sha256(data).hexdigest(), game
    if args.record:
        try:
            game = from_file(Path(args.record))
        except LoadError as exc:
            st.error(_md(exc))
            return None
        _offer_to_keep(args.store, game)
        return f"file:{args.record}:{len(game.facts)}", game
    try:
        games = _games(args.store)
    except LoadError as exc:
        st.error(_md(exc))
        return None
    if not games:
        st.info(
            "The store has no games yet. Import some with `wake import` or `make demo`, "
            "or open a record file in the sidebar."
        )
        return None
    ids = [g["game_id"] for g in games]
    wanted = st.query_params.get("game") or args.game or ids[0]
    labels = {
        g["game_id"]: f"{g['title'] or g['scenario']} · {g['ruleset']} · "
        f"{sides_label(g['sides'])} · {g['events']} events · {g['result']}"
        for g in games
    }
    known = wanted in ids
    if not known:  # the URL's text is not echoed: it is anybody's
        st.warning(
            "The game named in the link is not in the store, so no game is open: pick one "
            "under Stored games."
        )
    chosen = sb.selectbox(
        "Stored games",
        ids,
        index=ids.index(wanted) if known else None,
        format_func=lambda i: labels[i],
        placeholder="Pick a game",
    )
    if chosen is None:
        return None
    if chosen != st.query_params.get("game"):
        st.query_params["game"] = chosen
    try:
        game = from_store(args.store, chosen)
    except LoadError as exc:
        st.error(_md(exc))
        return None
    return f"store:{chosen}:{len(game.facts)}", game


def _navigation(tl: Timeline) -> int:
    length = tl.length
    st.session_state["_length"] = length
    if "event" not in st.session_state:
        try:
            st.session_state["event"] = int(st.query_params.get("event", length))
        except ValueError:
            st.session_state["event"] = length
    clamped = max(0, min(st.session_state["event"], length))
    if clamped != st.session_state["event"]:  # writing an unchanged value would push it back
        st.session_state["event"] = clamped  # to the slider and drop a key press in flight
    event = st.session_state["event"]
    row = st.columns(6)
    row[0].button("« Start", on_click=_go, args=(0,), width="stretch")
    row[1].button(
        "‹‹ Previous turn", on_click=_go, args=(tl.prev_turn_start(event),), width="stretch"
    )
    row[2].button("‹ Previous event", on_click=_go, args=(event - 1,), width="stretch")
    row[3].button("Next event ›", on_click=_go, args=(event + 1,), width="stretch")
    row[4].button("Next turn ››", on_click=_go, args=(tl.next_turn_start(event),), width="stretch")
    row[5].button("End »", on_click=_go, args=(length,), width="stretch")
    prev_swing, next_swing = tl.prev_swing(event), tl.next_swing(event)
    swing = st.columns([1, 1, 4])
    swing[0].button(
        "Previous swing",
        on_click=_go,
        args=(prev_swing.seq if prev_swing else 0,),
        disabled=prev_swing is None,
        width="stretch",
        help=f"event {prev_swing.seq}: {_md(prev_swing.text)}" if prev_swing else None,
    )
    swing[1].button(
        "Next swing",
        on_click=_go,
        args=(next_swing.seq if next_swing else length,),
        disabled=next_swing is None,
        width="stretch",
        help=f"event {next_swing.seq}: {_md(next_swing.text)}" if next_swing else None,
    )
    if next_swing is not None:
        swing[2].caption(
            f"Next swing: event {next_swing.seq} ({next_swing.kind}) — {_md(next_swing.text)}"
        )
    st.slider(
        "Event",
        0,
        length,
        key="event",
        help="Arrow keys move the slider when it has focus; elsewhere: ←/→ event, "
        "Shift+←/→ or PgUp/PgDn turn, n/p swing, Home/End.",
    )
    event = st.session_state["event"]
    st.plotly_chart(
        _strip(tl, event),
        key="strip",
        on_select=lambda: _on_chart_select("strip"),
        selection_mode="points",
        config={"displayModeBar": False},
    )
    return int(event)


def _strip(tl: Timeline, event: int) -> go.Figure:
    """A thin band under the slider: turn and phase boundaries, swings, the cursor."""
    fig = go.Figure()
    bounds = [*tl.phase_starts, ("end", tl.length)]
    palette = ["#e8eef7", "#f7efe6", "#eaf5ea", "#f5e9f2", "#f4f4e4"]
    phases = sorted({p for p, _ in tl.phase_starts})
    # every shape and label in one layout update: adding them one by one is quadratic in
    # plotly (a 10,000-event game's strip took minutes); a long game labels every n-th turn
    spans = list(itertools.pairwise(bounds))
    fig.add_trace(  # phase bands as one bar trace: thousands of shapes are slow to build
        go.Bar(
            x=[(start + max(stop, start + 0.5)) / 2 for (_, start), (_, stop) in spans],
            width=[max(stop - start, 0.5) for (_, start), (_, stop) in spans],
            y=[1.0] * len(spans),
            base=0,
            marker={
                "color": [palette[phases.index(phase) % len(palette)] for (phase, _), _ in spans],
                "line": {"width": 0},
            },
            customdata=[start for (_, start), _ in spans],  # a click on a band: its start
            hovertemplate="%{customdata}: " + "%{text}<extra></extra>",
            text=[escape_plotly(phase) for (phase, _), _ in spans],
            showlegend=False,
        )
    )
    shapes: list[dict[str, Any]] = []
    step = max(1, math.ceil(len(tl.turn_starts) / MAX_TURN_MARKS))
    marks = tl.turn_starts[::step]
    shapes += [
        {
            "type": "line",
            "x0": start,
            "x1": start,
            "y0": 0,
            "y1": 1,
            "line": {"color": "#555", "width": 1},
        }
        for _, start in marks
    ]
    labels = [
        {
            "x": start,
            "y": 1,
            "text": f"T{turn}",
            "showarrow": False,
            "yanchor": "bottom",
            "xanchor": "left",
            "font": {"size": 10},
        }
        for turn, start in marks
    ]
    fig.update_layout(shapes=shapes, annotations=labels)
    kinds = {
        "kill": ("#c0392b", "x"),
        "critical": ("#e67e22", "star"),
        "lucky": ("#27ae60", "triangle-up"),
        "unlucky": ("#8e44ad", "triangle-down"),
    }
    for kind, (colour, symbol) in kinds.items():
        swings = [s for s in tl.swings if s.kind == kind]
        if swings:
            fig.add_trace(
                go.Scatter(
                    x=[s.seq for s in swings],
                    y=[0.5] * len(swings),
                    mode="markers",
                    marker={"color": colour, "symbol": symbol, "size": 9},
                    name=kind,
                    customdata=[s.seq for s in swings],
                    text=[escape_plotly(s.text) for s in swings],
                    hovertemplate="event %{x}: %{text}<extra>" + kind + "</extra>",
                )
            )
    fig.add_shape(type="line", x0=event, x1=event, y0=0, y1=1, line={"color": "black", "width": 3})
    fig.update_layout(
        height=112,
        margin={"l": 10, "r": 10, "t": 26, "b": 28},
        xaxis={"range": [0, max(tl.length, 1)], "showgrid": False},
        yaxis={"visible": False, "range": [0, 1]},
        showlegend=False,
        uirevision="strip",
        clickmode="event+select",
        bargap=0,
    )
    return fig


def _highlight(tl: Timeline, event: int) -> Highlight:
    if event < 1:
        return Highlight()
    before, after = tl.view_at(event - 1), tl.view_at(event)
    old = {u.id: u for u in before.units}
    moves = []
    for unit in after.units:
        prev = old.get(unit.id)
        if prev is None:
            continue
        if unit.position and prev.position and unit.position != prev.position:
            moves.append((unit.id, prev.position, unit.position))
        elif unit.cell and prev.cell and unit.cell != prev.cell:
            moves.append(
                (
                    unit.id,
                    (prev.cell[0] + 0.5, prev.cell[1] + 0.5),
                    (unit.cell[0] + 0.5, unit.cell[1] + 0.5),
                )
            )
    info = tl.info(event)
    payload = tl.facts[event - 1].payload
    attacker = next(
        (payload[k] for k in ("attacker", "firer", "ship", "subject") if payload.get(k)), None
    )
    target = payload.get("target")
    attacks = (
        ((str(attacker), str(target)),)
        if isinstance(attacker, str) and isinstance(target, str)
        else ()
    )
    return Highlight(
        moves=tuple(moves), attacks=attacks, focus=frozenset(info.units) if info else frozenset()
    )


def _explain_panel(tl: Timeline, event: int, viewer: str | None) -> None:
    st.subheader("Explain")
    if event < 1:
        st.caption("The start of the game: nothing has happened yet.")
        return
    fact = tl.facts[event - 1]
    before = tl.state_at(event - 1)
    redacted = tl.ruleset.redact(decode(before, fact), viewer)
    if redacted != decode(before, fact):
        st.info("Sealed: this event holds hidden information not yet revealed to this side.")
        st.text(tl.ruleset.describe(redacted))
        return
    # Everything below comes from the record: Markdown elements get it escaped, free text goes
    # out as plain text (st.text / st.code), never as HTML.
    ex: Explanation = explain_event(before, tl.facts, event - 1, viewer)
    st.markdown(f"**Event {ex.seq}** — {_md(ex.text)}")
    st.caption(_md(f"{ex.topic}{' · automatic' if ex.automatic else ''}"))
    if ex.rule:
        st.markdown(f"**Rule {_md(ex.rule)}**: {_md(ex.rule_summary)}")
    if ex.command is not None:
        dice = f" · dice entered: {ex.command.dice}" if ex.command.dice else ""
        st.markdown(
            f"**Order #{ex.command.index}** by {_md(ex.command.side or 'umpire')}{_md(dice)}: "
            f"{_md(ex.command.sentence)}"
        )
        if ex.command.notes:  # what the order's cards do (plain text from data files)
            st.text("\n".join(ex.command.notes))
    if ex.chance is not None:
        note = f" — {ex.chance_note}" if ex.chance_note else ""
        st.markdown(f"Chance of this outcome: **{_md(percent(ex.chance))}**{_md(note)}")
    if ex.episode:
        lines = [
            f"{'>' if step.current else ' '} {step.seq}: {step.text}"
            + (f" [{step.rule}]" if step.rule and f"[{step.rule}" not in step.text else "")
            for step in ex.episode
        ]
        st.caption(f"The whole episode ({len(ex.episode)} events)")
        st.text("\n".join(lines))
    for roll in ex.rolls:
        with st.container(border=True):
            st.markdown(
                f"**{_md(roll.purpose)}** · rule **{_md(roll.rule)}** — {_md(roll.rule_summary)}"
            )
            if roll.subject or roll.target:
                st.caption(_md(f"{roll.subject or '–'} → {roll.target or '–'} · event {roll.seq}"))
            for line in roll.rolls:
                text = (
                    f"{line.label}: {line.side or '–'} rolls {line.expression} → "
                    f"faces {line.faces} (natural {line.natural})"
                )
                for m in line.modifiers:
                    text += f"\n    {m.value:+d} [{m.rule}] {m.reason} — {m.rule_summary}"
                if line.floor is not None:
                    text += f"\n    floor {line.floor}"
                st.text(f"{text}\n    → total {line.total}")
            st.text(f"Comparison: {roll.comparison}")
            st.markdown(
                f"Outcome: **{_md(roll.outcome)}** · chance of this outcome "
                f"**{_md(percent(roll.p_outcome))}** · chance of success "
                f"{_md(percent(roll.p_success))}"
            )
    if ex.linked:
        st.caption("Other rolls of this order, and the event each decided")
        st.text("\n".join(ex.linked))


TOP_UNITS = 12  # units the per-unit damage chart shows at first: the most damaged at the end


def _units_shown(tl: Timeline) -> set[str]:
    """The units the per-unit chart draws: the user's pick, or the :data:`TOP_UNITS` that take
    the most damage over the game (a 40-unit game stays readable)."""
    final = {name: pts[-1][1] if pts else 0.0 for name, pts in tl.damage_unit.points.items()}
    ranked = sorted(final, key=lambda name: (-final[name], name))
    default = [name for name in ranked[:TOP_UNITS] if final[name] > 0] or ranked[:TOP_UNITS]
    picked = st.multiselect(
        f"Units shown (the {TOP_UNITS} most damaged at first)",
        ranked,
        default=default,
        key=f"dmg_units_{tl.header.game_id}",  # a pick belongs to one game
    )
    return set(picked)


def _charts(tl: Timeline, event: int) -> None:
    colours = side_colours([s.id for s in tl.first_view.sides])
    by_name = {tl.side_names[sid]: colour for sid, colour in colours.items()}
    tabs = st.tabs(["Damage taken per side", "Damage taken per unit", "Victory points", "Luck"])
    with tabs[1]:
        units = _units_shown(tl)
    specs = [
        (
            "dmg_side",
            "Damage taken per side (cumulative)",
            tl.damage_side.points,
            "damage taken",
            by_name,
        ),
        (
            "dmg_unit",
            "Damage taken per unit (cumulative)",
            {name: pts for name, pts in tl.damage_unit.points.items() if name in units},
            "damage taken",
            None,
        ),
        ("vp", "Victory points per side", tl.vp.points, "VP", by_name),
        (
            "luck",
            "Luck: actual minus expected outcome of each side's rolls",
            tl.luck.points,
            "actual − expected",
            by_name,
        ),
    ]
    for tab, (key, title, series, y_title, cmap) in zip(tabs, specs, strict=True):
        with tab:
            fig = timeseries_figure(
                title,
                series,
                cursor=event,
                turn_starts=tl.turn_starts,
                y_title=y_title,
                colours=cmap,
                end=tl.length,
            )
            st.plotly_chart(
                fig, key=key, on_select=lambda k=key: _on_chart_select(k), selection_mode="points"
            )
            st.session_state.setdefault("_figs", {})[key] = fig


def _log(tl: Timeline, event: int, viewer: str | None, notes: Sequence[Annotation] = ()) -> None:
    st.subheader("Log")
    sides = sorted({e.side for e in tl.events if e.side})
    units = sorted({u for e in tl.events for u in e.units})
    kinds = sorted({e.kind for e in tl.events})
    c1, c2, c3, c4, c5 = st.columns(5)
    f_side = c1.multiselect("Side", sides, key="f_side")
    f_unit = c2.multiselect("Unit", units, key="f_unit")
    f_kind = c3.multiselect("Kind", kinds, key="f_kind")
    f_note = notes_ui.log_filter(notes, c4, c5)  # annotations (issue 14)
    rows = []
    for info in tl.events[:event]:
        if f_side and info.side not in f_side:
            continue
        if f_unit and not set(info.units) & set(f_unit):
            continue
        if f_kind and info.kind not in f_kind:
            continue
        if not f_note.keep(info.seq):
            continue
        rows.append(
            {
                "": "▶" if info.seq == event else "",
                "event": info.seq,
                "turn": info.turn,
                "phase": info.phase,
                "kind": info.kind,
                "side": info.side or "",
                **({"annotations": f_note.cell(info.seq)} if notes else {}),
                "text": info.seq,  # filled in below for the rows shown
            }
        )
    rows.reverse()  # newest (the current event) first
    shown = rows[:LOG_ROWS]
    for row in shown:  # hidden information is redacted for a side's view
        row["text"] = tl.text(int(row["event"]), viewer)
    events = [int(row["event"]) for row in shown]
    key = f"log_{event}"  # a fresh grid after each move: no stale selection

    def jump() -> None:  # a click on a row moves the replay there
        picked = st.session_state[key].selection.rows
        if picked and 0 <= picked[0] < len(events):
            st.session_state["event"] = events[picked[0]]

    st.dataframe(
        shown,
        hide_index=True,
        width="stretch",
        height=320,
        key=key,
        on_select=jump,
        selection_mode="single-row",
    )
    more = f"; showing the {LOG_ROWS} most recent" if len(rows) > LOG_ROWS else ""
    st.caption(
        f"{len(rows)} of {event} events up to the cursor match{more} (newest first; ▶ = current; "
        "click a row to go there)."
    )


PNG_NAMES = {
    "board": "board",
    "dmg_side": "damage-taken-per-side",
    "dmg_unit": "damage-taken-per-unit",
    "vp": "victory-points",
    "luck": "luck",
}


def _exports(tl: Timeline, game: LoadedGame, event: int) -> None:
    st.subheader("Export")
    text = write_record(  # public only
        game.header, game.facts, seed_reveal=game.seed_reveal, annotations=game.annotations
    )
    st.download_button(
        "Download record (.wake.json)",
        text.encode("utf-8"),
        file_name=f"{game.header.scenario_id}-{game.header.game_id[:8]}.wake.json",
        mime="application/json",
    )
    figs: dict[str, go.Figure] = st.session_state.get("_figs", {})
    choice = st.selectbox(
        "Board or chart as PNG",
        list(figs),
        key="png_choice",
        format_func=lambda key: str(PNG_NAMES.get(key, key)).replace("-", " "),
    )
    if choice and st.button("Render PNG"):
        try:
            st.session_state["_png"] = (choice, figure_png(figs[choice]))
        except RuntimeError as exc:
            st.error(str(exc))
    png = st.session_state.get("_png")
    if png and png[0] == choice:
        name = f"{game.header.scenario_id}-{game.header.game_id[:8]}-event{event}"
        name += f"-{PNG_NAMES.get(choice, choice)}.png"  # distinct per game, event and figure
        st.download_button("Download PNG", png[1], file_name=name, mime="image/png")


def _trust_status(trust: Trust) -> None:
    """Under the title: whether the game re-runs, and who signed it (a warning when either
    fails: a forged record is never shown as genuine)."""
    if trust.verified:
        st.success(_md(trust.summary[0].upper() + trust.summary[1:]), icon="✅")
    else:
        st.warning(_md(trust.summary), icon="⚠️")
    for check in trust.signatures:
        line = _md(check.describe()[0].upper() + check.describe()[1:])
        if check.valid:
            st.success(line, icon="🔏")
        else:
            st.warning(line, icon="⚠️")


def main() -> None:
    st.set_page_config(page_title="Wake replay viewer", layout="wide")
    st.set_option("client.showErrorDetails", "none")  # never a traceback on the page
    args = _cli_args()
    picked = _pick_game(args)
    if picked is None:
        return
    key, game = picked
    tl = _timeline(key, game)
    if st.session_state.get("_game") != game.header.game_id:
        if st.session_state.get("_game") is None:
            st.session_state.pop("event", None)  # first load: the URL's event applies
        else:
            st.session_state["event"] = 0  # another game picked: start at its beginning
        st.session_state["_game"] = game.header.game_id
    sides = [s.id for s in game.header.sides]
    hidden = tl.ruleset.meta.hidden_information
    wanted_view = st.query_params.get("as")
    if "view_as" not in st.session_state and wanted_view in sides:  # only a known side id
        st.session_state["view_as"] = wanted_view
    view_as = st.sidebar.radio(
        "View as",
        [UMPIRE, *sides],
        key="view_as",
        format_func=lambda side: side if side == UMPIRE else _md(side),  # options are Markdown
        help="Hidden information is sealed for a side until revealed.",
    )
    if not hidden:
        st.sidebar.caption(f"{tl.ruleset.meta.name} has no hidden information.")
    viewer = None if view_as == UMPIRE else view_as
    if viewer is None:
        st.query_params.pop("as", None)
    elif st.query_params.get("as") != viewer:
        st.query_params["as"] = viewer  # the chosen view is part of the link
    st.title(_md(game.header.title or game.header.scenario_id), anchor=False)
    st.caption(
        f"{_md(tl.ruleset.meta.name)} {_md(game.header.ruleset.version)} · "
        f"{_md(sides_label(list(tl.side_names.values())))} · {tl.length} events · "
        f"result: {_md(tl.result_text())} · dice: {game.header.dice.mode} · "
        f"source: {_md(game.source)}"
    )
    _trust_status(_trust(key, game))
    with st.expander("Game summary"):
        st.text("\n".join(tl.summary()))  # plain text: names come from the record
    event = _navigation(tl)
    st.query_params["event"] = str(event)
    st.iframe(KEYS_JS, height=1)  # keyboard shortcuts (our own constant script)
    info = tl.info(event)
    where = f"Turn {info.turn} · {info.phase}" if info else "Start"
    text = tl.text(event, viewer) if info else ""
    st.markdown(
        f"**Event {event} / {tl.length}** · {_md(where)}" + (f" · {_md(text)}" if info else "")
    )
    board_col, explain_col = st.columns([3, 2])
    with board_col:
        view = redact_view(tl.view_at(event), viewer)  # a side sees its own hidden cards only
        figure = board_figure(view, _highlight(tl, event), height=board_height(view))
        st.plotly_chart(figure, key="board")
        st.session_state.setdefault("_figs", {})["board"] = figure
    with explain_col:
        _explain_panel(tl, event, viewer)
        notes_ui.explain_notes(game.annotations, event)
    _charts(tl, event)
    variations_panel(args.store, game, tl, event, on_switch=_games.clear)  # issue 14
    _log(tl, event, viewer, game.annotations)
    notes_ui.annotations_section(game, args.store, event, _go)
    _exports(tl, game, event)


def _run() -> None:
    """The page, and for anything unexpected one line instead of a traceback (the details go to
    the server's log, not to whoever opened the page)."""
    try:
        main()
    except Exception as exc:  # Streamlit's own stop/rerun signals are not Exceptions
        logging.getLogger("wake.viewer").exception("viewer page failed")
        st.error(
            f"The viewer could not show this page ({type(exc).__name__}); the details are in "
            "the server's log."
        )


_run()
