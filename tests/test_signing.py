"""Issue 12, gap 1: signed records. A chain alone can be recomputed by anyone; an Ed25519
signature over the chain head cannot be moved to a forged, re-chained record."""

from __future__ import annotations

import base64
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from typer.testing import CliRunner

from domain.cli.app import app
from domain.errors import RecordError, SignatureError
from domain.record import read_record, signing, verify_record
from domain.record.writer import dumps
from tests.forge import RIVER_PLATE_RECORD, rechain
from tests.helpers import FIXTURES, RECORDS

runner = CliRunner()
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
OTHER = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))


def wake(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"traceback for {args}: {result.exception!r}")
    return result.exit_code, result.output


def signed_text(key: Ed25519PrivateKey = KEY, signer: str = "Ann", role: str = "umpire") -> str:
    rec = read_record(RIVER_PLATE_RECORD.read_bytes())
    return dumps(signing.sign(rec, key, signer, role))


def forge(text: str, edit: Any) -> str:
    """Edit a record body, recompute its chain (keeping its signatures), return the text."""
    body = json.loads(text)
    edit(body)
    return json.dumps(rechain(body), indent=1, ensure_ascii=False) + "\n"


def retitle(body: dict[str, Any]) -> None:
    body["header"]["title"] = "Another game entirely"


def truncate(body: dict[str, Any]) -> None:
    last = max(i for i, e in enumerate(body["events"]) if e["topic"] == "wake.CommandIssued/1")
    del body["events"][last:]


def test_signing_changes_no_digest_and_the_rest_of_the_file_stays_byte_for_byte() -> None:
    original = RIVER_PLATE_RECORD.read_text("utf-8")
    text = signed_text()
    body = json.loads(text)
    assert len(body["signatures"]) == 1
    del body["signatures"]
    assert json.dumps(body, indent=1, ensure_ascii=False) + "\n" == original
    rec = read_record(text, strict=True)
    assert rec.chain == read_record(original).chain
    [check] = signing.check_signatures(rec)
    assert check.valid and check.describe().startswith("signed by Ann (umpire), key SHA256:")
    assert check.describe().endswith(": valid")
    assert signing.signed_by(rec, KEY.public_key()) == check


@pytest.mark.parametrize("path", RECORDS[:6], ids=lambda p: p.name)
def test_v1_records_without_signatures_are_written_unchanged(path: Path) -> None:
    text = path.read_text("utf-8")
    rec = read_record(text, strict=True)
    assert rec.signatures is None and dumps(rec) == text and '"signatures"' not in text


def test_an_unknown_top_level_field_is_still_refused() -> None:
    body = json.loads(signed_text())
    body["signatures_v2"] = []
    with pytest.raises(RecordError, match="signatures_v2"):
        read_record(json.dumps(body))


def test_the_signed_message_is_the_canonical_json_of_the_head_signer_and_role() -> None:
    rec = read_record(signed_text())
    [sig] = rec.signatures or []
    expected = json.dumps(
        {
            "context": "wake-record-signature/1",
            "game_id": rec.header.game_id,
            "genesis": rec.chain.genesis,
            "head": rec.chain.head,
            "length": rec.chain.length,
            "role": "umpire",
            "signer": "Ann",
        },
        sort_keys=True,
        separators=(",", ":"),
    ).encode()
    KEY.public_key().verify(base64.b64decode(sig.signature), expected)


@pytest.mark.parametrize("edit", [retitle, truncate], ids=["header", "truncated"])
def test_a_forged_rechained_record_passes_the_chain_and_rerun_but_not_the_signature(
    edit: Any,
) -> None:
    forged = read_record(forge(signed_text(), edit))  # the chain holds: it was recomputed
    verify_record(forged)  # and so does the re-run
    [check] = signing.check_signatures(forged)
    assert not check.valid and "another chain head" in check.describe()
    assert signing.signed_by(forged, KEY.public_key()) is None


def test_a_forger_re_signing_with_their_own_key_is_not_the_umpire() -> None:
    forged = read_record(forge(signed_text(), retitle))
    body = json.loads(dumps(forged))
    del body["signatures"]
    resigned = signing.sign(read_record(json.dumps(body)), OTHER, "Ann", "umpire")
    [check] = signing.check_signatures(resigned)
    assert check.valid  # a valid signature, by another key: the fingerprint tells them apart
    assert signing.signed_by(resigned, KEY.public_key()) is None


def tampered(field: str, value: Any) -> list[signing.SignatureCheck]:
    body = json.loads(signed_text())
    body["signatures"][0][field] = value
    return signing.check_signatures(read_record(json.dumps(body)))


def test_a_tampered_signature_a_relabelled_signer_or_a_swapped_key_does_not_hold() -> None:
    sig = json.loads(signed_text())["signatures"][0]
    raw = bytearray(base64.b64decode(sig["signature"]))
    raw[0] ^= 1
    other_pub = base64.b64encode(signing.raw_public_key(OTHER.public_key())).decode()
    for field, value in (
        ("signature", base64.b64encode(bytes(raw)).decode()),
        ("signer", "Bob"),
        ("role", "organiser"),
        ("public_key", other_pub),
    ):
        [check] = tampered(field, value)
        assert not check.valid, field


def test_a_malformed_signature_is_refused_by_the_reader_in_one_line() -> None:
    body = json.loads(signed_text())
    body["signatures"][0]["signature"] = "not base64!"
    with pytest.raises(RecordError, match=r"signatures\[0\]\.signature"):
        read_record(json.dumps(body))


def test_sign_refuses_an_unknown_role_and_a_control_character_in_the_name() -> None:
    rec = read_record(RIVER_PLATE_RECORD.read_bytes())
    with pytest.raises(SignatureError, match="role"):
        signing.sign(rec, KEY, "Ann", "referee")
    with pytest.raises(SignatureError):
        signing.sign(rec, KEY, "Ann\nsigned by Bob", "umpire")


def test_signing_twice_with_one_key_keeps_one_signature_and_two_keys_keep_two() -> None:
    rec = read_record(signed_text())
    assert len(signing.sign(rec, KEY, "Ann", "umpire").signatures or []) == 1
    both = signing.sign(rec, OTHER, "Server", "server")
    assert [c.valid for c in signing.check_signatures(both)] == [True, True]


def test_cli_keygen_sign_verify(tmp_path: Path) -> None:
    key = tmp_path / "umpire.key"
    code, out = wake("keygen", "-o", str(key))
    assert code == 0, out
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    assert (tmp_path / "umpire.key.pub").read_text().startswith("-----BEGIN PUBLIC KEY-----")
    before = key.read_bytes()
    code, out = wake("keygen", "-o", str(key))
    assert code == 2 and "not overwriting" in out and key.read_bytes() == before

    rec = tmp_path / "game.wake.json"
    rec.write_bytes(RIVER_PLATE_RECORD.read_bytes())
    code, out = wake("sign", str(rec), "--key", str(key), "--signer", "Ann", "--role", "umpire")
    assert code == 0, out
    code, out = wake("verify", "--strict", str(rec), "--key", str(key) + ".pub")
    assert code == 0 and "signed by Ann (umpire)" in out and ": valid" in out, out

    other = tmp_path / "other.key"
    wake("keygen", "-o", str(other))
    code, out = wake("verify", str(rec), "--key", str(other) + ".pub")
    assert code == 1 and "no valid signature by key" in out, out

    fake = tmp_path / "forged.wake.json"
    fake.write_text(forge(rec.read_text("utf-8"), retitle), "utf-8")
    code, out = wake("verify", str(fake))
    assert code == 1 and "INVALID" in out, out
    code, out = wake("verify", str(fake), "--key", str(key) + ".pub")
    assert code == 1, out


def test_cli_sign_refuses_a_record_that_does_not_verify_and_a_bad_key(tmp_path: Path) -> None:
    rec = tmp_path / "game.wake.json"
    rec.write_bytes(RIVER_PLATE_RECORD.read_bytes())
    junk = tmp_path / "junk.key"
    junk.write_text("hello")
    code, out = wake("sign", str(rec), "--key", str(junk), "--signer", "Ann")
    assert code == 2 and "not an unencrypted PEM private key" in out, out
    code, out = wake("verify", str(rec), "--key", str(junk))
    assert code == 2 and len(out.strip().splitlines()) == 1, out
    key = tmp_path / "k"
    wake("keygen", "-o", str(key))
    code, out = wake("sign", str(rec), "--key", str(key), "--signer", "Ann", "--role", "judge")
    assert code == 2 and "--role" in out
    body = json.loads(rec.read_text("utf-8"))
    body["events"][-1]["payload"]["bogus"] = 1  # tampered, not re-chained
    rec.write_text(json.dumps(body, indent=1), "utf-8")
    code, out = wake("sign", str(rec), "--key", str(key), "--signer", "Ann")
    assert code == 2 and "signatures" not in rec.read_text("utf-8")


# --- signatures kept in the store (issue 12) ----------------------------------------------------


def test_import_keeps_a_records_signatures_and_export_carries_them(tmp_path: Path) -> None:
    """A signed record imported and exported again is byte for byte the signed record."""
    from domain.store import GameStore

    path = tmp_path / "signed.wake.json"
    path.write_text(signed_text(), "utf-8")
    store = str(tmp_path / "s.sqlite3")
    code, out = wake("import", str(path), "--store", store)
    assert code == 0 and "with 1 signature(s)" in out, out
    game_id = read_record(path.read_bytes()).header.game_id
    assert [s.signer for s in GameStore(store).signatures(game_id)] == ["Ann"]
    code, out = wake("export", game_id, "--store", store, "-o", str(tmp_path / "again.wake.json"))
    assert code == 0, out
    assert (tmp_path / "again.wake.json").read_text("utf-8") == path.read_text("utf-8")


def test_a_stored_game_is_signed_in_the_store_and_verified_with_a_key(tmp_path: Path) -> None:
    """``wake sign GAME_ID`` keeps the signature with the stored game; ``verify --game --key``
    requires it; a game played on after signing keeps a signature of its first events only."""
    from domain.engine import CommandEnvelope, Session
    from domain.store import GameStore

    key = tmp_path / "umpire.key"
    assert wake("keygen", "-o", str(key))[0] == 0
    rec = read_record(RIVER_PLATE_RECORD.read_bytes())
    cut = next(i for i, f in enumerate(rec.events) if f.command == 40)
    store = str(tmp_path / "s.sqlite3")
    st = GameStore(store)
    game_id = st.import_game(rec.header, rec.events[:cut])
    code, out = wake("sign", game_id, "--key", str(key), "--signer", "Ann", "--store", store)
    assert code == 0 and f"game {game_id}: signed by Ann (umpire)" in out, out
    code, out = wake("verify", "--game", game_id, "--key", str(key) + ".pub", "--store", store)
    assert code == 0 and "signed by Ann (umpire)" in out and ": valid" in out, out

    session = Session(rec.header, rec.events[:cut])
    nxt = next(f for f in rec.events[cut:] if f.topic == "wake.CommandIssued/1").payload
    st.submit(game_id, CommandEnvelope(side=nxt["side"], command=nxt["command"]))
    assert session.state.seq == cut
    code, out = wake("verify", "--game", game_id, "--store", store)
    assert code == 0 and f"valid for the first {cut} events" in out, out
    code, out = wake("verify", "--game", game_id, "--key", str(key) + ".pub", "--store", store)
    assert code == 1 and "no valid signature by key" in out, out


def test_the_store_refuses_a_signature_of_another_game(tmp_path: Path) -> None:
    from domain.errors import SignatureError
    from domain.store import GameStore

    other = read_record(signed_text().encode())
    rec = read_record((FIXTURES / "games/morze/denmark_strait-draw.wake.json").read_bytes())
    st = GameStore(str(tmp_path / "s.sqlite3"))
    game_id = st.import_game(rec.header, rec.events)
    with pytest.raises(SignatureError, match="another chain head"):
        st.add_signatures(game_id, other.signatures or ())
    assert st.signatures(game_id) == []
    fresh = GameStore(str(tmp_path / "fresh.sqlite3"))
    with pytest.raises(SignatureError, match="another chain head"):
        fresh.import_game(rec.header, rec.events, None, other.signatures or ())
    assert fresh.game_ids() == []  # nothing of the game was stored
