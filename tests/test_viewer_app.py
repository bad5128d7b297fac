"""Viewer logic with Streamlit's AppTest (no browser): game picking, URL position, the scrubber's
arguments and payload, the server catching up with the position the scrubber settles on (and
with Back/Forward), explain panel, and untrusted uploads through the reader."""

from __future__ import annotations

import base64
import json
import re
import zlib
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from domain.record import read_record_file
from domain.store import GameStore
from tests.helpers import FIXTURES, RECORDS
from viewer.loading import LoadError, from_bytes
from viewer.timeline import Timeline

APP = str(Path(__file__).resolve().parents[1] / "viewer" / "app.py")
RIVER_PLATE_ID = "00000000-0000-4000-8000-000000000001"
CONVOY_ID = "00000000-0000-4000-8000-000000000004"


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("viewer") / "w.sqlite3")
    store = GameStore(path)
    for record_path in RECORDS:
        rec = read_record_file(record_path)
        store.import_game(rec.header, rec.events)
    return path


def _app(store_path: str, monkeypatch: pytest.MonkeyPatch, **params: str) -> AppTest:
    monkeypatch.setenv("WAKE_STORE", store_path)
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _plain(markdown: str) -> str:
    """Markdown source as read: the viewer escapes record text (``\\[`` is a literal ``[``)."""
    return re.sub(r"\\(.)", r"\1", markdown).replace("\u2060", "")


def _explained(at: AppTest) -> str:
    """The Explain panel's first line ("**Event N** — ..."), as read."""
    return _plain(next(m.value for m in at.markdown if m.value.startswith("**Event ")))


def _scrub(at: AppTest) -> dict[str, Any]:
    """The scrubber component's arguments."""
    args: dict[str, Any] = json.loads(at.get("component_instance")[0].proto.json_args)
    return args


def _payload(at: AppTest) -> dict[str, Any]:
    """What the scrubber received once: the game's frames, texts and series."""
    data: dict[str, Any] = json.loads(zlib.decompress(base64.b64decode(_scrub(at)["payload"])))
    return data


def _settle(at: AppTest, event: int, n: int, token: int | None = None) -> None:
    """The scrubber reports the position the user settled on (as ``setComponentValue``)."""
    args = _scrub(at)
    at.session_state[args["key"]] = {
        "event": event,
        "token": args["token"] if token is None else token,
        "n": n,
        "game": _payload(at)["game"],
    }
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def _event_param(at: AppTest) -> str:
    value = at.query_params["event"]
    return str(value[0] if isinstance(value, list) else value)


def test_opens_stored_game_at_url_position(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _app(store_path, monkeypatch, game=RIVER_PLATE_ID, event="150")
    assert _scrub(at)["event"] == 150
    assert _explained(at).startswith("**Event 150** — ")
    assert at.title[0].value.startswith("River Plate")
    assert _event_param(at) == "150"
    assert _payload(at)["length"] == 291


def test_the_server_catches_up_with_the_scrubber(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 13: the scrubber moves in the browser and reports where the user stopped; the
    Explain panel and the URL follow. A report made before the server moved the position
    itself (an older token) is ignored; a URL that changes behind the app's back (Back,
    Forward) moves the scrubber (a new token)."""
    at = _app(store_path, monkeypatch, game=RIVER_PLATE_ID, event="150")
    token = _scrub(at)["token"]
    _settle(at, 200, n=1)
    assert _explained(at).startswith("**Event 200** — ")
    assert _event_param(at) == "200" and _scrub(at)["token"] == token  # no jump sent back
    _settle(at, 10, n=2, token=token - 1)  # stale: ignored
    assert _event_param(at) == "200"
    at.query_params["event"] = "120"  # Back: Streamlit reruns with the previous URL
    at.run()
    assert _explained(at).startswith("**Event 120** — ")
    assert _scrub(at)["event"] == 120 and _scrub(at)["token"] == token + 1
    _settle(at, 291, n=3)  # the user moves on from there
    assert _event_param(at) == "291"


def test_the_board_and_charts_go_to_the_browser_once(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No chart or board is rebuilt on the server per step: the scrubber gets the frames and
    the series once, and the payload stays the same (cached) while the position moves."""
    at = _app(store_path, monkeypatch, game=RIVER_PLATE_ID, event="10")
    assert not at.get("plotly_chart")
    payload = _payload(at)
    assert {s["name"] for s in payload["frame0"]["sides"]} == {"Kriegsmarine", "Royal Navy"}
    assert {u["side"] for u in payload["units"]} == {"kriegsmarine", "royal_navy"}
    assert set(payload["series"]) == {"dmg_side", "dmg_unit", "vp", "luck"}
    before = _scrub(at)["payload_id"]
    _settle(at, 200, n=1)
    assert _scrub(at)["payload_id"] == before


def test_explain_panel_for_an_attack(store_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """PL-4: the explain panel lists each roll's dice, rule and exact chance."""
    rec = read_record_file(FIXTURES / "games/morze/river_plate-annihilation.wake.json")
    hit = next(
        f for f in rec.events if f.topic == "morze.AttackResolved/1" and f.payload["damage"] > 0
    )
    at = _app(store_path, monkeypatch, game=RIVER_PLATE_ID, event=str(hit.seq))
    text = _plain("\n".join(m.value for m in at.markdown))
    text += "\n".join(t.value for t in at.text)  # the rolls are plain text
    assert "rule **PL-4b**" in text and "rule **PL-4c**" in text and "rule **PL-4d**" in text
    assert "needs at least" in text and "d10 rolled" in text
    # Issue 21 items 7 and 8: the odds named, no Python list, names not ids
    assert "chance of success" in text and "faces [" not in text
    assert "graf_spee" not in text


def test_unknown_game_says_so_and_opens_none(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 13 (links): an unknown ``?game=`` says so instead of opening another game; the
    picker stays, and picking a game opens it."""
    at = _app(store_path, monkeypatch, game="11111111-1111-4111-8111-111111111111")
    assert any("not in the store" in w.value for w in at.warning)
    assert at.sidebar.selectbox[0].value is None
    assert not at.get("component_instance")
    at.sidebar.selectbox[0].set_value(CONVOY_ID).run()
    assert not at.exception and at.get("component_instance")


def test_empty_store_explains_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _app(str(tmp_path / "empty.sqlite3"), monkeypatch)
    assert any("no games yet" in i.value for i in at.info)


@pytest.mark.parametrize(
    "data, message",
    [
        (b"\x89PNG\r\n\x1a\n", "not UTF-8"),
        (b'{"format": "wake-record", "format_version": 1', "not valid JSON"),
        (b"[1, 2, 3]", "not a Wake record"),
        (base64.b64encode(b"import os; os.system('x')"), "not valid JSON"),
        (
            b'{"__class__": "os.system", "format": "wake-record", "format_version": 1}',
            "invalid record",
        ),
    ],
)
def test_untrusted_uploads_get_a_message_not_a_traceback(data: bytes, message: str) -> None:
    with pytest.raises(LoadError, match=message):
        from_bytes(data, "upload.wake.json")


def test_valid_upload_loads(tmp_path: Path) -> None:
    path = FIXTURES / "games/morze/denmark_strait-draw.wake.json"
    game = from_bytes(path.read_bytes(), path.name)
    assert game.header.scenario_id == "denmark_strait" and game.source == path.name


def test_view_a_record_file_directly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``wake view RECORD-FILE``: the app opens the file (through the reader), not the store."""
    import sys

    record = FIXTURES / "games/morze/narvik_destroyers-physical.wake.json"
    monkeypatch.setenv("WAKE_STORE", str(tmp_path / "unused.sqlite3"))
    monkeypatch.setattr(sys, "argv", ["app.py", "--record", str(record)])
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value.startswith("Narvik")
    assert "dice: physical" in "\n".join(c.value for c in at.caption)


def test_wake_view_builds_the_streamlit_command() -> None:
    from viewer.launch import APP as LAUNCHED
    from viewer.launch import streamlit_command

    cmd = streamlit_command(8600, ["--record", "x.wake.json"])
    assert cmd[cmd.index("run") + 1] == str(LAUNCHED)
    assert cmd[cmd.index("--server.address") + 1] == "127.0.0.1"
    assert cmd[cmd.index("--browser.gatherUsageStats") + 1] == "false"
    assert cmd[-3:] == ["--", "--record", "x.wake.json"]


IO_ID = "00000000-0000-4000-8000-000000000101"  # Iron & Oak, Hampton Roads


def test_sealed_hands_per_side_in_an_iron_oak_game(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """IO-3.4 (hidden hands) in the generic viewer: the umpire reads every dealt card; viewed
    as the Confederacy the deal is sealed in the explain panel and the Union's cards are "?"
    in the scrubber's position line and move list (the payload's text of the event); the
    Confederacy's own cards stay readable."""
    rec = read_record_file(FIXTURES / "games/iron_oak/hampton_roads-magazine.wake.json")
    deal = next(f for f in rec.events if f.topic == "iron_oak.CardsDealt/1")
    names = {c["id"]: c["name"] for c in rec.header.scenario["data"]["cards"]["cards"]}
    usa = [names[c] for c in deal.payload["hands"]["USA"]]
    csa = [names[c] for c in deal.payload["hands"]["CSA"]]
    at = _app(store_path, monkeypatch, game=IO_ID, event=str(deal.seq))
    umpire = _plain("\n".join(m.value for m in at.markdown))
    assert all(name in umpire for name in usa + csa)
    assert not any("Sealed" in i.value for i in at.info)
    at.radio(key="view_as").set_value("CSA").run()
    assert any("Sealed" in i.value for i in at.info)
    line = _payload(at)["events"][deal.seq - 1][3]
    assert "USA [?, ?, ?, ?, ?]" in line
    assert all(name in line for name in csa)


def test_the_umpire_reads_sealed_order_cards_where_they_were_sealed(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """IO-3.2 (sealed order cards) in the generic viewer: at the event that seals the Union's
    cards, the umpire's explain panel and move list give each card's order from its later
    reveal (IO-3.3.1 A), marked as not yet revealed at this moment; viewed as the other side
    nothing of it shows, and the side that sealed them reads its own cards (issue 21 item 3)."""
    rec = read_record_file(FIXTURES / "games/iron_oak/hampton_roads-magazine.wake.json")
    sealed = next(f for f in rec.events if f.topic == "iron_oak.OrdersAssigned/1")
    ship = next(iter(sealed.payload["seals"]))
    reveal = next(
        f for f in rec.events if f.topic == "iron_oak.OrderRevealed/1" and f.payload["ship"] == ship
    )
    expected = (
        f"sealed at event {sealed.seq}: {ship} order card (turn 1) = "
        f"{reveal.payload['order']} (revealed at event {reveal.seq}; not yet revealed at this "
        "moment)"
    )
    # issue 21 item 7: the ship and the order in words ("USS Cumberland", "maneuver 1")
    names = Timeline(rec.header, rec.events).names_at(sealed.seq, None)
    expected = names.text(expected)
    assert ship not in expected
    at = _app(store_path, monkeypatch, game=IO_ID, event=str(sealed.seq))
    assert any(expected in t.value for t in at.text)
    assert any("Sealed choices (umpire only" in c.value for c in at.caption)
    line = _payload(at)["events"][sealed.seq - 1][3]
    assert names.text(f"{ship} order card (turn 1) = {reveal.payload['order']}") in line
    assert "not yet revealed at this moment" in line
    issued = [f for f in rec.events[: sealed.seq] if f.topic == "wake.CommandIssued/1"]
    owner = issued[-1].payload["side"]  # the order behind the sealing event
    for side in ("CSA", "USA"):
        at.radio(key="view_as").set_value(side).run()
        assert not at.exception
        assert not any("sealed at event" in t.value for t in at.text)
        assert not any("Sealed choices (umpire only" in c.value for c in at.caption)
        line = _payload(at)["events"][sealed.seq - 1][3]
        assert " — umpire" not in line
        own = names.text(f"{ship} order card (turn 1) = {reveal.payload['order']}")
        assert (own in line) == (side == owner), (side, owner, line)
        assert any("your sealed choice" in t.value for t in at.text) == (side == owner)


SHIPS_4P = "00000000-0000-4000-8000-000000000303"


def test_a_four_player_game_in_a_players_view_hides_the_other_hands(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SHIPS & TACTICS, 4 players: the zone board draws every seat; "View as" P2 shows P2's own
    hand and only anonymous placeholders for the others' cards (the umpire sees them all)."""
    rec = read_record_file(FIXTURES / "games/ships/multi4-line_weapon.wake.json")
    seq = next(
        f.seq for f in rec.events if f.topic == "ships.CardsDrawn/1" and f.payload["player"] == "P1"
    )
    p1_cards = set(next(f for f in rec.events if f.seq == seq).payload["cards"])
    at = _app(store_path, monkeypatch, game=SHIPS_4P, event=str(seq + 6))
    umpire = json.dumps(_payload(at))
    assert all(f'"{t}"' in umpire for t in ("P1", "P2", "P3", "P4"))
    assert all(card in umpire for card in p1_cards)
    at.sidebar.radio[0].set_value("P2").run()
    assert not at.exception
    p2 = json.dumps(_payload(at))
    assert "hidden" in p2 and _payload(at)["viewer"] == "P2"
    assert len(p2) < len(umpire)


def test_the_chosen_view_is_in_the_link(store_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 13 (side views): choosing "View as" puts the side in the URL (``?as=``), a link
    with ``?as=`` opens in that side's view, and an ``?as=`` that names no side of the game is
    an error naming the game's sides (issue 21 item 2), with the umpire's view and nothing of
    the address echoed."""
    at = _app(store_path, monkeypatch, game=SHIPS_4P, event="10")
    assert at.radio(key="view_as").value == "Umpire (everything)"
    assert "as" not in at.query_params
    at.radio(key="view_as").set_value("P3").run()
    assert at.query_params["as"] in ("P3", ["P3"])
    linked = _app(store_path, monkeypatch, game=SHIPS_4P, event="10", **{"as": "P2"})
    assert linked.radio(key="view_as").value == "P2"
    odd = _app(store_path, monkeypatch, game=SHIPS_4P, event="10", **{"as": "<b>x</b>"})
    assert odd.radio(key="view_as").value == "Umpire (everything)"
    page = " ".join(str(e.value) for e in [*odd.markdown, *odd.caption, *odd.warning, *odd.error])
    assert "<b>x</b>" not in page
    (error,) = [str(e.value) for e in odd.error]
    named = ("Earth Defence Force", "Zeon", "Earth Federation", "Galactic Empire")
    assert "does not have" in error and all(side in error for side in named)


def test_the_per_unit_damage_chart_stays_readable(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 13 (navigation): the convoy game's 40-odd units all go to the scrubber, which
    shows the 12 most damaged at first ("damage taken", so labelled)."""
    at = _app(store_path, monkeypatch, game=CONVOY_ID, event="1700")
    assert len(_payload(at)["series"]["dmg_unit"]) > 30


def test_the_app_has_no_bare_strings_that_streamlit_magic_would_print() -> None:
    """Streamlit's "magic" writes any bare expression of the app script to the page: a
    constant's docstring once appeared above the title. Only docstrings in their places."""
    import ast

    tree = ast.parse(Path(APP).read_text("utf-8"))
    stray = [
        stmt.lineno
        for node in ast.walk(tree)
        if isinstance(getattr(node, "body", None), list)
        for i, stmt in enumerate(node.body)  # type: ignore[attr-defined]
        if isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
        and not (i == 0 and isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef))
    ]
    assert stray == []


def test_a_game_opened_from_a_file_can_be_kept_so_its_link_works(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 13 (uploads and links): a game opened from a file is not in the store, so its
    link would open nothing: the viewer says so and keeps it on request (checked as ``wake
    import`` checks); then the store opens it by its id."""
    import sys

    from domain.store import GameStore

    record = FIXTURES / "games/morze/narvik_destroyers-physical.wake.json"
    store = str(tmp_path / "keep.sqlite3")
    monkeypatch.setenv("WAKE_STORE", store)
    monkeypatch.setattr(sys, "argv", ["app.py", "--record", str(record)])
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert any("not in the store" in c.value for c in at.sidebar.caption)
    at.sidebar.button(key="keep_game").click().run()
    assert not at.exception and at.sidebar.success
    game_id = read_record_file(record).header.game_id
    assert GameStore(store).facts(game_id)[0].game_id == game_id


def test_the_board_is_among_the_png_exports(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 13 (polish): the board can be exported as PNG too, under a readable name."""
    at = _app(store_path, monkeypatch, game=CONVOY_ID, event="100")
    pick = at.selectbox(key="png_choice")
    assert "board" in pick.options and "damage taken per side" in pick.options
