"""Armada geometry in the generic read model (SWA-HZ, SWA-RNG, SWA-ATK 1, SWA-2.3, SWA-OVL).

The read model (``domain.rulesets.armada.view`` with ``drawing``) gives every deployed ship its
base, four hull zones labelled with their shields, arc lines and a heading marker; every
squadron a circle; the obstacles as board features; overlays through the ``overlays`` hook.
Expected values come from the geometry layer itself (``ArmadaState.placed``, ``disc``,
``place_obstacle``), not from hand-copied coordinates.
"""

from __future__ import annotations

import json

from shapely.geometry import LineString, Point, Polygon

from domain.read_model import GameView, ShapeView, UnitView
from domain.rulesets.armada import view
from domain.rulesets.armada.drawing import path_overlay, range_overlay, sight_overlay
from domain.rulesets.armada.geometry import ZONES, Pose, place_obstacle
from domain.rulesets.armada.maneuver import execute
from domain.rulesets.armada.ruleset import ArmadaRuleset
from domain.rulesets.armada.sight import ship_to_ship
from domain.rulesets.armada.state import with_ship
from tests.armada_helpers import Game, armada, bundled, duel
from tests.test_armada_integration import _attack, _close, _dials, _finish_attack
from tests.test_armada_rules import DUEL_DIALS_EMPIRE, DUEL_DIALS_REBELS

__all__ = ["armada"]  # the fixture, imported for pytest

ROUNDING = 0.05 + 1e-9  # coordinates are rounded to 0.1 mm


def _unit(v: GameView, uid: str) -> UnitView:
    return next(u for u in v.units if u.id == uid)


def _polygon(shape: ShapeView) -> Polygon:
    assert shape.closed and not shape.is_circle
    return Polygon(shape.points)


def _zones(unit: UnitView) -> dict[str, ShapeView]:
    return {s.part: s for s in unit.shapes if s.style == "zone"}


def test_ship_zones_cover_its_token_and_are_labelled_with_shields(armada: ArmadaRuleset) -> None:
    """SWA-HZ: the four zone polygons together are the token (to the 0.1 mm rounding), do not
    overlap each other, and each is labelled with that zone's shields."""
    game = Game(duel())
    v = armada.read_model(game.state)
    for sid in ("victory", "cr90", "nebulon"):
        unit, ship = _unit(v, sid), game.state.ships[sid]
        placed = game.state.placed(sid)
        zones = _zones(unit)
        assert list(zones) == list(ZONES)
        union = Polygon()
        for zone, shape in zones.items():
            poly = _polygon(shape)
            assert poly.is_valid
            assert poly.symmetric_difference(placed.zones[zone]).area < 0.1 * poly.length
            assert union.intersection(poly).area < 0.1 * poly.length  # no overlap
            union = union.union(poly)
            assert shape.label == str(ship.shields[zone])
        token = placed.token
        assert union.symmetric_difference(token).area < 0.1 * token.length
        base = next(s for s in unit.shapes if s.part == "base")
        assert base.style == "base"
        assert _polygon(base).symmetric_difference(placed.base).area < 0.1 * placed.base.length


def test_zone_labels_follow_the_shields_now(armada: ArmadaRuleset) -> None:
    """A zone's label is its current shield count (what the state holds, not the card's)."""
    game = Game(duel())
    state = with_ship(game.state, "victory", shields={"front": 0, "right": 2, "rear": 1, "left": 3})
    zones = _zones(_unit(armada.read_model(state), "victory"))
    assert {z: s.label for z, s in zones.items()} == {
        "front": "0",
        "right": "2",
        "rear": "1",
        "left": "3",
    }
    before = _zones(_unit(armada.read_model(game.state), "victory"))
    assert before["front"].label == "3" and before["front"].points == zones["front"].points


def test_heading_marker_and_arc_lines(armada: ArmadaRuleset) -> None:
    """The heading marker lies ahead of the base (the CR90 faces south: below it); each of the
    four arc lines starts on the printed line and runs out to close range beyond the token."""
    game = Game(duel())
    v = armada.read_model(game.state)
    cr90, placed = _unit(v, "cr90"), game.state.placed("cr90")
    assert cr90.heading == 180.0
    marker = _polygon(next(s for s in cr90.shapes if s.style == "heading"))
    assert marker.bounds[3] < placed.base.bounds[1]  # wholly south of the base
    assert abs(marker.centroid.x - cr90.position[0]) < 0.1  # type: ignore[index]
    arcs = {s.part: s for s in cr90.shapes if s.style == "arc"}
    assert set(arcs) == {f"arc {n}" for n in placed.arc_lines}
    reach = game.state.data.geometry.range_bands.close
    for name, printed in placed.arc_lines.items():
        shape = arcs[f"arc {name}"]
        assert not shape.closed and len(shape.points) == 2
        drawn = LineString(shape.points)
        assert Point(shape.points[0]).distance(Point(printed.coords[0])) < 0.1
        assert abs(drawn.length - (printed.length + reach)) < 0.2
        assert drawn.distance(Point(printed.coords[1])) < 0.1  # through the token's edge


def test_squadron_circle_has_the_base_radius(armada: ArmadaRuleset) -> None:
    """A squadron is a circle of the data's base radius around its position, no zones."""
    game = Game(duel())
    tie = _unit(armada.read_model(game.state), "tie")
    (shape,) = tie.shapes
    assert shape.is_circle and shape.part == "base" and not shape.points
    assert shape.radius == game.state.data.geometry.squadron_base_radius == 17.0
    assert shape.centre == tie.position == (360.0, 150.0)


def test_obstacles_are_board_features(armada: ArmadaRuleset) -> None:
    """SWA-OVL: the learning scenario's six obstacles are features with their kind and the
    outline ``place_obstacle`` gives."""
    game = Game(bundled("core_learning"))
    v = armada.read_model(game.state)
    setups = game.state.scenario.obstacles
    assert [f.id for f in v.board.features] == [o.id for o in setups] and len(setups) == 6
    for feature, setup in zip(v.board.features, setups, strict=True):
        shape = game.state.data.obstacles.get(setup.shape)
        assert feature.kind == shape.kind == feature.label and feature.name == shape.name
        outline = place_obstacle(shape, Pose(setup.x, setup.y, setup.heading), setup.flipped)
        assert Polygon(feature.points).symmetric_difference(outline).area < 0.1 * outline.length
    assert {f.kind for f in v.board.features} == {"station", "asteroid", "debris"}


def test_coordinates_are_rounded(armada: ArmadaRuleset) -> None:
    """Every coordinate is rounded to 0.1 mm, so the read model stays small."""
    v = armada.read_model(Game(bundled("core_learning")).state)
    points = [p for u in v.units for s in u.shapes for p in s.points]
    points += [p for f in v.board.features for p in f.points]
    assert points
    assert all(round(c, 1) == c for p in points for c in p)


def test_destroyed_and_undeployed_ships(armada: ArmadaRuleset) -> None:
    """A destroyed ship keeps only its base outline (drawn as out of play); a ship not yet
    deployed (core_deployment) has no shapes and no position."""
    game = Game(duel())
    state = with_ship(game.state, "cr90", destroyed=True)
    cr90 = _unit(armada.read_model(state), "cr90")
    assert cr90.status == "destroyed" and [s.part for s in cr90.shapes] == ["base"]
    deploying = Game(bundled("core_deployment"))
    v = armada.read_model(deploying.state)
    waiting = [u for u in v.units if u.position is None]
    assert waiting and all(not u.shapes for u in waiting)


def test_sealed_dials_stay_out_of_the_read_model(armada: ArmadaRuleset) -> None:
    """SWA-R2: after both sides set dials, the read model (with its geometry) holds no digest
    and no command of a face-down dial: only how many there are."""
    game = Game(duel())
    game.set_dials("empire", DUEL_DIALS_EMPIRE)
    game.set_dials("rebels", DUEL_DIALS_REBELS)
    text = armada.read_model(game.state).model_dump_json()
    digests = [d.digest for s in game.state.ships.values() for d in s.dials]
    assert digests and not any(d in text for d in digests)
    victory = _unit(armada.read_model(game.state), "victory")
    assert victory.details["dials_face_down"] == len(DUEL_DIALS_EMPIRE["victory"])
    assert victory.details["dials_revealed"] is None


def test_read_model_json_round_trip(armada: ArmadaRuleset) -> None:
    """The read model with shapes, features and overlays survives JSON."""
    v = armada.read_model(Game(bundled("core_learning")).state)
    assert GameView.model_validate(json.loads(v.model_dump_json())) == v


def test_overlays_show_the_last_attack_and_the_last_maneuver(armada: ArmadaRuleset) -> None:
    """SWA-ATK 1 / SWA-RNG / SWA-2.3: nothing is drawn before anything happens; while an
    attack is declared (and until the next maneuver or turn) its line of sight, labelled
    with the range band, and the attacking zone's arc out to that band are drawn; after a
    maneuver, the tool's path from where the ship started."""
    game = Game(_close())
    assert view.overlays(game.state) == []
    _dials(game)
    game.reveal("victory")
    game.do("empire", _attack("victory", "cr90", "front", "front"))
    kinds = {o.kind: o for o in armada.read_model(game.state).overlays}
    assert set(kinds) == {"line_of_sight", "range"}
    sight = kinds["line_of_sight"]
    assert sight.units == ["victory", "cr90"] and sight.label.startswith("close")
    start = game.state.placed("victory").targeting_point("front")
    assert sight.points[0] == (round(start[0], 1), round(start[1], 1))
    _finish_attack(game)
    assert {o.kind for o in view.overlays(game.state)} == {"line_of_sight", "range"}
    before = game.state.ships["victory"].pose
    start = game.state
    events = game.maneuver("victory")
    moved = start
    for event in events:  # the state at the maneuver's own event (issue 21 item 6: the next
        moved = armada.evolve(moved, event)  # side's turn clears it)
        if type(event).__name__ == "ShipManeuvered":
            break
    paths = view.overlays(moved)
    assert [o.kind for o in paths] == ["path"] and paths[0].units == ["victory"]
    first = paths[0].points[0]
    assert abs(first[1] - before.y) < 80  # the tool starts at the ship's old position


def test_overlay_builders(armada: ArmadaRuleset) -> None:
    """The builders the hook will use: a line of sight between targeting points labelled with
    the band (SWA-ATK 1), a range band as an outline inside the arc (SWA-RNG), a maneuver's
    path along the tool's centreline (SWA-2.3); speed 0 draws no path."""
    game = Game(duel())
    state = game.state
    victory, cr90 = state.placed("victory"), state.placed("cr90")
    sight = ship_to_ship(victory, "front", cr90, "rear")
    los = sight_overlay(sight, "victory", "cr90", band="long")
    assert los.kind == "line_of_sight" and los.units == ["victory", "cr90"] and not los.closed
    assert los.points[0] == tuple(round(c, 1) for c in victory.targeting_point("front"))
    assert los.label.startswith("long")

    close = state.data.geometry.range_bands.close
    band = range_overlay(victory, "front", close, "close", "victory")
    area = Polygon(band.points)
    assert band.closed and band.kind == "range" and area.is_valid
    assert area.buffer(0.1).covers(victory.zones["front"].intersection(victory.arcs["front"]))
    assert area.within(victory.arcs["front"].buffer(0.1))
    assert victory.zones["front"].buffer(close + 0.1).covers(area)

    card = state.card("victory")
    base = state.data.geometry.base_sizes[card.size]
    tool = state.data.geometry.maneuver_tool
    move = execute(state.ships["victory"].pose, base, tool, [0, 1], "right")
    path = path_overlay(move, "victory")
    assert path is not None and path.kind == "path" and path.label == "speed 2 (+0 +1)"
    assert LineString(path.points).hausdorff_distance(move.centreline) < 0.1
    assert path_overlay(execute(state.ships["victory"].pose, base, tool, [], "right"), "v") is None


def test_an_overlay_lives_for_its_own_activation_only() -> None:
    """Issue 21 item 6 (SWA-2.3, SWA-ATK 1): a maneuver's path or an attack's line is drawn
    until the next side's turn or phase begins; in the learning game nebulon's path from event
    51 was still drawn at event 89, across the status and command phases. Over every event of
    every bundled Armada game: nothing is drawn in the status or command phase, nor as a turn
    begins; and a maneuver or an attack is drawn at its own event."""
    from pathlib import Path

    from domain.engine import apply_fact, new_game
    from domain.record import read_record_file

    drawn_at_own_event = 0
    for path in sorted(Path("fixtures/games/armada").glob("*.wake.json")):
        record = read_record_file(path)
        state = new_game(record.header)
        for fact in record.events:
            state = apply_fact(state, fact, check=False)
            rules = state.rules
            shown = view.overlays(rules)
            name = fact.topic.split(".")[-1].split("/")[0]
            if rules.phase in ("status", "command") or name in ("TurnBegan", "PhaseBegan"):
                assert shown == [], (path.name, fact.seq, name, [o.kind for o in shown])
            if name in ("ShipManeuvered", "AttackDeclared") and shown:
                drawn_at_own_event += 1
    assert drawn_at_own_event > 0
