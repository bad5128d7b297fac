"""Iron & Oak's orders as a scribe's menu (issue 20): what a side may order now, in players'
words, and its sealed order cards.

The table's steps: the deal (IO-3.4) and the Victory Phase (IO-3.5). A side's steps: its
Status Phase choices (IO-3.1.1), an order card face down on every ship under command (IO-3.2,
a sealed order: the plain order kinds are the side's secret, sealed by :func:`seal_order` with
the salts the bot uses, from the side's own secret at a table), the movement segment
(:mod:`menu_movement`), the gunnery segment (:mod:`menu_gunnery`), the target's Collateral
choice (IO-6.3.4), the card exchange (IO-3.4) and ``pass`` where the rules let a side do
nothing. Every order is judged again by ``decide`` when it is given; an order type this module
does not know (added later) is offered from the legal orders (``menu_from_legal``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, get_args

from domain.errors import InvalidCommand, WakeError
from domain.rulesets.iron_oak import bot, gunnery
from domain.rulesets.iron_oak.basics import Side
from domain.rulesets.iron_oak.commands import ORDER_KINDS, AssignOrders, IronOakCommand
from domain.rulesets.iron_oak.hands import full_deck
from domain.rulesets.iron_oak.menu_gunnery import declare_orders
from domain.rulesets.iron_oak.menu_gunnery import respond_orders as respond_fire_orders
from domain.rulesets.iron_oak.menu_movement import respond_orders as respond_move_orders
from domain.rulesets.iron_oak.menu_movement import reveal_orders
from domain.rulesets.iron_oak.menu_parts import (
    ORDER_NAMES,
    card_detail,
    card_name,
    location_label,
    name,
    shield_detail,
    unit_picks,
    words,
)
from domain.rulesets.iron_oak.orders import order_possible, seal_card
from domain.rulesets.iron_oak.passing import long_form
from domain.rulesets.iron_oak.repair import REPAIR_ORDER, check_repair_party
from domain.rulesets.iron_oak.sequence import SIDES, controller, may_exchange, to_act, under_command
from domain.rulesets.iron_oak.state import IronOakState
from domain.rulesets.iron_oak.view import SIDE_NAMES
from domain.scribe.menu import (
    MenuChoice,
    MenuField,
    MenuOrder,
    build_command,
    field_path,
    menu_from_legal,
)

#: The order types this menu builds itself; any other is offered from the legal orders.
COVERED = frozenset(
    {
        "deal",
        "status",
        "assign_orders",
        "reveal_order",
        "respond_movement",
        "declare_fire",
        "respond_fire",
        "choose_collateral",
        "exchange_card",
        "end_turn",
        "pass",
    }
)
COMMAND_TYPES = frozenset(
    model.model_fields["type"].default for model in get_args(get_args(IronOakCommand)[0])
)
PASS_WORDS = {
    "status": "no Status choices (the fire and smoke checks run)",
    "orders": "no ship under command",
    "movement": "no movement cards",
    "declare_fire": "no fire",
    "respond_fire": "no Misfire",
    "exchange": "no exchange",
}


def order_menu(state: IronOakState, side: str | None) -> list[MenuOrder]:
    """The orders open to ``side`` now (None: the table's steps)."""
    acting = to_act(state)
    if not acting:
        return []
    if None in acting:
        own = _table_steps(state)
    elif side not in acting or side not in SIDES:
        return []
    else:
        own = _side_orders(state, side)
        own += _pass(state, side)
    return own + _fallback(state, side)


def _side_orders(state: IronOakState, side: Side) -> list[MenuOrder]:
    if state.awaiting is not None:
        return _collateral(state, side)
    phase = state.phase
    if phase == "status":
        return [_status(state, side)]
    if phase == "orders":
        return [_order_cards(state, side)]
    if phase == "movement":
        if state.pending_move is not None:
            return respond_move_orders(state, side)
        return reveal_orders(state, side)
    if phase == "gunnery":
        if state.fire_declared:
            return respond_fire_orders(state, side)
        return declare_orders(state, side)
    if phase == "exchange":
        return _exchange(state, side)
    return []


# --------------------------------------------------------------------------- the table's steps


def _table_steps(state: IronOakState) -> list[MenuOrder]:
    if state.phase == "victory":
        return [_step("end_turn", "End the turn: Victory Phase", "IO-3.5")]
    if state.phase != "setup":
        return []
    deck = Counter(full_deck(state))
    size = state.data.tables.initial_hand
    choices = [
        MenuChoice(value=card, label=card_name(state, card), detail=f"{n} in the deck")
        for card, n in deck.items()
    ]
    hands = [
        MenuField(
            name=field_path("hands", side),
            label=f"Cards dealt to the {SIDE_NAMES[side]}",
            kind="many",
            choices=choices,
            min_count=size,
            max_count=size,
            distinct=False,
            help=f"{size} cards each (IO-3.4)",
        )
        for side in SIDES
    ]
    named = _step("deal", "Deal: name the cards each side was dealt", "IO-3.4")
    named = named.model_copy(
        update={
            "key": "deal:named",
            "fields": hands,
            "help": "an umpire's prepared hands"
            if state.named_cards
            else "physical cards, or an umpire's prepared hands",
        }
    )
    # with named draws each card dealt is asked as it is drawn (the chance source's draw_card)
    how = "each card asked as it is drawn" if state.named_cards else "shuffled with the game's dice"
    return [_step("deal", f"Deal the action cards ({how})", "IO-3.4"), named]


def _step(kind: str, label: str, rule: str) -> MenuOrder:
    return MenuOrder(key=kind, type=kind, label=label, side=None, rule=rule)


# --------------------------------------------------------------------------- Status Phase


def _own_units(state: IronOakState, side: Side) -> list[str]:
    ships = [s.id for s in state.ships.values() if s.afloat and controller(state, s.id) == side]
    forts = [u.id for u in state.sections.values() if u.side == side and not u.destroyed]
    return ships + forts


def _may_place(state: IronOakState, unit: str, *, withdrawn: bool = False) -> bool:
    """IO-3.1.1: may ``unit`` place a repair party (``withdrawn``: once its party is off)?"""
    if withdrawn:
        u = gunnery.unit(state, unit)
        key = "ships" if unit in state.ships else "sections"
        units = {**getattr(state, key), unit: u.model_copy(update={"repair_party": False})}
        state = state.model_copy(update={key: units})
    try:
        check_repair_party(state, unit)
    except WakeError:
        return False
    return True


def _status(state: IronOakState, side: Side) -> MenuOrder:
    """IO-3.1.1: withdraw parties, name the critical a party works on, place new parties."""
    units = _own_units(state, side)
    parties = [u for u in units if gunnery.unit(state, u).repair_party]
    fields: list[MenuField] = []
    if parties:
        withdraw = "a party withdrawn repairs nothing this turn (IO-3.1.1)"
        fields.append(unit_picks(state, "withdraw", "Withdraw repair parties", parties, withdraw))
    for unit in parties:
        criticals = gunnery.unit(state, unit).criticals
        repairable = [c for c in REPAIR_ORDER if c in criticals]
        if not repairable:
            continue
        fields.append(
            MenuField(
                name=field_path("repair", unit),
                label=f"{name(state, unit)}'s repair party works on",
                choices=[MenuChoice(value=c, label=words(c)) for c in repairable],
                optional=True,
                help=f"unless chosen: {words(repairable[0])} (IO-3.1.1)",
            )
        )
    place = [MenuChoice(value=u, label=name(state, u)) for u in units if _may_place(state, u)] + [
        MenuChoice(value=u, label=name(state, u), detail="once its party is withdrawn")
        for u in parties
        if _may_place(state, u, withdrawn=True)
    ]
    if place:
        fields.append(
            MenuField(
                name="place",
                label="Place repair parties",
                kind="many",
                choices=place,
                help="not on a unit at full crew damage or captured (IO-3.1.1)",
            )
        )
    return MenuOrder(
        key="status",
        type="status",
        label="Status Phase: repair parties" if fields else "Status Phase: fire and smoke checks",
        side=side,
        fields=fields,
        units=list(dict.fromkeys([*parties, *(c.value for c in place)])),
        rule="IO-3.1",
    )


# --------------------------------------------------------------------------- Order Phase


def _order_cards(state: IronOakState, side: Side) -> MenuOrder:
    """IO-3.2: an order card face down on every ship under command (sealed)."""
    ships = under_command(state, side)
    fields = [
        MenuField(
            name=field_path("orders", ship),
            label=f"Order card for {name(state, ship)}",
            choices=[
                MenuChoice(
                    value=kind,
                    label=ORDER_NAMES[kind],
                    detail=""
                    if order_possible(state, ship, kind)
                    else "cannot be carried out now: the ship would drift (IO-4.0)",
                )
                for kind in ORDER_KINDS
            ],
            secret=True,
            help="face down until the ship moves (IO-3.2)",
        )
        for ship in ships
    ]
    if state.options.mode == "alternating" and ships:
        first = 1 if side == state.scenario.first_player else 2
        numbers = ", ".join(f"#{first + 2 * i}" for i in range(len(ships)))
        fields.append(
            unit_picks(
                state,
                "numbers",
                f"The cards' numbers ({numbers})",
                ships,
                "click the ships in the order their cards are numbered (IO-9.3.2)",
                min_count=len(ships),
                max_count=len(ships),
                ordered=True,
            )
        )
    towing = [ship for ship in ships if state.ships[ship].towing is not None]
    if towing:
        release = "let go of the ship in tow first (IO-5.3)"
        fields.append(unit_picks(state, "release_tows", "Release tows", towing, release))
    return MenuOrder(
        key="assign_orders",
        type="assign_orders",
        label="Order cards, face down" if ships else "Order Phase: no ship under command",
        side=side,
        fields=fields,
        units=ships,
        sealed=True,
        rule="IO-3.2",
    )


def seal_order(
    state: IronOakState, side: str | None, order: MenuOrder, values: Mapping[str, Any]
) -> AssignOrders:
    """The ``assign_orders`` that seals ``values`` (each ship's order kind, the cards' numbers
    in alternating play, the tows released) with the salts the bot derives from ``state``.

    Raises:
        InvalidCommand: not the Order Phase's sealed order, or values the menu does not offer.
    """
    if order.type != "assign_orders" or not order.sealed:
        raise InvalidCommand(f"{order.label} is not a sealed order of Iron & Oak", rule="IO-3.2")
    chosen = build_command(order, values)  # each value checked against the menu's choices
    kinds: Mapping[str, str] = chosen.get("orders", {})
    numbers: dict[str, int] = {}
    if "numbers" in chosen:
        first = 1 if side == state.scenario.first_player else 2
        numbers = {ship: first + 2 * i for i, ship in enumerate(chosen["numbers"])}
    return AssignOrders(
        seals={ship: seal_card(state, ship, kind) for ship, kind in kinds.items()},
        numbers=numbers,
        release_tows=list(chosen.get("release_tows", [])),
    )


# --------------------------------------------------------------------------- other steps


def _collateral(state: IronOakState, side: Side) -> list[MenuOrder]:
    """IO-6.3.4: the target's side names the location that takes the Collateral damage."""
    awaiting = state.awaiting
    if awaiting is None or awaiting.side != side:
        return []
    shields = gunnery.unit(state, awaiting.unit).shields
    who = name(state, awaiting.unit)
    field = MenuField(
        name="location",
        label="Location",
        choices=[
            MenuChoice(
                value=loc,
                label=location_label(loc),
                detail=shield_detail(shields.get(loc, 0)),  # type: ignore[call-overload]
            )
            for loc in awaiting.candidates
        ],
        help=f"the hit on the {location_label(awaiting.hit)} causes Collateral damage (IO-6.3.4)",
    )
    return [
        MenuOrder(
            key="choose_collateral",
            type="choose_collateral",
            label=f"Where the Collateral damage on {who} goes",
            side=side,
            fields=[field],
            units=[awaiting.unit],
            rule="IO-6.3.4",
        )
    ]


def _exchange(state: IronOakState, side: Side) -> list[MenuOrder]:
    """IO-3.4: discard one card and draw one (named, with physical cards), or keep the hand."""
    keep = MenuOrder(
        key="exchange:keep",
        type="exchange_card",
        label="Keep the hand (no exchange)",
        side=side,
        rule="IO-3.4",
    )
    if not may_exchange(state, side):
        return [keep]
    hand = dict.fromkeys(state.hands.get(side, ()))
    fields = [
        MenuField(
            name="discard",
            label="Discard",
            choices=[
                MenuChoice(value=c, label=card_name(state, c), detail=card_detail(state, c))
                for c in hand
            ],
            help="face down (IO-3.4)",
        )
    ]
    if not state.deck_known and state.deck and not state.named_cards:  # named: asked as drawn
        fields.append(
            MenuField(
                name="draw",
                label="The card drawn",
                choices=[
                    MenuChoice(value=c, label=card_name(state, c)) for c in _drawable(state, side)
                ],
                help="physical cards: the card drawn from the deck (IO-3.4)",
            )
        )
    exchange = MenuOrder(
        key="exchange",
        type="exchange_card",
        label="Exchange a card",
        side=side,
        fields=fields,
        rule="IO-3.4",
    )
    return [exchange, keep]


def _drawable(state: IronOakState, side: Side) -> list[str]:
    """The cards ``side`` may draw as far as it knows: every card of the deck but those in its
    hand, played, or exchanged by it. The enemy's hand and exchanged cards stay hidden (IO-3.4),
    so a card they hold all copies of is still offered, and refused by the rules if named."""
    left = Counter(full_deck(state))
    left -= Counter(state.hands.get(side, ()))
    left -= Counter(state.discards)
    left -= Counter(state.exchanged.get(side, ()))
    return [card for card, n in left.items() if n > 0]


def _pass(state: IronOakState, side: Side) -> list[MenuOrder]:
    """``pass`` wherever the rules let the side do nothing now (``passing.long_form``)."""
    try:
        means = long_form(state, side)
    except WakeError:
        return []
    step = means.type if state.phase == "gunnery" else state.phase
    return [
        MenuOrder(
            key="pass",
            type="pass",
            label=f"Pass: {PASS_WORDS.get(step, 'nothing this step')}",
            side=side,
            rule="IO-3.0",
        )
    ]


def _fallback(state: IronOakState, side: str | None) -> list[MenuOrder]:
    """Orders of a type this menu does not build, from the legal orders (nothing today)."""
    missing = COMMAND_TYPES - COVERED
    if not missing:
        return []
    try:
        legal = [c for c in bot.legal_commands(state, side) if c.type in missing]
    except (WakeError, ValueError):  # a card the bot cannot open (issue 23 item 6)
        return []
    names = {u: name(state, u) for u in [*state.ships, *state.sections]}
    return menu_from_legal(legal, side, names=names)
