"""Issue 23 item 6: ``wake legal`` in Iron & Oak once an order card was sealed by a person or by a
committed-seed bot: no crash, and the card is shown sealed (IO-3.3.1: one reveal per order kind it
may hold, salt left to its holder), never opened."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from domain.engine import CommandEnvelope, header_for
from domain.rulesets.iron_oak.commands import ORDER_KINDS
from domain.rulesets.iron_oak.orders import order_content
from domain.rulesets.iron_oak.sequence import to_act, under_command
from domain.sealed import seal
from domain.store import GameStore
from tests.cli_helpers import wake
from tests.helpers import FIXTURES

SCENARIO = FIXTURES / "scenarios" / "iron_oak" / "hampton_roads.json"


def _to_orders(st: GameStore, gid: str) -> None:
    chooser = st.bot_chooser(gid)
    while st.state(gid).rules.phase != "orders":
        _, facts = st.submit_next(gid, chooser)
        assert facts is not None


def _reveals(out: str) -> list[dict[str, object]]:
    lines = [json.loads(line) for line in out.splitlines()]
    assert all(line["type"] == "reveal_order" for line in lines)
    return lines


def test_legal_shows_a_card_sealed_by_a_person_as_sealed(tmp_path: Path) -> None:
    """Issue 23 item 6: a card sealed with a person's own salt (``wake seal``)."""
    store = str(tmp_path / "io.sqlite3")
    st = GameStore(store)
    header = header_for(
        "iron_oak", json.loads(SCENARIO.read_text()), game_id=str(uuid.uuid4()), seed=5
    )
    gid = st.create_game(header)
    _to_orders(st, gid)
    rules = st.state(gid).rules
    side = to_act(rules)[0]
    assert side is not None
    seals = {
        ship: seal(order_content(ship, rules.turn, "maneuver_1"), "a salt of my own").digest
        for ship in under_command(rules, side)
    }
    command = {"type": "assign_orders", "seals": seals}
    st.submit(gid, CommandEnvelope(side=side, command=command))
    chooser = st.bot_chooser(gid)
    while st.state(gid).rules.phase == "orders":
        st.submit_next(gid, chooser)
    acting = to_act(st.state(gid).rules)[0]
    assert acting is not None
    code, out, err = wake("legal", gid, "--side", acting, "--store", store)
    assert code == 0, err
    reveals = _reveals(out)
    assert [r["order"] for r in reveals] == list(ORDER_KINDS)  # every kind: nothing opened
    assert {r["salt"] for r in reveals} == {""}
    assert len({r["ship"] for r in reveals}) == 1


def test_legal_after_a_committed_seed_bot_sealed_its_cards(tmp_path: Path) -> None:
    """Issue 23 item 6: a committed-seed game's bot seals from a secret the state lacks."""
    store = str(tmp_path / "io.sqlite3")
    code, out, err = wake("start", "iron_oak", str(SCENARIO), "--store", store)
    assert code == 0, err
    gid = out.split()[-1] if len(out.split()) == 1 else GameStore(store).game_ids()[0]
    st = GameStore(store)
    _to_orders(st, gid)
    chooser = st.bot_chooser(gid)
    while st.state(gid).rules.phase == "orders":
        st.submit_next(gid, chooser)
    acting = to_act(st.state(gid).rules)[0]
    assert acting is not None
    code, out, err = wake("legal", gid, "--side", acting, "--store", store)
    assert code == 0, err
    assert [r["order"] for r in _reveals(out)] == list(ORDER_KINDS)
