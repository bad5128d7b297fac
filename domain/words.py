"""Small helpers for text a person reads (log lines, refusals, explanations): names are written
as words, never as Python reprs."""

from __future__ import annotations


def possessive(name: object) -> str:
    """The possessive of ``name`` as English writes it: ``rebels`` → ``rebels'``, ``graf_spee``
    → ``graf_spee's`` (never a quoted repr followed by 's)."""
    text = str(name)
    return f"{text}'" if text.endswith("s") else f"{text}'s"
