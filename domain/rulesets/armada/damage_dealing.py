"""Damage outside attacks and the damage deck's first shuffle (SWA-DMG, SWA-OVL).

Overlapping ships and obstacles, Crew Panic, Ruptured Engine and Thruster Fissure damage a ship
outside any attack; :func:`deal_damage_cards` and :func:`suffer_damage` turn that into the damage
deck's events (:mod:`.damage`), and :func:`hull_of` is the ship as damage sees it. A face-up card
dealt here whose effect needs a choice waits in ``state.dealings`` (:mod:`.integration` takes the
choice). The deck is shuffled from the game's dice the first time a card could be dealt
(:func:`ensure_deck`), unless the game draws its cards by name (:func:`.damage.new_named_deck`).
"""

from __future__ import annotations

from domain.dice import DiceSource
from domain.events import DomainEvent
from domain.frozen import assembled
from domain.rulesets.armada import damage as dmg
from domain.rulesets.armada.geometry import ZONES, Zone
from domain.rulesets.armada.partmemo import remembered
from domain.rulesets.armada.state import ArmadaState, ShipState


def hull_of(state: ArmadaState, ship_id: str) -> dmg.ShipHull:
    """What damage acts on, for one ship of the game state (built once per ship state)."""
    ship = state.ships[ship_id]
    data = state.data
    return remembered(
        (ship, data), ("hull_of",), lambda: _hull(ship, data.ships.get(ship.card).hull)
    )


def _hull(ship: ShipState, hull: int) -> dmg.ShipHull:
    """The ship's :class:`.damage.ShipHull`. Its values come from the validated ship state and
    card, so the model is assembled without validating them again (a hull is built for every
    ship state folded); the hull's own constraints are checked here, and anything they would
    refuse goes through validation, which raises as it always did."""
    values = {
        "id": ship.id,
        "side": ship.side,
        "name": ship.name,
        "hull": hull,
        "shields": ship.shields,
        "tokens": ship.defense,
        "cards": ship.damage,
        "speed": ship.speed,
        "dials": len(ship.dials),
        "destroyed": ship.destroyed,
    }
    shields = ship.shields
    if (
        hull < 1
        or ship.speed < 0
        or len(shields) != len(ZONES)
        or not all(shields.get(z, -1) >= 0 for z in ZONES)
    ):
        return dmg.ShipHull(**values)
    return assembled(dmg.ShipHull, **values)


def face_up_effects(state: ArmadaState, ship_id: str) -> tuple[str, ...]:
    """Effect keys of the ship's face-up damage cards (SWA-DMG)."""
    return dmg.face_up_effects(state.ships[ship_id].damage, state.data.damage)


# --------------------------------------------------------------------------- the deck


def ensure_deck(state: ArmadaState, dice: DiceSource) -> list[DomainEvent]:
    """The setup shuffle of the damage deck (SWA-DMG), when it has not happened yet (none with
    named draws: the deck is never shuffled on record)."""
    if state.deck_shuffled or state.deck.named:
        return []
    event, _ = dmg.new_deck(state.data.damage, dice)
    return [event]


def with_deck(state: ArmadaState, events: list[DomainEvent]) -> dmg.DeckState:
    deck = state.deck
    for event in events:
        deck = dmg.apply_deck(deck, event)
    return deck


# --------------------------------------------------------------------------- damage outside attacks


def deal_damage_cards(
    state: ArmadaState, ship: str, count: int, *, face_up: bool, rule: str, dice: DiceSource
) -> list[DomainEvent]:
    """Deal ``count`` damage cards to ``ship`` (the first face up when ``face_up``): an overlap
    (SWA-OVL: one face down each), an asteroid field (one face up), Damaged Controls."""
    if count <= 0 or not state.ships[ship].in_play:
        return []
    shuffle = ensure_deck(state, dice)
    dealt = dmg.deal_cards(
        hull_of(state, ship),
        count,
        face_up=face_up,
        opponent=state.other(state.ships[ship].side),
        deck=with_deck(state, shuffle),
        dice=dice,
        catalogue=state.data.damage,
        rule=rule,
    )
    return [*shuffle, *dealt.events]


def suffer_damage(
    state: ArmadaState, ship: str, amount: int, zone: Zone, *, rule: str, dice: DiceSource
) -> list[DomainEvent]:
    """``ship`` suffers ``amount`` damage on ``zone``: shields first, then face-down cards (a
    debris field, Crew Panic, Ruptured Engine, Thruster Fissure)."""
    if amount <= 0 or not state.ships[ship].in_play:
        return []
    shuffle = ensure_deck(state, dice)
    dealt = dmg.suffer_damage(
        hull_of(state, ship),
        zone,
        amount,
        opponent=state.other(state.ships[ship].side),
        deck=with_deck(state, shuffle),
        dice=dice,
        catalogue=state.data.damage,
        rule=rule,
    )
    return [*shuffle, *dealt.events]


def strongest_zone(state: ArmadaState, ship: str) -> Zone:
    """The hull zone with the most shields (ties: front, right, rear, left order of
    :data:`.geometry.ZONES`): where Wake puts damage whose zone the owner picks outside an
    attack (docs/armada.md, readings)."""
    shields = state.ships[ship].shields
    return max(ZONES, key=lambda z: (shields[z], -ZONES.index(z)))
