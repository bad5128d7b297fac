"""A cheap copy-with-changes for the frozen pydantic models that game states are made of.

``evolve`` functions build a new state per event, mostly by changing one or two fields of a
model. pydantic's ``model_copy(update=...)`` goes through the generic ``copy`` protocol, which
is most of the cost of replaying a long game. ``changed`` does the same thing directly. Like
``model_copy`` it does not validate the new values: evolve applies facts that were validated
when they were decided.
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_set = object.__setattr__


_FIELDS: dict[type[BaseModel], tuple[frozenset[str], bool, Any]] = {}
"""Per model class: its field names, whether it is frozen and its ``__new__`` (a plain dict
look-up is cheaper than the ``cache`` wrapper's, or than finding ``__new__`` on the class, on
every call)."""


@cache
def _fields(cls: type[BaseModel]) -> frozenset[str]:
    return frozenset(cls.model_fields)


def changed(model: M, /, **update: Any) -> M:
    """A copy of ``model`` with the fields in ``update`` replaced (unvalidated, like
    ``model_copy(update=...)``); the original is untouched.

    Raises:
        TypeError: a name in ``update`` is not a field of the model.
    """
    cls = type(model)
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = (
            _fields(cls),
            bool(cls.model_config.get("frozen")),
            cls.__new__,
        )
    fields, frozen, new_of = found
    keys = update.keys()
    if not keys <= fields:
        unknown = ", ".join(sorted(keys - fields))
        raise TypeError(f"{cls.__name__} has no field(s) {unknown}")
    if model.__pydantic_extra__ or model.__pydantic_private__:
        return model.model_copy(update=update)  # rare models with extra or private data
    new = new_of(cls)
    values = model.__dict__.copy()
    values.update(update)
    fields_set = model.__pydantic_fields_set__
    if not (frozen and keys <= fields_set):
        fields_set = fields_set | keys
    _set(new, "__dict__", values)
    _set(new, "__pydantic_extra__", None)
    # a frozen model's set is never changed in place (no assignment): shared when it would not
    # change, a new set otherwise
    _set(new, "__pydantic_fields_set__", fields_set)
    _set(new, "__pydantic_private__", None)
    return new


_ASSEMBLY: dict[type[BaseModel], tuple[tuple[str, ...], dict[str, Any], Any]] = {}
"""Per model class: its field names in order, the plain defaults, and its ``__new__``."""


def assembled(cls: type[M], /, **values: Any) -> M:
    """``cls(**values)`` without validating: for values taken from models that were validated
    when they were made (a hull's fields for the defender's input). Every field not given takes
    its plain default and stays out of the fields set, as validation leaves it; ``after``
    validators do not run (the values already passed them where they came from).

    Raises:
        TypeError: a name that is not a field, a required field missing, or a field whose
            default is built by a factory (not supported here).
    """
    found = _ASSEMBLY.get(cls)
    if found is None:
        names = tuple(cls.model_fields)
        defaults = {
            name: field.default
            for name, field in cls.model_fields.items()
            if not field.is_required() and field.default_factory is None
        }
        found = _ASSEMBLY[cls] = (names, defaults, cls.__new__)
    names, defaults, new_of = found
    data: dict[str, Any] = {}
    for name in names:
        if name in values:
            data[name] = values[name]
        elif name in defaults:
            data[name] = defaults[name]
        else:
            raise TypeError(f"{cls.__name__}: give {name}")
    if len(data) - len(defaults.keys() - values.keys()) != len(values):
        unknown = ", ".join(sorted(values.keys() - set(names)))
        raise TypeError(f"{cls.__name__} has no field(s) {unknown}")
    new = new_of(cls)
    _set(new, "__dict__", data)
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_fields_set__", set(values))
    _set(new, "__pydantic_private__", None)
    return new
