"""``wake rerun``: a ruling diff from the command line (the logic is ``domain.rerun``).

Exit status: 0 when the rerun gives exactly the recorded events, 1 when it differs (or refuses
an order), 2 for bad input (an unreadable record, an unknown option, a bad data file), with one
line on stderr.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from domain.cli.common import fail
from domain.engine import Fact
from domain.errors import AnnotationError, ScenarioError, WakeError
from domain.header import GameHeader
from domain.user_input import designer_ruling

if TYPE_CHECKING:
    from domain.annotations import Annotation
    from domain.rerun import RerunReport


def load_game(game: str, store: str | None) -> tuple[GameHeader, list[Fact]]:
    """A record file (checked like ``wake verify`` reads it) or a stored game by id."""
    header, facts, _ = load_annotated_game(game, store)
    return header, facts


def load_annotated_game(
    game: str, store: str | None
) -> tuple[GameHeader, list[Fact], list[Annotation]]:
    """As :func:`load_game`, with the game's standing annotations (issue 14)."""
    from domain.record import read_record_file

    path = Path(game)
    if path.exists() or game.endswith(".json"):
        record = read_record_file(path)
        return record.header, list(record.events), list(record.annotations or ())
    from domain.store import GameStore

    st = GameStore(store)
    header, facts = st.facts(game)
    return header, facts, st.annotations(game)


def _stored_original(game: str, store: str | None) -> tuple[GameHeader, list[Fact], str]:
    """The game a saved rerun is a variation of, in the store (a record file is imported
    first, as ``wake fork`` does): its header, facts and id."""
    from domain.store import GameStore
    from domain.variations import stored_game

    st = GameStore(store)
    game_id = stored_game(st, game)
    header, facts = st.facts(game_id)
    return header, facts, game_id


def rerun_command(
    game: Annotated[str, typer.Argument(help="a record file (*.wake.json) or a stored game's id")],
    option: Annotated[
        list[str] | None,
        typer.Option("--option", help="KEY=VALUE: rule this ruleset option the other way"),
    ] = None,
    data: Annotated[
        Path | None,
        typer.Option(
            "--data",
            help="your own table: a copy of one of the ruleset's data files with values "
            "changed, or a JSON merge patch over the game's resolved scenario",
        ),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="save the rerun as a record file")
    ] = None,
    save: Annotated[
        bool,
        typer.Option("--save", help="store the rerun as a variation of GAME (GAME is stored too)"),
    ] = False,
    store: Annotated[
        str | None, typer.Option("--store", help="SQLite file (or WAKE_STORE), for a game id")
    ] = None,
    annotate: Annotated[
        str | None,
        typer.Option(
            "--annotate",
            metavar="AUTHOR",
            help="keep this ruling diff with the stored game: a 'ruling' annotation by AUTHOR "
            "on the first event that changes (on the game when none does)",
        ),
    ] = None,
) -> None:
    """Re-decide a game's orders with the same dice under another ruling (an option or your own
    data) and report the first event that changes, the first order that becomes illegal, and
    how both lines end. With ``--save`` the rerun is stored as a variation of GAME (its
    parent: GAME at the last event before the first difference). Exit 0: identical; 1: the
    game changes; 2: bad input."""
    from domain.record import write_record
    from domain.rerun import rerun

    try:
        ruling = designer_ruling(option or [], data)
        if ruling is None:
            raise ScenarioError(
                "give --option KEY=VALUE or --data FILE (to re-run a record as it was "
                "recorded, use wake verify)"
            )
        if annotate is not None:
            _check_annotatable(game, annotate)
        saved = ""
        if save:
            header, facts, saved = _stored_original(game, store)
        else:
            header, facts = load_game(game, store)
        report = rerun(header, facts, ruling)
        if output is not None:
            try:
                write_record(report.header, report.facts, output)
            except OSError as exc:
                raise ScenarioError(f"cannot write {output}: {exc.strerror}") from exc
        if save:
            from domain.store import GameStore
            from domain.variations import save_rerun

            _, new = save_rerun(GameStore(store), report)
            ref = report.header.parent
            at = f" after event {ref.event}" if ref is not None else ""
            saved = (
                f"stored the rerun as game {report.header.game_id}, a variation of {saved}{at}"
                if new
                else f"the rerun is already stored as game {report.header.game_id}"
            )
    except WakeError as exc:
        fail(exc)
    for line in report.lines():
        typer.echo(line)
    if output is not None:
        typer.echo(f"saved the rerun as {output} (game {report.header.game_id})")
    if save:
        typer.echo(saved)
    if annotate is not None:
        _keep_ruling(game, store, annotate, report, len(facts))
    raise typer.Exit(0 if report.identical else 1)


def _check_annotatable(game: str, author: str) -> None:
    """``--annotate`` needs a stored game (a record file is not written to) and an author.

    Raises:
        AnnotationError: a record file, or an author that cannot sign an annotation.
    """
    from domain.annotations import check_author

    if Path(game).exists() or game.endswith(".json"):
        raise AnnotationError(
            "--annotate keeps the ruling diff with a stored game: give the game's id "
            "(`wake import` the record first)"
        )
    check_author(author)


def _keep_ruling(
    game: str, store: str | None, author: str, report: RerunReport, events: int
) -> None:
    """Save the ruling diff as a ``ruling`` annotation (issue 14) and say where it went."""
    from domain.annotations import fit_text
    from domain.rerun import ruling_note
    from domain.store import GameStore

    event, text = ruling_note(report, events)
    try:
        note = GameStore(store).annotate(game, event, "ruling", author, fit_text(text))
    except WakeError as exc:
        fail(exc)
    typer.echo(f"kept as annotation #{note.number} on {note.target} (ruling by {note.author})")
