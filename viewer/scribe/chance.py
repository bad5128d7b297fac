"""Physical chance entered as it happens (issue 20): the dice an order needs, asked for by kind,
count and purpose with one button per face, and a card drawn from a physical deck picked by its
name among those left. The engine validates every face and card again when the order is stored.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from domain.scribe.probe import CardAsk, DiceAsk
from viewer.safe_text import escape_markdown as _md

FACES = "sc_faces"  # physical faces entered for the pending order, in throw order
CARDS = "sc_cards"  # card ids entered for it, in drawing order


def faces() -> list[int]:
    return list(st.session_state.get(FACES) or [])


def cards() -> list[str]:
    return list(st.session_state.get(CARDS) or [])


def reset() -> None:
    st.session_state[FACES] = []
    st.session_state[CARDS] = []


def _add_face(face: int) -> None:
    st.session_state[FACES] = [*faces(), face]


def _drop_face() -> None:
    st.session_state[FACES] = faces()[:-1]


def _add_card(card: str) -> None:
    st.session_state[CARDS] = [*cards(), card]


def dice_entry(ask: DiceAsk, side_names: Mapping[str, str], before: int) -> None:
    """One button per face for each die ``ask`` needs, die after die; ``before`` faces were
    entered for earlier throws of this order (the last face can be undone)."""
    entered = faces()[before:]
    st.markdown(f"**Roll:** {_md(ask.text(side_names))}")
    position = 0
    for group in ask.groups:
        who = side_names.get(group.side, group.side) if group.side else "the table"
        for d, die in enumerate(group.dice):
            title = f"{who} · die {d + 1} · {die.name}"  # no ":": escaped for Markdown, it reached
            # the pills' accessible name as "\:" (screen readers, tests find dice by name)
            if position < len(entered):
                label = next((f.label for f in die.faces if f.face == entered[position]), "?")
                st.markdown(f"{_md(title)} = **{_md(label)}**")
            elif position == len(entered):
                labels: dict[int, str] = {f.face: _md(f.label) for f in die.faces}
                at = before + position  # this die's place among the order's faces
                picked = st.pills(
                    _md(title),
                    [f.face for f in die.faces],
                    format_func=labels.__getitem__,
                    key=f"face|{at}|{die.name}|{len(faces())}",
                )
                if picked is not None and len(faces()) == at:  # once, whatever reruns
                    _add_face(int(picked))
                    st.rerun()
            else:
                st.caption(_md(title))
            position += 1
    if faces():
        shown = " · ".join(map(str, faces()))
        st.caption(f"Faces entered for this order ({len(faces())}): {shown}")
        st.button("Undo the last die", key="face|undo", on_click=_drop_face)


def card_entry(ask: CardAsk, side_names: Mapping[str, str], *, counts: bool = True) -> None:
    """The cards that may have been drawn, by name, as buttons; with ``counts`` the copies
    left of each (not on a player's own page for a card going to a hidden hand: the counts
    would tell which cards the others hold)."""
    st.markdown(f"**Draw:** {_md(ask.text(side_names) if counts else ask.request.purpose)}")
    labels = {
        card: f"{name} ({copies} left)" if counts else name for card, name, copies in ask.choices()
    }
    at = len(cards())
    picked = st.pills(
        "The card drawn",
        list(labels),
        format_func=lambda card: _md(labels[card]),
        key=f"card|{at}",
    )
    if picked is not None and len(cards()) == at:  # once, whatever reruns
        _add_card(str(picked))
        st.rerun()
