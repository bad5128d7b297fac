"""Why did this happen? Structured explanations of events, for the CLI and the viewer.

An explanation gathers the order that caused an event, the event's rule with its one-line summary,
and every roll behind it: dice, faces, each modifier with its rule, the comparison, the outcome and
its exact odds. For a resolution event (e.g. one attack, an initiative result) the rolls are the
ones immediately before it within the same order. No rules knowledge: everything comes
from engine events and the ruleset's rule summaries.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from domain.chance import faces_text, is_pool_roll, odds_text, pool_text
from domain.engine import Fact, GameState, apply_event, decode
from domain.event_kinds import topic_words
from domain.events import CommandIssued, DiceRolled, DomainEvent, RollRecord
from domain.read_model import GameView, redact_view
from domain.ruleset import Ruleset
from domain.words import Names, unit_labels, value_text


@dataclass(frozen=True)
class ModifierLine:
    value: int
    rule: str
    reason: str
    rule_summary: str


@dataclass(frozen=True)
class RollLine:
    label: str  # "roll" or "opposed by"
    side: str | None
    expression: str
    faces: list[int]
    natural: int
    modifiers: list[ModifierLine]
    floor: int | None
    total: int
    dice: str = ""  # the dice as players see them: "red: blank, hit+hit" or "d10 rolled 7"


@dataclass(frozen=True)
class RollExplanation:
    seq: int | None
    purpose: str
    rule: str
    rule_summary: str
    subject: str | None
    target: str | None
    rolls: list[RollLine]
    comparison: str
    outcome: str
    success: bool | None
    p_success: str | None
    p_outcome: str
    value: str
    expected: str
    first_die: int
    odds: str = ""  # the odds that matter, named (``domain.chance.odds_text``)


@dataclass(frozen=True)
class CommandLine:
    index: int
    side: str | None
    command: dict[str, Any]
    dice: list[int] | None
    sentence: str = ""  # the order in words (``Ruleset.describe_order``), no secrets
    notes: tuple[str, ...] = ()  # what the order's cards do (``Ruleset.order_notes``)
    cards: list[str] | None = None  # the cards drawn at the table, entered with it (by id)


@dataclass(frozen=True)
class StepLine:
    """One event of the episode an explained event belongs to (see ``Ruleset.episode``)."""

    seq: int
    text: str
    rule: str
    rule_summary: str
    current: bool


@dataclass(frozen=True)
class Explanation:
    seq: int
    topic: str
    automatic: bool
    text: str
    rule: str
    rule_summary: str
    command: CommandLine | None
    rolls: list[RollExplanation] = field(default_factory=list)
    episode: list[StepLine] = field(default_factory=list)
    # a chance event that is not a dice roll (a shuffle, an order-card draw) states its own exact
    # odds in ``p_outcome`` and how they arise in ``odds``; shown as they are
    chance: str | None = None
    chance_note: str = ""
    # the other rolls of the same order and the event each decided (a hit and the critical it
    # led to, a critical and its table roll): read together, they are one ruling
    linked: list[str] = field(default_factory=list)
    # what the state before the event makes of it (``Ruleset.event_notes``): the range or zone
    # relation at an attack's declaration where the event does not carry it
    notes: tuple[str, ...] = ()


EPISODE_LIMIT = 400
"""Events scanned each way for the start and end of an episode."""


def event_text(
    ruleset: Ruleset[Any, Any], event: DomainEvent, before: GameView | None = None
) -> str:
    """One event in words, as the move list shows it: an order as its sentence
    (``Ruleset.describe_order``, worded on ``before``, the read model it was given on, where
    known), never as a raw dict or with a salt."""
    if isinstance(event, CommandIssued):
        who = event.side or "umpire"
        return f"order #{event.index} by {who}: {ruleset.describe_order(event.command, before)}"
    return ruleset.describe(event)


def percent(fraction_text: str | None) -> str:
    """``"7/10"`` -> ``"7/10 (70.0%)"``; ``-`` for None."""
    if fraction_text is None:
        return "-"
    return f"{fraction_text} ({float(Fraction(fraction_text)):.1%})"


def _roll_line(state: GameState, label: str, roll: RollRecord, pool: bool = False) -> RollLine:
    ruleset = state.ruleset
    shown = pool_text(roll, ruleset.custom_dice()) if pool else None
    return RollLine(
        dice=shown if shown is not None else f"{roll.expression} rolled {faces_text(roll)}",
        label=label,
        side=roll.side,
        expression=roll.expression,
        faces=list(roll.faces),
        natural=roll.natural,
        modifiers=[
            ModifierLine(m.value, m.rule, m.reason, ruleset.rule_summary(m.rule))
            for m in roll.modifiers
        ],
        floor=roll.floor,
        total=roll.total,
    )


def explain_roll(state: GameState, event: DiceRolled, seq: int | None = None) -> RollExplanation:
    """Everything about one roll."""
    pool = is_pool_roll(event)
    rolls = [_roll_line(state, "roll", event.roll, pool)]
    if pool:  # a pool is not compared with a number: its score is what it is
        comparison = f"the dice score {event.outcome}"
    elif event.opposed_by is not None:
        rolls.append(_roll_line(state, "opposed by", event.opposed_by))
        comparison = (
            f"{event.roll.total} must be strictly greater than {event.opposed_by.total} (ties fail)"
        )
    elif event.comparison == "at_least":
        comparison = (
            f"total {event.roll.total} needs at least {event.compared_with} "
            f"({event.compared_with}+)"
            if event.compared_with
            else f"total {event.roll.total}: any result does"
        )
    else:
        comparison = f"total {event.roll.total} read on the rule's table"
    return RollExplanation(
        seq=seq,
        purpose=event.purpose,
        rule=event.rule,
        rule_summary=state.ruleset.rule_summary(event.rule),
        subject=event.subject,
        target=event.target,
        rolls=rolls,
        comparison=comparison,
        outcome=event.outcome,
        success=event.success,
        p_success=event.p_success,
        p_outcome=event.p_outcome,
        value=event.value,
        expected=event.expected,
        first_die=event.first_die,
        odds=odds_text(event),
    )


def _episode_bounds(state: GameState, facts: Sequence[Fact], index: int) -> tuple[int, int] | None:
    """The first and last index of the episode holding ``facts[index]``, or None."""
    ruleset = state.ruleset

    def mark(i: int) -> str | None:
        fact = facts[i]
        if fact.topic in (CommandIssued.TOPIC, DiceRolled.TOPIC):
            return None
        return ruleset.episode(decode(state, fact))

    start = None
    for i in range(index, max(-1, index - EPISODE_LIMIT), -1):
        found = mark(i)
        if found == "begin":
            start = i
            break
        if found == "end" and i != index:
            return None
    if start is None:
        return None
    for j in range(index, min(len(facts), index + EPISODE_LIMIT)):
        if j > start and mark(j) == "begin":
            return start, j - 1
        if mark(j) == "end":
            return start, j
    return start, min(len(facts), index + EPISODE_LIMIT) - 1


def _episode(
    state: GameState, facts: Sequence[Fact], index: int, viewer: str | None = None
) -> tuple[list[StepLine], list[RollExplanation]]:
    bounds = _episode_bounds(state, facts, index)
    if bounds is None:
        return [], []
    ruleset = state.ruleset
    steps: list[StepLine] = []
    rolls: list[RollExplanation] = []
    for i in range(bounds[0], bounds[1] + 1):
        fact = facts[i]
        if fact.topic == CommandIssued.TOPIC:
            continue
        event = ruleset.redact(decode(state, fact), viewer)
        if isinstance(event, DiceRolled):
            rolls.append(explain_roll(state, event, fact.seq))
        rule = event.rule_id()
        steps.append(
            StepLine(
                seq=fact.seq,
                text=event_text(ruleset, event),
                rule=rule,
                rule_summary=ruleset.rule_summary(rule) if rule else "",
                current=i == index,
            )
        )
    return steps, rolls


def event_names(state_before: GameState, fact: Fact, viewer: str | None) -> Names:
    """The display names ``viewer`` knows around ``fact``: the ruleset's catalogue
    (``Ruleset.names``), the sides whose ids are internal, and every unit of the read models
    before and after it as ``viewer`` sees them (issue 21 item 7)."""
    ruleset = state_before.ruleset
    before = redact_view(ruleset.read_model(state_before.rules), viewer)
    after_state = apply_event(state_before, decode(state_before, fact), fact.digest)
    after = redact_view(ruleset.read_model(after_state.rules), viewer)
    units = {**unit_labels(before.units), **unit_labels(after.units)}
    sides = {s.id: s.name for s in before.sides if s.id.islower()}
    return Names({**ruleset.names(state_before.rules), **sides, **units})


def named(ex: Explanation, names: Names) -> Explanation:
    """``ex`` with every id in its texts written as its display name."""
    t = names.text

    def roll(r: RollExplanation) -> RollExplanation:
        return replace(
            r,
            subject=names.name(r.subject) if r.subject else None,
            target=names.name(r.target) if r.target else None,
            rolls=[
                replace(
                    x,
                    side=names.name(x.side) if x.side else None,
                    modifiers=[replace(m, reason=t(m.reason)) for m in x.modifiers],
                )
                for x in r.rolls
            ],
            outcome=t(r.outcome),
        )

    command = ex.command
    if command is not None:
        command = replace(
            command,
            side=names.name(command.side) if command.side else None,
            sentence=t(command.sentence),
            notes=tuple(t(n) for n in command.notes),
            cards=[names.name(c) for c in command.cards] if command.cards else command.cards,
        )
    return replace(
        ex,
        text=t(ex.text),
        command=command,
        rolls=[roll(r) for r in ex.rolls],
        episode=[replace(step, text=t(step.text)) for step in ex.episode],
        chance_note=t(ex.chance_note),
        linked=[t(line) for line in ex.linked],
        notes=tuple(t(n) for n in ex.notes),
    )


def _board_of_order(
    cause: Fact,
    fact: Fact,
    state_before: GameState,
    state_at: Callable[[int], GameState] | None,
    viewer: str | None,
) -> GameView | None:
    """The read model (as ``viewer`` sees it) of the board ``cause``, an order, was given on:
    ``state_before`` when the order is the event explained, else from ``state_at``."""
    if cause is fact:
        state = state_before
    elif state_at is not None:
        state = state_at(cause.seq - 1)
    else:
        return None
    return redact_view(state.ruleset.read_model(state.rules), viewer)


def explain_event(
    state_before: GameState,
    facts: Sequence[Fact],
    index: int,
    viewer: str | None = None,
    names: Names | None = None,
    state_at: Callable[[int], GameState] | None = None,
) -> Explanation:
    """Explain ``facts[index]`` given the state just before it. With ``viewer`` (a side), the
    order behind it and the events of its episode are shown as that side may see them
    (``Ruleset.redact``): a deal's or a scribe's draws of other players stay hidden. An event
    inside an episode (``Ruleset.episode``: an attack from declaration to end) also gets the
    episode's every event and every roll. Ids are written as the display names ``viewer``
    knows (``names``, or :func:`event_names`). ``state_at`` (the state after any earlier
    event, as ``Timeline.state_at``) gives the board the order was given on, so that the order
    reads as players say it (how far a unit moved); without it only an order explained itself
    has that board."""
    fact = facts[index]
    ruleset = state_before.ruleset
    # a side's explanation starts from what that side may see of the event itself
    event = ruleset.redact(decode(state_before, fact), viewer)
    cause = next((f for f in reversed(facts[: index + 1]) if f.topic == CommandIssued.TOPIC), None)
    command = None
    if cause is not None:
        issued = CommandIssued.model_validate(cause.payload)
        if viewer is not None:
            seen = ruleset.redact(issued, viewer)
            issued = seen if isinstance(seen, CommandIssued) else issued
        command = CommandLine(
            issued.index,
            issued.side,
            issued.command,
            issued.dice,
            ruleset.describe_order(
                issued.command, _board_of_order(cause, fact, state_before, state_at, viewer)
            ),
            tuple(ruleset.order_notes(state_before.rules, issued.command)),
            issued.cards,
        )
    rule = event.rule_id()
    rolls: list[RollExplanation] = []
    if isinstance(event, DiceRolled):
        rolls.append(explain_roll(state_before, event, fact.seq))
    else:
        # the rolls immediately before it in the same order are the ones that decided it
        for prev in reversed(facts[:index]):
            if prev.command != fact.command or prev.topic != DiceRolled.TOPIC:
                break
            roll = DiceRolled.model_validate(prev.payload)
            rolls.insert(0, explain_roll(state_before, roll, prev.seq))
    steps, episode_rolls = _episode(state_before, facts, index, viewer)
    if episode_rolls:
        rolls = episode_rolls
    chance = None if isinstance(event, DiceRolled) else getattr(event, "p_outcome", None)
    note = getattr(event, "odds", "")
    explanation = Explanation(
        seq=fact.seq,
        topic=fact.topic,
        automatic=fact.automatic,
        text=event_text(ruleset, event),
        rule=rule,
        rule_summary=ruleset.rule_summary(rule) if rule else "",
        command=command,
        rolls=rolls,
        notes=tuple(ruleset.event_notes(state_before.rules, event)),
        episode=steps,
        chance=chance if isinstance(chance, str) else None,
        chance_note=note if isinstance(note, str) else "",
        # only where dice decided something: a phase change that follows an order's attacks is
        # not explained by them
        linked=(
            _linked_rolls(state_before, facts, index, {r.seq for r in rolls}, viewer)
            if rolls
            else []
        ),
    )
    return named(explanation, names or event_names(state_before, fact, viewer))


LINKED_LIMIT = 12
"""The most linked rolls listed (an order of a big game may throw hundreds)."""


def _linked_rolls(
    state: GameState, facts: Sequence[Fact], index: int, shown: set[int | None], viewer: str | None
) -> list[str]:
    """One line per other roll of the explained event's order, nearest first, each with the
    event it decided (the first event after it that is not a roll)."""
    fact = facts[index]
    if fact.command is None:
        return []
    ruleset = state.ruleset
    same: list[int] = []
    for i in range(index - 1, -1, -1):  # back to the order itself
        if facts[i].command != fact.command:
            break
        same.append(i)
    for i in range(index + 1, len(facts)):
        if facts[i].command != fact.command:
            break
        same.append(i)
    lines: list[tuple[int, str]] = []
    for i in same:
        other = facts[i]
        if other.topic != DiceRolled.TOPIC or other.seq in shown:
            continue
        seen = ruleset.redact(decode(state, other), viewer)
        if not isinstance(seen, DiceRolled):
            continue
        decided = next((f for f in facts[i + 1 :] if f.topic != DiceRolled.TOPIC), None)
        then = ""
        if decided is not None and decided.command == fact.command:
            shown_event = ruleset.redact(decode(state, decided), viewer)
            then = f" -> event {decided.seq}: {event_text(ruleset, shown_event)}"
        lines.append((abs(i - index), f"event {other.seq}: {event_text(ruleset, seen)}{then}"))
    lines.sort(key=lambda pair: pair[0])
    return [text for _, text in lines[:LINKED_LIMIT]]


def roll_lines(line: RollLine) -> list[str]:
    """One thrown expression in words: who rolled which dice and what they show, each
    modifier with its rule, the floor and the total (the viewer, the report and the CLI)."""
    lines = [f"{line.label}: {line.side or 'no side'} rolls {line.dice or line.expression}"]
    if line.modifiers or line.floor is not None or line.total != line.natural:
        lines[0] += f" (natural {line.natural})"
    for mod in line.modifiers:
        lines.append(
            f"    {mod.value:+d} [{mod.rule}] {mod.reason} - {mod.rule_summary}".rstrip(" -")
        )
    if line.floor is not None:
        lines.append(f"    floor {line.floor}")
    lines.append(f"    total {line.total}")
    return lines


def outcome_line(roll: RollExplanation) -> str:
    """The outcome of a roll and the odds that matter, named."""
    return f"outcome: {roll.outcome}; {roll.odds or 'chance ' + percent(roll.p_outcome)}"


def command_line(command: CommandLine) -> str:
    """The order behind an event, in words, with the dice and cards entered at the table."""
    entered = [f"dice {value_text(command.dice)}"] if command.dice else []
    if command.cards:
        entered.append(f"cards drawn {', '.join(command.cards)}")
    dice = f" with {' and '.join(entered)}" if entered else ""
    sentence = command.sentence or value_text(command.command)
    return f"order #{command.index} from {command.side or 'umpire'}: {sentence}{dice}"


def explanation_lines(ex: Explanation) -> list[str]:
    """Plain-text form (the CLI's ``wake explain``)."""
    lines = [
        f"event {ex.seq}: {ex.text}",
        f"  kind: {topic_words(ex.topic)}{' (automatic)' if ex.automatic else ''}",
    ]
    lines.extend(f"  {note}" for note in ex.notes)
    if ex.rule:
        lines.append(f"  rule {ex.rule}: {ex.rule_summary}")
    if ex.command is not None:
        lines.append(f"  caused by {command_line(ex.command)}")
        for note in ex.command.notes:
            lines.append(f"    {note}")
    if ex.episode:
        lines.append("")
        lines.append(f"  the whole episode ({len(ex.episode)} events):")
        for step in ex.episode:
            mark = ">" if step.current else " "
            rule = f" [{step.rule}]" if step.rule and f"[{step.rule}" not in step.text else ""
            lines.append(f"  {mark} {step.seq}: {step.text}{rule}")
    if ex.chance is not None:
        note = f" ({ex.chance_note})" if ex.chance_note else ""
        lines.append(f"  chance of this outcome: {percent(ex.chance)}{note}")
    if ex.linked:
        lines.append("")
        lines.append("  other rolls of this order (and the event each decided):")
        lines.extend(f"    {text}" for text in ex.linked)
    for roll in ex.rolls:
        lines.append("")
        where = f" (event {roll.seq})" if roll.seq is not None else ""
        lines.append(f"{roll.purpose} [{roll.rule}]{where} {roll.rule_summary}")
        if roll.subject or roll.target:
            lines.append(f"  {roll.subject or 'no unit'} -> {roll.target or 'no target'}")
        for line in roll.rolls:
            lines.extend(f"  {text}" for text in roll_lines(line))
        lines.append(f"  comparison: {roll.comparison}")
        lines.append(f"  {outcome_line(roll)}")
        lines.append(f"  value {roll.value} against an expected {roll.expected}")
        lines.append(f"  dice #{roll.first_die} onwards of this game")
    return lines
