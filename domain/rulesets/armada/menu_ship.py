"""Armada's Ship and Squadron Phases as a scribe's menu (issue 20): what the side to act may
order outside an attack.

* **Activating a ship** (SWA-2, SWA-2.1): reveal a ship's top dial, opened as the bot opens
  its own (the state carries the side's own secret at a table): keep it or spend it for its
  token (and which token to give up beyond the command value); with Crew Panic face up, discard
  it unrevealed or take the damage first (SWA-DMG). Or spend a pass token (SWA-PASS).
* **Commands** (SWA-R3): Squadron and Repair, one order per way of paying (dial, token, both);
  a Repair's effects are a list of the effects some legal sequence can use.
* **The maneuver** (SWA-2.3): one order per way of paying Navigate; the speed, then one field
  per joint with the clicks the speed chart allows at that speed (``when``), the joint a
  Navigate dial raises, the tool's side.
* **Squadrons** (SWA-3, SWA-R3): activate one (moving it at once with a click, or not), move
  the activating one, end its activation; place the squadrons a ship overlapped (SWA-OVL).

Every order is judged again by ``decide`` when given; continuous positions are only bounded
here.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.errors import WakeError
from domain.rulesets.armada import menu_words as words
from domain.rulesets.armada.bot import own_dial
from domain.rulesets.armada.command_phase import bot_salt
from domain.rulesets.armada.commands import Repair, RepairEffect
from domain.rulesets.armada.damage import (
    damaged_yaw_limits,
    may_hold_command_tokens,
    must_panic_before_reveal,
)
from domain.rulesets.armada.damage_dealing import face_up_effects
from domain.rulesets.armada.data import MAX_YAW
from domain.rulesets.armada.geometry import ZONES
from domain.rulesets.armada.maneuver import yaw_limits
from domain.rulesets.armada.passing import may_pass
from domain.rulesets.armada.ship_commands import COSTS, check_spend, decide_repair, repair_points
from domain.rulesets.armada.squadron_phase import (
    engaged_with,
    in_command_range,
    move_reach,
    ready_squadrons,
)
from domain.rulesets.armada.state import ArmadaState, CommandName, ShipState
from domain.scribe.menu import Json, MenuChoice, MenuField, MenuOrder

Names = dict[str, str]
SPENDS = ((True, False), (False, True), (True, True))
"""The ways of paying a command: the dial, a token, both (SWA-R3)."""
MAX_REPAIR_STATES = 4000
"""Repair plans tried at most when listing the usable effects (a guard; a ship has few)."""


def _paid(dial: bool, token: bool, what: str) -> str:
    if dial and token:
        return f"its {what} dial and token"
    return f"its {what} dial" if dial else f"a {what} token"


# --------------------------------------------------------------------------- activating a ship


def activations(state: ArmadaState, side: str, names: Names) -> list[MenuOrder]:
    """Reveal an unactivated ship's top dial, or spend a pass token."""
    out: list[MenuOrder] = []
    for ship in state.ships_of(side):
        if not ship.activated and ship.dials:
            out += _reveal(state, side, ship, names)
    if may_pass(state, side):
        out.append(
            MenuOrder(
                key="pass_turn",
                type="pass_turn",
                label="Pass: spend a pass token instead of activating a ship",
                side=side,
                rule="SWA-PASS",
            )
        )
    return out


def _reveal(state: ArmadaState, side: str, ship: ShipState, names: Names) -> list[MenuOrder]:
    top = ship.dials[0]
    name = names[ship.id]
    command = own_dial(state, ship)  # the side's own seal, opened with its salt
    panicking = must_panic_before_reveal(face_up_effects(state, ship.id))
    base = {"ship": ship.id, "slot": top.slot}
    out: list[MenuOrder] = []
    if panicking:
        out.append(
            MenuOrder(
                key=f"reveal:{ship.id}:discard",
                type="reveal_dial",
                label=f"Activate {name}: Crew Panic, discard its dial unrevealed",
                side=side,
                fixed={**base, "panic": "discard"},
                units=[ship.id],
                rule="SWA-DMG",
                help="no command and no token this round",
            )
        )
    if command is None:
        return out
    salt = bot_salt(state, ship.id, top.slot) if top.command is None else ""
    fields = [_keep_or_token(), *_discard_token(state, ship, command)]
    fixed: dict[str, Json] = {**base, "command": command, "salt": salt}
    label = f"Activate {name}: reveal its top dial"
    if panicking:
        zones = [
            MenuChoice(value=z, label=words.zone(z), detail=f"{ship.shields[z]} shields")
            for z in ZONES
        ]
        panic_zone = MenuField(
            name="panic_zone",
            label="Hull zone that suffers the damage",
            choices=zones,
            optional=True,
            help="left unset: the zone with the most shields",
        )
        fields.insert(0, panic_zone)
        fixed["panic"] = "damage"
        label = f"Activate {name}: Crew Panic, suffer 1 damage and reveal its dial"
    return [
        *out,
        MenuOrder(
            key=f"reveal:{ship.id}" + (":damage" if panicking else ""),
            type="reveal_dial",
            label=label,
            side=side,
            fixed=fixed,
            fields=fields,
            units=[ship.id],
            rule="SWA-2.1",
        ),
    ]


def _keep_or_token() -> MenuField:
    return MenuField(
        name="to_token",
        label="The dial",
        choices=[
            MenuChoice(value=False, label="keep it to resolve its command this activation"),
            MenuChoice(value=True, label="spend it now for its command token"),
        ],
        default=False,
    )


def _discard_token(state: ArmadaState, ship: ShipState, command: CommandName) -> list[MenuField]:
    """The token given up when the dial is spent for one (SWA-R3): beyond the command value
    any held kind or the new one; the new one when the ship holds its kind already (or may hold
    none). No field when nothing is given up."""
    holds = may_hold_command_tokens(face_up_effects(state, ship.id))
    forced = not holds or command in ship.tokens
    over = len(ship.tokens) + 1 > state.card(ship.id).command
    if not forced and not over:
        return []
    when = {"to_token": True}
    choices = [MenuChoice(value=command, label="the new token", when=when)]
    if not forced:
        choices += [
            MenuChoice(value=held, label=f"its {words.command(held)} token", when=when)
            for held in dict.fromkeys(ship.tokens)
        ]
    return [
        MenuField(
            name="discard_token",
            label="Token given up",
            choices=choices,
            optional=True,
            help="left unset: the new token",
        )
    ]


# --------------------------------------------------------------------------- during an activation


def commands(state: ArmadaState, side: str, names: Names) -> list[MenuOrder]:
    """Squadron and Repair commands of the activating ship, after its reveal (SWA-R3)."""
    activation = state.activation
    if activation is None or activation.step != "reveal":
        return []
    ship = state.ships[activation.ship]
    out: list[MenuOrder] = []
    for dial, token in SPENDS:
        if _may_spend(state, ship.id, "squadron", dial, token):
            count = state.card(ship.id).squadron * dial + int(token)
            paid = _paid(dial, token, "Squadron")
            out.append(
                MenuOrder(
                    key=f"squadron_command:{ship.id}:{int(dial)}{int(token)}",
                    type="squadron_command",
                    label=f"Squadron command: {names[ship.id]} spends {paid}",
                    side=side,
                    fixed={"ship": ship.id, "dial": dial, "token": token},
                    units=[ship.id],
                    rule="SWA-R3",
                    help=f"activates up to {count} squadron{'s' if count != 1 else ''} "
                    "at close-medium range, one at a time",
                )
            )
    for dial, token in SPENDS:
        if _may_spend(state, ship.id, "repair", dial, token):
            out.append(_repair(state, side, ship, dial, token, names))
    return out


def _may_spend(
    state: ArmadaState, ship: str, command: CommandName, dial: bool, token: bool
) -> bool:
    try:
        check_spend(state, ship, command, dial, token)
    except WakeError:
        return False
    return True


def _repair(
    state: ArmadaState, side: str, ship: ShipState, dial: bool, token: bool, names: Names
) -> MenuOrder:
    points = repair_points(state, ship.id, dial, token)
    usable, longest = repair_effects(state, side, ship, dial, token)
    fields = []
    if usable:
        fields.append(
            MenuField(
                name="effects",
                label=f"Repair effects ({points} points)",
                kind="many",
                choices=[
                    MenuChoice(value=effect.model_dump(mode="json"), label=_effect(ship, effect))
                    for effect in usable
                ],
                max_count=longest,
                ordered=True,
                distinct=False,
                help="resolved one at a time; points left over are lost",
            )
        )
    return MenuOrder(
        key=f"repair:{ship.id}:{int(dial)}{int(token)}",
        type="repair",
        label=f"Repair: {names[ship.id]} spends {_paid(dial, token, 'Repair')}",
        side=side,
        fixed={"ship": ship.id, "dial": dial, "token": token},
        fields=fields,
        units=[ship.id],
        rule="SWA-R3",
    )


def _effect(ship: ShipState, effect: RepairEffect) -> str:
    cost = COSTS[effect.effect]
    points = f"{cost} point{'s' if cost > 1 else ''}"
    if effect.effect == "move_shield":
        return f"move a shield from the {effect.source} to the {effect.zone} hull zone ({points})"
    if effect.effect == "recover_shield":
        return f"recover a shield on the {effect.zone} hull zone ({points})"
    index = effect.card or 0
    return f"discard damage card {index + 1} ({points}; cards are counted as they are then)"


def repair_effects(
    state: ArmadaState, side: str, ship: ShipState, dial: bool, token: bool
) -> tuple[list[RepairEffect], int]:
    """The repair effects some legal plan can use, and the longest legal plan's length: every
    plan is tried on ``decide`` (SWA-R3), one effect longer at a time, plans that leave the
    ship alike counted once."""
    candidates = [
        RepairEffect(effect="move_shield", source=source, zone=zone)
        for source in ZONES
        for zone in ZONES
        if source != zone
    ]
    candidates += [RepairEffect(effect="recover_shield", zone=zone) for zone in ZONES]
    candidates += [RepairEffect(effect="discard_damage", card=i) for i in range(len(ship.damage))]
    usable: list[RepairEffect] = []
    longest = 0
    frontier: list[tuple[RepairEffect, ...]] = [()]
    seen = {_after(ship, ())}
    while frontier and len(seen) < MAX_REPAIR_STATES:
        plan = frontier.pop()
        for effect in candidates:
            longer = (*plan, effect)
            order = Repair(ship=ship.id, dial=dial, token=token, effects=list(longer))
            try:
                decide_repair(state, side, order)
            except WakeError:
                continue
            if effect not in usable:
                usable.append(effect)
            longest = max(longest, len(longer))
            key = _after(ship, longer)
            if key not in seen:
                seen.add(key)
                frontier.append(longer)
    return [c for c in candidates if c in usable], longest


def _after(ship: ShipState, plan: Sequence[RepairEffect]) -> tuple[object, ...]:
    """What a repair plan leaves (shields, the cards left, the points spent): plans that leave
    the same are explored once."""
    shields = dict(ship.shields)
    cards = list(range(len(ship.damage)))
    for effect in plan:
        if effect.effect == "discard_damage":
            cards.pop(effect.card or 0)
            continue
        if effect.source is not None and effect.effect == "move_shield":
            shields[effect.source] -= 1
        if effect.zone is not None:
            shields[effect.zone] += 1
    spent = sum(COSTS[e.effect] for e in plan)
    return (tuple(shields[z] for z in ZONES), tuple(cards), spent)


def maneuvers(state: ArmadaState, side: str, names: Names) -> list[MenuOrder]:
    """The activating ship's maneuver, one order per way of paying Navigate (SWA-2.3)."""
    activation = state.activation
    if activation is None:
        return []
    ship = state.ships[activation.ship]
    out = [_maneuver(state, side, ship, False, False, names)]
    for dial, token in SPENDS:
        if _may_spend(state, ship.id, "navigate", dial, token):
            out.append(_maneuver(state, side, ship, dial, token, names))
    return out


def _maneuver(
    state: ArmadaState, side: str, ship: ShipState, dial: bool, token: bool, names: Names
) -> MenuOrder:
    card = state.card(ship.id)
    effects = face_up_effects(state, ship.id)
    steps = int(dial) + int(token)
    speeds = [
        s for s in range(ship.speed - steps, ship.speed + steps + 1) if 0 <= s <= card.max_speed
    ]
    limits = {s: damaged_yaw_limits(yaw_limits(card, s), effects) for s in speeds}
    fixed: dict[str, Json] = {"ship": ship.id, "navigate_dial": dial, "navigate_token": token}
    fields: list[MenuField] = []
    if len(speeds) == 1:
        fixed["speed"] = ship.speed  # nothing to choose: the joints are open at once
    else:
        fields.append(
            MenuField(
                name="speed",
                label="Speed",
                choices=[
                    MenuChoice(value=s, label=f"speed {s}", detail=_change(s - ship.speed))
                    for s in speeds
                ],
                default=ship.speed,
            )
        )
    if dial:
        raisable = [
            MenuChoice(
                value=j,
                label=f"joint {j}",
                detail=f"{limit} to {limit + 1} clicks",
                when=_at(s, speeds),
            )
            for s in speeds
            for j, limit in enumerate(limits[s], start=1)
            if limit < MAX_YAW
        ]
        if raisable:
            fields.append(
                MenuField(
                    name="raise_joint",
                    label="Joint the Navigate dial raises by one click",
                    choices=raisable,
                    optional=True,
                )
            )
    for joint in range(1, max(speeds) + 1):
        fields.append(_joint(joint, speeds, limits, dial))
    fields.append(
        MenuField(
            name="side",
            label="Side of the ship the tool goes on",
            choices=[
                MenuChoice(value="right", label="starboard (right)"),
                MenuChoice(value="left", label="port (left)"),
            ],
            default="right",
            help="the other side when the ship would end overlapping the tool (SWA-2.3b)",
        )
    )
    paid = f", spending {_paid(dial, token, 'Navigate')}" if dial or token else ""
    return MenuOrder(
        key=f"maneuver:{ship.id}:{int(dial)}{int(token)}",
        type="maneuver",
        label=f"Maneuver {names[ship.id]}{paid}",
        side=side,
        fixed=fixed,
        fields=fields,
        units=[ship.id],
        rule="SWA-R3" if dial or token else "SWA-2.3",
        help="ends the activation",
    )


def _at(speed: int, speeds: list[int]) -> dict[str, Json]:
    """The ``when`` of a choice open at ``speed`` (none when the speed is not a choice)."""
    return {"speed": speed} if len(speeds) > 1 else {}


def _change(by: int) -> str:
    return "unchanged" if by == 0 else f"{by:+d} (Navigate)"


def _joint(
    joint: int, speeds: list[int], limits: dict[int, tuple[int, ...]], dial: bool
) -> MenuField:
    """Joint ``joint``'s clicks at each speed that uses it (SWA-2.3a); one more either way
    when a Navigate dial raises it (SWA-R3)."""
    choices = []
    for speed in speeds:
        if speed < joint:
            continue
        limit = limits[speed][joint - 1]
        when = _at(speed, speeds)
        choices += [
            MenuChoice(value=c, label=words.clicks(c), when=when) for c in range(-limit, limit + 1)
        ]
        if dial and limit < MAX_YAW:
            raised = {**when, "raise_joint": joint}
            choices += [
                MenuChoice(value=c, label=words.clicks(c), detail="raised", when=raised)
                for c in (-(limit + 1), limit + 1)
            ]
    return MenuField(
        name=f"clicks.{joint - 1}",
        label=f"Joint {joint}",
        choices=choices,
        optional=True,
        default=0,
        help="yaw from the speed chart",
    )


# --------------------------------------------------------------------------- squadrons


def area(state: ArmadaState, margin: float = 0.0) -> tuple[float, float]:
    """The bounds of a click on the play area (widened by ``margin`` mm)."""
    table = state.data.geometry.play_area
    return (-margin, max(table.width, table.height) + margin)


def point(
    name: str,
    label: str,
    bounds: tuple[float, float],
    *,
    pair: bool = True,
    optional: bool = False,
    help: str = "",
) -> MenuField:
    """A click on the table: stored as ``[x, y]`` at ``name`` (``pair``: a squadron's position
    in a dict or a ``move_to``), else as the order's ``x`` and ``y``."""
    x_name, y_name = (f"{name}.0", f"{name}.1") if pair else ("x", "y")
    low, high = bounds
    return MenuField(
        name=name,
        label=label,
        kind="point",
        low=low,
        high=high,
        x_name=x_name,
        y_name=y_name,
        optional=optional,
        help=help,
    )


def _where(
    state: ArmadaState, squadron: str, name: str, label: str, *, pair: bool, optional: bool
) -> MenuField:
    """A squadron's destination, a click within its move (SWA-3.1)."""
    reach = move_reach(state, squadron)
    bounds = area(state, state.data.geometry.squadron_base_radius)
    where = f"up to {reach:g} mm, not onto a ship or a squadron"
    return point(name, label, bounds, pair=pair, optional=optional, help=where)


def squadron_activations(state: ArmadaState, side: str, names: Names) -> list[MenuOrder]:
    """Activate a ready squadron: in the Squadron Phase, or by the activating ship's Squadron
    command (close-medium range of it, SWA-R3), moving it at once or not."""
    activation = state.activation
    by_ship = None
    if state.phase == "ship":
        if activation is None or activation.squadrons <= 0 or activation.step != "reveal":
            return []
        by_ship = activation.ship
    out = []
    for squadron in ready_squadrons(state, side):
        if by_ship is not None and not in_command_range(state, by_ship, squadron.id):
            continue
        name = names[squadron.id]
        fields = []
        if not engaged_with(state, squadron.id):
            fields.append(
                _where(
                    state,
                    squadron.id,
                    "move_to",
                    f"Where {name} moves (or leave it to stay and attack)",
                    pair=True,
                    optional=True,
                )
            )
        via = f" by {names[by_ship]}'s Squadron command" if by_ship else ""
        out.append(
            MenuOrder(
                key=f"activate_squadron:{squadron.id}",
                type="activate_squadron",
                label=f"Activate {name}{via}",
                side=side,
                fixed={"squadron": squadron.id},
                fields=fields,
                units=[squadron.id],
                rule="SWA-R3" if by_ship else "SWA-3",
                help="" if fields else "engaged: it cannot move",
            )
        )
    return out


def squadron_steps(state: ArmadaState, side: str, names: Names) -> list[MenuOrder]:
    """The activating squadron moves (if it still may) or ends its activation; its attacks
    come from :mod:`.menu_attack`."""
    current = state.squadron_activation
    if current is None:
        return []
    squadron = current.squadron
    name = names[squadron]
    out = []
    may_move = not current.moved and (current.by_ship is not None or not current.attacked)
    if may_move and not engaged_with(state, squadron):
        out.append(
            MenuOrder(
                key=f"move_squadron:{squadron}",
                type="move_squadron",
                label=f"Move {name}",
                side=side,
                fixed={"squadron": squadron},
                fields=[
                    _where(state, squadron, "to", f"Where {name} moves", pair=False, optional=False)
                ],
                units=[squadron],
                rule="SWA-3.1",
            )
        )
    out.append(
        MenuOrder(
            key=f"end_squadron_activation:{squadron}",
            type="end_squadron_activation",
            label=f"End {name}'s activation",
            side=side,
            fixed={"squadron": squadron},
            units=[squadron],
            rule="SWA-3",
        )
    )
    return out


def placing(state: ArmadaState, side: str, names: Names) -> list[MenuOrder]:
    """Place the squadrons a ship overlapped, touching it (SWA-OVL; the player not moving it)."""
    displaced = state.displaced
    if displaced is None or displaced.placer != side:
        return []
    touching = f"touching {names[displaced.ship]}, or a squadron touching it"
    fields = [
        point(f"positions.{sq}", f"Where {names[sq]} goes", area(state), help=touching)
        for sq in displaced.squadrons
    ]
    return [
        MenuOrder(
            key="place_squadrons",
            type="place_squadrons",
            label=f"Place the squadrons {names[displaced.ship]} overlapped",
            side=side,
            fields=fields,
            units=[displaced.ship, *displaced.squadrons],
            rule="SWA-OVL",
        )
    ]
