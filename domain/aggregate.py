"""The game aggregate on ``eventsourcing``: one aggregate per game, one stored event per fact.

The aggregate is thin: it keeps the engine's ``GameState`` and turns each fact the engine produces
into a stored ``FactRecorded`` event. Stored names are explicit, versioned topics (``wake.Game...``)
so modules can move without breaking stores. Snapshots store the state as plain JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from types import MappingProxyType
from typing import Any, Final, cast
from uuid import RFC_4122, UUID, uuid5

from eventsourcing.domain import Aggregate
from eventsourcing.domain import Snapshot as BaseSnapshot
from eventsourcing.utils import get_topic, register_topic

from domain.dice import DiceSource
from domain.engine import CommandEnvelope, Fact, GameState, apply_fact, execute, new_game
from domain.errors import StoreError, validation_summary
from domain.events import GameEnded
from domain.header import GameHeader


def side_stream_id(namespace: UUID, name: str) -> UUID:
    """The id of a stream kept beside games (seed, signatures, annotations, analysis, scribe
    table and links): ``uuid5(namespace, name)`` with its variant bits set to 111 (RFC 4122's
    "reserved for future definition"). A game's own stream id is its game id, which the store
    accepts only as an RFC 4122 UUID (variant 10x, ``check_game_id``), so no game id can name
    another aggregate's stream (issue 23 item 1), and each kind has its own namespace."""
    raw = bytearray(uuid5(namespace, name).bytes)
    raw[8] = 0xE0 | (raw[8] & 0x1F)
    return UUID(bytes=bytes(raw))


def check_game_id(game_id: str) -> UUID:
    """The stream id of a game: its id, which must be an RFC 4122 UUID (the variant of every
    UUID Wake makes), so that it cannot be one of the streams kept beside games.

    Raises:
        StoreError: not a UUID, or a UUID of another variant.
    """
    try:
        uid = UUID(game_id)
    except (ValueError, TypeError, AttributeError):
        raise StoreError(f"{game_id[:80]!r} is not a game id (a UUID)") from None
    if uid.variant != RFC_4122:
        raise StoreError(
            f"game id {uid} is not an RFC 4122 UUID (its variant is {uid.variant}): the store "
            "keeps the streams beside games in that space, so it takes no game under it"
        )
    return uid


class Game(Aggregate):
    """One game: its header (first event) and its facts (one stored event each)."""

    TOPIC = "wake.Game/1"

    class Created(Aggregate.Created):
        TOPIC = "wake.Game.Created/1"
        header: dict[str, Any]

    class FactRecorded(Aggregate.Event):
        TOPIC = "wake.Game.FactRecorded/1"
        fact: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            game = cast(Game, aggregate)
            game.state = apply_fact(game.state, Fact.model_validate(self.fact))

    class Snapshot(BaseSnapshot):
        TOPIC = "wake.Game.Snapshot/1"

        @classmethod
        def take(cls, aggregate: Any) -> Game.Snapshot:
            game = cast(Game, aggregate)
            state = game.state
            body = {
                "header": state.header.model_dump(mode="json"),
                "rules": state.ruleset.dump_state(state.rules),
                "seq": state.seq,
                "commands": state.commands,
                "dice_position": state.dice_position,
                "head": state.head,
                "result": state.result.payload() if state.result else None,
            }
            return cls(
                originator_id=game.id,
                originator_version=game.version,
                timestamp=cls.create_timestamp(),
                topic=get_topic(type(game)),
                state=body,
            )

        def mutate(self, _: None) -> Game:
            """The game this snapshot holds.

            Raises:
                StoreError: the snapshot names a class other than Wake's own game (its topic
                    is looked up in ``STORED_TOPICS``, never imported), or its body is unreadable.
            """
            cls = STORED_TOPICS.get(self.topic) if isinstance(self.topic, str) else None
            if cls is not Game:
                raise StoreError(
                    f"the snapshot of game {self.originator_id} at version "
                    f"{self.originator_version} names the class {_shown(self.topic)}, not "
                    f"{Game.TOPIC!r}; it was not loaded (nothing named in a row is imported)"
                )
            try:
                return self._restore()
            except _BAD_BODY as exc:
                raise StoreError(
                    f"the snapshot of game {self.originator_id} at version "
                    f"{self.originator_version} cannot be read ({type(exc).__name__}: "
                    f"{validation_summary(exc)})"
                ) from exc

        def _restore(self) -> Game:
            body = self.state
            header = GameHeader.model_validate(body["header"])
            base = new_game(header)
            state = GameState(
                header=header,
                rules=base.ruleset.load_state(body["rules"]),
                seq=body["seq"],
                commands=body["commands"],
                dice_position=body["dice_position"],
                head=body["head"],
                result=GameEnded.model_validate(body["result"]) if body["result"] else None,
            )
            return Game.restore(self.originator_id, self.originator_version, state, self.timestamp)

    def __init__(self, header: dict[str, Any]) -> None:
        self.state = new_game(GameHeader.model_validate(header))

    @classmethod
    def restore(cls, game_id: UUID, version: int, state: GameState, timestamp: datetime) -> Game:
        """The aggregate at ``version`` with a state folded elsewhere (snapshot, lean rows)."""
        game = object.__new__(cls)
        game.__dict__.update(
            {
                "_id": game_id,
                "_version": version,
                "_created_on": timestamp,
                "_modified_on": timestamp,
                "_pending_events": [],
                "state": state,
            }
        )
        return game

    @classmethod
    def start(cls, header: GameHeader) -> Game:
        """A new game aggregate whose id is the header's game id."""
        return cls._create(
            cls.Created, id=UUID(header.game_id), header=header.model_dump(mode="json")
        )

    def record(self, facts: list[Fact]) -> None:
        """Append already-decided facts (imports, retries)."""
        for fact in facts:
            self.trigger_event(self.FactRecorded, fact=fact.model_dump(mode="json"))

    def submit(self, envelope: CommandEnvelope, dice: DiceSource | None = None) -> list[Fact]:
        """Decide an order and record its facts; refused orders record nothing.

        Raises:
            WakeError: the order is refused.
        """
        facts = execute(self.state, envelope, dice)
        self.record(facts)
        return facts


class GameSeed(Aggregate):
    """The secret seed of a game whose header only commits to it, kept beside the game in the
    store (its own stream, id ``seed_stream_id(game_id)``) and never in the game's events,
    exports or views until it is revealed."""

    TOPIC = "wake.GameSeed/1"

    class Created(Aggregate.Created):
        TOPIC = "wake.GameSeed.Created/1"
        seed: int
        salt: str

    class Revealed(Aggregate.Event):
        TOPIC = "wake.GameSeed.Revealed/1"

        def apply(self, aggregate: Aggregate) -> None:
            cast(GameSeed, aggregate).revealed = True

    def __init__(self, seed: int, salt: str) -> None:
        self.seed = seed
        self.salt = salt
        self.revealed = False

    @classmethod
    def start(cls, game_id: str, seed: int, salt: str) -> GameSeed:
        return cls._create(cls.Created, id=seed_stream_id(game_id), seed=seed, salt=salt)

    def reveal(self) -> None:
        """The umpire reveals the seed: exports carry it from now on."""
        if not self.revealed:
            self.trigger_event(self.Revealed)


class GameSignatures(Aggregate):
    """The signatures of a stored game (``domain.record.signing``), kept beside it in their own
    stream (id ``signatures_stream_id(game_id)``): outside the game's chain, as in a record, so
    adding one changes no digest. Each is checked against the game's chain before it is added;
    a signature of an earlier head stays valid for the events it covers as the game goes on."""

    TOPIC = "wake.GameSignatures/1"

    class Created(Aggregate.Created):
        TOPIC = "wake.GameSignatures.Created/1"

    class Added(Aggregate.Event):
        TOPIC = "wake.GameSignatures.Added/1"
        signature: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            cast(GameSignatures, aggregate).signatures.append(dict(self.signature))

    def __init__(self) -> None:
        self.signatures: list[dict[str, Any]] = []

    @classmethod
    def start(cls, game_id: str) -> GameSignatures:
        return cls._create(cls.Created, id=signatures_stream_id(game_id))

    def add(self, signature: dict[str, Any]) -> None:
        self.trigger_event(self.Added, signature=signature)


_SIGNATURES_NAMESPACE: Final = UUID("0b6c8a3e-51d4-4e4b-8f0e-4c7d2a9e6b15")


def signatures_stream_id(game_id: str) -> UUID:
    """Where the store keeps a game's signatures."""
    return side_stream_id(_SIGNATURES_NAMESPACE, game_id)


def legacy_signatures_stream_id(game_id: str) -> UUID:
    """Where stores written before issue 23 kept it (read only when the stream above is empty)."""
    return uuid5(_SIGNATURES_NAMESPACE, game_id)


class GameAnnotations(Aggregate):
    """A game's annotations (issue 14), kept beside the game in the store (their own stream, id
    ``annotations_stream_id(game_id)``) and never in the game's events: writing one changes
    neither the game's state nor its chain. Each ``Added`` holds one ``Annotation`` (as JSON),
    each ``Withdrawn`` one ``Withdrawal``; the models check them when they are read."""

    TOPIC = "wake.GameAnnotations/1"

    class Created(Aggregate.Created):
        TOPIC = "wake.GameAnnotations.Created/1"
        game_id: str

    class Added(Aggregate.Event):
        TOPIC = "wake.GameAnnotations.Added/1"
        annotation: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            cast(GameAnnotations, aggregate).added.append(self.annotation)

    class Withdrawn(Aggregate.Event):
        TOPIC = "wake.GameAnnotations.Withdrawn/1"
        withdrawal: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            cast(GameAnnotations, aggregate).withdrawn.append(self.withdrawal)

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.added: list[dict[str, Any]] = []
        self.withdrawn: list[dict[str, Any]] = []

    @classmethod
    def start(cls, game_id: str) -> GameAnnotations:
        return cls._create(cls.Created, id=annotations_stream_id(game_id), game_id=game_id)

    def add(self, annotation: dict[str, Any]) -> None:
        self.trigger_event(self.Added, annotation=annotation)

    def withdraw(self, withdrawal: dict[str, Any]) -> None:
        self.trigger_event(self.Withdrawn, withdrawal=withdrawal)


_ANNOTATIONS_NAMESPACE: Final = UUID("3b0a7e54-1c2d-4f6e-8a9b-5d4c3e2f1a0b")


def annotations_stream_id(game_id: str) -> UUID:
    """Where the store keeps a game's annotations."""
    return side_stream_id(_ANNOTATIONS_NAMESPACE, game_id)


def legacy_annotations_stream_id(game_id: str) -> UUID:
    """Where stores written before issue 23 kept it (read only when the stream above is empty)."""
    return uuid5(_ANNOTATIONS_NAMESPACE, game_id)


_ANALYSIS_NAMESPACE: Final = UUID("0c5b1f0e-24e7-4c53-9d0e-7a1e2f6b8d24")


def analysis_stream_id(game_id: str) -> UUID:
    """Where the store keeps a game's analysis."""
    return side_stream_id(_ANALYSIS_NAMESPACE, game_id)


def legacy_analysis_stream_id(game_id: str) -> UUID:
    """Where stores written before issue 23 kept it (read only when the stream above is empty)."""
    return uuid5(_ANALYSIS_NAMESPACE, game_id)


class GameAnalysis(Aggregate):
    """A game's analysis by bot rollouts (issue 24; ``domain.analysis.stored``), beside the game
    like its annotations: the spec it was started with and its estimates, never in its chain."""

    TOPIC = "wake.GameAnalysis/1"

    class Created(Aggregate.Created):
        TOPIC = "wake.GameAnalysis.Created/1"
        game_id: str

    class Started(Aggregate.Event):
        TOPIC = "wake.GameAnalysis.Started/1"
        spec: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            found = cast(GameAnalysis, aggregate)
            found.spec = self.spec
            found.estimates = []

    class Estimated(Aggregate.Event):
        TOPIC = "wake.GameAnalysis.Estimated/1"
        estimate: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            cast(GameAnalysis, aggregate).estimates.append(self.estimate)

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.spec: dict[str, Any] | None = None
        self.estimates: list[dict[str, Any]] = []

    @classmethod
    def begin(cls, game_id: str) -> GameAnalysis:
        return cls._create(cls.Created, id=analysis_stream_id(game_id), game_id=game_id)

    def start(self, spec: dict[str, Any]) -> None:
        self.trigger_event(self.Started, spec=spec)

    def add(self, estimate: dict[str, Any]) -> None:
        self.trigger_event(self.Estimated, estimate=estimate)


_SEED_NAMESPACE: Final = UUID("6f1d3c2e-7a51-4f0e-9a57-2c1b8e0d4a11")


def seed_stream_id(game_id: str) -> UUID:
    """Where the store keeps a game's secret seed."""
    return side_stream_id(_SEED_NAMESPACE, game_id)


def legacy_seed_stream_id(game_id: str) -> UUID:
    """Where stores written before issue 23 kept it (read only when the stream above is empty)."""
    return uuid5(_SEED_NAMESPACE, game_id)


class ScribeTable(Aggregate):
    """A table where a game is recorded as it is played (issue 20), kept beside the line of
    games it records (its own stream, id ``table_stream_id(origin)``, ``origin`` the first
    game of the line): each side's secret that its sealed choices are salted from (never
    exported, never shown), the game the table plays now (a take-back moves play to a new
    variation and keeps the old line), and the capability links that let a device see and
    enter what its side may (only a hash of each secret token is kept)."""

    TOPIC = "wake.ScribeTable/1"

    class Created(Aggregate.Created):
        TOPIC = "wake.ScribeTable.Created/1"
        origin: str
        game_id: str
        secrets: dict[str, str]

    class LineMoved(Aggregate.Event):
        TOPIC = "wake.ScribeTable.LineMoved/1"
        game_id: str
        from_game: str
        at_event: int
        orders: int

        def apply(self, aggregate: Aggregate) -> None:
            table = cast(ScribeTable, aggregate)
            table.game_id = self.game_id
            table.moves.append(
                {
                    "game_id": self.game_id,
                    "from_game": self.from_game,
                    "at_event": self.at_event,
                    "orders": self.orders,
                }
            )

    class LinkIssued(Aggregate.Event):
        TOPIC = "wake.ScribeTable.LinkIssued/1"
        number: int
        token_hash: str
        role: str
        side: str | None
        label: str

        def apply(self, aggregate: Aggregate) -> None:
            cast(ScribeTable, aggregate).links.append(
                {
                    "number": self.number,
                    "token_hash": self.token_hash,
                    "role": self.role,
                    "side": self.side,
                    "label": self.label,
                    "revoked": False,
                }
            )

    class LinkRevoked(Aggregate.Event):
        TOPIC = "wake.ScribeTable.LinkRevoked/1"
        number: int

        def apply(self, aggregate: Aggregate) -> None:
            for link in cast(ScribeTable, aggregate).links:
                if link["number"] == self.number:
                    link["revoked"] = True

    def __init__(self, origin: str, game_id: str, secrets: dict[str, str]) -> None:
        self.origin = origin
        self.game_id = game_id
        self.secrets = dict(secrets)
        self.moves: list[dict[str, Any]] = []
        self.links: list[dict[str, Any]] = []

    @classmethod
    def start(cls, origin: str, game_id: str, secrets: dict[str, str]) -> ScribeTable:
        return cls._create(
            cls.Created, id=table_stream_id(origin), origin=origin, game_id=game_id, secrets=secrets
        )

    def move_line(self, game_id: str, from_game: str, at_event: int, orders: int) -> None:
        self.trigger_event(
            self.LineMoved, game_id=game_id, from_game=from_game, at_event=at_event, orders=orders
        )

    def issue_link(self, token_hash: str, role: str, side: str | None, label: str) -> int:
        number = len(self.links) + 1
        self.trigger_event(
            self.LinkIssued, number=number, token_hash=token_hash, role=role, side=side, label=label
        )
        return number

    def revoke_link(self, number: int) -> None:
        self.trigger_event(self.LinkRevoked, number=number)


class ScribeLinks(Aggregate):
    """Which table each capability link opens: the SHA-256 of a link's token -> the table's
    origin (one stream for the whole store, id ``LINKS_STREAM_ID``), so a page finds its table
    from the secret it was given and never from an id in its address."""

    TOPIC = "wake.ScribeLinks/1"

    class Created(Aggregate.Created):
        TOPIC = "wake.ScribeLinks.Created/1"

    class Added(Aggregate.Event):
        TOPIC = "wake.ScribeLinks.Added/1"
        token_hash: str
        origin: str

        def apply(self, aggregate: Aggregate) -> None:
            cast(ScribeLinks, aggregate).tables[self.token_hash] = self.origin

    def __init__(self) -> None:
        self.tables: dict[str, str] = {}

    @classmethod
    def start(cls) -> ScribeLinks:
        return cls._create(cls.Created, id=LINKS_STREAM_ID)

    def add(self, token_hash: str, origin: str) -> None:
        self.trigger_event(self.Added, token_hash=token_hash, origin=origin)


_TABLE_NAMESPACE: Final = UUID("9a3f0c1e-2b7d-4c58-a1e6-7d0f3b9c2e54")
#: The one stream of capability links in a store.
LINKS_STREAM_ID: Final = side_stream_id(_TABLE_NAMESPACE, "wake-scribe-links")
#: Where stores written before issue 23 kept it.
LEGACY_LINKS_STREAM_ID: Final = uuid5(_TABLE_NAMESPACE, "wake-scribe-links")


def table_stream_id(origin: str) -> UUID:
    """Where the store keeps the scribe's table of a line of games (by its first game's id)."""
    return side_stream_id(_TABLE_NAMESPACE, f"table:{origin}")


def legacy_table_stream_id(origin: str) -> UUID:
    """Where stores written before issue 23 kept it."""
    return uuid5(_TABLE_NAMESPACE, f"table:{origin}")


# Nested snapshot classes are not registered by the aggregate's metaclass; register the explicit
# topic at import so a fresh process can read snapshots written by another.
register_topic(Game.Snapshot.TOPIC, Game.Snapshot)

#: Every topic a row of Wake's store may carry, and its class: the allow-list the store's mapper
#: and snapshots resolve topics from. The library would import any module a topic names
#: (``this:s`` imports ``this``); a row's topic must never choose code to run.
STORED_TOPICS: Final[Mapping[str, type[Any]]] = MappingProxyType(
    {
        Game.TOPIC: Game,
        Game.Created.TOPIC: Game.Created,
        Game.FactRecorded.TOPIC: Game.FactRecorded,
        Game.Snapshot.TOPIC: Game.Snapshot,
        GameSeed.TOPIC: GameSeed,
        GameSeed.Created.TOPIC: GameSeed.Created,
        GameSeed.Revealed.TOPIC: GameSeed.Revealed,
        GameSignatures.TOPIC: GameSignatures,
        GameSignatures.Created.TOPIC: GameSignatures.Created,
        GameSignatures.Added.TOPIC: GameSignatures.Added,
        GameAnnotations.TOPIC: GameAnnotations,
        GameAnnotations.Created.TOPIC: GameAnnotations.Created,
        GameAnnotations.Added.TOPIC: GameAnnotations.Added,
        GameAnnotations.Withdrawn.TOPIC: GameAnnotations.Withdrawn,
        ScribeTable.TOPIC: ScribeTable,
        ScribeTable.Created.TOPIC: ScribeTable.Created,
        ScribeTable.LineMoved.TOPIC: ScribeTable.LineMoved,
        ScribeTable.LinkIssued.TOPIC: ScribeTable.LinkIssued,
        ScribeTable.LinkRevoked.TOPIC: ScribeTable.LinkRevoked,
        ScribeLinks.TOPIC: ScribeLinks,
        ScribeLinks.Created.TOPIC: ScribeLinks.Created,
        ScribeLinks.Added.TOPIC: ScribeLinks.Added,
        GameAnalysis.TOPIC: GameAnalysis,
        GameAnalysis.Created.TOPIC: GameAnalysis.Created,
        GameAnalysis.Started.TOPIC: GameAnalysis.Started,
        GameAnalysis.Estimated.TOPIC: GameAnalysis.Estimated,
    }
)
_BAD_BODY = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def _shown(topic: object) -> str:
    text = repr(topic)
    return text if len(text) <= 60 else text[:57] + "..."
