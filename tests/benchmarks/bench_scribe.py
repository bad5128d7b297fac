"""The scribe's page in a real browser (issue 20), not a test: run
``python -m tests.benchmarks.bench_scribe [--quick] [--postgres]`` (``make bench`` runs it).

1. **Clicks and seconds per order**, per ruleset: a scripted scribe (tests/browser/
   scribe_helpers.ScriptedScribe) enters the opening orders of a physical game of each ruleset
   on a local page, clicking as a person would (the order, its fields, *Give the order*, each
   die and card); the median clicks and seconds of an order, and of an ordinary order (its dice
   and cards left out of the clicks).
2. **From one page to another**: orders entered by another device (through the store, as the
   umpire's laptop would) and the time until a page that only watches shows them.
3. **Load on the hosted server**: 30 browser pages, each on its own side's or the umpire's link,
   watching one game and then ten games for 60 s while orders are entered on every game (bots
   through ``domain.scribe.table.submit`` on the position they read, as a device does); events
   lost or duplicated (the logs are checked and re-verified), p50/p95 of the time from an order
   stored to each page showing it, and the server's memory. On SQLite, and with ``--postgres``
   on PostgreSQL (``WAKE_TEST_PG``) too.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from domain.engine import bot_order
from domain.errors import OrderConflict, WakeError
from domain.record import build_record, verify_record
from domain.scribe import table as T
from domain.scribe.start import bundled_scenarios, start_game
from domain.store import GameStore
from tests.browser.conftest import CHROMIUM_FLAGS
from tests.browser.scribe_helpers import ScriptedScribe, settle
from tests.helpers import ROOT
from tests.pg import pg_schema
from viewer.launch import free_port, streamlit_command

CHROMIUM = "/usr/bin/chromium"
SCENARIOS = {
    "morze": "river_plate",
    "iron_oak": "hampton_roads",
    "armada": "core_learning",
    "ships": "multi2",
}
ORDERS = {"morze": 14, "iron_oak": 14, "armada": 14, "ships": 10}


def _serve(store: str, *args: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port(0)
    url = f"http://127.0.0.1:{port}"
    log = open(Path(tempfile.gettempdir()) / f"bench-scribe-{port}.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        streamlit_command(port, ["--store", store, *args]), cwd=ROOT, stdout=log, stderr=log
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                if resp.read().strip() == b"ok":
                    return proc, url
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the server did not start")


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def clicks_per_order(browser: Any, quick: bool) -> None:
    print("\n## Clicks and seconds per order (scripted scribe, local page, dice at the table)\n")
    print(
        "| ruleset | orders | clicks median (all) | clicks median (orders without dice or "
        "cards) | seconds median | seconds p95 |"
    )
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        store_path = str(Path(tmp) / "store.sqlite3")
        store = GameStore(store_path)
        proc, url = _serve(store_path, "--scribe")
        try:
            for ruleset, name in SCENARIOS.items():
                scenario = next(
                    s for s in bundled_scenarios() if s.ruleset == ruleset and s.name == name
                )
                game = start_game(store, ruleset, scenario.data, dice="physical")
                context = browser.new_context(viewport={"width": 1400, "height": 1100})
                context.set_default_timeout(60_000)
                page = context.new_page()
                page.goto(f"{url}/?game={game}")
                settle(page, "Latest events")
                scribe = ScriptedScribe(page, store_path, game)
                for _ in range(4 if quick else ORDERS[ruleset]):
                    scribe.order()
                context.close()
                rows = scribe.clicks.orders
                facts = store.facts(scribe.game_id, check=False)[1]
                chance = _orders_with_chance(facts)
                plain = [c for (kind, c, _), drew in zip(rows, chance, strict=False) if not drew]
                seconds = sorted(s for _, _, s in rows)
                print(
                    f"| {ruleset} | {len(rows)} | {statistics.median(c for _, c, _ in rows):g} | "
                    f"{statistics.median(plain) if plain else '-'} | "
                    f"{statistics.median(seconds):.1f} | {_p95(seconds):.1f} |"
                )
        finally:
            proc.terminate()


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.95 * (len(ordered) - 1))]


def _orders_with_chance(facts: list[Any]) -> list[bool]:
    """For each order of the game, whether dice or cards were entered with it."""
    out = []
    for fact in facts:
        if fact.topic.endswith("CommandIssued/1"):
            out.append(bool(fact.payload.get("dice") or fact.payload.get("cards")))
    return out


def page_to_page(browser: Any, quick: bool) -> None:
    print("\n## From an order stored to another page showing it\n")
    with tempfile.TemporaryDirectory() as tmp:
        store_path = str(Path(tmp) / "store.sqlite3")
        store = GameStore(store_path)
        scenario = next(s for s in bundled_scenarios() if s.name == "river_plate")
        game = start_game(store, "morze", scenario.data, dice="seeded")
        proc, url = _serve(store_path, "--scribe")
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 1000})
            page.goto(f"{url}/?game={game}")
            settle(page, "Latest events")
            times = []
            for _ in range(5 if quick else 20):
                state = store.state(game)
                envelope = bot_order(state)
                assert envelope is not None
                T.submit(store, game, envelope.side, envelope.command, state.seq)
                began = time.perf_counter()
                new = store.state(game).seq
                page.wait_for_function(
                    f"() => document.body.innerText.includes('event {new} ')", timeout=60_000
                )
                times.append(time.perf_counter() - began)
            times.sort()
            print(
                f"{len(times)} orders: median {statistics.median(times):.2f} s, "
                f"p95 {times[int(0.95 * (len(times) - 1))]:.2f} s, max {times[-1]:.2f} s"
            )
        finally:
            proc.terminate()


def load(browser: Any, location: str, games: int, clients: int, seconds: float) -> None:
    """``clients`` pages over ``games`` games for ``seconds`` while bots enter orders."""
    store = GameStore(location)
    scenario = next(s for s in bundled_scenarios() if s.name == "river_plate")
    ids = [start_game(store, "morze", scenario.data, dice="seeded") for _ in range(games)]
    links = [T.issue_links(store, gid) for gid in ids]
    proc, url = _serve(location, "--hosted")
    seen_at: dict[tuple[int, int], list[float]] = {}
    stored_at: dict[tuple[int, int], float] = {}
    stop = time.monotonic() + seconds
    lost = 0
    try:
        pages = []
        for i in range(clients):
            g = i % games
            who = ["umpire", "kriegsmarine", "royal_navy"][i % 3]
            context = browser.new_context(viewport={"width": 1100, "height": 800})
            page = context.new_page()
            page.goto(f"{url}/record?key={links[g][who]}")
            pages.append((g, page))
        for _, page in pages:
            settle(page, "Latest events")

        def enter(g: int) -> None:
            nonlocal lost
            writer = GameStore(location)
            while time.monotonic() < stop:
                state = writer.state(ids[g])
                envelope = bot_order(state)
                if envelope is None:
                    return
                try:
                    T.submit(writer, ids[g], envelope.side, envelope.command, state.seq)
                except OrderConflict:
                    lost += 1
                    continue
                except WakeError:
                    return
                stored_at[(g, writer.state(ids[g]).seq)] = time.monotonic()
                time.sleep(1.0)  # a table gives an order every second or so

        writers = [threading.Thread(target=enter, args=(g,)) for g in range(games)]
        for thread in writers:
            thread.start()
        while time.monotonic() < stop:
            for g, page in pages:
                try:
                    shown = page.evaluate(
                        "() => (document.body.innerText.match(/event (\\\\d+) ·/) || [])[1]"
                    )
                except Exception:
                    continue
                if shown:
                    seen_at.setdefault((g, int(shown)), []).append(time.monotonic())
            time.sleep(0.05)
        for thread in writers:
            thread.join()
        rss = _rss_mb(proc.pid)
        delays = [
            min(t for t in seen_at.get(key, [])) - at
            for key, at in stored_at.items()
            if seen_at.get(key)
        ]
        delays = sorted(d for d in delays if d >= 0)
        for gid in ids:
            header, facts = store.facts(gid)
            assert [f.seq for f in facts] == list(range(1, len(facts) + 1))
            assert len({f.digest for f in facts}) == len(facts)
            reveal = store.secret_seed(gid)
            verify_record(build_record(header, facts, seed_reveal=reveal[0] if reveal else None))
        where = "PostgreSQL" if location.startswith("postgres") else "SQLite"
        p50 = statistics.median(delays) if delays else float("nan")
        p95 = delays[int(0.95 * (len(delays) - 1))] if delays else float("nan")
        print(
            f"| {where} | {games} | {clients} | {len(stored_at)} | 0 | {p50:.2f} | {p95:.2f} | "
            f"{rss:.0f} | {lost} |"
        )
    finally:
        proc.terminate()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        if args.only in ("", "clicks"):
            clicks_per_order(browser, args.quick)
        if args.only in ("", "latency"):
            page_to_page(browser, args.quick)
        if args.only in ("", "load"):
            print("\n## Hosted server under load (60 s; orders entered every second per game)\n")
            print(
                "| store | games | clients | orders stored | lost or duplicated | p50 s | p95 s "
                "| server RSS MB | orders refused (overtaken) |"
            )
            print("|---|---|---|---|---|---|---|---|---|")
            seconds = 20.0 if args.quick else 60.0
            clients = 6 if args.quick else 30
            for kind in ("sqlite", "pg") if args.postgres else ("sqlite",):
                for games in (1, 10):
                    if kind == "pg":
                        with pg_schema() as location:
                            load(browser, location, games, clients, seconds)
                        continue
                    with tempfile.TemporaryDirectory() as tmp:
                        load(browser, str(Path(tmp) / "store.sqlite3"), games, clients, seconds)
        browser.close()


if __name__ == "__main__":
    main()
