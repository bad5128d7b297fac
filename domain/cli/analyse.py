"""``wake analyse GAME``: where was the game won? Win probabilities by bot rollouts (issue 24).

Rollouts run on a local Dask cluster by default (``--workers``; 1 runs them in this process) or
on the cluster at ``--scheduler tcp://HOST:8786`` (docs/distributed.md). Each finished estimate
is stored beside the game at once, so an interrupted analysis resumes where it stopped.

Exit status: 0 on success, 2 with one line on stderr for bad input (an unknown game, a bad
option, a cluster that cannot be reached or runs other versions).
"""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from domain.analysis.points import EVERY, default_every
from domain.cli import render
from domain.cli.common import fail as bad_input
from domain.errors import InvalidCommand, WakeError

StoreOpt = Annotated[str | None, typer.Option("--store", help="SQLite file (or WAKE_STORE)")]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(help="a Dask scheduler, tcp://HOST:8786 (default: a local cluster)"),
]
WorkersOpt = Annotated[
    int, typer.Option(help="local Dask worker processes (0 = one per CPU, 1 = this process)")
]


def analyse_command(
    game: Annotated[str, typer.Argument(help="a stored game's id")],
    every: Annotated[
        str | None, typer.Option(help="points: order, activation or turn (default: activation)")
    ] = None,
    rollouts: Annotated[int, typer.Option(help="bot games from each position")] = 100,
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = 0,
    notes: Annotated[bool, typer.Option(help="also list the biggest swings")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="print the read model as JSON")] = False,
    store: StoreOpt = None,
) -> None:
    """Estimate each side's win probability at every decision point of a stored game, and split
    each swing into the decision (the order given, on fresh dice, against the bots' own play)
    and the luck (the dice it got). The numbers say how often Wake's bots win from there: an
    estimate about these bots, not a truth about the position. Results are stored beside the
    game (never in its chain) and exported with ``wake export --analysis``."""
    from domain.analysis import stored
    from domain.analysis.model import Analysis, read_model
    from domain.analysis.model import notes as swing_notes
    from domain.analysis.run import Progress as Done
    from domain.analysis.run import analyse, plan, spec_for
    from domain.distributed import runner
    from domain.store import GameStore

    try:
        if rollouts < 1 or rollouts > 1_000_000:
            raise InvalidCommand(f"--rollouts must be 1..1000000, not {rollouts}")
        st = GameStore(store)
        header, facts = st.facts(game)
        chosen = every or default_every(header.ruleset.id)
        if chosen not in EVERY:
            raise InvalidCommand(f"--every must be one of {', '.join(EVERY)}, not {chosen!r}")
        spec = spec_for(header, chosen, rollouts)
        points = plan(header, facts, spec.every)
        known = stored.begin(st, game, spec)
        pool = runner(scheduler, workers)
    except WakeError as exc:
        bad_input(exc)
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[points]}"),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
        console=render.Console(stderr=True),
        transient=True,
    )
    started = time.monotonic()
    try:
        with bar:
            task = bar.add_task("rollouts", total=None, points="", rate="")

            def show(p: Done) -> None:
                elapsed = max(1e-9, time.monotonic() - started)
                bar.update(
                    task,
                    total=p.rollouts_total or 1,
                    completed=p.rollouts_done if p.rollouts_total else 1,
                    points=f"{p.estimates_done}/{p.estimates_total} positions",
                    rate=f"{p.rollouts_done / elapsed:.0f} rollouts/s",
                )

            estimates = analyse(
                header,
                facts,
                spec,
                points,
                pool,
                known=known,
                done=lambda e: stored.add(st, game, e),
                progress=show,
            )
    finally:
        pool.close()
    sides = [s.id for s in header.sides]
    names = {s.id: s.name or s.id for s in header.sides}
    ruleset = st.state(game).ruleset
    view = read_model(
        Analysis(spec=spec, points=points, estimates=estimates), sides, ruleset.describe_order
    )
    if as_json:
        typer.echo(json.dumps(view.model_dump(mode="json"), indent=1))
        return
    con = render.console()
    con.print(view.caveat, markup=False)
    table = render.Table(
        title=f"{len(view.points)} points, {rollouts} rollouts each ({chosen}; "
        f"{header.ruleset.id} {spec.ruleset_version})"
    )
    for col in ("event", "side", "order", *(f"{names[s]} wins" for s in sides), "decision", "luck"):
        table.add_column(col)
    for point in view.points:
        after = {c.side: c for c in point.after}
        table.add_row(
            str(point.event),
            names.get(point.side, point.side),
            point.order,
            *(f"{after[s].p:.0%} ({after[s].low:.0%}-{after[s].high:.0%})" for s in sides),
            f"{point.decision.get(point.side, 0.0):+.0%}",
            f"{point.luck.get(point.side, 0.0):+.0%}",
        )
    con.print(table)
    if notes:
        for note in swing_notes(view, names=names):
            con.print(f"event {note.event}: {note.text}", markup=False)
    elapsed = time.monotonic() - started
    typer.echo(f"stored with game {game} ({elapsed:.1f} s)")


def exported_analysis(st: Any, target: Any) -> Any:
    """With a game id: its stored analysis, for an export (refused when there is none). With a
    record just imported: its analysis section kept beside the game."""
    from domain.analysis import stored

    if isinstance(target, str):
        found = stored.stored_analysis(st, target)
        if found is None:
            raise InvalidCommand(f"game {target} has no analysis: run `wake analyse {target}`")
        return found
    if target.analysis is not None:
        stored.save_analysis(st, target.header.game_id, target.analysis)
    return None
