"""Iron & Oak's ``evolve``: applying one fact to the state. The rule modules apply the facts they
own (gunnery, criticals, maneuvers), then the sequence of play's facts are applied here. No
validation, no dice; it never raises. It sits below every module that decides, so that deciding
can fold its own events into a scratch state (``state.fold_all``).
"""

from __future__ import annotations

from typing import cast

from domain.events import DomainEvent, GameEnded
from domain.rulesets.iron_oak import criticals, gunnery, hands, maneuvers, unfoul
from domain.rulesets.iron_oak.basics import Location
from domain.rulesets.iron_oak.events import (
    CrossTAttempted,
    HazardChecked,
    RamAftermath,
    RamResolved,
    ShipDrifted,
    ShipMoved,
    ShipsFouled,
    SparResolved,
    UnfoulAttempted,
)
from domain.rulesets.iron_oak.sequence import controller
from domain.rulesets.iron_oak.state import (
    AwaitedCollateral,
    CardEffect,
    FireOrder,
    IronOakState,
    PendingMove,
    Resumable,
    SealedOrder,
    StatusChoice,
)
from domain.rulesets.iron_oak.turn_events import (
    CardExchanged,
    CardPlayed,
    CardsDealt,
    CollateralAwaited,
    CollateralChosen,
    EscapeAttempted,
    FireCancelled,
    FireDeclared,
    GunfireMarkers,
    MapEdgeCrossed,
    OpposingManeuver,
    OrderCompleted,
    OrderRevealed,
    OrdersAssigned,
    RepairParty,
    ResolutionCheckpoint,
    ShieldRepaired,
    ShipAnchored,
    ShipCaptured,
    StatusChecked,
    StatusChosen,
    StepBegan,
)


def pending_from(event: OrderRevealed) -> PendingMove:
    """The revealed order, waiting for the opponent's movement cards (the salt is spent)."""
    return PendingMove.model_validate(event.model_dump(exclude={"salt"}))


def evolve(state: IronOakState, event: DomainEvent) -> IronOakState:
    """Apply one event: rule modules first (each ignores events it does not know)."""
    state = gunnery.apply(state, event)
    state = criticals.apply(state, event)
    state = maneuvers.apply(state, event)
    return unfoul.still_fouled(_turn(state, event))


def _ship(state: IronOakState, ship: str, **update: object) -> IronOakState:
    ships = dict(state.ships)
    ships[ship] = ships[ship].model_copy(update=update)
    return state.model_copy(update={"ships": ships})


def _turn(state: IronOakState, event: DomainEvent) -> IronOakState:
    if isinstance(event, StepBegan):
        update: dict[str, object] = {
            "turn": event.turn,
            "step": event.step,
            "phase": event.phase,
            "active": event.side,
            "done": (),
            "pending_move": None,
            "fire_orders": (),
            "fire_declared": False,
            "effects": (),
        }
        if event.turn != state.turn:
            update["cards_used"] = ()
            update["drifted"] = ()
        if event.phase == "orders":
            update["orders"] = {
                ship: card
                for ship, card in state.orders.items()
                if ship in state.ships and controller(state, ship) != event.side
            }
        if event.phase == "exchange" and event.side is not None:
            # IO-5.6.5: the attacker is Bow-on to its target for the next gunnery segment only
            ended = {(a, t) for a, t in state.aftermath if controller(state, a) == event.side}
            update["aftermath"] = tuple(p for p in state.aftermath if p not in ended)
            if state.rules_version < (1, 1):  # 1.0 kept the aftermath among the T pairs
                update["pairs"] = tuple(
                    p for p in state.pairs if (p.ship, p.other) not in ended or p.kind != "bow_on"
                )
        if event.phase == "movement":
            update["rammed"] = tuple(
                (a, t)
                for a, t in state.rammed
                if event.side is not None and controller(state, a) != event.side
            )
        return state.model_copy(update=update)
    if isinstance(event, CardsDealt):
        return state.model_copy(
            update={
                "hands": {side: tuple(cards) for side, cards in event.hands.items()},
                "deck": hands.deck_after_deal(event),
                "deck_known": event.known,
            }
        )
    if isinstance(event, RepairParty):
        if event.unit in state.sections:  # a fort section's party (IO-3.1.1)
            sections = dict(state.sections)
            sections[event.unit] = sections[event.unit].model_copy(
                update={"repair_party": event.placed}
            )
            return state.model_copy(update={"sections": sections})
        return _ship(state, event.unit, repair_party=event.placed)
    if isinstance(event, StatusChosen):
        choice = StatusChoice(
            withdraw=tuple(event.withdraw), repair=dict(event.repair), place=tuple(event.place)
        )
        return state.model_copy(
            update={"status_choices": {**state.status_choices, event.side: choice}}
        )
    if isinstance(event, StatusChecked):
        kept = tuple(u for u in state.level5 if controller(state, u) != event.side)
        choices = {k: v for k, v in state.status_choices.items() if k != event.side}
        return state.model_copy(
            update={"level5": kept + tuple(event.level5), "status_choices": choices}
        )
    if isinstance(event, OrdersAssigned):
        cards = dict(state.orders)
        for ship, digest in event.seals.items():
            cards[ship] = SealedOrder(digest=digest, number=event.numbers.get(ship, 0))
        where = {s.id: s.cell for s in state.ships.values() if s.afloat and s.cell is not None}
        cells = {**state.order_cells, event.side: where}
        since = unfoul.first_fouled_order_phases(state, event.seals)  # IO-4.4
        return state.model_copy(
            update={"orders": cards, "order_cells": cells, "fouled_since": since}
        )
    if isinstance(event, OrderRevealed):
        cards = dict(state.orders)
        cards[event.ship] = cards[event.ship].model_copy(update={"order": event.order})
        return state.model_copy(update={"orders": cards, "pending_move": pending_from(event)})
    if isinstance(event, CardPlayed):
        held = dict(state.hands)
        held[event.side] = hands.remove_one(held.get(event.side, ()), event.card)
        update = {
            "hands": held,
            "discards": (*state.discards, event.card),
            "cards_used": tuple(sorted({*state.cards_used, event.side})),
        }
        if event.use in ("movement", "contact", "hazard", "gunnery", "strike", "drift_check"):
            effect = CardEffect(
                card=event.card,
                unit=event.unit,
                use=event.use,
                value=event.value,
                section=event.section,
            )
            update["effects"] = (*state.effects, effect)
        return state.model_copy(update=update)
    if isinstance(event, OrderCompleted):
        state = state.model_copy(
            update={"pending_move": None, "effects": (), "done": (*state.done, event.ship)}
        )
        if state.ships[event.ship].opposed:  # IO-5.1.3: the −1 was for this, its next move
            state = _ship(state, event.ship, opposed=False)
        return state
    if isinstance(event, ShipAnchored):
        return _ship(state, event.ship, anchored=event.anchored)
    if isinstance(event, OpposingManeuver):
        state = _ship(state, event.target, opposed=True)
        return state.model_copy(
            update={"opposed_by": {**state.opposed_by, event.target: event.ship}}
        )
    if isinstance(event, MapEdgeCrossed):
        if not event.success:
            return state
        state = _escape(state, event.ship)
        if event.entering:
            return _ship(state, event.ship, cell=event.cell, edge=None)
        return _ship(state, event.ship, cell=None, edge=event.edge, status="exited", opposed=False)
    if isinstance(event, ShieldRepaired):
        if event.unit in state.ships:
            shields = dict(state.ships[event.unit].shields)
            shields[cast(Location, event.location)] = event.shield_after
            return _ship(state, event.unit, shields=shields)
        return state
    if isinstance(event, FireDeclared):
        fires = tuple(FireOrder.model_validate(f) for f in event.fires)
        return state.model_copy(update={"fire_orders": fires, "fire_declared": bool(fires)})
    if isinstance(event, FireCancelled):
        return state
    if isinstance(event, ShipCaptured):
        return _ship(state, event.ship, status="captured", captured_by=event.by, repair_party=False)
    if isinstance(event, CardExchanged):
        held = dict(state.hands)
        kept = hands.remove_one(held.get(event.side, ()), event.discarded)
        held[event.side] = (*kept, event.drawn) if event.drawn is not None else kept
        deck = hands.remove_one(state.deck, event.drawn) if event.drawn else state.deck
        pile = dict(state.exchanged)
        pile[event.side] = (*pile.get(event.side, ()), event.discarded)
        return state.model_copy(update={"hands": held, "deck": deck, "exchanged": pile})
    if isinstance(event, GunfireMarkers):
        if event.placed:
            marked = tuple(sorted({*state.gunfire, *event.units}))
        else:
            marked = tuple(u for u in state.gunfire if u not in event.units)
        return state.model_copy(update={"gunfire": marked})
    if isinstance(event, CrossTAttempted) and not event.success:
        return state.model_copy(
            update={"failed_t": (*state.failed_t, (event.ship, event.target, state.turn))}
        )
    if isinstance(event, RamResolved | SparResolved):
        entry = (event.ship, event.target, state.turn)
        update = {}
        if entry not in state.ram_log:
            update["ram_log"] = (*state.ram_log, entry)
        if (event.ship, event.target) not in state.rammed:
            update["rammed"] = (*state.rammed, (event.ship, event.target))
        return state.model_copy(update=update) if update else state
    if isinstance(event, RamAftermath):
        return state.model_copy(
            update={"aftermath": (*state.aftermath, (event.ship, event.target))}
        )
    if isinstance(event, ShipMoved) and event.success and len(event.path) > 1:
        towed = state.ships[event.ship].towing  # a towed ship moves with its tower
        state = _escape(state, towed) if towed is not None else state
        return _escape(state, event.ship)  # moved to another GB
    if isinstance(event, EscapeAttempted) and event.success:
        return _escape(state, event.ship)
    if isinstance(event, ShipDrifted):
        if event.result != "stay":
            state = _escape(state, event.ship)
        drifter = state.ships[event.ship]
        group = [event.ship, *drifter.fouled_with, drifter.towing, drifter.towed_by]
        return state.model_copy(
            update={"drifted": tuple(sorted({*state.drifted, *(g for g in group if g)}))}
        )
    if isinstance(event, ShipsFouled) or (
        isinstance(event, HazardChecked) and event.effect == "fouled"
    ):
        fresh = {event.ship, getattr(event, "target", event.ship)}
        return state.model_copy(
            update={"first_fouled": tuple(s for s in state.first_fouled if s not in fresh)}
        )
    if isinstance(event, UnfoulAttempted):
        return state.model_copy(update={"first_fouled": (*state.first_fouled, event.ship)})
    if isinstance(event, ResolutionCheckpoint):
        resuming = Resumable(command=event.command, side=event.side, base=state)
        return state.model_copy(update={"resuming": resuming})
    if isinstance(event, CollateralAwaited):
        awaiting = AwaitedCollateral(
            unit=event.unit,
            side=event.side,
            hit=event.hit,
            candidates=tuple(event.candidates),
            faces=tuple(event.faces),
            start=event.start,
            choices=tuple(event.choices),
            emitted=event.emitted,
        )
        return state.model_copy(update={"awaiting": awaiting})
    if isinstance(event, CollateralChosen):
        if event.final:  # the stopped order has run to its end
            return state.model_copy(update={"awaiting": None, "resuming": None})
        return state.model_copy(update={"awaiting": None})
    if isinstance(event, GameEnded):
        return state.model_copy(
            update={
                "phase": "over",
                "active": None,
                "result": {"winner": event.winner or "", "reason": event.reason},
            }
        )
    return state


def _escape(state: IronOakState, ship: str) -> IronOakState:
    """IO-5.5.3: when either ship moves (to the same or another GB) a crossed T ends."""
    kept = tuple(p for p in state.pairs if ship not in (p.ship, p.other))
    if len(kept) == len(state.pairs):
        return state
    return state.model_copy(update={"pairs": kept})
