"""``wake annotate``, ``wake annotations``, ``wake withdraw-annotation``: comments on a stored
game's events (issue 14; the model is ``domain.annotations``, the stream ``GameStore.annotate``).

``GAME`` is a stored game's id or a record file (issue 22 item 13): ``annotate`` and
``withdraw-annotation`` import a record file into the store first (as ``wake fork`` does; the
annotation is kept with the stored game, and its exports carry it), ``annotations`` lists the
ones a record file carries without storing anything.

Exit status: 0 on success, 2 with one line on stderr for bad input (an unknown game, event or
kind, an empty or over-long text, a control character, another author's annotation). Text is
printed as it was written: control characters (terminal escapes included) are refused when an
annotation is written and when it is read back, so none reaches the terminal.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from domain.annotations import (
    EVERYONE,
    KINDS,
    Annotation,
    Withdrawal,
    check_kind,
    select,
    shown_for,
)
from domain.cli.common import fail
from domain.errors import InvalidCommand, NoSuchEvent, WakeError
from domain.header import GameHeader

StoreOpt = Annotated[str | None, typer.Option("--store", help="SQLite file (or WAKE_STORE)")]
_KIND_HELP = "one of " + ", ".join(KINDS)


GameArg = Annotated[
    str,
    typer.Argument(metavar="GAME", help="a stored game's id, or a record file (imported first)"),
]


def annotate_command(
    game: GameArg,
    event: Annotated[int, typer.Argument(help="the event, as `wake log` numbers it; 0 = the game")],
    author: Annotated[str, typer.Option(help="who writes it (a name)")],
    kind: Annotated[str, typer.Option(help=_KIND_HELP)],
    text: Annotated[str, typer.Option(help="plain text (line feeds allowed, at most 4000 chars)")],
    visible_to: Annotated[
        str | None,
        typer.Option(
            "--visible-to",
            metavar="SIDE|umpire|all",
            help="who may see it: a side (and the umpire), the umpire alone, or everyone "
            "(default: the umpire alone in a game with hidden information, else everyone)",
        ),
    ] = None,
    store: StoreOpt = None,
) -> None:
    """Annotate an event of a stored game (or the game as a whole, event 0): a ruling, a note,
    or a marker (disputed, blunder, lucky). The annotation is bound to the game's chain digest
    after that event; the game's own events and chain are not touched. Exported records carry
    it (outside the chain, not covered by signatures)."""
    from domain.store import GameStore
    from domain.variations import stored_game

    try:
        check_kind(kind)
        st = GameStore(store)
        game_id = stored_game(st, game)
        note = st.annotate(game_id, event, kind, author, text, visible_to=visible_to)
    except WakeError as exc:
        fail(exc)
    typer.echo(
        f"annotation #{note.number} on {note.target} of game {game_id} ({note.kind}, visible "
        f"to {note.visible_to})"
    )


def _print(note: Annotation, gone: Withdrawal | None) -> None:
    withdrawn = f" (withdrawn {gone.time})" if gone is not None else ""
    # who may see it, when not everyone (issue 23 item 3)
    seen = f"  visible to {note.visible_to}" if note.visible_to not in (None, EVERYONE) else ""
    typer.echo(
        f"#{note.number}  {note.target}  {note.kind}  by {note.author}  {note.time}{withdrawn}"
        f"{seen}"
    )
    for line in note.text.split("\n"):
        typer.echo(f"    {line}")


def annotations_command(
    game: Annotated[
        str,
        typer.Argument(metavar="GAME", help="a stored game's id, or a record file (read only)"),
    ],
    event: Annotated[
        int | None, typer.Option(help="only those on this event (0 = on the game)")
    ] = None,
    kind: Annotated[list[str] | None, typer.Option(help=f"only this kind ({_KIND_HELP})")] = None,
    author: Annotated[list[str] | None, typer.Option(help="only by this author")] = None,
    withdrawn: Annotated[bool, typer.Option(help="also list withdrawn annotations")] = False,
    as_side: Annotated[
        str | None,
        typer.Option("--as", metavar="SIDE", help="only what this side may see (issue 23)"),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="as JSON (a list)")] = False,
    store: StoreOpt = None,
) -> None:
    """List a game's annotations, oldest first (filters combine; --kind and --author may be
    repeated). A record file carries its standing annotations only (none withdrawn). With
    ``--as SIDE``, only those visible to that side (the umpire sees them all)."""
    try:
        for one in kind or []:
            check_kind(one)
        header, length, history = _history(game, store)
        if as_side is not None:
            if as_side not in {side.id for side in header.sides}:
                raise InvalidCommand(f"--as: this game has no side {as_side[:40]!r}")
            seen = {n.number for n in shown_for([n for n, _ in history], header, as_side)}
            history = [(n, w) for n, w in history if n.number in seen]
        if event is not None and not 0 <= event <= length:
            raise NoSuchEvent(
                f"game {game} has events 1..{length} (0 = the game as a whole), not {event}"
            )
    except WakeError as exc:
        fail(exc)
    wanted = {
        n.number
        for n in select(
            [n for n, _ in history], event=event, kinds=kind or (), authors=author or ()
        )
    }
    rows = [(n, w) for n, w in history if n.number in wanted and (withdrawn or w is None)]
    if as_json:
        body = []
        for note, gone in rows:
            item = note.model_dump(mode="json")
            if withdrawn:
                item["withdrawn"] = gone.time if gone is not None else None
            body.append(item)
        typer.echo(json.dumps(body, ensure_ascii=False, indent=1))
        return
    if not rows:
        typer.echo(f"no annotations on game {game} match")
        return
    for note, gone in rows:
        _print(note, gone)


def _history(
    game: str, store: str | None
) -> tuple[GameHeader, int, list[tuple[Annotation, Withdrawal | None]]]:
    """A game's header, length and its annotations with their withdrawals: a record file's (read and
    checked; none withdrawn), or a stored game's.

    Raises:
        RecordError: the file is not a valid record.
        StoreError, GameNotFound: no such stored game.
    """
    from domain.record import read_record_file
    from domain.store import GameStore
    from domain.variations import is_record_path

    if is_record_path(game):
        record = read_record_file(Path(game))
        notes: list[tuple[Annotation, Withdrawal | None]] = [
            (note, None) for note in record.annotations or ()
        ]
        return record.header, len(record.events), notes
    st = GameStore(store)
    state = st.state(game)  # an unknown game is refused here
    return state.header, state.seq, st.annotation_history(game)


def withdraw_command(
    game: GameArg,
    number: Annotated[int, typer.Argument(help="the annotation's number (`wake annotations`)")],
    author: Annotated[str, typer.Option(help="its author: only the author may withdraw it")],
    store: StoreOpt = None,
) -> None:
    """Withdraw an annotation (its author only). It stays in the store's history (`wake
    annotations --withdrawn`) but is no longer shown or exported."""
    from domain.store import GameStore
    from domain.variations import stored_game

    try:
        st = GameStore(store)
        game_id = stored_game(st, game)
        note = st.withdraw_annotation(game_id, number, author)
    except WakeError as exc:
        fail(exc)
    typer.echo(f"annotation #{note.number} on {note.target} of game {game_id} withdrawn")
