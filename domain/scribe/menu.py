"""What a side may order now, as plain data any page or terminal renders (issue 20).

A *menu* is a list of :class:`MenuOrder`: one order a side may give, with the fields still to
choose (:class:`MenuField`) and, for each field, the values the rules allow
(:class:`MenuChoice`). A ruleset that knows its orders best describes them itself
(``Ruleset.order_menu``): an order per unit, a move as a point on the board, the cards of a hand
as a pick of several. Any other ruleset gets a menu built here from its legal orders and their
models (:func:`menu_from_legal`): every field a choice among the values its legal orders hold,
each choice available only with the earlier choices it was listed with (``when``), so a third
party's ruleset is recordable with no code of its own. A number its legal orders only sample (a
position on a continuous table) is entered freely and judged by ``decide``.

:func:`build_command` turns a filled order into the command's JSON; nothing here judges it: the
ruleset's ``decide`` does, and a refusal names the rule.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.errors import InvalidCommand
from domain.words import capitalised

Json = Any
FieldKind = Literal["one", "many", "point", "number", "integer", "flag"]
"""How a field is chosen: ``one`` value among ``choices`` (a unit is picked on the board when the
values are unit ids); ``many`` values among ``choices`` (a hand of cards, the boxes of a path,
``ordered`` when their order matters); ``point`` a position on a continuous board (a click),
stored as two numbers at ``x_name``/``y_name``; ``number``/``integer`` a value between ``low``
and ``high``; ``flag`` yes or no."""


class _Plain(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class MenuChoice(_Plain):
    """One value a field may take, as players read it, and the earlier choices it needs."""

    value: Json
    label: str
    detail: str = ""
    #: the values earlier fields must hold for this choice to be open (field name -> value);
    #: a ``many`` field's choice may name the field itself: it is then open as the next value
    #: when the values chosen before it are exactly that list (a path's next box)
    when: dict[str, Json] = Field(default_factory=dict)


class MenuField(_Plain):
    """A field of an order still to be chosen."""

    # where the value goes in the command (``field_path``): "target", "dials.victory" in a
    # dict, "clicks.1" or "groups[1].target" in a list
    name: str
    label: str
    kind: FieldKind = "one"
    choices: list[MenuChoice] = Field(default_factory=list)
    #: may be left unset (the command keeps its default); an optional ``one`` field none of
    #: whose choices is open with the earlier values is left out (a joint beyond the speed)
    optional: bool = False
    min_count: int = 0  # many: how many values at least / at most
    max_count: int | None = None
    ordered: bool = False  # many: the order of the values matters (a path, a stack of dials)
    distinct: bool = True  # many: a value at most once
    low: float | None = None  # number / integer / point (each coordinate)
    high: float | None = None
    x_name: str = "x"  # point: where the two coordinates go
    y_name: str = "y"
    default: Json = None
    #: the value is a secret of the side giving the order (a sealed choice): shown only to it
    secret: bool = False
    help: str = ""


class MenuOrder(_Plain):
    """An order a side may give now: its type, what is already fixed, what is left to choose."""

    key: str  # unique within one menu
    type: str
    label: str  # "Move Ajax", "Declare an attack with Ajax"
    side: str | None
    fixed: dict[str, Json] = Field(default_factory=dict)
    fields: list[MenuField] = Field(default_factory=list)
    units: list[str] = Field(default_factory=list)  # the units it concerns (board highlight)
    #: built by ``Ruleset.seal_order`` from the secret values (an order card, a dial, a fleet)
    sealed: bool = False
    rule: str = ""
    help: str = ""

    def field(self, name: str) -> MenuField:
        for field in self.fields:
            if field.name == name:
                return field
        raise KeyError(name)


# --------------------------------------------------------------------------- choosing


def open_choices(field: MenuField, values: Mapping[str, Json]) -> list[MenuChoice]:
    """The choices of ``field`` open with the ``values`` chosen so far (its ``when``); for a
    ``many`` field, ``values`` holds the field's own values so far (``[]`` before the first),
    and the choices are those open as its next value."""
    return [
        choice
        for choice in field.choices
        if all(name in values and values[name] == want for name, want in choice.when.items())
    ]


def missing(order: MenuOrder, values: Mapping[str, Json]) -> list[MenuField]:
    """The fields that must still be chosen before the order can be given."""
    out = []
    for field in order.fields:
        value = values.get(field.name)
        if field.kind == "point":
            if value is None and not field.optional:
                out.append(field)
        elif field.kind == "many":
            if len(value or []) < field.min_count:
                out.append(field)
        elif value is None and not field.optional and field.default is None:
            out.append(field)
    return out


def check_value(field: MenuField, value: Json, values: Mapping[str, Json]) -> Json:
    """``value`` for ``field`` as the menu allows it, normalised (a list for ``many``, a pair of
    floats for ``point``).

    Raises:
        InvalidCommand: a value the field does not offer, or out of its bounds.
    """
    label = field.label
    if field.kind == "one":
        allowed = open_choices(field, values)
        for choice in allowed:
            if choice.value == value:
                return choice.value
        if value is None and field.optional:
            return None
        raise InvalidCommand(f"{label}: not one of the choices open now")
    if field.kind == "many":
        if not isinstance(value, list | tuple):
            raise InvalidCommand(f"{label}: choose a list of values")
        chosen = list(value)
        for i, item in enumerate(chosen):  # each value with the ones before it (``when``)
            so_far = {**values, field.name: chosen[:i]}
            if item not in [c.value for c in open_choices(field, so_far)]:
                raise InvalidCommand(f"{label}: not one of the choices open now")
        if field.distinct and len({_key(v) for v in chosen}) != len(chosen):
            raise InvalidCommand(f"{label}: each value at most once")
        if field.max_count is not None and len(chosen) > field.max_count:
            raise InvalidCommand(f"{label}: at most {field.max_count}")
        if len(chosen) < field.min_count:
            raise InvalidCommand(f"{label}: at least {field.min_count}")
        return chosen
    if field.kind == "point":
        if not isinstance(value, list | tuple) or len(value) != 2:
            raise InvalidCommand(f"{label}: a point is two numbers")
        point = (_number(label, value[0], field), _number(label, value[1], field))
        return list(point)
    if field.kind in ("number", "integer"):
        number = _number(label, value, field)
        if field.kind == "integer":
            if number != int(number):
                raise InvalidCommand(f"{label}: a whole number")
            return int(number)
        return number
    if field.kind == "flag":
        if not isinstance(value, bool):
            raise InvalidCommand(f"{label}: yes or no")
        return value
    raise InvalidCommand(f"{label}: unknown kind of field {field.kind}")  # pragma: no cover


def _number(label: str, value: Json, field: MenuField) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidCommand(f"{label}: a number")
    number = float(value)
    if number != number or number in (float("inf"), float("-inf")):
        raise InvalidCommand(f"{label}: a finite number")
    if field.low is not None and number < field.low:
        raise InvalidCommand(f"{label}: at least {_short(field.low)}")
    if field.high is not None and number > field.high:
        raise InvalidCommand(f"{label}: at most {_short(field.high)}")
    return number


def _short(number: float) -> str:
    return str(int(number)) if number == int(number) else f"{number:g}"


def _key(value: Json) -> str:
    import orjson

    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def build_command(order: MenuOrder, values: Mapping[str, Json]) -> dict[str, Json]:
    """The command's JSON for ``order`` filled with ``values`` (each checked against the menu).

    Raises:
        InvalidCommand: a field still to choose, or a value the menu does not offer.
    """
    command: dict[str, Json] = {"type": order.type, **_deep_copy(order.fixed)}
    checked: dict[str, Json] = {}
    for field in order.fields:
        if field.name not in values and _not_open(field, checked):
            continue
        raw = values.get(field.name, field.default)
        if raw is None:
            if field.kind == "many" and field.min_count == 0:
                raw = []
            elif field.optional:
                continue
            else:
                raise InvalidCommand(f"{field.label}: still to choose")
        value = check_value(field, raw, checked)
        checked[field.name] = value
        if field.kind == "point":
            _put(command, field.x_name, value[0])
            _put(command, field.y_name, value[1])
        elif value is not None:
            _put(command, field.name, value)
    return command


def _not_open(field: MenuField, values: Mapping[str, Json]) -> bool:
    """An optional choice none of whose values is open with the earlier ``values``: it does
    not apply (a joint beyond the speed chosen), so its default is not used either."""
    return field.optional and field.kind == "one" and not open_choices(field, values)


def _put(command: dict[str, Json], path: str, value: Json) -> None:
    """Set ``value`` at ``path`` (:func:`field_path`), making the dicts and lists on the way
    (a list is padded up to the index)."""
    keys = _path(path)
    here: Any = command
    for key, after in itertools.pairwise(keys):
        make = list if isinstance(after, int) else dict
        if isinstance(here, list):
            _pad(here, int(key), make)
            if not isinstance(here[int(key)], list | dict):
                here[int(key)] = make()
            here = here[int(key)]
        else:
            key = str(key)
            if not isinstance(here.get(key), list | dict):
                here[key] = make()
            here = here[key]
    last = keys[-1]
    if isinstance(here, list):
        _pad(here, int(last), lambda: None)
        here[int(last)] = value
    else:
        here[str(last)] = value


def field_path(*keys: str | int) -> str:
    """The path of a value inside a command, for :attr:`MenuField.name`: ``("dials",
    "victory")`` -> ``dials.victory``; a number indexes a list (``("clicks", 1)`` ->
    ``clicks.1``); a dot inside a key is escaped, so a fort section's id
    ``fort_gaines.north_face`` stays one key."""
    return ".".join(
        str(k) if isinstance(k, int) else k.replace("\\", "\\\\").replace(".", "\\.")
        for k in keys
    )


def _path(path: str) -> list[str | int]:
    """A field's path as keys: ``groups[1].target`` and ``groups.1.target`` are
    ``["groups", 1, "target"]``; ``repair.fort\\.north`` is ``["repair", "fort.north"]``."""
    keys: list[str | int] = []
    part, escaped = "", False
    segments: list[str] = []
    for char in path:
        if escaped:
            part += char
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == ".":
            segments.append(part)
            part = ""
        else:
            part += char
    segments.append(part)
    for segment in segments:
        name, bracket, index = segment.partition("[")
        if bracket and index.endswith("]") and index[:-1].isdigit():
            keys += [name, int(index[:-1])]
        elif segment.isdigit():
            keys.append(int(segment))
        else:
            keys.append(segment)
    return keys


def _pad(items: list[Json], index: int, make: Callable[[], Json]) -> None:
    while len(items) <= index:
        items.append(make())


def _deep_copy(value: Json) -> Json:
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value


def match_command(
    order: MenuOrder,
    command: Mapping[str, Json],
    normalise: Callable[[Mapping[str, Json]], Json] = dict,
) -> dict[str, Json] | None:
    """The values that fill ``order`` to give exactly ``command`` (its JSON), or None when the
    order cannot give it: the inverse of :func:`build_command`, for tests that check a menu
    offers every order a game actually took. ``normalise`` puts both commands in one form
    before comparing (a ruleset's ``parse_command(...).model_dump()`` fills in defaults)."""
    if command.get("type") != order.type:
        return None
    values: dict[str, Json] = {}
    for field in order.fields:
        if field.kind == "point":
            x, y = _get(command, field.x_name), _get(command, field.y_name)
            if x is _ABSENT or y is _ABSENT:
                if field.optional:
                    continue
                return None
            values[field.name] = [x, y]
        else:
            value = _get(command, field.name)
            if value is not _ABSENT:
                values[field.name] = value
    try:
        built = build_command(order, values)
        return values if _key(normalise(built)) == _key(normalise(command)) else None
    except (InvalidCommand, ValueError):
        return None


_ABSENT = object()


def _get(command: Mapping[str, Json], path: str) -> Json:
    here: Json = command
    for key in _path(path):
        if isinstance(here, list | tuple) and isinstance(key, int) and key < len(here):
            here = here[key]
        elif isinstance(here, Mapping) and str(key) in here:
            here = here[str(key)]
        else:
            return _ABSENT
    return here


# --------------------------------------------------------------------------- generic menus


def menu_from_legal(
    commands: Iterable[BaseModel],
    side: str | None,
    *,
    names: Mapping[str, str] | None = None,
    describe: Any = None,
) -> list[MenuOrder]:
    """A menu built from a ruleset's legal orders (for a ruleset without ``order_menu``).

    Orders of one type become one :class:`MenuOrder`. A field whose legal orders all hold the
    same value is fixed; any other field is a ``one`` choice among the values listed, each open
    only with the earlier fields' values it was listed with (so every combination offered is one
    the ruleset listed). A pair ``x``/``y`` of numbers, which a continuous board's legal orders
    only sample, is a ``point``; a lone number is entered freely. ``names`` gives the display
    name of a value (a unit's id); ``describe`` (an order's JSON -> a sentence) labels an order
    type that has nothing left to choose.
    """
    names = names or {}
    by_type: dict[str, list[dict[str, Json]]] = {}
    for command in commands:
        data = command.model_dump(mode="json")
        by_type.setdefault(str(data.get("type")), []).append(data)
    menu: list[MenuOrder] = []
    for kind, listed in by_type.items():
        fields_in_order = [name for name in listed[0] if name != "type"]
        fixed: dict[str, Json] = {}
        fields: list[MenuField] = []
        free = {
            name
            for name in fields_in_order
            if all(isinstance(c.get(name), float) for c in listed)
            and len({_key(c.get(name)) for c in listed}) > 1
        }
        point = "x" in free and "y" in free
        seen: list[str] = []
        for name in fields_in_order:
            distinct = {_key(c.get(name)) for c in listed}
            if len(distinct) == 1:
                fixed[name] = listed[0].get(name)
                continue
            if name in free:
                if point and name == "x":
                    fields.append(MenuField(name="at", label="Where", kind="point"))
                elif not point or name not in ("x", "y"):
                    fields.append(MenuField(name=name, label=_label(name), kind="number"))
                continue
            choices: dict[str, MenuChoice] = {}
            for c in listed:
                value = c.get(name)
                when = {n: c.get(n) for n in seen}
                key = _key([value, when])
                if key not in choices:
                    choices[key] = MenuChoice(
                        value=value, label=_value_label(value, names), when=when
                    )
            fields.append(
                MenuField(name=name, label=_label(name), kind="one", choices=list(choices.values()))
            )
            seen.append(name)
        label = _label(kind)
        if not fields and describe is not None:
            label = str(describe({"type": kind, **fixed}))
        menu.append(
            MenuOrder(key=kind, type=kind, label=label, side=side, fixed=fixed, fields=fields)
        )
    return menu


def _label(name: str) -> str:
    return capitalised(name.replace("_", " ").replace(".", " ").strip())


def _value_label(value: Json, names: Mapping[str, str]) -> str:
    if isinstance(value, str):
        return names.get(value, value.replace("_", " "))
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(_value_label(v, names) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{_label(k)}: {_value_label(v, names)}" for k, v in value.items())
    return _short(float(value)) if isinstance(value, int | float) else str(value)


def find_order(menu: Sequence[MenuOrder], key: str) -> MenuOrder:
    """The order of ``menu`` with ``key``.

    Raises:
        InvalidCommand: no such order is open now.
    """
    for order in menu:
        if order.key == key:
            return order
    raise InvalidCommand("that order is not open now (the game has moved on)")
