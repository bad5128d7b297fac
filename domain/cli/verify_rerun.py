"""``wake verify --rerun``: re-decide recorded games with the current rules; list which changed.

The report a rules designer wants after changing a table or bumping a ruleset's version: every
record file given (a folder stands for every ``*.wake.json`` under it) and every stored game
asked for is re-decided with the ruleset's current version and the data it ships now
(``domain.rerun`` with ``Ruling(current=True)``), throwing the recorded dice stream (seeded: die
n = f(seed, n); physical: the recorded faces in order). Facts recorded under an older topic
version are compared in their upcast form. Each game gets a status:

* ``UNCHANGED``: every recorded order gives the recorded events under the current rules;
* ``CHANGED``: the first event that differs (both versions, the rule), the first order that
  became illegal, and how both lines end (whether the result changed);
* ``NOT RE-RUN``: the dice seed is committed and not revealed, or ``NOT RE-RUN (data not
  available)``: a table the game was played with is a changed copy of a shipped one (told by
  its digest, ``domain.data_versions``) and was not given with ``--data``;
* ``INVALID``: the input cannot be read (one line naming the problem); the others go on.

then a summary line. ``--option`` and ``--data`` (a designer's changed table) apply on top of
the current rules. Exit status, as ``wake verify``'s: 0 when no game changed, 1 when some
changed or could not be re-run ("valid, but diverges on re-run"), 2 when some input could not
be read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from domain.engine import Fact, replay
from domain.errors import DataNotAvailable, RecordError, SealedSeed, WakeError
from domain.header import GameHeader
from domain.rerun import RerunReport, Ruling, rerun

SUFFIX = ".wake.json"

#: What a target loads: the header, the facts, and the seed of a committed-seed game (if known).
Loaded = tuple[GameHeader, list[Fact], int | None]


@dataclass(frozen=True)
class Target:
    """One game to re-run: how it is named in the report, and how to load it."""

    label: str
    load: Callable[[], Loaded]


def _unreadable(label: str, message: str) -> Target:
    def load() -> Loaded:
        raise RecordError(message)

    return Target(label, load)


def record_targets(paths: Iterable[Path], *, strict: bool = False) -> list[Target]:
    """A target per record file; a folder gives every ``*.wake.json`` under it, sorted (a
    folder without any is an unreadable target, reported like a bad file)."""
    from domain.record import read_record_file
    from domain.seed_commit import checked_seed

    def load_file(path: Path) -> Loaded:
        record = read_record_file(path, strict=strict)
        seed = checked_seed(record.header.dice, record.seed_reveal, str(path))
        return record.header, list(record.events), seed

    targets: list[Target] = []
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.rglob(f"*{SUFFIX}") if not p.is_dir())
            if not found:
                targets.append(_unreadable(str(path), f"{path}: no *{SUFFIX} files in this folder"))
            targets.extend(Target(str(p), partial(load_file, p)) for p in found)
        else:
            targets.append(Target(str(path), partial(load_file, path)))
    return targets


def stored_targets(store: str | None, game_ids: Iterable[str], *, every: bool) -> list[Target]:
    """A target per stored game (``every``: all of them, oldest first). A stored game's chain
    is checked before it is re-run; a committed seed is the one the store keeps.

    Raises:
        StoreError: the store cannot be opened.
    """
    from domain.store import GameStore

    st = GameStore(store)
    ids = list(game_ids)
    if every:
        ids += [gid for gid in st.game_ids() if gid not in ids]

    def load_game(game_id: str) -> Loaded:
        header, facts = st.facts(game_id)
        replay(header, facts)  # the rows are trusted elsewhere; a re-run checks their chain
        secret = st.secret_seed(game_id)
        return header, facts, secret[0].seed if secret is not None else header.dice.seed

    return [Target(f"game {gid}", partial(load_game, gid)) for gid in ids]


def rerun_target(target: Target, ruling: Ruling | None = None) -> RerunReport:
    """Re-decide one game with the current rules (and the options and data of ``ruling``, a
    designer's changes on top of them).

    Raises:
        SealedSeed: the seed is committed and not known here.
        DataNotAvailable: a table the game used is neither shipped nor given.
        WakeError: the game cannot be read or re-run.
    """
    header, facts, seed = target.load()
    if header.dice.sealed and seed is None:
        raise SealedSeed(
            "the dice seed is still sealed (the header commits to it): the orders cannot be "
            "re-run until it is revealed"
        )
    current = replace(ruling, current=True) if ruling is not None else Ruling(current=True)
    return rerun(header, facts, current, seed=seed)


def report_lines(label: str, report: RerunReport, data_label: str = "") -> list[str]:
    """One game's entry: a status line, and for a changed game where and how."""
    rules = (
        f"{report.original.ruleset.id} {report.original.ruleset.version} -> "
        f"{report.header.ruleset.version}"
    ) + report.data_note(data_label)
    if report.identical:
        return [
            f"{label}: UNCHANGED ({rules}) - all {report.orders} orders give the recorded "
            f"{len(report.facts)} events"
        ]
    where = []
    if report.divergence is not None:
        rule = f", rule {report.divergence.rule}" if report.divergence.rule else ""
        where.append(f"first at event {report.divergence.seq}{rule}")
    if report.refusal is not None:
        where.append(f"order #{report.refusal.order} refused")
    recorded = report.recorded_end.result if report.recorded_end else "(cannot be replayed)"
    again = report.rerun_end.result
    outcome = f"same result ({recorded})" if recorded == again else f"result {recorded} -> {again}"
    # the single-game report without its title and ruling lines (the status line says them)
    detail = [line for line in report.lines()[1:] if not line.startswith("ruling: ")]
    return [f"{label}: CHANGED ({rules}) - {'; '.join(where)}; {outcome}"] + [
        "  " + line for line in detail
    ]


def run(
    targets: list[Target],
    say: Callable[[str], None],
    internal: Callable[[BaseException], str],
    ruling: Ruling | None = None,
) -> int:
    """Re-run every target, reporting each through ``say`` and a summary last; the exit status.
    ``internal`` words an exception that is a bug in Wake (reported, and the others go on);
    ``ruling``: a designer's options and data over the current rules (``--option``, ``--data``)."""
    changed = unchanged = sealed = no_data = invalid = 0
    label = ruling.data_label if ruling is not None and ruling.data is not None else ""
    for target in targets:
        try:
            report = rerun_target(target, ruling)
        except SealedSeed as exc:
            sealed += 1
            say(f"{target.label}: NOT RE-RUN - {' '.join(exc.message.split())}")
            continue
        except DataNotAvailable as exc:
            no_data += 1
            say(
                f"{target.label}: NOT RE-RUN (data not available) - {' '.join(exc.message.split())}"
            )
            continue
        except WakeError as exc:
            invalid += 1
            say(f"{target.label}: INVALID ({exc.code}) - {' '.join(exc.message.split())}")
            continue
        except Exception as exc:  # a bug, not the input: reported, the others go on
            invalid += 1
            say(f"{target.label}: {internal(exc)}")
            continue
        if report.identical:
            unchanged += 1
        else:
            changed += 1
        for line in report_lines(target.label, report, label):
            say(line)
    parts = [f"{changed} changed", f"{unchanged} unchanged"]
    if sealed:
        parts.append(f"{sealed} not re-run (sealed seed)")
    if no_data:
        parts.append(f"{no_data} not re-run (data not available)")
    if invalid:
        parts.append(f"{invalid} unreadable")
    say(f"re-run with the current rules: {len(targets)} game(s): {', '.join(parts)}")
    if invalid:
        return 2
    return 1 if changed or sealed or no_data else 0
