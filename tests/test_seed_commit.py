"""Issue 12, gap 2: committed seeds. A computer game's header commits to its seed; the seed is
kept secret (in the store) while the game is live and revealed in the record once it has ended
(or by the umpire); verification checks the reveal against the commitment and re-throws."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from domain.cli.app import app
from domain.dice import seeded_face
from domain.engine import Session, bot_secret, header_for
from domain.errors import DiceMismatch, RecordError, SealedSeed
from domain.record import read_record, read_record_file, verify_record
from domain.record.writer import dumps, write_record
from domain.rulesets.armada.command_phase import bot_salt
from domain.sealed import seal
from domain.seed_commit import SeedSecret, committed_dice, new_secret
from domain.store import GameStore
from tests.forge import rechain
from tests.helpers import FIXTURES, small_scenario
from viewer.loading import check_game, from_bytes, from_store

runner = CliRunner()
RIVER_PLATE = FIXTURES / "scenarios" / "morze" / "river_plate.json"
ARMADA = FIXTURES / "scenarios" / "armada" / "core_learning.json"
GAME_ID = "00000000-0000-4000-8000-0000000000c1"


def wake(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"traceback for {args}: {result.exception!r}")
    return result.exit_code, result.output


def committed_game(secret: SeedSecret, *, finish: bool = True) -> Session:
    header = header_for("morze", small_scenario(), game_id=GAME_ID, seed=1)
    header = header.model_copy(update={"dice": committed_dice(secret)})
    session = Session(header, seed=secret.seed)
    while session.submit_bot() is not None and (finish or session.state.commands < 3):
        pass
    return session


def test_the_commitment_is_domain_sealed_over_the_seed() -> None:
    secret = SeedSecret(seed=42, salt="ab" * 16)
    dice = committed_dice(secret)
    assert dice.seed is None and dice.commitment == seal({"seed": 42}, "ab" * 16).digest
    assert dice.model_dump(mode="json") == {
        "mode": "seeded",
        "seed": None,
        "commitment": dice.commitment,
    }
    assert secret.matches(dice) and not SeedSecret(seed=43, salt="ab" * 16).matches(dice)
    assert 0 <= new_secret().seed <= 2**53 - 1 and new_secret().salt != new_secret().salt


def test_the_dice_are_those_of_the_secret_seed_and_the_stream_is_unchanged() -> None:
    secret = SeedSecret(seed=7, salt="cd" * 16)
    sealed = committed_game(secret)
    clear = Session(header_for("morze", small_scenario(), game_id=GAME_ID, seed=7))
    while clear.submit_bot() is not None:
        pass
    faces = [f.payload for f in sealed.facts if f.topic == "wake.DiceRolled/1"]
    assert faces == [f.payload for f in clear.facts if f.topic == "wake.DiceRolled/1"]
    assert faces and faces[0]["roll"]["faces"][0] == seeded_face(7, 0, 10)


def test_a_finished_game_s_record_reveals_its_seed_and_verifies() -> None:
    secret = new_secret()
    session = committed_game(secret)
    text = write_record(session.header, session.facts, seed_reveal=secret)
    rec = read_record(text, strict=True)
    assert rec.seed_reveal == secret
    verify_record(rec)


def test_without_the_reveal_a_record_reads_but_cannot_be_re_run() -> None:
    session = committed_game(new_secret())
    rec = read_record(write_record(session.header, session.facts))
    with pytest.raises(SealedSeed, match="still sealed"):
        verify_record(rec)
    trust = check_game(from_bytes(dumps(rec).encode(), "sealed.wake.json"))
    assert not trust.verified and trust.summary.startswith("NOT verified: the dice seed is")


def _body(secret: SeedSecret) -> dict[str, Any]:
    session = committed_game(secret)
    body: dict[str, Any] = json.loads(
        write_record(session.header, session.facts, seed_reveal=secret)
    )
    return body


def test_a_reveal_that_does_not_match_the_commitment_is_refused() -> None:
    body = _body(SeedSecret(seed=5, salt="ef" * 16))
    body["seed_reveal"]["seed"] = 6
    with pytest.raises(RecordError, match="does not match the header's commitment"):
        read_record(json.dumps(body))
    body["seed_reveal"]["seed"], body["seed_reveal"]["salt"] = 5, "ee" * 16
    with pytest.raises(RecordError, match="does not match the header's commitment"):
        read_record(json.dumps(body))


def test_a_reveal_in_a_record_with_a_clear_seed_is_refused() -> None:
    path = FIXTURES / "games" / "morze" / "river_plate-annihilation.wake.json"
    body = json.loads(path.read_text("utf-8"))
    body["seed_reveal"] = {"seed": 1, "salt": "ab" * 16}
    with pytest.raises(RecordError, match="commits to no seed"):
        read_record(json.dumps(body))


def test_changed_dice_in_a_committed_record_are_found_on_re_run() -> None:
    body = _body(SeedSecret(seed=9, salt="12" * 16))
    roll = next(e for e in body["events"] if e["topic"] == "wake.DiceRolled/1")
    roll["payload"]["roll"]["faces"] = [11 - f for f in roll["payload"]["roll"]["faces"]]
    rec = read_record(json.dumps(rechain(body)))  # re-chained: reads
    with pytest.raises(RecordError, match=f"event {roll['seq']} differs"):
        verify_record(rec)


def test_a_session_without_the_seed_throws_no_dice() -> None:
    secret = new_secret()
    header = header_for("morze", small_scenario(), game_id=GAME_ID, seed=1)
    session = Session(header.model_copy(update={"dice": committed_dice(secret)}))
    with pytest.raises(DiceMismatch, match="sealed"):
        while session.submit_bot() is not None:
            pass


def test_a_live_game_s_export_does_not_disclose_the_seed(tmp_path: Path) -> None:
    store = str(tmp_path / "w.sqlite3")
    code, out = wake("start", "morze", str(RIVER_PLATE), "--store", store)
    assert code == 0, out
    game_id = out.strip()
    wake("submit", game_id, '{"type": "roll_initiative"}', "--store", store)
    held = GameStore(store).secret_seed(game_id)
    assert held is not None
    secret, revealed = held
    assert not revealed
    export = tmp_path / "live.wake.json"
    assert wake("export", game_id, "-o", str(export), "--store", store)[0] == 0
    text = export.read_text("utf-8")
    rec = read_record(text, strict=True)
    assert rec.header.dice.seed is None and rec.seed_reveal is None
    assert str(secret.seed) not in text and secret.salt not in text
    # the faces rolled so far are the secret seed's, and the next ones too: only the seed
    # (not in the file) predicts them
    roll = next(f for f in rec.events if f.topic == "wake.DiceRolled/1")  # ties roll again
    assert roll.payload["roll"]["faces"] == [seeded_face(secret.seed, 0, 10)]
    code, out = wake("verify", str(export))
    assert code == 1 and "NOT RE-RUN" in out and "sealed" in out, out
    live = from_store(store, game_id)
    assert live.seed_reveal is None and "store keeps sealed" in check_game(live).summary

    key = tmp_path / "server.key"
    wake("keygen", "-o", str(key))
    code, out = wake("sign", str(export), "--key", str(key), "--signer", "srv", "--role", "server")
    assert code == 0 and "seed sealed" in out, out
    assert str(secret.seed) not in export.read_text("utf-8")

    code, out = wake("reveal-seed", game_id, "--store", store)
    assert code == 0 and json.loads(out) == {"game_id": game_id, **secret.model_dump()}
    wake("export", game_id, "-o", str(export), "--store", store)
    assert read_record_file(export).seed_reveal == secret
    assert wake("verify", str(export))[0] == 0
    assert check_game(from_store(store, game_id)).verified


def test_a_finished_stored_game_is_revealed_and_round_trips(tmp_path: Path) -> None:
    store = str(tmp_path / "w.sqlite3")
    game_id = wake("start", "morze", str(RIVER_PLATE), "--store", store)[1].strip()
    code, out = wake("play", game_id, "--bots", "--store", store)
    assert code == 0, out
    assert wake("verify", "--game", game_id, "--store", store)[0] == 0
    first = tmp_path / "a.wake.json"
    wake("export", game_id, "-o", str(first), "--store", store)
    assert read_record_file(first, strict=True).seed_reveal is not None
    assert wake("verify", "--strict", str(first))[0] == 0
    other = str(tmp_path / "b.sqlite3")
    code, out = wake("import", str(first), "--store", other)
    assert code == 0, out
    assert GameStore(other).secret_seed(game_id) == (read_record_file(first).seed_reveal, True)
    again = tmp_path / "b.wake.json"
    wake("export", game_id, "-o", str(again), "--store", other)
    assert again.read_bytes() == first.read_bytes()


def test_physical_and_clear_seed_starts_still_work(tmp_path: Path) -> None:
    store = str(tmp_path / "w.sqlite3")
    game_id = wake("start", "morze", str(RIVER_PLATE), "--physical", "--store", store)[1].strip()
    assert GameStore(store).facts(game_id)[0].dice.mode == "physical"
    code, out = wake(
        "start", "morze", str(RIVER_PLATE), "--seed", "3", "--no-commit-seed", "--store", store
    )
    assert code == 0 and GameStore(store).facts(out.strip())[0].dice.seed == 3
    code, out = wake("reveal-seed", out.strip(), "--store", store)
    assert code == 2 and "no sealed seed" in out


def test_armada_bots_play_a_committed_game_and_their_dial_salts_do_not_hold_the_seed(
    tmp_path: Path,
) -> None:
    out = tmp_path / "armada.wake.json"
    code, text = wake(
        "record",
        "armada",
        str(ARMADA),
        "-o",
        str(out),
        "--commit-seed",
        "--seed",
        "123456789",
        "--game-id",
        GAME_ID,
    )
    assert code == 0, text
    rec = read_record_file(out, strict=True)
    assert rec.header.dice.seed is None and rec.header.dice.commitment
    assert rec.seed_reveal is not None and rec.seed_reveal.seed == 123456789
    verify_record(rec)
    body = json.loads(out.read_text("utf-8"))
    del body["seed_reveal"]
    assert "123456789" not in json.dumps(body)  # the salts of revealed dials do not show it
    # the bot sealed its dials with salts from the secret seed, not from the public game id:
    # whoever sees only the commitment cannot open them by trying each command
    secret = bot_secret(rec.header, 123456789)
    assert secret is not None and "123456789" not in secret
    salts = [f.payload["salt"] for f in rec.events if f.topic == "armada.DialRevealed/1"]
    public = Session(rec.header).state.rules
    assert salts and public.salt_base == GAME_ID
    first = next(f.payload for f in rec.events if f.topic == "armada.DialRevealed/1")
    assert first["salt"] != bot_salt(public, first["ship"], first["slot"])
    assert first["salt"] == bot_salt(
        public.model_copy(update={"salt_base": secret}), first["ship"], first["slot"]
    )


def test_stored_committed_game_bots_seal_with_the_kept_secret(tmp_path: Path) -> None:
    """Issue 12: ``wake play`` on a stored committed-seed game gives the bots the secret the
    store keeps, so their sealed orders are as closed as the dice."""
    store = str(tmp_path / "s.sqlite3")
    code, out = wake("start", "armada", str(ARMADA), "--commit-seed", "--store", store)
    assert code == 0, out
    game_id = out.strip().splitlines()[-1]
    code, out = wake("play", game_id, "--bots", "--store", store)
    assert code == 0, out
    held = GameStore(store).secret_seed(game_id)
    assert held is not None
    header, facts = GameStore(store).facts(game_id)
    public = Session(header).state.rules
    secret = bot_secret(header, held[0].seed)
    assert secret is not None
    reveals = [f.payload for f in facts if f.topic == "armada.DialRevealed/1"]
    assert reveals
    for reveal in reveals[:5]:
        assert reveal["salt"] == bot_salt(
            public.model_copy(update={"salt_base": secret}), reveal["ship"], reveal["slot"]
        )
        assert reveal["salt"] != bot_salt(public, reveal["ship"], reveal["slot"])
