"""The scribe's order form (issue 20): one widget per field of the chosen menu order, generic
over every ruleset — choices as buttons (pills), several choices as a pick (in order where the
order matters), a point or a box from a board click or typed, numbers and flags.

Values live in ``st.session_state`` under one key per order and field, so that a board click can
fill a field before the form is drawn. Every label is plain text made literal for Streamlit's
Markdown (``escape_markdown``): names come from scenario files, which are untrusted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from domain.scribe.menu import MenuChoice, MenuField, MenuOrder, open_choices
from viewer.safe_text import escape_markdown as _md

PREFIX = "scf"  # session-state keys of field values: scf|order key|field name
MAX_PILLS = 24  # more choices than this go in a select box


def key_of(order: MenuOrder, field: MenuField) -> str:
    return f"{PREFIX}|{order.key}|{field.name}"


def values_of(order: MenuOrder) -> dict[str, Any]:
    """The values chosen so far for ``order`` (from the session's widget state)."""
    out: dict[str, Any] = {}
    for field in order.fields:
        value = st.session_state.get(key_of(order, field))
        if value is None or (value == [] and field.kind != "many"):
            continue
        out[field.name] = value
    return out


def set_value(order: MenuOrder, field: MenuField, value: Any) -> None:
    st.session_state[key_of(order, field)] = value


def clear(order: MenuOrder | None = None) -> None:
    """Forget the values of ``order`` (all orders' when None)."""
    prefix = f"{PREFIX}|{order.key}|" if order is not None else f"{PREFIX}|"
    for key in [k for k in st.session_state if isinstance(k, str) and k.startswith(prefix)]:
        del st.session_state[key]


def _choice_label(choice: MenuChoice) -> str:
    text = choice.label + (f" · {choice.detail}" if choice.detail else "")
    return _md(text)


def draw(order: MenuOrder, values: Mapping[str, Any]) -> dict[str, Any]:
    """Draw the form of ``order``; the values chosen (after this run's widget changes)."""
    for field in order.fields:
        chosen = dict(values_of(order))
        _field(order, field, chosen)
    return values_of(order)


def _field(order: MenuOrder, field: MenuField, chosen: Mapping[str, Any]) -> None:
    key = key_of(order, field)
    label = _md(field.label) + (" 🔒" if field.secret else "")
    help_text = _md(field.help) if field.help else None
    if field.kind == "one":
        choices = open_choices(field, chosen)
        if not choices:
            st.caption(f"{label}: nothing to choose until the fields above are chosen")
            return
        _one(key, label, help_text, choices)
    elif field.kind == "many":  # the choices open as its next value (a path's next box)
        so_far = list(st.session_state.get(key) or [])
        _many(field, key, label, help_text, open_choices(field, {**chosen, field.name: so_far}))
    elif field.kind == "point":
        _point(key, label, help_text, field)
    elif field.kind in ("integer", "number"):
        _number(key, label, help_text, field)
    elif field.kind == "flag":
        widget = f"{key}|w"
        st.session_state[widget] = bool(st.session_state.get(key, field.default or False))
        st.toggle(label, help=help_text, key=widget, on_change=_copy, args=(widget, key, None))


def _copy(widget: str, key: str, decode: dict[str, Any] | None) -> None:
    """A widget changed: its value becomes the field's (``decode``: option key -> value)."""
    raw = st.session_state.get(widget)
    if decode is None:
        value = raw
    elif isinstance(raw, list):
        value = [decode[r] for r in raw if r in decode]
    else:
        value = decode.get(raw) if raw is not None else None
    if value is None:
        st.session_state.pop(key, None)
    else:
        st.session_state[key] = value


def _option_keys(choices: list[MenuChoice]) -> tuple[list[str], dict[str, Any], dict[str, str]]:
    keys = [_json(c.value) for c in choices]
    decode = dict(zip(keys, (c.value for c in choices), strict=True))
    labels = dict(zip(keys, (_choice_label(c) for c in choices), strict=True))
    return keys, decode, labels


def _json(value: Any) -> str:
    import orjson

    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def _one(key: str, label: str, help_text: str | None, choices: list[MenuChoice]) -> None:
    keys, decode, labels = _option_keys(choices)
    current = st.session_state.get(key)
    widget = f"{key}|w"
    st.session_state[widget] = (
        _json(current) if current is not None and _json(current) in decode else None
    )
    common: dict[str, Any] = {
        "format_func": lambda k: labels.get(k, k),
        "key": widget,
        "help": help_text,
        "on_change": _copy,
        "args": (widget, key, decode),
    }
    if len(choices) <= MAX_PILLS:
        st.pills(label, keys, **common)
    else:
        st.selectbox(label, keys, placeholder="Choose", **common)


def _many(
    field: MenuField,
    key: str,
    label: str,
    help_text: str | None,
    choices: list[MenuChoice],
) -> None:
    current = list(st.session_state.get(key) or [])
    keys, decode, labels = _option_keys(choices)
    bounds = []
    if field.min_count:
        bounds.append(f"at least {field.min_count}")
    if field.max_count is not None:
        bounds.append(f"at most {field.max_count}")
    note = f" ({', '.join(bounds)})" if bounds else ""
    if field.ordered or not field.distinct:
        shown = " → ".join(labels.get(_json(v), "?") for v in current)
        st.markdown(f"**{label}**{_md(note)}: {shown or 'none yet'}", help=help_text)
        full = field.max_count is not None and len(current) >= field.max_count
        open_now = [k for k in keys if not (field.distinct and decode[k] in current)]
        cols = st.columns([4, 1])
        with cols[0]:
            if not full and open_now:
                widget = f"{key}|add{len(current)}"  # one per place: a rerun adds nothing twice
                st.session_state[widget] = None
                st.pills(
                    f"Add to {label}",
                    open_now,
                    format_func=lambda k: labels.get(k, k),
                    key=widget,
                    label_visibility="collapsed",
                    on_change=_append,
                    args=(widget, key, decode, len(current)),
                )
        with cols[1]:
            st.button(
                "Undo",
                key=f"{key}|undo",
                help="remove the last one",
                disabled=not current,
                on_click=_undo,
                args=(key,),
            )
        return
    widget = f"{key}|w"
    st.session_state[widget] = [_json(v) for v in current if _json(v) in decode]
    st.pills(
        f"{label}{_md(note)}",
        keys,
        selection_mode="multi",
        format_func=lambda k: labels.get(k, k),
        key=widget,
        help=help_text,
        on_change=_copy,
        args=(widget, key, decode),
    )


def _append(widget: str, key: str, decode: dict[str, Any], at: int) -> None:
    """A value picked for place ``at`` of an ordered field: added once, whatever reruns."""
    raw = st.session_state.get(widget)
    current = list(st.session_state.get(key) or [])
    if raw in decode and len(current) == at:
        st.session_state[key] = [*current, decode[raw]]


def _undo(key: str) -> None:
    current = list(st.session_state.get(key) or [])
    if current:
        st.session_state[key] = current[:-1]


def _point(key: str, label: str, help_text: str | None, field: MenuField) -> None:
    current = st.session_state.get(key)
    cols = st.columns(2)
    for i, axis in enumerate("xy"):
        widget = f"{key}|{axis}"
        if current:  # a board click, or both typed: the boxes show the point
            st.session_state[widget] = float(current[i])
        with cols[i]:
            st.number_input(
                f"{label}: {axis}",
                min_value=field.low,
                max_value=field.high,
                step=0.5,
                key=widget,
                help=(help_text or "click the board, or type the coordinates") if i == 0 else None,
                on_change=_point_changed,
                args=(key,),
            )


def _point_changed(key: str) -> None:
    x, y = st.session_state.get(f"{key}|x"), st.session_state.get(f"{key}|y")
    if x is None or y is None:
        st.session_state.pop(key, None)
    else:
        st.session_state[key] = [float(x), float(y)]


def _number(key: str, label: str, help_text: str | None, field: MenuField) -> None:
    current = st.session_state.get(key, field.default)
    integer = field.kind == "integer"
    low, high = field.low, field.high
    widget = f"{key}|n"
    if integer and low is not None and high is not None and high - low <= MAX_PILLS:
        options = list(range(int(low), int(high) + 1))
        st.session_state[widget] = current if current in options else None
        st.pills(
            label, options, key=widget, help=help_text, on_change=_copy, args=(widget, key, None)
        )
        return
    st.session_state[widget] = current
    st.number_input(
        label,
        min_value=int(low) if integer and low is not None else low,
        max_value=int(high) if integer and high is not None else high,
        step=1 if integer else 0.5,
        key=widget,
        help=help_text,
        on_change=_copy,
        args=(widget, key, None),
    )
