"""``wake rulesets`` and ``wake list``: the rule systems installed and the games stored."""

from __future__ import annotations

import typer

from domain.cli import render
from domain.cli.common import StoreOpt, errors
from domain.read_model import sides_label
from domain.ruleset import get_ruleset, plugins
from domain.store import GameStore, store_location


def rulesets() -> None:
    """List the rule systems this engine has: every ``wake.rulesets`` plugin installed, where it
    comes from, and why it does not load if it does not."""
    for plugin in plugins():
        source = plugin.target
        if plugin.distribution:
            source += f" [{plugin.distribution}]"
        if plugin.error:
            typer.echo(f"{plugin.id:10} NOT LOADED ({source}): {plugin.error}")
            continue
        meta = get_ruleset(plugin.id).meta
        hidden = ", ".join(meta.hidden_information) or "none"
        replays = f" (also replays {', '.join(meta.replays)})" if meta.replays else ""
        typer.echo(
            f"{meta.id:10} {meta.name} {meta.version}{replays}: {meta.board_kind} board, "
            f"{meta.min_sides}-{meta.max_sides} sides, hidden: {hidden}; rules "
            f"{meta.rule_prefix}-*; plugin {source}"
        )


def list_(store: StoreOpt = None) -> None:
    """List stored games."""
    with errors():  # a bad store location is bad input (issue 23 item 10)
        st = GameStore(store)
        ids = st.game_ids()
    table = render.Table(title=f"games in {store_location(store)}")
    table.add_column("game id", no_wrap=True, min_width=36)  # never cut, even when piped
    for col in ("ruleset", "scenario", "sides", "dice", "events", "turn", "result"):
        table.add_column(col)
    for gid in ids:
        with errors():
            s = st.summary(gid)
        table.add_row(
            s.game_id,
            s.ruleset,
            s.scenario,
            sides_label(list(s.sides)),
            s.dice,
            str(s.events),
            str(s.turn),
            s.result,
        )
    render.console().print(table)
