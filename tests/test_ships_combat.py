"""SHIPS & TACTICS Combat Phase (ST-2, ST-3, ST-4.1/4.2, ST-5.1–5.3) on hand-built tables, with
the provisional combat engine (ST-GAPS). Refusals carry the rule ID."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import IllegalCommand, NotYourTurn, WakeError
from domain.frozen import changed
from domain.ruleset import get_ruleset
from domain.rulesets.ships import combat
from domain.rulesets.ships import events as ev
from domain.rulesets.ships.board import line_players
from domain.rulesets.ships.flow import to_act
from domain.rulesets.ships.state import ShipsState
from domain.rulesets.ships.turns import unfired
from tests.ships_helpers import char, decide, plane, play, session, ship, table, topics

P1V = ship("P1", "yamato")
P1R = ship("P1", "kongo_cruiser", "rearguard")
P2V = ship("P2", "musai")
P2R = ship("P2", "dolos", "rearguard")
P3V = ship("P3", "imperial_bb")
P3R = ship("P3", "imperial_carrier", "rearguard")
FLEETS = [P1V, P1R, P2V, P2R, P3V, P3R]


def refused(state: ShipsState, side: str | None, command: dict[str, Any], rule: str) -> WakeError:
    with pytest.raises(WakeError) as info:
        decide(state, side, command)
    assert info.value.rule == rule, info.value
    return info.value


def hits(events: list[Any]) -> list[ev.HitResolved]:
    return [e for e in events if isinstance(e, ev.HitResolved)]


# --- ST-2.3, ST-5.1: immediate results, the last blow ---------------------------------------


def test_ST_5_1_only_the_last_blow_scores_when_several_players_hit_one_ship() -> None:
    target = changed(P3V, damage=3)  # hull 5, armour 1
    state = table(units=[P1R, P2V, target], segment="medium")
    state, events = play(state, "P1", {"type": "attack", "ship": P1R.id, "target": target.id})
    assert hits(events)[0].damage == 1 and not hits(events)[0].sunk  # kongo: 2 − 1
    state, _ = play(state, "P1", {"type": "end_turn"})
    state, events = play(state, "P2", {"type": "attack", "ship": P2V.id, "target": target.id})
    hit = hits(events)[0]
    assert hit.sunk and hit.player == "P2" and hit.rule == "ST-5.1"
    assert hit.earlier_hitters == ["P1"] and hit.vp == 4
    assert state.players["P2"].vp == 4 and state.players["P1"].vp == 0
    assert [(d.by, d.amount) for d in state.damage_log] == [("P1", 1), ("P2", 1)]
    text = get_ruleset("ships").describe(hit)
    assert (
        "last blow P2 scores 4 VP (ST-5.1)" in text and "earlier hits by P1 score nothing" in text
    )


def test_ST_2_3_results_apply_at_once_a_ship_sunk_earlier_in_the_segment_never_fires() -> None:
    target = changed(P3V, damage=4)
    state = table(units=[P1V, P1R, target], segment="medium")
    state, _ = play(state, "P1", {"type": "attack", "ship": P1V.id, "target": target.id})
    assert state.units[target.id].status == "sunk"
    refused(state, "P1", {"type": "attack", "ship": P1R.id, "target": target.id}, "ST-3.2")
    state, events = play(state, "P1", {"type": "end_turn"})
    # P3 has nothing left: its turn in the segment is passed by; P2 had no ships either
    steps = [e for e in events if isinstance(e, ev.StepStarted) and e.phase == "turns"]
    assert "P3" not in [e.player for e in steps]
    assert any(isinstance(e, ev.SegmentStarted) for e in events)


def test_ST_2_2_players_act_in_turn_order_and_out_of_turn_orders_are_refused() -> None:
    state = table(units=FLEETS, segment="long", order=["P2", "P3", "P1"])
    assert to_act(state) == ["P2"]
    err = refused(state, "P1", {"type": "attack", "ship": P1V.id, "target": P2V.id}, "ST-2.2")
    assert isinstance(err, NotYourTurn)
    state, _ = play(state, "P2", {"type": "end_turn"})
    assert to_act(state) == ["P3"]


# --- the provisional engine: saturation, defence, armour (ST-GAPS) --------------------------


def test_saturation_and_defence_cards_provisional_engine() -> None:
    target = ship("P2", "gwazine")  # hull 7, armour 1
    hands = {"P1": ["shock_cannon", "shock_cannon", "edf_missiles"], "P2": ["beam_spray"]}
    state = table(units=[P1V, target], segment="medium", hands=hands)
    cards = ["shock_cannon", "shock_cannon", "edf_missiles"]
    state, events = play(
        state, "P1", {"type": "attack", "ship": P1V.id, "target": target.id, "cards": cards}
    )
    assert topics(events) == ["AttackDeclared"] and to_act(state) == ["P2"]
    assert state.players["P1"].hand == ()  # played cards leave the hand
    refused(state, "P1", {"type": "end_turn"}, "ST-2.3")  # the attack waits for P2
    refused(state, "P2", {"type": "defend", "cards": ["short_warp"]}, "ST-2.3")  # not held
    state, events = play(state, "P2", {"type": "defend", "cards": ["beam_spray"]})
    hit = hits(events)[0]
    assert hit.cancelled == ["shock_cannon"] and hit.saturation == 1  # two cards left: +1
    assert hit.guns == 3 and hit.armour == 1
    assert hit.damage == 3 + 2 + 2 + 1 - 1 and hit.sunk and hit.provisional
    assert state.players["P1"].vp == 6 and to_act(state) == ["P1"]


def test_an_attack_card_not_in_hand_is_refused() -> None:
    state = table(units=[P1V, P2V], segment="medium", hands={"P1": ["edf_missiles"]})
    cmd = {"type": "attack", "ship": P1V.id, "target": P2V.id, "cards": ["shock_cannon"]}
    err = refused(state, "P1", cmd, "ST-3.2")
    assert isinstance(err, IllegalCommand) and "does not hold" in err.message


def test_the_rearguard_is_reached_only_by_some_attacks_until_the_vanguard_is_gone() -> None:
    state = table(units=[P1V, P2V, P2R], segment="medium", hands={"P1": ["edf_missiles"]})
    refused(state, "P1", {"type": "attack", "ship": P1V.id, "target": P2R.id}, "ST-GAPS-REACH")
    missile = {"type": "attack", "ship": P1V.id, "target": P2R.id, "cards": ["edf_missiles"]}
    assert topics(decide(state, "P1", missile)) == ["AttackDeclared"]
    exposed = changed(state, units={**state.units, P2V.id: changed(P2V, status="sunk")})
    assert topics(decide(exposed, "P1", {"type": "attack", "ship": P1V.id, "target": P2R.id}))[
        0
    ] == ("AttackDeclared")


# --- ST-3.1 line weapons, seating and wrap-around ------------------------------------------


def _six(**options: Any) -> ShipsState:
    units = [ship(p, "imperial_bb") for p in ("P2", "P3", "P4", "P5", "P6")]
    return table(
        "multi6", units=[P1V, *units], segment="long", hands={"P1": ["wave_motion_gun"]}, **options
    )


def test_ST_3_1_line_targets_wrap_around_the_table() -> None:
    state = _six()
    assert line_players(state, "P6", "P1") == ["P5", "P6"]  # P1 is P6's neighbour: never itself
    assert line_players(state, "P2", "P1") == ["P2", "P3"]
    assert line_players(state, "P4", "P1") == ["P3", "P4", "P5"]
    own = _six(line_hits_own_fleet=True)
    assert line_players(own, "P6", "P1") == ["P5", "P6", "P1"]
    neighbours = _six(line_includes_centre=False)
    assert line_players(neighbours, "P4", "P1") == ["P3", "P5"]


def test_ST_3_1_a_line_weapon_hits_three_players_vanguards_each_may_defend() -> None:
    state = _six()
    cmd = {"type": "line_attack", "ship": P1V.id, "centre": "P4", "card": "wave_motion_gun"}
    state, events = play(state, "P1", cmd)
    declared = events[0]
    assert isinstance(declared, ev.AttackDeclared) and declared.line
    assert declared.targets == ["P3-b1-V1", "P4-b1-V1", "P5-b1-V1"]
    assert declared.defenders == ["P3", "P4", "P5"]
    state, _ = play(state, "P3", {"type": "defend"})
    state, _ = play(state, "P4", {"type": "defend"})
    state, events = play(state, "P5", {"type": "defend"})
    assert [(h.target, h.damage) for h in hits(events)] == [
        ("P3-b1-V1", 3),
        ("P4-b1-V1", 3),
        ("P5-b1-V1", 3),
    ]
    assert all(h.rule == "ST-3.1" and h.guns == 0 for h in hits(events))


def test_ST_3_1_line_weapons_only_at_long_range_and_only_from_a_ship_that_mounts_them() -> None:
    state = changed(_six(), segment="medium")
    cmd = {"type": "line_attack", "ship": P1V.id, "centre": "P4", "card": "wave_motion_gun"}
    refused(state, "P1", cmd, "ST-3.1")
    weak = _six()
    kongo = ship("P1", "kongo_cruiser")
    weak = changed(weak, units={**weak.units, P1V.id: kongo})
    refused(weak, "P1", cmd, "ST-GAPS-CARD")  # the ship a card needs is provisional card data


# --- ST-3.2, ST-3.4 mandatory attacks --------------------------------------------------------


def test_ST_3_2_vanguard_ships_must_attack_at_medium_range() -> None:
    state = table(units=FLEETS, segment="medium")
    assert unfired(state, "P1") == [P1V.id]  # the rearguard may hold fire
    err = refused(state, "P1", {"type": "end_turn"}, "ST-3.2")
    assert P1V.id in err.message
    state, _ = play(state, "P1", {"type": "attack", "ship": P1V.id, "target": P2V.id})
    state, events = play(state, "P1", {"type": "end_turn"})
    assert "TurnEnded" in topics(events)


def test_ST_3_4_both_boxes_must_attack_at_short_range_and_may_pick_different_players() -> None:
    state = table(units=FLEETS, segment="short")
    state, _ = play(state, "P1", {"type": "attack", "ship": P1V.id, "target": P2V.id})
    refused(state, "P1", {"type": "end_turn"}, "ST-3.4")
    state, events = play(state, "P1", {"type": "attack", "ship": P1R.id, "target": P3V.id})
    assert hits(events)[0].owner == "P3"
    state, _ = play(state, "P1", {"type": "end_turn"})
    assert state.active == "P2"


def test_a_refused_mandatory_skip_appends_nothing_in_a_real_game() -> None:
    s = session("multi3", seed=11)
    from domain.engine import CommandEnvelope

    for _ in range(5000):
        state: ShipsState = s.state.rules
        if (
            state.phase == "turns"
            and state.segment in ("medium", "short")
            and state.pending is None
            and unfired(state, state.active or "")
        ):
            break
        s.submit_bot()
    player = state.active
    before = (len(s.facts), s.state)
    with pytest.raises(IllegalCommand) as info:
        s.submit(CommandEnvelope(side=player, command={"type": "end_turn"}))
    assert info.value.rule in ("ST-3.2", "ST-3.4")
    assert (len(s.facts), s.state) == before


# --- ST-3.3 aircraft ------------------------------------------------------------------------


def _air_table(**kw: Any) -> ShipsState:
    a1 = plane(P1V, "cosmo_tiger", 1, air="aboard")
    a2 = plane(P1V, "cosmo_tiger", 2, air="aboard")
    pilot = char(a1, "kato")
    return table(units=[P1V, a1, a2, pilot, P2V, P3V], segment="aircraft", **kw)


def test_ST_3_3_1_aircraft_are_launched_in_turn_order_and_pilots_may_change_aircraft() -> None:
    state = changed(_air_table(), phase="launch")
    a1, a2 = f"{P1V.id}-A1", f"{P1V.id}-A2"
    state, _events = play(
        state, "P1", {"type": "launch_aircraft", "aircraft": [a1], "pilots": {f"{a1}-C1": a2}}
    )
    assert state.units[a1].air == "out" and state.units[a2].air == "aboard"
    assert state.units[f"{a1}-C1"].on == a2
    assert combat.aircraft_values(state, state.units[a2]) == (2, 4)  # kato: +1 dogfight
    refused(changed(_air_table(), phase="launch"), "P2", {"type": "launch_aircraft"}, "ST-3.3.1")


def test_ST_3_3_4_ST_3_3_5_several_players_at_once_and_no_interceptors_means_a_direct_hit() -> None:
    zaku = plane(P2V, "zaku")  # P2 has an aircraft out; P3 has none
    a1, a2 = plane(P1V, "cosmo_tiger", 1), plane(P1V, "cosmo_tiger", 2)
    state = table(units=[P1V, a1, a2, P2V, zaku, P3V], segment="aircraft")
    groups = [
        {"target": P2V.id, "aircraft": [a1.id]},
        {"target": P3V.id, "aircraft": [a2.id]},
    ]
    state, events = play(state, "P1", {"type": "air_strike", "groups": groups})
    fights = [e for e in events if isinstance(e, ev.DogfightResolved)]
    assert [f.defender for f in fights] == ["P2"]  # ST-3.3.4: straight at P3's ship
    assert fights[0].defenders_lost == [zaku.id] and fights[0].attackers_lost == []
    assert {h.target for h in hits(events)} == {P2V.id, P3V.id}
    refused(state, "P1", {"type": "air_strike", "groups": groups[:1]}, "ST-3.3.2")  # flown


def test_ST_3_3_6_air_battle_losses_are_simultaneous() -> None:
    z1, z2 = plane(P2V, "zaku", 1), plane(P2V, "zaku", 2)
    tiger = plane(P1V, "cosmo_tiger")  # held back for air defence (ST-3.3.3)
    state = table(units=[P1V, tiger, P2V, z1, z2], segment="aircraft", order=["P2", "P1", "P3"])
    strike = {"type": "air_strike", "groups": [{"target": P1V.id, "aircraft": [z1.id, z2.id]}]}
    state, events = play(state, "P2", strike)
    fight = next(e for e in events if isinstance(e, ev.DogfightResolved))
    # both totals come from the aircraft before the fight: 4 v 3
    assert (fight.attack_strength, fight.defence_strength) == (4, 3)
    assert fight.attackers_lost == [z1.id] and fight.defenders_lost == [tiger.id]
    assert state.units[tiger.id].status == "shot_down"
    assert [h.source for h in hits(events)] == [z2.id]  # the survivor still hits


def test_ST_3_3_7_aircraft_return_or_stay_and_are_recovered_before_boarding() -> None:
    a1, a2 = plane(P1V, "cosmo_tiger", 1), plane(P1V, "cosmo_tiger", 2)
    z = plane(P2V, "zaku")
    state = table(units=[P1V, a1, a2, P2V, z, P3V], segment="aircraft")
    refused(state, "P1", {"type": "end_turn", "recover": [z.id]}, "ST-3.3.7")
    state, events = play(state, "P1", {"type": "end_turn", "recover": [a1.id]})
    assert state.units[a1.id].air == "returning" and state.units[a2.id].air == "out"
    state = changed(state, units={**state.units, P2V.id: changed(P2V, status="sunk")})
    state, events = play(state, "P2", {"type": "end_turn"})  # P2 still has its zaku out
    recovered = [e for e in events if isinstance(e, ev.AircraftRecovered)]
    assert state.segment == "short"
    assert not recovered  # the short-range segment comes first
    state = changed(state, segment="short", phase="turns")
    for p in ("P1", "P3"):
        state = changed(state, cursor=state.order.index(p))
        for u in list(state.units.values()):
            if u.owner == p and u.kind == "ship" and u.status == "active":
                target = P3V.id if p == "P1" else P1V.id
                state, _ = play(state, p, {"type": "attack", "ship": u.id, "target": target})
                if state.units.get(target) and state.units[target].status != "active":
                    break
        if state.active == p:
            state, events = play(state, p, {"type": "end_turn"})
    recovered = [e for e in events if isinstance(e, ev.AircraftRecovered)]
    assert recovered and set(recovered[0].recovered) == {a1.id, a2.id}
    assert recovered[0].lost == [z.id]  # its ship was sunk


# --- ST-3.5 boarding, ST-0 capture ---------------------------------------------------------


def test_ST_3_5_boarding_captures_and_no_other_ship_may_block() -> None:
    boarder = char(P1V, "ovlesser")  # melee 3: 2 + 3 = 5 against the musai's 1
    helper = char(P2R, "dozle")  # ship-handling on a ship that is not the target: no block
    state = table(units=[P1V, boarder, P1R, P2V, P2R, helper, P3V], segment="boarding")
    state, events = play(state, "P1", {"type": "board", "ship": P1V.id, "target": P2V.id})
    result = events[0]
    assert isinstance(result, ev.BoardingResolved)
    assert (result.attack, result.defence, result.captured) == (5, 1, True)
    assert state.units[P2V.id].status == "captured" and state.players["P1"].vp == 3
    # vanguard and rearguard may board different players' ships
    state, events = play(state, "P1", {"type": "board", "ship": P1R.id, "target": P3V.id})
    assert isinstance(events[0], ev.BoardingResolved) and events[0].owner == "P3"


def test_ST_3_5_the_targets_own_ship_handling_defends_it() -> None:
    evader = char(P2V, "shima")  # ship-handling 2 aboard the target itself
    state = table(units=[P1V, P2V, evader, P3V], segment="boarding")
    state, events = play(state, "P1", {"type": "board", "ship": P1V.id, "target": P2V.id})
    result = events[0]
    assert isinstance(result, ev.BoardingResolved)
    assert (result.attack, result.defence, result.captured) == (2, 3, False)
    refused(state, "P1", {"type": "board", "ship": P1V.id, "target": P3V.id}, "ST-3.5")
    refused(table(units=[P1V, P2V, P2R], segment="boarding"), "P1",
            {"type": "board", "ship": P1V.id, "target": P2R.id}, "ST-GAPS-REACH")  # fmt: skip


# --- ST-4.1, ST-4.2 end of battle --------------------------------------------------------------


def test_ST_4_1_ST_4_2_the_battle_ends_after_boarding_and_survivors_score() -> None:
    sunk = changed(P3V, status="sunk")
    state = table(units=[P1V, P1R, P2V, sunk, P3R], segment="boarding", cursor=2)
    state, events = play(state, "P3", {"type": "end_turn"})
    scored = next(e for e in events if isinstance(e, ev.BattleScored))
    assert scored.vp == {"P1": 8 + 3, "P2": 3, "P3": 4}
    assert scored.survivors["P1"] == [P1V.id, P1R.id]
    assert state.units == {} and state.phase == "setup"
    assert {p: state.players[p].vp for p in state.players} == scored.vp


def test_ST_4_4_after_the_fifth_battle_the_most_vp_wins() -> None:
    state = table(units=[P1V, P2V], segment="boarding", cursor=2)
    state = changed(state, battle=5)
    state, events = play(state, "P3", {"type": "end_turn"})
    end = events[-1]
    assert type(end).__name__ == "GameEnded" and end.winner == "P1"  # type: ignore[attr-defined]
    assert end.rule == "ST-4.4" and state.finished  # type: ignore[attr-defined]


# --- ST-5.2 hacking, ST-5.3 Minovsky particles ----------------------------------------------


def test_ST_5_2_hacking_ships_of_several_players() -> None:
    state = table(units=FLEETS, segment="medium", hands={"P1": ["omoikane_hack"]})
    cmd = {"type": "hack", "card": "omoikane_hack", "targets": [P2V.id, P3V.id]}
    state, events = play(state, "P1", cmd)
    assert isinstance(events[0], ev.ShipsHacked)
    assert state.units[P2V.id].hacked and state.units[P3V.id].hacked
    assert combat.guns(state, state.units[P2V.id], "medium") == 0
    again = table(units=FLEETS, segment="medium", hands={"P1": ["omoikane_hack"]})
    too_many = {"type": "hack", "card": "omoikane_hack", "targets": [P2V.id, P3V.id, P3R.id]}
    refused(again, "P1", too_many, "ST-GAPS-CARD")  # how many it hacks is provisional data


def test_ST_5_3_minovsky_particles_are_asked_in_turn_order_and_affect_everyone() -> None:
    state = table(units=FLEETS, segment="long", hands={"P2": ["minovsky"]})
    state = changed(state, phase="minovsky")
    refused(state, "P1", {"type": "minovsky", "disperse": True}, "ST-5.3")  # holds none
    state, _ = play(state, "P1", {"type": "minovsky"})
    assert to_act(state) == ["P2"]
    state, _events = play(state, "P2", {"type": "minovsky", "disperse": True})
    assert state.minovsky and state.players["P2"].hand == ()
    # nobody else is asked once dispersed; every player's long-range guns fall silent
    assert state.phase == "turns" and to_act(state) == ["P1"]
    assert all(combat.guns(state, u, "long") == 0 for u in state.units.values())
    assert combat.guns(state, state.units[P1V.id], "medium") == 3


def test_provisional_values_are_labelled_in_the_data_the_read_model_and_the_log() -> None:
    from domain.rulesets.ships.data import bundled

    data = bundled()
    assert data.cards.provisional and data.decks.provisional and data.combat.provisional
    assert "PROVISIONAL" in data.combat.source
    state = table(units=[P1V, P2V], segment="medium")
    view = get_ruleset("ships").read_model(state)
    assert any("provisional" in n for n in view.notes)
    assert all(u.details.get("provisional") for u in view.units if u.kind == "ship")
    _, events = play(state, "P1", {"type": "attack", "ship": P1V.id, "target": P2V.id})
    assert "[provisional: ST-GAPS-HIT]" in get_ruleset("ships").describe(hits(events)[0])
