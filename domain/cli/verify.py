"""``wake verify``: re-run records and stored games, check their chains, signatures and
lineage (``--rerun``, the current rules over old games, is ``domain.cli.verify_rerun``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import TaskID

from domain.cli.common import StoreOpt, errors, internal, progress_bar, say
from domain.errors import LineageError, RecordDivergence, SealedSeed, WakeError
from domain.header import GameHeader
from domain.record import Record, VerifyReport, build_record, read_record_file, verify_record
from domain.record.keyring import Keyring, load_keyring
from domain.rerun import Ruling
from domain.store import GameStore
from domain.user_input import designer_ruling


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
    keyring: Annotated[
        Path | None,
        typer.Option(
            "--keyring",
            help="trusted keys (`wake trust`; default $WAKE_KEYRING or "
            "~/.config/wake/keyring.json): a signature by another key is by an unknown key",
        ),
    ] = None,
    trusted: Annotated[
        bool,
        typer.Option(
            "--trusted", help="require a valid signature by a trusted key of each game's head"
        ),
    ] = False,
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
    option: Annotated[
        list[str] | None,
        typer.Option("--option", help="with --rerun: KEY=VALUE, an option ruled the other way"),
    ] = None,
    data: Annotated[
        Path | None,
        typer.Option(
            "--data",
            help="with --rerun: your own table (a copy of a shipped data file with values "
            "changed, or a JSON merge patch over each game's scenario)",
        ),
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
        with errors():
            ruling = designer_ruling(option or [], data)
        _verify_rerun(
            files or [], game or [], every=every, strict=strict, key=key, store=store, ruling=ruling
        )
    if option or data is not None:
        typer.echo(
            "--option and --data go with --rerun (without it, games are re-run under the rules "
            "they were recorded with; to rule one game another way, use wake rerun)",
            err=True,
        )
        raise typer.Exit(2)
    with errors():
        public = signing.load_public_key(key) if key is not None else None
        ring = load_keyring(keyring)
        if public is not None and key is not None:  # the key asked for is trusted here
            ring = ring.with_key(signing.raw_public_key(public), f"--key {key.name}")
    checks: list[tuple[str, Callable[[Callable[[int, int], Any]], VerifyReport]]] = []
    notes: dict[str, list[str]] = {}
    for path in files or []:

        def check_file(advance: Callable[[int, int], Any], path: Path = path) -> VerifyReport:
            rec = read_record_file(path, strict=strict)
            report = verify_record(rec, progress=advance)
            parent_store = GameStore(explicit_store) if explicit_store else None
            lineage(rec.header, list(rec.events), parent_store, str(path))
            lines = notes.setdefault(str(path), [])
            if report.variations:  # each re-run as a record and checked against its parent
                lines.append(
                    f"{report.variations} variation(s) (other lines of this game), each re-run "
                    "and checked against its parent in the file"
                )
            if rec.annotations:  # issue 14: read and bound to the chain, never signed
                lines.append(
                    f"{len(rec.annotations)} annotation(s), each bound to this chain "
                    "(commentary: not covered by signatures)"
                )
            _check_signatures(rec, public, lines, ring, trusted)
            return report

        checks.append((str(path), check_file))
    if every:
        with errors():
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
                lines = notes.setdefault(f"game {gid}", [])
                _check_signatures(rec, public, lines, ring, trusted)
                return report

            checks.append((f"game {game_id}", check_game))
    if not checks:
        typer.echo("give record files to verify, or --game ID for a stored game", err=True)
        raise typer.Exit(2)
    diverged = invalid = 0
    with progress_bar() as progress:
        for label, check in checks:
            task = progress.add_task(f"verifying {label}", total=None)

            def advance(done: int, total: int, t: TaskID = task) -> None:
                progress.update(t, completed=done, total=total)

            try:
                report = check(advance)
                say(
                    progress,
                    f"{label}: OK - {report.events} events, "
                    f"{report.commands} orders, {report.result}",
                )
                for line in notes.get(label, []):
                    say(progress, f"  {line}")
            except SignatureFailure as exc:
                diverged += 1
                say(progress, f"{label}: SIGNATURE - {exc.message}")
            except ParentFailure as exc:
                diverged += 1
                say(progress, f"{label}: PARENT MISMATCH - {exc.message}")
            except SealedSeed as exc:
                diverged += 1
                say(progress, f"{label}: NOT RE-RUN - {exc.message}")
            except RecordDivergence as exc:
                diverged += 1
                first, *detail = exc.message.split("\n")
                say(progress, f"{label}: DIVERGES - {first}")
                for line in detail:
                    say(progress, f"  {line}")
            except WakeError as exc:
                invalid += 1
                say(progress, f"{label}: INVALID ({exc.code}) - {exc}")
            except Exception as exc:  # a bug, not the file: report it, go on with the others
                invalid += 1
                say(progress, f"{label}: {internal(exc)}")
            progress.remove_task(task)
    if diverged or invalid:
        typer.echo(f"{diverged + invalid} of {len(checks)} check(s) failed", err=True)
        raise typer.Exit(2 if invalid else 1)


def _check_signatures(
    rec: Record, public: Any, lines: list[str], ring: Keyring, trusted: bool = False
) -> None:
    """Note every signature of ``rec``, whose key it is (the user's ``ring``: a key not in it
    is "an unknown key claiming to be ..."), whether it holds, and whether every side
    co-signed; with ``public`` (a key), require its valid signature over the whole chain;
    with ``trusted``, a valid signature over it by a key in ``ring``.

    Raises:
        SignatureFailure: a signature does not hold, none by ``public`` covers the head, or
            (``trusted``) none by a trusted key does.
    """
    from domain.record import signing

    checks = signing.check_signatures(rec)
    for sig in checks:
        lines.append(sig.describe(ring))
        if not sig.valid:
            raise SignatureFailure(f"{sig.describe(ring)}")
    both = signing.sides_signed([s.id for s in rec.header.sides], checks, ring)
    if both is not None:
        lines.append(both)
    if trusted and not any(c.valid and not c.beyond and c.trusted_as(ring) for c in checks):
        raise SignatureFailure(
            f"no valid signature by a trusted key (keyring {ring.path}) covers this game's "
            f"chain head ({rec.chain.length} events)"
        )
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
    ruling: Ruling | None = None,
) -> None:
    """``wake verify --rerun`` (domain.cli.verify_rerun): exits with its status."""
    from domain.cli import verify_rerun

    if key is not None:
        typer.echo("--key checks signatures; it does not go with --rerun", err=True)
        raise typer.Exit(2)
    targets = verify_rerun.record_targets(files, strict=strict)
    if games or every:
        with errors():
            targets += verify_rerun.stored_targets(store, games, every=every)
    if not targets:
        typer.echo("give record files or folders, --game ID or --all to re-run", err=True)
        raise typer.Exit(2)
    raise typer.Exit(verify_rerun.run(targets, typer.echo, internal, ruling))


class SignatureFailure(WakeError):
    """A record reads and re-runs, but a signature it carries (or the one asked for) does
    not hold."""

    code = "signature"


class ParentFailure(WakeError):
    """A variation reads and re-runs, but the parent at hand (a file given, or the stored
    game) is not the one its header names: altered, or another game."""

    code = "parent"
