"""Commands (SWA-R3) resolved from a dial or a token: spending them, Squadron and Repair.

A ship resolves a command by spending the revealed dial, a token of the same command, or both
together as one resolution, and resolves each command at most once per round. Squadron and
Repair resolve after the reveal, before the attack step; Navigate resolves in the maneuver
(:mod:`.maneuvering`); Concentrate Fire in an attack (INTEGRATION POINT: the attack pipeline
spends it with :func:`check_spend` and a ``CommandResolved`` event).

* **Squadron**: the dial activates up to the ship's squadron value of friendly squadrons at
  close–medium range, the token one (both: value + 1); each is chosen and activated in turn
  with ``activate_squadron`` (:mod:`.squadron_phase`).
* **Repair**: the dial gives engineering-value points, the token half of it rounded up (both:
  the sum). 1 point moves a shield from one hull zone to another, 2 recover a shield, 3 discard
  a damage card (face up or down); effects resolve one at a time and points left are lost.
"""

from __future__ import annotations

import math

from domain.errors import IllegalCommand
from domain.events import DomainEvent
from domain.frozen import changed
from domain.rulesets.armada.commands import Repair, SquadronCommand
from domain.rulesets.armada.damage import discard_cards, engineering_value, shields_locked
from domain.rulesets.armada.damage import face_up_effects as face_up_effects_of
from domain.rulesets.armada.damage_dealing import face_up_effects
from domain.rulesets.armada.events import (
    CommandResolved,
    DamageCardDiscarded,
    ShieldsRepaired,
)
from domain.rulesets.armada.ship_phase import activating
from domain.rulesets.armada.state import ArmadaState, CommandName, DamageCardState, with_ship
from domain.words import possessive

RULE = "SWA-R3"
COSTS = {"move_shield": 1, "recover_shield": 2, "discard_damage": 3}


def check_spend(
    state: ArmadaState, ship_id: str, command: CommandName, dial: bool, token: bool
) -> None:
    """Whether the ship may resolve ``command`` now with the dial and/or a token.

    Raises:
        IllegalCommand: neither is spent, the command was resolved this round, the revealed
            dial is not that command (or was spent), or the ship holds no such token.
    """
    ship = state.ships[ship_id]
    if not dial and not token:
        raise IllegalCommand(f"spend the {command} dial, a token, or both", rule=RULE)
    if command in ship.resolved:
        raise IllegalCommand(f"{ship_id} has resolved the {command} command this round", rule=RULE)
    if dial:
        activation = state.activation
        shown = activation.dial if activation is not None else None
        if shown != command:
            what = f"its dial is {shown}" if shown else "it has no unspent dial"
            raise IllegalCommand(f"{ship_id} cannot spend a {command} dial: {what}", rule=RULE)
    if token and command not in ship.tokens:
        raise IllegalCommand(f"{ship_id} holds no {command} token", rule=RULE)


def _reveal_step(state: ArmadaState, ship_id: str, command: str) -> None:
    activation = state.activation
    assert activation is not None
    if activation.step != "reveal":
        raise IllegalCommand(
            f"the {command} command resolves after the reveal, before the attack step",
            rule=RULE,
        )


def decide_squadron(
    state: ArmadaState, side: str | None, command: SquadronCommand
) -> list[DomainEvent]:
    """SWA-R3 Squadron: how many squadrons the ship may activate now.

    Raises:
        IllegalCommand: see :func:`check_spend`; or after the attack step began.
    """
    activating(state, side, command.ship, RULE)
    _reveal_step(state, command.ship, "squadron")
    check_spend(state, command.ship, "squadron", command.dial, command.token)
    amount = state.card(command.ship).squadron * command.dial + int(command.token)
    return [
        CommandResolved(
            ship=command.ship,
            command="squadron",
            dial=command.dial,
            token=command.token,
            amount=amount,
        )
    ]


def repair_points(state: ArmadaState, ship_id: str, dial: bool, token: bool) -> int:
    """Engineering points of a Repair command: the value for the dial, half of it rounded up
    for the token (SWA-R3)."""
    value = engineering_value(state.card(ship_id).engineering, face_up_effects(state, ship_id))
    return value * dial + math.ceil(value / 2) * token


def decide_repair(state: ArmadaState, side: str | None, command: Repair) -> list[DomainEvent]:
    """SWA-R3 Repair: spend the points on the effects, one at a time.

    Raises:
        IllegalCommand: see :func:`check_spend`; after the attack step began; an effect the
            points do not cover, a shield to move or recover that is not there or has no room,
            or a damage card the ship does not have.
    """
    ship = activating(state, side, command.ship, RULE)
    _reveal_step(state, command.ship, "repair")
    check_spend(state, command.ship, "repair", command.dial, command.token)
    points = repair_points(state, command.ship, command.dial, command.token)
    events: list[DomainEvent] = [
        CommandResolved(
            ship=ship.id, command="repair", dial=command.dial, token=command.token, amount=points
        )
    ]
    maximum = state.card(ship.id).shields
    shields = dict(ship.shields)
    damage = list(ship.damage)
    left = points
    for n, effect in enumerate(command.effects, start=1):
        cost = COSTS[effect.effect]
        if cost > left:
            raise IllegalCommand(
                f"repair effect {n} ({effect.effect}) costs {cost} point(s); {left} left of "
                f"{points}",
                rule=RULE,
            )
        left -= cost
        if effect.effect == "discard_damage":
            if effect.card is None or not 0 <= effect.card < len(damage):
                raise IllegalCommand(
                    f"repair effect {n}: {ship.id} has no damage card {effect.card} "
                    f"(it has {len(damage)})",
                    rule=RULE,
                )
            card = damage.pop(effect.card)
            events.append(
                DamageCardDiscarded(
                    ship=ship.id,
                    index=effect.card,
                    card=card.card,
                    face_up=card.face_up,
                    points=cost,
                )
            )
            continue
        zone = effect.zone
        if zone is None:
            raise IllegalCommand(f"repair effect {n}: name the hull zone", rule=RULE)
        if shields_locked(face_up_effects_of(damage, state.data.damage), shields[zone]):
            raise IllegalCommand(
                f"repair effect {n}: {possessive(ship.id)} {zone} zone has no shields and "
                "Capacitor "
                "Failure is face up: it can neither recover nor receive shields",
                rule="SWA-DMG",
            )
        if shields[zone] >= getattr(maximum, zone):
            raise IllegalCommand(
                f"repair effect {n}: {possessive(ship.id)} {zone} shields are at their maximum",
                rule=RULE,
            )
        source = effect.source if effect.effect == "move_shield" else None
        if effect.effect == "move_shield":
            if source is None or source == zone:
                raise IllegalCommand(
                    f"repair effect {n}: move a shield from another hull zone", rule=RULE
                )
            if shields[source] <= 0:
                raise IllegalCommand(
                    f"repair effect {n}: {possessive(ship.id)} {source} zone has no shield to move",
                    rule=RULE,
                )
            shields[source] -= 1
        shields[zone] += 1
        events.append(
            ShieldsRepaired(
                ship=ship.id, effect=effect.effect, zone=zone, source=source, points=cost
            )
        )
    return events


# --------------------------------------------------------------------------- evolve


HANDLES: tuple[type[DomainEvent], ...] = (CommandResolved, ShieldsRepaired, DamageCardDiscarded)
"""The events :func:`apply` changes the state for (it returns any other unchanged);
``rules.evolve`` hands this module only these."""


def apply(state: ArmadaState, event: DomainEvent) -> ArmadaState:
    if isinstance(event, CommandResolved):
        ship = state.ships[event.ship]
        tokens = list(ship.tokens)
        if event.token and event.command in tokens:
            tokens.remove(event.command)
        state = with_ship(
            state, event.ship, tokens=tuple(tokens), resolved=(*ship.resolved, event.command)
        )
        activation = state.activation
        if activation is not None and activation.ship == event.ship:
            if event.dial:
                activation = changed(activation, dial=None)
            if event.command == "squadron":
                activation = changed(activation, squadrons=event.amount)
            state = changed(state, activation=activation)
        return state
    if isinstance(event, ShieldsRepaired):
        shields = dict(state.ships[event.ship].shields)
        if event.source is not None:
            shields[event.source] -= 1
        shields[event.zone] += 1
        return with_ship(state, event.ship, shields=shields)
    if isinstance(event, DamageCardDiscarded):
        damage: list[DamageCardState] = list(state.ships[event.ship].damage)
        if 0 <= event.index < len(damage):
            damage.pop(event.index)
        state = with_ship(state, event.ship, damage=tuple(damage))
        return changed(state, deck=discard_cards(state.deck, [event.card]))
    return state
