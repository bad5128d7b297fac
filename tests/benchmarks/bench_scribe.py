"""The scribe's page in a real browser (issue 20), not a test: run
``python -m tests.benchmarks.bench_scribe [--quick] [--postgres]`` (``make bench`` runs it).

1. **Clicks and seconds per order**, per ruleset: a scripted scribe (tests/browser/
   scribe_helpers.ScriptedScribe) enters the opening orders of a physical game of each ruleset
   on a local page, clicking as a person would (the order, its fields, *Give the order*, each
   die and card); the median clicks and seconds of an order, and of an ordinary order (its dice
   and cards left out of the clicks).
2. **From one page to another**: orders entered by another device (through the store, as the
   umpire's laptop would) and the time until a page that only watches shows them.
3. **Load on the hosted server**: 30 pages, each on its own side's or the umpire's link,
   watching one game and then ten games for 60 s while two devices a game (bots through
   ``domain.scribe.table.submit`` on the position they read, as a device does) race to enter
   orders; three of the pages are Chromium pages, the rest websocket clients speaking
   Streamlit's protocol (``st_client``: thirty Chromium renderers on two cores would measure
   the renderers). Events lost or duplicated (every stored order's digest is in the log once,
   and the logs re-verify), p50/p95 of the time from an order stored to each page showing it
   or a later event, the server's peak memory and CPU seconds per second. On SQLite, and with
   ``--postgres`` on PostgreSQL (``WAKE_TEST_PG``) too.
"""

from __future__ import annotations

import argparse
import json
import os
import random
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
from tests.benchmarks.st_client import ClientsApart, WatchingClient
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
PACE = 3.0  # seconds between a device's orders under load: two devices a game, so a game gets
# an order every 1.5 s or so, faster than a scribe enters them (2-3.5 s, measured above)
SEEN_JS = """() => {
    window.__wakeSeen = {};
    const mark = () => {
        for (const m of document.body.textContent.matchAll(/event (\\d+) ·/g)) {
            if (!(m[1] in window.__wakeSeen)) window.__wakeSeen[m[1]] = Date.now() / 1000;
        }
    };
    new MutationObserver(mark).observe(
        document.body, {subtree: true, childList: true, characterData: true}
    );
    mark();
}"""
# Each page notes, on its own clock (the machine's), when each event number first shows: a
# poll from here would add its own round of 30 pages to every delay.


TRACE_HOOK = Path(__file__).parent / "trace_hook"  # sitecustomize: the server's watch trace


def _serve(store: str, *args: str) -> tuple[subprocess.Popen[bytes], str]:
    """A scribe server on a free port; its output goes to ``bench-scribe-PORT.log`` and its
    pages' runs and watch ticks to ``bench-scribe-PORT.trace`` in the temporary directory."""
    port = free_port(0)
    url = f"http://127.0.0.1:{port}"
    log = open(Path(tempfile.gettempdir()) / f"bench-scribe-{port}.log", "wb")  # noqa: SIM115
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TRACE_HOOK), env.get("PYTHONPATH")]))
    env["WAKE_WATCH_TRACE"] = _trace_of(url)
    proc = subprocess.Popen(
        streamlit_command(port, ["--store", store, *args]),
        cwd=ROOT,
        stdout=log,
        stderr=log,
        env=env,
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


def _cpu_seconds(pid: int) -> float:
    """The process's user and system CPU time so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _peak_rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def load(
    browser: Any,
    location: str,
    games: int,
    clients: int,
    seconds: float,
    browsers: int,
    pace: float = PACE,
) -> None:
    """``clients`` pages over ``games`` games for ``seconds`` while two devices a game (the
    umpire's and a side's) race to enter the bot's order every ``pace`` seconds or so.

    ``browsers`` of the pages are Chromium pages; the rest are websocket clients speaking
    Streamlit's protocol (``st_client``): thirty Chromium renderers would measure this
    two-core machine's rendering, not the server."""
    store = GameStore(location)
    scenario = next(s for s in bundled_scenarios() if s.name == "river_plate")
    ids = [start_game(store, "morze", scenario.data, dice="seeded") for _ in range(games)]
    links = [T.issue_links(store, gid) for gid in ids]
    begun = {gid: store.state(gid).seq for gid in ids}
    proc, url = _serve(location, "--hosted")
    stored: dict[tuple[int, int], float] = {}  # (game, event) -> when its order was stored
    accepted: dict[int, list[tuple[int, str]]] = {g: [] for g in range(games)}
    overtaken = 0
    errors: list[str] = []
    contexts = []
    lock = threading.Lock()
    watchers: list[tuple[int, WatchingClient]] = []
    apart: ClientsApart | None = None
    wire: dict[int, dict[str, Any]] = {}  # a Chromium page's websocket frames and console
    try:
        opened = time.monotonic()
        pages = []
        watching: list[tuple[int, str]] = []  # (game, query) of each websocket client
        for i in range(clients):
            g = i % games
            key = links[g][["umpire", "kriegsmarine", "royal_navy"][(i // games) % 3]]
            if i < browsers:
                context = browser.new_context(viewport={"width": 1100, "height": 800})
                context.set_default_timeout(120_000)
                contexts.append(context)
                page = context.new_page()
                wire[id(page)] = _wire_watch(page)
                page.goto(f"{url}/record?key={key}")
                pages.append((g, page))
            else:
                watching.append((g, f"key={key}"))
        apart = ClientsApart(url, "record", [query for _, query in watching])
        for _, page in pages:
            settle(page, "Latest events")
            page.evaluate(SEEN_JS)
        apart.wait_opened(300)
        opened = time.monotonic() - opened
        cpu = _cpu_seconds(proc.pid)
        stop = time.monotonic() + seconds

        writer = GameStore(location)  # one store for every device, as the server has

        def enter(g: int, device: int) -> None:
            nonlocal overtaken
            drift = random.Random(2 * g + device)  # the two devices drift, and at times race
            time.sleep(pace / 2 * device)
            while time.monotonic() < stop:
                state = writer.state(ids[g])
                envelope = bot_order(state)
                if envelope is None:
                    return
                try:
                    facts = T.submit(writer, ids[g], envelope.side, envelope.command, state.seq)
                except OrderConflict:
                    with lock:
                        overtaken += 1
                    continue
                except WakeError as exc:
                    errors.append(f"game {g}: {exc}")
                    return
                at = time.time()
                with lock:
                    accepted[g].extend((fact.seq, fact.digest) for fact in facts)
                    stored[(g, facts[-1].seq)] = at  # a page shows the last event
                time.sleep(drift.uniform(0.5, 1.5) * pace)

        writers = [
            threading.Thread(target=enter, args=(g, d)) for g in range(games) for d in (0, 1)
        ]
        for thread in writers:
            thread.start()
        for thread in writers:
            thread.join()
        time.sleep(5.0)  # the last orders reach the pages
        watchers = list(zip([g for g, _ in watching], apart.stop(), strict=True))
        rss = _peak_rss_mb(proc.pid)
        cpu = _cpu_seconds(proc.pid) - cpu
        seen = [(g, page.evaluate("() => window.__wakeSeen")) for g, page in pages]
        seen += [(g, {str(event): at for event, at in c.seen.items()}) for g, c in watchers]
        kinds = ["Chromium page"] * len(pages) + ["websocket client"] * len(watchers)
        stalled: list[str] = []  # pages that missed events: which, and what they saw last
        delays: list[float] = []
        missed = 0
        for i, (g, shown) in enumerate(seen):
            times = sorted((int(event), float(t)) for event, t in shown.items())
            missed_here = 0
            for (game, seq), at in stored.items():
                if game != g:
                    continue
                # the first time this page showed the event or a later one (an order entered
                # right after another may be shown with it)
                first = min((t for event, t in times if event >= seq), default=None)
                if first is None:
                    missed += 1
                    missed_here += 1
                else:
                    delays.append(max(0.0, first - at))
            if missed_here:
                last = f"event {times[-1][0]}" if times else "nothing"
                said = f"{kinds[i]} {i} (game {g}) missed {missed_here}; saw {last} last"
                if i >= len(pages):
                    c = watchers[i - len(pages)][1]
                    said += (
                        f"; session {c.session}, {c.ticks} ticks asked (the last at "
                        f"{c.last_tick:.3f}), the last run finished at {c.last_finished:.3f}"
                    )
                else:
                    page = pages[i][1]
                    said += f"; {_wire_said(wire[id(page)], page)}"
                stalled.append(said)
        delays.sort()
        Path(_trace_of(url)).with_suffix(".json").write_text(
            json.dumps(
                {
                    "stored": [[g, seq, at] for (g, seq), at in sorted(stored.items())],
                    "pages": [
                        {
                            "kind": kinds[i],
                            "game": g,
                            "seen": shown,
                            "session": watchers[i - len(pages)][1].session
                            if i >= len(pages)
                            else "",
                        }
                        for i, (g, shown) in enumerate(seen)
                    ],
                }
            )
        )  # beside the trace: when each order was stored and when each page showed what
        lost = duplicated = 0
        for g, gid in enumerate(ids):
            header, facts = store.facts(gid)
            logged = [(f.seq, f.digest) for f in facts if f.seq > begun[gid]]
            lost += len(set(accepted[g]) - set(logged))
            duplicated += len(logged) - len(set(accepted[g]) & set(logged))
            assert [f.seq for f in facts] == list(range(1, len(facts) + 1))
            reveal = store.secret_seed(gid)
            verify_record(build_record(header, facts, seed_reveal=reveal[0] if reveal else None))
        where = "PostgreSQL" if location.startswith("postgres") else "SQLite"
        p50 = statistics.median(delays) if delays else float("nan")
        p95 = delays[int(0.95 * (len(delays) - 1))] if delays else float("nan")
        orders = len(stored)
        print(
            f"| {where} | {games} | {len(pages)} + {len(watchers)} | {orders} | {overtaken} | "
            f"{lost} | {duplicated} | {p50:.2f} | {p95:.2f} | "
            f"{delays[-1] if delays else float('nan'):.2f} | {missed} | {rss:.0f} | "
            f"{cpu / (seconds + 5.0):.2f} | {opened:.0f} |",
            flush=True,
        )
        for error in errors + stalled + [e for _, c in watchers for e in c.errors]:
            print(f"  ({error})")
    finally:
        if apart is not None:
            apart.stop()
        for context in contexts:
            context.close()
        proc.terminate()
        proc.wait(timeout=30)
        print(f"  (the server's watch trace: {_trace_of(url)})")


def _wire_watch(page: Any) -> dict[str, Any]:
    """Note a Chromium page's websocket traffic and console, to tell, when it stops showing
    events, a page that stopped asking (its fragment timer) from a connection that died."""
    wire: dict[str, Any] = {"sockets": 0, "sent": 0, "got": 0, "last_sent": 0.0, "closed": 0}
    wire["console"] = []

    def socket(ws: Any) -> None:
        wire["sockets"] += 1

        def sent(_: Any) -> None:
            wire["sent"] += 1
            wire["last_sent"] = time.time()

        def got(_: Any) -> None:
            wire["got"] += 1

        def closed(_: Any) -> None:
            wire["closed"] += 1

        ws.on("framesent", sent)
        ws.on("framereceived", got)
        ws.on("close", closed)

    page.on("websocket", socket)
    page.on("console", lambda msg: wire["console"].append(f"{msg.type}: {msg.text}"[:200]))
    return wire


def _wire_said(wire: dict[str, Any], page: Any) -> str:
    state = page.evaluate(
        "() => [document.visibilityState, document.hasFocus(), "
        "(document.querySelector('[data-testid=stStatusWidget]') || {}).innerText || '']"
    )
    return (
        f"{wire['sockets']} websockets ({wire['closed']} closed), {wire['sent']} frames sent "
        f"(the last at {wire['last_sent']:.3f}), {wire['got']} received; page {state}; "
        f"console: {wire['console'][-5:]}"
    )


def _trace_of(url: str) -> str:
    """Where ``_serve`` has the server on ``url`` log its pages' runs and watch ticks."""
    return str(Path(tempfile.gettempdir()) / f"bench-scribe-{url.rsplit(':', 1)[1]}.trace")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--only", default="")
    parser.add_argument(
        "--pace",
        type=float,
        default=PACE,
        help="seconds between one device's orders under load (two devices a game; a real "
        "table gives an order every 10-20 s, so 30 is a table's pace)",
    )
    parser.add_argument(
        "--games", default="1,10", help="numbers of games under load, comma-separated"
    )
    parser.add_argument("--seconds", type=float, default=0.0, help="the load's length")
    parser.add_argument(
        "--browsers", type=int, default=0, help="how many of the pages are Chromium pages"
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        if args.only in ("", "clicks"):
            clicks_per_order(browser, args.quick)
        if args.only in ("", "latency"):
            page_to_page(browser, args.quick)
        if args.only in ("", "load"):
            seconds = args.seconds or (20.0 if args.quick else 60.0)
            print(
                f"\n## Hosted server under load ({seconds:g} s; two devices a game, each "
                f"entering an order every {args.pace:g} s)\n"
            )
            print(
                "| store | games | clients (browsers + websocket) | orders stored | orders "
                "overtaken | lost | duplicated "
                "| p50 s | p95 s | max s | not seen | server peak RSS MB | server CPU s/s "
                "| pages opened in s |"
            )
            print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
            clients = 6 if args.quick else 30
            browsers = args.browsers or (1 if args.quick else 3)
            for kind in ("sqlite", "pg") if args.postgres else ("sqlite",):
                for games in (int(n) for n in args.games.split(",")):
                    if kind == "pg":
                        with pg_schema() as location:
                            load(browser, location, games, clients, seconds, browsers, args.pace)
                        continue
                    with tempfile.TemporaryDirectory() as tmp:
                        load(
                            browser,
                            str(Path(tmp) / "store.sqlite3"),
                            games,
                            clients,
                            seconds,
                            browsers,
                            args.pace,
                        )
        browser.close()


if __name__ == "__main__":
    main()
