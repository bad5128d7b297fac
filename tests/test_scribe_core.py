"""The scribe's core (issue 20): menus, the dice an order needs, orders given on the position a
device showed, take-backs into a variation, per-side secrets and capability links."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain import ruleset as registry
from domain.engine import Session, bot_order, header_for
from domain.errors import IllegalCommand, InvalidCommand, NoSuchEvent, OrderConflict
from domain.scribe import table as T
from domain.scribe.menu import (
    MenuField,
    MenuOrder,
    build_command,
    match_command,
    menu_from_legal,
    missing,
    open_choices,
)
from domain.scribe.probe import probe
from domain.store import GameStore
from tests.helpers import FIXTURES, small_scenario

RIVER_PLATE = FIXTURES / "scenarios" / "morze" / "river_plate.json"


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    return GameStore(str(tmp_path / "store.sqlite3"))


@pytest.fixture
def duel() -> Iterator[None]:
    from tests.plugin_toy.duel import DuelRuleset

    registry.register("duel", DuelRuleset)
    yield
    registry.unregister("duel")


def _physical_morze(store: GameStore, scenario: dict[str, Any] | None = None) -> str:
    data = scenario or json.loads(RIVER_PLATE.read_text())
    header = header_for("morze", data, game_id="00000000-0000-4000-8000-00000000f001", seed=None)
    return store.create_game(header)


# --------------------------------------------------------------------------- menus


def test_a_ruleset_without_a_menu_gets_one_from_its_legal_orders(duel: None) -> None:
    """A third party's ruleset (the toy duel) is recordable with no code of its own: its legal
    orders become a menu whose fields offer exactly the values listed (DUEL-1)."""
    session = Session(header_for("duel", {"id": "harbour"}, game_id="d-1", seed=3))
    menu = T.menu(None, session.state, "red")
    assert [(o.type, [f.name for f in o.fields]) for o in menu] == [("fire", ["aim"])]
    aim = menu[0].field("aim")
    assert [c.value for c in aim.choices] == ["hull", "bridge"]
    assert build_command(menu[0], {"aim": "bridge"}) == {"type": "fire", "aim": "bridge"}
    with pytest.raises(InvalidCommand, match="not one of the choices"):
        build_command(menu[0], {"aim": "funnel"})
    assert T.menu(None, session.state, "blue") == []  # not blue's turn


def test_a_generic_menu_offers_only_combinations_the_ruleset_listed() -> None:
    """Each choice is open only with the earlier choices it was listed with (``when``)."""
    from pydantic import BaseModel, ConfigDict

    class Declare(BaseModel):
        model_config = ConfigDict(frozen=True)
        type: str = "declare"
        attacker: str
        target: str

    legal = [Declare(attacker="a1", target="b1"), Declare(attacker="a2", target="b2")]
    (order,) = menu_from_legal(legal, "a", names={"a1": "Ajax", "b2": "Bismarck"})
    target = order.field("target")
    assert [c.label for c in order.field("attacker").choices] == ["Ajax", "a2"]
    assert [c.value for c in open_choices(target, {"attacker": "a2"})] == ["b2"]
    with pytest.raises(InvalidCommand):
        build_command(order, {"attacker": "a1", "target": "b2"})
    assert build_command(order, {"attacker": "a1", "target": "b1"})["target"] == "b1"


def test_a_point_field_takes_a_click_and_its_bounds() -> None:
    order = MenuOrder(
        key="m",
        type="move",
        label="Move",
        side="a",
        fixed={"unit": "a1"},
        fields=[MenuField(name="to", label="Where", kind="point", low=0, high=100)],
    )
    assert missing(order, {}) == order.fields
    assert build_command(order, {"to": [10, 20.5]}) == {
        "type": "move",
        "unit": "a1",
        "x": 10.0,
        "y": 20.5,
    }
    with pytest.raises(InvalidCommand, match="at most 100"):
        build_command(order, {"to": [10, 200]})
    assert match_command(order, {"type": "move", "unit": "a1", "x": 1.0, "y": 2.0}) == {
        "to": [1.0, 2.0]
    }
    assert match_command(order, {"type": "move", "unit": "a2", "x": 1.0, "y": 2.0}) is None


def test_morze_menu_offers_every_order_a_bot_game_took() -> None:
    """Every order of a whole Morze game (PL-1 to PL-4) is one the menu offers, with the
    values that give exactly it; a move is a point, an attack a target among those in range."""
    session = Session(header_for("morze", small_scenario(), game_id="m-1", seed=5))
    ruleset = session.state.ruleset
    taken = 0
    while True:
        envelope = bot_order(session.state)
        if envelope is None:
            break
        menu = T.menu(None, session.state, envelope.side)
        assert any(
            match_command(o, envelope.command, _normal(ruleset)) is not None for o in menu
        ), envelope.command
        session.submit(envelope)
        taken += 1
    assert taken > 20


def _normal(ruleset: Any) -> Any:
    return lambda command: ruleset.parse_command(dict(command)).model_dump(mode="json")


# --------------------------------------------------------------------------- dice asked for


def test_probe_asks_for_exactly_the_dice_of_the_next_throw(store: GameStore) -> None:
    """PL-1: the initiative roll asks both sides for a d10, the roller and the opposer named;
    with the faces entered the order is ready, and a face a d10 cannot show is refused."""
    gid = _physical_morze(store)
    state = store.state(gid)
    needs = probe(state, None, {"type": "roll_initiative"})
    assert needs.status == "dice" and needs.dice is not None
    assert [(g.side, [d.name for d in g.dice]) for g in needs.dice.groups] == [
        ("kriegsmarine", ["d10"]),
        ("royal_navy", ["d10"]),
    ]
    assert needs.dice.rule == "PL-1"
    text = needs.dice.text({"kriegsmarine": "Kriegsmarine", "royal_navy": "Royal Navy"})
    assert "Kriegsmarine: d10" in text and "Royal Navy: d10" in text
    assert [f.label for f in needs.dice.dice[0].faces] == [str(n) for n in range(1, 11)]
    ready = probe(state, None, {"type": "roll_initiative"}, [3, 7])
    assert ready.status == "ready" and ready.faces_used == 2
    bad = probe(state, None, {"type": "roll_initiative"}, [3, 11])
    assert bad.status == "refused" and "d10 cannot show face 11" in str(bad.error)
    extra = probe(state, None, {"type": "roll_initiative"}, [3, 7, 1])
    assert extra.status == "refused" and "not needed" in str(extra.error)


def test_probe_names_the_rule_of_a_refused_order(store: GameStore) -> None:
    gid = _physical_morze(store)
    T.submit(store, gid, None, {"type": "roll_initiative"}, 0, dice=[7, 3])
    state = store.state(gid)
    side = state.ruleset.to_act(state.rules)[0]
    unit = next(u for u in state.rules.units.values() if u.side == side)
    far = {"type": "move", "unit": unit.id, "x": unit.x + 60, "y": unit.y}
    refused = probe(state, side, far)
    assert refused.status == "refused" and refused.error is not None
    assert refused.error.rule == "PL-2" and isinstance(refused.error, IllegalCommand)
    with pytest.raises(IllegalCommand):
        T.submit(store, gid, side, far, state.seq)
    assert store.state(gid).seq == state.seq  # nothing appended


def test_custom_dice_ask_one_button_per_distinct_face() -> None:
    """SWA-DICE: a red die's two blanks are one button (they count the same)."""
    from domain.dice import ARMADA_RED
    from domain.scribe.probe import die_ask

    labels = [f.label for f in die_ask(ARMADA_RED).faces]
    assert labels == ["blank", "hit", "crit", "accuracy", "hit + hit"]


# --------------------------------------------------------------------------- several devices


def test_an_order_given_on_a_stale_position_is_refused_and_appends_nothing(
    store: GameStore,
) -> None:
    gid = _physical_morze(store)
    T.submit(store, gid, None, {"type": "roll_initiative"}, 0, dice=[7, 3])
    state = store.state(gid)
    side = state.ruleset.to_act(state.rules)[0]
    T.submit(store, gid, side, {"type": "end_movement"}, state.seq)
    length = store.state(gid).seq
    with pytest.raises(OrderConflict, match="another device entered an order first"):
        T.submit(store, gid, side, {"type": "end_movement"}, state.seq)
    assert store.state(gid).seq == length


# --------------------------------------------------------------------------- take-backs


def test_a_take_back_plays_on_in_a_variation_and_keeps_the_line_taken_back(
    store: GameStore,
) -> None:
    gid = _physical_morze(store)
    T.submit(store, gid, None, {"type": "roll_initiative"}, 0, dice=[7, 3])
    state = store.state(gid)
    side = state.ruleset.to_act(state.rules)[0]
    T.submit(store, gid, side, {"type": "end_movement"}, state.seq)
    kept = store.facts(gid)[1]
    new = T.take_back(store, gid, 1)
    assert new != gid and T.current_game(store, gid) == new
    assert T.current_game(store, new) == new
    header, facts = store.facts(new)
    assert header.parent is not None and header.parent.game_id == gid
    assert len(facts) == state.seq and store.facts(gid)[1] == kept  # nothing lost
    note = store.annotations(gid)[0]
    assert note.event == state.seq + 1 and "taken back" in note.text
    with pytest.raises(NoSuchEvent):
        T.take_back(store, new, 5)


def test_a_seeded_take_back_throws_past_the_dice_the_taken_back_line_showed(
    store: GameStore,
) -> None:
    """A player who takes back an order after seeing its dice does not get those dice again."""
    header = header_for(
        "morze", small_scenario(), game_id="00000000-0000-4000-8000-0000000f0002", seed=9
    )
    gid = store.create_game(header)
    T.submit(store, gid, None, {"type": "roll_initiative"}, 0)
    seen = store.state(gid).dice_position
    assert seen >= 2
    new = T.take_back(store, gid, 1)
    assert store.state(new).dice_position == 0
    T.submit(store, new, None, {"type": "roll_initiative"}, 0)
    roll = store.facts(new)[1][1].payload
    assert roll["first_die"] == seen  # die 0 and 1 were seen on the line taken back


# --------------------------------------------------------------------------- links


def test_links_are_secret_tokens_kept_only_as_hashes_and_revocable(store: GameStore) -> None:
    gid = _physical_morze(store)
    made = T.issue_links(store, gid)
    assert set(made) == {"umpire", "kriegsmarine", "royal_navy"}
    rows = T.links(store, gid)
    assert all("token_hash" not in row for row in rows)
    assert T.resolve(store, made["royal_navy"]) == T.Access("side", "royal_navy", gid)
    assert T.resolve(store, made["umpire"]).role == "umpire"
    assert T.resolve(store, "not-a-token").role == "public"
    assert T.resolve(store, None).viewer == T.PUBLIC
    number = next(r["number"] for r in rows if r["side"] == "royal_navy")
    T.revoke_link(store, gid, number)
    assert T.resolve(store, made["royal_navy"]).role == "public"
    access = T.Access("side", "royal_navy", gid)
    assert access.may_order("royal_navy") and not access.may_order("kriegsmarine")
    assert access.may_order(None)  # the table's own steps: any side may trigger them
    assert not T.Access("public").may_order(None)


def test_a_link_revoked_by_another_process_opens_nothing_on_a_server_that_read_it(
    store: GameStore, tmp_path: Path
) -> None:
    """The server keeps the table and the links it read (issue 20's load) only while their
    streams stay as they were: a revocation made elsewhere (``wake links --revoke`` in another
    process) takes effect at the server's next read, and a table changed but not saved by one
    caller is not what the next caller reads."""
    gid = _physical_morze(store)
    made = T.issue_links(store, gid)
    assert T.resolve(store, made["royal_navy"]).role == "side"  # read, and kept
    elsewhere = GameStore(str(tmp_path / "store.sqlite3"))
    number = next(r["number"] for r in T.links(elsewhere, gid) if r["side"] == "royal_navy")
    T.revoke_link(elsewhere, gid, number)
    assert T.resolve(store, made["royal_navy"]).role == "public"
    assert T.resolve(store, made["kriegsmarine"]).role == "side"
    unsaved = T.open_table(store, gid)
    other = next(r["number"] for r in T.links(store, gid) if r["side"] == "kriegsmarine")
    unsaved.revoke_link(other)
    assert T.resolve(store, made["kriegsmarine"]).role == "side"
