"""Iron & Oak read model and one-line event descriptions for the generic viewers.

``read_model`` turns an :class:`IronOakState` into a plain :class:`GameView`: the 5 × 5 grid of
boxes (IO-1.1) with depth, bank, current and markers; every ship (IO-1.0.1.1 card fields, hull
hits, shields, crew, criticals, fire, smoke and the other markers) and every fort section; the
two sides with their VP (IO-3.5.1) and the public part of their action cards (IO-3.4: how many
cards a side holds is public, which cards is not). ``describe`` gives one log line per event.

Ship markers that are either on or off (anchored, aground, repair party, Opposed, Gunfire, …)
are ``True`` when set and ``None`` (left out of the hover text) otherwise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from domain.cards import describe_draw
from domain.chance import describe_roll
from domain.errors import WakeError
from domain.events import CardDrawn, CommandIssued, DiceRolled, DomainEvent, GameEnded
from domain.read_model import (
    BoardView,
    CellView,
    Detail,
    GameView,
    ResultView,
    RingView,
    SideView,
    UnitView,
)
from domain.rulesets.iron_oak.basics import Location, Side
from domain.rulesets.iron_oak.criticals import STEERING_HORIZONTAL, STEERING_VERTICAL
from domain.rulesets.iron_oak.data import bundled_cards
from domain.rulesets.iron_oak.events import (
    ContactRolled,
    CriticalApplied,
    CriticalRepaired,
    CriticalRolled,
    CrossTAttempted,
    FireChanged,
    GunneryResolved,
    HazardChecked,
    RamAftermath,
    RamResolved,
    RefloatAttempted,
    ShipDrifted,
    ShipMoved,
    ShipsFouled,
    SmokeChanged,
    SparResolved,
    TowAttached,
    TowReleased,
    UnfoulAttempted,
)
from domain.rulesets.iron_oak.gunnery import fire_range
from domain.rulesets.iron_oak.movement import effective_draft, heavily_damaged
from domain.rulesets.iron_oak.rules import victory_points
from domain.rulesets.iron_oak.scenario import Box
from domain.rulesets.iron_oak.ship_cards import ShipCard
from domain.rulesets.iron_oak.state import (
    CriticalState,
    FortSectionState,
    IronOakState,
    ShipState,
)
from domain.rulesets.iron_oak.turn_events import (
    CardExchanged,
    CardPlayed,
    CardsDealt,
    CollateralAwaited,
    CollateralChosen,
    DriftCheck,
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
from domain.words import possessive

SIDE_NAMES: dict[Side, str] = {"CSA": "Confederacy", "USA": "Union"}
ARROWS = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←", "NW": "↖"}
RAPID_ARROWS = {"N": "⇑", "NE": "⇗", "E": "⇒", "SE": "⇘", "S": "⇓", "SW": "⇙", "W": "⇐", "NW": "⇖"}
MARKER_LABELS = {
    "hulk": "hulk",
    "mine": "mine",
    "obstruction": "obst",
    "heavy_obstruction": "heavy obst",
}
STEERING_LEVELS = {STEERING_VERTICAL: "vertical only", STEERING_HORIZONTAL: "horizontal only"}
COLUMNS = {"ship": "ship", "wl_bow_on": "WL Bow-on", "wl_stern_on": "WL Stern-on", "wl_other": "WL"}
RANGES = {"point_blank": "point blank", "short": "short", "medium": "medium", "long": "long"}
# commands whose fields name action cards from a hidden hand (IO-3.4)
SECRET_COMMANDS = frozenset({"deal", "exchange_card"})


# --------------------------------------------------------------------------- helpers


def _flag(value: bool) -> bool | None:
    """A marker that is on (True) or absent (None: not shown in the hover text)."""
    return True if value else None


def _cell(cell: Sequence[int]) -> str:
    return f"({cell[0]},{cell[1]})"


def _path(path: Sequence[Sequence[int]]) -> str:
    return "->".join(_cell(c) for c in path)


def _join(items: Iterable[str]) -> str | None:
    text = ", ".join(items)
    return text or None


def _counted(names: Iterable[str]) -> list[str]:
    """``["mine", "mine", "hulk"]`` → ``["mine×2", "hulk"]`` (first-seen order)."""
    return [f"{name}×{n}" if n > 1 else name for name, n in Counter(names).items()]


def _hits(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _critical(crit: CriticalState) -> str:
    """``armament ×2 (-4)``, ``steering (vertical only)``, ``smokestack``."""
    text = crit.name + (f" ×{crit.count}" if crit.count > 1 else "")
    if crit.name == "steering" and crit.level in STEERING_LEVELS:
        return f"{text} ({STEERING_LEVELS[crit.level]})"
    return f"{text} ({crit.level:+d})" if crit.level else text


def _criticals(criticals: Mapping[str, CriticalState]) -> str | None:
    return _join(_critical(c) for c in criticals.values())


def _shields(shields: Mapping[Location, int]) -> dict[str, Detail]:
    """One ``shield <location>`` detail per damaged location (IO-6.2.1: 0 to −4)."""
    return {f"shield {loc}": value for loc, value in shields.items() if value}


def _level(damage: int, light: int, heavy: int, full: int | None = None) -> str:
    if full is not None and damage >= full:
        return "full"
    if damage >= heavy:
        return "heavy"
    if damage >= light:
        return "light"
    return "none"


# --------------------------------------------------------------------------- read model


def ship_kind(card: ShipCard) -> str:
    """What the ship is, from its card: the Monitor and Tug icons (IO-1.0.1.1 H, IO-9.2), else
    an ironclad when any hit location is armoured, else a wooden ship."""
    if "monitor" in card.icons:
        return "monitor"
    if "tug" in card.icons:
        return "tug"
    if any(loc.armoured for loc in card.locations if loc.faces):
        return "ironclad"
    return "wooden"


def ship_name(ship_id: str, card: ShipCard) -> str:
    """The card's name; a ship using another ship's card (a class card, a stand-in) is named by
    its scenario id too, so that names stay unique (the viewer's per-unit series use them)."""
    if ship_id == card.id:
        return card.name
    return f"{ship_id.replace('_', ' ').title()} ({card.name} card)"


def unit_name(state: IronOakState, unit_id: str) -> str:
    """A ship's or fort section's display name: ``CSS Virginia``, ``Fort Morgan: Main bastion``."""
    if unit_id in state.ships:
        return ship_name(unit_id, state.card(unit_id))
    sec = state.sections[unit_id]
    fort = state.fort_card(sec.fort)
    card = next(s for s in fort.sections if s.id == sec.section)
    return f"{fort.name}: {card.name}"


def _off_board(status: str, edge: str | None) -> str:
    """Where a ship off the map is: gone out by an edge (IO-5.2), or waiting at the edge
    it enters by (a scenario's ``edge:S`` setup)."""
    at = f" at the {edge} edge" if edge else ""
    if status == "exited":
        return f"left the map{at}"
    return f"off the map{at}, not yet entered"


def box_label(box: Box, fort: bool = False) -> str:
    """Short text for a box: depth, bank, current arrow (double for rapid), markers, fort."""
    parts = [f"depth {box.depth}"]
    if box.bank:
        parts.append("bank")
    if box.current is not None:
        arrows = RAPID_ARROWS if box.current.strength == "rapid" else ARROWS
        parts.append(arrows[box.current.direction])
    parts += _counted(MARKER_LABELS.get(m, m) for m in box.markers)
    if fort:
        parts.append("fort")
    return " ".join(parts)


def _cells(state: IronOakState) -> list[CellView]:
    scenario = state.scenario
    cells = []
    for row in range(scenario.grid.rows):
        for col in range(scenario.grid.columns):
            box = state.box((col, row))
            forts = [
                f"{state.fort_card(f.id).name} ({f.edge} edge)"
                for f in scenario.forts
                if f.cell == (col, row)
            ]
            cells.append(
                CellView(
                    cell=(col, row),
                    label=box_label(box, fort=bool(forts)),
                    details={
                        "depth": box.depth,
                        "bank": _flag(box.bank),
                        "current": box.current.direction if box.current else None,
                        "current_strength": box.current.strength if box.current else None,
                        "markers": _join(_counted(box.markers)),
                        "forts": _join(forts),
                    },
                )
            )
    return cells


def _relations(state: IronOakState, ship: str) -> dict[str, Detail]:
    """IO-5.5, IO-5.6.5: the ships this one is Bow-on / Stern-on to, and those that are to it;
    the ships it is Bow-on to for gunnery after ramming them."""
    mine = [p for p in state.pairs if p.ship == ship]
    theirs = [p for p in state.pairs if p.other == ship]
    return {
        "bow_on_to": _join(p.other for p in mine if p.kind == "bow_on"),
        "stern_on_to": _join(p.other for p in mine if p.kind == "stern_on"),
        "bow_on_from": _join(p.ship for p in theirs if p.kind == "bow_on"),
        "stern_on_from": _join(p.ship for p in theirs if p.kind == "stern_on"),
        # IO-5.6.5: Bow-on for gunnery to the ship it rammed, until its next gunnery is over
        "bow_on_after_ram_to": _join(t for a, t in state.aftermath if a == ship),
    }


def _order(state: IronOakState, ship: str) -> str | None:
    """The ship's order card this player-turn: sealed until revealed (IO-3.2, IO-3.3.1 A)."""
    sealed = state.orders.get(ship)
    if sealed is None:
        return None
    text = sealed.order if sealed.order is not None else "sealed"
    return f"{text} (#{sealed.number})" if sealed.number else text


def _ship_unit(state: IronOakState, ship: ShipState) -> UnitView:
    card = state.card(ship.id)
    crew = card.crew
    exit_vp = state.scenario.victory.exit_vp.get(ship.id)
    details: dict[str, Detail] = {
        "card": card.id,
        "hull": _level(ship.hits, card.light_damage_at, card.heavy_damage_at),
        "light_damage_at": card.light_damage_at,
        "heavy_damage_at": card.heavy_damage_at,
        "heavily_damaged": heavily_damaged(state, ship.id),
        "movement_dice": card.movement_dice(ship.hits),
        "crew_damage": ship.crew_damage,
        "crew": f"{crew.light}/{crew.heavy}-{crew.full}",
        "crew_level": _level(ship.crew_damage, crew.light, crew.heavy, crew.full),
        "quality": card.quality,
        **_shields(ship.shields),
        "criticals": _criticals(ship.criticals),
        "unpowered": _flag(not ship.powered),
        "fire": ship.fire or None,
        "level5_fire": _flag(ship.id in state.level5),
        "smoke": ship.smoke if ship.smoke != "none" else None,
        "anchored": _flag(ship.anchored),
        "aground": _flag(ship.aground),
        "fouled_with": _join(ship.fouled_with),
        "towing": ship.towing,
        "towed_by": ship.towed_by,
        "repair_party": _flag(ship.repair_party),
        "opposed": _flag(ship.opposed),
        "opposed_by": state.opposed_by.get(ship.id) if ship.opposed else None,
        **_relations(state, ship.id),
        "gunfire": _flag(ship.id in state.gunfire),
        "order": _order(state, ship.id),
        "acted": _flag(ship.id in state.done),
        "off_map": f"{ship.edge} edge" if ship.cell is None and ship.edge else None,
        "captured_by": ship.captured_by,
        "vp": card.vp,
        "exit_vp": exit_vp,
        "draft": card.draft,
        "effective_draft": effective_draft(state, ship.id),
        "icons": _join(card.icons),
        "ram": card.ram,
        "spar": card.spar,
        "guns": _join(f"{i}: {g.name} {g.dice}" for i, g in enumerate(card.guns)),
        "provisional": _join(card.provisional),
    }
    return UnitView(
        id=ship.id,
        side=ship.side,
        name=ship_name(ship.id, card),
        kind=ship_kind(card),
        status=ship.status,
        damage=ship.hits,
        strength=card.hit_value,
        cell=ship.cell,
        off_board=_off_board(ship.status, ship.edge) if ship.cell is None else "",
        details=details,
        rings=_ship_rings(ship) if ship.cell is not None and ship.afloat else [],
    )


# IO-6.1: Short in the same GB, Medium one GB away, Long two away (8-neighbour steps)
_RANGE_RINGS = (
    RingView(kind="range", label="Short: same GB", distance=0, rule="IO-6.1"),
    RingView(kind="range", label="Medium: 1 GB", distance=1, rule="IO-6.1"),
    RingView(kind="range", label="Long: 2 GB", distance=2, rule="IO-6.1"),
)


def _ship_rings(ship: ShipState) -> list[RingView]:
    """Gun ranges (IO-6.1) and, for a powered ship that is free to move, how far a maneuver
    takes it: 1 GB (IO-5.1.5) or 2 GB with at most one diagonal step (IO-5.1.6). Anchored,
    aground or fouled ships, and a captured one, have no movement ring."""
    rings = list(_RANGE_RINGS)
    stuck = ship.anchored or ship.aground or ship.fouled_with or ship.captured_by is not None
    if ship.powered and not stuck:
        rings += [
            RingView(kind="move", label="Maneuver 1: 1 GB", distance=1, rule="IO-5.1.5"),
            RingView(
                kind="move",
                label="Maneuver 2: 2 GB, at most one diagonal step",
                distance=2,
                rule="IO-5.1.6",
            ),
        ]
    return rings


def _section_unit(state: IronOakState, sec: FortSectionState) -> UnitView:
    fort = state.fort_card(sec.fort)
    card = next(s for s in fort.sections if s.id == sec.section)
    setup = next(f for f in state.scenario.forts if f.id == sec.fort)
    details: dict[str, Detail] = {
        "fort": fort.name,
        "fort_card": fort.id,
        "section": card.name,
        "edge": setup.edge,
        "defence": card.defence,
        **_shields(sec.shields),
        "crew_damage": sec.crew_damage,
        "crew": card.crew,
        "criticals": _criticals(sec.criticals),
        "fire": sec.fire or None,
        "smoke": None if sec.smoke == "none" else sec.smoke,
        "repair_party": _flag(sec.repair_party),
        "level5_fire": _flag(sec.id in state.level5),
        "gunfire": _flag(sec.id in state.gunfire),
        "guns": _join(f"{i}: {g.name} {g.dice}" for i, g in enumerate(card.guns)),
        "provisional": _join(fort.provisional),
    }
    return UnitView(
        id=sec.id,
        side=sec.side,
        name=unit_name(state, sec.id),
        kind="fort",
        status="destroyed" if sec.destroyed else "active",
        damage=sec.hits,
        strength=card.hits,
        cell=sec.cell,
        details=details,
        rings=[] if sec.destroyed or sec.cell is None else list(_RANGE_RINGS),
    )


def _provisional(state: IronOakState) -> list[str]:
    parts = {
        "ships": state.data.ships.provisional,
        "forts": state.data.forts.provisional,
        "cards": state.data.cards.provisional,
        "tables": state.data.tables.provisional,
        "scenario": state.scenario.provisional,
    }
    return [name for name, provisional in parts.items() if provisional]


def read_model(state: IronOakState) -> GameView:
    """Plain view of an Iron & Oak game: ships and fort sections on the grid of boxes."""
    vp = victory_points(state)
    units = [_ship_unit(state, s) for s in state.ships.values()]
    units += [_section_unit(state, s) for s in state.sections.values()]
    sides = []
    for side, name in SIDE_NAMES.items():
        ships = [s for s in state.ships.values() if s.side == side]
        sections = [s for s in state.sections.values() if s.side == side]
        details: dict[str, Detail] = {
            "cards_in_hand": len(state.hands.get(side, ())),
            "exchanges": len(state.exchanged.get(side, ())),
            "card_used_this_turn": side in state.cards_used,
            "first_player": side == state.scenario.first_player,
            "entry": state.scenario.entry[side],
            "exit": state.scenario.exit[side],
            "captured": sum(1 for s in ships if s.captured_by is not None),
            "sunk": sum(1 for s in ships if s.status == "sunk"),
            "exited": sum(1 for s in ships if s.status == "exited"),
        }
        if sections:
            alive = sum(1 for s in sections if not s.destroyed)
            details["fort_sections"] = f"{alive}/{len(sections)}"
        sides.append(
            SideView(
                id=side,
                name=name,
                vp=vp[side],
                units_total=len(ships),
                units_active=sum(1 for s in ships if s.afloat and s.captured_by is None),
                details=details,
            )
        )
    result = None
    if state.result is not None:
        result = ResultView(
            winner=state.result.get("winner") or None,
            reason=state.result.get("reason", ""),
            rule="IO-3.5",
            vp=dict(vp),
        )
    notes = [f"turn limit {state.scenario.turn_limit}"]
    if state.scenario.night:
        notes.append("night (IO-6.2.4)")
    if state.options.mode == "alternating":
        notes.append("alternating play (IO-9.3)")
    if state.awaiting is not None:
        awaiting = state.awaiting
        notes.append(
            f"waiting for {awaiting.side} to choose where {possessive(awaiting.unit)} "
            "Collateral damage "
            f"goes: {' or '.join(awaiting.candidates)} (IO-6.3.4)"
        )
    provisional = _provisional(state)
    if provisional:
        notes.append(f"provisional data (IO-GAPS): {', '.join(provisional)}")
    return GameView(
        ruleset="iron_oak",
        ruleset_name="Iron & Oak",
        scenario=getattr(state.scenario, "title", "") or state.scenario.id,
        turn=state.turn,
        phase=state.phase,
        active_side=state.active,
        sides=sides,
        units=units,
        board=BoardView(
            kind="grid",
            width=state.scenario.grid.columns,
            height=state.scenario.grid.rows,
            unit="GB",
            cells=_cells(state),
        ),
        result=result,
        notes=notes,
    )


# --------------------------------------------------------------------------- describe


def card_name(card: str) -> str:
    """An action card's name from the bundled deck, else its id (a user's own deck)."""
    names = {c.id: c.name for c in bundled_cards().cards}
    return names.get(card, card)


def _describe_command(event: CommandIssued) -> str:
    """The order as given, without the cards of a hidden hand (IO-3.4) or order-card seals."""
    command: dict[str, Any] = dict(event.command)
    kind = str(command.pop("type", "?"))
    who = f"order #{event.index} by {event.side or 'umpire'}: {kind}"
    if kind in SECRET_COMMANDS:
        return f"{who} (cards hidden)"
    if kind == "assign_orders":
        return f"{who} ({len(command.get('seals') or {})} sealed)"
    command.pop("salt", None)
    args = _compact(command)
    return f"{who} {args}" if args else who


def _empty(value: object) -> bool:
    return value is None or value is False or value == [] or value == {}


def _compact(value: object) -> str:
    """Command arguments in short text: ``ship=monitor path=[(2,3), (2,2)]``, no empty fields."""
    if isinstance(value, dict):
        return " ".join(f"{k}={_compact(v)}" for k, v in value.items() if not _empty(v))
    if isinstance(value, list):
        if len(value) == 2 and all(isinstance(v, int) for v in value):
            return _cell(value)
        items = [f"{{{_compact(v)}}}" if isinstance(v, dict) else _compact(v) for v in value]
        return f"[{', '.join(items)}]"
    return str(value)


def _describe_gunnery(e: GunneryResolved) -> str:
    if e.attack == "guns":
        text = f"{e.firer} fires section {e.section} at {e.target} ({RANGES[e.range]})"
    else:
        text = f"{possessive(e.firer)} {e.attack} attacks {e.target} [{e.rule or 'IO-6.3'}]"
    face = f" (d8 {e.face})" if e.face else ""
    band = e.band_text or e.band.replace("_", " ")
    text += f": hit {e.location}{face}, CR {e.cr} vs DR {e.dr} → {band}, {_hits(e.hits)}"
    if e.shield_after != e.shield_before:
        text += f", shield {e.location} {e.shield_before}→{e.shield_after}"
    if e.p_band:  # IO-6.2: the exact odds of each band of the Standard Damage Chart
        odds = ", ".join(f"{name.replace('_', ' ')} {_percent(p)}" for name, p in e.p_band.items())
        text += f" (odds: {odds})"
    return text


def _percent(fraction: str) -> str:
    return f"{fraction} ≈ {float(Fraction(fraction)):.1%}"


def _describe_critical(e: CriticalApplied) -> str:
    text = f"{e.unit} suffers {e.name} [{e.rule}]"
    if e.count > 1:
        text += f" ({_ordinal(e.count)})"
    parts = []
    if e.marker:
        if e.name == "steering" and e.level in STEERING_LEVELS:
            parts.append(f"marker: {STEERING_LEVELS[e.level]}")
        else:
            parts.append(f"marker {e.level:+d}" if e.level else "marker")
    if e.hits:
        parts.append(_hits(e.hits))
    if e.crew_loss:
        parts.append(f"crew −{e.crew_loss}")
    if e.fire is not None:
        parts.append(f"fire level {e.fire}")
    if e.location is not None and e.shield_after is not None:
        parts.append(f"shield {e.location} → {e.shield_after}")
    if e.destroys:
        parts.append("section destroyed")
    text += f": {', '.join(parts)}" if parts else ""
    if e.note and not any(e.note in part for part in parts):
        text += f" ({e.note})"
    return text


def _describe_drift(e: ShipDrifted) -> str:
    if e.effect == "hazard":
        return f"{e.ship} does not drift: a hazard in its box ended the move (IO-5.4)"
    effect = f" (drift table: {e.effect})" if e.effect and e.effect != e.result else ""
    if e.result == "stay":
        return f"{e.ship} does not drift{effect}"
    if e.result == "exited":
        return f"{e.ship} drifts {_path(e.path)} and off the {e.edge or '?'} edge{effect}"
    if e.result == "aground":
        return f"{e.ship} drifts {_path(e.path)} and runs aground on a bank{effect}"
    return f"{e.ship} drifts {_path(e.path)}{effect}"


def _describe_refloat(e: RefloatAttempted) -> str:
    text = f"{e.ship} {'refloats' if e.success else 'fails to refloat'} ({e.branch}) [{e.rule}]"
    if e.tow_bonus:
        text += ", towed"
    if e.critical:
        text += f"; critical: {e.critical}"
    if e.wl_column_roll:
        text += "; WL-column critical roll"
    return text


def _describe_spar(e: SparResolved) -> str:
    if not e.detonated:
        return f"{possessive(e.ship)} spar torpedo fails to detonate against {e.target}"
    text = (
        f"{possessive(e.ship)} spar torpedo detonates against {e.target}: {_hits(e.target_hits)} "
        f"(WL {e.target_wl_after})"
    )
    if e.attacker_hits:
        text += f"; {e.ship} takes {_hits(e.attacker_hits)} (WL {e.attacker_wl_after})"
    if e.critical:
        text += f"; critical: {e.critical}"
    return text


def _describe_ram(e: RamResolved) -> str:
    text = (
        f"{e.ship} rams {e.target}: {e.attack} vs {e.defence} (diff {e.diff}), "
        f"{_hits(e.target_hits)} (WL {e.target_wl_after})"
    )
    if e.attacker_hits:
        text += f"; {e.ship} takes {_hits(e.attacker_hits)} (WL {e.attacker_wl_after})"
    if e.ram_check_passed is not None:
        text += "; ram check " + ("passed" if e.ram_check_passed else "failed")
    if e.critical:
        text += f"; critical: {e.critical}"
    return text


def _describe_reveal(e: OrderRevealed) -> str:
    text = f"{e.ship} reveals {e.order}"
    if e.path:
        text += f" path {_path(e.path)}"
    if e.target:
        text += f" on {e.target}"
    if e.kind:
        text += f" ({e.kind.replace('_', '-')})"
    if e.attacks:
        text += f" with {' and '.join(e.attacks)}"
    if e.attach:
        text += f", taking {e.attach} in tow"
    if e.exit:
        text += ", leaving the map"
    if e.drift:
        text += " — cannot be carried out: drifts (IO-4.0)"
    return text


def _describe_deal(e: CardsDealt) -> str:
    """The hands as this event shows them (IO-3.4): the ruleset's ``redact`` has already
    replaced the cards a viewer may not see with "?"."""
    hands = "; ".join(
        f"{side} [{', '.join(card_name(c) if c != '?' else '?' for c in cards)}]"
        for side, cards in sorted(e.hands.items())
    )
    text = f"action cards dealt: {hands}"
    return text if e.known else text + " (physical cards)"


def _describe_card(e: CardPlayed) -> str:
    text = f"{e.side} plays {card_name(e.card)} on {e.unit}"
    if e.section is not None:
        text += f" (section {e.section})"
    if e.location:
        text += f" (shield {e.location})"
    return text


def _describe_edge(e: MapEdgeCrossed) -> str:
    if e.entering:
        verb = "enters" if e.success else "fails to enter"
        return f"{e.ship} {verb} at {_cell(e.cell)} from the {e.edge} edge"
    verb = "leaves" if e.success else "fails to leave"
    return f"{e.ship} {verb} the map by the {e.edge} edge from {_cell(e.cell)}"


def fire_notes(state: IronOakState, event: DomainEvent) -> list[str]:
    """A fire declaration: the range of each declared fire in the state it is declared in
    (IO-6.1; the resolution, ``GunneryResolved``, names it again). Positions are public."""
    if not isinstance(event, FireDeclared):
        return []
    lines: list[str] = []
    for fire in event.fires:
        firer, target = str(fire.get("firer")), str(fire.get("target"))
        try:
            rng = fire_range(state, firer, target)
        except WakeError:  # a unit the state does not know (a forged record): say nothing
            continue
        where = RANGES[rng] if rng is not None else "out of range"
        lines.append(f"{firer} s{fire.get('section', 0)} → {target}: {where} range (IO-6.1)")
    return lines


def _describe_fires(e: FireDeclared) -> str:
    if not e.fires:
        return f"{e.side} declares no fire"
    fires = [
        f"{f.get('firer')} s{f.get('section', 0)} → {f.get('target')}"
        + (" (plunging)" if f.get("plunging") else "")
        for f in e.fires
    ]
    return f"{e.side} declares {len(fires)} fire{'s' if len(fires) > 1 else ''}: " + ", ".join(
        fires
    )


def _describe_orders(e: OrdersAssigned) -> str:
    n = len(e.seals)
    text = f"{e.side} puts order cards on {n} ship{'' if n == 1 else 's'} (sealed)"
    if e.numbers:
        text += ", numbered"
    if e.released_tows:
        text += f"; tows released by {', '.join(e.released_tows)}"
    return text


def _describe_turn(event: DomainEvent) -> str | None:
    """Sequence-of-play events (turn_events)."""
    if isinstance(event, StepBegan):
        return f"turn {event.turn}: " + (
            f"{event.side} {event.phase}" if event.side else event.phase
        )
    if isinstance(event, CardsDealt):
        return _describe_deal(event)
    if isinstance(event, RepairParty):
        return (
            f"repair party placed on {event.unit}"
            if event.placed
            else f"repair party withdrawn from {event.unit}"
        )
    if isinstance(event, StatusChosen):
        return f"{event.side} makes its status choices (resolved with the other side's, IO-9.3.1)"
    if isinstance(event, StatusChecked):
        text = f"{event.side} status phase done"
        return text + (f"; level-5 fire on {', '.join(event.level5)}" if event.level5 else "")
    if isinstance(event, OrdersAssigned):
        return _describe_orders(event)
    if isinstance(event, OrderRevealed):
        return _describe_reveal(event)
    if isinstance(event, OrderCompleted):
        return f"{possessive(event.ship)} order is carried out"
    if isinstance(event, EscapeAttempted):
        return f"{event.ship} {'escapes' if event.success else 'fails to escape'} the T"
    if isinstance(event, CardPlayed):
        return _describe_card(event)
    if isinstance(event, ShipAnchored):
        return f"{event.ship} {'anchors' if event.anchored else 'weighs anchor'}"
    if isinstance(event, OpposingManeuver):
        return f"{event.ship} opposes {event.target} (Opposed marker)"
    if isinstance(event, MapEdgeCrossed):
        return _describe_edge(event)
    if isinstance(event, ShieldRepaired):
        return f"{possessive(event.unit)} shield {event.location} repaired to {event.shield_after}"
    if isinstance(event, DriftCheck):
        return f"{event.ship} " + (
            "passes the drift check" if event.passed else "fails the drift check and drifts"
        )
    if isinstance(event, FireDeclared):
        return _describe_fires(event)
    if isinstance(event, FireCancelled):
        return f"misfire: {possessive(event.firer)} fire (section {event.section}) is cancelled"
    if isinstance(event, ShipCaptured):
        return f"{event.ship} strikes its colours: captured by {event.by}"
    if isinstance(event, CardExchanged):
        gave = "a card" if event.discarded == "?" else card_name(event.discarded)
        got = (
            " (none drawn)"
            if event.drawn is None
            else ""
            if event.drawn == "?"
            else f" for {card_name(event.drawn)}"
        )
        return f"{event.side} exchanges {gave}{got}"
    if isinstance(event, GunfireMarkers):
        units = ", ".join(event.units) or "no unit"
        return f"Gunfire markers {'placed on' if event.placed else 'removed from'} {units}"
    return _describe_choice(event)


def _describe_choice(event: DomainEvent) -> str | None:
    """A resolution stopped for the target's Collateral choice (IO-6.3.4)."""
    if isinstance(event, ResolutionCheckpoint):
        order = event.command.get("type", "order")
        return f"{possessive(event.side or 'the umpire')} {order} stops for a decision (IO-6.3.4)"
    if isinstance(event, CollateralAwaited):
        options = " or ".join(f"{c} (shield {event.shields.get(c, 0)})" for c in event.candidates)
        return (
            f"Collateral on {event.unit} after the hit on {event.hit}: "
            f"{event.side} chooses {options} [IO-6.3.4]"
        )
    if isinstance(event, CollateralChosen):
        return f"{event.side} puts {possessive(event.unit)} Collateral damage on {event.location}"
    return None


def _describe_resolution(event: DomainEvent) -> str | None:
    """Resolution events (events module)."""
    if isinstance(event, GunneryResolved):
        return _describe_gunnery(event)
    if isinstance(event, CriticalRolled):
        column = COLUMNS.get(event.column, event.column)
        return f"critical on {event.unit} ({column} column): 2d6 = {event.total} → {event.critical}"
    if isinstance(event, SmokeChanged):
        return f"{event.ship}: " + (
            "smoke clears" if event.smoke == "none" else f"{event.smoke} smoke"
        )
    if isinstance(event, HazardChecked):
        text = (
            f"{event.ship} hazard check ({event.hazard.replace('_', ' ')}) at {_cell(event.cell)}"
        )
        if event.passed:
            return text + ": passed"
        text += f": failed → {event.effect}"
        if event.hits:
            text += f", {_hits(event.hits)}"
        return text + (", move ends" if event.ends_move else "")
    if isinstance(event, ShipMoved):
        if len(event.path) <= 1:
            where = _cell(event.path[0]) if event.path else "?"
            return f"{event.ship} holds at {where} (maneuver 0)"
        verb = "moves" if event.success else "fails to move"
        return f"{event.ship} {verb} {_path(event.path)}"
    if isinstance(event, CriticalApplied):
        return _describe_critical(event)
    if isinstance(event, CriticalRepaired):
        how = "marker removed" if event.removed else f"marker now {event.level:+d}"
        return f"repair party on {event.unit} repairs {event.name} ({how})"
    if isinstance(event, FireChanged):
        if event.explodes:
            return f"fire on {event.unit}: level {event.before} did not drop → explosion"
        text = f"fire on {event.unit}: level {event.before}, rolled {event.rolled} → "
        text += f"level {event.after}" if event.after else "out"
        return text + (f", {_hits(event.hits)}" if event.hits else "")
    if isinstance(event, ShipDrifted):
        return _describe_drift(event)
    if isinstance(event, RefloatAttempted):
        return _describe_refloat(event)
    if isinstance(event, UnfoulAttempted):
        return f"{event.ship} " + ("unfouls" if event.success else "fails to unfoul")
    if isinstance(event, TowAttached):
        return f"{event.tower} takes {event.towed} in tow"
    if isinstance(event, TowReleased):
        return f"{event.tower} releases the tow of {event.towed}"
    if isinstance(event, CrossTAttempted):
        kind = event.kind.replace("_", "-")
        text = (
            f"{event.ship} crosses the T of {event.target}: {event.target} is {kind} to it"
            if event.success
            else f"{event.ship} fails to cross the T of {event.target} ({kind})"
        )
        if event.opposed_removed:
            text += f"; Opposed removed from {', '.join(event.opposed_removed)}"
        return text
    if isinstance(event, ContactRolled):
        verb = "makes contact with" if event.success else "fails to make contact with"
        return f"{event.ship} {verb} {event.target}" + (
            " (immobile target)" if event.immobile_target else ""
        )
    if isinstance(event, SparResolved):
        return _describe_spar(event)
    if isinstance(event, RamResolved):
        return _describe_ram(event)
    if isinstance(event, ShipsFouled):
        return f"{event.ship} and {event.target} are fouled"
    if isinstance(event, RamAftermath):
        return f"{event.ship} is bow-on to {event.target} after the attack"
    return None


def describe(event: DomainEvent) -> str:
    """One line of text for the log; hidden cards (IO-3.4) are never named."""
    if isinstance(event, CommandIssued):
        return _describe_command(event)
    if isinstance(event, DiceRolled):
        return describe_roll(event)
    if isinstance(event, CardDrawn):
        return describe_draw(event)
    if isinstance(event, GameEnded):
        outcome = f"{event.winner} wins" if event.winner else "draw"
        vp = ", ".join(f"{side} {n}" for side, n in event.vp.items())
        return f"game over: {outcome} ({event.reason}) [{event.rule}]; VP {vp}"
    text = _describe_resolution(event)
    if text is None:
        text = _describe_turn(event)
    return text if text is not None else type(event).__name__
