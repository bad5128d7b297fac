"""How a scribe's page learns that another device moved the game on (issue 20 item 5).

Each page run registers the position it shows and gets an unguessable token; a small
component in the page (``static/watch.js``) asks ``/wake-watch/<token>``, which answers as soon
as the game has moved on from that position (an order appended, or a take-back moved play to
another line), or after :data:`WAIT_SECONDS` that it has not; the component then asks again,
or sets its value, which re-runs the page on the new position.

This replaced a one-second fragment timer per page as the way to notice. Under load that
timer cost the server a script run and four or five websocket messages a page a second, and
the messages queued for seconds behind one another (the load benchmark's trace: a page's run
done within 2 s, its websocket handed the result 5-30 s later); and a Chromium page's timer
stopped for good after a full rerun, so that page never showed another event. The answer
here is a small HTTP response from the server's event loop; the store is read in a worker
thread, at most once per :data:`POLL_SECONDS` for all the pages showing one position.

Nothing in the address is trusted: the token is looked up among the positions this process
registered (bounded, the oldest dropped first), so no game id, path or store comes from it.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import streamlit.components.v1 as components
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from domain.scribe import table as T
from domain.store import GameStore
from viewer.components import component_dir, served_by_route

WATCH_ROUTE = "wake-watch"
WAIT_SECONDS = 20.0  # how long one request waits for a move before answering "not yet"
POLL_SECONDS = 0.3  # how often a waiting request looks at the store (shared per position)
LIMIT = 4096  # positions kept; the oldest registered is dropped first
TOKEN_CHARS = 64  # a longer token is not one of ours

STATIC = Path(__file__).with_name("static")


@cache
def _component() -> Any:
    """Declared at first use: after ``viewer/wake_asgi.py`` has said the components' files
    are served by route (it imports this module for the route first)."""
    return components.declare_component(
        "wake_watch", path=str(component_dir("watch", STATIC, ("index.html", "watch.js")))
    )


@dataclass(frozen=True)
class _Position:
    store: GameStore
    game_id: str
    seq: int


class Watches:
    """The positions pages show, by token, and whether each game has moved on from them."""

    def __init__(self, limit: int = LIMIT, poll: float = POLL_SECONDS) -> None:
        self._limit = limit
        self._poll = poll
        self._lock = threading.Lock()
        self._by_token: OrderedDict[str, _Position] = OrderedDict()
        self._checked: dict[tuple[int, str, int], tuple[float, bool]] = {}

    def register(self, store: GameStore, game_id: str, seq: int) -> str:
        """A token for a page showing ``game_id`` at event ``seq``."""
        token = secrets.token_urlsafe(18)
        with self._lock:
            self._by_token[token] = _Position(store, game_id, seq)
            while len(self._by_token) > self._limit:
                self._by_token.popitem(last=False)
            if len(self._checked) > 4 * self._limit:
                self._checked.clear()
        return token

    def known(self, token: str) -> bool:
        with self._lock:
            return token in self._by_token

    def answer(self, token: str) -> bool | None:
        """Whether the game has moved on from ``token``'s position, if that was looked at in
        the last ``poll`` seconds (for any page); None when it must be looked at again."""
        with self._lock:
            position = self._by_token.get(token)
            if position is None:
                return None
            held = self._checked.get(self._key(position))
        if held is None or time.monotonic() - held[0] > self._poll:
            return None
        return held[1]

    def look(self, token: str) -> bool | None:
        """Read the store: whether the game has moved on from ``token``'s position (None: not
        a token of ours). Blocking: call it from a worker thread."""
        with self._lock:
            position = self._by_token.get(token)
        if position is None:
            return None
        moved = T.current_game(
            position.store, position.game_id
        ) != position.game_id or position.store.moved_on(position.game_id, position.seq)
        with self._lock:
            self._checked[self._key(position)] = (time.monotonic(), moved)
        return moved

    @staticmethod
    def _key(position: _Position) -> tuple[int, str, int]:
        return (id(position.store), position.game_id, position.seq)


WATCHES = Watches()


def moved_on(store: GameStore, game_id: str, seq: int) -> bool:
    """Whether a page showing ``game_id`` at event ``seq`` is behind: an order appended, or a
    take-back that moved play to another line."""
    return T.current_game(store, game_id) != game_id or store.moved_on(game_id, seq)


async def _watch(request: Request) -> Response:
    token = str(request.path_params["token"])
    headers = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
    if len(token) > TOKEN_CHARS or not WATCHES.known(token):
        return JSONResponse({"moved": False, "known": False}, status_code=404, headers=headers)
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        moved = WATCHES.answer(token)
        if moved is None:
            try:
                moved = await run_in_threadpool(WATCHES.look, token)
            except Exception:  # a busy store now: say "not yet", the page asks again
                moved = False
        if moved is None:
            return JSONResponse({"moved": False, "known": False}, status_code=404, headers=headers)
        if moved or time.monotonic() >= deadline or await request.is_disconnected():
            return JSONResponse({"moved": moved, "known": True}, headers=headers)
        await asyncio.sleep(POLL_SECONDS)


def watch_routes(base_url: str = "") -> list[Route]:
    """The watch route, under the server's base URL path (``server.baseUrlPath``)."""
    base = "/" + base_url.strip("/") if base_url.strip("/") else ""
    return [Route(f"{base}/{WATCH_ROUTE}/{{token}}", _watch, methods=["GET"])]


def watch_in_page(store: GameStore, game_id: str, seq: int) -> bool:
    """Put the watching component on the page for ``game_id`` at event ``seq``: the page
    re-runs when the game moves on. False when this server has no watch route (the viewer
    run without ``viewer/wake_asgi.py``): the caller must watch some other way."""
    if not served_by_route():
        return False
    _component()(token=WATCHES.register(store, game_id, seq), key="sc_watch", default=None)
    return True
