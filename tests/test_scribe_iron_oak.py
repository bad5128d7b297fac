"""Iron & Oak's orders as a scribe's menu (issue 20): every order of the bundled games is one the
menu offers (IO-3.1 to IO-3.5, IO-6.3.4), every choice it offers is one the rules accept in some
order, every legal way of carrying a card out or of firing is offered, the order cards a side
seals at a table are opened by that side's menu only (IO-3.2, IO-3.3.1 A), and no label shows
an id, a Python value or a digest."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from domain.dice import SeededDice
from domain.engine import GameState, apply_event, bot_order, header_for, new_game
from domain.errors import IllegalCommand, InvalidCommand, WakeError
from domain.events import CommandIssued
from domain.record import read_record_file
from domain.rulesets.iron_oak import bot, gunnery
from domain.rulesets.iron_oak import menu as io_menu
from domain.rulesets.iron_oak.commands import ORDER_KINDS, DeclareFire, Fire, RevealOrder
from domain.rulesets.iron_oak.menu_movement import UNOPENED_HELP, movers
from domain.rulesets.iron_oak.orders import bot_salt, candidate_details, open_card
from domain.rulesets.iron_oak.state import CriticalState, IronOakState
from domain.rulesets.iron_oak.turn_events import OrderRevealed
from domain.scribe import table as T
from domain.scribe.menu import (
    MenuField,
    MenuOrder,
    build_command,
    field_path,
    match_command,
    open_choices,
)
from domain.scribe.probe import preview
from domain.sealed import new_salt, seal
from domain.store import GameStore
from tests.helpers import FIXTURES, ROOT
from viewer.timeline import Timeline

GAMES = sorted((FIXTURES / "games" / "iron_oak").glob("*.wake.json"))
HAMPTON = ROOT / "domain/rulesets/iron_oak/data/scenarios/hampton_roads.json"
UNSET = object()


@cache
def _positions(path: Path) -> tuple[list[tuple[GameState, CommandIssued]], dict[Any, str]]:
    """Every order of a recorded game with the state before it, and each order card's kind as
    later turned up: (turn, ship) -> order kind."""
    record = read_record_file(path)
    state = new_game(record.header)
    orders: list[tuple[GameState, CommandIssued]] = []
    revealed: dict[Any, str] = {}
    decoded = Timeline(record.header, record.events).decoded
    for fact, event in zip(record.events, decoded, strict=True):
        if isinstance(event, CommandIssued):
            orders.append((state, event))
        elif isinstance(event, OrderRevealed):
            revealed[(state.rules.turn, event.ship)] = event.order
        state = apply_event(state, event, fact.digest)
    return orders, revealed


def _normal(state: GameState) -> Any:
    ruleset = state.ruleset
    return lambda command: ruleset.parse_command(dict(command)).model_dump(mode="json")


def _names(path: Path) -> str:
    return path.name.removesuffix(".wake.json")


# --------------------------------------------------------------------------- recorded games


@pytest.mark.parametrize("path", GAMES, ids=_names)
def test_the_menu_offers_every_order_of_a_bundled_game(path: Path) -> None:
    """IO-3.0 to IO-3.5, IO-6.3.4: at every order of the game, the menu of the side to give it
    holds an order that gives exactly that command; an Order Phase's sealed cards (IO-3.2)
    come out of ``seal_order`` with the plain orders (as turned up later) and the state the
    bot sealed them from, digests, card numbers (IO-9.3.2) and all."""
    orders, revealed = _positions(path)
    sealed = from_reveals = 0
    for state, event in orders:
        menu = T.menu(None, state, event.side)
        if event.command["type"] != "assign_orders":
            normal = _normal(state)
            found = [o for o in menu if match_command(o, event.command, normal) is not None]
            assert found, (event.index, event.command, [o.key for o in menu])
            continue
        rules: IronOakState = state.rules
        (order,) = [o for o in menu if o.sealed]
        values: dict[str, Any] = {}
        for ship in event.command["seals"]:
            kind = revealed.get((rules.turn, ship))
            from_reveals += kind is not None
            values[f"orders.{ship}"] = kind or bot.plan_order(rules, ship)  # never turned up
        numbers = event.command["numbers"]
        if numbers:
            values["numbers"] = sorted(numbers, key=numbers.get)
        values["release_tows"] = event.command["release_tows"]
        command = state.ruleset.seal_order(rules, event.side, order, values)
        assert command.model_dump(mode="json") == event.command
        assert all(f.secret for f in order.fields if f.name.startswith("orders."))
        sealed += len(event.command["seals"])
    assert sealed and from_reveals > sealed / 2


def _sampled(path: Path, every: int) -> Iterator[tuple[GameState, CommandIssued]]:
    orders, _ = _positions(path)
    seen: set[str] = set()
    for i, (state, event) in enumerate(orders):
        kind = event.command["type"]
        if i % every == 0 or kind not in seen:
            seen.add(kind)
            yield state, event


@pytest.mark.parametrize("path", GAMES, ids=_names)
def test_every_choice_offered_is_accepted_in_some_completion(path: Path) -> None:
    """Offer exactly what is legal: at sampled orders of the game (the first of each kind and
    every third), each order of the menu, and each of its choices, is accepted by ``decide``
    (IO-3.x, the rule refusing it named otherwise) when the other fields are filled in some
    way the menu offers — a box of a path with the boxes before it on a legal path. (A card
    drawn from a physical deck is offered as far as the side knows the deck: the enemy's hand
    stays hidden, so a card it holds every copy of is offered too.)"""
    for state, event in _sampled(path, 3):
        for order in T.menu(None, state, event.side):
            pins: list[tuple[str, Any] | None] = [None]
            pins += [(f.name, c) for f in order.fields for c in f.choices]
            for pin in pins:
                if pin and pin[0] == "draw" and pin[1].value not in state.rules.deck:
                    continue  # every copy is in the enemy's hidden hand (IO-3.4): not shown
                errors = []
                for values in _completions(order, pin):
                    error = _refusal(state, event.side, order, values)
                    if error is None:
                        break
                    errors.append(error)
                else:
                    pytest.fail(f"{order.label} {pin and pin[1].label}: {errors[:2]}")


@pytest.mark.parametrize("path", GAMES, ids=_names)
def test_every_legal_way_to_turn_a_card_up_or_to_fire_is_in_the_menu(path: Path) -> None:
    """IO-3.3.1 A, IO-4.0, IO-5.1, IO-5.3, IO-5.5, IO-5.6: every way of carrying out the card
    on a ship that may move now (each path, exit, target, T side, attacks, tow, or drifting
    when it cannot be carried out) that ``decide`` accepts is given by the menu; IO-3.3.2 B,
    IO-6.0, IO-6.2.3D: so is every single fire it accepts (each gun section at each target,
    plunging or not). A drift with a tow is left out: the rules do not check the tow of a
    drifting ship at the reveal (reported), so the menu does not offer one."""
    orders, _ = _positions(path)
    checked = 0
    for state, event in orders:
        rules: IronOakState = state.rules
        side = event.side
        kind = event.command["type"]
        if kind == "reveal_order":
            legal = [c for c in _reveals(rules, side) if _accepted(state, side, c)]
        elif kind == "declare_fire":
            legal = [c for c in _single_fires(rules) if _accepted(state, side, c)]
        else:
            continue
        menu = T.menu(None, state, side)
        normal = _normal(state)
        for command in legal:
            data = command.model_dump(mode="json")
            assert any(match_command(o, data, normal) is not None for o in menu), data
        checked += len(legal)
    assert checked > 100


def _reveals(rules: IronOakState, side: str | None) -> Iterator[RevealOrder]:
    for ship in movers(rules, side):  # type: ignore[arg-type]
        kind = open_card(rules, ship)
        assert kind is not None
        here = rules.ships[ship].cell
        partners = [s.id for s in rules.ships_in(here)] if here is not None else []
        for details in [*candidate_details(rules, ship, kind), {"drift": True}]:
            tows = [None] if details.get("drift") else [None, *partners]
            for tow in tows:
                salt = bot_salt(rules, ship)
                yield RevealOrder(ship=ship, order=kind, salt=salt, attach=tow, **details)


def _single_fires(rules: IronOakState) -> Iterator[DeclareFire]:
    units = [*rules.ships, *rules.sections]
    for firer in units:
        for section in range(len(gunnery.guns_of(rules, firer))):
            for target in units:
                for plunging in (False, True):
                    fire = Fire(firer=firer, section=section, target=target, plunging=plunging)
                    yield DeclareFire(fires=[fire])


def _accepted(state: GameState, side: str | None, command: Any) -> bool:
    try:
        state.ruleset.decide(state.rules, side, command, SeededDice(1))
    except WakeError:
        return False
    return True


# --------------------------------------------------------------------------- completions


def _refusal(
    state: GameState, side: str | None, order: MenuOrder, values: Mapping[str, Any]
) -> WakeError | None:
    ruleset = state.ruleset
    try:
        if order.sealed:
            command = ruleset.seal_order(state.rules, side, order, values)
        else:
            command = ruleset.parse_command(build_command(order, values))
        ruleset.decide(state.rules, order.side or side, command, SeededDice(1))
    except WakeError as exc:
        return exc
    return None


def _chained(field: MenuField) -> bool:
    """A field whose choices follow the values chosen before them in it (a path)."""
    return any(field.name in c.when for c in field.choices)


def _extend(
    field: MenuField, values: Mapping[str, Any], done: list[Any], limit: int
) -> Iterator[list[Any]]:
    """``done`` completed to the field's least count along the choices open after it."""
    if len(done) >= field.min_count:
        yield done
        return
    count = 0
    for choice in open_choices(field, {**values, field.name: done}):
        if field.distinct and choice.value in done:
            continue
        for full in _extend(field, values, [*done, choice.value], limit):
            yield full
            count += 1
            if count >= limit:
                return


def _windows(first: list[Any], rest: list[Any], size: int) -> Iterator[list[Any]]:
    """``first`` followed by rotations of ``rest``, ``size`` values in all (a hand of cards)."""
    need = size - len(first)
    for start in range(0, max(1, len(rest)), max(1, need // 2 or 1)):
        window = first + (rest[start:] + rest[:start])[:need]
        if len(window) == size:
            yield window


def _options(field: MenuField, values: Mapping[str, Any], pin: Any) -> Iterator[Any]:
    """The values to try for ``field``: the pinned choice (in a list with what it needs), or
    for any other field each choice open (a many field: none, one, or enough to fill it)."""
    if pin is not None and pin[0] == field.name:
        choice = pin[1]
        if field.kind != "many":
            yield choice.value
        elif _chained(field) or field.min_count <= 1:
            yield from _extend(field, values, [*choice.when.get(field.name, []), choice.value], 4)
        else:
            rest = [c.value for c in open_choices(field, values) if c.value != choice.value]
            yield from _windows([choice.value], rest, field.min_count)
        return
    if field.kind == "many":
        if _chained(field):
            yield from _extend(field, values, [], 3)
            return
        opened = [c.value for c in open_choices(field, values)]
        if field.min_count == 0:
            yield []
        if field.min_count <= 1:
            yield from ([v] for v in opened)
        else:
            yield from _windows([], opened, field.min_count)
        return
    if field.optional:
        yield UNSET
    yield from (c.value for c in open_choices(field, values))


def _completions(order: MenuOrder, pin: Any, cap: int = 40) -> list[dict[str, Any]]:
    """Up to ``cap`` ways of filling ``order`` the menu offers, with ``pin`` (field, choice)."""
    out: list[dict[str, Any]] = []

    def fill(i: int, values: dict[str, Any]) -> None:
        if len(out) >= cap:
            return
        if i == len(order.fields):
            out.append(values)
            return
        field = order.fields[i]
        for value in _options(field, values, pin):
            fill(i + 1, values if value is UNSET else {**values, field.name: value})
            if len(out) >= cap:
                return

    fill(0, {})
    return out


# --------------------------------------------------------------------------- labels

_ID = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
_DIGEST = re.compile(r"\b[0-9a-f]{64}\b")


@pytest.mark.parametrize("path", GAMES, ids=_names)
def test_labels_are_in_players_words(path: Path) -> None:
    """Labels, details and help name units, cards, boxes and orders as players do: no id
    with an underscore, no ``None``, no brackets or braces of a Python value, no digest, and
    never the salt of a card (IO-3.2)."""
    orders, _ = _positions(path)
    for state, event in orders:
        for order in T.menu(None, state, event.side):
            texts = [order.label, order.help]
            for field in order.fields:
                texts += [field.label, field.help]
                texts += [t for c in field.choices for t in (c.label, c.detail)]
            salt = order.fixed.get("salt")
            for text in texts:
                assert not _ID.search(text), text
                assert "None" not in text and "[" not in text and "{" not in text, text
                assert not _DIGEST.search(text) and (salt is None or salt not in text), text


# --------------------------------------------------------------------------- sealed at a table


def _store_game(store: GameStore) -> str:
    data = json.loads(HAMPTON.read_text())
    header = header_for("iron_oak", data, game_id="00000000-0000-4000-8000-0000000a1001", seed=4)
    return store.create_game(header)


def _bot_until(store: GameStore, gid: str, done: Any) -> GameState:
    """Let the bot give orders until ``done(state)``."""
    for _ in range(200):
        state = store.state(gid)
        if done(state):
            return state
        envelope = bot_order(state)
        assert envelope is not None
        T.submit(store, gid, envelope.side, envelope.command, state.seq)
    raise AssertionError("never got there")


def test_a_side_seals_its_cards_with_its_own_secret_and_only_its_menu_opens_them(
    tmp_path: Path,
) -> None:
    """IO-3.2, IO-3.3.1 A: a human side's cards sealed through the menu (``seal_order`` from
    the side's own table secret) are opened by its menu at the reveal, which offers just the
    card's order; the menu of anybody else (another secret, or none: what an opponent's bot
    knows) cannot open them, offers every order kind, says why, and each is refused (IO-3.2)."""
    store = GameStore(str(tmp_path / "store.sqlite3"))
    gid = _store_game(store)
    state = _bot_until(store, gid, lambda s: s.rules.phase == "orders")
    side = state.ruleset.to_act(state.rules)[0]
    (order,) = [o for o in T.menu(store, state, side) if o.sealed]
    chosen = {}
    for field in order.fields:
        possible = [c for c in field.choices if not c.detail]  # "cannot be carried out" else
        chosen[field.name.split(".", 1)[1]] = possible[-1].value
    values = {f"orders.{ship}": kind for ship, kind in chosen.items()}
    command = T.sealed_command(store, state, side, order, values)
    assert set(command["seals"]) == set(chosen)
    assert not any(kind in json.dumps(command) for kind in chosen.values())
    T.submit(store, gid, side, command, state.seq)

    state = _bot_until(store, gid, lambda s: s.rules.phase == "movement")
    ours = T.menu(store, state, side)
    ships = {o.fixed["ship"] for o in ours if o.type == "reveal_order"}
    assert ships and {o.fixed["order"] for o in ours if o.type == "reveal_order"} <= set(
        chosen.values()
    )
    for o in ours:
        if o.type == "reveal_order":
            assert o.fixed["order"] == chosen[o.fixed["ship"]] and not o.help
    ruleset = state.ruleset
    for rules in (ruleset.with_bot_secret(state.rules, "another secret"), state.rules):
        theirs = ruleset.order_menu(rules, side)
        reveals = [o for o in theirs if o.type == "reveal_order"]
        assert {o.fixed["order"] for o in reveals} == set(ORDER_KINDS)
        assert all(o.help == UNOPENED_HELP for o in reveals)
        for o in reveals:
            values = _completions(o, None, cap=1)[0]
            command = ruleset.parse_command(build_command(o, values))
            with pytest.raises(IllegalCommand, match=r"IO-3\.2.*not the card sealed"):
                ruleset.decide(rules, side, command, SeededDice(1))

    # the side turns its card up from its menu and the rules accept it
    reveal = next(o for o in ours if o.type == "reveal_order")
    values = _completions(reveal, None, cap=1)[0]
    T.submit(store, gid, side, build_command(reveal, values), state.seq)
    assert store.state(gid).rules.orders[reveal.fixed["ship"]].order == reveal.fixed["order"]


def test_a_card_sealed_with_wake_seal_never_crashes_the_menu() -> None:
    """Issue 23 item 6: a card sealed with a salt of a person's own (``wake seal``) cannot be
    opened by the menu; it offers the reveal for each order kind instead (the rules check the
    card against its seal, IO-3.2) rather than failing."""
    path = FIXTURES / "games/iron_oak/hampton_roads-magazine.wake.json"
    orders, _ = _positions(path)
    state, event = next((s, e) for s, e in orders if e.command["type"] == "reveal_order")
    rules: IronOakState = state.rules
    ship = event.command["ship"]
    digest = seal({"ship": ship, "turn": rules.turn, "order": "maneuver_1"}, new_salt()).digest
    cards = {**rules.orders, ship: rules.orders[ship].model_copy(update={"digest": digest})}
    forged = rules.model_copy(update={"orders": cards})
    menu = state.ruleset.order_menu(forged, event.side)
    kinds = {o.fixed["order"] for o in menu if o.fixed.get("ship") == ship}
    assert kinds == set(ORDER_KINDS)


# --------------------------------------------------------------------------- single steps


def _first(path: str, kind: str, side: str | None = None) -> tuple[GameState, CommandIssued]:
    orders, _ = _positions(FIXTURES / "games/iron_oak" / path)
    return next(
        (s, e) for s, e in orders if e.command["type"] == kind and (side is None or e.side == side)
    )


def test_a_path_offers_only_the_boxes_that_continue_a_legal_path() -> None:
    """IO-5.1.6 (issue 20 core): a path's next box is offered only where a legal path goes on
    from the boxes clicked so far (``when`` naming the field itself), and ``build_command``
    refuses a path that jumps."""
    orders, _ = _positions(FIXTURES / "games/iron_oak/wassaw_sound-night-spar.wake.json")
    state, event = next(
        (s, e) for s, e in orders if e.command.get("order") == "maneuver_2" and e.side == "USA"
    )
    order = next(
        o for o in T.menu(None, state, event.side) if o.fixed.get("ship") == event.command["ship"]
    )
    path = order.field("path")
    start, *_ = event.command["path"]
    first = [c.value for c in open_choices(path, {"path": []})]
    assert first == [start]
    second = [c.value for c in open_choices(path, {"path": [start]})]
    assert start not in second and all(_steps(c, start) == 1 for c in second)
    third = [c.value for c in open_choices(path, {"path": [start, second[0]]})]
    assert third and all(_steps(c, start) == 2 for c in third)
    built = build_command(order, {"path": [start, second[0], third[0]]})
    assert built["path"] == [start, second[0], third[0]]
    far = [start, third[0], second[0]]
    with pytest.raises(InvalidCommand, match="not one of the choices"):
        build_command(order, {"path": far})


def _steps(a: list[int], b: list[int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def test_the_usual_fire_declaration_is_one_click() -> None:
    """IO-3.3.2 B, IO-6.0: besides declaring fires one by one, the menu proposes each unit's
    guns that bear on the target most of them reach, given with no field to fill."""
    orders, _ = _positions(FIXTURES / "games/iron_oak/mobile_bay-fort-magazine.wake.json")
    state, event = next(
        (s, e) for s, e in orders if e.command["type"] == "declare_fire" and e.command["fires"]
    )
    proposed, *_ = T.menu(None, state, event.side)
    assert proposed.key == "declare_fire:proposed" and "Declare fire: " in proposed.label
    command = build_command(proposed, {})
    assert command["fires"] == event.command["fires"]
    assert _refusal(state, event.side, proposed, {}) is None


def test_a_fort_sections_repair_party_is_named_by_its_dotted_id() -> None:
    """IO-3.1.1: a repair party on a fort section may be told which critical to work on; the
    section's id holds a dot, and the menu's ``repair`` field (``field_path("repair", unit)``,
    the dot escaped) puts it whole under ``repair``."""
    state, _ = _first("mobile_bay-fire5.wake.json", "status", "CSA")
    rules: IronOakState = state.rules
    unit = next(iter(rules.sections))
    section = rules.sections[unit].model_copy(
        update={
            "repair_party": True,
            "criticals": {
                "jam": CriticalState(name="jam"),
                "armament": CriticalState(name="armament", level=-2),
            },
        }
    )
    rules = rules.model_copy(update={"sections": {**rules.sections, unit: section}})
    (order,) = [o for o in io_menu.order_menu(rules, "CSA") if o.type == "status"]
    field = order.field(field_path("repair", unit))
    assert [c.value for c in field.choices] == ["armament", "jam"] and field.optional
    command = build_command(order, {field.name: "jam"})
    assert command["repair"] == {unit: "jam"}
    events = state.ruleset.decide(rules, "CSA", state.ruleset.parse_command(command), SeededDice(3))
    assert any("repair jam" in str(getattr(e, "purpose", "")) for e in events)


def test_a_physical_game_names_the_card_drawn_and_the_hands_dealt() -> None:
    """IO-3.4 with physical cards: the exchange names the card drawn, offered as far as the
    side knows the deck, so the choices never tell what the enemy holds; the deal may name
    each side's hand (both kept until card draws go through chance)."""
    state, event = _first("hampton_roads-physical.wake.json", "exchange_card")
    rules: IronOakState = state.rules
    exchange = next(o for o in T.menu(None, state, event.side) if o.key == "exchange")
    assert [f.name for f in exchange.fields] == ["discard", "draw"]
    enemy = "USA" if event.side == "CSA" else "CSA"
    for card in set(rules.deck):  # had the enemy drawn it, the side would see the same
        deck = list(rules.deck)
        deck.remove(card)
        hands = {**rules.hands, enemy: (*rules.hands[enemy], card)}
        other = rules.model_copy(update={"hands": hands, "deck": tuple(deck)})
        again = next(o for o in io_menu.order_menu(other, event.side) if o.key == "exchange")
        assert again.field("draw") == exchange.field("draw")
    deal_state, _ = _first("hampton_roads-physical.wake.json", "deal")
    named = next(o for o in T.menu(None, deal_state, None) if o.key == "deal:named")
    assert [f.name for f in named.fields] == ["hands.CSA", "hands.USA"]


def test_hands_naming_more_cards_than_the_deck_holds_are_refused_in_words_io_3_4() -> None:
    """IO-3.4: the deal's named hands hold only what the deck holds; the refusal names the
    cards and their counts as a player reads them (issue 21 item 7: it printed a Python list
    of card ids), and the scribe's probe shows it refused with its rule."""
    deal_state, _ = _first("hampton_roads-physical.wake.json", "deal")
    named = next(o for o in T.menu(None, deal_state, None) if o.key == "deal:named")
    hands = {f.name: ["strike"] * (f.min_count or 0) for f in named.fields}
    seen = preview(deal_state, None, build_command(named, hands))
    assert seen.status == "refused" and seen.error is not None
    assert seen.error.rule == "IO-3.4"
    assert str(seen.error).endswith(
        "the hands name more cards than the deck holds: Strike! named 10 times, 1 in the deck"
    ), str(seen.error)
    assert "[" not in str(seen.error).split("]", 1)[1] and "'" not in str(seen.error)


def test_an_order_type_the_menu_does_not_know_is_offered_from_the_legal_orders(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nothing is ever missing: an order type without a menu entry of its own (here the
    Victory Phase, IO-3.5, as if added later) comes from the legal orders."""
    state, _ = _first("hampton_roads-magazine.wake.json", "end_turn")
    monkeypatch.setattr(io_menu, "COVERED", io_menu.COVERED - {"end_turn"})
    monkeypatch.setattr(io_menu, "_table_steps", lambda state: [])
    menu = io_menu.order_menu(state.rules, None)
    assert [o.type for o in menu] == ["end_turn"]
    assert build_command(menu[0], {}) == {"type": "end_turn"}


def test_seal_order_refuses_what_the_menu_does_not_offer() -> None:
    """IO-3.2: an order kind that is not an order card, a ship missing its card, or another
    order than the Order Phase's is refused with a one-line error; nothing is sealed."""
    state, event = _first("hampton_roads-magazine.wake.json", "assign_orders")
    rules: IronOakState = state.rules
    (order,) = [o for o in io_menu.order_menu(rules, event.side) if o.sealed]
    ships = [f.name for f in order.fields]
    with pytest.raises(InvalidCommand, match="not one of the choices"):
        io_menu.seal_order(rules, event.side, order, {name: "full_speed" for name in ships})
    with pytest.raises(InvalidCommand, match="still to choose"):
        io_menu.seal_order(rules, event.side, order, {ships[0]: "maneuver_0"})
    status_state, status_event = _first("hampton_roads-magazine.wake.json", "status")
    status = T.menu(None, status_state, status_event.side)[0]
    with pytest.raises(InvalidCommand, match="not a sealed order"):
        io_menu.seal_order(rules, event.side, status, {})
