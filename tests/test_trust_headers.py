"""Issue 23 items 11 and 12: a header is checked against its ruleset (its sides are the scenario's,
no id twice, as many as the ruleset seats; every option given in resolved form, none unknown),
and a player's decision given without a side is refused in Iron & Oak and Armada (NotYourTurn with
the rule), as Morze and SHIPS refuse it. Each forged record is re-chained, so only these checks
stand between it and the store."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from domain.engine import CommandEnvelope, Session
from domain.errors import NotYourTurn, RecordError
from domain.record import read_record_file
from tests.cli_helpers import wake
from tests.forge import forged
from tests.helpers import FIXTURES

GAMES = FIXTURES / "games"
MORZE = GAMES / "morze" / "river_plate-annihilation.wake.json"
IRON_OAK = GAMES / "iron_oak" / "hampton_roads-magazine.wake.json"
ARMADA = GAMES / "armada" / "core_deployment-last-ship.wake.json"
SHIPS = GAMES / "ships" / "multi2-duel.wake.json"


def _many_sides(body: dict[str, Any]) -> None:
    first = body["header"]["sides"][0]
    body["header"]["sides"] += [{**first, "id": f"P{n}"} for n in range(3, 103)]


def _twice(body: dict[str, Any]) -> None:
    sides = body["header"]["sides"]
    sides[1] = {**sides[1], "id": sides[0]["id"]}


def _no_options(body: dict[str, Any]) -> None:
    body["header"]["options"] = {}


def _unknown_option(body: dict[str, Any]) -> None:
    body["header"]["options"]["house_rule"] = True


def _stranger(body: dict[str, Any]) -> None:
    body["header"]["sides"][1] = {**body["header"]["sides"][1], "id": "stranger"}


CASES: list[tuple[str, Path, Callable[[dict[str, Any]], None], str]] = [
    ("102 sides in a 2-player game", SHIPS, _many_sides, "the header has 102 sides"),
    ("a side id twice", MORZE, _twice, "names the side 'kriegsmarine' twice"),
    ("a side the scenario lacks", MORZE, _stranger, "are not its scenario's"),
    ("options: {} (no defaults filled in)", IRON_OAK, _no_options, "the header's options lack"),
    ("an unknown option", ARMADA, _unknown_option, "the header's options:"),
]


@pytest.mark.parametrize(
    ("path", "edit", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_header_that_does_not_fit_its_ruleset_is_refused(
    path: Path, edit: Callable[[dict[str, Any]], None], message: str, tmp_path: Path
) -> None:
    """Issue 23 item 11: refused by the reader: ``verify`` and ``import`` exit 2, one line."""
    record = tmp_path / "forged.wake.json"
    record.write_text(forged(edit, path), "utf-8")
    with pytest.raises(RecordError, match=message):
        read_record_file(record)
    code, out, _ = wake("verify", str(record))
    assert code == 2 and message in out
    store = str(tmp_path / "s.sqlite3")
    code, out, _ = wake("import", str(record), "--store", store)
    assert code == 2 and message in out and out.count("\n") == 1


def test_an_older_versions_header_keeps_its_own_options() -> None:
    """Issue 23 item 11: Iron & Oak 1.0 headers lack the options added in 1.1 and still read."""
    for path in sorted((FIXTURES / "legacy" / "iron_oak-1.0").glob("*.wake.json")):
        assert read_record_file(path).header.ruleset.version == "1.0"


@pytest.mark.parametrize(("path", "rule"), [(IRON_OAK, "IO-"), (ARMADA, "SWA-")])
def test_a_players_decision_without_a_side_is_refused(path: Path, rule: str) -> None:
    """Issue 23 item 12: no order "by umpire" for a player's decision; nothing is appended."""
    header = read_record_file(path).header
    session = Session(header, seed=header.dice.seed)
    ruleset = session.state.ruleset
    while None in ruleset.to_act(session.state.rules):  # Iron & Oak's deal: a system step
        session.submit_bot()
    side = ruleset.to_act(session.state.rules)[0]
    order = ruleset.bot_command(session.state.rules, side)
    assert order is not None
    before = session.state.seq
    with pytest.raises(NotYourTurn) as refused:
        session.submit(CommandEnvelope(side=None, command=order.model_dump(mode="json")))
    assert refused.value.rule is not None and refused.value.rule.startswith(rule)
    assert "must name" in refused.value.message
    assert session.state.seq == before
    session.submit(CommandEnvelope(side=side, command=order.model_dump(mode="json")))


def test_an_armada_record_with_an_orders_side_removed_does_not_verify(tmp_path: Path) -> None:
    """Issue 23 item 12: the side is part of the order; a record without it fails re-run."""

    def edit(body: dict[str, Any]) -> None:
        issued = next(e for e in body["events"] if e["topic"] == "wake.CommandIssued/1")
        issued["payload"]["side"] = None

    record = tmp_path / "sideless.wake.json"
    record.write_text(forged(edit, ARMADA), "utf-8")
    code, out, _ = wake("verify", str(record))
    assert code == 1 and "refused on re-run" in out and "must name the side" in out
