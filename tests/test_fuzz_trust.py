"""Fuzzing the inputs of issue 23 (the fuzz suite of tests/test_fuzz_untrusted.py, extended):
headers that do not fit their ruleset (sides, options, titles and names with control characters,
game ids, including ids of other games' streams), annotations' visibility, and keyring files.
Whatever comes in: no traceback, the documented exit status, one line, a refused input changes
nothing in the store, and no import harms another stored game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from domain.aggregate import (
    analysis_stream_id,
    annotations_stream_id,
    legacy_annotations_stream_id,
    legacy_signatures_stream_id,
    seed_stream_id,
    signatures_stream_id,
)
from domain.cli.app import app
from domain.store import GameStore
from tests.test_fuzz_untrusted import BASE
from tests.test_trust_text import forged_body

runner = CliRunner()
FUZZ = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
VICTIM = BASE["header"]["game_id"]
NASTY = ["\x1b]0;x\x07", "\x9b2J", "\u202e", "\b\b", "\x00", "a\nb", "\u2066", "\x7f", ""]
TEXT = (
    st.text(max_size=12)
    | st.sampled_from(NASTY)
    | st.builds(lambda a, b: a + b, st.text(max_size=5), st.sampled_from(NASTY))
)
STREAMS = [
    annotations_stream_id,
    signatures_stream_id,
    seed_stream_id,
    analysis_stream_id,
    legacy_annotations_stream_id,
    legacy_signatures_stream_id,
]
GAME_IDS = (
    st.uuids().map(str)
    | st.sampled_from(STREAMS).map(lambda make: str(make(VICTIM)))
    | st.binary(min_size=16, max_size=16).map(lambda raw: str(UUID(bytes=raw)))
    | TEXT
)
OPTION_VALUES = st.none() | st.booleans() | st.integers(-3, 3) | TEXT


def _edit(
    sides: list[tuple[str, str]] | None,
    options: dict[str, Any] | None,
    title: str | None,
    game_id: str | None,
) -> dict[str, Any]:
    def edit(body: dict[str, Any]) -> None:
        header = body["header"]
        if sides is not None:
            header["sides"] = [{"id": i, "name": n, "controller": "human"} for i, n in sides]
        if options is not None:
            header["options"] = options
        if title is not None:
            header["title"] = title
        if game_id is not None:
            header["game_id"] = game_id

    return forged_body(edit, BASE)


HEADERS = st.builds(
    _edit,
    st.none()
    | st.lists(
        st.tuples(st.sampled_from(["kriegsmarine", "royal_navy", "x"]) | TEXT, TEXT),
        max_size=5,
    ),
    st.none()
    | st.dictionaries(
        st.sampled_from(["range_rounding", "initiative_ties", "bogus"]) | TEXT,
        OPTION_VALUES,
        max_size=3,
    ),
    st.none() | TEXT,
    st.none() | GAME_IDS,
)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("fuzz-trust")
    store = str(folder / "import.sqlite3")
    victim = folder / "victim.wake.json"
    victim.write_text(json.dumps(BASE), "utf-8")
    assert _wake("import", str(victim), "--store", store)[0] == 0
    assert _wake("annotate", VICTIM, "3", "--author", "A", "--kind", "note", "--text", "v",
                 "--store", store)[0] == 0  # fmt: skip
    yield folder


def _wake(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    leaked = result.exception
    assert leaked is None or isinstance(leaked, SystemExit), repr(leaked)
    return result.exit_code, result.output


@FUZZ
@given(HEADERS)
def test_headers_import_verify_and_harm_no_other_game(files: Path, body: dict[str, Any]) -> None:
    """Issue 23 items 1, 9, 11: whatever the header, import and verify answer as documented
    and the game already stored keeps its annotations, export and audit."""
    path = files / "fuzz.wake.json"
    path.write_text(json.dumps(body, ensure_ascii=True), "utf-8")
    store = str(files / "import.sqlite3")
    before = GameStore(store).game_ids()
    code, out = _wake("import", str(path), "--store", store)
    assert code in (0, 2), out
    assert out.count("\n") == 1 and not any(c in out for c in "\x1b\x9b\u202e\x07\x08")
    after = GameStore(store).game_ids()
    assert (after == before) if code == 2 else (len(after) == len(before) + 1), out
    code, out = _wake("verify", str(path))
    assert code in (0, 1, 2), out
    code, out = _wake("annotations", VICTIM, "--json", "--store", store)
    assert code == 0 and [n["text"] for n in json.loads(out)] == ["v"], out
    code, out = _wake("verify", "--game", VICTIM, "--store", store)
    assert code == 0, out


@FUZZ
@given(st.lists(st.sampled_from(["all", "umpire", "kriegsmarine", "royal_navy"]) | TEXT,
                min_size=1, max_size=3))  # fmt: skip
def test_annotation_visibility_in_records(files: Path, visible: list[str]) -> None:
    """Issue 23 item 3: a record's annotations with any ``visible_to``: read or refused in one
    line; listed for a side only when visible to it (Morze hides nothing: unset is all)."""
    body = json.loads(json.dumps(BASE))
    genesis = body["chain"]["genesis"]
    body["annotations"] = [
        {"number": n + 1, "event": 0, "digest": genesis, "kind": "note", "author": "A",
         "time": "2026-01-01T00:00:00Z", "text": f"t{n}", "visible_to": v}
        for n, v in enumerate(visible)
    ]  # fmt: skip
    path = files / "notes.wake.json"
    path.write_text(json.dumps(body, ensure_ascii=True), "utf-8")
    code, out = _wake("annotations", str(path), "--as", "kriegsmarine", "--json")
    assert code in (0, 2) and out.count("\n") >= 1, out
    if code == 0:
        shown = {n["text"] for n in json.loads(out)}
        wanted = {f"t{n}" for n, v in enumerate(visible) if v in ("all", "kriegsmarine")}
        assert shown == wanted


@FUZZ
@given(st.binary(max_size=200) | st.builds(lambda v: json.dumps(v).encode(), st.recursive(
    st.none() | st.booleans() | st.integers() | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)))  # fmt: skip
def test_keyring_files(files: Path, data: bytes) -> None:
    """Issue 23 item 7: any keyring file: listed, or refused with exit 2 and one line."""
    path = files / "keyring.json"
    path.write_bytes(data)
    code, out = _wake("trust", "list", "--keyring", str(path))
    assert code in (0, 2), out
    if code == 2:
        assert out.count("\n") == 1 and "keyring" in out
