"""Canonical JSON and SHA-256 digests: the one byte form that hashes and comparisons agree on."""

from __future__ import annotations

import hashlib
import json
from typing import Any

# one encoder for every call: json.dumps with options builds a new encoder each time, which
# costs as much as encoding a small payload (replay digests every event)
_ENCODER = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)


def canonical_json(obj: Any) -> bytes:
    """Serialise ``obj`` deterministically: sorted keys, no whitespace, UTF-8."""
    return _ENCODER.encode(obj).encode("utf-8")


def sha256_hex(*parts: bytes) -> str:
    """Hex SHA-256 over the concatenation of ``parts``."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    return digest.hexdigest()
