"""What a person gives on the command line or in a file, read safely: bounded regular files,
JSON objects within ``domain.safe_json``'s limits, ``KEY=VALUE`` option pairs, and a rules
designer's ``--option``/``--data`` as a :class:`domain.rerun.Ruling` (the CLI and the pytest
plugin share it). Every problem is a ``ScenarioError`` naming the file and what is wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from domain import safe_json
from domain.errors import RecordError, ScenarioError
from domain.record.reader import read_bounded
from domain.rerun import Ruling


def read_text(path: Path, what: str) -> str:
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


def load_json(path: Path, what: str) -> dict[str, Any]:
    """A JSON object from a file (a scenario, a class table).

    Raises:
        ScenarioError: unreadable, not JSON within the limits, or not an object.
    """
    try:
        data = safe_json.loads(read_text(path, what))
    except safe_json.JSONInputError as exc:
        raise ScenarioError(f"{what} {path}: {exc}") from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{what} {path} must be a JSON object, not {type(data).__name__}")
    return data


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs (``--option``); a value is read as JSON when it parses (``2``,
    ``true``), else as text.

    Raises:
        ScenarioError: a pair without ``=`` or without a key.
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ScenarioError(f"option {pair!r} must look like KEY=VALUE")
        try:
            options[key] = safe_json.loads(value)
        except safe_json.JSONInputError:
            options[key] = value
    return options


def designer_ruling(options: list[str], data: Path | None) -> Ruling | None:
    """A rules designer's ``--option KEY=VALUE`` and ``--data FILE`` as a ruling (None when
    neither is given); the file is read bounded, as JSON.

    Raises:
        ScenarioError: a bad pair, or a data file that cannot be read or is not a JSON object.
    """
    if not options and data is None:
        return None
    return Ruling(
        options=parse_options(options),
        data=load_json(data, "data file") if data is not None else None,
        data_label=data.name if data is not None else "",
    )
