"""``wake view`` and ``wake demo``: the replay viewer on a game, and the bundled recorded games
loaded and opened (or replayed in the terminal)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from domain.cli import render
from domain.cli.common import StoreOpt, errors, progress_bar
from domain.engine import apply_fact, new_game
from domain.importing import import_record
from domain.record import read_record_file
from domain.store import GameStore, store_location

REPO_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
AtOpt = Annotated[
    int, typer.Option("--at", min=0, help="the event the viewer opens at (default: the start)")
]
NoBrowserOpt = Annotated[
    bool,
    typer.Option(
        "--no-browser",
        help="only print the address (default: open a browser where there is a desktop)",
    ),
]


def view(
    target: Annotated[
        str | None, typer.Argument(help="game id in the store, or a record file")
    ] = None,
    port: Annotated[int | None, typer.Option(help="port on 127.0.0.1 (default 8501)")] = None,
    at: AtOpt = 0,
    no_browser: NoBrowserOpt = False,
    store: StoreOpt = None,
) -> None:
    """Open the replay viewer (Streamlit) on a stored game or a record file, at its start
    (or at --at EVENT)."""
    from viewer.launch import run_viewer

    app_args = ["--store", store_location(store), "--at", str(at)]
    if target is not None:
        path = Path(target)
        app_args += ["--record", str(path)] if path.exists() else ["--game", target]
    raise typer.Exit(run_viewer(app_args, port, open_browser=False if no_browser else None))


def _load_bundled(st: GameStore, files: list[Path]) -> None:
    existing = set(st.game_ids())
    with progress_bar() as progress:
        task = progress.add_task("loading bundled games", total=len(files))
        for path in files:
            rec = read_record_file(path, strict=True)
            if rec.header.game_id not in existing:
                import_record(st, rec)  # verified first, as `wake import`
            progress.advance(task)


def _replay_in_terminal(path: Path) -> None:
    rec = read_record_file(path)
    con = render.console()
    con.rule(f"replaying {path.name}")
    state = new_game(rec.header)
    last_turn = state.ruleset.read_model(state.rules).turn
    for fact in rec.events:
        before = state
        state = apply_fact(state, fact, check=False)
        view = state.ruleset.read_model(state.rules)
        if fact.topic.endswith("CommandIssued/1"):
            continue
        if "DiceRolled" not in fact.topic and "Moved" not in fact.topic:
            con.print(render.log_line(before, fact), markup=False)
        if view.turn != last_turn or state.result is not None:
            con.print(render.state_table(view, state.seq))
            last_turn = view.turn
    typer.echo(
        f"replayed {len(rec.events)} events; explain any with "
        f"`wake explain {rec.header.game_id} EVENT`"
    )


def demo(
    fixtures: Annotated[Path, typer.Option(help="folder of bundled records")] = REPO_FIXTURES,
    game: Annotated[
        str, typer.Option(help="record file name to open first")
    ] = "river_plate-annihilation.wake.json",
    terminal: Annotated[
        bool, typer.Option(help="replay in the terminal instead of the viewer")
    ] = False,
    port: Annotated[int | None, typer.Option(help="viewer port (default 8501)")] = None,
    at: AtOpt = 0,
    no_browser: NoBrowserOpt = False,
    store: StoreOpt = None,
) -> None:
    """Load the bundled recorded games into the store, then open the viewer on one at its
    start (or replay it in the terminal with --terminal). `wake list` lists them all."""
    files = sorted((fixtures / "games").rglob("*.wake.json"))
    if not files:
        typer.echo(f"no records under {fixtures / 'games'}", err=True)
        raise typer.Exit(2)
    with errors():
        st = GameStore(store)
        _load_bundled(st, files)
        chosen = next((p for p in files if p.name == game), files[0])
        header = read_record_file(chosen).header
    title = header.title or header.scenario_id
    typer.echo(f"{len(files)} recorded games in {st.location} (`wake list` shows them).")
    if terminal:
        _replay_in_terminal(chosen)
        return
    from viewer.launch import run_viewer

    where = f"event {at}" if at else "its start"
    typer.echo(f"Opening {title} at {where} (any other game: the viewer's sidebar).")
    app_args = ["--store", st.location, "--game", header.game_id, "--at", str(at)]
    raise typer.Exit(run_viewer(app_args, port, open_browser=False if no_browser else None))
