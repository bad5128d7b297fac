"""Store and engine benchmarks (not tests). Every figure is a ratio or a rate measured in this
run, so the table holds on a noisy machine. Run: ``make bench`` (needs PostgreSQL for the PG rows;
they are skipped with a note when no server answers).

1. replay vs raw read: rebuilding a 10,000-event game (latest state through snapshots; a full
   rebuild from the first row, trusting the store's rows and checking every digest) against a
   raw SELECT of the same rows + orjson decode;
2. state at event 100 vs event 10,000;
3. append throughput (orders/s through the store) on SQLite and PostgreSQL;
4. bot games per second vs a minimal hand-written loop of the same dice arithmetic;
5. concurrent writers to different games: orders/s for 1, 2, 4 writers (SQLite, PostgreSQL with
   Wake's lock-free recorder, and with the library's table lock).
"""

from __future__ import annotations

import multiprocessing
import random
import sqlite3
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from tempfile import mkdtemp

import orjson

from domain.engine import CommandEnvelope, Session, header_for
from domain.events import CommandIssued
from domain.simulate import play_one
from domain.store import GameStore
from tests.benchmarks.bench_viewer import large_game, timed
from tests.helpers import small_scenario
from tests.pg import PG_BASE, pg_unavailable_reason
from tests.workers import bot_writer

Row = tuple[str, str]


def stored_large_game(location: str, format_version: int = 2) -> tuple[str, Session]:
    """The 10,100-event bot game, stored under a fresh UUID, in record format
    ``format_version`` (1: Python's sorted json under the digests; 2: RFC 8785)."""
    base = large_game()
    header = base.header.model_copy(
        update={"game_id": str(uuid.uuid4()), "format_version": format_version}
    )
    session = Session(header)
    for fact in base.facts:
        if fact.topic == CommandIssued.TOPIC:
            issued = CommandIssued.model_validate(fact.payload)
            session.submit(CommandEnvelope(side=issued.side, command=issued.command))
    GameStore(location).import_game(header, session.facts)
    return header.game_id, session


def raw_read_sqlite(path: str, game_id: str) -> Callable[[], object]:
    con = sqlite3.connect(path)
    key = uuid.UUID(game_id).hex

    def read() -> object:
        rows = con.execute(
            "SELECT state FROM stored_events WHERE originator_id=? ORDER BY originator_version",
            (key,),
        ).fetchall()
        return [orjson.loads(r[0]) for r in rows]

    return read


def raw_read_pg(url: str, game_id: str) -> Callable[[], object]:
    import psycopg

    schema = url.split("schema=")[1].split("&")[0]
    conn = psycopg.connect(PG_BASE, autocommit=True)  # no open transaction to block DROP

    def read() -> object:
        rows = conn.execute(
            f'SELECT state FROM "{schema}".wake_events WHERE originator_id=%s '
            "ORDER BY originator_version",
            (uuid.UUID(game_id),),
        ).fetchall()
        return [orjson.loads(bytes(r[0])) for r in rows]

    return read


def replay_rows(
    name: str, location: str, raw: Callable[[], object], game_id: str, session: Session
) -> list[Row]:
    store = GameStore(location)
    for check in (
        store.state(game_id),
        store.state(game_id, from_snapshot=False),
        store.state(game_id, from_snapshot=False, verify=True),
    ):
        assert check == session.state, "every read path rebuilds the played state"
    t_raw = timed(raw)
    t_latest = timed(lambda: GameStore(location).state(game_id))
    t_fold = timed(lambda: store.state(game_id, from_snapshot=False))
    t_verified = timed(lambda: store.state(game_id, from_snapshot=False, verify=True), 3)
    t_facts = timed(lambda: store.facts(game_id), 3)
    t_100 = timed(lambda: store.state(game_id, at_event=100))
    t_10k = timed(lambda: store.state(game_id, at_event=10_000))
    return [
        (f"{name}: raw SELECT + orjson of {session.state.seq} rows", f"{t_raw * 1000:.1f} ms"),
        (f"{name}: latest state via snapshot + tail / raw", f"{t_latest / t_raw:.2f}"),
        (f"{name}: full rebuild from every row (no snapshot) / raw", f"{t_fold / t_raw:.2f}"),
        (f"{name}: full rebuild checking every digest / raw", f"{t_verified / t_raw:.2f}"),
        (f"{name}: every fact as a Fact model (viewer load) / raw", f"{t_facts / t_raw:.2f}"),
        (f"{name}: state at event 10,000 / at event 100", f"{t_10k / t_100:.2f}"),
    ]


def append_rate(location: str, orders: int = 300) -> float:
    header = header_for("morze", small_scenario(turn_limit=None), game_id=str(uuid.uuid4()), seed=5)
    store = GameStore(location)
    gid = store.create_game(header)
    start = time.perf_counter()
    done, _, _ = bot_writer(location, gid, orders)
    return done / (time.perf_counter() - start)


def writers_rate(location: str, writers: int, orders: int = 120) -> float:
    games = []
    for k in range(writers):
        header = header_for(
            "morze", small_scenario(turn_limit=None), game_id=str(uuid.uuid4()), seed=100 + k
        )
        games.append(GameStore(location).create_game(header))
    start_at = time.time() + 3.0
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=writers, mp_context=ctx) as pool:
        futures = [pool.submit(bot_writer, location, gid, orders, start_at) for gid in games]
        results = [f.result() for f in futures]
    elapsed = time.time() - start_at
    return sum(done for done, _, _ in results) / elapsed


def hand_loop(games: int, turns: int, shots: int) -> None:
    """The same dice arithmetic as a Morze bot game, without the engine: per shot a d10 to hit,
    maybe a d10 defence and a d10 damage; per turn two initiative d10s."""
    rng = random.Random(1)
    for _ in range(games):
        damage = 0
        for _ in range(turns):
            a, b = rng.randint(1, 10), rng.randint(1, 10)
            _ = a > b
            for _ in range(shots):
                if rng.randint(1, 10) >= 5 and rng.randint(1, 10) < 6:
                    damage += 2 if rng.randint(1, 10) == 10 else 1


def main() -> None:
    rows: list[Row] = []
    tmp = Path(mkdtemp())
    sqlite_path = str(tmp / "bench.sqlite3")
    gid, session = stored_large_game(sqlite_path)
    rows += replay_rows("SQLite", sqlite_path, raw_read_sqlite(sqlite_path, gid), gid, session)
    # the same game in record format 1, for the cost of its digests (Python's json encoder)
    old_path = str(tmp / "format1.sqlite3")
    gid1, session1 = stored_large_game(old_path, format_version=1)
    rows += replay_rows(
        "SQLite, format 1", old_path, raw_read_sqlite(old_path, gid1), gid1, session1
    )
    pg_reason = pg_unavailable_reason()
    pg_urls: dict[str, str] = {}
    if pg_reason is None:
        for locking in ("none", "table"):
            pg_urls[locking] = (
                f"{PG_BASE}?schema=wake_bench_{uuid.uuid4().hex[:8]}&locking={locking}"
            )
        gid_pg, session_pg = stored_large_game(pg_urls["none"])
        rows += replay_rows(
            "PostgreSQL", pg_urls["none"], raw_read_pg(pg_urls["none"], gid_pg), gid_pg, session_pg
        )
    else:
        rows.append(("PostgreSQL", f"skipped: {pg_reason}"))
    rows.append(
        (
            "append: SQLite orders/s (load + decide + save)",
            f"{append_rate(str(tmp / 'append.sqlite3')):.0f}",
        )
    )
    if pg_urls:
        rows.append(("append: PostgreSQL orders/s", f"{append_rate(pg_urls['none']):.0f}"))
    # bot games per second vs the bare dice loop
    scenario = small_scenario(turn_limit=8)
    n = 20
    t_engine = timed(lambda: [play_one("morze", scenario, {}, s) for s in range(n)], 1)
    sample = play_one("morze", scenario, {}, 0)
    shots = max(1, sample.events // max(sample.turns, 1) // 10)
    t_hand = timed(lambda: hand_loop(n, sample.turns, shots), 3)
    rows.append(("bot games/s (engine, 3v3, 8 turns)", f"{n / t_engine:.1f}"))
    rows.append(("engine time / bare dice loop", f"{t_engine / t_hand:.0f}"))
    # concurrent writers to different games
    for name, location in [
        ("SQLite", str(tmp / "writers.sqlite3")),
        *[(f"PostgreSQL locking={k}", v) for k, v in pg_urls.items()],
    ]:
        rates = {w: writers_rate(location, w) for w in (1, 2, 4)}
        rows.append(
            (
                f"writers {name}: orders/s for 1 / 2 / 4",
                " / ".join(f"{rates[w]:.0f}" for w in (1, 2, 4))
                + f"  (4 vs 1: {rates[4] / rates[1]:.2f})",
            )
        )
    if pg_urls:
        import psycopg

        with psycopg.connect(PG_BASE, autocommit=True) as conn:
            for url in pg_urls.values():
                schema = url.split("schema=")[1].split("&")[0]
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")


if __name__ == "__main__":
    main()
