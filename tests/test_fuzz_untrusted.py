"""Fuzzing untrusted input (issue 12): the record reader, the viewer's loader, ``verify``,
``import`` and ``submit`` get mutated records and arbitrary orders. Whatever comes in: no
traceback, the documented exit status (import and submit 0 or 2, verify 0, 1 or 2), a one-line
message, and a refused input changes nothing in the store. Bounded in time (a few seconds)."""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from domain.cli.app import app
from domain.commands import OrderParser
from domain.errors import InvalidCommand, RecordDivergence, WakeError
from domain.record import read_record, verify_record
from domain.rulesets.morze import MorzeCommand
from domain.store import GameStore
from tests.forge import load, rechain
from tests.helpers import FIXTURES
from viewer.loading import LoadError, from_bytes

runner = CliRunner()
RIVER_PLATE = FIXTURES / "scenarios" / "morze" / "river_plate.json"
FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _base() -> dict[str, Any]:
    """River Plate cut before the first order after its 40th event (reads and verifies fast),
    re-chained."""
    body = load()
    events = body["events"]
    cut = next(i for i in range(40, len(events)) if events[i]["topic"] == "wake.CommandIssued/1")
    body["events"] = events[:cut]
    return rechain(body)


BASE = _base()
BASE_TEXT = json.dumps(BASE, indent=1, ensure_ascii=False)

HUGE = "@@huge integer@@"  # replaced by 4,400 digits in the JSON text (no Python int prints it)
ODD_STRINGS = st.sampled_from(
    ["\ud800", "\udfff", "", " ", "<img src=x>", "1", "true", "null", "-1", "a" * 300, "é", "\x00"]
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.sampled_from([0, 1, -1, 2**53, 2**53 - 1, HUGE])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | ODD_STRINGS
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=12,
)


def _index(topic: str) -> int:
    return next(i for i, e in enumerate(BASE["events"]) if e["topic"] == topic)


ROLL, MOVE = _index("wake.DiceRolled/1"), _index("morze.UnitMoved/1")
PATHS = [
    ("format_version",),
    ("header", "game_id"),
    ("header", "title"),
    ("header", "dice", "seed"),
    ("header", "dice", "mode"),
    ("header", "options"),
    ("header", "options", "initiative_tie"),
    ("header", "scenario", "units"),
    ("header", "scenario", "table"),
    ("header", "sides", 0, "id"),
    ("header", "ruleset", "version"),
    ("events", 0, "payload", "index"),
    ("events", 0, "payload", "command"),
    ("events", ROLL, "payload", "roll", "faces"),
    ("events", ROLL, "payload", "first_die"),
    ("events", ROLL, "payload", "roll", "side"),
    ("events", ROLL, "payload", "p_outcome"),
    ("events", 5, "seq"),
    ("events", 6, "topic"),
    ("events", 7, "command"),
    ("events", 8, "automatic"),
    ("events", 9, "payload"),
    ("events", MOVE, "payload", "unit"),
    ("events", MOVE, "payload", "x"),
    ("events", 20, "payload", "target"),
    ("commands", 1, "index"),
    ("chance", 0, "faces"),
    ("chain", "length"),
    ("events",),
]


def _mutated(path: tuple[Any, ...], value: Any, re_chain: bool) -> str:
    body = copy.deepcopy(BASE)
    node: Any = body
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    if re_chain:  # some values cannot be hashed: then the file goes as it is
        with contextlib.suppress(TypeError, ValueError, KeyError, IndexError, UnicodeEncodeError):
            rechain(body)
    return _dumps(body)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True).replace(json.dumps(HUGE), "9" * 4400)


MUTATED_RECORDS = st.builds(_mutated, st.sampled_from(PATHS), JSON, st.booleans())
BYTE_EDITS = st.tuples(st.integers(0, len(BASE_TEXT)), st.integers(0, 40), st.binary(max_size=30))


def _edited_bytes(edit: tuple[int, int, bytes]) -> bytes:
    at, cut, insert = edit
    raw = BASE_TEXT.encode("utf-8")
    return raw[:at] + insert + raw[at + cut :]


def _check_read(data: str | bytes) -> None:
    raw = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
    try:
        from_bytes(raw, "fuzz.wake.json")  # the viewer's loader: a LoadError or a game
    except LoadError as exc:
        assert "\n" not in str(exc), str(exc)
    try:
        record = read_record(data, source="fuzz")
    except WakeError as exc:
        assert "\n" not in str(exc), str(exc)
        return
    try:
        verify_record(record)
    except RecordDivergence:
        pass
    except WakeError as exc:
        assert "\n" not in str(exc), str(exc)


def test_the_base_record_reads_and_verifies() -> None:
    verify_record(read_record(BASE_TEXT))


@FUZZ
@given(MUTATED_RECORDS)
def test_reader_and_verify_on_mutated_fields(text: str) -> None:
    _check_read(text)


@FUZZ
@given(BYTE_EDITS)
def test_reader_on_edited_bytes(edit: tuple[int, int, bytes]) -> None:
    _check_read(_edited_bytes(edit))


@FUZZ
@given(JSON)
def test_order_parser_refuses_with_invalid_command_only(value: Any) -> None:
    parser = OrderParser(MorzeCommand, "Morze w ogniu")
    for order in (value, {"type": "move", "unit": value, "x": value, "y": 1}, {"type": value}):
        try:
            parser.parse(order)
        except InvalidCommand as exc:
            assert "\n" not in str(exc)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield tmp_path_factory.mktemp("fuzz")


def _wake(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    leaked = result.exception
    assert leaked is None or isinstance(leaked, SystemExit), repr(leaked)
    return result.exit_code, result.output


@settings(FUZZ, max_examples=15)
@given(
    MUTATED_RECORDS | st.builds(lambda e: _edited_bytes(e).decode("utf-8", "replace"), BYTE_EDITS)
)
def test_import_and_verify_cli(files: Path, text: str) -> None:
    path = files / "fuzz.wake.json"
    path.write_text(text, "utf-8", errors="surrogatepass")
    store = str(files / "import.sqlite3")
    before = GameStore(store).game_ids()
    code, out = _wake("import", str(path), "--store", store)
    assert code in (0, 2), out
    after = GameStore(store).game_ids()
    if code == 2:
        assert after == before, out
    else:
        assert len(after) == len(before) + 1
    code, out = _wake("verify", str(path))
    assert code in (0, 1, 2), out
    if code:
        assert "Traceback" not in out


@pytest.fixture(scope="module")
def game(files: Path) -> tuple[str, str]:
    store = str(files / "submit.sqlite3")
    code, out = _wake("start", "morze", str(RIVER_PLATE), "--physical", "--store", store)
    assert code == 0, out
    return store, out.strip()


ORDERS = (
    st.builds(_dumps, JSON)
    | st.builds(
        lambda kind, fields: _dumps({"type": kind, **fields}),
        st.sampled_from(["roll_initiative", "move", "end_movement", "declare_attack", "x"]),
        st.dictionaries(st.sampled_from(["unit", "x", "y", "target", "type"]), JSON, max_size=3),
    )
    | st.text(max_size=20)
)
DICE = st.none() | st.text(alphabet="0123456789,.+-_ a", max_size=8)


@settings(FUZZ, max_examples=25)
@given(ORDERS, DICE, st.sampled_from([None, "kriegsmarine", "royal_navy", "nobody"]))
def test_submit_cli(game: tuple[str, str], order: str, dice: str | None, side: str | None) -> None:
    store, gid = game
    before = len(GameStore(store).facts(gid)[1])
    args = ["submit", "--store", store]
    args += ["--dice", dice] if dice is not None else []
    args += ["--side", side] if side is not None else []
    code, out = _wake(*args, "--", gid, order)  # an order may start with "-"
    assert code in (0, 2), out
    if code == 2:
        assert len(GameStore(store).facts(gid)[1]) == before
        assert out.startswith("error (") and out.count("\n") == 1, out


SCENARIOS = {
    "morze": FIXTURES / "scenarios" / "morze" / "river_plate.json",
    "iron_oak": FIXTURES / "scenarios" / "iron_oak" / "hampton_roads.json",
    "armada": FIXTURES / "scenarios" / "armada" / "core_learning.json",
}


@settings(FUZZ, max_examples=12)
@given(
    st.sampled_from(sorted(SCENARIOS)),
    st.one_of(st.none(), st.text(max_size=10)),
    JSON,
    st.lists(st.builds(lambda k, v: f"{k}={_dumps(v)}", st.text(max_size=8), JSON), max_size=2),
)
def test_start_with_odd_scenarios_and_options(
    files: Path, ruleset: str, key: str | None, value: Any, options: list[str]
) -> None:
    """A scenario with one field replaced (or replaced whole) and odd options: a game or exit 2."""
    scenario: Any = json.loads(SCENARIOS[ruleset].read_text("utf-8"))
    if key is None:
        scenario = value
    else:
        scenario[key if key in scenario or not scenario else sorted(scenario)[0]] = value
    path = files / "scenario.json"
    path.write_text(_dumps(scenario), "utf-8")
    args = ["start", ruleset, str(path), "--seed", "1", "--store", str(files / "start.sqlite3")]
    for option in options:
        args += ["--option", option]
    code, out = _wake(*args)
    assert code in (0, 2), out
    if code == 2:
        assert out.startswith("error (") and out.count("\n") == 1, out
