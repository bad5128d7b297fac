"""``wake reveal-seed``, ``wake keygen`` and ``wake sign``: reveal a sealed dice seed, make a
signing key, sign a game's chain head."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from domain.cli.common import StoreOpt, errors
from domain.errors import SealedSeed, SignatureError
from domain.record import build_record, read_record_file, verify_record
from domain.record.reader import canonical_uuid
from domain.store import GameStore


def reveal_seed(game_id: str, store: StoreOpt = None) -> None:
    """Reveal the sealed dice seed of a stored game (the umpire's decision): print it, and
    carry it in every export from now on, so the game's record can be verified. A game's
    seed is revealed in its export anyway once the game has ended."""
    with errors():
        secret = GameStore(store).reveal_seed(game_id)
    typer.echo(json.dumps({"game_id": game_id, "seed": secret.seed, "salt": secret.salt}))


def keygen(
    output: Annotated[Path, typer.Option("-o", "--output", help="private key file to create")],
) -> None:
    """Make an Ed25519 key for signing records: the private key (PEM, mode 0600) and its public
    half beside it (``KEYFILE.pub``). Existing files are never overwritten."""
    from domain.record import signing

    with errors():
        public = signing.write_keypair(output)
    typer.echo(f"{output}: private key (keep it secret)")
    typer.echo(f"{signing.public_key_path(output)}: public key {signing.fingerprint(public)}")


def sign(
    record_file: Annotated[
        Path, typer.Argument(metavar="RECORD", help="record file, or the id of a stored game")
    ],
    key: Annotated[Path, typer.Option(help="private key file (from wake keygen)")],
    signer: Annotated[str, typer.Option(help="who vouches for the game, e.g. a name")],
    role: Annotated[str, typer.Option(help="umpire, organiser or server")] = "umpire",
    side: Annotated[
        str | None,
        typer.Option(
            "--side", help="co-sign as this side's player (role player): see `wake verify`"
        ),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="signed record (default: in place)")
    ] = None,
    store: StoreOpt = None,
) -> None:
    """Sign a game's chain head (the header digest, the last event's digest and the number
    of events) with Ed25519: a record file (written back, or to ``-o``), or a stored game
    (the signature is kept with it and carried by its exports). The game is re-run first:
    only one that verifies is signed (one whose seed is still sealed, after its chain is
    checked). The chain and every event digest stay as they are."""
    from domain.audit import audit_game
    from domain.record import signing
    from domain.record.writer import dumps, write_text_atomic

    with errors():
        if side is None and role not in signing.ROLES:
            raise SignatureError(f"--role must be one of {', '.join(signing.ROLES)}, not {role!r}")
        private = signing.load_private_key(key)
        stored = not record_file.exists() and canonical_uuid(str(record_file))
        st = GameStore(store) if stored else None
        if st is not None:
            header, facts = st.facts(str(record_file))
            rec = build_record(header, facts, signatures=st.signatures(header.game_id))
        else:
            rec = read_record_file(record_file)
        try:
            if st is not None:
                audit_game(st, rec.header.game_id)
            else:
                verify_record(rec)
            rerun = ""
        except SealedSeed:  # a live game's export: the chain is checked, the dice cannot be
            rerun = " (seed sealed: the chain was checked, the dice not re-run)"
        signed = signing.sign(rec, private, signer, role, side)
        role = signing.PLAYER if side is not None else role
        if st is not None:
            st.add_signatures(rec.header.game_id, signed.signatures or ())
        else:
            write_text_atomic(dumps(signed), output or record_file)
    where = f"game {record_file}" if stored else str(output or record_file)
    typer.echo(
        f"{where}: signed by {signer} ({role}{f', side {side}' if side else ''}), key "
        f"{signing.fingerprint(private.public_key())}, head {rec.chain.head[:12]} "
        f"({rec.chain.length} events){rerun}"
    )
