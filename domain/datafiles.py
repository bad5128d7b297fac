"""Rulesets' data files (cards, tables, scenarios): reading them, validating them against their
pydantic models, and errors that name the field, so a user's own file that does not fit says
where (``ships[virginia].guns[1].dice: ...``). Each ruleset keeps its models; this is the part
every ruleset's loader shares."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from domain.errors import ScenarioError

M = TypeVar("M", bound=BaseModel)

# a model's own check that names its field first ("speed_chart.3: ...")
_FIELD_PREFIX = re.compile(r"^([A-Za-z_\[][\w.\[\]]*): (.*)$", re.DOTALL)


def describe_errors(exc: ValidationError, data: Any) -> str:
    """Readable pydantic errors, one per problem: the path into ``data`` (list items named by
    their ``id`` where they have one) and the message."""
    lines: list[str] = []
    for err in exc.errors():
        path, node = "", data
        for key in err["loc"]:
            if isinstance(key, int) and isinstance(node, list) and 0 <= key < len(node):
                node = node[key]
                label = node.get("id") if isinstance(node, Mapping) else None
                path += f"[{label}]" if isinstance(label, str) else f"[{key}]"
            elif isinstance(key, int):
                path += f"[{key}]"
                node = None
            else:
                path += f".{key}" if path else str(key)
                node = node.get(key) if isinstance(node, Mapping) else None
        msg = str(err["msg"]).removeprefix("Value error, ")
        field = _FIELD_PREFIX.match(msg)
        if field and path:  # a model's own check names its field: join it to the path
            sep = "" if field.group(1).startswith("[") else "."
            path, msg = f"{path}{sep}{field.group(1)}", field.group(2)
        lines.append(f"{path}: {msg}" if path else msg)
    return "; ".join(lines)


def load_model(model: type[M], data: Any, what: str) -> M:
    """``data`` validated as ``model``; ``what`` names it in errors ("Iron & Oak ships file").

    Raises:
        ScenarioError: not a JSON object, or fields that do not fit (each named).
    """
    if not isinstance(data, Mapping):
        raise ScenarioError(f"invalid {what}: expected a JSON object")
    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        raise ScenarioError(f"invalid {what}: {describe_errors(exc, data)}") from exc


def read_json(path: str | Path, what: str) -> Any:
    """A user's JSON data file, read through the bounded reader (a regular file within the
    record size limit; issue 23 item 4) and parsed within ``domain.safe_json``'s limits.

    Raises:
        ScenarioError: the file cannot be read, is special or too large, or is not JSON.
    """
    from domain import safe_json
    from domain.errors import RecordError
    from domain.record.reader import read_bounded

    try:
        return safe_json.loads(read_bounded(Path(path)).decode("utf-8"))
    except RecordError as exc:
        raise ScenarioError(f"cannot read {what} {str(path)!r}: {exc.message}") from None
    except (UnicodeDecodeError, safe_json.JSONInputError) as exc:
        raise ScenarioError(f"cannot read {what} {str(path)!r}: {exc}") from None


def bundled_json(package: str, name: str) -> Any:
    """A data file shipped inside ``package`` (``data/<name>``) as plain JSON."""
    return json.loads(resources.files(package).joinpath(f"data/{name}").read_text("utf-8"))
