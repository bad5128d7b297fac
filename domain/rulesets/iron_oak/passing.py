"""Iron & Oak's ``pass`` order: "nothing this step", wherever the rules let a side do nothing.

``pass`` stands for the empty form of the step's order and has exactly its events (the log
records the order as ``pass``, the facts are the same):

* Status (IO-3.1; repairing and placing parties are things a side "can" do, IO-3.1.1):
  ``status`` with no choices (parties in place try their default repair; the fire and smoke
  checks run).
* Order Phase (IO-3.2, an order card on every ship under command): refused while the side has a
  ship under command; ``assign_orders`` with no seals otherwise.
* movement segment, the mover (IO-5.0, every ship must try to move, by an order or a drift):
  refused.
* movement segment, the opponent's window (IO-3.3.1 C, "as many cards as wished"):
  ``respond_movement`` with no cards.
* gunnery segment, the firer (IO-3.3.2 B/C): ``declare_fire`` with no fire.
* gunnery segment, the opponent's window (IO-3.3.2 D, "may use one Misfire"): ``respond_fire``
  with no Misfire.
* Card Exchange (IO-3.4): ``exchange_card`` with no discard.
* set-up and Victory Phase (IO-3.4, IO-3.5): refused; the deal and the victory check are not a
  side's choice.
"""

from __future__ import annotations

from typing import NoReturn

from domain.errors import IllegalCommand, NotYourTurn
from domain.rulesets.iron_oak.commands import (
    AssignOrders,
    DeclareFire,
    ExchangeCard,
    RespondFire,
    RespondMovement,
    Status,
)
from domain.rulesets.iron_oak.sequence import (
    SIDES,
    movers_left,
    next_numbered,
    to_act,
    under_command,
)
from domain.rulesets.iron_oak.state import IronOakState
from domain.words import possessive

PassMeans = Status | AssignOrders | RespondMovement | DeclareFire | RespondFire | ExchangeCard


def long_form(state: IronOakState, side: str | None) -> PassMeans:
    """The order that ``pass`` by ``side`` stands for now (``None``: the umpire, for the side
    to act).

    Raises:
        NotYourTurn: another side is to act.
        IllegalCommand: the step requires something (its rule and what to give instead).
    """
    if state.phase in ("setup", "victory"):
        _refuse_system_step(state)
    if state.awaiting is not None:
        raise IllegalCommand(
            f"the resolution has stopped: {state.awaiting.side} chooses where "
            f"{possessive(state.awaiting.unit)} Collateral damage goes "
            "(choose_collateral), which cannot "
            "be passed",
            rule="IO-6.3.4",
        )
    expected = to_act(state)
    if side is not None and side not in expected and None not in expected:
        raise NotYourTurn(
            f"it is {possessive(', '.join(str(s) for s in expected))} decision; {side} "
            "has nothing to pass",
            rule="IO-3.0",
        )
    who = side if side in SIDES else expected[0]
    if who is None:  # pragma: no cover - only set-up and victory are system steps
        raise IllegalCommand("no side has a decision to pass now", rule="IO-3.0")
    phase = state.phase
    if phase == "status":
        return Status()
    if phase == "orders":
        ships = under_command(state, who)
        if ships:
            raise IllegalCommand(
                f"{who} must put an order card face down on every ship under command "
                f"({', '.join(ships)}): give assign_orders with a seal for each (`wake seal` "
                "makes them); only a side with no ship under command may pass",
                rule="IO-3.2",
            )
        return AssignOrders(seals={})
    if phase == "movement":
        if state.pending_move is not None:
            return RespondMovement()
        if state.options.mode == "alternating":
            left = [ship] if (ship := next_numbered(state)) else []
        else:
            left = movers_left(state)
        raise IllegalCommand(
            "every ship must try to move in the movement segment, by its order or by "
            f"drifting: give reveal_order for {' or '.join(left)}",
            rule="IO-5.0",
        )
    if phase == "gunnery":
        return RespondFire() if state.fire_declared else DeclareFire()
    return ExchangeCard()  # the Card Exchange Phase


def _refuse_system_step(state: IronOakState) -> NoReturn:
    if state.phase == "setup":
        raise IllegalCommand(
            'the game opens with the deal, which is not a choice: give {"type": "deal"}',
            rule="IO-3.4",
        )
    raise IllegalCommand(
        "the Victory Phase checks the scenario's victory conditions, which is not a choice: "
        'give {"type": "end_turn"}',
        rule="IO-3.5",
    )
