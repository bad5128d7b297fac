"""Iron & Oak 1.1 against the seed, played through the engine (issue 9): the ram's aftermath
(IO-5.6.5), "only one ship Bow-on at a time" (IO-5.5.1), the Gunfire marker at night
(IO-6.2.4), the unfoul drift check (IO-4.4), and the bars a failed T (IO-5.5) and a ram
(IO-5.6.5) leave for the next turn.

Each behaviour that 1.1 changed is also played with a game recorded as 1.0 (:func:`legacy`),
which must keep 1.0's behaviour so its records still verify.

Bundled data used (provisional, see tests/test_iron_oak_turn.py): hampton_roads — virginia (CSA,
moves d8d6 with Smokestack −2, ram d10d8; gun sections 0 Bow pivot bow 0, 1 Broadside bow "X",
2 Stern pivot bow "X"), cumberland (USA, moves d6d4), monitor (USA, moves d8d6, WL d10d6); no
current; USA plays first.
"""

from __future__ import annotations

from typing import Any

from domain.engine import Session, header_for
from domain.errors import IllegalCommand
from domain.rulesets.iron_oak.options import LEGACY_READINGS
from tests.test_iron_oak_turn import (
    GAME_ID,
    Rigged,
    events,
    orders,
    play_until,
    refused,
    reveal,
    roll_modifiers,
    scenario,
    submit,
)

TOGETHER = (2, 2)  # depth 5: no shallows for anyone


def legacy(scen: dict[str, Any], *, mode: str = "standard", seed: int = 7) -> Session:
    """A game recorded with Iron & Oak 1.0: its header names 1.0 and has no value for the
    options added since (they take ``LEGACY_READINGS["1.0"]``)."""
    header = header_for("iron_oak", scen, game_id=GAME_ID, seed=seed, options={"mode": mode})
    options = {k: v for k, v in header.options.items() if k not in LEGACY_READINGS["1.0"]}
    ruleset = header.ruleset.model_copy(update={"version": "1.0"})
    return Session(header.model_copy(update={"ruleset": ruleset, "options": options}))


def current(
    scen: dict[str, Any], *, mode: str = "standard", seed: int = 7, **options: Any
) -> Session:
    """A new game (this version), with ``options`` besides ``mode``."""
    opts = {"mode": mode, **options}
    return Session(header_for("iron_oak", scen, game_id=GAME_ID, seed=seed, options=opts))


def all_together() -> dict[str, Any]:
    return scenario(at={"virginia": TOGETHER, "cumberland": TOGETHER, "monitor": TOGETHER})


def fire(s: Session, side: str, firer: str, section: int, target: str) -> None:
    """Declare one fire and let the other side answer without a Misfire."""
    shot = {"firer": firer, "section": section, "target": target}
    submit(s, side, {"type": "declare_fire", "fires": [shot]})
    submit(s, "USA" if side == "CSA" else "CSA", {"type": "respond_fire"})


# --------------------------------------------------------------------------- helpers: orders


def cumberland_crosses_virginias_bow(s: Session) -> None:
    """USA, turn 1: cumberland crosses virginia's bow (d6d4 6 −1 against d8d6 1)."""
    play_until(s, "orders", "USA")
    submit(s, "USA", orders(s.state.rules, "USA", {"cumberland": "cross_t"}))
    submit(s, "USA", reveal(s.state.rules, "cumberland", target="virginia", kind="bow_on"))
    new = submit(s, "CSA", {"type": "respond_movement"}, Rigged(s, 6, 4, 1, 1))
    assert events(new, "CrossTAttempted")[0]["success"] is True
    assert s.state.rules.relation("virginia", "cumberland") == "bow_on"


# contact 8, 6 v 1, 1; ram 10, 8 v 1, 1 (9 hits on monitor); ram check 10, 8 v 1; no fouling
RAM_CLEAN = (8, 6, 1, 1, 10, 8, 1, 1, 10, 8, 1, 10, 8, 1)


def virginia_rams_monitor(s: Session, turn: int = 1) -> None:
    """CSA: virginia rams monitor; contact, no fouling (the aftermath applies)."""
    play_until(s, "orders", "CSA", turn=turn)
    submit(s, "CSA", orders(s.state.rules, "CSA", {"virginia": "ram"}))
    submit(s, "CSA", reveal(s.state.rules, "virginia", target="monitor", attacks=["ram"]))
    new = submit(s, "USA", {"type": "respond_movement"}, Rigged(s, *RAM_CLEAN))
    assert events(new, "RamAftermath") == [{"ship": "virginia", "target": "monitor"}]
    assert events(new, "ShipsFouled") == []


# =========================================================================== IO-5.6.5 aftermath


def test_io_5_6_5_the_rams_bow_on_leaves_the_attackers_crossed_t_alone() -> None:
    """IO-5.6.5 「目標艦についてBow-onの戦闘修正を受ける」: the attacker suffers the Bow-on
    combat modifiers against its *target*. Virginia, Bow-on to cumberland since cumberland
    crossed her bow, rams monitor: she is Bow-on to monitor for gunnery and still Bow-on to
    cumberland, so her Broadside ("X" Bow-on) can fire at neither."""
    s = current(all_together())
    cumberland_crosses_virginias_bow(s)
    virginia_rams_monitor(s)
    rules = s.state.rules
    assert rules.relation("virginia", "cumberland") == "bow_on"
    assert rules.combat_relation("virginia", "monitor") == "bow_on"
    assert rules.relation("virginia", "monitor") is None  # no crossed T between them
    play_until(s, "gunnery", "CSA")
    broadside = {"firer": "virginia", "section": 1, "target": "cumberland"}
    refused(s, "CSA", {"type": "declare_fire", "fires": [broadside]}, IllegalCommand, "IO-5.5.1")
    at_monitor = {**broadside, "target": "monitor"}
    refused(s, "CSA", {"type": "declare_fire", "fires": [at_monitor]}, IllegalCommand, "IO-5.6.5")


def test_io_5_6_5_a_1_0_game_keeps_1_0s_aftermath() -> None:
    """IO-5.6.5 in a game recorded with 1.0: the aftermath replaced the attacker's other Bow-on
    (the 1.0 behaviour its records were made with), so the Broadside fires at cumberland."""
    s = legacy(all_together())
    cumberland_crosses_virginias_bow(s)
    virginia_rams_monitor(s)
    assert s.state.rules.relation("virginia", "cumberland") is None
    assert s.state.rules.relation("virginia", "monitor") == "bow_on"
    play_until(s, "gunnery", "CSA")
    fire(s, "CSA", "virginia", 1, "cumberland")
    assert [p["firer"] for p in events(s.facts, "GunneryResolved")] == ["virginia"]


def test_io_5_6_5_the_aftermath_ends_with_the_attackers_next_gunnery_segment() -> None:
    """IO-5.6.5 「次の砲撃セグメントでは」: the Bow-on holds in the attacker's next gunnery
    segment only: gone when its Card Exchange begins, so monitor's return fire in USA's turn 2
    has no Bow-on bonus (only Point Blank, IO-6.1) and virginia's Broadside may fire at monitor
    again in turn 2."""
    s = current(scenario(at={"virginia": TOGETHER, "monitor": TOGETHER}))
    virginia_rams_monitor(s)
    play_until(s, "gunnery", "CSA")
    assert s.state.rules.combat_relation("virginia", "monitor") == "bow_on"
    play_until(s, "exchange", "CSA")
    assert s.state.rules.aftermath == ()
    assert s.state.rules.combat_relation("virginia", "monitor") is None
    play_until(s, "gunnery", "USA", turn=2)
    fire(s, "USA", "monitor", 0, "virginia")
    [shot] = events(s.facts, "GunneryResolved")
    assert shot["range"] == "point_blank"
    mods = roll_modifiers(s.facts, "gunnery", "monitor")
    assert all(rule not in ("IO-5.5.1", "IO-5.6.5") for _, rule in mods)
    play_until(s, "gunnery", "CSA", turn=2)
    fire(s, "CSA", "virginia", 1, "monitor")
    assert [p["firer"] for p in events(s.facts, "GunneryResolved")] == ["monitor", "virginia"]


# =========================================================================== IO-5.5.1 one Bow-on

# USA's ships drift (no current: they stay) so that no Maneuver 0 tries to escape the T
USA_DRIFT = {"monitor": "drift", "cumberland": "drift"}


def virginia_crosses(s: Session, target: str, turn: int) -> None:
    """CSA, ``turn``: virginia crosses ``target``'s bow (d8d6 8 −2 −1 against 1)."""
    play_until(s, "orders", "CSA", turn=turn, plan=USA_DRIFT)
    submit(s, "CSA", orders(s.state.rules, "CSA", {"virginia": "cross_t"}))
    submit(s, "CSA", reveal(s.state.rules, "virginia", target=target, kind="bow_on"))
    new = submit(s, "USA", {"type": "respond_movement"}, Rigged(s, 8, 6, 1, 1))
    assert events(new, "CrossTAttempted")[0]["success"] is True


def test_io_5_5_1_a_crossing_ship_holds_one_enemy_bow_on_at_a_time() -> None:
    """IO-5.5.1 「一度には1艦しかBow-onにできない」 ("can make only one ship Bow-on at a
    time"), the default ``bow_on_limit=crossing_ship``: virginia crosses monitor's bow, then
    cumberland's; monitor is released, cumberland is Bow-on to her."""
    s = current(all_together())
    virginia_crosses(s, "monitor", turn=1)
    assert s.state.rules.relation("monitor", "virginia") == "bow_on"
    virginia_crosses(s, "cumberland", turn=2)
    rules = s.state.rules
    assert rules.relation("cumberland", "virginia") == "bow_on"
    assert rules.relation("monitor", "virginia") is None


def test_io_5_5_1_a_ship_may_be_bow_on_to_two_crossing_ships() -> None:
    """IO-5.5.1, ``bow_on_limit=crossing_ship``: the limit is on the crossing ship, so a ship
    whose bow two enemies crossed is Bow-on to both (cumberland, then monitor, cross
    virginia's bow; virginia drifts meanwhile, staying put without a current)."""
    s = current(all_together())
    plan = {"virginia": "drift"}
    for turn, crosser in ((1, "cumberland"), (2, "monitor")):
        play_until(s, "orders", "USA", turn=turn, plan=plan)
        submit(s, "USA", orders(s.state.rules, "USA", {crosser: "cross_t"}))
        submit(s, "USA", reveal(s.state.rules, crosser, target="virginia", kind="bow_on"))
        new = submit(s, "CSA", {"type": "respond_movement"}, Rigged(s, 6, 4, 1, 1))
        assert events(new, "CrossTAttempted")[0]["success"] is True
    rules = s.state.rules
    assert rules.relation("virginia", "cumberland") == "bow_on"
    assert rules.relation("virginia", "monitor") == "bow_on"


def test_io_5_5_1_a_1_0_game_limits_the_target_instead() -> None:
    """IO-5.5.1 in a 1.0 game (``bow_on_limit=target``, 1.0's reading): virginia crosses
    monitor's bow, then cumberland's; both stay Bow-on to her, each being Bow-on to one ship."""
    s = legacy(all_together())
    assert s.state.rules.options.bow_on_limit == "target"
    virginia_crosses(s, "monitor", turn=1)
    virginia_crosses(s, "cumberland", turn=2)
    rules = s.state.rules
    assert rules.relation("cumberland", "virginia") == "bow_on"
    assert rules.relation("monitor", "virginia") == "bow_on"


def test_io_5_5_1_bow_on_limit_game_allows_one_bow_on_on_the_map() -> None:
    """IO-5.5.1, ``bow_on_limit=game``: cumberland crosses virginia's bow, then virginia
    crosses monitor's; only the newest Bow-on stands."""
    s = current(all_together(), bow_on_limit="game")
    cumberland_crosses_virginias_bow(s)
    virginia_crosses(s, "monitor", turn=1)
    rules = s.state.rules
    assert rules.relation("monitor", "virginia") == "bow_on"
    assert rules.pairs == tuple(p for p in rules.pairs if p.ship == "monitor")


# =========================================================================== IO-6.2.4 night


def night_game(session: Any, **options: Any) -> Session:
    """wassaw_sound (night; chart: Short −1, Medium −3, Long N/A): atlanta (CSA) fires at
    weehawken (Medium) in CSA's gunnery of turn 1 and so carries a Gunfire marker in USA's
    gunnery of turn 2; nahant is two boxes (Long) from atlanta."""
    scen = scenario("wassaw_sound", at={"atlanta": (2, 1), "weehawken": (2, 2), "nahant": (3, 3)})
    s: Session = session(scen, **options)
    play_until(s, "gunnery", "CSA")
    fire(s, "CSA", "atlanta", 0, "weehawken")
    play_until(s, "gunnery", "USA", turn=2)
    assert "atlanta" in s.state.rules.gunfire
    return s


def test_io_6_2_4_a_gunfire_marker_does_not_lift_the_night_chart() -> None:
    """IO-6.2.4 「からまっていない目標を射撃する場合、夜間戦闘修正表から1つの最も大きな修正を
    適用する」 (fire at a target that is not fouled takes the largest Night Gunnery modifier):
    the seed does not say what the Gunfire marker does ([GAP]), so by default a marked target
    is fired at like any other at night: "N/A" at Long refuses nahant's fire, weehawken's fire
    at Medium takes −3."""
    s = night_game(current)
    long = {"firer": "nahant", "section": 0, "target": "atlanta"}
    refused(s, "USA", {"type": "declare_fire", "fires": [long]}, IllegalCommand, "IO-6.2.4")
    fire(s, "USA", "weehawken", 0, "atlanta")
    assert (-3, "IO-6.2.4") in roll_modifiers(s.facts, "gunnery", "weehawken")


def test_io_6_2_4_a_1_0_game_fires_at_a_marked_target_as_by_day() -> None:
    """IO-6.2.4 in a 1.0 game (``gunfire_marker=reveals_target``, 1.0's reading, also an
    option of new games): a target with a Gunfire marker takes no night modifier and "N/A"
    does not refuse fire at it."""
    for s in (night_game(legacy), night_game(current, gunfire_marker="reveals_target")):
        fire(s, "USA", "nahant", 0, "atlanta")
        mods = roll_modifiers(s.facts, "gunnery", "nahant")
        assert all(rule != "IO-6.2.4" for _, rule in mods)


# =========================================================================== IO-4.4 unfoul

# contact 8, 6 v 1, 1; ram 10, 8 v 1, 1; ram check 10, 8 v 1; fouling 1, 1 v 8: fouled
RAM_FOULED = (8, 6, 1, 1, 10, 8, 1, 1, 10, 8, 1, 1, 1, 8)
UNFOUL_FAILS = (1, 5, 1)  # monitor's d10 1 against d10d4 5, 1


def fouled_by_a_ram(session: Any) -> Session:
    """CSA, turn 1: virginia rams monitor and both are fouled (no current: drifts stay)."""
    s: Session = session(scenario(at={"virginia": TOGETHER, "monitor": TOGETHER}))
    play_until(s, "orders", "CSA")
    submit(s, "CSA", orders(s.state.rules, "CSA", {"virginia": "ram"}))
    submit(s, "CSA", reveal(s.state.rules, "virginia", target="monitor", attacks=["ram"]))
    new = submit(s, "USA", {"type": "respond_movement"}, Rigged(s, *RAM_FOULED))
    assert events(new, "ShipsFouled") == [{"ship": "virginia", "target": "monitor"}]
    return s


def monitor_fails_to_unfoul(s: Session, turn: int) -> list[dict[str, Any]]:
    """USA, ``turn``: monitor's unfoul order fails; the ShipDrifted events that followed."""
    play_until(s, "orders", "USA", turn=turn, plan={"monitor": "drift", "virginia": "drift"})
    submit(s, "USA", orders(s.state.rules, "USA", {"monitor": "unfoul"}))
    submit(s, "USA", reveal(s.state.rules, "monitor"))
    new = submit(s, "CSA", {"type": "respond_movement"}, Rigged(s, *UNFOUL_FAILS))
    assert events(new, "UnfoulAttempted") == [{"ship": "monitor", "success": False}]
    return events(new, "ShipDrifted")


def test_io_4_4_a_failed_unfoul_in_the_first_fouled_order_phase_checks_drift() -> None:
    """IO-4.4 「失敗したらそのまま、これが他の移動可能な船とからまって初めての命令フェイスの場合、
    ドリフトの判定」: monitor, fouled with virginia in turn 1, fails to unfoul in turn 2, its first
    Order Phase fouled with a movable ship: it checks drift (IO-5.2) at once."""
    s = fouled_by_a_ram(current)
    assert [d["ship"] for d in monitor_fails_to_unfoul(s, turn=2)] == ["monitor"]


def test_io_4_4_no_drift_check_after_the_first_fouled_order_phase() -> None:
    """IO-4.4: the drift check belongs to the first Order Phase fouled with a movable ship, not
    to the first unfoul attempt: monitor drifts in turn 2 (its first fouled Order Phase) and
    fails to unfoul in turn 3: no drift check. (1.0 checked drift on a first unfoul attempt,
    and a 1.0 game still does.)"""
    s = fouled_by_a_ram(current)
    assert monitor_fails_to_unfoul(s, turn=3) == []
    old = fouled_by_a_ram(legacy)
    assert [d["ship"] for d in monitor_fails_to_unfoul(old, turn=3)] == ["monitor"]


# =========================================================================== bars for next turn


def refused_then_drift(s: Session, command: dict[str, Any], rule: str) -> None:
    """The reveal is refused with ``rule``; the order cannot be carried out in any form, so
    revealed with ``drift`` the ship drifts instead (IO-4.0)."""
    refused(s, "CSA", command, IllegalCommand, rule)
    submit(s, "CSA", {**command, "drift": True})
    submit(s, "USA", {"type": "respond_movement"})


def test_io_5_5_a_failed_t_bars_the_same_target_the_next_turn_only() -> None:
    """IO-5.5 「失敗したら、同じ目標には次のターンに「クロスT」を試みられない」: virginia fails
    to cross monitor's T in turn 1; her turn-2 attempt on monitor is refused (IO-5.5); in turn
    3 she may try again."""
    s = current(scenario(at={"virginia": TOGETHER, "monitor": TOGETHER}))
    play_until(s, "orders", "CSA")
    submit(s, "CSA", orders(s.state.rules, "CSA", {"virginia": "cross_t"}))
    submit(s, "CSA", reveal(s.state.rules, "virginia", target="monitor", kind="bow_on"))
    new = submit(s, "USA", {"type": "respond_movement"}, Rigged(s, 1, 1, 8, 6))
    assert events(new, "CrossTAttempted")[0]["success"] is False
    play_until(s, "orders", "CSA", turn=2)
    submit(s, "CSA", orders(s.state.rules, "CSA", {"virginia": "cross_t"}))
    again = reveal(s.state.rules, "virginia", target="monitor", kind="stern_on")
    refused_then_drift(s, again, "IO-5.5")
    play_until(s, "orders", "CSA", turn=3)
    submit(s, "CSA", orders(s.state.rules, "CSA", {"virginia": "cross_t"}))
    new = submit(s, "CSA", reveal(s.state.rules, "virginia", target="monitor", kind="bow_on"))
    assert events(new, "OrderRevealed")[0]["drift"] is False


def test_io_5_6_5_no_ram_on_the_same_target_the_next_turn_only() -> None:
    """IO-5.6.5 「攻撃艦は次のターン、同じ目標に対してラム又はスパー水雷攻撃ができない」:
    virginia rams monitor in turn 1; her turn-2 ram on monitor is refused (IO-5.6.5); in turn 3
    she may ram it again."""
    s = current(scenario(at={"virginia": TOGETHER, "monitor": TOGETHER}))
    virginia_rams_monitor(s)
    play_until(s, "orders", "CSA", turn=2)
    submit(s, "CSA", orders(s.state.rules, "CSA", {"virginia": "ram"}))
    again = reveal(s.state.rules, "virginia", target="monitor", attacks=["ram"])
    refused_then_drift(s, again, "IO-5.6.5")
    play_until(s, "orders", "CSA", turn=3)
    submit(s, "CSA", orders(s.state.rules, "CSA", {"virginia": "ram"}))
    new = submit(s, "CSA", reveal(s.state.rules, "virginia", target="monitor", attacks=["ram"]))
    assert events(new, "OrderRevealed")[0]["drift"] is False
