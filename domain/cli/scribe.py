"""``wake scribe``, ``wake serve`` and ``wake links`` (issue 20): record a real table's game in
the browser — on one's own machine, or hosted for every device at the table, each side on its
own capability link."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from domain.cli.common import StoreOpt, errors
from domain.errors import InvalidCommand
from domain.scribe import table as T
from domain.store import GameStore, store_location


def scribe(
    target: Annotated[
        str | None,
        typer.Argument(help="a stored game to go on recording, or a scenario file to start one"),
    ] = None,
    port: Annotated[int | None, typer.Option(help="port on 127.0.0.1 (default 8501)")] = None,
    store: StoreOpt = None,
) -> None:
    """Open the "Record a game" page: start a game from a scenario and enter it as it is played
    (orders on the board, dice face by face, take-backs)."""
    from viewer.launch import run_viewer

    location = store_location(store)
    app_args = ["--store", location, "--scribe"]
    if target is not None:
        path = Path(target)
        if path.exists():
            app_args += ["--scenario", str(path)]
        else:
            with errors():
                GameStore(location).header(target)  # a game id that is not stored: one line
            app_args += ["--game", target]
    raise typer.Exit(run_viewer(app_args, port))


def serve(
    host: Annotated[
        str, typer.Option(help="address to listen on: 0.0.0.0 for every device on the network")
    ] = "0.0.0.0",
    port: Annotated[int, typer.Option(help="port")] = 8501,
    key: Annotated[
        Path | None,
        typer.Option(help="the server's private key (wake keygen): it signs each game it ends"),
    ] = None,
    signer: Annotated[str, typer.Option(help="the name the server signs as")] = "Wake server",
    store: StoreOpt = None,
) -> None:
    """Host the viewer and the scribe's page for a table (a club, an umpire's laptop): each
    game's sides and umpire get capability links (`wake links GAME --new`); a page without a
    link shows only what every side has seen. With ``--key``, the server signs each game
    recorded here when it ends (role server; `wake verify` shows it)."""
    from domain.scribe.server_key import SERVER_KEY_ENV, SERVER_SIGNER_ENV, check_server_key
    from viewer.launch import run_viewer

    location = store_location(store)
    with errors():
        GameStore(location)  # a bad store is one line here, not a failing server
        if key is not None:
            check_server_key(key)
    if key is not None:
        os.environ[SERVER_KEY_ENV] = str(key.resolve())
        os.environ[SERVER_SIGNER_ENV] = signer
    typer.echo(
        f"Wake server for the table on http://{host}:{port} — make a game's links with "
        f"`wake links GAME --new --url http://THIS-MACHINE:{port}`"
    )
    app_args = ["--store", location, "--hosted"]
    raise typer.Exit(run_viewer(app_args, port, address=host, announce=False))


def links(
    game_id: str,
    new: Annotated[
        bool, typer.Option("--new", help="make a new link for each side and the umpire")
    ] = False,
    revoke: Annotated[
        int | None, typer.Option(help="revoke the link with this number (see the list)")
    ] = None,
    url: Annotated[
        str, typer.Option(help="the server's address, to print whole links")
    ] = "http://127.0.0.1:8501",
    store: StoreOpt = None,
) -> None:
    """A game's capability links: list them, make new ones (shown once: only a hash is kept), or
    revoke one."""
    with errors():
        st = GameStore(store)
        st.header(game_id)  # GameNotFound: one line
        if new and revoke is not None:
            raise InvalidCommand("choose --new or --revoke, not both")
        if revoke is not None:
            T.revoke_link(st, game_id, revoke)
            typer.echo(f"link {revoke} revoked")
            return
        if new:
            made = T.issue_links(st, game_id)
            names = {s.id: s.name for s in st.header(game_id).sides}
            base = url.rstrip("/")
            for who, token in made.items():
                label = "umpire" if who == "umpire" else names.get(who, who)
                typer.echo(f"{label}: {base}/record?key={token}")
            typer.echo("Give each side only its own link; each is shown this once.")
            return
        for link in T.links(st, game_id):
            state = "revoked" if link["revoked"] else "live"
            typer.echo(f"{link['number']}: {link['label']} ({link['role']}) {state}")
