"""Issue 14 in a real browser: a person adds an annotation from the viewer's form and sees it in
the log, in the explain panel and in the annotations list; its HTML comes out as text.

Uses the shared server (``conftest.server``) and annotates the Channel skirmish, a game no other
browser test reads. Run: ``.venv/bin/pytest tests/browser -p no:playwright -q``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from domain.record import read_record_file
from domain.store import GameStore
from tests.browser.conftest import SCRUBBER, Server, wait_idle
from tests.browser.test_viewer_browser import explain_column, open_game, shot

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (or fails under WAKE_REQUIRE_BROWSER=1)
    expect = None

ROOT = Path(__file__).resolve().parents[2]
CHANNEL = ROOT / "fixtures" / "games" / "morze" / "channel_skirmish.wake.json"
TEXT = 'Range measured twice: <b id="wake-injected">out of range</b> **disputed**'


def test_add_an_annotation_and_see_it_in_the_log(
    page: Any, server: Server, artifacts: Path
) -> None:
    rec = read_record_file(CHANNEL)
    game_id, length = rec.header.game_id, len(rec.events)
    event = length // 2
    open_game(page, server, game_id, event, length)
    form = page.get_by_test_id("stExpander").filter(has_text="Add an annotation")
    form.scroll_into_view_if_needed()
    form.get_by_text("Add an annotation").click()
    form.get_by_label("Author").fill("Umpire Ann")
    form.get_by_label("Text (plain text)").fill(TEXT)
    kind = form.get_by_role("combobox", name="Kind")
    kind.click()
    page.keyboard.type("disputed")
    # the option itself, not Enter: under load Enter may pick before the typed filter applies
    page.get_by_role("option", name=re.compile("^disputed$")).click()
    expect(kind).to_have_value("disputed")  # the typed filter may not be applied yet
    form.get_by_role("button", name="Add annotation").click()
    wait_idle(page, f"Added annotation #1 on event {event}.")

    [note] = GameStore(str(server.store)).annotations(game_id)
    assert (note.event, note.kind, note.author) == (event, "disputed", "Umpire Ann")
    assert note.text == TEXT
    # the explain panel: the annotation as plain text, its HTML not rendered
    panel = explain_column(page)
    expect(panel).to_contain_text(f"#1 · disputed · by Umpire Ann · {note.time}")
    expect(panel).to_contain_text(TEXT)
    expect(page.locator("#wake-injected")).to_have_count(0)
    # the log (the scrubber's move list): the annotation is shown on its event's row, and
    # the annotation filter keeps the list to the events annotated so
    log_filter = page.get_by_test_id("stMultiSelect").filter(has_text="Annotation kind")
    log_filter.locator("input").click()
    page.keyboard.type("disputed")
    page.get_by_role("option", name=re.compile("^disputed$")).click()
    page.keyboard.press("Escape")
    moves = page.frame_locator(SCRUBBER)
    expect(moves.locator("#move-count")).to_contain_text("1 of ")
    row = moves.locator(f'#moves .move[data-seq="{event}"]')
    expect(row).to_be_visible()
    expect(row.locator(".annotation")).to_contain_text(f"#1 disputed (Umpire Ann): {TEXT}"[:40])
    expect(moves.locator("#moves .annotation b, #moves .annotation img")).to_have_count(0)
    shot(page, artifacts, f"14-annotation-added-event-{event}")
