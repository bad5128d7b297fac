"""Issue 23 item 1: no game id can name another aggregate's stream, and every read of a stream kept
beside games checks that it holds the aggregate expected (a typed StoreError, exit 2, one line).

Streams beside games (seed, signatures, annotations, analysis, scribe table and links) now live in
a UUID space (variant 111) that the store refuses as a game id; stores written before keep their
old ids, which are read only when they hold the expected aggregate of the expected game.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.aggregate import (
    LINKS_STREAM_ID,
    GameAnnotations,
    GameSignatures,
    analysis_stream_id,
    annotations_stream_id,
    legacy_annotations_stream_id,
    legacy_signatures_stream_id,
    seed_stream_id,
    signatures_stream_id,
    table_stream_id,
)
from domain.errors import StoreError
from domain.store import GameStore
from tests.cli_helpers import wake
from tests.forge import forged

VICTIM = "00000000-0000-4000-8000-000000000001"  # the bundled River Plate game's id

CURRENT: dict[str, Callable[[str], UUID]] = {
    "annotations": annotations_stream_id,
    "signatures": signatures_stream_id,
    "seed": seed_stream_id,
    "analysis": analysis_stream_id,
    "table": table_stream_id,
    "links": lambda _: LINKS_STREAM_ID,
}


def _as_game(path: Path, game_id: str) -> Path:
    """The River Plate record re-made (re-chained) with another game id: a valid record."""

    def edit(body: dict[str, Any]) -> None:
        body["header"]["game_id"] = game_id

    path.write_text(forged(edit), "utf-8")
    return path


def _signed_victim(tmp_path: Path) -> Path:
    key = tmp_path / "umpire.key"
    assert wake("keygen", "-o", str(key))[0] == 0
    out = tmp_path / "victim.wake.json"
    code, _, err = wake(
        "sign", str(_as_game(tmp_path / "plain.wake.json", VICTIM)), "--key", str(key),
        "--signer", "Ann", "-o", str(out),
    )  # fmt: skip
    assert code == 0, err
    return out


def _one_line(err: str) -> str:
    assert err.count("\n") == 1, err
    return err


@pytest.mark.parametrize("kind", sorted(CURRENT))
def test_a_game_id_naming_a_stream_beside_games_is_refused(kind: str, tmp_path: Path) -> None:
    """Issue 23 item 1: a valid record whose game id is another game's side stream is refused."""
    store = str(tmp_path / "s.sqlite3")
    squatter = _as_game(tmp_path / "squat.wake.json", str(CURRENT[kind](VICTIM)))
    code, out, _ = wake("import", str(squatter), "--store", store)  # a line a file, on stdout
    assert code == 2 and "not an RFC 4122 UUID" in _one_line(out)
    assert GameStore(store).game_ids() == []


@pytest.mark.parametrize("squat_first", [True, False])
def test_a_game_on_an_old_stream_id_harms_no_other_game(squat_first: bool, tmp_path: Path) -> None:
    """Issue 23 item 1: games imported under the ids that held another game's annotations and
    signatures before (in either order) leave that game's import, export, annotations and
    audit working."""
    store = str(tmp_path / "s.sqlite3")
    victim = _signed_victim(tmp_path)
    squatters = [
        _as_game(tmp_path / f"squat{n}.wake.json", str(make(VICTIM)))
        for n, make in enumerate((legacy_annotations_stream_id, legacy_signatures_stream_id))
    ]
    order = [*squatters, victim] if squat_first else [victim, *squatters]
    for path in order:
        code, _, err = wake("import", str(path), "--store", store)
        assert code == 0, err
    code, out, err = wake(
        "annotate", VICTIM, "3", "--author", "Ann", "--kind", "note", "--text", "x",
        "--store", store,
    )  # fmt: skip
    assert code == 0, err
    code, out, err = wake("annotations", VICTIM, "--json", "--store", store)
    assert code == 0 and [n["number"] for n in json.loads(out)] == [1], err
    code, _, err = wake("export", VICTIM, "-o", str(tmp_path / "out.wake.json"), "--store", store)
    assert code == 0, err
    exported = json.loads((tmp_path / "out.wake.json").read_text("utf-8"))
    assert len(exported["signatures"]) == 1 and len(exported["annotations"]) == 1
    code, _, err = wake("verify", "--game", VICTIM, "--store", store)
    assert code == 0, err


def _plant(store: GameStore, uid: UUID, aggregate: str) -> None:
    """Write a Wake aggregate of the wrong kind (or game) at ``uid``, as an altered store would."""
    planted: Any
    if aggregate == "signatures":
        planted = GameSignatures._create(GameSignatures.Created, id=uid)
    else:
        planted = GameAnnotations._create(
            GameAnnotations.Created, id=uid, game_id="00000000-0000-4000-8000-0000000000ff"
        )
    store.save(planted)


@pytest.mark.parametrize("planted", ["signatures", "other game's annotations"])
def test_a_stream_holding_the_wrong_aggregate_is_a_typed_error(
    planted: str, location: str, tmp_path: Path
) -> None:
    """Issue 23 item 1: reading a game's annotations checks the stream holds that game's."""
    store = GameStore(location)
    victim = _as_game(tmp_path / "v.wake.json", VICTIM)
    assert wake("import", str(victim), "--store", location)[0] == 0
    _plant(store, annotations_stream_id(VICTIM), planted)
    with pytest.raises(StoreError, match="was not read"):
        store.annotations(VICTIM)
    for args in (["annotations", VICTIM], ["export", VICTIM, "-o", str(tmp_path / "o.json")]):
        code, _, err = wake(*args, "--store", location)
        assert code == 2 and "stream of " + VICTIM in _one_line(err)
