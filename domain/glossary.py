"""Dice notation and rule terms found in an explanation's text, with what each means.

Explanations are plain text ("d10d8 [3, 6] = 6", "needs at least 4 (4+)", "floor 1",
"rolls [red:hit+hit]"). :func:`find_terms` scans such a text for the notation Wake itself writes
(:data:`GENERIC_KINDS`: one die, dice added, keep-highest pools, target numbers, floors, opposed
rolls, re-rolls, rounding) and for the terms a ruleset lists in ``Ruleset.glossary()``, and returns
one :class:`Term` per term found, first occurrence first. The viewer shows them on hover.

A ruleset's glossary maps a term to its meaning in that ruleset, citing the rule:

* a key that names a generic kind (``"floor"``, ``"keep-highest"``, ``"N+"``, ...) adds the
  ruleset's reading to that notation's generic meaning wherever the notation is found;
* any other key is a literal term, found case-sensitively as a whole word (``"CR"`` is not found
  in ``"cr90"``): a term that starts with a letter or digit has no letter, underscore or hyphen
  just before it (a count may: ``"2armada-red"``), one that ends with one has no letter, digit,
  underscore or hyphen just after it.

Nothing here knows a ruleset; the texts scanned may come from a record, so a caller that shows a
term's text (``Term.text``, taken from the scanned text) shows it as untrusted text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = ["GENERIC", "GENERIC_KINDS", "Term", "find_terms", "literal_pattern"]


@dataclass(frozen=True)
class Term:
    """A term found in a text: ``text`` as written there, its ``kind`` (a generic kind or, for
    a ruleset's literal term, the term itself) and what it means."""

    text: str
    kind: str
    meaning: str


def _die_words(sides: str) -> str:
    zero = " (a physical d10's 0 reads as 10)" if sides == "10" else ""
    return f"a {sides}-sided die, faces 1–{sides}{zero}"


def _single(m: re.Match[str]) -> str:
    return f"one die: {_die_words(m.group('sides'))}."


def _multiple(m: re.Match[str]) -> str:
    count, sides = int(m.group("count")), int(m.group("msides"))
    return (
        f"{count} dice of {sides} sides each, added together: {count}–{count * sides}; "
        f"the natural result is the sum."
    )


def _keep_highest(m: re.Match[str]) -> str:
    dice = re.findall(r"d\d+", m.group("pool"))
    listed = ", ".join(dice[:-1]) + f" and a {dice[-1]}"
    return (
        f"a pool: roll a {listed} together and keep only the highest face; that face is the "
        f"natural result."
    )


def _sum(m: re.Match[str]) -> str:
    return "dice (and any number) added together; the natural result is the sum."


def _target(m: re.Match[str]) -> str:
    n = m.group("target")
    return f"a target number: the roll succeeds when its total is {n} or more."


def _floor(m: re.Match[str]) -> str:
    n = m.group("floor")
    return (
        f"a minimum, not rounding: after the modifiers, a total below {n} is raised to {n}, "
        f"so modifiers can never take the result under {n}."
    )


GENERIC: tuple[tuple[str, str, Callable[[re.Match[str]], str]], ...] = (
    # (kind, pattern, meaning); tried in this order at each position, so a pool is not also
    # read as its first die
    ("keep-highest", r"(?<![\w+-])(?P<pool>(?:d\d+){2,})(?![\w+-])", _keep_highest),
    (
        "dX+dY",
        r"(?<![\w+-])(?P<sum>\d*d\d+(?:[+-](?:\d*d\d+|\d+))+)(?![\w+-])",
        _sum,
    ),
    ("NdM", r"(?<![\w+-])(?P<count>\d+)d(?P<msides>\d+)(?![\w+-])", _multiple),
    ("dN", r"(?<![\w+-])d(?P<sides>\d+)(?![\w+-])", _single),
    ("N+", r"(?<![\w+-])(?P<target>\d+)\+(?![\w+-])", _target),
    ("floor", r"\bfloor (?P<floor>-?\d+)\b", _floor),
    (
        "natural",
        r"\bnatural\b",
        lambda m: (
            "the dice result before any modifier (the kept face of a pool, the sum of "
            "dice added together)."
        ),
    ),
    (
        "faces",
        r"\bfaces\b|\brolled\b",
        lambda m: "each die's face as thrown, in the order the dice were thrown.",
    ),
    (
        "strictly greater",
        r"\bstrictly greater\b|\bties fail\b",
        lambda m: (
            "an opposed roll: the acting side's total must beat the other side's; equal "
            "totals fail."
        ),
    ),
    (
        "re-roll",
        r"\bre-?roll(?:s|ed)?\b",
        lambda m: (
            "the die is thrown again and the new face replaces the old one; it is a new "
            "die of the game, with its own recorded face and odds."
        ),
    ),
    (
        "rounding up",
        r"\bround(?:ed|ing)? up\b",
        lambda m: "a fraction left after dividing counts as a whole one: half of 5 is 3.",
    ),
    (
        "rounding down",
        r"\bround(?:ed|ing)? down\b",
        lambda m: "a fraction left after dividing is dropped: half of 5 is 2.",
    ),
    (
        "p=",
        r"(?<![\w])p=(?=\d)|\bchance of (?:success|this result|\d+ or more)\b",
        lambda m: "the exact chance, before the roll, of the outcome shown.",
    ),
)
"""Wake's own notation: (kind, regular expression, meaning of a match)."""

GENERIC_KINDS: frozenset[str] = frozenset(kind for kind, _, _ in GENERIC)
"""The generic kinds a ruleset's glossary may add its reading to."""

_GENERIC_RE = re.compile(
    "|".join(f"(?P<g{i}>{pattern})" for i, (_, pattern, _) in enumerate(GENERIC))
)


def literal_pattern(term: str) -> str:
    """The regular expression that finds a ruleset's literal ``term`` as a whole word."""
    before = r"(?<![^\W\d]|-)" if re.match(r"\w", term) else ""  # a count may lead: 2armada-red
    after = r"(?![\w-])" if re.search(r"\w$", term) else ""
    return before + re.escape(term) + after


def _literals(glossary: Mapping[str, str]) -> re.Pattern[str] | None:
    terms = sorted((t for t in glossary if t and t not in GENERIC_KINDS), key=len, reverse=True)
    if not terms:
        return None
    return re.compile("|".join(literal_pattern(t) for t in terms))


def find_terms(text: str, glossary: Mapping[str, str] | None = None) -> list[Term]:
    """The terms of ``text`` that have a meaning: Wake's notation (with the ruleset's reading
    added where ``glossary`` has one for its kind) and ``glossary``'s literal terms. One per
    distinct term text (per kind for generic notation), in the order first found."""
    glossary = glossary or {}
    found: dict[tuple[str, str], tuple[int, Term]] = {}
    for match in _GENERIC_RE.finditer(text):
        index = next(i for i in range(len(GENERIC)) if match.group(f"g{i}") is not None)
        kind, _, meaning = GENERIC[index]
        text_meaning = meaning(match)  # the alternatives' group names are distinct
        reading = glossary.get(kind)
        if reading:
            text_meaning = f"{text_meaning} {reading}"
        key = (kind, text_meaning)  # "ties fail" and "strictly greater" are one entry
        if key not in found:
            found[key] = (match.start(), Term(match.group(0), kind, text_meaning))
    literals = _literals(glossary)
    if literals is not None:
        for match in literals.finditer(text):
            term = match.group(0)
            if (term, glossary[term]) not in found:
                found[(term, glossary[term])] = (match.start(), Term(term, term, glossary[term]))
    return [term for _, term in sorted(found.values(), key=lambda pair: pair[0])]
