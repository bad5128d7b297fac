"""``wake import`` and ``wake export``: record files into and out of the store (a side's
redacted view with ``export --as``)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from domain.annotations import Annotation, shown_for
from domain.cli.analyse import exported_analysis
from domain.cli.common import StoreOpt, check_side, errors, internal, progress_bar, say
from domain.engine import GameState, apply_fact, decode, new_game
from domain.errors import WakeError
from domain.importing import import_record
from domain.record import read_record_file, write_record
from domain.store import GameStore
from domain.variations import Lines, other_lines


def import_(
    files: list[Path],
    strict: Annotated[bool, typer.Option(help="require canonical fixture form")] = False,
    skip_existing: Annotated[bool, typer.Option(help="skip games already stored")] = False,
    store: StoreOpt = None,
) -> None:
    """Import record files into the store; each is verified first, a bad file changes nothing.

    Every file is tried and reported on its own line; the exit status is 2 if any failed."""
    with errors():
        st = GameStore(store)
        existing = set(st.game_ids()) if skip_existing else set()
    failed = 0
    with progress_bar() as progress:
        task = progress.add_task("importing", total=len(files))
        for path in files:
            try:
                rec = read_record_file(path, strict=strict)
                if rec.header.game_id in existing:
                    say(progress, f"{path}: already stored as {rec.header.game_id}")
                    continue
                import_record(st, rec)  # verified first: nothing unverified is stored
                kept = len(rec.signatures or ())
                signed = f" with {kept} signature(s)" if kept else ""
                say(progress, f"{path}: imported as {rec.header.game_id}{signed}")
            except WakeError as exc:
                failed += 1
                say(progress, f"{path}: error ({exc.code}): {exc}")
            except Exception as exc:  # a bug, not the file: report it, go on with the others
                failed += 1
                say(progress, f"{path}: {internal(exc)}")
            finally:
                progress.advance(task)
    if failed:
        raise typer.Exit(2)


def export(
    game_id: str,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="file (default stdout)")
    ] = None,
    as_side: Annotated[
        str | None,
        typer.Option("--as", help="a side's view: hidden information redacted (not a record)"),
    ] = None,
    analysis: Annotated[
        bool, typer.Option("--analysis", help="with the stored analysis (`wake analyse`)")
    ] = False,
    variations: Annotated[
        bool,
        typer.Option(
            "--variations/--no-variations",
            help="with the other lines of its variation tree (take-backs, forks)",
        ),
    ] = True,
    store: StoreOpt = None,
) -> None:
    """Export a stored game as a record file (a sealed seed is revealed in it once the game
    has ended, or after ``wake reveal-seed``; its standing annotations are in it too, and the
    other lines of its variation tree: a line taken back at the table, a fork); with
    ``--as SIDE``, the events as that side may see them (other players' hands and sealed
    choices redacted; only the annotations that side may see). A redacted export cannot be
    verified: only the umpire's record carries every fact."""
    with errors():
        st = GameStore(store)
        header, facts = st.facts(game_id)
        if as_side is None:
            reveal = st.public_reveal(game_id, st.state(game_id)) if header.dice.sealed else None
            lines = other_lines(st, game_id) if variations else Lines([], [])
            for left in lines.left_out:
                typer.echo(f"variation left out: {left}", err=True)
            text = write_record(
                header,
                facts,
                output,
                reveal,
                st.signatures(game_id),
                annotations=st.annotations(game_id),
                analysis=exported_analysis(st, game_id) if analysis else None,
                variations=lines.records,
            )
        else:
            state = new_game(header)
            check_side(state, as_side)
            notes = shown_for(st.annotations(game_id), header, as_side)  # issue 23 item 3
            text = _redacted_export(state, facts, as_side, notes)
            if output is not None:
                output.write_text(text, "utf-8")
    if output is None:
        sys.stdout.write(text)


def _redacted_export(
    state: GameState, facts: list[Any], side: str, notes: Sequence[Annotation]
) -> str:
    """A side's view of a game as JSON: the header, each event redacted for ``side`` and the
    annotations that side may see."""
    events = []
    for fact in facts:
        event = state.ruleset.redact(decode(state, fact), side)
        events.append({"seq": fact.seq, "topic": fact.topic, "payload": event.payload()})
        state = apply_fact(state, fact, check=False)
    body = {
        "redacted_for": side,
        "note": "a side's view: not a record, it does not verify",
        "header": state.header.model_dump(mode="json"),
        "events": events,
        "annotations": [note.model_dump(mode="json") for note in notes],
    }
    return json.dumps(body, ensure_ascii=False, indent=1) + "\n"
