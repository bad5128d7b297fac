"""The conformance suite every ruleset must pass, published for third-party rulesets.

A package that adds a ruleset through the ``wake.rulesets`` entry point runs these checks from its
own tests, exactly as Wake runs them for its built-in rulesets (tests/test_conformance.py)::

    from domain.conformance import check_ruleset, check_refusals

    def test_my_ruleset_conforms(tmp_path):
        scenario = json.loads(Path("scenarios/skirmish.json").read_text())
        check_ruleset("my_ruleset", scenario, workdir=tmp_path)
        check_refusals("my_ruleset", scenario)

Each check raises ``ConformanceError`` (an ``AssertionError``, so pytest shows it as a failed
assertion) naming the property that does not hold.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from domain.engine import CommandEnvelope, Fact, Session, header_for, replay
from domain.errors import WakeError
from domain.events import CommandIssued
from domain.record import read_record, verify_record, write_record
from domain.ruleset import get_ruleset
from domain.store import GameStore

#: Bots get this many orders to finish a game before the suite calls it a hang.
MAX_ORDERS = 100_000


class ConformanceError(AssertionError):
    """A ruleset breaks a property every ruleset must have."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ConformanceError(message)


def bot_game(ruleset_id: str, scenario: Mapping[str, Any], seed: int) -> Session:
    """A game of ``scenario`` that the ruleset's bots play for every side, to the end or until
    the bots have nothing to say (a game id derived from the arguments, so it is repeatable)."""
    game_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{ruleset_id}{scenario.get('id')}{seed}"))
    session = Session(header_for(ruleset_id, scenario, game_id=game_id, seed=seed))
    for _ in range(MAX_ORDERS):
        if session.submit_bot() is None:
            break
    return session


def check_ruleset(
    ruleset_id: str, scenario: Mapping[str, Any], *, workdir: Path, seed: int = 17
) -> Session:
    """Play a bot game and check the engine-level properties on it: the bots finish; the same
    seed gives the same events; live state == replayed state == the state a store rebuilds
    from its snapshots; the record round-trips byte for byte and verifies; the state's JSON form
    round-trips; the read model is well formed; every rule an event cites has a summary.

    Returns the finished game. Raises:
        ConformanceError: the first property that does not hold.
    """
    ruleset = get_ruleset(ruleset_id)
    session = bot_game(ruleset_id, scenario, seed)
    _require(session.state.result is not None, "bots must be able to finish a game")
    again = bot_game(ruleset_id, scenario, seed)
    _require(
        _untimed(again.facts) == _untimed(session.facts),
        "the same seed must make the bots give the same orders and the same events",
    )
    _require(
        [f.digest for f in _rerun(session).facts] == [f.digest for f in session.facts],
        "the same seed, orders and times must give the same events, digest for digest",
    )
    _require(
        replay(session.header, session.facts).rules == session.state.rules,
        "replaying the events must give the live state",
    )
    store = GameStore(str(workdir / f"conformance-{ruleset_id}.sqlite3"))
    game_id = store.import_game(session.header, session.facts)
    _require(store.state(game_id).rules == session.state.rules, "store state != live state")
    text = write_record(session.header, session.facts)
    record = read_record(text, strict=True)
    _require(write_record(record.header, record.events) == text, "record must round-trip")
    _require(verify_record(record).events == len(session.facts), "record must verify")
    _require(
        ruleset.load_state(ruleset.dump_state(session.state.rules)) == session.state.rules,
        "load_state(dump_state(state)) must give the state back",
    )
    side_ids = {s.id for s in session.header.sides}
    for state in (replay(session.header, []), session.state):
        view = ruleset.read_model(state.rules)
        _require({s.id for s in view.sides} == side_ids, "the read model must list every side")
        _require(all(u.side in side_ids for u in view.units), "every unit belongs to a side")
        _require(view.board.kind == ruleset.meta.board_kind, "board kind must match the meta")
    for fact in session.facts:
        rule = fact.payload.get("rule")
        if isinstance(rule, str):
            _require(bool(ruleset.rule_summary(rule)), f"no rule summary for {rule}")
    return session


def _untimed(facts: list[Fact]) -> list[tuple[str, dict[str, Any]]]:
    """Each fact's topic and payload without the order's time (two games played one after
    the other differ only in when their orders were given)."""
    return [
        (
            f.topic,
            {k: v for k, v in f.payload.items() if k != "time"}
            if f.topic == CommandIssued.TOPIC
            else f.payload,
        )
        for f in facts
    ]


def _rerun(session: Session) -> Session:
    """The game's orders given again, with their recorded sides, dice and times."""
    again = Session(session.header)
    for fact in session.facts:
        if fact.topic == CommandIssued.TOPIC:
            issued = CommandIssued.model_validate(fact.payload)
            again.submit(
                CommandEnvelope(
                    side=issued.side,
                    command=issued.command,
                    dice=issued.dice,
                    cards=issued.cards,
                    time=issued.time,
                )
            )
    return again


def check_refusals(ruleset_id: str, scenario: Mapping[str, Any], *, seed: int = 3) -> int:
    """At each step of a bot game, the bot's order given by a side that is not to act is
    refused with a ``WakeError`` and appends nothing. Returns how many refusals were checked.

    Raises:
        ConformanceError: an order out of turn was accepted or changed the game.
    """
    session = Session(header_for(ruleset_id, scenario, game_id="conformance", seed=seed))
    sides = [s.id for s in session.header.sides]
    refused = 0
    for _ in range(200):
        ruleset = session.state.ruleset
        acting = ruleset.to_act(session.state.rules)
        if not acting or session.state.result is not None:
            break
        side = acting[0]
        command = ruleset.bot_command(session.state.rules, side)
        if command is None:
            raise ConformanceError(f"the bot has no order for {side!r}, which is to act")
        order = command.model_dump(mode="json")
        wrong = next((s for s in sides if s not in acting), None)
        if side is not None and wrong is not None:
            before = (len(session.facts), session.state)
            try:
                session.submit(CommandEnvelope(side=wrong, command=order))
            except WakeError:
                refused += 1
            else:
                raise ConformanceError(f"{wrong!r} gave {order} out of turn and it was accepted")
            _require((len(session.facts), session.state) == before, "a refusal appended events")
        session.submit(CommandEnvelope(side=side, command=order))
    _require(refused > 0, "no step of the game had a side that was not to act")
    return refused
