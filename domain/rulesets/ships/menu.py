"""SHIPS & TACTICS orders as a scribe's menu (issue 20): what a player at the table may order now.

The table's own step is the start of each battle (ST-1.2, ST-4.3). Then, in turn order: the
fleet placed face down (a sealed order, :mod:`domain.rulesets.ships.menu_fleet`, ST-1.3) and
turned face up (ST-1.9); at each segment's start the Minovsky question (ST-5.3); the aircraft
launch (ST-3.3.1); each player's turn: an attack per ship with a target among the other seats'
ships it may reach and the attack cards it may play (ST-3.2, ST-3.4), a line weapon centred on
a seat (ST-3.1), hacking (ST-5.2), air strikes in groups (ST-3.3.2, ST-3.3.5), boarding (ST-3.5)
and the end of the turn (with the aircraft recovered, ST-3.3.7); the defence cards against an
attack waiting on a player. A ship or an aircraft is named with its seat and box ("Musai-class
light cruiser (Zeon, vanguard)"); a side's menu shows only its own hand. Every order is judged
again by ``decide`` when it is given; an order type this module does not know (one added since)
comes from the ruleset's legal orders (:func:`domain.scribe.menu.menu_from_legal`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from domain.commands import order_sentence
from domain.errors import WakeError
from domain.rulesets.ships import bot, combat, turns
from domain.rulesets.ships.board import line_players
from domain.rulesets.ships.commands import Board, LineAttack
from domain.rulesets.ships.data import (
    AttackCard,
    DefenceCard,
    HackingCard,
    MinovskyCard,
)
from domain.rulesets.ships.flow import to_act
from domain.rulesets.ships.menu_fleet import fleet_order, open_fleet
from domain.rulesets.ships.placement import check_fleet
from domain.rulesets.ships.state import ShipsState, Unit
from domain.rulesets.ships.view import SEGMENT_NAMES
from domain.scribe.menu import MenuChoice, MenuField, MenuOrder, menu_from_legal

#: The order types this menu offers itself; any other comes from the legal orders.
KNOWN = frozenset(
    {
        "start_battle",
        "form_fleet",
        "reveal_fleet",
        "minovsky",
        "launch_aircraft",
        "attack",
        "line_attack",
        "defend",
        "air_strike",
        "board",
        "hack",
        "end_turn",
    }
)


def order_menu(state: ShipsState, side: str | None) -> list[MenuOrder]:
    """The orders open to ``side`` (None: the table's own steps) now."""
    if state.finished:
        return []
    if side is None:
        return _start(state) if state.phase == "setup" else []
    if side not in to_act(state):
        return []
    orders = _orders(state, side)
    return [*orders, *_others(state, side)]


def _orders(state: ShipsState, side: str) -> list[MenuOrder]:
    if state.pending is not None:
        return _defence(state, side)
    if state.phase == "formation":
        return [fleet_order(state, side)]
    if state.phase == "reveal":
        return _reveal(state, side)
    if state.phase == "minovsky":
        return _minovsky(state, side)
    if state.phase == "launch":
        return _launch(state, side)
    if state.phase != "turns" or state.segment is None:
        return []
    if state.segment == "aircraft":
        found = _air_strikes(state, side)
    elif state.segment == "boarding":
        found = _boardings(state, side)
    else:
        found = [*_attacks(state, side), *_line_attacks(state, side), *_hacks(state, side)]
    return [*found, *_end_turn(state, side)]


def _others(state: ShipsState, side: str) -> list[MenuOrder]:
    """Orders of a type this menu does not know, from the ruleset's legal orders."""
    unknown = [c for c in bot.legal_commands(state, side) if c.type not in KNOWN]
    if not unknown:
        return []
    names = {u.id: unit_label(state, u) for u in state.units.values()}
    names.update({pid: seat(state, pid) for pid in state.players})
    names.update({c.id: c.name for c in state.data.cards.cards})
    return menu_from_legal(unknown, side, names=names, describe=order_sentence)


# --------------------------------------------------------------------------- names


def seat(state: ShipsState, pid: str) -> str:
    """A player as the table names it: its name, with its seat when two share a name."""
    name = state.players[pid].name
    if sum(1 for p in state.players.values() if p.name == name) > 1:
        return f"{name} ({pid})"
    return name


def card_name(state: ShipsState, card_id: str) -> str:
    card = state.data.cards.by_id().get(card_id)
    return card.name if card is not None else card_id.replace("_", " ")


def unit_label(state: ShipsState, unit: Unit) -> str:
    """``Musai-class light cruiser (Zeon, vanguard)``; an aircraft ``Zaku II (aboard Musai-class
    light cruiser)``; a character ``Char Aznable (on Zaku II)``."""
    if unit.kind == "ship":
        return f"{_numbered(state, unit)} ({seat(state, unit.owner)}, {unit.box})"
    host = state.units.get(unit.on or "")
    where = _numbered(state, host) if host is not None else "no ship"
    return f"{_numbered(state, unit)} ({'aboard' if unit.kind == 'aircraft' else 'on'} {where})"


def _numbered(state: ShipsState, unit: Unit) -> str:
    """The unit's card name, numbered in the order placed among the units of that card in the
    same box (a ship) or on the same ship or aircraft (an aircraft, a character)."""
    alike = [
        u.id
        for u in state.units.values()
        if u.kind == unit.kind
        and u.owner == unit.owner
        and u.card == unit.card
        and (u.box == unit.box if unit.kind == "ship" else u.on == unit.on)
    ]
    name = card_name(state, unit.card)
    return f"{name} {alike.index(unit.id) + 1}" if len(alike) > 1 else name


def _copies(state: ShipsState, cards: Iterable[str]) -> list[MenuChoice]:
    """One choice per card (copies of one card numbered), the value the card's id."""
    cards = list(cards)
    count = Counter(cards)
    seen: Counter[str] = Counter()
    out = []
    for card_id in cards:
        seen[card_id] += 1
        label = card_name(state, card_id)
        if count[card_id] > 1:
            label = f"{label} (copy {seen[card_id]})"
        out.append(MenuChoice(value=card_id, label=label, detail=_card_detail(state, card_id)))
    return out


def _card_detail(state: ShipsState, card_id: str) -> str:
    card = state.data.cards.by_id().get(card_id)
    if isinstance(card, AttackCard):
        return f"{card.weapon}, value {card.value}"
    if isinstance(card, DefenceCard):
        return f"cancels {' or '.join(card.cancels)}"
    if isinstance(card, HackingCard):
        return f"hacks up to {card.targets} ships"
    return ""


def _order(key: str, kind: str, label: str, side: str | None, rule: str, **more: Any) -> MenuOrder:
    return MenuOrder(key=key, type=kind, label=label, side=side, rule=rule, **more)


# --------------------------------------------------------------------------- setup


def _start(state: ShipsState) -> list[MenuOrder]:
    """ST-1.2 / ST-4.3: the next battle's setup. Cards dealt by the game's dice, or at a
    physical table the order cards and each player's cards as drawn."""
    battle = state.battle + 1
    rule = "ST-1.2" if battle == 1 else "ST-4.3"
    out = []
    if not state.physical or state.deck_known or state.named_cards:
        how = " (decks shuffled with dice)" if state.physical else ""
        if state.named_cards:  # each card asked of the chance source as it is drawn
            how = " (each card and order card asked as it is drawn)"
        out.append(
            _order(
                "start_battle",
                "start_battle",
                f"Start battle {battle}: deal the hands and draw the order cards{how}",
                None,
                rule,
            )
        )
    if state.physical and not state.named_cards:
        out.append(_named_start(state, battle, rule))
    return out


def _named_start(state: ShipsState, battle: int, rule: str) -> MenuOrder:
    """A physical table's setup: the order cards as drawn, each player's cards in the order
    drawn (the refill to the hand size, then two at a time until a ship card shows, ST-1.7)."""
    playing = [pid for pid in state.seating if not state.players[pid].out]
    decks = {d.id: d for d in state.data.decks.decks}
    fields = [
        MenuField(
            name="order",
            label="The order cards, first player first",
            kind="many",
            ordered=True,
            choices=[MenuChoice(value=pid, label=seat(state, pid)) for pid in playing],
            min_count=len(playing),
            max_count=len(playing),
        )
    ]
    for pid in playing:
        player = state.players[pid]
        deck = player.deck if battle > 1 else tuple(decks[player.deck_id].full())
        left = Counter(deck)
        need = min(len(deck), max(0, state.scenario.hand_size - len(player.hand)))
        fields.append(
            MenuField(
                name=f"draws.{pid}",
                label=f"Cards {seat(state, pid)} drew, in the order drawn",
                kind="many",
                ordered=True,
                distinct=False,
                choices=[
                    MenuChoice(
                        value=card_id,
                        label=card_name(state, card_id),
                        detail=f"{left[card_id]} in the deck",
                    )
                    for card_id in left
                ],
                min_count=need,
                max_count=len(deck),
                help="the refill first, then two at a time while the hand holds no ship card",
            )
        )
    return _order(
        "start_battle:named",
        "start_battle",
        f"Start battle {battle}: name the order cards and the cards drawn",
        None,
        rule,
        fields=fields,
    )


def _reveal(state: ShipsState, side: str) -> list[MenuOrder]:
    """ST-1.9: the fleet this side placed face down, opened with its own secret."""
    opened = open_fleet(state, side)
    if opened is None:
        return []
    fleet, salt = opened
    try:
        check_fleet(state, side, fleet)
    except WakeError:
        return []
    return [
        _order(
            "reveal_fleet",
            "reveal_fleet",
            "Turn your fleet face up",
            side,
            "ST-1.9",
            fixed={"fleet": fleet.model_dump(mode="json"), "salt": salt},
        )
    ]


# --------------------------------------------------------------------------- segment starts


def _minovsky(state: ShipsState, side: str) -> list[MenuOrder]:
    segment = f"{SEGMENT_NAMES[state.segment or 'long']} segment"
    cards = state.data.cards.by_id()
    holds = any(isinstance(cards.get(c), MinovskyCard) for c in state.players[side].hand)
    out = []
    if holds:
        out.append(
            _order(
                "minovsky:disperse",
                "minovsky",
                f"Disperse Minovsky particles before the {segment}",
                side,
                "ST-5.3",
                fixed={"disperse": True},
            )
        )
    out.append(
        _order(
            "minovsky:pass",
            "minovsky",
            f"Do not disperse Minovsky particles before the {segment}",
            side,
            "ST-5.3",
            fixed={"disperse": False},
        )
    )
    return out


def _own(state: ShipsState, side: str, kind: str) -> list[Unit]:
    return [
        u
        for u in state.units.values()
        if u.owner == side and u.kind == kind and u.status == "active"
    ]


def _launch(state: ShipsState, side: str) -> list[MenuOrder]:
    """ST-3.3.1: aircraft aboard a ship still afloat go out; pilots may change aircraft."""
    ready = [
        u
        for u in _own(state, side, "aircraft")
        if u.air == "aboard" and state.units[u.on or ""].status == "active"
    ]
    pilots = _pilot_fields(state, side)
    every = [u.id for u in ready]
    return [
        _order(
            "launch:all",
            "launch_aircraft",
            "Launch every aircraft",
            side,
            "ST-3.3.1",
            fixed={"aircraft": every},
            fields=pilots,
            units=every,
        ),
        _order(
            "launch",
            "launch_aircraft",
            "Launch some aircraft (the others stay aboard)",
            side,
            "ST-3.3.1",
            fields=[
                MenuField(
                    name="aircraft",
                    label="Aircraft to launch",
                    kind="many",
                    choices=[MenuChoice(value=u.id, label=unit_label(state, u)) for u in ready],
                ),
                *pilots,
            ],
            units=every,
        ),
    ]


def _pilot_fields(state: ShipsState, side: str) -> list[MenuField]:
    """ST-3.3.1: a character flying an aircraft may move to another of the side's aircraft."""
    planes = _own(state, side, "aircraft")
    out = []
    for pilot in _own(state, side, "character"):
        seat_unit = state.units.get(pilot.on or "")
        if seat_unit is None or seat_unit.kind != "aircraft":
            continue
        choices = [
            MenuChoice(value=p.id, label=f"Moves to {unit_label(state, p)}")
            for p in planes
            if p.id != seat_unit.id
        ]
        if choices:
            out.append(
                MenuField(
                    name=f"pilots.{pilot.id}",
                    label=f"{card_name(state, pilot.card)}, flying {unit_label(state, seat_unit)}",
                    choices=choices,
                    optional=True,
                    help="left unset: the pilot stays on its aircraft",
                )
            )
    return out


# --------------------------------------------------------------------------- gunnery


def _ready_ships(state: ShipsState, side: str) -> list[Unit]:
    """The side's ships afloat that have not acted this segment, vanguard first."""
    ships = [u for u in _own(state, side, "ship") if u.id not in state.acted]
    return sorted(ships, key=lambda u: u.box != "vanguard")


def _attacks(state: ShipsState, side: str) -> list[MenuOrder]:
    """ST-3.2, ST-3.4 (and long range): each ship that can fire: a target it reaches and the
    attack cards it may play there (several saturate, ST-0)."""
    segment = state.segment
    assert segment is not None
    hand = state.players[side].hand
    rule = turns.SEGMENT_RULE[segment]
    out = []
    for ship in _ready_ships(state, side):
        playable = [
            (cid, card)
            for cid in hand
            if (card := turns.playable(state, ship, cid, segment)) is not None
        ]
        gun = combat.guns(state, ship, segment)
        by_target: dict[str, Unit] = {}
        usable: set[str] = set()
        for target in _enemy_ships(state, side):
            if gun > 0 and combat.reaches(state, target, segment, [], air=False):
                by_target[target.id] = target
            for cid, card in playable:
                if combat.reaches(state, target, segment, [card], air=False):
                    by_target[target.id] = target
                    usable.add(cid)
        if not by_target:
            continue
        cards = [cid for cid, _ in playable if cid in usable]
        fields = [_target_field(state, list(by_target.values()), segment)]
        if cards:
            fields.append(
                MenuField(
                    name="cards",
                    label="Attack cards played",
                    kind="many",
                    distinct=False,
                    choices=_copies(state, cards),
                    min_count=0 if gun > 0 else 1,
                    max_count=len(cards),
                    help="several cards on one target saturate it",
                )
            )
        name = unit_label(state, ship)
        out.append(
            _order(
                f"attack:{ship.id}",
                "attack",
                f"Fire {name}",
                side,
                rule,
                fixed={"ship": ship.id},
                fields=fields,
                units=[ship.id],
                help=f"its own guns: {gun} at {segment} range",
            )
        )
    return out


def _enemy_ships(state: ShipsState, side: str) -> list[Unit]:
    return [
        u
        for u in state.units.values()
        if u.kind == "ship" and u.status == "active" and u.owner != side
    ]


def _target_field(state: ShipsState, targets: list[Unit], segment: str) -> MenuField:
    table = state.data.combat
    reach = ", ".join(table.rearguard_weapons) or "no"
    choices = []
    for target in targets:
        detail = f"damage {target.damage}, hull {combat.ship_card(state, target).hull}"
        if target.box == "rearguard" and combat.has_vanguard(state, target.owner):
            detail += f"; behind a vanguard: only {reach} cards reach it"
            if segment in table.guns_reach_rearguard:
                detail += ", and guns"
        choices.append(MenuChoice(value=target.id, label=unit_label(state, target), detail=detail))
    return MenuField(name="target", label="Target", choices=choices)


def _line_attacks(state: ShipsState, side: str) -> list[MenuOrder]:
    """ST-3.1: a line weapon card fired from a ship at a centre seat: the vanguards of the
    seats the line covers are hit."""
    if state.segment != "long":
        return []
    cards = state.data.cards.by_id()
    lines = [
        cid
        for cid in dict.fromkeys(state.players[side].hand)
        if isinstance(cards.get(cid), AttackCard) and cards[cid].line
    ]
    out = []
    for ship in _ready_ships(state, side) if lines else []:
        for cid in lines:
            centres = [
                centre
                for centre in state.seating
                if centre in state.order
                and bot.accepted(
                    state,
                    side,
                    turns.line_attack,
                    LineAttack(ship=ship.id, centre=centre, card=cid),
                )
            ]
            if not centres:
                continue
            choices = [
                MenuChoice(value=c, label=seat(state, c), detail=_line_detail(state, side, c))
                for c in centres
            ]
            out.append(
                _order(
                    f"line_attack:{ship.id}:{cid}",
                    "line_attack",
                    f"Fire {card_name(state, cid)} from {unit_label(state, ship)}",
                    side,
                    "ST-3.1",
                    fixed={"ship": ship.id, "card": cid},
                    fields=[MenuField(name="centre", label="Centred on", choices=choices)],
                    units=[ship.id],
                    help="a line weapon: it hits the vanguards of the seats the line covers",
                )
            )
    return out


def _line_detail(state: ShipsState, side: str, centre: str) -> str:
    hit = [
        unit_label(state, u)
        for pid in line_players(state, centre, side)
        for u in state.units.values()
        if u.owner == pid and u.kind == "ship" and u.box == "vanguard" and u.status == "active"
    ]
    return "hits " + ", ".join(hit)


def _hacks(state: ShipsState, side: str) -> list[MenuOrder]:
    """ST-5.2: a hacking card at up to its number of ships, of one player or several."""
    cards = state.data.cards.by_id()
    enemies = _enemy_ships(state, side)
    out = []
    for cid in dict.fromkeys(state.players[side].hand):
        card = cards.get(cid)
        if not isinstance(card, HackingCard) or not enemies:
            continue
        out.append(
            _order(
                f"hack:{cid}",
                "hack",
                f"Play {card.name}",
                side,
                "ST-5.2",
                fixed={"card": cid},
                fields=[
                    MenuField(
                        name="targets",
                        label="Ships hacked",
                        kind="many",
                        choices=[
                            MenuChoice(
                                value=u.id,
                                label=unit_label(state, u),
                                detail="already hacked" if u.hacked else "",
                            )
                            for u in enemies
                        ],
                        min_count=1,
                        max_count=card.targets,
                    )
                ],
            )
        )
    return out


# --------------------------------------------------------------------------- aircraft, boarding


def _air_strikes(state: ShipsState, side: str) -> list[MenuOrder]:
    """ST-3.3.2, ST-3.3.5: the aircraft out and ready, in one group or several, each at a ship
    of another player they reach; those not sent stay out for air defence (ST-3.3.3)."""
    ready = [u for u in _own(state, side, "aircraft") if u.air == "out" and u.id not in state.acted]
    targets = turns.targets_for(state, side, "aircraft", [], air=True)
    out = []
    planes = [MenuChoice(value=u.id, label=unit_label(state, u)) for u in ready]
    aims = [MenuChoice(value=t.id, label=unit_label(state, t)) for t in targets]
    for groups in range(1, min(len(ready), len(targets)) + 1):
        fields = []
        for g in range(groups):
            word = f"Group {g + 1}: " if groups > 1 else ""
            fields.append(
                MenuField(name=f"groups[{g}].target", label=f"{word}target", choices=aims)
            )
            fields.append(
                MenuField(
                    name=f"groups[{g}].aircraft",
                    label=f"{word}aircraft",
                    kind="many",
                    choices=planes,
                    min_count=1,
                )
            )
        label = "Air strike" if groups == 1 else f"Air strike in {groups} groups"
        out.append(
            _order(
                f"air_strike:{groups}",
                "air_strike",
                label,
                side,
                "ST-3.3.2" if groups == 1 else "ST-3.3.5",
                fields=fields,
                units=[u.id for u in ready],
            )
        )
    return out


def _boardings(state: ShipsState, side: str) -> list[MenuOrder]:
    """ST-3.5: each ship afloat that has not boarded, at a ship of another player it reaches."""
    out = []
    for ship in _ready_ships(state, side):
        choices = []
        for target in _enemy_ships(state, side):
            if not bot.accepted(state, side, turns.board, Board(ship=ship.id, target=target.id)):
                continue
            a, d = combat.boarding_values(state, ship, target)
            choices.append(
                MenuChoice(
                    value=target.id,
                    label=unit_label(state, target),
                    detail=f"boarding {a} against {d}",
                )
            )
        if choices:
            out.append(
                _order(
                    f"board:{ship.id}",
                    "board",
                    f"Board with {unit_label(state, ship)}",
                    side,
                    "ST-3.5",
                    fixed={"ship": ship.id},
                    fields=[MenuField(name="target", label="Ship boarded", choices=choices)],
                    units=[ship.id],
                )
            )
    return out


def _end_turn(state: ShipsState, side: str) -> list[MenuOrder]:
    """End the turn, once every ship that must attack has (ST-3.2, ST-3.4); in the aircraft
    segment, the aircraft that return to their ships (ST-3.3.7)."""
    if turns.unfired(state, side):
        return []
    segment = state.segment or "long"
    fields = []
    if segment == "aircraft":
        out_now = [u for u in _own(state, side, "aircraft") if u.air == "out"]
        if out_now:
            fields.append(
                MenuField(
                    name="recover",
                    label="Aircraft that return to their ships",
                    kind="many",
                    choices=[MenuChoice(value=u.id, label=unit_label(state, u)) for u in out_now],
                    help="the others stay out for air defence (ST-3.3.3)",
                )
            )
    return [
        _order(
            "end_turn",
            "end_turn",
            f"End your turn ({SEGMENT_NAMES[segment]} segment)",
            side,
            "ST-3.3.7" if fields else turns.SEGMENT_RULE[segment],
            fields=fields,
        )
    ]


def _defence(state: ShipsState, side: str) -> list[MenuOrder]:
    """The defence cards against the attack waiting on this player (none: take it)."""
    pending = state.pending
    if pending is None or not pending.defenders or pending.defenders[0] != side:
        return []
    cards = state.data.cards.by_id()
    shields = [c for c in state.players[side].hand if isinstance(cards.get(c), DefenceCard)]
    attacker = state.units.get(pending.ship)
    by = unit_label(state, attacker) if attacker is not None else "an attack"
    played = ", ".join(card_name(state, c) for c in pending.cards) or "guns"
    hit = [t for t in pending.targets if state.units[t].owner == side]
    out = []
    if shields:
        out.append(
            _order(
                "defend",
                "defend",
                f"Defend against {by} ({played})",
                side,
                "ST-2.3",
                fields=[
                    MenuField(
                        name="cards",
                        label="Defence cards played",
                        kind="many",
                        distinct=False,
                        choices=_copies(state, shields),
                    )
                ],
                units=hit,
            )
        )
    out.append(
        _order(
            "defend:none",
            "defend",
            f"Take the attack of {by} ({played}) without defence cards",
            side,
            "ST-2.3",
            fixed={"cards": []},
            units=hit,
        )
    )
    return out
