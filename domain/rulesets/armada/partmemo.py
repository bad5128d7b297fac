"""Answers remembered by the identity of the state parts they read.

Armada's state is immutable: ``evolve`` never changes a ship, a squadron, a dict of them or an
activation in place, it builds a new one (``domain.frozen.changed``, ``state.with_ship``). So
while a part is alive its identity stands for its content, and an answer computed from given
parts is the answer for any state holding those very parts. The bot and the rules ask the same
questions of the same parts many times between two events (every legal attack builds each
defender's input; each event folded builds the ship's hull again), so the answers are kept here.

Each entry holds the parts themselves, so their ids cannot be reused by other objects while the
entry lives; the table is bounded and starts again when full. Only pure functions of the parts
(and of hashable ``extra`` arguments) may be remembered, and what they return must be immutable.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

LIMIT = 8192
"""Entries kept before the table starts again (a game makes a few thousand)."""
_ENTRIES: dict[tuple[Any, ...], tuple[tuple[object, ...], Any]] = {}


def remembered(parts: tuple[object, ...], extra: Hashable, make: Callable[[], T]) -> T:
    """``make()``, computed once per identity of ``parts`` and value of ``extra``: ``make``
    must read nothing but ``parts`` and ``extra``, and ``extra`` starts with the question's
    name (two questions about the same parts are two entries)."""
    key = (*map(id, parts), extra)
    entry = _ENTRIES.get(key)
    if entry is not None and all(a is b for a, b in zip(entry[0], parts, strict=True)):
        return entry[1]  # type: ignore[no-any-return]
    value = make()
    if len(_ENTRIES) >= LIMIT:
        _ENTRIES.clear()
    _ENTRIES[key] = (parts, value)
    return value


__all__ = ["LIMIT", "remembered"]
