"""The ``wake`` CLI: main job, refusals with rule IDs, explain, verify, import/export."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from domain.cli.app import app
from domain.store import GameStore
from tests.forge import rechain
from tests.helpers import FIXTURES, RECORDS

runner = CliRunner()
RIVER_PLATE = FIXTURES / "scenarios" / "morze" / "river_plate.json"
ANNIHILATION = FIXTURES / "games" / "morze" / "river_plate-annihilation.wake.json"


@pytest.fixture()
def store(tmp_path: Path) -> str:
    return str(tmp_path / "cli.sqlite3")


def wake(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_demo_loads_bundled_games_and_replays_one(store: str) -> None:
    code, out = wake("demo", "--terminal", "--store", store)
    assert code == 0, out
    assert f"{len(RECORDS)} recorded games" in out
    assert "replayed" in out and "RESULT" in out
    assert len(GameStore(store).game_ids()) == len(RECORDS)
    code, _ = wake("demo", "--terminal", "--store", store)  # idempotent
    assert code == 0 and len(GameStore(store).game_ids()) == len(RECORDS)


def test_start_submit_refusal_names_rule_and_appends_nothing(store: str) -> None:
    """PL-2: an overlong move is refused with the rule ID; the log is unchanged."""
    code, out = wake("start", "morze", str(RIVER_PLATE), "--seed", "3", "--store", store)
    assert code == 0
    gid = out.strip()
    code, out = wake("submit", gid, '{"type": "roll_initiative"}', "--store", store)
    assert code == 0 and "initiative" in out
    before = GameStore(store).state(gid)
    mover = before.rules.active
    unit = before.rules.alive(mover)[0]
    order = json.dumps({"type": "move", "unit": unit.id, "x": unit.x + 40, "y": unit.y})
    code, out = wake("submit", gid, order, "--side", mover, "--store", store)
    assert code == 2
    assert "[PL-2]" in out and "speed" in out
    assert GameStore(store).state(gid) == before
    code, out = wake("submit", gid, '{"type": "fly"}', "--side", mover, "--store", store)
    assert code == 2 and "unknown order type 'fly'; Morze w ogniu knows: roll_initiative" in out


def test_play_bots_to_the_end_then_list_show_log(store: str) -> None:
    _, out = wake("start", "morze", str(RIVER_PLATE), "--seed", "4", "--store", store)
    gid = out.strip()
    code, out = wake("play", gid, "--store", store)
    assert code == 0 and "new events" in out
    code, out = wake("list", "--store", store)
    assert code == 0 and gid in out and "river_plate" in out
    code, out = wake("show", gid, "--event", "0", "--json", "--store", store)
    view = json.loads(out)["view"]
    assert view["turn"] == 1 and all(u["damage"] == 0 for u in view["units"])
    code, out = wake("show", gid, "--turn", "2", "--store", store)
    assert code == 0 and "turn 2" in out
    code, out = wake("log", gid, "--to", "5", "--store", store)
    assert code == 0 and len(out.strip().splitlines()) == 5


def test_explain_attack_shows_dice_target_rule_and_odds(store: str) -> None:
    """Explaining an attack shows the dice, the target number, the rule ID and the exact chance."""
    wake("import", str(ANNIHILATION), "--store", store)
    gid = "00000000-0000-4000-8000-000000000001"
    body = json.loads(ANNIHILATION.read_text("utf-8"))
    hit = next(
        e
        for e in body["events"]
        if e["topic"] == "morze.AttackResolved/1" and e["payload"]["damage"] > 0
    )
    code, out = wake("explain", gid, str(hit["seq"]), "--store", store)
    assert code == 0, out
    assert "[PL-4b]" in out and "[PL-4c]" in out and "[PL-4d]" in out
    assert re.search(r"needs at least \d+ \(\d+\+\)", out)
    # Issue 21 item 8: the dice and the odds in words, never a Python list or a bare p=
    assert re.search(r"d10 rolled \d+", out) and "faces [" not in out
    assert re.search(r"chance of success \d+/\d+ \(\d+%\)", out)
    roll = next(e for e in body["events"] if e["topic"] == "wake.DiceRolled/1")
    code, out = wake("explain", gid, str(roll["seq"]), "--store", store)
    assert code == 0 and roll["payload"]["rule"] in out


def test_verify_ok_and_divergence(tmp_path: Path) -> None:
    # one record per ruleset: the whole corpus is verified once, by the pytest plugin
    one_each = list({p.parent.name: p for p in RECORDS}.values())
    code, out = wake("verify", "--strict", *map(str, one_each))
    assert code == 0, out
    assert out.count(": OK") == len(one_each) == 4  # one record per ruleset
    body = json.loads(ANNIHILATION.read_text("utf-8"))
    event = next(e for e in body["events"] if e["topic"] == "wake.DiceRolled/1")
    event["payload"]["roll"]["faces"][0] = event["payload"]["roll"]["faces"][0] % 10 + 1
    bad = tmp_path / "bad.wake.json"
    bad.write_text(json.dumps(body), "utf-8")
    code, out = wake("verify", str(bad))
    assert code == 2  # an edited event breaks the chain: not a valid record
    assert f"event {event['seq']}" in out and "INVALID" in out
    bad.write_text(json.dumps(rechain(body)), "utf-8")
    code, out = wake("verify", str(bad))
    assert code == 1  # re-chained: a valid record, whose dice the seed does not give
    assert f"event {event['seq']}" in out and "DIVERGES" in out


def test_import_bad_file_changes_no_store(store: str, tmp_path: Path) -> None:
    bad = tmp_path / "truncated.wake.json"
    bad.write_text(ANNIHILATION.read_text("utf-8")[:5000], "utf-8")
    code, out = wake("import", str(bad), "--store", store)
    assert code == 2 and "not valid JSON" in out
    assert GameStore(store).game_ids() == []


def test_export_round_trip(store: str, tmp_path: Path) -> None:
    wake("import", str(ANNIHILATION), "--store", store)
    out_file = tmp_path / "out.wake.json"
    code, _ = wake(
        "export", "00000000-0000-4000-8000-000000000001", "-o", str(out_file), "--store", store
    )
    assert code == 0
    assert out_file.read_text("utf-8") == ANNIHILATION.read_text("utf-8")


def test_record_physical_game_with_dice_sheet(tmp_path: Path) -> None:
    """Physical dice entered from a sheet reproduce the bundled physical-dice fixture (recorded
    before named draws: ``--cards shuffled`` keeps its header, issue 20)."""
    out = tmp_path / "p.wake.json"
    code, text = wake(
        "record",
        "morze",
        str(FIXTURES / "scenarios/morze/narvik_destroyers.json"),
        "--physical",
        "--cards",
        "shuffled",
        "--dice-sheet",
        str(FIXTURES / "dice/narvik_destroyers.txt"),
        "--game-id",
        "00000000-0000-4000-8000-000000000005",
        "-o",
        str(out),
    )
    assert code == 0, text
    fixture = FIXTURES / "games/morze/narvik_destroyers-physical.wake.json"
    assert out.read_text("utf-8") == fixture.read_text("utf-8")


def test_rulesets_lists_morze() -> None:
    code, out = wake("rulesets")
    assert code == 0 and "morze" in out and "PL-*" in out


def _bad_records(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """One broken copy of a fixture per failure kind, with the text its error must contain."""
    text = ANNIHILATION.read_text("utf-8")
    out: dict[str, tuple[Path, str]] = {}

    def write(name: str, body: str, expect: str) -> None:
        path = tmp_path / f"{name}.wake.json"
        path.write_text(body, "utf-8")
        out[name] = (path, expect)

    write("truncated", text[: len(text) // 3], "not valid JSON")
    body = json.loads(text)
    body["format_version"] = 9
    write("wrong_version", json.dumps(body), "version 9 is not supported")
    body = json.loads(text)
    body["events"][40]["digest"] = "0" * 64
    write("tampered_digest", json.dumps(body), "event 41")
    body = json.loads(text)
    body["header"]["ruleset"]["id"] = "checkers"
    write("unknown_ruleset", json.dumps(body), "unknown ruleset 'checkers'")
    body = json.loads(text)
    first_move = next(
        e
        for e in body["events"]
        if e["topic"] == "wake.CommandIssued/1" and e["payload"]["command"]["type"] == "move"
    )
    first_move["payload"]["command"]["x"] += 500  # off the table and beyond speed
    write("illegal_command", json.dumps(body), f"event {first_move['seq']}")
    return out


@pytest.mark.parametrize(
    "kind", ["truncated", "wrong_version", "tampered_digest", "unknown_ruleset", "illegal_command"]
)
def test_bad_records_fail_clearly_and_change_no_store(
    kind: str, store: str, tmp_path: Path
) -> None:
    path, expect = _bad_records(tmp_path)[kind]
    code, out = wake("verify", str(path))
    assert code == 2 and expect in out, out
    code, out = wake("import", str(path), "--store", store)
    assert code == 2 and expect in out, out
    assert GameStore(store).game_ids() == []


def test_explain_collects_only_the_deciding_rolls(store: str) -> None:
    """An initiative result lists its own (re-)rolls (PL-1); a game-end event lists none, nor
    the order's other rolls (no die decided it)."""
    wake("import", str(ANNIHILATION), "--store", store)
    gid = "00000000-0000-4000-8000-000000000001"
    body = json.loads(ANNIHILATION.read_text("utf-8"))
    events = body["events"]
    init = next(e for e in events if e["topic"] == "morze.InitiativeDetermined/1")
    rolls_before = 0
    for e in reversed(events[: init["seq"] - 1]):
        if e["topic"] != "wake.DiceRolled/1":
            break
        rolls_before += 1
    _, out = wake("explain", gid, str(init["seq"]), "--store", store)
    assert out.count("initiative [PL-1] (event") == rolls_before >= 1
    _, out = wake("explain", gid, str(events[-1]["seq"]), "--store", store)
    assert "[PL-4b]" not in out and "game over" in out


def test_an_iron_oak_order_card_sealed_with_wake_seal_and_revealed(store: str) -> None:
    """IO-3.2 from the CLI: `wake seal` prints the commitment and the salt; the commitment is
    submitted with the orders, the reveal with another salt is refused with IO-3.2 and appends
    nothing, the right salt is accepted."""
    scenario = FIXTURES / "scenarios" / "iron_oak" / "hampton_roads.json"
    code, out = wake("start", "iron_oak", str(scenario), "--seed", "5", "--store", store)
    assert code == 0, out
    gid = out.strip()
    assert wake("submit", gid, '{"type": "deal"}', "--store", store)[0] == 0
    code, out = wake("submit", gid, '{"type": "status"}', "--side", "USA", "--store", store)
    assert code == 0, out
    ships = [s.id for s in GameStore(store).state(gid).rules.ships.values() if s.side == "USA"]
    seals, salts = {}, {}
    for ship in ships:
        secret = json.dumps({"ship": ship, "turn": 1, "order": "maneuver_0"})
        code, out = wake("seal", secret)
        assert code == 0, out
        sealed = json.loads(out)
        seals[ship], salts[ship] = sealed["digest"], sealed["salt"]
    orders = json.dumps({"type": "assign_orders", "seals": seals})
    assert wake("submit", gid, orders, "--side", "USA", "--store", store)[0] == 0
    ship = ships[0]
    here = GameStore(store).state(gid).rules.ships[ship].cell
    assert here is not None
    reveal = {"type": "reveal_order", "ship": ship, "order": "maneuver_0", "path": [list(here)]}
    before = GameStore(store).state(gid)
    bad = json.dumps({**reveal, "salt": "not-my-salt"})
    code, out = wake("submit", gid, bad, "--side", "USA", "--store", store)
    assert code == 2 and "[IO-3.2]" in out
    assert GameStore(store).state(gid) == before
    good = json.dumps({**reveal, "salt": salts[ship]})
    code, out = wake("submit", gid, good, "--side", "USA", "--store", store)
    assert code == 0, out
    assert GameStore(store).state(gid).rules.pending_move is not None


def _physical_morze(store: str) -> str:
    code, out = wake("start", "morze", str(RIVER_PLATE), "--physical", "--store", store)
    assert code == 0, out
    return out.strip()


def test_pl1_tied_initiative_faces_ask_for_the_re_roll(store: str) -> None:
    """PL-1 with physical dice: entering only the tied faces is refused with a message saying
    the tie is re-rolled and how many faces the re-roll still needs (not "needed 3 scripted
    faces"); nothing is appended; the full set of faces is accepted."""
    gid = _physical_morze(store)
    roll = '{"type": "roll_initiative"}'
    code, out = wake("submit", gid, roll, "--dice", "4,4", "--store", store)
    assert code == 2
    assert "[PL-1]" in out and "tied 4-4" in out, out
    assert "re-roll" in out and "2 more d10 faces" in out, out
    assert "scripted" not in out
    code, out = wake("submit", gid, roll, "--dice", "4,4,7", "--store", store)
    assert code == 2 and "1 more d10 face" in out, out
    code, out = wake("submit", gid, roll, "--dice", "4,4,7,7,2", "--store", store)
    assert code == 2 and "tied 4-4, then 7-7" in out and "1 more d10 face" in out, out
    assert GameStore(store).facts(gid)[1] == []
    code, out = wake("submit", gid, roll, "--dice", "4,4,7,2", "--store", store)
    assert code == 0 and "initiative" in out, out


IRON_OAK_HAMPTON = FIXTURES / "scenarios" / "iron_oak" / "hampton_roads.json"
IRON_OAK_TYPES = (
    "deal, status, assign_orders, reveal_order, respond_movement, declare_fire, respond_fire, "
    "choose_collateral, exchange_card, end_turn, pass"
)


def _iron_oak_game(store: str) -> str:
    code, out = wake("start", "iron_oak", str(IRON_OAK_HAMPTON), "--seed", "5", "--store", store)
    assert code == 0, out
    return out.strip()


@pytest.mark.parametrize(
    ("order", "expect"),
    [
        ('{"type": "fly"}', f"unknown order type 'fly'; Iron & Oak knows: {IRON_OAK_TYPES}"),
        ('{"type": "stat"}', "unknown order type 'stat' (did you mean 'status'?); Iron & Oak"),
        ('{"ship": "monitor"}', f'the order has no "type"; Iron & Oak knows: {IRON_OAK_TYPES}'),
        (
            '{"type": "status", "withdraw": 3, "repairs": {}}',
            "invalid status: withdraw should be a valid list (got 3); repairs is not a field "
            "of status (it takes withdraw, repair, place)",
        ),
        (
            '{"type": "declare_fire", "fires": [{"firer": "monitor"}]}',
            "invalid declare_fire: fires[0].target is missing",
        ),
        ("[1]", 'an order is a JSON object such as {"type": ...}'),
    ],
)
def test_a_bad_order_says_what_the_ruleset_knows_in_one_line(
    order: str, expect: str, store: str
) -> None:
    """IO-3: an unknown order type names the order types Iron & Oak knows; a bad field names its
    path and the problem; one line, no pydantic internals or URLs; nothing is appended."""
    gid = _iron_oak_game(store)
    code, out = wake("submit", gid, order, "--side", "USA", "--store", store)
    assert code == 2
    assert out.startswith("error (invalid): ") and expect in out, out
    assert len(out.strip().splitlines()) == 1, out
    assert "pydantic" not in out and "http" not in out and "Traceback" not in out
    assert GameStore(store).facts(gid)[1] == []


def test_dice_faces_that_are_not_numbers_are_refused_plainly(store: str) -> None:
    gid = _physical_morze(store)
    code, out = wake(
        "submit", gid, '{"type": "roll_initiative"}', "--dice", "3,x", "--store", store
    )
    assert code == 2 and "--dice takes the faces rolled as whole numbers" in out, out


def test_explain_event_0_says_which_events_can_be_explained(store: str) -> None:
    """`wake explain GAME 0` used to report the generic code `error`: event 0 is the game's
    start, not an event; the message says which events exist and how to list them."""
    wake("import", str(ANNIHILATION), "--store", store)
    gid = "00000000-0000-4000-8000-000000000001"
    last = len(json.loads(ANNIHILATION.read_text("utf-8"))["events"])
    code, out = wake("explain", gid, "0", "--store", store)
    assert code == 2
    assert out.startswith("error (no_event): event 0 is the game's start"), out
    assert f"events 1..{last}" in out and f"wake log {gid}" in out, out
    code, out = wake("explain", gid, str(last + 1), "--store", store)
    assert code == 2 and f"error (no_event): the game has events 1..{last}, not {last + 1}" in out
    code, out = wake("show", gid, "--event", str(last + 1), "--store", store)
    assert code == 2 and "error (no_event)" in out and f"0..{last}" in out, out
    code, out = wake("show", gid, "--turn", "99", "--store", store)
    assert code == 2 and "error (no_event): the game never reached turn 99" in out, out


def test_explain_in_a_game_without_events_says_there_is_nothing_yet(store: str) -> None:
    gid = _iron_oak_game(store)
    code, out = wake("explain", gid, "1", "--store", store)
    assert code == 2
    assert "error (no_event): the game has no events yet" in out, out


def test_io3_an_iron_oak_side_with_nothing_to_do_passes(store: str) -> None:
    """IO-3 from the CLI: `wake legal` offers `pass` in the Status Phase; passing runs the
    Status checks and moves on to the Order Phase, where `pass` is refused with IO-3.2 saying
    what is required, and nothing is appended."""
    gid = _iron_oak_game(store)
    assert wake("submit", gid, '{"type": "deal"}', "--store", store)[0] == 0
    code, out = wake("legal", gid, "--side", "USA", "--store", store)
    assert code == 0 and '{"type": "pass"}' in out.splitlines(), out
    code, out = wake("submit", gid, '{"type": "pass"}', "--side", "USA", "--store", store)
    assert code == 0, out
    assert "order #1 by USA: pass" in out and "USA status phase done" in out, out
    assert "turn 1: USA orders" in out, out
    events = len(GameStore(store).facts(gid)[1])
    code, out = wake("submit", gid, '{"type": "pass"}', "--side", "USA", "--store", store)
    assert code == 2 and "[IO-3.2]" in out and "give assign_orders" in out, out
    assert len(GameStore(store).facts(gid)[1]) == events
