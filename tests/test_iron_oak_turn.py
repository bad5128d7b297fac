"""Iron & Oak: the sequence of play through the engine (IO-3, IO-4, IO-5, IO-6.2.3H/I, IO-6.2.4,
IO-9.3), driven as a player would drive it: one command at a time through a ``Session``.

Games are steered with a "quiet" driver (every ship Maneuver 0, no fire, no card, no exchange)
up to the step a test needs, or with the bot for whole games. Situations the sequence cannot
reach by itself are set up in the scenario (positions, extra ships, ``first_player``, hands dealt
with ``Deal(hands=...)``) or, where a ship must already be damaged, retiring or captured, by
:func:`doctor` (the state is changed before the commands under test are given). Dice that must
fall a certain way come from :class:`Rigged` (scripted faces, then the game's seeded dice).

Bundled data used (provisional): hampton_roads — virginia (CSA, draft 5, moves d8d6, Smokestack
−2 from the start, heavy damage at 12 hits, 12 VP), cumberland (USA, draft 4, 6 VP), monitor (USA,
draft 3, moves d8d6, 8 VP); default depth 5, (4, 0) depth 4, (0, 4) a bank; CSA enters and exits
by the S edge, USA by N; USA plays first. Movement Opposition: Maneuver 1, enter, exit d6.
Initial hand 5 cards.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterable
from importlib import resources
from typing import Any

import pytest

from domain.dice import seeded_face
from domain.engine import CommandEnvelope, Fact, Session, decode, header_for, replay
from domain.errors import (
    GameOver,
    IllegalCommand,
    InvalidCommand,
    NotYourTurn,
    WakeError,
    WrongPhase,
)
from domain.events import DomainEvent, GameEnded
from domain.ruleset import get_ruleset
from domain.rulesets.iron_oak.commands import ORDER_KINDS
from domain.rulesets.iron_oak.data import BUNDLED_SCENARIOS, bundled_scenario, resolve_data
from domain.rulesets.iron_oak.orders import order_content
from domain.rulesets.iron_oak.rules import victory, victory_points
from domain.rulesets.iron_oak.sequence import (
    controller,
    movers_left,
    next_numbered,
    other,
    to_act,
    under_command,
)
from domain.rulesets.iron_oak.state import CriticalState, IronOakState, initial_state
from domain.sealed import Commitment, seal, verify_reveal

GAME_ID = "00000000-0000-4000-8000-00000000101f"
ANY = object()  # play_until: any side
Cell = tuple[int, int]

# --------------------------------------------------------------------------- building games


def scenario(
    name: str = "hampton_roads",
    at: dict[str, Cell | str] | None = None,
    extra: Iterable[dict[str, Any]] = (),
    **fields: Any,
) -> dict[str, Any]:
    """A bundled scenario as JSON with ships moved (``at``: a cell or ``"offmap:X"``), ships
    added (``extra``) and top-level fields replaced (``turn_limit=1``...)."""
    scen = bundled_scenario(name).model_dump(mode="json")
    for ship in scen["ships"]:
        where = (at or {}).get(ship["id"])
        if where is not None:
            ship["at"] = where if isinstance(where, str) else list(where)
    scen["ships"] += [dict(s) for s in extra]
    scen.update(fields)
    return scen


def tennessee(where: Cell | str) -> dict[str, Any]:
    """A second CSA ship (no starting criticals)."""
    return {
        "id": "tennessee",
        "card": "tennessee",
        "side": "CSA",
        "at": where if isinstance(where, str) else list(where),
    }


def new_game(
    scen: dict[str, Any] | None = None,
    *,
    mode: str = "standard",
    seed: int = 7,
    cards: dict[str, Any] | None = None,
) -> Session:
    data: dict[str, Any] = scen if scen is not None else scenario()
    if cards is not None:
        data = {"scenario": data, "cards": cards}
    header = header_for("iron_oak", data, game_id=GAME_ID, seed=seed, options={"mode": mode})
    return Session(header)


def bundled_cards_json() -> dict[str, Any]:
    text = (
        resources.files("domain.rulesets.iron_oak")
        .joinpath("data/action_cards.json")
        .read_text("utf-8")
    )
    data: dict[str, Any] = json.loads(text)
    return data


def doctor(s: Session, ship: str, **changes: Any) -> None:
    """Put a ship in a state the test needs (damaged, retiring, captured, burning...)."""
    rules = s.state.rules
    ships = dict(rules.ships)
    ships[ship] = ships[ship].model_copy(update=changes)
    s.state = dataclasses.replace(s.state, rules=rules.model_copy(update={"ships": ships}))


class Rigged:
    """Dice that fall as scripted, then as the game's seeded dice would."""

    def __init__(self, s: Session, *faces: int) -> None:
        self.faces = list(faces)
        assert s.header.dice.seed is not None
        self.seed: int = s.header.dice.seed
        self.position = s.state.dice_position

    def draw(self, die: Any) -> int:
        if self.faces:
            face = self.faces.pop(0)
            assert 1 <= face <= die.sides, f"face {face} on a d{die.sides}"
        else:
            face = seeded_face(self.seed, self.position, die.sides)
        self.position += 1
        return face


# --------------------------------------------------------------------------- commands


def submit(s: Session, side: str | None, command: dict[str, Any], dice: Any = None) -> list[Fact]:
    return s.submit(CommandEnvelope(side=side, command=command), dice)


def refused(
    s: Session,
    side: str | None,
    command: dict[str, Any],
    error: type[WakeError] = IllegalCommand,
    rule: str | None = None,
) -> WakeError:
    """The command is refused with ``error`` (and ``rule``) and nothing is appended."""
    facts, state = list(s.facts), s.state
    with pytest.raises(error) as info:
        submit(s, side, command)
    assert s.facts == facts
    assert s.state == state
    if rule is not None:
        assert info.value.rule == rule, str(info.value)
    return info.value


def salt(ship: str, turn: int) -> str:
    return f"test-salt:{ship}:{turn}"


def orders(
    state: IronOakState,
    side: str,
    plan: dict[str, str] | None = None,
    numbers: dict[str, int] | None = None,
) -> dict[str, Any]:
    """AssignOrders sealing ``plan``'s order on each ship under command (default Maneuver 0);
    in alternating play the ships are numbered in name order unless ``numbers`` is given."""
    ships = under_command(state, side)  # type: ignore[arg-type]
    plan = plan or {}
    seals = {
        ship: seal(
            order_content(ship, state.turn, plan.get(ship, "maneuver_0")), salt(ship, state.turn)
        ).digest
        for ship in ships
    }
    command: dict[str, Any] = {"type": "assign_orders", "seals": seals}
    if numbers is None and state.options.mode == "alternating":
        start = 1 if side == state.scenario.first_player else 2
        numbers = {ship: start + 2 * i for i, ship in enumerate(sorted(ships))}
    if numbers:
        command["numbers"] = numbers
    return command


def sealed_order(state: IronOakState, ship: str) -> str:
    """Open a test-sealed order card by trying each order kind."""
    digest = Commitment(digest=state.orders[ship].digest)
    for kind in ORDER_KINDS:
        if verify_reveal(digest, order_content(ship, state.turn, kind), salt(ship, state.turn)):
            return kind
    raise AssertionError(f"no test salt opens the order card on {ship}")


def reveal(
    state: IronOakState, ship: str, order: str | None = None, **details: Any
) -> dict[str, Any]:
    return {
        "type": "reveal_order",
        "ship": ship,
        "order": order or sealed_order(state, ship),
        "salt": salt(ship, state.turn),
        **details,
    }


def stay(state: IronOakState, ship: str) -> dict[str, Any]:
    """Reveal Maneuver 0 in the ship's box."""
    cell = state.ships[ship].cell
    assert cell is not None
    return reveal(state, ship, "maneuver_0", path=[list(cell)])


def deal(s: Session, usa: list[str], csa: list[str]) -> None:
    submit(s, None, {"type": "deal", "hands": {"USA": usa, "CSA": csa}})


# --------------------------------------------------------------------------- drivers


def quiet_command(
    state: IronOakState, plan: dict[str, str] | None = None
) -> tuple[str | None, dict[str, Any]]:
    """The next command of a side that does nothing: Maneuver 0 (or the ``plan``'s order at
    the Order Phase; only Maneuver 0 and drift are revealed here), no fire, no card."""
    side = to_act(state)[0]
    phase = state.phase
    if phase == "setup":
        return None, {"type": "deal"}
    if phase == "victory":
        return None, {"type": "end_turn"}
    assert side is not None
    if phase == "status":
        return side, {"type": "status"}
    if phase == "orders":
        return side, orders(state, side, plan)
    if phase == "movement":
        if state.pending_move is not None:
            return side, {"type": "respond_movement"}
        if state.options.mode == "alternating":
            ship = next_numbered(state)
        else:
            ship = sorted(movers_left(state))[0]
        assert ship is not None
        order = sealed_order(state, ship)
        if order == "maneuver_0":
            return side, stay(state, ship)
        if order == "drift":
            return side, reveal(state, ship, "drift")
        raise AssertionError(f"the quiet driver does not reveal {order} on {ship}")
    if phase == "gunnery":
        return side, {"type": "respond_fire" if state.fire_declared else "declare_fire"}
    if phase == "exchange":
        return side, {"type": "exchange_card"}
    raise AssertionError(f"unknown phase {phase}")


def quiet_step(s: Session, plan: dict[str, str] | None = None) -> list[Fact]:
    side, command = quiet_command(s.state.rules, plan)
    return submit(s, side, command)


def at_step(s: Session, phase: str, side: object = ANY, turn: int | None = None) -> bool:
    rules = s.state.rules
    return (
        rules.phase == phase
        and (side is ANY or rules.active == side)
        and (turn is None or rules.turn == turn)
    )


def play_until(
    s: Session,
    phase: str,
    side: object = ANY,
    *,
    turn: int | None = None,
    plan: dict[str, str] | None = None,
    bot: bool = False,
    limit: int = 400,
) -> None:
    """Give commands (quiet ones, or the bot's) until the step ``phase`` of ``side`` begins."""
    for _ in range(limit):
        if at_step(s, phase, side, turn):
            return
        assert s.state.result is None, f"the game ended before {phase} {side}"
        if bot:
            assert s.submit_bot() is not None
        else:
            quiet_step(s, plan)
    raise AssertionError(f"{phase} {side} never came")


def play_out(s: Session, limit: int = 2000) -> None:
    for _ in range(limit):
        if s.submit_bot() is None:
            return
    raise AssertionError("the bot game did not end")


# --------------------------------------------------------------------------- reading facts


def named(fact: Fact) -> str:
    return fact.topic.split(".", 1)[1].removesuffix("/1")


def events(facts: Iterable[Fact], name: str) -> list[dict[str, Any]]:
    return [f.payload for f in facts if named(f) == name]


def steps_of(facts: Iterable[Fact]) -> list[tuple[int, str, str | None]]:
    return [(p["turn"], p["phase"], p["side"]) for p in events(facts, "StepBegan")]


def roll_modifiers(facts: Iterable[Fact], purpose: str, subject: str) -> list[tuple[int, str]]:
    """(value, rule) of each modifier on the roller's side of the one roll for ``purpose``."""
    rolls = [
        p
        for p in events(facts, "DiceRolled")
        if p["purpose"] == purpose and p["subject"] == subject
    ]
    assert len(rolls) == 1, rolls
    return [(m["value"], m["rule"]) for m in rolls[0]["roll"]["modifiers"]]


# =========================================================================== IO-3.0 sequence


def standard_turn(
    turn: int, first: str = "USA", second: str = "CSA"
) -> list[tuple[int, str, str | None]]:
    return [
        (turn, phase, side)
        for side in (first, second)
        for phase in ("status", "orders", "movement", "gunnery", "exchange")
    ] + [(turn, "victory", None)]


def test_io_3_0_standard_turn_runs_each_players_turn_then_victory() -> None:
    """IO-3.0: first player's Status, Order, Action (movement, gunnery), Card Exchange; then the
    second player's; then the Victory Phase; the next turn opens with the first player again."""
    s = new_game(scenario(at={"virginia": (2, 3)}))
    play_until(s, "status", "USA", turn=2)
    assert steps_of(s.facts) == [*standard_turn(1), (2, "status", "USA")]


def test_io_3_0_first_player_comes_from_the_scenario() -> None:
    """IO-3.0: with CSA as first player, CSA's player-turn comes first."""
    s = new_game(scenario(at={"virginia": (2, 3)}, first_player="CSA"))
    play_until(s, "status", "CSA", turn=2)
    assert steps_of(s.facts) == [*standard_turn(1, "CSA", "USA"), (2, "status", "CSA")]


OTHER_PHASE = {"status": {"type": "declare_fire"}}


def test_io_3_0_other_side_and_other_phase_refused_at_every_step() -> None:
    """IO-3.0: at every decision of a turn the side not to act is refused (NotYourTurn) and an
    order of another phase is refused (WrongPhase); neither appends anything."""
    s = new_game(scenario(at={"virginia": (2, 3)}))
    seen: set[tuple[str, str | None, bool]] = set()
    while not at_step(s, "status", "USA", turn=2):
        rules = s.state.rules
        side, command = quiet_command(rules)
        wrong = OTHER_PHASE.get(rules.phase, {"type": "status"})
        refused(s, side or "USA", wrong, WrongPhase)
        if side is not None:
            refused(s, other(side), command, NotYourTurn)  # type: ignore[arg-type]
        responding = rules.pending_move is not None or rules.fire_declared
        seen.add((rules.phase, side, responding))
        submit(s, side, command)
    for side in ("USA", "CSA"):
        for phase in ("status", "orders", "movement", "gunnery", "exchange"):
            assert (phase, side, False) in seen
    # the answers to each reveal belong to the other side
    assert ("movement", "CSA", True) in seen and ("movement", "USA", True) in seen
    assert {("setup", None, False), ("victory", None, False)} <= seen


def test_io_3_0_answers_refused_from_the_acting_side() -> None:
    """IO-3.3.1 C / IO-3.3.2 D within IO-3.0: the mover cannot answer its own reveal nor the
    firer its own fire declaration."""
    s = new_game(scenario(at={"virginia": (2, 2), "monitor": (2, 1)}))
    play_until(s, "movement", "USA")
    submit(s, "USA", stay(s.state.rules, "cumberland"))
    refused(s, "USA", {"type": "respond_movement"}, NotYourTurn, "IO-3.3.1")
    refused(s, "USA", stay(s.state.rules, "monitor"), NotYourTurn)
    play_until(s, "gunnery", "USA")
    fire = {"firer": "monitor", "section": 0, "target": "virginia"}
    submit(s, "USA", {"type": "declare_fire", "fires": [fire]})
    refused(s, "USA", {"type": "respond_fire"}, NotYourTurn, "IO-3.3.2")
    refused(s, "USA", {"type": "declare_fire"}, NotYourTurn)
    submit(s, "CSA", {"type": "respond_fire"})
    assert [p["firer"] for p in events(s.facts, "GunneryResolved")] == ["monitor"]


# =========================================================================== IO-3.2 orders


def test_io_3_2_orders_cover_exactly_the_ships_under_command() -> None:
    """IO-3.2: an order card on every ship under command — none missing, none extra (an enemy
    ship), each a sealed commitment."""
    s = new_game(scenario(at={"virginia": (2, 3)}))
    play_until(s, "orders", "USA")
    full = orders(s.state.rules, "USA")
    missing = {**full, "seals": {"monitor": full["seals"]["monitor"]}}
    refused(s, "USA", missing, IllegalCommand, "IO-3.2")
    enemy = seal(order_content("virginia", 1, "maneuver_0"), "x").digest
    extra = {**full, "seals": {**full["seals"], "virginia": enemy}}
    refused(s, "USA", extra, IllegalCommand, "IO-3.2")
    not_sealed = {**full, "seals": {**full["seals"], "monitor": "maneuver_0"}}
    refused(s, "USA", not_sealed, InvalidCommand, "IO-3.2")
    new = submit(s, "USA", full)
    assert events(new, "OrdersAssigned")[0]["seals"] == full["seals"]
    assert at_step(s, "movement", "USA")


def test_io_3_2_reveal_must_open_the_seal() -> None:
    """IO-3.2: a reveal whose order or salt does not open the card sealed on the ship is
    refused; the true order and salt are accepted."""
    s = new_game(scenario(at={"virginia": (2, 3)}))
    play_until(s, "orders", "USA")
    submit(s, "USA", orders(s.state.rules, "USA", {"monitor": "maneuver_1"}))
    rules = s.state.rules
    move = {"path": [[3, 0], [3, 1]]}
    refused(s, "USA", reveal(rules, "monitor", "maneuver_2", **move), IllegalCommand, "IO-3.2")
    wrong_salt = {**reveal(rules, "monitor", "maneuver_1", **move), "salt": salt("monitor", 2)}
    refused(s, "USA", wrong_salt, IllegalCommand, "IO-3.2")
    new = submit(s, "USA", reveal(rules, "monitor", "maneuver_1", **move))
    [shown] = events(new, "OrderRevealed")
    assert (shown["ship"], shown["order"], shown["salt"]) == (
        "monitor",
        "maneuver_1",
        salt("monitor", 1),
    )
    assert s.state.rules.pending_move is not None


def test_io_3_2_a_card_sealed_for_another_turn_does_not_open() -> None:
    """IO-3.2: the seal commits to the turn: a card sealed with turn 2's content cannot be
    revealed in turn 1, even with its order and salt."""
    s = new_game(scenario(at={"virginia": (2, 3)}))
    play_until(s, "orders", "USA")
    command = orders(s.state.rules, "USA")
    later = seal(order_content("monitor", 2, "maneuver_0"), salt("monitor", 1)).digest
    submit(s, "USA", {**command, "seals": {**command["seals"], "monitor": later}})
    refused(s, "USA", stay(s.state.rules, "monitor"), IllegalCommand, "IO-3.2")
    submit(s, "USA", stay(s.state.rules, "cumberland"))  # the other card opens


# =========================================================================== IO-3.3.1 movement

MOVER_HAND = ["full_steam", "engine_trouble", "misfire", "lost_in_the_dark", "well_aimed"]
OPPONENT_HAND = ["full_steam", "engine_trouble", "strike", "pilot_error", "misfire"]


def monitor_moving() -> Session:
    """hampton_roads with chosen hands; USA's movement segment, monitor ordered Maneuver 1."""
    s = new_game(scenario(at={"virginia": (2, 3)}))
    deal(s, MOVER_HAND, OPPONENT_HAND)
    play_until(s, "orders", "USA")
    submit(s, "USA", orders(s.state.rules, "USA", {"monitor": "maneuver_1"}))
    return s


def move_monitor(s: Session, *cards: str) -> dict[str, Any]:
    return reveal(
        s.state.rules,
        "monitor",
        path=[[3, 0], [3, 1]],
        cards=[{"card": c} for c in cards],
    )


def test_io_3_3_1_mover_cards_refused_outside_their_window_kind_or_hand() -> None:
    """IO-3.3.1 B: the mover plays its own movement cards only: an opponent's card (IO-3.3), a
    gunnery card (IO-1.3.2), a card it does not hold or holds too few of (IO-7.0)."""
    s = monitor_moving()
    refused(s, "USA", move_monitor(s, "engine_trouble"), IllegalCommand, "IO-3.3")
    refused(s, "USA", move_monitor(s, "misfire"), IllegalCommand, "IO-1.3.2")
    refused(s, "USA", move_monitor(s, "well_aimed"), IllegalCommand, "IO-1.3.2")
    refused(s, "USA", move_monitor(s, "hard_over"), IllegalCommand, "IO-7.0")
    refused(s, "USA", move_monitor(s, "full_steam", "full_steam"), IllegalCommand, "IO-7.0")
    new = submit(s, "USA", move_monitor(s, "full_steam"))
    assert [(p["card"], p["window"]) for p in events(new, "CardPlayed")] == [("full_steam", "own")]


def test_io_3_3_1_only_the_opponent_answers_and_with_its_own_cards() -> None:
    """IO-3.3.1 C: after the reveal only the opponent answers (RespondMovement), with its
    opponent-window movement cards; the move then resolves (IO-3.3.1 D)."""
    s = monitor_moving()
    submit(s, "USA", move_monitor(s, "full_steam"))
    assert to_act(s.state.rules) == ["CSA"]
    refused(s, "USA", {"type": "respond_movement"}, NotYourTurn)
    refused(s, "USA", stay(s.state.rules, "cumberland"), NotYourTurn)
    answer = {"type": "respond_movement", "cards": [{"card": "full_steam"}]}
    refused(s, "CSA", answer, IllegalCommand, "IO-3.3")
    answer["cards"] = [{"card": "strike"}]
    refused(s, "CSA", answer, IllegalCommand, "IO-1.3.2")
    answer["cards"] = [{"card": "lost_in_the_dark"}]
    refused(s, "CSA", answer, IllegalCommand, "IO-7.0")
    new = submit(s, "CSA", {"type": "respond_movement"})
    assert [named(f) for f in new if named(f) in ("ShipMoved", "OrderCompleted")] == [
        "ShipMoved",
        "OrderCompleted",
    ]
    assert s.state.rules.pending_move is None


def test_io_1_3_2_night_card_refused_by_day() -> None:
    """IO-1.3.2: a night-only movement card cannot be played in a day scenario."""
    s = monitor_moving()
    submit(s, "USA", move_monitor(s, "full_steam"))
    submit(s, "CSA", {"type": "respond_movement"})
    play_until(s, "movement", "CSA")
    submit(s, "CSA", stay(s.state.rules, "virginia"))
    answer = {"type": "respond_movement", "cards": [{"card": "lost_in_the_dark"}]}
    refused(s, "USA", answer, IllegalCommand, "IO-1.3.2")


def test_io_7_0_full_steam_and_engine_trouble_modify_the_movement_roll() -> None:
    """IO-3.3.1 B/C, IO-7.0: Full Steam's +2 and Engine Trouble's −2 appear as modifiers with
    rule IO-7.0 on the mover's movement roll."""
    s = monitor_moving()
    submit(s, "USA", move_monitor(s, "full_steam"))
    new = submit(s, "CSA", {"type": "respond_movement", "cards": [{"card": "engine_trouble"}]})
    assert sorted(roll_modifiers(new, "movement", "monitor")) == [(-2, "IO-7.0"), (2, "IO-7.0")]
    assert "full_steam" not in s.state.rules.hands["USA"]
    assert "engine_trouble" not in s.state.rules.hands["CSA"]


def test_io_7_0_full_steam_alone() -> None:
    """IO-7.0: with Full Steam only, the movement roll carries exactly one +2 (IO-7.0)."""
    s = monitor_moving()
    submit(s, "USA", move_monitor(s, "full_steam"))
    new = submit(s, "CSA", {"type": "respond_movement"})
    assert roll_modifiers(new, "movement", "monitor") == [(2, "IO-7.0")]


# =========================================================================== IO-3.3.2 Misfire

FIRING_HAND = ["well_aimed", "rapid_fire", "full_steam", "engine_trouble", "damage_control"]
MISFIRE_HAND = ["misfire", "misfire", "strike", "engine_trouble", "full_steam"]
TWO_FIRES = [
    {"firer": "cumberland", "section": 0, "target": "virginia"},
    {"firer": "monitor", "section": 0, "target": "virginia"},
]


def two_fires(cards: dict[str, Any] | None = None, csa_hand: list[str] | None = None) -> Session:
    """USA declares cumberland's and monitor's fire at virginia (all adjacent or same GB)."""
    s = new_game(
        scenario(at={"virginia": (2, 2), "cumberland": (1, 1), "monitor": (2, 1)}), cards=cards
    )
    deal(s, FIRING_HAND, csa_hand or MISFIRE_HAND)
    play_until(s, "gunnery", "USA")
    submit(s, "USA", {"type": "declare_fire", "fires": TWO_FIRES})
    return s


def misfire(card: str, firer: str = "monitor", section: int | None = None) -> dict[str, Any]:
    return {"type": "respond_fire", "misfire": {"card": card, "firer": firer, "section": section}}


def test_io_3_3_2_misfire_cancels_the_named_fire_only() -> None:
    """IO-3.3.2 D/E: the opponent's one Misfire stops the named declared fire; the others
    resolve in declaration order."""
    s = two_fires()
    new = submit(s, "CSA", misfire("misfire", "monitor", 0))
    assert events(new, "FireCancelled") == [{"firer": "monitor", "section": 0}]
    assert [p["firer"] for p in events(new, "GunneryResolved")] == ["cumberland"]
    assert s.state.rules.hands["CSA"].count("misfire") == 1
    assert at_step(s, "exchange", "USA")


def test_io_3_3_2_misfire_refusals() -> None:
    """IO-3.3.2 D: the answer to fire is one Misfire card: not a card of the firer's window
    (IO-3.3), not a movement card (IO-1.3.2), not a card not held (IO-7.0), and it must name a
    declared fire (IO-3.3.2). One card only: a list does not parse."""
    s = two_fires()
    refused(s, "CSA", misfire("strike"), IllegalCommand, "IO-3.3")
    refused(s, "CSA", misfire("engine_trouble"), IllegalCommand, "IO-1.3.2")
    refused(s, "CSA", misfire("rapid_fire"), IllegalCommand, "IO-7.0")
    refused(s, "CSA", misfire("misfire", "virginia"), IllegalCommand, "IO-3.3.2")
    refused(s, "CSA", misfire("misfire", "monitor", 1), IllegalCommand, "IO-3.3.2")
    two = {"type": "respond_fire", "misfire": [{"card": "misfire", "firer": "monitor"}] * 2}
    refused(s, "CSA", two, InvalidCommand)
    new = submit(s, "CSA", {"type": "respond_fire"})
    assert [p["firer"] for p in events(new, "GunneryResolved")] == ["cumberland", "monitor"]


def test_io_3_3_2_only_a_misfire_card_answers_fire() -> None:
    """IO-3.3.2 D: even a gunnery card of the opponent's window is not a Misfire (a deck with
    such a card added)."""
    deck = bundled_cards_json()
    deck["cards"].append(
        {
            "id": "powder_smoke",
            "name": "Powder Smoke",
            "check_die": "d8",
            "kind": "gunnery",
            "time": "any",
            "window": "opponent",
            "count": 2,
            "use": "gunnery",
            "value": -1,
            "effect": "test card: -1 to one enemy gun section's combat result.",
        }
    )
    hand = ["powder_smoke", "misfire", "strike", "engine_trouble", "full_steam"]
    s = two_fires(cards=deck, csa_hand=hand)
    refused(s, "CSA", misfire("powder_smoke"), IllegalCommand, "IO-3.3.2")
    new = submit(s, "CSA", misfire("misfire", "cumberland"))
    assert [p["firer"] for p in events(new, "GunneryResolved")] == ["monitor"]


# =========================================================================== IO-3.4 exchange


def quiet_game(**kw: Any) -> Session:
    return new_game(scenario(at={"virginia": (2, 3)}), **kw)


def test_io_3_4_exchange_discards_to_the_pile_and_draws_the_top_card() -> None:
    """IO-3.4: discard one card face down to the exchange pile, draw one (the deck's top)."""
    s = quiet_game()
    play_until(s, "exchange", "USA")
    before = s.state.rules
    hand = list(before.hands["USA"])
    absent = next(c for c in before.deck if c not in hand)
    refused(s, "USA", {"type": "exchange_card", "discard": absent}, IllegalCommand, "IO-3.4")
    discard = hand[0]
    new = submit(s, "USA", {"type": "exchange_card", "discard": discard})
    assert events(new, "CardExchanged") == [
        {"side": "USA", "discarded": discard, "drawn": before.deck[0]}
    ]
    after = s.state.rules
    hand.remove(discard)
    assert sorted(after.hands["USA"]) == sorted([*hand, before.deck[0]])
    assert after.deck == before.deck[1:]
    assert after.exchanged["USA"] == (discard,)
    assert after.discards == before.discards  # the pile is separate from the discards
    assert at_step(s, "status", "CSA")


def test_io_3_4_passing_exchanges_nothing() -> None:
    """IO-3.4: an exchange is optional; passing appends no CardExchanged."""
    s = quiet_game()
    play_until(s, "exchange", "USA")
    new = submit(s, "USA", {"type": "exchange_card"})
    assert events(new, "CardExchanged") == []
    assert s.state.rules.exchanged == {}


def test_io_3_4_no_exchange_after_a_card_was_used_this_turn() -> None:
    """IO-3.4: a side that used an action card this turn has no exchange step (the step is
    passed over and an exchange is refused); it may exchange again the next turn."""
    s = quiet_game()
    usa = ["full_steam", "rapid_fire", "rapid_fire", "hard_over", "hard_over"]
    csa = ["engine_trouble", "well_aimed", "well_aimed", "pilot_error", "pilot_error"]
    deal(s, usa, csa)
    play_until(s, "movement", "USA")
    cards = [{"card": "full_steam"}]
    submit(s, "USA", {**stay(s.state.rules, "cumberland"), "cards": cards})
    play_until(s, "gunnery", "USA")
    last = submit(s, "USA", {"type": "declare_fire"})  # USA's last decision of its turn
    assert steps_of(last) == [(1, "exchange", "USA"), (1, "status", "CSA")]
    exchange = {"type": "exchange_card", "discard": "rapid_fire", "draw": "misfire"}
    refused(s, "USA", exchange, WrongPhase)
    play_until(s, "exchange", "CSA")  # CSA used no card: its exchange step comes
    submit(s, "CSA", {"type": "exchange_card"})
    play_until(s, "exchange", "USA", turn=2)
    new = submit(s, "USA", exchange)
    assert events(new, "CardExchanged") == [
        {"side": "USA", "discarded": "rapid_fire", "drawn": "misfire"}
    ]


def test_io_3_4_opponents_card_in_my_turn_counts_as_used() -> None:
    """IO-3.4: a card played in the opponent's window (CSA's Engine Trouble in USA's movement)
    uses CSA's exchange for the turn."""
    s = quiet_game()
    usa = ["full_steam", "rapid_fire", "rapid_fire", "hard_over", "hard_over"]
    csa = ["engine_trouble", "well_aimed", "well_aimed", "pilot_error", "pilot_error"]
    deal(s, usa, csa)
    play_until(s, "movement", "USA")
    submit(s, "USA", stay(s.state.rules, "cumberland"))
    submit(s, "CSA", {"type": "respond_movement", "cards": [{"card": "engine_trouble"}]})
    play_until(s, "exchange", "USA", turn=1)  # USA used no card
    play_until(s, "gunnery", "CSA")
    last = submit(s, "CSA", {"type": "declare_fire"})  # CSA's last decision of its turn
    assert steps_of(last) == [(1, "exchange", "CSA"), (1, "victory", None)]


def test_io_3_4_exchanges_stop_at_half_the_initial_hand() -> None:
    """IO-3.4: exchanges are allowed while fewer than half the initial hand (5 cards: 2.5) have
    been exchanged: turns 1-3 exchange, turn 4 has no exchange step."""
    s = quiet_game()
    for turn in (1, 2, 3):
        play_until(s, "exchange", "USA", turn=turn)
        card = s.state.rules.hands["USA"][0]
        submit(s, "USA", {"type": "exchange_card", "discard": card})
    assert len(s.state.rules.exchanged["USA"]) == 3
    play_until(s, "gunnery", "USA", turn=4)
    last = submit(s, "USA", {"type": "declare_fire"})
    assert steps_of(last) == [(4, "exchange", "USA"), (4, "status", "CSA")]
    play_until(s, "exchange", "CSA", turn=4)  # CSA exchanged nothing: its step still comes


def test_io_3_4_redact_hides_the_other_sides_cards() -> None:
    """IO-3.4 (hidden hands): ``redact`` shows a viewer only its own hand in CardsDealt (and no
    shuffle faces), hides the other side's discarded and drawn cards in CardExchanged and its
    exchange command; a viewer of None sees everything."""
    ruleset = get_ruleset("iron_oak")
    s = quiet_game()
    play_until(s, "exchange", "USA")
    submit(s, "USA", {"type": "exchange_card", "discard": s.state.rules.hands["USA"][0]})
    dealt = decode(s.state, next(f for f in s.facts if named(f) == "CardsDealt"))
    exchanged = decode(s.state, next(f for f in s.facts if named(f) == "CardExchanged"))
    issued = next(
        decode(s.state, f)
        for f in s.facts
        if named(f) == "CommandIssued" and f.payload["command"]["type"] == "exchange_card"
    )

    def seen(event: DomainEvent, viewer: str | None) -> dict[str, Any]:
        return ruleset.redact(event, viewer).payload()

    hands = dealt.payload()["hands"]
    assert seen(dealt, "CSA")["hands"] == {"USA": ["?"] * 5, "CSA": hands["CSA"]}
    assert seen(dealt, "CSA")["faces"] == []
    assert seen(dealt, "USA")["hands"] == {"USA": hands["USA"], "CSA": ["?"] * 5}
    assert seen(dealt, None) == dealt.payload()
    hidden = seen(exchanged, "CSA")
    assert (hidden["side"], hidden["discarded"], hidden["drawn"]) == ("USA", "?", "?")
    assert seen(exchanged, "USA") == exchanged.payload()
    assert seen(issued, "CSA")["command"] == {"type": "exchange_card", "sealed": True}
    assert seen(issued, "USA") == issued.payload()


def test_io_3_4_the_deal_shuffle_dice_are_not_thrown_again() -> None:
    """IO-3.4: the deck is shuffled with the game's dice; the dice that decided the (hidden)
    deal must not be used again for public rolls (each die index is thrown once)."""
    s = new_game(scenario())
    submit(s, None, {"type": "deal"})
    shuffled = len(events(s.facts, "CardsDealt")[0]["faces"])
    assert shuffled > 0
    while not events(s.facts, "DiceRolled"):  # the bot plays until the first public roll
        assert s.submit_bot() is not None
    first = events(s.facts, "DiceRolled")[0]["first_die"]
    assert first >= shuffled


# =========================================================================== IO-3.5 victory

STRIKE_HAND = ["strike", "rapid_fire", "full_steam", "engine_trouble", "damage_control"]
NO_MISFIRE_HAND = ["well_aimed", "rapid_fire", "engine_trouble", "pilot_error", "full_steam"]


def test_io_3_5_game_ends_at_the_turn_limit_with_the_vp_winner() -> None:
    """IO-3.5, IO-6.2.3I: at the turn limit the side with more VP wins; a captured enemy ship
    is worth its card VP (virginia: 12)."""
    scen = scenario(
        at={"virginia": (2, 2), "monitor": (2, 1)}, extra=[tennessee((4, 2))], turn_limit=1
    )
    s = new_game(scen)
    doctor(s, "virginia", hits=12)  # heavily damaged (3rd Movement Chart row)
    deal(s, STRIKE_HAND, NO_MISFIRE_HAND)
    play_until(s, "gunnery", "USA")
    fire = {"firer": "monitor", "section": 0, "target": "virginia"}
    strike = {"card": "strike", "firer": "monitor", "section": 0}
    submit(s, "USA", {"type": "declare_fire", "fires": [fire], "cards": [strike]})
    submit(s, "CSA", {"type": "respond_fire"}, Rigged(s, 6, 10, 8, 1, 1))  # a damaging hit
    play_until(s, "victory")
    new = submit(s, None, {"type": "end_turn"})
    [ended] = events(new, "GameEnded")
    assert ended["winner"] == "USA"
    assert ended["vp"] == {"CSA": 0, "USA": 12}
    assert "turn limit 1" in ended["reason"]
    assert s.state.rules.phase == "over"


def test_io_3_5_equal_vp_at_the_turn_limit_is_a_draw_and_the_game_is_over() -> None:
    """IO-3.5: equal VP at the turn limit: no winner; afterwards every order is refused."""
    s = new_game(scenario(at={"virginia": (2, 3)}, turn_limit=1))
    play_until(s, "victory")
    new = submit(s, None, {"type": "end_turn"})
    [ended] = events(new, "GameEnded")
    assert (ended["winner"], ended["vp"]) == (None, {"CSA": 0, "USA": 0})
    refused(s, "USA", {"type": "status"}, GameOver)
    assert s.submit_bot() is None


def test_io_3_5_victory_phase_before_the_limit_goes_on() -> None:
    """IO-3.5: before the turn limit, with both sides fighting, the Victory Phase ends nothing
    and the next turn begins."""
    s = new_game(scenario(at={"virginia": (2, 3)}, turn_limit=2))
    play_until(s, "victory")
    new = submit(s, None, {"type": "end_turn"})
    assert events(new, "GameEnded") == []
    assert steps_of(new) == [(2, "status", "USA")]


def vp_state(**ships: dict[str, Any]) -> IronOakState:
    state = initial_state(bundled_scenario("hampton_roads"), resolve_data())
    updated = dict(state.ships)
    for ship, changes in ships.items():
        updated[ship] = updated[ship].model_copy(update=changes)
    return state.model_copy(update={"ships": updated})


def test_io_3_5_vp_are_the_card_vp_of_enemy_ships_sunk_or_captured() -> None:
    """IO-3.5, IO-6.2.3I: each enemy ship sunk or captured scores its card VP (a captured ship
    that sinks counts once); nothing else scores."""
    assert victory_points(vp_state()) == {"CSA": 0, "USA": 0}
    sunk = vp_state(cumberland={"status": "sunk"})
    assert victory_points(sunk) == {"CSA": 6, "USA": 0}
    captured = vp_state(virginia={"status": "captured", "captured_by": "USA"})
    assert victory_points(captured) == {"CSA": 0, "USA": 12}
    both = vp_state(virginia={"status": "sunk", "captured_by": "USA"}, monitor={"status": "sunk"})
    assert victory_points(both) == {"CSA": 8, "USA": 12}
    at_limit = both.model_copy(update={"turn": both.scenario.turn_limit})
    [ended] = victory(at_limit)
    assert isinstance(ended, GameEnded)
    assert (ended.winner, ended.vp) == ("USA", {"CSA": 8, "USA": 12})


# =========================================================================== IO-3.1 status


def test_io_3_1_status_phase_checks_the_sides_own_fires_only() -> None:
    """IO-3.1: a side's Status Phase checks its own burning ships (not the enemy's)."""
    s = new_game(scenario(at={"virginia": (2, 3)}))
    doctor(s, "virginia", fire=3)
    submit(s, None, {"type": "deal"})
    usa = submit(s, "USA", {"type": "status"})
    assert events(usa, "FireChanged") == []
    play_until(s, "status", "CSA")
    csa = submit(s, "CSA", {"type": "status"})
    assert [p["unit"] for p in events(csa, "FireChanged")] == ["virginia"]


def test_io_3_1_level5_fires_are_checked_first() -> None:
    """IO-3.1: "Level-5 fires are checked first": tennessee's level-5 fire before virginia's
    level-3 fire, although virginia comes first in the scenario."""
    s = new_game(scenario(at={"virginia": (2, 3)}, extra=[tennessee((4, 2))]))
    doctor(s, "virginia", fire=3)
    doctor(s, "tennessee", fire=5)
    play_until(s, "status", "CSA")
    new = submit(s, "CSA", {"type": "status"})
    assert [(p["unit"], p["before"]) for p in events(new, "FireChanged")] == [
        ("tennessee", 5),
        ("virginia", 3),
    ]


def burning_game(captured: bool) -> Session:
    """A level-5 fire on virginia (CSA's, or captured by USA); tennessee keeps CSA fighting."""
    s = new_game(scenario(at={"virginia": (2, 2)}, extra=[tennessee((4, 2))]))
    if captured:
        doctor(s, "virginia", fire=5, status="captured", captured_by="USA")
    else:
        doctor(s, "virginia", fire=5)
    submit(s, None, {"type": "deal"})
    return s


def test_io_3_1_2_level5_fire_not_dropped_explodes_at_next_friendly_status() -> None:
    """IO-3.1.2: a level-5 fire that has not dropped by the next friendly Status Phase is
    resolved as an Explosion critical (the fire marker comes off)."""
    s = burning_game(captured=False)
    play_until(s, "status", "CSA")
    first = submit(s, "CSA", {"type": "status"}, Rigged(s, 5))
    assert [(p["after"], p["explodes"]) for p in events(first, "FireChanged")] == [(5, False)]
    play_until(s, "status", "CSA", turn=2)
    second = submit(s, "CSA", {"type": "status"}, Rigged(s, 5))
    changes = events(second, "FireChanged")
    assert changes[0]["unit"] == "virginia" and changes[0]["explodes"] is True
    assert s.state.rules.ships["virginia"].fire != 5


def test_io_3_1_2_captured_ships_level5_fire_explodes_at_captors_next_status() -> None:
    """IO-3.1.2 with IO-6.2.3I: a captured ship's fires are checked in its captor's Status
    Phase; a level-5 fire still at 5 at the captor's next Status Phase explodes."""
    s = burning_game(captured=True)
    first = submit(s, "USA", {"type": "status"}, Rigged(s, 5))
    assert [(p["unit"], p["after"]) for p in events(first, "FireChanged")] == [("virginia", 5)]
    play_until(s, "status", "USA", turn=2, plan={"virginia": "drift"})
    second = submit(s, "USA", {"type": "status"}, Rigged(s, 5))
    changes = events(second, "FireChanged")
    assert changes[0]["unit"] == "virginia" and changes[0]["explodes"] is True


# =========================================================================== IO-4 / IO-5 orders


def test_io_4_1_anchoring_in_deep_water_refused_then_drift_instead() -> None:
    """IO-4.1: anchoring needs depth ≤ 4 (monitor in depth 5 refused, nothing appended);
    IO-4.0: revealed with ``drift`` the illegal order makes the ship drift instead."""
    s = new_game(scenario(at={"virginia": (2, 3), "cumberland": (4, 0)}))
    play_until(s, "orders", "USA")
    plan = {"monitor": "anchor", "cumberland": "anchor"}
    submit(s, "USA", orders(s.state.rules, "USA", plan))
    refused(s, "USA", reveal(s.state.rules, "monitor"), IllegalCommand, "IO-4.1")
    new = submit(s, "USA", reveal(s.state.rules, "monitor", drift=True))
    assert events(new, "OrderRevealed")[0]["drift"] is True
    new = submit(s, "CSA", {"type": "respond_movement"})
    assert [p["ship"] for p in events(new, "ShipDrifted")] == ["monitor"]
    assert [p["rule"] for p in events(new, "DiceRolled")] == ["IO-5.2"]
    assert events(new, "ShipAnchored") == []
    assert not s.state.rules.ships["monitor"].anchored


def test_io_4_1_anchoring_in_shallow_water() -> None:
    """IO-4.1: in depth 4 the Anchor order places the Anchor marker."""
    s = new_game(scenario(at={"virginia": (2, 3), "cumberland": (4, 0)}))
    play_until(s, "orders", "USA")
    submit(s, "USA", orders(s.state.rules, "USA", {"cumberland": "anchor"}))
    submit(s, "USA", reveal(s.state.rules, "cumberland"))
    new = submit(s, "CSA", {"type": "respond_movement"})
    assert events(new, "ShipAnchored") == [{"ship": "cumberland", "anchored": True}]
    assert s.state.rules.ships["cumberland"].anchored


def test_io_4_0_a_legal_order_cannot_be_turned_into_a_drift() -> None:
    """IO-4.0: "A ship given an illegal order drifts instead": a legal order (anchoring in
    depth 4) is carried out, and a reveal claiming it must drift is refused."""
    s = new_game(scenario(at={"virginia": (2, 3), "cumberland": (4, 0)}))
    play_until(s, "orders", "USA")
    submit(s, "USA", orders(s.state.rules, "USA", {"cumberland": "anchor"}))
    refused(s, "USA", reveal(s.state.rules, "cumberland", drift=True), IllegalCommand, "IO-4.0")


def towing_game() -> Session:
    """monitor and cumberland together at (3, 2): USA's Order Phase of turn 1."""
    s = new_game(scenario(at={"virginia": (1, 3), "monitor": (3, 2), "cumberland": (3, 2)}))
    play_until(s, "orders", "USA")
    return s


def test_io_5_3_a_towing_ship_may_not_use_maneuver_2() -> None:
    """IO-5.3: a ship that attached a tow (Maneuver 0 with ``attach``) may not take Maneuver 2
    the next turn (refused with IO-5.3, nothing appended); revealed with ``drift`` it drifts."""
    s = towing_game()
    submit(s, "USA", orders(s.state.rules, "USA"))
    submit(s, "USA", {**stay(s.state.rules, "monitor"), "attach": "cumberland"})
    new = submit(s, "CSA", {"type": "respond_movement"})
    assert events(new, "TowAttached") == [{"tower": "monitor", "towed": "cumberland"}]
    play_until(s, "orders", "USA", turn=2)
    submit(s, "USA", orders(s.state.rules, "USA", {"monitor": "maneuver_2"}))
    two = reveal(s.state.rules, "monitor", path=[[3, 2], [3, 3], [3, 4]])
    refused(s, "USA", two, IllegalCommand, "IO-5.3")
    submit(s, "USA", reveal(s.state.rules, "monitor", drift=True))
    new = submit(s, "CSA", {"type": "respond_movement"})
    assert [p["ship"] for p in events(new, "ShipDrifted")] == ["monitor"]


def test_io_5_3_maneuver_2_while_attaching_a_tow_is_refused_at_reveal() -> None:
    """IO-5.3: attaching a tow at the start of the move makes the ship a towing ship, which
    cannot use Maneuver 2: the reveal is refused (not the opponent's answer)."""
    s = towing_game()
    submit(s, "USA", orders(s.state.rules, "USA", {"monitor": "maneuver_2"}))
    two = reveal(s.state.rules, "monitor", path=[[3, 2], [3, 3], [3, 4]], attach="cumberland")
    refused(s, "USA", two, IllegalCommand, "IO-5.3")


def same_box_game(plan: dict[str, str]) -> Session:
    """virginia and monitor together at (2, 2); CSA's movement of turn 1 with ``plan``."""
    s = new_game(scenario(at={"virginia": (2, 2), "monitor": (2, 2)}))
    play_until(s, "orders", "CSA")
    submit(s, "CSA", orders(s.state.rules, "CSA", plan))
    return s


def cross_monitors_stern(s: Session) -> None:
    """virginia crosses monitor's stern; its d8d6 shows 8, 6 and monitor's 1, 1."""
    submit(s, "CSA", reveal(s.state.rules, "virginia", target="monitor", kind="stern_on"))
    new = submit(s, "USA", {"type": "respond_movement"}, Rigged(s, 8, 6, 1, 1))
    assert events(new, "CrossTAttempted")[0]["success"] is True
    assert s.state.rules.relation("monitor", "virginia") == "stern_on"


def test_io_5_5_2_no_ram_on_a_target_whose_stern_was_crossed() -> None:
    """IO-5.5.2: the ship that crossed the target's stern (target Stern-on to it) may not ram
    or spar it: refused with IO-5.5.2 at reveal, nothing appended."""
    s = same_box_game({"virginia": "cross_t"})
    cross_monitors_stern(s)
    play_until(s, "orders", "CSA", turn=2)
    submit(s, "CSA", orders(s.state.rules, "CSA", {"virginia": "ram"}))
    ram = reveal(s.state.rules, "virginia", target="monitor", attacks=["ram"])
    refused(s, "CSA", ram, IllegalCommand, "IO-5.5.2")


def test_io_5_5_3_the_target_escapes_the_t_by_moving_away() -> None:
    """IO-5.5.3: the T ends when either ship moves (monitor moves to the next GB)."""
    s = same_box_game({"virginia": "cross_t"})
    cross_monitors_stern(s)
    play_until(s, "orders", "USA", turn=2)
    submit(s, "USA", orders(s.state.rules, "USA", {"monitor": "maneuver_1"}))
    submit(s, "USA", reveal(s.state.rules, "monitor", path=[[2, 2], [2, 1]]))
    new = submit(s, "CSA", {"type": "respond_movement"}, Rigged(s, 8, 6, 1))
    assert events(new, "ShipMoved")[0]["success"] is True
    assert s.state.rules.relation("monitor", "virginia") is None


def test_io_5_1_3_opposing_maneuver_marks_the_enemy_for_its_next_move() -> None:
    """IO-5.1.3: an Opposing Maneuver names an enemy in the same GB (others refused) and puts
    the Opposed marker on it: −1 (IO-5.1.3) on its next move, then the marker is spent."""
    s = same_box_game({"virginia": "opposing"})
    rules = s.state.rules
    refused(s, "CSA", reveal(rules, "virginia", target="cumberland"), IllegalCommand, "IO-5.1.3")
    refused(s, "CSA", reveal(rules, "virginia", target="virginia"), IllegalCommand, "IO-5.1.3")
    submit(s, "CSA", reveal(rules, "virginia", target="monitor"))
    new = submit(s, "USA", {"type": "respond_movement"})
    assert events(new, "OpposingManeuver") == [{"ship": "virginia", "target": "monitor"}]
    assert s.state.rules.ships["monitor"].opposed
    assert not s.state.rules.ships["virginia"].opposed
    play_until(s, "orders", "USA", turn=2)
    submit(s, "USA", orders(s.state.rules, "USA", {"monitor": "maneuver_1"}))
    submit(s, "USA", reveal(s.state.rules, "monitor", path=[[2, 2], [2, 1]]))
    new = submit(s, "CSA", {"type": "respond_movement"})
    assert (-1, "IO-5.1.3") in roll_modifiers(new, "movement", "monitor")
    assert not s.state.rules.ships["monitor"].opposed


def test_io_5_1_5_a_ship_off_the_map_enters_an_edge_box_of_its_edge() -> None:
    """IO-5.1.5: a ship off the map enters with Maneuver 1 into one GB on its edge (S for
    virginia): a box off the edge, a bank, two boxes, or Maneuver 2 are refused."""
    s = new_game(scenario(extra=[tennessee("offmap:S")]))
    play_until(s, "orders", "CSA")
    plan = {"virginia": "maneuver_1", "tennessee": "maneuver_2"}
    submit(s, "CSA", orders(s.state.rules, "CSA", plan))
    rules = s.state.rules
    refused(s, "CSA", reveal(rules, "tennessee", path=[[3, 4]]), IllegalCommand, "IO-5.1.5")
    for bad in ([[2, 3]], [[2, 0]], [[2, 4], [2, 3]], [[5, 4]]):
        refused(s, "CSA", reveal(rules, "virginia", path=bad), IllegalCommand, "IO-5.1.5")
    refused(s, "CSA", reveal(rules, "virginia", path=[[0, 4]]), IllegalCommand, "IO-5.0")
    submit(s, "CSA", reveal(rules, "virginia", path=[[2, 4]]))
    new = submit(s, "USA", {"type": "respond_movement"}, Rigged(s, 8, 6, 1))
    [crossed] = events(new, "MapEdgeCrossed")
    assert (crossed["entering"], crossed["success"], crossed["cell"]) == (True, True, [2, 4])
    assert s.state.rules.ships["virginia"].cell == (2, 4)


def test_io_5_1_5_a_ship_leaves_the_map_through_its_exit_edge() -> None:
    """IO-5.1.5: leaving the map is Maneuver 1 from a GB on the side's exit edge (CSA: S);
    from another edge it is refused. On success the ship has exited."""
    s = new_game(scenario(at={"virginia": (2, 4)}, extra=[tennessee((2, 0))]))
    play_until(s, "orders", "CSA")
    plan = {"virginia": "maneuver_1", "tennessee": "maneuver_1"}
    submit(s, "CSA", orders(s.state.rules, "CSA", plan))
    rules = s.state.rules
    north = reveal(rules, "tennessee", path=[[2, 0]], exit=True)
    refused(s, "CSA", north, IllegalCommand, "IO-5.1.5")
    submit(s, "CSA", reveal(rules, "virginia", path=[[2, 4]], exit=True))
    new = submit(s, "USA", {"type": "respond_movement"}, Rigged(s, 8, 6, 1))
    [crossed] = events(new, "MapEdgeCrossed")
    assert (crossed["entering"], crossed["success"], crossed["edge"]) == (False, True, "S")
    ship = s.state.rules.ships["virginia"]
    assert (ship.status, ship.cell) == ("exited", None)
    assert "virginia" not in under_command(s.state.rules, "CSA")


# =========================================================================== IO-6.2.3 H / I


def test_io_6_2_3H_a_retiring_ship_takes_only_maneuver_1_towards_its_edge() -> None:
    """IO-6.2.3H: a retiring ship moves one GB a turn by Maneuver 1 towards its own edge (CSA:
    S): Maneuver 2, moving away or along the edge are refused; no card may hinder it."""
    s = new_game(scenario(at={"virginia": (2, 2)}, extra=[tennessee((3, 2))]))
    doctor(s, "virginia", status="retiring")
    doctor(s, "tennessee", status="retiring")
    deal(s, MOVER_HAND, OPPONENT_HAND)
    play_until(s, "orders", "CSA")
    plan = {"virginia": "maneuver_1", "tennessee": "maneuver_2"}
    submit(s, "CSA", orders(s.state.rules, "CSA", plan))
    rules = s.state.rules
    towards = reveal(rules, "tennessee", path=[[3, 2], [3, 3], [3, 4]])
    refused(s, "CSA", towards, IllegalCommand, "IO-6.2.3H")
    for bad in ([[2, 2], [2, 1]], [[2, 2], [1, 2]]):
        refused(s, "CSA", reveal(rules, "virginia", path=bad), IllegalCommand, "IO-6.2.3H")
    submit(s, "CSA", reveal(rules, "virginia", path=[[2, 2], [2, 3]]))
    hinder = {"type": "respond_movement", "cards": [{"card": "engine_trouble"}]}
    refused(s, "USA", hinder, IllegalCommand, "IO-6.2.3H")
    new = submit(s, "USA", {"type": "respond_movement"})
    assert events(new, "ShipMoved")[0]["path"] == [[2, 2], [2, 3]]


def strike_game() -> Session:
    s = new_game(scenario(at={"virginia": (2, 2), "monitor": (2, 1)}, extra=[tennessee((4, 2))]))
    deal(s, STRIKE_HAND, NO_MISFIRE_HAND)
    return s


def fire_with_strike(s: Session) -> list[Fact]:
    """Monitor fires with a Strike! and damages Virginia (WL, CR 10 vs DR 1)."""
    play_until(s, "gunnery", "USA")
    fire = {"firer": "monitor", "section": 0, "target": "virginia"}
    strike = {"card": "strike", "firer": "monitor", "section": 0}
    submit(s, "USA", {"type": "declare_fire", "fires": [fire], "cards": [strike]})
    return submit(s, "CSA", {"type": "respond_fire"}, Rigged(s, 6, 10, 8, 1, 1))


def test_io_6_2_3I_strike_captures_a_heavily_damaged_ship() -> None:
    """IO-6.2.3I: a Strike! card on a fire at a heavily damaged ship captures it: the captor
    commands it from then on and it can no longer fire for its old side."""
    s = strike_game()
    doctor(s, "virginia", hits=12)
    new = fire_with_strike(s)
    assert events(new, "ShipCaptured") == [{"ship": "virginia", "by": "USA"}]
    ship = s.state.rules.ships["virginia"]
    assert (ship.status, ship.captured_by) == ("captured", "USA")
    assert controller(s.state.rules, "virginia") == "USA"
    assert victory_points(s.state.rules)["USA"] == 12
    play_until(s, "gunnery", "CSA")
    fire = {"firer": "virginia", "section": 0, "target": "monitor"}
    refused(s, "CSA", {"type": "declare_fire", "fires": [fire]}, IllegalCommand)


def test_io_6_2_3I_strike_does_not_capture_an_undamaged_ship() -> None:
    """IO-6.2.3I: against a ship that is not heavily damaged, Strike! captures nothing (the
    card is spent)."""
    s = strike_game()
    new = fire_with_strike(s)
    assert events(new, "ShipCaptured") == []
    assert s.state.rules.ships["virginia"].status == "active"
    assert "strike" not in s.state.rules.hands["USA"]


# =========================================================================== IO-6.2.4 night


def test_io_6_2_4_gunfire_markers_at_night() -> None:
    """IO-6.2.4: at night a unit that fired gets a Gunfire marker; fire at a target that is not
    fouled takes the night modifier, marked or not (``gunfire_marker=no_effect``), and "N/A"
    ranges refuse fire; IO-3.3.2 A: a side's markers come off at the start of its next gunnery
    segment, the enemy's stay."""
    scen = scenario("wassaw_sound", at={"atlanta": (2, 1), "weehawken": (2, 2), "nahant": (3, 3)})
    s = new_game(scen)
    play_until(s, "gunnery", "USA")
    long = {"firer": "nahant", "section": 0, "target": "atlanta"}
    refused(s, "USA", {"type": "declare_fire", "fires": [long]}, IllegalCommand, "IO-6.2.4")
    fire = {"firer": "weehawken", "section": 0, "target": "atlanta"}
    submit(s, "USA", {"type": "declare_fire", "fires": [fire]})
    new = submit(s, "CSA", {"type": "respond_fire"})
    assert any(rule == "IO-6.2.4" for _, rule in roll_modifiers(new, "gunnery", "weehawken"))
    assert events(new, "GunfireMarkers") == [{"units": ["weehawken"], "placed": True}]
    assert s.state.rules.gunfire == ("weehawken",)

    mark = len(s.facts)
    play_until(s, "gunnery", "CSA")
    assert events(s.facts[mark:], "GunfireMarkers") == []  # CSA had none to remove
    fire = {"firer": "atlanta", "section": 0, "target": "weehawken"}
    submit(s, "CSA", {"type": "declare_fire", "fires": [fire]})
    new = submit(s, "USA", {"type": "respond_fire"})
    assert any(rule == "IO-6.2.4" for _, rule in roll_modifiers(new, "gunnery", "atlanta"))
    assert s.state.rules.gunfire == ("atlanta", "weehawken")

    mark = len(s.facts)
    play_until(s, "gunnery", "USA", turn=2)
    began = s.facts[mark:]
    assert steps_of(began)[-1] == (2, "gunnery", "USA")
    assert events(began, "GunfireMarkers") == [{"units": ["weehawken"], "placed": False}]
    assert named(began[-1]) == "GunfireMarkers"  # removed as the segment begins
    assert s.state.rules.gunfire == ("atlanta",)


# =========================================================================== IO-9.3 alternating


def alternating(**kw: Any) -> Session:
    return new_game(scenario(at={"virginia": (2, 3)}, **kw), mode="alternating")


def test_io_9_3_alternating_turn_does_each_phase_for_both_sides() -> None:
    """IO-9.3 (9.3.1 status for both sides, 9.3.2 orders, 9.3.3 one movement segment, each
    side's gunnery, 9.3.4 exchanges first player first), then the Victory Phase."""
    s = alternating()
    play_until(s, "status", "USA", turn=2)
    assert steps_of(s.facts) == [
        (1, "status", "USA"),
        (1, "status", "CSA"),
        (1, "orders", "USA"),
        (1, "orders", "CSA"),
        (1, "movement", None),
        (1, "gunnery", "USA"),
        (1, "gunnery", "CSA"),
        (1, "exchange", "USA"),
        (1, "exchange", "CSA"),
        (1, "victory", None),
        (2, "status", "USA"),
    ]
    kinds = ("StatusChosen", "StatusChecked", "OrdersAssigned")
    names = [named(f) for f in s.facts if named(f) in kinds]
    assert names == [
        "StatusChosen",
        "StatusChecked",
        "StatusChecked",
        "OrdersAssigned",
        "OrdersAssigned",
    ]
    assert [p["side"] for p in events(s.facts, "StatusChecked")] == ["USA", "CSA"]


def test_io_9_3_2_order_card_numbers_odd_even_and_not_skipped() -> None:
    """IO-9.3, IO-9.3.2: the first player numbers its cards with odd numbers, the second with
    even ones, every ship numbered, none skipped; standard play takes no numbers."""
    s = alternating()
    play_until(s, "orders", "USA")
    rules = s.state.rules
    cases: list[tuple[dict[str, int], str]] = [
        ({"cumberland": 2, "monitor": 4}, "IO-9.3"),
        ({"cumberland": 1}, "IO-9.3"),
        ({"cumberland": 1, "monitor": 5}, "IO-9.3.2"),
        ({"cumberland": 3, "monitor": 5}, "IO-9.3.2"),
        ({"cumberland": 1, "monitor": 1}, "IO-9.3.2"),
    ]
    for numbers, rule in cases:
        refused(s, "USA", orders(rules, "USA", numbers=numbers), IllegalCommand, rule)
    new = submit(s, "USA", orders(rules, "USA", numbers={"cumberland": 3, "monitor": 1}))
    assert events(new, "OrdersAssigned")[0]["numbers"] == {"cumberland": 3, "monitor": 1}
    rules = s.state.rules
    refused(s, "CSA", orders(rules, "CSA", numbers={"virginia": 1}), IllegalCommand, "IO-9.3")
    refused(s, "CSA", orders(rules, "CSA", numbers={"virginia": 4}), IllegalCommand, "IO-9.3.2")
    submit(s, "CSA", orders(rules, "CSA", numbers={"virginia": 2}))

    standard = quiet_game()
    play_until(standard, "orders", "USA")
    numbered = orders(standard.state.rules, "USA", numbers={"cumberland": 1, "monitor": 3})
    refused(standard, "USA", numbered, InvalidCommand)


def test_io_9_3_3_orders_are_carried_out_in_card_number_order() -> None:
    """IO-9.3.3: order cards execute in number order (#1 monitor, #2 virginia, #3 cumberland),
    whatever side they belong to; a card out of order is refused."""
    s = alternating()
    play_until(s, "orders", "USA")
    submit(s, "USA", orders(s.state.rules, "USA", numbers={"cumberland": 3, "monitor": 1}))
    submit(s, "CSA", orders(s.state.rules, "CSA"))
    assert at_step(s, "movement", None)
    rules = s.state.rules
    refused(s, "USA", stay(rules, "cumberland"), NotYourTurn, "IO-9.3.3")
    refused(s, "CSA", stay(rules, "virginia"), NotYourTurn)
    submit(s, "USA", stay(rules, "monitor"))
    submit(s, "CSA", {"type": "respond_movement"})
    assert to_act(s.state.rules) == ["CSA"]
    refused(s, "USA", stay(rules, "cumberland"), NotYourTurn)
    submit(s, "CSA", stay(rules, "virginia"))
    submit(s, "USA", {"type": "respond_movement"})
    submit(s, "USA", stay(rules, "cumberland"))
    submit(s, "CSA", {"type": "respond_movement"})
    assert [p["ship"] for p in events(s.facts, "OrderRevealed")] == [
        "monitor",
        "virginia",
        "cumberland",
    ]
    assert at_step(s, "gunnery", "USA")


def test_io_9_3_4_card_exchange_goes_first_player_first() -> None:
    """IO-9.3.4: the first player exchanges first; the second waits its turn."""
    s = alternating()
    play_until(s, "exchange", "USA")
    usa_card = s.state.rules.hands["USA"][0]
    csa_card = s.state.rules.hands["CSA"][0]
    refused(s, "CSA", {"type": "exchange_card", "discard": csa_card}, NotYourTurn)
    submit(s, "USA", {"type": "exchange_card", "discard": usa_card})
    assert at_step(s, "exchange", "CSA")
    refused(s, "USA", {"type": "exchange_card"}, NotYourTurn)
    submit(s, "CSA", {"type": "exchange_card", "discard": csa_card})
    assert [p["side"] for p in events(s.facts, "CardExchanged")] == ["USA", "CSA"]


# =========================================================================== determinism

GAMES = [(name, mode) for name in BUNDLED_SCENARIOS for mode in ("standard", "alternating")]


def bot_game(name: str, mode: str, seed: int) -> Session:
    s = new_game(scenario(name), mode=mode, seed=seed)
    play_out(s)
    return s


@pytest.mark.parametrize(("name", "mode"), GAMES)
def test_bot_games_are_deterministic_and_end(name: str, mode: str) -> None:
    """The same seed gives the same facts (digests); every bot game ends with a GameEnded
    (IO-3.5), and replaying its facts rebuilds the same state."""
    first = bot_game(name, mode, seed=11)
    second = bot_game(name, mode, seed=11)
    assert [f.digest for f in first.facts] == [f.digest for f in second.facts]
    assert named(first.facts[-1]) == "GameEnded"
    assert first.state.result is not None
    assert sum(named(f) == "GameEnded" for f in first.facts) == 1
    rebuilt = replay(first.header, first.facts)
    assert rebuilt.rules == first.state.rules


def test_different_seeds_give_different_games() -> None:
    """Determinism is per seed: another seed plays another game."""
    one = bot_game("hampton_roads", "standard", seed=11)
    two = bot_game("hampton_roads", "standard", seed=12)
    assert [f.digest for f in one.facts] != [f.digest for f in two.facts]


def test_io_5_5_3_maneuver_0_under_a_crossed_t_is_an_escape_roll() -> None:
    """IO-5.1.4, IO-5.5.3: Maneuver 0 by a ship under a crossed T rolls its movement dice
    against the Maneuver 0 opposition; success ends the T, failure keeps it."""
    s = same_box_game({"virginia": "cross_t"})
    cross_monitors_stern(s)
    play_until(s, "orders", "USA")
    submit(s, "USA", orders(s.state.rules, "USA", {"monitor": "maneuver_0"}))
    submit(s, "USA", reveal(s.state.rules, "monitor", path=[[2, 2]]))
    new = submit(s, "CSA", {"type": "respond_movement"}, Rigged(s, 1, 1, 4))
    [escape] = events(new, "EscapeAttempted")
    assert escape == {"ship": "monitor", "success": False}
    rolls = [f.payload for f in new if f.topic == "wake.DiceRolled/1"]
    assert rolls[-1]["rule"] == "IO-5.5.3"
    assert s.state.rules.relation("monitor", "virginia") == "stern_on"


def test_io_6_2_3I_strike_needs_the_fire_to_damage_the_ship() -> None:
    """IO-6.2.3I (Strike!: "after your gunnery damages"): a fire with no effect captures
    nothing, even against a heavily damaged ship."""
    s = strike_game()
    doctor(s, "virginia", hits=12)
    play_until(s, "gunnery", "USA")
    fire = {"firer": "monitor", "section": 0, "target": "virginia"}
    strike = {"card": "strike", "firer": "monitor", "section": 0}
    submit(s, "USA", {"type": "declare_fire", "fires": [fire], "cards": [strike]})
    new = submit(s, "CSA", {"type": "respond_fire"}, Rigged(s, 6, 1, 1, 8, 4))
    assert events(new, "GunneryResolved")[0]["band"] == "no_effect"
    assert events(new, "ShipCaptured") == []


def test_io_9_3_1_alternating_status_runs_both_sides_together_level5_fires_first() -> None:
    """IO-9.3.1: in alternating play the first player's Status choices wait (StatusChosen, no
    roll) for the second player's; then both sides' fires are checked, level-5 fires of either
    side first."""
    s = alternating()
    doctor(s, "cumberland", fire=2)  # USA, the first player: an ordinary fire
    doctor(s, "virginia", fire=5)  # CSA, the second player: a level-5 fire
    submit(s, None, {"type": "deal"})
    first = submit(s, "USA", {"type": "status"})
    assert [named(f) for f in first][1:2] == ["StatusChosen"]
    assert not [f for f in first if f.topic == "wake.DiceRolled/1"]
    second = submit(s, "CSA", {"type": "status"})
    checked = [f.payload["subject"] for f in second if f.topic == "wake.DiceRolled/1"]
    assert checked[:2] == ["virginia", "cumberland"]
    assert [p["side"] for p in events(second, "StatusChecked")] == ["USA", "CSA"]


def test_io_5_1_3_a_ship_that_cannot_move_makes_no_opposing_maneuver() -> None:
    """IO-5.1.3 with IO-4.0: an unpowered ship (Engine-Stopped) cannot move and so cannot make
    an Opposing Maneuver; it must drift instead (refused with IO-4.0, nothing appended)."""
    s = same_box_game({"virginia": "opposing"})
    doctor(s, "virginia", criticals={"engine_stopped": CriticalState(name="engine_stopped")})
    refused(s, "CSA", reveal(s.state.rules, "virginia", target="monitor"), IllegalCommand, "IO-4.0")
    submit(s, "CSA", reveal(s.state.rules, "virginia", drift=True))


def test_io_5_1_3_the_opposed_marker_is_spent_by_the_next_order_whatever_it_is() -> None:
    """IO-5.1.3 (「次の移動で」, on its next move): the marked ship's next order uses the
    marker up even when it is a Maneuver 0, so the −1 never lands on a later turn."""
    s = same_box_game({"virginia": "opposing"})
    submit(s, "CSA", reveal(s.state.rules, "virginia", target="monitor"))
    submit(s, "USA", {"type": "respond_movement"})
    assert s.state.rules.ships["monitor"].opposed
    play_until(s, "orders", "USA", turn=2)
    submit(s, "USA", orders(s.state.rules, "USA", {"monitor": "maneuver_0"}))
    submit(s, "USA", reveal(s.state.rules, "monitor", path=[[2, 2]]))
    submit(s, "CSA", {"type": "respond_movement"})
    assert not s.state.rules.ships["monitor"].opposed


def test_io_5_6_the_attacker_must_have_started_the_order_phase_in_the_targets_box() -> None:
    """IO-5.6 / IO-5.5 (「敵艦と同じGBで命令フェイズを始め」): a target that was elsewhere when
    the attacker's side began its Order Phase may not be rammed or crossed, even if it is in
    the attacker's box now (alternating play moves ships in between)."""
    s = same_box_game({"virginia": "ram"})
    rules = s.state.rules
    assert rules.order_cells["CSA"]["virginia"] == rules.order_cells["CSA"]["monitor"]
    elsewhere = {**rules.order_cells["CSA"], "monitor": (2, 1)}
    s.state = dataclasses.replace(
        s.state,
        rules=rules.model_copy(update={"order_cells": {**rules.order_cells, "CSA": elsewhere}}),
    )
    ram = reveal(s.state.rules, "virginia", target="monitor", attacks=["ram"])
    refused(s, "CSA", ram, IllegalCommand, "IO-5.6")


def test_io_5_4_a_ship_leaving_the_map_checks_the_box_it_leaves_first() -> None:
    """IO-5.4 (移動元: the box moved from) with IO-5.1.5: leaving the map, the ship first checks
    the hazards of its box; grounding there keeps it on the map and no exit roll is made."""
    scen = scenario(at={"virginia": (2, 4)})
    scen["boxes"] = [b for b in scen["boxes"] if b["cell"] != [2, 4]] + [
        {"cell": [2, 4], "depth": 1}
    ]
    s = new_game(scen)
    play_until(s, "orders", "CSA")
    submit(s, "CSA", orders(s.state.rules, "CSA", {"virginia": "maneuver_1"}))
    submit(s, "CSA", reveal(s.state.rules, "virginia", path=[[2, 4]], exit=True))
    new = submit(s, "USA", {"type": "respond_movement"}, Rigged(s, 1, 6, 6))
    purposes = [f.payload["purpose"] for f in new if f.topic == "wake.DiceRolled/1"]
    assert purposes == ["shallows"]
    [crossed] = events(new, "MapEdgeCrossed")
    assert crossed["success"] is False
    ship = s.state.rules.ships["virginia"]
    assert (ship.status, ship.cell, ship.aground) == ("active", (2, 4), True)


# what carrying an order out (rather than drifting) records about the ship
CARRIED_OUT = (
    "ShipMoved",
    "ShipAnchored",
    "OpposingManeuver",
    "CrossTAttempted",
    "ContactRolled",
    "UnfoulAttempted",
    "RefloatAttempted",
    "MapEdgeCrossed",
    "EscapeAttempted",
)


def assert_became_a_drift(before: IronOakState, ship: str, facts: list[Fact]) -> None:
    """IO-4.0 「ルール違反の命令を与えられた船は、代わりにドリフトになる」: the ship's order was
    not carried out; the ship drifted (IO-5.2), unless it cannot drift (anchored, aground or
    fouled with an obstacle, IO-4.0; towed, IO-5.3; off the map) or its fouled or towing group
    already drifted this turn (IO-5.2: only the first ship of a group rolls)."""
    from domain.rulesets.iron_oak.movement import can_move

    for name in CARRIED_OUT:
        assert all(p.get("ship") != ship for p in events(facts, name)), (ship, name)
    if [p for p in events(facts, "ShipDrifted") if p["ship"] == ship]:
        return
    s = before.ships[ship]
    _, reason = can_move(before, ship, before.options.drift_when_fouled_with)
    group = {*s.fouled_with, s.towing, s.towed_by}
    assert s.cell is None or reason in ("stuck", "towed") or group & set(before.drifted), ship


@pytest.mark.parametrize("mode", ["standard", "alternating"])
@pytest.mark.parametrize("name", ["hampton_roads", "mobile_bay_gauntlet", "wassaw_sound"])
def test_io_4_0_random_order_cards_never_lock_the_game(name: str, mode: str) -> None:
    """IO-4.0 / IO-3.2: whatever order cards a side seals (random kinds here), every card can be
    revealed — carried out, or drifted when it cannot be — and the game reaches its end. Each
    card revealed as a drift is one that could not be carried out, and the ship drifted
    instead (:func:`assert_became_a_drift`); random cards make some of them."""
    from domain.rulesets.iron_oak import bot
    from domain.rulesets.iron_oak.commands import ORDER_KINDS, AssignOrders
    from domain.rulesets.iron_oak.orders import bot_salt, order_possible

    rng = random.Random(f"{name}{mode}")
    s = new_game(scenario(name), mode=mode, seed=11)
    drifting: dict[str, IronOakState] = {}  # ship revealed as a drift -> the state before
    became_drifts = 0
    for _ in range(4000):
        rules = s.state.rules
        if s.state.result is not None:
            break
        side = s.state.ruleset.to_act(rules)[0]
        command = bot.bot_command(rules, side)
        assert command is not None, (rules.phase, side)
        if isinstance(command, AssignOrders):
            seals = {
                ship: seal(
                    order_content(ship, rules.turn, rng.choice(ORDER_KINDS)),
                    bot_salt(rules, ship),
                ).digest
                for ship in command.seals
            }
            command = AssignOrders(seals=seals, numbers=command.numbers)
        new = submit(s, side, command.model_dump(mode="json"))
        for revealed in events(new, "OrderRevealed"):
            if revealed["drift"] and revealed["order"] != "drift":
                assert not order_possible(rules, revealed["ship"], revealed["order"])
                drifting[revealed["ship"]] = s.state.rules
        for done in events(new, "OrderCompleted"):
            if done["ship"] in drifting:
                assert_became_a_drift(drifting.pop(done["ship"]), done["ship"], new)
                became_drifts += 1
    assert s.state.result is not None
    assert not drifting
    assert became_drifts > 0
