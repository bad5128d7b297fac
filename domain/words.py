"""Small helpers for text a person reads (log lines, refusals, explanations): names are written
as words, never as Python reprs, internal ids or digests (issue 21 item 7).

* :func:`value_text` writes any plain value as players read it: a list as ``"a, b"`` (or
  ``"none"``), a mapping as ``"P1 57, P2 15"``, a yes/no for a flag, a sealed digest as
  ``"sealed"``, never ``None``.
* :func:`number_text` writes a measure as players say it: at most two decimals (never a float's
  ``433.6194549262705``), ``10.0`` as ``10``; :func:`point_text` a table position as whole
  numbers, ``(434, 345)``; :func:`distance_text` a distance to one decimal with its unit.
* :class:`Names` turns the ids in a line of text into display names: each unit, side and card
  a ruleset names (``Ruleset.names`` and the read model), and any other ``snake_case`` id
  humanised (``graf_spee`` -> ``graf spee``), so a third party's ruleset reads acceptably too.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

HEX_DIGEST = re.compile(r"\b[0-9a-f]{40,}\b")
"""A hash written out (a sealed commitment, a chain digest): never shown whole to a person."""
SNAKE_ID = re.compile(r"(?<![\w./-])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![\w/-])")
"""An internal id in ``snake_case`` (``full_steam``, ``mega_particle``) that no name covers."""


def capitalised(text: str) -> str:
    """``text`` with its first letter a capital, the rest as written (``heavy cruiser`` ->
    ``Heavy cruiser``; ``HMS Ajax`` stays)."""
    return text[:1].upper() + text[1:]


def possessive(name: object) -> str:
    """The possessive of ``name`` as English writes it: ``rebels`` → ``rebels'``, ``graf_spee``
    → ``graf_spee's`` (never a quoted repr followed by 's)."""
    text = str(name)
    return f"{text}'" if text.endswith("s") else f"{text}'s"


def humanise(ident: str) -> str:
    """An id as words when nothing names it: ``graf_spee`` -> ``graf spee``, ``drift_1`` ->
    ``drift 1``."""
    return ident.replace("_", " ")


def is_digest(value: object) -> bool:
    """Whether ``value`` is a written-out hash (40 or more hex digits)."""
    return isinstance(value, str) and HEX_DIGEST.fullmatch(value) is not None


def value_text(value: Any, entries: str = ", ") -> str:
    """Any plain value as a person reads it: ``[]`` -> ``none``, ``["a", "b"]`` -> ``a, b``,
    ``{"P1": 57, "P2": 15}`` -> ``P1 57, P2 15`` (its entries joined by ``entries``),
    ``True`` -> ``yes``, ``None`` -> ``none``, a digest -> ``sealed``, a float shortened."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return number_text(value)
    if isinstance(value, str):
        return "sealed" if is_digest(value) else value
    if isinstance(value, Mapping):
        parts = [f"{k} {value_text(v, entries)}" for k, v in value.items() if v is not None]
        return entries.join(parts) or "none"
    if isinstance(value, list | tuple | set | frozenset):
        items = list(value)
        if items and all(is_digest(v) for v in items):
            return "1 sealed" if len(items) == 1 else f"{len(items)} sealed"
        return ", ".join(value_text(v, entries) for v in items) or "none"
    return str(value)


def number_text(value: float, decimals: int = 2) -> str:
    """A measure as a person reads it: rounded to ``decimals`` places (two at most by default;
    a float's ``433.6194549262705`` is ``433.62``), trailing zeros dropped (``10.0`` -> ``10``),
    never ``-0``."""
    if not math.isfinite(value):
        return str(value)
    text = f"{value:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def is_point(value: object) -> bool:
    """Whether ``value`` is a table position written as two numbers (``[353.474, 355.403]``)."""
    return (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    )


def point_text(point: Any) -> str:
    """A table position as players say it, whole numbers: ``(353.474, 355.403)`` ->
    ``(353, 355)``."""
    return "(" + ", ".join(number_text(float(v), 0) for v in point) + ")"


def distance_text(distance: float, unit: str = "") -> str:
    """A distance as players measure it, one decimal at most: ``9.8 cm``, ``245.5 mm``,
    ``10 cm``."""
    text = number_text(distance, 1)
    return f"{text} {unit}" if unit else text


def list_text(items: Iterable[object], empty: str = "none") -> str:
    """``["a", "b"]`` -> ``a, b``; nothing -> ``empty``."""
    shown = [value_text(item) for item in items]
    return ", ".join(shown) if shown else empty


class Names:
    """Display names for the ids a text may hold; :meth:`text` rewrites a line with them.

    An id is replaced only where it stands as a whole token (not inside a longer id, a path or
    a word); a possessive follows the name (``rebels'`` -> ``Rebel Alliance's``); an id no name
    covers that is written in ``snake_case`` is humanised; a digest becomes ``sealed``."""

    def __init__(self, names: Mapping[str, str] | None = None) -> None:
        self.names = {k: v for k, v in (names or {}).items() if k and v and k != v}
        ids = sorted(self.names, key=len, reverse=True)
        self._pattern = (
            re.compile(
                r"(?<![\w./-])(" + "|".join(re.escape(i) for i in ids) + r")('s|')?(?![\w/-])"
            )
            if ids
            else None
        )
        self._written: re.Pattern[str] | None = None

    def name(self, ident: str) -> str:
        """The display name of one id (humanised when none is known)."""
        return self.names.get(ident) or humanise(ident)

    def _named(self, match: re.Match[str]) -> str:
        name = self.names[match.group(1)]
        mark = match.group(2)
        return name + (possessive(name)[len(name) :] if mark else "")

    def ids(self, line: str) -> str:
        """``line`` with every known id as its name, and nothing else changed: for a refusal,
        whose other words (an option's value, an order's field) may be what a player types.
        A name already written stays as it is (the side ``escort`` inside "Convoy escort" is
        not named again), and a quoted id stays quoted (``'tie_1'`` -> ``'TIE Fighter
        Squadron 1'``, not a possessive)."""
        if not line or self._pattern is None:
            return line
        if self._written is None:
            shown = sorted(set(self.names.values()), key=len, reverse=True)
            self._written = re.compile(
                r"(?<![\w./-])("
                + "|".join(re.escape(n) for n in shown)
                + r")(?![\w/-])|"
                + self._pattern.pattern
            )

        def named(match: re.Match[str]) -> str:
            if match.group(1) is not None:  # a name already written
                return match.group(0)
            ident, mark = match.group(2), match.group(3)
            name = self.names[ident]
            if mark == "'" and line[: match.start()].endswith("'"):
                return name + "'"  # the closing quote of a quoted id
            return name + (possessive(name)[len(name) :] if mark else "")

        return self._written.sub(named, line)

    def text(self, line: str) -> str:
        """``line`` with every known id as its name, other snake_case ids humanised and digests
        written as ``sealed``."""
        if not line:
            return line
        if self._pattern is not None:
            line = self._pattern.sub(self._named, line)
        line = HEX_DIGEST.sub("sealed", line)
        return SNAKE_ID.sub(lambda m: humanise(m.group(1)), line)


def unit_labels(units: Iterable[Any]) -> dict[str, str]:
    """Unit id -> the name a person reads, from read-model units (``UnitView``): the unit's own
    name, with its seat where it has one (``Andromeda (P1)``) and a number where several share
    a name (``TIE Fighter Squadron 2``). Hidden placeholders are not named. Names are counted
    among what one reader sees together: the public units, and each side's private cards apart
    (a number must not tell that someone's hidden card shares a name)."""
    units = [u for u in units if u.name and u.name != "hidden"]

    def group(unit: Any) -> str | None:
        return unit.side if getattr(unit, "private", False) else None

    count: dict[tuple[str | None, str], int] = {}
    for unit in units:
        key = (group(unit), unit.name)
        count[key] = count.get(key, 0) + 1
    labels: dict[str, str] = {}
    for unit in units:
        label = unit.name
        if count[(group(unit), unit.name)] > 1:
            digits = re.search(r"(\d+)$", unit.id)
            label += f" {digits.group(1)}" if digits else f" ({humanise(unit.id)})"
        seat = unit.details.get("seat") if isinstance(unit.details, Mapping) else None
        if isinstance(seat, str) and seat and seat not in label:
            label += f" ({seat})"
        labels[unit.id] = label
    return labels
