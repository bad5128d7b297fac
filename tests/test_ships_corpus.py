"""The SHIPS & TACTICS records, the N-player read model and viewer figure, simulation per seat, and
the per-player CLI views: nothing in Wake assumes two sides or public state."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from domain.cli.app import app
from domain.engine import replay
from domain.read_model import HIDDEN_KIND, redact_view
from domain.record import read_record_file
from domain.ruleset import get_ruleset
from domain.simulate import simulate, summarise
from tests.helpers import FIXTURES, RECORDS
from tests.ships_helpers import scenario
from viewer.figures import board_figure, side_colours

SHIPS = [p for p in RECORDS if p.parent.name == "ships"]


def test_the_ships_corpus_covers_the_required_games() -> None:
    """Issue 11: games with 2, 3, 4 and 6 players, one from a physical table, one where a player
    drops out (ST-5.5), one where a line weapon hits three players (ST-3.1), and ST-5.4."""
    records = [read_record_file(p, strict=True) for p in SHIPS]
    assert {len(r.header.sides) for r in records} >= {2, 3, 4, 6}
    assert any(r.header.dice.mode == "physical" for r in records)
    seen = set()
    for r in records:
        for e in r.events:
            p = e.payload
            if e.topic == "ships.PlayerDroppedOut/1":
                seen.add("drop out")
            hit = {t.split("-")[0] for t in p.get("targets", [])}
            if e.topic == "ships.AttackDeclared/1" and p["line"] and len(hit) >= 3:
                seen.add("line hits three")
            if e.topic == "ships.FleetsPlaced/1" and p["combined"]:
                seen.add("nadesico")
            if e.topic == "ships.CardsDrawn/1" and p["rule"] == "ST-1.7":
                seen.add("ship search")
            if e.topic == "ships.BoardingResolved/1" and p["captured"]:
                seen.add("capture")
            if e.topic == "ships.DogfightResolved/1":
                seen.add("dogfight")
            if e.topic == "ships.AircraftLaunched/1" and p["pilots"]:
                seen.add("pilot transfer")
    assert seen == {
        "drop out",
        "line hits three",
        "nadesico",
        "ship search",
        "capture",
        "dogfight",
        "pilot transfer",
    }


def test_the_physical_record_names_every_draw() -> None:
    record = read_record_file(FIXTURES / "games/ships/multi4-physical.wake.json", strict=True)
    starts = [e for e in record.events if e.topic == "wake.CommandIssued/1"]
    starts = [e for e in starts if e.payload["command"]["type"] == "start_battle"]
    assert len(starts) == 5 and all(e.payload["command"]["draws"] for e in starts)
    assert not any(e.payload.get("faces") for e in record.events)  # no dice, no shuffle faces


def test_a_six_player_board_is_drawn_with_six_colours_and_player_views() -> None:
    record = read_record_file(FIXTURES / "games/ships/multi6-dropout.wake.json", strict=True)
    ruleset = get_ruleset("ships")
    mid = len(record.events) // 3
    state = replay(record.header, record.events[:mid])
    view = ruleset.read_model(state.rules)
    assert view.board.kind == "zones" and len(view.board.seats) == 6
    assert view.board.zones == ["vanguard", "rearguard", "air", "hand"]
    assert len(set(side_colours([s.id for s in view.sides]).values())) == 6
    fig = board_figure(view)
    colours = set(side_colours([s.id for s in view.sides]).values())
    # the table (issue 21 item 11): each seat's panel and name in its player's colour
    assert {shape.line.color for shape in fig.layout.shapes} >= colours
    mine = redact_view(view, "P3")
    others = [u for u in mine.units if u.zone == "hand" and u.side != "P3"]
    assert others and all(u.kind == HIDDEN_KIND and u.name == "hidden" for u in others)
    assert all(u.kind != HIDDEN_KIND for u in mine.units if u.side == "P3")
    board_figure(mine)  # the player view draws too


def test_wake_simulate_reports_win_rates_per_seat() -> None:
    outcomes = simulate("ships", scenario("multi4"), 4, options={}, workers=1)
    summary = summarise(outcomes, ["P1", "P2", "P3", "P4"])
    assert all(o.finished for o in outcomes)
    assert sum(summary.wins.values()) == 4 and set(summary.mean_vp) == {"P1", "P2", "P3", "P4"}


def test_cli_show_and_log_as_a_player_hide_the_other_hands(tmp_path: Path) -> None:
    runner = CliRunner()
    store = str(tmp_path / "s.sqlite3")
    path = FIXTURES / "games/ships/multi3-three_players.wake.json"
    assert runner.invoke(app, ["import", str(path), "--store", store]).exit_code == 0
    game = read_record_file(path).header.game_id
    umpire = runner.invoke(app, ["log", game, "--store", store, "--to", "20"]).output
    p2 = runner.invoke(app, ["log", game, "--as", "P2", "--store", store, "--to", "20"]).output
    p1_draw = next(line for line in umpire.splitlines() if "P1 draws 8" in line)
    assert p1_draw not in p2 and "P1 draws 8: ?, ?, ?" in p2
    assert next(line for line in umpire.splitlines() if "P2 draws 8" in line) in p2
    args = ["show", game, "--event", "20", "--json", "--as", "P2", "--store", store]
    shown = runner.invoke(app, args)
    units = json.loads(shown.output)["view"]["units"]
    p1 = [u for u in units if u["side"] == "P1"]
    assert {u["kind"] for u in p1 if u["zone"] == "hand"} == {HIDDEN_KIND}
    assert {u["kind"] for u in p1} <= {HIDDEN_KIND, "sealed"}  # a face-down fleet shows as one
    exported = runner.invoke(app, ["export", game, "--as", "P2", "--store", store])
    body = json.loads(exported.output)
    assert body["redacted_for"] == "P2" and len(body["events"]) == len(
        read_record_file(path).events
    )
    for e in body["events"]:
        p = e["payload"]
        if e["topic"] == "ships.CardsDrawn/1" and p["cards"]:
            assert (set(p["cards"]) == {"?"}) == (p["player"] != "P2"), p
        if e["topic"] == "ships.FleetCommitted/1" and p["player"] != "P2":
            assert p["fleet"] is None  # another player's face-down fleet
        if e["topic"] == "wake.CommandIssued/1" and p["command"]["type"] == "form_fleet":
            assert (p["command"]["fleet"] is None) == (p["side"] != "P2")
    bad = runner.invoke(app, ["log", game, "--as", "P9", "--store", store])
    assert bad.exit_code != 0 and "unknown side" in bad.output


def test_explaining_a_sinking_names_the_cards_the_last_blow_and_the_rule() -> None:
    from domain.explain import explain_event, explanation_lines

    path = FIXTURES / "games/ships/multi4-line_weapon.wake.json"
    record = read_record_file(path, strict=True)
    index = next(
        i
        for i, f in enumerate(record.events)
        if f.topic == "ships.HitResolved/1" and f.payload["sunk"] and f.payload["earlier_hitters"]
    )
    ex = explain_event(replay(record.header, record.events[:index]), record.events, index)
    text = "\n".join(explanation_lines(ex))
    p = record.events[index].payload
    assert ex.rule == "ST-5.1" and "final blow" in ex.rule_summary
    assert f"last blow {p['player']} scores {p['vp']} VP" in text
    assert f"earlier hits by {', '.join(p['earlier_hitters'])} score nothing" in text
    assert "[provisional: ST-GAPS-HIT]" in text and f"armour {p['armour']}" in text


def test_explaining_a_shuffle_gives_its_exact_odds() -> None:
    from domain.explain import explain_event

    record = read_record_file(FIXTURES / "games/ships/multi3-three_players.wake.json")
    index = next(i for i, f in enumerate(record.events) if f.topic == "ships.DeckShuffled/1")
    ex = explain_event(replay(record.header, record.events[:index]), record.events, index)
    assert ex.rule == "ST-1.1" and ex.chance is not None and ex.chance.startswith("1/")
    assert "30!" in ex.chance_note


def test_a_players_explanation_does_not_show_the_order_behind_it_unredacted() -> None:
    """The physical table's setup order names every player's draws: explaining the turn-order
    draw to P2 shows P2's cards and only "?" for the others'."""
    from domain.explain import explain_event

    record = read_record_file(FIXTURES / "games/ships/multi4-physical.wake.json")
    index = next(i for i, f in enumerate(record.events) if f.topic == "ships.TurnOrderDrawn/1")
    before = replay(record.header, record.events[:index])
    umpire = explain_event(before, record.events, index)
    p2 = explain_event(before, record.events, index, "P2")
    assert umpire.command is not None and p2.command is not None
    draws = umpire.command.command["draws"]
    assert p2.command.command["draws"]["P2"] == draws["P2"]
    assert set(p2.command.command["draws"]["P1"]) == {"?"}
    assert "yamato" in json.dumps(draws) and "yamato" not in json.dumps(p2.command.command)
