"""Trusted keys (issue 23 item 7): who a signature's key belongs to, as the user decided.

A signature names its signer (``"Ann"``) and carries its public key, but anyone can make a key and
sign as Ann. What makes a signature Ann's is that the reader already holds Ann's public key: the
keyring is the list of keys this user trusts, each under the name the user gave it (``wake trust
add KEY.pub --name Ann``). ``wake verify`` and the viewer read it: a valid signature by a key in
it is "by Ann (trusted key)"; by any other key it is "by an unknown key claiming to be Ann".

The keyring is a JSON file (``{"format": "wake-keyring", "version": 1, "keys": [{"name",
"public_key", "fingerprint"}]}``), at ``$WAKE_KEYRING`` or ``$XDG_CONFIG_HOME/wake/keyring.json``
(``~/.config/wake/keyring.json``); a missing file is an empty keyring. It is read through the
bounded reader like every input file and written atomically.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from domain import safe_json
from domain.errors import RecordError, SignatureError, validation_summary
from domain.plain_text import check_plain
from domain.record.reader import read_bounded

KEYRING_ENV: Final = "WAKE_KEYRING"
MAX_KEYRING_BYTES: Final = 1024 * 1024
MAX_KEYS: Final = 1000


class TrustedKey(BaseModel):
    """One key the user trusts, under the name the user gave it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    public_key: str = Field(pattern=r"^[A-Za-z0-9+/]{43}=$", description="raw 32 bytes, base64")
    fingerprint: str

    @field_validator("name")
    @classmethod
    def _plain(cls, value: str) -> str:
        return check_plain(value, "a trusted key's name")


class KeyringFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    format: str = Field(pattern="^wake-keyring$")
    version: int = Field(ge=1, le=1)
    keys: list[TrustedKey] = Field(max_length=MAX_KEYS)


@dataclass(frozen=True)
class Keyring:
    """The keys a user trusts (possibly none) and where they are kept."""

    path: Path
    keys: tuple[TrustedKey, ...] = ()

    def name_of(self, public_key: str) -> str | None:
        """The name the user trusts ``public_key`` (base64, raw) under, or None."""
        return next((k.name for k in self.keys if k.public_key == public_key), None)

    def with_key(self, public_key: bytes, name: str) -> Keyring:
        """This keyring and ``public_key`` (raw) as ``name``, in memory only (a key given
        on the command line for one check); unchanged if the key is in it already."""
        from domain.record.signing import fingerprint

        encoded = base64.b64encode(public_key).decode("ascii")
        if self.name_of(encoded) is not None:
            return self
        key = TrustedKey(name=name, public_key=encoded, fingerprint=fingerprint(public_key))
        return Keyring(self.path, (*self.keys, key))


def keyring_path(explicit: Path | None = None) -> Path:
    """Where the keyring is: ``explicit``, else ``$WAKE_KEYRING``, else the user's config dir."""
    if explicit is not None:
        return explicit
    env = os.environ.get(KEYRING_ENV)
    if env:
        return Path(env)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "wake" / "keyring.json"


def load_keyring(explicit: Path | None = None) -> Keyring:
    """The keyring (empty when its file does not exist).

    Raises:
        SignatureError: the file cannot be read (special, too large) or is not a keyring.
    """
    path = keyring_path(explicit)
    if not path.exists() and not path.is_symlink():
        return Keyring(path)
    try:
        body = safe_json.loads(read_bounded(path, MAX_KEYRING_BYTES).decode("utf-8"))
        parsed = KeyringFile.model_validate(body, strict=True)
    except RecordError as exc:
        raise SignatureError(f"keyring {exc.message}") from None
    except (UnicodeDecodeError, safe_json.JSONInputError) as exc:
        raise SignatureError(f"keyring {path}: not JSON ({exc})") from None
    except ValidationError as exc:
        raise SignatureError(f"keyring {path}: not a keyring ({validation_summary(exc)})") from None
    return Keyring(path, tuple(parsed.keys))


def _save(ring: Keyring, keys: Sequence[TrustedKey]) -> Keyring:
    from domain.record.writer import write_text_atomic

    body = KeyringFile(format="wake-keyring", version=1, keys=list(keys))
    ring.path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(body.model_dump_json(indent=1) + "\n", ring.path)
    return Keyring(ring.path, tuple(keys))


def trust_key(ring: Keyring, public_key: bytes, name: str) -> Keyring:
    """``ring`` with ``public_key`` (raw 32 bytes) trusted as ``name``, saved.

    Raises:
        SignatureError: the name is empty, not plain text, or already names another key; the
            key is already trusted (under another name); the keyring is full.
    """
    from domain.record.signing import fingerprint

    encoded = base64.b64encode(public_key).decode("ascii")
    name = name.strip()
    try:
        key = TrustedKey(name=name, public_key=encoded, fingerprint=fingerprint(public_key))
    except ValueError as exc:
        raise SignatureError(f"cannot trust a key as {name[:60]!r}: {exc}") from None
    held = ring.name_of(encoded)
    if held is not None:
        raise SignatureError(f"key {key.fingerprint} is already trusted as {held!r}")
    if any(k.name == name for k in ring.keys):
        raise SignatureError(f"another key is already trusted as {name!r}: remove it first")
    if len(ring.keys) >= MAX_KEYS:
        raise SignatureError(f"the keyring holds {MAX_KEYS} keys, the limit")
    return _save(ring, [*ring.keys, key])


def distrust(ring: Keyring, name_or_fingerprint: str) -> tuple[Keyring, TrustedKey]:
    """``ring`` without the key of that name or fingerprint, saved; and the key removed.

    Raises:
        SignatureError: no such key.
    """
    wanted = name_or_fingerprint.strip()
    found = next((k for k in ring.keys if wanted in (k.name, k.fingerprint)), None)
    if found is None:
        raise SignatureError(f"no trusted key named {wanted[:60]!r} in {ring.path}")
    return _save(ring, [k for k in ring.keys if k is not found]), found
