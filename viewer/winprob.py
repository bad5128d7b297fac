"""The win-probability graph's read model: what the scrubber draws under the board (Issue 24
item 2).

An analysis (``wake analyse``: bot rollouts from each decision point, stored beside the game or
carried in a record's ``analysis`` section) becomes, for one view of one game:

* each side's win probability over the game's events, with its 95 % Wilson interval (a point
  where a side decided, and the position its order left);
* the biggest swings marked as turning points, each with its words: the order and its decision
  and luck split ("decision −18 %", "luck −25 %: 2 rolls whose outcomes together had a 9 %
  chance; the least likely …"), or, for a swing between two analysed orders, the dice thrown
  there;
* the automatic annotations of kind ``analysis`` (:func:`domain.analysis.model.notes`) by event,
  for the move list, kept apart from people's annotations.

Who sees it: the umpire always; a side (or the public page) only once the game is over — during
a live game it would leak hidden information and advise a player (:func:`may_see`). Every number
is "win probability if both sides play as Wake's bots from here", never a truth about the
position. All text is plain (the browser escapes it for plotly); an order another side gave is
read through ``Timeline.text`` (redacted for the view), and what the bots would have ordered
instead is told only to the umpire and to the side that decided.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Final

from domain.analysis import stored
from domain.analysis.model import (
    CAVEAT,
    Analysis,
    AnalysisNote,
    AnalysisView,
    PointView,
    notes,
    read_model,
)
from domain.analysis.run import plan, recheck
from domain.distributed import InProcess
from domain.engine import Fact
from domain.events import DiceRolled
from domain.header import GameHeader
from domain.importing import RECHECK_SAMPLE
from domain.store import GameStore
from viewer.loading import LoadedGame
from viewer.scrubber.payload import build_payload
from viewer.timeline import Timeline

TITLE: Final = "Win probability if both sides play as Wake's bots from here"
TURNING_POINTS: Final = 5
"""Turning points marked at most (the biggest swings)."""
MIN_SWING: Final = 0.10
"""A swing smaller than this (for every side) is never a turning point."""
MAX_POINTS: Final = 5_000
"""Analysed points drawn at most (a longer analysis keeps its first ones; bounded payload)."""
MAX_TEXT: Final = 300
"""Characters of one line of text at most (a roll's or an order's words come from the record)."""
EVERY_WORDS: Final = {
    "order": "one per order",
    "activation": "one per activation",
    "turn": "one per turn",
}


def finished(tl: Timeline) -> bool:
    """Whether the game has ended (its result is known)."""
    return tl.final.result is not None


def may_see(viewer: str | None, game_over: bool) -> bool:
    """The umpire (``viewer`` None) always sees an analysis; a side or the public page only once
    the game is over."""
    return viewer is None or game_over


def percent(p: float) -> str:
    """``0.62`` -> ``"62 %"``."""
    return f"{p * 100:.0f} %"


def signed(delta: float) -> str:
    """``-0.18`` -> ``"−18 %"`` (a real minus sign), ``0.05`` -> ``"+5 %"``, ``0`` -> ``"±0 %"``."""
    whole = round(delta * 100)
    sign = "+" if whole > 0 else "−" if whole < 0 else "±"
    return f"{sign}{abs(whole)} %"


def _cut(text: str) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= MAX_TEXT else line[: MAX_TEXT - 1] + "…"


def _rolls(
    tl: Timeline, first: int, last: int, viewer: str | None, names: dict[str, str]
) -> str | None:
    """The dice thrown in events ``first..last`` that succeeded or failed, in players' words:
    one roll as its log line (as ``viewer`` reads it) with its chance; several as each side's
    successes against the number expected, and the least likely outcome. None without such
    rolls."""
    found: list[tuple[Fraction, int, DiceRolled]] = []
    for seq in range(max(1, first), min(last, tl.length) + 1):
        event = tl.decoded[seq - 1]
        if isinstance(event, DiceRolled) and event.success is not None:
            found.append((Fraction(event.p_outcome), seq, event))
    if not found:
        return None
    p_least, seq, _ = min(found, key=lambda f: (f[0], f[1]))
    least = f"{tl.text(seq, viewer)} ({percent(float(p_least))} chance)"
    if len(found) == 1:
        return f"1 roll: {least}"
    tally: dict[str, list[float]] = {}
    for _, _, event in found:
        who = names.get(event.roll.side or "", event.roll.side or "the table")
        row = tally.setdefault(who, [0, 0, 0.0])
        row[0] += 1
        row[1] += 1 if event.success else 0
        row[2] += float(Fraction(event.p_success)) if event.p_success else 0.0
    per_side = "; ".join(
        f"{who} {int(ok)} of {int(n)} succeeded ({expected:.1f} expected)"
        for who, (n, ok, expected) in tally.items()
    )
    return f"{len(found)} rolls: {per_side}; the least likely: {least}"


def _order_words(tl: Timeline, point: PointView, viewer: str | None) -> str:
    """The order a point evaluates, as ``viewer`` may read it: in the ruleset's words for the
    umpire, the side that gave it, or a game without hidden information; else the order's log
    line redacted for ``viewer``."""
    if viewer is None or viewer == point.side or not tl.ruleset.meta.hidden_information:
        return point.order
    return tl.text(point.decided_at + 1, viewer)


def _shown(tl: Timeline, view: AnalysisView, viewer: str | None) -> AnalysisView:
    """``view`` with each order in words ``viewer`` may read, and what the bots would have
    ordered instead only for the umpire and the side that decided."""
    points = [
        p.model_copy(
            update={
                "order": _cut(_order_words(tl, p, viewer)),
                "bot_alternative": (
                    _cut(p.bot_alternative)
                    if p.bot_alternative and viewer in (None, p.side)
                    else None
                ),
            }
        )
        for p in view.points[:MAX_POINTS]
    ]
    return view.model_copy(update={"points": points})


def _side_lines(
    sides: Sequence[str], names: dict[str, str], was: dict[str, float], now: dict[str, float]
) -> list[str]:
    return [
        f"{names.get(s, s)}: {percent(was[s])} → {percent(now[s])} ({signed(now[s] - was[s])})"
        for s in sides
    ]


def _turning_points(
    tl: Timeline, view: AnalysisView, names: dict[str, str], viewer: str | None
) -> list[dict[str, Any]]:
    """The biggest swings: a point's own (its order's decision and luck) or one between two
    analysed points (the events there, with their dice), largest first, at most
    :data:`TURNING_POINTS`, none under :data:`MIN_SWING`; returned in event order."""
    sides = view.sides
    found: list[tuple[float, dict[str, Any]]] = []
    previous: PointView | None = None
    for point in view.points:
        before = {c.side: c.p for c in point.before}
        after = {c.side: c.p for c in point.after}
        if previous is not None and previous.event < point.decided_at:
            was = {c.side: c.p for c in previous.after}
            size = max(abs(before[s] - was[s]) for s in sides)
            mover = max(sides, key=lambda s: abs(before[s] - was[s]))
            lines = [
                f"Events {previous.event + 1}–{point.decided_at}, between two analysed orders",
                *_side_lines(sides, names, was, before),
            ]
            dice = _rolls(tl, previous.event + 1, point.decided_at, viewer, names)
            if dice:
                lines.append(f"dice there: {dice}")
            found.append(
                (
                    size,
                    {
                        "event": point.decided_at,
                        "kind": "between",
                        "side": mover,
                        "p": before[mover],
                        "lines": lines,
                    },
                )
            )
        size = max(abs(after[s] - before[s]) for s in sides)
        who = names.get(point.side, point.side)
        decision = point.decision.get(point.side, 0.0)
        luck = point.luck.get(point.side, 0.0)
        lines = [
            f"Event {point.event}: {who}'s order — {point.order}",
            *_side_lines(sides, names, before, after),
            f"decision {signed(decision)} for {who}"
            + (f" (the bots would have: {point.bot_alternative})" if point.bot_alternative else ""),
        ]
        dice = _rolls(tl, point.decided_at + 1, point.event, viewer, names)
        lines.append(f"luck {signed(luck)} for {who}" + (f": {dice}" if dice else ""))
        found.append(
            (
                size,
                {
                    "event": point.event,
                    "kind": "order",
                    "side": point.side,
                    "p": after[point.side],
                    "lines": lines,
                },
            )
        )
        previous = point
    biggest = sorted((f for f in found if f[0] >= MIN_SWING), key=lambda f: (-f[0], f[1]["event"]))[
        :TURNING_POINTS
    ]
    return [
        {**mark, "swing": round(size, 4), "lines": [_cut(x) for x in mark["lines"]]}
        for size, mark in sorted(biggest, key=lambda f: f[1]["event"])
    ]


def graph_data(
    tl: Timeline, analysis: Analysis | None, viewer: str | None, source: str = ""
) -> dict[str, Any] | None:
    """The graph as the scrubber receives it (plain JSON), or None: no analysis, none with a
    complete point, or not for ``viewer`` (:func:`may_see`).

    ``series``: side id -> ``[[event, p, low, high], ...]`` in event order; ``turning``: the
    turning points (``event``, ``side``, ``p``, ``swing``, ``lines`` of plain text); ``notes``:
    event -> the automatic ``analysis`` annotations there, one line; ``about``: how it was made.
    """
    if analysis is None or not may_see(viewer, finished(tl)):
        return None
    sides = [s.id for s in tl.header.sides]
    names = {sid: tl.side_names.get(sid, sid) for sid in sides}
    view = _shown(tl, read_model(analysis, sides, tl.ruleset.describe_order), viewer)
    if not view.points:
        return None
    at: dict[int, dict[str, list[float]]] = {}
    for point in view.points:
        for seq, chances in ((point.decided_at, point.before), (point.event, point.after)):
            at.setdefault(seq, {c.side: [c.p, c.low, c.high] for c in chances})
    series = {s: [[seq, *(round(v, 4) for v in at[seq][s])] for seq in sorted(at)] for s in sides}
    turning = _turning_points(tl, view, names, viewer)
    automatic = (
        notes(view, names=names)
        + [  # a swing no order explains: the dice between
            AnalysisNote(event=mark["event"], text="turning point: " + "; ".join(mark["lines"][1:]))
            for mark in turning
            if mark["kind"] == "between"
        ]
    )
    by_event: dict[str, list[str]] = {}
    for note in sorted(automatic, key=lambda n: n.event):
        by_event.setdefault(str(note.event), []).append(_cut(note.text))
    every = EVERY_WORDS.get(view.every, view.every)
    about = (
        f"{len(view.points)} analysed points ({every}), {view.rollouts} bot games from each; "
        f"{tl.ruleset.meta.name} {view.ruleset_version}, Wake {view.wake_version}"
        + (f"; {source}" if source else "")
    )
    return {
        "title": TITLE,
        "caveat": CAVEAT,
        "about": _cut(about),
        "sides": sides,
        "series": series,
        "turning": turning,
        "notes": {seq: " | ".join(texts) for seq, texts in by_event.items()},
    }


def scrubber_payload(
    tl: Timeline,
    viewer: str | None,
    analysis: Analysis | None,
    source: str = "",
) -> dict[str, Any]:
    """What the scrubber receives for ``viewer``: the game's frames (redacted for ``viewer``
    when the ruleset hides anything) and, when ``viewer`` may see it, the graph under
    ``winprob`` (absent otherwise: a side's view of a live game carries no analysis at all)."""
    frames_for = viewer if tl.ruleset.meta.hidden_information else None
    payload = build_payload(tl, frames_for)
    graph = graph_data(tl, analysis, viewer, source)
    if graph is not None:
        payload["winprob"] = graph
    return payload


def record_analysis(
    header: GameHeader, facts: Sequence[Fact], analysis: Analysis | None
) -> tuple[Analysis | None, str]:
    """A record's analysis section as the viewer may draw it: kept when it fits the game and
    this Wake (the spec, the decision points, complete estimates: ``recheck`` without re-running
    any rollout), with words for its source; else None and the problem in one line."""
    if analysis is None:
        return None, ""
    problem = recheck(header, facts, analysis, 0, InProcess())
    if problem is not None:
        return None, f"The record's analysis is not drawn: {problem}."
    return analysis, "from the record's analysis section (its rollouts not re-run here)"


def keep_analysis(store: GameStore, game: LoadedGame) -> str | None:
    """Keep an opened record's analysis with the game just kept in ``store``, once a sample of
    its rollouts re-runs to the same counts (as ``wake import`` checks it); None when kept, else
    the problem in one line."""
    if game.analysis is None:
        return None
    problem = recheck(game.header, game.facts, game.analysis, RECHECK_SAMPLE, InProcess())
    if problem is not None:
        return problem
    stored.save_analysis(store, game.header.game_id, game.analysis)
    return None


def stored_analysis(store: GameStore, header: GameHeader, facts: Sequence[Fact]) -> Analysis | None:
    """The analysis kept beside a stored game (its complete estimates so far), or None.

    Raises:
        StoreError: the stored analysis does not read.
    """
    spec, estimates = stored.stored_spec(store, header.game_id)
    if spec is None:
        return None
    return Analysis(spec=spec, points=plan(header, facts, spec.every), estimates=estimates)


__all__ = [
    "MIN_SWING",
    "TITLE",
    "TURNING_POINTS",
    "finished",
    "graph_data",
    "keep_analysis",
    "may_see",
    "percent",
    "record_analysis",
    "scrubber_payload",
    "signed",
    "stored_analysis",
]
