"""Issue 12, gap 4 in a real browser: a forged record with HTML and Markdown in its fields, and a
``?game=`` with Markdown, put nothing into the page as markup: no image is fetched or shown, no
link, no styled span; the text is shown literally.

Run: ``.venv/bin/pytest tests/browser -p no:playwright -q``.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from pathlib import Path
from typing import Any

from tests.browser.conftest import SCRUBBER, Server, wait_idle
from tests.forge import load, rechain

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (or fails under WAKE_REQUIRE_BROWSER=1)
    expect = None

ROLL = "wake.DiceRolled/1"
HOST = "127.0.0.1:9"  # nothing listens there; a request to it is the injection working
MARKUP = (
    f'<img src="http://{HOST}/wake-injected.png"> <span style="color:red">wake-styled</span>'
    f" **wake-bold** [wake-link](http://{HOST}/wake-link) ![wake-image](http://{HOST}/i.png)"
)


def _forged_record(path: Path) -> int:
    """River Plate cut after its first attack roll, that roll and the title carrying markup;
    returns the roll's event number (the record's last event)."""
    body = load()
    roll = next(e for e in body["events"] if e["topic"] == ROLL and e["payload"]["target"])
    body["events"] = body["events"][: roll["seq"]]
    body["header"]["title"] = f"Forged {MARKUP}"
    payload = roll["payload"]
    payload["purpose"] = f"purpose {MARKUP}"
    payload["roll"]["side"] = f"side {MARKUP}"
    payload["roll"]["modifiers"] = [{"value": 0, "rule": "PL-4", "reason": f"reason {MARKUP}"}]
    path.write_text(json.dumps(rechain(body)), "utf-8")
    return int(roll["seq"])


def _watch_requests(page: Any) -> list[str]:
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url))
    return seen


def _assert_nothing_injected(page: Any, requests: list[str]) -> None:
    assert expect is not None
    expect(page.locator('img[src*="wake-injected"], img[src*="i.png"]')).to_have_count(0)
    links = page.locator('a[href*="127.0.0.1:9/"], a[href*="wake-link"]:not([href^="#"])')
    expect(links).to_have_count(0)
    expect(
        page.locator("span", has_text="wake-styled").and_(page.locator('span[style*="color"]'))
    ).to_have_count(0)
    # our own bold may hold the whole text; the text's own ** must not make "wake-bold" bold
    expect(page.locator("strong", has_text=re.compile(r"^wake-bold$"))).to_have_count(0)
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    frame = page.frame_locator(SCRUBBER)  # the scrubber: record text only as textContent
    if page.locator(SCRUBBER).count():
        expect(frame.locator('img[src*="wake-injected"], img[src*="i.png"]')).to_have_count(0)
        expect(frame.locator('a[href*="127.0.0.1:9/"], a[href*="wake-link"]')).to_have_count(0)
        expect(frame.locator('span[style*="color"]', has_text="wake-styled")).to_have_count(0)
        expect(frame.locator("strong", has_text=re.compile(r"^wake-bold$"))).to_have_count(0)
    assert not [url for url in requests if f"//{HOST}/" in url], requests


def test_a_forged_record_s_markup_is_text(
    page: Any, server: Server, artifacts: Path, tmp_path: Path
) -> None:
    path = tmp_path / "forged.wake.json"
    seq = _forged_record(path)
    requests = _watch_requests(page)
    page.goto(server.url)
    wait_idle(page)
    page.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(str(path))
    title = page.get_by_role("heading", level=1)
    expect(title).to_contain_text("Forged <img src=")  # the title's markup, as text
    wait_idle(page)
    page.frame_locator(SCRUBBER).get_by_role("button", name="End »").click()
    moves = page.frame_locator(SCRUBBER).locator("#moves")
    expect(moves).to_contain_text("purpose <img src=")  # the log line, as text
    expect(page.frame_locator(SCRUBBER).locator("#position")).to_contain_text(
        f"Event {seq} / {seq}"
    )
    wait_idle(page, f"Event {seq} — ")  # the Explain panel caught up
    panel = page.locator('[data-testid="stColumn"]').filter(
        has=page.get_by_role("heading", name="Explain")
    )
    expect(panel).to_contain_text(f"side {MARKUP}")  # shown literally, as plain text
    expect(panel).to_contain_text(f"reason {MARKUP}")
    expect(panel).to_contain_text("purpose <img src=")
    _assert_nothing_injected(page, requests)
    page.screenshot(path=str(artifacts / "10-forged-markup-as-text.png"))


def test_the_url_s_game_is_not_rendered(page: Any, server: Server, artifacts: Path) -> None:
    requests = _watch_requests(page)
    page.goto(f"{server.url}/?game={urllib.parse.quote(MARKUP)}")
    wait_idle(page, "is not in the store", chart=False)  # no game opens
    _assert_nothing_injected(page, requests)
    expect(page.get_by_text("wake-link")).to_have_count(0)  # not echoed at all
    page.screenshot(path=str(artifacts / "11-url-game-not-echoed.png"))
