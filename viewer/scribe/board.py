"""The scribe's board (issue 20): the game as the page's viewer may see it, with what the order
being entered would do drawn on it (the unit's reach, the move or the attack), and what a click
on it means for the order (a unit picked, a point, a box).

Everything comes from the generic read model: units, rings, overlays. Nothing here knows a rule
system.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import Polygon

from domain.engine import GameState
from domain.events import DomainEvent
from domain.read_model import GameView, OverlayView, RingView, UnitView, redact_view
from domain.scribe.menu import MenuField, MenuOrder, open_choices
from viewer.board_input import Click, Free
from viewer.figures import Highlight, moved_units

RING_POINTS = 48  # a circle's outline
ACTORS = ("attacker", "firer", "ship", "squadron")  # fields naming who acts in an order


@dataclass(frozen=True)
class Target:
    """What a click on the board fills now: ``field`` (None: a click picks an order by its
    unit), the units that may be picked, and whether a free click is a point or a box."""

    field: MenuField | None
    pickable: list[str]
    free: Free


def view_for(state: GameState, viewer: str | None) -> GameView:
    """The read model as ``viewer`` may see it (None: everything)."""
    return redact_view(state.ruleset.read_model(state.rules), viewer)


def after(state: GameState, events: Sequence[DomainEvent]) -> Any:
    """The ruleset state with ``events`` applied (a preview: nothing is stored)."""
    rules = state.rules
    evolve = state.ruleset.evolve
    for event in events:
        rules = evolve(rules, event)
    return rules


def _is_cell(value: Any) -> bool:
    return (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def click_target(
    menu: Sequence[MenuOrder],
    order: MenuOrder | None,
    values: Mapping[str, Any],
    view: GameView,
) -> Target:
    """What a click means now: the next field of the chosen order that a click can fill, or,
    with no order chosen, picking an order by clicking its unit."""
    unit_ids = {u.id for u in view.units}
    ordered = list(dict.fromkeys(u for o in menu for u in o.units if u in unit_ids))
    if order is None:
        return Target(None, ordered, "none")
    for field in order.fields:
        if field.kind == "point" and values.get(field.name) is None:
            return Target(field, [], "point")
        if field.kind in ("one", "many"):
            done = (
                values.get(field.name) is not None
                if field.kind == "one"
                else field.max_count is not None
                and len(values.get(field.name) or []) >= field.max_count
            )
            if done:
                continue
            choices = [c.value for c in open_choices(field, {**values, **_own(field, values)})]
            units = [v for v in choices if isinstance(v, str) and v in unit_ids]
            cells = [v for v in choices if _is_cell(v)]
            if units:
                return Target(field, list(dict.fromkeys([*units, *ordered])), "none")
            if cells:
                return Target(field, [], "cell")
    points = [f for f in order.fields if f.kind == "point"]
    if points:  # every field chosen: a click moves the point again
        return Target(points[-1], ordered, "point")
    return Target(None, ordered, "none")


def apply_click(
    click: Click,
    menu: Sequence[MenuOrder],
    order: MenuOrder | None,
    values: dict[str, Any],
    target: Target,
) -> tuple[MenuOrder | None, dict[str, Any], str]:
    """The order and values after ``click``, and a line saying what it did (or why nothing)."""
    kind = click.get("kind")
    field = target.field
    taken = []
    if field is not None:
        taken = [c.value for c in open_choices(field, {**values, **_own(field, values)})]
    # a unit the field does not take: the order of that unit instead
    if kind == "unit" and (field is None or click.get("id") not in taken):
        for candidate in menu:
            if click.get("id") in candidate.units and candidate is not order:
                return candidate, {}, f"chose: {candidate.label}"
    if field is None:
        return order, values, "nothing to choose there now"
    if kind == "point" and target.free == "point":
        return order, {**values, field.name: [click["x"], click["y"]]}, ""
    value: Any = None
    if kind == "unit" and click.get("id") in target.pickable:
        value = click["id"]
    elif kind == "cell" and target.free == "cell":
        value = [click["c"], click["r"]]
    if value is None:
        return order, values, "that cannot be chosen here"
    allowed = [c.value for c in open_choices(field, {**values, **_own(field, values)})]
    if value not in allowed:
        return order, values, "that cannot be chosen here"
    if field.kind == "many":
        chosen = list(values.get(field.name) or [])
        if field.distinct and value in chosen:
            return order, values, "already chosen"
        return order, {**values, field.name: [*chosen, value]}, ""
    return order, {**values, field.name: value}, ""


def _own(field: MenuField, values: Mapping[str, Any]) -> dict[str, Any]:
    """A pick of several's own values so far, for the choices open as its next value."""
    return {field.name: list(values.get(field.name) or [])} if field.kind == "many" else {}


def _circle(centre: tuple[float, float], radius: float) -> list[tuple[float, float]]:
    import math

    return [
        (
            round(centre[0] + radius * math.cos(2 * math.pi * k / RING_POINTS), 2),
            round(centre[1] + radius * math.sin(2 * math.pi * k / RING_POINTS), 2),
        )
        for k in range(RING_POINTS)
    ]


def ring_overlays(unit: UnitView, view: GameView) -> list[OverlayView]:
    """The unit's move and range rings as overlays (circles on a table, grown from its base
    where measured from its edge, squares of boxes on a grid)."""
    out: list[OverlayView] = []
    for ring in unit.rings:
        points = _ring_points(unit, ring, view)
        if len(points) >= 3:
            out.append(
                OverlayView(
                    kind="reach" if ring.kind == "move" else "range",
                    points=points,
                    closed=True,
                    units=[unit.id],
                    details={"reach": ring.label, "rule": ring.rule},
                )
            )
    return out


def _ring_points(unit: UnitView, ring: RingView, view: GameView) -> list[tuple[float, float]]:
    if view.board.kind == "grid" and unit.cell is not None:
        c, r = unit.cell
        d = int(ring.distance)
        x0, y0 = max(0, c - d), max(0, r - d)
        x1 = min(view.board.width, c + d + 1)
        y1 = min(view.board.height, r + d + 1)
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    if ring.from_edge:
        bases = [s for s in unit.shapes if s.style == "base" and len(s.points) >= 3]
        if bases and ring.distance > 0:
            grown = Polygon(bases[0].points).buffer(ring.distance, quad_segs=8)
            return [(round(x, 2), round(y, 2)) for x, y in list(grown.exterior.coords)[:-1]]
    if unit.position is not None and ring.distance > 0:
        return _circle(unit.position, ring.distance)
    return []


def preview_highlight(
    before: GameView, after_view: GameView, command: Mapping[str, Any]
) -> Highlight:
    """What the order would do: units that move, and an attack from the acting unit to its
    target(s) where the order names them."""
    moves = moved_units(before, after_view)
    actor = next(
        (
            command[k]
            for k in ("attacker", "firer", "ship", "squadron")
            if isinstance(command.get(k), str)
        ),
        None,
    )
    targets = [command[k] for k in ("target", "defender") if isinstance(command.get(k), str)]
    attacks = tuple((actor, t) for t in targets) if actor else ()
    focus = frozenset([*(m[0] for m in moves), *(a for pair in attacks for a in pair)])
    return Highlight(moves=tuple(moves), attacks=attacks, focus=focus)
