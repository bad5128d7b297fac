"""Signed records: an umpire, organiser or server vouches for a game's chain head with Ed25519.

A hash chain without a key proves only that nobody edited the record *without recomputing the
chain*; anyone can recompute it. A signature adds who vouches for this exact chain: forging a
signed record needs the signer's private key.

**What is signed** (the message, in bytes) is the canonical JSON (sorted keys, no whitespace,
UTF-8; ``domain.canonical.canonical_json``) of::

    {"context": "wake-record-signature/1", "game_id": ..., "genesis": ..., "head": ...,
     "length": ..., "role": ..., "signer": ...}

where ``genesis`` is the chain's genesis (the SHA-256 of the canonical header, so it covers the
game id, scenario, options, dice and sides), ``head`` the digest of the last event (which covers
every event before it) and ``length`` the number of events. The signer's name and role are signed
too, so a signature cannot be relabelled. Signatures live outside the chain in the record's
optional ``signatures`` list, so adding one changes no digest.
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from domain.canonical import canonical_json
from domain.errors import RecordError, SignatureError
from domain.record.model import MAX_SIGNATURES, Record, Signature, SignedHead
from domain.record.reader import read_bounded


class Keyring(Protocol):
    """Whose keys the reader trusts (``domain.record.keyring.Keyring``): a key's name, or None."""

    def name_of(self, public_key: str) -> str | None: ...


CONTEXT: Final = "wake-record-signature/1"
ROLES: Final = ("umpire", "organiser", "server")
#: A side's player co-signs with this role (``sign(..., side=...)``, issue 23 item 7).
PLAYER: Final = "player"
MAX_KEY_FILE_BYTES: Final = 16 * 1024


def signed_head(record: Record) -> SignedHead:
    """The chain head of ``record``, as a signature covers it."""
    return SignedHead(
        game_id=record.header.game_id,
        genesis=record.chain.genesis,
        head=record.chain.head,
        length=record.chain.length,
    )


def message(signed: SignedHead, signer: str, role: str, side: str | None = None) -> bytes:
    """The exact bytes an Ed25519 signature of a record signs (see the module docstring; a
    player's co-signature also signs its ``side``, absent from the others' messages)."""
    body = {"context": CONTEXT, **signed.model_dump(), "signer": signer, "role": role}
    if side is not None:
        body["side"] = side
    return canonical_json(body)


def raw_public_key(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def fingerprint(public_key: bytes | Ed25519PublicKey) -> str:
    """A short name for a public key: the first 16 bytes of SHA-256 of its raw 32 bytes, hex,
    in groups of four (``SHA256:1a2b 3c4d ...``)."""
    raw = public_key if isinstance(public_key, bytes) else raw_public_key(public_key)
    hexed = hashlib.sha256(raw).hexdigest()[:32]
    return "SHA256:" + " ".join(hexed[i : i + 4] for i in range(0, 32, 4))


@dataclass(frozen=True)
class SignatureCheck:
    """Whether one signature of a record holds, and why not."""

    signature: Signature
    valid: bool
    reason: str = ""
    #: how many events the game has beyond those the signature covers (a game signed, then
    #: played on: the signature still vouches for the events it covers)
    beyond: int = 0

    @property
    def fingerprint(self) -> str:
        return fingerprint(base64.b64decode(self.signature.public_key))

    def trusted_as(self, keyring: Keyring | None) -> str | None:
        """The name ``keyring`` trusts this signature's key under (None: not in it)."""
        return keyring.name_of(self.signature.public_key) if keyring is not None else None

    def describe(self, keyring: Keyring | None = None) -> str:
        """One line, e.g. ``signed by Ann (umpire), key SHA256:...: valid``. With the user's
        ``keyring`` (issue 23 item 7) it says whose key it is: ``signed by Ann (umpire),
        trusted key "Ann" SHA256:...: valid`` or ``signed by an unknown key claiming to be Ann
        (umpire), key SHA256:...: valid signature, key not trusted``."""
        sig = self.signature
        status = "valid" if self.valid else f"INVALID ({self.reason})"
        if self.valid and self.beyond:
            status += (
                f" for the first {sig.signed.length} events (the {self.beyond} after them are "
                "not signed)"
            )
        side = f", side {sig.side}" if sig.side is not None else ""
        if keyring is None:
            return f"signed by {sig.signer} ({sig.role}{side}), key {self.fingerprint}: {status}"
        name = self.trusted_as(keyring)
        if name is None:
            return (
                f"signed by an unknown key claiming to be {sig.signer} ({sig.role}{side}), key "
                f"{self.fingerprint}: {status}{' signature, key not trusted' if self.valid else ''}"
            )
        return (
            f"signed by {sig.signer} ({sig.role}{side}), trusted key {name!r} "
            f"{self.fingerprint}: {status}"
        )


def check_signature(record: Record, signature: Signature) -> SignatureCheck:
    """Check that ``signature`` is a valid Ed25519 signature of this record's chain head, or of
    the head of one of its prefixes (the game went on after it was signed)."""
    return check_chain_signature(
        record.header.game_id,
        record.chain.genesis,
        [fact.digest for fact in record.events],
        signature,
    )


def check_chain_signature(
    game_id: str, genesis: str, digests: Sequence[str], signature: Signature
) -> SignatureCheck:
    """Check ``signature`` against a game's chain: its id, genesis and event ``digests``.

    Valid when the key signed exactly this game's genesis and the digest of one of its events
    (the last one, or an earlier one: ``beyond`` says how many came after)."""
    signed = signature.signed
    length = signed.length
    head = digests[length - 1] if 0 < length <= len(digests) else genesis
    if (
        signed.game_id != game_id
        or signed.genesis != genesis
        or length > len(digests)
        or signed.head != head
    ):
        return SignatureCheck(signature, False, "it signs another chain head than this record's")
    beyond = len(digests) - length
    try:
        key = Ed25519PublicKey.from_public_bytes(base64.b64decode(signature.public_key))
        key.verify(
            base64.b64decode(signature.signature),
            message(signature.signed, signature.signer, signature.role, signature.side),
        )
    except (InvalidSignature, ValueError):
        return SignatureCheck(signature, False, "the signature does not match the key and head")
    return SignatureCheck(signature, True, beyond=beyond)


def check_signatures(record: Record) -> list[SignatureCheck]:
    """Every signature of ``record``, checked."""
    return [check_signature(record, sig) for sig in record.signatures or ()]


def sides_signed(
    sides: Sequence[str], checks: Sequence[SignatureCheck], keyring: Keyring | None = None
) -> str | None:
    """``"signed by both sides"`` (``"by every side"`` for more than two) when each side's
    player co-signed the whole chain (a valid ``player`` signature for that side with nothing
    beyond it), else None; with a ``keyring``, it says whether each side's key is trusted. A
    game whose faces were changed and re-chained after the players signed loses this: their
    signatures no longer match its head."""
    players = [c for c in checks if c.valid and not c.beyond and c.signature.role == PLAYER]
    if not sides or not set(sides) <= {c.signature.side for c in players}:
        return None
    said = "signed by both sides" if len(sides) == 2 else "signed by every side"
    if keyring is None:
        return said
    trusted = {c.signature.side for c in players if c.trusted_as(keyring) is not None}
    untrusted = [side for side in sides if side not in trusted]
    if not untrusted:
        return f"{said} (every side's key trusted)"
    return f"{said} (but the key of {', '.join(untrusted)} is not trusted)"


def signed_by(record: Record, key: Ed25519PublicKey) -> SignatureCheck | None:
    """The valid signature of ``record`` by ``key`` covering its chain head, if there is one."""
    raw = base64.b64encode(raw_public_key(key)).decode("ascii")
    for check in check_signatures(record):
        if check.signature.public_key == raw and check.valid and not check.beyond:
            return check
    return None


def sign(
    record: Record, key: Ed25519PrivateKey, signer: str, role: str, side: str | None = None
) -> Record:
    """``record`` with one more signature: ``key``'s over its chain head, by ``signer`` in
    ``role`` (with ``side``: the co-signature of that side's player, role ``player``). A
    signature by the same key over the same head is replaced.

    Raises:
        SignatureError: an unknown role or side, a bad signer name, or too many signatures.
    """
    if side is not None:
        sides = [s.id for s in record.header.sides]
        if side not in sides:
            raise SignatureError(f"the game has no side {side[:40]!r} (sides: {', '.join(sides)})")
        role = PLAYER
    elif role not in ROLES:
        raise SignatureError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
    head = signed_head(record)
    public = base64.b64encode(raw_public_key(key.public_key())).decode("ascii")
    signed = base64.b64encode(key.sign(message(head, signer, role, side))).decode("ascii")
    try:
        signature = Signature(
            signer=signer,
            role=role,
            side=side,
            public_key=public,
            signed=head,
            signature=signed,
        )
    except ValueError as exc:
        raise SignatureError(f"cannot sign as {signer[:60]!r}: {exc}") from None
    kept = [s for s in record.signatures or () if not (s.public_key == public and s.signed == head)]
    if len(kept) >= MAX_SIGNATURES:
        raise SignatureError(f"the record already carries {MAX_SIGNATURES} signatures")
    return record.model_copy(update={"signatures": [*kept, signature]})


# --- key files ----------------------------------------------------------------------------------


def write_keypair(path: Path) -> Ed25519PublicKey:
    """A new Ed25519 key: the private key (PKCS#8 PEM, mode 0600) at ``path`` and the public
    key (SubjectPublicKeyInfo PEM) at ``path`` + ``.pub``. Neither file may exist.

    Raises:
        SignatureError: a file exists already or cannot be written.
    """
    pub_path = public_key_path(path)
    for target in (path, pub_path):
        if target.exists() or target.is_symlink():
            raise SignatureError(f"{target} exists; not overwriting a key")
    key = Ed25519PrivateKey.generate()
    private_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public_pem = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    try:
        for target, data, mode in ((path, private_pem, 0o600), (pub_path, public_pem, 0o644)):
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.chmod(target, mode)  # whatever the umask
    except OSError as exc:
        raise SignatureError(f"cannot write the key: {exc.strerror or exc}") from None
    return key.public_key()


def public_key_path(path: Path) -> Path:
    return path.with_name(path.name + ".pub")


def _read_key(path: Path) -> bytes:
    try:
        return read_bounded(path, MAX_KEY_FILE_BYTES)
    except RecordError as exc:
        raise SignatureError(exc.message) from None


def load_private_key(path: Path) -> Ed25519PrivateKey:
    """An Ed25519 private key from a PEM file (as ``wake keygen`` writes).

    Raises:
        SignatureError: unreadable, not PEM, encrypted, or not an Ed25519 private key.
    """
    try:
        key = serialization.load_pem_private_key(_read_key(path), password=None)
    except (ValueError, TypeError) as exc:
        raise SignatureError(f"{path}: not an unencrypted PEM private key ({exc})") from None
    except Exception as exc:  # cryptography raises its own types for some malformed keys
        raise SignatureError(f"{path}: not a usable private key ({type(exc).__name__})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SignatureError(f"{path}: not an Ed25519 private key")
    return key


def load_public_key(path: Path) -> Ed25519PublicKey:
    """An Ed25519 public key from a PEM file (a ``.pub`` from ``wake keygen``); a private key
    file gives its public half.

    Raises:
        SignatureError: unreadable, not PEM, or not an Ed25519 key.
    """
    data = _read_key(path)
    if b"PRIVATE KEY" in data:
        return load_private_key(path).public_key()
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError) as exc:
        raise SignatureError(f"{path}: not a PEM public key ({exc})") from None
    except Exception as exc:
        raise SignatureError(f"{path}: not a usable public key ({type(exc).__name__})") from None
    if not isinstance(key, Ed25519PublicKey):
        raise SignatureError(f"{path}: not an Ed25519 public key")
    return key
