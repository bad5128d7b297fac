"""Plain text from untrusted input: what may not be in a name, title or comment Wake prints.

C0 controls (a line feed only where lines are allowed), DEL, C1 controls (U+009B is a terminal's
CSI) and the bidirectional embeddings, overrides and isolates that make text read differently from
what it holds ("Trojan Source"). Refused where a record or a person gives them, so nothing Wake
prints to a terminal, a page or a report carries an escape sequence (issue 23 item 9).
"""

from __future__ import annotations

import re
from typing import Final

#: The characters refused (with the line feed, where lines are not allowed).
FORBIDDEN: Final = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def plain_problem(value: str, what: str, *, lines: bool = False) -> str | None:
    """What is wrong with ``value`` as plain text (None: nothing)."""
    found = FORBIDDEN.search(value) or (None if lines else re.search("\n", value))
    if found is None:
        return None
    return (
        f"{what} holds the control character U+{ord(found.group()):04X} at position "
        f"{found.start()} (plain text only{', line feeds allowed' if lines else ''})"
    )


def check_plain(value: str, what: str, *, lines: bool = False) -> str:
    """``value`` if it is plain text.

    Raises:
        ValueError: a control or bidirectional character (for pydantic validators).
    """
    problem = plain_problem(value, what, lines=lines)
    if problem is not None:
        raise ValueError(problem)
    return value
