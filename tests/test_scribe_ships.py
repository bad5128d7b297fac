"""SHIPS & TACTICS as a scribe's menu (issue 20): every order of every bundled game is one the
menu offers (ST-1.2 to ST-5.5), every choice it offers is one the rules take in some
completion, a fleet placed face down from the menu (ST-1.3) is sealed as the bot seals its own
and opened at the reveal (ST-1.9) only with the side's own secret, and labels are in players'
words with each side shown only its own hand."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import orjson
import pytest
from pydantic import BaseModel, ConfigDict

from domain.dice import SeededDice
from domain.engine import (
    CommandEnvelope,
    GameState,
    Session,
    apply_event,
    bot_order,
    header_for,
    new_game,
)
from domain.errors import IllegalCommand, InvalidCommand, NotYourTurn, WakeError
from domain.events import CommandIssued
from domain.frozen import changed
from domain.record import read_record_file
from domain.ruleset import get_ruleset
from domain.rulesets.ships import bot
from domain.rulesets.ships import menu as ships_menu
from domain.rulesets.ships.events import FleetRevealed
from domain.rulesets.ships.fleet import Fleet
from domain.rulesets.ships.menu_fleet import placements
from domain.rulesets.ships.state import ShipsState
from domain.scribe import table as T
from domain.scribe.menu import MenuChoice, MenuField, MenuOrder, build_command, match_command
from domain.store import GameStore
from tests.helpers import FIXTURES
from tests.ships_helpers import rules, scenario, session
from viewer.timeline import Timeline

GAMES = sorted((FIXTURES / "games" / "ships").glob("*.wake.json"))
RULESET = get_ruleset("ships")


def _menu(state: ShipsState, side: str | None) -> list[MenuOrder]:
    """The ruleset's own menu for ``side`` (never the generic one)."""
    menu = RULESET.order_menu(state, side)
    assert menu is not None
    return menu


def _normal(command: Mapping[str, Any]) -> Any:
    return RULESET.parse_command(dict(command)).model_dump(mode="json")


@cache
def _orders(path: Path) -> list[tuple[GameState, CommandIssued]]:
    """(state before, order) for every order of a recorded game."""
    record = read_record_file(path)
    assert record.header.dice.commitment is None  # the bots sealed from the game's own seed
    state = new_game(record.header)
    out = []
    for fact, event in zip(
        record.events, Timeline(record.header, record.events).decoded, strict=True
    ):
        if isinstance(event, CommandIssued):
            out.append((state, event))
        state = apply_event(state, event, fact.digest)
    return out


@cache
def _reveals(path: Path) -> dict[tuple[str, int], Fleet]:
    """The fleet each player turned face up in each battle (ST-1.9)."""
    record = read_record_file(path)
    state = new_game(record.header)
    found = {}
    for fact, event in zip(
        record.events, Timeline(record.header, record.events).decoded, strict=True
    ):
        if isinstance(event, FleetRevealed):
            found[(event.player, state.rules.battle)] = event.fleet
        state = apply_event(state, event, fact.digest)
    return found


def _values_for(state: ShipsState, side: str, fleet: Fleet) -> dict[str, str]:
    """The menu's values that build ``fleet`` (found among every fleet the menu builds)."""
    wanted = fleet.model_dump(mode="json")
    for places, plain in placements(state, side):
        if plain == wanted:
            return {f"hand{i}": place for i, place in places.items() if place != "hand"}
    raise AssertionError(f"the menu cannot build {wanted}")


def _fleet_order(menu: list[MenuOrder]) -> MenuOrder:
    (order,) = [o for o in menu if o.type == "form_fleet"]
    assert order.sealed and all(f.secret for f in order.fields)
    return order


def _check_offered(
    state: ShipsState, side: str | None, command: dict[str, Any], fleet: Fleet | None
) -> None:
    menu = _menu(state, side)
    if command["type"] == "form_fleet":
        assert fleet is not None
        order = _fleet_order(menu)
        values = _values_for(state, str(side), fleet)
        sealed = RULESET.seal_order(state, side, order, values)
        assert sealed.digest == command["digest"]
        assert sealed.fleet is None and sealed.salt is None  # the digest alone
        return
    assert any(match_command(o, command, _normal) is not None for o in menu), command


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_the_menu_offers_every_order_of_the_bundled_games(path: Path) -> None:
    """Every order of a bundled game is one the menu of its side offers, with values that give
    exactly it: the setup (ST-1.2, ST-4.3; named cards at a physical table), fleets (sealed
    from the later reveal's content: the recorded digest, ST-1.3) and their reveal (ST-1.9),
    Minovsky (ST-5.3), launches (ST-3.3.1), attacks (ST-3.2, ST-3.4), line weapons (ST-3.1),
    defence cards, air strikes (ST-3.3.2), boarding (ST-3.5), hacking (ST-5.2), end of turn
    (ST-3.3.7)."""
    reveals = _reveals(path)
    for state, event in _orders(path):
        rules_state: ShipsState = state.rules
        fleet = reveals.get((str(event.side), rules_state.battle))
        _check_offered(rules_state, event.side, event.command, fleet)


def test_every_bot_order_of_a_game_with_other_readings_is_offered() -> None:
    """Two ships per box (ST-1.8 option), line weapons without the centre (ST-3.1 option) and
    the Minovsky question to holders only (ST-5.3 option): still every order is offered."""
    s = session(
        "multi4", seed=11, ships_per_box=2, line_includes_centre=False, minovsky_ask="holders"
    )
    taken = 0
    while (envelope := bot_order(s.state)) is not None:
        command = envelope.command
        fleet = Fleet.model_validate(command["fleet"]) if command["type"] == "form_fleet" else None
        _check_offered(rules(s), envelope.side, command, fleet)
        s.submit(envelope)
        taken += 1
    assert taken > 100 and s.state.result is not None


# --------------------------------------------------------------------------- choices


def _sample(every: int = 9) -> Iterator[tuple[ShipsState, str | None]]:
    for path in GAMES:
        for n, (state, event) in enumerate(_orders(path)):
            if n % every == 0 or event.command["type"] in ("air_strike", "line_attack", "hack"):
                yield state.rules, event.side


def _accepted(
    state: ShipsState, side: str | None, order: MenuOrder, values: dict[str, Any]
) -> bool:
    try:
        command = RULESET.parse_command(build_command(order, values))
        RULESET.decide(state, side, command, SeededDice(0))
    except WakeError:
        return False
    return True


def _options(order: MenuOrder, name: str, value: Any) -> Iterator[dict[str, Any]]:
    """Completions of ``order`` with field ``name`` holding ``value``: each other field one of
    its choices (a pick of several: none, or one)."""
    per_field = []
    for field in order.fields:
        values = [c.value for c in field.choices]
        if field.name == name:
            options: list[Any] = [[value] if field.kind == "many" else value]
        elif field.kind == "many":
            options = ([[]] if field.min_count == 0 else []) + [[v] for v in values]
        else:
            options = ([None] if field.optional else []) + values
        per_field.append([(field.name, o) for o in options])
    for combination in itertools.product(*per_field):
        yield {k: v for k, v in combination if v is not None}


def test_every_choice_offered_is_taken_by_the_rules_in_some_completion() -> None:
    """At positions of every bundled game, each choice of each order (a target, a card, a
    centre, a group's aircraft, a pilot's aircraft, an aircraft recovered, ...) is accepted by
    ``decide`` with some choice of the other fields; each order without fields is accepted as
    it is; each place of a sealed fleet's card is taken by some fleet the rules allow."""
    checked = 0
    for state, side in _sample():
        for order in _menu(state, side):
            if order.sealed:
                _check_fleet_choices(state, str(side), order)
                continue
            if order.key == "start_battle:named":
                continue  # the cards drawn: checked against the recorded setups above
            if not order.fields:
                assert _accepted(state, side, order, {}), order.label
            for field in order.fields:
                for choice in field.choices:
                    ok = any(
                        _accepted(state, side, order, values)
                        for values in itertools.islice(
                            _options(order, field.name, choice.value), 400
                        )
                    )
                    assert ok, (order.label, field.label, choice.label)
                    checked += 1
    assert checked > 300


def _check_fleet_choices(state: ShipsState, side: str, order: MenuOrder) -> None:
    """Each place of each card is one some fleet the placement rules allow takes (sealed by
    ``seal_order``, then taken by ``decide``)."""
    for field in order.fields:
        for choice in field.choices:
            assert any(
                _sealed(state, side, order, values)
                for values in _options(order, field.name, choice.value)
            ), (field.label, choice.label)


def _sealed(state: ShipsState, side: str, order: MenuOrder, values: dict[str, Any]) -> bool:
    try:
        command = RULESET.seal_order(state, side, order, values)
        RULESET.decide(state, side, command, SeededDice(0))
    except WakeError:
        return False
    return True


# --------------------------------------------------------------------------- sealed fleets


def _to_formation(s: Session, player: str) -> None:
    while not (rules(s).phase == "formation" and rules(s).active == player):
        assert s.submit_bot() is not None


def _seal_as_a_side(s: Session, player: str, secret: str) -> Fleet:
    """``player`` places a fleet other than the bot's from the menu, sealed with ``secret``."""
    mine = RULESET.with_bot_secret(rules(s), secret)
    order = _fleet_order(_menu(mine, player))
    bots = bot.plan_fleet(mine, player).model_dump(mode="json")
    places, plain = next((p, f) for p, f in reversed(list(placements(mine, player))) if f != bots)
    values = {f"hand{i}": place for i, place in places.items() if place != "hand"}
    command = RULESET.seal_order(mine, player, order, values)
    s.submit(CommandEnvelope(side=player, command=command.model_dump(mode="json")))
    return Fleet.model_validate(plain)


def _to_reveal(s: Session, player: str, fleet: Fleet) -> None:
    """Bots play the others up to ``player``'s reveal; at each step no menu of any side (each
    with its own secret) or of the table shows ``player``'s fleet."""
    shown = orjson.dumps(fleet.model_dump(mode="json"))
    while not (rules(s).phase == "reveal" and rules(s).active == player):
        for side in [None, *rules(s).seating]:
            state = rules(s) if side is None else RULESET.with_bot_secret(rules(s), f"own {side}")
            menu = [o.model_dump(mode="json") for o in _menu(state, side)]
            assert shown not in orjson.dumps(menu)
        envelope = bot_order(s.state)
        assert envelope is not None and envelope.side != player
        s.submit(envelope)


def test_a_side_seals_its_fleet_with_its_own_secret_and_only_it_opens_it() -> None:
    """ST-1.3, ST-1.9: a fleet placed from a side's menu is sealed with the salt the bot would
    derive from the side's own secret; the record holds its digest alone; the side's menu at
    the reveal (the same secret) turns exactly that fleet face up; a menu with another secret,
    or with the game's own seed, cannot open it, and no other menu shows it before."""
    s = session("multi3", seed=4)
    s.submit_bot()  # the setup
    player = rules(s).order[1]
    _to_formation(s, player)
    fleet = _seal_as_a_side(s, player, "table-secret-of-this-side")
    issued = [f for f in s.facts if f.topic == CommandIssued.TOPIC][-1].payload
    assert issued["command"].get("fleet") is None and issued["command"].get("salt") is None
    _to_reveal(s, player, fleet)
    for secret in ("another-secret", None):
        state = rules(s) if secret is None else RULESET.with_bot_secret(rules(s), secret)
        assert _menu(state, player) == []
    mine = RULESET.with_bot_secret(rules(s), "table-secret-of-this-side")
    (reveal,) = _menu(mine, player)
    assert reveal.type == "reveal_fleet" and reveal.label == "Turn your fleet face up"
    command = build_command(reveal, {})
    assert command["fleet"] == fleet.model_dump(mode="json")
    facts = s.submit(CommandEnvelope(side=player, command=command))
    revealed = [f.payload for f in facts if f.topic == FleetRevealed.TOPIC]
    assert revealed and revealed[0]["fleet"] == command["fleet"]


def test_a_fleet_the_rules_forbid_is_refused_when_sealed() -> None:
    """Refused when sealed, naming the rule: no vanguard ship (ST-1.8), two ship cards in one
    box (ST-1.8), an aircraft aboard a ship left in hand or beyond a ship's capacity (ST-1.5);
    a place the menu does not offer; another player's formation step (ST-1.3)."""
    s = session("multi3", seed=4)
    s.submit_bot()
    state = rules(s)
    player = state.active
    assert player is not None
    hand = ("musai", "dolos", "zaku", "zaku", "char", "mega_particle")
    state = changed(
        state, players={**state.players, player: changed(state.players[player], hand=hand)}
    )
    order = _fleet_order(_menu(state, player))
    assert [f.name for f in order.fields] == ["hand0", "hand1", "hand2", "hand3", "hand4"]
    refused = {
        "ST-1.8": [{"hand0": "rearguard"}, {"hand0": "vanguard", "hand1": "vanguard"}],
        "ST-1.5": [
            {"hand0": "vanguard", "hand2": "ship1"},
            {"hand0": "vanguard", "hand2": "ship0", "hand3": "ship0"},
        ],
    }
    for rule, cases in refused.items():
        for values in cases:
            with pytest.raises(IllegalCommand) as error:
                RULESET.seal_order(state, player, order, values)
            assert error.value.rule == rule, values
    sealed = RULESET.seal_order(state, player, order, {"hand1": "vanguard", "hand2": "ship1"})
    assert sealed.digest and sealed.fleet is None
    with pytest.raises(InvalidCommand, match="not one of the choices"):
        RULESET.seal_order(state, player, order, {"hand0": "on the moon"})
    other = next(p for p in state.seating if p != player)
    with pytest.raises(NotYourTurn):
        RULESET.seal_order(state, other, order, {"hand0": "vanguard"})


# --------------------------------------------------------------------------- words and hands

_IDS = re.compile(r"[a-z0-9]_[a-z0-9]|\bNone\b|[\[\]{}]|[0-9a-f]{64}|\bP\d+-b\d+")


def _texts(order: MenuOrder) -> Iterator[str]:
    yield order.label
    yield order.help
    for field in order.fields:
        yield field.label
        yield field.help
        for choice in field.choices:
            yield choice.label
            yield choice.detail


def test_labels_are_in_players_words() -> None:
    """No ids (underscores, unit ids), no ``None``, no brackets, no digests in any label,
    detail or help; ships named with their seat and box."""
    for state, side in _sample(every=5):
        for order in _menu(state, side):
            for text in _texts(order):
                assert not _IDS.search(text), text
            for field in order.fields:
                if field.name == "target":
                    assert all(
                        re.search(r"\(.+, (vanguard|rearguard)", c.label) for c in field.choices
                    )


def test_a_side_menu_shows_only_its_own_hand() -> None:
    """Hands are hidden: every card a side's menu offers (to fire, to defend with, to hack with,
    a line weapon, a card of its fleet) is one of its own hand."""
    cards = {
        c.id for c in RULESET.initial_state(read_record_file(GAMES[0]).header).data.cards.cards
    }
    for state, side in _sample(every=3):
        if side is None:
            continue
        hand = set(state.players[side].hand)
        for order in _menu(state, side):
            offered = {c.value for f in order.fields for c in f.choices if isinstance(c.value, str)}
            offered |= {v for v in order.fixed.values() if isinstance(v, str)}
            assert (offered & cards) <= hand, order.label
            if order.sealed:
                assert all(
                    int(f.name.removeprefix("hand")) < len(state.players[side].hand)
                    for f in order.fields
                )


# --------------------------------------------------------------------------- other orders


def test_an_order_type_the_menu_does_not_know_comes_from_the_legal_orders(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An order type added to the rules since (say a re-seal after an illegal reveal) is in
    the menu, built from the legal orders, so nothing is ever missing."""

    class Reseal(BaseModel):
        model_config = ConfigDict(frozen=True)
        type: str = "reseal_fleet"
        player: str

    legal = bot.legal_commands
    monkeypatch.setattr(
        bot, "legal_commands", lambda state, side: [*legal(state, side), Reseal(player=str(side))]
    )
    s = session("multi3", seed=4)
    s.submit_bot()
    player = rules(s).active
    menu = ships_menu.order_menu(rules(s), player)
    assert [o.type for o in menu] == ["form_fleet", "reseal_fleet"]
    assert build_command(menu[1], {}) == {"type": "reseal_fleet", "player": player}


def test_an_air_strike_in_groups_is_a_list_of_groups() -> None:
    """ST-3.3.5: the groups of an air strike are the items of the command's list: a field
    named ``groups[1].target`` fills the second group (issue 20's menus build it; a dotted
    name still fills a dict)."""
    choice = MenuChoice
    order = MenuOrder(
        key="a",
        type="air_strike",
        label="Air strike in 2 groups",
        side="P1",
        fields=[
            MenuField(name="groups[0].target", label="t", choices=[choice(value="s1", label="S")]),
            MenuField(
                name="groups[0].aircraft",
                label="a",
                kind="many",
                choices=[choice(value="a1", label="A"), choice(value="a2", label="B")],
            ),
            MenuField(name="groups[1].target", label="t", choices=[choice(value="s2", label="T")]),
            MenuField(
                name="groups[1].aircraft",
                label="a",
                kind="many",
                choices=[choice(value="a1", label="A"), choice(value="a2", label="B")],
            ),
            MenuField(name="pilots.c1", label="p", choices=[choice(value="a2", label="B")]),
        ],
    )
    values = {
        "groups[0].target": "s1",
        "groups[0].aircraft": ["a1"],
        "groups[1].target": "s2",
        "groups[1].aircraft": ["a2"],
        "pilots.c1": "a2",
    }
    command = build_command(order, values)
    assert command == {
        "type": "air_strike",
        "groups": [{"target": "s1", "aircraft": ["a1"]}, {"target": "s2", "aircraft": ["a2"]}],
        "pilots": {"c1": "a2"},
    }
    assert match_command(order, command) == values
    assert match_command(order, {**command, "groups": command["groups"][:1]}) is None


def test_a_game_at_a_table_places_every_fleet_from_the_sides_own_menus(tmp_path: Path) -> None:
    """Issue 20 at a table: each side places fleets of its own choosing (random legal places)
    from its menu, sealed with its own secret (``table.sealed_command``, the digest alone) and
    turned face up from its menu at the reveal (ST-1.3, ST-1.9); every other order is one the
    menu offers (the bots choose); the game goes to its end."""
    store = GameStore(str(tmp_path / "store.sqlite3"))
    header = header_for(
        "ships",
        {**scenario("multi3"), "battles": 2},
        game_id="00000000-0000-4000-8000-00000000c001",
        seed=7,
    )
    gid = store.create_game(header)
    rng = random.Random(1)
    sealed = revealed = 0
    while (state := store.state(gid)).result is None:
        envelope = bot_order(state)
        assert envelope is not None
        side, wanted = envelope.side, envelope.command
        menu = T.menu(store, state, side)
        if wanted["type"] == "form_fleet":
            (order,) = [o for o in menu if o.sealed]
            places, _ = rng.choice(list(placements(T.rules_for(store, state, side), str(side))))
            values = {f"hand{i}": p for i, p in places.items() if p != "hand"}
            command = T.sealed_command(store, state, side, order, values)
            assert command["fleet"] is None and command["salt"] is None
            sealed += 1
        elif wanted["type"] == "reveal_fleet":
            (order,) = menu
            command = build_command(order, {})
            revealed += 1
        else:
            order, values = next(
                (o, v) for o in menu if (v := match_command(o, wanted, _normal)) is not None
            )
            command = build_command(order, values)
        T.submit(store, gid, side, command, state.seq)
    assert sealed == revealed >= 5
