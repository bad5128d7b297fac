"""The Status Phase (SWA-4): ready exhausted defence tokens, flip the initiative token.

It needs no decision: it resolves as soon as the Squadron Phase is over. Exhausted defence
tokens (ships and squadrons) are readied, discarded ones stay discarded; the first player flips
the initiative token, whose new face marks the squadrons that have not activated in the next
round (SWA-3.4). Ships' activation marks and the commands resolved this round are cleared for
the next round, which begins with its Command Phase (or the game ends after the last round,
:mod:`.scoring`).
"""

from __future__ import annotations

from domain.events import DomainEvent
from domain.frozen import changed
from domain.rulesets.armada import damage as dmg
from domain.rulesets.armada.damage import may_ready_defence_tokens
from domain.rulesets.armada.events import StatusResolved
from domain.rulesets.armada.state import (
    ArmadaState,
    DefenseTokenState,
    ShipState,
    SquadronState,
    flipped,
)


def _readied(tokens: tuple[DefenseTokenState, ...]) -> tuple[DefenseTokenState, ...]:
    return tuple(changed(t, state="ready") if t.state == "exhausted" else t for t in tokens)


def _may_ready(state: ArmadaState, unit: ShipState | SquadronState) -> bool:
    """Compartment Fire (SWA-DMG): a ship with it face up readies no defence tokens."""
    if isinstance(unit, SquadronState):
        return True
    return may_ready_defence_tokens(dmg.face_up_effects(unit.damage, state.data.damage))


def resolve(state: ArmadaState) -> StatusResolved:
    """SWA-4 for the current round: how many tokens each unit readies and the token's face."""
    readied: dict[str, int] = {}
    units: list[ShipState | SquadronState] = [*state.ships.values(), *state.squadrons.values()]
    for unit in units:
        count = sum(1 for t in unit.defense if t.state == "exhausted")
        if count and unit.in_play and _may_ready(state, unit):
            readied[unit.id] = count
    return StatusResolved(round=state.round, readied=readied, initiative=flipped(state.initiative))


HANDLES: tuple[type[DomainEvent], ...] = (StatusResolved,)
"""The events :func:`apply` changes the state for (it returns any other unchanged);
``rules.evolve`` hands this module only these."""


def apply(state: ArmadaState, event: DomainEvent) -> ArmadaState:
    if isinstance(event, StatusResolved):
        ships = {
            sid: changed(
                s,
                defense=_readied(s.defense) if sid in event.readied else s.defense,
                activated=False,
                resolved=(),
            )
            for sid, s in state.ships.items()
        }
        squadrons = {
            sid: changed(s, defense=_readied(s.defense)) if sid in event.readied else s
            for sid, s in state.squadrons.items()
        }
        return changed(state, ships=ships, squadrons=squadrons, initiative=event.initiative)
    return state
