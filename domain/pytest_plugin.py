"""pytest plugin: every ``*.wake.json`` a test run collects is a test that re-runs the record.

Installed with Wake through the ``pytest11`` entry point (named ``wake``), so ``pytest
path/to/games/`` in any project where Wake is installed verifies every recorded game under that
folder: each order is decided again with the recorded dice (the seed, or the faces entered at
the table) and every event is compared with the recorded one, the check ``wake verify`` makes.
A failure names the first event that differs, both versions (one-line descriptions and the
payload fields that differ) and the rule that produced it; an order the engine now refuses is
named with its rule. A file that is not a readable record fails as its own test item, with one
message; the other records still run.

``--wake-strict`` (or ``wake_strict = true`` in the ini file) also requires the canonical text
form, as ``wake verify --strict`` does. ``--wake-rerun`` (or ``wake_rerun = true``) re-decides
each record with the current rules instead of the recorded ones, as ``wake verify --rerun``
does: the current version of its ruleset and the data it ships now, so a rules designer who
bumps a version or changes a table sees which games change, at which event and by which rule;
a record that was altered after it was recorded (its hash chain does not check) is reported as
such, never as a rules change. ``--wake-data FILE`` (a designer's changed table: a copy of a
shipped data file with values changed, or a merge patch over each scenario) and ``--wake-option
KEY=VALUE`` re-run every record with them, over the recorded rules or, with ``--wake-rerun``,
over the current ones. ``-p no:wake`` turns the plugin off.

Importing this module costs nothing but pytest itself: the engine is imported when the first
record is collected, so a test run without records does not pay for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from domain.record.model import Record
    from domain.rerun import Ruling

SUFFIX = ".wake.json"
ITEM_NAME = "verify"
#: The designer's ruling (``--wake-data``, ``--wake-option``), read once per session.
RULING: pytest.StashKey[Ruling | None] = pytest.StashKey()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("wake", "Wake recorded games (*.wake.json)")
    group.addoption(
        "--wake-strict",
        action="store_true",
        default=None,
        help="require recorded games in canonical form (like wake verify --strict)",
    )
    group.addoption(
        "--wake-rerun",
        action="store_true",
        default=None,
        help="re-decide recorded games with the current rules (like wake verify --rerun)",
    )
    group.addoption(
        "--wake-data",
        metavar="FILE",
        default=None,
        help="re-run recorded games with this table (a copy of a shipped data file with values "
        "changed, or a JSON merge patch over each scenario), like wake verify --rerun --data",
    )
    group.addoption(
        "--wake-option",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help="re-run recorded games with this ruleset option ruled the other way (repeatable)",
    )
    parser.addini(
        "wake_rerun",
        type="bool",
        default=False,
        help="re-decide recorded games with the current rules (like wake verify --rerun)",
    )
    parser.addini(
        "wake_strict",
        type="bool",
        default=False,
        help="require recorded games in canonical form (like wake verify --strict)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Read ``--wake-data`` and ``--wake-option`` once (a bad one is a usage error)."""
    options: list[str] = config.getoption("wake_option", None) or []
    data = config.getoption("wake_data", None)
    if not options and data is None:
        return
    from domain.errors import WakeError
    from domain.user_input import designer_ruling

    try:
        config.stash[RULING] = designer_ruling(options, Path(data) if data is not None else None)
    except WakeError as exc:
        raise pytest.UsageError(f"wake: {_one_line(exc.message)}") from None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.name.endswith(SUFFIX):
        return WakeRecordFile.from_parent(parent, path=file_path)
    return None


def _flag(config: pytest.Config, name: str) -> bool:
    flag = config.getoption(name)
    return bool(flag) if flag is not None else bool(config.getini(name))


def _strict(config: pytest.Config) -> bool:
    return _flag(config, "wake_strict")


def _one_line(text: str) -> str:
    return " ".join(text.split())


class WakeRecordFile(pytest.File):
    """A recorded game: read (and checked) at collection, one ``verify`` item."""

    def collect(self) -> Iterator[pytest.Item]:
        from domain.engine import new_game
        from domain.errors import WakeError
        from domain.record import read_record_file, reader
        from domain.record.model import Record

        integrity = ""
        try:
            record = read_record_file(self.path, strict=_strict(self.config))
        except WakeError as exc:
            # A record that parses but whose chain or derived sections do not check (an edited
            # roll, say) is still re-run, so the failure names the event and its rule; anything
            # that cannot be re-run at all is a collection error with the reader's message.
            integrity = _one_line(exc.message)
            limit = getattr(reader, "MAX_RECORD_BYTES", 256 * 1024 * 1024)
            try:
                if self.path.stat().st_size > limit:
                    raise ValueError("too large")
                record = Record.model_validate_json(self.path.read_bytes())
                new_game(record.header)
            except (OSError, ValueError, WakeError):
                # its own failing item: one bad file does not interrupt the whole session
                message = f"cannot read the recorded game: {integrity}"
                yield UnreadableRecordItem.from_parent(self, name=ITEM_NAME, message=message)
                return
            integrity = integrity.removeprefix(f"{self.path}: ")  # the item names the file
        yield WakeRecordItem.from_parent(self, name=ITEM_NAME, record=record, integrity=integrity)


class UnreadableRecordItem(pytest.Item):
    """A ``*.wake.json`` that cannot be re-run at all (not JSON, not a record, an unknown
    ruleset): fails with the reader's one-line message."""

    def __init__(self, *, message: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.message = message

    def runtest(self) -> None:
        pytest.fail(self.message, pytrace=False)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, self.path.name


class WakeRecordItem(pytest.Item):
    """Re-run one record and compare every event (``wake verify``'s check)."""

    def __init__(self, *, record: Record, integrity: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.record = record
        self.integrity = integrity

    def runtest(self) -> None:
        from dataclasses import replace

        from domain.errors import DataNotAvailable, WakeError
        from domain.rerun import Ruling, rerun
        from domain.seed_commit import checked_seed

        header = self.record.header
        current = _flag(self.config, "wake_rerun")
        given = self.config.stash.get(RULING, None)
        ruling = given
        if current:
            ruling = replace(given, current=True) if given is not None else Ruling(current=True)
        try:
            seed = checked_seed(header.dice, self.record.seed_reveal)
            report = rerun(header, self.record.events, ruling, seed=seed)
        except DataNotAvailable as exc:
            pytest.fail(f"not re-run (data not available): {_one_line(exc.message)}", pytrace=False)
        except WakeError as exc:
            pytest.fail(f"cannot re-run {self.path.name}: {_one_line(exc.message)}", pytrace=False)
        lines: list[str] = []
        if self.integrity:
            # the recorded events do not check: what differs is the record, not the rules
            lines.append(
                f"altered record (not a rules change): {self.integrity}"
            )
        elif current and not report.identical:
            label = given.data_label if given is not None and given.data is not None else ""
            lines.append(
                f"changed under the current rules ({header.ruleset.id} "
                f"{header.ruleset.version} -> {report.header.ruleset.version}"
                f"{report.data_note(label)})"
            )
        elif given is not None and not report.identical:
            rulings = "; ".join(
                line.removeprefix("ruling: ")
                for line in report.lines()[1:]
                if line.startswith("ruling: ")
            )
            lines.append(f"changed under the ruling given: {rulings}")
        if report.divergence is not None:
            lines.extend(report.divergence.lines())
        if report.refusal is not None:
            lines.extend(report.refusal.lines())
        if lines:
            lines.append(
                f"(game {header.game_id}, {header.ruleset.id} {header.ruleset.version}, "
                f"{header.dice.mode} dice, {len(self.record.events)} recorded events)"
            )
            pytest.fail("\n".join(lines), pytrace=False)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        title = self.record.header.title
        return self.path, None, f"{self.path.name} ({title})" if title else self.path.name
