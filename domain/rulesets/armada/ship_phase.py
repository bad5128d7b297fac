"""The Ship Phase (SWA-2): activations, reveal, commands, the attack step's seam, the maneuver.

Starting with the first player the sides take turns activating one ship each; a side with no
unactivated ship passes (:func:`can_activate`, the turns in :mod:`.rules`). An activation:

1. **Reveal** (SWA-2.1): the ship's top dial is opened (its slot, command and salt must match
   the seal; only the top dial can be revealed, SWA-R2). The dial is kept to resolve its full
   effect later, or spent at once for its command token (caps: a second token of a kind is
   discarded, and beyond the command value one token is discarded, SWA-R3).
2. **Squadron and Repair** (SWA-R3) resolve after the reveal (:mod:`.ship_commands`).
3. **Attack** (SWA-2.2): INTEGRATION POINT — up to two attacks from different hull zones,
   skipped in rounds the scenario lists (round 1 of the learning scenario); the attack pipeline
   checks with :func:`check_ship_attack` and records attacks with :func:`mark_ship_attack`.
4. **Maneuver** (SWA-2.3, mandatory, :mod:`.maneuvering`): it ends the activation, unless
   squadrons the ship overlapped wait to be placed by the opponent (SWA-OVL).

An unspent dial is discarded when the activation ends; a face-up dial marks the ship as
activated this round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from domain.dice import DiceSource
from domain.errors import IllegalCommand, InvalidCommand, WrongSide
from domain.events import DomainEvent
from domain.frozen import changed
from domain.rulesets.armada.command_phase import dial_content
from domain.rulesets.armada.commands import RevealDial
from domain.rulesets.armada.damage import may_hold_command_tokens, must_panic_before_reveal
from domain.rulesets.armada.damage_dealing import face_up_effects, strongest_zone, suffer_damage
from domain.rulesets.armada.events import (
    ActivationEnded,
    DialDiscarded,
    DialRevealed,
    TokenGained,
)
from domain.rulesets.armada.geometry import Zone
from domain.rulesets.armada.sequence import acting_side
from domain.rulesets.armada.state import (
    Activation,
    ArmadaState,
    CommandName,
    Dial,
    RevealedDial,
    ShipState,
    with_ship,
)
from domain.sealed import Commitment, verify_reveal
from domain.words import possessive

RULE = "SWA-2"
Fold = Callable[[ArmadaState, Sequence[DomainEvent]], ArmadaState]


def can_activate(state: ArmadaState, side: str) -> bool:
    """Whether ``side`` has a ship in play that has not activated this round (SWA-2)."""
    return any(not s.activated for s in state.ships_of(side))


def activating(state: ArmadaState, side: str | None, ship_id: str, rule: str) -> ShipState:
    """The activating ship, for an order given during its activation.

    Raises:
        NotYourTurn / WrongPhase: not ``side``'s turn in the Ship Phase.
        IllegalCommand: ``ship_id`` is not the activating ship, or it waits for something else
            (an open squadron activation, an attack in progress, squadrons to place).
    """
    acting = acting_side(state, side, "ship", rule)
    activation = state.activation
    if activation is None:
        raise IllegalCommand(
            f"no ship is activating: {acting} first reveals a ship's top dial", rule="SWA-2"
        )
    if activation.ship != ship_id:
        raise IllegalCommand(f"{activation.ship} is activating, not {ship_id}", rule=rule)
    if state.squadron_activation is not None:
        raise IllegalCommand(
            f"squadron {state.squadron_activation.squadron} is activating: end its activation "
            "first",
            rule="SWA-R3",
        )
    if state.attack is not None:
        raise IllegalCommand("an attack is in progress", rule="SWA-2.2")
    return state.ships[ship_id]


# --------------------------------------------------------------------------- reveal


def _tokens_after(
    state: ArmadaState, ship: ShipState, command: CommandName, discard: CommandName | None
) -> CommandName | None:
    """The token discarded when ``command``'s token is assigned (SWA-R3), or None: the new copy
    when the ship already has one like it; beyond the command value, ``discard`` (default: the
    new one).

    Raises:
        IllegalCommand: ``discard`` names a token the ship does not hold, or no token is
            discarded now.
    """
    if not may_hold_command_tokens(face_up_effects(state, ship.id)):
        forced: CommandName | None = command  # Life Support Failure (SWA-DMG)
    elif command in ship.tokens:
        forced = command
    elif len(ship.tokens) + 1 > state.card(ship.id).command:
        if discard is not None and discard not in (*ship.tokens, command):
            raise IllegalCommand(f"{ship.id} holds no {discard} token", rule="SWA-R3")
        return discard or command
    else:
        forced = None
    if discard is not None and discard != forced:
        why = (
            f"it already holds a {command} token, so the new one is discarded"
            if forced
            else "it holds no more than its command value of tokens"
        )
        raise IllegalCommand(f"{ship.id} does not discard a {discard} token: {why}", rule="SWA-R3")
    return forced


def _check_content(ship_id: str, top: Dial, command: RevealDial) -> None:
    """The named command (and salt) must be the top dial's (SWA-R2)."""
    if command.command is None:
        raise IllegalCommand("name the dial's command (and its salt)", rule="SWA-R2")
    if top.command is not None:  # set openly by an opponent (Comm Noise)
        if command.command != top.command:
            raise IllegalCommand(
                f"{possessive(ship_id)} top dial was set to {top.command} (Comm Noise), not "
                f"{command.command}",
                rule="SWA-DMG",
            )
        return
    content = dial_content(ship_id, top.slot, command.command)
    if not verify_reveal(Commitment(digest=top.digest), content, command.salt):
        raise IllegalCommand(
            f"{command.command} with that salt is not the dial sealed at the top of "
            f"{possessive(ship_id)} stack",
            rule="SWA-R2",
        )


def decide_reveal(
    state: ArmadaState, side: str | None, command: RevealDial, dice: DiceSource, fold: Fold
) -> list[DomainEvent]:
    """SWA-2 / SWA-2.1: activate a ship by revealing its top dial.

    Raises:
        InvalidCommand: no such ship. WrongSide: another side's ship.
        IllegalCommand: a ship is already activating, this one has activated this round, the
            dial is not the top of its stack (SWA-R2), or the command and salt do not open
            its seal (SWA-R2).
    """
    acting = acting_side(state, side, "ship", RULE)
    if state.activation is not None:
        raise IllegalCommand(f"{state.activation.ship} is still activating", rule=RULE)
    ship = state.ships.get(command.ship)
    if ship is None:
        raise InvalidCommand(f"no ship {command.ship!r}")
    if ship.side != acting:
        raise WrongSide(f"{ship.id} is a {ship.side} ship", rule=RULE)
    if not ship.in_play:
        raise IllegalCommand(f"{ship.id} is not in play", rule=RULE)
    if ship.activated:
        raise IllegalCommand(f"{ship.id} has already activated this round", rule=RULE)
    if not ship.dials:
        raise IllegalCommand(f"{ship.id} has no command dial to reveal", rule="SWA-R2")
    top = ship.dials[0]
    if command.slot != top.slot:
        where = next((i for i, d in enumerate(ship.dials) if d.slot == command.slot), None)
        what = (
            f"dial {command.slot} is number {where + 1} in"
            if where is not None
            else f"dial {command.slot} is not in"
        )
        raise IllegalCommand(
            f"{what} {possessive(ship.id)} stack; only the top dial ({top.slot}) can be revealed",
            rule="SWA-R2",
        )
    effects = face_up_effects(state, ship.id)
    panicking = must_panic_before_reveal(effects)
    if command.panic is not None and not panicking:
        raise IllegalCommand(
            f"{ship.id} has no Crew Panic face up: reveal the dial", rule="SWA-DMG"
        )
    if panicking and command.panic is None:
        raise IllegalCommand(
            f"{ship.id} has Crew Panic face up: first choose `panic` (damage or discard)",
            rule="SWA-DMG",
        )
    events: list[DomainEvent] = []
    if command.panic == "discard":
        if command.to_token or command.discard_token is not None:
            raise IllegalCommand("a discarded dial gives no token", rule="SWA-DMG")
        return [DialDiscarded(ship=ship.id, slot=top.slot)]
    if command.panic == "damage":
        zone = command.panic_zone or strongest_zone(state, ship.id)
        events += suffer_damage(state, ship.id, 1, zone, rule="SWA-DMG", dice=dice)
        after = fold(state, events)
        if not after.ships[ship.id].in_play:
            return events
    _check_content(ship.id, top, command)
    assert command.command is not None
    events.append(
        DialRevealed(ship=ship.id, slot=top.slot, command=command.command, salt=command.salt)
    )
    if command.to_token:
        after = fold(state, events)
        discarded = _tokens_after(
            after, after.ships[ship.id], command.command, command.discard_token
        )
        events.append(TokenGained(ship=ship.id, command=command.command, discarded=discarded))
    elif command.discard_token is not None:
        raise IllegalCommand(
            "a token is discarded only when the dial is spent for one", rule="SWA-R3"
        )
    return events


# --------------------------------------------------------------------------- attack seam


def check_ship_attack(state: ArmadaState, side: str | None, ship_id: str, zone: Zone) -> None:
    """INTEGRATION POINT for the attack pipeline: may the activating ship attack from ``zone``
    now (SWA-2.2)?

    Raises:
        NotYourTurn / WrongPhase / IllegalCommand: not its activation, the attack step is
            skipped this round, two attacks made already, or one from ``zone`` already.
    """
    activating(state, side, ship_id, "SWA-2.2")
    activation = state.activation
    assert activation is not None
    if not state.attacks_allowed():
        raise IllegalCommand(
            f"both players skip the attack step in round {state.round} of this scenario",
            rule="SWA-2.2",
        )
    if len(activation.attacks) >= 2:
        raise IllegalCommand(f"{ship_id} has made its two attacks", rule="SWA-2.2")
    if zone in activation.attacks:
        raise IllegalCommand(
            f"{ship_id} has attacked from its {zone} hull zone; the second attack comes from "
            "another zone",
            rule="SWA-2.2",
        )


def mark_ship_attack(state: ArmadaState, zone: Zone) -> ArmadaState:
    """For the pipeline's evolve: the activating ship attacked from ``zone`` (its attack step
    has begun)."""
    activation = state.activation
    if activation is None:
        return state
    return changed(
        state, activation=changed(activation, step="attack", attacks=(*activation.attacks, zone))
    )


# --------------------------------------------------------------------------- evolve


HANDLES: tuple[type[DomainEvent], ...] = (DialRevealed, DialDiscarded, TokenGained, ActivationEnded)
"""The events :func:`apply` changes the state for (it returns any other unchanged);
``rules.evolve`` hands this module only these."""


def apply(state: ArmadaState, event: DomainEvent) -> ArmadaState:
    if isinstance(event, DialRevealed):
        ship = state.ships[event.ship]
        top = ship.dials[0]
        revealed = RevealedDial(slot=top.slot, round=top.round, command=event.command)
        state = with_ship(
            state, event.ship, dials=ship.dials[1:], revealed=(*ship.revealed, revealed)
        )
        activation = Activation(ship=event.ship, dial=event.command)
        return changed(state, activation=activation, last_attack=None, last_maneuver=None)
    if isinstance(event, DialDiscarded):
        ship = state.ships[event.ship]
        state = with_ship(state, event.ship, dials=ship.dials[1:])
        return changed(state, activation=Activation(ship=event.ship, dial=None))
    if isinstance(event, TokenGained):
        ship = state.ships[event.ship]
        tokens = [*ship.tokens, event.command]
        if event.discarded is not None:
            tokens.remove(event.discarded)
        state = with_ship(state, event.ship, tokens=tuple(tokens))
        if state.activation is not None:
            state = changed(state, activation=changed(state.activation, dial=None))
        return state
    if isinstance(event, ActivationEnded):
        state = with_ship(state, event.ship, activated=True)
        return changed(state, activation=None, displaced=None, active=None)
    return state
