"""Pass tokens (SWA-PASS, Rules Reference 1.6 "Pass Tokens" and "Ship Phase"), an option.

Not in the Learn to Play booklet, so off by default (``pass_tokens`` ``off``); with ``rrg_1_6``:

* **Gaining** (before deployment): the player with fewer ships gains as many pass tokens as the
  difference; one fewer if that player is the first player (:func:`starting_tokens`).
* **Spending** (``pass_turn``): on its turn in the Ship Phase, instead of activating, a player
  with unactivated ships may spend one to pass; the turn goes to the opponent. Only when: the
  first player has activated at least one ship this phase and has fewer unactivated ships than
  the second player; the second player has no more unactivated ships than the first; and not
  on two consecutive turns of the same Ship Phase (:func:`check_pass`).

A player with no unactivated ship passes without a token, as before (:mod:`.rules`).
"""

from __future__ import annotations

from domain.errors import IllegalCommand
from domain.events import DomainEvent
from domain.frozen import changed
from domain.rulesets.armada.commands import PassTurn
from domain.rulesets.armada.events import DialRevealed, PhaseBegan, TurnPassed
from domain.rulesets.armada.scenario import Scenario
from domain.rulesets.armada.sequence import acting_side
from domain.rulesets.armada.state import ArmadaState

RULE = "SWA-PASS"


def starting_tokens(scenario: Scenario, enabled: bool) -> dict[str, int]:
    """Pass tokens each side starts with (none when the option is off)."""
    if not enabled:
        return {}
    counts = {side: 0 for side in scenario.side_ids}
    for ship in scenario.ships:
        counts[ship.side] += 1
    tokens: dict[str, int] = {}
    for side in scenario.side_ids:
        other = scenario.other(side)
        gain = counts[other] - counts[side]
        if side == scenario.first_player:
            gain -= 1
        if gain > 0:
            tokens[side] = gain
    return tokens


def _unactivated(state: ArmadaState, side: str) -> int:
    return sum(1 for s in state.ships_of(side) if not s.activated)


def check_pass(state: ArmadaState, side: str | None) -> str:
    """The side passing, if it may spend a pass token now.

    Raises:
        NotYourTurn / WrongPhase: not its turn in the Ship Phase.
        IllegalCommand: the option is off, no token left, a ship is activating, no unactivated
            ship (it passes without a token), the RRG conditions, or two passes in a row
            (rule SWA-PASS).
    """
    acting = acting_side(state, side, "ship", RULE)
    if state.options.pass_tokens == "off":
        raise IllegalCommand(
            "this game is played without pass tokens (option pass_tokens=off)", rule=RULE
        )
    if state.activation is not None or state.squadron_activation is not None:
        raise IllegalCommand("a ship is activating: finish its activation first", rule=RULE)
    if state.pass_tokens.get(acting, 0) <= 0:
        raise IllegalCommand(f"{acting} has no pass token left", rule=RULE)
    mine = _unactivated(state, acting)
    theirs = _unactivated(state, state.other(acting))
    if mine == 0:
        raise IllegalCommand(f"{acting} has no unactivated ship: its turn passes anyway", rule=RULE)
    if acting == state.first_player:
        activated = any(s.activated for s in state.ships_of(acting))
        if not activated or mine >= theirs:
            raise IllegalCommand(
                "the first player may pass only after activating a ship this phase and with "
                f"fewer unactivated ships than the second player ({mine} against {theirs})",
                rule=RULE,
            )
    elif mine > theirs:
        raise IllegalCommand(
            "the second player may pass only with no more unactivated ships than the first "
            f"player ({mine} against {theirs})",
            rule=RULE,
        )
    if state.passed_last == acting:
        raise IllegalCommand(
            f"{acting} passed its last turn: no pass token on consecutive turns", rule=RULE
        )
    return acting


def decide_pass(state: ArmadaState, side: str | None, command: PassTurn) -> list[DomainEvent]:
    """SWA-PASS: spend a pass token instead of activating a ship."""
    acting = check_pass(state, side)
    return [TurnPassed(side=acting, tokens_left=state.pass_tokens[acting] - 1)]


def may_pass(state: ArmadaState, side: str) -> bool:
    try:
        check_pass(state, side)
    except IllegalCommand:
        return False
    except Exception:
        return False
    return True


HANDLES: tuple[type[DomainEvent], ...] = (TurnPassed, DialRevealed, PhaseBegan)
"""The events :func:`apply` changes the state for (it returns any other unchanged);
``rules.evolve`` hands this module only these."""


def apply(state: ArmadaState, event: DomainEvent) -> ArmadaState:
    if isinstance(event, TurnPassed):
        tokens = {**state.pass_tokens, event.side: event.tokens_left}
        return changed(state, pass_tokens=tokens, passed_last=event.side, active=None)
    if isinstance(event, DialRevealed) and state.passed_last == state.ships[event.ship].side:
        return changed(state, passed_last=None)
    if isinstance(event, PhaseBegan) and state.passed_last is not None:
        return changed(state, passed_last=None)
    return state
