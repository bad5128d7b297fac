"""Choosing the game to record, or starting one (issue 20): a bundled or uploaded scenario, its
options and its dice (rolled at the table, or by the computer from a sealed seed)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import streamlit as st

from domain.errors import WakeError
from domain.record.reader import read_bounded
from domain.ruleset import known_rulesets
from domain.scribe.start import (
    MAX_SCENARIO_BYTES,
    bundled_scenarios,
    default_options,
    parse_scenario,
    start_game,
)
from domain.store import GameStore
from viewer.safe_text import escape_markdown as _md

GAME = "sc_game"
URL_GAME = "sc_url_game"  # the game the address named when last read


def _stored(store: GameStore) -> list[dict[str, Any]]:
    out = []
    for gid in store.game_ids():
        try:
            summary = store.summary(gid)
        except WakeError:
            continue
        out.append(summary.model_dump())
    return out


def _picked(widget: str) -> None:
    st.session_state[GAME] = st.session_state.get(widget)


def pick_or_start(store: GameStore, args: argparse.Namespace) -> str | None:
    """The game this page records (chosen in the sidebar, named on the command line, or just
    started here); None while there is none."""
    games = _stored(store)
    known = {g["game_id"] for g in games}
    wanted = st.query_params.get("game")
    if wanted != st.session_state.get(URL_GAME):  # the address changed (a link, Back)
        st.session_state[URL_GAME] = wanted
        if wanted in known:  # only a stored game's id
            st.session_state[GAME] = wanted
    if GAME not in st.session_state and getattr(args, "game", None):
        st.session_state[GAME] = args.game
    live = [g for g in games if not g.get("result") or g["result"] in ("", "in progress")]
    ids = [g["game_id"] for g in live]
    chosen = st.session_state.get(GAME)
    if chosen is not None and chosen not in ids and chosen in {g["game_id"] for g in games}:
        ids.insert(0, chosen)
    labels = {g["game_id"]: f"{g['title'] or g['scenario']} · {g['ruleset']}" for g in games}
    sb = st.sidebar
    sb.header("Record a game")
    if ids:
        widget = f"{GAME}|w"
        st.session_state[widget] = chosen if chosen in ids else None
        sb.selectbox(
            "Game being recorded",
            ids,
            format_func=lambda i: _md(labels.get(i, i)),
            key=widget,
            placeholder="Pick a game",
            on_change=_picked,
            args=(widget,),
        )
    where = st if st.session_state.get(GAME) is None else sb
    if where is st:
        st.subheader("Record a game", anchor=False)
    with where.expander("Start a new game", expanded=where is st):
        started = _start_form(store, args)
    if started is not None:
        st.session_state[GAME] = started
        st.rerun()
    chosen = st.session_state.get(GAME)
    if chosen is not None and st.query_params.get("game") != chosen:
        st.query_params["game"] = chosen  # the link opens this game
        st.session_state[URL_GAME] = chosen
    return chosen


def _start_form(store: GameStore, args: argparse.Namespace) -> str | None:
    scenarios = bundled_scenarios()
    given = getattr(args, "scenario", None)
    upload = st.file_uploader(
        "A scenario file of your own (optional)", type=["json"], key="sc_scenario_upload"
    )
    data: dict[str, Any] | None = None
    ruleset: str | None = None
    source = ""
    if upload is not None:
        try:
            data = parse_scenario(upload.getvalue())
        except WakeError as exc:
            st.error(_md(exc.message))
            return None
        source = upload.name
    elif given:
        try:
            data = parse_scenario(read_bounded(Path(given), MAX_SCENARIO_BYTES))
        except (WakeError, OSError) as exc:
            st.error(_md(f"Cannot read the scenario {given}: {exc}"))
            return None
        source = Path(given).name
    rulesets = list(known_rulesets())
    if data is not None:
        ruleset = st.selectbox("Rule system", rulesets, key="sc_new_ruleset")
        st.caption(_md(f"Scenario: {source}"))
    else:
        keyed = {f"{s.ruleset}/{s.name}": s for s in scenarios}
        pick = st.selectbox(
            "Scenario",
            list(keyed),
            format_func=lambda k: _md(f"{keyed[k].title} ({keyed[k].ruleset})"),
            key="sc_new_scenario",
        )
        if pick is None:
            return None
        ruleset, data = keyed[pick].ruleset, keyed[pick].data
    if ruleset is None:
        return None
    options = _options_form(ruleset)
    dice = st.radio(
        "Dice",
        ["physical", "seeded"],
        format_func=lambda d: {
            "physical": "rolled at the table (entered face by face)",
            "seeded": "rolled by the computer (the seed is sealed until the game ends)",
        }[d],
        key="sc_new_dice",
    )
    title = st.text_input("Title (optional)", key="sc_new_title", max_chars=120)
    if st.button("Start the game", type="primary", key="sc_new_start"):
        try:
            return start_game(
                store,
                ruleset,
                data,
                dice="seeded" if dice == "seeded" else "physical",
                options=options,
                title=title,
            )
        except WakeError as exc:
            st.error(_md(exc.message))
    return None


def _options_form(ruleset: str) -> dict[str, Any]:
    """The ruleset's options with their defaults, each changeable (a number, a flag, a word)."""
    try:
        defaults = default_options(ruleset)
    except WakeError:
        return {}
    if not defaults:
        return {}
    chosen: dict[str, Any] = {}
    with st.popover("Options"):
        for name, default in defaults.items():
            label = _md(name.replace("_", " "))
            key = f"sc_opt|{ruleset}|{name}"
            if isinstance(default, bool):
                value: Any = st.toggle(label, value=default, key=key)
            elif isinstance(default, int):
                value = int(st.number_input(label, value=default, step=1, key=key))
            elif isinstance(default, float):
                value = float(st.number_input(label, value=default, key=key))
            elif isinstance(default, str):
                value = st.text_input(label, value=default, key=key, max_chars=60)
            else:
                continue  # lists and tables keep their defaults
            if value != default:
                chosen[name] = value
    return chosen
