"""``wake fork`` and ``wake variations``: what-if forks of a game and its variation tree
(the logic is ``domain.variations`` and ``domain.lineage``).

Exit status 2 with one line naming the problem for bad input (an unknown game, an event out of
range or inside an order, a live game whose seed is sealed); nothing is stored then.
"""

from __future__ import annotations

from typing import Annotated

import typer

from domain.cli.common import fail
from domain.errors import WakeError


def plain(text: str) -> str:
    """Record text for the terminal: one line, control characters (escape sequences that
    could restyle or rewrite the terminal) shown as ``?``."""
    return "".join(c if c.isprintable() else "?" for c in " ".join(text.split()))


StoreOpt = Annotated[str | None, typer.Option("--store", help="SQLite file (or WAKE_STORE)")]


def fork_command(
    game: Annotated[
        str, typer.Argument(help="a stored game's id, or a record file (imported first)")
    ],
    at: Annotated[int, typer.Option("--at", help="the fork starts after this event (0 = start)")],
    title: Annotated[str, typer.Option(help="the fork's title")] = "",
    physical: Annotated[
        bool,
        typer.Option(
            "--physical",
            help="play on at the table: dice rolled by hand from the fork on (wake submit --dice)",
        ),
    ] = False,
    store: StoreOpt = None,
) -> None:
    """Make a new stored game that starts from the state after event AT of GAME (a what-if
    fork): its header names the parent, the event and the parent's chain digest there, and it
    is played on like any game (submit, play --bots, physical dice). With ``--physical`` a
    seeded game's fork takes dice rolled at the table from then on (the shared events keep the
    seed, so they still verify; decks stay in the order the seed shuffled them). Prints the
    fork's id."""
    from domain.store import GameStore
    from domain.variations import fork_game, stored_game

    try:
        st = GameStore(store)
        parent_id = stored_game(st, game)
        header = fork_game(st, parent_id, at, title, physical=physical)
    except WakeError as exc:
        fail(exc)
    dice = f"; physical dice from event {at + 1} on" if header.dice.physical_at(at) else ""
    typer.echo(f"forked {parent_id} after event {at}: {plain(header.title)}{dice}", err=True)
    typer.echo(header.game_id)


def variations_command(
    game: Annotated[
        str, typer.Argument(help="a stored game's id, or a record file (imported first)")
    ],
    store: StoreOpt = None,
) -> None:
    """List GAME's variation tree: the games that continue it (forks, saved reruns), their own
    variations, and so on, each with the event it leaves its parent at, its title, length and
    result."""
    from domain.store import GameStore
    from domain.variations import stored_game, variation_tree

    try:
        st = GameStore(store)
        game_id = stored_game(st, game)
        header = st.header(game_id)
        tree = variation_tree(st, game_id)
    except WakeError as exc:
        fail(exc)
    if header.parent is not None:
        ref = header.parent
        typer.echo(f"variation of {ref.game_id} after event {ref.event}")
    for depth, node in tree.walk():
        where = "" if node.event is None else f"after event {node.event}: "
        title = plain(node.title) or "(untitled)"
        typer.echo(
            f"{'  ' * depth}{'└ ' if depth else ''}{node.game_id}  {where}{title} "
            f"- {node.length} events, {node.result}"
        )
    count = len(tree.walk()) - 1
    typer.echo(f"{count} variation(s)")
