"""Wake replay viewer (Streamlit): pick a game, scrub it event by event, see why things happened.

Run with ``wake view``; ``viewer/app.py``, the script Streamlit runs, calls :func:`run_pages`.
The position lives in the URL (``?game=ID&event=N``) so a link points at a disputed moment.
Everything is drawn from generic read models, timelines and explanations: no rules here.
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas  # noqa: F401  plotly imports it lazily: once here, before sessions race to
import plotly.graph_objects as go
import streamlit as st

from domain.analysis import stored as stored_analysis
from domain.analysis.model import Analysis, AnalysisSpec, Estimate
from domain.analysis.run import plan
from domain.annotations import Annotation, shown_to
from domain.engine import decode
from domain.errors import WakeError
from domain.event_kinds import topic_words
from domain.explain import (
    Explanation,
    command_line,
    explain_event,
    outcome_line,
    percent,
    roll_lines,
)
from domain.importing import import_record
from domain.links import links_of
from domain.read_model import redact_view, sides_label
from domain.record import build_record, write_record
from domain.record.keyring import Keyring, keyring_path, load_keyring
from domain.record.signing import sides_signed
from domain.scribe.table import Access, current_game
from domain.store import GameStore, store_location
from domain.variations import other_lines
from viewer import annotations as notes_ui
from viewer import winprob
from viewer.access import TOKEN_PARAM, page_access
from viewer.figures import (
    Highlight,
    board_figure,
    board_height,
    figure_png,
    moved_units,
    side_colours,
    timeseries_figure,
)
from viewer.glossary import glossary_help
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
from viewer.rounds import round_summary
from viewer.ruler import ruler_panel
from viewer.safe_text import escape_markdown as _md
from viewer.scribe import page as scribe_page
from viewer.scrubber import Encoded, as_position, build_payload, encode, scrubber
from viewer.timeline import Timeline
from viewer.variations import variations_panel

UMPIRE = "Umpire (everything)"
NARROW_CSS = Path(__file__).with_name("narrow.css")  # only style: Streamlit adds it out of flow
# --- command line and caching -------------------------------------------------------------------


def _cli_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="wake view")
    parser.add_argument("--store", default=None)
    parser.add_argument("--game", default=None)
    parser.add_argument("--record", default=None)
    parser.add_argument("--scribe", action="store_true", help="open the Record a game page")
    parser.add_argument("--scenario", default=None, help="a scenario to start recording")
    parser.add_argument("--hosted", action="store_true", help="capability links decide views")
    parser.add_argument("--at", type=int, default=0, help="the event a game opens at")
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
            record = build_record(
                game.header,
                game.facts,
                game.seed_reveal,
                kept,
                game.annotations,
                variations=game.variations,  # its other lines, verified and kept with it
            )
            import_record(GameStore(store), record)  # verified first, as `wake import`
        except WakeError as exc:
            sb.error(f"Not kept: {_md(exc)}")
            return
        _games.clear()
        sb.success("Kept: the link in the address bar now opens this game.")
        if game.analysis is not None:  # issue 24: re-run a sample first, as `wake import` does
            with st.spinner("Re-running a sample of the record's analysis…"):
                problem = winprob.keep_analysis(GameStore(store), game)
            if problem:
                sb.warning(_md(f"Its analysis was not kept: {problem}"))


# --- page parts ---------------------------------------------------------------------------------


def _pick_game(args: argparse.Namespace, access: Access) -> tuple[str, LoadedGame] | None:
    """Sidebar: choose a stored game or upload a record. Returns (cache key, game). A hosted
    link opens its own table's game only, and a hosted page takes no uploads."""
    sb = st.sidebar
    sb.header("Game")
    if access.origin is not None:
        try:
            chosen = current_game(GameStore(args.store), access.origin)
            game = from_store(args.store, chosen)
        except (LoadError, WakeError) as exc:
            st.error(_md(exc))
            return None
        sb.caption("This link opens one game.")
        return f"store:{chosen}:{len(game.facts)}", game
    if access.role == "public":
        return _stored_game(args)
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
    return _stored_game(args)


def _stored_game(args: argparse.Namespace) -> tuple[str, LoadedGame] | None:
    """Sidebar: choose a stored game (the URL's, if it names one in the store)."""
    sb = st.sidebar
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


def _url_event() -> int | None:
    try:
        return int(st.query_params.get("event", ""))
    except ValueError:
        return None


def _move_to(event: int) -> None:
    """The server moves the position itself (first load, Back/Forward, another game): the
    scrubber jumps there because the token changes."""
    st.session_state["event"] = event
    st.session_state["_nav_token"] = st.session_state.get("_nav_token", 0) + 1


@st.cache_resource(max_entries=8, show_spinner="Preparing the replay for the browser…")
def _payload(
    key: str,
    viewer: str | None,
    analysis_key: str,
    _tl: Timeline,
    _analysis: Analysis | None = None,
    source: str = "",
) -> tuple[str, Encoded]:
    """The game's frames for one view, built and compressed once (same key as the timeline),
    with the win-probability graph when ``viewer`` may see ``_analysis`` (issue 24 item 2;
    ``analysis_key`` names that analysis's version)."""
    if _analysis is None:
        encoded = encode(build_payload(_tl, viewer))
    else:
        encoded = encode(winprob.scrubber_payload(_tl, viewer, _analysis, source))
    return hashlib.sha256(encoded.data.encode("ascii")).hexdigest()[:16], encoded


@st.cache_data(ttl=10, show_spinner=False, max_entries=16)
def _analysis_stream(store: str | None, game_id: str) -> tuple[str, list[dict[str, Any]]] | None:
    """A stored game's analysis as kept (its spec and estimates so far), re-read every few
    seconds: an analysis running beside the page shows its new points."""
    spec, estimates = stored_analysis.stored_spec(GameStore(store), game_id)
    if spec is None:
        return None
    return spec.model_dump_json(), [e.model_dump(mode="json") for e in estimates]


@st.cache_resource(max_entries=8, show_spinner="Reading the game's analysis…")
def _analysis_points(key: str, spec: str, _game: LoadedGame) -> Analysis:
    """The analysis's decision points, found once per game version and spec."""
    made = AnalysisSpec.model_validate_json(spec)
    return Analysis(spec=made, points=plan(_game.header, _game.facts, made.every), estimates=[])


@st.cache_resource(max_entries=8, show_spinner="Checking the record's analysis…")
def _record_analysis(key: str, _game: LoadedGame) -> tuple[Analysis | None, str]:
    return winprob.record_analysis(_game.header, _game.facts, _game.analysis)


def _game_analysis(key: str, game: LoadedGame, store: str | None) -> tuple[Analysis | None, str]:
    """The game's analysis (issue 24 item 2): a stored game's from the store, an opened
    record's from its analysis section; with its version key, or a problem to show."""
    if game.source != "store":
        found, words = _record_analysis(key, game)
        if found is None:
            if words:
                st.caption(_md(words))
            return None, ""
        return found, words
    try:
        kept = _analysis_stream(store, game.header.game_id)
    except WakeError as exc:
        st.caption(_md(f"The game's analysis is not drawn: {exc}"))
        return None, ""
    if kept is None:
        return None, ""
    spec, estimates = kept
    base = _analysis_points(key, spec, game)
    found = base.model_copy(update={"estimates": [Estimate.model_validate(e) for e in estimates]})
    return found, "kept with the game in the store"


@st.cache_resource(max_entries=8, show_spinner=False)
def _graph(
    key: str, viewer: str | None, version: str, _tl: Timeline, _analysis: Analysis, source: str
) -> dict[str, Any] | None:
    """The win-probability graph's read model for one view (issue 24 item 2)."""
    return winprob.graph_data(_tl, _analysis, viewer, source)


def _analysis_notes(
    key: str, tl: Timeline, viewer: str | None, analysis: tuple[Analysis | None, str], event: int
) -> None:
    """Under the explain panel: the analysis's automatic notes on the current event, apart
    from people's annotations, as plain text (only where the graph is shown)."""
    found, source = analysis
    if found is None or not winprob.may_see(viewer, winprob.finished(tl)):
        return
    version = f"{found.spec.model_dump_json()}:{len(found.estimates)}"
    graph = _graph(key, viewer, version, tl, found, source)
    text = graph["notes"].get(str(event)) if graph else None
    if text:
        st.caption(f"Analysis of event {event} ({winprob.TITLE.lower()})")
        st.text(text)


def _navigation(
    key: str,
    tl: Timeline,
    viewer: str | None,
    notes: Sequence[Annotation] = (),
    analysis: tuple[Analysis | None, str] = (None, ""),
) -> int:
    """The scrubber (board, strip, charts' cursors, move list, keys; all in the browser) and
    the position the server catches up with: the user's settled position, or the URL's when it
    changed behind the app's back (Back/Forward, an edited link). Returns the event.
    ``analysis``: the game's analysis and its source, drawn when ``viewer`` may see it."""
    length = tl.length
    frames_viewer = viewer if tl.ruleset.meta.hidden_information else None
    found, source = analysis
    if found is not None and winprob.may_see(viewer, winprob.finished(tl)):
        version = f"{found.spec.model_dump_json()}:{len(found.estimates)}"
        payload_id, encoded = _payload(key, viewer, version, tl, found, source)
    else:
        payload_id, encoded = _payload(key, frames_viewer, "", tl)
        if found is not None:
            st.caption(
                "This game has a win-probability analysis: a side sees it once the game is over."
            )
    widget = "scrubber"  # one component: another game or view only sends another payload
    moved = as_position(st.session_state.get(widget))
    token = int(st.session_state.get("_nav_token", 0))
    url_event = _url_event()
    if "event" not in st.session_state:  # opens at the start (no spoiler) or the moment asked
        _move_to(_cli_args().at if url_event is None else url_event)
    elif (
        moved is not None
        and moved["token"] == token
        and moved["game"] == tl.header.game_id
        and moved["n"] != st.session_state.get("_scrub_n")
    ):  # the user moved: this rerun's URL may predate the app's last write of it
        st.session_state["_scrub_n"] = moved["n"]
        st.session_state["event"] = moved["event"]
    elif url_event is not None and url_event != st.session_state.get("_url_event"):
        _move_to(url_event)  # Back/Forward, or an edited link
    st.session_state["event"] = max(0, min(int(st.session_state["event"]), length))
    marks, only = notes_ui.move_list_notes(notes)
    scrubber(
        encoded,
        payload_id=payload_id,
        event=int(st.session_state["event"]),
        token=int(st.session_state.get("_nav_token", 0)),
        key=widget,
        notes=marks,
        notes_only=only,
    )
    event = int(st.session_state["event"])
    st.session_state["_url_event"] = event
    if st.query_params.get("event") != str(event):
        st.query_params["event"] = str(event)  # Streamlit pushes it: Back returns here
    return event


def _view_as(sides: list[str], tl: Timeline) -> str | None:
    """The "View as" choice (the umpire's everything, or a side), kept in the link."""
    wanted_view = st.query_params.get("as")
    if "view_as" not in st.session_state and wanted_view in sides:  # only a known side id
        st.session_state["view_as"] = wanted_view
    elif wanted_view is not None and wanted_view not in sides:
        # an unknown side is an error, never a silent umpire's view; the address's text is
        # not echoed (it is untrusted), the game's own sides are named
        names = ", ".join(tl.side_names.get(s, s) for s in sides)
        st.error(
            _md(
                f"This link asks for a side this game does not have (its sides: {names}); "
                "showing the umpire's view. Choose a side under “View as”."
            ),
            icon="⚠️",
        )
    view_as = st.sidebar.radio(
        "View as",
        [UMPIRE, *sides],
        key="view_as",
        format_func=lambda side: side if side == UMPIRE else _md(tl.side_names.get(side, side)),
        help="Hidden information is sealed for a side until revealed.",
    )
    if not tl.ruleset.meta.hidden_information:
        st.sidebar.caption(f"{tl.ruleset.meta.name} has no hidden information.")
    viewer = None if view_as == UMPIRE else view_as
    if viewer is None:
        st.query_params.pop("as", None)
    elif st.query_params.get("as") != viewer:
        st.query_params["as"] = viewer  # the chosen view is part of the link
    return viewer


def _record_link(access: Access) -> None:
    """A way to the scribe's page: locally the page itself, hosted with the link's own key."""
    sb = st.sidebar
    if access.role == "local":
        if "record" in PAGES:
            sb.page_link(PAGES["record"], label="Record a game", icon="✍️")
    elif access.role != "public":
        token = st.query_params.get(TOKEN_PARAM, "")
        if token.replace("-", "").replace("_", "").isalnum():  # a live link's token, checked
            sb.link_button("Record a game", f"./record?{TOKEN_PARAM}={token}")


def _highlight(tl: Timeline, event: int, viewer: str | None = None) -> Highlight:
    if event < 1:
        return Highlight()
    moves = moved_units(tl.view_at(event - 1), tl.view_at(event))
    info = tl.info(event)
    shown = tl.decoded[event - 1]
    if viewer is not None and tl.ruleset.meta.hidden_information:
        shown = tl.ruleset.redact(shown, viewer)  # a side's lines name only what it may see
    attacks = tuple((ln.source, ln.target) for ln in links_of(shown.model_dump(mode="json")))
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
    terms = tl.ruleset.glossary()

    def tip(text: str) -> str | None:  # what the notation and terms of text mean (issue 13)
        return glossary_help(text, terms)

    if redacted != decode(before, fact):
        st.info("Sealed: this event holds hidden information not yet revealed to this side.")
        sealed = tl.text(event, viewer)
        st.text(sealed, help=tip(sealed))
        return
    # Everything below comes from the record: Markdown elements get it escaped, free text goes
    # out as plain text (st.text / st.code), never as HTML. Tooltips (help=) are Markdown too:
    # viewer.glossary escapes the terms and meanings it puts there.
    ex: Explanation = explain_event(
        before, tl.facts, event - 1, viewer, tl.names_at(event, viewer), tl.state_at
    )
    st.markdown(f"**Event {ex.seq}** — {_md(ex.text)}", help=tip(ex.text))
    st.caption(_md(f"{topic_words(ex.topic)}{' · automatic' if ex.automatic else ''}"))
    if ex.notes:  # what the state before it makes of the event (an attack's range, zones)
        notes = "\n".join(ex.notes)
        st.text(notes, help=tip(notes))
    if ex.rule:
        st.markdown(f"**Rule {_md(ex.rule)}**: {_md(ex.rule_summary)}", help=tip(ex.rule_summary))
    if ex.command is not None:
        order = command_line(ex.command)  # in words: no reprs, names not ids (issue 21)
        st.markdown(f"**Order** {_md(order)}", help=tip(ex.command.sentence))
        if ex.command.notes:  # what the order's cards do (plain text from data files)
            cards = "\n".join(ex.command.notes)
            st.text(cards, help=tip(cards))
    seals = tl.sealed_lines(event, viewer)  # what the seals turn out to hold: all for the
    if seals:  # umpire, a side's own only for that side (issue 21 item 3)
        st.caption(
            "Sealed choices (umpire only: a side learns each one at its reveal)"
            if viewer is None
            else "Your own sealed choices (the other sides learn them at their reveal)"
        )
        st.text("\n".join(seals))  # plain text: labels and contents come from the record
    if ex.chance is not None:
        note = f" — {ex.chance_note}" if ex.chance_note else ""
        st.markdown(
            f"Chance of this outcome: **{_md(percent(ex.chance))}**{_md(note)}",
            help=tip(ex.chance_note),
        )
    if ex.episode:
        lines = "\n".join(
            f"{'>' if step.current else ' '} {step.seq}: {step.text}"
            + (f" [{step.rule}]" if step.rule and f"[{step.rule}" not in step.text else "")
            for step in ex.episode
        )
        st.caption(f"The whole episode ({len(ex.episode)} events)")
        st.text(lines, help=tip(lines))
    for roll in ex.rolls:
        with st.container(border=True):
            st.markdown(
                f"**{_md(roll.purpose)}** · rule **{_md(roll.rule)}** — {_md(roll.rule_summary)}",
                help=tip(roll.rule_summary),
            )
            if roll.subject or roll.target:
                st.caption(_md(f"{roll.subject or '–'} → {roll.target or '–'} · event {roll.seq}"))
            for line in roll.rolls:  # dice as players see them (issue 21 item 8)
                text = "\n".join(roll_lines(line))
                st.text(text, help=tip(text))
            comparison = f"Comparison: {roll.comparison}"
            st.text(comparison, help=tip(comparison))
            st.text(outcome_line(roll))
    if ex.linked:
        linked = "\n".join(ex.linked)
        st.caption("Other rolls of this order, and the event each decided")
        st.text(linked, help=tip(linked))


TOP_UNITS = 12  # units the per-unit damage chart shows at first: the most damaged at the end


def _top_units(tl: Timeline) -> set[str]:
    """The :data:`TOP_UNITS` units that take the most damage over the game."""
    final = {name: pts[-1][1] if pts else 0.0 for name, pts in tl.damage_unit.points.items()}
    ranked = sorted(final, key=lambda name: (-final[name], name))
    return set([name for name in ranked[:TOP_UNITS] if final[name] > 0] or ranked[:TOP_UNITS])


def _chart_figure(tl: Timeline, key: str, event: int) -> go.Figure:
    """One of the scrubber's charts as a Plotly figure, for a PNG export (built on demand: the
    page itself draws its charts in the browser)."""
    colours = side_colours([s.id for s in tl.first_view.sides])
    by_name = {tl.side_names[sid]: colour for sid, colour in colours.items()}
    units = _top_units(tl)
    specs = {
        "dmg_side": ("Damage taken per side (cumulative)", tl.damage_side.points, "damage taken"),
        "dmg_unit": (
            "Damage taken per unit (cumulative)",
            {name: pts for name, pts in tl.damage_unit.points.items() if name in units},
            "damage taken",
        ),
        "vp": ("Victory points per side", tl.vp.points, "VP"),
        "luck": (
            "Luck: actual minus expected outcome of each side's rolls",
            tl.luck.points,
            "actual − expected",
        ),
    }
    title, series, y_title = specs[key]
    return timeseries_figure(
        title,
        series,
        cursor=event,
        turn_starts=tl.turn_starts,
        y_title=y_title,
        colours=None if key == "dmg_unit" else by_name,
        end=tl.length,
    )


PNG_NAMES = {
    "board": "board",
    "dmg_side": "damage-taken-per-side",
    "dmg_unit": "damage-taken-per-unit",
    "vp": "victory-points",
    "luck": "luck",
}


def _figure(tl: Timeline, choice: str, event: int, viewer: str | None) -> go.Figure:
    if choice == "board":
        view = redact_view(tl.view_at(event), viewer)  # a side sees its own hidden cards only
        return board_figure(view, _highlight(tl, event, viewer), height=board_height(view))
    return _chart_figure(tl, choice, event)


def _exports(
    store: str | None, tl: Timeline, game: LoadedGame, event: int, viewer: str | None
) -> None:
    st.subheader("Export")

    def record_text() -> bytes:  # made on the click: a stored game's lines are read then
        lines = game.variations
        if game.source == "store" and viewer is None:  # its other lines (issue 20 item 4)
            lines = tuple(other_lines(GameStore(store), game.header.game_id).records)
        text = write_record(  # public only
            game.header,
            game.facts,
            seed_reveal=game.seed_reveal,
            annotations=game.annotations,
            variations=lines,
        )
        return text.encode("utf-8")

    st.download_button(
        "Download record (.wake.json)",
        record_text,
        file_name=f"{game.header.scenario_id}-{game.header.game_id[:8]}.wake.json",
        mime="application/json",
    )
    choice = st.selectbox(
        "Board or chart as PNG",
        list(PNG_NAMES),
        key="png_choice",
        format_func=lambda key: str(PNG_NAMES.get(key, key)).replace("-", " "),
    )
    if choice and st.button("Render PNG"):
        try:
            st.session_state["_png"] = (choice, figure_png(_figure(tl, choice, event, viewer)))
        except RuntimeError as exc:
            st.error(str(exc))
    png = st.session_state.get("_png")
    if png and png[0] == choice:
        name = f"{game.header.scenario_id}-{game.header.game_id[:8]}-event{event}"
        name += f"-{PNG_NAMES.get(choice, choice)}.png"  # distinct per game, event and figure
        st.download_button("Download PNG", png[1], file_name=name, mime="image/png")


@st.cache_data(ttl=5, show_spinner=False)
def _keyring(path: str) -> tuple[Keyring, str]:
    """The user's trusted keys at ``path`` (``wake trust``), and a problem reading them ("" if
    none); read again at most every 5 seconds."""
    try:
        return load_keyring(Path(path)), ""
    except WakeError as exc:
        return Keyring(Path(path)), exc.message


def _trust_status(trust: Trust, sides: Sequence[str]) -> None:
    """Under the title: whether the game re-runs, and who signed it (issue 23 item 7: whose
    key, from the user's keyring). Green only for a game that re-runs and whose signatures
    all hold: an invalid signature is never under a green banner, and a valid signature by a
    key the user does not trust reads "an unknown key claiming to be ..."."""
    ring, problem = _keyring(str(keyring_path()))
    summary = trust.summary[0].upper() + trust.summary[1:]
    if trust.genuine:
        st.success(_md(summary), icon="✅")
    elif trust.verified:  # re-runs, but a signature it carries does not hold
        st.warning(_md(f"{summary}, but a signature does NOT hold (below)"), icon="⚠️")
    else:
        st.warning(_md(trust.summary), icon="⚠️")
    if problem:
        st.warning(_md(f"Trusted keys not read: {problem}"), icon="⚠️")
    for check in trust.signatures:
        text = check.describe(ring)
        line = _md(text[0].upper() + text[1:])
        if not check.valid:
            st.error(line, icon="⚠️")
        elif check.trusted_as(ring) is None:
            st.warning(line, icon="❔")
        else:
            st.success(line, icon="🔏")
    both = sides_signed(sides, trust.signatures, ring)
    if both is not None and trust.genuine:
        st.info(_md(both[0].upper() + both[1:]), icon="🤝")


def main() -> None:
    st.set_page_config(page_title="Wake replay viewer", layout="wide")
    st.html(NARROW_CSS)  # a compact header in a narrow window: the board comes first
    st.set_option("client.showErrorDetails", "none")  # never a traceback on the page
    args = _cli_args()
    access = page_access(args)
    _record_link(access)
    picked = _pick_game(args, access)
    if picked is None:
        return
    key, game = picked
    tl = _timeline(key, game)
    if st.session_state.get("_game") != game.header.game_id:
        if st.session_state.get("_game") is None:
            st.session_state.pop("event", None)  # first load: the URL's event applies
        else:
            _move_to(0)  # another game picked: start at its beginning
        st.session_state["_game"] = game.header.game_id
    sides = [s.id for s in game.header.sides]
    if access.sees_all:
        viewer = _view_as(sides, tl)
    else:  # hosted: the link decides the view, never a choice or the address
        viewer = access.viewer
        shown = tl.side_names.get(viewer or "", "what every side has seen")
        st.sidebar.caption(_md(f"Viewing as {shown} (your link)."))
    st.title(_md(game.header.title or game.header.scenario_id), anchor=False)
    st.caption(
        f"{_md(tl.ruleset.meta.name)} {_md(game.header.ruleset.version)} · "
        f"{_md(sides_label(list(tl.side_names.values())))} · {tl.length} events · "
        f"result: {_md(tl.result_text())} · dice: {game.header.dice.mode} · "
        f"source: {_md(game.source)}"
    )
    # under the title, filled once the board is on its way: the first open of a game re-runs
    # every order to verify it, and the board need not wait for that (issue 21 item 12)
    trust_box = st.container()
    loaded = game
    # issue 23 item 3: a side sees only the annotations visible to it, everywhere on the page
    hidden = bool(tl.ruleset.meta.hidden_information)
    game = replace(game, annotations=tuple(shown_to(game.annotations, viewer, hidden)))
    board_col, explain_col = st.columns([3, 2])
    with board_col:
        analysis = _game_analysis(key, game, args.store)
        event = _navigation(key, tl, viewer, game.annotations, analysis)
    with trust_box:
        _trust_status(_trust(key, loaded), [side.id for side in game.header.sides])
    with explain_col:
        _explain_panel(tl, event, viewer)
        notes_ui.explain_notes(game.annotations, event)
        _analysis_notes(key, tl, viewer, analysis, event)
    with explain_col:
        ruler_panel(tl, event, viewer)  # issue 21 item 14
    if event >= 1:
        summary = round_summary(tl, event, viewer)
        with explain_col.expander(f"This round ({summary.turn})"):
            st.text("\n".join(summary.lines))  # plain text: names come from the record
    with st.expander("Game summary"):  # below the board: the board comes first (item 9)
        st.text("\n".join(tl.summary(viewer=viewer)))  # plain text: names come from the record
    variations_panel(  # issue 14; "play another order here" (issue 21 item 13) when local
        args.store,
        game,
        tl,
        event,
        on_switch=_games.clear,
        record_page=PAGES.get("record") if access.role == "local" else None,
    )
    if access.sees_all:  # hosted: a side's or the public page writes no annotations
        notes_ui.annotations_section(game, args.store, event, _move_to)
    _exports(args.store, tl, game, event, viewer)


def _guarded(page: Callable[[], None]) -> None:
    """A page, and for anything unexpected one line instead of a traceback (the details go to
    the server's log, not to whoever opened the page)."""
    try:
        page()
    except Exception as exc:  # Streamlit's own stop/rerun signals are not Exceptions
        logging.getLogger("wake.viewer").exception("viewer page failed")
        st.error(
            f"The viewer could not show this page ({type(exc).__name__}); the details are in "
            "the server's log."
        )


def _run() -> None:
    _guarded(main)


def _record() -> None:
    def page() -> None:
        st.set_page_config(page_title="Wake: record a game", layout="wide")
        st.set_option("client.showErrorDetails", "none")
        args = _cli_args()
        scribe_page.run(args, page_access(args))

    _guarded(page)


def _pages() -> None:
    """The replay viewer and the scribe's page (issue 20); ``--scribe`` opens the latter."""
    args = _cli_args()
    replay = st.Page(
        _run,
        title="Replay",
        default=not args.scribe,
        url_path=None if not args.scribe else "replay",
    )
    record = st.Page(
        _record,
        title="Record a game",
        default=args.scribe,
        url_path=None if args.scribe else "record",
    )
    PAGES["replay"], PAGES["record"] = replay, record
    st.navigation([replay, record], position="hidden").run()


PAGES: dict[str, Any] = {}


def run_pages() -> None:
    """The script's whole work, at every run (``viewer/app.py``)."""
    _pages()
