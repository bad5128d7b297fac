"""Parse untrusted JSON within bounds, so bad input is refused with one line, never a traceback.

Plain ``json.loads`` accepts what other parsers read differently (duplicate keys: the last wins;
``NaN``; ``1e400``, read as infinity) and lets a small file cost far more than its size (deep
nesting ends in ``RecursionError``; a 4,301-digit integer raises deep inside the parser; a lone
``\\ud800`` escape yields a string that cannot be encoded again). :func:`loads` checks the text
first, at C speed (the number of objects and arrays and their nesting depth, with strings blanked
out), then parses with hooks that refuse duplicate keys and numbers outside the limits.

The limits are named constants, documented in docs/record-format.md.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any, Final

#: Objects and arrays nested deeper than this are refused (a record needs about 12).
MAX_DEPTH: Final = 64
#: At most this many objects and arrays in one document (the largest bundled record, 1,752
#: events in 868 KB, has 6,847).
MAX_CONTAINERS: Final = 2_000_000
#: At most this many values (array elements and object members) in one document: a value
#: costs 30 to 60 bytes once parsed, whatever its size in the text (the largest bundled record
#: has 64,000; a 32 MiB record as dense as it about 2.4 million).
MAX_ITEMS: Final = 4_000_000
#: At most this many distinct object keys in one document (issue 23 item 5): the parser keeps
#: every distinct key as a string (and a large object's members as a list) while it reads, so a
#: 32 MiB file of distinct keys cost about 1 GB before this bound; the bundled files have at most
#: 312, any record or data file a few hundred to a few thousand.
MAX_DISTINCT_KEYS: Final = 50_000
#: Integers must lie within +/-(2**53 - 1), the range every JSON parser reads exactly (I-JSON,
#: RFC 7493); seeds, die indices and counts are far below it.
MAX_SAFE_INTEGER: Final = 2**53 - 1

_EMPTY_PAIR = re.compile(rb"\{\}|\[\]")
_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"[]{}")
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789E", b"000000000e")
_CHUNK = 1 << 20  # bytes split on quotes at a time
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


class JSONInputError(ValueError):
    """Untrusted JSON that is malformed or outside the limits; the message is one line."""


def _shown(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise JSONInputError(
                    f"duplicate key {_shown(key)!r} in an object (readers disagree on which wins)"
                )
            seen.add(key)
    return obj


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > 16:
        raise JSONInputError(
            f"integer with {digits} digits is outside +/-{MAX_SAFE_INTEGER} ({_shown(text)})"
        )
    value = int(text)
    if abs(value) > MAX_SAFE_INTEGER:
        raise JSONInputError(f"integer {text} is outside +/-{MAX_SAFE_INTEGER}")
    return value


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JSONInputError(f"number {_shown(text)} is out of range (not a finite number)")
    return value


def _constant(name: str) -> Any:
    raise JSONInputError(f"{name} is not a JSON number")


def _without_strings(data: bytes) -> bytes:
    """The text with every string removed (only structure, numbers and literals remain).

    Escaped backslashes and quotes are blanked first (outside strings valid JSON has no
    backslash), so every quote left delimits a string; then the text is split on quotes a chunk
    at a time, keeping what lies outside strings (a whole-text split would cost 40 bytes a
    string, a regular expression's substitution even more).
    """
    if b"\\" in data:
        data = data.replace(b"\\\\", b"__").replace(b'\\"', b"__")
    outside: list[bytes] = []
    inside = False
    for start in range(0, len(data), _CHUNK):
        parts = data[start : start + _CHUNK].split(b'"')
        outside.append(b"".join(parts[1::2] if inside else parts[0::2]))
        inside ^= len(parts) % 2 == 0  # an odd number of quotes in the chunk
    return b"".join(outside)


def _check_shape(bare: bytes, max_depth: int, max_containers: int, max_items: int) -> None:
    """Count values, objects and arrays and measure their nesting, without building anything
    (``bare`` is the text without its strings)."""
    skeleton = bare.translate(None, _NOT_BRACKETS)
    containers = skeleton.count(b"{") + skeleton.count(b"[")
    if containers > max_containers:
        raise JSONInputError(f"more than {max_containers} objects and arrays")
    if bare.count(b",") + containers > max_items:  # each item but the first of each is a ","
        raise JSONInputError(f"more than {max_items} values")
    # each pass removes the innermost (empty) pairs: the number of passes is the depth
    for _ in range(max_depth):
        if not skeleton:
            return
        shorter = _EMPTY_PAIR.sub(b"", skeleton)
        if len(shorter) == len(skeleton):
            return  # unbalanced brackets: the parser reports where
        skeleton = shorter
    if skeleton and _EMPTY_PAIR.search(skeleton):
        raise JSONInputError(f"objects and arrays nested deeper than {max_depth} levels")


# every string in turn (matches never overlap, so none starts inside a string), with the colon
# after it when it is an object's key
_STRING = re.compile(rb'"([^"]*)"([ \t\r\n]*:)?')


def _check_keys(data: bytes, max_keys: int) -> None:
    """Count the distinct object keys (strings followed by ``:``), stopping as soon as there
    are more than ``max_keys``: the set held never exceeds the bound. Escaped quotes and
    backslashes are blanked first, so every quote left delimits a string."""
    if b"\\" in data:
        data = data.replace(b"\\\\", b"__").replace(b'\\"', b"__")
    seen: set[bytes] = set()
    for match in _STRING.finditer(data):
        if match.group(2) is None:
            continue  # a value, not a key
        seen.add(match.group(1))
        if len(seen) > max_keys:
            raise JSONInputError(f"more than {max_keys} distinct object keys")


def _risky_numbers(bare: bytes) -> bool:
    """A long run of digits (a big integer, or a float with a long mantissa) or an exponent of
    three digits: only then are the slower number hooks needed."""
    zeros = bare.translate(_DIGITS_AS_ZERO)
    return b"0" * 16 in zeros or any(e in zeros for e in (b"e000", b"e+000", b"e-000"))


def loads(
    data: bytes | str,
    *,
    max_depth: int = MAX_DEPTH,
    max_containers: int = MAX_CONTAINERS,
    max_items: int = MAX_ITEMS,
    max_keys: int = MAX_DISTINCT_KEYS,
) -> Any:
    """Parse untrusted JSON text (UTF-8 bytes or str).

    Raises:
        JSONInputError: not UTF-8, not JSON, or outside the limits: nesting deeper than
            ``max_depth``, more than ``max_containers`` objects and arrays or ``max_items``
            values or ``max_keys`` distinct object keys, a duplicate key in an object,
            ``NaN``/``Infinity``, a number that overflows a float, an integer outside
            +/-``MAX_SAFE_INTEGER``, or a lone UTF-16 surrogate in a string.
    """
    if isinstance(data, str):
        try:
            data = data.encode("utf-8")
        except UnicodeEncodeError:
            raise JSONInputError(
                "a string holds a lone UTF-16 surrogate (such as \\ud800), which is not text"
            ) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JSONInputError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    bare = _without_strings(data)
    _check_shape(bare, max_depth, max_containers, max_items)
    _check_keys(data, max_keys)
    risky = _risky_numbers(bare)
    parse_int: Callable[[str], Any] | None = _integer if risky else None
    parse_float: Callable[[str], Any] | None = _float if risky else None
    try:
        value = json.loads(
            text,
            object_pairs_hook=_pairs,
            parse_constant=_constant,
            parse_int=parse_int,
            parse_float=parse_float,
        )
    except JSONInputError:
        raise
    except json.JSONDecodeError as exc:
        raise JSONInputError(
            f"not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise JSONInputError(f"objects and arrays nested deeper than {max_depth} levels") from None
    except ValueError as exc:  # e.g. int() refusing a huge literal
        raise JSONInputError(f"a value is out of range ({_shown(str(exc), 80)})") from None
    if _SURROGATE_ESCAPE.search(data):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise JSONInputError(
                "a string holds a lone UTF-16 surrogate (such as \\ud800), which is not text"
            ) from None
    return value
