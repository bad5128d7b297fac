"""``wake start``, ``play``, ``record``, ``submit``, ``legal`` and ``seal``: make games and give
orders (command files, bots, physical dice and cards drawn, dice and card sheets, sealed
choices)."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Literal

import typer

from domain import safe_json
from domain.aggregate import Game
from domain.cli import render
from domain.cli.common import StoreOpt, errors, progress_bar
from domain.cli.reading import GameArg, GameSource
from domain.dice import ScriptedDice
from domain.engine import CommandEnvelope, GameState, Session, apply_fact, header_for
from domain.errors import InvalidCommand, ScenarioError, WakeError, validation_summary
from domain.header import GameHeader
from domain.record import write_record
from domain.record.reader import canonical_uuid
from domain.seed_commit import SeedSecret, committed_dice, new_secret
from domain.store import GameStore
from domain.user_input import load_json, parse_options, read_text

MAX_BOT_COMMANDS = 200_000
_FACE = re.compile(r"[0-9]{1,6}")  # a face as written: digits only (no sign, "_", "4.0", "٣")
_CARD = re.compile(r"[A-Za-z0-9_.-]{1,64}")  # a card id as written on a sheet or with --cards
CardsOpt = Annotated[
    str | None,
    typer.Option(
        help="how cards are drawn: named (each card drawn is entered by name with the order, "
        "the default with --physical) or shuffled (decks shuffled with the dice, the default "
        "with a seed)"
    ),
]


def _read_commands(path: Path) -> list[CommandEnvelope]:
    """A command file: one JSON object per line ({"side", "command", "dice", "cards"});
    # comments."""
    envelopes = []
    lines = read_text(path, "command file").splitlines()
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
    options: list[str] | None,
    classes: Path | None,
    title: str,
    game_id: str | None,
    commit_seed: bool = False,
    cards: str | None = None,
) -> tuple[GameHeader, SeedSecret | None]:
    """A new game's header and, with ``commit_seed``, the secret seed its header commits to.
    ``cards``: ``named`` or ``shuffled`` (default: named for physical dice, shuffled for seeded
    ones)."""
    data = load_json(scenario, "scenario")
    if classes is not None:
        data["classes"] = load_json(classes, "class table")
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
        options=parse_options(options or []),
        title=title,
        cards=_card_mode(cards, physical),
    )
    if not commit_seed or seed is None:
        return header, None
    secret = new_secret(seed)
    dice = committed_dice(secret, header.dice.cards)
    return header.model_copy(update={"dice": dice}), secret


def _card_mode(cards: str | None, physical: bool) -> Literal["named"] | None:
    """``--cards``: how a new game draws cards (``DiceSpec.cards``).

    Raises:
        ScenarioError: anything but ``named`` or ``shuffled``.
    """
    if cards is None:
        return "named" if physical else None
    if cards == "named":
        return "named"
    if cards == "shuffled":
        return None
    raise ScenarioError(
        f"--cards takes named (each card drawn is entered by name) or shuffled (decks "
        f"shuffled with the dice; physical games name the cards in the orders), not {cards!r}"
    )


def _sheet(path: Path, what: str, word: re.Pattern[str], kind: str) -> list[str]:
    """The words of a scribe's sheet (faces, or card ids), in order, separated by spaces or
    commas; lines starting with # are comments.

    Raises:
        ScenarioError: unreadable, or a word that is not one of ``kind``.
    """
    text = read_text(path, what)
    words = [
        w
        for line in text.splitlines()
        if not line.lstrip().startswith("#")
        for w in line.replace(",", " ").split()
    ]
    bad = next((w for w in words if not word.fullmatch(w)), None)
    if bad is not None:
        raise ScenarioError(f"{what} {path}: not a list of {kind} ({bad[:20]!r} is not one)")
    return words


def _read_sheet(path: Path) -> list[int]:
    """A scribe's dice sheet: faces in the order they were rolled."""
    return [int(w) for w in _sheet(path, "dice sheet", _FACE, "faces")]


def _read_card_sheet(path: Path) -> list[str]:
    """A scribe's card sheet: the ids of the cards drawn, in drawing order."""
    return _sheet(path, "card sheet", _CARD, "card ids")


def _play(
    session: Session,
    commands: list[CommandEnvelope] | None,
    bots: bool,
    max_commands: int = MAX_BOT_COMMANDS,
    sheet: list[int] | None = None,
    card_sheet: list[str] | None = None,
) -> None:
    if sheet is not None and session.header.dice.mode != "physical":
        raise ScenarioError("a dice sheet needs a physical-dice game (--physical)")
    if card_sheet is not None and not (
        session.header.dice.mode == "physical" and session.header.dice.named_cards
    ):
        raise ScenarioError("a card sheet needs a physical game with named draws (--physical)")
    dice = None
    if sheet is not None or card_sheet is not None:
        dice = ScriptedDice(sheet or [], start=session.state.dice_position, cards=card_sheet)
    with progress_bar() as progress:
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
    cards: CardsOpt = None,
    store: StoreOpt = None,
) -> None:
    """Start a game from a scenario file; prints its id."""
    with errors():
        header, secret = _make_header(
            ruleset, scenario, seed, physical, option, classes, title, None, commit_seed, cards
        )
        GameStore(store).create_game(header, secret)
    typer.echo(header.game_id)


def play(
    game_id: str,
    commands: Annotated[Path | None, typer.Option(help="command file (JSON lines)")] = None,
    bots: Annotated[bool | None, typer.Option(help="bots play every side")] = None,
    interactive: Annotated[
        bool,
        typer.Option(
            "--interactive", "-i", help="record at the keyboard: numbered orders, dice prompted"
        ),
    ] = False,
    store: StoreOpt = None,
) -> None:
    """Play a stored game on: bots against bots, the orders of a command file, or a scribe at
    the keyboard (--interactive: numbered legal orders, a prompt for each field and each die).

    Each order is saved as it is given; if another writer appends to the game meanwhile, the
    order is decided again on the fresh state (a bot chooses again), as ``submit`` does; an
    interactive order is refused instead (it was chosen seeing the older position)."""
    with errors():
        st = GameStore(store)
        if interactive:
            from domain.cli.interactive import run

            st.header(game_id)  # an unknown game: one line
            run(st, game_id)
            return
        envelopes = _read_commands(commands) if commands else None
        use_bots = bots if bots is not None else envelopes is None
        added = 0
        game: Game | None = None
        try:
            with progress_bar() as progress:
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
    card_sheet: Annotated[
        Path | None,
        typer.Option(help="ids of the cards drawn at the table in drawing order, for the bots"),
    ] = None,
    commit_seed: Annotated[
        bool,
        typer.Option(
            help="the header commits to the seed; revealed in the record if the game ends"
        ),
    ] = False,
    cards: CardsOpt = None,
) -> None:
    """Play a whole game in memory and write its record (how fixtures are made)."""
    with errors():
        header, secret = _make_header(
            ruleset, scenario, seed, physical, option, classes, title, game_id, commit_seed, cards
        )
        session = Session(header, seed=secret.seed if secret else None)
        envelopes = _read_commands(commands) if commands else None
        sheet = _read_sheet(dice_sheet) if dice_sheet else None
        drawn = _read_card_sheet(card_sheet) if card_sheet else None
        use_bots = bots if bots is not None else envelopes is None
        _play(session, envelopes, use_bots, sheet=sheet, card_sheet=drawn)
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


def submit(
    game_id: str,
    command: Annotated[str, typer.Argument(help='order as JSON, e.g. {"type": "end_movement"}')],
    side: Annotated[str | None, typer.Option(help="side giving the order")] = None,
    dice: Annotated[str | None, typer.Option(help="physical dice faces, e.g. 3,10,7")] = None,
    cards: Annotated[
        str | None,
        typer.Option(help="ids of the cards drawn at the table, e.g. comm_noise,power_failure"),
    ] = None,
    store: StoreOpt = None,
) -> None:
    """Submit one order; prints the events it caused (a refused order appends nothing)."""
    with errors():
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
        drawn = _card_ids(cards) if cards else None
        st = GameStore(store)
        envelope = CommandEnvelope(side=side, command=body, dice=faces, cards=drawn)
        facts = st.submit(game_id, envelope)
        state = st.state(game_id, at_event=facts[0].seq - 1)
        for fact in facts:
            typer.echo(render.log_line(state, fact))
            state = apply_fact(state, fact, check=False)


def _listed(text: str, option: str, word: re.Pattern[str], what: str, example: str) -> list[str]:
    """The items of ``option``'s comma-separated ``text``.

    Raises:
        InvalidCommand: an item that is not one of ``what``.
    """
    items = text.replace(" ", "").split(",")
    if not all(word.fullmatch(item) for item in items):
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise InvalidCommand(
            f"{option} takes {what} separated by commas (e.g. {example}), not {shown!r}"
        )
    return items


def _faces(text: str) -> list[int]:
    """``--dice 3,10,7``: the physical faces of an order, in rolling order."""
    faces = _listed(text, "--dice", _FACE, "the faces rolled as whole numbers", "3,10,7")
    return [int(face) for face in faces]


def _card_ids(text: str) -> list[str]:
    """``--cards a,b``: the ids of the cards drawn at the table, in drawing order."""
    example = "comm_noise,power_failure"
    return _listed(text, "--cards", _CARD, "the ids of the cards drawn", example)


def legal(
    game: GameArg, side: Annotated[str | None, typer.Option()] = None, store: StoreOpt = None
) -> None:
    """List legal orders for a side now, in a stored game or at the end of a record file
    (moves on a continuous board are a sample)."""
    with errors():
        state = GameSource(game, store).state()
    for cmd in state.ruleset.legal_commands(state.rules, side):
        typer.echo(json.dumps(cmd.model_dump(mode="json")))


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

    with errors():
        try:
            data = safe_json.loads(content)
        except safe_json.JSONInputError as exc:
            raise InvalidCommand(f"the secret is {exc}") from None
        if not isinstance(data, dict):
            raise InvalidCommand("the secret must be a JSON object")
    chosen = salt or new_salt()
    typer.echo(json.dumps({"digest": make_seal(data, chosen).digest, "salt": chosen}))
