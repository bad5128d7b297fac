"""``wake``: start, play, record, import, export, inspect and verify games.

Every command that touches the store takes ``--store`` (or ``WAKE_STORE``); the default is an
embedded SQLite file. Refused orders and bad files exit non-zero with a message naming the problem
(and the rule, for illegal orders) and change nothing.
"""

from __future__ import annotations

import json
import os
import re
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from domain import safe_json
from domain.aggregate import Game
from domain.cli import render
from domain.cli.analyse import (
    SchedulerOpt,
    analyse_command,
    check_imported_analysis,
    exported_analysis,
)
from domain.cli.annotate import annotate_command, annotations_command, withdraw_command
from domain.cli.fork import fork_command, variations_command
from domain.cli.report import report_command
from domain.cli.rerun import rerun_command
from domain.dice import ScriptedDice
from domain.engine import (
    CommandEnvelope,
    GameState,
    Session,
    apply_fact,
    decode,
    header_for,
    new_game,
)
from domain.errors import (
    InvalidCommand,
    LineageError,
    NoSuchEvent,
    RecordDivergence,
    RecordError,
    ScenarioError,
    SealedSeed,
    SignatureError,
    WakeError,
    validation_summary,
)
from domain.header import GameHeader
from domain.read_model import redact_view, sides_label
from domain.record import (
    Record,
    VerifyReport,
    build_record,
    read_record_file,
    verify_record,
    write_record,
)
from domain.record.reader import canonical_uuid, read_bounded
from domain.ruleset import get_ruleset, plugins
from domain.seed_commit import SeedSecret, committed_dice, new_secret
from domain.store import GameStore, store_location

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Wake: event-sourced naval wargames - play, record, replay, verify.",
)

StoreOpt = Annotated[str | None, typer.Option("--store", help="SQLite file (or WAKE_STORE)")]
REPO_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
MAX_BOT_COMMANDS = 200_000
_FACE = re.compile(r"[0-9]{1,6}")  # a face as written: digits only (no sign, "_", "4.0", "٣")


def _fail(exc: WakeError, code: int = 2) -> None:
    rule = f" [{exc.rule}]" if exc.rule else ""
    message = " ".join(exc.message.split())  # one line, whatever the message holds
    typer.echo(f"error ({exc.code}){rule}: {message}", err=True)
    raise typer.Exit(code)


@contextmanager
def _errors(code: int = 2) -> Iterator[None]:
    try:
        yield
    except WakeError as exc:
        _fail(exc, code)


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        transient=True,
        disable=not sys.stderr.isatty(),
        console=render.Console(stderr=True),
    )


def _say(progress: Progress, text: str) -> None:
    """A plain line above the progress bar (no markup, no wrapping)."""
    progress.console.print(text, markup=False, soft_wrap=True)


def _read_text(path: Path, what: str) -> str:
    """A bounded, regular input file as text (see ``read_bounded``).

    Raises:
        ScenarioError: unreadable, special, too large or not UTF-8.
    """
    try:
        data = read_bounded(path)
    except RecordError as exc:
        raise ScenarioError(f"{what}: {exc.message}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{what} {path} is not UTF-8 text ({exc.reason})") from None


def _load_json(path: Path, what: str) -> dict[str, Any]:
    """A JSON object from a file (a scenario, a class table).

    Raises:
        ScenarioError: unreadable, not JSON within the limits, or not an object.
    """
    try:
        data = safe_json.loads(_read_text(path, what))
    except safe_json.JSONInputError as exc:
        raise ScenarioError(f"{what} {path}: {exc}") from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{what} {path} must be a JSON object, not {type(data).__name__}")
    return data


def _parse_options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ScenarioError(f"option {pair!r} must look like name=value")
        try:
            options[key] = safe_json.loads(value)
        except safe_json.JSONInputError:
            options[key] = value
    return options


def _read_commands(path: Path) -> list[CommandEnvelope]:
    """A command file: one JSON object per line ({"side", "command", "dice"}); # comments."""
    envelopes = []
    lines = _read_text(path, "command file").splitlines()
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            envelopes.append(CommandEnvelope.model_validate(safe_json.loads(text), strict=True))
        except ValueError as exc:  # JSONInputError and pydantic's ValidationError
            raise ScenarioError(
                f"{path}:{number}: not a command envelope: {validation_summary(exc)}"
            ) from None
    return envelopes


def _make_header(
    ruleset: str,
    scenario: Path,
    seed: int | None,
    physical: bool,
    options: list[str],
    classes: Path | None,
    title: str,
    game_id: str | None,
    commit_seed: bool = False,
) -> tuple[GameHeader, SeedSecret | None]:
    """A new game's header and, with ``commit_seed``, the secret seed its header commits to."""
    data = _load_json(scenario, "scenario")
    if classes is not None:
        data["classes"] = _load_json(classes, "class table")
    if physical and seed is not None:
        raise ScenarioError("choose either --seed or --physical")
    if not physical and seed is None:
        seed = new_secret().seed if commit_seed else uuid.uuid4().int % (2**31)
    if seed is not None and abs(seed) > safe_json.MAX_SAFE_INTEGER:
        raise ScenarioError(
            f"--seed must lie within +/-{safe_json.MAX_SAFE_INTEGER} (records refuse larger "
            f"integers), not {seed}"
        )
    if game_id is not None and not canonical_uuid(game_id):
        raise ScenarioError(
            f"--game-id takes a UUID in canonical form (lower-case hex with hyphens, like "
            f"00000000-0000-4000-8000-000000000001), not {game_id!r}"
        )
    header = header_for(
        ruleset,
        data,
        game_id=game_id or str(uuid.uuid4()),
        seed=seed,
        options=_parse_options(options),
        title=title,
    )
    if not commit_seed or seed is None:
        return header, None
    secret = new_secret(seed)
    return header.model_copy(update={"dice": committed_dice(secret)}), secret


def _read_sheet(path: Path) -> list[int]:
    """A scribe's dice sheet: faces in the order they were rolled, separated by spaces/commas."""
    text = _read_text(path, "dice sheet")
    words = [
        w
        for line in text.splitlines()
        if not line.lstrip().startswith("#")
        for w in line.replace(",", " ").split()
    ]
    bad = next((w for w in words if not _FACE.fullmatch(w)), None)
    if bad is not None:
        raise ScenarioError(f"dice sheet {path}: not a list of faces ({bad[:20]!r} is not one)")
    return [int(w) for w in words]


def _play(
    session: Session,
    commands: list[CommandEnvelope] | None,
    bots: bool,
    max_commands: int = MAX_BOT_COMMANDS,
    sheet: list[int] | None = None,
) -> None:
    if sheet is not None and session.header.dice.mode != "physical":
        raise ScenarioError("a dice sheet needs a physical-dice game (--physical)")
    dice = ScriptedDice(sheet, start=session.state.dice_position) if sheet is not None else None
    with _progress() as progress:
        if commands is not None:
            task = progress.add_task("playing orders", total=len(commands))
            for envelope in commands:
                session.submit(envelope)
                progress.advance(task)
        if bots:
            task = progress.add_task("bots playing", total=None)
            for _ in range(max_commands):
                if session.submit_bot(dice) is None:
                    break
                progress.advance(task)


# --- commands ----------------------------------------------------------------------------------


@app.command()
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


@app.command()
def start(
    ruleset: str,
    scenario: Path,
    seed: Annotated[int | None, typer.Option(help="seed for computer dice")] = None,
    physical: Annotated[bool, typer.Option(help="dice are rolled at the table")] = False,
    option: Annotated[list[str] | None, typer.Option(help="ruleset option name=value")] = None,
    classes: Annotated[Path | None, typer.Option(help="your own class table (JSON)")] = None,
    title: str = "",
    commit_seed: Annotated[
        bool,
        typer.Option(
            help="the header commits to the seed; the store keeps it secret until the game ends "
            "(or wake reveal-seed)"
        ),
    ] = True,
    store: StoreOpt = None,
) -> None:
    """Start a game from a scenario file; prints its id."""
    with _errors():
        header, secret = _make_header(
            ruleset, scenario, seed, physical, option or [], classes, title, None, commit_seed
        )
        GameStore(store).create_game(header, secret)
    typer.echo(header.game_id)


@app.command()
def play(
    game_id: str,
    commands: Annotated[Path | None, typer.Option(help="command file (JSON lines)")] = None,
    bots: Annotated[bool | None, typer.Option(help="bots play every side")] = None,
    store: StoreOpt = None,
) -> None:
    """Play a stored game on: bots against bots, or the orders of a command file.

    Each order is saved as it is given; if another writer appends to the game meanwhile, the
    order is decided again on the fresh state (a bot chooses again), as ``submit`` does."""
    with _errors():
        st = GameStore(store)
        envelopes = _read_commands(commands) if commands else None
        use_bots = bots if bots is not None else envelopes is None
        added = 0
        game: Game | None = None
        try:
            with _progress() as progress:
                if envelopes is not None:
                    task = progress.add_task("playing orders", total=len(envelopes))
                    for envelope in envelopes:
                        game, facts = st.submit_next(game_id, _fixed(envelope), game)
                        added += len(facts or ())
                        progress.advance(task)
                if use_bots:
                    task = progress.add_task("bots playing", total=None)
                    chooser = st.bot_chooser(game_id)
                    for _ in range(MAX_BOT_COMMANDS):
                        game, facts = st.submit_next(game_id, chooser, game)
                        if facts is None:
                            break
                        added += len(facts)
                        progress.advance(task)
        except WakeError:
            if added:  # the orders before the refused one are kept
                typer.echo(f"{game_id}: {added} new events saved before this order", err=True)
            raise
        retried = f" ({st.conflicts} write conflicts retried)" if st.conflicts else ""
        typer.echo(f"{game_id}: {added} new events{retried}; {st.summary(game_id).result}")


def _fixed(envelope: CommandEnvelope) -> Callable[[GameState], CommandEnvelope]:
    """The same order whatever the state (``GameStore.submit_next`` judges it anew)."""
    return lambda _: envelope


@app.command()
def record(
    ruleset: str,
    scenario: Path,
    output: Annotated[Path, typer.Option("-o", "--output", help="record file to write")],
    seed: Annotated[int | None, typer.Option(help="seed for computer dice")] = None,
    physical: Annotated[bool, typer.Option(help="dice faces come with the orders")] = False,
    commands: Annotated[Path | None, typer.Option(help="command file (JSON lines)")] = None,
    bots: Annotated[
        bool | None, typer.Option(help="bots play (default without --commands)")
    ] = None,
    option: Annotated[list[str] | None, typer.Option(help="ruleset option name=value")] = None,
    classes: Annotated[Path | None, typer.Option(help="your own class table (JSON)")] = None,
    title: str = "",
    game_id: Annotated[str | None, typer.Option(help="fixed game id (UUID)")] = None,
    dice_sheet: Annotated[
        Path | None, typer.Option(help="physical faces in rolling order, used by the bots' orders")
    ] = None,
    commit_seed: Annotated[
        bool,
        typer.Option(
            help="the header commits to the seed; revealed in the record if the game ends"
        ),
    ] = False,
) -> None:
    """Play a whole game in memory and write its record (how fixtures are made)."""
    with _errors():
        header, secret = _make_header(
            ruleset, scenario, seed, physical, option or [], classes, title, game_id, commit_seed
        )
        session = Session(header, seed=secret.seed if secret else None)
        envelopes = _read_commands(commands) if commands else None
        sheet = _read_sheet(dice_sheet) if dice_sheet else None
        _play(session, envelopes, bots if bots is not None else envelopes is None, sheet=sheet)
        over = session.state.result is not None
        write_record(header, session.facts, output, secret if over else None)
    if secret is not None and not over:
        typer.echo(
            f"the game has not ended, so the record does not reveal its seed; keep it to reveal "
            f"later: seed {secret.seed}, salt {secret.salt}",
            err=True,
        )
    result = session.state.result
    outcome = f"{result.winner or 'draw'} ({result.reason})" if result else "in progress"
    typer.echo(f"{output}: {len(session.facts)} events, {session.state.commands} orders, {outcome}")


@app.command()
def submit(
    game_id: str,
    command: Annotated[str, typer.Argument(help='order as JSON, e.g. {"type": "end_movement"}')],
    side: Annotated[str | None, typer.Option(help="side giving the order")] = None,
    dice: Annotated[str | None, typer.Option(help="physical dice faces, e.g. 3,10,7")] = None,
    store: StoreOpt = None,
) -> None:
    """Submit one order; prints the events it caused (a refused order appends nothing)."""
    with _errors():
        try:
            body = safe_json.loads(command)
        except safe_json.JSONInputError as exc:
            raise InvalidCommand(f"the order is {exc}") from None
        if not isinstance(body, dict):
            shown = command.strip() if len(command.strip()) <= 40 else command.strip()[:37] + "..."
            raise InvalidCommand(
                f'an order is a JSON object such as {{"type": ...}}, not {shown!r}'
            )
        faces = _faces(dice) if dice else None
        st = GameStore(store)
        facts = st.submit(game_id, CommandEnvelope(side=side, command=body, dice=faces))
        state = st.state(game_id, at_event=facts[0].seq - 1)
        for fact in facts:
            typer.echo(render.log_line(state, fact))
            state = apply_fact(state, fact, check=False)


def _faces(text: str) -> list[int]:
    """``--dice 3,10,7``: the physical faces of an order, in rolling order.

    Raises:
        InvalidCommand: anything but whole numbers separated by commas.
    """
    faces = text.replace(" ", "").split(",")
    if not all(_FACE.fullmatch(face) for face in faces):
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise InvalidCommand(
            f"--dice takes the faces rolled as whole numbers separated by commas "
            f"(e.g. 3,10,7), not {shown!r}"
        )
    return [int(face) for face in faces]


@app.command("import")
def import_(
    files: list[Path],
    strict: Annotated[bool, typer.Option(help="require canonical fixture form")] = False,
    skip_existing: Annotated[bool, typer.Option(help="skip games already stored")] = False,
    store: StoreOpt = None,
) -> None:
    """Import record files into the store; each is verified first, a bad file changes nothing.

    Every file is tried and reported on its own line; the exit status is 2 if any failed."""
    st = GameStore(store)
    existing = set(st.game_ids()) if skip_existing else set()
    failed = 0
    with _progress() as progress:
        task = progress.add_task("importing", total=len(files))
        for path in files:
            try:
                rec = read_record_file(path, strict=strict)
                if rec.header.game_id in existing:
                    _say(progress, f"{path}: already stored as {rec.header.game_id}")
                    continue
                verify_record(rec)
                check_imported_analysis(rec)  # issue 24: a sample re-run, before anything is kept
                st.import_game(
                    rec.header,
                    rec.events,
                    rec.seed_reveal,
                    rec.signatures or (),
                    annotations=rec.annotations or (),
                )
                exported_analysis(st, rec)
                kept = len(rec.signatures or ())
                signed = f" with {kept} signature(s)" if kept else ""
                _say(progress, f"{path}: imported as {rec.header.game_id}{signed}")
            except WakeError as exc:
                failed += 1
                _say(progress, f"{path}: error ({exc.code}): {exc}")
            except Exception as exc:  # a bug, not the file: report it, go on with the others
                failed += 1
                _say(progress, f"{path}: {_internal(exc)}")
            finally:
                progress.advance(task)
    if failed:
        raise typer.Exit(2)


@app.command()
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
    store: StoreOpt = None,
) -> None:
    """Export a stored game as a record file (a sealed seed is revealed in it once the game
    has ended, or after ``wake reveal-seed``; its standing annotations are in it too); with
    ``--as SIDE``, the events as that side may see them (other players' hands and sealed
    choices redacted; no annotations). A redacted export cannot be verified: only the
    umpire's record carries every fact."""
    with _errors():
        st = GameStore(store)
        header, facts = st.facts(game_id)
        if as_side is None:
            reveal = st.public_reveal(game_id, st.state(game_id)) if header.dice.sealed else None
            text = write_record(
                header,
                facts,
                output,
                reveal,
                st.signatures(game_id),
                annotations=st.annotations(game_id),
                analysis=exported_analysis(st, game_id) if analysis else None,
            )
        else:
            state = new_game(header)
            _check_side(state, as_side)
            text = _redacted_export(state, facts, as_side)
            if output is not None:
                output.write_text(text, "utf-8")
    if output is None:
        sys.stdout.write(text)


def _redacted_export(state: GameState, facts: list[Any], side: str) -> str:
    """A side's view of a game as JSON: the header and each event redacted for ``side``."""
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
    }
    return json.dumps(body, ensure_ascii=False, indent=1) + "\n"


@app.command("list")
def list_(store: StoreOpt = None) -> None:
    """List stored games."""
    st = GameStore(store)
    table = render.Table(title=f"games in {store_location(store)}")
    table.add_column("game id", no_wrap=True, min_width=36)  # never cut, even when piped
    for col in ("ruleset", "scenario", "sides", "dice", "events", "turn", "result"):
        table.add_column(col)
    for gid in st.game_ids():
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


def _state_at(st: GameStore, game_id: str, event: int | None, turn: int | None) -> GameState:
    if turn is None:
        if event is not None:
            last = st.summary(game_id).events
            if not 0 <= event <= last:
                raise NoSuchEvent(
                    f"--event takes 0..{last} (0 = the start, before any event), not {event}; "
                    f"`wake log {game_id}` lists the events"
                )
        return st.state(game_id, event)
    header, facts = st.facts(game_id)
    state = new_game(header)
    chosen = state
    for fact in facts:
        state = apply_fact(state, fact, check=False)
        t = state.ruleset.read_model(state.rules).turn
        if t == turn:
            chosen = state
        elif t > turn:
            break
    if chosen.seq == 0 and turn != 1:
        now = state.ruleset.read_model(state.rules).turn
        raise NoSuchEvent(f"the game never reached turn {turn} (it is in turn {now})")
    return chosen


def _check_side(state: GameState, side: str | None) -> None:
    """Refuse a ``--as`` side the game does not have."""
    sides = [s.id for s in state.header.sides]
    if side is not None and side not in sides:
        raise InvalidCommand(f"unknown side {side!r} (sides: {', '.join(sides)})")


@app.command()
def show(
    game_id: str,
    event: Annotated[int | None, typer.Option(help="state after this event (0 = start)")] = None,
    turn: Annotated[int | None, typer.Option(help="state at the end of this turn")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="read model as JSON")] = False,
    as_side: Annotated[
        str | None, typer.Option("--as", help="as this side sees it (default: the umpire)")
    ] = None,
    store: StoreOpt = None,
) -> None:
    """Show the state at any event or turn (table or JSON)."""
    with _errors():
        st = GameStore(store)
        state = _state_at(st, game_id, event, turn)
        _check_side(state, as_side)
        view = redact_view(state.ruleset.read_model(state.rules), as_side)
    if as_json:
        typer.echo(
            json.dumps(
                {"game_id": game_id, "event": state.seq, "view": view.model_dump(mode="json")},
                indent=1,
            )
        )
    else:
        render.console().print(render.state_table(view, state.seq))


@app.command()
def log(
    game_id: str,
    start_at: Annotated[int, typer.Option("--from", help="first event")] = 1,
    stop_at: Annotated[int | None, typer.Option("--to", help="last event")] = None,
    as_side: Annotated[
        str | None, typer.Option("--as", help="as this side sees it (default: the umpire)")
    ] = None,
    store: StoreOpt = None,
) -> None:
    """Print the log, one line an event (* marks automatic events); with ``--as SIDE`` hidden
    information (other players' hands, sealed choices) is redacted for that side."""
    with _errors():
        header, facts = GameStore(store).facts(game_id)
        state = new_game(header)
        _check_side(state, as_side)
    for fact in facts:
        if start_at <= fact.seq and (stop_at is None or fact.seq <= stop_at):
            typer.echo(render.log_line(state, fact, as_side))
        state = apply_fact(state, fact, check=False)


def _check_explainable(game_id: str, event: int, last: int) -> None:
    """Events are numbered from 1; 0 is the game's start (``show --event 0``), not an event."""
    listing = f"`wake log {game_id}` lists them (orders, rolls and what they caused)"
    if last == 0:
        raise NoSuchEvent(
            "the game has no events yet (no order has been given): there is nothing to explain"
        )
    if event == 0:
        raise NoSuchEvent(
            f"event 0 is the game's start, before any event, and has nothing to explain; "
            f"explain one of events 1..{last}: {listing}"
        )
    if not 1 <= event <= last:
        raise NoSuchEvent(f"the game has events 1..{last}, not {event}; {listing}")


@app.command()
def explain(game_id: str, event: int, store: StoreOpt = None) -> None:
    """Explain one event: the order behind it, dice, modifiers with rule IDs, odds."""
    with _errors():
        st = GameStore(store)
        _, facts = st.facts(game_id)
        _check_explainable(game_id, event, len(facts))
        before = st.state(game_id, event - 1)
    for line in render.explain(before, facts, event - 1):
        typer.echo(line)


@app.command()
def verify(
    files: Annotated[list[Path] | None, typer.Argument(help="record files")] = None,
    strict: Annotated[bool, typer.Option(help="require canonical fixture form")] = False,
    game: Annotated[
        list[str] | None,
        typer.Option("--game", help="audit a stored game: orders, dice, chain, snapshots"),
    ] = None,
    key: Annotated[
        Path | None,
        typer.Option(help="public key (PEM): require its valid signature of each record's head"),
    ] = None,
    rerun: Annotated[
        bool,
        typer.Option(
            "--rerun",
            help="re-decide with the CURRENT rules (version and data) and list the games whose "
            "outcome changed; FILES may be folders of *.wake.json",
        ),
    ] = False,
    every: Annotated[
        bool, typer.Option("--all", help="every game in the store (--store / WAKE_STORE)")
    ] = False,
    parent: Annotated[
        list[Path] | None,
        typer.Option("--parent", help="a variation's parent record, to check its prefix against"),
    ] = None,
    store: StoreOpt = None,
) -> None:
    """Re-run record files (or stored games) through the engine; report the first differing
    event, and every signature a record carries and whether it holds. A stored game's snapshots
    are checked against its events too. A variation (fork) is checked against its parent when
    the parent is at hand (``--parent FILE``, or in the store given with ``--store`` /
    WAKE_STORE), and the output says whether it was. Exit status 1 if a valid record diverges,
    cannot be re-run (its seed is sealed and not revealed), a signature does not hold (with
    ``--key``: no valid signature by that key) or the parent at hand is not the one it names,
    2 if a file cannot be read or is not a valid record.
    With ``--rerun``: each game re-decided with the current version of its ruleset and the data
    it ships now, UNCHANGED or CHANGED (where, both versions, the rule, the first order that
    became illegal) and a summary; exit 0 if none changed, 1 if some did, 2 if some input
    could not be read (docs/disputes.md)."""
    from domain.audit import audit_game
    from domain.record import signing
    from domain.variations import check_lineage

    parents = parent or []
    explicit_store = store or os.environ.get("WAKE_STORE")

    def lineage(header: GameHeader, facts: list[Any], st: GameStore | None, label: str) -> None:
        try:
            checked = check_lineage(header, facts, store=st, parents=parents)
        except LineageError as exc:
            raise ParentFailure(exc.message) from None
        if checked.parent is not None:
            notes.setdefault(label, []).append(checked.describe())

    if rerun:
        _verify_rerun(files or [], game or [], every=every, strict=strict, key=key, store=store)
    with _errors():
        public = signing.load_public_key(key) if key is not None else None
    checks: list[tuple[str, Callable[[Callable[[int, int], Any]], VerifyReport]]] = []
    notes: dict[str, list[str]] = {}
    for path in files or []:

        def check_file(advance: Callable[[int, int], Any], path: Path = path) -> VerifyReport:
            rec = read_record_file(path, strict=strict)
            report = verify_record(rec, progress=advance)
            parent_store = GameStore(explicit_store) if explicit_store else None
            lineage(rec.header, list(rec.events), parent_store, str(path))
            lines = notes.setdefault(str(path), [])
            if rec.annotations:  # issue 14: read and bound to the chain, never signed
                lines.append(
                    f"{len(rec.annotations)} annotation(s), each bound to this chain "
                    "(commentary: not covered by signatures)"
                )
            _check_signatures(rec, public, lines)
            return report

        checks.append((str(path), check_file))
    if every:
        with _errors():
            known = GameStore(store).game_ids()
        game = [*(game or []), *(gid for gid in known if gid not in (game or []))]
    if game:
        st = GameStore(store)
        for game_id in game:

            def check_game(advance: Callable[[int, int], Any], gid: str = game_id) -> VerifyReport:
                report = audit_game(st, gid, progress=advance)
                lineage(*st.facts(gid), st, f"game {gid}")
                header, facts = st.facts(gid)
                rec = build_record(header, facts, signatures=st.signatures(gid))
                _check_signatures(rec, public, notes.setdefault(f"game {gid}", []))
                return report

            checks.append((f"game {game_id}", check_game))
    if not checks:
        typer.echo("give record files to verify, or --game ID for a stored game", err=True)
        raise typer.Exit(2)
    diverged = invalid = 0
    with _progress() as progress:
        for label, check in checks:
            task = progress.add_task(f"verifying {label}", total=None)

            def advance(done: int, total: int, t: TaskID = task) -> None:
                progress.update(t, completed=done, total=total)

            try:
                report = check(advance)
                _say(
                    progress,
                    f"{label}: OK - {report.events} events, "
                    f"{report.commands} orders, {report.result}",
                )
                for line in notes.get(label, []):
                    _say(progress, f"  {line}")
            except SignatureFailure as exc:
                diverged += 1
                _say(progress, f"{label}: SIGNATURE - {exc.message}")
            except ParentFailure as exc:
                diverged += 1
                _say(progress, f"{label}: PARENT MISMATCH - {exc.message}")
            except SealedSeed as exc:
                diverged += 1
                _say(progress, f"{label}: NOT RE-RUN - {exc.message}")
            except RecordDivergence as exc:
                diverged += 1
                _say(progress, f"{label}: DIVERGES - {exc.message}")
            except WakeError as exc:
                invalid += 1
                _say(progress, f"{label}: INVALID ({exc.code}) - {exc}")
            except Exception as exc:  # a bug, not the file: report it, go on with the others
                invalid += 1
                _say(progress, f"{label}: {_internal(exc)}")
            progress.remove_task(task)
    if diverged or invalid:
        typer.echo(f"{diverged + invalid} of {len(checks)} check(s) failed", err=True)
        raise typer.Exit(2 if invalid else 1)


def _check_signatures(rec: Record, public: Any, lines: list[str]) -> None:
    """Note every signature of ``rec`` and whether it holds; with ``public`` (a key), require
    its valid signature over the whole chain.

    Raises:
        SignatureFailure: a signature does not hold, or none by ``public`` covers the head.
    """
    from domain.record import signing

    for sig in signing.check_signatures(rec):
        lines.append(sig.describe())
        if not sig.valid:
            raise SignatureFailure(f"{sig.describe()}")
    if public is not None and signing.signed_by(rec, public) is None:
        raise SignatureFailure(
            f"no valid signature by key {signing.fingerprint(public)} covers this "
            f"game's chain head ({rec.chain.length} events, head {rec.chain.head[:12]})"
        )


def _verify_rerun(
    files: list[Path],
    games: list[str],
    *,
    every: bool,
    strict: bool,
    key: Path | None,
    store: str | None,
) -> None:
    """``wake verify --rerun`` (domain.cli.verify_rerun): exits with its status."""
    from domain.cli import verify_rerun

    if key is not None:
        typer.echo("--key checks signatures; it does not go with --rerun", err=True)
        raise typer.Exit(2)
    targets = verify_rerun.record_targets(files, strict=strict)
    if games or every:
        with _errors():
            targets += verify_rerun.stored_targets(store, games, every=every)
    if not targets:
        typer.echo("give record files or folders, --game ID or --all to re-run", err=True)
        raise typer.Exit(2)
    raise typer.Exit(verify_rerun.run(targets, typer.echo, _internal))


class SignatureFailure(WakeError):
    """A record reads and re-runs, but a signature it carries (or the one asked for) does
    not hold."""

    code = "signature"


class ParentFailure(WakeError):
    """A variation reads and re-runs, but the parent at hand (a file given, or the stored
    game) is not the one its header names: altered, or another game."""

    code = "parent"


@app.command("reveal-seed")
def reveal_seed(game_id: str, store: StoreOpt = None) -> None:
    """Reveal the sealed dice seed of a stored game (the umpire's decision): print it, and
    carry it in every export from now on, so the game's record can be verified. A game's
    seed is revealed in its export anyway once the game has ended."""
    with _errors():
        secret = GameStore(store).reveal_seed(game_id)
    typer.echo(json.dumps({"game_id": game_id, "seed": secret.seed, "salt": secret.salt}))


@app.command()
def keygen(
    output: Annotated[Path, typer.Option("-o", "--output", help="private key file to create")],
) -> None:
    """Make an Ed25519 key for signing records: the private key (PEM, mode 0600) and its public
    half beside it (``KEYFILE.pub``). Existing files are never overwritten."""
    from domain.record import signing

    with _errors():
        public = signing.write_keypair(output)
    typer.echo(f"{output}: private key (keep it secret)")
    typer.echo(f"{signing.public_key_path(output)}: public key {signing.fingerprint(public)}")


@app.command()
def sign(
    record_file: Annotated[
        Path, typer.Argument(metavar="RECORD", help="record file, or the id of a stored game")
    ],
    key: Annotated[Path, typer.Option(help="private key file (from wake keygen)")],
    signer: Annotated[str, typer.Option(help="who vouches for the game, e.g. a name")],
    role: Annotated[str, typer.Option(help="umpire, organiser or server")] = "umpire",
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="signed record (default: in place)")
    ] = None,
    store: StoreOpt = None,
) -> None:
    """Sign a game's chain head (the header digest, the last event's digest and the number
    of events) with Ed25519: a record file (written back, or to ``-o``), or a stored game
    (the signature is kept with it and carried by its exports). The game is re-run first:
    only one that verifies is signed (one whose seed is still sealed, after its chain is
    checked). The chain and every event digest stay as they are."""
    from domain.audit import audit_game
    from domain.record import signing
    from domain.record.writer import dumps, write_text_atomic

    with _errors():
        if role not in signing.ROLES:
            raise SignatureError(f"--role must be one of {', '.join(signing.ROLES)}, not {role!r}")
        private = signing.load_private_key(key)
        stored = not record_file.exists() and canonical_uuid(str(record_file))
        st = GameStore(store) if stored else None
        if st is not None:
            header, facts = st.facts(str(record_file))
            rec = build_record(header, facts, signatures=st.signatures(header.game_id))
        else:
            rec = read_record_file(record_file)
        try:
            if st is not None:
                audit_game(st, rec.header.game_id)
            else:
                verify_record(rec)
            rerun = ""
        except SealedSeed:  # a live game's export: the chain is checked, the dice cannot be
            rerun = " (seed sealed: the chain was checked, the dice not re-run)"
        signed = signing.sign(rec, private, signer, role)
        if st is not None:
            st.add_signatures(rec.header.game_id, signed.signatures or ())
        else:
            write_text_atomic(dumps(signed), output or record_file)
    where = f"game {record_file}" if stored else str(output or record_file)
    typer.echo(
        f"{where}: signed by {signer} ({role}), key "
        f"{signing.fingerprint(private.public_key())}, head {rec.chain.head[:12]} "
        f"({rec.chain.length} events){rerun}"
    )


@app.command()
def legal(
    game_id: str, side: Annotated[str | None, typer.Option()] = None, store: StoreOpt = None
) -> None:
    """List legal orders for a side now (moves on a continuous board are a sample)."""
    with _errors():
        state = GameStore(store).state(game_id)
    for cmd in state.ruleset.legal_commands(state.rules, side):
        typer.echo(json.dumps(cmd.model_dump(mode="json")))


@app.command()
def seal(
    content: Annotated[
        str,
        typer.Argument(
            help='the secret as JSON, e.g. \'{"ship": "monitor", '
            '"turn": 2, "order": "maneuver_1"}\''
        ),
    ],
    salt: Annotated[str | None, typer.Option(help="your salt (default: a new random one)")] = None,
) -> None:
    """Seal a secret choice (an Iron & Oak order card): print the commitment to submit now and
    the salt to keep for the reveal."""
    from domain.sealed import new_salt
    from domain.sealed import seal as make_seal

    with _errors():
        try:
            data = safe_json.loads(content)
        except safe_json.JSONInputError as exc:
            raise InvalidCommand(f"the secret is {exc}") from None
        if not isinstance(data, dict):
            raise InvalidCommand("the secret must be a JSON object")
    chosen = salt or new_salt()
    typer.echo(json.dumps({"digest": make_seal(data, chosen).digest, "salt": chosen}))


@app.command()
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

    with _errors():
        data = _load_json(scenario, "scenario")
        if classes is not None:
            data["classes"] = _load_json(classes, "class table")
        options = _parse_options(option or [])
        probe = header_for(ruleset, data, game_id=str(uuid.uuid4()), seed=seed, options=options)
        st = GameStore(store) if save else None
        pool = runner(scheduler, workers)
        sink = out.open("w", encoding="utf-8") if out is not None else None
        outcomes = []
        try:
            with _progress() as progress:
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


@app.command()
def view(
    target: Annotated[
        str | None, typer.Argument(help="game id in the store, or a record file")
    ] = None,
    port: Annotated[int | None, typer.Option(help="port on 127.0.0.1 (default 8501)")] = None,
    store: StoreOpt = None,
) -> None:
    """Open the replay viewer (Streamlit) on a stored game or a record file."""
    from viewer.launch import run_viewer

    app_args = ["--store", store_location(store)]
    if target is not None:
        path = Path(target)
        app_args += ["--record", str(path)] if path.exists() else ["--game", target]
    raise typer.Exit(run_viewer(app_args, port))


def _load_bundled(st: GameStore, files: list[Path]) -> None:
    existing = set(st.game_ids())
    with _progress() as progress:
        task = progress.add_task("loading bundled games", total=len(files))
        for path in files:
            rec = read_record_file(path, strict=True)
            if rec.header.game_id not in existing:
                verify_record(rec)
                check_imported_analysis(rec)  # issue 24: a sample re-run, before anything is kept
                st.import_game(
                    rec.header,
                    rec.events,
                    rec.seed_reveal,
                    rec.signatures or (),
                    annotations=rec.annotations or (),
                )
                exported_analysis(st, rec)
            progress.advance(task)


def _replay_in_terminal(path: Path) -> None:
    rec = read_record_file(path)
    con = render.console()
    con.rule(f"replaying {path.name}")
    state = new_game(rec.header)
    last_turn = state.ruleset.read_model(state.rules).turn
    for fact in rec.events:
        state = apply_fact(state, fact, check=False)
        view = state.ruleset.read_model(state.rules)
        if fact.topic.endswith("CommandIssued/1"):
            continue
        if "DiceRolled" not in fact.topic and "Moved" not in fact.topic:
            con.print(render.log_line(state, fact), markup=False)
        if view.turn != last_turn or state.result is not None:
            con.print(render.state_table(view, state.seq))
            last_turn = view.turn
    typer.echo(
        f"replayed {len(rec.events)} events; explain any with "
        f"`wake explain {rec.header.game_id} EVENT`"
    )


@app.command()
def demo(
    fixtures: Annotated[Path, typer.Option(help="folder of bundled records")] = REPO_FIXTURES,
    game: Annotated[
        str, typer.Option(help="record file name to open first")
    ] = "river_plate-annihilation.wake.json",
    terminal: Annotated[
        bool, typer.Option(help="replay in the terminal instead of the viewer")
    ] = False,
    port: Annotated[int | None, typer.Option(help="viewer port (default 8501)")] = None,
    store: StoreOpt = None,
) -> None:
    """Load the bundled recorded games into the store, then open the viewer on one
    (or replay it in the terminal with --terminal)."""
    files = sorted((fixtures / "games").rglob("*.wake.json"))
    if not files:
        typer.echo(f"no records under {fixtures / 'games'}", err=True)
        raise typer.Exit(2)
    st = GameStore(store)
    with _errors():
        _load_bundled(st, files)
        chosen = next((p for p in files if p.name == game), files[0])
        game_id = read_record_file(chosen).header.game_id
    typer.echo(f"{len(files)} recorded games in {st.location}")
    list_(store)
    if terminal:
        _replay_in_terminal(chosen)
        return
    from viewer.launch import run_viewer

    raise typer.Exit(run_viewer(["--store", st.location, "--game", game_id], port))


app.command("rerun")(rerun_command)
app.command("report")(report_command)
app.command("fork")(fork_command)
app.command("variations")(variations_command)
app.command("annotate")(annotate_command)
app.command("annotations")(annotations_command)
app.command("withdraw-annotation")(withdraw_command)
app.command("analyse")(analyse_command)


def _internal(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    text = text if len(text) <= 200 else text[:197] + "..."
    return (
        f"error (internal): {type(exc).__name__}: {text} - a bug in Wake, not in the input; "
        "WAKE_DEBUG=1 shows the traceback"
    )


def main() -> None:
    """The ``wake`` console script: an unexpected exception is one line and exit status 3
    (bad input is exit status 2 and a message naming the problem)."""
    try:
        app()
    except Exception as exc:
        if os.environ.get("WAKE_DEBUG"):
            raise
        typer.echo(_internal(exc), err=True)
        sys.exit(3)


if __name__ == "__main__":
    main()
