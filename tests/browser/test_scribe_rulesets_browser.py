"""A short real game of Iron & Oak, Star Wars: Armada and SHIPS & TACTICS recorded in Chromium on
a hosted table (issue 20): each side on its own phone (its capability link), the umpire on the
table's steps; every order chosen by clicks and pills, every die entered face by face, every
card drawn entered by name; sealed choices (IO-3.2 order cards, SWA-R2 dials, ST-1.3 fleets) made
from the side's own link; an order the menu offers but the rules refuse is shown refused with its
rule and records nothing; a take-back keeps the line taken back. The game recorded verifies with
``wake verify --strict`` and is event for event the game its orders give through the engine."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from domain.engine import CommandEnvelope, Session
from domain.events import CommandIssued
from domain.scribe import table as T
from domain.scribe.start import bundled_scenarios, start_game
from domain.store import GameStore
from tests.browser.conftest import ROOT, _stop, launch
from tests.browser.scribe_helpers import (
    ScriptedScribe,
    _choice_text,
    _label_pattern,
    find_refusal,
    settle,
    text,
)

pytestmark = [pytest.mark.usefixtures("chromium_path")]


@dataclass(frozen=True)
class Hosted:
    url: str
    store: Path


@pytest.fixture(scope="module")
def hosted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hosted]:
    tmp = tmp_path_factory.mktemp("tables")
    store = tmp / "store.sqlite"
    GameStore(str(store))
    proc, url, _, log = launch(tmp, ["--store", str(store), "--hosted"])
    try:
        yield Hosted(url, store)
    finally:
        _stop(proc)
        (ROOT / "artifacts" / "browser").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(log, ROOT / "artifacts" / "browser" / "scribe-tables-server.log")


def _refuse(scribe: ScriptedScribe, devices: dict[Any, Any]) -> str | None:
    """Enter an order the menu offers and the rules refuse, if one is open now; its rule."""
    state = scribe._state()
    side = state.ruleset.to_act(state.rules)[0]
    found = find_refusal(scribe.store, state, side)
    if found is None:
        return None
    order, values, rule = found
    page = devices.get(side) or devices[None]
    settle(page, re.compile(rf"event {state.seq} "))
    page.get_by_role("radiogroup", name="Orders").get_by_role(
        "radio", name=re.compile("^" + re.escape(order.label))
    ).first.click()
    settle(page)
    chosen: dict[str, Any] = {}
    for field in order.fields:
        value = values.get(field.name)
        if value is None or value == []:
            continue
        group = page.get_by_role("radiogroup", name=_label_pattern(field.label)).first
        if field.kind == "many":
            adder = page.get_by_role("radiogroup", name=_label_pattern(f"Add to {field.label}"))
            for i, item in enumerate(value):
                name = _choice_text(field, item, {**chosen, field.name: value[:i]})
                where = adder.first if field.ordered or not field.distinct else group
                where.get_by_role("radio", name=name, exact=True).click()
                settle(page)
        else:
            name = _choice_text(field, value, chosen)
            group.get_by_role("radio", name=name, exact=True).click()
            settle(page)
        chosen[field.name] = value
    settle(page, "Refused:")
    assert f"[rule {rule}" in text(page), text(page)[-600:]
    assert page.get_by_role("button", name=re.compile("Give the order|Choose")).first.is_disabled()
    assert scribe._state().seq == state.seq  # nothing appended
    # leave it: unpick the order
    page.get_by_role("radiogroup", name="Orders").get_by_role(
        "radio", name=re.compile("^" + re.escape(order.label))
    ).first.click()
    settle(page)
    return rule


# Orders per game: I&O through its first physical dice (an Engine Trouble answer, d8 then
# 2d6) and the first Victory Phase; Armada through dials, a maneuver by clicks and squadron
# moves by board points. Longer runs met two faults not yet traced to this script or to the
# page (issue 20 note): a board point clicked among crowded squadrons moved TIE 1 nowhere and
# TIE 2 too far, and Iron & Oak's second Engine Trouble answer (event 87) found no card pill.
CASES = [
    ("iron_oak", "hampton_roads", 16),
    ("armada", "core_learning", 8),
    ("ships", "multi2", 10),
]


@pytest.mark.parametrize(("ruleset", "scenario", "orders"), CASES)
def test_a_short_game_recorded_at_a_hosted_table(
    browser: Any, hosted: Hosted, tmp_path: Path, ruleset: str, scenario: str, orders: int
) -> None:
    store = GameStore(str(hosted.store))
    data = next(s for s in bundled_scenarios() if s.ruleset == ruleset and s.name == scenario)
    game_id = start_game(store, ruleset, data.data, dice="physical")
    links = T.issue_links(store, game_id)
    contexts = []
    devices: dict[Any, Any] = {}
    try:
        for who, token in links.items():
            context = browser.new_context(viewport={"width": 1300, "height": 1100})
            context.set_default_timeout(90_000)
            contexts.append(context)
            page = context.new_page()
            page.goto(f"{hosted.url}/record?key={token}")
            devices[None if who == "umpire" else who] = page
        for page in devices.values():
            settle(page, "Latest events")
        scribe = ScriptedScribe(devices[None], str(hosted.store), game_id, devices=devices)
        refused: str | None = None
        sealed_from_own_link = 0
        for n in range(orders):
            if refused is None:
                refused = _refuse(scribe, devices)
            scribe.order()
            if scribe.page is not devices[None] and _last_order(scribe) in SEALING:
                sealed_from_own_link += 1
            if n == 4:  # a mistake, taken back on the umpire's page: kept as a variation
                umpire = devices[None]
                settle(umpire, re.compile(rf"event {scribe._state().seq} "))
                umpire.locator('[data-testid="stMain"]').get_by_text("Table", exact=True).click()
                umpire.get_by_role("button", name="Take back the last order").click()
                settle(umpire, "was taken back")
                scribe.order()  # entered again
        assert refused is not None, "no refused order was found on the way"
        assert sealed_from_own_link >= 1, scribe.clicks.orders
        for kind, clicks, _ in scribe.clicks.orders:
            assert clicks > 0, kind
        _check_recorded(store, scribe.game_id, tmp_path)
    finally:
        for context in contexts:
            context.close()


SEALING = {"assign_orders", "set_dials", "form_fleet"}  # IO-3.2, SWA-R2, ST-1.3


def _last_order(scribe: ScriptedScribe) -> str:
    _, facts = scribe.store.facts(scribe.game_id, check=False)
    issued = [f for f in facts if f.topic == CommandIssued.TOPIC][-1].payload
    return str(issued["command"].get("type"))


def _check_recorded(store: GameStore, game_id: str, tmp_path: Path) -> None:
    """The game verifies strictly from its record, and its orders (with the faces and cards
    entered) give exactly its events through the engine."""
    record = tmp_path / "recorded.wake.json"
    wake = str(Path(sys.executable).with_name("wake"))
    subprocess.run(
        [wake, "export", game_id, "-o", str(record), "--store", str(store.location)],
        check=True,
        cwd=ROOT,
    )
    verified = subprocess.run(
        [wake, "verify", "--strict", str(record)], cwd=ROOT, capture_output=True, text=True
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    header, facts = store.facts(game_id)
    again = Session(header)
    for fact in facts:
        if fact.topic == CommandIssued.TOPIC:
            issued = fact.payload
            again.submit(
                CommandEnvelope(
                    side=issued["side"],
                    command=issued["command"],
                    dice=issued.get("dice"),
                    cards=issued.get("cards"),
                    time=issued.get("time"),
                )
            )
    assert [(f.topic, f.payload) for f in again.facts] == [(f.topic, f.payload) for f in facts]
