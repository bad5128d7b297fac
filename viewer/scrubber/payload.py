"""What the scrubber sends to the browser once per game and view: every position of the game.

``build_payload(timeline, viewer)`` walks the game once and records, for each event, only what
changed in the read model (units by id, sides, turn, phase, overlays ...), plus the log line of
every event, the series of the charts, turn and phase starts and the swings. The browser folds
the deltas into one frame per event once, then every step is a lookup.

Hidden information: every frame is ``redact_view`` of the read model for ``viewer`` and every
text is ``Timeline.text(seq, viewer)`` (``Ruleset.redact``), exactly what the server-drawn viewer
showed; the units an event names (the move list's filter, the board's highlight) are read from
the redacted event. The umpire (``None``) sees everything.

Geometry is made ready to draw here (circles as rings, the inner point of each label), so the
browser needs no geometry library. ``encode`` gives the compact form sent to the component:
JSON, zlib-compressed, base64 (the browser inflates it with ``DecompressionStream``).
"""

from __future__ import annotations

import base64
import json
import zlib
from dataclasses import dataclass
from typing import Any

from domain.engine import apply_event, new_game
from domain.event_kinds import kind_name
from domain.events import CommandIssued, DiceRolled, DomainEvent
from domain.links import links_of
from domain.read_model import GameView, UnitView, redact_view
from domain.words import unit_labels
from viewer.figures import _label_point, _outline, board_height
from viewer.timeline import LUCK_MARK, Timeline, _side, _units

FORMAT = 1


@dataclass(frozen=True)
class Encoded:
    """The payload as sent: ``data`` (base64 of zlib'd JSON) and its sizes in bytes."""

    data: str
    json_bytes: int
    compressed_bytes: int


def _num(value: float) -> float | int:
    """Coordinates rounded to what a board needs (1/1000 of a board unit), ints kept short."""
    rounded = round(float(value), 3)
    return int(rounded) if rounded.is_integer() else rounded


def _geometry(geom: Any) -> dict[str, Any]:
    """A shape, feature or overlay as drawn: its outline ring and, if labelled, a label point."""
    ring = [[_num(x), _num(y)] for x, y in _outline(geom)]
    out: dict[str, Any] = {"ring": ring, "closed": bool(geom.closed or geom.is_circle)}
    label = getattr(geom, "label", "")
    if label:
        x, y = _label_point(geom)
        out["label"] = label
        out["at"] = [_num(x), _num(y)]
    return out


def _unit(unit: UnitView, labels: dict[str, str]) -> dict[str, Any]:
    """A unit as sent, with ``label``: the name its board label shows, as the Python board's
    (``unit_labels``: a number where several share a name, the seat where it has one)."""
    data = unit.model_dump(mode="json", exclude={"shapes"}, exclude_defaults=True)
    for key in ("id", "side", "name", "kind", "status", "damage", "strength"):
        data.setdefault(key, getattr(unit, key))
    if unit.id in labels:
        data["label"] = labels[unit.id]
    if unit.shapes:
        data["shapes"] = [
            {**_geometry(s), "part": s.part, "style": s.style if s.closed else "arc"}
            for s in unit.shapes
        ]
    return data


def _feature(feature: Any) -> dict[str, Any]:
    data = feature.model_dump(
        mode="json", exclude={"points", "closed", "centre", "radius"}, exclude_defaults=True
    )
    return {**data, **_geometry(feature)}


def _board(view: GameView) -> dict[str, Any]:
    board = view.board.model_dump(mode="json", exclude={"features"})
    board["features"] = [_feature(f) for f in view.board.features]
    board["height_px"] = board_height(view)
    return board


def _frame_fields(view: GameView) -> dict[str, Any]:
    """The parts of a view other than units and board, as sent."""
    return {
        "turn": view.turn,
        "phase": view.phase,
        "active": view.active_side,
        "sides": [s.model_dump(mode="json") for s in view.sides],
        "result": view.result.model_dump(mode="json") if view.result else None,
        "overlays": [_feature(o) for o in view.overlays],
    }


def _delta(old: GameView, new: GameView) -> dict[str, Any]:
    """What changed from ``old`` to ``new``: ``u`` changed or new units by id, ``order`` the
    unit ids when they changed, ``board`` and the other fields when they changed."""
    out: dict[str, Any] = {}
    before = {u.id: u for u in old.units}
    labels, old_labels = unit_labels(new.units), unit_labels(old.units)
    changed = {  # a label changes with the others' names too (a second "TIE Fighter Squadron")
        u.id: _unit(u, labels)
        for u in new.units
        if before.get(u.id) != u or labels.get(u.id) != old_labels.get(u.id)
    }
    if changed:
        out["u"] = changed
    ids = [u.id for u in new.units]
    if ids != [u.id for u in old.units]:
        out["order"] = ids
    if new.board != old.board:
        out["board"] = _board(new)
    if new.turn != old.turn:
        out["turn"] = new.turn
    if new.phase != old.phase:
        out["phase"] = new.phase
    if new.active_side != old.active_side:
        out["active"] = new.active_side
    if new.sides != old.sides:
        out["sides"] = [s.model_dump(mode="json") for s in new.sides]
    if new.result != old.result:
        out["result"] = new.result.model_dump(mode="json") if new.result else None
    if new.overlays != old.overlays:
        out["overlays"] = [_feature(o) for o in new.overlays]
    return out


def _event_fields(
    tl: Timeline, event: DomainEvent, topic: str, viewer: str | None
) -> tuple[str | None, tuple[str, ...], list[list[str]] | None]:
    """Side, units and attack lines ([attacker, target, label] each, ``domain.links``) of an
    event as ``viewer`` may see them."""
    if viewer is not None and tl.ruleset.meta.hidden_information:
        event = tl.ruleset.redact(event, viewer)
    payload = event.model_dump(mode="json")
    side = payload.get("side") if topic == CommandIssued.TOPIC else _side(payload, topic)
    units = _units(payload, tl.known_units)
    lines = [[link.source, link.target, link.label] for link in links_of(payload)]
    return (side if isinstance(side, str) else None), units, lines or None


def build_payload(tl: Timeline, viewer: str | None) -> dict[str, Any]:
    """Everything the browser needs to show any position of ``tl`` as ``viewer`` sees it."""
    state = new_game(tl.header)
    ruleset = state.ruleset
    view = redact_view(ruleset.read_model(state.rules), viewer)
    first = view
    deltas: list[dict[str, Any] | int] = []
    kinds: list[str] = []
    kind_index: dict[str, int] = {}
    events: list[list[Any]] = []
    kills: list[list[Any]] = []
    for fact, event, info in zip(tl.facts, tl.decoded, tl.events, strict=True):
        before = state
        state = apply_event(state, event, fact.digest)
        if state.rules is not before.rules:
            new = redact_view(ruleset.read_model(state.rules), viewer)
            delta = _delta(view, new)
            kills += _kills(fact.seq, view, new)
            view = new
            deltas.append(delta or 0)
        else:
            deltas.append(0)
        side, units, attack = _event_fields(tl, event, fact.topic, viewer)
        kind = kind_index.setdefault(info.kind, len(kinds))
        if kind == len(kinds):  # the kind as players read it (issue 21 item 7)
            kinds.append(kind_name(info.kind))
        events.append(
            [
                kind,
                side,
                list(units),
                tl.text(fact.seq, viewer),
                attack,
                1 if info.automatic else 0,
                info.command,
            ]
        )
    rolls = {fact.seq for fact in tl.facts if fact.topic == DiceRolled.TOPIC}
    return {
        "format": FORMAT,
        "game": tl.header.game_id,
        "viewer": viewer,
        "length": tl.length,
        "title": {"ruleset": first.ruleset_name, "scenario": first.scenario},
        "board": _board(first),
        "units": [_unit(u, unit_labels(first.units)) for u in first.units],
        "frame0": _frame_fields(first),
        "deltas": deltas,
        "kinds": kinds,
        "events": events,  # [kind index, side, units, text, attack lines, automatic, order]
        "turns": [[turn, seq] for turn, seq in tl.turn_starts],
        "phases": [[phase, seq] for phase, seq in tl.phase_starts],
        "swings": sorted(
            kills
            + [
                [s.seq, s.kind, _swing_text(tl, s.seq, s.kind, s.text, viewer, rolls)]
                for s in tl.swings
                if s.kind != "kill"
            ],
            key=lambda s: int(s[0]),
        ),
        "sides": {sid: name for sid, name in tl.side_names.items()},
        "series": {
            "dmg_side": tl.damage_side.points,
            "dmg_unit": tl.damage_unit.points,
            "vp": tl.vp.points,
            "luck": tl.luck.points,
        },
    }


def _kills(seq: int, old: GameView, new: GameView) -> list[list[Any]]:
    """Units put out of play by event ``seq``, from the views as the viewer sees them (the
    timeline's own kill swings read the whole state: a hidden card's name is not for a side)."""
    was = {u.id: u.status for u in old.units}
    labels = unit_labels(u for u in new.units if not u.private)
    return [
        [seq, "kill", f"{labels.get(u.id, u.name)} {u.status}"]
        for u in new.units
        if was.get(u.id) == "active" and u.status != "active"
    ]


def _swing_text(
    tl: Timeline, seq: int, kind: str, text: str, viewer: str | None, rolls: set[int]
) -> str:
    """A swing's caption as ``viewer`` may read it: a roll's line goes through ``tl.text``."""
    if seq not in rolls:
        return text
    line = tl.text(seq, viewer)
    if kind in ("lucky", "unlucky") and LUCK_MARK in text:
        line += text[text.rindex(LUCK_MARK) :]
    return line


def encode(payload: dict[str, Any]) -> Encoded:
    """The payload as the component receives it."""
    raw = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    packed = zlib.compress(raw, 6)
    return Encoded(base64.b64encode(packed).decode("ascii"), len(raw), len(packed))


__all__ = ["Encoded", "build_payload", "encode"]
