"""The PROVISIONAL combat engine of SHIPS & TACTICS: the one module that knows how an attack,
an air battle and a boarding resolve. The normal-rules procedure is not public (ST-GAPS); this
is Wake's own small deterministic design, driven by the ``CombatTable`` data, so that the real
procedure replaces this module (and combat.json) without touching the rest.

* **Attack** (ST-3.1, 3.2, 3.4): the firing ship's guns at the segment's range (plus gunnery of
  its characters; none when hacked, ST-5.2, or silenced by Minovsky particles, ST-5.3) plus the
  value of every attack card played on the target. Several cards on one target **saturate** it:
  each card beyond the first adds ``saturation_bonus``. Each **defence card** cancels one attack
  card of a weapon it lists (the highest-valued one it can); cancelled cards neither count nor
  saturate. Damage = total − the target's armour (never below 0). A ship **sinks** when its
  damage reaches its hull; the player whose hit sank it gets its VP (ST-5.1).
* **Reach**: a player's vanguard takes every attack; its rearguard only the attack-card weapons
  listed in ``rearguard_weapons``, guns at ``guns_reach_rearguard`` ranges and aircraft (when
  ``aircraft_reach_rearguard``); with no vanguard ship left the rearguard is exposed to all
  (``exposed_rearguard``).
* **Air battle** (ST-3.3.6): over one defending player, the strike's dogfight total against the
  defender's aircraft out; each side's total shoots down the other side's aircraft weakest first
  while it covers their dogfight value; both sides' losses are worked out before either is
  applied (simultaneous). Surviving strikers hit their target ship with their attack values.
* **Boarding** (ST-3.5): the ship's melee plus its characters' melee against the target's melee
  plus its own characters' melee and ship-handling; at least ``boarding_capture_margin`` more
  captures it (VP to the captor). Only the targeted ship's own characters count: other ships
  cannot block.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.rulesets.ships.data import (
    AircraftCard,
    AttackCard,
    CharacterCard,
    DefenceCard,
    Segment,
    ShipCard,
)
from domain.rulesets.ships.state import ShipsState, Unit


def card(state: ShipsState, card_id: str) -> object:
    return state.data.cards.by_id().get(card_id)


def ship_card(state: ShipsState, unit: Unit) -> ShipCard:
    found = card(state, unit.card)
    assert isinstance(found, ShipCard)
    return found


def characters_on(state: ShipsState, unit_id: str) -> list[CharacterCard]:
    out: list[CharacterCard] = []
    for u in state.units.values():
        if u.kind == "character" and u.on == unit_id and u.status == "active":
            c = card(state, u.card)
            if isinstance(c, CharacterCard):
                out.append(c)
    return out


def guns(state: ShipsState, ship: Unit, segment: Segment) -> int:
    """The ship's own fire in ``segment``: guns plus its characters' gunnery; hacked ships
    (ST-5.2) and guns silenced by Minovsky particles (ST-5.3) fire ``hacked_ship_guns`` / 0."""
    table = state.data.combat
    if ship.hacked:
        return table.hacked_ship_guns
    if state.minovsky and segment in table.minovsky_guns_off:
        return 0
    base = ship_card(state, ship).guns.at(segment)
    if base == 0:
        return 0
    return base + sum(c.gunnery for c in characters_on(state, ship.id))


def has_vanguard(state: ShipsState, player: str) -> bool:
    return any(
        u.owner == player and u.kind == "ship" and u.box == "vanguard" and u.status == "active"
        for u in state.units.values()
    )


def reaches(
    state: ShipsState, target: Unit, segment: Segment, cards: Sequence[AttackCard], *, air: bool
) -> bool:
    """Whether an attack may aim at ``target`` (the vanguard always; the rearguard as the
    provisional reach rules say)."""
    if target.box == "vanguard":
        return True
    table = state.data.combat
    if table.exposed_rearguard and not has_vanguard(state, target.owner):
        return True
    if air:
        return table.aircraft_reach_rearguard
    if cards:
        return all(c.weapon in table.rearguard_weapons for c in cards)
    return segment in table.guns_reach_rearguard


@dataclass(frozen=True)
class HitOutcome:
    guns: int
    values: list[int]
    cancelled: list[str]
    saturation: int
    armour: int
    damage: int
    total: int
    hull: int
    sunk: bool


def cancelled_by(attack: Sequence[AttackCard], defence: Sequence[DefenceCard]) -> list[int]:
    """Indices of the attack cards the defence cards cancel: each defence card the highest
    remaining attack card of a weapon it lists."""
    gone: list[int] = []
    for shield in defence:
        best = None
        for i, c in enumerate(attack):
            if i in gone or c.weapon not in shield.cancels:
                continue
            if best is None or c.value > attack[best].value:
                best = i
        if best is not None:
            gone.append(best)
    return sorted(gone)


def resolve_hit(
    state: ShipsState,
    target: Unit,
    gun_value: int,
    attack: Sequence[AttackCard],
    defence: Sequence[DefenceCard],
) -> HitOutcome:
    """One target's damage from guns plus cards, saturation, defence and armour."""
    table = state.data.combat
    gone = cancelled_by(attack, defence)
    kept = [c for i, c in enumerate(attack) if i not in gone]
    saturation = table.saturation_bonus * max(0, len(kept) - 1)
    sc = ship_card(state, target)
    raw = gun_value + sum(c.value for c in kept) + saturation
    damage = max(0, raw - sc.armour)
    total = target.damage + damage
    return HitOutcome(
        guns=gun_value,
        values=[c.value for c in attack],
        cancelled=[attack[i].id for i in gone],
        saturation=saturation,
        armour=sc.armour,
        damage=damage,
        total=total,
        hull=sc.hull,
        sunk=total >= sc.hull,
    )


def aircraft_values(state: ShipsState, unit: Unit) -> tuple[int, int]:
    """(attack, dogfight) of an aircraft: its card plus its pilots' skill on the dogfight."""
    c = card(state, unit.card)
    assert isinstance(c, AircraftCard)
    pilots = sum(ch.pilot for ch in characters_on(state, unit.id))
    return c.attack, c.dogfight + pilots


def shoot_down(strength: int, enemies: Sequence[Unit], state: ShipsState) -> list[str]:
    """The enemy aircraft a dogfight total destroys: weakest first while it covers them."""
    ranked = sorted(enemies, key=lambda u: (aircraft_values(state, u)[1], u.id))
    lost: list[str] = []
    left = strength
    for enemy in ranked:
        need = max(1, aircraft_values(state, enemy)[1])
        if left < need:
            break
        left -= need
        lost.append(enemy.id)
    return lost


def dogfight(
    state: ShipsState, strikers: Sequence[Unit], interceptors: Sequence[Unit]
) -> tuple[int, int, list[str], list[str]]:
    """ST-3.3.6: (strike total, defence total, strikers lost, interceptors lost), both worked
    out from the aircraft before the fight: the results apply together."""
    a = sum(aircraft_values(state, u)[1] for u in strikers)
    d = sum(aircraft_values(state, u)[1] for u in interceptors)
    return a, d, shoot_down(d, strikers, state), shoot_down(a, interceptors, state)


def boarding_values(state: ShipsState, ship: Unit, target: Unit) -> tuple[int, int]:
    """ST-3.5: (boarding total, defence total). Only the targeted ship's own characters
    defend it: other ships of its owner cannot block, whatever ship-handling they carry."""
    attack = ship_card(state, ship).melee + sum(c.melee for c in characters_on(state, ship.id))
    aboard = characters_on(state, target.id)
    defence = ship_card(state, target).melee + sum(c.melee + c.ship_handling for c in aboard)
    return attack, defence


def captured(state: ShipsState, attack: int, defence: int) -> bool:
    return attack - defence >= state.data.combat.boarding_capture_margin
