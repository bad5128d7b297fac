"""Iron & Oak data layer: bundled cards, tables and scenarios (IO-1.0.1.1, IO-3.5.1, IO-5, IO-6).

Values the seed gives are pinned here; everything else is provisional (IO-GAPS) and only its
shape is checked.
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from domain.errors import ScenarioError
from domain.rulesets.iron_oak.basics import CRITICAL_NAMES
from domain.rulesets.iron_oak.data import (
    BUNDLED_SCENARIOS,
    bundled_cards,
    bundled_forts,
    bundled_scenario,
    bundled_ships,
    bundled_tables,
    load_cards,
    load_scenario,
    load_ships,
    load_tables,
    read_json,
    resolve_data,
)
from domain.rulesets.iron_oak.ship_cards import GunSection, ShipCard


def raw(name: str) -> Any:
    """A bundled data file as plain JSON, for building bad variants."""
    path = resources.files("domain.rulesets.iron_oak").joinpath(f"data/{name}")
    return json.loads(path.read_text("utf-8"))


def expect_error(fn: Any, data: Any, *fragments: str) -> str:
    with pytest.raises(ScenarioError) as info:
        fn(data)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    return message


# --------------------------------------------------------------------------- loading, labels


def test_bundled_files_load_and_are_marked_provisional() -> None:
    """IO-GAPS 13/14/2-12: every bundled file says it holds placeholders for the user's values."""
    files = [bundled_ships(), bundled_forts(), bundled_cards(), bundled_tables()]
    files += [bundled_scenario(sid) for sid in BUNDLED_SCENARIOS]
    for data in files:
        assert data.provisional is True
        assert "own copy of the game" in data.provisional_note
    assert len(bundled_ships().ships) >= 6
    assert len(bundled_forts().forts) == 2
    assert all(len(f.sections) == 2 for f in bundled_forts().forts)
    assert len(bundled_cards().cards) >= 10


def test_every_card_lists_its_invented_fields() -> None:
    """IO-GAPS 13/14: each ship, fort and action card names its provisional fields."""
    for ship in bundled_ships().ships:
        assert {"vp", "movement", "crew", "hit_value", "locations", "guns"} <= set(ship.provisional)
    for fort in bundled_forts().forts:
        assert fort.provisional
    for card in bundled_cards().cards:
        assert "effect" in card.provisional


def test_seed_values_are_not_labelled_provisional() -> None:
    """The tables file marks only IO-GAPS fields as provisional, never the seed's dice."""
    labels = bundled_tables().provisional_fields
    for seed_part in ("hazard", "repair", "ram_spar", "crew_loss", "fire.start"):
        assert not any(seed_part == p or p.startswith(seed_part + ".") for p in labels), seed_part
    for seed_mod in ("captain", "repair_party", "crew_light_movement", "elite_repair"):
        assert f"modifiers.{seed_mod}" not in labels
    assert "critical_table.dice" not in labels  # the seed says 2d6 (IO-6.2)


def test_dice_text_is_canonical() -> None:
    """IO-1.6.1: d10d4 keeps the highest; d10+d8 adds (IO-1.6.1.C); text is normalised."""
    section = GunSection(name="x", dice="D10 + d8")
    assert section.dice == "d10+d8"
    assert GunSection(name="y", dice="d10d4").dice == "d10d4"


# --------------------------------------------------------------------------- seed values


def test_shallows_dice_match_seed() -> None:
    """IO-5.4.1: draft over depth by 1/2/3+ rolls d10/d8/d6 against d10d6."""
    shallows = bundled_tables().hazard.shallows
    assert [shallows.dice_for(n) for n in (1, 2, 3, 5)] == ["d10", "d8", "d6", "d6"]
    assert shallows.against == "d10d6"
    with pytest.raises(ValueError):
        shallows.dice_for(0)


def test_hulk_and_mine_dice_match_seed() -> None:
    """IO-5.4.2 hulk d10d4 (−2 heavy obstruction, −1 per extra hulk) vs d10; IO-5.4.3 mine."""
    hazard = bundled_tables().hazard
    assert (hazard.hulk.roll, hazard.hulk.against) == ("d10d4", "d10")
    assert (hazard.hulk.heavy_obstruction, hazard.hulk.per_extra_hulk) == (-2, -1)
    assert (hazard.mine.roll, hazard.mine.against) == ("d10d6", "d10")


def test_repair_values_match_seed() -> None:
    """IO-3.1.1: repair d10d4 vs d10, elite +1, green −1, repair party gunnery −2."""
    tables = bundled_tables()
    assert (tables.repair.roll, tables.repair.against) == ("d10d4", "d10")
    mods = tables.modifiers
    assert (mods.elite_repair, mods.green_repair, mods.repair_party) == (1, -1, -2)


def test_named_seed_modifiers() -> None:
    """IO-6.2.3G crew −2; IO-6.3.3 captain −1; IO-5.5 T −1; IO-5.1.3 opposed −1; IO-5.5.1;
    IO-6.2.3F heavy damage draft +1."""
    mods = bundled_tables().modifiers
    assert mods.crew_light_movement == -2
    assert mods.captain == -1
    assert (mods.crossing_t, mods.opposed) == (-1, -1)
    assert (mods.bow_on_ram_spar, mods.bow_on_other_maneuver) == (1, -1)
    assert mods.heavy_damage_draft == 1


def test_fire_start_matches_seed() -> None:
    """IO-6.3.9: Fire critical d10: 1–4 level 2, 5–8 level 3, 9–10 level 4."""
    fire = bundled_tables().fire
    assert [fire.start_level(face) for face in range(1, 11)] == [2] * 4 + [3] * 4 + [4] * 2
    assert set(fire.levels) == {2, 3, 4, 5}  # IO-3.1.2 levels 2..5


def test_crew_loss_bands_match_seed() -> None:
    """IO-6.3.2 boiler: d8 (>10), d6 (9–10), d4 (≤8).
    IO-6.3.5 crew: d8 (>10), d6 (8–10), d4 (≤7)."""
    loss = bundled_tables().crew_loss
    assert [loss.dice_for("boiler", c) for c in (1, 8, 9, 10, 11, 20)] == [
        "d4",
        "d4",
        "d6",
        "d6",
        "d8",
        "d8",
    ]
    assert [loss.dice_for("crew", c) for c in (1, 7, 8, 10, 11)] == ["d4", "d4", "d6", "d6", "d8"]


def test_ram_spar_dice_match_seed() -> None:
    """IO-5.6.1 immobile target d10 −5; IO-5.6.2 spar d10d8 vs d4; IO-5.6.3 ram check d10d8 vs
    d8; IO-5.6.4 fouling d10d8 vs d8 (ram) / d6 (spar only)."""
    rs = bundled_tables().ram_spar
    assert (rs.immobile_target_contact, rs.immobile_target_modifier) == ("d10", -5)
    assert (rs.spar.roll, rs.spar.against) == ("d10d8", "d4")
    assert (rs.ram_check.roll, rs.ram_check.against) == ("d10d8", "d8")
    assert (rs.fouling_after_ram.roll, rs.fouling_after_ram.against) == ("d10d8", "d8")
    assert (rs.fouling_spar_only.roll, rs.fouling_spar_only.against) == ("d10d8", "d6")


def test_damage_chart_matches_seed() -> None:
    """IO-6.2: the seed's chart, band by band, as condition rows then a last line: CR ≤ DR no
    effect; DR < CR < 2·DR: no shield damage no effect, damaged wood or armour (−2 or worse) 1
    hit, shield −1; 2·DR ≤ CR < 3·DR: damaged wood or armour 2 hits, shield −2 and 2 hits. WL
    adds 1 hit; shields stop at −4 (IO-6.2.1)."""
    chart = bundled_tables().damage_chart
    rows = {
        band: [(r.when, r.hits) for r in getattr(chart, band).rows]
        for band in ("no_effect", "over", "double")
    }
    assert rows == {
        "no_effect": [],
        "over": [("no_shield_damage", 0), ("wood_damaged", 1), ("armour_damaged", 1)],
        "double": [("wood_damaged", 2), ("armour_damaged", 2)],
    }
    lines = [getattr(chart, b).last_line for b in ("no_effect", "over", "double")]
    assert [(line.shield_step, line.hits) for line in lines] == [(0, 0), (-1, 0), (-2, 2)]
    assert (chart.armour_damaged_at, chart.shield_floor, chart.wl_extra_hit) == (-2, -4, 1)


@pytest.mark.parametrize(
    ("cr", "dr", "band"),
    [
        (4, 4, "no_effect"),
        (3, 4, "no_effect"),
        (5, 4, "over"),
        (7, 4, "over"),
        (8, 4, "double"),
        (11, 4, "double"),
        (12, 4, "critical"),
        (3, 0, "critical"),  # DR floors at 1 (IO-6.2)
    ],
)
def test_damage_chart_bands(cr: int, dr: int, band: str) -> None:
    """IO-6.2: CR ≤ DR, DR < CR < 2·DR, 2·DR ≤ CR < 3·DR, CR ≥ 3·DR."""
    assert bundled_tables().damage_chart.band(cr, dr) == band


def test_smoke_trigger_matches_seed() -> None:
    """IO-6.2.3C: an unmodified gun die of 8–10 places Light Smoke."""
    assert bundled_tables().smoke.trigger_min == 8


# --------------------------------------------------------------------------- ship cards


def test_damage_thresholds_come_from_movement_chart() -> None:
    """IO-3.5.1: light damage at the 2nd Movement Chart row, heavy at the 3rd."""
    virginia = bundled_ships().get("virginia")
    assert (virginia.light_damage_at, virginia.heavy_damage_at) == (6, 12)
    for ship in bundled_ships().ships:
        rows = ship.movement
        assert ship.movement_dice(0) == rows[0].dice
        assert ship.movement_dice(ship.light_damage_at - 1) == rows[0].dice
        assert ship.movement_dice(ship.light_damage_at) == rows[1].dice
        assert ship.movement_dice(ship.heavy_damage_at - 1) == rows[1].dice
        assert ship.movement_dice(ship.heavy_damage_at) == rows[2].dice
        assert ship.movement_dice(ship.hit_value + 5) == rows[2].dice
        assert ship.hit_value > ship.heavy_damage_at  # IO-6.2.3J sinks later
    with pytest.raises(ValueError):
        virginia.movement_dice(-1)


def test_hit_locations_cover_d8_once() -> None:
    """IO-6.2: the yellow d8 picks exactly one location for each face 1..8."""
    for ship in bundled_ships().ships:
        faces = sorted(f for loc in ship.locations for f in loc.faces)
        assert faces == list(range(1, 9)), ship.id
        for face in range(1, 9):
            assert face in ship.location_for(face).faces
        with pytest.raises(ValueError):
            ship.location_for(9)
        if any(loc.plunging for loc in ship.locations):  # IO-6.2.2: * becomes D
            assert ship.location("D") is not None


def test_monitors_and_wooden_ships() -> None:
    """IO-1.0.1.1 H, IO-6.2.2: monitors have turret locations; wooden ships have no armour."""
    ships = bundled_ships()
    for ship in ships.ships:
        codes = {loc.code for loc in ship.locations}
        if "monitor" in ship.icons:
            assert {"TF", "TR", "TS"} <= codes, ship.id
        else:
            assert not codes & {"TF", "TR", "TS"}, ship.id
    for wooden in ("cumberland", "hartford"):
        assert not any(loc.armoured for loc in ships.get(wooden).locations)
    assert all(loc.armoured for loc in ships.get("virginia").locations)


def test_limited_guns() -> None:
    """IO-6.2.3A: a section whose highest die is a d4 or d6 is limited."""
    assert GunSection(name="a", dice="d6").limited
    assert GunSection(name="b", dice="d6d4").limited
    assert GunSection(name="c", dice="d4").limited
    assert not GunSection(name="d", dice="d8d4").limited
    assert not GunSection(name="e", dice="d10d6").limited
    ships = bundled_ships()
    limited = {(s.id, g.name) for s in ships.ships for g in s.guns if g.limited}
    assert ("cumberland", "Spar deck") in limited
    assert ("hartford", "Howitzers") in limited
    assert not any(g.limited for g in ships.get("virginia").guns)


def test_only_spuyten_duyvil_style_cards_reattack() -> None:
    """IO-1.0.1.1 J: re-attack needs a spar torpedo; none of the bundled ships re-attack."""
    assert not any(s.spar_reattack for s in bundled_ships().ships)
    assert bundled_ships().get("atlanta").spar == "d10d8"
    data = raw("ships.json")["ships"][0] | {"spar_reattack": True}
    with pytest.raises(ValueError, match="spar_reattack"):
        ShipCard.model_validate(data)


# --------------------------------------------------------------------------- tables


def test_critical_table_covers_every_2d6_total() -> None:
    """IO-6.3: every column maps 2..12 to a critical named in IO-6.3.1–6.3.17."""
    table = bundled_tables().critical_table
    assert table.dice == "2d6"
    for column in ("ship", "wl_bow_on", "wl_stern_on", "wl_other"):
        mapping = getattr(table, column)
        assert sorted(mapping) == list(range(2, 13)), column
        assert set(mapping.values()) <= CRITICAL_NAMES
    assert table.column_for("WL", "bow_on") == "wl_bow_on"
    assert table.column_for("WL", None) == "wl_other"
    assert table.column_for("A", "stern_on") == "ship"


def test_other_tables_are_complete() -> None:
    """IO-5.2 drift d10, IO-5.3 tow, IO-5.4.3/5.6.2 torpedo d8, IO-6.2.4 night, IO-3.1.2 fire."""
    tables = bundled_tables()
    assert {tables.drift.effect(f) for f in range(1, 11)} <= {"stay", "drift_1", "drift_2"}
    assert [tables.tow.modifier(d) for d in (-50, 0, 50)] == [-3, -1, 0]
    for column in ("mine", "spar_torp", "ship_spar"):
        assert sorted(getattr(tables.torpedo, column)) == list(range(1, 9))
    assert tables.night_gunnery.long == "N/A"
    for level in tables.fire.levels.values():
        faces = sorted(f for row in level.change for f in range(row.low, row.high + 1))
        assert faces == list(range(1, 11))
    assert tables.initial_hand >= 1


def test_action_deck_has_misfire_and_strike() -> None:
    """IO-3.3.2D Misfire is a gunnery card played by the opponent; IO-6.2.3I Strike!."""
    deck = bundled_cards()
    misfire = deck.get("misfire")
    assert (misfire.kind, misfire.window) == ("gunnery", "opponent")
    assert deck.get("strike").name == "Strike!"
    assert deck.size == sum(c.count for c in deck.cards)
    assert {c.kind for c in deck.cards} == {"movement", "gunnery"}  # IO-1.3.2


# --------------------------------------------------------------------------- user files


def test_users_ships_file_replaces_bundled_whole() -> None:
    """A user's ships file replaces the bundled one: bundled cards are then unknown."""
    own = raw("ships.json")
    own["provisional"] = False
    own["provisional_note"] = ""
    own["ships"] = [own["ships"][1] | {"id": "passaic", "name": "USS Passaic", "provisional": []}]
    data = resolve_data(ships=own)
    assert data.ships.ids == {"passaic"}
    assert not data.ships.provisional
    assert data.tables is bundled_tables()  # other parts stay bundled
    expect_error(
        lambda d: load_scenario(d, data),
        raw("scenarios/hampton_roads.json"),
        "ships[virginia].card",
        "unknown ship card 'virginia'",
    )


def test_bad_dice_text_is_named() -> None:
    """IO-1.6.1: dice text must parse; the error names the ship, field and expression."""
    data = raw("ships.json")
    data["ships"][0]["guns"][1]["dice"] = "d10x6"
    expect_error(
        load_ships, data, "ships file", "ships[virginia].guns[1].dice", "bad dice expression"
    )


def test_locations_missing_a_face_are_refused() -> None:
    """IO-6.2: hit locations covering d8 faces 1..7 only are refused, naming face 8."""
    data = raw("ships.json")
    monitor = data["ships"][1]
    monitor["locations"] = [loc for loc in monitor["locations"] if loc["faces"] != [8]]
    expect_error(load_ships, data, "ships[monitor]", "1..8", "missing 8")


def test_doubled_location_face_is_refused() -> None:
    """IO-6.2: a d8 face may pick only one location."""
    data = raw("ships.json")
    data["ships"][0]["locations"][0]["faces"] = [1, 2]
    expect_error(load_ships, data, "ships[virginia]", "repeated 2")


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"crew": {"light": 9, "heavy": 5, "full": 13}}, "light < heavy < full"),
        (
            {"movement": [{"hits_from": 0, "dice": "d8"}, {"hits_from": 6, "dice": "d6"}]},
            "exactly 3 rows",
        ),
        ({"hit_value": 12}, "hit_value 12"),
        ({"provisional": ["speed"]}, "unknown field"),
        ({"side": "UK"}, "ships[virginia].side"),
    ],
)
def test_bad_ship_cards_are_refused(change: dict[str, Any], fragment: str) -> None:
    """IO-1.0.1.1 D/E and IO-3.5.1: crew order, three movement rows, hit value, labels, side."""
    data = raw("ships.json")
    data["ships"][0].update(change)
    expect_error(load_ships, data, fragment)


def test_missing_2d6_total_is_refused() -> None:
    """IO-6.3: a critical column without the total 7 is refused, naming column and total."""
    data = raw("tables.json")
    del data["critical_table"]["wl_other"]["7"]
    expect_error(load_tables, data, "tables file", "critical_table.wl_other", "missing 7")


def test_bad_critical_name_and_torpedo_face_are_refused() -> None:
    """IO-6.3 names only; IO-5.4.3 torpedo column needs all d8 faces."""
    data = raw("tables.json")
    data["critical_table"]["ship"]["7"] = "kraken"
    expect_error(load_tables, data, "critical_table.ship.7")
    data = raw("tables.json")
    del data["torpedo"]["mine"]["8"]
    expect_error(load_tables, data, "torpedo.mine d8 faces", "missing 8")


def test_provisional_labels_must_name_fields() -> None:
    """Labels cannot rot: provisional_fields must name table fields; a note is required."""
    data = raw("tables.json")
    data["provisional_fields"] = ["tow", "grog_ration"]
    expect_error(load_tables, data, "grog_ration")
    data = raw("tables.json")
    data["provisional_note"] = ""
    expect_error(load_tables, data, "provisional_note")


def test_deck_without_misfire_is_refused() -> None:
    """IO-3.3.2D: the deck needs a Misfire card (gunnery, opponent's window)."""
    data = raw("action_cards.json")
    data["cards"] = [c for c in data["cards"] if c["id"] != "misfire"]
    expect_error(load_cards, data, "misfire")
    data = raw("action_cards.json")
    data["cards"] = [c for c in data["cards"] if c["id"] != "strike"]
    expect_error(load_cards, data, "strike")


def test_non_object_and_unreadable_files(tmp_path: Path) -> None:
    """A user's file that is not a JSON object, or not JSON at all, is a ScenarioError."""
    expect_error(load_ships, [], "expected a JSON object")
    bad = tmp_path / "ships.json"
    bad.write_text("{not json", "utf-8")
    expect_error(read_json, bad, "ships.json")
    good = tmp_path / "tables.json"
    good.write_text(json.dumps(raw("tables.json")), "utf-8")
    assert load_tables(read_json(good)) == bundled_tables()


# --------------------------------------------------------------------------- scenarios


def test_bundled_scenarios_validate() -> None:
    """IO-1.1, IO-GAPS 15: the three bundled scenarios validate on the 5×5 grid."""
    scenarios = [bundled_scenario(sid) for sid in BUNDLED_SCENARIOS]
    for scenario in scenarios:
        assert (scenario.grid.columns, scenario.grid.rows) == (5, 5)
        assert "approximat" in scenario.description
        assert {s.side for s in scenario.ships} == {"CSA", "USA"}
    with_forts = [s for s in scenarios if s.forts]
    assert with_forts and any("mine" in box.markers for s in with_forts for box in s.boxes), (
        "one scenario has forts and mines"
    )
    assert any(s.night for s in scenarios)
    assert any(not s.night and not s.forts for s in scenarios)
    with pytest.raises(ScenarioError):
        bundled_scenario("trents_reach")


def test_scenario_details() -> None:
    """IO-0: Virginia starts with a Smokestack critical; default boxes use the default depth."""
    hampton = bundled_scenario("hampton_roads")
    virginia = next(s for s in hampton.ships if s.id == "virginia")
    assert virginia.criticals == ["smokestack"] and virginia.at == "offmap:S"
    assert hampton.box((2, 2)).depth == hampton.default_depth
    assert hampton.box((0, 4)).bank
    gauntlet = bundled_scenario("mobile_bay_gauntlet")
    assert gauntlet.box((1, 2)).markers == ["mine", "mine"]
    current = gauntlet.box((2, 2)).current
    assert current is not None and current.direction == "N"


def test_unknown_ship_in_scenario_is_refused() -> None:
    """IO-GAPS 15: scenario ships must name a ship card in the card set in use."""
    data = raw("scenarios/mobile_bay_gauntlet.json")
    data["ships"][0]["card"] = "arkansas"
    expect_error(load_scenario, data, "ships[tennessee].card", "'arkansas'")
    data = raw("scenarios/mobile_bay_gauntlet.json")
    data["forts"][0]["card"] = "fort_sumter"
    expect_error(load_scenario, data, "forts[fort_morgan].card", "'fort_sumter'")


def test_fort_off_the_edge_is_refused() -> None:
    """IO-0, IO-6.1: forts sit on the map edge."""
    data = raw("scenarios/mobile_bay_gauntlet.json")
    data["forts"][0]["cell"] = [2, 2]
    expect_error(
        load_scenario, data, "mobile_bay_gauntlet", "forts[fort_morgan].cell", "E map edge"
    )


@pytest.mark.parametrize(
    ("mutate", "fragment"),
    [
        (lambda d: d["ships"][0].update(at=[7, 2]), "outside the 5×5 grid"),
        (lambda d: d["ships"][0].update(at="offmap:Q"), "ships[tennessee].at"),
        (lambda d: d["ships"][0].update(side="USA"), "ships[tennessee].side"),
        (lambda d: d["boxes"].append(copy.deepcopy(d["boxes"][0])), "listed twice"),
        (lambda d: d["ships"][1].update(id="tennessee"), "used twice"),
        (lambda d: d["ships"][0].update(at=[4, 4]), "is a bank"),
        (lambda d: d["victory"]["exit_vp"].update(farragut=3), "exit_vp"),
        (lambda d: d["ships"][0].update(criticals=["scurvy"]), "criticals"),
        (lambda d: d["boxes"][0].update(markers=["kraken"]), "markers"),
    ],
)
def test_bad_scenarios_are_refused(mutate: Any, fragment: str) -> None:
    """IO-GAPS 15: cells in the grid, sides match cards, unique ids, valid markers."""
    data = raw("scenarios/mobile_bay_gauntlet.json")
    mutate(data)
    expect_error(load_scenario, data, fragment)


def test_movement_opposition_has_no_t_or_ram_entry_io_5_5_io_5_6_1() -> None:
    """IO-5.5 「両艦は移動ダイスを振る」 and IO-5.6.1 「両艦はそれぞれのマヌーバーダイスを使う」:
    for Crossing the T and ram/spar contact both ships roll their own Movement Chart dice, so
    the Movement Opposition table has no entry for them. The ``cross_t`` and ``ram`` entries
    of 1.0's tables (embedded in the headers of 1.0 games) still load, and are dropped."""
    assert "cross_t" not in raw("tables.json")["movement_opposition"]
    old = copy.deepcopy(raw("tables.json"))
    old["movement_opposition"].update(cross_t="d8", ram="d6")
    tables = load_tables(old)
    assert tables == bundled_tables()
    assert set(tables.model_dump()["movement_opposition"]) == {
        "maneuver_0",
        "maneuver_1",
        "maneuver_2",
        "enter",
        "exit",
    }
    legacy = Path(__file__).parent.parent / "fixtures" / "legacy" / "iron_oak-1.0"
    header = json.loads(next(legacy.glob("*.wake.json")).read_text("utf-8"))["header"]
    embedded = header["scenario"]["data"]["tables"]
    assert {"cross_t", "ram"} <= set(embedded["movement_opposition"])
    assert load_tables(embedded).movement_opposition == tables.movement_opposition
