"""The Combat Phase's orders (ST-2, ST-3, ST-5): the Minovsky question, the aircraft launch,
attacks and line attacks with defence cards, air strikes, boarding, hacking and the end of a turn.

Each player's results apply at once (ST-2.3): every hit is folded into the state before the next
order. How much a hit does is the provisional combat engine's business (``combat.py``)."""

from __future__ import annotations

from collections import Counter

from domain.errors import IllegalCommand, InvalidCommand, NotYourTurn, WrongPhase
from domain.rulesets.ships import combat
from domain.rulesets.ships import events as ev
from domain.rulesets.ships import provisional as prov
from domain.rulesets.ships.board import line_centres, line_players
from domain.rulesets.ships.commands import (
    AirStrike,
    Attack,
    Board,
    Defend,
    EndTurn,
    Hack,
    LaunchAircraft,
    LineAttack,
    Minovsky,
)
from domain.rulesets.ships.data import (
    AttackCard,
    DefenceCard,
    HackingCard,
    MinovskyCard,
    Segment,
)
from domain.rulesets.ships.flow import Emitter, step_done
from domain.rulesets.ships.state import ShipsState, Unit
from domain.words import possessive

SEGMENT_RULE: dict[str, str] = {
    "long": "ST-3.1",
    "medium": "ST-3.2",
    "aircraft": "ST-3.3",
    "short": "ST-3.4",
    "boarding": "ST-3.5",
}
FIRE_SEGMENTS = ("long", "medium", "short")
# ST-3.2 / ST-3.4: the boxes whose ships must attack someone in a segment
MANDATORY: dict[str, tuple[str, ...]] = {
    "medium": ("vanguard",),
    "short": ("vanguard", "rearguard"),
}


def _turn(state: ShipsState, side: str | None, phase: str, rule: str) -> str:
    """The acting player, or a refusal: wrong step, someone else's turn, an attack waiting."""
    if state.phase != phase:
        raise WrongPhase(f"this is not the {phase} step (now: {state.phase})", rule=rule)
    if state.pending is not None:
        raise NotYourTurn(
            f"an attack waits for {possessive(state.pending.defenders[0])} defence cards",
            rule="ST-2.3",
        )
    active = state.active
    if side is None or side != active:
        raise NotYourTurn(
            f"it is {possessive(active)} turn, not {possessive(side or 'the umpire')}", rule=rule
        )
    return side


def _segment(state: ShipsState) -> Segment:
    assert state.segment is not None
    return state.segment


def _held(state: ShipsState, player: str, cards: list[str], rule: str) -> None:
    missing = Counter(cards) - Counter(state.players[player].hand)
    if missing:
        raise IllegalCommand(f"{player} does not hold {sorted(missing.elements())}", rule=rule)


def _own_unit(state: ShipsState, player: str, uid: str, kind: str, rule: str) -> Unit:
    unit = state.units.get(uid)
    if unit is None or unit.kind != kind:
        raise InvalidCommand(f"there is no {kind} {uid!r} on the table", rule=rule)
    if unit.owner != player:
        raise IllegalCommand(f"{uid} belongs to {unit.owner}, not {player}", rule=rule)
    if unit.status != "active":
        raise IllegalCommand(f"{uid} is {unit.status}", rule=rule)
    return unit


def _enemy_ship(state: ShipsState, player: str, uid: str, rule: str) -> Unit:
    unit = state.units.get(uid)
    if unit is None or unit.kind != "ship":
        raise InvalidCommand(f"there is no ship {uid!r} on the table", rule=rule)
    if unit.owner == player:
        raise IllegalCommand(f"{uid} is {possessive(player)} own ship", rule=rule)
    if unit.status != "active":
        raise IllegalCommand(f"{uid} is {unit.status}", rule=rule)
    return unit


# --- ST-5.3 Minovsky particles, ST-3.3.1 launch ------------------------------------------------


def minovsky(state: ShipsState, side: str | None, cmd: Minovsky) -> Emitter:
    """ST-5.3: answer the Minovsky question; dispersing spends a Minovsky card."""
    player = _turn(state, side, "minovsky", "ST-5.3")
    card = None
    if cmd.disperse:
        cards = state.data.cards.by_id()
        card = next(
            (c for c in state.players[player].hand if isinstance(cards.get(c), MinovskyCard)),
            None,
        )
        if card is None:
            raise IllegalCommand(f"{player} holds no Minovsky particle card", rule="ST-5.3")
    em = Emitter(state)
    em.emit(ev.MinovskyAnswered(player=player, dispersed=cmd.disperse, card=card))
    step_done(em)
    return em


def launch(state: ShipsState, side: str | None, cmd: LaunchAircraft) -> Emitter:
    """ST-3.3.1: put aircraft out, in turn order; pilots may move to another aircraft."""
    player = _turn(state, side, "launch", "ST-3.3.1")
    for uid in cmd.aircraft:
        plane = _own_unit(state, player, uid, "aircraft", "ST-3.3.1")
        carrier = state.units.get(plane.on or "")
        if plane.air != "aboard" or carrier is None or carrier.status != "active":
            raise IllegalCommand(f"{uid} is not aboard a ship of {player}", rule="ST-3.3.1")
    if len(set(cmd.aircraft)) != len(cmd.aircraft):
        raise InvalidCommand("an aircraft is named twice", rule="ST-3.3.1")
    for pilot, plane_id in cmd.pilots.items():
        who = _own_unit(state, player, pilot, "character", "ST-3.3.1")
        seat = state.units.get(who.on or "")
        if seat is None or seat.kind != "aircraft":
            raise IllegalCommand(f"{pilot} is not an aircraft pilot", rule="ST-3.3.1")
        _own_unit(state, player, plane_id, "aircraft", "ST-3.3.1")
    em = Emitter(state)
    em.emit(ev.AircraftLaunched(player=player, aircraft=cmd.aircraft, pilots=cmd.pilots))
    step_done(em)
    return em


# --- attacks -----------------------------------------------------------------------------------


def playable(state: ShipsState, ship: Unit, card_id: str, segment: Segment) -> AttackCard | None:
    """The attack card if ``ship`` may fire it in ``segment`` (not a line weapon)."""
    card = state.data.cards.by_id().get(card_id)
    if not isinstance(card, AttackCard) or card.line or segment not in card.segments:
        return None
    if state.minovsky and card.weapon in state.data.combat.minovsky_blocks_weapons:
        return None
    if card.requires_tag and card.requires_tag not in combat.ship_card(state, ship).tags:
        return None
    return card


def targets_for(
    state: ShipsState, player: str, segment: Segment, cards: list[AttackCard], *, air: bool = False
) -> list[Unit]:
    """Enemy ships an attack with these cards may aim at now."""
    return [
        u
        for u in state.units.values()
        if u.kind == "ship"
        and u.status == "active"
        and u.owner != player
        and combat.reaches(state, u, segment, cards, air=air)
    ]


def can_attack(state: ShipsState, ship: Unit, segment: Segment) -> bool:
    """Whether a ship has something to fire and someone to fire at (ST-3.2/3.4 apply to it)."""
    if combat.guns(state, ship, segment) > 0 and targets_for(state, ship.owner, segment, []):
        return True
    for card_id in set(state.players[ship.owner].hand):
        card = playable(state, ship, card_id, segment)
        if card is not None and targets_for(state, ship.owner, segment, [card]):
            return True
    return False


def attack(state: ShipsState, side: str | None, cmd: Attack) -> Emitter:
    """Fire a ship's guns and attack cards at one enemy ship (saturation with several cards).

    Raises:
        WrongPhase, NotYourTurn; IllegalCommand: not a fire segment, the ship fired already, a
        card not in hand or not playable, a target out of reach, nothing to fire.
    """
    player = _turn(state, side, "turns", "ST-2.2")
    segment = _segment(state)
    rule = SEGMENT_RULE[segment]
    if segment not in FIRE_SEGMENTS:
        raise WrongPhase(f"ships fire in the gunnery segments, not the {segment} one", rule=rule)
    ship = _own_unit(state, player, cmd.ship, "ship", rule)
    if ship.id in state.acted:
        raise IllegalCommand(f"{ship.id} has attacked this segment already", rule=rule)
    _held(state, player, cmd.cards, rule)
    cards: list[AttackCard] = []
    for card_id in cmd.cards:
        card = playable(state, ship, card_id, segment)
        if card is None:
            message, why = _unplayable(state, ship, card_id, segment)
            raise IllegalCommand(message, rule=why)
        cards.append(card)
    target = _enemy_ship(state, player, cmd.target, rule)
    if not combat.reaches(state, target, segment, cards, air=False):
        raise IllegalCommand(
            f"{target.id} is in {possessive(target.owner)} rearguard, out of reach of this attack "
            + prov.cite(prov.REACH, "which attacks reach a rearguard"),
            rule=prov.REACH,
        )
    gun_value = combat.guns(state, ship, segment)
    if gun_value == 0 and not cards:
        why = prov.silenced(state, ship, segment) or prov.CARD
        raise IllegalCommand(
            f"{ship.id} has nothing to fire at {segment} range {_silent(why, segment)}", rule=why
        )
    defenders = [target.owner] if cards else []
    em = Emitter(state)
    em.emit(
        ev.AttackDeclared(
            player=player,
            ship=ship.id,
            segment=segment,
            cards=cmd.cards,
            targets=[target.id],
            defenders=defenders,
            rule=rule,
        )
    )
    if not defenders:
        _resolve(em)
    return em


def _silent(rule: str, segment: str) -> str:
    """Why a ship's own guns fire 0, citing the provisional rule."""
    if rule == prov.HACK:
        return prov.cite(rule, "a hacked ship's guns fire 0 for the rest of the battle")
    if rule == prov.MINOVSKY:
        return prov.cite(rule, f"dispersed Minovsky particles silence guns at {segment} range")
    return prov.cite(rule, f"its guns at {segment} range are 0")


def _unplayable(state: ShipsState, ship: Unit, card_id: str, segment: Segment) -> tuple[str, str]:
    """Why ``ship`` may not fire ``card_id`` in ``segment`` (the message and its rule): the
    seed's rule where it says so, else the provisional rule the refusal rests on."""
    card = state.data.cards.by_id().get(card_id)
    if not isinstance(card, AttackCard):
        return f"{card_id} is not an attack card " + prov.cite(prov.CARD, "card data"), prov.CARD
    if card.line:
        return f"{card.name} is a line weapon: fire it with line_attack", "ST-3.1"
    if segment not in card.segments:
        played = ", ".join(card.segments)
        why = prov.cite(prov.CARD, f"it is played at {played} range")
        return f"{card.name} cannot be fired at {segment} range {why}", prov.CARD
    if state.minovsky and card.weapon in state.data.combat.minovsky_blocks_weapons:
        why = prov.cite(prov.MINOVSKY, f"dispersed Minovsky particles block {card.weapon} cards")
        return f"{card.name} cannot be played {why}", prov.MINOVSKY
    needs = prov.cite(prov.CARD, f"it needs a ship with the {card.requires_tag} tag")
    return f"{ship.id} cannot fire {card.name} {needs}", prov.CARD


def line_attack(state: ShipsState, side: str | None, cmd: LineAttack) -> Emitter:
    """ST-3.1: a line weapon at a centre player: the vanguards of the centre and both its
    neighbours in seating order.

    Raises:
        IllegalCommand: not the long-range segment, not a line weapon card, the ship cannot
            fire it, or the line hits no enemy vanguard.
    """
    player = _turn(state, side, "turns", "ST-2.2")
    segment = _segment(state)
    if segment != "long":
        raise IllegalCommand("line weapons fire in the long-range segment", rule="ST-3.1")
    ship = _own_unit(state, player, cmd.ship, "ship", "ST-3.1")
    if ship.id in state.acted:
        raise IllegalCommand(f"{ship.id} has attacked this segment already", rule="ST-3.1")
    _held(state, player, [cmd.card], "ST-3.1")
    card = state.data.cards.by_id().get(cmd.card)
    if not isinstance(card, AttackCard) or not card.line:
        raise IllegalCommand(f"{cmd.card} is not a line weapon", rule="ST-3.1")
    if card.requires_tag and card.requires_tag not in combat.ship_card(state, ship).tags:
        needs = prov.cite(prov.CARD, f"it needs a ship with the {card.requires_tag} tag")
        raise IllegalCommand(f"{ship.id} cannot fire {card.name} {needs}", rule=prov.CARD)
    if cmd.centre not in state.order:
        raise InvalidCommand(f"{cmd.centre} is not fighting this battle", rule="ST-3.1")
    if cmd.centre not in line_centres(state, player):
        raise IllegalCommand(
            "the line's centre must be another player (option line_centre_on_self is off)",
            rule="ST-3.1",
        )
    seats = line_players(state, cmd.centre, player)
    targets = [
        u.id
        for pid in seats
        for u in state.units.values()
        if u.owner == pid and u.kind == "ship" and u.box == "vanguard" and u.status == "active"
    ]
    if not targets:
        raise IllegalCommand("the line hits no enemy vanguard", rule="ST-3.1")
    defenders = [p for p in state.order if p in {state.units[t].owner for t in targets}]
    em = Emitter(state)
    em.emit(
        ev.AttackDeclared(
            player=player,
            ship=ship.id,
            segment=segment,
            cards=[cmd.card],
            targets=targets,
            defenders=defenders,
            line=True,
            centre=cmd.centre,
            rule="ST-3.1",
        )
    )
    return em


def defend(state: ShipsState, side: str | None, cmd: Defend) -> Emitter:
    """Defence cards against the attack waiting on this player; the attack then resolves once
    every target player has answered.

    Raises:
        NotYourTurn: no attack waits on this player. IllegalCommand: not held, not a defence card.
    """
    pending = state.pending
    if pending is None or not pending.defenders or pending.defenders[0] != side:
        who = pending.defenders[0] if pending and pending.defenders else "nobody"
        raise NotYourTurn(
            f"no attack waits for {possessive(side)} defence ({who} answers)", rule="ST-2.3"
        )
    _held(state, side, cmd.cards, "ST-2.3")
    cards = state.data.cards.by_id()
    for card_id in cmd.cards:
        if not isinstance(cards.get(card_id), DefenceCard):
            raise IllegalCommand(f"{card_id} is not a defence card", rule="ST-2.3")
    em = Emitter(state)
    em.emit(ev.DefencePlayed(player=side, cards=cmd.cards))
    if em.state.pending is not None and not em.state.pending.defenders:
        _resolve(em)
    return em


def _resolve(em: Emitter) -> None:
    """Apply the waiting attack to each target, one after the other (ST-2.3)."""
    pending = em.state.pending
    assert pending is not None
    cards = em.state.data.cards.by_id()
    attack_cards = [cards[c] for c in pending.cards]
    ship = em.state.units[pending.ship]
    gun_value = 0 if pending.line else combat.guns(em.state, ship, pending.segment)
    rule = "ST-3.1" if pending.line else SEGMENT_RULE[pending.segment]
    for target_id in pending.targets:
        target = em.state.units[target_id]
        if target.status != "active":
            continue
        defence = [cards[c] for c in pending.defences.get(target.owner, ())]
        _hit(em, pending.player, pending.ship, target, gun_value, attack_cards, defence, rule)


def _hit(
    em: Emitter,
    player: str,
    source: str,
    target: Unit,
    gun_value: int,
    attack_cards: list[AttackCard],
    defence: list[DefenceCard],
    rule: str,
) -> None:
    state = em.state
    out = combat.resolve_hit(state, target, gun_value, attack_cards, defence)
    earlier = sorted({d.by for d in state.damage_log if d.target == target.id and d.by != player})
    em.emit(
        ev.HitResolved(
            player=player,
            source=source,
            target=target.id,
            owner=target.owner,
            segment=_segment(state),
            guns=out.guns,
            cards=[c.id for c in attack_cards],
            values=out.values,
            cancelled=out.cancelled,
            saturation=out.saturation,
            armour=out.armour,
            damage=out.damage,
            total=out.total,
            hull=out.hull,
            sunk=out.sunk,
            vp=combat.ship_card(state, target).vp if out.sunk else 0,
            earlier_hitters=earlier,
            ship=source if source in state.units and state.units[source].kind == "ship" else None,
            rule="ST-5.1" if out.sunk else rule,
        )
    )


# --- ST-3.3 aircraft ----------------------------------------------------------------------------


def air_strike(state: ShipsState, side: str | None, cmd: AirStrike) -> Emitter:
    """ST-3.3.2–3.3.6: groups aimed at other players' ships; over each targeted player with
    aircraft out an air battle (simultaneous); survivors hit their ship (none out: straight to
    the anti-ship attack, ST-3.3.4). Several players may be attacked at once (ST-3.3.5).

    Raises:
        IllegalCommand: not the aircraft segment, an aircraft not out or used this turn, a
            target that is own or out of reach.
    """
    player = _turn(state, side, "turns", "ST-2.2")
    if _segment(state) != "aircraft":
        raise WrongPhase("air strikes fly in the carrier-aircraft segment", rule="ST-3.3")
    if not cmd.groups:
        raise InvalidCommand("an air strike needs at least one group", rule="ST-3.3.2")
    seen: set[str] = set()
    for group in cmd.groups:
        target = _enemy_ship(state, player, group.target, "ST-3.3.2")
        if not combat.reaches(state, target, "aircraft", [], air=True):
            raise IllegalCommand(
                f"{target.id} is out of the aircraft's reach "
                + prov.cite(prov.REACH, "which attacks reach a rearguard"),
                rule=prov.REACH,
            )
        if not group.aircraft:
            raise InvalidCommand("a group needs at least one aircraft", rule="ST-3.3.2")
        for uid in group.aircraft:
            plane = _own_unit(state, player, uid, "aircraft", "ST-3.3.2")
            if plane.air != "out" or uid in state.acted or uid in seen:
                raise IllegalCommand(f"{uid} is not out and ready to strike", rule="ST-3.3.2")
            seen.add(uid)
    em = Emitter(state)
    em.emit(
        ev.AirStrikeFlown(player=player, groups={g.target: list(g.aircraft) for g in cmd.groups})
    )
    # ST-3.3.6: every air battle of this strike worked out on the aircraft before any loss
    by_defender: dict[str, list[Unit]] = {}
    for group in cmd.groups:
        owner = state.units[group.target].owner
        by_defender.setdefault(owner, []).extend(state.units[a] for a in group.aircraft)
    fights = []
    for defender in [p for p in state.order if p in by_defender]:
        interceptors = [
            u
            for u in state.units.values()
            if u.owner == defender
            and u.kind == "aircraft"
            and u.air == "out"
            and u.status == "active"
        ]
        if not interceptors:
            continue  # ST-3.3.4
        a, d, lost_a, lost_d = combat.dogfight(state, by_defender[defender], interceptors)
        fights.append(
            ev.DogfightResolved(
                attacker=player,
                defender=defender,
                attack_strength=a,
                defence_strength=d,
                attackers_lost=lost_a,
                defenders_lost=lost_d,
            )
        )
    for fight in fights:
        em.emit(fight)
    for group in cmd.groups:
        alive = [a for a in group.aircraft if em.state.units[a].status == "active"]
        target = em.state.units[group.target]
        if not alive or target.status != "active":
            continue
        power = sum(combat.aircraft_values(em.state, em.state.units[a])[0] for a in alive)
        _hit(em, player, "+".join(alive), target, power, [], [], "ST-3.3.2")
    return em


# --- ST-3.5 boarding, ST-5.2 hacking, end of turn ------------------------------------------------


def board(state: ShipsState, side: str | None, cmd: Board) -> Emitter:
    """ST-3.5: board an enemy ship (vanguard and rearguard may board different players' ships);
    only the target's own characters defend it: no blocking by its other ships.

    Raises:
        IllegalCommand: not the boarding segment, the ship boarded already, a target out of reach.
    """
    player = _turn(state, side, "turns", "ST-2.2")
    if _segment(state) != "boarding":
        raise WrongPhase("boarding is the last segment", rule="ST-3.5")
    ship = _own_unit(state, player, cmd.ship, "ship", "ST-3.5")
    if ship.id in state.acted:
        raise IllegalCommand(f"{ship.id} has boarded this segment already", rule="ST-3.5")
    target = _enemy_ship(state, player, cmd.target, "ST-3.5")
    table = state.data.combat
    exposed = table.exposed_rearguard and not combat.has_vanguard(state, target.owner)
    if target.box == "rearguard" and not (table.boarding_reaches_rearguard or exposed):
        raise IllegalCommand(
            f"{target.id} is in the rearguard, out of reach "
            + prov.cite(prov.REACH, "boarding reaches an exposed rearguard only"),
            rule=prov.REACH,
        )
    a, d = combat.boarding_values(state, ship, target)
    took = combat.captured(state, a, d)
    em = Emitter(state)
    em.emit(
        ev.BoardingResolved(
            player=player,
            ship=ship.id,
            target=target.id,
            owner=target.owner,
            attack=a,
            defence=d,
            margin=table.boarding_capture_margin,
            captured=took,
            vp=combat.ship_card(state, target).vp if took else 0,
        )
    )
    return em


def hack(state: ShipsState, side: str | None, cmd: Hack) -> Emitter:
    """ST-5.2: a hacking card against enemy ships, of one player or several.

    Raises:
        IllegalCommand: not a gunnery segment, not held, not a hacking card, too many targets.
    """
    player = _turn(state, side, "turns", "ST-2.2")
    if _segment(state) not in FIRE_SEGMENTS:
        raise WrongPhase(
            "hacking is played in a gunnery segment "
            + prov.cite(prov.HACK, "when a hacking card is played"),
            rule=prov.HACK,
        )
    _held(state, player, [cmd.card], "ST-5.2")
    card = state.data.cards.by_id().get(cmd.card)
    if not isinstance(card, HackingCard):
        raise IllegalCommand(f"{cmd.card} is not a hacking card", rule="ST-5.2")
    if (
        not cmd.targets
        or len(cmd.targets) > card.targets
        or len(set(cmd.targets)) < len(cmd.targets)
    ):
        raise IllegalCommand(
            f"{card.name} hacks 1 to {card.targets} different ships "
            + prov.cite(prov.CARD, "how many ships a hacking card reaches"),
            rule=prov.CARD,
        )
    for uid in cmd.targets:
        _enemy_ship(state, player, uid, "ST-5.2")
    em = Emitter(state)
    em.emit(ev.ShipsHacked(player=player, card=cmd.card, targets=cmd.targets))
    return em


def unfired(state: ShipsState, player: str) -> list[str]:
    """Ships that must still attack in this segment (ST-3.2, ST-3.4)."""
    segment = _segment(state)
    boxes = MANDATORY.get(segment, ())
    return [
        u.id
        for u in state.units.values()
        if u.owner == player
        and u.kind == "ship"
        and u.status == "active"
        and u.box in boxes
        and u.id not in state.acted
        and can_attack(state, u, segment)
    ]


def end_turn(state: ShipsState, side: str | None, cmd: EndTurn) -> Emitter:
    """End this player's turn: refused while a ship that must attack has not (ST-3.2, ST-3.4).
    In the aircraft segment, ``recover`` sends aircraft back to their ships (ST-3.3.7).

    Raises:
        IllegalCommand: a mandatory attack skipped; aircraft to recover that are not out.
    """
    player = _turn(state, side, "turns", "ST-2.2")
    segment = _segment(state)
    owing = unfired(state, player)
    if owing:
        message = f"{', '.join(owing)} must attack some player's fleet before the turn ends"
        silent = [(u, prov.silenced(state, state.units[u], segment)) for u in owing]
        forced = [(u, why) for u, why in silent if why is not None]
        if not forced:
            raise IllegalCommand(message, rule=SEGMENT_RULE[segment])
        ship, why = forced[0]
        raise IllegalCommand(
            f"{message} ({SEGMENT_RULE[segment]}); {ship} can only do it with an attack card "
            + _silent(why, segment),
            rule=why,
        )
    if cmd.recover and segment != "aircraft":
        raise IllegalCommand("aircraft return at the end of an aircraft turn", rule="ST-3.3.7")
    for uid in cmd.recover:
        plane = _own_unit(state, player, uid, "aircraft", "ST-3.3.7")
        if plane.air != "out":
            raise IllegalCommand(f"{uid} is not out", rule="ST-3.3.7")
    em = Emitter(state)
    if cmd.recover:
        em.emit(ev.AircraftReturned(player=player, aircraft=cmd.recover))
    em.emit(ev.TurnEnded(player=player, segment=segment))
    step_done(em)
    return em
