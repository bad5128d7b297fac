"""Reading an order's JSON into a ruleset's command model, with errors a player can read.

Every ruleset's orders are a pydantic union of frozen models told apart by their ``type`` field.
:class:`OrderParser` validates the JSON against that union and turns pydantic's report into one
line: an unknown or missing ``type`` names the order types the ruleset knows, a bad field names
its path and the problem (``fires[0].target is missing``), without pydantic's internals or URLs.
Orders are validated strictly, as JSON: no field is coerced (``"x": "25"`` and ``true`` are not
numbers), so what is recorded is what was given.
"""

from __future__ import annotations

import difflib
import json
import math
import typing
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from domain.errors import InvalidCommand
from domain.words import distance_text, is_digest, is_point, point_text, value_text

if TYPE_CHECKING:
    from domain.read_model import GameView

__all__ = ["OrderParser", "order_models"]

_SHOWN_INPUT = 40  # characters of a bad value quoted in a message


def order_models(union: Any) -> dict[str, type[BaseModel]]:
    """Order type -> command model, for a discriminated union (``Annotated[A | B, Field(...)]``)
    whose models each have a ``type`` literal with a default."""
    members = typing.get_args(union)
    if typing.get_origin(union) is typing.Annotated:
        members = typing.get_args(members[0])
    models: dict[str, type[BaseModel]] = {}
    for model in members:
        tag = model.model_fields["type"].default
        models[str(tag)] = model
    return models


class OrderParser:
    """Validates orders for one ruleset (``name`` is how messages call it, e.g. "Iron & Oak")."""

    def __init__(self, union: Any, name: str) -> None:
        self.adapter: TypeAdapter[Any] = TypeAdapter(union)
        self.models = order_models(union)
        self.name = name

    @property
    def types(self) -> list[str]:
        """The order types this ruleset knows, in the union's order."""
        return list(self.models)

    def parse(self, data: Any) -> Any:
        """The command model for ``data`` (an order's JSON object).

        Raises:
            InvalidCommand: not an object, no or an unknown ``type``, or fields that do not fit;
                the message is one readable line.
        """
        if not isinstance(data, Mapping):
            raise InvalidCommand(
                f'an order is a JSON object such as {{"type": "{self.types[0]}"}}, '
                f"not {type(data).__name__} {_shown(data)}"
            )
        known = f"{self.name} knows: {', '.join(self.types)}"
        kind = data.get("type")
        if kind is None:
            raise InvalidCommand(f'the order has no "type"; {known}')
        if not isinstance(kind, str) or kind not in self.models:
            close = [t for t in self.types if t.startswith(str(kind))]
            close = close or difflib.get_close_matches(str(kind), self.types, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise InvalidCommand(f"unknown order type {kind!r}{hint}; {known}")
        try:
            text = json.dumps(dict(data), allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise InvalidCommand(f"invalid {kind}: not plain JSON ({exc})") from None
        try:
            # strict, as JSON: "25" is not 25 and true is not 1 (a JSON array still fills a
            # tuple and a string an enum, as they must)
            return self.adapter.validate_json(text, strict=True)
        except ValidationError as exc:
            problems = "; ".join(self._problem(str(kind), err) for err in exc.errors())
            raise InvalidCommand(f"invalid {kind}: {problems}") from None

    def _problem(self, kind: str, err: Any) -> str:
        loc = list(err["loc"])
        if loc and loc[0] == kind:  # the union's tag comes first
            loc = loc[1:]
        where = _path(loc) or "the order"
        if err["type"] == "missing":
            return f"{where} is missing"
        if err["type"] == "extra_forbidden":
            if len(loc) == 1:
                fields = [f for f in self.models[kind].model_fields if f != "type"]
                takes = f"it takes {', '.join(fields)}" if fields else "it takes none"
                return f"{where} is not a field of {kind} ({takes})"
            return f"{where} is not a field here"
        message = str(err["msg"]).replace("a valid array", "a valid list")
        if message.startswith("Input should be "):
            message = "should be " + message.removeprefix("Input should be ")
        else:
            message = "is wrong: " + message.removeprefix("Value error, ")
        return f"{where} {message} (got {_shown(err.get('input'))})"


def _path(loc: list[Any]) -> str:
    """``["fires", 0, "target"]`` -> ``fires[0].target``."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else f"{'.' if text else ''}{part}"
    return text


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _SHOWN_INPUT else text[: _SHOWN_INPUT - 3] + "..."


SECRET_FIELDS = frozenset({"salt", "salts", "secret"})
"""Order fields an explanation never shows (a salt proves a sealed choice; it says nothing)."""
MAX_SENTENCE = 400


MOVERS = ("unit", "ship", "squadron")
"""Order fields that name the unit an order puts somewhere on the table."""
DESTINATIONS = ("move_to", "to", "destination", "position")
"""Order fields that hold where it goes, as a point (``[x, y]``); ``x`` and ``y`` fields too."""


def _value(value: Any) -> str:
    """A field's value in words (``domain.words.value_text``), a mapping's entries joined by
    ``; `` inside an order sentence, a position as whole numbers ``(353, 355)`` (issue 21
    item 7: never a Python repr, ``None``, a 64-hex digest or a float's every decimal)."""
    if is_point(value):
        return point_text(value)
    if isinstance(value, Mapping):
        parts = [f"{k} {_value(v)}" for k, v in value.items() if v is not None]
        return "; ".join(parts) or "none"
    if isinstance(value, list | tuple) and value and all(is_point(v) for v in value):
        return ", ".join(point_text(v) for v in value)
    return value_text(value, "; ")


def _part(key: str, value: Any) -> str:
    """One field of an order sentence: ``ship victory``; a digest alone ``sealed order``."""
    if is_digest(value):
        return "sealed order"
    return f"{str(key).replace('_', ' ')} {_value(value)}"


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _movement(command: Mapping[str, Any]) -> tuple[str, tuple[float, float], set[str]] | None:
    """The unit an order puts on the table, where, and the fields that say so: a mover field
    (``unit``, ``ship``, ``squadron``) with ``x`` and ``y``, or with a point field
    (``move_to`` ...)."""
    mover = next((k for k in MOVERS if isinstance(command.get(k), str)), None)
    if mover is None:
        return None
    x, y = command.get("x"), command.get("y")
    if isinstance(x, int | float) and isinstance(y, int | float) and _number(x) and _number(y):
        return mover, (float(x), float(y)), {mover, "x", "y"}
    key = next((k for k in DESTINATIONS if is_point(command.get(k))), None)
    if key is None:
        return None
    px, py = command[key]
    return mover, (float(px), float(py)), {mover, key}


def _moves(
    command: Mapping[str, Any], kind: str, before: GameView | None
) -> tuple[str, set[str]] | None:
    """``achilles moves 9.8 cm to (95, 63)``: the unit, how far (from where ``before``, the
    board the order was given on, has it; in the board's own unit) and where to, in whole
    numbers; ``victory at (457, 93)`` for a unit not yet on the table."""
    found = _movement(command)
    if found is None:
        return None
    mover, dest, used = found
    unit_id = command[mover]
    where = point_text(dest)
    if before is None:
        verb = "moves to" if kind == "move" else "to"
        return f"{unit_id} {verb} {where}", used
    unit = next((u for u in before.units if u.id == unit_id), None)
    if unit is None or unit.position is None:
        return f"{unit_id} at {where}", used
    moved = math.hypot(dest[0] - unit.position[0], dest[1] - unit.position[1])
    return f"{unit_id} moves {distance_text(moved, before.board.unit)} to {where}", used


def order_sentence(command: Mapping[str, Any], before: GameView | None = None) -> str:
    """``{"type": "reveal_dial", "ship": "victory", "slot": 3, "salt": "…"}`` ->
    ``"reveal dial: ship victory, slot 3"``: the order's type in words, then each field that is
    set (empty, false and None fields and secrets left out; a 0 is said), bounded in length.

    An order that puts a unit somewhere (a mover field and ``x``/``y`` or a point) says it as
    players do (issue 21): ``achilles moves 9.8 cm to (95, 63)``, the distance measured on
    ``before`` (the read model the order was given on; left out without it), a position in
    whole numbers; a plain ``move`` order is that phrase alone, any other keeps its type
    (``activate squadron: tie_1 moves 245.5 mm to (353, 355)``)."""
    kind = str(command.get("type", "order"))
    words = kind.replace("_", " ")
    moves = _moves(command, kind, before)
    used = moves[1] if moves else set()
    parts = [
        _part(key, value)
        for key, value in command.items()
        if key != "type"
        and key not in used
        and key not in SECRET_FIELDS
        and value is not False  # a flag not set; a 0 (heading 0, slot 0) is said
        and value not in (None, "", [], {})
    ]
    if moves is not None:
        parts.insert(0, moves[0])
        text = ", ".join(parts) if kind == "move" else f"{words}: {', '.join(parts)}"
    else:
        text = f"{words}: {', '.join(parts)}" if parts else words
    return text if len(text) <= MAX_SENTENCE else text[: MAX_SENTENCE - 1] + "…"
