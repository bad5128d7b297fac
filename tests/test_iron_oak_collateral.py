"""Iron & Oak IO-6.3.4 Collateral: the target's side chooses where the extra shield damage goes
(「目標側の選択」), driven through the engine one order at a time; and the criticals a Status
Phase explosion rolls on nearby ships (IO-3.1.2, IO-6.3).

Bundled data used (provisional): the Critical Hit Table's Ship column gives 2d6 3 Captain,
6 Collateral, 11 Jam (Collateral on a non-monitor); its WL-other column 7 Collateral. Virginia
(CSA) has locations B A S WL D (d8 1 B, 2-4 A, 5 S, 6-7 WL, 8 D), guns d10 / d10d6 / d10;
monitor (USA) B TF TS TR WL A D, defence of B d8d6.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain.engine import CommandEnvelope, Fact, Session, decode, header_for, replay
from domain.errors import IllegalCommand, NotYourTurn, WakeError
from domain.record import read_record, verify_record, write_record
from domain.rulesets.iron_oak.commands import ChooseCollateral
from domain.rulesets.iron_oak.criticals import CollateralChoices
from domain.rulesets.iron_oak.evolve import evolve
from domain.rulesets.iron_oak.fire import resolve_all
from domain.rulesets.iron_oak.sequence import to_act
from domain.rulesets.iron_oak.turn_events import CollateralAwaited
from tests.test_iron_oak_turn import (
    GAME_ID,
    Rigged,
    at_step,
    deal,
    doctor,
    events,
    named,
    new_game,
    play_until,
    refused,
    reveal,
    scenario,
    submit,
    tennessee,
)


def test_io_3_1_2_status_explosion_attack_criticals_take_effect() -> None:
    """IO-3.1.2 / IO-6.3.8: a level-5 fire that did not drop explodes in the Status Phase; its
    attack on a ship in the same GB that reaches the critical band rolls a critical, and that
    critical takes effect at once (IO-6.3) — here Captain on the monitor."""
    at = {"virginia": (2, 2), "monitor": (2, 2), "cumberland": (1, 4)}
    s = new_game(scenario(at=at, extra=[tennessee((4, 2))]))
    doctor(s, "virginia", fire=5)
    submit(s, None, {"type": "deal"})
    play_until(s, "status", "CSA")
    submit(s, "CSA", {"type": "status"}, Rigged(s, 5))  # the fire stays at level 5
    play_until(s, "status", "CSA", turn=2)
    # fire 5 (explodes); d10+d6 hits 3+2; crew d4 1; the attack on the monitor: d8 1 (B),
    # d10 10 against d8d6 1 1 (critical band); 2d6 1+2 = 3: Captain
    new = submit(s, "CSA", {"type": "status"}, Rigged(s, 5, 3, 2, 1, 1, 10, 1, 1, 1, 2))
    [rolled] = events(new, "CriticalRolled")
    assert (rolled["unit"], rolled["critical"]) == ("monitor", "captain")
    applied = [(p["unit"], p["name"]) for p in events(new, "CriticalApplied")]
    assert applied == [("virginia", "explosion"), ("monitor", "captain")]
    assert "captain" in s.state.rules.ships["monitor"].criticals


# =========================================================================== IO-6.3.4 choice


def declare(*fires: tuple[str, int, str]) -> dict[str, Any]:
    return {
        "type": "declare_fire",
        "fires": [{"firer": f, "section": n, "target": t} for f, n, t in fires],
    }


def choose(location: str) -> dict[str, Any]:
    return {"type": "choose_collateral", "location": location}


def gunnery_game(version: str | None = None, seed: int = 7) -> Session:
    """USA's gunnery segment: monitor (2, 1) and cumberland (1, 1) have virginia (2, 2) in
    range, at Medium."""
    data = scenario(at={"virginia": (2, 2), "cumberland": (1, 1), "monitor": (2, 1)})
    header = header_for("iron_oak", data, game_id=GAME_ID, seed=seed)
    if version is not None:
        ruleset = header.ruleset.model_copy(update={"version": version})
        header = header.model_copy(update={"ruleset": ruleset})
    s = Session(header)
    play_until(s, "gunnery", "USA")
    return s


# the monitor's turret (d10d8) at virginia: d8 2 (A), 10 1 against A's d10d8 1 1 (CR 10, DR 1:
# critical band), 2d6 3+3 = 6 on the Ship column: Collateral; A → B or S, the target's choice
COLLATERAL_ON_A = (2, 10, 1, 1, 1, 3, 3)


def stopped(s: Session, new: list[Fact]) -> dict[str, Any]:
    """The resolution stopped for a Collateral choice: the last event says so."""
    assert named(new[-1]) == "CollateralAwaited"
    return new[-1].payload


def test_io_6_3_4_the_target_side_chooses_the_collateral_location() -> None:
    """IO-6.3.4 「目標側の選択でBかSに」: after a hit on A, Collateral goes to B or S at the
    choice of the target's side. The gunnery resolution stops; CSA (virginia's side) is to act
    and chooses S; the fire then completes and the segment moves on."""
    s = gunnery_game()
    submit(s, "USA", declare(("monitor", 0, "virginia")))
    new = submit(s, "CSA", {"type": "respond_fire"}, Rigged(s, *COLLATERAL_ON_A))
    awaited = stopped(s, new)
    assert named(new[1]) == "ResolutionCheckpoint"
    assert (awaited["unit"], awaited["side"], awaited["hit"]) == ("virginia", "CSA", "A")
    assert (awaited["candidates"], awaited["shields"]) == (["B", "S"], {"B": 0, "S": 0})
    assert events(new, "CriticalRolled")[0]["critical"] == "collateral"
    assert events(new, "CriticalApplied") == []
    rules = s.state.rules
    assert to_act(rules) == ["CSA"] and rules.phase == "gunnery"
    assert s.state.ruleset.to_act(rules) == ["CSA"]
    after = submit(s, "CSA", choose("S"))
    assert events(after, "CollateralChosen") == [
        {"unit": "virginia", "side": "CSA", "location": "S", "final": True}
    ]
    [applied] = events(after, "CriticalApplied")
    assert (applied["location"], applied["shield_after"]) == ("S", -1)
    assert "the target's choice" in applied["note"]
    virginia = s.state.rules.ships["virginia"]
    assert (virginia.shield("S"), virginia.shield("B")) == (-1, 0)
    assert s.state.rules.awaiting is None and s.state.rules.resuming is None
    assert at_step(s, "exchange", "USA")


def test_io_6_3_4_refusals_while_the_choice_is_awaited() -> None:
    """IO-6.3.4: only the target's side chooses, only among the candidates, and nothing else
    is ordered meanwhile; with no choice awaited the order is refused. Nothing is appended."""
    s = gunnery_game()
    refused(s, "USA", choose("B"), IllegalCommand, "IO-6.3.4")
    submit(s, "USA", declare(("monitor", 0, "virginia")))
    submit(s, "CSA", {"type": "respond_fire"}, Rigged(s, *COLLATERAL_ON_A))
    refused(s, "USA", choose("B"), NotYourTurn, "IO-6.3.4")
    refused(s, "CSA", choose("A"), IllegalCommand, "IO-6.3.4")
    refused(s, "CSA", choose("WL"), IllegalCommand, "IO-6.3.4")
    refused(s, "CSA", {"type": "respond_fire"}, IllegalCommand, "IO-6.3.4")
    refused(s, "USA", {"type": "exchange_card"}, IllegalCommand, "IO-6.3.4")
    refused(s, "CSA", {"type": "pass"}, IllegalCommand, "IO-6.3.4")
    assert {"type": "pass"} not in [
        c.model_dump(mode="json") for c in s.state.ruleset.legal_commands(s.state.rules, "CSA")
    ]
    submit(s, "CSA", choose("B"))
    assert s.state.rules.ships["virginia"].shield("B") == -1


def test_io_6_3_4_one_possible_location_needs_no_order() -> None:
    """IO-6.3.4: a hit on B puts Collateral on A, the only neighbour: no choice, no stop."""
    s = gunnery_game()
    submit(s, "USA", declare(("monitor", 0, "virginia")))
    new = submit(s, "CSA", {"type": "respond_fire"}, Rigged(s, 1, 10, 1, 1, 1, 3, 3))
    assert events(new, "CollateralAwaited") == []
    [applied] = events(new, "CriticalApplied")
    assert (applied["name"], applied["location"]) == ("collateral", "A")


def test_io_6_3_4_a_1_0_game_keeps_the_computer_choice() -> None:
    """Wake 1.0 chose the location itself (least shield damage, B before S): a game recorded
    with 1.0 still does, with no stop and no order."""
    s = gunnery_game(version="1.0")
    submit(s, "USA", declare(("monitor", 0, "virginia")))
    new = submit(s, "CSA", {"type": "respond_fire"}, Rigged(s, *COLLATERAL_ON_A))
    assert events(new, "CollateralAwaited") == []
    [applied] = events(new, "CriticalApplied")
    assert applied["location"] == "B"
    assert at_step(s, "exchange", "USA")


def test_io_6_3_4_the_bot_chooses_the_least_damaged_location() -> None:
    """IO-6.3.4: the bot chooses for a bot side: the location with the least shield damage."""
    s = gunnery_game()
    doctor(s, "virginia", shields={"B": -2})
    submit(s, "USA", declare(("monitor", 0, "virginia")))
    submit(s, "CSA", {"type": "respond_fire"}, Rigged(s, *COLLATERAL_ON_A))
    rules = s.state.rules
    assert s.state.ruleset.bot_command(rules, "CSA") == ChooseCollateral(location="S")
    legal = s.state.ruleset.legal_commands(rules, "CSA")
    assert {c.location for c in legal} == {"B", "S"}
    s.submit_bot()
    assert s.state.rules.ships["virginia"].shield("S") == -1


def test_io_6_3_4_the_resolution_resumes_exactly_where_it_stopped() -> None:
    """IO-6.3.4: the choice comes in the middle of the declared fires; after it the remaining
    fire resolves with the dice that follow. The recorded events (without the stop and the
    choice) are exactly those of one uninterrupted resolution with the choice made up front,
    and the record verifies (every order run again, the same events)."""
    s = gunnery_game()
    base = s.state.rules
    submit(s, "USA", declare(("monitor", 0, "virginia"), ("cumberland", 0, "virginia")))
    declared = s.state.rules
    start = len(s.facts)
    new = submit(s, "CSA", {"type": "respond_fire"}, Rigged(s, *COLLATERAL_ON_A))
    awaited = stopped(s, new)
    assert [p["firer"] for p in events(new, "GunneryResolved")] == ["monitor"]
    assert awaited["faces"] == list(COLLATERAL_ON_A) and awaited["next_die"] == awaited[
        "start"
    ] + len(COLLATERAL_ON_A)
    rest = submit(s, "CSA", choose("S"))
    assert [p["firer"] for p in events(rest, "GunneryResolved")] == ["cumberland"]
    assert s.state.rules.resuming is None
    # the same resolution in one run, the choice made up front
    dice = Rigged(s, *COLLATERAL_ON_A)
    dice.position = awaited["start"]
    once = resolve_all(declared, dice, evolve, None, CollateralChoices(["S"]))
    kept = [
        f.payload
        for f in s.facts[start:]
        if named(f) not in ("CommandIssued", "ResolutionCheckpoint", "CollateralAwaited")
        and named(f) not in ("CollateralChosen", "StepBegan")
    ]
    assert kept == [e.payload() for e in once]
    assert base.resuming is None


def test_io_6_3_4_two_choices_in_one_resolution() -> None:
    """IO-6.3.4: two Collateral criticals in one gunnery segment stop it twice; the first
    choice says the resolution goes on to another stop (``final`` false)."""
    s = gunnery_game()
    submit(s, "USA", declare(("monitor", 0, "virginia"), ("cumberland", 0, "virginia")))
    # cumberland's broadside (d10d8) at virginia: d8 3 (A), 10 1 vs d10d8 1 1, 2d6 3+3
    first = submit(s, "CSA", {"type": "respond_fire"}, Rigged(s, *COLLATERAL_ON_A))
    stopped(s, first)
    second = submit(s, "CSA", choose("S"), Rigged(s, *COLLATERAL_ON_A))
    assert events(second, "CollateralChosen")[0]["final"] is False
    assert stopped(s, second)["choices"] == ["S"]
    assert s.state.rules.resuming is not None
    third = submit(s, "CSA", choose("B"))
    assert events(third, "CollateralChosen")[0]["final"] is True
    virginia = s.state.rules.ships["virginia"]
    assert (virginia.shield("S"), virginia.shield("B")) == (-1, -1)
    assert s.state.rules.resuming is None and at_step(s, "exchange", "USA")


def test_io_6_3_4_a_stopped_game_survives_a_snapshot_and_a_replay() -> None:
    """A game waiting for the choice is rebuilt the same from its facts and from a snapshot
    of its state (the kept state before the order included)."""
    s = gunnery_game()
    submit(s, "USA", declare(("monitor", 0, "virginia")))
    submit(s, "CSA", {"type": "respond_fire"}, Rigged(s, *COLLATERAL_ON_A))
    assert s.state.rules.awaiting is not None and s.state.rules.resuming is not None
    ruleset = s.state.ruleset
    assert replay(s.header, s.facts).rules == s.state.rules
    dumped = json.loads(json.dumps(ruleset.dump_state(s.state.rules)))
    assert ruleset.load_state(dumped) == s.state.rules


def test_io_6_3_4_the_pending_dice_are_hidden_from_the_sides() -> None:
    """The stop records the dice drawn so far, some for rolls shown only after the choice:
    sides see the choice without them; the umpire sees everything."""
    s = gunnery_game()
    submit(s, "USA", declare(("monitor", 0, "virginia")))
    new = submit(s, "CSA", {"type": "respond_fire"}, Rigged(s, *COLLATERAL_ON_A))
    event = decode(s.state, new[-1])
    ruleset = s.state.ruleset
    for side in ("CSA", "USA"):
        seen = ruleset.redact(event, side)
        assert isinstance(seen, CollateralAwaited) and seen.faces == []
        assert seen.candidates == ["B", "S"]
    assert ruleset.redact(event, None) == event


HAND = ["full_steam", "engine_trouble", "damage_control", "well_aimed", "rapid_fire"]


def test_io_6_3_4_physical_dice_are_entered_once() -> None:
    """With physical dice the faces of the stopped order are entered with it; the choice then
    needs only the faces of the rolls that follow (entering more is refused). The record
    verifies: every order is run again and gives the same events."""
    data = scenario(at={"virginia": (2, 2), "cumberland": (1, 1), "monitor": (2, 1)})
    s = Session(header_for("iron_oak", data, game_id=GAME_ID, seed=None))
    deal(s, HAND, HAND)
    play_until(s, "gunnery", "USA")
    submit(s, "USA", declare(("monitor", 0, "virginia"), ("cumberland", 0, "virginia")))
    envelope = CommandEnvelope(side="CSA", command={"type": "respond_fire"})
    s.submit(envelope.model_copy(update={"dice": list(COLLATERAL_ON_A)}))
    # cumberland's broadside: d8 2 (A), d10d8 5 5 against A's d10d8 9 8: no effect
    follow = [2, 5, 5, 9, 8]
    too_many = CommandEnvelope(side="CSA", command=choose("S"), dice=[*follow, 1])
    with pytest.raises(WakeError):
        s.submit(too_many)
    s.submit(CommandEnvelope(side="CSA", command=choose("S"), dice=follow))
    assert [p["firer"] for p in events(s.facts, "GunneryResolved")] == ["monitor", "cumberland"]
    assert verify_record(read_record(write_record(s.header, s.facts))).events == len(s.facts)


def test_io_6_3_4_a_refloat_critical_stops_the_movement_segment() -> None:
    """IO-6.3.4 in the movement segment (IO-4.3.1): a failed engine strain check with the
    opponent at three times names Engine-Damaged and a WL-column critical; 2d6 7 is
    Collateral, and after a WL hit "any other location" is the target's choice. The order
    completes after the choice (the Engine-Damaged marker too)."""
    s = new_game(scenario(at={"virginia": (2, 2)}))
    doctor(s, "virginia", aground=True)
    play_until(s, "movement", "CSA", plan={"virginia": "refloat"})
    submit(s, "CSA", reveal(s.state.rules, "virginia", "refloat"))
    # refloat d10d8 10 1 vs d10 1; strain d10d8 1 1 vs d8 8 (3×); WL column 2d6 3+4 = 7
    new = submit(s, "USA", {"type": "respond_movement"}, Rigged(s, 10, 1, 1, 1, 1, 8, 3, 4))
    awaited = stopped(s, new)
    assert (awaited["side"], awaited["hit"]) == ("CSA", "WL")
    assert awaited["candidates"] == ["B", "A", "S", "D"]
    assert events(new, "OrderCompleted") == []
    assert to_act(s.state.rules) == ["CSA"]
    after = submit(s, "CSA", choose("D"))
    applied = [(p["name"], p["location"]) for p in events(after, "CriticalApplied")]
    assert sorted(applied, key=str) == sorted(
        [("collateral", "D"), ("engine_damaged", None)], key=str
    )
    assert events(after, "OrderCompleted") == [{"ship": "virginia"}]
    virginia = s.state.rules.ships["virginia"]
    assert virginia.shield("D") == -1 and "engine_damaged" in virginia.criticals


def test_io_6_3_4_a_status_explosion_can_stop_for_the_other_sides_choice() -> None:
    """IO-6.3.4 in the Status Phase: an explosion's attack hits the monitor on TS and rolls
    Collateral: TF or TR, chosen by the USA in the CSA's Status Phase."""
    at = {"virginia": (2, 2), "monitor": (2, 2), "cumberland": (1, 4)}
    s = new_game(scenario(at=at, extra=[tennessee((4, 2))]))
    doctor(s, "virginia", fire=5)
    submit(s, None, {"type": "deal"})
    play_until(s, "status", "CSA")
    submit(s, "CSA", {"type": "status"}, Rigged(s, 5))
    play_until(s, "status", "CSA", turn=2)
    # explodes; hits 3+2; crew 1; attack on the monitor: d8 3 (TS), d10 10 vs d10d8 1 1;
    # 2d6 3+3 = 6: Collateral
    new = submit(s, "CSA", {"type": "status"}, Rigged(s, 5, 3, 2, 1, 3, 10, 1, 1, 3, 3))
    awaited = stopped(s, new)
    assert (awaited["unit"], awaited["side"], awaited["candidates"]) == (
        "monitor",
        "USA",
        ["TF", "TR"],
    )
    assert events(new, "StatusChecked") == []
    assert to_act(s.state.rules) == ["USA"] and s.state.rules.active == "CSA"
    after = submit(s, "USA", choose("TR"))
    assert s.state.rules.ships["monitor"].shield("TR") == -1
    assert events(after, "StatusChecked")[0]["side"] == "CSA"
    assert at_step(s, "orders", "CSA")
