"""The provisional rules of SHIPS & TACTICS: Wake's own stand-ins for what the seed leaves to the
normal rules, which are not public (ST-GAPS). Each has its own ID in the digest's style, under
ST-GAPS, so an invented rule is never cited as the seed's: a refusal names it and says it is
provisional (:func:`cite`), a log line carries ``[provisional: ID]`` (:func:`tag`), and explain
gives its summary (``RULES``, merged into the ruleset's rule summaries)."""

from __future__ import annotations

from domain.rulesets.ships.state import ShipsState, Unit

HIT = "ST-GAPS-HIT"
REACH = "ST-GAPS-REACH"
AIR = "ST-GAPS-AIR"
BOARD = "ST-GAPS-BOARD"
HACK = "ST-GAPS-HACK"
MINOVSKY = "ST-GAPS-MINOVSKY"
CARD = "ST-GAPS-CARD"

RULES: dict[str, str] = {
    HIT: (
        "PROVISIONAL (Wake's own; the normal rules' combat is not public): damage = the firing "
        "ship's guns at the segment's range + its attack cards + saturation (+1 for each card "
        "beyond the first), defence cards cancelling attack cards, − armour; a ship sinks when "
        "its damage reaches its hull"
    ),
    REACH: (
        "PROVISIONAL (Wake's own): the vanguard takes every attack; the rearguard only missile "
        "and torpedo cards, guns at short range and aircraft, or anything once its player has "
        "no vanguard ship left; boarding only an exposed rearguard (bundled combat data)"
    ),
    AIR: (
        "PROVISIONAL (Wake's own): in an air battle each side's dogfight total shoots down the "
        "other side's weakest aircraft while it covers their dogfight value; survivors hit "
        "their ship with their attack values"
    ),
    BOARD: (
        "PROVISIONAL (Wake's own): boarding = ship melee + its characters' melee against the "
        "target's melee + its own characters' melee and ship-handling; ahead by the capture "
        "margin (1) captures the ship"
    ),
    HACK: (
        "PROVISIONAL (Wake's own; the hacking card text is not public): a hacked ship's own "
        "guns fire 0 for the rest of the battle; its attack cards still play"
    ),
    MINOVSKY: (
        "PROVISIONAL (Wake's own; the Minovsky card text is not public): once dispersed, ships' "
        "guns fall silent at long range and missile cards cannot be played, for the rest of "
        "the battle"
    ),
    CARD: (
        "PROVISIONAL (Wake's own card data): a card's values, the segments it is played in and "
        "the ship a special weapon needs"
    ),
}
"""Each provisional rule's summary, marked provisional."""


def is_provisional(rule: str | None) -> bool:
    """Whether ``rule`` is one of Wake's provisional stand-ins (ST-GAPS and its sub-rules)."""
    return rule is not None and rule.startswith("ST-GAPS")


def cite(rule: str, why: str) -> str:
    """The end of a refusal that rests on a provisional rule: ``(provisional rule ID: why)``."""
    return f"(provisional rule {rule}: {why})"


def tag(rule: str) -> str:
    """A log line's label for an outcome of a provisional rule."""
    return f"[provisional: {rule}]"


def silenced(state: ShipsState, ship: Unit, segment: str) -> str | None:
    """The provisional rule that silences ``ship``'s own guns in ``segment`` (hacked, or
    Minovsky particles at this range), or None."""
    if ship.hacked:
        return HACK
    if state.minovsky and segment in state.data.combat.minovsky_guns_off:
        return MINOVSKY
    return None
