"""Annotations in the replay viewer (issue 14): a filter and a column in the log, the current
event's annotations in the explain panel, and a small form that appends one to a stored game.

Annotation text, authors and kinds are untrusted (anyone who writes to the store or a record can
put anything there that passes ``domain.annotations``): they go out only as plain text
(``st.text``, dataframe cells, widget values) or escaped (``viewer.safe_text``), never as
Markdown or HTML. Nothing here knows a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from domain.annotations import (
    EVERYONE,
    KINDS,
    MAX_AUTHOR,
    MAX_TEXT,
    UMPIRE,
    Annotation,
    select,
)
from domain.errors import WakeError
from domain.store import GameStore
from viewer.loading import LoadedGame
from viewer.safe_text import escape_markdown as _md

CELL_CHARS = 60  # an annotation's text in a log cell is cut here (the panel shows all of it)
_FLASH = "_annotation_saved"  # a message shown once after the page reloads with a new annotation


@dataclass(frozen=True)
class NoteFilter:
    """The log's annotation filter: kinds and authors picked (empty: no filter)."""

    notes: tuple[Annotation, ...]
    kinds: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()

    @property
    def active(self) -> bool:
        return bool(self.kinds or self.authors)

    def matching(self) -> list[Annotation]:
        """Every annotation the filter keeps (the game's and every event's)."""
        return select(self.notes, kinds=self.kinds, authors=self.authors)

    def keep(self, seq: int) -> bool:
        """Whether the log keeps event ``seq``: always without a filter, else only an event
        with an annotation the filter keeps."""
        return not self.active or any(n.event == seq for n in self.matching())

    def cell(self, seq: int) -> str:
        """The log's ``annotations`` cell for event ``seq`` (plain text for a dataframe)."""
        shown = [n for n in self.notes if n.event == seq]
        text = " | ".join(f"#{n.number} {n.kind} ({n.author}): {n.text}" for n in shown)
        text = " ".join(text.split())
        return text if len(text) <= CELL_CHARS else text[: CELL_CHARS - 1] + "…"


def log_filter(notes: Sequence[Annotation], kind_col: Any, author_col: Any) -> NoteFilter:
    """Two multiselects beside the log's own filters: annotation kind and author."""
    authors = sorted({n.author for n in notes})
    kinds = kind_col.multiselect(
        "Annotation kind", list(KINDS), key="f_note_kind", help="only events annotated so"
    )
    by = author_col.multiselect(
        "Annotation author", authors, key="f_note_author", help="only events annotated by"
    )
    return NoteFilter(tuple(notes), tuple(kinds), tuple(by))


def _show(note: Annotation) -> None:
    with st.container(border=True):
        st.text(f"#{note.number} · {note.kind} · by {note.author} · {note.time}")
        st.text(note.text)


def explain_notes(notes: Sequence[Annotation], event: int) -> None:
    """Under the explain panel: the annotations on the current event (on the game at the
    start), as plain text."""
    here = [n for n in notes if n.event == event]
    what = f"event {event}" if event else "the game"
    if not here:
        st.caption(f"No annotations on {what}.")
        return
    st.caption(f"Annotations on {what} ({len(here)})")
    for note in here:
        _show(note)


def move_list_notes(notes: Sequence[Annotation]) -> tuple[dict[str, str], bool]:
    """What the scrubber's move list shows (issue 14): each annotated event's annotations as
    one line of plain text, by event number, only the events the filter keeps when it is set;
    and whether it is set (the move list then lists only those events)."""
    kept = current_filter(notes)
    events = {n.event for n in (kept.matching() if kept.active else notes) if n.event > 0}
    return {str(seq): kept.cell(seq) for seq in sorted(events)}, kept.active


def current_filter(notes: Sequence[Annotation]) -> NoteFilter:
    """The filter as the log's two multiselects last set it."""
    kinds = st.session_state.get("f_note_kind") or ()
    authors = st.session_state.get("f_note_author") or ()
    return NoteFilter(tuple(notes), tuple(kinds), tuple(authors))


def annotations_section(
    game: LoadedGame, store: str | None, event: int, go: Callable[[int], None]
) -> None:
    """Under the log: every annotation the log's filter keeps (a click on a row goes to its
    event), and the form that adds one to the current event or to the game."""
    st.subheader("Annotations")
    c1, c2 = st.columns(2)  # the filter also keeps the move list to the events annotated so
    notes = log_filter(game.annotations, c1, c2)
    flash = st.session_state.pop(_FLASH, None)
    if flash:
        st.success(_md(flash))
    shown = notes.matching()
    rows = [
        {
            "#": n.number,
            "event": n.event,
            "kind": n.kind,
            "author": n.author,
            "time (UTC)": n.time,
            "text": n.text,
        }
        for n in shown
    ]
    if rows:
        key = f"notes_{event}_{len(rows)}"  # a fresh grid after each move: no stale selection

        def jump() -> None:
            picked = st.session_state[key].selection.rows
            if picked and 0 <= picked[0] < len(shown):
                go(shown[picked[0]].event)

        st.dataframe(
            rows,
            hide_index=True,
            width="stretch",
            key=key,
            on_select=jump,
            selection_mode="single-row",
        )
        st.caption(
            f"{len(rows)} of {len(notes.notes)} annotations (event 0 = the game as a whole; "
            "click a row to go there)."
        )
    else:
        st.caption("No annotations match." if notes.notes else "No annotations yet.")
    _add_form(game, store, event)


def _visibility_words(visible_to: str | None, game: LoadedGame) -> str:
    """A "Visible to" choice in words (a selectbox's option: plain text, never Markdown)."""
    if visible_to is None:
        return "the game's default (the umpire only in a game with hidden information)"
    if visible_to == EVERYONE:
        return "everyone"
    if visible_to == UMPIRE:
        return "the umpire only"
    names = {s.id: s.name for s in game.header.sides}
    return f"{names.get(visible_to, visible_to)} (and the umpire)"


def _add_form(game: LoadedGame, store: str | None, event: int) -> None:
    with st.expander("Add an annotation", expanded=False):
        if game.source != "store":
            st.caption(  # not an alert: the page's alerts say whether the game is genuine
                "This game was opened from a file: annotations are kept with a stored game. "
                "Keep it in the store first (sidebar), then open it under Stored games."
            )
            return
        targets = [event, 0] if event else [0]
        with st.form("add_annotation", clear_on_submit=True):
            target = st.radio(
                "On",
                targets,
                format_func=lambda e: f"event {e} (the current event)" if e else "the game",
                horizontal=True,
            )
            author = st.text_input("Author", max_chars=MAX_AUTHOR)
            kind = st.selectbox(
                "Kind", list(KINDS), help="; ".join(f"{k}: {v}" for k, v in KINDS.items())
            )
            text = st.text_area("Text (plain text)", max_chars=MAX_TEXT)
            visible_to = st.selectbox(  # issue 21 item 1 / issue 23 item 3: who may read it
                "Visible to",
                [None, EVERYONE, UMPIRE, *(s.id for s in game.header.sides)],
                format_func=lambda v: _visibility_words(v, game),
                help="A side's view shows only what that side may read; the umpire reads all.",
            )
            submitted = st.form_submit_button("Add annotation")
        if submitted:
            try:
                note = GameStore(store).annotate(
                    game.header.game_id,
                    int(target or 0),
                    str(kind),
                    author,
                    text,
                    visible_to=visible_to,
                )
            except WakeError as exc:
                st.error(f"Not added: {_md(exc)}")
                return
            st.session_state[_FLASH] = f"Added annotation #{note.number} on {note.target}."
            st.rerun()
