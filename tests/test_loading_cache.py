"""Opening a stored game again reads only what changed (issue 21 item 12): the viewer keeps each
game's summary and checked facts by the game's stream version (``GameStore.version``, one row
read), so a page run no longer reads and checks every stored game to list them, nor every fact
of the game it shows; an order appended by another writer is seen at the next run."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain.errors import GameNotFound
from domain.store import GameStore
from tests.helpers import header_for, small_scenario
from tests.pg import pg_schema
from viewer import loading


@pytest.fixture(params=["sqlite", "postgres"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "wake.sqlite3")
        return
    with pg_schema("none") as url:
        yield url


def _new_game(store: GameStore, orders: int) -> str:
    gid = store.create_game(
        header_for("morze", small_scenario(), game_id=str(uuid.uuid4()), seed=1)
    )
    _play(store, gid, orders)
    return gid


def _play(store: GameStore, gid: str, orders: int) -> None:
    choose = store.bot_chooser(gid)
    for _ in range(orders):
        store.submit_next(gid, choose)


def test_a_streams_version_counts_its_rows_and_grows_with_every_fact(location: str) -> None:
    """PL-1 initiative and the first moves: the stream holds the game's creation and one row
    per fact, on SQLite and PostgreSQL; an unknown game is named."""
    store = GameStore(location)
    gid = _new_game(store, 0)
    assert store.version(gid) == 1
    _play(store, gid, 3)
    assert store.version(gid) == 1 + len(store.facts(gid)[1]) > 4
    with pytest.raises(GameNotFound):
        store.version(str(uuid.uuid4()))


def test_the_viewer_reads_a_game_again_only_when_it_grew(
    location: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The listing and the game shown come from what was read at this version; a fact
    appended by another writer (another device at the table) is in the next ones."""
    store = GameStore(location)
    gid = _new_game(store, 2)
    other = _new_game(store, 1)
    reads: list[str] = []
    facts, summary = GameStore.facts, GameStore.summary

    def counted_facts(self: GameStore, game_id: str, **kw: Any) -> Any:
        reads.append(f"facts {game_id}")
        return facts(self, game_id, **kw)

    def counted_summary(self: GameStore, game_id: str) -> Any:
        reads.append(f"summary {game_id}")
        return summary(self, game_id)

    monkeypatch.setattr(GameStore, "facts", counted_facts)
    monkeypatch.setattr(GameStore, "summary", counted_summary)

    first = {s.game_id: s.events for s in loading.list_games(location)}
    shown = loading.from_store(location, gid)
    assert sorted(reads) == sorted([f"summary {gid}", f"summary {other}", f"facts {gid}"])
    reads.clear()
    again = {s.game_id: s.events for s in loading.list_games(location)}
    assert again == first and loading.from_store(location, gid).facts == shown.facts
    assert reads == []  # nothing read again: one version row per game

    _play(GameStore(location), gid, 2)  # another writer
    grown = {s.game_id: s.events for s in loading.list_games(location)}
    now = loading.from_store(location, gid)
    assert grown[gid] > first[gid] and grown[other] == first[other]
    assert len(now.facts) == grown[gid] and now.facts[: len(shown.facts)] == shown.facts
    assert sorted(reads) == sorted([f"summary {gid}", f"facts {gid}"])


def test_what_is_kept_is_bounded() -> None:
    kept: loading.ByVersion[int] = loading.ByVersion(2)

    class Store:
        location = "mem"

        def version(self, game_id: str) -> int:
            return 1

    built: list[str] = []
    for gid in ("a", "b", "c", "a"):
        kept.get(Store(), gid, lambda gid=gid: built.append(gid) or len(built))  # type: ignore[arg-type, func-returns-value]
    assert built == ["a", "b", "c", "a"]  # "a" was the oldest of three kept by two
