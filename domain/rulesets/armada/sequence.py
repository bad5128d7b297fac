"""Whose decision it is (SWA-R1, SWA-2, SWA-3, SWA-R2, SWA-SETUP, SWA-OVL) and the check every
order goes through first.

* Setup: the side whose deployment turn it is.
* Command Phase: both sides, secretly and simultaneously, until each has set its dials.
* Ship Phase: the side whose turn it is to activate a ship — or, while squadrons a ship
  overlapped wait to be placed, the player not moving that ship; while a debris field or a
  station under a ship waits for its owner's choice, the owner.
* Squadron Phase: the side activating squadrons this turn.
* Inside an attack (SWA-ATK): the side its next decision belongs to (:func:`.attack.actor`);
  a face-up damage card dealt outside an attack that waits for a choice: its chooser.
* The Status Phase resolves on its own; nobody acts after the game is over.
"""

from __future__ import annotations

from domain.errors import GameOver, NotYourTurn, WrongPhase
from domain.rulesets.armada.attack import actor
from domain.rulesets.armada.damage import chooser
from domain.rulesets.armada.damage_dealing import hull_of
from domain.rulesets.armada.state import ArmadaState, Phase
from domain.words import possessive


def _dealing_chooser(state: ArmadaState) -> str | None:
    for dealing in state.dealings:
        if dealing.pending is not None:
            return chooser(hull_of(state, dealing.ship), dealing)
    return None


def to_act(state: ArmadaState) -> list[str]:
    """The sides expected to give the next order."""
    if state.phase == "over" or state.result is not None:
        return []
    if state.attack is not None:
        who = actor(state.attack)
        return [who] if who is not None else []
    if state.dealings:
        return [side for side in (_dealing_chooser(state),) if side is not None]
    if state.obstacle_choice is not None:
        return [state.obstacle_choice.chooser]
    if state.phase == "command":
        return [s for s in state.scenario.side_ids if s not in state.dials_set]
    if state.displaced is not None:
        return [state.displaced.placer]
    return [state.active] if state.active is not None else []


def acting_side(state: ArmadaState, side: str | None, phase: Phase, rule: str) -> str:
    """The side an order is given for: ``side``, or (``None``, the umpire) the side to act.

    Raises:
        GameOver: the game has ended.
        WrongPhase: the order belongs to ``phase`` and it is another phase.
        NotYourTurn: ``side`` is not to act now.
    """
    if state.phase == "over":
        raise GameOver("the game has ended", rule="SWA-5")
    if state.phase != phase:
        raise WrongPhase(
            f"this order belongs to the {phase} phase; it is the {state.phase} phase of "
            f"round {state.round}",
            rule=rule,
        )
    expected = to_act(state)
    if side is None:
        if len(expected) != 1:
            raise NotYourTurn("name the side giving this order", rule=rule)
        return expected[0]
    if side not in expected:
        who = " and ".join(expected) or "nobody"
        raise NotYourTurn(f"it is {possessive(who)} decision, not {possessive(side)}", rule=rule)
    return side
