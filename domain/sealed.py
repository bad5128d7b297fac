"""Secret choices committed now and revealed later (IO-3.2 sealed orders, SWA-R2 command dials).

A player's choice is hashed together with a salt; the digest is recorded in the public event
log and the content plus salt are recorded when revealed, so anyone can check that the reveal
matches what was committed without learning it earlier.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from domain.canonical import canonical_json

_ALGORITHM = "sha256"


class Commitment(BaseModel):
    """A hash commitment to hidden content; safe to publish."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    digest: str = Field(pattern=r"^[0-9a-f]{64}$")
    algorithm: str = _ALGORITHM

    @field_validator("algorithm")
    @classmethod
    def _check_algorithm(cls, algorithm: str) -> str:
        if algorithm != _ALGORITHM:
            raise ValueError(f"unsupported commitment algorithm {algorithm!r}")
        return algorithm


class SealedError(ValueError):
    """A reveal does not match its commitment."""


def _digest(content: Mapping[str, Any], salt: str) -> str:
    payload = canonical_json({"salt": salt, "content": dict(content)})
    return hashlib.sha256(payload).hexdigest()


def seal(content: Mapping[str, Any], salt: str) -> Commitment:
    """Commit to ``content``: sha256 over canonical_json({"salt": salt, "content": content})."""
    return Commitment(digest=_digest(content, salt))


def verify_reveal(commitment: Commitment, content: Mapping[str, Any], salt: str) -> bool:
    """True when ``content`` and ``salt`` are exactly what was sealed."""
    return hmac.compare_digest(commitment.digest, _digest(content, salt))


def open_sealed(commitment: Commitment, content: Mapping[str, Any], salt: str) -> dict[str, Any]:
    """Return the revealed content as a dict, or raise SealedError if it was not what was sealed."""
    if not verify_reveal(commitment, content, salt):
        raise SealedError(
            f"revealed content does not match the commitment {commitment.digest[:12]}…"
        )
    return dict(content)


def new_salt() -> str:
    """A fresh random salt (32 hex characters) for a human player's secret."""
    return secrets.token_hex(16)


def derived_salt(seed: int, n: int) -> str:
    """A reproducible salt for the ``n``-th secret of a seeded (computer) game."""
    return hashlib.sha256(f"wake-salt:{seed}:{n}".encode()).hexdigest()
