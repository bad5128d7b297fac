"""Iron & Oak's movement segment as a scribe's menu (IO-3.3.1, issue 20).

A) and B): the mover turns a ship's order card up and states how it is carried out, with its
own movement cards. The card is opened as the bot opens its own (``orders.open_card``: each
order kind tried with the salt derived from the state, which at a table carries the side's own
secret), so the menu offers just that card's order: one menu order per way of carrying it out
(a path of boxes clicked on the grid, leaving or entering the map, each enemy it may ram, cross
or oppose, or — when it cannot be carried out at all — drifting instead, IO-4.0). Every way
offered is one ``check_order`` accepts; a path is a field of boxes in order whose next box is
offered only where a legal path goes on (``when`` on each step). A card the menu cannot open
(sealed with a salt this state does not derive: another device's secret, ``wake seal``) is
offered as each order kind in turn; ``decide`` checks the card against its seal and refuses
any other (IO-3.2).

C): the opponent's movement cards against the move, then the order is carried out.
"""

from __future__ import annotations

from typing import Any

from domain.errors import WakeError
from domain.rulesets.iron_oak.basics import Side
from domain.rulesets.iron_oak.commands import ORDER_KINDS, RevealOrder
from domain.rulesets.iron_oak.menu_parts import (
    ORDER_NAMES,
    ORDER_RULES,
    cell_detail,
    cell_label,
    cell_value,
    movement_cards,
    name,
)
from domain.rulesets.iron_oak.orders import (
    bot_salt,
    candidate_details,
    check_order,
    open_card,
    retire_edge,
)
from domain.rulesets.iron_oak.sequence import controller, movers_left, next_numbered
from domain.rulesets.iron_oak.state import IronOakState
from domain.scribe.menu import MenuChoice, MenuField, MenuOrder

Form = dict[str, Any]  # one way of carrying an order out: reveal_order's fields, as JSON
EDGE_NAMES = {"N": "north", "E": "east", "S": "south", "W": "west"}
TARGETED = ("ram", "cross_t", "opposing")
UNOPENED_HELP = (
    "Wake could not open this card with this side's secret (it was sealed on another device "
    "or with wake seal): state the order written on the card; the rules check it against the "
    "seal and refuse any other (IO-3.2)."
)


def movers(state: IronOakState, side: Side) -> list[str]:
    """The ships ``side`` may turn a card up for now: the next card by number in alternating
    play (IO-9.3.3), else any of its ships still to move, in any order (IO-3.3.1)."""
    if state.options.mode == "alternating":
        ship = next_numbered(state)
        return [ship] if ship is not None and controller(state, ship) == side else []
    return sorted(s for s in movers_left(state) if controller(state, s) == side)


def reveal_orders(state: IronOakState, side: Side) -> list[MenuOrder]:
    """IO-3.3.1 A/B: every way ``side`` may turn up a card now."""
    out: list[MenuOrder] = []
    for ship in movers(state, side):
        kind = open_card(state, ship)
        for order in [kind] if kind is not None else list(ORDER_KINDS):
            out += _reveals(state, side, ship, order, opened=kind is not None)
    return out


def legal_forms(
    state: IronOakState, ship: str, order: str, attach: str | None = None
) -> list[Form]:
    """The ways of carrying ``order`` out that the rules accept (``check_order``)."""
    out = []
    for details in candidate_details(state, ship, order):
        command = RevealOrder(ship=ship, order=order, salt="", attach=attach, **details)
        try:
            check_order(state, command)
        except WakeError:
            continue
        out.append(_json(details))
    return out


def _json(details: Form) -> Form:
    out = dict(details)
    if "path" in out:
        out["path"] = [cell_value(c) for c in out["path"]]
    return out


def _reveals(
    state: IronOakState, side: Side, ship: str, order: str, *, opened: bool
) -> list[MenuOrder]:
    """The menu orders that turn ``ship``'s card up as ``order``, one per way (form group)."""
    fixed = {"ship": ship, "order": order, "salt": bot_salt(state, ship)}
    who, what = name(state, ship), ORDER_NAMES[order]
    cards = movement_cards(state, side, ship, "own")
    forms = legal_forms(state, ship, order)
    key = f"reveal:{ship}:{order}"
    note = "" if opened else UNOPENED_HELP
    if not forms:  # IO-4.0: an order that cannot be carried out; the ship drifts instead
        return [
            MenuOrder(
                key=f"{key}:drift",
                type="reveal_order",
                label=f"{who}: {what} cannot be carried out, the ship drifts",
                side=side,
                fixed={**fixed, "drift": True},
                fields=[cards] if cards else [],
                units=[ship],
                rule="IO-4.0",
                help=note,
            )
        ]
    tows = {
        other: legal_forms(state, ship, order, other) for other in _tow_partners(state, side, ship)
    }
    out = []
    for suffix, label, group in _groups(state, ship, order, forms):
        fields, constant = _fields(state, ship, group)
        tow = _tow_field(state, group, fields, tows)
        out.append(
            MenuOrder(
                key=f"{key}:{suffix}",
                type="reveal_order",
                label=f"{who}: {what}{label}",
                side=side,
                fixed={**fixed, **constant},
                fields=[*fields, *([tow] if tow else []), *([cards] if cards else [])],
                units=[ship, *([constant["target"]] if "target" in constant else [])],
                rule=ORDER_RULES[order],
                help=note,
            )
        )
    return out


def _groups(
    state: IronOakState, ship: str, order: str, forms: list[Form]
) -> list[tuple[str, str, list[Form]]]:
    """The legal forms in groups that read as one order each: (key suffix, label, forms)."""
    s = state.ships[ship]
    if order in TARGETED:
        targets = list(dict.fromkeys(f["target"] for f in forms))
        return [
            (t, f" against {name(state, t)}", [f for f in forms if f["target"] == t])
            for t in targets
        ]
    exits = [f for f in forms if f.get("exit")]
    moves = [f for f in forms if not f.get("exit")]
    out: list[tuple[str, str, list[Form]]] = []
    if moves:
        label = ""
        if s.cell is None and s.edge is not None:
            label = f", entering from the {EDGE_NAMES[s.edge]} edge"
        out.append(("move", label, moves))
    if exits:
        edge = retire_edge(state, ship) or state.scenario.exit[s.side]
        out.append(("exit", f", leaving the map by the {EDGE_NAMES[edge]} edge", exits))
    return out


def _fields(state: IronOakState, ship: str, group: list[Form]) -> tuple[list[MenuField], Form]:
    """The fields a group of forms leaves to choose, and the values all its forms share."""
    keys = list(dict.fromkeys(k for f in group for k in f))
    constant: Form = {}
    fields: list[MenuField] = []
    for key in keys:
        values = [f.get(key) for f in group]
        if all(v == values[0] for v in values):
            constant[key] = values[0]
        elif key == "path":
            fields.append(path_field(state, ship, [f["path"] for f in group]))
        elif key == "kind":
            fields.append(_one(key, "Across which end", values, _T_SIDES))
        elif key == "attacks":
            fields.append(_one(key, "Attack with", values, _ATTACKS))
        else:  # pragma: no cover - every key of candidate_details is handled above
            raise AssertionError(f"no menu field for {key}")
    return fields, constant


_T_SIDES = {
    "bow_on": "across her bow (she is Bow-on)",
    "stern_on": "across her stern (she is Stern-on)",
}
_ATTACKS = {"spar,ram": "spar torpedo and ram", "ram": "ram", "spar": "spar torpedo"}


def _one(key: str, label: str, values: list[Any], words: dict[str, str]) -> MenuField:
    distinct = list({str(v): v for v in values}.values())
    choices = [
        MenuChoice(
            value=v,
            label=words.get(",".join(v) if isinstance(v, list) else str(v), str(v)),
        )
        for v in distinct
    ]
    return MenuField(name=key, label=label, choices=choices)


def path_field(state: IronOakState, ship: str, paths: list[list[list[int]]]) -> MenuField:
    """The boxes of a path, in order, from the ship's box (or, entering the map, the box it
    enters): each box is offered only after the boxes before it on some legal path."""
    choices: dict[str, MenuChoice] = {}
    for path in paths:
        for i, cell in enumerate(path):
            prefix = path[:i]
            key = repr((cell, prefix))
            if key not in choices:
                choices[key] = MenuChoice(
                    value=cell,
                    label=cell_label(cell),
                    detail=cell_detail(state, (cell[0], cell[1])),
                    when={"path": prefix},  # the first box with none before it
                )
    steps = len(paths[0])
    entering = state.ships[ship].cell is None
    return MenuField(
        name="path",
        label="The box it enters" if entering else "Path",
        kind="many",
        choices=list(choices.values()),
        min_count=steps,
        max_count=steps,
        ordered=True,
        help=(
            "click the edge box it enters (IO-5.1.5)"
            if entering
            else f"click the ship's box, then each box it moves into ({steps - 1} in all)"
        ),
    )


def _tow_partners(state: IronOakState, side: Side, ship: str) -> list[str]:
    """Friendly ships in the ship's box it might take in tow at the start of its move."""
    here = state.ships[ship].cell
    if here is None:
        return []
    return sorted(
        s.id for s in state.ships_in(here) if s.id != ship and controller(state, s.id) == side
    )


def _tow_field(
    state: IronOakState, group: list[Form], fields: list[MenuField], tows: dict[str, list[Form]]
) -> MenuField | None:
    """IO-5.3: a tow attached at the start of the move (optional), offered with the choices of
    the group's fields it is legal with."""
    names = [f.name for f in fields]
    choices: dict[str, MenuChoice] = {}
    for other, legal in tows.items():
        for form in group:
            if form not in legal:
                continue
            when = {n: form[n] for n in names}
            choices.setdefault(
                repr((other, when)),
                MenuChoice(value=other, label=name(state, other), when=when),
            )
    if not choices:
        return None
    return MenuField(
        name="attach",
        label="Take in tow (optional)",
        choices=list(choices.values()),
        optional=True,
        help="a friendly ship in the same box, attached at the start of the move (IO-5.3)",
    )


def respond_orders(state: IronOakState, side: Side) -> list[MenuOrder]:
    """IO-3.3.1 C: the opponent's movement cards against the revealed order (none may hinder
    a retiring or captured ship, IO-6.2.3H)."""
    pending = state.pending_move
    if pending is None:
        return []
    ship = pending.ship
    hindered = state.ships[ship].status not in ("retiring", "captured")
    cards = movement_cards(state, side, ship, "opponent") if hindered else None
    what = "drift" if pending.drift else ORDER_NAMES.get(pending.order, pending.order)
    return [
        MenuOrder(
            key=f"respond:{ship}",
            type="respond_movement",
            label=f"Answer {name(state, ship)}'s {what}" + ("" if cards else " (no card to play)"),
            side=side,
            fields=[cards] if cards else [],
            units=[ship],
            rule="IO-3.3.1",
            help="" if hindered else "no card may hinder a retiring or captured ship (IO-6.2.3H)",
        )
    ]
