"""Viewer latency in a real browser (not a test): from a key press to the page showing the new
position, as a user feels it (issue 13). Run: ``python -m tests.benchmarks.bench_browser``
(needs Debian's chromium and playwright, as the browser tests do; ``make bench`` runs it).

For a 291-event game (River Plate), the bundled large game (convoy, ~1,750 events) and a
10,000-event bot game, at the start and at the end of each: the median and p95 of single
ArrowRight presses (keys go to the page, as after a click on it; each press waits until the
scrubber shows "Event N / L" AND has drawn the board of event N), and a burst of ten presses
50 ms apart: how many positions it moved (10 when no press is lost) and whether the server
caught up (the URL's ``?event=``). Also the size of what is sent once per game.
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
from tests.browser.conftest import CHROMIUM_FLAGS
from tests.helpers import FIXTURES, ROOT
from viewer.launch import free_port, streamlit_command
from viewer.scrubber import build_payload, encode
from viewer.timeline import Timeline

CHROMIUM = "/usr/bin/chromium"
STEPS = 30
OPENED: list[float] = []  # seconds from opening the link to the position shown
TIMEOUT_MS = 120_000
OPEN_TIMEOUT_MS = 600_000
SCRUBBER = re.compile(r"wake_scrubber")
SIZES: list[str] = []


def _store(path: Path) -> list[tuple[str, str, int]]:
    """The games to measure: (label, game id, events)."""
    store = GameStore(str(path))
    small = read_record_file(FIXTURES / "games/morze/river_plate-annihilation.wake.json")
    store.import_game(small.header, small.events)
    convoy = read_record_file(FIXTURES / "games/morze/convoy_battle-large.wake.json")
    store.import_game(convoy.header, convoy.events)
    big: Session = large_game()
    header = big.header
    store.import_game(header, big.facts)
    for label, h, facts in (
        ("river plate", small.header, small.events),
        ("convoy", convoy.header, convoy.events),
        ("10k bot game", header, big.facts),
    ):
        began = time.perf_counter()
        sent = encode(build_payload(Timeline(h, facts), None))
        SIZES.append(
            f"{label:14} {len(facts):6} events: payload {sent.json_bytes / 1e6:.2f} MB JSON, "
            f"{sent.compressed_bytes / 1e3:.0f} kB compressed ({len(sent.data) / 1e3:.0f} kB "
            f"base64), built in {time.perf_counter() - began:.1f} s (with its timeline)"
        )
    return [
        ("river plate", small.header.game_id, len(small.events)),
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
    return wait_healthy(proc, url, log), url


def wait_healthy(
    proc: subprocess.Popen[bytes], url: str, log: Path, seconds: float = 90
) -> subprocess.Popen[bytes]:
    """``proc``, once the viewer it started at ``url`` answers its health check."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.read() == b"ok":
                    return proc
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit(f"streamlit did not start; see {log}")


def _frame(page: Any) -> Any:
    for frame in page.frames:
        if SCRUBBER.search(frame.url):
            return frame
    raise RuntimeError("no scrubber on the page")


SHOWN = """([t, n]) => {
    const line = document.getElementById('position');
    const board = document.getElementById('board');
    return Boolean(line && board && line.innerText.startsWith(t)
        && board.dataset.event === String(n));
}"""


IN_PAGE = "() => document.getElementById('board').dataset.stepMs"


def _position(page: Any, event: int, length: int, timeout: int = TIMEOUT_MS) -> None:
    """Wait until the scrubber shows ``event``: its position line and its board."""
    text = f"Event {event} / {length}"
    _frame(page).wait_for_function(SHOWN, arg=[text, event], timeout=timeout, polling="raf")


def first_board(page: Any, event: int, length: int) -> None:
    """Wait, after a game's link is opened, for the scrubber's frame and its board of ``event``."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('iframe')].some(f => f.src.includes('scrubber'))",
        timeout=OPEN_TIMEOUT_MS,
    )
    deadline = time.monotonic() + OPEN_TIMEOUT_MS / 1000
    while time.monotonic() < deadline:
        try:
            _position(page, event, length, OPEN_TIMEOUT_MS)
            return
        except RuntimeError:  # the frame is not attached yet
            page.wait_for_timeout(20)


def _open(page: Any, url: str, game_id: str, event: int, length: int) -> None:
    began = time.perf_counter()
    page.goto(f"{url}/?game={game_id}&event={event}")
    first_board(page, event, length)
    OPENED.append(time.perf_counter() - began)
    page.wait_for_timeout(1500)  # charts drawn, script idle
    page.get_by_role("heading", level=1).click(position={"x": 5, "y": 5})  # focus: the page


def _steps(
    page: Any, url: str, game_id: str, start: int, length: int
) -> tuple[list[float], list[float]]:
    """Step times seen from outside (ms), and as the page measured them (key handled to
    board drawn, without the harness's own round trips)."""
    _open(page, url, game_id, start, length)
    times: list[float] = []
    inside: list[float] = []
    for k in range(1, STEPS + 1):
        began = time.perf_counter()
        page.keyboard.press("ArrowRight")
        _position(page, start + k, length)
        times.append((time.perf_counter() - began) * 1000)
        inside.append(float(_frame(page).evaluate(IN_PAGE)))
        page.wait_for_timeout(20)
    return times, inside


def _burst(page: Any, url: str, game_id: str, start: int, length: int) -> tuple[int, bool]:
    """Positions moved by ten presses 50 ms apart, and whether the URL caught up."""
    _open(page, url, game_id, start, length)
    for _ in range(10):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(50)
    page.wait_for_timeout(3000)  # the server catches up
    found = re.search(rf"Event (\d+) / {length}\b", _frame(page).inner_text("#position"))
    moved = (int(found.group(1)) if found else start) - start
    caught_up = f"event={start + moved}" in page.url
    return moved, caught_up


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
                browser = p.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS
                )
                page = browser.new_context(viewport={"width": 1500, "height": 1300}).new_page()
                print("\n".join(SIZES))
                print("Viewer step latency, key press to the new position shown (ms)")
                head = f"{'game':14} {'where':6} {'median':>8} {'p95':>8} {'max':>8}"
                print(f"{head} {'in page':>8} {'burst of 10':>12} {'url':>4} {'open (s)':>9}")
                for label, game_id, length in games:
                    for where, start in (("start", 1), ("end", length - STEPS - 11)):
                        times, inside = _steps(page, url, game_id, start, length)
                        moved, caught_up = _burst(page, url, game_id, start, length)
                        print(
                            f"{label:14} {where:6} {statistics.median(times):8.0f} "
                            f"{_p95(times):8.0f} {max(times):8.0f} "
                            f"{statistics.median(inside):8.0f} {moved:>9}/10 "
                            f"{'yes' if caught_up else 'NO':>4} {max(OPENED[-2:]):9.1f}",
                            flush=True,
                        )
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=20)


if __name__ == "__main__":
    sys.exit(main())
