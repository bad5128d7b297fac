"""Issue 24 item 4: the rollouts' fast path (``domain.fastplay``) gives exactly the events of the
recorded path (``engine.execute`` + ``engine.fold``): for every bundled game, order by order with
its own dice, and for bot games of every ruleset; and it ends in the same state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.canonical import jcs
from domain.conformance import bot_game
from domain.dice import ScriptedDice, SeededDice
from domain.engine import header_for, new_game
from domain.events import CommandIssued
from domain.fastplay import FastGame, play_out
from domain.record.reader import read_record_file
from tests.helpers import FIXTURES

GAMES = sorted((FIXTURES / "games").glob("*/*.wake.json"))
SCENARIOS = {
    "morze": "river_plate",
    "iron_oak": "hampton_roads",
    "armada": "core_learning",
    "ships": "multi4",
}


def _recorded(facts: list) -> list[tuple[str, bytes]]:
    return [(f.topic, jcs(f.payload)) for f in facts if f.topic != CommandIssued.TOPIC]


@pytest.mark.parametrize("path", GAMES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_fast_path_replays_every_bundled_game_event_for_event(path: Path) -> None:
    """Every order of a bundled record, decided on the fast path with the record's own dice
    (its seed, or the faces entered at the table), gives the recorded events, byte for byte in
    canonical JSON, and the same final state as replaying the record."""
    record = read_record_file(path)
    header = record.header
    start = new_game(header)
    game = FastGame.from_state(start)
    ruleset = start.ruleset
    facts = record.events
    expected = _recorded(facts)
    produced: list[tuple[str, bytes]] = []
    for fact in facts:
        if fact.topic != CommandIssued.TOPIC:
            continue
        order = CommandIssued.model_validate(fact.payload)
        if header.dice.mode == "seeded":
            seed = header.dice.seed if header.dice.seed is not None else record.seed_reveal.seed  # type: ignore[union-attr]
            dice = SeededDice(seed, start=game.dice_position)
        else:
            dice = ScriptedDice(order.dice or [], start=game.dice_position, cards=order.cards)
        events = game.apply(order.side, ruleset.parse_command(order.command), dice)
        produced.extend((e.TOPIC, jcs(e.payload())) for e in events)
    assert produced == expected
    assert game.seq == len(facts)


@pytest.mark.parametrize("ruleset_id", sorted(SCENARIOS))
@pytest.mark.parametrize("seed", [1, 2])
def test_fast_path_bot_game_equals_recorded_bot_game(ruleset_id: str, seed: int) -> None:
    """A bot game on the fast path: the same orders, the same events and the same final state
    as the recorded bot game with the same seed."""
    path = FIXTURES / "scenarios" / ruleset_id / f"{SCENARIOS[ruleset_id]}.json"
    session = bot_game(ruleset_id, json.loads(path.read_text()), seed)
    game = FastGame.from_state(new_game(session.header))
    produced: list[tuple[str, bytes]] = []
    play_out(
        game,
        seed,
        watch=lambda _s, _c, evs: produced.extend((e.TOPIC, jcs(e.payload())) for e in evs),
    )
    assert produced == _recorded(session.facts)
    assert game.rules == session.state.rules
    assert (game.seq, game.commands, game.dice_position) == (
        session.state.seq,
        session.state.commands,
        session.state.dice_position,
    )
    assert game.result == session.state.result


@pytest.mark.parametrize("ruleset_id", sorted(SCENARIOS))
def test_new_fast_game_starts_where_new_game_does(ruleset_id: str) -> None:
    """``FastGame.new`` (no genesis digest) starts from the state ``engine.new_game`` does."""
    path = FIXTURES / "scenarios" / ruleset_id / f"{SCENARIOS[ruleset_id]}.json"
    header = header_for(ruleset_id, json.loads(path.read_text()), game_id="fast-new", seed=3)
    fresh, recorded = FastGame.new(header), FastGame.from_state(new_game(header))
    assert fresh.rules == recorded.rules
    assert (fresh.seq, fresh.commands, fresh.dice_position, fresh.result) == (0, 0, 0, None)
