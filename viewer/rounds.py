"""The round (turn) an event belongs to, summed up for a person (issue 21 item 15): who acted,
how many attacks each side made and on whom, the damage each side took and its victory points
at the round's end.

Everything comes from the timeline's public series (damage, VP) and from each event's attack
lines as ``viewer`` may see them (``Ruleset.redact``); a unit is named only when it is visible
to ``viewer`` at the round's end (a face-down card stays unnamed)."""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass

from domain.links import links_of
from domain.read_model import redact_view
from viewer.timeline import Series, Timeline


@dataclass(frozen=True)
class RoundSummary:
    turn: int
    first: int  # the first event of the round
    last: int  # its last event
    lines: tuple[str, ...]


def _value_at(series: Series, name: str, seq: int) -> float:
    value = 0.0
    for at, v in series.points.get(name, []):
        if at > seq:
            break
        value = v
    return value


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def round_of(tl: Timeline, seq: int) -> tuple[int, int, int]:
    """(turn, first event, last event) of the round holding event ``seq``."""
    starts = [s for _, s in tl.turn_starts]
    i = max(0, bisect_right(starts, seq) - 1)
    turn, first = tl.turn_starts[i]
    last = starts[i + 1] - 1 if i + 1 < len(starts) else tl.length
    return turn, max(first, 1), last


def round_summary(tl: Timeline, seq: int, viewer: str | None) -> RoundSummary:
    """The summary of the round holding event ``seq``, as ``viewer`` may read it."""
    turn, first, last = round_of(tl, seq)
    end_view = redact_view(tl.view_at(last), viewer)
    visible = {u.id: u.name for u in end_view.units if not u.private}
    owner = {u.id: u.side for u in end_view.units}
    acted: dict[str, list[str]] = {s.id: [] for s in end_view.sides}
    attacks: Counter[str] = Counter()
    hit: dict[str, Counter[str]] = {s.id: Counter() for s in end_view.sides}
    hidden = viewer is not None and tl.ruleset.meta.hidden_information
    previous: set[tuple[str, str]] = set()
    infos = [tl.info(n) for n in range(first, last + 1)]
    declared = any(i is not None and "Declared" in i.kind for i in infos)
    for n in range(first, last + 1):
        info = tl.info(n)
        if info is None:
            continue
        event = tl.decoded[n - 1]
        if hidden:
            event = tl.ruleset.redact(event, viewer)
        pairs = {(ln.source, ln.target) for ln in links_of(event.model_dump(mode="json"))}
        # one attack is several events (declared, dice, resolved) naming the same pairs
        if declared:  # a ruleset that declares attacks: count the declarations
            fresh = pairs if "Declared" in info.kind else set()
        else:
            fresh = pairs if pairs != previous else set()
        if pairs:
            previous = pairs
        for source, target in sorted(fresh):
            side = owner.get(source)
            if side is None:
                continue
            attacks[side] += 1
            if target in visible:
                hit[side][visible[target]] += 1
        for unit in info.units:
            side = owner.get(unit)
            # named when its own side gave or caused this event (not when it was hit)
            named = visible.get(unit)
            if side in acted and named and info.side == side and named not in acted[side]:
                acted[side].append(named)
    lines = [f"Round {turn}: events {first}–{last}"]
    for party in end_view.sides:
        name = party.name
        damage = _value_at(tl.damage_side, name, last) - _value_at(tl.damage_side, name, first - 1)
        vp_before = _value_at(tl.vp, name, first - 1)
        vp_after = _value_at(tl.vp, name, last)
        who = ", ".join(acted[party.id][:6]) + (" …" if len(acted[party.id]) > 6 else "")
        targets = ", ".join(f"{t} ×{k}" if k > 1 else t for t, k in hit[party.id].most_common(4))
        parts = [f"{name}:"]
        parts.append(f"acted with {who}" if who else "no unit acted")
        count = attacks[party.id]
        if count:
            parts.append(
                f"{count} attack{'s' if count != 1 else ''}" + (f" on {targets}" if targets else "")
            )
        parts.append(f"took {_number(damage)} damage")
        gain = vp_after - vp_before
        parts.append(f"{_number(vp_after)} VP" + (f" ({gain:+g})" if gain else ""))
        lines.append(" ".join(parts[:1]) + " " + "; ".join(parts[1:]))
    return RoundSummary(turn, first, last, tuple(lines))
