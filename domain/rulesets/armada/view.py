"""Star Wars: Armada read model and one-line event descriptions for the generic viewers.

``read_model`` turns an :class:`.state.ArmadaState` into a plain
:class:`domain.read_model.GameView`: every ship (position, heading, speed, shields per hull
zone, defence tokens, command tokens, dials revealed so far and how many are still face down,
damage cards — face-down ones only counted) and every squadron (position, hull left,
activation slider, engagement), the two sides with their scores (SWA-5), the round and phase.
Unrevealed dials are never shown: the state holds only their seals. ``describe`` gives one
log line per event.

Geometry goes in the generic read model's optional fields (built by :mod:`.drawing`): each
ship's ``shapes`` (base, the four hull zones labelled with their shields, the arc lines out to
close range, a heading marker), each squadron's base circle, the obstacles as
``board.features``, and ``overlays`` — :func:`overlays` is the hook where an attack's line of
sight and range band and a maneuver's path are drawn from the state.
"""

from __future__ import annotations

from domain.cards import describe_draw
from domain.chance import describe_roll
from domain.events import CardDrawn, CommandIssued, DiceRolled, DomainEvent, GameEnded
from domain.read_model import (
    BoardView,
    Detail,
    GameView,
    OverlayView,
    ResultView,
    RingView,
    SideView,
    UnitView,
)
from domain.rulesets.armada import events as ev
from domain.rulesets.armada.attack_events import describe as describe_attack_event
from domain.rulesets.armada.attack_inputs import measure
from domain.rulesets.armada.drawing import (
    obstacle_features,
    path_overlay,
    range_overlay,
    ship_shapes,
    sight_overlay,
    squadron_shapes,
)
from domain.rulesets.armada.geometry import ZONES, Pose
from domain.rulesets.armada.maneuver import execute
from domain.rulesets.armada.scoring import scores
from domain.rulesets.armada.squadron_phase import engaged_with
from domain.rulesets.armada.state import ArmadaState, ShipState, SquadronState
from domain.words import possessive

ZONE_LETTERS = {"front": "F", "left": "L", "right": "R", "rear": "A"}


RESERVE = "in reserve, not yet deployed (SWA-SETUP)"
"""Where a ship or squadron not yet deployed is (``UnitView.off_board``)."""


def _status(destroyed: bool, deployed: bool) -> str:
    if destroyed:
        return "destroyed"
    return "active" if deployed else "reserve"


def _tokens(ship: ShipState) -> str | None:
    parts = [f"{t.kind}{'' if t.state == 'ready' else f' ({t.state})'}" for t in ship.defense]
    return ", ".join(parts) or None


def _ship_unit(state: ArmadaState, ship: ShipState) -> UnitView:
    card = state.card(ship.id)
    face_up = [c.card for c in ship.damage if c.face_up]
    shapes = []
    if ship.deployed:
        geometry = state.data.geometry
        shapes = ship_shapes(
            state.data.ships.hull(card.hull_geometry),
            geometry.base_sizes[card.size],
            ship.pose,
            ship.shields,
            reach=geometry.range_bands.close,
            destroyed=ship.destroyed,
        )
    details: dict[str, Detail] = {
        "card": card.name,
        "size": card.size,
        "speed": ship.speed,
        "shields": " ".join(f"{ZONE_LETTERS[z]}{ship.shields[z]}" for z in ZONES),
        **{f"shield_{z}": ship.shields[z] for z in ZONES},
        "defense_tokens": _tokens(ship),
        "command_tokens": ", ".join(ship.tokens) or None,
        "dials_face_down": len(ship.dials),
        "dials_revealed": ", ".join(f"R{d.round} {d.command}" for d in ship.revealed) or None,
        "commands_this_round": ", ".join(ship.resolved) or None,
        "damage_face_up": ", ".join(face_up) or None,
        "damage_face_down": sum(1 for c in ship.damage if not c.face_up),
        "activated": ship.activated,
    }
    return UnitView(
        id=ship.id,
        side=ship.side,
        name=ship.name,
        kind="ship",
        status=_status(ship.destroyed, ship.deployed),
        off_board="" if ship.deployed else RESERVE,
        damage=len(ship.damage),
        strength=card.hull,
        position=ship.pose.position if ship.deployed else None,
        heading=ship.heading if ship.deployed else None,
        details=details,
        shapes=shapes,
        rings=_ship_rings(state) if ship.in_play else [],
    )


def _ship_rings(state: ArmadaState) -> list[RingView]:
    """The range bands from the base (SWA-RNG: closest point to closest point). A guide only:
    an attack measures from the attacking hull zone, inside its arc. A ship's movement follows
    the maneuver tool (SWA-2.3), drawn as a path when it moves, not as a ring."""
    bands = state.data.geometry.range_bands
    return [
        RingView(
            kind="range",
            label=f"{name} range ({getattr(bands, name):g} mm from the base, in arc)",
            distance=getattr(bands, name),
            from_edge=True,
            rule="SWA-RNG",
        )
        for name in ("close", "medium", "long")
    ]


def _squadron_rings(state: ArmadaState, speed: int, engaged: bool) -> list[RingView]:
    """SWA-3.1: a squadron moves up to the distance band of its speed, from its base;
    SWA-3.2: it attacks at distance 1. SWA-3.3: an engaged squadron cannot move."""
    bands = state.data.geometry.distance_bands
    rings = [
        RingView(
            kind="range",
            label=f"attack: distance 1 ({bands[0]:g} mm from the base)",
            distance=bands[0],
            from_edge=True,
            rule="SWA-3.2",
        )
    ]
    if speed > 0 and not engaged:
        reach = bands[min(speed, len(bands)) - 1]
        rings.append(
            RingView(
                kind="move",
                label=f"move: distance {speed} ({reach:g} mm from the base)",
                distance=reach,
                from_edge=True,
                rule="SWA-3.1",
            )
        )
    return rings


def _squadron_unit(state: ArmadaState, sq: SquadronState) -> UnitView:
    card = state.squadron_card(sq.id)
    engaged = engaged_with(state, sq.id) if sq.in_play else []
    details: dict[str, Detail] = {
        "card": card.name,
        "speed": card.speed,
        "hull": sq.hull,
        "keywords": ", ".join(card.keywords) or None,
        "slider": sq.slider,
        "activated": not state.squadron_ready(sq.id),
        "engaged_with": ", ".join(engaged) or None,
    }
    return UnitView(
        id=sq.id,
        side=sq.side,
        name=sq.name,
        kind="squadron",
        status=_status(sq.destroyed, sq.deployed),
        off_board="" if sq.deployed else RESERVE,
        damage=card.hull - sq.hull,
        strength=card.hull,
        position=sq.position if sq.deployed else None,
        details=details,
        shapes=(
            squadron_shapes(sq.position, state.data.geometry.squadron_base_radius)
            if sq.deployed
            else []
        ),
        rings=_squadron_rings(state, card.speed, bool(engaged)) if sq.in_play else [],
    )


def overlays(state: ArmadaState) -> list[OverlayView]:
    """What is happening now, drawn over the board: the last attack declared (its line of
    sight labelled with the range band and what blocks or obstructs it, and a ship's attacking
    zone's arc out to that band, SWA-ATK 1 / SWA-RNG) or the last maneuver (the tool's path,
    SWA-2.3), until the next activation."""
    found: list[OverlayView] = []
    shown = state.last_attack
    if shown is not None and _in_play(state, shown.attacker) and _in_play(state, shown.defender):
        measured = measure(state, shown.attacker, shown.zone, shown.defender, shown.defending_zone)
        band = measured.geometry.range if shown.zone is not None else "distance 1"
        if measured.sight is not None:
            found.append(sight_overlay(measured.sight, shown.attacker, shown.defender, band=band))
        if shown.zone is not None and measured.geometry.range is not None:
            reach = getattr(state.data.geometry.range_bands, measured.geometry.range)
            placed = state.placed(shown.attacker)
            found.append(
                range_overlay(placed, shown.zone, reach, measured.geometry.range, shown.attacker)
            )
    move = state.last_maneuver
    if move is not None and move.ship in state.ships:
        card = state.card(move.ship)
        executed = execute(
            Pose(move.x, move.y, move.heading),
            state.data.geometry.base_sizes[card.size],
            state.data.geometry.maneuver_tool,
            move.clicks,
            move.side,
        )
        path = path_overlay(executed, move.ship)
        if path is not None:
            found.append(path)
    return found


def _in_play(state: ArmadaState, unit: str) -> bool:
    found = state.ships.get(unit) or state.squadrons.get(unit)
    return found is not None and found.in_play


def read_model(state: ArmadaState) -> GameView:
    """Plain view of an Armada game: ships and squadrons on the continuous play area (mm)."""
    score = scores(state)
    units = [_ship_unit(state, s) for s in state.ships.values()]
    units += [_squadron_unit(state, s) for s in state.squadrons.values()]
    sides = []
    for setup in state.scenario.sides:
        ships = [s for s in state.ships.values() if s.side == setup.id]
        squadrons = [s for s in state.squadrons.values() if s.side == setup.id]
        details: dict[str, Detail] = {
            "faction": setup.faction,
            "first_player": setup.id == state.first_player,
            "ships": f"{sum(1 for s in ships if s.in_play)}/{len(ships)}",
            "squadrons": f"{sum(1 for s in squadrons if s.in_play)}/{len(squadrons)}",
            "dials_set": setup.id in state.dials_set if state.phase == "command" else None,
            "pass_tokens": state.pass_tokens.get(setup.id, 0)
            if state.options.pass_tokens != "off"
            else None,
        }
        sides.append(
            SideView(
                id=setup.id,
                name=setup.name,
                vp=score[setup.id],
                units_total=len(ships) + len(squadrons),
                units_active=sum(1 for s in ships if s.in_play)
                + sum(1 for q in squadrons if q.in_play),
                details=details,
            )
        )
    result = None
    if state.result is not None:
        result = ResultView(
            winner=state.result.get("winner") or None,
            reason=state.result.get("reason", ""),
            rule="SWA-5",
            vp=score,
        )
    area = state.data.geometry.play_area
    notes = [
        f"round {state.round} of {state.scenario.rounds}",
        f"initiative token: {state.initiative} (first player {state.first_player})",
    ]
    if state.activation is not None:
        notes.append(f"activating: {state.activation.ship}")
    if state.squadron_activation is not None:
        notes.append(f"squadron activating: {state.squadron_activation.squadron}")
    if state.displaced is not None:
        d = state.displaced
        notes.append(f"{d.placer} places {', '.join(d.squadrons)} touching {d.ship} (SWA-OVL)")
    if state.obstacle_choice is not None:
        c = state.obstacle_choice
        what = "the hull zone for its two damage" if c.kind == "debris" else "a card to discard"
        notes.append(f"{c.chooser} picks {what}: {c.ship} on {c.obstacle} (SWA-OVL)")
    if not state.attacks_allowed():
        notes.append(f"no attacks in round {state.round} (SWA-2.2)")
    for obstacle in state.scenario.obstacles:
        kind = state.data.obstacles.get(obstacle.shape).kind
        notes.append(f"obstacle {obstacle.id} ({kind}) at ({obstacle.x:.0f}, {obstacle.y:.0f})")
    if state.scenario.provisional:
        notes.append(f"provisional scenario: {state.scenario.provisional_note}")
    return GameView(
        ruleset="armada",
        ruleset_name="Star Wars: Armada",
        scenario=getattr(state.scenario, "title", "") or state.scenario.id,
        turn=state.round,
        phase=state.phase,
        active_side=state.active,
        sides=sides,
        units=units,
        board=BoardView(
            kind="continuous",
            width=area.width,
            height=area.height,
            unit="mm",
            features=obstacle_features(state.scenario.obstacles, state.data.obstacles),
        ),
        result=result,
        notes=notes,
        overlays=overlays(state),
    )


# --------------------------------------------------------------------------- describe


def _pt(x: float, y: float) -> str:
    return f"({x:.1f}, {y:.1f})"


def _describe(event: DomainEvent) -> str | None:
    if isinstance(event, ev.PhaseBegan):
        return f"round {event.round}: {event.phase} phase [{event.RULE}]"
    if isinstance(event, ev.TurnBegan):
        return f"{possessive(event.side)} turn [{event.rule}]"
    if isinstance(event, ev.ShipDeployed):
        return (
            f"{event.side} deploys {event.ship} at {_pt(event.x, event.y)} heading "
            f"{event.heading:.0f}°, speed {event.speed} [SWA-SETUP]"
        )
    if isinstance(event, ev.SquadronsDeployed):
        where = ", ".join(f"{k} at {_pt(*p)}" for k, p in event.positions.items())
        return f"{event.side} deploys {where} [SWA-SETUP]"
    if isinstance(event, ev.DialsAssigned):
        counts = ", ".join(f"{ship} {len(d)}" for ship, d in event.dials.items())
        return f"{event.side} sets command dials face down: {counts or 'none'} [SWA-R2]"
    if isinstance(event, ev.DialRevealed):
        return f"{event.ship} activates and reveals {event.command} (dial {event.slot}) [SWA-2.1]"
    if isinstance(event, ev.TokenGained):
        text = f"{event.ship} spends the dial for a {event.command} token"
        if event.discarded:
            text += f", discarding a {event.discarded} token"
        return text + " [SWA-R3]"
    if isinstance(event, ev.CommandResolved):
        spent = " and ".join(
            w for w, used in (("dial", event.dial), ("token", event.token)) if used
        )
        extra = f" ({event.amount})" if event.amount else ""
        return f"{event.ship} resolves {event.command} with its {spent}{extra} [SWA-R3]"
    if isinstance(event, ev.ShieldsRepaired):
        if event.source:
            return f"{event.ship} moves a shield from {event.source} to {event.zone} [SWA-R3]"
        return f"{event.ship} recovers a shield on {event.zone} [SWA-R3]"
    if isinstance(event, ev.DamageCardDiscarded):
        face = "face-up" if event.face_up else "face-down"
        return f"{event.ship} discards a {face} damage card [{event.rule}]"
    if isinstance(event, ev.SpeedChanged):
        return f"{event.ship} changes speed {event.before} → {event.after} [SWA-R3]"
    if isinstance(event, ev.ShipManeuvered):
        clicks = " ".join(f"{c:+d}" for c in event.clicks) or "-"
        text = (
            f"{event.ship} maneuvers at speed {event.speed} (clicks {clicks}, tool {event.side}) "
            f"to {_pt(event.x, event.y)} heading {event.heading:.1f}°"
        )
        if event.overlapped_at:
            text += f"; overlapped a ship at speed {', '.join(map(str, event.overlapped_at))}"
        return text + " [SWA-2.3]"
    if isinstance(event, ev.ShipsOverlapped):
        return f"{event.ship} overlapped {event.other}: a face-down damage card each [SWA-OVL]"
    if isinstance(event, ev.ObstacleOverlapped):
        return f"{event.unit} ends on {event.obstacle} ({event.kind}) [SWA-OVL]"
    if isinstance(event, ev.ObstacleChoiceAwaited):
        what = (
            "the hull zone that suffers its two damage"
            if event.kind == "debris"
            else "a damage card to discard (or none)"
        )
        return f"{event.chooser} picks {what} for {event.ship} on {event.obstacle} [SWA-OVL]"
    if isinstance(event, ev.ObstacleChoiceMade):
        if event.kind == "debris":
            return (
                f"{event.ship} takes the two damage of {event.obstacle} on its {event.zone} "
                "zone [SWA-OVL]"
            )
        if event.card is None:
            return f"{event.ship} keeps its damage cards on {event.obstacle} [SWA-OVL]"
        return f"{event.ship} chooses a damage card to discard on {event.obstacle} [SWA-OVL]"
    if isinstance(event, ev.SquadronHullRecovered):
        return (
            f"{event.squadron} ends its move on {event.obstacle}: recovers 1 hull "
            f"({event.hull} now) [SWA-OVL]"
        )
    if isinstance(event, ev.SquadronsDisplaced):
        return (
            f"{event.ship} overlapped {', '.join(event.squadrons)}; {event.placer} places them "
            "[SWA-OVL]"
        )
    if isinstance(event, ev.SquadronsPlaced):
        where = ", ".join(f"{k} at {_pt(*p)}" for k, p in event.positions.items())
        return f"{event.side} places {where} [SWA-OVL]"
    if isinstance(event, ev.UnitDestroyed):
        why = event.reason or (
            "no hull left" if event.kind == "squadron" else "damage cards ≥ hull"
        )
        return f"{event.unit} is destroyed: {why} [{event.rule}]"
    if isinstance(event, ev.TurnPassed):
        return f"{event.side} spends a pass token ({event.tokens_left} left) [SWA-PASS]"
    if isinstance(event, ev.DialDiscarded):
        return f"{event.ship} panics: its top dial is thrown away unrevealed [SWA-DMG Crew Panic]"
    if isinstance(event, ev.ActivationEnded):
        text = f"{event.ship} ends its activation"
        if event.unspent:
            text += f" (the unspent {event.unspent} dial is discarded)"
        return text + " [SWA-2]"
    if isinstance(event, ev.SquadronActivated):
        by = f" by {possessive(event.by_ship)} squadron command" if event.by_ship else ""
        return f"{event.squadron} activates{by}, slider to {event.slider} [SWA-3.4]"
    if isinstance(event, ev.SquadronMoved):
        return (
            f"{event.squadron} moves {event.distance:.1f} mm to {_pt(event.x, event.y)} [SWA-3.1]"
        )
    if isinstance(event, ev.SquadronActivationEnded):
        return f"{event.squadron} ends its activation [SWA-3]"
    if isinstance(event, ev.StatusResolved):
        ready = sum(event.readied.values())
        return (
            f"status phase: {ready} defence token(s) readied, initiative token flipped to "
            f"{event.initiative} [SWA-4]"
        )
    return None


def describe(event: DomainEvent) -> str:
    """One line of text for the log; unrevealed dials are never named."""
    if isinstance(event, CommandIssued):
        who = event.side or "umpire"
        return f"{who}: {event.command.get('type', '?')}"
    if isinstance(event, DiceRolled):
        return describe_roll(event)
    if isinstance(event, CardDrawn):
        return describe_draw(event)
    if isinstance(event, GameEnded):
        vp = ", ".join(f"{side} {n}" for side, n in event.vp.items())
        return f"game over: {event.winner} wins ({event.reason}) [{event.rule}]; scores {vp}"
    text = _describe(event)
    if text is None:
        text = describe_attack_event(event)
    return text if text is not None else type(event).__name__
