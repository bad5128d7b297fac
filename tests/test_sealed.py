"""Tests for domain.sealed: commit-now, reveal-later secrets (IO-3.2 orders, SWA-R2 dials)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from pydantic import ValidationError

from domain.sealed import (
    Commitment,
    SealedError,
    canonical_json,
    derived_salt,
    new_salt,
    open_sealed,
    seal,
    verify_reveal,
)


def test_canonical_json_is_deterministic() -> None:
    assert canonical_json({"b": 1, "a": [1.5, "ż"]}) == '{"a":[1.5,"ż"],"b":1}'.encode()
    assert canonical_json({"a": 1, "b": 2}) == canonical_json({"b": 2, "a": 1})
    assert canonical_json(0.1) == b"0.1"


def test_canonical_json_rejects_nan() -> None:
    with pytest.raises(ValueError):
        canonical_json(float("nan"))


def test_seal_matches_documented_formula() -> None:
    content = {"ship": "Victory", "order": "turn-port"}
    expected = hashlib.sha256(canonical_json({"salt": "s1", "content": content})).hexdigest()
    commitment = seal(content, "s1")
    assert commitment.digest == expected
    assert commitment.algorithm == "sha256"


def test_sealed_order_round_trip() -> None:
    """IO-3.2: a written order is committed before movement and revealed afterwards."""
    order = {"ship": "Victory", "move": ["A1", "B2"]}
    salt = new_salt()
    commitment = seal(order, salt)
    assert verify_reveal(commitment, order, salt)
    assert open_sealed(commitment, order, salt) == order


def test_tampered_dial_raises() -> None:
    """SWA-R2: a revealed command dial must be the one set at the start of the round."""
    commitment = seal({"dial": "navigate"}, "salt")
    with pytest.raises(SealedError, match="does not match the commitment"):
        open_sealed(commitment, {"dial": "concentrate-fire"}, "salt")
    assert issubclass(SealedError, ValueError)


def test_commitment_is_frozen_and_validated() -> None:
    commitment = seal({"x": 1}, "s")
    with pytest.raises(ValidationError):
        commitment.digest = "0" * 64  # type: ignore[misc]
    with pytest.raises(ValidationError):
        Commitment(digest="not-hex")
    with pytest.raises(ValidationError):
        Commitment(digest="0" * 64, algorithm="md5")
    with pytest.raises(ValidationError):
        Commitment(digest="0" * 64, extra="x")  # type: ignore[call-arg]
    assert Commitment.model_validate_json(commitment.model_dump_json()) == commitment


def test_salts() -> None:
    salt = new_salt()
    assert len(salt) == 32 and int(salt, 16) >= 0
    assert new_salt() != salt
    assert derived_salt(7, 0) == derived_salt(7, 0)
    assert derived_salt(7, 0) != derived_salt(7, 1)
    assert derived_salt(7, 0) != derived_salt(8, 0)
    assert derived_salt(7, 3) == hashlib.sha256(b"wake-salt:7:3").hexdigest()


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
contents = st.dictionaries(st.text(max_size=8), json_values, max_size=5)


@given(contents, st.text(max_size=40))
def test_seal_verify_round_trip(content: dict[str, Any], salt: str) -> None:
    assert verify_reveal(seal(content, salt), content, salt)


@given(contents, st.text(max_size=40), st.text(max_size=40))
def test_wrong_salt_fails(content: dict[str, Any], salt: str, other: str) -> None:
    assume(salt != other)
    assert not verify_reveal(seal(content, salt), content, other)


@given(contents, contents, st.text(max_size=40))
def test_tampered_content_fails(content: dict[str, Any], other: dict[str, Any], salt: str) -> None:
    assume(canonical_json(content) != canonical_json(other))
    commitment = seal(content, salt)
    assert not verify_reveal(commitment, other, salt)
    with pytest.raises(SealedError):
        open_sealed(commitment, other, salt)
