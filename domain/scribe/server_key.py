"""A hosted server signs the games it records (issue 23 item 7): ``wake serve --key KEY --signer
NAME`` gives the server process its own Ed25519 key (``WAKE_SERVER_KEY``, ``WAKE_SERVER_SIGNER``),
and when an order entered at a table ends its game, the server signs the finished game's chain
head (role ``server``), kept with the game in the store and carried by its exports. The players
may co-sign it too (``wake sign --side``).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from domain.engine import Fact
from domain.errors import WakeError
from domain.events import GameEnded
from domain.record import build_record
from domain.record.signing import load_private_key, sign
from domain.store import GameStore

SERVER_KEY_ENV: Final = "WAKE_SERVER_KEY"
SERVER_SIGNER_ENV: Final = "WAKE_SERVER_SIGNER"
_log = logging.getLogger(__name__)


def check_server_key(path: Path) -> None:
    """Load the server's key once at start, so a bad one is one line then, not later.

    Raises:
        SignatureError: unreadable, or not an Ed25519 private key.
    """
    load_private_key(path)


def sign_if_ended(store: GameStore, game_id: str, facts: Sequence[Fact]) -> bool:
    """Sign the game with the server's key when ``facts`` (an order's, just saved) end it and
    the server has a key; returns whether it signed. A failure to sign is logged, never undoes
    or refuses the order (it is already stored)."""
    key_path = os.environ.get(SERVER_KEY_ENV)
    if not key_path or not any(fact.topic == GameEnded.TOPIC for fact in facts):
        return False
    signer = os.environ.get(SERVER_SIGNER_ENV) or "Wake server"
    try:
        key = load_private_key(Path(key_path))
        header, stored = store.facts(game_id)
        signed = sign(build_record(header, stored), key, signer, "server")
        store.add_signatures(game_id, signed.signatures or ())
    except WakeError as exc:
        _log.warning("game %s ended but was not signed by the server: %s", game_id, exc.message)
        return False
    return True
