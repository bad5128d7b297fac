"""Tooltips that say what the dice notation and rule terms of an explanation mean.

The explanation itself stays plain text (``st.text``) or escaped Markdown, as before; the meanings
go into the element's ``help=`` (a tooltip, which Streamlit renders as Markdown). A term's text is
taken from the explanation, which may come from a record, so it is escaped like any record text;
the meanings come from :mod:`domain.glossary` and the ruleset and are escaped too (they are plain
text: nothing in them is meant as markup).
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.glossary import Term, find_terms
from viewer.safe_text import escape_markdown

TOOLTIP_TERMS = 12
"""The most terms one tooltip lists (a long linked-rolls list may name many pools)."""


def tooltip(terms: list[Term]) -> str | None:
    """The Markdown of a tooltip listing ``terms`` (``**term** — meaning``, one a paragraph), or
    None when there are none (no tooltip at all)."""
    if not terms:
        return None
    lines = [
        f"**{escape_markdown(term.text)}** — {escape_markdown(term.meaning)}"
        for term in terms[:TOOLTIP_TERMS]
    ]
    if len(terms) > TOOLTIP_TERMS:
        lines.append(escape_markdown(f"(and {len(terms) - TOOLTIP_TERMS} more)"))
    return "\n\n".join(lines)


def glossary_help(text: str, glossary: Mapping[str, str]) -> str | None:
    """The tooltip for an element showing ``text``: the meaning of each term found in it
    (Wake's dice notation and ``glossary``, the ruleset's terms), or None."""
    return tooltip(find_terms(text, glossary))
