"""Canonical JSON (the bytes the hash chain covers): sorted keys, no whitespace, UTF-8, and
nothing that is not JSON."""

from __future__ import annotations

import math

import pytest

from domain.canonical import canonical_json, sha256_hex


def test_canonical_form() -> None:
    assert canonical_json({"b": [1, 2.5], "a": "é"}) == '{"a":"é","b":[1,2.5]}'.encode()
    assert canonical_json({"x": 1e-05}) == b'{"x":1e-05}'


def test_non_finite_floats_are_refused() -> None:
    for bad in (math.nan, math.inf, {"a": [math.inf]}):
        with pytest.raises(ValueError):
            canonical_json(bad)


def test_digest_covers_every_part() -> None:
    assert sha256_hex(b"ab", b"c") == sha256_hex(b"abc") != sha256_hex(b"abd")
