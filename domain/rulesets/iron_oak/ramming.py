"""Ram and spar torpedo (IO-5.6): hazards, contact (IO-5.6.1), the spar (IO-5.6.2), the ram
(IO-5.6.3, with the Ram critical's −5, IO-6.3.12), fouling (IO-5.6.4) and the aftermath
(IO-5.6.5); the bars of IO-5.5.2, IO-6.3.13, IO-6.3.14 and IO-6.3.17."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from domain.chance import opposed_roll
from domain.dice import DiceSource, Modifier
from domain.errors import IllegalCommand
from domain.events import DomainEvent
from domain.rulesets.iron_oak import movement
from domain.rulesets.iron_oak.events import (
    ContactRolled,
    HazardChecked,
    RamAftermath,
    RamResolved,
    ShipsFouled,
    SparResolved,
)
from domain.rulesets.iron_oak.maneuvers import (
    check_enemy_in_gb,
    check_helm,
    folded,
    on_map_cell,
    own_maneuver_modifiers,
    roll_totals,
    side_of,
)
from domain.rulesets.iron_oak.movement import (
    can_move,
    check_hazards,
)
from domain.rulesets.iron_oak.state import (
    IronOakState,
    ShipState,
)
from domain.words import possessive

# IO-6.3.12: Ram critical, −5 to ram resolution
RAM_CRITICAL = -5

SPAR_CRITICAL = "spar_torpedo"  # IO-5.6.2 / IO-6.3.14

RAM_CRITICAL_NAME = "ram"  # IO-5.6.3 / IO-6.3.12


def check_ram(
    state: IronOakState,
    ship: str,
    target: str,
    spar: bool,
    ram: bool,
    attacked_last_turn: Collection[str] = frozenset(),
) -> None:
    """Refuse an illegal ram/spar order with its rule (IO-5.6).

    "Started the Order Phase in the enemy's GB" is taken as: in the same GB now.
    ``attacked_last_turn`` holds the targets this ship rammed or spar-attacked last turn
    (IO-5.6.5); the caller tracks it. A Ram critical does not bar a ram: it is −5 to the ram roll
    (IO-6.3.12). A Spar critical bars a spar attack (IO-6.3.14), except on a card with
    ``spar_reattack`` (IO-1.0.1.1 J: only USS Spuyten Duyvil may attack with its spar again).
    [AMBIG] The marker does not tell the Spar critical a spar attack leaves (IO-5.6.2) from one
    rolled on the Critical Hit Table; ``spar_reattack`` ignores both.

    Raises:
        IllegalCommand: IO-5.6 (no attack declared, not an enemy in the same GB); IO-4.0 (the
            ship cannot move: anchored, aground, fouled, unpowered, towed); IO-5.6.2 (no spar
            torpedo); IO-6.3.14 (spar torpedo destroyed, unless ``spar_reattack``); IO-5.6.3
            (no ram, or the target's card has no WL); IO-5.5.2 (the ship crossed the target's
            stern); IO-6.3.13 (Rudder); IO-6.3.17 (Steering); IO-5.6.5 (attacked the same
            target last turn).
    """
    if not (spar or ram):
        raise IllegalCommand(f"{ship} must declare a ram, a spar attack or both", rule="IO-5.6")
    s, _ = check_enemy_in_gb(state, ship, target, "IO-5.6")
    movable, reason = can_move(state, ship)
    if not movable:
        raise IllegalCommand(f"{ship} cannot move this turn ({reason})", rule="IO-4.0")
    card = state.card(ship)
    if spar and card.spar is None:
        raise IllegalCommand(f"{ship} has no spar torpedo", rule="IO-5.6.2")
    if spar and SPAR_CRITICAL in s.criticals and not card.spar_reattack:
        raise IllegalCommand(f"{possessive(ship)} spar torpedo is destroyed", rule="IO-6.3.14")
    if ram and card.ram is None:
        raise IllegalCommand(f"{ship} has no ram", rule="IO-5.6.3")
    if ram and state.card(target).location("WL") is None:
        raise IllegalCommand(f"{target} has no waterline to ram", rule="IO-5.6.3")
    if state.relation(target, ship) == "stern_on":
        raise IllegalCommand(
            f"{ship} crossed {possessive(target)} stern and may not ram or spar it", rule="IO-5.5.2"
        )
    check_helm(s, "ram or spar")
    if target in attacked_last_turn:
        raise IllegalCommand(f"{ship} rammed or spar-attacked {target} last turn", rule="IO-5.6.5")


def _wl_after(state: IronOakState, ship: ShipState, hits: int) -> int:
    floor = state.data.tables.damage_chart.shield_floor
    return max(floor, ship.shield("WL") - hits)


def _sank(state: IronOakState, ship: str) -> bool:
    return not state.ships[ship].afloat


def ram_spar(
    state: IronOakState,
    ship: str,
    target: str,
    spar: bool,
    ram: bool,
    dice: DiceSource,
    response: Sequence[Modifier] = (),
    *,
    attacked_last_turn: Collection[str] = frozenset(),
    opposed_by: str | None = None,
) -> list[DomainEvent]:
    """IO-5.6: a ram and/or spar attack, in the order of the rule. Dice drawn in this order:

    i) the attacker's hazards in its box (:func:`movement.check_hazards`); [AMBIG] a hazard that
       ends the move (grounding, fouling, a mine) ends the attack there;
    ii) contact (IO-5.6.1): the attacker's Movement Chart dice with its movement modifiers
       (no Opposed −1 when ``opposed_by`` is the target, IO-5.1.3) and +1 against a target
       Bow-on to it (IO-5.5.1), against the target's Movement Chart dice, or d10 −5 when it is
       anchored, aground or fouled; ``response`` modifies the target's roll in both cases
       [AMBIG]; both floored at 1 as movement rolls are. A strictly higher attacker succeeds;
    iii) spar (IO-5.6.2), before the ram: d10d8 vs d4; on success d8 Spar Torp → hits on the
       target and its WL shield to −4, then d8 Ship Spar → hits on the attacker, its WL shield
       grows by those hits, and it gets a Spar critical (named);
    iv) ram (IO-5.6.3), if both ships are still afloat: the ram dice (−5 with a Ram critical,
       IO-6.3.12 [AMBIG] placement) vs the target's WL defence dice modified by its WL shield
       damage [AMBIG: as a defence roll, IO-6.2.1; this is why the spar goes first], both
       floored at 1; hits by the difference, ⌊attack / 2⌋ (min 1) each on a tie; WL shields grow
       by the hits (to −4); then, if the attacker is afloat, the ram check d10d8 vs d8, failure
       names a Ram critical;
    v) fouling (IO-5.6.4), if contact succeeded and neither ship sank: d10d8 vs d8 after a ram,
       d6 for a spar alone; failure fouls both ships (and ends any T between them, IO-5.5.3);
    vi) aftermath (IO-5.6.5), if contact succeeded and both ships are afloat: the attacker is
       Bow-on to the target for gunnery (``IronOakState.combat_relation``; a crossed T of
       either ship is left as it is). The "no ram or spar of this target next turn" bar, the
       Point Blank range and the aftermath's end are the caller's to track.

    Raises:
        IllegalCommand: see :func:`check_ram`.
    """
    check_ram(state, ship, target, spar, ram, attacked_last_turn)
    a, t = state.ships[ship], state.ships[target]
    cell = on_map_cell(a, "IO-5.6")
    side, opponent = side_of(a), side_of(t)
    table = state.data.tables
    events: list[DomainEvent] = list(check_hazards(state, ship, cell, dice))
    now = folded(state, events)
    if _sank(now, ship) or any(isinstance(e, HazardChecked) and e.ends_move for e in events):
        return events

    # ii) contact
    mods = own_maneuver_modifiers(now, ship, cell, opposed_by, target)
    if now.relation(target, ship) == "bow_on":
        mods.append(
            Modifier(table.modifiers.bow_on_ram_spar, "IO-5.5.1", f"{target} is Bow-on to {ship}")
        )
    t = now.ships[target]
    immobile = t.anchored or t.aground or bool(t.fouled_with)
    target_mods = list(response)
    if immobile:
        target_dice = table.ram_spar.immobile_target_contact
        target_mods.insert(
            0,
            Modifier(
                table.ram_spar.immobile_target_modifier,
                "IO-5.6.1",
                f"{target} is anchored, aground or fouled",
            ),
        )
    else:
        target_dice = now.card(target).movement_dice(t.hits)
    contact = opposed_roll(
        dice,
        actor=now.card(ship).movement_dice(now.ships[ship].hits),
        opponent=target_dice,
        side=side,
        opponent_side=opponent,
        purpose="ram/spar contact",
        rule="IO-5.6.1",
        subject=ship,
        target_unit=target,
        actor_modifiers=[m for m in mods if m.value != 0],
        opponent_modifiers=target_mods,
        floor=1,
    )
    touched = bool(contact.success)
    events += [
        contact,
        ContactRolled(ship=ship, target=target, success=touched, immobile_target=immobile),
    ]
    if not touched:
        return events

    # iii) spar, before the ram
    if spar:
        detonation = opposed_roll(
            dice,
            actor=table.ram_spar.spar.roll,
            opponent=table.ram_spar.spar.against,
            side=side,
            opponent_side=opponent,
            purpose="spar detonation",
            rule="IO-5.6.2",
            subject=ship,
            target_unit=target,
        )
        events.append(detonation)
        if detonation.success:
            torpedo = table.torpedo
            on_target = movement.torpedo_damage(
                dice,
                torpedo.spar_torp,
                side=side,
                purpose="spar torpedo damage",
                rule="IO-5.6.2",
                subject=ship,
                target_unit=target,
            )
            on_self = movement.torpedo_damage(
                dice,
                torpedo.ship_spar,
                side=opponent,
                purpose="ship spar damage",
                rule="IO-5.6.2",
                subject=ship,
                target_unit=ship,
            )
            self_hits = int(on_self.value)
            events += [
                on_target,
                on_self,
                SparResolved(
                    ship=ship,
                    target=target,
                    detonated=True,
                    target_hits=int(on_target.value),
                    attacker_hits=self_hits,
                    target_wl_after=table.damage_chart.shield_floor,
                    attacker_wl_after=_wl_after(now, now.ships[ship], self_hits),
                    critical=SPAR_CRITICAL,
                ),
            ]
        else:
            events.append(SparResolved(ship=ship, target=target, detonated=False))
        now = folded(state, events)

    # iv) ram
    if ram and not _sank(now, ship) and not _sank(now, target):
        events += _ram(now, ship, target, dice)
        now = folded(state, events)

    if _sank(now, ship) or _sank(now, target):
        return events

    # v) fouling
    check = table.ram_spar.fouling_after_ram if ram else table.ram_spar.fouling_spar_only
    fouling = opposed_roll(
        dice,
        actor=check.roll,
        opponent=check.against,
        side=side,
        opponent_side=opponent,
        purpose="fouling",
        rule="IO-5.6.4",
        subject=ship,
        target_unit=target,
    )
    events.append(fouling)
    if not fouling.success:
        events.append(ShipsFouled(ship=ship, target=target))

    # vi) aftermath
    events.append(RamAftermath(ship=ship, target=target))
    return events


def _ram(state: IronOakState, ship: str, target: str, dice: DiceSource) -> list[DomainEvent]:
    a, t = state.ships[ship], state.ships[target]
    ram_dice = state.card(ship).ram
    wl = state.card(target).location("WL")
    assert ram_dice is not None and wl is not None  # check_ram refused otherwise
    attack_mods = (
        [Modifier(RAM_CRITICAL, "IO-6.3.12", "Ram critical")]
        if RAM_CRITICAL_NAME in a.criticals
        else []
    )
    shield = t.shield("WL")
    defence_mods = [Modifier(shield, "IO-6.2.1", "WL shield damage")] if shield else []
    roll = opposed_roll(
        dice,
        actor=ram_dice,
        opponent=wl.defence,
        side=side_of(a),
        opponent_side=side_of(t),
        purpose="ram",
        rule="IO-5.6.3",
        subject=ship,
        target_unit=target,
        actor_modifiers=attack_mods,
        opponent_modifiers=defence_mods,
        floor=1,
    )
    attack, defence = roll_totals(roll)
    diff = attack - defence
    if diff > 0:
        target_hits, attacker_hits = diff, 0
    elif diff < 0:
        target_hits, attacker_hits = 0, -diff
    else:
        target_hits = attacker_hits = max(1, attack // 2)
    events: list[DomainEvent] = [roll]
    attacker_sinks = a.hits + attacker_hits >= state.card(ship).hit_value
    passed: bool | None = None
    critical: str | None = None
    if not attacker_sinks:
        check = state.data.tables.ram_spar.ram_check
        ram_check = opposed_roll(
            dice,
            actor=check.roll,
            opponent=check.against,
            side=side_of(a),
            opponent_side=side_of(t),
            purpose="ram check",
            rule="IO-5.6.3",
            subject=ship,
        )
        events.append(ram_check)
        passed = bool(ram_check.success)
        critical = None if passed else RAM_CRITICAL_NAME
    events.append(
        RamResolved(
            ship=ship,
            target=target,
            attack=attack,
            defence=defence,
            diff=diff,
            target_hits=target_hits,
            attacker_hits=attacker_hits,
            target_wl_after=_wl_after(state, t, target_hits),
            attacker_wl_after=_wl_after(state, a, attacker_hits),
            ram_check_passed=passed,
            critical=critical,
        )
    )
    return events
