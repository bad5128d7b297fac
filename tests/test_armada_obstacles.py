"""Star Wars: Armada obstacles and displaced squadrons, version 0.2 (issue 22, items 1–3):

* SWA-OVL: a squadron that ends its move on a station recovers one hull;
* SWA-OVL: squadrons a ship overlapped go touching that ship while it has room beside it, and
  touching a squadron that touches it only when no room is left;
* SWA-OVL: the debris field's hull zone and the station's discard are orders of the ship's
  owner (the bot chooses for bots), listed by ``legal_commands``; every other order waits.

Games recorded with version 0.1 re-run with 0.1's readings (Wake chose for the owner, no repair
on a station, no placement priority): their records keep verifying.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from domain.errors import IllegalCommand, InvalidCommand, NotYourTurn
from domain.frozen import changed
from domain.rulesets.armada import maneuvering
from domain.rulesets.armada.attack_events import DamageSuffered
from domain.rulesets.armada.commands import DebrisZone, StationDiscard
from domain.rulesets.armada.events import (
    ActivationEnded,
    DamageCardDiscarded,
    ObstacleChoiceAwaited,
    ObstacleChoiceMade,
    SquadronHullRecovered,
    SquadronMoved,
)
from domain.rulesets.armada.geometry import Disc
from domain.rulesets.armada.maneuvering import TOUCH, room_beside
from domain.rulesets.armada.ruleset import ArmadaRuleset
from domain.rulesets.armada.state import (
    ArmadaState,
    DamageCardState,
    Displaced,
    with_ship,
    with_squadron,
)
from tests.armada_helpers import Game, armada, bundled, of, scenario, ship, squadron

__all__ = ["armada"]


def _set(game: Game, rules: ArmadaState) -> None:
    """Put the game in ``rules`` (a position set up by hand)."""
    game.session.state = dataclasses.replace(game.session.state, rules=rules)


def _start(game: Game) -> None:
    for side in ("empire", "rebels"):
        plan = {
            s.id: ["navigate"] * game.state.card(s.id).command
            for s in game.state.ships.values()
            if s.side == side
        }
        game.set_dials(side, plan)


def _on(kind: str, squadrons: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The CR90 (Rebels, first player) two speed-2 straight moves short of a station or a
    debris field at (300, 560)."""
    shape = "station" if kind == "station" else "debris_1"
    return scenario(
        [
            ship("victory", "empire", "victory_ii", 700.0, 120.0, 0.0, 1),
            ship("cr90", "rebels", "cr90_a", 300.0, 700.0, 180.0, 2),
        ],
        squadrons,
        obstacles=[{"id": kind, "shape": shape, "x": 300.0, "y": 560.0}],
    )


# --------------------------------------------------------------------------- item 1


def _squadron_on_station(version: str | None) -> tuple[Game, list[Any]]:
    data = scenario(
        [
            ship("victory", "empire", "victory_ii", 700.0, 120.0, 0.0, 1),
            ship("cr90", "rebels", "cr90_a", 150.0, 800.0, 180.0, 1),
        ],
        [squadron("xwing", "rebels", "x_wing", 300.0, 650.0)],
        obstacles=[{"id": "station", "shape": "station", "x": 300.0, "y": 560.0}],
    )
    game = Game(data, version=version)
    _start(game)
    game.reveal("cr90")
    game.maneuver("cr90")
    game.bot()  # the Victory activates (reveal)
    while game.state.phase == "ship":
        game.bot()
    # the Squadron Phase: the damaged X-wing (4 of 5 hull) flies onto the station
    _set(game, with_squadron(game.state, "xwing", hull=4))
    order = {"type": "activate_squadron", "squadron": "xwing", "move_to": [300.0, 560.0]}
    events = game.do("rebels", order)
    return game, events


def test_swa_ovl_a_squadron_ending_its_move_on_a_station_recovers_one_hull(
    armada: ArmadaRuleset,
) -> None:
    """SWA-OVL (issue 22 item 1): an X-wing at 4/5 hull that ends its move on the station is
    back to 5/5, with an event saying so."""
    game, events = _squadron_on_station(None)
    assert of(events, SquadronMoved)
    recovered = of(events, SquadronHullRecovered)
    assert [(r.squadron, r.obstacle, r.hull) for r in recovered] == [("xwing", "station", 5)]
    assert game.state.squadrons["xwing"].hull == 5
    assert "recovers 1 hull" in armada.describe(recovered[0])


def test_swa_ovl_version_0_1_repaired_no_squadron_on_a_station(armada: ArmadaRuleset) -> None:
    """A 0.1 record re-runs as 0.1 played it: no repair on the station."""
    game, events = _squadron_on_station("0.1")
    assert of(events, SquadronMoved) and not of(events, SquadronHullRecovered)
    assert game.state.squadrons["xwing"].hull == 4


# --------------------------------------------------------------------------- item 2


def _displaced(game: Game, where: dict[str, tuple[float, float]]) -> ArmadaState:
    """The state after the Victory overlapped ``tie``: the Rebels place it; the other squadrons
    stand at ``where``."""
    state = game.state
    for sq_id, (x, y) in where.items():
        state = with_squadron(state, sq_id, x=x, y=y)
    return changed(state, displaced=Displaced(ship="victory", squadrons=("tie",), placer="rebels"))


def _ring_game(version: str | None = None) -> Game:
    data = scenario(
        [
            ship("victory", "empire", "victory_ii", 457.2, 150.0, 0.0, 1),
            ship("cr90", "rebels", "cr90_a", 300.0, 780.0, 180.0, 1),
        ],
        [
            squadron("tie", "empire", "tie_fighter", 457.2, 245.0),
            *(squadron(f"x{i}", "rebels", "x_wing", 60.0 + 40.0 * i, 880.0) for i in range(18)),
        ],
        first="empire",
    )
    game = Game(data, version=version)
    _start(game)
    game.reveal("victory")
    return game


def _touching(state: ArmadaState, centre: tuple[float, float]) -> tuple[float, float]:
    """A point touching the squadron at ``centre`` on the side away from the Victory."""
    radius = state.data.geometry.squadron_base_radius
    return (centre[0], centre[1] + 2 * radius + TOUCH / 2)


def test_swa_ovl_displaced_squadrons_touch_the_ship_while_it_has_room(
    armada: ArmadaRuleset,
) -> None:
    """SWA-OVL (issue 22 item 2): with room beside the Victory, a TIE placed touching an
    X-wing that touches the ship is refused; placed touching the ship it is accepted."""
    game = _ring_game()
    radius = game.state.data.geometry.squadron_base_radius
    front = game.state.placed("victory").base.bounds[3]  # the base's front edge (y)
    anchor = (457.2, front + radius + TOUCH / 2)
    state = _displaced(game, {"x0": anchor})
    _set(game, state)
    assert not room_beside(state, "victory", [state.disc("x0")]).is_empty
    outer = {"type": "place_squadrons", "positions": {"tie": list(_touching(state, anchor))}}
    error = game.refuse("rebels", outer, IllegalCommand, "SWA-OVL")
    assert "room beside it" in str(error)
    order = armada.bot_command(state, "rebels")
    assert order is not None
    placed = order.model_dump(mode="json")["positions"]["tie"]
    gap = maneuvering.distance_between(state.placed("victory").base, state.disc("tie", placed))
    assert 0 <= gap <= TOUCH
    game.do("rebels", order.model_dump(mode="json"))


def _surround(state: ArmadaState) -> dict[str, tuple[float, float]]:
    """Rebel X-wings around the Victory until no room is left beside it (the bot's own
    :func:`room_beside` finds the gaps), each one touching the ship."""
    radius = state.data.geometry.squadron_base_radius
    where: dict[str, tuple[float, float]] = {}
    for i in range(18):
        discs = [Disc(p, radius) for p in where.values()]
        room = room_beside(state, "victory", discs)
        if room.is_empty:
            return where
        part = room.geoms[0] if hasattr(room, "geoms") else room
        where[f"x{i}"] = part.coords[0]
    raise AssertionError("eighteen squadrons did not fill the room beside the Victory")


def test_swa_ovl_touching_a_squadron_only_when_the_ship_has_no_room(
    armada: ArmadaRuleset,
) -> None:
    """SWA-OVL (issue 22 item 2): once squadrons touch the Victory all round, the displaced TIE
    goes touching one of them; the bot finds that place too."""
    game = _ring_game()
    state = _displaced(game, {})
    where = _surround(state)
    state = _displaced(game, where)
    _set(game, state)
    order = armada.bot_command(state, "rebels")
    assert order is not None
    tie = order.model_dump(mode="json")["positions"]["tie"]
    assert (
        maneuvering.distance_between(state.placed("victory").base, state.disc("tie", tie)) > TOUCH
    )
    events = game.do("rebels", order.model_dump(mode="json"))
    assert of(events, ActivationEnded)


def test_swa_ovl_version_0_1_had_no_placement_priority(armada: ArmadaRuleset) -> None:
    """A 0.1 record re-runs as 0.1 played it: touching a squadron that touches the ship was
    enough, room or not."""
    game = _ring_game("0.1")
    radius = game.state.data.geometry.squadron_base_radius
    front = game.state.placed("victory").base.bounds[3]
    anchor = (457.2, front + radius + TOUCH / 2)
    state = _displaced(game, {"x0": anchor})
    _set(game, state)
    outer = {"type": "place_squadrons", "positions": {"tie": list(_touching(state, anchor))}}
    assert of(game.do("rebels", outer), ActivationEnded)


# --------------------------------------------------------------------------- item 3


def test_swa_ovl_the_owner_picks_the_debris_zone(armada: ArmadaRuleset) -> None:
    """SWA-OVL (issue 22 item 3): a ship ending on a debris field waits for its owner's hull
    zone; every other order is refused meanwhile; the two damage go to the zone picked; the
    bot would pick the zone with the most shields; ``legal_commands`` lists the four zones."""
    game = Game(_on("debris"))
    _start(game)
    game.reveal("cr90")
    events = game.maneuver("cr90", clicks=[0, 0])
    awaited = of(events, ObstacleChoiceAwaited)
    assert [(a.ship, a.kind, a.chooser) for a in awaited] == [("cr90", "debris", "rebels")]
    assert not of(events, ActivationEnded) and not of(events, DamageSuffered)
    state = game.state
    assert armada.to_act(state) == ["rebels"]
    legal = armada.legal_commands(state, "rebels")
    assert {c.zone for c in legal if isinstance(c, DebrisZone)} == {
        "front",
        "right",
        "rear",
        "left",
    }
    assert armada.bot_command(state, "rebels") == DebrisZone(ship="cr90", zone="front")
    pick = {"type": "debris_zone", "ship": "cr90", "zone": "rear"}
    game.refuse("empire", pick, NotYourTurn, "SWA-OVL")
    game.refuse("rebels", {"type": "station_discard", "ship": "cr90"}, IllegalCommand, "SWA-OVL")
    game.refuse("rebels", {**pick, "ship": "victory"}, IllegalCommand, "SWA-OVL")
    error = game.refuse(
        "rebels",
        {"type": "maneuver", "ship": "cr90", "speed": 2, "clicks": [0, 0]},
        IllegalCommand,
        "SWA-OVL",
    )
    assert "Rebel Alliance's choice" in str(error)  # the side by its name (issue 21)
    events = game.do("rebels", pick)
    made = of(events, ObstacleChoiceMade)[0]
    assert (made.kind, made.zone) == ("debris", "rear")
    suffered = of(events, DamageSuffered)[0]
    assert (suffered.zone, suffered.rule, suffered.shields_lost, suffered.cards) == (
        "rear",
        "SWA-OVL",
        1,
        1,
    )
    assert of(events, ActivationEnded)
    after = game.state.ships["cr90"]
    assert after.shields["rear"] == 0 and len(after.damage) == 1
    assert game.state.obstacle_choice is None


def _station_game(version: str | None = None) -> Game:
    game = Game(_on("station"), version=version)
    _start(game)
    cards = (
        DamageCardState(card="structural_damage"),
        DamageCardState(card="blinded_gunners", face_up=True),
        DamageCardState(card="injured_crew"),
    )
    _set(game, with_ship(game.state, "cr90", damage=cards))
    game.reveal("cr90")
    return game


def test_swa_ovl_the_owner_picks_the_station_discard(armada: ArmadaRuleset) -> None:
    """SWA-OVL (issue 22 item 3): on a station the owner picks the damage card to discard (a
    face-down one here: the face-up card stays) or none; the bot takes a face-up card first;
    a side's view of the discarded face-down card hides it."""
    game = _station_game()
    events = game.maneuver("cr90", clicks=[0, 0])
    assert of(events, ObstacleChoiceAwaited)[0].kind == "station"
    assert not of(events, DamageCardDiscarded)
    state = game.state
    legal = [c for c in armada.legal_commands(state, "rebels") if isinstance(c, StationDiscard)]
    assert {c.card for c in legal} == {0, 1, None}  # one face-down card stands for both
    assert armada.bot_command(state, "rebels") == StationDiscard(ship="cr90", card=1)
    game.refuse(
        "rebels", {"type": "station_discard", "ship": "cr90", "card": 3}, InvalidCommand, "SWA-OVL"
    )
    game.refuse(
        "rebels",
        {"type": "debris_zone", "ship": "cr90", "zone": "front"},
        IllegalCommand,
        "SWA-OVL",
    )
    events = game.do("rebels", {"type": "station_discard", "ship": "cr90", "card": 2})
    discarded = of(events, DamageCardDiscarded)[0]
    assert (discarded.card, discarded.face_up, discarded.rule) == ("injured_crew", False, "SWA-OVL")
    assert armada.redact(discarded, "rebels").card != "injured_crew"
    assert armada.redact(discarded, "empire").card != "injured_crew"
    assert [c.card for c in game.state.ships["cr90"].damage] == [
        "structural_damage",
        "blinded_gunners",
    ]
    assert of(events, ActivationEnded)


def test_swa_ovl_the_owner_may_keep_its_cards_on_a_station(armada: ArmadaRuleset) -> None:
    """SWA-OVL: a station lets the ship discard a card; discarding none is the owner's choice."""
    game = _station_game()
    game.maneuver("cr90", clicks=[0, 0])
    events = game.do("rebels", {"type": "station_discard", "ship": "cr90", "card": None})
    assert not of(events, DamageCardDiscarded) and of(events, ActivationEnded)
    assert len(game.state.ships["cr90"].damage) == 3


def test_swa_ovl_version_0_1_chose_for_the_owner(armada: ArmadaRuleset) -> None:
    """A 0.1 record re-runs as 0.1 played it: no order, Wake discarded the face-up card."""
    game = _station_game("0.1")
    events = game.maneuver("cr90", clicks=[0, 0])
    assert not of(events, ObstacleChoiceAwaited)
    assert of(events, DamageCardDiscarded)[0].card == "blinded_gunners"
    assert of(events, ActivationEnded)


@pytest.mark.parametrize("seed", [2, 3])
def test_bots_answer_every_obstacle_choice_they_meet(armada: ArmadaRuleset, seed: int) -> None:
    """SWA-OVL: bot games of the learning scenario (seeds where a ship ends on an obstacle that
    waits for its owner) finish; the bot's answer is among ``legal_commands``."""
    game = Game(bundled("core_learning"), seed=seed)
    met = 0
    for _ in range(3000):
        state = game.state
        if state.result is not None:
            break
        if state.obstacle_choice is not None:
            met += 1
            side = state.obstacle_choice.chooser
            assert armada.bot_command(state, side) in armada.legal_commands(state, side)
        game.bot()
    assert game.state.result is not None and met >= 1


def test_armada_0_2_replays_0_1_records(armada: ArmadaRuleset) -> None:
    """The bump (issue 22): new games are 0.2; the bundled records, made with 0.1, still verify
    with 0.1's readings (they met stations and displaced squadrons)."""
    from domain.record import read_record_file, verify_record
    from tests.helpers import FIXTURES

    assert armada.meta.version == "0.2" and "0.1" in armada.meta.replays
    record = read_record_file(FIXTURES / "games/armada/core_learning-overlap.wake.json")
    assert record.header.ruleset.version == "0.1"
    assert verify_record(record).events == len(record.events)
