"""Canonical JSON and SHA-256 digests: the one byte form that hashes and comparisons agree on.

Two canonical forms, one per record format:

* ``canonical_json`` (record format 1): Python's ``json`` with sorted keys, no whitespace, UTF-8.
  Games recorded before format 2 keep it for ever: their digests were made with it.
* ``jcs`` (record format 2): the JSON Canonicalization Scheme of RFC 8785, a published standard
  that any language can reproduce (numbers as ECMAScript prints them, so ``8.0`` is ``8`` and
  ``1e-05`` is ``0.00001``; keys sorted by UTF-16 code units).

``jcs`` is the hot path of a verified rebuild (one call per event), so it asks orjson first and
falls back to the reference implementation (the ``rfc8785`` package) only where orjson's text can
differ from RFC 8785: an integral float (orjson writes ``8.0``), a float from 1e16 to 1e21 or
from 1e-6 to 1e-5 (orjson switches to an exponent sooner), or a character outside the Basic
Multilingual Plane (UTF-16 orders such keys differently from code points). Integers need no
test: the read path only sees checked JSON, whose integers lie within ±(2^53 - 1)
(``domain.safe_json`` bounds records, and every stored fact was written through ``jcs_strict``,
which refuses larger ones), and there orjson and RFC 8785 print the same digits. Both paths give
the same bytes; tests/test_record_v2.py checks that with generated JSON.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Final

import orjson
import rfc8785

# one encoder for every call: json.dumps with options builds a new encoder each time, which
# costs as much as encoding a small payload (replay digests every event)
_ENCODER = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)


def canonical_json(obj: Any) -> bytes:
    """Serialise ``obj`` in record format 1's canonical form: sorted keys, no whitespace, UTF-8."""
    return _ENCODER.encode(obj).encode("utf-8")


# where orjson's text may differ from RFC 8785 (see the module docstring); a match inside a
# string is harmless (the reference encoder is merely asked too). Plain substring tests come
# first: they run at C speed and rule out almost every event.
_INTEGRAL_FLOAT: Final = re.compile(rb"\.0(?![0-9])")  # 8.0, -0.0: RFC 8785 writes 8, 0
_EXPONENT_16_20: Final = re.compile(rb"e\+(?:1[6-9]|20)(?![0-9])")  # RFC 8785: all digits
_EXPONENT_6: Final = re.compile(rb"e-6(?![0-9])")  # 1e-6 .. 9.99e-6: RFC 8785 writes 0.00000x
_BEYOND_BMP: Final = re.compile(rb"[\xf0-\xf4]")  # a 4-byte character: UTF-16 key order


def may_differ(text: bytes) -> bool:
    """True if orjson's ``text`` may not be RFC 8785's form of the same value."""
    if b".0" in text and _INTEGRAL_FLOAT.search(text):
        return True
    if b"e+" in text and _EXPONENT_16_20.search(text):
        return True
    if b"e-6" in text and _EXPONENT_6.search(text):
        return True
    return not text.isascii() and _BEYOND_BMP.search(text) is not None


_SORT: Final = orjson.OPT_SORT_KEYS


class CanonicalError(ValueError):
    """A value that has no RFC 8785 form (NaN, an infinity, an integer beyond 2^53, a non-JSON
    type)."""


def jcs(obj: Any) -> bytes:
    """Serialise ``obj`` by RFC 8785 (JCS), as UTF-8 bytes: the read path's fast encoder.

    ``obj`` is JSON already checked (read from a record or a store row, or made by
    ``jcs_strict``): a float that is not finite (orjson would write ``null``) or an integer
    beyond 2^53 (orjson would write it) cannot be in it: records refuse both, and every fact is
    written through ``jcs_strict``, which refuses both.

    Raises:
        CanonicalError: ``obj`` holds a value RFC 8785 cannot represent.
    """
    try:
        text = orjson.dumps(obj, option=_SORT)
    except (TypeError, orjson.JSONEncodeError):
        return jcs_strict(obj)  # orjson refuses it (an integer beyond 64 bits)
    if may_differ(text):
        return jcs_strict(obj)
    return text


def jcs_strict(obj: Any) -> bytes:
    """Serialise ``obj`` by RFC 8785 with the reference implementation, which refuses what has
    no canonical form: the write path (each new fact goes through here once).

    Raises:
        CanonicalError: NaN, an infinity, an integer beyond 2^53 or a value that is not JSON.
    """
    try:
        return rfc8785.dumps(obj)
    except (rfc8785.CanonicalizationError, TypeError, ValueError) as exc:
        raise CanonicalError(f"no canonical JSON form (RFC 8785): {exc}") from exc


def sha256_hex(*parts: bytes) -> str:
    """Hex SHA-256 over the concatenation of ``parts``."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    return digest.hexdigest()
