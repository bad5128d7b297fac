"""Star Wars: Armada's scribe menu (issue 20): every order of the bundled games is one the menu
offers, every choice it offers is one ``decide`` accepts in some completion, sealed dials are
sealed as the bot seals its own and opened only with the side's own secret, labels are in
players' words, and order types the menu does not know come from the legal orders."""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from domain.dice import SeededDice
from domain.engine import GameState, apply_fact, bot_order, decode, header_for, new_game
from domain.errors import InvalidCommand, WakeError
from domain.frozen import changed
from domain.record.model import RecordedCommand
from domain.record.reader import read_record_file
from domain.reveals import SealedReveal
from domain.rulesets.armada import menu as armada_menu
from domain.rulesets.armada.damage import Dealing, HeldCard
from domain.rulesets.armada.state import ArmadaState, with_ship
from domain.scribe import table as T
from domain.scribe.menu import (
    MenuChoice,
    MenuField,
    MenuOrder,
    build_command,
    match_command,
    missing,
    open_choices,
)
from domain.store import GameStore
from tests.armada_helpers import bundled
from tests.helpers import FIXTURES

GAMES = sorted((FIXTURES / "games" / "armada").glob("*.wake.json"))
Json = Any


def _normal(ruleset: Any) -> Any:
    return lambda command: ruleset.parse_command(dict(command)).model_dump(mode="json")


def _menu(state: GameState, side: str | None) -> list[MenuOrder]:
    menu = state.ruleset.order_menu(state.rules, side)
    assert menu is not None
    return menu


def _positions(path: Path) -> Iterator[tuple[GameState, RecordedCommand]]:
    """Each order of a recorded game with the state just before it."""
    record = read_record_file(path)
    state = new_game(record.header)
    commands = {c.index: c for c in record.commands}
    seen: set[int] = set()
    for fact in record.events:
        if fact.command is not None and fact.command not in seen:
            seen.add(fact.command)
            yield state, commands[fact.command]
        state = apply_fact(state, fact, check=False)


def _opened(path: Path) -> dict[str, str]:
    """Digest -> command of every dial the game reveals (Ruleset.sealed_items, SWA-2.1)."""
    record = read_record_file(path)
    state = new_game(record.header)
    opened: dict[str, str] = {}
    for fact in record.events:
        if fact.command is None or fact.topic != "wake.CommandIssued/1":
            event = decode(state, fact)
            for item in state.ruleset.sealed_items(state.rules, event):
                if isinstance(item, SealedReveal):
                    opened[item.digest()] = item.content["command"]
        state = apply_fact(state, fact, check=False)
    return opened


# --------------------------------------------------------------------------- the games' orders


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name.split(".")[0])
def test_the_menu_offers_every_order_of_a_bundled_game(path: Path) -> None:
    """At every order of a bundled game (SWA-SETUP, SWA-R2, SWA-2 to SWA-3, SWA-ATK 1–6,
    SWA-DEF, SWA-OVL) the side's menu holds an order that gives exactly the recorded command;
    each set of dials whose every dial is later revealed is sealed by ``seal_order`` from its
    plain commands to exactly the recorded digests (SWA-R2)."""
    opened = _opened(path)
    matched = sealed = 0
    for state, recorded in _positions(path):
        ruleset = state.ruleset
        menu = _menu(state, recorded.side)
        command = recorded.command
        if command["type"] == "set_dials":
            (order,) = [o for o in menu if o.sealed]
            if all(d in opened for ds in command["dials"].values() for d in ds):
                values = {
                    f"dials.{s}": [opened[d] for d in ds] for s, ds in command["dials"].items()
                }
                made = ruleset.seal_order(state.rules, recorded.side, order, values)
                assert made.model_dump(mode="json") == command, recorded.index
                sealed += 1
            continue
        found = [o for o in menu if match_command(o, command, _normal(ruleset)) is not None]
        assert found, (recorded.index, command, [o.key for o in menu])
        matched += 1
    assert matched > 80 and sealed >= 5


# --------------------------------------------------------------------------- choices accepted


def _accepted(
    state: GameState, side: str | None, order: MenuOrder, values: Mapping[str, Json]
) -> bool:
    ruleset = state.ruleset
    try:
        if order.sealed:
            command: Any = ruleset.seal_order(state.rules, side, order, values)
        else:
            command = ruleset.parse_command(build_command(order, values))
        ruleset.decide(state.rules, side, command, SeededDice(0))
    except (WakeError, ValueError):
        return False
    return True


def _candidates(
    field: MenuField, values: Mapping[str, Json], target: Json, points: list[Json]
) -> list[Json]:
    """Values to try for ``field`` (``target``: the value it must hold, or the value a
    ``many`` field must include); ``_UNSET`` leaves it out."""
    open_values = [c.value for c in open_choices(field, values)]
    if field.kind == "one":
        if target is not _UNSET:
            return [target] if target in open_values else []
        found = sorted(open_values, key=lambda v: v != field.default)
        unset = field.optional and (field.default is None or not found)
        return [_UNSET, *found] if unset else found
    if field.kind == "many":
        top = field.max_count if field.max_count is not None else len(open_values)
        lists: list[list[Json]] = []
        if target is not _UNSET:
            others = [v for v in open_values if v != target or not field.distinct]
            lists.append([target])
            lists += [[o, target] for o in others] + [[target, o] for o in others]
            lists += [[a, b, target] for a, b in itertools.product(others[:6], repeat=2)]
        else:
            lists += [[]] + [[v] for v in open_values]
            lists += [list(p) for p in itertools.combinations(open_values, min(2, top))]
            lists.append([open_values[0]] * field.min_count if open_values else [])
        return [v for v in lists if field.min_count <= len(v) <= top]
    if field.kind == "point":
        return [*points, *([_UNSET] if field.optional else [])]
    if field.kind == "flag":
        return [False, True]
    return [field.default if field.default is not None else field.low or 0]


_UNSET = object()
MAX_TRIES = 80


def _witness(
    state: GameState,
    side: str | None,
    order: MenuOrder,
    target_field: str,
    target: Json,
    points: Mapping[str, list[Json]],
) -> bool:
    """Whether some completion of ``order`` whose ``target_field`` holds (or includes)
    ``target`` is accepted by ``decide``."""
    tries = 0

    def walk(index: int, values: dict[str, Json]) -> bool:
        nonlocal tries
        if index == len(order.fields):
            tries += 1
            return tries <= MAX_TRIES and _accepted(state, side, order, values)
        field = order.fields[index]
        want = target if field.name == target_field else _UNSET
        for value in _candidates(field, values, want, points.get(field.name, [])):
            if tries > MAX_TRIES:
                return False
            more = dict(values)
            if value is not _UNSET:
                more[field.name] = value
            if walk(index + 1, more):
                return True
        return False

    return walk(0, {})


def _reference_points(
    state: GameState, side: str | None, order: MenuOrder, recorded: Json
) -> dict[str, list[Json]]:
    """Positions for an order's point fields: the recorded order's and the legal sample's."""
    commands = [
        recorded,
        *(c.model_dump(mode="json") for c in state.ruleset.legal_commands(state.rules, side)),
    ]
    points: dict[str, list[Json]] = {}
    for command in commands:
        values = match_command(order, command, _normal(state.ruleset))
        for field in order.fields:
            if values is not None and field.kind == "point" and field.name in values:
                points.setdefault(field.name, []).append(values[field.name])
    return points


def check_choices(state: GameState, side: str | None, recorded: Json = None) -> int:
    """Every open-able choice of every order in the menu has an accepted completion; returns
    the number of choices checked (orders needing a position with none to borrow are skipped:
    positions are judged by ``decide``)."""
    checked = 0
    menu = _menu(state, side)
    for order in menu:
        points = _reference_points(state, side, order, recorded or {"type": ""})
        if any(f.kind == "point" and not f.optional and f.name not in points for f in order.fields):
            continue
        if not order.fields:
            assert _witness(state, side, order, "", _UNSET, points), order.key
            checked += 1
        for field in order.fields:
            for choice in field.choices:
                assert _witness(state, side, order, field.name, choice.value, points), (
                    order.key,
                    field.name,
                    choice.value,
                )
                checked += 1
            if field.kind == "point" and field.name in points:
                assert _witness(state, side, order, field.name, _UNSET, points), order.key
    return checked


def _sample(path: Path, every: int) -> Iterator[tuple[GameState, RecordedCommand]]:
    """Every ``every``-th position, and the first position of each order type."""
    seen: set[str] = set()
    for n, (state, recorded) in enumerate(_positions(path)):
        kind = recorded.command["type"]
        if n % every == 0 or kind not in seen:
            seen.add(kind)
            yield state, recorded


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name.split(".")[0])
def test_every_choice_offered_is_accepted_in_some_completion(path: Path) -> None:
    """At sampled positions of each bundled game every choice of every order in the side's menu
    is accepted by ``decide`` in some completion (maneuver clicks per joint within the speed
    chart SWA-2.3a and Navigate SWA-R3, attack zones and targets SWA-ATK 1, defence tokens
    SWA-DEF, repair effects SWA-R3, reveals SWA-2.1)."""
    checked = 0
    for state, recorded in _sample(path, 15):
        if recorded.command["type"] == "set_dials":
            continue  # sealed: see the seal tests
        checked += check_choices(state, recorded.side, recorded.command)
    assert checked > 40


# --------------------------------------------------------------------------- sealed dials


def _physical(store: GameStore, seed: int | None = 4) -> str:
    header = header_for(
        "armada",
        bundled("core_learning"),
        game_id="00000000-0000-4000-8000-0000000a5c01",
        seed=seed,
    )
    return store.create_game(header)


def _submit(store: GameStore, gid: str, side: str | None, command: Mapping[str, Json]) -> None:
    T.submit(store, gid, side, dict(command), store.state(gid).seq)


def test_a_sides_dials_sealed_with_its_own_secret_open_only_with_it(tmp_path: Path) -> None:
    """SWA-R2 / SWA-2.1 at a table: the Rebels choose their dials on their own page; the
    scribe seals them with the salts the bot would derive from the Rebels' own secret
    (``seal_order``); at the activation the Rebels' menu reveals the top dial with the command
    chosen, while the same menu on a state with any other secret (or none) offers no reveal of
    it, and the Empire's menu is empty (not its turn)."""
    store = GameStore(str(tmp_path / "store.sqlite3"))
    gid = _physical(store)
    state = store.state(gid)
    menu = T.menu(store, state, "rebels")
    (order,) = menu
    assert order.sealed and all(f.secret for f in order.fields)
    chosen = {"dials.cr90": ["repair"], "dials.nebulon": ["squadron", "navigate"]}
    command = T.sealed_command(store, state, "rebels", order, chosen)
    digests = [d for ds in command["dials"].values() for d in ds]
    _submit(store, gid, "rebels", command)
    empire = bot_order(store.state(gid))
    assert empire is not None and empire.side == "empire"
    _submit(store, gid, "empire", empire.command)
    state = store.state(gid)
    assert state.rules.phase == "ship" and state.ruleset.to_act(state.rules) == ["rebels"]
    assert [d.digest for d in state.rules.ships["cr90"].dials] == digests[:1]
    reveals = [o for o in T.menu(store, state, "rebels") if o.type == "reveal_dial"]
    assert {o.fixed["ship"]: o.fixed["command"] for o in reveals} == {
        "cr90": "repair",
        "nebulon": "squadron",
    }
    ruleset = state.ruleset
    for rules in (state.rules, ruleset.with_bot_secret(state.rules, "another table's secret")):
        others = _menu(dataclasses.replace(state, rules=rules), "rebels")
        assert not [o for o in others if o.type == "reveal_dial"]
    assert T.menu(store, state, "empire") == []
    reveal = next(o for o in reveals if o.fixed["ship"] == "nebulon")
    assert "squadron" not in " ".join(
        [reveal.label, reveal.help, *(f.label for f in reveal.fields)]
    )
    _submit(store, gid, "rebels", build_command(reveal, {}))
    assert store.state(gid).rules.activation.dial == "squadron"


def test_seal_order_refuses_a_stale_order_and_incomplete_dials() -> None:
    """SWA-R2: dials are sealed only for the side to set them now, each ship given exactly as
    many as it lacks."""
    state = new_game(
        header_for(
            "armada",
            bundled("core_learning"),
            game_id="00000000-0000-4000-8000-0000000a5c02",
            seed=1,
        )
    )
    ruleset = state.ruleset
    (order,) = _menu(state, "empire")
    with pytest.raises(InvalidCommand, match="still to choose"):
        ruleset.seal_order(state.rules, "empire", order, {})
    with pytest.raises(InvalidCommand, match="at least 3"):
        ruleset.seal_order(state.rules, "empire", order, {"dials.victory": ["repair"]})
    with pytest.raises(InvalidCommand, match="not open now"):
        ruleset.seal_order(state.rules, None, order, {"dials.victory": ["repair"] * 3})
    made = ruleset.seal_order(state.rules, "empire", order, {"dials.victory": ["repair"] * 3})
    assert len(made.dials["victory"]) == 3 and len(set(made.dials["victory"])) == 3


# --------------------------------------------------------------------------- rarer orders


SCORE = FIXTURES / "games" / "armada" / "core_learning-score.wake.json"


def _before(kind: str, path: Path = SCORE, nth: int = 0) -> tuple[GameState, RecordedCommand]:
    found = (p for p in _positions(path) if p[1].command["type"] == kind)
    return next(itertools.islice(found, nth, None))


def _with(state: GameState, rules: ArmadaState) -> GameState:
    return dataclasses.replace(state, rules=rules)


def _after(state: GameState, side: str | None, command: Mapping[str, Json]) -> GameState:
    ruleset = state.ruleset
    rules = state.rules
    for event in ruleset.decide(rules, side, ruleset.parse_command(dict(command)), SeededDice(0)):
        rules = ruleset.evolve(rules, event)
    return _with(state, rules)


def _keys(state: GameState, side: str | None) -> list[str]:
    return [o.key for o in _menu(state, side)]


def test_crew_panic_offers_the_discard_and_the_damage_before_the_reveal() -> None:
    """SWA-DMG Crew Panic: the activation begins by discarding the dial unrevealed or suffering
    one damage (on a zone the owner may pick) and revealing; no plain reveal."""
    state, recorded = _before("reveal_dial", nth=2)
    side, ship = recorded.side, recorded.command["ship"]
    panicking = with_ship(state.rules, ship, damage=(HeldCard(card="crew_panic", face_up=True),))
    state = _with(state, panicking)
    keys = _keys(state, side)
    assert f"reveal:{ship}:discard" in keys and f"reveal:{ship}:damage" in keys
    assert f"reveal:{ship}" not in keys
    assert check_choices(state, side) >= 6


def test_a_dial_set_openly_and_a_token_beyond_the_command_value() -> None:
    """SWA-DMG Comm Noise: a dial an opponent set openly is revealed without a salt. SWA-R3: a
    ship holding its command value of tokens names the token it gives up (any held kind, or
    the new one)."""
    state, recorded = _before("reveal_dial", nth=2)
    side, ship_id = recorded.side, recorded.command["ship"]
    ship = state.rules.ships[ship_id]
    top = ship.dials[0].model_copy(update={"command": "repair"})
    value = state.rules.card(ship_id).command
    held = ("navigate", "squadron", "concentrate_fire")[:value]
    rules = with_ship(state.rules, ship_id, dials=(top, *ship.dials[1:]), tokens=held)
    state = _with(state, rules)
    reveal = next(o for o in _menu(state, side) if o.key == f"reveal:{ship_id}")
    assert reveal.fixed["command"] == "repair" and reveal.fixed["salt"] == ""
    discard = reveal.field("discard_token")
    assert {c.value for c in discard.choices} == {"repair", *held}
    assert all(c.when == {"to_token": True} for c in discard.choices)
    assert check_choices(state, side) >= 4


def test_a_face_up_cards_choice_outside_an_attack() -> None:
    """SWA-DMG: Comm Noise waits for the opponent (lower the speed, set the top dial, or
    neither); Shield Failure for the opponent (up to two zones); Injured Crew and Projector
    Misaligned for the owner."""
    state, recorded = _before("maneuver", nth=3)
    victim = recorded.command["ship"]
    owner = state.rules.ships[victim].side
    other = state.rules.other(owner)
    for card, effect, chooser, kinds in (
        ("comm_noise", "opponent_speed_or_dial", other, {"speed_or_dial"}),
        ("shield_failure", "opponent_strips_shields", other, {"strip_shields"}),
        ("injured_crew", "discard_defense_token", owner, {"discard_defence_token"}),
    ):
        dealing = Dealing(ship=victim, opponent=other, pending=card, pending_effect=effect)
        held = (*state.rules.ships[victim].damage, HeldCard(card=card, face_up=True))
        rules = with_ship(state.rules, victim, damage=held)
        waiting = _with(state, changed(rules, dealings=(dealing,)))
        assert waiting.ruleset.to_act(waiting.rules) == [chooser]
        menu = _menu(waiting, chooser)
        assert {o.type for o in menu} == kinds, card
        assert check_choices(waiting, chooser) >= 2


def test_pass_tokens_and_squadrons_a_command_activates() -> None:
    """SWA-PASS (option): a side that may pass sees the pass. SWA-R3: a squadron the Squadron
    command activated without moving may move (a click) or end its activation, and attack."""
    state, recorded = _before("reveal_dial", nth=1)
    side = recorded.side
    rules = state.rules.model_copy(
        update={
            "options": state.rules.options.model_copy(update={"pass_tokens": "rrg_1_6"}),
            "pass_tokens": {side: 1},
        }
    )
    passing = _with(state, rules)
    assert "pass_turn" in _keys(passing, side)
    assert check_choices(passing, side) >= 2
    state, recorded = _before("activate_squadron")
    assert state.rules.phase == "ship"
    side = recorded.side
    still = _after(
        state, side, {"type": "activate_squadron", "squadron": recorded.command["squadron"]}
    )
    keys = _keys(still, side)
    assert f"move_squadron:{recorded.command['squadron']}" in keys
    assert f"end_squadron_activation:{recorded.command['squadron']}" in keys
    assert check_choices(still, side) >= 1


def test_concentrate_fire_with_dial_token_or_both_and_the_later_reroll() -> None:
    """SWA-R3 Concentrate Fire in an attack: the dial adds a die of a colour in the pool, the
    token rerolls one (now or later in the step), both add and then reroll."""
    state, recorded = _before("concentrate_fire")
    side = recorded.side
    attack = state.rules.attack
    assert attack is not None
    both = attack.model_copy(
        update={
            "attacker": attack.attacker.model_copy(
                update={"concentrate_fire_dial": True, "concentrate_fire_token": True}
            )
        }
    )
    state = _with(state, changed(state.rules, attack=both))
    keys = _keys(state, side)
    assert {"concentrate_fire:dial", "concentrate_fire:token", "concentrate_fire:both"} <= set(keys)
    assert check_choices(state, side) >= 3
    later = _after(state, side, {"type": "concentrate_fire", "spend": "token"})
    assert "concentrate_fire_reroll" in _keys(later, side)
    assert check_choices(later, side) >= 2


# --------------------------------------------------------------------------- words


_NOT_WORDS = (
    re.compile(r"[a-z0-9]_[a-z0-9]"),  # an id or a key
    re.compile(r"\bNone\b"),
    re.compile(r"[\[\]{}]"),
    re.compile(r"[0-9a-f]{64}"),  # a digest or a salt
)


def _texts(order: MenuOrder) -> Iterator[str]:
    yield from (order.label, order.help)
    for field in order.fields:
        yield from (field.label, field.help)
        for choice in field.choices:
            yield from (choice.label, choice.detail)


def test_labels_are_in_players_words() -> None:
    """Every label, detail and help of the menus over a whole bundled game names units by
    display name (numbered when several share a name): no ids, no None, no brackets, no
    digests or salts."""
    texts: list[str] = []
    for state, recorded in _positions(SCORE):
        for order in _menu(state, recorded.side):
            for text in _texts(order):
                for pattern in _NOT_WORDS:
                    assert not pattern.search(text), (order.key, text)
                texts.append(text)
    assert len(texts) > 1000
    assert any(re.search(r"TIE Fighter Squadron [1-6]\b", text) for text in texts)
    assert any("Victory II-class Star Destroyer" in text for text in texts)


# --------------------------------------------------------------------------- unknown orders


class _DebrisZone(BaseModel):
    """An order type added to the ruleset after this menu (the owner's pick of a zone)."""

    model_config = ConfigDict(frozen=True)
    type: str = "choose_debris_zone"
    ship: str
    zone: str


def test_an_order_type_the_menu_does_not_know_comes_from_the_legal_orders() -> None:
    """Nothing legal is missing: legal orders of a type this menu does not build are offered
    through the generic menu (their values as listed, units by display name); when every legal
    order is of such a type, only they are offered."""
    state, recorded = _before("maneuver")
    side, ship = recorded.side, recorded.command["ship"]
    legal = state.ruleset.legal_commands(state.rules, side)
    new = [_DebrisZone(ship=ship, zone="front"), _DebrisZone(ship=ship, zone="left")]
    menu = armada_menu.order_menu(state.rules, side, [*legal, *new])
    (generic,) = [o for o in menu if o.type == "choose_debris_zone"]
    assert generic.fixed == {"ship": ship}
    assert [c.value for c in generic.field("zone").choices] == ["front", "left"]
    assert any(o.type == "maneuver" for o in menu)
    assert [o.type for o in armada_menu.order_menu(state.rules, side, new)] == [
        "choose_debris_zone"
    ]
    assert armada_menu.order_menu(state.rules, None, legal) == []


# --------------------------------------------------------------------------- the core's paths


def _course() -> MenuOrder:
    """A maneuver-like order: a speed, one optional joint field per speed with its clicks open
    at that speed (default straight), an optional move given as ``[x, y]``."""
    joints = [
        MenuField(
            name=f"clicks.{j}",
            label=f"Joint {j + 1}",
            optional=True,
            default=0,
            choices=[
                MenuChoice(value=c, label=str(c), when={"speed": s})
                for s in (1, 2)
                if s > j
                for c in (-1, 0, 1)
            ],
        )
        for j in range(2)
    ]
    return MenuOrder(
        key="m",
        type="maneuver",
        label="Maneuver",
        side="a",
        fixed={"ship": "s"},
        fields=[
            MenuField(
                name="speed",
                label="Speed",
                choices=[MenuChoice(value=1, label="1"), MenuChoice(value=2, label="2")],
            ),
            *joints,
            MenuField(
                name="move_to",
                label="Where",
                kind="point",
                optional=True,
                x_name="move_to.0",
                y_name="move_to.1",
            ),
        ],
    )


def test_a_field_path_may_index_a_list_and_a_joint_beyond_the_speed_is_left_out() -> None:
    """The generic core (issue 20) as Armada's maneuver and squadron moves need it: a number in
    a field's path indexes a list (one field per joint, a point as ``[x, y]``), an optional
    choice with nothing open is left out (its default too), an optional point may be left
    unset, and ``match_command`` inverts all three."""
    order = _course()
    assert missing(order, {"speed": 2}) == []
    assert build_command(order, {"speed": 1}) == {
        "type": "maneuver",
        "ship": "s",
        "speed": 1,
        "clicks": [0],
    }
    two = build_command(order, {"speed": 2, "clicks.1": -1, "move_to": [3, 4]})
    assert two["clicks"] == [0, -1] and two["move_to"] == [3.0, 4.0]
    with pytest.raises(InvalidCommand, match="not one of the choices"):
        build_command(order, {"speed": 1, "clicks.1": 1})
    plain = {"type": "maneuver", "ship": "s", "speed": 2, "clicks": [1, 0], "move_to": None}

    def dropped(command: Mapping[str, Json]) -> dict[str, Json]:
        return {k: v for k, v in command.items() if v is not None}

    assert match_command(order, plain, dropped) == {"speed": 2, "clicks.0": 1, "clicks.1": 0}
    assert match_command(order, {**plain, "move_to": [5.0, 6.0]}, dropped) == {
        "speed": 2,
        "clicks.0": 1,
        "clicks.1": 0,
        "move_to": [5.0, 6.0],
    }


def test_the_keyboard_leaves_out_a_joint_beyond_the_speed_and_an_unset_move() -> None:
    """``wake play --interactive`` (issue 20 item 6) on such an order: a field none of whose
    choices is open is not asked for, an optional position may be left empty, and an empty
    answer keeps a field's default."""
    from domain.cli import interactive

    answers = iter(["1", "3", ""])  # speed 1, joint 1 one click to starboard, no move
    said: list[str] = []
    command = interactive._fill(
        None,  # type: ignore[arg-type]  # only a sealed order needs the store and the state
        None,  # type: ignore[arg-type]
        "a",
        _course(),
        lambda _: next(answers),
        said.append,
    )
    assert command == {"type": "maneuver", "ship": "s", "speed": 1, "clicks": [1]}
    side = MenuField(
        name="side",
        label="Side",
        choices=[MenuChoice(value="right", label="right"), MenuChoice(value="left", label="left")],
        default="right",
    )
    order = _course().model_copy(update={"fields": [*_course().fields, side]})
    answers = iter(["2", "", "", "", ""])  # speed 2, both joints and the side as they default
    command = interactive._fill(
        None,  # type: ignore[arg-type]
        None,  # type: ignore[arg-type]
        "a",
        order,
        lambda _: next(answers),
        said.append,
    )
    assert command is not None and command["clicks"] == [0, 0] and command["side"] == "right"
