"""``wake``: start, play, record, import, export, inspect and verify games.

Every command that touches the store takes ``--store`` (or ``WAKE_STORE``); the default is an
embedded SQLite file. Refused orders and bad files exit non-zero with a message naming the problem
(and the rule, for illegal orders) and change nothing.

This module only registers the commands; each command group is a module of its own under
``domain.cli`` (shared helpers in ``domain.cli.common``). ``main`` is the console script.
"""

from __future__ import annotations

import os
import sys

import typer

from domain.cli import (
    demo,
    keys,
    listing,
    play,
    reading,
    scribe,
    simulate,
    transfer,
    trust,
    verify,
)
from domain.cli.analyse import analyse_command
from domain.cli.annotate import annotate_command, annotations_command, withdraw_command
from domain.cli.common import fail, internal
from domain.cli.fork import fork_command, variations_command
from domain.cli.report import report_command
from domain.cli.rerun import rerun_command
from domain.errors import WakeError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Wake: event-sourced naval wargames - play, record, replay, verify.",
)

app.command("rulesets")(listing.rulesets)
app.add_typer(keys.trust_app, name="trust")
app.command("start")(play.start)
app.command("play")(play.play)
app.command("record")(play.record)
app.command("submit")(play.submit)
app.command("import")(transfer.import_)
app.command("export")(transfer.export)
app.command("list")(listing.list_)
app.command("show")(reading.show)
app.command("log")(reading.log)
app.command("explain")(reading.explain)
app.command("verify")(verify.verify)
app.command("reveal-seed")(trust.reveal_seed)
app.command("keygen")(trust.keygen)
app.command("sign")(trust.sign)
app.command("legal")(play.legal)
app.command("seal")(play.seal)
app.command("simulate")(simulate.simulate)
app.command("view")(demo.view)
app.command("demo")(demo.demo)
app.command("scribe")(scribe.scribe)
app.command("serve")(scribe.serve)
app.command("links")(scribe.links)
app.command("rerun")(rerun_command)
app.command("report")(report_command)
app.command("fork")(fork_command)
app.command("variations")(variations_command)
app.command("annotate")(annotate_command)
app.command("annotations")(annotations_command)
app.command("withdraw-annotation")(withdraw_command)
app.command("analyse")(analyse_command)


def main() -> None:
    """The ``wake`` console script: an unexpected exception is one line and exit status 3
    (bad input is exit status 2 and a message naming the problem)."""
    try:
        app()
    except WakeError as exc:  # bad input that a command let through: still one line, exit 2
        try:
            fail(exc)
        except typer.Exit:
            sys.exit(2)
    except Exception as exc:
        if os.environ.get("WAKE_DEBUG"):
            raise
        typer.echo(internal(exc), err=True)
        sys.exit(3)


if __name__ == "__main__":
    main()
