"""``wake report GAME EVENT -o report.html``: a dispute report for one event (the page is built
by ``viewer.report``; this is the command line around it).

Exit status: 0 when the page is written, 2 for bad input (an unreadable record, an event that is
not in the game, an unknown option), with one line on stderr.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from domain.annotations import shown_for
from domain.cli.common import fail
from domain.cli.rerun import load_annotated_game
from domain.errors import ScenarioError, WakeError
from domain.rerun import Ruling
from domain.user_input import designer_ruling, parse_options


def report_command(
    game: Annotated[str, typer.Argument(help="a record file (*.wake.json) or a stored game's id")],
    event: Annotated[int, typer.Argument(help="the event, numbered as `wake log` shows it")],
    output: Annotated[Path, typer.Option("-o", "--output", help="the HTML file to write")],
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", help="KEY=VALUE: also show this ruling's diff (same orders, same dice)"
        ),
    ] = None,
    data: Annotated[
        Path | None,
        typer.Option(
            "--data",
            help="also show the ruling diff of your own table (a copy of a shipped data file "
            "with values changed, or a JSON merge patch over the scenario)",
        ),
    ] = None,
    side: Annotated[
        str | None, typer.Option("--as", help="a side's view (hidden information sealed)")
    ] = None,
    store: Annotated[
        str | None, typer.Option("--store", help="SQLite file (or WAKE_STORE), for a game id")
    ] = None,
) -> None:
    """Write one self-contained HTML page about one event for an organiser: the board at that
    moment, the order, the full explanation with rule IDs and exact odds, the ruling diffs asked
    for (``--option``, and ``--data`` for your own table), and the annotations of that event
    and of the game (ruling diffs kept with ``wake rerun --annotate`` among them). It opens
    offline (plotly.js is embedded)."""
    from viewer.report import ReportRequest, build_report, report_options

    try:
        header, facts, notes = load_annotated_game(game, store)
        if side is not None and side not in {s.id for s in header.sides}:
            raise ScenarioError(f"--as: this game has no side {side[:40]!r}")
        request = ReportRequest(
            event=event,
            viewer=side,
            rulings=[*report_options(parse_options(option or [])), *_data_ruling(data)],
            annotations=tuple(shown_for(notes, header, side)),  # issue 23 item 3
        )
        page = build_report(header, facts, request)
        try:
            output.write_text(page, "utf-8")
        except OSError as exc:
            raise ScenarioError(f"cannot write {output}: {exc.strerror}") from exc
    except WakeError as exc:
        fail(exc)
    typer.echo(f"wrote {output} (event {event} of game {header.game_id})")


def _data_ruling(data: Path | None) -> list[Ruling]:
    """The ``--data`` ruling diff (none without it).

    Raises:
        ScenarioError: the file cannot be read or is not a JSON object.
    """
    ruling = designer_ruling([], data)
    return [ruling] if ruling is not None else []
