"""Versioned event topics (``<name>/<version>``) and upcasters bringing old payloads up to date.

Every stored fact keeps the topic and payload it was recorded with: its digest covers them, so
nothing rewrites an old log. When a ruleset changes the shape of an event it gives the event class
the next version (``morze.UnitMoved/1`` becomes ``morze.UnitMoved/2``) and declares an upcaster
for the old one: a pure function from a version-n payload to a version-n+1 payload. Decoding a
stored fact whose topic is older than the class runs the upcasters one version at a time
(v1 → v2 → v3), after the digest check, and validates the result against the current class.

A topic newer than the class is refused (``UnknownTopicVersion``, naming topic and version): the
record was made by a later ruleset, and its meaning is not guessed. Topics are looked up by name
in the registry, never imported.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Final

from domain.errors import RecordError, UnknownTopicVersion

#: An upcaster: a version-n payload in, the version-n+1 payload out. Pure: it must not change
#: its argument (the recorded payload, still covered by the digest).
Upcaster = Callable[[Mapping[str, Any]], dict[str, Any]]

_TOPIC: Final = re.compile(r"([A-Za-z_][A-Za-z0-9_.]{0,99})/([1-9][0-9]{0,5})")
# What a faulty or fooled upcaster raises on a payload it does not expect (a forged record).
_BAD_PAYLOAD = (KeyError, IndexError, TypeError, ValueError, AttributeError, ArithmeticError)


def split_topic(topic: str) -> tuple[str, int] | None:
    """``("morze.UnitMoved", 2)`` for ``"morze.UnitMoved/2"``; None for anything else (no
    version, ``/0``, a sign, leading zeros, non-ASCII digits)."""
    match = _TOPIC.fullmatch(topic) if isinstance(topic, str) else None
    return (match.group(1), int(match.group(2))) if match else None


def shown(topic: str) -> str:
    """A stored topic, shortened for a one-line message (it is untrusted text)."""
    return repr(topic if len(topic) <= 60 else topic[:57] + "...")


class Upcasters:
    """The upcasters of one registry: ``(name, from_version) -> function``, and the current
    version of every event name."""

    def __init__(self) -> None:
        self.current: dict[str, int] = {}  # event name -> version of the registered class
        self.steps: dict[tuple[str, int], Upcaster] = {}

    def add(self, old_topic: str, upcaster: Upcaster) -> None:
        """Declare ``upcaster`` for ``old_topic`` (its payload becomes the next version's).

        Raises:
            ValueError: a malformed topic, no newer class of that name, or a second upcaster.
        """
        parts = split_topic(old_topic)
        if parts is None:
            raise ValueError(f"upcaster topic {old_topic!r} is not like 'x.Name/1'")
        name, version = parts
        if self.current.get(name, 0) <= version:
            raise ValueError(
                f"upcaster for {old_topic!r}: no event class {name!r} newer than version {version}"
            )
        if (name, version) in self.steps:
            raise ValueError(f"upcaster for {old_topic!r} is declared twice")
        self.steps[(name, version)] = upcaster

    def upcast(self, topic: str, payload: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
        """The current topic of ``topic`` and the payload brought up to it.

        Raises:
            UnknownTopicVersion: the topic is newer than the registered class.
            RecordError: an unknown topic, a missing upcaster, or a payload an upcaster cannot
                take (named by topic and version).
        """
        parts = split_topic(topic)
        current = self.current.get(parts[0]) if parts else None
        if parts is None or current is None:
            raise RecordError(f"unknown event topic {shown(topic)}")
        name, version = parts
        if version > current:
            raise UnknownTopicVersion(
                f"event topic {shown(topic)} is version {version} of {name}, newer than this "
                f"Wake knows ({name}/{current}): the record was made by a later version of "
                "the ruleset"
            )
        while version < current:
            step = self.steps.get((name, version))
            if step is None:
                raise RecordError(
                    f"event topic {name}/{version} has no upcaster to {name}/{version + 1}"
                )
            try:
                payload = step(payload)
            except _BAD_PAYLOAD as exc:
                raise RecordError(
                    f"event {name}/{version} cannot be upcast to {name}/{version + 1}: "
                    f"{type(exc).__name__}: {' '.join(str(exc).split())[:120]}"
                ) from exc
            if not isinstance(payload, Mapping):
                raise RecordError(f"the upcaster of {name}/{version} returned no payload")
            version += 1
        return f"{name}/{current}", payload
