"""Two versions of one event, compared field by field and shown in words (``wake rerun``,
``wake verify``, ``wake verify --rerun``, the pytest plugin and the dispute report use it).

A divergence names the event, its rule (with the ruleset's one-line summary), both versions as
the ruleset describes them, and the payload fields that differ. Values are shown as JSON (never
as Python reprs); a list that gained or lost elements shows the elements added or removed (not
two copies of the list cut at the same prefix), and two long strings are shown from where they
start to differ. Nothing here knows a rule: everything goes through the ruleset contract.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from domain.canonical import canonical_json
from domain.engine import Fact, GameState, decode
from domain.errors import WakeError

#: At most this many differing payload fields are listed for one event.
MAX_FIELDS = 8
#: Values longer than this are shortened in reports.
MAX_VALUE = 120
#: A string inside a shown element (a list's modifier, say) is cut at this length, so that the
#: element's other fields (its rule, its value) still show within ``MAX_VALUE``.
MAX_INNER = 40
#: What a field diff holds for the side an element or a key is missing from.
ABSENT = "(absent)"


@dataclass(frozen=True)
class FieldDiff:
    """One payload field that differs (``path`` like ``roll.faces[0]``); ``ABSENT`` on the side
    it is missing from (a key, or a list element added or removed)."""

    path: str
    recorded: Any
    rerun: Any


@dataclass(frozen=True)
class Divergence:
    """The first event whose content differs between the record and the re-run."""

    seq: int
    rule: str
    rule_summary: str
    recorded: Fact | None
    rerun: Fact | None
    recorded_line: str
    rerun_line: str
    fields: tuple[FieldDiff, ...]
    more_fields: int = 0

    def lines(self) -> list[str]:
        """The divergence as text: the event, both versions and the differing fields."""
        rule = self.rule or "n/a"
        if self.rule_summary:
            rule = f"{rule} ({self.rule_summary})"
        out = [
            f"event {self.seq} differs on re-run (rule {rule})",
            f"  recorded: {_version(self.recorded, self.recorded_line)}",
            f"  re-run:   {_version(self.rerun, self.rerun_line)}",
        ]
        if self.fields:
            out.append("  differing fields (recorded != re-run):")
            out.extend(f"    {show_diff(f)}" for f in self.fields)
            if self.more_fields:
                out.append(f"    ... and {self.more_fields} more")
        return out


# --- showing values ----------------------------------------------------------------------------


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _inner(value: Any) -> Any:
    """``value`` with every string inside it cut to ``MAX_INNER`` characters."""
    if isinstance(value, str):
        return _cut(value, MAX_INNER)
    if isinstance(value, Mapping):
        return {str(k): _inner(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_inner(v) for v in value]
    return value


def show_value(value: Any) -> str:
    """A value as compact JSON in one line (strings inside containers cut short; a string on
    its own in double quotes, as written)."""
    if isinstance(value, str):
        return _cut(f'"{" ".join(value.split())}"', MAX_VALUE)
    try:
        text = json.dumps(_inner(value), ensure_ascii=False, separators=(", ", ": "))
    except (TypeError, ValueError):  # not JSON (a tampered payload read loosely): as text
        text = str(value)
    return _cut(" ".join(text.split()), MAX_VALUE)


def _from_difference(a: str, b: str) -> tuple[str, str]:
    """Two long strings shown from a little before where they start to differ."""
    same = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        same += 1
    start = max(0, same - 20)
    if start == 0:
        return show_value(a), show_value(b)
    return '"...' + show_value(a[start:])[1:], '"...' + show_value(b[start:])[1:]


def show_diff(diff: FieldDiff) -> str:
    """One differing field in words: ``path: recorded != re-run``, ``path: added X`` for an
    element or key only the re-run has, ``path: removed X`` for one only the record has."""
    if isinstance(diff.recorded, str) and diff.recorded == ABSENT:
        return f"{diff.path}: added {show_value(diff.rerun)}"
    if isinstance(diff.rerun, str) and diff.rerun == ABSENT:
        return f"{diff.path}: removed {show_value(diff.recorded)}"
    if isinstance(diff.recorded, str) and isinstance(diff.rerun, str):
        recorded, rerun = _from_difference(diff.recorded, diff.rerun)
    else:
        recorded, rerun = show_value(diff.recorded), show_value(diff.rerun)
    return f"{diff.path}: {recorded} != {rerun}"


def _version(fact: Fact | None, line: str) -> str:
    if fact is None:
        return "(no such event)"
    return f"{line} [{fact.topic}]" if line else fact.topic


# --- comparing ---------------------------------------------------------------------------------


def _key(value: Any) -> bytes:
    """An element's identity for matching list elements: its canonical JSON."""
    try:
        return canonical_json(value)
    except (TypeError, ValueError):
        return repr(value).encode("utf-8")


def _list_diffs(recorded: Sequence[Any], rerun: Sequence[Any], path: str) -> list[FieldDiff]:
    """Two lists of different lengths: the elements removed and added (matched by content, so
    an element inserted at the front is one addition, not a change of every element after it);
    a run of replaced elements of the same length is compared element by element."""
    out: list[FieldDiff] = []
    matcher = SequenceMatcher(None, [_key(v) for v in recorded], [_key(v) for v in rerun])
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag == "replace" and i2 - i1 == j2 - j1:
            for i, j in zip(range(i1, i2), range(j1, j2), strict=True):
                out.extend(field_diffs(recorded[i], rerun[j], f"{path}[{j}]"))
            continue
        out.extend(FieldDiff(f"{path}[{i}]", recorded[i], ABSENT) for i in range(i1, i2))
        out.extend(FieldDiff(f"{path}[{j}]", ABSENT, rerun[j]) for j in range(j1, j2))
    return out


def field_diffs(recorded: Any, rerun: Any, path: str = "") -> list[FieldDiff]:
    """Every leaf that differs between two JSON values (lists of equal length element-wise,
    lists of different lengths as the elements added and removed)."""
    if isinstance(recorded, Mapping) and isinstance(rerun, Mapping):
        out: list[FieldDiff] = []
        for key in [*recorded, *(k for k in rerun if k not in recorded)]:
            sub = f"{path}.{key}" if path else str(key)
            if key not in recorded:
                out.append(FieldDiff(sub, ABSENT, rerun[key]))
            elif key not in rerun:
                out.append(FieldDiff(sub, recorded[key], ABSENT))
            else:
                out.extend(field_diffs(recorded[key], rerun[key], sub))
        return out
    if isinstance(recorded, list) and isinstance(rerun, list):
        if len(recorded) != len(rerun):
            return _list_diffs(recorded, rerun, path)
        out = []
        for i, (a, b) in enumerate(zip(recorded, rerun, strict=True)):
            out.extend(field_diffs(a, b, f"{path}[{i}]"))
        return out
    if recorded == rerun and type(recorded) is type(rerun):
        return []
    return [FieldDiff(path or "(value)", recorded, rerun)]


def _describe(state: GameState, fact: Fact | None) -> tuple[str, str]:
    """(one-line description, rule) of a fact; empty when it cannot be decoded."""
    if fact is None:
        return "", ""
    try:
        event = decode(state, fact)
    except WakeError:
        return "", ""
    try:
        line = state.ruleset.describe(event)
    except Exception:  # a tampered payload may break a ruleset's describe; the diff still shows
        line = ""
    return line, event.rule_id()


def divergence(state: GameState, recorded: Fact | None, rerun: Fact | None) -> Divergence:
    """Describe two versions of one event (either may be missing)."""
    seq = recorded.seq if recorded is not None else rerun.seq if rerun is not None else 0
    recorded_line, recorded_rule = _describe(state, recorded)
    rerun_line, rerun_rule = _describe(state, rerun)
    rule = rerun_rule or recorded_rule
    fields: list[FieldDiff] = []
    if recorded is not None and rerun is not None:
        if recorded.topic != rerun.topic:
            fields.append(FieldDiff("topic", recorded.topic, rerun.topic))
        if recorded.automatic != rerun.automatic:
            fields.append(FieldDiff("automatic", recorded.automatic, rerun.automatic))
        if recorded.command != rerun.command:
            fields.append(FieldDiff("command", recorded.command, rerun.command))
        if recorded.topic == rerun.topic:
            fields.extend(field_diffs(recorded.payload, rerun.payload))
    summary = state.ruleset.rule_summary(rule) if rule else ""
    return Divergence(
        seq=seq,
        rule=rule,
        rule_summary=summary,
        recorded=recorded,
        rerun=rerun,
        recorded_line=recorded_line,
        rerun_line=rerun_line,
        fields=tuple(fields[:MAX_FIELDS]),
        more_fields=max(0, len(fields) - MAX_FIELDS),
    )
