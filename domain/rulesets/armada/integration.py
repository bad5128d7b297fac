"""INTEGRATION POINT: where the attack pipeline, defence tokens and damage deck (``attack.py``,
``defence.py``, ``damage.py``, built in another slice) plug into the phases.

The phases call these functions and nothing else of that slice; each has a placeholder body so
the game runs without attacks (games then go the six rounds: 0–0, a tie, the second player
wins). Wiring the pipeline in means replacing the bodies here:

* :data:`EVENTS` — the pipeline's event classes, registered with the ruleset's;
* :func:`apply` — evolve for those events (mark attacks made with
  :func:`.ship_phase.mark_ship_attack` / :func:`.squadron_phase.mark_squadron_attack`, which
  also opens the ship's attack step);
* :func:`decide` — decide one of the pipeline's orders (its command models join
  :data:`.commands.ArmadaCommand`); None when the order is not one of its own;
* :func:`commands` / :func:`bot_command` — legal attack orders and the bot's choice now
  (the Ship Phase's attack step, an attacking squadron, an attack in progress);
* :func:`squadron_can_attack` — whether an activating squadron has a legal attack (an
  activation with nothing left to do ends at once);
* :func:`deal_damage_cards` / :func:`suffer_damage` — damage outside attacks: overlapping
  ships (one face-down card each), asteroid fields (one face-up card), debris fields (two
  damage on one hull zone), SWA-OVL.

Checks the pipeline needs from the phases: :func:`.ship_phase.check_ship_attack` (SWA-2.2: the
activating ship's attack step, not a skipped round, at most two attacks from different zones),
:func:`.squadron_phase.check_squadron_attack` and :func:`.squadron_phase.engaged_with`
(SWA-3.2, SWA-3.3); Concentrate Fire is spent with :func:`.ship_commands.check_spend` and a
``CommandResolved`` event (the kept dial is ``state.activation.dial``).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from domain.dice import DiceSource
from domain.events import DomainEvent, EventRegistry
from domain.rulesets.armada.geometry import Zone
from domain.rulesets.armada.state import ArmadaState

EVENTS = EventRegistry()
"""The pipeline's events (none yet)."""


def apply(state: ArmadaState, event: DomainEvent) -> ArmadaState:
    """Evolve for the pipeline's events (none yet: every event passes through unchanged)."""
    return state


def decide(
    state: ArmadaState, side: str | None, command: Any, dice: DiceSource
) -> list[DomainEvent] | None:
    """Decide one of the pipeline's orders; None: ``command`` is not one of them (none yet)."""
    return None


def commands(state: ArmadaState, side: str | None) -> list[BaseModel]:
    """The pipeline's legal orders for ``side`` now (none yet)."""
    return []


def bot_command(state: ArmadaState, side: str | None) -> BaseModel | None:
    """The bot's attack order for ``side`` now, or None to go on without attacking."""
    return None


def squadron_can_attack(state: ArmadaState, squadron: str) -> bool:
    """Whether the activating ``squadron`` has a target it may attack now (False: no attacks)."""
    return False


def deal_damage_cards(
    state: ArmadaState, ship: str, count: int, *, face_up: bool, rule: str, dice: DiceSource
) -> list[DomainEvent]:
    """Deal ``count`` damage cards to ``ship`` from the damage deck (the first face up when
    ``face_up``), with the events of the deck (draws, reshuffles, a ship destroyed at damage
    cards ≥ hull). Placeholder: no card is dealt until ``damage.py`` lands."""
    return []


def suffer_damage(
    state: ArmadaState, ship: str, amount: int, zone: Zone, *, rule: str, dice: DiceSource
) -> list[DomainEvent]:
    """``ship`` suffers ``amount`` damage on ``zone`` (shields first, then face-down damage
    cards). Placeholder: nothing happens until ``damage.py`` lands."""
    return []
