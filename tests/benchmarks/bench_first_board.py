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
load: the load average is printed with them.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from domain.importing import import_record
from domain.record import read_record_file
from domain.store import GameStore
from tests.benchmarks.bench_browser import CHROMIUM, _serve, first_board
from tests.browser.conftest import CHROMIUM_FLAGS
from tests.helpers import FIXTURES


def _first_board(page: Any, url: str, game_id: str, length: int) -> float:
    """Seconds from opening the game's link to its first board."""
    began = time.perf_counter()
    page.goto(f"{url}/?game={game_id}")
    first_board(page, 0, length)
    return time.perf_counter() - began


def main() -> None:
    from playwright.sync_api import sync_playwright

    files = sorted((FIXTURES / "games").rglob("*.wake.json"))
    with tempfile.TemporaryDirectory() as tmp:
        store_path = Path(tmp) / "store.sqlite3"
        store = GameStore(str(store_path))
        games = []
        for path in files:
            record = read_record_file(path, strict=True)
            import_record(store, record)
            games.append((path.name.removesuffix(".wake.json"), record))
        proc, url = _serve(store_path, Path(tmp) / "server.log")
        rows: list[tuple[str, int, float, float]] = []
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS
                )
                user = browser.new_context(viewport={"width": 1440, "height": 900})
                for name, record in games:
                    gid, length = record.header.game_id, len(record.events)
                    fresh = browser.new_context(viewport={"width": 1440, "height": 900})
                    cold = _first_board(fresh.new_page(), url, gid, length)
                    fresh.close()
                    page = user.new_page()
                    _first_board(page, url, gid, length)  # the browser's cache, once
                    page.close()
                    page = user.new_page()
                    warm = _first_board(page, url, gid, length)
                    page.close()
                    rows.append((name, length, cold, warm))
                    print(
                        f"{name:40} {length:6} events: cold {cold:.2f} s, warm {warm:.2f} s",
                        flush=True,
                    )
                browser.close()
        finally:
            proc.terminate()
    colds = [r[2] for r in rows]
    warms = [r[3] for r in rows]
    print(f"\nload average {os.getloadavg()[0]:.1f}; {len(rows)} games")
    print("| | median s | max s | games over the goal |")
    print("|---|---|---|---|")
    print(
        f"| cold (goal 2 s) | {statistics.median(colds):.2f} | {max(colds):.2f} | "
        f"{sum(1 for t in colds if t > 2.0)} |"
    )
    print(
        f"| warm (goal 1 s) | {statistics.median(warms):.2f} | {max(warms):.2f} | "
        f"{sum(1 for t in warms if t > 1.0)} |"
    )


if __name__ == "__main__":
    main()
