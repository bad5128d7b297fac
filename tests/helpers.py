"""Shared test helpers: small scenarios and bot games."""

from __future__ import annotations

import asyncio
import sqlite3
import uuid
from collections.abc import MutableMapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from domain.engine import Session, bot_order, header_for
from domain.store import SNAPSHOT_INTERVAL, GameStore

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
RECORDS = sorted((FIXTURES / "games").rglob("*.wake.json"))


def small_scenario(turn_limit: int | None = 8) -> dict[str, Any]:
    return {
        "id": "test_small",
        "title": "test",
        "table": {"width": 100, "height": 60},
        "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        "units": [
            {"id": "a1", "side": "a", "class": "heavy_cruiser", "x": 10, "y": 20},
            {"id": "a2", "side": "a", "class": "destroyer", "x": 10, "y": 30},
            {"id": "a3", "side": "a", "class": "light_cruiser", "x": 10, "y": 40},
            {"id": "b1", "side": "b", "class": "heavy_cruiser", "x": 90, "y": 20},
            {"id": "b2", "side": "b", "class": "destroyer", "x": 90, "y": 30},
            {"id": "b3", "side": "b", "class": "corvette", "x": 90, "y": 40},
        ],
        "victory": {"annihilation": True, "turn_limit": turn_limit},
    }


def bot_game(
    seed: int | None = 1,
    scenario: dict[str, Any] | None = None,
    game_id: str = "00000000-0000-4000-8000-0000000000aa",
) -> Session:
    session = Session(header_for("morze", scenario or small_scenario(), game_id=game_id, seed=seed))
    while session.submit_bot() is not None:
        pass
    return session


def game_with_a_snapshot(path: str) -> str:
    """A bot-played Morze game stored in ``path`` far enough to have a snapshot row."""
    store = GameStore(path)
    gid = store.create_game(
        header_for("morze", small_scenario(), game_id=str(uuid.uuid4()), seed=1)
    )
    game = None
    while len(store.facts(gid)[1]) < SNAPSHOT_INTERVAL + 5:
        game, facts = store.submit_next(gid, bot_order, game)
        assert facts is not None
    return gid


def run_sql(path: str, statement: str, *args: object) -> None:
    """One statement on a SQLite store, outside Wake (a store tampered with)."""
    con = sqlite3.connect(path)
    con.execute(statement, args)
    con.commit()
    con.close()


def asgi_get(
    app: Any, path: str, headers: list[tuple[bytes, bytes]] | None = None, *, held: bool = False
) -> tuple[int, dict[str, str], bytes]:
    """One GET through an ASGI app: status, headers (lower-cased names) and body. ``held``:
    the client keeps its request open (a long poll), instead of having sent it all.

    The call runs on a thread of its own: earlier tests in the same process (Playwright's sync
    API) may leave an event loop running in this one, where asyncio.run refuses to start."""
    sent: list[MutableMapping[str, Any]] = []
    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": headers or [],
        "scheme": "http",
        "server": ("127.0.0.1", 80),
        "client": ("127.0.0.1", 5000),
        "root_path": "",
    }

    async def receive() -> dict[str, Any]:
        if held:
            await asyncio.sleep(3600)
            return {"type": "http.disconnect"}
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, app(scope, receive, send)).result(timeout=120)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return (
        int(start["status"]),
        {k.decode().lower(): v.decode() for k, v in start["headers"]},
        body,
    )
