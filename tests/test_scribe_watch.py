"""The scribe page's watch route (issue 20 item 5, ``viewer/scribe/watch.py``): a page learns
that another device moved its game on (an order, a take-back) from ``/wake-watch/<token>``, and
from nothing else: the token is the only key, never a game id, and an unknown one is refused."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette

from domain.engine import bot_order
from domain.scribe import table as T
from domain.scribe.start import bundled_scenarios, start_game
from domain.store import GameStore
from tests.helpers import asgi_get
from viewer.scribe import watch as W


def _get(app: Starlette, path: str) -> tuple[int, dict[str, Any]]:
    """One GET through the ASGI app, the request kept open as the page keeps it."""
    status, _, body = asgi_get(app, path, held=True)
    return status, json.loads(body)


@pytest.fixture
def app() -> Starlette:
    return Starlette(routes=W.watch_routes())


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    return GameStore(str(tmp_path / "store.sqlite3"))


def _game(store: GameStore) -> str:
    scenario = next(s for s in bundled_scenarios() if s.name == "river_plate")
    return start_game(store, "morze", scenario.data, dice="seeded")


def _order(store: GameStore, game_id: str) -> None:
    state = store.state(game_id)
    envelope = bot_order(state)
    assert envelope is not None
    T.submit(store, game_id, envelope.side, envelope.command, state.seq)


def test_a_waiting_page_hears_of_an_order_another_device_entered(
    app: Starlette, store: GameStore
) -> None:
    """Issue 20 item 5: the request waits, and answers "moved" once an order is stored."""
    game = _game(store)
    token = W.WATCHES.register(store, game, store.state(game).seq)
    later = threading.Timer(0.5, _order, args=(store, game))
    later.start()
    try:
        status, answer = _get(app, f"/wake-watch/{token}")
    finally:
        later.join()
    assert (status, answer) == (200, {"moved": True, "known": True})


def test_a_page_on_the_latest_position_is_told_not_yet_after_the_wait(
    app: Starlette, store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(W, "WAIT_SECONDS", 0.5)
    game = _game(store)
    token = W.WATCHES.register(store, game, store.state(game).seq)
    assert _get(app, f"/wake-watch/{token}") == (200, {"moved": False, "known": True})


def test_an_order_in_another_game_does_not_move_a_page_on(
    app: Starlette, store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(W, "WAIT_SECONDS", 0.5)
    mine, other = _game(store), _game(store)
    token = W.WATCHES.register(store, mine, store.state(mine).seq)
    _order(store, other)
    assert _get(app, f"/wake-watch/{token}")[1]["moved"] is False


def test_a_take_back_moves_the_page_on_to_the_line_played_now(
    app: Starlette, store: GameStore
) -> None:
    """Issue 20 item 4: a take-back on another device starts another line (another game
    id); a page still on the old line must re-run, though that line got no new event."""
    game = _game(store)
    _order(store, game)
    token = W.WATCHES.register(store, game, store.state(game).seq)
    T.take_back(store, game)
    assert _get(app, f"/wake-watch/{token}")[1]["moved"] is True


def test_a_page_already_behind_is_answered_at_once(app: Starlette, store: GameStore) -> None:
    game = _game(store)
    seq = store.state(game).seq
    _order(store, game)
    assert _get(app, f"/wake-watch/{W.WATCHES.register(store, game, seq)}")[1]["moved"] is True


@pytest.mark.parametrize("token", ["nope", "x" * 65, "..%2F..%2Fetc"])
def test_a_token_not_given_by_this_server_is_refused(app: Starlette, token: str) -> None:
    """Untrusted input: nothing in the address but a token this process issued is looked
    at (no game id, path or store comes from it)."""
    assert _get(app, f"/wake-watch/{token}") == (404, {"moved": False, "known": False})


def test_the_positions_kept_are_bounded_and_the_oldest_goes_first(store: GameStore) -> None:
    watches = W.Watches(limit=2)
    game = _game(store)
    first, second, third = (watches.register(store, game, 0) for _ in range(3))
    assert not watches.known(first)
    assert watches.known(second) and watches.known(third)


def test_pages_on_one_position_share_one_look_at_the_store(store: GameStore) -> None:
    """At most one store read per position per poll, for all the pages showing it."""
    watches = W.Watches(poll=60.0)
    game = _game(store)
    seq = store.state(game).seq
    one, two = watches.register(store, game, seq), watches.register(store, game, seq)
    assert watches.answer(two) is None  # nobody looked yet
    assert watches.look(one) is False
    assert watches.answer(two) is False  # the look for page one answers page two
