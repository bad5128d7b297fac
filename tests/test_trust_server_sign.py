"""Issue 23 item 7: a hosted server signs the games it records with its own key: ``wake serve
--key KEY --signer NAME``; the order that ends a game entered at the table gets the finished game
signed (role server), kept in the store and shown by ``wake verify --game``."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.events import CommandIssued
from domain.record import read_record_file
from domain.scribe import table
from domain.scribe.server_key import SERVER_KEY_ENV, SERVER_SIGNER_ENV
from domain.store import GameStore
from tests.cli_helpers import wake
from tests.helpers import FIXTURES

RECORD = FIXTURES / "games" / "morze" / "river_plate-annihilation.wake.json"


def _one_order_from_the_end(store: str) -> tuple[str, CommandIssued, int]:
    """River Plate stored up to its last order, and that order."""
    record = read_record_file(RECORD)
    last = max(i for i, f in enumerate(record.events) if f.topic == CommandIssued.TOPIC)
    GameStore(store).import_game(record.header, record.events[:last])
    issued = CommandIssued.model_validate(record.events[last].payload)
    return record.header.game_id, issued, last


@pytest.mark.parametrize("keyed", [True, False])
def test_the_server_signs_a_game_it_ends(
    keyed: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23 item 7: signed by the server when it has a key, not otherwise."""
    store = str(tmp_path / "club.sqlite3")
    key = tmp_path / "server.key"
    assert wake("keygen", "-o", str(key))[0] == 0
    if keyed:
        monkeypatch.setenv(SERVER_KEY_ENV, str(key))
        monkeypatch.setenv(SERVER_SIGNER_ENV, "Club server")
    else:
        monkeypatch.delenv(SERVER_KEY_ENV, raising=False)
    game_id, issued, seen = _one_order_from_the_end(store)
    st = GameStore(store)
    facts = table.submit(st, game_id, issued.side, issued.command, seen)
    assert st.state(game_id).result is not None and facts
    signatures = st.signatures(game_id)
    if not keyed:
        assert signatures == []
        return
    [signature] = signatures
    assert (signature.signer, signature.role) == ("Club server", "server")
    code, out, _ = wake("verify", "--game", game_id, "--store", store)
    assert code == 0 and "claiming to be Club server (server)" in out and ": valid" in out


def test_serve_refuses_a_bad_key_before_starting(tmp_path: Path) -> None:
    """Issue 23 item 7: ``wake serve --key`` with an unusable key: exit 2, one line."""
    bad = tmp_path / "not.key"
    bad.write_text("not a key", "utf-8")
    code, _, err = wake("serve", "--key", str(bad), "--store", str(tmp_path / "s.sqlite3"))
    assert code == 2 and "private key" in err and err.count("\n") == 1
