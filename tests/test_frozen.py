"""``domain.frozen.changed``: the cheap copy-with-changes that evolve functions use."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict

from domain.frozen import changed
from domain.rulesets.morze.state import Unit


class Loose(BaseModel):
    model_config = ConfigDict(frozen=True, extra="allow")

    a: int = 0


def unit(**kw: Any) -> Unit:
    return Unit(id="u", side="s", name="U", unit_class="dd", x=1.0, y=2.0, **kw)


@given(
    x=st.floats(allow_nan=False),
    damage=st.integers(min_value=0, max_value=9),
    moved=st.booleans(),
)
def test_changed_equals_model_copy(x: float, damage: int, moved: bool) -> None:
    original = unit()
    new = changed(original, x=x, damage=damage, moved=moved)
    expected = original.model_copy(update={"x": x, "damage": damage, "moved": moved})
    assert new == expected
    assert new.model_fields_set == expected.model_fields_set
    assert new.model_dump() == expected.model_dump()
    assert original == unit()  # untouched
    assert type(new) is Unit


def test_changed_result_is_still_frozen() -> None:
    new = changed(unit(), damage=1)
    with pytest.raises(ValueError, match="frozen"):
        new.damage = 2  # type: ignore[misc]


def test_unknown_field_is_refused() -> None:
    with pytest.raises(TypeError, match=r"Unit has no field.* speed"):
        changed(unit(), speed=3)


def test_models_with_extra_data_fall_back_to_model_copy() -> None:
    loose = Loose(a=1, b=2)  # type: ignore[call-arg]
    new = changed(loose, a=5)
    assert new.a == 5 and new.model_extra == {"b": 2}
    assert loose.a == 1
