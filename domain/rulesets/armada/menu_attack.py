"""Armada's attacks as a scribe's menu (issue 20): declaring one, every decision inside it, and
the choices a face-up damage card asks for.

* **Declaring** (SWA-ATK 1, SWA-3.2): one order per attacker and kind of target (a ship's hull
  zone, or a squadron), factored into fields: the attacking hull zone, the target, the target's
  hull zone; each choice's detail is what the ruleset's own geometry measured (arc, range band
  and distance, obstruction) — only the targets ``decide`` would accept are offered.
* **Inside the attack** (SWA-ATK 2–6, SWA-DEF, SWA-R3): the decisions of the side the attack
  waits for. The pipeline lists equivalent dice and tokens once; here every die and token is
  offered (a player names the one in their hand), each kept only if ``decide`` accepts it.
* **Damage cards** (SWA-DMG): the owner's or the opponent's choice for a face-up card, in an
  attack or outside one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

from domain.dice import SeededDice
from domain.errors import WakeError
from domain.rulesets.armada import attack as pipeline
from domain.rulesets.armada import attack_state as atk
from domain.rulesets.armada import damage as dmg
from domain.rulesets.armada import integration
from domain.rulesets.armada import menu_words as words
from domain.rulesets.armada.attack_inputs import measure
from domain.rulesets.armada.commands import DeclareAttack
from domain.rulesets.armada.damage_dealing import hull_of
from domain.rulesets.armada.geometry import ZONES
from domain.rulesets.armada.state import ArmadaState
from domain.scribe.menu import MenuChoice, MenuField, MenuOrder

Names = dict[str, str]


def accepted(state: ArmadaState, side: str, command: BaseModel) -> bool:
    """Whether ``decide`` takes ``command`` now (dice thrown from a stand-in source)."""
    try:
        integration.decide(state, side, command, SeededDice(0))
    except WakeError:
        return False
    return True


# --------------------------------------------------------------------------- declaring


def declarations(
    state: ArmadaState, side: str, names: Names, legal: Sequence[DeclareAttack]
) -> list[MenuOrder]:
    """The attacks ``side`` may declare (``legal``: the ruleset's own list), one order per
    attacker and kind of target."""
    groups: dict[tuple[str, bool], list[DeclareAttack]] = {}
    for order in legal:
        groups.setdefault((order.attacker, order.defender in state.ships), []).append(order)
    return [
        _declaration(state, side, names, attacker, on_ship, orders)
        for (attacker, on_ship), orders in groups.items()
    ]


def _declaration(
    state: ArmadaState,
    side: str,
    names: Names,
    attacker: str,
    on_ship: bool,
    orders: list[DeclareAttack],
) -> MenuOrder:
    by_ship = attacker in state.ships
    fixed: dict[str, Any] = {"attacker": attacker}
    zones = list(dict.fromkeys(order.zone for order in orders))
    if by_ship and len(zones) == 1:
        fixed["zone"] = zones[0]  # one hull zone has targets: a target is clicked at once
    chosen = by_ship and "zone" not in fixed
    reach: dict[tuple[str | None, str], list[str]] = {}  # (zone, target) -> details
    target_zones: list[MenuChoice] = []
    for order in orders:
        found = measure(state, attacker, order.zone, order.defender, order.defending_zone)
        detail = words.measured(found.geometry, order.zone)
        reach.setdefault((order.zone, order.defender), []).append(order.defending_zone or detail)
        if order.defending_zone is not None:
            target_zones.append(
                MenuChoice(
                    value=order.defending_zone,
                    label=words.zone(order.defending_zone),
                    detail=detail,
                    when={"zone": order.zone, "defender": order.defender}
                    if chosen
                    else {"defender": order.defender},
                )
            )
    fields: list[MenuField] = []
    if chosen:
        fields.append(_attacking_zones([zone for zone, _ in reach]))
    fields.append(
        MenuField(
            name="defender",
            label="Target ship" if on_ship else "Target squadron",
            choices=[
                MenuChoice(
                    value=defender,
                    label=names[defender],
                    detail=("hull zones in reach: " if on_ship else "") + ", ".join(details),
                    when={"zone": zone} if chosen else {},
                )
                for (zone, defender), details in reach.items()
            ],
        )
    )
    if on_ship:
        fields.append(
            MenuField(name="defending_zone", label="Target's hull zone", choices=target_zones)
        )
    defenders = list(dict.fromkeys(order.defender for order in orders))
    source = f" from its {words.zone(fixed['zone'])}" if "zone" in fixed else ""
    return MenuOrder(
        key=f"attack:{attacker}:{'ship' if on_ship else 'squadron'}",
        type="attack",
        label=f"{names[attacker]} attacks {'a ship' if on_ship else 'a squadron'}{source}",
        side=side,
        fixed=fixed,
        fields=fields,
        units=[attacker, *defenders],
        rule="SWA-ATK 1" if by_ship else "SWA-3.2",
        help="range, arc and obstruction as measured on the table now",
    )


def _attacking_zones(zones: list[str | None]) -> MenuField:
    """The hull zones with a target in arc and reach (each listed once per target)."""
    choices = []
    for zone in ZONES:
        count = zones.count(zone)
        if count:
            many = f"{count} target{'s' if count > 1 else ''}"
            choices.append(
                MenuChoice(value=zone, label=words.zone(zone), detail=f"{many} in its arc")
            )
    return MenuField(
        name="zone",
        label="Attacking hull zone",
        choices=choices,
        help="each hull zone attacks at most once an activation, two attacks at most",
    )


# --------------------------------------------------------------------------- inside an attack


def attack_decisions(state: ArmadaState, side: str, names: Names) -> list[MenuOrder]:
    """Every decision the open attack accepts from ``side`` now."""
    attack = state.attack
    if attack is None or pipeline.actor(attack) != side:
        return []
    legal = pipeline.legal_decisions(attack, state.data.damage)
    kinds = {type(d) for d in legal}

    def ok(command: BaseModel) -> bool:
        return accepted(state, side, command)

    out: list[MenuOrder] = []
    if atk.RemoveDie in kinds:
        out.append(_remove_die(attack, side, legal))
    if attack.step == "modify":
        out += _modify(state, attack, side, names, kinds, ok)
    if attack.step == "defend":
        out += _defend(attack, side, names, ok)
    if atk.RedirectDamage in kinds and attack.damage is not None:
        out.append(_redirect(attack, side, names))
    if attack.step == "damage" and isinstance(attack.defender, atk.ShipDefender):
        out += card_choices(state, attack.defender, attack.dealing, side, names)
    if attack.step == "additional":
        out += _additional(state, attack, side, names)
    return out


def _step(kind: str, label: str, side: str, rule: str, units: list[str]) -> MenuOrder:
    return MenuOrder(key=kind, type=kind, label=label, side=side, rule=rule, units=units)


def _remove_die(attack: atk.AttackState, side: str, legal: list[Any]) -> MenuOrder:
    reason = attack.removals[0] if attack.removals else ""
    why = "the attack is obstructed" if reason == "obstructed" else reason.replace("_", " ")
    colours = [d.colour for d in legal if isinstance(d, atk.RemoveDie)]
    return MenuOrder(
        key="remove_die",
        type="remove_die",
        label=f"Remove a die before the roll ({why})" if why else "Remove a die before the roll",
        side=side,
        fields=[
            MenuField(
                name="colour",
                label="Die to remove",
                choices=[MenuChoice(value=c, label=f"a {c} die") for c in colours],
            )
        ],
        units=[attack.attacker.id],
        rule="SWA-ATK 2",
    )


def _dice_field(
    name: str, label: str, attack: atk.AttackState, keep: Callable[[int], bool], **extra: Any
) -> MenuField:
    choices = [
        MenuChoice(value=i, label=words.die(i, d)) for i, d in enumerate(attack.pool) if keep(i)
    ]
    return MenuField(name=name, label=label, choices=choices, **extra)


def _modify(
    state: ArmadaState,
    attack: atk.AttackState,
    side: str,
    names: Names,
    kinds: set[type],
    ok: Callable[[BaseModel], bool],
) -> list[MenuOrder]:
    attacker = attack.attacker.id
    units = [attacker, attack.defender.id]
    out: list[MenuOrder] = []
    if atk.ConcentrateFire in kinds:
        colours = sorted({d.colour for d in attack.pool})
        for spend, label in (
            ("dial", "spend the dial to add a die"),
            ("token", "spend the token to reroll a die"),
            ("both", "spend dial and token: add a die, then reroll one"),
        ):
            if spend == "token":
                if not ok(atk.ConcentrateFire(spend="token")):
                    continue
                field = _dice_field(
                    "reroll",
                    "Die to reroll now",
                    attack,
                    lambda i: ok(atk.ConcentrateFire(spend="token", reroll=i)),
                    optional=True,
                    help="leave it to reroll later in this step",
                )
            else:
                adds = [c for c in colours if ok(atk.ConcentrateFire(spend=spend, add=c))]
                if not adds:
                    continue
                field = MenuField(
                    name="add",
                    label="Colour of the added die",
                    choices=[MenuChoice(value=c, label=f"a {c} die") for c in adds],
                    help="a colour already in the pool",
                )
            out.append(
                MenuOrder(
                    key=f"concentrate_fire:{spend}",
                    type="concentrate_fire",
                    label=f"Concentrate Fire: {label}",
                    side=side,
                    fixed={"spend": spend},
                    fields=[field],
                    units=units,
                    rule="SWA-R3",
                )
            )
    rerolls: tuple[tuple[type[atk.ConcentrateFireReroll | atk.SwarmReroll], str, str], ...] = (
        (atk.ConcentrateFireReroll, "Concentrate Fire token", "SWA-R3"),
        (atk.SwarmReroll, "Swarm", "SWA-DATA"),
    )
    for model, label, rule in rerolls:
        if model not in kinds:
            continue
        name = str(model.model_fields["type"].default)

        def rerolled(i: int, model: Any = model) -> bool:
            return ok(model(die=i))

        out.append(
            MenuOrder(
                key=name,
                type=name,
                label=f"{label}: reroll a die",
                side=side,
                fields=[_dice_field("die", "Die to reroll", attack, rerolled)],
                units=units,
                rule=rule,
            )
        )
    if atk.SpendAccuracy in kinds:
        out.append(_accuracy(attack, side, names, ok))
    out.append(_step("end_attack_effects", "Done modifying the dice", side, "SWA-ATK 3", units))
    return out


def _accuracy(
    attack: atk.AttackState, side: str, names: Names, ok: Callable[[BaseModel], bool]
) -> MenuOrder:
    held = attack.defender.tokens
    labels = words.tokens(held)
    dice = [i for i, d in enumerate(attack.pool) if "accuracy" in d.icons]
    first = dice[0]
    lockable = [t for t in range(len(held)) if ok(atk.SpendAccuracy(die=first, token=t))]
    return MenuOrder(
        key="spend_accuracy",
        type="spend_accuracy",
        label=f"Spend an accuracy: {names[attack.defender.id]} cannot spend a defence token",
        side=side,
        fields=[
            _dice_field(
                "die",
                "Accuracy die",
                attack,
                lambda i: i in dice and ok(atk.SpendAccuracy(die=i, token=lockable[0])),
            ),
            MenuField(
                name="token",
                label="Defence token it locks",
                choices=[MenuChoice(value=t, label=labels[t]) for t in lockable],
            ),
        ],
        units=[attack.attacker.id, attack.defender.id],
        rule="SWA-ATK 3",
    )


def _defend(
    attack: atk.AttackState, side: str, names: Names, ok: Callable[[BaseModel], bool]
) -> list[MenuOrder]:
    defender = attack.defender
    labels = words.tokens(defender.tokens)
    units = [defender.id, attack.attacker.id]
    out: list[MenuOrder] = []
    for index, token in enumerate(defender.tokens):
        fields: list[MenuField] = []
        if token.kind == "redirect" and isinstance(defender, atk.ShipDefender):
            zones = [z for z in ZONES if ok(atk.SpendDefenceToken(token=index, zone=z))]
            if not zones:
                continue
            fields.append(
                MenuField(
                    name="zone",
                    label="Adjacent hull zone to redirect to",
                    choices=[
                        MenuChoice(
                            value=z,
                            label=words.zone(z),
                            detail=f"{defender.shields[z]} shields",
                        )
                        for z in zones
                    ],
                )
            )
        elif token.kind == "evade":
            dice = _evade_dice(attack, index, ok)
            if dice is None:
                continue
            fields += dice
        elif not ok(atk.SpendDefenceToken(token=index)):
            continue
        out.append(
            MenuOrder(
                key=f"spend_defence_token:{index}",
                type="spend_defence_token",
                label=f"{names[defender.id]}: spend {labels[index]}",
                side=side,
                fixed={"token": index},
                fields=fields,
                units=units,
                rule="SWA-DEF",
            )
        )
    out.append(_step("end_defence", "Done spending defence tokens", side, "SWA-ATK 4", units))
    return out


def _evade_dice(
    attack: atk.AttackState, index: int, ok: Callable[[BaseModel], bool]
) -> list[MenuField] | None:
    """The dice an Evade token names (None: it cannot be spent); no field when the pool is
    empty."""
    if not attack.pool:
        return [] if ok(atk.SpendDefenceToken(token=index)) else None
    pool = range(len(attack.pool))
    single = [i for i in pool if ok(atk.SpendDefenceToken(token=index, dice=(i,)))]
    pairs = len(attack.pool) > 1 and ok(atk.SpendDefenceToken(token=index, dice=(0, 1)))
    if not single:
        return None
    return [
        MenuField(
            name="dice",
            label="Dice it cancels or rerolls",
            kind="many",
            choices=[MenuChoice(value=i, label=words.die(i, attack.pool[i])) for i in single],
            min_count=1,
            max_count=2 if pairs else 1,
            ordered=True,
            help="one die, or two with the size-class bonus (the token is then discarded)"
            if pairs
            else "one die",
        )
    ]


def _redirect(attack: atk.AttackState, side: str, names: Names) -> MenuOrder:
    stage = attack.damage
    assert stage is not None and stage.redirect_zone is not None
    where = stage.redirect_zone
    return MenuOrder(
        key="redirect_damage",
        type="redirect_damage",
        label=f"{names[attack.defender.id]}: redirect damage to its {words.zone(where)}",
        side=side,
        fields=[
            MenuField(
                name="amount",
                label="Damage redirected",
                choices=[
                    MenuChoice(value=n, label=f"{n} to the {where} shields")
                    for n in range(stage.redirect_max + 1)
                ],
                help=f"of {stage.total} damage in all",
            )
        ],
        units=[attack.defender.id],
        rule="SWA-DEF",
    )


def _additional(
    state: ArmadaState, attack: atk.AttackState, side: str, names: Names
) -> list[MenuOrder]:
    attacker = attack.attacker
    units = [attacker.id]
    out: list[MenuOrder] = []
    targets = integration.additional_targets(state)
    if targets:
        choices = []
        for target in targets:
            geometry = measure(state, attacker.id, attacker.zone, target.squadron, None).geometry
            choices.append(
                MenuChoice(
                    value=target.squadron,
                    label=names[target.squadron],
                    detail=words.measured(geometry, attacker.zone),
                )
            )
        out.append(
            MenuOrder(
                key="additional_target",
                type="additional_target",
                label=f"{names[attacker.id]}: attack another squadron",
                side=side,
                fields=[MenuField(name="squadron", label="Next target", choices=choices)],
                units=[*units, *(t.squadron for t in targets)],
                rule="SWA-ATK 6",
            )
        )
    out.append(_step("end_attack", "End the attack", side, "SWA-ATK 6", units))
    return out


# --------------------------------------------------------------------------- damage cards


def dealing_choices(state: ArmadaState, side: str, names: Names) -> list[MenuOrder]:
    """The choice a face-up damage card dealt outside an attack waits for (SWA-DMG)."""
    if integration.dealing_chooser(state) != side:
        return []
    for dealing in state.dealings:
        if dealing.pending is not None:
            return card_choices(state, hull_of(state, dealing.ship), dealing, side, names)
    return []


def card_choices(
    state: ArmadaState,
    ship: dmg.ShipHull,
    dealing: dmg.Dealing | None,
    side: str,
    names: Names,
) -> list[MenuOrder]:
    """The choices the face-up card ``dealing`` holds asks ``side`` for, on ``ship``."""
    if dealing is None or dealing.pending is None or dealing.pending_effect is None:
        return []
    if dmg.chooser(ship, dealing) != side:
        return []
    handler = dmg.WHEN_DEALT.get(dealing.pending_effect)
    if handler is None:
        return []
    options = handler.options(ship)
    card = state.data.damage.get(dealing.pending).name
    head = f"{card} on {names[ship.id]}"
    base = {"side": side, "units": [ship.id], "rule": dmg.RULE}
    out: list[MenuOrder] = []
    tokens = [o.token for o in options if isinstance(o, dmg.DiscardDefenceToken)]
    if tokens:
        labels = words.tokens(ship.tokens)
        field = MenuField(
            name="token",
            label="Defence token to discard",
            choices=[MenuChoice(value=t, label=labels[t]) for t in tokens],
        )
        out.append(_card_order("discard_defence_token", f"{head}: discard a token", [field], base))
    zones = [o.zone for o in options if isinstance(o, dmg.LoseShieldsZone)]
    if zones:
        field = MenuField(
            name="zone",
            label="Hull zone that loses its shields",
            choices=[
                MenuChoice(value=z, label=words.zone(z), detail=f"{ship.shields[z]} shields")
                for z in zones
            ],
        )
        out.append(
            _card_order("lose_shields_zone", f"{head}: a zone loses its shields", [field], base)
        )
    comm_noise = [o for o in options if isinstance(o, dmg.SpeedOrDial)]
    for choice, label in (
        ("speed", "lower its speed by 1"),
        ("dial", "set its top command dial"),
        ("none", "neither"),
    ):
        commands = [o.command for o in comm_noise if o.choice == choice]
        if not commands:
            continue
        fields = []
        if choice == "dial":
            set_to = [MenuChoice(value=c, label=words.command(c or "")) for c in commands]
            fields.append(MenuField(name="command", label="Command it shows", choices=set_to))
        out.append(
            _card_order("speed_or_dial", f"{head}: {label}", fields, base, {"choice": choice})
        )
    strips = [o for o in options if isinstance(o, dmg.StripShields)]
    if strips:
        shielded = sorted({z for o in strips for z in o.zones}, key=ZONES.index)
        field = MenuField(
            name="zones",
            label="Hull zones that each lose a shield",
            kind="many",
            choices=[
                MenuChoice(value=z, label=words.zone(z), detail=f"{ship.shields[z]} shields")
                for z in shielded
            ],
            max_count=max(len(o.zones) for o in strips),
            ordered=True,
        )
        out.append(_card_order("strip_shields", f"{head}: strip shields", [field], base))
    return out


def _card_order(
    kind: str,
    label: str,
    fields: list[MenuField],
    base: dict[str, Any],
    fixed: dict[str, Any] | None = None,
) -> MenuOrder:
    suffix = f":{fixed['choice']}" if fixed else ""
    return MenuOrder(
        key=f"{kind}{suffix}", type=kind, label=label, fields=fields, fixed=fixed or {}, **base
    )
