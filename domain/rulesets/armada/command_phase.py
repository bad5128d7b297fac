"""The Command Phase (SWA-R2): secret command dials, sealed with ``domain.sealed``.

Both players, secretly and simultaneously, choose a command on each new dial and put it face
down at the bottom of the ship's stack, until every ship holds dials equal to its command value
(in round 1 a ship gets that many at once; later, one a round replaces the one it revealed). A
dial is a commitment to ``{"ship", "slot", "command"}`` — ``slot`` numbers the ship's dials over
the game — so the log shows that a dial was set, never which command, until the ship reveals it
at its activation with the salt (:mod:`.ship_phase`). The stack's order is fixed: only the top
dial can be revealed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

from domain.errors import IllegalCommand, InvalidCommand, WrongSide
from domain.events import DomainEvent
from domain.frozen import changed
from domain.reveals import SealedCommit, SealedItem, SealedReveal
from domain.rulesets.armada.commands import SetDials
from domain.rulesets.armada.events import DialRevealed, DialsAssigned
from domain.rulesets.armada.sequence import acting_side
from domain.rulesets.armada.state import ArmadaState, CommandName, Dial, with_ship
from domain.sealed import Commitment, seal

RULE = "SWA-R2"


def dial_content(ship: str, slot: int, command: CommandName) -> dict[str, str | int]:
    """What a command dial's seal commits to (``domain.sealed.seal(content, salt)``)."""
    return {"ship": ship, "slot": slot, "command": command}


def bot_salt(state: ArmadaState, ship: str, slot: int) -> str:
    """The salt of a computer player's dial: reproducible from the game's seed (or id)."""
    return hashlib.sha256(f"wake-swa-dial:{state.salt_base}:{ship}:{slot}".encode()).hexdigest()


def seal_dials(state: ArmadaState, plan: Mapping[str, Sequence[CommandName]]) -> SetDials:
    """The ``set_dials`` order sealing ``plan`` (ship -> its new dials' commands, the first
    placed first) with :func:`bot_salt`: the bot's own dials, and a player's chosen at a
    scribe's table from the state carrying that player's secret."""
    dials: dict[str, list[str]] = {}
    for ship_id, commands in plan.items():
        digests = []
        for slot, command in enumerate(commands, start=state.ships[ship_id].next_slot):
            content = dial_content(ship_id, slot, command)
            digests.append(seal(content, bot_salt(state, ship_id, slot)).digest)
        dials[ship_id] = digests
    return SetDials(dials=dials)


def dials_needed(state: ArmadaState, side: str) -> dict[str, int]:
    """Ship -> how many dials it lacks to hold its command value (SWA-R2)."""
    needed: dict[str, int] = {}
    for ship in state.ships_of(side):
        lacking = state.card(ship.id).command - len(ship.dials)
        if lacking > 0:
            needed[ship.id] = lacking
    return needed


def _owner(state: ArmadaState, command: SetDials) -> str | None:
    owners = {state.ships[s].side for s in command.dials if s in state.ships}
    return owners.pop() if len(owners) == 1 else None


def decide(state: ArmadaState, side: str | None, command: SetDials) -> list[DomainEvent]:
    """SWA-R2: the side's new dials under each ship's stack, as many as each ship lacks.

    Raises:
        InvalidCommand: an unknown ship or a digest that is not a commitment.
        WrongSide: another side's ship.
        IllegalCommand: a ship missing or given the wrong number of dials.
    """
    acting = acting_side(
        state, side if side is not None else _owner(state, command), "command", RULE
    )
    for ship_id, digests in command.dials.items():
        ship = state.ships.get(ship_id)
        if ship is None:
            raise InvalidCommand(f"no ship {ship_id!r}")
        if ship.side != acting:
            raise WrongSide(f"{ship_id} is a {ship.side} ship", rule=RULE)
        for digest in digests:
            try:
                Commitment(digest=digest)
            except ValueError:
                raise InvalidCommand(
                    f"{ship_id}: {digest[:16]!r} is not a sealed dial (a sha256 digest)",
                    rule=RULE,
                ) from None
    needed = dials_needed(state, acting)
    given = {ship: len(d) for ship, d in command.dials.items() if d}
    if given != needed:
        wanted = ", ".join(f"{ship} {n}" for ship, n in needed.items()) or "none"
        raise IllegalCommand(
            f"each ship gets dials until it holds its command value: {wanted}", rule=RULE
        )
    first = {ship: state.ships[ship].next_slot for ship in needed}
    dials = {ship: list(command.dials[ship]) for ship in needed}
    return [DialsAssigned(side=acting, dials=dials, first_slot=first)]


def sealed_items(state: ArmadaState, event: DomainEvent) -> list[SealedItem]:
    """SWA-R2: the dials a ``DialsAssigned`` seals, each by ship and slot; SWA-2.1: the dial a
    ``DialRevealed`` turns up. A dial an opponent set openly (Comm Noise) was never sealed: it
    is revealed without a salt and opens nothing (the dial it replaced is never revealed)."""
    if isinstance(event, DialsAssigned):
        items: list[SealedItem] = []
        for ship_id, digests in event.dials.items():
            ship = state.ships.get(ship_id)
            first = event.first_slot.get(ship_id, ship.next_slot if ship else 0)
            items += [
                SealedCommit(digest, f"{ship_id} dial {first + i} (round {state.round})")
                for i, digest in enumerate(digests)
            ]
        return items
    if isinstance(event, DialRevealed) and event.salt:
        content = dial_content(event.ship, event.slot, event.command)
        return [SealedReveal(content, event.salt, event.command)]
    return []


HANDLES: tuple[type[DomainEvent], ...] = (DialsAssigned,)
"""The events :func:`apply` changes the state for (it returns any other unchanged);
``rules.evolve`` hands this module only these."""


def apply(state: ArmadaState, event: DomainEvent) -> ArmadaState:
    if isinstance(event, DialsAssigned):
        for ship_id, digests in event.dials.items():
            ship = state.ships[ship_id]
            first = event.first_slot.get(ship_id, ship.next_slot)
            new = tuple(
                Dial(slot=first + i, round=state.round, digest=d) for i, d in enumerate(digests)
            )
            state = with_ship(state, ship_id, dials=(*ship.dials, *new), next_slot=first + len(new))
        return changed(state, dials_set=(*state.dials_set, event.side))
    return state
