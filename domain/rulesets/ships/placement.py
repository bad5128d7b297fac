"""Fleets from plan to table (ST-1.3–1.9, ST-5.4): checking a revealed plan against the hand and
the placement rules, combining Nadesico A with its Y-Unit card, and the units placed."""

from __future__ import annotations

from collections import Counter

from domain.errors import IllegalCommand
from domain.rulesets.ships.data import (
    BOXES,
    AircraftCard,
    CharacterCard,
    ShipCard,
)
from domain.rulesets.ships.events import FleetsPlaced
from domain.rulesets.ships.fleet import Fleet, ShipPlan
from domain.rulesets.ships.state import ShipsState, Unit


def combine(state: ShipsState, fleet: Fleet) -> tuple[Fleet, list[tuple[str, str]]]:
    """ST-5.4: a ship card that ``combines_with`` another placed in the same fleet counts as one
    ship with it: the other card's aircraft and characters join it and it leaves its box.
    Returns the fleet as placed and the (absorbed card, into card) pairs."""
    cards = state.data.cards.by_id()
    boxes = {"vanguard": list(fleet.vanguard), "rearguard": list(fleet.rearguard)}
    merged: list[tuple[str, str]] = []
    for box in BOXES:
        for i, plan in enumerate(boxes[box]):
            card = cards.get(plan.card)
            if not isinstance(card, ShipCard) or card.combines_with is None:
                continue
            for other_box in BOXES:
                partner = next((p for p in boxes[other_box] if p.card == card.combines_with), None)
                if partner is None:
                    continue
                boxes[other_box].remove(partner)
                boxes[box][i] = ShipPlan(
                    card=plan.card,
                    characters=[*plan.characters, *partner.characters],
                    aircraft=[*plan.aircraft, *partner.aircraft],
                )
                merged.append((partner.card, plan.card))
                break
    return Fleet(vanguard=boxes["vanguard"], rearguard=boxes["rearguard"]), merged


def check_fleet(state: ShipsState, player: str, fleet: Fleet) -> None:
    """Refuse a fleet the rules do not allow.

    Raises:
        IllegalCommand: a card not in hand (ST-1.4), a card of the wrong kind in a slot, no
            vanguard ship (ST-1.3, ST-1.8), too many ships in a box (ST-1.8), more aircraft
            than a carrier holds (ST-1.5), a character that is not one (ST-1.6).
    """
    cards = state.data.cards.by_id()
    missing = Counter(fleet.cards()) - Counter(state.players[player].hand)
    if missing:
        raise IllegalCommand(
            f"{player} does not hold {sorted(missing.elements())} (ships come from the hand)",
            rule="ST-1.4",
        )
    placed, _ = combine(state, fleet)
    if not placed.vanguard:
        raise IllegalCommand(f"{player} must place a vanguard ship", rule="ST-1.8")
    limit = state.options.ships_per_box
    for box in BOXES:
        plans = getattr(placed, box)
        if len(plans) > limit:
            raise IllegalCommand(
                f"the {box} box holds {limit} ship card(s), not {len(plans)}", rule="ST-1.8"
            )
        for plan in plans:
            ship = cards.get(plan.card)
            if not isinstance(ship, ShipCard):
                raise IllegalCommand(f"{plan.card} is not a ship card", rule="ST-1.3")
            capacity = ship.capacity
            if len(plan.aircraft) > capacity:
                raise IllegalCommand(
                    f"{ship.name} carries {capacity} aircraft, not {len(plan.aircraft)}",
                    rule="ST-1.5",
                )
            for plane in plan.aircraft:
                if not isinstance(cards.get(plane.card), AircraftCard):
                    raise IllegalCommand(f"{plane.card} is not an aircraft card", rule="ST-1.5")
            chars = [*plan.characters, *(c for p in plan.aircraft for c in p.characters)]
            for char in chars:
                if not isinstance(cards.get(char), CharacterCard):
                    raise IllegalCommand(f"{char} is not a character card", rule="ST-1.6")


def fleet_units(state: ShipsState, player: str, fleet: Fleet) -> tuple[list[Unit], list[str]]:
    """The units a revealed fleet puts on the table (ids by place: ``P1-b2-V1``, its aircraft
    ``P1-b2-V1-A1``, characters ``…-C1``) and the cards counted into another ship (ST-5.4)."""
    placed, merged = combine(state, fleet)
    absorbed = {into: [a for a, i in merged if i == into] for _, into in merged}
    units: list[Unit] = []
    for box in BOXES:
        for n, plan in enumerate(getattr(placed, box), start=1):
            sid = f"{player}-b{state.battle}-{box[0].upper()}{n}"
            extra = tuple(absorbed.get(plan.card, ()))
            units.append(
                Unit(id=sid, owner=player, card=plan.card, kind="ship", box=box, extra_cards=extra)
            )
            for k, char in enumerate(plan.characters, start=1):
                units.append(
                    Unit(
                        id=f"{sid}-C{k}", owner=player, card=char, kind="character", box=box, on=sid
                    )
                )
            for j, plane in enumerate(plan.aircraft, start=1):
                aid = f"{sid}-A{j}"
                units.append(
                    Unit(
                        id=aid,
                        owner=player,
                        card=plane.card,
                        kind="aircraft",
                        box=box,
                        on=sid,
                        air="aboard",
                    )
                )
                for k, char in enumerate(plane.characters, start=1):
                    units.append(
                        Unit(
                            id=f"{aid}-C{k}",
                            owner=player,
                            card=char,
                            kind="character",
                            box=box,
                            on=aid,
                        )
                    )
    return units, [a for a, _ in merged]


def fleets_placed(state: ShipsState) -> FleetsPlaced:
    """ST-1.9: every revealed fleet onto the table together, in turn order."""
    units: list[Unit] = []
    combined: list[str] = []
    for player in state.order:
        fleet = state.revealed.get(player)
        if fleet is None:
            continue
        placed, merged = fleet_units(state, player, fleet)
        units.extend(placed)
        combined.extend(merged)
    return FleetsPlaced(units=units, combined=combined)
