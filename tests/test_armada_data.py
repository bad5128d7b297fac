"""Armada data files (SWA-DATA, SWA-DMG, SWA-RNG, SWA-HZ, SWA-MOV, SWA-SETUP, SWA-OVL).

Printed card values are pinned against the digest's SWA-DATA table; community measurements are
pinned to the values of their named source, and every file must say which is which.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from domain.dice import ARMADA_BLACK, ARMADA_BLUE, ARMADA_RED
from domain.errors import ScenarioError
from domain.rulesets.armada.data import (
    DicePool,
    bundled_damage_deck,
    bundled_geometry,
    bundled_json,
    bundled_obstacles,
    bundled_ships,
    bundled_squadrons,
    load_damage_deck,
    load_geometry,
    load_obstacles,
    load_ships,
    load_squadrons,
    read_json,
    resolve_data,
)


def expect_error(fn: Any, data: Any, *fragments: str) -> str:
    with pytest.raises(ScenarioError) as info:
        fn(data)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    return message


def raw(name: str) -> Any:
    return copy.deepcopy(bundled_json(name))


# --------------------------------------------------------------------------- labels


def test_every_file_says_where_its_values_come_from() -> None:
    """SWA-DATA/SWA-RNG/SWA-MOV: measured values are labelled community, with a named source."""
    files = [
        bundled_ships(),
        bundled_squadrons(),
        bundled_geometry(),
        bundled_damage_deck(),
        bundled_obstacles(),
    ]
    for data in files:
        assert data.source
        assert data.provisional_note
        assert "replace" in data.provisional_note.lower()
        if data.provisional:
            assert data.community
            assert all("AlphArmada" in where for where in data.community.values())
    assert set(bundled_ships().community) == {"hulls", "points_updated"}
    assert {"range_bands", "distance_bands", "maneuver_tool", "squadron_base_radius"} == set(
        bundled_geometry().community
    )
    assert {"play_area", "base_sizes", "ruler_length"} == set(bundled_geometry().official)
    assert bundled_obstacles().provisional
    assert "hull" in bundled_ships().official


# --------------------------------------------------------------------------- ship cards

# (hull, command/squadron/engineering, anti-squadron, front/side/rear battery, shields F/S/R,
#  defence tokens, speed chart, printed points, updated points) — the digest's SWA-DATA table
SHIPS = {
    "victory_i": (8, (3, 3, 4), "1U", ("3R3K", "2R1K", "2R"), (3, 3, 1),
                  ["brace", "redirect", "redirect"], {1: [1], 2: [0, 1]}, 73, 73),
    "victory_ii": (8, (3, 3, 4), "1U", ("3R3U", "2R1U", "2R"), (3, 3, 1),
                   ["brace", "redirect", "redirect"], {1: [1], 2: [0, 1]}, 85, 80),
    "cr90_a": (4, (1, 1, 2), "1U", ("2R1U", "1R1U", "1R"), (2, 2, 1),
               ["evade", "evade", "redirect"],
               {1: [2], 2: [1, 2], 3: [0, 1, 2], 4: [0, 1, 1, 2]}, 44, 44),
    "cr90_b": (4, (1, 1, 2), "1U", ("3U", "2U", "1U"), (2, 2, 1),
               ["evade", "evade", "redirect"],
               {1: [2], 2: [1, 2], 3: [0, 1, 2], 4: [0, 1, 1, 2]}, 39, 39),
    "nebulon_b_escort": (5, (2, 2, 3), "2U", ("3R", "1R1U", "2R"), (3, 1, 2),
                         ["evade", "brace", "brace"], {1: [1], 2: [1, 1], 3: [0, 1, 2]}, 57, 57),
    "nebulon_b_support": (5, (2, 1, 3), "1U", ("3R", "1R1U", "2R"), (3, 1, 2),
                          ["evade", "brace", "brace"], {1: [1], 2: [1, 1], 3: [0, 1, 2]}, 51, 51),
}  # fmt: skip


@pytest.mark.parametrize("ship_id", sorted(SHIPS))
def test_ship_cards_match_swa_data(ship_id: str) -> None:
    """SWA-DATA: every printed value of the six core-set ship cards."""
    hull, (cmd, sqd, eng), anti, (front, side, rear), (sf, ss, sr), tokens, chart, pts, upd = SHIPS[
        ship_id
    ]
    card = bundled_ships().get(ship_id)
    assert (card.hull, card.command, card.squadron, card.engineering) == (hull, cmd, sqd, eng)
    assert str(card.anti_squadron) == anti
    battery = card.battery
    assert (str(battery.front), str(battery.left), str(battery.right), str(battery.rear)) == (
        front,
        side,
        side,
        rear,
    )
    shields = card.shields
    assert (shields.front, shields.left, shields.right, shields.rear) == (sf, ss, ss, sr)
    assert card.defense_tokens == tokens
    assert card.speed_chart == chart
    assert (card.points_printed, card.points_updated) == (pts, upd)
    size = "medium" if ship_id.startswith("victory") else "small"
    assert card.size == size
    assert bundled_ships().hull(card.hull_geometry).size == size


def test_hull_geometry_is_alpharmada_measurement() -> None:
    """SWA-HZ: token sizes, arc-line ends and targeting points as measured by AlphArmada."""
    ships = bundled_ships()
    victory = ships.hull("victory")
    assert (victory.token.width, victory.token.length) == (58.5, 101.5)
    assert (victory.front_arc.centre, victory.front_arc.side) == (47, 20.25)
    assert (victory.rear_arc.centre, victory.rear_arc.side) == (47, 78)
    assert (victory.targeting.front, victory.targeting.rear) == (11.4, 90.5)
    assert victory.targeting.side == (19.55, 51.5)
    cr90 = ships.hull("cr90")
    assert (cr90.token.width, cr90.token.length) == (38.5, 70.25)
    assert (cr90.front_arc.centre, cr90.front_arc.side, cr90.rear_arc.centre) == (43.5, 21.5, 42.75)
    neb = ships.hull("nebulon_b")
    assert (neb.front_arc.side, neb.rear_arc.side) == (0, 70.25)


def test_squadron_cards_match_swa_data() -> None:
    """SWA-DATA: TIE Fighter (hull 3, speed 4, 3U / 1U, Swarm, 8) and X-wing (hull 5, speed 3,
    4U / 1R, Bomber + Escort, 13 printed)."""
    tie = bundled_squadrons().get("tie_fighter")
    assert (tie.hull, tie.speed, str(tie.anti_squadron), str(tie.battery)) == (3, 4, "3U", "1U")
    assert (tie.keywords, tie.points_printed, tie.points_updated) == (["swarm"], 8, 8)
    xwing = bundled_squadrons().get("x_wing")
    assert (xwing.hull, xwing.speed, str(xwing.anti_squadron), str(xwing.battery)) == (
        5,
        3,
        "4U",
        "1R",
    )
    assert sorted(xwing.keywords) == ["bomber", "escort"]
    assert (xwing.points_printed, xwing.points_updated) == (13, 12)
    assert not tie.defense_tokens and not xwing.defense_tokens


def test_dice_pools_by_range() -> None:
    """SWA-ATK 2: red at close–long, blue at close–medium, black at close only; a zone's maximum
    range follows its colours; the pool maps onto domain.dice's Armada dice."""
    front = bundled_ships().get("victory_i").battery.front  # 3R3K
    assert front.max_range == "long"
    assert str(front.at_range("close")) == "3R3K"
    assert str(front.at_range("medium")) == "3R"
    assert str(front.at_range("long")) == "3R"
    blue = DicePool(blue=2, black=1)
    assert blue.max_range == "medium"
    assert str(blue.at_range("medium")) == "2U"
    assert blue.at_range("long").total == 0
    assert DicePool(black=2).max_range == "close"
    assert DicePool().max_range is None
    assert DicePool(red=1, blue=1, black=1).dice() == (ARMADA_RED, ARMADA_BLUE, ARMADA_BLACK)


# --------------------------------------------------------------------------- damage deck


def test_damage_deck_has_52_cards_with_swa_dmg_counts() -> None:
    """SWA-DMG: 52 cards; Structural Damage ×8, Injured Crew ×4, twenty others ×2; traits."""
    deck = bundled_damage_deck()
    assert deck.size == 52
    assert len(deck.card_ids()) == 52
    counts = {card.name: card.count for card in deck.cards}
    assert counts.pop("Structural Damage") == 8
    assert counts.pop("Injured Crew") == 4
    assert sorted(counts) == [
        "Blinded Gunners",
        "Capacitor Failure",
        "Comm Noise",
        "Compartment Fire",
        "Coolant Discharge",
        "Crew Panic",
        "Damaged Controls",
        "Damaged Munitions",
        "Depowered Armament",
        "Disengaged Fire Control",
        "Faulty Countermeasures",
        "Life Support Failure",
        "Point-Defense Failure",
        "Power Failure",
        "Projector Misaligned",
        "Ruptured Engine",
        "Shield Failure",
        "Targeter Disruption",
        "Thrust-Control Malfunction",
        "Thruster Fissure",
    ]
    assert set(counts.values()) == {2}
    crew = sorted(c.name for c in deck.cards if c.trait == "crew")
    assert crew == [
        "Blinded Gunners",
        "Comm Noise",
        "Compartment Fire",
        "Crew Panic",
        "Damaged Controls",
        "Injured Crew",
        "Life Support Failure",
    ]
    assert len({c.effect for c in deck.cards}) == len(deck.cards) == 22
    assert deck.get("blinded_gunners").effect == "no_accuracy_spending"
    flipping = sorted(c.id for c in deck.cards if c.flips_facedown)
    assert flipping == [
        "comm_noise",
        "injured_crew",
        "projector_misaligned",
        "shield_failure",
        "structural_damage",
    ]
    assert all(c.timing == "when_dealt" for c in deck.cards if c.flips_facedown)


# --------------------------------------------------------------------------- geometry, obstacles


def test_geometry_table_values() -> None:
    """SWA-SETUP 3'×3'; SWA-HZ base sizes; SWA-RNG ruler and AlphArmada's band edges; SWA-MOV
    AlphArmada's tool (46.13 / 22.27 / 15.25 mm, 22.5° a click)."""
    geo = bundled_geometry()
    assert (geo.play_area.width, geo.play_area.height) == (914.4, 914.4)
    board = geo.board()
    assert (board.width, board.height, board.unit) == (914.4, 914.4, "mm")
    sizes = {k: (v.width, v.length) for k, v in geo.base_sizes.items()}
    assert sizes == {"small": (43, 71), "medium": (63, 102), "large": (77.5, 129)}
    assert geo.ruler_length == 304.8
    bands = geo.range_bands
    assert (bands.close, bands.medium, bands.long) == (123.3, 186.5, 304.8)
    assert geo.distance_bands == [76.5, 124.5, 185.5, 245.5, 304.8]
    assert geo.squadron_base_radius == 17
    tool = geo.maneuver_tool
    assert (tool.first_segment, tool.part_segment, tool.width) == (46.13, 22.27, 15.25)
    assert (tool.click_degrees, tool.joints) == (22.5, 4)


def test_obstacles_are_the_core_set_mix() -> None:
    """SWA-OVL / RRG Setup: three asteroid fields, two debris fields, one station."""
    kinds = sorted(o.kind for o in bundled_obstacles().obstacles)
    assert kinds == ["asteroid"] * 3 + ["debris"] * 2 + ["station"]
    station = bundled_obstacles().get("station")
    assert station.outline[0] == (-27, -41)  # AlphArmada (23, 9) re-centred by (50, 50)


# --------------------------------------------------------------------------- bad files


def test_bad_ship_value_names_the_field() -> None:
    """A bad file is refused with a message naming the file and the field."""
    data = raw("ships.json")
    data["ships"][2]["hull"] = 0
    expect_error(load_ships, data, "invalid Armada ships file", "ships[cr90_a].hull")


def test_bad_speed_chart_is_refused() -> None:
    """SWA-2.3a: a speed has one yaw value per joint, each 0..2 ("–", "I", "II")."""
    data = raw("ships.json")
    data["ships"][2]["speed_chart"]["3"] = [0, 1]
    expect_error(load_ships, data, "ships[cr90_a].speed_chart", "speed 3 has 3 joint(s), got 2")
    data = raw("ships.json")
    data["ships"][0]["speed_chart"]["2"] = [0, 3]
    expect_error(load_ships, data, "ships[victory_i].speed_chart", "yaw values run 0..2")
    data = raw("ships.json")
    del data["ships"][0]["speed_chart"]["1"]
    expect_error(load_ships, data, "speeds must run 1, 2, ... without gaps")


def test_bad_references_and_geometry_are_refused() -> None:
    """SWA-HZ: a ship names a known hull of its size; arc lines lie on the token."""
    data = raw("ships.json")
    data["ships"][0]["hull_geometry"] = "isd"
    expect_error(load_ships, data, "ships[victory_i].hull_geometry: unknown hull 'isd'")
    data = raw("ships.json")
    data["ships"][0]["size"] = "large"
    expect_error(load_ships, data, "ships[victory_i].size: large but hull 'victory' is medium")
    data = raw("ships.json")
    data["hulls"][1]["front_arc"]["side"] = 50
    expect_error(load_ships, data, "hulls[cr90]", "front lines must open forward")
    data = raw("ships.json")
    data["hulls"][1]["targeting"]["rear"] = 80
    expect_error(load_ships, data, "hulls[cr90]", "targeting.rear: 80.0 mm lies behind the token")
    data = raw("ships.json")
    data["hulls"][0]["token"] = {"width": 70, "length": 101.5}
    expect_error(lambda d: resolve_data(ships=d), data, "ships.hulls[victory].token", "medium base")


def test_labels_are_checked() -> None:
    """A provisional file needs a note and named sources; labels must name real fields."""
    data = raw("geometry.json")
    data["provisional_note"] = ""
    expect_error(load_geometry, data, "provisional_note: a provisional file needs")
    data = raw("geometry.json")
    data["community"] = {}
    expect_error(load_geometry, data, "community:")
    data = raw("squadrons.json")
    data["official"].append("wingspan")
    expect_error(load_squadrons, data, "official: ['wingspan'] name no field")
    data = raw("geometry.json")
    data["official"].append("range_bands")
    expect_error(load_geometry, data, "cannot be both printed and measured")


def test_other_bad_files() -> None:
    """Each loader refuses its own kind of mistake with a clear message."""
    data = raw("geometry.json")
    data["distance_bands"] = [76.5, 70, 185.5, 245.5, 304.8]
    expect_error(load_geometry, data, "distance_bands must be positive and increase")
    data = raw("geometry.json")
    data["range_bands"]["long"] = 400
    expect_error(load_geometry, data, "range_bands.long: 400.0 lies beyond the ruler")
    data = raw("geometry.json")
    del data["base_sizes"]["large"]
    expect_error(load_geometry, data, "base_sizes: missing size class(es) ['large']")
    data = raw("damage_deck.json")
    data["cards"][1]["effect"] = "extra_facedown_damage"
    expect_error(load_damage_deck, data, "effect key(s) ['extra_facedown_damage']")
    data = raw("damage_deck.json")
    data["cards"][0]["trait"] = "droid"
    expect_error(load_damage_deck, data, "cards[structural_damage].trait")
    data = raw("obstacles.json")
    data["obstacles"][0]["outline"] = [[0, 0], [10, 10], [10, 0], [0, 10]]
    expect_error(load_obstacles, data, "obstacles[station].outline", "not a simple polygon")
    data = raw("squadrons.json")
    data["squadrons"][1]["keywords"] = ["bomber", "cloaked"]
    expect_error(load_squadrons, data, "squadrons[x_wing].keywords[1]")
    expect_error(load_ships, [], "expected a JSON object")


def test_read_json_reports_unreadable_files(tmp_path: Any) -> None:
    bad = tmp_path / "ships.json"
    bad.write_text("{not json", "utf-8")
    expect_error(read_json, bad, "cannot read Armada data file")
    assert load_ships(read_json(_write(tmp_path, raw("ships.json")))).ships


def _write(tmp_path: Any, data: Any) -> Any:
    import json

    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data), "utf-8")
    return path
