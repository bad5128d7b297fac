"""``wake trust add|list|remove``: the keys this user trusts (``domain.record.keyring``), which
``wake verify`` and the viewer use to say whose key signed a game (issue 23 item 7).

Exit status: 0 on success, 2 with one line for bad input (an unreadable key or keyring, a name
already used, no such key)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from domain.cli.common import errors

trust_app = typer.Typer(
    help="Trusted keys: whose key signed a game (`wake verify`, the viewer).",
    no_args_is_help=True,
)

KeyringOpt = Annotated[
    Path | None,
    typer.Option("--keyring", help="the keyring file (default: $WAKE_KEYRING, else "
                 "~/.config/wake/keyring.json)"),
]  # fmt: skip


@trust_app.command("add")
def add(
    key: Annotated[Path, typer.Argument(metavar="KEY.pub", help="a public key (wake keygen)")],
    name: Annotated[str, typer.Option(help="whose key it is, as verify and the viewer say it")],
    keyring: KeyringOpt = None,
) -> None:
    """Trust a public key under a name: signatures by it read as that person's."""
    from domain.record import keyring as ring
    from domain.record import signing

    with errors():
        public = signing.load_public_key(key)
        held = ring.trust_key(ring.load_keyring(keyring), signing.raw_public_key(public), name)
    typer.echo(f"trusted {signing.fingerprint(public)} as {name.strip()!r} in {held.path}")


@trust_app.command("list")
def list_keys(keyring: KeyringOpt = None) -> None:
    """The trusted keys: name and fingerprint, one a line."""
    from domain.record import keyring as ring

    with errors():
        held = ring.load_keyring(keyring)
    if not held.keys:
        typer.echo(f"no trusted keys in {held.path}")
    for key in held.keys:
        typer.echo(f"{key.name}  {key.fingerprint}")


@trust_app.command("remove")
def remove(
    key: Annotated[str, typer.Argument(metavar="NAME|FINGERPRINT", help="the key to distrust")],
    keyring: KeyringOpt = None,
) -> None:
    """Stop trusting a key (by its name or its fingerprint)."""
    from domain.record import keyring as ring

    with errors():
        held, gone = ring.distrust(ring.load_keyring(keyring), key)
    typer.echo(f"no longer trusted: {gone.name!r} {gone.fingerprint} (in {held.path})")
