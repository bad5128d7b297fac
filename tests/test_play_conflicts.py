"""Issue 12, gap 7: ``wake play`` retries on a write conflict like ``submit``: each order is saved
as it is given and, when another writer got there first, decided again on the fresh state (the
bot chooses again). It used to play on in memory and die at the end with an IntegrityError
traceback or "event 1 is out of sequence", throwing the run away."""

from __future__ import annotations

import multiprocessing
import re
import uuid
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from domain.engine import header_for
from domain.record import build_record, verify_record
from domain.store import GameStore
from tests.helpers import small_scenario
from tests.workers import bot_writer, cli_play


def test_play_with_concurrent_writers_loses_nothing(location: str) -> None:
    header = header_for("morze", small_scenario(turn_limit=6), game_id=str(uuid.uuid4()), seed=5)
    game_id = GameStore(location).create_game(header)
    ctx = multiprocessing.get_context("spawn")
    with ctx.Manager() as manager, ProcessPoolExecutor(3, mp_context=ctx) as pool:
        start = manager.Barrier(3)
        play = pool.submit(cli_play, location, game_id, start)
        writers = [pool.submit(bot_writer, location, game_id, 10_000, start) for _ in range(2)]
        code, out, leaked = play.result()
        results = [w.result() for w in writers]
    assert leaked == "" and code == 0, (code, out, leaked)
    assert "Traceback" not in out and "out of sequence" not in out
    store = GameStore(location)
    stored, facts = store.facts(game_id)
    assert [f.seq for f in facts] == list(range(1, len(facts) + 1))
    report = verify_record(build_record(stored, facts))  # every order re-runs from the seed
    assert store.state(game_id).result is not None
    play_orders = report.commands - sum(done for done, _, _ in results)
    assert play_orders >= 0
    retried = re.search(r"\((\d+) write conflicts retried\)", out)
    overlap = sum(r + c for _, r, c in results) + (int(retried.group(1)) if retried else 0)
    assert overlap > 0, (out, results)  # the writers really raced


def test_play_alone_saves_every_order(tmp_path: Path) -> None:
    location = str(tmp_path / "alone.sqlite3")
    header = header_for("morze", small_scenario(turn_limit=3), game_id=str(uuid.uuid4()), seed=2)
    game_id = GameStore(location).create_game(header)
    code, out, leaked = cli_play(location, game_id)
    assert code == 0 and not leaked, out
    store = GameStore(location)
    assert store.state(game_id).result is not None
    assert store.conflicts == 0 and "conflicts" not in out
