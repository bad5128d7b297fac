"""Star Wars: Armada's orders as a scribe's menu (issue 20): what the side to act may order now.

* **Setup** (SWA-SETUP): deploy a ship (a click in the deployment zone, its heading and
  speed) or the squadrons of a deployment turn (a click each, near a friendly ship).
* **Command Phase** (SWA-R2): the side's new dials, chosen from the command list per ship, in
  stack order — a sealed order: :func:`seal_order` seals them with the salts the bot would use
  from the state, so the side's own menu opens them again at the reveal
  (:mod:`.menu_ship`) and nobody without the side's secret can.
* **Ship and Squadron Phases**: :mod:`.menu_ship` (activations, commands, maneuvers,
  squadrons) and :mod:`.menu_attack` (attacks, their decisions, damage cards).

An order type this menu does not know (one added to the ruleset later) comes from the legal
orders through :func:`domain.scribe.menu.menu_from_legal`, so nothing legal is ever missing.
Labels use display names (:mod:`.menu_words`); never an id, a salt or a sealed content.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.commands import order_sentence
from domain.errors import InvalidCommand
from domain.rulesets.armada import menu_attack as attacks
from domain.rulesets.armada import menu_ship as ships
from domain.rulesets.armada import menu_words as words
from domain.rulesets.armada.command_phase import dials_needed, seal_dials
from domain.rulesets.armada.commands import DeclareAttack, SetDials
from domain.rulesets.armada.sequence import to_act
from domain.rulesets.armada.setup_phase import (
    squadrons_per_turn,
    undeployed_ships,
    undeployed_squadrons,
)
from domain.rulesets.armada.state import COMMANDS, ArmadaState
from domain.scribe.menu import MenuChoice, MenuField, MenuOrder, check_value, menu_from_legal

KNOWN = frozenset(
    {
        "deploy_ship",
        "deploy_squadrons",
        "set_dials",
        "reveal_dial",
        "squadron_command",
        "repair",
        "maneuver",
        "place_squadrons",
        "activate_squadron",
        "move_squadron",
        "end_squadron_activation",
        "pass_turn",
        "attack",
        "additional_target",
        "remove_die",
        "concentrate_fire",
        "concentrate_fire_reroll",
        "swarm_reroll",
        "spend_accuracy",
        "end_attack_effects",
        "spend_defence_token",
        "end_defence",
        "redirect_damage",
        "end_attack",
        "discard_defence_token",
        "lose_shields_zone",
        "speed_or_dial",
        "strip_shields",
    }
)
"""The order types this menu builds itself; any other legal order comes from the fallback."""
DIALS_KEY = "set_dials"


def order_menu(state: ArmadaState, side: str | None, legal: list[Any]) -> list[MenuOrder]:
    """The orders open to ``side`` now (``legal``: the ruleset's legal orders, for the orders
    this menu does not know). Armada has no steps for the table itself: ``None`` gets none."""
    if side is None or side not in to_act(state):
        return []
    names = words.unit_names(state)
    unknown = [c for c in legal if c.model_dump().get("type") not in KNOWN]
    own = [] if legal and len(unknown) == len(legal) else _own(state, side, names, legal)
    if not unknown:
        return own
    side_names = {s.id: s.name for s in state.scenario.sides}
    extra = menu_from_legal(unknown, side, names={**names, **side_names}, describe=order_sentence)
    return [*own, *extra]


def _own(state: ArmadaState, side: str, names: dict[str, str], legal: list[Any]) -> list[MenuOrder]:
    if state.attack is not None:
        return attacks.attack_decisions(state, side, names)
    if state.dealings:
        return attacks.dealing_choices(state, side, names)
    if state.phase == "setup":
        return _deployment(state, side, names)
    if state.phase == "command":
        return [dials_order(state, side, names)]
    if state.displaced is not None:
        return ships.placing(state, side, names)
    declared = [c for c in legal if isinstance(c, DeclareAttack)]
    if state.squadron_activation is not None:
        return [
            *attacks.declarations(state, side, names, declared),
            *ships.squadron_steps(state, side, names),
        ]
    if state.phase == "ship" and state.activation is None:
        return ships.activations(state, side, names)
    if state.phase == "ship":
        return [
            *ships.squadron_activations(state, side, names),
            *ships.commands(state, side, names),
            *attacks.declarations(state, side, names, declared),
            *ships.maneuvers(state, side, names),
        ]
    if state.phase == "squadron":
        return ships.squadron_activations(state, side, names)
    return []


# --------------------------------------------------------------------------- setup


def _deployment(state: ArmadaState, side: str, names: dict[str, str]) -> list[MenuOrder]:
    """SWA-SETUP: a ship into the deployment zone, or a turn's squadrons near a friendly ship."""
    bounds = ships.area(state)
    edge = state.scenario.deployment.get(side, "bottom")
    facing = {"bottom": 0.0, "top": 180.0, "left": 90.0, "right": 270.0}[edge]
    out: list[MenuOrder] = []
    for ship_id in undeployed_ships(state, side):
        card = state.card(ship_id)
        name = names[ship_id]
        fields = [
            ships.point(
                "at",
                f"Where {name} goes",
                bounds,
                pair=False,
                help="its whole base inside the deployment zone, clear of other units",
            ),
            MenuField(
                name="heading",
                label="Heading (degrees clockwise from the far edge)",
                kind="number",
                low=0.0,
                high=360.0,
                default=facing,
                help="facing the enemy edge unless turned",
            ),
            MenuField(
                name="speed",
                label="Speed dial",
                choices=[MenuChoice(value=s, label=f"speed {s}") for s in sorted(card.speed_chart)],
                default=min(2, card.max_speed),
            ),
        ]
        out.append(
            MenuOrder(
                key=f"deploy_ship:{ship_id}",
                type="deploy_ship",
                label=f"Deploy {name}",
                side=side,
                fixed={"ship": ship_id},
                fields=fields,
                units=[ship_id],
                rule="SWA-SETUP",
            )
        )
    count = squadrons_per_turn(state, side)
    waiting = undeployed_squadrons(state, side)
    if count and waiting:
        exact = len(waiting) == count
        fields = [
            ships.point(
                f"squadrons.{sq}",
                f"Where {names[sq]} goes",
                bounds,
                optional=not exact,
                help="within distance 1-2 of a friendly ship",
            )
            for sq in waiting
        ]
        what = "two squadrons" if count == 2 else "its last squadron"
        out.append(
            MenuOrder(
                key="deploy_squadrons",
                type="deploy_squadrons",
                label=f"Deploy {what}",
                side=side,
                fields=fields,
                units=list(waiting),
                rule="SWA-SETUP",
                help="" if exact else f"place {count} of them",
            )
        )
    return out


# --------------------------------------------------------------------------- command phase


def dials_order(state: ArmadaState, side: str, names: dict[str, str]) -> MenuOrder:
    """SWA-R2: the side's new dials, a secret list per ship in stack order (the first chosen
    goes under the ship's stack first), as many as each ship lacks."""
    fields = []
    for ship_id, count in dials_needed(state, side).items():
        stack = len(state.ships[ship_id].dials)
        under = f"{stack} dial{'s' if stack > 1 else ''}" if stack else ""
        fields.append(
            MenuField(
                name=f"dials.{ship_id}",
                label=f"{names[ship_id]}: {count} dial{'s' if count > 1 else ''}",
                kind="many",
                choices=[MenuChoice(value=c, label=words.command(c)) for c in COMMANDS],
                min_count=count,
                max_count=count,
                ordered=True,
                distinct=False,
                secret=True,
                help=(f"under the {under} in its stack; " if under else "")
                + "the first chosen is revealed first",
            )
        )
    return MenuOrder(
        key=DIALS_KEY,
        type="set_dials",
        label="Set command dials face down",
        side=side,
        fields=fields,
        units=list(dials_needed(state, side)),
        sealed=True,
        rule="SWA-R2",
        help="only this side sees the commands chosen, until each dial is revealed",
    )


def seal_order(
    state: ArmadaState, side: str | None, order: MenuOrder, values: Mapping[str, Any]
) -> SetDials:
    """The ``set_dials`` order sealing ``values`` (``dials.<ship>`` -> commands) with the
    salts the bot derives from ``state`` (the side's own secret at a table).

    Raises:
        InvalidCommand: not the dials order open to ``side`` now, or a ship's dials missing,
            too few or too many, or not commands.
    """
    if side is None or order.key != DIALS_KEY or side not in to_act(state):
        raise InvalidCommand("that sealed order is not open now (the game has moved on)")
    if state.phase != "command":
        raise InvalidCommand("command dials are set in the Command Phase", rule="SWA-R2")
    current = dials_order(state, side, words.unit_names(state))
    plan: dict[str, list[Any]] = {}
    for field in current.fields:
        chosen = values.get(field.name)
        if chosen is None:
            raise InvalidCommand(f"{field.label}: still to choose", rule="SWA-R2")
        plan[field.name.partition(".")[2]] = check_value(field, chosen, {})
    return seal_dials(state, plan)
