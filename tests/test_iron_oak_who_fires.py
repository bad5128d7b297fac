"""Iron & Oak IO-6.0, who fires:
「手番側の艦艇と要塞の各セクションが、それぞれ1つの目標を射撃できる」
("the active side's ships and each section of its forts may each fire at one target"),
driven through the engine one order at a time.

The seed limits *targets*: by default (option ``who_fires=one_target``) a ship picks one target
and any of its gun sections may fire at it, each section once and each resolved as its own shot
(IO-6.2: a shot rolls 「艦の砲セクションのダイス」, one section's dice). ``one_section`` is Wake
1.0's reading (one gun section per ship); ``each_section`` lets every gun section of a ship pick
its own target.

Bundled data used (provisional): virginia (CSA) has three gun sections, a bow pivot d10 (not
when Stern-on), a broadside d10d6 and a stern pivot d10; cumberland and monitor (USA). Fort
Gaines' south face (Mobile Bay) has two guns.
"""

from __future__ import annotations

from typing import Any

from domain.engine import Session, header_for
from domain.errors import IllegalCommand
from domain.rulesets.iron_oak.commands import DeclareFire
from tests.test_iron_oak_turn import (
    GAME_ID,
    MISFIRE_HAND,
    deal,
    events,
    misfire,
    play_until,
    refused,
    scenario,
    submit,
)

FIRING = ["well_aimed", "rapid_fire", "full_steam", "engine_trouble", "damage_control"]


def game(scen: dict[str, Any] | None = None, **options: Any) -> Session:
    data = scen or scenario(at={"virginia": (2, 2), "cumberland": (1, 1), "monitor": (2, 1)})
    header = header_for("iron_oak", data, game_id=GAME_ID, seed=7, options=options)
    return Session(header)


def csa_gunnery(**options: Any) -> Session:
    """Virginia's gunnery segment: cumberland and monitor both in range, the USA holding a
    Misfire."""
    s = game(**options)
    deal(s, MISFIRE_HAND, FIRING)
    play_until(s, "gunnery", "CSA")
    return s


def shot(section: int, target: str = "cumberland", firer: str = "virginia") -> dict[str, Any]:
    return {"firer": firer, "section": section, "target": target}


def declare(*fires: dict[str, Any]) -> dict[str, Any]:
    return {"type": "declare_fire", "fires": list(fires)}


def test_io_6_0_a_ship_fires_every_gun_section_at_its_one_target() -> None:
    """IO-6.0 (default ``one_target``): Virginia fires all three gun sections at Cumberland;
    each section is its own shot, resolved in declaration order."""
    s = csa_gunnery()
    submit(s, "CSA", declare(shot(1), shot(0), shot(2)))
    new = submit(s, "USA", {"type": "respond_fire"})
    resolved = events(new, "GunneryResolved")
    assert [(p["firer"], p["section"], p["target"]) for p in resolved] == [
        ("virginia", 1, "cumberland"),
        ("virginia", 0, "cumberland"),
        ("virginia", 2, "cumberland"),
    ]
    assert len([p for p in events(new, "DiceRolled") if p["purpose"] == "gunnery"]) == 3


def test_io_6_0_one_target_refusals_append_nothing() -> None:
    """IO-6.0: one ship may not fire at two targets, nor declare one gun section twice; a
    refused declaration appends nothing."""
    s = csa_gunnery()
    two_targets = declare(shot(0), shot(1, "monitor"))
    error = refused(s, "CSA", two_targets, IllegalCommand, "IO-6.0")
    assert "one target" in str(error)
    error = refused(s, "CSA", declare(shot(1), shot(1)), IllegalCommand, "IO-6.0")
    assert "twice" in str(error)


def test_io_6_0_one_section_is_the_1_0_reading() -> None:
    """IO-6.0 with ``who_fires=one_section`` (Wake 1.0): a second gun section of the same
    ship is refused, even at the same target."""
    s = csa_gunnery(who_fires="one_section")
    refused(s, "CSA", declare(shot(0), shot(1)), IllegalCommand, "IO-6.0")
    submit(s, "CSA", declare(shot(1)))
    new = submit(s, "USA", {"type": "respond_fire"})
    assert [p["section"] for p in events(new, "GunneryResolved")] == [1]


def test_io_6_0_each_section_may_pick_its_own_target() -> None:
    """IO-6.0 with ``who_fires=each_section``: Virginia's sections fire at two targets."""
    s = csa_gunnery(who_fires="each_section")
    refused(s, "CSA", declare(shot(0), shot(0, "monitor")), IllegalCommand, "IO-6.0")
    submit(s, "CSA", declare(shot(0), shot(1, "monitor")))
    new = submit(s, "USA", {"type": "respond_fire"})
    assert [(p["section"], p["target"]) for p in events(new, "GunneryResolved")] == [
        (0, "cumberland"),
        (1, "monitor"),
    ]


def test_io_6_0_a_fort_section_fires_all_its_guns_at_one_target() -> None:
    """IO-6.0 「要塞の各セクション」: a fort section picks one target; its guns may all fire at it
    (with ``one_target``, and with ``each_section``, which frees only a ship's gun sections)."""
    at: dict[str, Any] = {"hartford": (2, 2), "tecumseh": (2, 3)}
    south = "fort_gaines.south_face"  # guns: barbette d10, field d6; both at Long range
    for who in ("one_target", "each_section"):
        s = game(scenario("mobile_bay_gauntlet", at=at), who_fires=who)
        play_until(s, "gunnery", "CSA")
        two = declare(shot(0, "hartford", south), shot(1, "tecumseh", south))
        refused(s, "CSA", two, IllegalCommand, "IO-6.0")
        submit(s, "CSA", declare(shot(0, "hartford", south), shot(1, "hartford", south)))
        new = submit(s, "USA", {"type": "respond_fire"})
        assert [(p["section"], p["target"]) for p in events(new, "GunneryResolved")] == [
            (0, "hartford"),
            (1, "hartford"),
        ]


def test_io_3_3_2_misfire_stops_one_gun_section_not_the_whole_ship() -> None:
    """IO-3.3.2 D: the one Misfire cancels one declared fire, one gun section's shot; the
    ship's other sections still fire at the target."""
    s = csa_gunnery()
    submit(s, "CSA", declare(shot(0), shot(1), shot(2)))
    new = submit(s, "USA", misfire("misfire", "virginia", 1))
    assert events(new, "FireCancelled") == [{"firer": "virginia", "section": 1}]
    assert [p["section"] for p in events(new, "GunneryResolved")] == [0, 2]


def test_io_6_0_the_bot_fires_every_section_that_bears_on_its_target() -> None:
    """IO-6.0: the bot picks one target per unit and declares every gun section that can fire
    at it; with ``one_section`` it declares one section per unit."""
    s = csa_gunnery()
    command = s.state.ruleset.bot_command(s.state.rules, "CSA")
    assert isinstance(command, DeclareFire)
    assert [(f.firer, f.section) for f in command.fires] == [
        ("virginia", 0),
        ("virginia", 1),
        ("virginia", 2),
    ]
    assert len({f.target for f in command.fires}) == 1
    submit(s, "CSA", command.model_dump(mode="json"))
    legacy = csa_gunnery(who_fires="one_section")
    command = legacy.state.ruleset.bot_command(legacy.state.rules, "CSA")
    assert isinstance(command, DeclareFire)
    assert [f.firer for f in command.fires] == ["virginia"]
