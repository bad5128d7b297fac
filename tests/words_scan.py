"""Issue 21 item 7: a scan of every text a person reads in the viewer, for Python's words.

For one bundled game and one view (the umpire's, ``None``, or a side's), :func:`scan_game`
walks every event and collects each text the viewer shows: the move list's rows and its Kind
filter (the scrubber's payload), the attack lines' labels, the "This round" panel at each
round, the explain panel's text of every event
(:func:`domain.explain.explanation_lines`, whose pieces the panel shows), the hover of every
unit whose view changed (:func:`viewer.figures._hover`), the game summary and, for a few
events, the dispute report's visible text. :func:`problems` names what must never be in them:

* a Python repr: ``[]``, ``['``, ``{'``, ``None``, ``True``, ``False``;
* a written-out digest: 40 or more hex digits;
* an event's stored topic (``wake.DiceRolled/1``) where its kind in words belongs;
* a float written with three decimals or more (``move to 353.474, 355.403``; issue 21: a
  person measures to a millimetre or a tenth of a centimetre, a position in whole numbers);
* a unit's internal id where the view already gives it a display name (``graf_spee`` for
  "Admiral Graf Spee", ``P1-b3-V1`` for a Kongo-class cruiser).

The names a view knows are read from the read models as that view sees them
(``redact_view``): a side's text is never checked against a name it may not know.

For the lines a command prints (``wake log``, ``wake show``), :func:`game_ids` reads the ids a
person must not read from the game's own data and :func:`log_problems` checks each line. A side
id written in capitals (SHIPS' seats ``P1``..``P6``, Iron & Oak's ``USA`` and ``CSA``) is the
players' own name for that seat (the rules write "Bombshell (CSA)", IO-9.2; SHIPS seats its
players round a table, ST-0) and reads as it is, as in the viewer's move list.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from domain.engine import apply_event, new_game, replay
from domain.explain import explain_event, explanation_lines
from domain.read_model import GameView, UnitView, redact_view
from domain.record import read_record_file
from domain.words import SNAKE_ID
from viewer.figures import _hover, view_names
from viewer.report import ReportRequest, build_report
from viewer.rounds import round_summary
from viewer.scrubber import build_payload
from viewer.timeline import Timeline

REPR = {
    "empty list []": re.compile(r"\[\]"),
    "list repr ['": re.compile(r"\['"),
    "dict repr {'": re.compile(r"\{'"),
    "None": re.compile(r"\bNone\b"),
    "True": re.compile(r"\bTrue\b"),
    "False": re.compile(r"\bFalse\b"),
    "hex digest": re.compile(r"\b[0-9a-f]{40,}\b"),
    "float with 3+ decimals": re.compile(r"(?<![\w.])\d+\.\d{3,}\b"),
    "event topic": re.compile(r"\b[a-z_]+(?:\.[a-z_]+)*\.[A-Z][A-Za-z]+/\d+\b"),
}
QUOTED_ID = re.compile(r"(?<!\w)'[\w-]+'(?!\w)")
"""An id written as Python quotes a string (``'victory'``)."""
REPORT_EVENTS = 3
"""Events per game and view whose dispute report is scanned (a report embeds a board)."""


@dataclass
class Scan:
    """What one scan read: how many texts, and each problem found (where, what, the text)."""

    texts: int = 0
    problems: list[tuple[str, str, str]] = field(default_factory=list)

    def check(self, where: str, text: str, named: dict[str, str]) -> None:
        self.texts += 1
        for what in problems(text, named):
            self.problems.append((where, what, text[:300]))


def id_pattern(unit_id: str) -> re.Pattern[str]:
    """``unit_id`` standing as a token of its own (not inside a longer id or a word)."""
    return re.compile(r"(?<![\w./-])" + re.escape(unit_id) + r"(?![\w/-])")


LOWER_CODE = re.compile(r"[a-z0-9_.-]+")
"""A name written as a code (``merchant_01``, ``s1``, ``hood``): no capital, no space."""


def id_like_name(unit_id: str, name: str) -> bool:
    """Whether ``name``, a unit's display name, is an id rather than a name a player says:
    the unit's own id, or a lower-case code. :func:`problems` cannot see such a name (an id
    equal to its name is not looked for), so the scenarios' data is checked for it."""
    return name == unit_id or LOWER_CODE.fullmatch(name) is not None


_PATTERNS: dict[str, re.Pattern[str]] = {}


def problems(text: str, named: dict[str, str]) -> list[str]:
    """What is wrong with ``text``: each repr pattern it holds, and each unit id of ``named``
    (id -> display name, the names its reader knows) written as the id."""
    found = [what for what, pattern in REPR.items() if pattern.search(text)]
    for unit_id, name in named.items():
        if unit_id == name or unit_id not in text:
            continue
        pattern = _PATTERNS.setdefault(unit_id, id_pattern(unit_id))
        if pattern.search(text):
            found.append(f"unit id {unit_id} (named {name})")
    return found


class _Visible(HTMLParser):
    """The text of an HTML page a person sees: no scripts, no styles."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.parts.append(data.strip())


def visible_text(page: str) -> list[str]:
    parser = _Visible()
    parser.feed(page)
    return parser.parts


def _named_units(view: GameView) -> dict[str, str]:
    return {u.id: u.name for u in view.units if u.name and u.name != "hidden"}


def game_views(tl: Timeline) -> dict[int, GameView]:
    """Event -> the read model after it (the umpire's), at the start and at each change: built
    once per game, redacted for each view."""
    return dict(_views(tl))


def _views(tl: Timeline) -> Iterator[tuple[int, GameView]]:
    state = new_game(tl.header)
    ruleset = state.ruleset
    yield 0, ruleset.read_model(state.rules)
    for fact, event in zip(tl.facts, tl.decoded, strict=True):
        before = state
        state = apply_event(state, event, fact.digest)
        if state.rules is not before.rules:
            yield fact.seq, ruleset.read_model(state.rules)


def scan_game(
    path: Path,
    viewer: str | None,
    tl: Timeline | None = None,
    views: dict[int, GameView] | None = None,
) -> Scan:
    """Every text of the game at ``path`` as ``viewer`` reads it, checked (see the module);
    ``views``: :func:`game_views` of the game, when already built."""
    if tl is None:
        record = read_record_file(path)
        tl = Timeline(record.header, record.events)
    if views is None:
        views = game_views(tl)
    scan = Scan()
    who = viewer or "umpire"
    # the names this view knows after each event: every unit seen named so far
    known: dict[str, str] = {}
    named_at: list[dict[str, str]] = []
    side_names = {s.id: s.name for s in tl.first_view.sides}
    previous: dict[str, UnitView] = {}
    changes = {seq: redact_view(view, viewer) for seq, view in views.items()}
    for seq in range(tl.length + 1):
        view = changes.get(seq)
        if view is not None:
            known = {**known, **_named_units(view)}
            hover_names = view_names(view)
            for unit in view.units:
                if previous.get(unit.id) != unit:
                    side = side_names.get(unit.side, unit.side)
                    hover = _hover(unit, side, "", hover_names)
                    # the kind line is the ruleset's category word (Iron & Oak's "monitor" is
                    # a kind of ship before it is the USS Monitor's id)
                    hover = re.sub(r"<br>kind: [^<]*", "", hover)
                    scan.check(f"{who} hover of {unit.id} at {seq}", hover, known)
                    previous[unit.id] = unit
        named_at.append(known)
    payload = build_payload(tl, viewer)
    for kind in payload["kinds"]:
        scan.check(f"{who} kind filter", kind, {})
    for seq, row in enumerate(payload["events"], start=1):
        scan.check(f"{who} move list {seq}", row[3], named_at[seq])
        for line in row[4] or []:  # an attack's line on the board: its label
            scan.check(f"{who} attack label {seq}", str(line[2]), named_at[seq])
    for _turn, start in tl.turn_starts:  # the "This round" panel
        text = "\n".join(round_summary(tl, max(start, 1), viewer).lines)
        scan.check(f"{who} round at {start}", text, named_at[max(start, 1)])
    state = new_game(tl.header)
    for i, (fact, event) in enumerate(zip(tl.facts, tl.decoded, strict=True)):
        # the names the viewer's explain panel passes (``Timeline.names_at``); the report
        # below reads explain_event's own (``event_names``)
        names = tl.names_at(fact.seq, viewer)
        lines = explanation_lines(explain_event(state, tl.facts, i, viewer, names, tl.state_at))
        lines += tl.sealed_lines(fact.seq, viewer)
        scan.check(f"{who} explain {fact.seq}", "\n".join(lines), named_at[fact.seq])
        state = apply_event(state, event, fact.digest)
    scan.check(f"{who} summary", "\n".join(tl.summary(viewer=viewer)), named_at[-1])
    for seq in _report_events(tl):
        page = build_report(tl.header, tl.facts, ReportRequest(event=seq, viewer=viewer))
        for text in visible_text(page):
            scan.check(f"{who} report {seq}", text, named_at[seq])
    return scan


def _report_events(tl: Timeline) -> list[int]:
    """A roll, an attack and the last event: the reports a dispute asks for most."""
    picks: list[int] = []
    for wanted in ("DiceRolled", "AttackDeclared"):
        seq = next((e.seq for e in tl.events if e.kind == wanted), None)
        if seq is not None:
            picks.append(seq)
    picks.append(tl.length)
    return sorted(set(picks))[:REPORT_EVENTS]


# --- lines of text a command prints (``wake log``, ``wake show``) -------------------------


def _named(data: Any) -> Iterator[tuple[str, str]]:
    """Every ``(id, name)`` of an object in ``data`` that has both."""
    if isinstance(data, Mapping):
        ident, name = data.get("id"), data.get("name")
        if isinstance(ident, str) and isinstance(name, str):
            yield ident, name
        for value in data.values():
            yield from _named(value)
    elif isinstance(data, list):
        for value in data:
            yield from _named(value)


def game_ids(path: Path) -> dict[str, str]:
    """The ids of ``path``'s game that a person must not read (id -> its display name): each
    named object of its scenario and data, each unit of its read models at the start and the
    end, less the seats named in capitals (see the module). Shared by the scans of ``wake log``
    (``tests/test_log_words.py``) and ``wake show`` (``tests/test_show_words.py``)."""
    record = read_record_file(path)
    header = record.header
    ids = dict(_named(header.model_dump(mode="json")["scenario"]))
    for state in (new_game(header), replay(header, record.events, check=False)):
        view = state.ruleset.read_model(state.rules)
        ids |= {u.id: u.name for u in view.units if u.name and u.name != "hidden"}
        ids |= {s.id: s.name for s in view.sides}
    seats = {s.id for s in header.sides if s.id.isupper()}
    return {i: n for i, n in ids.items() if i != n and i not in seats}


def log_problems(lines: list[str], ids: Mapping[str, str]) -> list[str]:
    """Each problem of printed ``lines`` (a log's, a table's) (:func:`problems`: reprs, digests; a
    ``snake_case`` word; a quoted id; an id of ``ids`` as a whole word), with its line."""
    found: list[str] = []
    patterns = {i: id_pattern(i) for i in ids}
    names = sorted(set(ids.values()), key=len, reverse=True)
    written = re.compile("|".join(re.escape(n) for n in names)) if names else None
    for line in lines:
        what = problems(line, {})
        what += [f"snake_case {m.group(1)}" for m in SNAKE_ID.finditer(line)]
        what += [f"quoted id {m.group(0)}" for m in QUOTED_ID.finditer(line)]
        # an id inside a name written out is the name (the side ``escort`` in "Convoy escort")
        bare = written.sub("\x00", line) if written else line
        what += [
            f"id {i} (named {ids[i]})"
            for i, pattern in patterns.items()
            if i in bare and pattern.search(bare)
        ]
        found += [f"{w}: {line.strip()}" for w in what]
    return found
