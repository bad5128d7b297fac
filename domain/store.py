"""The game store: an ``eventsourcing`` application over SQLite (embedded default) or PostgreSQL.

The store location comes from ``--store`` or the ``WAKE_STORE`` environment variable: a file path
(SQLite) or ``postgresql://user@host:port/db?schema=wake`` (PostgreSQL through psycopg 3 and its
pool). By default it is ``$XDG_DATA_HOME/wake/wake.sqlite3`` (``~/.local/share/wake/...``).
Tables (and the PostgreSQL schema) are created on first use.
"""

from __future__ import annotations

import copy
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar, TypeVar, cast
from uuid import UUID

import orjson
from eventsourcing.application import Application
from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import IntegrityError, Mapper, StoredEvent
from eventsourcing.utils import get_topic
from pydantic import BaseModel, ConfigDict

from domain.aggregate import (
    STORED_TOPICS,
    Game,
    GameAnnotations,
    GameSeed,
    GameSignatures,
    annotations_stream_id,
    check_game_id,
    legacy_annotations_stream_id,
    legacy_seed_stream_id,
    legacy_signatures_stream_id,
    seed_stream_id,
    signatures_stream_id,
)
from domain.annotations import (
    EVERYONE,
    MAX_ANNOTATIONS,
    UMPIRE,
    Annotation,
    Withdrawal,
    check_bindings,
    default_visibility,
    new_annotation,
    now,
)
from domain.engine import (
    CommandEnvelope,
    Fact,
    GameState,
    Session,
    bot_order,
    bot_secret,
    check_digests,
    fold,
    new_game,
    sealed_dice,
)
from domain.errors import (
    AnnotationError,
    GameNotFound,
    NoSuchEvent,
    OrderConflict,
    RecordError,
    SignatureError,
    StoreError,
    validation_summary,
)
from domain.header import GameHeader
from domain.lineage import check_prefix
from domain.pgstore import is_postgres, postgres_env, setup_lock
from domain.record.model import MAX_SIGNATURES, Signature
from domain.record.signing import check_chain_signature
from domain.recorders import GamesSQLiteRecorder, LeanRows
from domain.seed_commit import SeedSecret

STORE_ENV = "WAKE_STORE"
MEMORY = ":memory:"  # SQLite's name for a store that lives in this process only
FACT_TOPIC = Game.FactRecorded.TOPIC
CREATED_TOPIC = Game.Created.TOPIC
SNAPSHOT_INTERVAL = 50  # measured: 7 ms an order on a 43-unit game (200: 17 ms)
MAX_ATTEMPTS = 50

StoredBody = tuple[str, dict[str, Any]]
#: What applying a stored event of the wrong kind to an aggregate raises.
_BAD_ROWS = (AttributeError, TypeError, KeyError, ValueError)
Beside = TypeVar("Beside", bound=Any)


def _timestamp(body: dict[str, Any]) -> datetime:
    """When a stored row was written (the library's JSON form of a datetime)."""
    stamp = body.get("timestamp")
    if isinstance(stamp, dict) and isinstance(stamp.get("_data_"), str):
        return datetime.fromisoformat(stamp["_data_"])
    if isinstance(stamp, datetime):
        return stamp
    raise StoreError(f"stored row has no readable timestamp: {stamp!r}")


def default_store_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "wake" / "wake.sqlite3"


def redact_url(location: str) -> str:
    """A store location safe to print (no password)."""
    if is_postgres(location) and "@" in location:
        head, _, tail = location.partition("@")
        scheme, _, userinfo = head.partition("://")
        user = userinfo.split(":", 1)[0]
        return f"{scheme}://{user}@{tail}"
    return location


@contextmanager
def sqlite_setup_lock(path: Path) -> Iterator[None]:
    """Let processes opening the same SQLite file take turns while the tables are created.

    SQLite's busy timeout does not cover switching a fresh file to WAL mode, so two processes
    opening a new store at once could fail with "database is locked". An exclusive lock on a
    sibling ``.lock`` file serialises the set-up (on systems without ``fcntl`` it is skipped).
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    with open(path.with_name(path.name + ".lock"), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def store_location(explicit: str | None = None) -> str:
    """The store to use: the flag, else ``WAKE_STORE``, else the default SQLite file."""
    return explicit or os.environ.get(STORE_ENV) or str(default_store_path())


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def _sqlite_path(location: str) -> Path:
    """An SQLite store's file, checked before SQLite opens it: a directory, a FIFO (which
    could block), a device (``/dev/zero``) or a socket is not a store (issue 23 item 10);
    a regular file that is not an SQLite database is refused by SQLite itself.

    Raises:
        StoreError: the path exists and is not a regular file (symlinks followed), or its
            directory cannot be made.
    """
    path = Path(location).expanduser()
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return path  # a new store: created on first use
    except OSError as exc:
        raise StoreError(f"cannot open store {location}: {exc.strerror}") from None
    if not stat.S_ISREG(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
        raise StoreError(f"cannot open store {location}: {kind} (a store is an SQLite file)")
    return path


class _FactRows:
    """The facts of stored rows, one at a time, counting them and keeping the last row."""

    def __init__(self, rows: Iterator[StoredBody], game_id: str) -> None:
        self.rows = rows
        self.game_id = game_id
        self.count = 0
        self.last: dict[str, Any] = {}

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for topic, body in self.rows:
            if topic != FACT_TOPIC:
                raise StoreError(f"game {self.game_id}: unexpected {topic!r} row after its start")
            self.count += 1
            self.last = body
            yield body["fact"]


class RegistryMapper(Mapper[UUID]):
    """The library's mapper, but a row is decoded only if its topic is one of Wake's own
    (``STORED_TOPICS``): the library resolves a row's topic by importing the module it names."""

    def to_domain_event(self, stored_event: StoredEvent) -> DomainEventProtocol[UUID]:
        """Decode a row.

        Raises:
            StoreError: the row's topic is not one of Wake's; nothing is imported.
        """
        topic = stored_event.topic
        if topic not in STORED_TOPICS:
            shown = repr(topic) if len(repr(topic)) <= 60 else repr(topic)[:57] + "..."
            raise StoreError(
                f"a stored row of game {stored_event.originator_id} (version "
                f"{stored_event.originator_version}) has the topic {shown}, which is not one of "
                f"Wake's ({', '.join(sorted(STORED_TOPICS))}); it was not loaded and nothing it "
                "names was imported"
            )
        try:
            return super().to_domain_event(stored_event)
        except _BAD_ROWS as exc:  # a Wake topic that is no event, or not this row's (#13)
            raise StoreError(
                f"a stored row of stream {stored_event.originator_id} (version "
                f"{stored_event.originator_version}) does not decode as {topic!r} "
                f"({type(exc).__name__}): the store was altered outside Wake"
            ) from None


def _checked_signatures(
    header: GameHeader,
    facts: Sequence[Fact],
    signatures: Sequence[Signature],
    have: list[Signature],
) -> list[Signature]:
    """The ``signatures`` not in ``have``, each checked against the game's chain.

    Raises:
        SignatureError: one does not hold (nothing is kept).
        StoreError: more than ``MAX_SIGNATURES`` in all.
    """
    digests = [fact.digest for fact in facts]
    added: list[Signature] = []
    for signature in signatures:
        if signature in have or signature in added:
            continue
        check = check_chain_signature(header.game_id, header.genesis_digest(), digests, signature)
        if not check.valid:
            raise SignatureError(f"not kept: {check.describe()}")
        added.append(signature)
    if len(have) + len(added) > MAX_SIGNATURES:
        raise StoreError(f"a game keeps at most {MAX_SIGNATURES} signatures")
    return added


class GameSummary(BaseModel):
    model_config = ConfigDict(frozen=True)

    game_id: str
    title: str
    ruleset: str
    scenario: str
    sides: list[str]
    dice: str
    events: int
    commands: int
    turn: int
    result: str


class GameStore(Application[UUID]):
    """Games kept as event streams, with snapshots every ``SNAPSHOT_INTERVAL`` events."""

    name = "wake"
    conflicts = 0  # write conflicts retried by this store object
    snapshotting_intervals: ClassVar[dict[type[Any], int]] = {Game: SNAPSHOT_INTERVAL}

    def __init__(self, location: str | None = None) -> None:
        loc = store_location(location)
        self.location = loc
        lock: AbstractContextManager[None]
        if is_postgres(loc):
            env = postgres_env(loc)
            lock = setup_lock(env)
        else:
            env = {
                "PERSISTENCE_MODULE": "eventsourcing.sqlite",
                "SQLITE_DBNAME": loc,
                "SQLITE_LOCK_TIMEOUT": "30",
                "APPLICATION_RECORDER_TOPIC": get_topic(GamesSQLiteRecorder),
            }
            if loc == MEMORY:  # one process's private store: no file, nothing to share
                lock = nullcontext()
            else:
                path = _sqlite_path(loc)
                path.parent.mkdir(parents=True, exist_ok=True)
                env["SQLITE_DBNAME"] = str(path)
                lock = sqlite_setup_lock(path)
        try:
            with lock:  # processes opening the same store take turns creating its tables
                super().__init__(env=env)
        except StoreError:
            raise
        except Exception as exc:  # the library raises various errors for a bad location
            raise StoreError(f"cannot open store {redact_url(loc)}: {_one_line(exc)}") from None
        # aggregates kept beside games, by stream and owner: their version and a copy
        self._kept: dict[tuple[UUID, str], tuple[int, Any]] = {}

    def construct_mapper(self) -> Mapper[UUID]:
        """Rows are decoded by topic from Wake's allow-list only (``RegistryMapper``)."""
        return self.factory.mapper(
            transcoder=self.construct_transcoder(), mapper_class=RegistryMapper
        )

    # --- the streams kept beside games (issue 23 item 1) ----------------------------------------

    def beside(self, cls: type[Beside], current: UUID, legacy: UUID, owner: str) -> Beside | None:
        """The aggregate of kind ``cls`` kept beside games at ``current`` (or, when that stream
        is empty, at ``legacy``, where stores written before issue 23 kept it), None if there
        is none. ``owner`` (the game or line it belongs to) names it in errors and, for kinds
        that record it, must be the one the stream holds.

        A legacy stream holding anything else is passed over: under the old ids a game could
        have been imported with the id of another game's stream; it is that game's, not this.

        Raises:
            StoreError: the stream at ``current`` holds another kind of aggregate, or another
                game's (the store was altered outside Wake).
        """
        found = self._beside_at(cls, current, owner)
        if found is not None:
            return found
        try:
            return self._beside_at(cls, legacy, owner)
        except StoreError:
            return None

    def _beside_at(self, cls: type[Beside], uid: UUID, owner: str) -> Beside | None:
        # A hosted server reads a table and the links on every page run and watch tick (issue
        # 20's load: about a tenth of its time rebuilding them). A stream only grows, so what was
        # built at its last row's version is kept, and handed out as a copy (callers change
        # and save what they get).
        last = self.recorder.select_events(uid, desc=True, limit=1)
        if not last:
            return None
        kept = self._kept.get((uid, owner))
        if kept is not None and kept[0] == last[0].originator_version and isinstance(kept[1], cls):
            return copy.deepcopy(kept[1])
        first = self.recorder.select_events(uid, lte=1)
        topic = first[0].topic
        kind = cast(str, getattr(cls, "TOPIC", cls.__name__))
        if STORED_TOPICS.get(topic) is not getattr(cls, "Created", None):
            raise StoreError(
                f"the {kind} stream of {owner} ({uid}) holds {topic[:60]!r} rows, not a "
                f"{kind}: it was not read (the store was altered outside Wake)"
            )
        try:
            found: Any = self.repository.get(uid)
        except _BAD_ROWS as exc:  # a later row relabelled to another kind's event
            raise StoreError(
                f"the {kind} stream of {owner} ({uid}) does not read ({type(exc).__name__}): "
                "the store was altered outside Wake"
            ) from None
        # a scribe table names its line by ``origin``; annotations and analyses their game
        field = "origin" if hasattr(found, "origin") else "game_id"
        held = getattr(found, field, owner)
        if not isinstance(found, cls) or held != owner:
            raise StoreError(
                f"the {kind} stream of {owner} ({uid}) holds that of {str(held)[:60]!r}: it "
                "was not read (the store was altered outside Wake)"
            )
        self._kept[(uid, owner)] = (found.version, copy.deepcopy(found))
        return found

    def _signatures(self, game_id: str) -> GameSignatures | None:
        return self.beside(
            GameSignatures,
            signatures_stream_id(game_id),
            legacy_signatures_stream_id(game_id),
            game_id,
        )

    def _seed_stream(self, game_id: str) -> GameSeed | None:
        return self.beside(
            GameSeed, seed_stream_id(game_id), legacy_seed_stream_id(game_id), game_id
        )

    # --- writing -----------------------------------------------------------------------------

    def create_game(self, header: GameHeader, secret: SeedSecret | None = None) -> str:
        """Store a new game (its first event); a game whose header commits to its seed keeps
        the ``secret`` seed beside it, in the same transaction.

        Raises:
            StoreError: a game with that id already exists; a committed seed without its
                secret, or a secret that does not match the commitment.
        """
        self._save_new(Game.start(header), header.game_id, self._seed(header, secret, False))
        return header.game_id

    def import_game(
        self,
        header: GameHeader,
        facts: Iterable[Fact],
        secret: SeedSecret | None = None,
        signatures: Sequence[Signature] = (),
        annotations: Sequence[Annotation] = (),
        *,
        seed_revealed: bool = True,
    ) -> str:
        """Store a whole game in one transaction; the facts are checked before anything is written.
        A committed-seed game is stored with its revealed ``secret`` (marked revealed) or, if
        the record reveals none, without it (it can then be read but not played on). The
        record's ``annotations`` are stored with it, each checked against the game's chain.

        Raises:
            RecordError: a fact does not chain or decode, or (a variation) its shared events
                are not the prefix its header names; nothing is stored.
            AnnotationError: an annotation is not bound to this game's chain; nothing is stored.
        ``seed_revealed=False`` keeps a committed seed secret (a take-back's variation of a
        live game, which throws its dice past those the taken-back line showed).
            SignatureError: a signature does not hold for this game; nothing is stored.
            StoreError: a game with that id already exists; nothing is stored.
        """
        facts = list(facts)
        Session(header, facts)  # full check in memory: digests, sequence, topics, payloads
        check_prefix(header, facts)  # a variation continues the prefix its header names
        chain = [header.genesis_digest(), *(f.digest for f in facts)]
        check_bindings(annotations, chain, [side.id for side in header.sides])
        game = Game.start(header)
        game.record(facts)
        seed = self._seed(header, secret, seed_revealed) if secret is not None else None
        extra: list[Any] = [seed] if seed is not None else []
        if signatures:
            kept = GameSignatures.start(header.game_id)
            for signature in _checked_signatures(header, facts, signatures, []):
                kept.add(signature.model_dump(mode="json"))
            extra.append(kept)
        if annotations:
            notes = GameAnnotations.start(header.game_id)
            for note in annotations:
                notes.add(note.model_dump(mode="json"))
            extra.append(notes)
        self._save_new(game, header.game_id, *extra)
        return header.game_id

    def signatures(self, game_id: str) -> list[Signature]:
        """The signatures kept with a stored game (checked when they were added)."""
        held = self._signatures(game_id)
        if held is None:
            return []
        return [Signature.model_validate(body) for body in held.signatures]

    def add_signatures(self, game_id: str, signatures: Sequence[Signature]) -> list[Signature]:
        """Keep ``signatures`` with a stored game, each checked against the game's chain
        (``domain.record.signing.check_chain_signature``); one the game already has is
        skipped. Returns those added.

        Raises:
            GameNotFound: no such game.
            SignatureError: a signature does not hold for this game; none is added.
            StoreError: more than ``MAX_SIGNATURES`` in all.
        """
        header, facts = self.facts(game_id)
        held = self._signatures(game_id) or GameSignatures.start(game_id)
        have = [Signature.model_validate(body) for body in held.signatures]
        added = _checked_signatures(header, facts, signatures, have)
        for signature in added:
            held.add(signature.model_dump(mode="json"))
        if added:
            self.save(held)
        return added

    @staticmethod
    def _seed(header: GameHeader, secret: SeedSecret | None, revealed: bool) -> GameSeed | None:
        if header.dice.commitment is None:
            if secret is not None:
                raise StoreError("a secret seed for a game whose header commits to none")
            return None
        if secret is None or not secret.matches(header.dice):
            raise StoreError("the secret seed does not match the header's commitment")
        seed = GameSeed.start(header.game_id, secret.seed, secret.salt)
        if revealed:
            seed.reveal()
        return seed

    def _save_new(self, game: Game, game_id: str, *beside: Any) -> None:
        check_game_id(game_id)
        try:
            self.save(game, *(aggregate for aggregate in beside if aggregate is not None))
        except IntegrityError as exc:
            raise StoreError(f"a game with id {game_id} is already in the store") from exc

    def secret_seed(self, game_id: str) -> tuple[SeedSecret, bool] | None:
        """The secret seed of a committed-seed game and whether it is revealed (None if the
        game's header carries its seed in clear, or the store does not hold it)."""
        seed = self._seed_stream(game_id)
        if seed is None:
            return None
        return SeedSecret(seed=seed.seed, salt=seed.salt), seed.revealed

    def reveal_seed(self, game_id: str) -> SeedSecret:
        """Reveal a committed-seed game's seed: every export from now on carries it.

        Raises:
            GameNotFound: no such game.
            StoreError: the game's seed is not committed, or not kept in this store.
        """
        header, _ = self.facts(game_id)
        if header.dice.commitment is None:
            raise StoreError(f"game {game_id} has no sealed seed (dice: {header.dice.mode})")
        seed = self._seed_stream(game_id)
        if seed is None:
            raise StoreError(f"this store does not hold the seed of game {game_id}")
        seed.reveal()
        self.save(seed)
        return SeedSecret(seed=seed.seed, salt=seed.salt)

    def public_reveal(self, game_id: str, state: GameState) -> SeedSecret | None:
        """The seed an export of the game may carry: once the game has ended or the umpire
        revealed it; None while it is live (or its seed is in the header)."""
        if state.header.dice.commitment is None:
            return None
        held = self.secret_seed(game_id)
        if held is None:
            return None
        secret, revealed = held
        return secret if revealed or state.result is not None else None

    def submit(self, game_id: str, envelope: CommandEnvelope) -> list[Fact]:
        """Load the game, decide the order, save its facts atomically.

        If another writer appended to the game in between (optimistic concurrency conflict),
        the order is decided again on the fresh state; seeded dice are a function of the dice
        position, so the retry throws the dice that position calls for.

        Raises:
            GameNotFound, WakeError: unknown game or refused order (nothing is appended).
            StoreError: still conflicting after ``MAX_ATTEMPTS`` attempts.
        """
        _, facts = self.submit_next(game_id, lambda _: envelope)
        assert facts is not None
        return facts

    def submit_next(
        self,
        game_id: str,
        choose: Callable[[GameState], CommandEnvelope | None],
        game: Game | None = None,
    ) -> tuple[Game, list[Fact] | None]:
        """Give one order, chosen by ``choose`` from the game's current state, and save it.

        On a write conflict (another writer appended first) the game is loaded again and the
        order chosen and decided again on the fresh state: a bot decides anew, a fixed order is
        judged anew. ``game`` is the aggregate returned by the previous call, which saves a load
        per order while nobody else writes. Returns the aggregate (pass it to the next call) and
        the facts saved, or None if ``choose`` had no order.

        Raises:
            GameNotFound, WakeError: unknown game or refused order (nothing is appended).
            StoreError: still conflicting after ``MAX_ATTEMPTS`` attempts.
        """
        for _ in range(MAX_ATTEMPTS):
            if game is None:
                game = self._load(game_id)
            envelope = choose(game.state)
            if envelope is None:
                return game, None
            facts = game.submit(envelope, self._sealed_dice(game_id, game.state))
            try:
                self.save(game)
            except IntegrityError:
                self.conflicts += 1
                game = None  # its unsaved facts were decided on a stale state
                continue
            return game, facts
        raise StoreError(f"game {game_id}: still conflicting after {MAX_ATTEMPTS} attempts")

    def submit_at(self, game_id: str, envelope: CommandEnvelope, expected: int) -> list[Fact]:
        """Decide and save an order given on the game as it stood after event ``expected``
        (what the page that gave it showed). Unlike :meth:`submit` it is never decided again on
        a newer state: a person chose it seeing that position, so when another device has
        entered an order since, it is refused and nothing is appended.

        Raises:
            GameNotFound, WakeError: unknown game or refused order (nothing is appended).
            OrderConflict: the game has moved on since event ``expected``.
        """
        game = self._load(game_id)
        if game.state.seq != expected:
            raise OrderConflict(_moved_on(game.state.seq, expected))
        facts = game.submit(envelope, self._sealed_dice(game_id, game.state))
        try:
            self.save(game)
        except IntegrityError as exc:
            self.conflicts += 1
            raise OrderConflict(_moved_on(None, expected)) from exc
        return facts

    def facts_after(self, game_id: str, seq: int) -> list[Fact]:
        """The game's facts after event ``seq``, as stored (unchecked: for a page's latest
        events, which reads a few rows rather than the whole game)."""
        rows = self._stored(self._uid(game_id), gt=seq + 1)
        return [Fact.model_validate(fact) for fact in _FactRows(rows, game_id)]

    def moved_on(self, game_id: str, seq: int) -> bool:
        """Whether the game has more than ``seq`` events (another writer appended): one row
        read, for a page that watches a game."""
        return next(self._stored(self._uid(game_id), gt=seq + 1, lte=seq + 2), None) is not None

    def bot_chooser(self, game_id: str) -> Callable[[GameState], CommandEnvelope | None]:
        """The bot's order for ``submit_next``, with the secret this store keeps for a
        committed-seed game (``domain.engine.bot_secret``)."""
        held = self.secret_seed(game_id)
        secret = None
        if held is not None:
            secret = bot_secret(self.state(game_id, 0).header, held[0].seed)
        return lambda state: bot_order(state, secret)

    def _sealed_dice(self, game_id: str, state: GameState) -> Any:
        """The dice of a committed-seed game, thrown from the secret seed this store keeps."""
        if state.header.dice.commitment is None:
            return None
        held = self.secret_seed(game_id)
        if held is None:
            raise RecordError(
                f"game {game_id}: its seed is sealed and this store does not hold it; it "
                "cannot be played on here"
            )
        return sealed_dice(state, held[0].seed)

    # --- reading -----------------------------------------------------------------------------

    def _uid(self, game_id: str) -> UUID:
        try:
            return check_game_id(game_id)
        except StoreError as exc:
            raise GameNotFound(exc.message) from None

    def _not_found(self, game_id: str) -> GameNotFound:
        return GameNotFound(f"no game {game_id} in store {redact_url(self.location)}")

    def _stored(self, uid: UUID, gt: int = 0, lte: int | None = None) -> Iterator[StoredBody]:
        """The game's rows with ``gt < version <= lte`` as (topic, decoded body) pairs.

        The rows come lean from the recorder and each is decoded with orjson only when it is
        reached, so a fold holds one decoded row at a time (with every row decoded up front,
        the garbage collector's passes over them cost as much as the fold). The library's
        mapper, which rebuilds an aggregate event per row, is used only when a compressor or
        cipher is configured, since then the stored bytes are not plain JSON.
        """
        recorder = self.recorder
        if (
            self.mapper.compressor is None
            and self.mapper.cipher is None
            and isinstance(recorder, LeanRows)
        ):
            loads = orjson.loads
            for topic, state in recorder.select_rows(uid, gt=gt, lte=lte):
                yield topic, loads(state)
            return
        for event in self.events.get(uid, gt=gt or None, lte=lte):
            if isinstance(event, Game.FactRecorded):
                yield FACT_TOPIC, {"fact": event.fact, "timestamp": event.timestamp}
            elif isinstance(event, Game.Created):
                yield CREATED_TOPIC, {"header": event.header, "timestamp": event.timestamp}

    def _load(
        self,
        game_id: str,
        version: int | None = None,
        *,
        from_snapshot: bool = True,
        verify: bool = False,
    ) -> Game:
        """The game aggregate at ``version`` (None = latest): the newest snapshot at or before
        it, then the later facts folded on top (all of them without ``from_snapshot``)."""
        uid = self._uid(game_id)
        game: Game | None = None
        if from_snapshot and self.snapshots is not None:
            for snapshot in self.snapshots.get(uid, desc=True, limit=1, lte=version):
                if not isinstance(snapshot, Game.Snapshot):  # a row relabelled (issue 23 #13)
                    raise StoreError(
                        f"the snapshot of game {game_id} at version "
                        f"{snapshot.originator_version} is stored as a "
                        f"{type(snapshot).__qualname__}, not a game snapshot; it was not "
                        "loaded (the store was altered outside Wake)"
                    )
                game = snapshot.mutate(None)
        rows = self._stored(uid, gt=game.version if game is not None else 0, lte=version)
        if game is None:
            topic, body = next(rows, ("", {}))
            if topic != CREATED_TOPIC:
                raise self._not_found(game_id)
            header = GameHeader.model_validate(body["header"])
            game = Game.restore(uid, 1, new_game(header), _timestamp(body))
        tail = _FactRows(rows, game_id)
        state = fold(game.state, tail, check=verify)
        if tail.count:
            game = Game.restore(uid, game.version + tail.count, state, _timestamp(tail.last))
        return game

    def take_snapshot(
        self,
        aggregate_id: UUID,
        version: int | None = None,
        projector_func: Any = None,
    ) -> None:
        """Snapshot the game at ``version``, loaded through the lean read path."""
        assert self.snapshots is not None
        game = self._load(str(aggregate_id), version)
        self.snapshots.put([Game.Snapshot.take(game)])

    def state(
        self,
        game_id: str,
        at_event: int | None = None,
        *,
        from_snapshot: bool = True,
        verify: bool = False,
    ) -> GameState:
        """The game's state after event ``at_event`` (0 = before any event; None = latest).

        By default the newest snapshot at or before that event is the starting point and the
        store's own rows are trusted (they were checked when they were written). With
        ``from_snapshot=False`` every fact is folded from the first; ``verify`` also checks
        each folded fact's sequence number and digest chain.

        Raises:
            GameNotFound: no such game.
            RecordError: with ``verify``, a fact that does not chain (the store was altered).
        """
        version = None if at_event is None else at_event + 1
        return self._load(game_id, version, from_snapshot=from_snapshot, verify=verify).state

    def facts(self, game_id: str, *, check: bool = True) -> tuple[GameHeader, list[Fact]]:
        """The game's header and every fact, in order, each checked against its digest and
        the chain (``check``), so that nothing shows or exports a row altered in the store as
        if it were the game's.

        Raises:
            GameNotFound: no such game.
            RecordError: with ``check``, a stored fact that does not chain (the store was
                altered outside Wake).
        """
        rows = self._stored(self._uid(game_id))
        topic, body = next(rows, ("", {}))
        if topic != CREATED_TOPIC:
            raise self._not_found(game_id)
        header = GameHeader.model_validate(body["header"])
        facts = [Fact.model_validate(fact) for fact in _FactRows(rows, game_id)]
        if check:
            try:
                check_digests(header, facts)
            except RecordError as exc:
                raise RecordError(
                    f"game {game_id} in store {redact_url(self.location)}: {exc.message}; the "
                    "stored row was altered outside Wake, so the game is not shown as it was "
                    "played (wake verify --game tells more)"
                ) from exc
        return header, facts

    def version(self, game_id: str) -> int:
        """How many rows the game's stream holds (its creation, then one per fact): one row
        read. A stream only grows (a take-back plays on in another game), so a reader may keep
        what it built from the game for as long as this number stays the same.

        Raises:
            GameNotFound: no such game.
        """
        last = self.recorder.select_events(self._uid(game_id), desc=True, limit=1)
        if not last:
            raise self._not_found(game_id)
        return int(last[0].originator_version)

    def header(self, game_id: str) -> GameHeader:
        """The game's header alone (its first row), without reading its facts.

        Raises:
            GameNotFound: no such game.
        """
        topic, body = next(self._stored(self._uid(game_id), lte=1), ("", {}))
        if topic != CREATED_TOPIC:
            raise self._not_found(game_id)
        return GameHeader.model_validate(body["header"])

    def game_ids(self) -> list[str]:
        """Ids of every stored game, oldest first."""
        ids: list[str] = []
        start = 1
        while True:
            batch = self.recorder.select_notifications(
                start=start, limit=500, topics=[Game.Created.TOPIC]
            )
            ids.extend(str(n.originator_id) for n in batch)
            if len(batch) < 500:
                return ids
            start = batch[-1].id + 1

    def summary(self, game_id: str) -> GameSummary:
        state = self.state(game_id)
        header = state.header
        view = state.ruleset.read_model(state.rules)
        if state.result is None:
            result = "in progress"
        else:
            winner = state.result.winner or "draw"
            result = f"{winner} ({state.result.reason})"
        return GameSummary(
            game_id=game_id,
            title=header.title,
            ruleset=header.ruleset.id,
            scenario=header.scenario_id,
            sides=[s.id for s in header.sides],
            dice=header.dice.mode,
            events=state.seq,
            commands=state.commands,
            turn=view.turn,
            result=result,
        )

    # --- annotations (issue 14): a stream beside the game, never part of its chain -----------

    def _annotations(self, game_id: str) -> GameAnnotations | None:
        return self.beside(
            GameAnnotations,
            annotations_stream_id(game_id),
            legacy_annotations_stream_id(game_id),
            game_id,
        )

    def annotation_history(self, game_id: str) -> list[tuple[Annotation, Withdrawal | None]]:
        """Every annotation written on the game, in order, each with its withdrawal (or None).

        Raises:
            StoreError: a stored annotation does not read (the store was altered).
        """
        return self._history(game_id, self._annotations(game_id))

    @staticmethod
    def _history(
        game_id: str, notes: GameAnnotations | None
    ) -> list[tuple[Annotation, Withdrawal | None]]:
        if notes is None:
            return []
        try:
            added = [Annotation.model_validate(body, strict=True) for body in notes.added]
            gone = [Withdrawal.model_validate(body, strict=True) for body in notes.withdrawn]
        except ValueError as exc:
            raise StoreError(
                f"game {game_id}: a stored annotation does not read ({validation_summary(exc)})"
            ) from None
        withdrawn = {w.number: w for w in gone}
        return [(note, withdrawn.get(note.number)) for note in added]

    def annotations(self, game_id: str) -> list[Annotation]:
        """The game's standing annotations (not withdrawn), in order: what an export carries.

        Raises:
            StoreError: a stored annotation does not read (the store was altered).
        """
        return [note for note, gone in self.annotation_history(game_id) if gone is None]

    def annotate(
        self,
        game_id: str,
        event: int,
        kind: str,
        author: str,
        text: str,
        *,
        time: str | None = None,
        visible_to: str | None = None,
    ) -> Annotation:
        """Write an annotation on event ``event`` of the game (0: the game as a whole), bound to
        the game's chain digest after that event, visible to ``visible_to`` (``"all"``,
        ``"umpire"`` or a side's id; None: ``default_visibility`` of the game, written out).
        The game's own events are not touched.

        Raises:
            GameNotFound: no such game.
            NoSuchEvent: the game has no such event.
            AnnotationError: an unknown kind, bad author or text, a visibility that is not
                everyone, the umpire or one of the game's sides, or the game's limit reached.
            StoreError: still conflicting after ``MAX_ATTEMPTS`` attempts.
        """
        state = self.state(game_id)
        length = state.seq
        sides = [side.id for side in state.header.sides]
        visible = visible_to or default_visibility(bool(state.ruleset.meta.hidden_information))
        if visible not in (EVERYONE, UMPIRE, *sides):
            raise AnnotationError(
                f"annotation refused: --visible-to {visible[:40]!r} is not {EVERYONE!r}, "
                f"{UMPIRE!r} or one of the game's sides ({', '.join(sides)})"
            )
        if not 0 <= event <= length:
            raise NoSuchEvent(
                f"game {game_id} has events 1..{length} (0 = the game as a whole), not {event}"
            )
        digest = self.state(game_id, event).head
        for _ in range(MAX_ATTEMPTS):
            found = self._annotations(game_id)
            notes = found if found is not None else GameAnnotations.start(game_id)
            if len(notes.added) >= MAX_ANNOTATIONS:
                raise AnnotationError(
                    f"game {game_id} already has {len(notes.added)} annotations, the limit"
                )
            last = max((int(body["number"]) for body in notes.added), default=0)
            note = new_annotation(
                number=last + 1,
                event=event,
                digest=digest,
                kind=kind,
                author=author,
                text=text,
                time=time,
                visible_to=visible,
            )
            notes.add(note.model_dump(mode="json"))
            try:
                self.save(notes)
            except IntegrityError:
                self.conflicts += 1
                continue
            return note
        raise StoreError(f"game {game_id}: still conflicting after {MAX_ATTEMPTS} attempts")

    def withdraw_annotation(self, game_id: str, number: int, author: str) -> Annotation:
        """Withdraw annotation ``number``: only its author may (by name; Wake does not
        authenticate people, so this guards against mistakes, not against impostors).

        Raises:
            AnnotationError: no such standing annotation, or another author's.
            StoreError: still conflicting after ``MAX_ATTEMPTS`` attempts.
        """
        for _ in range(MAX_ATTEMPTS):
            notes = self._annotations(game_id)
            history = self._history(game_id, notes)
            found = next(((n, w) for n, w in history if n.number == number), None)
            if notes is None or found is None:
                raise AnnotationError(f"game {game_id} has no annotation #{number}")
            note, gone = found
            if gone is not None:
                raise AnnotationError(f"annotation #{number} was withdrawn at {gone.time}")
            if note.author != author.strip():
                raise AnnotationError(
                    f"annotation #{number} is by {note.author[:40]!r}: only its author may "
                    "withdraw it"
                )
            notes.withdraw(Withdrawal(number=number, author=note.author, time=now()).model_dump())
            try:
                self.save(notes)
            except IntegrityError:
                self.conflicts += 1
                continue
            return note
        raise StoreError(f"game {game_id}: still conflicting after {MAX_ATTEMPTS} attempts")


def _moved_on(now: int | None, expected: int) -> str:
    told = f" (it is at event {now})" if now is not None else ""
    return (
        f"another device entered an order first: the game has moved on since event {expected}"
        f"{told}; nothing was recorded from this page, which now shows the game as it stands"
    )
