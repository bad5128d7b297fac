"""Who acted on whom in one event: the lines a viewer draws from an attacker to each target.

An event's payload names its actor under one of a few field names (``attacker``, ``firer``,
``ship``, ``subject``, ``source``) and its targets under ``target`` or ``defender`` (one unit)
or ``targets`` (several: a SHIPS line weapon hits up to three vanguards). This module reads
those fields generically, so every bundled ruleset and a third-party one that uses the same
names gets its attack lines; a ruleset whose events name them otherwise can override
``Ruleset.links``.

Each link carries a short label in players' words: the range (a band such as ``long``, or a
measured distance), and the result when the event has one (hit or miss, damage).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

ACTOR_FIELDS = ("attacker", "firer", "ship", "subject", "source")
TARGET_FIELDS = ("target", "targets", "defender")


@dataclass(frozen=True)
class Link:
    """A line from ``source`` to ``target`` (unit ids), labelled for a person."""

    source: str
    target: str
    label: str = ""


def _targets(payload: Mapping[str, Any]) -> list[str]:
    found: list[str] = []
    for key in TARGET_FIELDS:
        value = payload.get(key)
        if isinstance(value, str) and value:
            found.append(value)
        elif isinstance(value, list):
            found += [v for v in value if isinstance(v, str) and v]
    return list(dict.fromkeys(found))


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _range_words(payload: Mapping[str, Any]) -> str:
    band = next(
        (payload[k] for k in ("range", "segment", "band") if isinstance(payload.get(k), str)), None
    )
    distance = payload.get("distance")
    parts = []
    if band:
        parts.append(f"{str(band).replace('_', ' ')} range")
    if isinstance(distance, (int, float)) and not isinstance(distance, bool):
        reach = payload.get("range")
        if isinstance(reach, (int, float)) and not isinstance(reach, bool):
            parts.append(f"distance {_number(distance)} (gun range {_number(reach)})")
        elif band:  # a band's distance is a band too (Armada's distance 1-5)
            parts.append(f"distance band {_number(distance)}")
        else:
            parts.append(f"distance {_number(distance)}")
    if payload.get("obstructed") is True:
        parts.append("obstructed")
    return ", ".join(parts)


def _result_words(payload: Mapping[str, Any]) -> str:
    hit = payload.get("hit")
    damage = next(
        (
            payload[k]
            for k in ("damage", "hits", "target_hits", "total")
            if isinstance(payload.get(k), int) and not isinstance(payload.get(k), bool)
        ),
        None,
    )
    words = []
    if isinstance(hit, bool):
        words.append("hit" if hit else "miss")
    if damage is not None:
        words.append(f"{damage} damage")
    if payload.get("sunk") is True or payload.get("destroyed") is True:
        words.append("sunk")
    if payload.get("captured") is True:
        words.append("captured")
    outcome = payload.get("outcome")
    if not words and isinstance(outcome, str) and outcome:
        words.append(outcome)
    return ", ".join(words)


def links_of(payload: Mapping[str, Any]) -> list[Link]:
    """The attack lines of one event's (redacted) payload; none when it names no actor or no
    target other than the actor itself."""
    actor = next(
        (payload[k] for k in ACTOR_FIELDS if isinstance(payload.get(k), str) and payload.get(k)),
        None,
    )
    if actor is None:
        return []
    targets = [t for t in _targets(payload) if t != actor]
    if not targets:
        return []
    label = "; ".join(p for p in (_range_words(payload), _result_words(payload)) if p)
    return [Link(str(actor), t, label) for t in targets]
