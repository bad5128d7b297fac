"""``wake simulate``: many bot games in parallel and their outcome statistics (the logic is
``domain.simulate``)."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Annotated

import typer

from domain.cli import render
from domain.cli.common import StoreOpt, errors, progress_bar
from domain.engine import header_for
from domain.store import GameStore
from domain.user_input import load_json, parse_options


def simulate(
    ruleset: str,
    scenario: Path,
    games: Annotated[int, typer.Option("-n", "--games", help="number of bot games")] = 100,
    seed: Annotated[int, typer.Option(help="seed of the first game (game k: seed + k)")] = 1,
    workers: Annotated[int, typer.Option(help="processes (0 = one per CPU)")] = 0,
    option: Annotated[list[str] | None, typer.Option(help="ruleset option name=value")] = None,
    classes: Annotated[Path | None, typer.Option(help="your own class table (JSON)")] = None,
    save: Annotated[bool, typer.Option(help="also store every game")] = False,
    store: StoreOpt = None,
) -> None:
    """Play N bot games in parallel and report outcome statistics."""
    from domain.simulate import simulate as run
    from domain.simulate import summarise

    with errors():
        data = load_json(scenario, "scenario")
        if classes is not None:
            data["classes"] = load_json(classes, "class table")
        options = parse_options(option or [])
        probe = header_for(ruleset, data, game_id=str(uuid.uuid4()), seed=seed, options=options)
        with progress_bar() as progress:
            task = progress.add_task(f"simulating {games} games", total=games)
            outcomes = run(
                ruleset,
                data,
                games,
                options=options,
                base_seed=seed,
                workers=workers,
                keep_logs=save,
                progress=lambda k: progress.advance(task, k),
            )
        if save:
            st = GameStore(store)
            for outcome in outcomes:
                assert outcome.header is not None and outcome.facts is not None
                st.import_game(outcome.header, outcome.facts)
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
    if save:
        typer.echo(f"stored {len(outcomes)} games in {st.location}")
