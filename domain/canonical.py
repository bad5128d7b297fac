"""Canonical JSON and SHA-256 digests: the one byte form that hashes and comparisons agree on."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(obj: Any) -> bytes:
    """Serialise ``obj`` deterministically: sorted keys, no whitespace, UTF-8."""
    return json.dumps(
        obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def sha256_hex(*parts: bytes) -> str:
    """Hex SHA-256 over the concatenation of ``parts``."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    return digest.hexdigest()
