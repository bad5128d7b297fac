"""Ruling diffs: re-decide a recorded game's orders, with the same dice, under another ruling.

``rerun(header, facts, ruling)`` takes the orders of a recorded game (its ``CommandIssued``
facts, the authority) and decides them again, in order, for a game whose header carries other
ruleset options or other data (a JSON merge patch over the resolved scenario). The dice stream
is the original one: a seeded game throws die n from the same seed (die n = f(seed, n)); a
physical game consumes the faces recorded with the orders as one stream, in order, so an order
that now needs more or fewer dice shifts the faces after it, and a line that runs out of faces
ends there.

The report gives the first event whose content differs from the record (both versions, their
one-line descriptions, the payload fields that differ, and the rule), the first recorded order
the new line refuses (with the error and its rule), and where both lines end. With no ruling the
rerun is a verification (``wake verify``'s check, structured): the pytest plugin uses it that
way. ``Ruling(current=True)`` re-decides with the current rules instead of the recorded ones: the
ruleset's current version and the data it ships now (``Ruleset.current_scenario``), what
``wake verify --rerun`` reports after a rules change. Recorded facts of an older topic version
are compared in their upcast form. Everything goes through the ruleset contract; nothing here
knows a rule.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.canonical import canonical_json
from domain.data_versions import PartChoice, data_file_readings, describe_choices
from domain.dice import CardRequest, CardsExhausted, CustomDie, DiceExhausted, DiceSource, Die
from domain.divergence import Divergence, FieldDiff, divergence, field_diffs, show_value
from domain.engine import CommandEnvelope, Fact, GameState, Session, replay, upcast_fact
from domain.errors import GameOver, RecordError, ScenarioError, WakeError
from domain.events import CommandIssued
from domain.header import GameHeader
from domain.lineage import as_variation, with_parent
from domain.ruleset import Ruleset, get_ruleset


@dataclass(frozen=True)
class Ruling:
    """What a rerun changes: ruleset options (merged over the recorded ones) and a JSON merge
    patch (RFC 7386) over the header's resolved scenario, for a user's own data tables."""

    options: Mapping[str, Any] = field(default_factory=dict)
    data: Mapping[str, Any] | None = None
    data_label: str = ""  # where the data came from (a file name), for titles and reports
    # the current rules: the ruleset's current version and the data it ships now, in place of
    # the recorded version and embedded tables (options and a data patch still apply over them)
    current: bool = False

    @property
    def given(self) -> bool:
        """Whether the ruling changes anything at all (else a rerun is a verification)."""
        return bool(self.options) or self.data is not None or self.current


@dataclass(frozen=True)
class Refusal:
    """A recorded order the re-run refuses: the line stops there."""

    order: int  # index of the recorded order
    seq: int  # the recorded event that issued it
    side: str | None
    command: str  # the order's type
    code: str  # the error's stable code (``illegal``, ``wrong_phase``, ``dice``, ``game_over``)
    rule: str
    message: str

    def lines(self) -> list[str]:
        who = f" by {self.side}" if self.side else " (system step)"
        rule = f" [rule {self.rule}]" if self.rule else ""
        if self.code == GameOver.code:
            return [
                f"order #{self.order} ({self.command}{who}, recorded event {self.seq}) was not "
                "played: the re-run line had already ended"
            ]
        if self.code == "dice":
            return [
                f"order #{self.order} ({self.command}{who}, recorded event {self.seq}) cannot be "
                f"decided with the recorded dice stream: {self.message}"
            ]
        return [
            f"order #{self.order} ({self.command}{who}, recorded event {self.seq}) is refused "
            f"on re-run ({self.code}){rule}: {self.message}"
        ]


@dataclass(frozen=True)
class LineEnd:
    """Where a line of play stands after its last event."""

    orders: int
    events: int
    result: str  # "winner (reason)", "draw (reason)" or "no result"
    turn: int
    phase: str
    vp: dict[str, int]

    def text(self) -> str:
        vp = ", ".join(f"{side} {points} VP" for side, points in self.vp.items())
        return (
            f"{self.result} after {self.orders} orders, {self.events} events "
            f"(turn {self.turn}, {self.phase}; {vp})"
        )


@dataclass(frozen=True)
class RerunReport:
    """The outcome of a rerun: where it first differs, where it stops, how both lines end."""

    original: GameHeader
    header: GameHeader  # the rerun's header
    changes: dict[str, tuple[Any, Any]]  # option -> (recorded, rerun); "(data)" for a patch
    facts: list[Fact]  # the rerun's facts, as far as it goes
    orders: int  # recorded orders
    divergence: Divergence | None
    refusal: Refusal | None
    recorded_end: LineEnd | None  # None when the record cannot be folded (a tampered payload)
    rerun_end: LineEnd
    data: tuple[PartChoice, ...] = ()  # with the current rules: what each data part became

    @property
    def identical(self) -> bool:
        """True when every recorded order was decided again into exactly the recorded events."""
        return self.divergence is None and self.refusal is None

    def data_note(self, data_label: str = "") -> str:
        """How the data of a re-run with the current rules relates to the recorded one, for a
        status line: ``", with the data it ships now"`` when a shipped table the game used has
        changed since (``", with FILE"`` for a table given as ``data_label``), and the tables of
        its own that were kept."""
        words = []
        if any(c.reading == "shipped" and c.changed for c in self.data):
            words.append(f"with {data_label}" if data_label else "with the data it ships now")
        elif data_label and any(c.reading == "given" for c in self.data):
            words.append(f"with {data_label}, as recorded")
        own = [c.name for c in self.data if c.reading == "own"]
        if own:
            words.append(f"its own {', '.join(own)} as recorded")
        return "".join(f", {w}" for w in words)

    def lines(self) -> list[str]:
        """The report as text (the CLI prints it; the viewer can show it)."""
        out = [
            f"{self.original.title or self.original.game_id} "
            f"({self.original.ruleset.id} {self.original.ruleset.version}, "
            f"{self.original.dice.mode} dice)"
        ]
        if self.changes:
            ruleset = get_ruleset(self.original.ruleset.id)
            for key, (old, new) in self.changes.items():
                if key == RULES_KEY:
                    rules = f"{self.header.ruleset.id} {new}"
                    out.append(f"ruling: the current rules, {rules} (recorded with {old})")
                elif key == CURRENT_DATA_KEY:
                    out.append(f"ruling: {new}")
                elif key == DATA_KEY:
                    out.append(f"ruling: data patched ({new})")
                else:
                    out.append(_option_line(ruleset, key, old, new))
        else:
            out.append("ruling: as recorded (a verification)")
        if self.identical:
            out.append(
                f"identical: all {self.orders} orders give the recorded {len(self.facts)} events"
            )
        if self.divergence is not None:
            out.append("first difference:")
            out.extend("  " + line for line in self.divergence.lines())
        elif self.refusal is not None:
            out.append("no event differs before the re-run refuses an order")
        if self.refusal is not None and self.refusal.code == GameOver.code:
            left = self.orders - self.refusal.order
            out.append(f"the re-run line ends first: {left} recorded order(s) left unplayed")
            out.extend("  " + line for line in self.refusal.lines())
        elif self.refusal is not None:
            out.append("first refused order:")
            out.extend("  " + line for line in self.refusal.lines())
        recorded = self.recorded_end.text() if self.recorded_end else "(cannot be replayed)"
        out.append(f"recorded line: {recorded}")
        out.append(f"re-run line:   {self.rerun_end.text()}")
        return out


def _option_line(ruleset: Ruleset[Any, Any], key: str, old: Any, new: Any) -> str:
    """``ruling: KEY = VALUE (recorded: ...) [rule R]``: the option's own rule (the reading it
    settles), not the rule of the event that first changes."""
    if old == new:
        was = "as recorded"
    elif old == NOT_SET:
        was = "not set in the record"
    else:
        was = f"recorded: {show_value(old)}"
    rule = ruleset.option_rule(key)
    return f"ruling: {key} = {show_value(new)} ({was})" + (f" [rule {rule}]" if rule else "")


DATA_KEY = "(data)"
RULES_KEY = "(rules)"
CURRENT_DATA_KEY = "(current data)"
NOT_SET = "(not set)"


# --- building the rerun's header ---------------------------------------------------------------


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386 JSON merge patch: objects merge key by key, ``null`` removes, the rest replaces."""
    if not isinstance(patch, Mapping):
        return patch
    merged: dict[str, Any] = dict(target) if isinstance(target, Mapping) else {}
    for key, value in patch.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = merge_patch(merged.get(key), value)
    return merged


def _one_line(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class _Ruled:
    """A rerun's header before its parent is set, and what its data is."""

    header: GameHeader
    choices: tuple[PartChoice, ...]  # with the current rules: what each data part became
    table: str | None  # the data part a --data file was read as (None: a merge patch)


def rerun_header(original: GameHeader, ruling: Ruling) -> GameHeader:
    """The header of the rerun: the recorded one with the ruling's options and data applied,
    a game id derived from the original and the ruling, and a title that says it is a rerun
    (``rerun`` then names the original as its ``parent``: a rerun is a variation).

    Options are merged over the recorded ones and validated by the ruleset; the header keeps
    the merged options as given (not re-filled with today's defaults), so an older version's
    record keeps its own readings for the options it did not record. The data is a JSON merge
    patch over the scenario or a copy of one of the ruleset's data files (values changed),
    whichever the ruleset accepts (``domain.data_versions.data_file_readings``).

    Raises:
        ScenarioError: an unknown option, a bad value, or data the ruleset refuses.
        DataNotAvailable: with the current rules, a table the game used is neither shipped
            nor given.
        UnknownRuleset: the record's ruleset is not installed.
    """
    return _ruled(original, ruling).header


def _ruled(original: GameHeader, ruling: Ruling) -> _Ruled:
    ruleset = get_ruleset(original.ruleset.id)
    known = ruleset.resolve_options({})  # the defaults name every option the ruleset has
    unknown = [key for key in ruling.options if key not in known]
    if unknown:
        raise ScenarioError(
            f"unknown {ruleset.meta.id} option {unknown[0]!r} (options: {', '.join(sorted(known))})"
        )
    options = {**original.options, **ruling.options}
    try:
        ruleset.resolve_options(options)
    except ScenarioError as exc:
        raise ScenarioError(_one_line(exc.message), rule=exc.rule) from exc
    ruleset_ref = original.ruleset
    if ruling.current:
        ruleset_ref = ruleset_ref.model_copy(update={"version": ruleset.meta.version})
    try:
        scenario, choices, table = _ruled_data(ruleset, original.scenario, ruling)
    except ScenarioError as exc:
        raise ScenarioError(_one_line(exc.message), rule=exc.rule) from exc
    ruled: dict[str, Any] = {"options": dict(ruling.options), "data": ruling.data}
    if ruling.current:  # (not in the key otherwise: earlier reruns keep their ids)
        ruled["rules"] = ruleset_ref.version
    key = canonical_json(ruled).decode("utf-8")
    game_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"wake-rerun:{original.game_id}:{key}"))
    what = [f"{ruleset.meta.id} {ruleset_ref.version}"] if ruling.current else []
    what += [f"{k}={_plain(v)}" for k, v in ruling.options.items()]
    if ruling.data is not None:
        what.append(f"data {ruling.data_label or 'patch'}")
    title = f"rerun of {original.game_id}" + (f" with {', '.join(what)}" if what else "")
    if original.title:
        title += f": {original.title}"
    header = original.model_copy(
        update={
            "game_id": game_id,
            "title": title,
            "ruleset": ruleset_ref,
            "options": options,
            "scenario": scenario,
        }
    )
    return _Ruled(header, tuple(choices), table)


def _ruled_data(
    ruleset: Ruleset[Any, Any], recorded: Mapping[str, Any], ruling: Ruling
) -> tuple[dict[str, Any], list[PartChoice], str | None]:
    """The rerun's scenario: with the current rules, the current data (told by digest); with a
    data file, the file read as a merge patch or as the data part it copies, whichever the
    ruleset accepts first. Also what each data part became, and the part the file was read as.

    Raises:
        ScenarioError: the data file fits neither reading (both problems are named).
        DataNotAvailable: as ``Ruleset.current_data``.
    """
    if ruling.data is None:
        if not ruling.current:
            return dict(recorded), [], None
        scenario, choices = ruleset.current_data(recorded)
        return scenario, choices, None
    if not isinstance(ruling.data, Mapping):
        raise ScenarioError(
            "a data file is a JSON object: a merge patch over the scenario, or a copy of one of "
            "the ruleset's data files"
        )
    problems: list[str] = []
    for part, data in data_file_readings(ruling.data, recorded, ruleset.shipped_data()):
        try:
            if part is None:  # a merge patch, over the current data with the current rules
                scenario, choices = (
                    ruleset.current_data(recorded) if ruling.current else (dict(recorded), [])
                )
                return ruleset.resolve_scenario(merge_patch(scenario, data)), choices, None
            if ruling.current:
                scenario, choices = ruleset.current_data(recorded, {part: data})
                return scenario, choices, part
            return ruleset.with_data_parts(recorded, {part: data}), [], part
        except ScenarioError as exc:
            reading = "a merge patch over the scenario" if part is None else f"the {part} table"
            problems.append(f"read as {reading}: {_one_line(exc.message)}")
    raise ScenarioError("; ".join(problems))


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else canonical_json(value).decode("utf-8")


def _changes(original: GameHeader, ruled: _Ruled, ruling: Ruling) -> dict[str, tuple[Any, Any]]:
    """Every option the ruling gives, with its recorded value (``NOT_SET`` when the record's
    header has none: the ruleset's default for its version applied), and the data."""
    header = ruled.header
    changes: dict[str, tuple[Any, Any]] = {}
    label = ruling.data_label or "patch"
    if ruling.current:
        changes[RULES_KEY] = (original.ruleset.version, header.ruleset.version)
        shipped_by = f"{header.ruleset.id} {header.ruleset.version}"
        given = label if ruled.table is not None else ""
        note = describe_choices(list(ruled.choices), shipped_by, given)
        changes[CURRENT_DATA_KEY] = (None, note or f"the data {shipped_by} ships (none)")
    for key, value in ruling.options.items():
        changes[key] = (original.options.get(key, NOT_SET), value)
    if ruling.data is not None and not (ruling.current and ruled.table is not None):
        if ruled.table is not None:
            label += f" as the {ruled.table} table"
        if header.scenario == original.scenario:
            label += ", which leaves the scenario as recorded"
        changes[DATA_KEY] = (None, label)
    return changes


# --- the dice stream of a physical game --------------------------------------------------------


class _FaceStream:
    """The faces (and cards drawn by name) recorded with a physical game's orders, as one
    stream of each consumed in order."""

    def __init__(self, faces: Sequence[int], cards: Sequence[str] = ()) -> None:
        self.faces = tuple(faces)
        self.index = 0
        self.cards = tuple(cards)
        self.card_index = 0

    def source(self, start: int) -> _StreamDice:
        return _StreamDice(self, start)


class _StreamDice:
    """One order's view of the stream: starts at the game's dice position."""

    def __init__(self, stream: _FaceStream, start: int) -> None:
        self.stream = stream
        self.position = start

    def draw(self, die: Die | CustomDie) -> int:
        stream = self.stream
        if stream.index >= len(stream.faces):
            raise DiceExhausted(
                f"the {len(stream.faces)} faces recorded for this game are used up "
                f"({die.name} needed at die {self.position})"
            )
        face = die.read_face(stream.faces[stream.index], self.position)
        stream.index += 1
        self.position += 1
        return face

    def draw_card(self, request: CardRequest) -> str:
        stream = self.stream
        if stream.card_index >= len(stream.cards):
            raise CardsExhausted(
                f"the {len(stream.cards)} cards recorded for this game are used up (a card "
                f"from the {request.deck} needed for {request.purpose})"
            )
        card = request.check(stream.cards[stream.card_index])
        stream.card_index += 1
        self.position += 1
        return card


# --- comparing ---------------------------------------------------------------------------------


def _same(a: Fact, b: Fact) -> bool:
    """Same content (the digests differ whenever the headers do, so they are not compared)."""
    return (
        a.seq == b.seq
        and a.command == b.command
        and a.topic == b.topic
        and a.automatic == b.automatic
        and a.payload == b.payload
    )


def line_end(state: GameState) -> LineEnd:
    """Where a game stands: its result (or none), turn, phase and victory points."""
    view = state.ruleset.read_model(state.rules)
    if state.result is not None:
        result = f"{state.result.winner or 'draw'} ({state.result.reason})"
    else:
        result = "no result"
    return LineEnd(
        orders=state.commands,
        events=state.seq,
        result=result,
        turn=view.turn,
        phase=view.phase,
        vp={side.id: side.vp for side in view.sides},
    )


# --- the rerun ---------------------------------------------------------------------------------


def recorded_orders(facts: Sequence[Fact]) -> list[tuple[Fact, CommandIssued]]:
    """Each recorded order with the fact that issued it.

    Raises:
        RecordError: an order's record does not fit ``CommandIssued``.
    """
    orders = []
    for fact in facts:
        if fact.topic == CommandIssued.TOPIC:
            try:
                orders.append((fact, CommandIssued.model_validate(fact.payload)))
            except ValueError as exc:
                raise RecordError(f"event {fact.seq}: not a valid order record") from exc
    return orders


def rerun(
    original: GameHeader,
    facts: Sequence[Fact],
    ruling: Ruling | None = None,
    *,
    seed: int | None = None,
) -> RerunReport:
    """Decide the recorded orders again under ``ruling`` (none: as recorded) with the recorded
    dice stream, and compare every event with the record (a fact of an older topic version in
    its upcast form). ``seed``: the revealed seed of a game whose header commits to it.

    Raises:
        ScenarioError: the ruling names an unknown option, a bad value or bad data.
        UnknownTopicVersion: a recorded topic is newer than this Wake knows.
        RecordError, UnknownRuleset: the record cannot be re-run at all.
    """
    ruling = ruling or Ruling()
    # a ruling's line is a variation of the record: its parent (id and origin) is set before
    # the run, since sealed choices are salted from the origin; the shared prefix after it
    ruled = _ruled(original, ruling) if ruling.given else _Ruled(original, (), None)
    header = with_parent(ruled.header, original) if ruling.given else original
    recorded_facts = [upcast_fact(original.ruleset.id, fact) for fact in facts]
    orders = recorded_orders(recorded_facts)
    session = Session(header, seed=seed)
    stream = None
    if header.dice.mode == "physical":
        stream = _FaceStream(
            [face for _, issued in orders for face in issued.dice or []],
            [card for _, issued in orders for card in issued.cards or []],
        )
    refusal: Refusal | None = None
    for fact, issued in orders:
        envelope = CommandEnvelope(side=issued.side, command=issued.command, time=issued.time)
        dice: DiceSource | None = None
        if stream is not None and header.dice.physical_at(fact.seq - 1):  # not a seeded prefix
            dice = stream.source(session.state.dice_position)
        try:
            session.submit(envelope, dice)
        except WakeError as exc:
            refusal = Refusal(
                order=issued.index,
                seq=fact.seq,
                side=issued.side,
                command=str(issued.command.get("type", "?")),
                code=exc.code,
                rule=exc.rule or "",
                message=_one_line(exc.message),
            )
            break
    produced = session.facts
    found: Divergence | None = None
    for recorded, again in zip(recorded_facts, produced, strict=False):
        if not _same(recorded, again):
            found = divergence(session.state, recorded, again)
            break
    if found is None and refusal is None and len(facts) != len(produced):
        at = min(len(facts), len(produced))
        found = divergence(
            session.state,
            recorded_facts[at] if at < len(facts) else None,
            produced[at] if at < len(produced) else None,
        )
    try:
        recorded_end: LineEnd | None = line_end(replay(original, facts, check=False))
    except WakeError:
        recorded_end = None
    if ruling.given:  # the parent is the record at the last event before the first difference
        header, produced = as_variation(original, facts, header, produced)
    return RerunReport(
        original=original,
        header=header,
        changes=_changes(original, ruled, ruling),
        data=ruled.choices,
        facts=list(produced),
        orders=len(orders),
        divergence=found,
        refusal=refusal,
        recorded_end=recorded_end,
        rerun_end=line_end(session.state),
    )


def ruling_note(report: RerunReport, recorded_events: int) -> tuple[int, str]:
    """Where and what to keep of a ruling diff as a ``ruling`` annotation (issue 14, ``wake
    rerun --annotate``): the first event that differs (the last recorded event if the re-run
    only runs longer), else the recorded event of the first refused order, else 0 (the game:
    the ruling cannot matter in it); and the report's text without its title line."""
    if report.divergence is not None:
        event = min(report.divergence.seq, recorded_events)
    elif report.refusal is not None:
        event = report.refusal.seq
    else:
        event = 0
    return event, "\n".join(["ruling diff (wake rerun):", *report.lines()[1:]])


__all__ = [
    "Divergence",
    "FieldDiff",
    "LineEnd",
    "Refusal",
    "RerunReport",
    "Ruling",
    "divergence",
    "field_diffs",
    "merge_patch",
    "rerun",
    "rerun_header",
    "ruling_note",
]
