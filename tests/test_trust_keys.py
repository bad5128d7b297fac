"""Issue 23 item 7: signatures say who is trusted. ``wake trust add|list|remove`` keep the user's
keyring; ``wake verify`` names a signature's key from it ("an unknown key claiming to be Ann"
otherwise; ``--trusted`` requires a trusted one); each side's player co-signs with ``wake sign
--side`` and verify says "signed by both sides", which a physical game whose faces were changed
and re-chained loses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.engine import CommandEnvelope, Session
from domain.errors import WakeError
from domain.record import read_record_file, write_record
from domain.record.model import RecordedCommand
from tests.cli_helpers import wake
from tests.helpers import FIXTURES

RECORD = FIXTURES / "games" / "morze" / "river_plate-annihilation.wake.json"
PHYSICAL = FIXTURES / "games" / "morze" / "narvik_destroyers-physical.wake.json"


def _key(tmp_path: Path, name: str) -> Path:
    key = tmp_path / f"{name}.key"
    assert wake("keygen", "-o", str(key))[0] == 0
    return key


def _signed(tmp_path: Path, key: Path, *extra: str, source: Path = RECORD) -> Path:
    out = tmp_path / "signed.wake.json"
    if not out.exists():
        out.write_text(source.read_text("utf-8"), "utf-8")
    code, _, err = wake("sign", str(out), "--key", str(key), *extra)
    assert code == 0, err
    return out


def test_trust_add_list_remove(tmp_path: Path) -> None:
    """Issue 23 item 7: the keyring commands, and their bad input (exit 2, one line)."""
    ring = str(tmp_path / "ring" / "keyring.json")
    ann = _key(tmp_path, "ann")
    code, out, _ = wake("trust", "list", "--keyring", ring)
    assert code == 0 and out.startswith("no trusted keys")
    code, out, err = wake("trust", "add", f"{ann}.pub", "--name", "Ann", "--keyring", ring)
    assert code == 0 and "as 'Ann'" in out, err
    code, out, _ = wake("trust", "list", "--keyring", ring)
    assert code == 0 and out.startswith("Ann  SHA256:")
    for args in (
        ["add", f"{ann}.pub", "--name", "Annie"],  # the same key again
        ["add", str(_key(tmp_path, "bob")) + ".pub", "--name", "Ann"],  # the same name
        ["add", f"{ann}.pub", "--name", "A\x1b[2J"],  # not plain text
        ["remove", "Zed"],
    ):
        code, _, err = wake("trust", *args, "--keyring", ring)
        assert code == 2 and err.startswith("error (signature)") and err.count("\n") == 1, args
    code, out, _ = wake("trust", "remove", "Ann", "--keyring", ring)
    assert code == 0 and "no longer trusted: 'Ann'" in out
    assert wake("trust", "list", "--keyring", ring)[1].startswith("no trusted keys")


@pytest.mark.parametrize("bad", ["/dev/zero", "dir", "notjson"])
def test_a_bad_keyring_is_bad_input(bad: str, tmp_path: Path) -> None:
    """Issue 23 item 7 (and 4): the keyring is read bounded like every input file."""
    path = Path(bad)
    if bad == "dir":
        path = tmp_path / "dir"
        path.mkdir()
    elif bad == "notjson":
        path = tmp_path / "ring.json"
        path.write_text("{", "utf-8")
    code, _, err = wake("trust", "list", "--keyring", str(path))
    assert code == 2 and "keyring" in err and err.count("\n") == 1
    code, _, err = wake("verify", str(RECORD), "--keyring", str(path))
    assert code == 2 and err.count("\n") == 1


def test_verify_names_an_unknown_key_and_a_trusted_one(tmp_path: Path) -> None:
    """Issue 23 item 7: "an unknown key claiming to be Ann" until the user trusts the key."""
    ann = _key(tmp_path, "ann")
    signed = _signed(tmp_path, ann, "--signer", "Ann", "--role", "umpire")
    ring = str(tmp_path / "keyring.json")
    code, out, _ = wake("verify", str(signed), "--keyring", ring)
    assert code == 0
    assert "signed by an unknown key claiming to be Ann (umpire)" in out
    assert "valid signature, key not trusted" in out
    code, out, _ = wake("verify", str(signed), "--keyring", ring, "--trusted")
    assert code == 1 and "no valid signature by a trusted key" in out
    assert wake("trust", "add", f"{ann}.pub", "--name", "Ann", "--keyring", ring)[0] == 0
    code, out, _ = wake("verify", str(signed), "--keyring", ring, "--trusted")
    assert code == 0 and "signed by Ann (umpire), trusted key 'Ann'" in out


def _faces_changed(signed: Path, out: Path) -> Path:
    """The signed physical game re-recorded with one order's faces changed: the same header,
    the same orders up to the last one that rolled, whose first face is turned over; a valid
    game (it re-runs) carrying the original's signatures, as a forger would re-chain it."""
    record = read_record_file(signed)
    last = max(c.index for c in record.commands if c.dice)
    prefix = Session(record.header)
    for command in record.commands[:last]:
        prefix.submit(_envelope(command, command.dice))
    command = record.commands[last]
    assert command.dice
    for face in range(1, 11):  # a face that still makes a complete order
        if face == command.dice[0]:
            continue
        session = Session(record.header, list(prefix.facts))
        try:
            session.submit(_envelope(command, [face, *command.dice[1:]]))
        except WakeError:
            continue
        write_record(record.header, session.facts, out, signatures=record.signatures or ())
        return out
    raise AssertionError("no other face makes a complete order")


def _envelope(command: RecordedCommand, dice: list[int] | None) -> CommandEnvelope:
    return CommandEnvelope(
        side=command.side, command=command.command, dice=dice, cards=command.cards,
        time=command.time,
    )  # fmt: skip


def test_both_sides_co_sign_and_a_re_chained_physical_game_is_caught(tmp_path: Path) -> None:
    """Issue 23 item 7: each side co-signs; changing faces and re-chaining (which passes a
    chain check, as documented) is then caught, because the players' signatures break."""
    sides = [s["id"] for s in json.loads(PHYSICAL.read_text("utf-8"))["header"]["sides"]]
    ring = str(tmp_path / "keyring.json")
    for n, side in enumerate(sides):
        key = _key(tmp_path, side)
        _signed(tmp_path, key, "--signer", f"Player {n}", "--side", side, source=PHYSICAL)
        assert wake("trust", "add", f"{key}.pub", "--name", f"P{n}", "--keyring", ring)[0] == 0
    signed = tmp_path / "signed.wake.json"
    code, out, err = wake("verify", str(signed), "--keyring", ring)
    assert code == 0, out + err
    assert "signed by both sides (every side's key trusted)" in out
    assert f"(player, side {sides[0]}), trusted key 'P0'" in out
    changed = _faces_changed(signed, tmp_path / "changed.wake.json")
    code, out, _ = wake("verify", str(changed), "--keyring", ring)
    assert code == 1 and "SIGNATURE" in out and "signed by both sides" not in out
    code, _, err = wake(
        "sign", str(signed), "--key", str(tmp_path / f"{sides[0]}.key"), "--signer", "X",
        "--side", "nobody",
    )  # fmt: skip
    assert code == 2 and "no side 'nobody'" in err
