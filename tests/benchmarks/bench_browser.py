"""Viewer latency in a real browser (not a test): from a key press to the page showing the new
position, as a user feels it (issue 13). Run: ``python -m tests.benchmarks.bench_browser``
(needs Debian's chromium and playwright, as the browser tests do; ``make bench`` runs it).

For the bundled large game (convoy, ~1,750 events) and a 10,000-event bot game, at the start
and at the end of each: the median and p95 of single ArrowRight steps on the focused "Event"
slider (each press waits for the page to show the next position), and a burst of ten presses
50 ms apart: how many positions it moved (10 when no press is lost).
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from domain.engine import Session
from domain.record import read_record_file
from domain.store import GameStore
from tests.benchmarks.bench_viewer import large_game
from tests.helpers import FIXTURES, ROOT
from viewer.launch import free_port, streamlit_command

CHROMIUM = "/usr/bin/chromium"
STEPS = 12
OPENED: list[float] = []  # seconds from opening the link to the position shown
TIMEOUT_MS = 120_000
OPEN_TIMEOUT_MS = 600_000  # opening a 10,000-event game can take minutes today


def _store(path: Path) -> list[tuple[str, str, int]]:
    """The games to measure: (label, game id, events)."""
    store = GameStore(str(path))
    convoy = read_record_file(FIXTURES / "games/morze/convoy_battle-large.wake.json")
    store.import_game(convoy.header, convoy.events)
    big: Session = large_game()
    header = big.header
    store.import_game(header, big.facts)
    return [
        ("convoy", convoy.header.game_id, len(convoy.events)),
        ("10k bot game", header.game_id, len(big.facts)),
    ]


def _serve(store: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port(8650)
    url = f"http://127.0.0.1:{port}"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            streamlit_command(port, ["--store", str(store)]),
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.read() == b"ok":
                    return proc, url
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit(f"streamlit did not start; see {log}")


def _position(page: Any, event: int, length: int, timeout: int = TIMEOUT_MS) -> None:
    text = f"Event {event} / {length}"
    page.wait_for_function("t => document.body.innerText.includes(t)", arg=text, timeout=timeout)


def _open(page: Any, url: str, game_id: str, event: int, length: int) -> Any:
    began = time.perf_counter()
    page.goto(f"{url}/?game={game_id}&event={event}")
    _position(page, event, length, OPEN_TIMEOUT_MS)
    OPENED.append(time.perf_counter() - began)
    page.wait_for_timeout(1500)  # charts drawn, script idle
    slider = page.get_by_role("slider", name="Event")
    slider.focus()
    return slider


def _steps(page: Any, url: str, game_id: str, start: int, length: int) -> list[float]:
    slider = _open(page, url, game_id, start, length)
    times: list[float] = []
    for k in range(1, STEPS + 1):
        began = time.perf_counter()
        slider.press("ArrowRight")
        _position(page, start + k, length)
        times.append((time.perf_counter() - began) * 1000)
    return times


def _burst(page: Any, url: str, game_id: str, start: int, length: int) -> int:
    slider = _open(page, url, game_id, start, length)
    for _ in range(10):
        slider.press("ArrowRight")
        page.wait_for_timeout(50)
    page.wait_for_timeout(8000)  # let every rerun finish
    found = re.search(rf"Event (\d+) / {length}\b", page.inner_text("body"))
    return (int(found.group(1)) if found else start) - start


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise SystemExit("chromium not found (make browser installs it)")
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "bench.sqlite3"
        games = _store(store)
        proc, url = _serve(store, Path(tmp) / "streamlit.log")
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
                page = browser.new_context(viewport={"width": 1500, "height": 1300}).new_page()
                print("Viewer step latency, key press to the new position shown (ms)")
                head = f"{'game':14} {'where':6} {'median':>8} {'p95':>8} {'burst of 10':>12}"
                print(f"{head} {'open (s)':>9}")
                for label, game_id, length in games:
                    for where, start in (("start", 1), ("end", length - STEPS - 11)):
                        times = _steps(page, url, game_id, start, length)
                        moved = _burst(page, url, game_id, start, length)
                        print(
                            f"{label:14} {where:6} {statistics.median(times):8.0f} "
                            f"{_p95(times):8.0f} {moved:>9}/10 {max(OPENED[-2:]):9.1f}",
                            flush=True,
                        )
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=20)


if __name__ == "__main__":
    sys.exit(main())
