"""Pieces of Iron & Oak's scribe menu (issue 20) in players' words: the names of order cards,
units, boxes, hit locations and action cards, and the action cards a side may play in a window.

Values stay the rules' own (ids, order kinds, ``[column, row]`` boxes); labels and details are
what a player reads at the table: display names, never ids.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Literal

from domain.rulesets.iron_oak.basics import Side
from domain.rulesets.iron_oak.commands import CardPlay
from domain.rulesets.iron_oak.state import Cell, IronOakState
from domain.rulesets.iron_oak.view import box_label, unit_name
from domain.scribe.menu import MenuChoice, MenuField

#: The order cards (IO-3.2) as the players call them, with the rule each follows.
ORDER_NAMES: dict[str, str] = {
    "maneuver_0": "Maneuver 0",
    "maneuver_1": "Maneuver 1",
    "maneuver_2": "Maneuver 2",
    "opposing": "Opposing Maneuver",
    "cross_t": "Cross the T",
    "ram": "Ram or spar",
    "anchor": "Anchor",
    "weigh": "Weigh anchor",
    "refloat": "Refloat",
    "unfoul": "Unfoul",
    "drift": "Drift",
}
ORDER_RULES: dict[str, str] = {
    "maneuver_0": "IO-5.1.4",
    "maneuver_1": "IO-5.1.5",
    "maneuver_2": "IO-5.1.6",
    "opposing": "IO-5.1.3",
    "cross_t": "IO-5.5",
    "ram": "IO-5.6",
    "anchor": "IO-4.1",
    "weigh": "IO-4.2",
    "refloat": "IO-4.3",
    "unfoul": "IO-4.4",
    "drift": "IO-5.2",
}
LOCATION_NAMES: dict[str, str] = {
    "B": "bow",
    "S": "stern",
    "A": "amidships",
    "TF": "turret front",
    "TR": "turret rear",
    "TS": "turret side",
    "WL": "waterline",
    "D": "deck",
}
name = unit_name  # a ship's or fort section's display name


def cell_value(cell: Sequence[int]) -> list[int]:
    """A box as the orders hold it (JSON): ``[column, row]``."""
    return [int(cell[0]), int(cell[1])]


def cell_label(cell: Sequence[int]) -> str:
    """A box as the board labels it: ``(2,3)``."""
    return f"({cell[0]},{cell[1]})"


def cell_detail(state: IronOakState, cell: Cell) -> str:
    """What a box holds: depth, bank, current, markers (the board's own text)."""
    return box_label(state.box(cell))


def location_label(code: str) -> str:
    """``waterline (WL)``."""
    return f"{LOCATION_NAMES.get(code, code)} ({code})"


def shield_detail(value: int) -> str:
    return f"shield {value:+d}" if value else "no shield damage"


def card_name(state: IronOakState, card: str) -> str:
    """An action card's name from the game's own deck."""
    try:
        return state.data.cards.get(card).name
    except KeyError:
        return card.replace("_", " ")


def card_detail(state: IronOakState, card: str) -> str:
    """What an action card does (IO-7.0), marked provisional where the deck's text is."""
    found = state.data.cards.get(card)
    return found.effect + (" (provisional text)" if "effect" in found.provisional else "")


def usable_now(state: IronOakState, card: str) -> bool:
    """IO-1.3.2: a day card is not played at night, a night card not by day."""
    found = state.data.cards.get(card)
    night = state.scenario.night
    return not ((found.time == "day" and night) or (found.time == "night" and not night))


def playable(
    state: IronOakState,
    side: Side,
    kind: Literal["movement", "gunnery"],
    window: Literal["own", "opponent"],
    uses: Sequence[str] | None = None,
) -> list[str]:
    """The cards of ``side``'s hand (one id per kind of card) it may play in this window
    (IO-3.3.1 B/C, IO-3.3.2 C/D): the segment's kind, the window, day or night; ``uses``: only
    cards with one of these effects."""
    out = []
    for card in dict.fromkeys(state.hands.get(side, ())):
        found = state.data.cards.get(card)
        if found.kind != kind or found.window != window or not usable_now(state, card):
            continue
        if uses is not None and found.use not in uses:
            continue
        out.append(card)
    return out


def doubled(state: IronOakState, side: Side, cards: Sequence[str]) -> bool:
    """Does ``side`` hold two copies of any of ``cards``? (then one play may repeat)."""
    held = Counter(state.hands.get(side, ()))
    return any(held[card] > 1 for card in cards)


def movement_cards(
    state: IronOakState, side: Side, ship: str, window: Literal["own", "opponent"]
) -> MenuField | None:
    """The movement cards ``side`` may play on ``ship``'s move in its window (IO-3.3.1 B/C),
    or None when it holds none; a shield repair names the location it repairs (IO-7.0)."""
    cards = playable(state, side, "movement", window)
    if not cards:
        return None
    choices: list[MenuChoice] = []
    for card in cards:
        found = state.data.cards.get(card)
        label, detail = card_name(state, card), card_detail(state, card)
        if found.use != "repair_shield":
            choices.append(MenuChoice(value=play(card), label=label, detail=detail))
            continue
        shields = state.ships[ship].shields
        for loc in state.card(ship).locations:
            choices.append(
                MenuChoice(
                    value=play(card, location=loc.code),
                    label=f"{label} on the {location_label(loc.code)}",
                    detail=f"{shield_detail(shields.get(loc.code, 0))}; {detail}",
                )
            )
    whose = "Your movement cards" if window == "own" else "Movement cards against the move"
    return MenuField(
        name="cards",
        label=f"{whose} (as many as you wish)",
        kind="many",
        choices=choices,
        distinct=not doubled(state, side, cards),
        help="action cards from the hand, played on this move (IO-3.3.1, IO-7.0)",
    )


def play(
    card: str, firer: str | None = None, section: int | None = None, location: str | None = None
) -> dict[str, Any]:
    """A card play as an order holds it (every field, as the rules write it back)."""
    return CardPlay(card=card, firer=firer, section=section, location=location).model_dump(
        mode="json"
    )


def unit_picks(
    state: IronOakState, field: str, label: str, units: Sequence[str], help: str, **more: Any
) -> MenuField:
    """A field that picks several of ``units`` (clicked on the board)."""
    choices = [MenuChoice(value=unit, label=name(state, unit)) for unit in units]
    return MenuField(name=field, label=label, kind="many", choices=choices, help=help, **more)


def words(value: Any) -> str:
    """An id in words (``engine_stopped`` -> ``engine stopped``)."""
    return str(value).replace("_", " ")
