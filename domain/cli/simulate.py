"""``wake simulate``: many bot games in parallel and their outcome statistics (the logic is
``domain.simulate``)."""

from __future__ import annotations

import json
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from domain.cli import render
from domain.cli.analyse import SchedulerOpt
from domain.cli.common import StoreOpt, errors, progress_bar
from domain.engine import header_for
from domain.store import GameStore
from domain.user_input import load_json, parse_options


def simulate(
    ruleset: str,
    scenario: Path,
    games: Annotated[int, typer.Option("-n", "--games", help="number of bot games")] = 100,
    seed: Annotated[int, typer.Option(help="seed of the first game (game k: seed + k)")] = 1,
    workers: Annotated[
        int, typer.Option(help="local Dask worker processes (0 = one per CPU, 1 = this process)")
    ] = 0,
    option: Annotated[list[str] | None, typer.Option(help="ruleset option name=value")] = None,
    classes: Annotated[Path | None, typer.Option(help="your own class table (JSON)")] = None,
    save: Annotated[bool, typer.Option(help="also store every game")] = False,
    out: Annotated[
        Path | None, typer.Option(help="write one JSON line per game here (shards concatenate)")
    ] = None,
    scheduler: SchedulerOpt = None,
    store: StoreOpt = None,
) -> None:
    """Play N bot games in parallel (a local Dask cluster, or ``--scheduler``) and report
    outcome statistics; ``--save`` stores each game as it finishes, ``--out`` writes each as a
    JSON line."""
    from domain.distributed import runner
    from domain.simulate import outcome_line, play_stream, summarise

    with errors():
        data = load_json(scenario, "scenario")
        if classes is not None:
            data["classes"] = load_json(classes, "class table")
        options = parse_options(option or [])
        probe = header_for(ruleset, data, game_id=str(uuid.uuid4()), seed=seed, options=options)
        st = GameStore(store) if save else None
        pool = runner(scheduler, workers)
        sink = out.open("w", encoding="utf-8") if out is not None else None
        outcomes = []
        try:
            with progress_bar() as progress:
                task = progress.add_task(f"simulating {games} games", total=games)
                for outcome in play_stream(
                    ruleset,
                    data,
                    [seed + k for k in range(games)],
                    options=options,
                    runner=pool,
                    keep_logs=save,
                ):
                    if st is not None:  # streamed: no log is held once stored
                        assert outcome.header is not None and outcome.facts is not None
                        st.import_game(outcome.header, outcome.facts)
                        outcome = replace(outcome, header=None, facts=None)
                    if sink is not None:
                        sink.write(json.dumps(outcome_line(outcome)) + "\n")
                    outcomes.append(outcome)
                    progress.advance(task)
        finally:
            pool.close()
            if sink is not None:
                sink.close()
        outcomes.sort(key=lambda o: o.seed)
    sides = [s.id for s in probe.sides]
    summary = summarise(outcomes, sides)
    con = render.console()
    table = render.Table(
        title=f"{games} games of {probe.scenario_id} ({ruleset}), seeds {seed}..{seed + games - 1}"
    )
    for col in ("outcome", "games", "rate", "95% CI (Wilson)", "mean VP"):
        table.add_column(col)
    for key in [*sides, "draw", "unfinished"]:
        if key not in sides and not summary.wins.get(key):
            continue
        rate, low, high = summary.rate(key)
        vp = f"{summary.mean_vp[key]:.2f}" if key in summary.mean_vp else ""
        table.add_row(
            f"{key} wins" if key in sides else key,
            str(summary.wins.get(key, 0)),
            f"{rate:.1%}",
            f"{low:.1%} - {high:.1%}",
            vp,
        )
    con.print(table)
    con.print(f"mean turns {summary.mean_turns:.2f}, mean events {summary.mean_events:.0f}")
    by_class = render.Table(title="by unit class (per game)")
    for col in ("class", "mean damage taken", "share lost"):
        by_class.add_column(col)
    for kind, damage in summary.mean_damage_by_class.items():
        by_class.add_row(kind, f"{damage:.2f}", f"{summary.loss_rate_by_class[kind]:.1%}")
    con.print(by_class)
    if st is not None:
        typer.echo(f"stored {len(outcomes)} games in {st.location}")
