"""A SHIPS & TACTICS bot for any number of players.

Policy: the sturdiest ships in the vanguard, carriers and the rest behind, aircraft filling the
carriers, pilots on aircraft and other characters on the flagship; in combat, sink what can be
sunk (the last blow scores, ST-5.1), otherwise hit the leader's weakest ship; saturate with up to
two attack cards; line weapons at the centre that hits the most enemy vanguards; hack the
strongest enemy guns; strike with aircraft but keep one back for air defence when it has three
or more (ST-3.3.3); defend with every card that cancels something; board only when it captures.

Fleets are sealed with salts derived from the game's seed (or id), so the bot finds its own
fleet again at the reveal.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

from domain.errors import WakeError
from domain.rulesets.ships import combat, turns
from domain.rulesets.ships.board import line_centres, line_players
from domain.rulesets.ships.commands import (
    AirStrike,
    Attack,
    Board,
    Defend,
    EndTurn,
    FormFleet,
    Hack,
    LaunchAircraft,
    LineAttack,
    Minovsky,
    RevealFleet,
    StartBattle,
    StrikeGroup,
)
from domain.rulesets.ships.data import (
    AircraftCard,
    AttackCard,
    CharacterCard,
    DefenceCard,
    HackingCard,
    MinovskyCard,
    ShipCard,
)
from domain.rulesets.ships.fleet import AircraftPlan, Fleet, ShipPlan, fleet_content
from domain.rulesets.ships.flow import to_act
from domain.rulesets.ships.state import ShipsState, Unit
from domain.sealed import seal


def bot_salt(state: ShipsState, player: str) -> str:
    """The salt of a computer player's fleet: reproducible from the game's seed (or id)."""
    text = f"wake-ships-fleet:{state.salt_base}:{state.battle}:{player}"
    return hashlib.sha256(text.encode()).hexdigest()


def fleet_seal(state: ShipsState, player: str, fleet: Fleet | Mapping[str, Any]) -> tuple[str, str]:
    """The digest and the salt a computer player's ``fleet`` (or its JSON form) is sealed with
    (ST-1.3): the bot's, and a scribe's menu's for a side sealing from its own secret."""
    salt = bot_salt(state, player)
    return seal(fleet_content(player, state.battle, fleet), salt).digest, salt


def ship_rank(card: ShipCard) -> tuple[bool, int, str]:
    """The bot's order of ship cards (and of the ships of one box in any fleet a scribe's menu
    builds): fighting ships before carriers, the sturdiest first."""
    carrier = card.capacity > 0 and card.guns.medium <= 1
    return carrier, -(card.hull + card.armour + card.guns.medium), card.id


def plan_fleet(state: ShipsState, player: str) -> Fleet:
    """The bot's fleet from its hand (ST-1.3–1.8)."""
    cards = state.data.cards.by_id()
    hand = list(state.players[player].hand)
    ships = [cards[c] for c in hand if isinstance(cards.get(c), ShipCard)]
    planes = [c for c in hand if isinstance(cards.get(c), AircraftCard)]
    chars = [cards[c] for c in hand if isinstance(cards.get(c), CharacterCard)]
    combiners = {s.combines_with for s in ships if s.combines_with}
    order = [s for s in sorted(ships, key=ship_rank) if s.id not in combiners]  # see ST-5.4
    per = state.options.ships_per_box
    front, back = order[:per], order[per : 2 * per]
    # ST-5.4: a ship that combines with another in hand takes it along (one ship once placed)
    left = list(hand)
    for ship in [*front, *back]:
        left.remove(ship.id)
    partners: list[list[str]] = [[], []]
    for box, chosen_box in enumerate((front, back)):
        for ship in chosen_box:
            if ship.combines_with and ship.combines_with in left:
                left.remove(ship.combines_with)
                partners[box].append(ship.combines_with)
    plans: dict[int, dict[str, Any]] = {}
    chosen = front + back
    for i, ship in enumerate(chosen):
        plans[i] = {"card": ship.id, "characters": [], "aircraft": []}
    free = list(planes)
    for i, ship in enumerate(chosen):
        while free and len(plans[i]["aircraft"]) < ship.capacity:
            plans[i]["aircraft"].append({"card": free.pop(0), "characters": []})
    for char in chars:
        aircraft = [a for i in plans for a in plans[i]["aircraft"]]
        if char.pilot > 0 and aircraft:
            target = min(aircraft, key=lambda a: len(a["characters"]))
            target["characters"].append(char.id)
        elif plans:
            plans[0]["characters"].append(char.id)

    def plan(i: int) -> ShipPlan:
        p = plans[i]
        return ShipPlan(
            card=p["card"],
            characters=p["characters"],
            aircraft=[
                AircraftPlan(card=a["card"], characters=a["characters"]) for a in p["aircraft"]
            ],
        )

    return Fleet(
        vanguard=[plan(i) for i in range(len(front))] + [ShipPlan(card=c) for c in partners[0]],
        rearguard=[plan(i) for i in range(len(front), len(chosen))]
        + [ShipPlan(card=c) for c in partners[1]],
    )


def scribe_start(state: ShipsState) -> StartBattle:
    """A physical table's next setup as a scribe would enter it, standing in for real cards:
    the order cards come out in seating order turned by one seat each battle, and each player
    draws from its remaining deck in an order mixed by a hash of the game (refill, then pairs
    until a ship, ST-1.7)."""
    cards = state.data.cards.by_id()
    playing = [p for p in state.seating if not state.players[p].out]
    turn = state.battle % len(playing)
    order = playing[turn:] + playing[:turn]
    draws: dict[str, list[str]] = {}
    for pid in playing:
        p = state.players[pid]
        deck = [
            card
            for _, card in sorted(
                (
                    hashlib.sha256(
                        f"{state.salt_base}:{state.battle}:{pid}:{i}:{c}".encode()
                    ).digest(),
                    c,
                )
                for i, c in enumerate(p.deck)
            )
        ]
        need = max(0, state.scenario.hand_size - len(p.hand))
        drawn, deck = deck[:need], deck[need:]
        hand = [*p.hand, *drawn]
        while deck and not any(isinstance(cards.get(c), ShipCard) for c in hand):
            pair, deck = deck[:2], deck[2:]
            drawn += pair
            hand += pair
        draws[pid] = drawn
    return StartBattle(order=order, draws=draws)


def _pilot_moves(state: ShipsState, player: str, aircraft: list[str]) -> dict[str, str]:
    """ST-3.3.1: a pilot moves to the best aircraft going out that has no pilot yet."""
    cards = state.data.cards.by_id()

    def pilots_on(uid: str) -> list[Unit]:
        return [
            u
            for u in state.units.values()
            if u.on == uid and u.kind == "character" and cards[u.card].pilot > 0
        ]

    free = sorted(
        (a for a in aircraft if not pilots_on(a)),
        key=lambda a: (-cards[state.units[a].card].dogfight, a),
    )
    moves: dict[str, str] = {}
    for uid in aircraft:
        if not free:
            break
        best = free[0]
        here = cards[state.units[uid].card].dogfight
        if cards[state.units[best].card].dogfight <= here:
            continue
        for pilot in pilots_on(uid):
            moves[pilot.id] = free.pop(0)
            break
    return moves


def _remaining(state: ShipsState, unit: Unit) -> int:
    return combat.ship_card(state, unit).hull - unit.damage


def _leader(state: ShipsState, player: str) -> str | None:
    others = [p for p in state.order if p != player]
    if not others:
        return None
    return max(others, key=lambda p: (state.players[p].vp, -state.order.index(p)))


def choose_target(state: ShipsState, player: str, targets: list[Unit], damage: int) -> Unit:
    """A ship this hit sinks (most VP first), else the leader's weakest, else the weakest."""
    cards = state.data.cards.by_id()

    def sinkable(u: Unit) -> bool:
        return damage - combat.ship_card(state, u).armour >= _remaining(state, u)

    sink = [u for u in targets if sinkable(u)]
    if sink:
        return max(sink, key=lambda u: (cards[u.card].vp, u.id))
    leader = _leader(state, player)
    pool = [u for u in targets if u.owner == leader] or targets
    return min(pool, key=lambda u: (_remaining(state, u), u.id))


def accepted(
    state: ShipsState, player: str, handler: Callable[[ShipsState, str, Any], Any], cmd: Any
) -> bool:
    """Whether a turn's own check (``turns.attack``, ...) takes ``cmd`` now (nothing applied)."""
    try:
        handler(state, player, cmd)
    except WakeError:
        return False
    return True


def _attacks(state: ShipsState, player: str) -> list[Any]:
    segment = state.segment
    assert segment is not None
    cards = state.data.cards.by_id()
    hand = state.players[player].hand
    out: list[Any] = []
    ships = sorted(
        (
            u
            for u in state.units.values()
            if u.owner == player
            and u.kind == "ship"
            and u.status == "active"
            and u.id not in state.acted
        ),
        key=lambda u: (u.box != "vanguard", u.id),
    )
    if segment == "long":
        for ship in ships:
            for card_id in dict.fromkeys(hand):
                card = cards.get(card_id)
                if not isinstance(card, AttackCard) or not card.line:
                    continue
                best = max(
                    line_centres(state, player),
                    key=lambda c: sum(
                        1
                        for p in line_players(state, c, player)
                        for u in state.units.values()
                        if u.owner == p
                        and u.box == "vanguard"
                        and u.kind == "ship"
                        and u.status == "active"
                    ),
                )
                out.append(LineAttack(ship=ship.id, centre=best, card=card_id))
    if segment == "medium":
        for card_id in dict.fromkeys(hand):
            card = cards.get(card_id)
            if isinstance(card, HackingCard):
                enemies = sorted(
                    (
                        u
                        for u in state.units.values()
                        if u.kind == "ship"
                        and u.owner != player
                        and u.status == "active"
                        and not u.hacked
                    ),
                    key=lambda u: (-combat.guns(state, u, "short"), u.id),
                )
                if enemies:
                    out.append(Hack(card=card_id, targets=[u.id for u in enemies[: card.targets]]))
    for ship in ships:
        if not turns.can_attack(state, ship, segment):
            continue
        playable = sorted(
            (
                c
                for c in (turns.playable(state, ship, cid, segment) for cid in hand)
                if c is not None
            ),
            key=lambda c: (-c.value, c.id),
        )
        limit = 1 if segment == "long" else 2
        gun = combat.guns(state, ship, segment)
        for k in range(min(limit, len(playable)), -1, -1):
            chosen = playable[:k]
            targets = turns.targets_for(state, player, segment, chosen)
            if not targets or (gun == 0 and not chosen):
                continue
            damage = gun + sum(c.value for c in chosen)
            target = choose_target(state, player, targets, damage)
            out.append(Attack(ship=ship.id, target=target.id, cards=[c.id for c in chosen]))
    return out


def _air(state: ShipsState, player: str) -> list[Any]:
    ready = sorted(
        (
            u
            for u in state.units.values()
            if u.owner == player
            and u.kind == "aircraft"
            and u.status == "active"
            and u.air == "out"
            and u.id not in state.acted
        ),
        key=lambda u: (-combat.aircraft_values(state, u)[0], u.id),
    )
    if not ready:
        return []
    strike = ready[:-1] if len(ready) >= 3 else ready  # ST-3.3.3: one stays for air defence
    targets = turns.targets_for(state, player, "aircraft", [], air=True)
    if not targets:
        return []
    power = sum(combat.aircraft_values(state, u)[0] for u in strike)
    target = choose_target(state, player, targets, power)
    return [AirStrike(groups=[StrikeGroup(target=target.id, aircraft=[u.id for u in strike])])]


def _boardings(state: ShipsState, player: str) -> list[Any]:
    out: list[Any] = []
    for ship in state.units.values():
        if ship.owner != player or ship.kind != "ship" or ship.status != "active":
            continue
        if ship.id in state.acted:
            continue
        for target in state.units.values():
            if target.kind != "ship" or target.owner == player or target.status != "active":
                continue
            a, d = combat.boarding_values(state, ship, target)
            if combat.captured(state, a, d):
                out.append(Board(ship=ship.id, target=target.id))
    return out


def _defence(state: ShipsState, player: str) -> Defend:
    pending = state.pending
    assert pending is not None
    cards = state.data.cards.by_id()
    attack = [cards[c] for c in pending.cards]
    chosen: list[DefenceCard] = []
    for card_id in state.players[player].hand:
        card = cards.get(card_id)
        if not isinstance(card, DefenceCard):
            continue
        before = len(combat.cancelled_by(attack, chosen))
        if len(combat.cancelled_by(attack, [*chosen, card])) > before:
            chosen.append(card)
    return Defend(cards=[c.id for c in chosen])


def candidates(state: ShipsState, player: str | None) -> list[Any]:
    """Orders the bot considers now, best first (the first valid one is played)."""
    if player is None:
        if state.phase != "setup":
            return []
        if state.physical and not state.deck_known and not state.named_cards:
            return [scribe_start(state)]
        return [StartBattle()]
    if player not in to_act(state):
        return []
    if state.pending is not None:
        return [_defence(state, player)]
    cards = state.data.cards.by_id()
    if state.phase == "formation":
        fleet = plan_fleet(state, player)
        digest, salt = fleet_seal(state, player, fleet)
        return [FormFleet(digest=digest, fleet=fleet, salt=salt)]
    if state.phase == "reveal":
        return [RevealFleet(fleet=plan_fleet(state, player), salt=bot_salt(state, player))]
    if state.phase == "minovsky":
        holds = any(isinstance(cards.get(c), MinovskyCard) for c in state.players[player].hand)
        ours = sum(
            combat.guns(state, u, "long")
            for u in state.units.values()
            if u.kind == "ship" and u.owner == player and u.status == "active"
        )
        theirs = sum(
            combat.guns(state, u, "long")
            for u in state.units.values()
            if u.kind == "ship" and u.owner != player and u.status == "active"
        )
        return [Minovsky(disperse=holds and state.segment == "long" and theirs > ours)]
    if state.phase == "launch":
        ready = [
            u.id
            for u in state.units.values()
            if u.owner == player
            and u.kind == "aircraft"
            and u.air == "aboard"
            and u.status == "active"
            and state.units[u.on or ""].status == "active"
        ]
        return [LaunchAircraft(aircraft=ready, pilots=_pilot_moves(state, player, ready))]
    segment = state.segment
    found: list[Any] = []
    if segment == "aircraft":
        found = _air(state, player)
    elif segment == "boarding":
        found = _boardings(state, player)
    else:
        found = _attacks(state, player)
    return [*found, EndTurn()]


_CHECK: dict[type, Callable[[ShipsState, str, Any], Any]] = {
    Attack: turns.attack,
    LineAttack: turns.line_attack,
    Hack: turns.hack,
    AirStrike: turns.air_strike,
    Board: turns.board,
    EndTurn: turns.end_turn,
}


def legal_commands(state: ShipsState, player: str | None) -> list[Any]:
    found = []
    for cmd in candidates(state, player):
        check = _CHECK.get(type(cmd))
        if check is None or (player is not None and accepted(state, player, check, cmd)):
            found.append(cmd)
    return found


def bot_command(state: ShipsState, player: str | None) -> Any:
    found = legal_commands(state, player)
    return found[0] if found else None
