"""The Iron & Oak bot: a deterministic policy for either side, and representative legal orders.

Policy: deal; in the Status Phase put repair parties on ships with repairable criticals; give
each ship the order its situation calls for (refloat, unfoul, weigh, drift when it must; ram or
cross the T of an enemy in its box; otherwise close on the nearest enemy, or head for the exit
when the scenario pays for leaving, avoiding shallows and mines where it can); play movement
cards that help its own moves and hinder the enemy's; fire each unit's guns at the target most
of them bear on (IO-6.0, as option ``who_fires`` allows), with a gunnery card on the first
shot and a Strike! on a heavily damaged target; answer enemy fire with a Misfire on the first
declared fire; put Collateral damage on its ship's least damaged location (IO-6.3.4); exchange
a card it cannot use.

Order cards are sealed with salts derived from the game's seed (``orders.bot_salt``), so the
bot finds its own cards again at reveal time by opening the seal with each order kind.
"""

from __future__ import annotations

from typing import Any

from domain.errors import IllegalCommand, WakeError
from domain.rulesets.iron_oak import crossing_t, gunnery, movement, ramming
from domain.rulesets.iron_oak.basics import Side
from domain.rulesets.iron_oak.commands import (
    ORDER_KINDS,
    AssignOrders,
    CardPlay,
    ChooseCollateral,
    Deal,
    DeclareFire,
    EndTurn,
    ExchangeCard,
    Fire,
    RespondFire,
    RespondMovement,
    RevealOrder,
    Status,
)
from domain.rulesets.iron_oak.criticals import preferred_collateral
from domain.rulesets.iron_oak.hands import full_deck
from domain.rulesets.iron_oak.orders import (
    MOVES,
    bot_salt,
    candidate_details,
    check_order,
    edge_cell,
    first_possible,
    open_card,
    paths,
    retire_edge,
    seal_card,
)
from domain.rulesets.iron_oak.repair import check_repair_party, repair_target
from domain.rulesets.iron_oak.sequence import (
    controller,
    may_exchange,
    movers_left,
    next_numbered,
    other,
    to_act,
    under_command,
)
from domain.rulesets.iron_oak.state import Cell, IronOakState


def bot_command(state: IronOakState, side: str | None) -> Any:
    acting = to_act(state)
    if not acting or (side not in acting and None not in acting):
        return None
    if state.awaiting is not None:  # IO-6.3.4: the least damaged location
        awaiting = state.awaiting
        location = preferred_collateral(state, awaiting.unit, awaiting.candidates)
        return ChooseCollateral(location=location)
    phase = state.phase
    if phase == "setup":
        return _deal(state)
    if phase == "victory":
        return EndTurn()
    me: Side = side if side in ("CSA", "USA") else acting[0]  # type: ignore[assignment]
    if phase == "status":
        return _status(state, me)
    if phase == "orders":
        return _orders(state, me)
    if phase == "movement":
        if state.pending_move is not None:
            return _respond_movement(state, me)
        return _reveal(state, me)
    if phase == "gunnery":
        if state.fire_declared:
            return _misfire(state, me)
        return _declare(state, me)
    if phase == "exchange":
        return _exchange(state, me)
    return None


def legal_commands(state: IronOakState, side: str | None) -> list[Any]:
    """The bot's order plus simple alternatives that are legal now (representative). A card
    this state cannot open is shown sealed (``sealed_reveals``), never opened or guessed."""
    try:
        command = bot_command(state, side)
    except SealedCard as sealed:
        return sealed_reveals(state, sealed.ship)
    if command is None:
        return []
    out = [command]
    if isinstance(command, DeclareFire) and command.fires:
        out.append(DeclareFire())
    if isinstance(command, RespondMovement | RespondFire) and (
        getattr(command, "cards", None) or getattr(command, "misfire", None)
    ):
        out.append(type(command)())
    if isinstance(command, ExchangeCard) and command.discard is not None:
        out.append(ExchangeCard())
    if isinstance(command, ChooseCollateral) and state.awaiting is not None:
        others = [c for c in state.awaiting.candidates if c != command.location]
        out += [ChooseCollateral(location=c) for c in others]
    return out


# --------------------------------------------------------------------------- set-up, status


def _deal(state: IronOakState) -> Deal:
    if not state.physical_dice or state.named_cards:
        return Deal()
    # physical cards: the bot deals the deck as it lies (file order), first player first
    deck = full_deck(state)
    size = state.data.tables.initial_hand
    first = state.scenario.first_player
    return Deal(hands={first: deck[:size], other(first): deck[size : 2 * size]})


def _status(state: IronOakState, side: Side) -> Status:
    place = []
    forts = [u.id for u in state.sections.values() if u.side == side and not u.destroyed]
    for ship in [*under_command(state, side), *forts]:
        if repair_target(state, ship) is None:
            continue
        try:
            check_repair_party(state, ship)
        except WakeError:
            continue
        place.append(ship)
    return Status(place=place)


# --------------------------------------------------------------------------- orders


def _enemies(state: IronOakState, side: Side) -> list[str]:
    return [
        s.id
        for s in state.ships.values()
        if s.afloat and s.cell is not None and controller(state, s.id) != side
    ]


def plan_order(state: IronOakState, ship: str) -> str:
    """The order card the bot puts on ``ship`` in the Order Phase."""
    s = state.ships[ship]
    side = controller(state, ship)
    if s.cell is None:
        return "maneuver_1"
    movable, reason = movement.can_move(state, ship, state.options.drift_when_fouled_with)
    if not movable:
        if s.anchored:
            return "weigh"
        if s.aground:
            return "refloat"
        if s.fouled_with:
            return "unfoul"
        return "drift" if reason == "drift" else "maneuver_0"
    if s.status in ("retiring", "captured"):
        return "maneuver_1"
    if s.towed_by is not None:
        return "maneuver_0"
    here = [e for e in _enemies(state, side) if state.ships[e].cell == s.cell]
    for target in here:
        card = state.card(ship)
        try:
            ramming.check_ram(state, ship, target, card.spar is not None, card.ram is not None)
            return "ram"
        except WakeError:
            pass
    for target in here:
        try:
            crossing_t.check_cross_t(state, ship, target, "bow_on")
            if state.relation(target, ship) is None:
                return "cross_t"
        except WakeError:
            pass
    if here:
        return "maneuver_0"
    goal = _goal(state, ship)
    if goal is None:
        return "maneuver_0"
    gap = movement.board(state).distance(s.cell, goal)
    if gap >= 2 and s.towing is None:
        return "maneuver_2"
    return "maneuver_1" if gap >= 1 else "maneuver_0"


def _goal(state: IronOakState, ship: str) -> Cell | None:
    """Where the ship heads: the exit edge when the scenario pays for leaving, else the
    nearest enemy ship (or fort section)."""
    s = state.ships[ship]
    assert s.cell is not None
    side = controller(state, ship)
    if ship in state.scenario.victory.exit_vp:
        return edge_cell(state, s.cell, state.scenario.exit[s.side])
    targets = [state.ships[e].cell for e in _enemies(state, side)]
    targets += [u.cell for u in state.sections.values() if u.side != side and not u.destroyed]
    cells = [c for c in targets if c is not None]
    if not cells:
        return None
    return min(cells, key=lambda c: (movement.board(state).distance(s.cell, c), c))  # type: ignore[arg-type]


def _orders(state: IronOakState, side: Side) -> AssignOrders:
    ships = under_command(state, side)
    seals = {ship: seal_card(state, ship, plan_order(state, ship)) for ship in ships}
    numbers: dict[str, int] = {}
    if state.options.mode == "alternating":
        start = 1 if side == state.scenario.first_player else 2
        numbers = {ship: start + 2 * i for i, ship in enumerate(sorted(ships))}
    return AssignOrders(seals=seals, numbers=numbers)


# --------------------------------------------------------------------------- movement segment


class SealedCard(IllegalCommand):
    """A ship's order card that the salt this state derives does not open: sealed by a person
    (``wake seal``, another device) or by a committed-seed bot whose secret is not at hand, so
    the bot cannot turn it up; its holder reveals it (IO-3.3.1)."""

    def __init__(self, ship: str) -> None:
        super().__init__(
            f"the order card on {ship} is sealed with a salt the bot does not hold: its holder "
            "turns it up (reveal_order with the order on the card and its salt)",
            rule="IO-3.3.1",
        )
        self.ship = ship


def own_order(state: IronOakState, ship: str) -> str:
    """Open the bot's own sealed card by trying each order kind with its salt.

    Raises:
        SealedCard: the salt does not open it.
    """
    kind = open_card(state, ship)
    if kind is None:
        raise SealedCard(ship)
    return kind


def sealed_reveals(state: IronOakState, ship: str) -> list[RevealOrder]:
    """IO-3.3.1 A/B for a card this state cannot open (issue 23 item 6): the card stays sealed,
    so one reveal per order kind it may hold, each a legal way of carrying it out (or drifting,
    IO-4.0), with the salt left empty: the card's holder gives the order it holds and its own
    salt, and ``decide`` checks them against the seal (IO-3.2)."""
    return [
        first_possible(state, ship, order)
        or RevealOrder(ship=ship, order=order, salt="", drift=True)
        for order in ORDER_KINDS
    ]


def _reveal(state: IronOakState, side: Side) -> RevealOrder | None:
    if state.options.mode == "alternating":
        ship = next_numbered(state)
    else:
        left = movers_left(state)
        ship = sorted(left)[0] if left else None
    if ship is None or controller(state, ship) != side:
        return None
    order = own_order(state, ship)
    salt = bot_salt(state, ship)
    # its preferred ways first, then any legal way (only an impossible order may drift, IO-4.0)
    for candidate in [*_details(state, ship, order), *candidate_details(state, ship, order)]:
        command = RevealOrder(ship=ship, order=order, salt=salt, **candidate)
        try:
            check_order(state, command)
        except WakeError:
            continue
        return command.model_copy(update={"cards": _mover_cards(state, side, ship, order)})
    return RevealOrder(ship=ship, order=order, salt=salt, drift=True)


def _details(state: IronOakState, ship: str, order: str) -> list[dict[str, Any]]:
    s = state.ships[ship]
    gb = movement.board(state)  # distances on the grid of boxes
    side = controller(state, ship)
    if order in ("anchor", "weigh", "refloat", "unfoul", "drift"):
        return [{}]
    if order in ("ram", "cross_t", "opposing"):
        targets = sorted(e for e in _enemies(state, side) if state.ships[e].cell == s.cell)
        card = state.card(ship)
        attacks = [a for a, has in (("spar", card.spar), ("ram", card.ram)) if has]
        if order == "ram":
            options = [attacks, ["ram"], ["spar"]]
            return [{"target": t, "attacks": a} for t in targets for a in options if a]
        if order == "cross_t":
            return [{"target": t, "kind": k} for t in targets for k in ("bow_on", "stern_on")]
        return [{"target": t} for t in targets]
    if s.cell is None:
        assert s.edge is not None
        grid = state.scenario.grid
        cells = [(c, r) for c in range(grid.columns) for r in range(grid.rows)]
        edge_cells = [c for c in cells if edge_cell(state, c, s.edge) == c]
        enemy = _enemies(state, side)
        goal = state.ships[enemy[0]].cell if enemy else None
        edge_cells.sort(
            key=lambda c: (
                _hazard(state, ship, c),
                gb.distance(c, goal) if goal else 0,
                c,
            )
        )
        return [{"path": [c]} for c in edge_cells]
    maneuver = MOVES.index(order)
    if maneuver == 0:
        return [{"path": [s.cell]}]
    goal = _goal(state, ship)
    out: list[dict[str, Any]] = []
    edge = retire_edge(state, ship)
    if edge is not None or (goal is not None and ship in state.scenario.victory.exit_vp):
        out.append({"path": [s.cell], "exit": True})
    found = paths(state, s.cell, maneuver)
    if edge is not None:
        goal = edge_cell(state, s.cell, edge)
    if goal is not None:
        found.sort(
            key=lambda p: (
                gb.distance(p[-1], goal),
                _hazard(state, ship, p[-1]),
                p,
            )
        )
    out += [{"path": p} for p in found]
    return out


def _hazard(state: IronOakState, ship: str, cell: Cell) -> int:
    box = state.box(cell)
    risk = 0
    if box.depth < movement.effective_draft(state, ship):
        risk += 2
    risk += sum(1 for m in box.markers if m in ("mine", "hulk", "obstruction", "heavy_obstruction"))
    return risk + (5 if box.bank else 0)


def _held(state: IronOakState, side: Side) -> list[str]:
    return list(state.hands.get(side, ()))


def _usable(state: IronOakState, card_id: str) -> bool:
    card = state.data.cards.get(card_id)
    night = state.scenario.night
    return not ((card.time == "day" and night) or (card.time == "night" and not night))


def _mover_cards(state: IronOakState, side: Side, ship: str, order: str) -> list[CardPlay]:
    wanted = {
        "maneuver_1": "movement",
        "maneuver_2": "movement",
        "cross_t": "contact",
        "ram": "contact",
    }
    use = wanted.get(order)
    for card_id in _held(state, side):
        card = state.data.cards.get(card_id)
        if card.kind != "movement" or card.window != "own" or not _usable(state, card_id):
            continue
        if use is not None and card.use == use and card.value > 0:
            return [CardPlay(card=card_id)]
        if card.use == "repair_shield":
            damaged = [loc for loc, v in state.ships[ship].shields.items() if v < 0]
            if damaged:
                return [CardPlay(card=card_id, location=sorted(damaged)[0])]
    return []


def _respond_movement(state: IronOakState, side: Side) -> RespondMovement:
    pending = state.pending_move
    assert pending is not None
    ship = state.ships[pending.ship]
    if ship.status in ("retiring", "captured") or pending.order not in (
        "maneuver_1",
        "maneuver_2",
        "cross_t",
        "ram",
    ):
        return RespondMovement()
    for card_id in _held(state, side):
        card = state.data.cards.get(card_id)
        if card.kind != "movement" or card.window != "opponent" or not _usable(state, card_id):
            continue
        if (card.use == "movement" and card.value < 0) or card.use == "drift_check":
            return RespondMovement(cards=[CardPlay(card=card_id)])
    return RespondMovement()


# --------------------------------------------------------------------------- gunnery segment


def _firers(state: IronOakState, side: Side) -> list[tuple[str, int]]:
    units: list[tuple[str, int]] = []
    for s in sorted(state.ships.values(), key=lambda s: s.id):
        if s.afloat and controller(state, s.id) == side:
            units.append((s.id, len(state.card(s.id).guns)))
    for u in sorted(state.sections.values(), key=lambda u: u.id):
        if u.side == side and not u.destroyed:
            fort = state.fort_card(u.fort)
            section = next(x for x in fort.sections if x.id == u.section)
            units.append((u.id, len(section.guns)))
    return units


def _targets(state: IronOakState, side: Side) -> list[str]:
    ships = [s.id for s in state.ships.values() if s.afloat and controller(state, s.id) != side]
    forts = [u.id for u in state.sections.values() if u.side != side and not u.destroyed]
    return sorted(ships) + sorted(forts)


def _declare(state: IronOakState, side: Side) -> DeclareFire:
    fires: list[Fire] = []
    for unit, sections in _firers(state, side):
        fires += _unit_fires(state, side, unit, sections)
    cards: list[CardPlay] = []
    if fires:
        for card_id in _held(state, side):
            card = state.data.cards.get(card_id)
            if card.kind != "gunnery" or card.window != "own" or not _usable(state, card_id):
                continue
            if card.use == "gunnery" and not cards:
                cards.append(CardPlay(card=card_id, firer=fires[0].firer, section=fires[0].section))
            elif card.use == "strike":
                weak = [
                    f
                    for f in fires
                    if f.target in state.ships and movement.heavily_damaged(state, f.target)
                ]
                if weak:
                    cards.append(
                        CardPlay(card=card_id, firer=weak[0].firer, section=weak[0].section)
                    )
    return DeclareFire(fires=fires, cards=cards)


def _unit_fires(state: IronOakState, side: Side, unit: str, sections: int) -> list[Fire]:
    """What one ship or fort section fires (IO-6.0, option ``who_fires``).

    ``one_target``: the target that the most gun strength bears on (then the nearest, then by
    id), with every section that bears on it. ``one_section``: the strongest section at the
    nearest target. ``each_section``: every section at its nearest target (a fort section's
    guns at one target, as ``one_target``)."""
    bearing: list[tuple[int, str, Fire]] = []  # (range rank, target, fire)
    for section in range(sections):
        for target in _targets(state, side):
            try:
                rng = gunnery.check_fire(state, unit, section, target)
            except WakeError:
                continue
            plunging = unit in state.sections and rng == "long"
            fire = Fire(firer=unit, section=section, target=target, plunging=plunging)
            bearing.append((_range_rank(rng), target, fire))
    if not bearing:
        return []
    mode = state.options.who_fires
    if mode == "one_section":
        best = min(bearing, key=lambda b: (-_gun_strength(state, unit, b[2].section), b[0], b[1]))
        return [best[2]]
    if mode == "each_section" and unit in state.ships:
        nearest: dict[int, tuple[int, str, Fire]] = {}
        for b in bearing:
            held = nearest.get(b[2].section)
            if held is None or b[:2] < held[:2]:
                nearest[b[2].section] = b
        return [nearest[s][2] for s in sorted(nearest)]
    strength: dict[str, int] = {}
    rank: dict[str, int] = {}
    for r, target, fire in bearing:
        strength[target] = strength.get(target, 0) + _gun_strength(state, unit, fire.section)
        rank[target] = r
    chosen = min(strength, key=lambda t: (-strength[t], rank[t], t))
    return [fire for _, target, fire in bearing if target == chosen]


def _gun_strength(state: IronOakState, unit: str, section: int) -> int:
    if unit in state.ships:
        dice = state.card(unit).guns[section].dice
    else:
        u = state.sections[unit]
        fort = state.fort_card(u.fort)
        dice = next(x for x in fort.sections if x.id == u.section).guns[section].dice
    return max(int(part) for part in dice.replace("d", " ").replace("+", " ").split())


def _range_rank(rng: str) -> int:
    return {"point_blank": 0, "short": 1, "medium": 2, "long": 3}.get(rng, 4)


def _misfire(state: IronOakState, side: Side) -> RespondFire:
    if "misfire" in _held(state, side) and state.fire_orders:
        first = state.fire_orders[0]
        return RespondFire(
            misfire=CardPlay(card="misfire", firer=first.firer, section=first.section)
        )
    return RespondFire()


def _exchange(state: IronOakState, side: Side) -> ExchangeCard:
    if not may_exchange(state, side):
        return ExchangeCard()
    for card_id in _held(state, side):
        if not _usable(state, card_id):
            return ExchangeCard(discard=card_id, draw=_physical_draw(state))
    return ExchangeCard()


def _physical_draw(state: IronOakState) -> str | None:
    if state.deck_known or state.named_cards or not state.deck:
        return None
    return state.deck[0]
