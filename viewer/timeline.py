"""A game's timeline for the viewer: per-event index, checkpoints, series and swing moments.

Built once per game in one pass over its facts (cached by the app). The state at any event is
folded forward from the nearest checkpoint, so its cost does not grow with the game's length.
Everything here is generic: it reads engine events (``DiceRolled``, ``CommandIssued``), the read
models and a few payload conventions (fields ``side``, ``unit``, ``attacker``, ``target``,
``subject`` name sides and units), never a ruleset's rules.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from domain.engine import Fact, GameState, apply_event, decode, fold, new_game
from domain.event_kinds import topic_kind
from domain.events import CommandIssued, DiceRolled
from domain.header import GameHeader
from domain.move_list import MoveList
from domain.read_model import GameView
from domain.reveals import SealedIndex
from domain.words import Names, unit_labels

CHECKPOINT_EVERY = 100
LUCK_MARK = " (a chance of "
"""How a lucky or unlucky swing's caption gives the chance of what happened."""
ACTOR_FIELDS = ("unit", "attacker", "firer", "ship", "target", "subject")
UNIT_FIELDS = (
    "unit",
    "attacker",
    "firer",
    "ship",
    "target",
    "subject",
    "defender",
    "targets",
    "ships",
    "units",
    "squadron",
    "squadrons",
    "victim",
    "lost",
    "destroyed",
    "hit",
)
"""Payload fields that name units: the actor, and the units an event acts on (targets,
defenders, units damaged or lost), so the move list's unit filter finds an attack under its
target too (issue 21 item 5). A list or a mapping keyed by unit id counts each unit."""


@dataclass(frozen=True)
class EventInfo:
    """One row of the log."""

    seq: int
    command: int | None
    topic: str
    kind: str  # short name, e.g. "DiceRolled"
    automatic: bool
    side: str | None
    units: tuple[str, ...]
    turn: int
    phase: str
    text: str


@dataclass(frozen=True)
class Swing:
    seq: int
    kind: str  # "kill", "critical", "lucky", "unlucky"
    text: str


@dataclass
class Series:
    """Step series: name -> [(event seq, value)], a point only where the value changes."""

    points: dict[str, list[tuple[int, float]]] = field(default_factory=dict)

    def add(self, name: str, seq: int, value: float) -> None:
        pts = self.points.setdefault(name, [])
        if not pts or pts[-1][1] != value:
            pts.append((seq, value))


def _ids(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple):
        return [v for v in value if isinstance(v, str)]
    if isinstance(value, dict):
        return [k for k in value if isinstance(k, str)]
    return []


def _units(payload: dict[str, Any], known: Any = None) -> tuple[str, ...]:
    """The units an event names: the actor first, then the units it acts on. A field of
    :data:`ACTOR_FIELDS` names a unit when it holds text; any other field of
    :data:`UNIT_FIELDS` (a list, a mapping by id) only for the ids in ``known``."""
    found = [payload[k] for k in ACTOR_FIELDS if isinstance(payload.get(k), str)]
    if known is not None:
        found += [u for k in UNIT_FIELDS for u in _ids(payload.get(k)) if u in known]
    return tuple(dict.fromkeys(found))


def _side(payload: dict[str, Any], topic: str) -> str | None:
    if topic == DiceRolled.TOPIC:
        side = payload["roll"].get("side")
        return side if isinstance(side, str) else None
    side = payload.get("side")
    if side is None:  # multiplayer rulesets name their sides players
        side = payload.get("player")
    return side if isinstance(side, str) else None


class Timeline:
    """Index of one game: built once, then cheap to query at any event."""

    def __init__(
        self, header: GameHeader, facts: Sequence[Fact], checkpoint_every: int = CHECKPOINT_EVERY
    ) -> None:
        self.header = header
        self.facts = list(facts)
        self.every = checkpoint_every
        state = new_game(header)
        self.ruleset = state.ruleset
        self._checkpoints: list[GameState] = [state]
        self.events: list[EventInfo] = []
        self.damage_unit = Series()
        self.damage_side = Series()
        self.vp = Series()
        self.luck = Series()
        self.swings: list[Swing] = []
        self.turn_starts: list[tuple[int, int]] = []
        self.phase_starts: list[tuple[str, int]] = []
        view = self.ruleset.read_model(state.rules)
        self.first_view = view
        self.unit_names = {u.id: u.name for u in view.units}
        self.unit_side = {u.id: u.side for u in view.units}
        self.side_names = {s.id: s.name for s in view.sides}
        # each event's text in players' words (issue 21 item 7), the same as ``wake log``'s
        self.moves = MoveList(state, view)
        self.decoded = self.moves.decoded  # for per-side texts of hidden information
        self.known_units = self.moves.known_units
        self._record_series(0, view)
        self.turn_starts.append((view.turn, 0))
        self.phase_starts.append((view.phase, 0))
        luck = {s.id: Fraction(0) for s in view.sides}
        rolls: list[tuple[Fraction, bool, int, str]] = []
        for fact in self.facts:
            before = state
            board = view  # the read model the event happens on (an order is worded on it)
            event = decode(before, fact)
            state = apply_event(state, event, fact.digest)
            if state.rules is not before.rules:
                new_view = self.ruleset.read_model(state.rules)
                self._record_changes(fact.seq, view, new_view)
                view = new_view
            if fact.seq % self.every == 0:
                self._checkpoints.append(state)
            payload = fact.payload
            text = self.moves.add(fact, before, event, board, view if view is not board else None)
            side = _side(payload, fact.topic)
            if fact.topic == CommandIssued.TOPIC:
                side = payload.get("side")
            self.events.append(
                EventInfo(
                    seq=fact.seq,
                    command=fact.command,
                    topic=fact.topic,
                    kind=topic_kind(fact.topic),
                    automatic=fact.automatic,
                    side=side,
                    units=_units(payload, self.known_units),
                    turn=view.turn,
                    phase=view.phase,
                    text=text,
                )
            )
            if payload.get("critical") is True or (
                payload.get("face_up") is True and "Damage" in fact.topic
            ):  # a critical effect that is not a roll (Armada's face-up damage card, SWA-DMG)
                self.swings.append(Swing(fact.seq, "critical", text))
            if isinstance(event, DiceRolled):
                delta = Fraction(event.value) - Fraction(event.expected)
                # an opposed roll's luck for one side is the other side's bad luck
                opponent = event.opposed_by.side if event.opposed_by else None
                for s, d in ((event.roll.side, delta), (opponent, -delta)):
                    if s is not None and s in luck and d:
                        luck[s] += d
                        self.luck.add(self.side_names.get(s, s), fact.seq, float(luck[s]))
                if "critical" in event.outcome or event.purpose == "critical":
                    self.swings.append(Swing(fact.seq, "critical", text))
                if event.success is not None:
                    rolls.append((Fraction(event.p_outcome), event.success, fact.seq, text))
        self.last_view = view
        self.final = state
        # sealed choices and their reveals, for the umpire only (``Ruleset.sealed_items``)
        self.moves.finish()
        self.sealed: SealedIndex = self.moves.sealed
        self._add_luck_swings(rolls)
        self.swings.sort(key=lambda s: s.seq)
        end = len(self.facts)
        for name_series in (self.damage_unit, self.damage_side, self.vp, self.luck):
            for pts in name_series.points.values():
                if pts and pts[-1][0] < end:
                    pts.append((end, pts[-1][1]))

    # --- building --------------------------------------------------------------------------

    def names_at(self, seq: int, viewer: str | None) -> Names:
        """The display names ``viewer`` knows after event ``seq`` (``None``: the umpire)."""
        return self.moves.names_at(seq, viewer)

    def _record_series(self, seq: int, view: GameView) -> None:
        per_side: dict[str, float] = {s.id: 0.0 for s in view.sides}
        # one line per unit, named so that six TIE squadrons stay six (issue 21 item 7)
        labels = unit_labels(u for u in view.units if not u.private)
        for unit in view.units:
            if unit.private:  # hidden cards: never damaged, and their names are secret
                continue
            self.damage_unit.add(labels.get(unit.id, unit.name), seq, float(unit.damage))
            per_side[unit.side] = per_side.get(unit.side, 0.0) + unit.damage
        for side in view.sides:
            self.damage_side.add(side.name, seq, per_side.get(side.id, 0.0))
            self.vp.add(side.name, seq, float(side.vp))

    def _record_changes(self, seq: int, old: GameView, new: GameView) -> None:
        self._record_series(seq, new)
        if new.turn != old.turn:
            self.turn_starts.append((new.turn, seq))
        if new.phase != old.phase or new.turn != old.turn:
            self.phase_starts.append((new.phase, seq))
        was = {u.id: u.status for u in old.units}
        labels = unit_labels(u for u in new.units if not u.private)
        for unit in new.units:
            if unit.private:  # a hidden card: its name is secret, and it is never destroyed
                continue
            if was.get(unit.id) == "active" and unit.status != "active":
                name = labels.get(unit.id, unit.name)
                self.swings.append(Swing(seq, "kill", f"{name} {unit.status}"))

    def _add_luck_swings(self, rolls: list[tuple[Fraction, bool, int, str]], top: int = 5) -> None:
        """The luckiest (least likely successes) and unluckiest (least likely failures) rolls."""
        lucky = sorted((r for r in rolls if r[1]), key=lambda r: (r[0], r[2]))[:top]
        unlucky = sorted((r for r in rolls if not r[1]), key=lambda r: (r[0], r[2]))[:top]
        self.swings += [
            Swing(seq, "lucky", f"{text}{LUCK_MARK}{float(p):.0%})") for p, _, seq, text in lucky
        ]
        self.swings += [
            Swing(seq, "unlucky", f"{text}{LUCK_MARK}{float(p):.0%})")
            for p, _, seq, text in unlucky
        ]

    # --- queries ---------------------------------------------------------------------------

    @property
    def length(self) -> int:
        return len(self.facts)

    def state_at(self, seq: int) -> GameState:
        """State after event ``seq`` (0 = start): folded from the nearest checkpoint."""
        seq = max(0, min(seq, self.length))
        base = self._checkpoints[min(seq // self.every, len(self._checkpoints) - 1)]
        return fold(base, (fact.__dict__ for fact in self.facts[base.seq : seq]), check=False)

    @lru_cache(maxsize=256)  # noqa: B019 - one Timeline per game, cached by the app
    def view_at(self, seq: int) -> GameView:
        state = self.state_at(seq)
        return state.ruleset.read_model(state.rules)

    def info(self, seq: int) -> EventInfo | None:
        return self.events[seq - 1] if 1 <= seq <= self.length else None

    def turn_of(self, seq: int) -> int:
        info = self.info(seq)
        return info.turn if info else self.first_view.turn

    def next_turn_start(self, seq: int) -> int:
        starts = [s for _, s in self.turn_starts]
        i = bisect.bisect_right(starts, seq)
        return starts[i] if i < len(starts) else self.length

    def prev_turn_start(self, seq: int) -> int:
        starts = [s for _, s in self.turn_starts]
        i = bisect.bisect_left(starts, seq)
        return starts[i - 1] if i > 0 else 0

    def text(self, seq: int, viewer: str | None) -> str:
        """Event ``seq``'s log line as ``viewer`` may read it (``None``: the umpire sees all;
        a side sees hidden information only once revealed): ``MoveList.text``."""
        return self.moves.text(seq, viewer)

    def sealed_lines(self, seq: int, viewer: str | None) -> list[str]:
        """For the explanation of event ``seq``: the sealed choices behind it as ``viewer``
        may read them (``MoveList.sealed_lines``)."""
        return self.moves.sealed_lines(seq, viewer)

    def next_swing(self, seq: int) -> Swing | None:
        return next((s for s in self.swings if s.seq > seq), None)

    def prev_swing(self, seq: int) -> Swing | None:
        return next((s for s in reversed(self.swings) if s.seq < seq), None)

    def summary(self, moments: int = 6, viewer: str | None = None) -> list[str]:
        """A short plain-text summary: the result, each side's losses, final VP and luck (the
        actual minus the expected outcome of its rolls), and the key moments (kills first, then
        the least likely rolls), each with its event number; the moments' texts as ``viewer``
        may read them (``Timeline.text``)."""
        lines = [f"Result: {self.result_text()}"]
        final = self.last_view
        for side in final.sides:
            units = [u for u in final.units if u.side == side.id and not u.private]
            lost = [u for u in units if u.status != "active"]
            luck_pts = self.luck.points.get(side.name, [])
            luck = luck_pts[-1][1] if luck_pts else 0.0
            lines.append(
                f"{side.name}: {len(lost)} of {len(units)} units lost, {side.vp} VP, "
                f"luck {luck:+.2f} against expectation"
            )
        kills = [s for s in self.swings if s.kind == "kill"]
        rolls = [s for s in self.swings if s.kind != "kill"]
        luckiest = rolls[: max(2, moments - len(kills))]  # the most unlikely rolls, always some
        chosen = sorted([*kills[: moments - len(luckiest)], *luckiest], key=lambda s: s.seq)
        if chosen:
            lines.append("Key moments:")
            lines += [f"  event {s.seq} ({s.kind}): {self._swing_text(s, viewer)}" for s in chosen]
        return lines

    def _swing_text(self, swing: Swing, viewer: str | None) -> str:
        """A swing's caption as ``viewer`` may read it: a roll's log line redacted for that
        view (its odds kept); a kill names a unit every side sees."""
        if swing.kind == "kill" or viewer is None or not self.ruleset.meta.hidden_information:
            return swing.text
        odds = swing.text[swing.text.rfind(LUCK_MARK) :] if LUCK_MARK in swing.text else ""
        return self.text(swing.seq, viewer) + odds

    def result_text(self) -> str:
        result = self.final.result
        if result is None:
            return "in progress"
        return (
            f"{self.side_names.get(result.winner or '', result.winner or 'draw')} ({result.reason})"
        )
