"""SHIPS & TACTICS read model (a zone board: seats × boxes) and one-line event descriptions.

Hand cards are ``private`` units in each seat's ``hand`` zone: ``domain.read_model.redact_view``
shows a player only its own; a fleet placed face down is a sealed marker until revealed.
"""

from __future__ import annotations

from domain.cards import describe_draw
from domain.events import CardDrawn, CommandIssued, DiceRolled, DomainEvent, GameEnded
from domain.read_model import BoardView, Detail, GameView, ResultView, SideView, UnitView
from domain.rulesets.ships import events as ev
from domain.rulesets.ships import provisional as prov
from domain.rulesets.ships.board import ZONES
from domain.rulesets.ships.combat import has_vanguard
from domain.rulesets.ships.data import (
    AircraftCard,
    AttackCard,
    CharacterCard,
    DefenceCard,
    ShipCard,
)
from domain.rulesets.ships.fleet import fleet_text
from domain.rulesets.ships.state import ShipsState, Unit
from domain.words import list_text, possessive, value_text

PROVISIONAL = "provisional combat engine and card data (ST-GAPS): see docs/ships.md"
RANGES = ("long", "medium", "short")
"""The fire segments, each named by its range (ST-2.2)."""

SEGMENT_NAMES = {
    "long": "long-range fire",
    "medium": "medium-range fire",
    "aircraft": "carrier aircraft",
    "short": "short-range fire",
    "boarding": "boarding",
}


def _name(state: ShipsState, card_id: str) -> str:
    card = state.data.cards.by_id().get(card_id)
    return card.name if card is not None else card_id


def _ship_view(state: ShipsState, u: Unit) -> UnitView:
    card = state.data.cards.by_id()[u.card]
    assert isinstance(card, ShipCard)
    aboard = [x for x in state.units.values() if x.on == u.id]
    details: dict[str, Detail] = {
        "seat": u.owner,
        "box": u.box,
        "class": card.name,
        "vp": card.vp,
        "armour": card.armour,
        "guns": f"{card.guns.long}/{card.guns.medium}/{card.guns.short}",
        "characters": ", ".join(_name(state, x.card) for x in aboard if x.kind == "character"),
        "aircraft": sum(1 for x in aboard if x.kind == "aircraft"),
        "hacked": u.hacked,
        "combined": ", ".join(_name(state, c) for c in u.extra_cards),
        "provisional": True,
    }
    return UnitView(
        id=u.id,
        side=u.owner,
        name=card.name,
        kind="ship",
        status=u.status,
        damage=u.damage,
        strength=card.hull,
        zone=u.box,
        details=details,
        tile={"attack": details["guns"], "hull": card.hull},
    )


def _aircraft_view(state: ShipsState, u: Unit) -> UnitView:
    card = state.data.cards.by_id()[u.card]
    assert isinstance(card, AircraftCard)
    pilots = [x for x in state.units.values() if x.on == u.id and x.kind == "character"]
    return UnitView(
        id=u.id,
        side=u.owner,
        name=card.name,
        kind="aircraft",
        status=u.status,
        damage=0,
        strength=1,
        zone="air" if u.air in ("out", "returning") else u.box,
        details={
            "seat": u.owner,
            "carrier": u.on,
            "state": u.air,
            "attack": card.attack,
            "dogfight": card.dogfight,
            "pilots": ", ".join(_name(state, p.card) for p in pilots),
        },
    )


SEGMENT_STEPS = {"minovsky": "Minovsky dispersal"}
"""A segment's step in words where its name is an id too (``minovsky`` is also a card's id):
each player in turn order is asked whether they disperse Minovsky particles (ST-5.3)."""


def read_model(state: ShipsState) -> GameView:
    units: list[UnitView] = []
    for u in state.units.values():
        if u.kind == "ship":
            units.append(_ship_view(state, u))
        elif u.kind == "aircraft":
            units.append(_aircraft_view(state, u))
    cards = state.data.cards.by_id()
    for pid in state.seating:
        if pid in state.sealed and pid not in state.revealed and not state.units:
            units.append(
                UnitView(
                    id=f"{pid}-sealed-fleet",
                    side=pid,
                    name="fleet face down",
                    kind="sealed",
                    status="active",
                    damage=0,
                    strength=1,
                    zone="vanguard",
                    details={"seat": pid, "commitment": state.sealed[pid][:12]},
                )
            )
        planned = state.planned.get(pid) if not state.units else None
        in_hand = list(state.players[pid].hand)
        if planned is not None:  # the face-down fleet, seen by its owner only
            for box in ("vanguard", "rearguard"):
                for n, plan in enumerate(getattr(planned, box), start=1):
                    aircraft = ", ".join(_name(state, a.card) for a in plan.aircraft)
                    units.append(
                        UnitView(
                            id=f"{pid}-face-down-{box[0].upper()}{n}",
                            side=pid,
                            name=_name(state, plan.card),
                            kind="face-down ship",
                            status="active",
                            damage=0,
                            strength=1,
                            zone=box,
                            details={
                                "seat": pid,
                                "card": plan.card,
                                "aircraft": aircraft,
                                "characters": ", ".join(
                                    _name(state, c)
                                    for c in [
                                        *plan.characters,
                                        *(x for a in plan.aircraft for x in a.characters),
                                    ]
                                ),
                            },
                            private=True,
                        )
                    )
            for card_id in planned.cards():
                if card_id in in_hand:
                    in_hand.remove(card_id)
        for i, card_id in enumerate(in_hand, start=1):
            card = cards.get(card_id)
            units.append(
                UnitView(
                    id=f"{pid}-hand-{i}",
                    side=pid,
                    name=card.name if card is not None else card_id,
                    kind=f"{card.kind} card" if card is not None else "card",
                    status="active",
                    damage=0,
                    strength=1,
                    zone="hand",
                    details={"seat": pid, "card": card_id},
                    private=True,
                )
            )
    sides = []
    for pid in state.seating:
        p = state.players[pid]
        ships = [u for u in state.units.values() if u.owner == pid and u.kind == "ship"]
        sides.append(
            SideView(
                id=pid,
                name=p.name,
                vp=p.vp,
                units_total=len(ships),
                units_active=sum(1 for u in ships if u.status == "active"),
                details={
                    "seat": state.seating.index(pid) + 1,
                    "turn order": state.order.index(pid) + 1 if pid in state.order else None,
                    "deck": p.deck_id,
                    "hand": len(p.hand),
                    "deck left": len(p.deck),
                    "dropped out": p.out,
                },
            )
        )
    result = None
    if state.finished:
        vp = {pid: p.vp for pid, p in state.players.items()}
        best = max(vp.values())
        leaders = [pid for pid, v in vp.items() if v == best]
        result = ResultView(
            winner=leaders[0] if len(leaders) == 1 else None,
            reason="most VP" if len(leaders) == 1 else "tied for most VP",
            rule="ST-4.4",
            vp=vp,
        )
    phase: str = state.phase
    if state.segment and phase in ("minovsky", "launch", "turns"):
        phase = f"{SEGMENT_NAMES[state.segment]} ({SEGMENT_STEPS.get(phase, phase)})"
    notes = [PROVISIONAL]
    if state.minovsky:
        notes.append("Minovsky particles dispersed (ST-5.3)")
    active = state.pending.defenders[0] if state.pending and state.pending.defenders else None
    return GameView(
        ruleset="ships",
        ruleset_name="SHIPS & TACTICS multiplayer",
        scenario=state.scenario.title or state.scenario.id,
        turn=max(state.battle, 1),
        phase=phase,
        active_side=active or state.active,
        sides=sides,
        units=units,
        board=BoardView(
            kind="zones",
            width=len(state.seating),
            height=len(ZONES),
            unit="box",
            zones=list(ZONES),
            seats=list(state.seating),
            seating="ring",  # ST-3.1: the players sit round the table, the last beside the first
        ),
        result=result,
        notes=notes,
    )


def _at_range(segment: str) -> str:
    """The range of a fire segment (ST-2.2: the segment is the range), else nothing."""
    return f" at {segment} range" if segment in RANGES else ""


def hit_notes(state: ShipsState, event: DomainEvent) -> list[str]:
    """What settles a hit (issue 21 item 8): each attack card's text, each cancelled card with
    the defence card that cancelled it, and why the ship's guns were 0 when they were (hacked,
    ST-5.2; Minovsky particles, ST-5.3; no guns at this range)."""
    if not isinstance(event, ev.HitResolved):
        return []
    cards = state.data.cards.by_id()
    lines: list[str] = []
    for card_id, value in zip(event.cards, event.values, strict=False):
        card = cards.get(card_id)
        if isinstance(card, AttackCard):
            ranges = ", ".join(card.segments)
            line = " (line weapon, ST-3.1)" if card.line else ""
            lines.append(
                f"card {card.name}: {card.weapon} attack {value}, played at {ranges} range{line}"
            )
    defences = [
        cards[c]
        for played in (state.pending.defences.values() if state.pending else ())
        for c in played
        if isinstance(cards.get(c), DefenceCard)
    ]
    for card_id in event.cancelled:
        card = cards.get(card_id)
        weapon = getattr(card, "weapon", "")
        by = next((d for d in defences if weapon in d.cancels), None)
        name = getattr(card, "name", card_id)
        reason = f"{by.name} cancels {weapon} cards" if by else f"a defence card cancels {weapon}"
        lines.append(f"{name} cancelled: {reason} {prov.tag(prov.HIT)}")
    shooter = state.units.get(event.ship) if event.ship else None
    if shooter is not None and event.guns == 0:
        table = state.data.combat
        if shooter.hacked:
            why = "the ship was hacked: its guns are silent this battle (ST-5.2)"
        elif state.minovsky and event.segment in table.minovsky_guns_off:
            why = f"Minovsky particles silence guns at {event.segment} range (ST-5.3)"
        else:
            why = f"the ship card has no guns at {event.segment} range"
        lines.append(f"guns 0: {why}")
    return lines


def attack_notes(state: ShipsState, event: DomainEvent) -> list[str]:
    """Where each target of a declared attack stands when it is declared: the zone relation
    that, with the segment's range, decides whether the attack reaches it (the vanguard always;
    the rearguard per the provisional reach rules, ST-GAPS). Fleets are face up by then (ST-1.9),
    so this is public."""
    if not isinstance(event, ev.AttackDeclared):
        return []
    table = state.data.combat
    cards = state.data.cards.by_id()
    weapons = sorted({getattr(cards.get(c), "weapon", "?") for c in event.cards})
    lines: list[str] = []
    for target_id in event.targets:
        target = state.units.get(target_id)
        if target is None:
            continue
        where = f"{target_id} stands in {possessive(target.owner)} {target.box}"
        if target.box == "vanguard":
            lines.append(f"{where}: every attack reaches the vanguard (ST-0)")
            continue
        if table.exposed_rearguard and not has_vanguard(state, target.owner):
            why = "no vanguard ship is left, so the rearguard is exposed"
        elif event.cards:
            why = f"reached by {', '.join(weapons)} cards (rearguard weapons: " + (
                f"{', '.join(table.rearguard_weapons)})"
            )
        else:
            why = f"reached by guns at {event.segment} range (guns reach the rearguard at: " + (
                f"{', '.join(table.guns_reach_rearguard)})"
            )
        lines.append(f"{where}: {why} {prov.cite(prov.REACH, 'bundled combat data')}")
    return lines


def provisional_notes(state: ShipsState, event: DomainEvent) -> list[str]:
    """What an outcome of a provisional rule rests on, for explanations: the rule's ID and
    summary (marked provisional), with the numbers the bundled combat data gives."""
    table = state.data.combat
    found: list[tuple[str, str]] = []
    if isinstance(event, ev.HitResolved):
        found.append((prov.AIR if event.ship is None else prov.HIT, ""))
        firer = state.units.get(event.ship or "")
        silent = prov.silenced(state, firer, event.segment) if firer is not None else None
        if silent is not None:
            found.append((silent, f"{event.ship} fires guns {event.guns}"))
    elif isinstance(event, ev.DogfightResolved):
        found.append((prov.AIR, ""))
    elif isinstance(event, ev.BoardingResolved):
        found.append((prov.BOARD, f"capture margin {table.boarding_capture_margin}"))
    elif isinstance(event, ev.ShipsHacked):
        found.append((prov.HACK, f"guns {table.hacked_ship_guns}"))
    elif isinstance(event, ev.MinovskyAnswered) and event.dispersed:
        silent = ", ".join(table.minovsky_guns_off) or "no"
        blocked = ", ".join(table.minovsky_blocks_weapons) or "no"
        found.append((prov.MINOVSKY, f"guns silent at {silent} range; {blocked} cards blocked"))
    lines = []
    for rule, detail in found:
        extra = f" (here: {detail})" if detail else ""
        lines.append(f"provisional rule {rule}: {prov.RULES[rule]}{extra}")
    return lines


def describe(event: DomainEvent) -> str:
    e = event
    if isinstance(e, CommandIssued):
        return f"order #{e.index} from {e.side or 'umpire'}: {e.command.get('type')}"
    if isinstance(e, DiceRolled):
        return f"{e.purpose}: {e.outcome}"
    if isinstance(e, CardDrawn):
        return describe_draw(e)
    if isinstance(e, GameEnded):
        return f"game over: {e.winner or 'draw'} ({e.reason}); VP {value_text(e.vp)}"
    if isinstance(e, ev.BattleStarted):
        return f"battle {e.battle} begins"
    if isinstance(e, ev.DeckShuffled):
        how = f"shuffled ({e.odds})" if e.known else "shuffled by hand (order not recorded)"
        return f"{possessive(e.player)} deck of {len(e.deck)} cards {how}"
    if isinstance(e, ev.CardsDrawn):
        why = {"ST-1.2": "draws", "ST-4.3": "refills", "ST-1.7": "has no ship card, draws"}
        empty = " — deck empty" if e.empty else ""
        return f"{e.player} {why.get(e.rule, 'draws')} {len(e.cards)}: {', '.join(e.cards)}{empty}"
    if isinstance(e, ev.TurnOrderDrawn):
        return f"battle {e.battle} turn order {' > '.join(e.order)} (each order {e.p_outcome})"
    if isinstance(e, ev.PlayerDroppedOut):
        return f"{e.player} has no deck and no ship card: out, keeps {e.vp} VP"
    if isinstance(e, ev.FleetCommitted):
        return f"{e.player} places a fleet face down (sealed)"
    if isinstance(e, ev.FleetRevealed):
        v = [s.card for s in e.fleet.vanguard]
        r = [s.card for s in e.fleet.rearguard]
        return f"{e.player} reveals vanguard {list_text(v)}, rearguard {list_text(r)}"
    if isinstance(e, ev.FleetCorrected):
        return (
            f"{possessive(e.player)} face-down fleet ({fleet_text(e.fleet)}) breaks {e.rule}: "
            f"{e.reason}; {e.player} places a fleet face down again (correction)"
        )
    if isinstance(e, ev.FleetsPlaced):
        ships = sum(1 for u in e.units if u.kind == "ship")
        extra = f"; combined {list_text(e.combined)} (ST-5.4)" if e.combined else ""
        return f"all fleets revealed: {ships} ships on the table{extra}"
    if isinstance(e, ev.SegmentStarted):
        return f"{SEGMENT_NAMES[e.segment]} segment"
    if isinstance(e, ev.StepStarted):
        return f"{e.phase}: {e.player}" if e.player else "setting up the next battle"
    if isinstance(e, ev.MinovskyAnswered):
        if not e.dispersed:
            return f"{e.player} does not disperse Minovsky particles"
        return (
            f"{e.player} disperses Minovsky particles: their effect holds for the rest of the "
            f"battle {prov.tag(prov.MINOVSKY)}"
        )
    if isinstance(e, ev.AircraftLaunched):
        moved = (
            ", pilots " + ", ".join(f"{p} to {a}" for p, a in e.pilots.items()) if e.pilots else ""
        )
        return f"{e.player} launches {len(e.aircraft)} aircraft{moved}"
    if isinstance(e, ev.AttackDeclared):
        what = f"line weapon at {e.centre}" if e.line else "attacks"
        cards = f" with {', '.join(e.cards)}" if e.cards else ""
        return (
            f"{possessive(e.player)} {e.ship} {what} "
            f"{', '.join(e.targets)}{_at_range(e.segment)}{cards}"
        )
    if isinstance(e, ev.DefencePlayed):
        return f"{e.player} defends with {', '.join(e.cards) or 'nothing'}"
    if isinstance(e, ev.HitResolved):
        kept = [c for c in e.cards if c not in e.cancelled]
        sat = f" +{e.saturation} saturation" if e.saturation else ""
        text = (
            f"{e.player} hits {e.target}{_at_range(e.segment)}: guns {e.guns}"
            f" + cards {list_text(kept)}{sat}"
            f" − armour {e.armour}"
            f" = {e.damage} damage ({e.total}/{e.hull})"
        )
        if e.cancelled:
            text += f"; cancelled {list_text(e.cancelled)}"
        if e.sunk:
            text += f"; SUNK — last blow {e.player} scores {e.vp} VP (ST-5.1)"
            if e.earlier_hitters:
                text += f"; earlier hits by {', '.join(e.earlier_hitters)} score nothing"
        return f"{text} {prov.tag(prov.HIT if e.ship is not None else prov.AIR)}"
    if isinstance(e, ev.DogfightResolved):
        return (
            f"air battle over {e.defender}: {e.attacker} {e.attack_strength} v "
            f"{e.defence_strength}; lost {list_text(e.attackers_lost)} / "
            f"{list_text(e.defenders_lost)} "
            f"{prov.tag(prov.AIR)}"
        )
    if isinstance(e, ev.AirStrikeFlown):
        return f"{e.player} strikes: " + "; ".join(f"{len(a)} at {t}" for t, a in e.groups.items())
    if isinstance(e, ev.AircraftReturned):
        return f"{e.player} sends {', '.join(e.aircraft)} back to their ships"
    if isinstance(e, ev.AircraftRecovered):
        return f"aircraft recovered {list_text(e.recovered)}, lost {list_text(e.lost)}"
    if isinstance(e, ev.BoardingResolved):
        outcome = f"CAPTURED, {e.player} scores {e.vp} VP" if e.captured else "repelled"
        return (
            f"{possessive(e.player)} {e.ship} boards {e.target}: {e.attack} v "
            f"{e.defence}: {outcome} {prov.tag(prov.BOARD)}"
        )
    if isinstance(e, ev.ShipsHacked):
        return (
            f"{e.player} hacks {', '.join(e.targets)}: their guns are silenced for the rest of "
            f"the battle {prov.tag(prov.HACK)}"
        )
    if isinstance(e, ev.TurnEnded):
        return f"{e.player} ends the {SEGMENT_NAMES[e.segment]} turn"
    if isinstance(e, ev.BattleScored):
        return f"battle {e.battle} over: survivors score {value_text(e.vp)}"
    return type(e).__name__


def is_character(state: ShipsState, card_id: str) -> bool:
    return isinstance(state.data.cards.by_id().get(card_id), CharacterCard)
