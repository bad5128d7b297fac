"""The pure game engine: a game is its header plus a hash-chained list of facts.

``execute`` turns one order into facts (validating through the ruleset's ``decide`` and throwing
dice from the game's source); ``apply_fact`` folds one fact into the state through ``evolve``.
Replay is a fold over stored facts and never throws dice. The eventsourcing aggregate and the record
format both sit on top of this module.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from domain import clock
from domain.canonical import canonical_json, jcs, jcs_strict, may_differ, sha256_hex
from domain.dice import (
    CardRequest,
    CardsExhausted,
    CustomDie,
    DiceError,
    DiceExhausted,
    DiceSource,
    Die,
    ScriptedDice,
    SeededDice,
)
from domain.errors import (
    DiceMismatch,
    GameOver,
    InvalidCommand,
    RecordError,
    ScenarioError,
    WakeError,
    validation_summary,
)
from domain.events import (
    ENGINE_EVENTS,
    CommandIssued,
    DomainEvent,
    EventRegistry,
    GameEnded,
    dice_end,
)
from domain.header import CURRENT_FORMAT, DiceSpec, GameHeader, RulesetRef, SideSpec
from domain.read_model import redact_view
from domain.ruleset import Ruleset, get_ruleset
from domain.words import Names, unit_labels


class Fact(BaseModel):
    """One stored event: its place in the log, the order that caused it, and its chain digest."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seq: int  # 1-based position in the game's log
    command: int | None  # index of the order that caused it
    topic: str
    automatic: bool
    payload: dict[str, Any]
    digest: str


class CommandEnvelope(BaseModel):
    """An order as submitted: the side giving it, the command's JSON, physical dice faces and
    the cards drawn at the table (by id, in drawing order)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    side: str | None = None
    command: dict[str, Any]
    dice: list[int] | None = Field(default=None, description="faces entered from physical dice")
    cards: list[str] | None = Field(
        default=None,
        description="ids of the cards drawn at the table, in drawing order (a physical game "
        "with named draws)",
    )
    time: str | None = Field(
        default=None,
        pattern=clock.TIME_PATTERN,
        description="when the order was given (a re-run passes the recorded time)",
    )


def fact_digest(
    previous: str,
    seq: int,
    command: int | None,
    topic: str,
    automatic: bool,
    payload: Any,
    format_version: int = 1,
) -> str:
    """Digest of one fact, chained to the digest before it, in the game's canonical JSON
    (``format_version`` 1: Python's sorted json; 2: RFC 8785)."""
    if format_version >= 2:
        return _jcs_digest(previous, seq, command, topic, automatic, payload)
    body = {
        "seq": seq,
        "command": command,
        "topic": topic,
        "automatic": automatic,
        "payload": payload,
    }
    return sha256_hex(previous.encode("ascii"), canonical_json(body))


def _jcs_body(
    seq: int, command: int | None, topic: str, automatic: bool, payload: Any
) -> dict[str, Any]:
    """What a format-2 digest covers, its keys in RFC 8785 order (the common case needs no
    sorting)."""
    return {
        "automatic": automatic,
        "command": command,
        "payload": payload,
        "seq": seq,
        "topic": topic,
    }


def _jcs_digest(
    previous: str, seq: int, command: int | None, topic: str, automatic: bool, payload: Any
) -> str:
    body = _jcs_body(seq, command, topic, automatic, payload)
    return sha256_hex(previous.encode("ascii"), jcs(body))


def _fact_matches(
    expected: str,
    previous: str,
    seq: int,
    command: int | None,
    topic: str,
    automatic: bool,
    payload: Any,
) -> bool:
    """True if a format-2 fact's digest is ``expected``: the hot check of a verified rebuild.

    Facts are written with their keys in RFC 8785 order (``execute``) and rows and records keep
    that order when read, so orjson's text without sorting is tried first; any other outcome is
    decided by the full canonical form. A match is exact: the text hashed is a serialisation of
    this fact, and equal to the canonical text the digest was made from."""
    body = _jcs_body(seq, command, topic, automatic, payload)
    try:
        text = orjson.dumps(body)
    except (TypeError, orjson.JSONEncodeError):
        text = b""
    prefix = previous.encode("ascii")
    if text and not may_differ(text) and sha256_hex(prefix, text) == expected:
        return True
    return sha256_hex(prefix, jcs(body)) == expected


@dataclass(frozen=True)
class GameState:
    """Engine-level state: the ruleset's state plus counters shared by every ruleset."""

    header: GameHeader
    rules: Any
    seq: int
    commands: int
    dice_position: int
    head: str
    result: GameEnded | None

    @property
    def ruleset(self) -> Ruleset[Any, Any]:
        return get_ruleset(self.header.ruleset.id)


# What data that does not fit raises inside a ruleset's pure functions (pydantic's
# ValidationError is a ValueError): turned into a RecordError naming the event or the header.
_BAD_DATA = (KeyError, IndexError, TypeError, ValueError, AttributeError, ArithmeticError)


def registry_for(ruleset_id: str) -> EventRegistry:
    """Every topic a game of ``ruleset_id`` may contain (and the older ones it upcasts), for the
    ruleset registered under that id now."""
    return _registry_of(get_ruleset(ruleset_id))


@cache
def _registry_of(ruleset: Ruleset[Any, Any]) -> EventRegistry:
    # keyed by the instance, so a ruleset registered in process (a new version in a test)
    # is not served the registry of the one it replaced
    return ENGINE_EVENTS.merged(ruleset.events)


def check_header(ruleset: Ruleset[Any, Any], header: GameHeader) -> None:
    """A header checked against its ruleset (issue 23 item 11): its sides are the scenario's
    (as many as the ruleset seats, no id twice) and its options are the ruleset's, every one
    given (a header made by the ruleset's current version holds each default filled in, so
    what the game was played under never depends on the engine that reads it; an older
    version's header may lack those added since, which that version's readings supply).

    Raises:
        RecordError: the first problem, in one line.
    """
    meta = ruleset.meta
    ids = [side.id for side in header.sides]
    if not meta.min_sides <= len(ids) <= meta.max_sides:
        raise RecordError(
            f"the header has {len(ids)} sides; {meta.id} seats {meta.min_sides} to {meta.max_sides}"
        )
    twice = next((sid for i, sid in enumerate(ids) if sid in ids[:i]), None)
    if twice is not None:
        raise RecordError(f"the header names the side {twice[:40]!r} twice")
    expected = [sid for sid, _ in ruleset.sides(header.scenario)]
    if sorted(ids) != sorted(expected):
        raise RecordError(
            f"the header's sides ({', '.join(i[:40] for i in ids)}) are not its scenario's "
            f"({', '.join(expected)})"
        )
    try:
        resolved = ruleset.resolve_options(header.options)
    except WakeError as exc:
        raise RecordError(f"the header's options: {exc.message}") from None
    if header.ruleset.version != meta.version:
        return  # an older version's header: the options added since are its readings' own
    missing = sorted(set(resolved) - set(header.options) - ruleset.options_added_later)
    changed = sorted(k for k, v in header.options.items() if resolved.get(k) != v)
    if missing or changed:
        what = f"lack {', '.join(missing)}" if missing else f"differ in {', '.join(changed)}"
        raise RecordError(
            f"the header's options {what} once resolved: a {meta.id} {meta.version} header "
            "holds every option in its resolved form, defaults filled in"
        )


def new_game(header: GameHeader) -> GameState:
    """The state of a game before its first fact.

    Raises:
        UnknownRuleset: the header names a ruleset this engine does not have.
        RecordError: the header was made by another version of the ruleset, or its scenario
            or options do not fit the ruleset.
    """
    return GameState(
        header=header,
        rules=initial_rules(header),
        seq=0,
        commands=0,
        dice_position=0,
        head=header.genesis_digest(),
        result=None,
    )


def initial_rules(header: GameHeader) -> Any:
    """The ruleset's state before the first fact (what :func:`new_game` starts from, without
    the genesis digest a log chains from: the rollouts' fast path keeps no log).

    Raises:
        UnknownRuleset / RecordError: as :func:`new_game`.
    """
    ruleset = get_ruleset(header.ruleset.id)
    meta = ruleset.meta
    if header.ruleset.version != meta.version and header.ruleset.version not in meta.replays:
        known = ", ".join([meta.version, *meta.replays])
        raise RecordError(
            f"game was recorded with {header.ruleset.id} {header.ruleset.version}; "
            f"this engine plays {header.ruleset.id} {known}"
        )
    try:
        check_header(ruleset, header)
        rules = ruleset.initial_state(header)
    except WakeError:
        raise
    except _BAD_DATA as exc:  # the header's scenario or options do not fit the ruleset
        raise RecordError(
            f"the header does not describe a game {header.ruleset.id} can start: "
            f"{validation_summary(exc)}"
        ) from exc
    return rules


def decode(state: GameState, fact: Fact) -> DomainEvent:
    """The domain event stored in ``fact``.

    Raises:
        RecordError: unknown topic or a payload that does not fit.
    """
    return registry_for(state.header.ruleset.id).load(fact.topic, fact.payload)


def upcast_fact(ruleset_id: str, fact: Fact) -> Fact:
    """``fact`` in the current form of its event: an older topic version upcast (topic and
    payload), the rest as stored. The digest stays the recorded one (it covers the stored form,
    which is checked before this). A current fact is returned as it is.

    Raises:
        UnknownTopicVersion: the topic is newer than this Wake knows.
        RecordError: an unknown topic, or an old one that cannot be upcast.
    """
    topic, payload = registry_for(ruleset_id).current(fact.topic, fact.payload)
    if topic == fact.topic:
        return fact
    return fact.model_copy(update={"topic": topic, "payload": dict(payload)})


def apply_event(state: GameState, event: DomainEvent, digest: str) -> GameState:
    """Fold one decoded event into the state (``digest`` becomes the chain head)."""
    rules = state.rules
    commands = state.commands
    result = state.result
    if type(event) is CommandIssued:
        commands = event.index + 1
    else:
        rules = state.ruleset.evolve(rules, event)
        if type(event) is GameEnded:
            result = event
    end = dice_end(event)
    return GameState(
        state.header,
        rules,
        state.seq + 1,
        commands,
        state.dice_position if end is None else max(state.dice_position, end),
        digest,
        result,
    )


COMMAND_TOPIC = CommandIssued.TOPIC


def fold(state: GameState, facts: Iterable[Mapping[str, Any]], *, check: bool = True) -> GameState:
    """Fold stored facts, in their JSON form, into the state: every replay runs through here.

    This is the hot loop of a rebuild, so it keeps the counters in locals and builds one
    ``GameState`` at the end instead of one per fact. With ``check`` each fact must come next in
    sequence and match its digest; without it (facts already checked, such as the store's own
    rows) the ruleset's payloads are still validated, by decoding them into events, but an
    order's record is not decoded: the engine reads only its index.

    Raises:
        RecordError: a fact out of sequence, a digest that does not match (a tampered log), an
            unknown topic, a payload that does not fit its event, or a fact missing a field.
    """
    load = registry_for(state.header.ruleset.id).load
    evolve = state.ruleset.evolve
    format_version = state.header.format_version
    rules, commands, dice, head, result = (
        state.rules,
        state.commands,
        state.dice_position,
        state.head,
        state.result,
    )
    seq = state.seq
    fact: Any = None
    try:
        for fact in facts:
            seq += 1
            topic = fact["topic"]
            payload = fact["payload"]
            if check:
                if fact["seq"] != seq:
                    raise RecordError(f"event {fact['seq']} is out of sequence (expected {seq})")
                if format_version >= 2:
                    intact = _fact_matches(
                        fact["digest"],
                        head,
                        seq,
                        fact["command"],
                        topic,
                        fact["automatic"],
                        payload,
                    )
                else:
                    intact = fact["digest"] == fact_digest(
                        head, seq, fact["command"], topic, fact["automatic"], payload
                    )
                if not intact:
                    raise RecordError(
                        f"event {seq} ({topic}): digest does not match its content "
                        "or the chain before it (the log was altered)"
                    )
            elif topic == COMMAND_TOPIC:
                commands = payload["index"] + 1
                head = fact["digest"]
                continue
            event = load(topic, payload)
            if type(event) is CommandIssued:
                commands = event.index + 1
            else:
                rules = evolve(rules, event)
                if type(event) is GameEnded:
                    result = event
            end = dice_end(event)
            if end is not None and end > dice:  # die n is thrown once: never go back
                dice = end
            head = fact["digest"]
    except RecordError:
        raise
    except KeyError as exc:
        if isinstance(fact, Mapping) and exc.args and exc.args[0] not in fact:
            missing = exc.args[0]
            if missing in ("seq", "command", "topic", "automatic", "payload", "digest"):
                raise RecordError(f"event {seq}: the stored fact has no {exc} field") from exc
        raise RecordError(f"event {seq}: cannot be applied to the game (KeyError: {exc})") from exc
    except _BAD_DATA as exc:  # a payload that fits its event but not the game (forged record)
        raise RecordError(
            f"event {seq}: cannot be applied to the game ({type(exc).__name__}: "
            f"{validation_summary(exc)})"
        ) from exc
    return GameState(state.header, rules, seq, commands, dice, head, result)


def check_digests(header: GameHeader, facts: Iterable[Fact]) -> None:
    """Check that ``facts`` follow each other from the header's genesis and each matches its
    digest, without decoding them: what every read of a game's facts costs (a fraction of
    reading the rows, see docs/benchmarks.md).

    Raises:
        RecordError: the first fact out of sequence or whose digest does not match.
    """
    head = header.genesis_digest()
    version = header.format_version
    for seq, fact in enumerate(facts, start=1):
        if fact.seq != seq:
            raise RecordError(f"event {fact.seq} is out of sequence (expected {seq})")
        args = (head, seq, fact.command, fact.topic, fact.automatic, fact.payload)
        intact = (
            _fact_matches(fact.digest, *args) if version >= 2 else fact_digest(*args) == fact.digest
        )
        if not intact:
            raise RecordError(
                f"event {seq} ({fact.topic}): digest does not match its content or the chain "
                "before it (the log was altered)"
            )
        head = fact.digest


def apply_fact(state: GameState, fact: Fact, *, check: bool = True) -> GameState:
    """Fold one stored fact into the state.

    Raises:
        RecordError: with ``check``, a fact out of sequence or whose digest does not match
            its content and the chain (a tampered log).
    """
    return fold(state, (fact.__dict__,), check=check)


def replay(header: GameHeader, facts: Iterable[Fact], *, check: bool = True) -> GameState:
    """Rebuild a game's state from its facts; never throws dice."""
    return fold(new_game(header), (fact.__dict__ for fact in facts), check=check)


def dice_source(state: GameState, envelope: CommandEnvelope) -> DiceSource:
    """Where this order's dice and cards come from: the seed (roll n = f(seed, n)) or the faces
    and cards entered.

    Raises:
        DiceMismatch: faces or cards given to a seeded game; cards given to a game that names
            its cards in the orders.
    """
    spec = state.header.dice
    if not spec.physical_at(state.seq):  # seeded (or the seeded prefix of a physical fork)
        if envelope.dice:
            raise DiceMismatch("this game uses seeded dice; do not enter physical dice faces")
        if envelope.cards:
            raise DiceMismatch("this game uses seeded dice; do not enter the cards drawn")
        if spec.seed is None:  # committed: whoever holds the seed passes its dice
            return _SealedSeed()
        return SeededDice(spec.seed, start=state.header.dice_start(state.seq, state.dice_position))
    if envelope.cards and not spec.named_cards:
        raise DiceMismatch(
            "this game was started before cards were entered as drawn: name the cards drawn "
            "in the order's own fields, not as entered cards"
        )
    return ScriptedDice(envelope.dice or [], start=state.dice_position, cards=envelope.cards)


class _SealedSeed:
    """The dice of a committed-seed game to whoever does not hold its seed: none."""

    position = 0

    def draw(self, die: Any) -> int:
        raise self._sealed()

    def draw_card(self, request: CardRequest) -> str:
        raise self._sealed()

    @staticmethod
    def _sealed() -> DiceMismatch:
        return DiceMismatch(
            "the seed of this game is sealed (the header holds only a commitment to it): its "
            "dice can be thrown only where the seed is kept (the store), or re-thrown once it "
            "is revealed"
        )


def named_refusal(state: GameState, error: WakeError, side: str | None = None) -> WakeError:
    """``error`` (a refusal of an order of ``side``'s in ``state``) with every unit, side and
    catalogue id in its message written as its display name, as ``side`` may know it (another
    side's hidden card keeps its id): "HMNZS Achilles' speed", never "achilles' speed" (issue
    21). The class, code and rule are kept; an unknown id (a typo) is left as typed, and no
    other word is touched. The same error when nothing changes."""
    ruleset = state.ruleset
    view = redact_view(ruleset.read_model(state.rules), side)
    sides = {s.id: s.name for s in view.sides if s.id.islower()}
    names = Names({**ruleset.names(state.rules), **sides, **unit_labels(view.units)})
    message = names.ids(error.message)
    if message == error.message:
        return error
    named = copy.copy(error)
    named.message = message
    named.args = (message,)
    return named


def execute(
    state: GameState, envelope: CommandEnvelope, dice: DiceSource | None = None
) -> list[Fact]:
    """Decide one order and return its facts, chained after ``state``. ``state`` is unchanged.

    Raises:
        WakeError: the order is refused (invalid, illegal now, wrong side, game over, dice).
    """
    if state.result is not None:
        raise GameOver("the game has ended; no more orders are accepted")
    ruleset = state.ruleset
    command = ruleset.parse_command(envelope.command)
    if envelope.side is not None and envelope.side not in {s.id for s in state.header.sides}:
        known = ", ".join(s.id for s in state.header.sides)
        raise InvalidCommand(f"unknown side {envelope.side!r} (sides: {known})")
    own = dice_source(state, envelope)
    source = _Recording(dice if dice is not None else own)
    try:
        events = ruleset.decide(state.rules, envelope.side, command, source)
    except WakeError as exc:  # a refusal, said in players' words (issue 21)
        raise named_refusal(state, exc, envelope.side) from None
    except CardsExhausted as exc:
        raise DiceMismatch(f"not enough cards entered for this order: {exc}") from exc
    except DiceExhausted as exc:
        raise DiceMismatch(f"not enough dice faces entered for this order: {exc}") from exc
    except DiceError as exc:
        raise DiceMismatch(str(exc)) from exc
    if dice is None and isinstance(own, ScriptedDice) and own.remaining:
        raise DiceMismatch(f"{own.remaining} dice face(s) entered but not needed by this order")
    if dice is None and isinstance(own, ScriptedDice) and own.remaining_cards:
        raise DiceMismatch(f"{own.remaining_cards} card(s) entered but not drawn by this order")
    physical = state.header.dice.physical_at(state.seq)
    faces = list(source.consumed) if physical and source.consumed else None
    cards = list(source.cards) if physical and source.cards else None
    format_version = state.header.format_version
    stamped = envelope.time or (clock.now() if format_version >= 2 else None)
    issued = CommandIssued(
        index=state.commands,
        side=envelope.side,
        command=command.model_dump(mode="json"),
        dice=faces,
        time=stamped,
        cards=cards,
    )
    facts: list[Fact] = []
    head, seq = state.head, state.seq
    for event in [issued, *events]:
        seq += 1
        payload = event.payload()
        if format_version >= 2:
            # stored as its canonical form reads back (8.0 is 8, keys in order): what the
            # digest covers, and what later reads re-encode without the slow path
            payload = orjson.loads(jcs_strict(payload))
        automatic = event.AUTOMATIC
        digest = fact_digest(
            head, seq, state.commands, event.TOPIC, automatic, payload, format_version
        )
        facts.append(
            Fact(
                seq=seq,
                command=state.commands,
                topic=event.TOPIC,
                automatic=automatic,
                payload=payload,
                digest=digest,
            )
        )
        head = digest
    return facts


class _Recording:
    """Passes draws through to a dice source and remembers the faces and the cards drawn
    (physical games)."""

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.position = inner.position
        self.consumed: list[int] = []
        self.cards: list[str] = []

    def draw(self, die: Die | CustomDie) -> int:
        face = self.inner.draw(die)
        self.position = self.inner.position
        self.consumed.append(face)
        return face

    def draw_card(self, request: CardRequest) -> str:
        card = self.inner.draw_card(request)
        self.position = self.inner.position
        self.cards.append(card)
        return card


class Session:
    """A game in memory: state plus its facts, for play, simulation and verification."""

    def __init__(
        self, header: GameHeader, facts: Iterable[Fact] = (), *, seed: int | None = None
    ) -> None:
        """``seed``: the secret seed of a game whose header only commits to it."""
        self.header = header
        self.facts: list[Fact] = list(facts)
        self.state = replay(header, self.facts)
        self.seed = seed

    def submit(self, envelope: CommandEnvelope, dice: DiceSource | None = None) -> list[Fact]:
        """Execute an order and keep its facts.

        Raises:
            WakeError: the order is refused; the session is unchanged.
        """
        if dice is None:
            dice = sealed_dice(self.state, self.seed)
        facts = execute(self.state, envelope, dice)
        self.state = fold(self.state, (fact.__dict__ for fact in facts), check=False)
        self.facts.extend(facts)
        return facts

    def submit_bot(self, dice: DiceSource | None = None) -> list[Fact] | None:
        """Let the bot give the next order for whoever is to act; None when nobody can act.

        ``dice`` overrides the game's dice (e.g. a scribe's sheet of physical faces)."""
        envelope = bot_order(self.state, bot_secret(self.header, self.seed))
        return None if envelope is None else self.submit(envelope, dice)


def sealed_dice(state: GameState, seed: int | None) -> DiceSource | None:
    """The dice of a committed-seed game thrown from its secret ``seed`` (None otherwise, and
    for the orders a physical fork takes from the table)."""
    spec = state.header.dice
    if seed is None or spec.commitment is None or spec.physical_at(state.seq):
        return None
    return SeededDice(seed, start=state.header.dice_start(state.seq, state.dice_position))


def bot_secret(header: GameHeader, seed: int | None) -> str | None:
    """What the bot of a committed-seed game seals its orders with: derived from the secret
    seed (HMAC-SHA256), so the players, who see only the commitment, cannot re-derive the salts
    of its sealed orders and open them early. None for any other game, or without the seed."""
    if seed is None or header.dice.commitment is None:
        return None
    message = f"wake-bot-salts:{header.origin}".encode()  # a fork seals as its line does
    return hmac.new(str(seed).encode("ascii"), message, hashlib.sha256).hexdigest()


def bot_order(state: GameState, secret: str | None = None) -> CommandEnvelope | None:
    """The bot's next order for the first side to act that has one; None when nobody can act
    (or the game is over). ``secret``: see ``bot_secret``."""
    if state.result is not None:
        return None
    ruleset = state.ruleset
    rules = state.rules if secret is None else ruleset.with_bot_secret(state.rules, secret)
    for side in ruleset.to_act(rules):
        command = ruleset.bot_command(rules, side)
        if command is not None:
            return CommandEnvelope(side=side, command=command.model_dump(mode="json"))
    return None


def header_for(
    ruleset_id: str,
    scenario: Mapping[str, Any],
    *,
    game_id: str,
    seed: int | None,
    options: Mapping[str, Any] | None = None,
    title: str = "",
    controllers: Mapping[str, str] | None = None,
    cards: Literal["named"] | None = None,
) -> GameHeader:
    """Build a validated header for a new game (``seed=None`` means physical dice; ``cards``:
    how it draws cards, ``DiceSpec.cards``).

    Raises:
        UnknownRuleset, ScenarioError: bad ruleset id, scenario or options.
    """

    ruleset = get_ruleset(ruleset_id)
    try:
        resolved = ruleset.resolve_scenario(scenario)
    except WakeError:
        raise
    except _BAD_DATA as exc:  # a scenario shaped unlike any the ruleset knows
        raise ScenarioError(
            f"invalid {ruleset.meta.name} scenario: {validation_summary(exc)}"
        ) from exc
    try:
        return _new_header(ruleset, resolved, options, game_id, seed, title, controllers, cards)
    except ValidationError as exc:  # a title or side name that is not plain text (issue 23 #9)
        raise ScenarioError(f"invalid game header: {validation_summary(exc)}") from None


def _new_header(
    ruleset: Ruleset[Any, Any],
    resolved: dict[str, Any],
    options: Mapping[str, Any] | None,
    game_id: str,
    seed: int | None,
    title: str,
    controllers: Mapping[str, str] | None,
    cards: Literal["named"] | None,
) -> GameHeader:
    sides = [
        SideSpec(id=sid, name=name, controller=(controllers or {}).get(sid, "human"))
        for sid, name in ruleset.sides(resolved)
    ]
    return GameHeader(
        game_id=game_id,
        title=title or str(resolved.get("title", "")),
        ruleset=RulesetRef(id=ruleset.meta.id, version=ruleset.meta.version),
        scenario=resolved,
        options=ruleset.resolve_options(options or {}),
        dice=(
            DiceSpec(mode="seeded", seed=seed, cards=cards)
            if seed is not None
            else DiceSpec(mode="physical", cards=cards)
        ),
        sides=sides,
        format_version=CURRENT_FORMAT,
    )


__all__ = [
    "CommandEnvelope",
    "Fact",
    "GameState",
    "Session",
    "WakeError",
    "apply_fact",
    "bot_order",
    "execute",
    "fold",
    "header_for",
    "new_game",
    "replay",
    "upcast_fact",
]
