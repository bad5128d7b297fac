"""The Iron & Oak Order Phase and movement segment (IO-3.2, IO-3.3.1, IO-4, IO-5).

Order Phase: every ship under command gets an order card face down, a ``domain.sealed``
commitment to ``{"ship", "turn", "order"}`` (tows may be released first, IO-5.3). Movement
segment, ship by ship (in card-number order in alternating play, IO-9.3.3): A) the card is
turned up (the salt opens the seal) with the path, target or attacks; B) the mover's movement
cards; C) the opponent's movement cards; D) the order is carried out. An order that cannot be
carried out is refused with its rule; revealing it with ``drift`` makes the ship drift instead
(IO-4.0). Criticals named by a refloat, a spar or a ram are resolved at once (IO-6.3).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Literal, cast

from domain.chance import opposed_roll
from domain.dice import DiceSource
from domain.errors import IllegalCommand, InvalidCommand, NotYourTurn, WakeError
from domain.events import DomainEvent
from domain.reveals import SealedCommit, SealedItem, SealedReveal
from domain.rulesets.iron_oak import (
    criticals,
    crossing_t,
    drift,
    movement,
    ramming,
    refloat,
    responses,
    towing,
    unfoul,
)
from domain.rulesets.iron_oak.basics import Edge, Side
from domain.rulesets.iron_oak.commands import (
    ORDER_KINDS,
    AssignOrders,
    CardPlay,
    RespondMovement,
    RevealOrder,
)
from domain.rulesets.iron_oak.critical_chain import critical_options, follow_criticals
from domain.rulesets.iron_oak.evolve import evolve
from domain.rulesets.iron_oak.hands import check_play, hand, played
from domain.rulesets.iron_oak.sequence import controller, next_numbered, other, under_command
from domain.rulesets.iron_oak.state import Cell, Fold, IronOakState, PendingMove, fold_all
from domain.rulesets.iron_oak.turn_events import (
    DriftCheck,
    EscapeAttempted,
    MapEdgeCrossed,
    OpposingManeuver,
    OrderCompleted,
    OrderRevealed,
    OrdersAssigned,
    ShieldRepaired,
    ShipAnchored,
    paused,
)
from domain.sealed import Commitment, seal, verify_reveal
from domain.words import possessive

MOVES = ("maneuver_0", "maneuver_1", "maneuver_2")


def order_content(ship: str, turn: int, order: str) -> dict[str, str | int]:
    """What an order card's seal commits to (domain.sealed)."""
    return {"ship": ship, "turn": turn, "order": order}


def sealed_items(state: IronOakState, event: DomainEvent) -> list[SealedItem]:
    """IO-3.2: the order cards an ``OrdersAssigned`` seals, one per ship; IO-3.3.1 A: the card
    an ``OrderRevealed`` turns up (sealed for this turn, the state's before the reveal)."""
    if isinstance(event, OrdersAssigned):
        return [
            SealedCommit(digest, f"{ship} order card {_card_tag(state, event, ship)}")
            for ship, digest in event.seals.items()
        ]
    if isinstance(event, OrderRevealed):
        content = order_content(event.ship, state.turn, event.order)
        return [SealedReveal(content, event.salt, event.order)]
    return []


def _card_tag(state: IronOakState, event: OrdersAssigned, ship: str) -> str:
    """``(turn 2)``, with the card's number in alternating play: ``(turn 2, #3)``."""
    number = event.numbers.get(ship)
    return f"(turn {state.turn}, #{number})" if number else f"(turn {state.turn})"


def bot_salt(state: IronOakState, ship: str, turn: int | None = None) -> str:
    """The salt of a computer player's order card: reproducible from the game's seed (or id)."""
    t = state.turn if turn is None else turn
    return hashlib.sha256(f"wake-io-order:{state.salt_base}:{t}:{ship}".encode()).hexdigest()


def seal_card(state: IronOakState, ship: str, order: str) -> str:
    """The digest of ``order`` sealed on ``ship``'s card this turn with the salt a computer
    player derives from ``state`` (:func:`bot_salt`): the bot's cards, and a scribe's side's
    cards sealed from that side's own secret (``Ruleset.with_bot_secret``)."""
    return seal(order_content(ship, state.turn, order), bot_salt(state, ship)).digest


def open_card(state: IronOakState, ship: str) -> str | None:
    """The order on ``ship``'s sealed card this turn, opened by trying each order kind with
    the salt :func:`seal_card` uses; None when that salt does not open it (a card sealed with
    another secret, or with a salt of a person's own, ``wake seal``)."""
    sealed = state.orders.get(ship)
    if sealed is None:
        return None
    digest = Commitment(digest=sealed.digest)
    salt = bot_salt(state, ship)
    for kind in ORDER_KINDS:
        if verify_reveal(digest, order_content(ship, state.turn, kind), salt):
            return kind
    return None


# --------------------------------------------------------------------------- Order Phase


def decide_orders(state: IronOakState, side: Side, command: AssignOrders) -> list[DomainEvent]:
    """IO-3.2: a sealed order card on every ship under command, no more, no fewer."""
    ships = set(under_command(state, side))
    given = set(command.seals)
    if given != ships:
        missing, extra = sorted(ships - given), sorted(given - ships)
        raise IllegalCommand(
            f"every ship under command needs one order card: missing {missing}, not "
            f"{possessive(side)} or not in play {extra}",
            rule="IO-3.2",
        )
    for ship, digest in command.seals.items():
        try:
            Commitment(digest=digest)
        except ValueError as exc:
            raise InvalidCommand(f"{ship}: not a sealed order ({exc})", rule="IO-3.2") from exc
    if state.options.mode == "alternating":
        first = state.scenario.first_player
        parity = 1 if side == first else 0
        numbers = sorted(command.numbers.values())
        if set(command.numbers) != ships or any(n % 2 != parity for n in numbers):
            kind = "odd" if parity else "even"
            raise IllegalCommand(
                f"alternating play: number every ship's order card with {kind} numbers",
                rule="IO-9.3",
            )
        expected = [(1 if parity else 2) + 2 * i for i in range(len(numbers))]
        if numbers != expected:
            raise IllegalCommand(
                f"order card numbers may not be skipped: expected {expected}, got {numbers}",
                rule="IO-9.3.2",
            )
    elif command.numbers:
        raise InvalidCommand("order card numbers are for alternating play (IO-9.3)")
    events: list[DomainEvent] = []
    for tower in command.release_tows:
        if tower not in ships:
            raise IllegalCommand(f"{tower} is not a {side} ship under command", rule="IO-5.3")
        events += towing.release_tow(state, tower)
    return [
        *events,
        OrdersAssigned(
            side=side,
            seals=dict(command.seals),
            numbers=dict(command.numbers),
            released_tows=list(command.release_tows),
        ),
    ]


# --------------------------------------------------------------------------- reveal (A, B)


def retire_edge(state: IronOakState, ship: str) -> Edge | None:
    """IO-6.2.3H/I: a retiring ship heads for its own side's edge, a captured one for the
    captor's (the edge each side entered from)."""
    s = state.ships[ship]
    if s.status == "captured" and s.captured_by is not None:
        return state.scenario.entry[s.captured_by]
    if s.status == "retiring":
        return state.scenario.entry[s.side]
    return None


def _edge_distance(state: IronOakState, cell: Cell, edge: Edge) -> int:
    grid = state.scenario.grid
    col, row = cell
    return {"N": row, "S": grid.rows - 1 - row, "W": col, "E": grid.columns - 1 - col}[edge]


def _on_edge(state: IronOakState, cell: Cell, edge: Edge) -> bool:
    return _edge_distance(state, cell, edge) == 0


def check_reveal(state: IronOakState, side: Side, command: RevealOrder) -> None:
    """Refuse a reveal that is out of turn, does not open its seal, or orders what the rules
    forbid (with the rule)."""
    ship = command.ship
    if state.phase != "movement" or state.pending_move is not None:
        raise IllegalCommand("orders are revealed in the movement segment", rule="IO-3.3.1")
    if ship not in state.ships:
        raise InvalidCommand(f"no ship {ship!r}")
    if controller(state, ship) != side:
        raise IllegalCommand(f"{ship} is not a {side} ship", rule="IO-3.3.1")
    sealed = state.orders.get(ship)
    if sealed is None or ship in state.done:
        raise IllegalCommand(f"{ship} has no order card to carry out now", rule="IO-3.3.1")
    if state.options.mode == "alternating" and next_numbered(state) != ship:
        raise NotYourTurn(
            f"order card #{state.orders[next_numbered(state) or ship].number} comes first",
            rule="IO-9.3.3",
        )
    content = order_content(ship, state.turn, command.order)
    if not verify_reveal(Commitment(digest=sealed.digest), content, command.salt):
        raise IllegalCommand(
            f"the revealed order {command.order!r} is not the card sealed on {ship}",
            rule="IO-3.2",
        )
    if command.drift:
        if command.order != "drift" and order_possible(state, ship, command.order):
            raise IllegalCommand(
                f"{possessive(ship)} {command.order} order can be carried out; only an order "
                "that cannot "
                "be carried out makes the ship drift instead",
                rule="IO-4.0",
            )
        return
    check_order(state, command)


def check_order(state: IronOakState, command: RevealOrder) -> None:
    """Whether ``command``'s order can be carried out as stated (raises IllegalCommand)."""
    ship, order = command.ship, command.order
    s = state.ships[ship]
    dwf = state.options.drift_when_fouled_with
    edge = retire_edge(state, ship)
    if edge is not None and order not in ("maneuver_1", "drift", "refloat", "weigh", "unfoul"):
        raise IllegalCommand(
            f"{ship} is {s.status} and moves one GB a turn towards the {edge} edge (Maneuver 1)",
            rule="IO-6.2.3H",
        )
    if command.attach is not None:
        for event in towing.attach_tow(state, ship, command.attach):
            state = evolve(state, event)  # the tow is attached before the move (IO-5.3)
        s = state.ships[ship]
    if s.towed_by is not None and order in ("maneuver_1", "maneuver_2"):
        raise IllegalCommand(f"{ship} is towed by {s.towed_by} and moves with it", rule="IO-5.3")
    if order == "anchor":
        movement.check_anchor(state, ship)
    elif order == "weigh":
        movement.check_weigh(state, ship)
    elif order == "refloat":
        if not s.aground:
            raise IllegalCommand(f"{ship} is not aground", rule="IO-4.3")
    elif order == "unfoul":
        if not s.fouled_with:
            raise IllegalCommand(f"{ship} is not fouled", rule="IO-4.4")
    elif order == "drift":
        if s.cell is None:
            raise IllegalCommand(f"{ship} is off the map and cannot drift", rule="IO-5.2")
        _, reason = movement.can_move(state, ship, dwf)
        if reason == "towed":
            raise IllegalCommand(f"{ship} is towed and moves with its tower", rule="IO-5.3")
        if reason == "stuck":
            raise IllegalCommand(f"{ship} cannot move or drift this turn", rule="IO-4.0")
    elif order == "opposing":
        _check_opposing(state, command)
    elif order == "cross_t":
        if command.target is None or command.kind is None:
            raise InvalidCommand("crossing the T names a target and bow_on or stern_on")
        _started_together(state, ship, command.target, "IO-5.5")
        crossing_t.check_cross_t(state, ship, command.target, command.kind, _failed_t(state, ship))
    elif order == "ram":
        if command.target is None:
            raise InvalidCommand("a ram/spar order names its target", rule="IO-5.6")
        _started_together(state, ship, command.target, "IO-5.6")
        ramming.check_ram(
            state,
            ship,
            command.target,
            "spar" in command.attacks,
            "ram" in command.attacks,
            _rammed_last_turn(state, ship),
        )
    else:
        _check_move(state, command, edge)


def edge_cell(state: IronOakState, cell: Cell, edge: Edge) -> Cell:
    """The box on ``edge`` in the same column or row as ``cell``."""
    grid = state.scenario.grid
    col, row = cell
    return {
        "N": (col, 0),
        "S": (col, grid.rows - 1),
        "W": (0, row),
        "E": (grid.columns - 1, row),
    }[edge]


def paths(state: IronOakState, start: Cell, steps: int) -> list[list[Cell]]:
    """Every path of ``steps`` king's-move steps from ``start`` inside the grid."""
    grid = state.scenario.grid
    moves = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)]
    found: list[list[Cell]] = [[start]]
    for _ in range(steps):
        found = [
            [*p, (p[-1][0] + dc, p[-1][1] + dr)]
            for p in found
            for dc, dr in moves
            if 0 <= p[-1][0] + dc < grid.columns and 0 <= p[-1][1] + dr < grid.rows
        ]
    return found


def candidate_details(state: IronOakState, ship: str, order: str) -> list[dict[str, Any]]:
    """Every way of stating ``order`` for ``ship`` (paths, targets, T sides, attacks), legal
    or not; :func:`order_possible` and the bot filter them with :func:`check_order`."""
    s = state.ships[ship]
    side = controller(state, ship)
    if order in ("anchor", "weigh", "refloat", "unfoul", "drift"):
        return [{}]
    if order in ("ram", "cross_t", "opposing"):
        targets = sorted(
            t.id
            for t in state.ships.values()
            if t.afloat
            and t.cell is not None
            and t.cell == s.cell
            and controller(state, t.id) != side
        )
        if order == "ram":
            attacks = (["spar", "ram"], ["ram"], ["spar"])
            return [{"target": t, "attacks": a} for t in targets for a in attacks]
        if order == "cross_t":
            return [{"target": t, "kind": k} for t in targets for k in ("bow_on", "stern_on")]
        return [{"target": t} for t in targets]
    grid = state.scenario.grid
    if s.cell is None:
        assert s.edge is not None
        cells = [(c, r) for c in range(grid.columns) for r in range(grid.rows)]
        return [{"path": [c]} for c in cells if edge_cell(state, c, s.edge) == c]
    maneuver = MOVES.index(order)
    if maneuver == 0:
        return [{"path": [s.cell]}]
    out: list[dict[str, Any]] = [{"path": [s.cell], "exit": True}] if maneuver == 1 else []
    return out + [{"path": p} for p in paths(state, s.cell, maneuver)]


def first_possible(state: IronOakState, ship: str, order: str) -> RevealOrder | None:
    """The first form in which ``order`` can be carried out (salt left empty), if any."""
    for details in candidate_details(state, ship, order):
        command = RevealOrder(ship=ship, order=order, salt="", **details)
        try:
            check_order(state, command)
        except WakeError:
            continue
        return command
    return None


def order_possible(state: IronOakState, ship: str, order: str) -> bool:
    """Can ``order`` be carried out in any of its forms (IO-4.0)?"""
    return first_possible(state, ship, order) is not None


def _check_move(state: IronOakState, command: RevealOrder, edge: Edge | None) -> None:
    ship, s = command.ship, state.ships[command.ship]
    maneuver = MOVES.index(command.order)
    path = [(int(c), int(r)) for c, r in command.path]
    if s.cell is None:  # entering the map (IO-5.1.5)
        if maneuver != 1 or len(path) != 1:
            raise IllegalCommand(
                f"{ship} is off the map: it enters with Maneuver 1 into one edge GB",
                rule="IO-5.1.5",
            )
        assert s.edge is not None
        grid = state.scenario.grid
        if not (0 <= path[0][0] < grid.columns and 0 <= path[0][1] < grid.rows) or not _on_edge(
            state, path[0], s.edge
        ):
            raise IllegalCommand(
                f"{ship} enters from the {s.edge} edge: {list(path[0])} is not on it",
                rule="IO-5.1.5",
            )
        if state.box(path[0]).bank:
            raise IllegalCommand(f"{list(path[0])} is a bank", rule="IO-5.0")
        movable, reason = movement.can_move(state, ship, state.options.drift_when_fouled_with)
        if not movable:
            raise IllegalCommand(f"{ship} cannot move ({reason})", rule="IO-4.0")
        return
    if command.exit:
        allowed = edge or state.scenario.exit[s.side]
        if maneuver != 1 or not _on_edge(state, s.cell, allowed):
            raise IllegalCommand(
                f"{ship} leaves the map with Maneuver 1 from a GB on the {allowed} edge",
                rule="IO-5.1.5",
            )
        movable, reason = movement.can_move(state, ship, state.options.drift_when_fouled_with)
        if not movable:
            raise IllegalCommand(f"{ship} cannot move ({reason})", rule="IO-4.0")
        return
    movement.check_path(
        state, ship, path, cast(movement.Maneuver, maneuver), state.options.drift_when_fouled_with
    )
    if edge is not None:
        end = path[-1]
        if _edge_distance(state, end, edge) >= _edge_distance(state, s.cell, edge):
            raise IllegalCommand(f"{ship} must move towards the {edge} edge", rule="IO-6.2.3H")


def _check_opposing(state: IronOakState, command: RevealOrder) -> None:
    """IO-5.1.3: in a GB shared with the enemy; not anchored, fouled, aground, towing, or
    under a crossed T."""
    ship, s = command.ship, state.ships[command.ship]
    target = command.target
    if target is None or target not in state.ships:
        raise InvalidCommand("an Opposing Maneuver names an enemy ship", rule="IO-5.1.3")
    t = state.ships[target]
    if controller(state, target) == controller(state, ship) or not t.afloat:
        raise IllegalCommand(f"{target} is not an enemy ship afloat", rule="IO-5.1.3")
    if s.cell is None or t.cell != s.cell:
        raise IllegalCommand(f"{target} is not in {possessive(ship)} GB", rule="IO-5.1.3")
    movable, reason = movement.can_move(state, ship, state.options.drift_when_fouled_with)
    if not movable:
        raise IllegalCommand(f"{ship} cannot move this turn ({reason})", rule="IO-4.0")
    crossed = any(p.ship == ship for p in state.pairs)
    for flag, what in (
        (s.anchored, "anchored"),
        (bool(s.fouled_with), "fouled"),
        (s.aground, "aground"),
        (s.towing is not None, "towing"),
        (crossed, "under a crossed T"),
    ):
        if flag:
            raise IllegalCommand(f"{ship} is {what}", rule="IO-5.1.3")


def _started_together(state: IronOakState, ship: str, target: str, rule: str) -> None:
    """IO-5.5 / IO-5.6: the ship must have started its side's Order Phase in the target's GB
    (「敵艦と同じGBで命令フェイズを始め」); in alternating play ships move in between."""
    cells = state.order_cells.get(controller(state, ship), {})
    if ship in cells and cells.get(ship) != cells.get(target):
        raise IllegalCommand(
            f"{ship} did not start the Order Phase in {possessive(target)} GB", rule=rule
        )


def _failed_t(state: IronOakState, ship: str) -> set[str]:
    return {t for s, t, turn in state.failed_t if s == ship and turn == state.turn - 1}


def _rammed_last_turn(state: IronOakState, ship: str) -> set[str]:
    return {t for s, t, turn in state.ram_log if s == ship and turn == state.turn - 1}


def _card_plays(
    state: IronOakState, side: Side, ship: str, plays: Sequence[CardPlay], own: bool
) -> list[DomainEvent]:
    held = hand(state, side)
    window: Literal["own", "opponent"] = "own" if own else "opponent"
    events: list[DomainEvent] = []
    for play in plays:
        card = check_play(state, side, play, "movement", window, held)
        if not own and state.ships[ship].status in ("retiring", "captured"):
            raise IllegalCommand(f"{ship} is retiring: no card may hinder it", rule="IO-6.2.3H")
        if card.use == "repair_shield":
            loc = play.location
            if loc is None or state.card(ship).location(loc) is None:  # type: ignore[arg-type]
                raise InvalidCommand(f"{card.name}: name a location of {ship}")
            events.append(played(side, card, ship, window, location=loc))
            shield = state.ships[ship].shield(loc)  # type: ignore[arg-type]
            events.append(
                ShieldRepaired(unit=ship, location=loc, shield_after=min(0, shield + card.value))
            )
        elif card.use in ("movement", "contact", "hazard", "drift_check"):
            events.append(played(side, card, ship, window))
        else:
            raise IllegalCommand(
                f"{card.name} has no effect in the movement segment", rule="IO-7.0"
            )
    return events


def decide_reveal(state: IronOakState, side: Side, command: RevealOrder) -> list[DomainEvent]:
    check_reveal(state, side, command)
    revealed = OrderRevealed(
        ship=command.ship,
        order=command.order,
        salt=command.salt,
        path=[(int(c), int(r)) for c, r in command.path],
        target=command.target,
        attacks=list(command.attacks),
        kind=command.kind,
        attach=command.attach,
        exit=command.exit,
        drift=command.drift,
    )
    return [revealed, *_card_plays(state, side, command.ship, command.cards, own=True)]


# --------------------------------------------------------------------------- respond (C, D)


def decide_respond(
    state: IronOakState,
    side: Side,
    command: RespondMovement,
    dice: DiceSource,
    fold: Fold,
    choices: criticals.CollateralChoices | None = None,
) -> list[DomainEvent]:
    pending = state.pending_move
    if state.phase != "movement" or pending is None:
        raise IllegalCommand("no revealed order is waiting for movement cards", rule="IO-3.3.1")
    if side != other(controller(state, pending.ship)):
        raise NotYourTurn("the opponent of the moving ship plays here", rule="IO-3.3.1")
    events = _card_plays(state, side, pending.ship, command.cards, own=False)
    events += carry_out(fold_all(state, events, fold), pending, dice, fold, choices)
    if paused(events):  # a Collateral choice first (IO-6.3.4)
        return events
    return [*events, OrderCompleted(ship=pending.ship)]


def carry_out(
    state: IronOakState,
    order: PendingMove,
    dice: DiceSource,
    fold: Fold,
    choices: criticals.CollateralChoices | None = None,
) -> list[DomainEvent]:
    """IO-3.3.1 D: carry the revealed order out (the order was checked when revealed).
    ``choices``: the Collateral choices for the criticals it causes (:func:`follow_criticals`)."""
    ship = order.ship
    dwf = state.options.drift_when_fouled_with
    events: list[DomainEvent] = []
    if order.attach is not None:
        events += towing.attach_tow(state, ship, order.attach)
    scratch = fold_all(state, events, fold)
    drifting = order.drift or order.order == "drift"
    check = [e for e in scratch.effects if e.unit == ship and e.use == "drift_check"]
    if check and not drifting:
        events += _drift_check(scratch, ship, check[0].card, dice)
        drifting = not cast(DriftCheck, events[-1]).passed
        scratch = fold_all(state, events, fold)
    if drifting:
        s = scratch.ships[ship]
        _, reason = movement.can_move(scratch, ship, dwf)
        if (
            s.cell is not None
            and reason not in ("stuck", "towed")
            and not _drifted_with_group(scratch, ship)
        ):
            events += drift.drift(scratch, ship, dice, dwf)
        return events
    kind = order.order
    if kind == "anchor":
        return [*events, ShipAnchored(ship=ship, anchored=True)]
    if kind == "weigh":
        return [*events, ShipAnchored(ship=ship, anchored=False)]
    if kind == "opposing":
        assert order.target is not None
        return [*events, OpposingManeuver(ship=ship, target=order.target)]
    if kind == "refloat":
        new = refloat.refloat(scratch, ship, dice)
        return events + follow_criticals(scratch, new, dice, fold, choices)
    if kind == "unfoul":
        if scratch.rules_version >= (1, 1):  # IO-4.4: this turn's Order Phase was its first
            first = scratch.fouled_since.get(ship) == scratch.turn  # fouled with a movable ship
        else:  # 1.0: its first unfoul attempt since it was fouled
            first = ship not in scratch.first_fouled
        return events + unfoul.unfoul(scratch, ship, dice, first)
    if kind == "cross_t":
        assert order.target is not None and order.kind is not None
        return events + crossing_t.cross_t(
            scratch,
            ship,
            order.target,
            order.kind,
            dice,
            responses.response_modifiers(scratch, order.target, critical_options(scratch)),
            failed_last_turn=_failed_t(scratch, ship),
            opposed_by=_opposed_by(scratch, ship),
            remove_opposed=scratch.options.remove_opposed,
        )
    if kind == "ram":
        assert order.target is not None
        new = ramming.ram_spar(
            scratch,
            ship,
            order.target,
            "spar" in order.attacks,
            "ram" in order.attacks,
            dice,
            responses.response_modifiers(scratch, order.target, critical_options(scratch)),
            attacked_last_turn=_rammed_last_turn(scratch, ship),
            opposed_by=_opposed_by(scratch, ship),
        )
        return events + follow_criticals(scratch, new, dice, fold, choices)
    s = scratch.ships[ship]
    if s.cell is None:
        return events + _cross_edge(scratch, ship, order.path[0], True, dice)
    if order.exit:
        return events + _cross_edge(scratch, ship, s.cell, False, dice)
    maneuver = cast(movement.Maneuver, MOVES.index(kind))
    new = movement.resolve_move(scratch, ship, list(order.path), maneuver, dice, dwf)
    if maneuver == 0 and any(ship in (p.ship, p.other) for p in scratch.pairs):
        new += _escape_t(fold_all(scratch, new, fold), ship, dice)
    return events + new


def _escape_t(state: IronOakState, ship: str, dice: DiceSource) -> list[DomainEvent]:
    """IO-5.1.4, IO-5.5.3: Maneuver 0 under a crossed T is an escape attempt (simply staying
    needs no roll): the Movement Chart dice against the Maneuver 0 opposition dice."""
    s = state.ships[ship]
    if not s.afloat or s.cell is None:
        return []
    roll = opposed_roll(
        dice,
        actor=state.card(ship).movement_dice(s.hits),
        opponent=state.data.tables.movement_opposition.maneuver_0,
        side=s.side,
        opponent_side=other(s.side),
        purpose="escape the T",
        rule="IO-5.5.3",
        subject=ship,
        actor_modifiers=movement.move_modifiers(state, ship, [s.cell]),
        floor=1,
    )
    return [roll, EscapeAttempted(ship=ship, success=bool(roll.success))]


def _opposed_by(state: IronOakState, ship: str) -> str | None:
    return state.opposed_by.get(ship) if state.ships[ship].opposed else None


def _drifted_with_group(state: IronOakState, ship: str) -> bool:
    """IO-5.2: in a fouled or attached group only the first ship to reach the movement segment
    each turn rolls for drift; the others went with it."""
    s = state.ships[ship]
    partners = [p for p in (*s.fouled_with, s.towing, s.towed_by) if p in state.ships]
    return any(p in state.drifted for p in partners)


def _drift_check(
    state: IronOakState, ship: str, card_id: str, dice: DiceSource
) -> list[DomainEvent]:
    """A drift-check card (IO-7.0): the ship rolls the card's alternative die if its crew is
    elite (else the check die) against the card's check die; it must roll higher or drift."""
    card = state.data.cards.get(card_id)
    elite = state.card(ship).quality == "elite"
    mine = card.alt_die if elite and card.alt_die else card.check_die
    s = state.ships[ship]
    roll = opposed_roll(
        dice,
        actor=mine,
        opponent=card.check_die,
        side=s.side,
        opponent_side=other(s.side),
        purpose=f"{card.name} check",
        rule="IO-7.0",
        subject=ship,
    )
    return [roll, DriftCheck(ship=ship, passed=bool(roll.success))]


def _cross_edge(
    state: IronOakState, ship: str, cell: Cell, entering: bool, dice: DiceSource
) -> list[DomainEvent]:
    """IO-5.1.5: enter the map (stopping in the first GB) or leave it: the Movement Chart dice
    against the Movement Opposition table's enter/exit dice; then the entry GB's hazards. A
    ship leaving checks the hazards of the box it leaves first (IO-5.4, 移動元); one that ends
    the move keeps it on the map with no movement roll."""
    s = state.ships[ship]
    opposition = state.data.tables.movement_opposition
    edge: Edge
    events: list[DomainEvent] = []
    if entering:
        assert s.edge is not None
        edge = s.edge
    else:
        edge = retire_edge(state, ship) or state.scenario.exit[s.side]
        events = list(movement.check_hazards(state, ship, cell, dice))
        state = fold_all(state, events, evolve)
        if any(getattr(e, "ends_move", False) for e in events) or not state.ships[ship].afloat:
            stay = MapEdgeCrossed(ship=ship, entering=False, cell=cell, edge=edge, success=False)
            return [*events, stay]
    roll = opposed_roll(
        dice,
        actor=state.card(ship).movement_dice(s.hits),
        opponent=opposition.enter if entering else opposition.exit,
        side=s.side,
        opponent_side=other(s.side),
        purpose="enter the map" if entering else "leave the map",
        rule="IO-5.1.5",
        subject=ship,
        actor_modifiers=movement.move_modifiers(state, ship, [cell]),
        floor=1,
    )
    crossed = MapEdgeCrossed(
        ship=ship, entering=entering, cell=cell, edge=edge, success=bool(roll.success)
    )
    events += [roll, crossed]
    if entering and roll.success:
        events += movement.check_hazards(evolve(state, crossed), ship, cell, dice)
    return events
