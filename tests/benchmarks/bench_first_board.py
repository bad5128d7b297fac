"""The first board of every bundled game in a real browser (issue 21 item 12), not a test: run
``python -m tests.benchmarks.bench_first_board`` (``make bench`` runs it).

Every bundled record is loaded into a fresh store (as ``wake demo`` does) and one viewer server
is started. For each game, from opening its link (``/?game=ID``, the viewer opens at the start)
to the scrubber showing "Event 0 / L" with its board drawn:

* **cold**: the first time the game is opened after the server started (its timeline and its
  payload are built then; the first game also pays the server's first run), in a new browser
  profile (nothing cached: the page's scripts and plotly.js are fetched and compiled);
* **warm**: the same game opened again in a new tab of a browser that has opened a game before
  (as a user opening the next game: its scripts in the browser's cache).

The goal: within 1 s warm and 2 s cold. Wall-clock times on a shared machine swing with its
load: the load average is printed with them. With ``--baseline REV`` a second server runs that
revision's viewer (``git archive``, its own launch command), and every game is opened on both,
interleaved, in the same run: compare the ratio, not figures from different runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from domain.importing import import_record
from domain.record import read_record_file
from domain.store import GameStore
from tests.benchmarks.bench_browser import CHROMIUM, _serve, first_board, wait_healthy
from tests.benchmarks.bench_rollouts import baseline_tree
from tests.browser.conftest import CHROMIUM_FLAGS
from tests.helpers import FIXTURES
from viewer.launch import free_port


def _first_board(page: Any, url: str, game_id: str, length: int) -> float:
    """Seconds from opening the game's link to its first board."""
    began = time.perf_counter()
    page.goto(f"{url}/?game={game_id}")
    first_board(page, 0, length)
    return time.perf_counter() - began


def _serve_tree(tree: Path, store: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A viewer server of the source ``tree`` (a baseline), started by its own launch command."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    port = free_port(8750)
    command = json.loads(
        subprocess.run(
            [
                sys.executable,
                "-c",
                "import json, sys; from viewer.launch import streamlit_command; "
                "print(json.dumps(streamlit_command(int(sys.argv[1]), sys.argv[2:])))",
                str(port),
                "--store",
                str(store),
            ],
            cwd=tree,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    with log.open("wb") as out:
        proc = subprocess.Popen(
            command,
            cwd=tree,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    url = f"http://127.0.0.1:{port}"
    return wait_healthy(proc, url, log), url


def _cold_and_warm(browser: Any, user: Any, url: str, gid: str, length: int) -> tuple[float, float]:
    fresh = browser.new_context(viewport={"width": 1440, "height": 900})
    cold = _first_board(fresh.new_page(), url, gid, length)
    fresh.close()
    page = user.new_page()
    _first_board(page, url, gid, length)  # the browser's cache, once
    page.close()
    page = user.new_page()
    warm = _first_board(page, url, gid, length)
    page.close()
    return cold, warm


def _table(label: str, colds: list[float], warms: list[float]) -> None:
    print(
        f"| {label} cold (goal 2 s) | {statistics.median(colds):.2f} | {max(colds):.2f} | "
        f"{sum(1 for t in colds if t > 2.0)} |"
    )
    print(
        f"| {label} warm (goal 1 s) | {statistics.median(warms):.2f} | {max(warms):.2f} | "
        f"{sum(1 for t in warms if t > 1.0)} |"
    )


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--baseline", help="also measure this revision's viewer, interleaved")
    parser.add_argument("--only", help="only the games whose file name contains this")
    args = parser.parse_args()
    files = sorted((FIXTURES / "games").rglob("*.wake.json"))
    if args.only:
        files = [f for f in files if args.only in f.name]
    with tempfile.TemporaryDirectory() as tmp:
        store_path = Path(tmp) / "store.sqlite3"
        baseline_store = Path(tmp) / "baseline.sqlite3"
        stores = [GameStore(str(store_path))]
        if args.baseline:  # its own store (a copy of the file would miss its write-ahead log)
            stores.append(GameStore(str(baseline_store)))
        games = []
        for path in files:
            record = read_record_file(path, strict=True)
            for store in stores:
                import_record(store, record)
            games.append((path.name.removesuffix(".wake.json"), record))
        servers = {"now": _serve(store_path, Path(tmp) / "server.log")}
        if args.baseline:
            tree = baseline_tree(args.baseline)
            servers["baseline"] = _serve_tree(tree, baseline_store, Path(tmp) / "baseline.log")
        rows: dict[str, list[tuple[float, float]]] = {name: [] for name in servers}
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS
                )
                users = {
                    name: browser.new_context(viewport={"width": 1440, "height": 900})
                    for name in servers
                }
                for k, (name, record) in enumerate(games):
                    gid, length = record.header.game_id, len(record.events)
                    order = list(servers) if k % 2 == 0 else list(reversed(servers))
                    line = f"{name:40} {length:6} events:"
                    for which in order:
                        cold, warm = _cold_and_warm(
                            browser, users[which], servers[which][1], gid, length
                        )
                        rows[which].append((cold, warm))
                        line += f" {which} cold {cold:.2f} s, warm {warm:.2f} s;"
                    print(line, flush=True)
                browser.close()
        finally:
            for proc, _ in servers.values():
                proc.terminate()
    print(f"\nload average {os.getloadavg()[0]:.1f}; {len(games)} games")
    print("| | median s | max s | games over the goal |")
    print("|---|---|---|---|")
    for which, measured in rows.items():
        _table(which, [c for c, _ in measured], [w for _, w in measured])
    if "baseline" in rows:
        for i, kind in enumerate(("cold", "warm")):
            before = statistics.median(r[i] for r in rows["baseline"])
            after = statistics.median(r[i] for r in rows["now"])
            print(f"{kind}: median {before:.2f} s -> {after:.2f} s, {before / after:.1f}x")


if __name__ == "__main__":
    main()
