"""Iron & Oak's gunnery segment as a scribe's menu (IO-3.3.2, IO-6.0, issue 20).

B) and C): the firing side declares its fires in the order they resolve — each a gun section
of a ship or fort section at a target it may fire at now (``gunnery.check_fire``: range, arcs,
crew, night), plunging fire as its own choice for a fort at Long range — and plays gunnery
cards on declared fires. D): the opponent may play one Misfire on one declared fire. How many
targets a unit may take (option ``who_fires``) and which fires the cards name are judged by
``decide``, which names the rule.
"""

from __future__ import annotations

from domain.errors import WakeError
from domain.rulesets.iron_oak import bot, gunnery
from domain.rulesets.iron_oak.basics import Side
from domain.rulesets.iron_oak.commands import DeclareFire
from domain.rulesets.iron_oak.menu_parts import (
    card_detail,
    card_name,
    doubled,
    name,
    play,
    playable,
)
from domain.rulesets.iron_oak.sequence import controller
from domain.rulesets.iron_oak.state import IronOakState
from domain.rulesets.iron_oak.view import RANGES
from domain.scribe.menu import MenuChoice, MenuField, MenuOrder

WHO_FIRES = {
    "one_target": "each ship or fort section at one target, with any of its gun sections",
    "one_section": "one gun section per ship",
    "each_section": "each gun section at a target of its own (a fort section at one target)",
}


def _units(state: IronOakState, side: Side, own: bool) -> list[str]:
    """The side's ships afloat and fort sections standing (``own``), or the enemy's."""
    ships = [
        s.id for s in state.ships.values() if s.afloat and (controller(state, s.id) == side) == own
    ]
    forts = [u.id for u in state.sections.values() if (u.side == side) == own and not u.destroyed]
    return sorted(ships) + sorted(forts)


def gun_label(state: IronOakState, unit: str, section: int) -> str:
    """``CSS Virginia (Broadside)``."""
    return f"{name(state, unit)} ({gunnery.guns_of(state, unit)[section].name})"


def fire_choices(state: IronOakState, side: Side) -> list[MenuChoice]:
    """Every gun section of the side that may fire at a target now, one choice per target
    (and one more for plunging fire by a fort at Long range, IO-6.2.3D)."""
    out = []
    targets = _units(state, side, own=False)
    for firer in _units(state, side, own=True):
        for section in range(len(gunnery.guns_of(state, firer))):
            for target in targets:
                for plunging in (False, True):
                    try:
                        rng = gunnery.check_fire(state, firer, section, target, plunging=plunging)
                    except WakeError:
                        continue
                    fire = {"firer": firer, "section": section, "target": target}
                    words = f"{gun_label(state, firer, section)} at {name(state, target)}"
                    out.append(
                        MenuChoice(
                            value={**fire, "plunging": plunging},
                            label=words + (", plunging fire" if plunging else ""),
                            detail=f"{RANGES[rng]} range",
                        )
                    )
    return out


def declare_orders(state: IronOakState, side: Side) -> list[MenuOrder]:
    """IO-3.3.2 B/C: the side's fires and the gunnery cards played on them."""
    fires = fire_choices(state, side)
    fields = []
    units: list[str] = []
    if fires:
        fields.append(
            MenuField(
                name="fires",
                label="Fires, in the order they resolve",
                kind="many",
                choices=fires,
                ordered=True,
                help=f"{WHO_FIRES[state.options.who_fires]}; each gun section once (IO-6.0)",
            )
        )
        units = list(dict.fromkeys(c.value["firer"] for c in fires))
        cards = _card_field(state, side, fires)
        if cards is not None:
            fields.append(cards)
    declare = MenuOrder(
        key="declare_fire",
        type="declare_fire",
        label="Declare fire" if fires else "Declare fire (no gun bears on a target)",
        side=side,
        fields=fields,
        units=units,
        rule="IO-3.3.2",
    )
    proposed = _proposed(state, side, fires)
    return [proposed, declare] if proposed is not None else [declare]


def _proposed(state: IronOakState, side: Side, fires: list[MenuChoice]) -> MenuOrder | None:
    """The usual declaration in one click: each unit with the guns that bear on the target
    most of them reach (the bot's choice, IO-6.0), and the gunnery cards to play on them."""
    proposal = bot.bot_command(state, side)
    if not isinstance(proposal, DeclareFire) or not proposal.fires:
        return None
    picked = [fire.model_dump(mode="json") for fire in proposal.fires]
    chosen = [c for c in fires if c.value in picked]
    if len(chosen) != len(picked):  # pragma: no cover - the bot fires only where it may
        return None
    groups: dict[tuple[str, str], list[str]] = {}
    for fire in proposal.fires:
        gun = gunnery.guns_of(state, fire.firer)[fire.section].name
        groups.setdefault((fire.firer, fire.target), []).append(gun)
    summary = "; ".join(
        f"{name(state, firer)} ({', '.join(guns)}) at {name(state, target)}"
        for (firer, target), guns in groups.items()
    )
    cards = _card_field(state, side, chosen)
    return MenuOrder(
        key="declare_fire:proposed",
        type="declare_fire",
        label=f"Declare fire: {summary}",
        side=side,
        fixed={"fires": picked},
        fields=[cards] if cards is not None else [],
        units=list(dict.fromkeys(fire.firer for fire in proposal.fires)),
        rule="IO-3.3.2",
        help="each ship or fort section with the guns that bear on the target most of them "
        "reach (IO-6.0); for any other fire, declare the fires one by one",
    )


def _card_field(state: IronOakState, side: Side, fires: list[MenuChoice]) -> MenuField | None:
    """IO-3.3.2 C: a gunnery card from the hand on one declared fire (a gun section)."""
    cards = playable(state, side, "gunnery", "own", uses=("gunnery", "strike"))
    guns = list(dict.fromkeys((c.value["firer"], c.value["section"]) for c in fires))
    choices = [
        MenuChoice(
            value=play(card, firer, section),
            label=f"{card_name(state, card)} on {gun_label(state, firer, section)}",
            detail=card_detail(state, card),
        )
        for card in cards
        for firer, section in guns
    ]
    if not choices:
        return None
    return MenuField(
        name="cards",
        label="Gunnery cards on declared fires",
        kind="many",
        choices=choices,
        distinct=not doubled(state, side, cards),
        help="each on a gun section declared above (IO-3.3.2, IO-7.0)",
    )


def respond_orders(state: IronOakState, side: Side) -> list[MenuOrder]:
    """IO-3.3.2 D: at most one Misfire card on one declared fire."""
    cards = playable(state, side, "gunnery", "opponent", uses=("misfire",))
    choices = [
        MenuChoice(
            value=play(card, fire.firer, fire.section),
            label=f"{card_name(state, card)} on {gun_label(state, fire.firer, fire.section)}",
            detail=f"its fire at {name(state, fire.target)} does not resolve",
        )
        for card in cards
        for fire in state.fire_orders
    ]
    field = MenuField(
        name="misfire",
        label="Misfire (optional)",
        choices=choices,
        optional=True,
        help="one Misfire card stops one declared fire (IO-3.3.2 D)",
    )
    return [
        MenuOrder(
            key="respond_fire",
            type="respond_fire",
            label="Answer the declared fire" + ("" if choices else " (no Misfire to play)"),
            side=side,
            fields=[field] if choices else [],
            units=list(dict.fromkeys(f.firer for f in state.fire_orders)),
            rule="IO-3.3.2",
        )
    ]
