"""The scrubber: a Streamlit component that replays a game in the browser (issue 13).

The game's frames go to the browser once per game and view (``payload.build_payload``); the board,
the event strip, the charts' cursors, the position line and the move list are drawn there
(``static/*.js``, one file per thing drawn, loaded in order by ``static/index.html``; plotly.js),
so a step never waits for the server. The component returns the position the user settled on
(debounced in the browser), and the app catches up with it: the Explain panel and the URL's
``?event=``.

The component's files are served from one directory: ``static/`` of this package, its scripts
joined into one ``scrubber.bundle.js`` in ``index.html``'s order, and plotly.js from the
installed ``plotly`` package (never a CDN), assembled once per version in a cache directory
(the package directory may be read-only); under Wake's server, from a route a browser caches
for good (``viewer/components.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypedDict

import streamlit.components.v1 as components

from viewer.components import component_dir as assembled
from viewer.scrubber.payload import Encoded, build_payload, encode

STATIC = Path(__file__).with_name("static")
# the scripts in the order index.html loads them
SCRIPTS = (
    "context.js",
    "protocol.js",
    "control.js",
    "keys.js",
    "narrow.js",
    "board-traces.js",
    "board-place.js",
    "board-labels.js",
    "board-table.js",
    "board-overlays.js",
    "board-reach.js",
    "board.js",
    "charts.js",
    "winprob.js",
    "moves.js",
    "start.js",
)
FILES = ("index.html", "scrubber.css", *SCRIPTS)


class Position(TypedDict):
    """What the component returns: the event the user settled on, the ``token`` of the
    server's last forced position it applies to, a counter, and the game."""

    event: int
    token: int
    n: int
    game: str


def component_dir() -> Path:
    """A directory with the component's files and plotly.js, made once per content."""
    return assembled("scrubber", STATIC, FILES, bundle=SCRIPTS)


_component = components.declare_component("wake_scrubber", path=str(component_dir()))


def as_position(value: Any) -> Position | None:
    """The component's value (``st.session_state[key]``) as a :class:`Position`, or ``None``
    (no move yet, or not a value of ours)."""
    if not isinstance(value, dict):
        return None
    try:
        return Position(
            event=int(value["event"]),
            token=int(value["token"]),
            n=int(value["n"]),
            game=str(value["game"]),
        )
    except (KeyError, TypeError, ValueError):
        return None


def scrubber(
    encoded: Encoded,
    *,
    payload_id: str,
    event: int,
    token: int,
    key: str,
    notes: dict[str, str] | None = None,
    notes_only: bool = False,
) -> Position | None:
    """Draw the scrubber at ``event``; the position the user settled on, or ``None`` before
    the first move. ``token`` changes whenever the server moves the position itself (the
    component then jumps to ``event``; otherwise it keeps its own position). ``notes``: each
    annotated event's annotations as one line of plain text, shown in the move list (with
    ``notes_only``, the move list keeps only those events: the page's annotation filter)."""
    value: Any = _component(
        payload=encoded.data,
        payload_id=payload_id,
        event=event,
        token=token,
        notes={"text": notes or {}, "only": notes_only},
        key=key,
        default=None,
    )
    return as_position(value)


__all__ = [
    "Encoded",
    "Position",
    "as_position",
    "build_payload",
    "component_dir",
    "encode",
    "scrubber",
]
