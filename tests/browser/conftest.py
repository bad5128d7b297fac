"""Harness for the viewer's browser tests: a Streamlit server over a temp store, and Chromium.

Uses ``playwright.sync_api`` directly (not the pytest-playwright plugin; run pytest with
``-p no:playwright`` if that plugin is installed). Chromium is Debian's ``/usr/bin/chromium``;
when it is missing the tests are skipped, unless ``WAKE_REQUIRE_BROWSER=1`` (CI), then they fail.
See /work/shared/recipes/browser-testing.md for the waits used here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from domain.record import read_record_file
from domain.store import GameStore
from viewer.launch import free_port, streamlit_command

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "fixtures" / "games"
ARMADA_SCENARIO = ROOT / "fixtures" / "scenarios" / "armada" / "core_learning.json"
ARMADA_TITLE = "Armada learning battle"
ARMADA_SEED = 3
ARTIFACTS = ROOT / "artifacts" / "browser"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1500, "height": 2600}
HEALTH_TIMEOUT_S = 60.0
IDLE_TIMEOUT_MS = 90_000  # a failure detector, not a speed check: CI machines are shared

APP_IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
SCRUBBER = 'iframe[title*="scrubber"]'  # the replay component (board, charts, move list)
BOARD_DRAWN = "#board .main-svg"


@dataclass(frozen=True)
class Server:
    url: str
    port: int
    store: Path
    log: Path
    proc: subprocess.Popen[bytes]
    armada_game: str  # an Armada game played by the bots with the CLI
    armada_record: Path  # the same game exported as a record file (expected values)


def _chromium() -> str | None:
    if Path("/usr/bin/chromium").exists():
        return "/usr/bin/chromium"
    return shutil.which("chromium")


def _require_browser() -> str:
    """The Chromium executable, or skip (fail when WAKE_REQUIRE_BROWSER=1)."""
    exe = _chromium()
    if exe is None:
        reason = "Chromium not found (/usr/bin/chromium); apt-get install chromium"
        if os.environ.get("WAKE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"WAKE_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        reason = "the playwright Python package is not installed"
        if os.environ.get("WAKE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"WAKE_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    return exe


def _health(url: str) -> str:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
            return str(resp.read().decode("utf-8", "replace")).strip()
    except (urllib.error.URLError, OSError):
        return ""


def _wake(*args: str) -> str:
    """Run the ``wake`` CLI of this environment; its standard output."""
    wake = Path(sys.executable).with_name("wake")
    done = subprocess.run(
        [str(wake), *args], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    if done.returncode != 0:
        pytest.fail(f"wake {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}", pytrace=False)
    return done.stdout


def _armada_game(store: Path, out: Path) -> str:
    """The learning scenario started and played to the end by the bots with the CLI, then
    exported (``wake start`` / ``play --bots`` / ``export``); its game id."""
    started = _wake(
        "start", "armada", str(ARMADA_SCENARIO), "--seed", str(ARMADA_SEED),
        "--title", ARMADA_TITLE, "--store", str(store),
    )  # fmt: skip
    game_id = started.strip().splitlines()[-1].strip()
    _wake("play", game_id, "--bots", "--store", str(store))
    _wake("export", game_id, "-o", str(out), "--store", str(store))
    return game_id


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def launch(tmp: Path, app_args: list[str]) -> tuple[subprocess.Popen[bytes], str, int, Path]:
    """The viewer app started with ``app_args`` on a free loopback port, once healthy: its
    process, URL, port and log file."""
    port = free_port(0)
    url = f"http://127.0.0.1:{port}"
    log = tmp / f"streamlit-{port}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            streamlit_command(port, app_args),
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    deadline = time.monotonic() + HEALTH_TIMEOUT_S
    while True:
        if proc.poll() is not None:
            pytest.fail(
                f"streamlit exited with {proc.returncode}; log:\n{log.read_text()}", pytrace=False
            )
        if _health(url) == "ok":
            break
        if time.monotonic() > deadline:
            _stop(proc)
            pytest.fail(
                f"streamlit not healthy after {HEALTH_TIMEOUT_S}s; log:\n{log.read_text()}",
                pytrace=False,
            )
        time.sleep(0.2)
    time.sleep(0.3)  # a taken port makes the new server exit just after a stale health check
    if proc.poll() is not None:
        pytest.fail(f"streamlit exited; log:\n{log.read_text()}", pytrace=False)
    return proc, url, port, log


@pytest.fixture(scope="session")
def chromium_path() -> str:
    return _require_browser()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[Server]:
    """The viewer on a free loopback port over a temp store holding every bundled fixture game
    and an Armada game the bots played through the CLI."""
    tmp = tmp_path_factory.mktemp("viewer")
    store = tmp / "store.sqlite"
    games = GameStore(str(store))
    for path in sorted(GAMES.rglob("*.wake.json")):
        rec = read_record_file(path)
        games.import_game(rec.header, rec.events)
    del games
    armada_record = tmp / "armada.wake.json"
    armada_game = _armada_game(store, armada_record)
    proc, url, port, log = launch(tmp, ["--store", str(store)])
    try:
        yield Server(
            url=url,
            port=port,
            store=store,
            log=log,
            proc=proc,
            armada_game=armada_game,
            armada_record=armada_record,
        )
    finally:
        _stop(proc)


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, headless=True, args=CHROMIUM_FLAGS)
        try:
            yield b
        finally:
            b.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep each phase's report on the item, so ``page`` can tell whether the test failed."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """``artifacts/browser/`` at the repo root (git-ignored): screenshots."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def page(
    browser: Any, server: Server, artifacts: Path, request: pytest.FixtureRequest
) -> Iterator[Any]:
    """A fresh browser context (its own Streamlit session) with a tall viewport.

    On failure a screenshot ``FAILED-<test>.png`` is saved next to the others.
    """
    yield from context_page(browser, server, artifacts, request, viewport=VIEWPORT)


def context_page(
    browser: Any,
    server: Server,
    artifacts: Path,
    request: pytest.FixtureRequest,
    **options: Any,
) -> Iterator[Any]:
    """A page in a new browser context made with ``options`` (viewport, touch ...); on failure
    a screenshot ``FAILED-<test>.png`` and the server log's path."""
    from playwright.sync_api import expect

    expect.set_options(timeout=IDLE_TIMEOUT_MS)  # the scrubber's first draw loads plotly.js
    context = browser.new_context(**options)
    context.set_default_timeout(IDLE_TIMEOUT_MS)
    pg = context.new_page()
    try:
        yield pg
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            pg.screenshot(path=str(artifacts / f"FAILED-{request.node.name}.png"))
            print(f"server log: {server.log}")
    finally:
        context.close()


def wait_idle(page: Any, text: str | re.Pattern[str] | None = None, *, chart: bool = True) -> None:
    """Wait for a rerun to finish and the charts to be drawn.

    Order matters (recipe): the expected text first (the idle flag can be stale right after an
    input), then Streamlit's ``notRunning`` script state, then the scrubber's board drawn (a
    Plotly ``.main-svg`` in its frame).
    """
    if text is not None:
        page.get_by_text(text, exact=False).first.wait_for(state="visible")
    page.locator(APP_IDLE).wait_for(state="attached")
    if chart:
        page.frame_locator(SCRUBBER).locator(BOARD_DRAWN).first.wait_for(state="visible")
