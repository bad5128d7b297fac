"""The scribe's page, "Record a game" (issue 20): a real table's game entered as it is played.

At every point the page says whose decision it is and offers exactly what that side may do, from
the ruleset's menu (``domain.scribe``): an order is chosen by clicking its unit on the board or
its button, its fields by clicking the board or a choice, and then the page asks for exactly the
dice (or the card drawn) it needs. Nothing is typed as JSON. A refused order says why, with the
rule, and changes nothing; an order entered on another device first makes this page reload and
say so; a mistake is taken back into a variation. Sealed choices (order cards, dials, face-down
fleets) are made on the side's own page and salted with that side's secret.

What the page shows is what its access allows (``domain.scribe.table.Access``): locally
(``wake scribe``) everything; in hosted mode (``wake serve``) the link's side, the umpire, or
without a link what every side has seen.
"""

from __future__ import annotations

import argparse
import logging
import time
from collections.abc import Sequence
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from domain.engine import GameState, bot_order, bot_secret, decode, named_refusal
from domain.errors import OrderConflict, WakeError
from domain.events import CommandIssued
from domain.read_model import redact_view
from domain.scribe import table as T
from domain.scribe.menu import MenuOrder, build_command, missing
from domain.scribe.probe import preview, probe
from domain.store import GameStore
from domain.words import Names, capitalised
from viewer.board_input import as_click, board_input
from viewer.figures import board_height, board_json, view_names
from viewer.safe_text import escape_markdown as _md
from viewer.scribe import chance, fields
from viewer.scribe.board import (
    after,
    apply_click,
    click_target,
    preview_highlight,
    ring_overlays,
    view_for,
)
from viewer.scribe.setup import pick_or_start
from viewer.scribe.watch import moved_on, watch_in_page

PENDING = "sc_pending"  # an order given, waiting for its dice or cards
ORDER = "sc_order"  # the key of the menu order being entered
SIDE = "sc_side"  # the side the page decides for, when several are to decide
SEEN = "sc_seen"  # (game, event) the page last showed
FLASH = "sc_flash"  # a message for the next run: (kind, text)
CLICK = "sc_click_n"  # the last board click handled
LOG_LINES = 12
REFRESH_SECONDS = 1.0  # how often the page looks for orders entered elsewhere when it cannot
# ask the watch route (``viewer/scribe/watch.py``: a viewer run without ``wake_asgi.py``)
FLASH_SECONDS = 10.0  # how long a message stays on the page
TRACE = logging.getLogger("wake.scribe.watch")  # each run and watch tick, for finding a page
# that stopped following its game (debug level; the load benchmark turns it on)


@st.cache_resource(max_entries=4)
def _store(location: str) -> GameStore:
    return GameStore(location)


def _flash(kind: str, text: str) -> None:
    st.session_state[FLASH] = (kind, text, time.monotonic())


def _show_flash() -> None:
    """The last message, for a few seconds whatever reruns the page meanwhile (another
    device's order, a click on the board)."""
    held = st.session_state.get(FLASH)
    if not held:
        return
    kind, text, when = held
    if time.monotonic() - when > FLASH_SECONDS:
        st.session_state.pop(FLASH, None)
        return
    {"error": st.error, "warning": st.warning, "success": st.success}.get(kind, st.info)(_md(text))


def _order_key() -> str:
    """The order pills' widget key: one per position shown, so a new position starts with no
    order chosen."""
    seen = st.session_state.get(SEEN) or ("", 0)
    return f"{ORDER}|{seen[0]}|{seen[1]}"


def _reset_order() -> None:
    st.session_state.pop(_order_key(), None)
    st.session_state.pop(PENDING, None)
    fields.clear()
    chance.reset()


def run(args: argparse.Namespace, access: T.Access) -> None:
    """The page."""
    store = _store(args.store)
    if access.role == "public":
        st.info(
            "Recording needs a link: the umpire gives each side its own link (and keeps one). "
            "Without one this server shows the replay of its games as every side has seen them."
        )
        return
    if access.origin is not None:
        game_id = T.current_game(store, access.origin)
    else:
        picked = pick_or_start(store, args)
        if picked is None:
            return
        game_id = T.current_game(store, picked)
    state = store.state(game_id)
    seen = (game_id, state.seq)
    if st.session_state.get(SEEN) not in (None, seen):
        last_game = st.session_state[SEEN][0]
        if st.session_state.get(PENDING) or st.session_state.get(_order_key()):
            _flash(
                "warning",
                "Another device entered an order (or took one back) meanwhile: this page shows "
                "the game as it stands now; the order you were entering was not recorded."
                if last_game == game_id
                else "Play moved to another line of this game (a take-back).",
            )
        _reset_order()
    st.session_state[SEEN] = seen
    TRACE.debug("run %s: event %s", _session(), state.seq)
    _page(store, state, access)
    if not watch_in_page(store, game_id, state.seq):
        _watch(store, game_id)  # last: a rerun the page asks for comes before it is registered
    TRACE.debug("sent %s: event %s", _session(), state.seq)


@st.fragment(run_every=REFRESH_SECONDS)
def _watch(store: GameStore, game_id: str) -> None:
    """Reload the page when another device changed the game (within about a second): only
    where the server has no watch route (``viewer.scribe.watch``)."""
    seen = st.session_state.get(SEEN)
    if seen is None:
        TRACE.debug("tick %s: nothing seen yet", _session())
        return
    try:
        moved = moved_on(store, seen[0], seen[1])
    except Exception:  # a busy store now: look again at the next tick
        TRACE.debug("tick %s: watching the game failed", _session(), exc_info=True)
        return
    TRACE.debug("tick %s: seen event %s, moved on %s", _session(), seen[1], moved)
    if moved:
        st.rerun(scope="app")


def _session() -> str:
    """This page's Streamlit session, to tell pages apart in the trace."""
    ctx = get_script_run_ctx()
    return ctx.session_id[:8] if ctx is not None else "-"


def _status(state: GameState, access: T.Access) -> list[str | None]:
    """The status line, and the sides this page may decide for now."""
    ruleset = state.ruleset
    view = ruleset.read_model(state.rules)
    names = {s.id: s.name for s in state.header.sides}
    title = state.header.title or state.header.scenario_id
    dice = "dice rolled at the table" if state.header.dice.mode == "physical" else "computer dice"
    st.caption(
        _md(
            f"{title} · {ruleset.meta.name} · event {state.seq} · turn {view.turn} · "
            f"{view.phase.replace('_', ' ')} · {dice}"
        )
    )
    if state.result is not None:
        winner = names.get(state.result.winner or "", "nobody")
        st.success(_md(f"The game is over: {winner} won ({state.result.reason})."))
        return []
    acting = ruleset.to_act(state.rules)
    who = ", ".join(names.get(s, s) if s else "the table" for s in acting) or "nobody"
    mine = [s for s in acting if access.may_order(s)]
    if access.role == "side":
        you = names.get(access.side or "", access.side or "")
        if mine:
            st.info(_md(f"Your decision ({you})."))
        else:
            st.info(_md(f"Waiting for {who} to decide. You are {you}."))
    else:
        st.info(_md(f"Decision: {who}."))
    return mine


def _page(store: GameStore, state: GameState, access: T.Access) -> None:
    _show_flash()
    mine = _status(state, access)
    names = {s.id: s.name for s in state.header.sides}
    side = _decider(mine, names)
    menu = T.menu(store, state, side) if mine else []
    viewer = access.viewer
    pending = st.session_state.get(PENDING)
    order = _chosen(menu) if pending is None else None
    values = fields.values_of(order) if order is not None else {}
    view = view_for(state, viewer)
    target = click_target(menu, order, values, view)
    clicked = as_click(st.session_state.get("sc_board"))
    if (
        clicked is not None
        and pending is None
        and clicked.get("n") != st.session_state.get(CLICK)
        and clicked.get("figure") == _figure_key(state)
    ):
        st.session_state[CLICK] = clicked.get("n")
        new_order, new_values, said = apply_click(clicked, menu, order, values, target)
        if new_order is not order and new_order is not None:
            st.session_state[_order_key()] = new_order.key
        order = new_order
        if order is not None:
            for field in order.fields:
                if field.name in new_values:
                    fields.set_value(order, field, new_values[field.name])
            values = fields.values_of(order)
            target = click_target(menu, order, values, view)
        if said:
            st.toast(_md(said))
    board_col, orders_col = st.columns([3, 2])
    with orders_col:
        if pending is not None:
            _chance(store, state, pending, names, access)
        elif mine:
            order, values = _orders(store, state, side, menu, order, viewer)
            target = click_target(menu, order, values, view)
        _controls(store, state, access)
    with board_col:
        _board(state, view, viewer, order, values, target, side)
        _log(store, state, viewer)


def _decider(mine: Sequence[str | None], names: dict[str, str]) -> str | None:
    if not mine:
        return None
    if len(mine) == 1:
        return mine[0]
    options = list(mine)
    current = st.session_state.get(SIDE)
    if current not in options:
        st.session_state[SIDE] = options[0]
    picked = st.segmented_control(
        "Deciding for",
        options,
        format_func=lambda s: _md(names.get(s, s) if s else "the table"),
        key=SIDE,
    )
    return picked if picked in options else options[0]


def _chosen(menu: Sequence[MenuOrder]) -> MenuOrder | None:
    key = st.session_state.get(_order_key())
    return next((o for o in menu if o.key == key), None)


def _figure_key(state: GameState) -> str:
    return f"{state.header.game_id}:{state.seq}"


def _orders(
    store: GameStore,
    state: GameState,
    side: str | None,
    menu: Sequence[MenuOrder],
    order: MenuOrder | None,
    viewer: str | None,
) -> tuple[MenuOrder | None, dict[str, Any]]:
    """The menu as buttons, the chosen order's form, its preview and the button that gives it."""
    if not menu:
        st.caption("Nothing to order now.")
        return None, {}
    labels = {o.key: o.label + (" 🔒" if o.sealed else "") for o in menu}
    st.pills(
        "Orders",
        [o.key for o in menu],
        format_func=lambda k: _md(labels[k]),
        key=_order_key(),
        help="or click a unit on the board",
    )
    order = _chosen(menu)
    if order is None:
        return None, {}
    if order.help:
        st.caption(_md(order.help))
    if order.sealed:
        st.caption(
            "Sealed: what you choose here is sealed with your side's secret; nobody else sees "
            "it until it is revealed."
        )
    values = fields.draw(order, fields.values_of(order))
    left = missing(order, values)
    command: dict[str, Any] | None = None
    problem = ""
    if not left:
        try:
            command = (
                T.sealed_command(store, state, side, order, values)
                if order.sealed
                else build_command(order, values)
            )
        except WakeError as exc:
            problem = _refusal(state, exc, side)
    if command is not None:
        seen = preview(state, side, command)
        if seen.status == "refused" and seen.error is not None:
            problem = _refusal(state, seen.error, side)
            command = None
        elif seen.events and not order.sealed:
            ruleset = state.ruleset
            lines = [ruleset.describe(ruleset.redact(e, viewer)) for e in seen.events[:6]]
            st.text("\n".join(lines))
    if problem:
        st.error(_md(problem))
    label = "Give the order" if not left else f"Choose: {left[0].label}"
    if st.button(_md(label), type="primary", disabled=command is None, key="give"):
        assert command is not None
        _give(store, state, side, command, order.label, viewer)
    return order, values


def _refusal(state: GameState, error: WakeError, side: str | None) -> str:
    """A refusal in words: the message (units and sides by name, as ``side`` knows them), and
    the rule with its summary."""
    error = named_refusal(state, error, side)
    if error.rule:
        summary = state.ruleset.rule_summary(error.rule)
        more = f" — {summary}" if summary else ""
        return f"Refused: {error.message} [rule {error.rule}{more}]"
    return f"Refused: {error.message}"


def _give(
    store: GameStore,
    state: GameState,
    side: str | None,
    command: dict[str, Any],
    label: str,
    viewer: str | None,
) -> None:
    """Give the order now (computer dice) or go on to its dice and cards (physical)."""
    pending = {
        "game": state.header.game_id,
        "expected": state.seq,
        "side": side,
        "command": command,
        "label": label,
        "viewer": viewer,  # whose eyes the page's message is for
    }
    chance.reset()
    if state.header.dice.mode == "physical":
        st.session_state[PENDING] = pending
        st.rerun()
    _store_order(store, state, pending)


def _store_order(store: GameStore, state: GameState, pending: dict[str, Any]) -> None:
    try:
        facts = T.submit(
            store,
            pending["game"],
            pending["side"],
            pending["command"],
            pending["expected"],
            dice=chance.faces(),
            cards=chance.cards(),
        )
    except OrderConflict as exc:
        _reset_order()
        _flash("warning", capitalised(exc.message))
        st.rerun()
    except WakeError as exc:
        st.session_state.pop(PENDING, None)
        chance.reset()
        _flash("error", _refusal(state, exc, pending["side"]))
        st.rerun()
    ruleset = state.ruleset
    viewer = pending.get("viewer")
    words = _words(state, viewer)
    said = [
        words.text(ruleset.describe(ruleset.redact(decode(state, f), viewer)))
        for f in facts
        if f.topic != CommandIssued.TOPIC
    ][:4]
    _reset_order()
    _flash("success", f"Recorded: {pending['label']}. " + " · ".join(said))
    st.rerun()


def _chance(
    store: GameStore,
    state: GameState,
    pending: dict[str, Any],
    names: dict[str, str],
    access: T.Access,
) -> None:
    """Ask for the dice or card the pending order needs next; store it when nothing is left."""
    st.markdown(f"**{_md(pending['label'])}**")
    needs = probe(state, pending["side"], pending["command"], chance.faces(), chance.cards())
    if needs.status == "ready":
        _store_order(store, state, pending)
        return
    if needs.status == "refused" and needs.error is not None:
        st.error(_md(_refusal(state, needs.error, pending["side"])))
        if chance.faces():
            st.button("Undo the last die", key="face|undo2", on_click=chance._drop_face)
    elif needs.status == "dice" and needs.dice is not None:
        chance.dice_entry(needs.dice, names, needs.faces_used)
    elif needs.status == "card" and needs.card is not None:
        if needs.card.private and not access.sees_all and needs.card.side != access.side:
            st.info("The card drawn goes to a hidden hand: its owner or the umpire enters it.")
        else:
            chance.card_entry(needs.card, names, counts=access.sees_all or not needs.card.private)
    if st.button("Cancel this order", key="cancel"):
        _reset_order()
        st.rerun()


def _controls(store: GameStore, state: GameState, access: T.Access) -> None:
    """Take-backs and the bot, for whoever runs the table (the umpire, or locally)."""
    if not access.sees_all:
        return
    with st.expander("Table"):
        if state.result is None and st.button("Let the bot give the next order", key="bot"):
            secret = None
            held = store.secret_seed(state.header.game_id)
            if held is not None:
                secret = bot_secret(state.header, held[0].seed)
            envelope = bot_order(state, secret)
            if envelope is None:
                st.warning("The bot has no order to give now.")
            else:
                _give(store, state, envelope.side, envelope.command, "the bot's order", None)
        if state.commands and st.button("Take back the last order", key="take_back"):
            try:
                T.take_back(store, state.header.game_id, 1)
            except WakeError as exc:
                st.error(_md(exc.message))
            else:
                _reset_order()
                _flash(
                    "success",
                    "The last order was taken back: play goes on from before it; the line "
                    "taken back is kept as a variation of the game.",
                )
                st.rerun()


def _board(
    state: GameState,
    view: Any,
    viewer: str | None,
    order: MenuOrder | None,
    values: dict[str, Any],
    target: Any,
    side: str | None,
) -> None:
    """The board, with the chosen unit's reach and what the order would do."""
    shown = view
    highlight = None
    if order is not None:
        units = {u.id: u for u in view.units}
        focus = [units[uid] for uid in order.units[:1] if uid in units]
        rings = [o for unit in focus for o in ring_overlays(unit, view)]
        command = None
        if not missing(order, values) and not order.sealed:
            try:
                command = build_command(order, values)
            except WakeError:
                command = None
        if command is not None:
            seen = preview(state, side, command)
            if seen.status == "ready" and seen.events:
                after_view = state.ruleset.read_model(after(state, seen.events))
                after_view = redact_view(after_view, viewer)
                highlight = preview_highlight(view, after_view, command)
                shown = after_view
        shown = shown.model_copy(update={"overlays": [*shown.overlays, *rings]})
    hint = ""
    if target.field is not None:
        hint = f"Click the board: {target.field.label}"
    elif target.pickable:
        hint = "Click a unit to give it an order"
    if order is None:  # the position as it stands: the same for every page of this view
        figure = _plain_board(state.header.game_id, state.seq, viewer or "", view)
    else:
        figure = board_json(shown, highlight, height=board_height(shown))
    board_input(
        figure,
        key="sc_board",
        figure_key=_figure_key(state),
        pickable=target.pickable,
        free=target.free,
        hint=hint,
    )


@st.cache_data(max_entries=64, show_spinner=False)
def _plain_board(game_id: str, seq: int, viewer: str, _view: Any) -> str:
    """The board of a position for one view, drawn once however many pages watch it (every
    device at a table redraws when an order lands)."""
    return board_json(_view, None, height=board_height(_view))


def _words(state: GameState, viewer: str | None) -> Names:
    """Text in players' words: units and sides by the names this page's viewer knows, catalogue
    entries by the ruleset's names (issue 21 item 7: "graf_spee moves" read as code)."""
    names = view_names(view_for(state, viewer)).names
    return Names({**state.ruleset.names(state.rules), **names})


def _log(store: GameStore, state: GameState, viewer: str | None) -> None:
    """The last events, as the page's viewer may read them."""
    st.caption("Latest events")
    if state.seq == 0:
        st.text("Nothing has happened yet.")
        return
    facts = store.facts_after(state.header.game_id, max(0, state.seq - LOG_LINES))
    ruleset = state.ruleset
    words = _words(state, viewer)
    lines = []
    for fact in facts:
        event = decode(state, fact)
        if isinstance(event, CommandIssued):
            continue
        lines.append(f"{fact.seq}: {words.text(ruleset.describe(ruleset.redact(event, viewer)))}")
    st.text("\n".join(lines))  # plain text: names come from the record
