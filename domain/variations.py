"""Variations in the store (issue 14): forks, reruns saved as variations, the variation tree,
and checking a variation against its parent.

The pure part (headers, prefixes, digests) is ``domain.lineage``; this module finds games and
parents in a :class:`~domain.store.GameStore` and in record files. A record file given as a
parent is imported first (read and re-run like ``wake import``), so the parent a variation
names is in the store beside it and ``wake variations`` and the viewer can show both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from domain.engine import Fact
from domain.errors import GameNotFound, StoreError
from domain.header import GameHeader
from domain.importing import import_record
from domain.lineage import (
    LineageReport,
    check_against_parent,
    check_prefix,
    fork,
)
from domain.record import read_record_file
from domain.record.model import MAX_VARIATIONS, Record
from domain.record.writer import build_record
from domain.rerun import RerunReport
from domain.store import GameStore


def is_record_path(game: str) -> bool:
    """``GAME`` names a record file (it exists, or ends in ``.json``) rather than a game id."""
    return game.endswith(".json") or Path(game).exists()


def stored_game(store: GameStore, game: str) -> str:
    """The id of ``game`` in the store: a stored game's id as given, or a record file, imported
    first (read and re-run like ``wake import``, its signatures and annotations kept) unless the
    store already holds that game.

    Raises:
        RecordError, UnknownRuleset: the file is not a valid record, or does not re-run.
        StoreError: the store holds another game under the file's game id.
        GameNotFound: no stored game with that id.
    """
    if not is_record_path(game):
        store.header(game)  # GameNotFound names the store
        return game
    record = read_record_file(Path(game))
    game_id = record.header.game_id
    try:
        stored = store.header(game_id)
    except GameNotFound:
        import_record(store, record)  # the one verified import path, as `wake import`
        return game_id
    if stored.genesis_digest() != record.chain.genesis:
        raise StoreError(
            f"the store holds another game under {game}'s game id {game_id} (its header differs)"
        )
    _, facts = store.facts(game_id)
    upto = min(len(facts), record.chain.length)
    if upto and facts[upto - 1].digest != record.events[upto - 1].digest:
        raise StoreError(
            f"the store's game {game_id} and {game} differ within their first {upto} events"
        )
    if len(facts) < record.chain.length:
        raise StoreError(
            f"the store's game {game_id} has {len(facts)} events and {game} "
            f"{record.chain.length}: play the stored game on, or fork from its id"
        )
    return game_id


def fork_game(
    store: GameStore, parent_id: str, event: int, title: str = "", *, physical: bool = False
) -> GameHeader:
    """Store a fork of the stored game ``parent_id`` starting after its event ``event``; its
    header. A committed seed is carried over (with the secret the store keeps, marked revealed)
    only once the parent's seed is public: the parent has ended or its seed was revealed.
    ``physical``: played on with physical dice from the fork on (``domain.lineage.fork``).

    Raises:
        GameNotFound: no such game.
        NoSuchEvent: ``event`` is out of range or inside an order.
        SealedSeed: the parent is live and its seed sealed (or the store lacks it).
    """
    parent, facts = store.facts(parent_id)
    secret = None
    if parent.dice.sealed:
        secret = store.public_reveal(parent_id, store.state(parent_id))
    header, copied = fork(
        parent, facts, event, title=title, seed_public=secret is not None, physical=physical
    )
    store.import_game(header, copied, secret)
    return header


def save_rerun(store: GameStore, report: RerunReport) -> tuple[str, bool]:
    """Store a rerun (its header names its parent) as a variation; (game id, newly saved). The
    same rerun has the same id: saved again, it is found, not stored twice.

    Raises:
        StoreError: another game is stored under the rerun's id.
        RecordError: the rerun's facts do not chain (a bug) or its prefix does not check.
    """
    game_id = report.header.game_id
    try:
        stored = store.header(game_id)
    except GameNotFound:
        store.import_game(report.header, report.facts)
        return game_id, True
    _, facts = store.facts(game_id)
    same = [f.digest for f in facts] == [f.digest for f in report.facts]
    if stored.genesis_digest() != report.header.genesis_digest() or not same:
        raise StoreError(f"the store holds another game under the rerun's id {game_id}")
    return game_id, False


@dataclass(frozen=True)
class Variation:
    """One game in a variation tree: where it leaves its parent, and how far it goes."""

    game_id: str
    title: str
    event: int | None  # the parent's event it continues (None for the tree's root)
    length: int
    result: str
    children: tuple[Variation, ...] = field(default=())

    def walk(self, depth: int = 0) -> list[tuple[int, Variation]]:
        """Every game in the tree, depth first, with its depth (the root at 0)."""
        out = [(depth, self)]
        for child in self.children:
            out.extend(child.walk(depth + 1))
        return out


def children_index(store: GameStore) -> dict[str, list[tuple[str, GameHeader]]]:
    """Parent id -> [(child id, child header)] over every stored game, oldest first."""
    index: dict[str, list[tuple[str, GameHeader]]] = {}
    for game_id in store.game_ids():
        header = store.header(game_id)
        if header.parent is not None:
            index.setdefault(header.parent.game_id, []).append((game_id, header))
    return index


def variation_tree(
    store: GameStore,
    game_id: str,
    index: dict[str, list[tuple[str, GameHeader]]] | None = None,
) -> Variation:
    """``game_id`` and every stored game that continues it, their children, and so on.

    Raises:
        GameNotFound: no such game.
    """
    index = children_index(store) if index is None else index
    seen: set[str] = set()

    def node(gid: str, event: int | None) -> Variation:
        seen.add(gid)
        summary = store.summary(gid)
        kids = sorted(
            (h.parent.event if h.parent else 0, cid)
            for cid, h in index.get(gid, [])
            if cid not in seen
        )
        return Variation(
            game_id=gid,
            title=summary.title,
            event=event,
            length=summary.events,
            result=summary.result,
            children=tuple(node(cid, at) for at, cid in kids),
        )

    store.header(game_id)
    return node(game_id, None)


def line_root(store: GameStore, game_id: str) -> str:
    """The first stored ancestor of ``game_id`` (itself when its parent is not stored).

    Raises:
        GameNotFound: no such game.
    """
    seen = {game_id}
    current = game_id
    while True:
        ref = store.header(current).parent
        if ref is None or ref.game_id in seen:
            return current
        try:
            store.header(ref.game_id)
        except GameNotFound:
            return current
        seen.add(ref.game_id)
        current = ref.game_id


def check_lineage(
    header: GameHeader,
    facts: Sequence[Fact],
    *,
    store: GameStore | None = None,
    parents: Sequence[Path] = (),
) -> LineageReport:
    """Check a game against the parent its header names: its prefix against the digest named
    (always), then the parent itself, from a record file in ``parents`` whose game id matches
    or else from ``store``; reports which of these it could do.

    Raises:
        LineageError: the prefix does not give the digest named, or the parent at hand has
            another genesis or another chain up to the fork event (altered).
        RecordError: a parent file that is not a valid record.
    """
    ref = header.parent
    if ref is None:
        return LineageReport("none", None)
    check_prefix(header, facts)
    for path in parents:
        record = read_record_file(path)
        if record.header.game_id == ref.game_id:
            check_against_parent(header, record.header, record.events)
            return LineageReport("file", ref)
    note = f"no parent file given is game {ref.game_id}" if parents else ""
    if store is not None:
        try:
            parent, parent_facts = store.facts(ref.game_id)
        except GameNotFound:
            where = "not in the store"
            return LineageReport("absent", ref, f"{note}; {where}" if note else where)
        check_against_parent(header, parent, parent_facts)
        return LineageReport("stored", ref)
    return LineageReport("absent", ref, note)


__all__ = [
    "Variation",
    "check_lineage",
    "children_index",
    "fork_game",
    "is_record_path",
    "line_root",
    "save_rerun",
    "stored_game",
    "variation_tree",
]


@dataclass(frozen=True)
class Lines:
    """The records of the other lines of a game's variation tree, for its record file, and
    the lines left out (with why)."""

    records: list[Record]
    left_out: list[str]


def other_lines(store: GameStore, game_id: str) -> Lines:
    """Every other game of ``game_id``'s variation tree (its first stored ancestor and every
    game that continues it, theirs, ...) as a record with its signatures and annotations, in
    tree order. A line whose dice seed is still sealed cannot be verified by a reader, and
    lines beyond ``MAX_VARIATIONS`` do not fit: they are left out and named.

    Raises:
        GameNotFound: no such game.
    """
    records: list[Record] = []
    left_out: list[str] = []
    for _, node in variation_tree(store, line_root(store, game_id)).walk():
        gid = node.game_id
        if gid == game_id:
            continue
        header, facts = store.facts(gid)
        reveal = store.public_reveal(gid, store.state(gid)) if header.dice.sealed else None
        if header.dice.sealed and reveal is None:
            left_out.append(f"{gid} (its dice seed is still sealed)")
        elif len(records) >= MAX_VARIATIONS:
            left_out.append(f"{gid} (more than {MAX_VARIATIONS} variations)")
        else:
            records.append(
                build_record(
                    header,
                    facts,
                    reveal,
                    store.signatures(gid),
                    annotations=store.annotations(gid),
                )
            )
    return Lines(records, left_out)
