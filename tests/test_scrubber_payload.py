"""Issue 13 (scrubbing in the browser): what the scrubber sends to the page once per game.

The payload folded as the browser folds it (the scrubber's ``start.js``: ``buildFrames``) gives, at
every event, exactly the read model the server-drawn viewer showed for that view (``redact_view``),
and every log line is ``Timeline.text`` for that view. For every bundled game with hidden
information and every side, the payload (as sent: the JSON text) contains none of the values the
side never gets to see (the approach of ``test_redaction_everywhere``: every string in the
unredacted events and read models that appears nowhere in the side's own redacted events, views and
texts, nor inside one of them).
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from domain.read_model import redact_view
from domain.record import read_record_file
from domain.ruleset import get_ruleset
from domain.words import unit_labels
from tests.helpers import FIXTURES, RECORDS
from viewer.scrubber import build_payload, encode
from viewer.scrubber.payload import _unit
from viewer.timeline import Timeline

RIVER_PLATE = FIXTURES / "games/morze/river_plate-annihilation.wake.json"
FRAME_FIELDS = ("turn", "phase", "active", "sides", "result", "overlays")


def _hidden_games() -> list[Path]:
    return [
        path
        for path in RECORDS
        if get_ruleset(read_record_file(path).header.ruleset.id).meta.hidden_information
    ]


@cache
def _timeline(path: Path) -> Timeline:
    record = read_record_file(path)
    return Timeline(record.header, record.events)


def _frames(payload: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The payload's frames, folded as the scrubber's ``start.js`` folds them."""
    units = {u["id"]: u for u in payload["units"]}
    order = [u["id"] for u in payload["units"]]
    frame = {k: payload["frame0"][k] for k in FRAME_FIELDS} | {"board": payload["board"]}
    yield {**frame, "units": [units[i] for i in order]}
    for delta in payload["deltas"]:
        if delta != 0:
            units = {**units, **delta.get("u", {})}
            order = delta.get("order", order)
            frame = {**frame, **{k: delta[k] for k in (*FRAME_FIELDS, "board") if k in delta}}
        yield {**frame, "units": [units[i] for i in order]}


def _check_frames(tl: Timeline, viewer: str | None) -> dict[str, Any]:
    payload = build_payload(tl, viewer)
    frames = list(_frames(payload))
    assert len(frames) == tl.length + 1 == len(payload["events"]) + 1
    for seq, frame in enumerate(frames):
        view = redact_view(tl.view_at(seq), viewer)
        labels = unit_labels(view.units)  # as the Python board names them (issue 21 item 7)
        assert frame["units"] == [_unit(u, labels) for u in view.units], f"event {seq}"
        assert (frame["turn"], frame["phase"]) == (view.turn, view.phase), f"event {seq}"
        assert [s["vp"] for s in frame["sides"]] == [s.vp for s in view.sides]
        assert (frame["result"] is None) == (view.result is None)
        assert len(frame["overlays"]) == len(view.overlays)
        if seq:
            assert payload["events"][seq - 1][3] == tl.text(seq, viewer), f"event {seq}"
    return payload


def test_the_frames_are_the_read_models_at_every_event() -> None:
    tl = _timeline(RIVER_PLATE)
    payload = _check_frames(tl, None)
    assert payload["length"] == tl.length == 291
    assert {s["id"] for s in payload["frame0"]["sides"]} == {"kriegsmarine", "royal_navy"}
    assert payload["turns"] == [list(t) for t in tl.turn_starts]
    assert set(payload["series"]) == {"dmg_side", "dmg_unit", "vp", "luck"}
    kinds = {payload["kinds"][e[0]] for e in payload["events"]}
    # Issue 21 item 7: the Kind filter lists kinds in words, never event class names
    assert {"attack declared", "order", "dice roll"} <= kinds
    assert not any(re.search(r"[a-z][A-Z]", kind) for kind in kinds)


def test_the_payload_is_compact() -> None:
    """Sent once per game and view: compressed, a 291-event game is a few kilobytes."""
    sent = encode(build_payload(_timeline(RIVER_PLATE), None))
    data = json.loads(zlib.decompress(base64.b64decode(sent.data)))
    assert data["length"] == 291
    assert sent.compressed_bytes < sent.json_bytes / 5


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, str):
        yield value


def _distinctive(text: str) -> bool:
    return len(text) >= 5 and not text.replace(".", "").isdigit()


@pytest.mark.parametrize("path", _hidden_games(), ids=lambda p: p.name)
def test_a_sides_payload_holds_none_of_what_it_may_not_see(path: Path) -> None:
    tl = _timeline(path)
    ruleset = tl.ruleset
    everything: set[str] = set()
    for seq in range(tl.length + 1):
        everything.update(_strings(tl.view_at(seq).model_dump(mode="json")))
    for event in tl.decoded:
        everything.update(_strings(event.model_dump(mode="json")))
    everything.update(e.text for e in tl.events)
    for side in tl.side_names:
        seen: set[str] = set()
        for seq in range(tl.length + 1):
            seen.update(_strings(redact_view(tl.view_at(seq), side).model_dump(mode="json")))
            if seq:
                seen.add(tl.text(seq, side))
        for event in tl.decoded:
            seen.update(_strings(ruleset.redact(event, side).model_dump(mode="json")))
        seen_text = "\x00".join(seen)  # a value inside what the side sees is not hidden
        hidden = {v for v in everything - seen if _distinctive(v) and v not in seen_text}
        payload = _check_frames(tl, side)
        text = json.dumps(payload, ensure_ascii=False)
        leaked = sorted(v for v in hidden if json.dumps(v, ensure_ascii=False)[1:-1] in text)
        assert not leaked, f"{path.name} as {side}: {leaked[:5]}"


def test_the_check_has_hidden_values_to_look_for() -> None:
    """The search above is not empty: a SHIPS player's view hides the others' cards."""
    tl = _timeline(FIXTURES / "games/ships/multi4-line_weapon.wake.json")
    umpire = json.dumps(build_payload(tl, None))
    p2 = json.dumps(build_payload(tl, "P2"))
    cards = {
        card
        for f in tl.facts
        if f.topic == "ships.CardsDrawn/1" and f.payload["player"] == "P1"
        for card in f.payload["cards"]
    }
    assert cards and all(f'"{card}"' in umpire for card in cards)
    assert "hidden" in p2 and len(p2) < len(umpire)


def test_the_page_loads_every_script_of_the_component_in_order() -> None:
    """The scrubber's scripts (one file per thing drawn, no build step): ``index.html`` loads
    exactly the ones served (``SCRIPTS``), in that order, the shared context first and the
    handshake last, and each opens with a comment saying what it does. The page as served
    loads them joined in that order (``tests/test_component_assets.py``)."""
    from viewer.scrubber import SCRIPTS, STATIC, component_dir

    page = (STATIC / "index.html").read_text(encoding="utf-8")
    loaded = re.findall(r'<script src="([\w-]+\.js)" defer></script>', page)
    assert tuple(loaded) == SCRIPTS
    assert SCRIPTS[0] == "context.js" and SCRIPTS[-1] == "start.js"
    assert sorted(p.name for p in STATIC.glob("*.js")) == sorted(SCRIPTS)
    for name in SCRIPTS:
        assert (STATIC / name).read_text(encoding="utf-8").startswith("/* Wake scrubber: ")
        assert (STATIC / name).read_bytes() in (component_dir() / "scrubber.bundle.js").read_bytes()
