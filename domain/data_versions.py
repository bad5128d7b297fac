"""Which data a recorded game was played with, told by content (issue 22 item 9).

A resolved scenario embeds every data part a game uses (Morze's class table, Iron & Oak's ship
cards and tables, Armada's damage deck, ...), so a game never depends on files that change. To
re-decide an old game with the *current* data (``wake verify --rerun``), each embedded part is
identified by its **digest** (SHA-256 of its RFC 8785 form, lowercase hex):

* ``shipped``: the digest of the part as the ruleset ships it now, or of an earlier version it
  shipped (``ShippedData.earlier``): the game used the bundled table, so it is re-run with
  today's (or with the table a designer gives in its place, ``--data FILE``);
* ``given``: the digest of the table given with ``--data``: the game was made with it;
* ``own``: anything else is a table of the game's own, kept as recorded; except a part that
  names the ``source`` of the table Wake ships but is no version of it: a changed copy of the
  shipped file, whose current version only its author has. Such a game is not re-run
  (:class:`DataNotAvailable`) until the table is given with ``--data``.

A label never makes a table the shipped one: a designer's copy with values changed keeps the
shipped ``source`` and is still told apart (before, it was taken for the shipped table and its
game reported as changed when nothing had). Pure functions over JSON values; the ruleset contract
(``Ruleset.shipped_data``, ``data_parts``, ``with_data_parts``) places the parts in a scenario.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from domain.canonical import jcs_strict, sha256_hex
from domain.errors import DataNotAvailable, ScenarioError

Reading = Literal["shipped", "given", "own"]


def data_digest(part: Any) -> str:
    """A data part's digest: SHA-256 (lowercase hex) of its RFC 8785 canonical JSON.

    Raises:
        ScenarioError: the part is not JSON (a NaN, an integer beyond 2^53).
    """
    try:
        return sha256_hex(jcs_strict(part))
    except ValueError as exc:
        raise ScenarioError(f"a data table that is not plain JSON: {exc}") from None


@dataclass(frozen=True)
class ShippedData:
    """The data a ruleset version ships: each part as a resolved scenario embeds it now, and
    the digests of every earlier version of each part that Wake shipped (so a game played with
    any of them is recognised and re-run with today's)."""

    parts: Mapping[str, Any] = field(default_factory=dict)
    earlier: Mapping[str, Collection[str]] = field(default_factory=dict)

    def is_shipped(self, name: str, part: Any) -> bool:
        """Whether ``part`` is a version of the ``name`` part that Wake shipped (by digest)."""
        if name not in self.parts:
            return False
        digest = data_digest(part)
        return digest == data_digest(self.parts[name]) or digest in self.earlier.get(name, ())


@dataclass(frozen=True)
class PartChoice:
    """What a re-run with the current data uses for one embedded part, and why."""

    name: str
    reading: Reading
    part: Any  # the part to re-run with
    changed: bool  # it differs from the part the game recorded


def _source(part: Any) -> str:
    label = part.get("source") if isinstance(part, Mapping) else None
    return label if isinstance(label, str) else ""


def choose_parts(
    embedded: Mapping[str, Any], shipped: ShippedData, given: Mapping[str, Any]
) -> list[PartChoice]:
    """For each embedded part, the one to re-run with under the current data (see the module
    docstring). ``given``: tables in place of the shipped ones, as a scenario embeds them.

    Raises:
        DataNotAvailable: a part is a changed copy of a shipped table and is not given.
    """
    choices: list[PartChoice] = []
    for name, part in embedded.items():
        replacement = given.get(name, shipped.parts.get(name))
        if replacement is not None and shipped.is_shipped(name, part):
            changed = data_digest(replacement) != data_digest(part)
            choices.append(PartChoice(name, "shipped", replacement, changed))
        elif name in given and data_digest(given[name]) == data_digest(part):
            choices.append(PartChoice(name, "given", part, False))
        elif _source(part) and _source(part) == _source(shipped.parts.get(name)):
            raise DataNotAvailable(
                f"the game's {name} table names the source of the one Wake ships "
                f"({_source(part)[:60]!r}) but is not any version Wake shipped: a changed "
                f"copy, whose current version only its author has; give it with --data FILE"
            )
        else:
            choices.append(PartChoice(name, "own", part, False))
    return choices


def describe_choices(choices: list[PartChoice], shipped_by: str, given_label: str) -> str:
    """The data a re-run with the current rules used, in a few words (``""``: no data parts).
    ``shipped_by``: ``"morze 1.0"``; ``given_label``: the ``--data`` file's name."""
    if not choices:
        return ""
    words = []
    replaced = [c for c in choices if c.reading == "shipped"]
    if replaced:
        by = f"{given_label} in place of the data {shipped_by} ships" if given_label else ""
        source = by or f"the data {shipped_by} ships"
        same = not any(c.changed for c in replaced)
        words.append(
            source + (" (the same as recorded)" if same else " (differs from the recorded data)")
        )
    kept = [c.name for c in choices if c.reading == "given"]
    if kept:
        words.append(f"its {', '.join(kept)} from {given_label or 'the data given'}")
    own = [c.name for c in choices if c.reading == "own"]
    if own:
        words.append(f"its own {', '.join(own)} as recorded")
    return "; ".join(words)


def data_file_readings(
    data: Mapping[str, Any], scenario: Mapping[str, Any], shipped: ShippedData
) -> list[tuple[str | None, Mapping[str, Any]]]:
    """How a ``--data`` file may be read, most likely first: ``(None, patch)`` a JSON merge patch
    over the game's resolved scenario, ``(part, table)`` a copy of the data file the ruleset ships
    as ``part`` (with values changed). A file whose keys are all scenario keys is read as a patch
    first; one whose keys all belong to exactly one shipped part, as that part.

    Raises:
        ScenarioError: the file fits neither form (the message says what both look like).
    """
    keys = set(data)
    readings: list[tuple[str | None, Mapping[str, Any]]] = []
    if keys <= set(scenario):
        readings.append((None, data))
    fits = [
        name
        for name, part in shipped.parts.items()
        if isinstance(part, Mapping) and keys <= set(part)
    ]
    if len(fits) == 1:
        readings.append((fits[0], data))
    if readings:
        return readings
    files = "; ".join(
        f"{name}: keys {', '.join(sorted(part))}"
        for name, part in shipped.parts.items()
        if isinstance(part, Mapping)
    )
    what = (
        f"a copy of one of the data files the ruleset ships, values changed ({files})"
        if files
        else "nothing else (this ruleset ships no data files)"
    )
    several = f"; it fits several data files ({', '.join(fits)})" if len(fits) > 1 else ""
    raise ScenarioError(
        f"a data file is a JSON merge patch over the game's scenario (keys "
        f"{', '.join(sorted(scenario))}) or {what}; this one has keys "
        f"{', '.join(sorted(keys))[:200]}{several}"
    )
