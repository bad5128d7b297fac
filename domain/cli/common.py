"""What the ``wake`` commands share: the ``--store`` option, one-line errors (exit 2), the
progress bar, bounded input files, ``name=value`` options, and the wording of an internal error."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, NoReturn

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from domain.cli import render
from domain.engine import GameState
from domain.errors import InvalidCommand, WakeError

StoreOpt = Annotated[str | None, typer.Option("--store", help="SQLite file (or WAKE_STORE)")]


def fail(exc: WakeError, code: int = 2) -> NoReturn:
    rule = f" [{exc.rule}]" if exc.rule else ""
    message = " ".join(exc.message.split())  # one line, whatever the message holds
    typer.echo(f"error ({exc.code}){rule}: {message}", err=True)
    raise typer.Exit(code)


@contextmanager
def errors(code: int = 2) -> Iterator[None]:
    try:
        yield
    except WakeError as exc:
        fail(exc, code)


def progress_bar() -> Progress:
    """A progress bar on stderr, shown only when stderr is a terminal. Standard output is not
    redirected through it: results written there reach a pipe or a file (``say``)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        transient=True,
        disable=not sys.stderr.isatty(),
        console=render.Console(stderr=True),
        redirect_stdout=False,
        redirect_stderr=False,
    )


def say(progress: Progress, text: str) -> None:
    """A result line on standard output (no markup, no wrapping). While the bar is shown and
    standard output is the same terminal, it goes above the bar instead, so the two do not
    overwrite each other."""
    if progress.live.is_started and sys.stdout.isatty():
        progress.console.print(text, markup=False, soft_wrap=True)
    else:
        typer.echo(text)


def check_side(state: GameState, side: str | None) -> None:
    """Refuse a ``--as`` side the game does not have."""
    sides = [s.id for s in state.header.sides]
    if side is not None and side not in sides:
        raise InvalidCommand(f"unknown side {side!r} (sides: {', '.join(sides)})")


def internal(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    text = text if len(text) <= 200 else text[:197] + "..."
    return (
        f"error (internal): {type(exc).__name__}: {text} - a bug in Wake, not in the input; "
        "WAKE_DEBUG=1 shows the traceback"
    )
