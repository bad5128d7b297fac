"""SHIPS & TACTICS setup and fleet formation (ST-1.1–1.9, ST-4.3, ST-5.5), hidden information
and physical-card recording. Refusals carry the rule ID and append nothing."""

from __future__ import annotations

import json
from fractions import Fraction
from math import factorial
from typing import Any

import pytest

from domain.errors import IllegalCommand, InvalidCommand, NotYourTurn, WakeError
from domain.read_model import redact_view
from domain.ruleset import get_ruleset
from domain.rulesets.ships import events as ev
from domain.rulesets.ships.data import bundled
from domain.rulesets.ships.fleet import fleet_content
from domain.sealed import seal
from tests.ships_helpers import (
    commit,
    fleet,
    form_all,
    loaded,
    reveal,
    rules,
    scenario,
    session,
    submit,
    topics,
)

HANDS = {
    "P1": [
        "yamato",
        "kongo_cruiser",
        "cosmo_tiger",
        "cosmo_tiger",
        "kato",
        "shima",
        "shock_cannon",
        "edf_missiles",
    ],
    "P2": [
        "musai",
        "dolos",
        "zaku",
        "zaku",
        "char",
        "mega_particle",
        "zeon_missiles",
        "beam_spray",
    ],
    "P3": [
        "imperial_bb",
        "imperial_carrier",
        "walkure",
        "walkure",
        "reinhard",
        "ovlesser",
        "imperial_beam",
        "magnetic_plating",
    ],
}
ORDER = ["P2", "P1", "P3"]
FLEETS = {
    "P1": fleet(
        [
            {
                "card": "yamato",
                "characters": ["shima"],
                "aircraft": [{"card": "cosmo_tiger", "characters": ["kato"]}],
            }
        ],
        ["kongo_cruiser"],
    ),
    "P2": fleet([{"card": "musai", "aircraft": [{"card": "zaku"}]}], ["dolos"]),
    "P3": fleet(["imperial_bb"], [{"card": "imperial_carrier", "aircraft": [{"card": "walkure"}]}]),
}


def started(**options: Any) -> Any:
    s = session("multi3", **options)
    submit(s, None, {"type": "start_battle", "order": ORDER, "draws": HANDS})
    return s


def refused(s: Any, side: str | None, command: dict[str, Any], rule: str) -> WakeError:
    before = (len(s.facts), s.state)
    with pytest.raises(WakeError) as info:
        submit(s, side, command)
    assert info.value.rule == rule, info.value
    assert (len(s.facts), s.state) == before  # a refusal appends nothing
    return info.value


# --- ST-1.1, ST-1.2: decks, hands, order cards ---------------------------------------------------


def test_ST_1_1_each_deck_is_shuffled_from_the_dice_source_with_exact_odds() -> None:
    s = session("multi3", seed=5)
    events = submit(s, None, {"type": "start_battle"})
    shuffles = [e for e in events if isinstance(e, ev.DeckShuffled)]
    decks = {d.id: d.full() for d in bundled().decks.decks}
    assert [e.player for e in shuffles] == ["P1", "P2", "P3"]
    for e, deck_id in zip(shuffles, ["edf", "zeon", "empire"], strict=True):
        assert e.deck == decks[deck_id]
        assert len(e.faces) == len(e.deck) - 1  # Fisher–Yates
        assert Fraction(e.p_outcome or "0") == Fraction(1, factorial(30))
    assert shuffles[0].next_die == 29 and shuffles[1].next_die == 58


def test_ST_1_1_a_users_own_deck_lists_replace_the_provisional_ones() -> None:
    data = scenario("multi2")
    data["decks"] = {
        "provisional": False,
        "source": "my own EASY lists",
        "decks": [
            {"id": "edf", "name": "EDF", "cards": {"yamato": 2, "shock_cannon": 10}},
            {"id": "zeon", "name": "Zeon", "cards": {"musai": 4, "mega_particle": 8}},
        ],
    }
    resolved = get_ruleset("ships").resolve_scenario(data)
    assert resolved["data"]["decks"]["provisional"] is False
    assert resolved["data"]["cards"]["provisional"] is True  # the cards stay bundled
    data["decks"]["decks"][0]["cards"]["no_such_card"] = 1
    with pytest.raises(WakeError, match=r"decks\[edf\]: unknown card"):
        get_ruleset("ships").resolve_scenario(data)


def test_ST_1_2_everyone_draws_8_then_order_cards_with_exact_odds() -> None:
    s = session("multi3", seed=2)
    events = submit(s, None, {"type": "start_battle"})
    draws = [e for e in events if isinstance(e, ev.CardsDrawn) and e.rule == "ST-1.2"]
    assert [len(e.cards) for e in draws] == [8, 8, 8]
    order = next(e for e in events if isinstance(e, ev.TurnOrderDrawn))
    assert sorted(order.order) == ["P1", "P2", "P3"]
    assert order.p_outcome == "1/6" and len(order.faces) == 2
    # the draw comes after the hands (ST-1.2: "まず…8枚引く。次に順番を")
    assert topics(events).index("TurnOrderDrawn") > topics(events).index("CardsDrawn")
    assert all(len(p.hand) >= 8 for p in rules(s).players.values())


def test_ST_1_2_order_card_draw_explains_its_odds() -> None:
    from domain.explain import explain_event

    s = session("multi3", seed=2)
    submit(s, None, {"type": "start_battle"})
    index = next(i for i, f in enumerate(s.facts) if f.topic == "ships.TurnOrderDrawn/1")
    from domain.engine import replay

    ex = explain_event(replay(s.header, s.facts[:index]), s.facts, index)
    assert ex.rule == "ST-1.2" and ex.chance == "1/6" and "3 players" in ex.chance_note


def test_ST_1_2_physical_cards_a_scribe_names_the_order_and_the_draws() -> None:
    s = started()
    state = rules(s)
    assert state.order == tuple(ORDER)
    assert {p: list(state.players[p].hand) for p in HANDS} == HANDS
    assert not state.deck_known  # from now on draws are named
    assert state.active == "P2" and state.phase == "formation"


def test_ST_1_2_named_draws_are_checked_against_what_the_deck_can_hold() -> None:
    s = session("multi3")
    bad = {**HANDS, "P1": ["yamato", "yamato", *HANDS["P1"][2:]]}  # one Yamato in the deck
    refused(s, None, {"type": "start_battle", "order": ORDER, "draws": bad}, "ST-1.2")
    short = {**HANDS, "P1": HANDS["P1"][:7]}
    refused(s, None, {"type": "start_battle", "order": ORDER, "draws": short}, "ST-1.2")
    refused(s, None, {"type": "start_battle", "order": ["P1", "P2"], "draws": HANDS}, "ST-1.2")
    seeded = session("multi3", seed=1)
    refused(seeded, None, {"type": "start_battle", "order": ORDER}, "ST-1.2")


def test_ST_1_7_no_ship_card_draw_two_at_a_time_until_one_shows() -> None:
    s = session("multi3")
    no_ship = [
        "cosmo_tiger",
        "kato",
        "shima",
        "shock_cannon",
        "edf_missiles",
        "kodai",
        "asteroid_ring",
        "short_warp",
    ]
    pairs = ["shock_cannon", "wave_motion_gun", "edf_missiles", "isokaze_destroyer"]
    draws = {**HANDS, "P1": no_ship + pairs}
    events = submit(s, None, {"type": "start_battle", "order": ORDER, "draws": draws})
    search = [e for e in events if isinstance(e, ev.CardsDrawn) and e.rule == "ST-1.7"]
    assert [(e.player, e.cards) for e in search] == [("P1", pairs[:2]), ("P1", pairs[2:])]
    assert "isokaze_destroyer" in rules(s).players["P1"].hand
    # the scribe must name the whole search: stopping before the ship shows is refused
    s2 = session("multi3")
    cut = {**HANDS, "P1": no_ship + pairs[:2]}
    refused(s2, None, {"type": "start_battle", "order": ORDER, "draws": cut}, "ST-1.7")


# --- ST-1.3 – ST-1.9: fleets face down, revealed together ----------------------------------------


def test_ST_1_3_fleets_are_formed_face_down_in_turn_order() -> None:
    s = started()
    err = refused(s, "P1", {"type": "form_fleet", "digest": "0" * 64}, "ST-1.3")
    assert isinstance(err, NotYourTurn)
    events = commit(s, "P2", FLEETS["P2"])
    assert topics(events) == ["FleetCommitted", "StepStarted"]
    # only a digest is on the record: the fleet's cards are not
    assert "musai" not in json.dumps([f.payload for f in s.facts[-3:]])
    view = get_ruleset("ships").read_model(rules(s))
    sealed = [u for u in view.units if u.kind == "sealed"]
    assert [u.side for u in sealed] == ["P2"] and not sealed[0].private
    assert rules(s).active == "P1"


def test_ST_1_9_a_reveal_that_does_not_match_the_commitment_is_refused() -> None:
    s = started()
    for p in ORDER:
        commit(s, p, FLEETS[p])
    other = fleet(["dolos"], [{"card": "musai", "aircraft": [{"card": "zaku"}]}])
    cmd = {"type": "reveal_fleet", "fleet": other.model_dump(mode="json"), "salt": "test-salt"}
    refused(s, "P2", cmd, "ST-1.9")
    salted = {"type": "reveal_fleet", "fleet": FLEETS["P2"].model_dump(mode="json"), "salt": "x"}
    refused(s, "P2", salted, "ST-1.9")
    reveal(s, "P2", FLEETS["P2"])
    assert rules(s).units == {}  # not on the table until every fleet is revealed
    reveal(s, "P1", FLEETS["P1"])
    events = reveal(s, "P3", FLEETS["P3"])
    assert "FleetsPlaced" in topics(events) and "SegmentStarted" in topics(events)
    placed = next(e for e in events if isinstance(e, ev.FleetsPlaced))
    assert {u.owner for u in placed.units} == {"P1", "P2", "P3"}
    assert "yamato" not in rules(s).players["P1"].hand  # the cards left the hand


def test_ST_2_1_the_combat_phase_begins_as_soon_as_every_fleet_is_revealed() -> None:
    """ST-SEED / ST-2.1: the seed's multiplayer game goes from fleet formation straight to the
    Combat Phase, with no movement phase."""
    s = started()
    events = form_all(s, FLEETS)
    names = topics(events)
    assert names[names.index("FleetsPlaced") + 1] == "SegmentStarted"
    assert rules(s).segment == "long" and rules(s).phase in ("minovsky", "turns")


def test_ST_1_4_ships_come_only_from_the_hand() -> None:
    s = started()
    bad = fleet(["gwazine"])  # not in P2's hand
    commit(s, "P2", bad)
    commit(s, "P1", FLEETS["P1"])
    commit(s, "P3", FLEETS["P3"])
    err = refused(
        s,
        "P2",
        {"type": "reveal_fleet", "fleet": bad.model_dump(mode="json"), "salt": "test-salt"},
        "ST-1.4",
    )
    assert isinstance(err, IllegalCommand)


@pytest.mark.parametrize(
    "plan, rule",
    [
        (fleet([{"card": "musai", "aircraft": [{"card": "zaku"}, {"card": "zaku"}]}]), "ST-1.5"),
        (fleet(["musai", "dolos"]), "ST-1.8"),
        (fleet([], ["musai"]), "ST-1.8"),
        (fleet([{"card": "musai", "characters": ["zaku"]}]), "ST-1.6"),
        (fleet(["zaku"]), "ST-1.3"),
    ],
    ids=[
        "more-aircraft-than-capacity",
        "two-ships-one-box",
        "no-vanguard",
        "not-a-character",
        "not-a-ship",
    ],
)
def test_ST_1_5_to_1_8_placement_limits_are_refused_at_the_reveal(plan: Any, rule: str) -> None:
    s = started()
    commit(s, "P2", plan)
    commit(s, "P1", FLEETS["P1"])
    commit(s, "P3", FLEETS["P3"])
    cmd = {"type": "reveal_fleet", "fleet": plan.model_dump(mode="json"), "salt": "test-salt"}
    refused(s, "P2", cmd, rule)


def test_ST_1_5_ST_1_6_aircraft_up_to_capacity_and_characters_on_ships_and_aircraft() -> None:
    s = started()
    form_all(s, FLEETS)
    units = rules(s).units
    assert units["P1-b1-V1-C1"].card == "shima" and units["P1-b1-V1-C1"].on == "P1-b1-V1"
    assert units["P1-b1-V1-A1"].card == "cosmo_tiger" and units["P1-b1-V1-A1"].air == "aboard"
    assert units["P1-b1-V1-A1-C1"].card == "kato" and units["P1-b1-V1-A1-C1"].on == "P1-b1-V1-A1"
    assert units["P1-b1-R1"].card == "kongo_cruiser" and units["P1-b1-R1"].box == "rearguard"


def test_ST_1_8_one_ship_card_places_the_vanguard_only_and_the_box_size_is_an_option() -> None:
    s = started()
    fleets = {**FLEETS, "P2": fleet(["musai"])}  # two ships in hand, only a vanguard placed
    form_all(s, fleets)
    assert [u.id for u in rules(s).units.values() if u.owner == "P2"] == ["P2-b1-V1"]
    wide = started(ships_per_box=2)
    form_all(wide, {**FLEETS, "P2": fleet(["musai", "dolos"])})
    assert {u.box for u in rules(wide).units.values() if u.owner == "P2"} == {"vanguard"}


def test_ST_5_4_nadesico_a_and_the_y_unit_type_count_as_one_ship() -> None:
    s = session("multi6")
    hands = {
        "P1": [
            "yamato",
            "kongo_cruiser",
            "cosmo_tiger",
            "kato",
            "shima",
            "shock_cannon",
            "edf_missiles",
            "kodai",
        ],
        "P2": [
            "musai",
            "dolos",
            "zaku",
            "zaku",
            "char",
            "mega_particle",
            "zeon_missiles",
            "beam_spray",
        ],
        "P3": [
            "magellan",
            "salamis",
            "gm",
            "amuro",
            "bright",
            "fed_beam",
            "fed_missiles",
            "point_defence",
        ],
        "P4": [
            "imperial_bb",
            "imperial_carrier",
            "walkure",
            "walkure",
            "reinhard",
            "ovlesser",
            "imperial_beam",
            "magnetic_plating",
        ],
        "P5": [
            "nadesico_a",
            "nadesico_y",
            "aestivalis",
            "aestivalis",
            "akito",
            "ruri",
            "gravity_blast",
            "distortion_field",
        ],
        "P6": [
            "hyperion",
            "ulysses",
            "spartanian",
            "yang",
            "schenkopp",
            "poplin",
            "alliance_beam",
            "alliance_decoys",
        ],
    }
    order = ["P1", "P2", "P3", "P4", "P5", "P6"]
    submit(s, None, {"type": "start_battle", "order": order, "draws": hands})
    fleets = {p: fleet([hands[p][0]]) for p in order}
    fleets["P5"] = fleet(
        [{"card": "nadesico_y", "aircraft": [{"card": "aestivalis"}]}],
        [{"card": "nadesico_a", "aircraft": [{"card": "aestivalis", "characters": ["akito"]}]}],
    )
    events = form_all(s, fleets)
    placed = next(e for e in events if isinstance(e, ev.FleetsPlaced))
    assert placed.combined == ["nadesico_a"]
    p5 = [u for u in rules(s).units.values() if u.owner == "P5"]
    ships = [u for u in p5 if u.kind == "ship"]
    assert len(ships) == 1 and ships[0].card == "nadesico_y"
    assert ships[0].extra_cards == ("nadesico_a",) and ships[0].box == "vanguard"
    assert sum(1 for u in p5 if u.kind == "aircraft") == 2
    assert "nadesico_a" not in rules(s).players["P5"].hand


# --- ST-4.3, ST-4.4, ST-2.2 over a whole game ---------------------------------------------------


def _bot_game(name: str, seed: int) -> Any:
    s = session(name, seed=seed)
    while s.submit_bot() is not None:
        pass
    return s


def test_ST_2_2_ST_4_3_ST_4_4_five_battles_five_segments_refills_and_new_orders() -> None:
    s = _bot_game("multi4", 3)
    state = s.state
    events = loaded(s)
    segments = [e.segment for e in events if isinstance(e, ev.SegmentStarted)]
    assert segments == ["long", "medium", "aircraft", "short", "boarding"] * 5
    assert [e.battle for e in events if isinstance(e, ev.BattleStarted)] == [1, 2, 3, 4, 5]
    refills = [e for e in events if isinstance(e, ev.CardsDrawn) and e.rule == "ST-4.3"]
    assert refills and all(e.player for e in refills)
    orders = [e.order for e in events if isinstance(e, ev.TurnOrderDrawn)]
    assert len(orders) == 5
    end = state.result
    assert end is not None and end.rule == "ST-4.4"
    assert end.winner == max(end.vp, key=lambda p: end.vp[p])
    # within a segment, players take their turns in the battle's turn order
    order, turns = None, []
    for e in events:
        if isinstance(e, ev.TurnOrderDrawn):
            order = e.order
        if isinstance(e, ev.StepStarted) and e.phase == "turns":
            turns.append(e.player)
        if isinstance(e, ev.SegmentStarted | ev.BattleScored) and turns and order:
            assert turns == [p for p in order if p in turns]
            turns = []


def test_ST_4_3_every_hand_is_refilled_to_8_before_each_battle() -> None:
    s = session("multi3", seed=4)
    submit(s, None, {"type": "start_battle"})
    while rules(s).battle < 2 or rules(s).phase == "setup":
        s.submit_bot()
    for p in rules(s).order:
        player = rules(s).players[p]
        assert len(player.hand) >= 8 or not player.deck


def test_ST_5_5_a_player_out_of_deck_and_ships_drops_out_but_keeps_vp() -> None:
    data = scenario("multi3")
    data["decks"] = {
        "decks": [
            {"id": "edf", "name": "EDF", "cards": {"isokaze_destroyer": 1, "shock_cannon": 8}},
            {"id": "zeon", "name": "Zeon", "cards": {"musai": 15, "mega_particle": 15}},
            {"id": "empire", "name": "Empire", "cards": {"imperial_bb": 15, "imperial_beam": 15}},
        ]
    }
    from domain.engine import Session, header_for

    s = Session(header_for("ships", data, game_id="drop", seed=7))
    while s.submit_bot() is not None:
        pass
    events = loaded(s)
    dropped = [e for e in events if isinstance(e, ev.PlayerDroppedOut)]
    assert [e.player for e in dropped] == ["P1"]
    p1 = rules(s).players["P1"]
    assert p1.out and p1.vp == dropped[0].vp
    later = events[events.index(dropped[0]) :]
    assert not any(isinstance(e, ev.FleetCommitted) and e.player == "P1" for e in later)
    assert s.state.result is not None and s.state.result.vp["P1"] == p1.vp


def test_ST_5_5_the_game_ends_when_fewer_than_two_players_can_fight() -> None:
    data = scenario("multi2")
    data["decks"] = {
        "decks": [
            {"id": "edf", "name": "EDF", "cards": {"isokaze_destroyer": 1, "shock_cannon": 8}},
            {"id": "zeon", "name": "Zeon", "cards": {"musai": 15, "mega_particle": 15}},
        ]
    }
    from domain.engine import Session, header_for

    s = Session(header_for("ships", data, game_id="end", seed=7))
    while s.submit_bot() is not None:
        pass
    assert s.state.result is not None and s.state.result.rule == "ST-5.5"


# --- hidden information ---------------------------------------------------------------------------


def test_a_players_view_and_log_never_show_another_players_hand_or_sealed_fleet() -> None:
    s = started()
    commit(s, "P2", FLEETS["P2"], show=True)
    commit(s, "P1", FLEETS["P1"], show=True)  # P1's fleet is face down: yamato, shima, kato…
    ruleset = get_ruleset("ships")
    hidden = {"yamato", "kato", "shima", "cosmo_tiger", "Yamato", "Kato Saburo", "Shima Daisuke"}
    state = s.header and rules(s)
    from domain.engine import decode, new_game

    before = new_game(s.header)
    texts, payloads = [], []
    for fact in s.facts:
        event = decode(before, fact)
        redacted = ruleset.redact(event, "P2")
        texts.append(ruleset.describe(redacted))
        payloads.append(redacted.model_dump(mode="json"))
        from domain.engine import apply_fact

        before = apply_fact(before, fact)
    view = redact_view(ruleset.read_model(state), "P2")
    blob = json.dumps([texts, payloads, view.model_dump(mode="json")], ensure_ascii=False)
    assert not [card for card in hidden if card in blob]
    assert "musai" in blob  # P2 sees its own hand
    umpire = json.dumps(ruleset.read_model(state).model_dump(mode="json"), ensure_ascii=False)
    assert "yamato" in umpire  # the umpire sees all
    # P1's hand less its face-down fleet (5 cards), and two face-down boxes: counts, not cards
    assert len([u for u in view.units if u.side == "P1" and u.zone == "hand"]) == 3
    boxes = [
        u.zone for u in view.units if u.side == "P1" and u.kind == "hidden" and u.zone != "hand"
    ]
    assert boxes == ["vanguard", "rearguard"]
    # P2 sees its own face-down fleet; its hand shows only the cards left
    own = [u for u in view.units if u.side == "P2" and u.kind == "face-down ship"]
    assert [(u.zone, u.details["card"]) for u in own] == [
        ("vanguard", "musai"),
        ("rearguard", "dolos"),
    ]
    assert len([u for u in view.units if u.side == "P2" and u.zone == "hand"]) == 8 - 3


def test_ST_1_3_a_fleet_given_with_its_seal_is_checked_when_it_is_placed_face_down() -> None:
    s = started()
    good = FLEETS["P2"]
    digest = seal(fleet_content("P2", 1, good), "salt-1").digest
    cmd = {"type": "form_fleet", "digest": digest, "fleet": good.model_dump(mode="json")}
    refused(s, "P2", {**cmd, "salt": "other"}, "ST-1.3")  # does not open the digest
    refused(s, "P2", cmd, "ST-1.3")  # a fleet without its salt
    heavy = fleet([{"card": "musai", "aircraft": [{"card": "zaku"}, {"card": "zaku"}]}])
    digest = seal(fleet_content("P2", 1, heavy), "salt-1").digest
    bad = {"type": "form_fleet", "digest": digest, "fleet": heavy.model_dump(mode="json")}
    refused(s, "P2", {**bad, "salt": "salt-1"}, "ST-1.5")  # more aircraft than capacity
    commit(s, "P2", good, "salt-1", show=True)
    assert rules(s).planned["P2"] == good


def test_nobody_sees_the_deck_order() -> None:
    s = session("multi3", seed=3)
    events = submit(s, None, {"type": "start_battle"})
    shuffle = next(e for e in events if isinstance(e, ev.DeckShuffled))
    ruleset = get_ruleset("ships")
    for viewer in ("P1", "P2"):
        assert ruleset.redact(shuffle, viewer).faces == []  # type: ignore[attr-defined]
    assert ruleset.redact(shuffle, None) == shuffle


def test_out_of_turn_and_umpire_orders_are_refused() -> None:
    s = started()
    err = refused(s, "P3", {"type": "form_fleet", "digest": "0" * 64}, "ST-1.3")
    assert isinstance(err, NotYourTurn)
    with pytest.raises(InvalidCommand):
        submit(s, "P9", {"type": "form_fleet", "digest": "0" * 64})


def test_physical_dice_faces_may_drive_the_shuffles_and_the_record_verifies() -> None:
    """A physical table that shuffles by dice: the scribe enters the faces (d30…d2 per deck, then
    the order cards); too few faces are refused and nothing is appended."""
    from domain.engine import CommandEnvelope
    from domain.errors import DiceMismatch
    from domain.record import read_record, verify_record, write_record

    s = session("multi3")
    faces = [1] * (3 * 29) + [2, 1]
    with pytest.raises(DiceMismatch):
        s.submit(CommandEnvelope(command={"type": "start_battle"}, dice=faces[:-1]))
    assert s.facts == []
    s.submit(CommandEnvelope(command={"type": "start_battle"}, dice=faces))
    state = rules(s)
    assert state.deck_known and all(len(p.hand) >= 8 for p in state.players.values())
    order = next(f for f in s.facts if f.topic == "ships.TurnOrderDrawn/1").payload
    assert order["faces"] == [2, 1] and order["p_outcome"] == "1/6"
    assert verify_record(read_record(write_record(s.header, s.facts))).events == len(s.facts)


def test_ST_5_5_a_player_whose_deck_ran_out_still_fights_with_its_hand() -> None:
    from domain.engine import Session, header_for

    data = scenario("multi3")
    data["decks"] = {
        "decks": [
            {"id": "edf", "name": "EDF", "cards": {"isokaze_destroyer": 3, "shock_cannon": 6}},
            {"id": "zeon", "name": "Zeon", "cards": {"musai": 15, "mega_particle": 15}},
            {"id": "empire", "name": "Empire", "cards": {"imperial_bb": 15, "imperial_beam": 15}},
        ]
    }
    s = Session(header_for("ships", data, game_id="empty-deck", seed=1))
    while s.submit_bot() is not None:
        pass
    battle, empty_in, fought_after = 0, None, False
    for e in loaded(s):
        if isinstance(e, ev.BattleStarted):
            battle = e.battle
        if isinstance(e, ev.CardsDrawn) and e.player == "P1" and e.empty:
            empty_in = battle
            assert len(e.cards) < 8  # the draw stopped where the deck ran out
        if isinstance(e, ev.FleetCommitted) and e.player == "P1" and empty_in == battle:
            fought_after = True
    assert empty_in is not None and fought_after
