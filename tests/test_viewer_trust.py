"""Issue 12, gap 3: the viewer re-runs what it shows and says so under the title: "verified",
who signed it and whether that holds, or "NOT verified: first bad event N" as a warning."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from streamlit.testing.v1 import AppTest

from domain.record import read_record
from domain.record.signing import sign
from domain.record.writer import dumps
from domain.store import GameStore
from tests.cli_helpers import wake
from tests.forge import RIVER_PLATE_RECORD, forged, load
from viewer.loading import check_game, from_bytes, from_store

APP = str(Path(__file__).resolve().parents[1] / "viewer" / "app.py")
ROLL = "wake.DiceRolled/1"
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))


def _roll_seq() -> int:
    return next(e["seq"] for e in load()["events"] if e["topic"] == ROLL)


def _change_a_face(body: dict[str, Any]) -> None:
    roll = next(e for e in body["events"] if e["seq"] == _roll_seq())["payload"]["roll"]
    roll["faces"] = [11 - f for f in roll["faces"]]  # a d10 face turned over


def _retitle(body: dict[str, Any]) -> None:
    body["header"]["title"] = "Not the game that was signed"


def _signed(text: str) -> str:
    return dumps(sign(read_record(text), KEY, "Ann *Umpire*", "umpire"))


def _open(path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> AppTest:
    monkeypatch.setenv("WAKE_STORE", str(tmp_path / "unused.sqlite3"))
    monkeypatch.setattr(sys, "argv", ["app.py", "--record", str(path)])
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _plain(values: list[str]) -> list[str]:
    return [v.replace("\\", "") for v in values]


def test_check_game_flags_a_forged_rechained_record_at_its_first_bad_event() -> None:
    good = check_game(from_bytes(RIVER_PLATE_RECORD.read_bytes(), "good.wake.json"))
    assert good.verified and good.genuine and good.summary.startswith("verified")
    bad = check_game(from_bytes(forged(_change_a_face).encode(), "forged.wake.json"))
    assert not bad.verified and not bad.genuine
    assert bad.summary.startswith(f"NOT verified: first bad event {_roll_seq()} - ")


def test_check_game_of_a_signed_record_and_of_one_forged_after_signing(tmp_path: Path) -> None:
    signed = _signed(RIVER_PLATE_RECORD.read_text("utf-8"))
    trust = check_game(from_bytes(signed.encode(), "signed.wake.json"))
    assert trust.genuine and [s.valid for s in trust.signatures] == [True]
    path = tmp_path / "signed.wake.json"
    path.write_text(signed, "utf-8")
    resigned = forged(_retitle, path=path)
    trust = check_game(from_bytes(resigned.encode(), "forged.wake.json"))
    assert trust.verified and not trust.genuine  # re-runs, but the signature does not hold


def test_a_stored_game_is_checked_too(tmp_path: Path) -> None:
    rec = read_record(RIVER_PLATE_RECORD.read_bytes())
    store = str(tmp_path / "w.sqlite3")
    GameStore(store).import_game(rec.header, rec.events)
    assert check_game(from_store(store, rec.header.game_id)).genuine


def test_the_viewer_says_a_good_record_is_verified(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    at = _open(RIVER_PLATE_RECORD, monkeypatch, tmp_path)
    assert _plain([s.value for s in at.success]) == [
        "Verified: every order re-run gives the recorded events"
    ]
    assert not at.warning


def test_the_viewer_warns_about_a_forged_rechained_record(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "forged.wake.json"
    path.write_text(forged(_change_a_face), "utf-8")
    at = _open(path, monkeypatch, tmp_path)
    assert not at.success
    [warning] = _plain([w.value for w in at.warning])
    assert warning.startswith(f"NOT verified: first bad event {_roll_seq()} - ")


def test_the_viewer_shows_who_signed_and_whether_it_holds(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 23 item 7: a key not in the user's keyring is "an unknown key claiming to be";
    a trusted one is named; an invalid signature is never under a green banner."""
    signed = tmp_path / "signed.wake.json"
    signed.write_text(_signed(RIVER_PLATE_RECORD.read_text("utf-8")), "utf-8")
    at = _open(signed, monkeypatch, tmp_path)
    assert len(at.success) == 1  # verified; the key is nobody the user trusts
    [warning] = _plain([w.value for w in at.warning])
    assert warning.startswith("Signed by an unknown key claiming to be Ann *Umpire* (umpire)")
    assert warning.endswith(": valid signature, key not trusted")

    public = tmp_path / "ann.pub"
    public.write_bytes(
        KEY.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    )
    keyring = tmp_path / "keyring.json"
    assert wake("trust", "add", str(public), "--name", "Ann", "--keyring", str(keyring))[0] == 0
    monkeypatch.setenv("WAKE_KEYRING", str(keyring))
    at = _open(signed, monkeypatch, tmp_path)
    lines = [s.value for s in at.success]
    assert len(lines) == 2 and not at.warning
    assert lines[1].startswith(r"Signed by Ann \*Umpire\* \(umpire\), trusted key 'Ann'")
    assert lines[1].endswith(": valid")

    fake = tmp_path / "resigned.wake.json"
    fake.write_text(forged(_retitle, path=signed), "utf-8")
    at = _open(fake, monkeypatch, tmp_path)
    assert not at.success  # re-runs, but its signature does not: no green banner at all
    [warning] = _plain([w.value for w in at.warning])
    assert warning.startswith("Verified: every order") and "signature does NOT hold" in warning
    [error] = _plain([e.value for e in at.error])
    assert error.startswith("Signed by Ann *Umpire* (umpire)") and "INVALID" in error
