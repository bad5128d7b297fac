"""One-line summaries of the Star Wars: Armada rule IDs (digest section 2), for explanations."""

from __future__ import annotations

from domain.dice import ARMADA_BLACK, ARMADA_BLUE, ARMADA_RED, CustomDie

RULE_SUMMARIES: dict[str, str] = {
    "SWA-SEED": "Learn to Play p.3: the Ship, Squadron and Status Phases and winning.",
    "SWA-SETUP": (
        "Setup: 3'×3' play area; deploy in turns, one ship or two squadrons; ships in the "
        "deployment zone at a speed on their chart; squadrons within distance 1–2 of a friendly "
        "ship."
    ),
    "SWA-R1": (
        "A round is the Command, Ship, Squadron and Status Phases; the game lasts six rounds."
    ),
    "SWA-R2": (
        "Command Phase: secret dials put face down at the bottom of each ship's stack until it "
        "holds its command value; only the top dial is revealed."
    ),
    "SWA-R3": (
        "Commands by dial or token (Navigate, Squadron, Repair, Concentrate Fire); dial and token"
        " together count once; each command once a round; tokens capped at the command value, no "
        "two alike."
    ),
    "SWA-2": (
        "Ship Phase: starting with the first player, sides alternate activating one ship; a side "
        "with none left passes."
    ),
    "SWA-2.1": (
        "Reveal the ship's top dial: keep it for its full effect, or spend it at once for its "
        "command token."
    ),
    "SWA-2.2": (
        "Attack: up to two attacks from different hull zones (skipped in round 1 of the learning "
        "scenario)."
    ),
    "SWA-2.3": "Execute maneuver (mandatory) at the speed dial's speed with the maneuver tool.",
    "SWA-2.3a": (
        "Determine course: each joint clicks up to its yaw on the speed chart for this speed."
    ),
    "SWA-2.3b": (
        "Move ship: the ship ends on the side of the tool it started on and may not overlap the "
        "tool; use the other side if it would."
    ),
    "SWA-3": (
        "Squadron Phase: starting with the first player, sides activate two squadrons a turn; "
        "each moves or attacks."
    ),
    "SWA-3.1": (
        "Squadron move: along the ruler up to its speed's distance band, not onto a ship or "
        "squadron."
    ),
    "SWA-3.2": "Squadron attack: an enemy squadron or hull zone at distance 1 (360° arc).",
    "SWA-3.3": (
        "Engagement: at distance 1 of an enemy squadron; an engaged squadron cannot move and "
        "attacks squadrons first."
    ),
    "SWA-3.4": (
        "Activation slider: toggled on activation; a squadron whose slider matches the initiative"
        " token has not activated."
    ),
    "SWA-4": "Status Phase: ready exhausted defence tokens; flip the initiative token; next round.",
    "SWA-5": (
        "Winning: a side with no ships loses at once; after round 6 the higher score (destroyed "
        "enemy fleet points) wins; a tie goes to the second player."
    ),
    "SWA-ATK": (
        "Attack: declare, roll, resolve effects, defence tokens, damage, additional squadron "
        "target."
    ),
    "SWA-ATK 1": (
        "Declare: the defender in the attacking zone's arc and at attack range (squadrons at "
        "distance 1); line of sight between targeting points or base centres, blocked through "
        "another of the defender's zones, obstructed by obstacles and other ships."
    ),
    "SWA-ATK 2": (
        "Roll: only colours legal at the range (red close–long, blue close–medium, black "
        "close); battery against ships, anti-squadron against squadrons; obstruction removes a "
        "die; no die left cancels the attack."
    ),
    "SWA-ATK 3": "Attack effects: modify dice; each accuracy locks one defence token.",
    "SWA-ATK 4": "The defender spends defence tokens.",
    "SWA-ATK 5": (
        "Damage: hits (plus crits ship on ship, or a Bomber on a ship) to the zone's shields, "
        "then face-down cards; the standard critical makes the first card face up."
    ),
    "SWA-ATK 6": (
        "Additional squadron target: a ship that attacked a squadron may attack another squadron "
        "in the same arc and range; each squadron once per attack."
    ),
    "SWA-DICE": "Attack dice: red, blue and black faces.",
    "SWA-DEF": (
        "Defence tokens: ready, exhausted, discarded; one of each type per attack; none at speed 0."
    ),
    "SWA-DMG": "Damage deck: 52 cards; a ship with damage cards equal to its hull is destroyed.",
    "SWA-RNG": (
        "Range and distance: closest point to closest point; a band's edge belongs to the nearer "
        "band."
    ),
    "SWA-HZ": (
        "Hull zones and firing arcs: four zones split by the token's arc lines; arcs include "
        "their lines."
    ),
    "SWA-MOV": "Maneuver tool: yaw clicks per joint; speed 0 still executes a maneuver.",
    "SWA-OVL": (
        "Overlapping: step down on ships (a face-down damage card to both), the opponent places "
        "overlapped squadrons touching the ship (touching a squadron only when no room is "
        "left), a base outside the play area is destroyed; obstacles: asteroid a face-up card, "
        "debris 2 damage on a zone the owner picks, station a damage card the owner discards or "
        "1 hull back for a squadron ending its move on it."
    ),
    "SWA-PASS": "Pass tokens (RRG 1.6, optional).",
    "SWA-DATA": "Unit data: ship and squadron cards, printed and updated points.",
}


def _faces(die: CustomDie) -> str:
    """``1–2 blank, 3–4 hit, ...``: a die's numbered faces, runs of one face joined."""
    runs: list[tuple[int, int, str]] = []
    for number, icons in enumerate(die.faces, start=1):
        name = "+".join(icons) or "blank"
        if runs and runs[-1][2] == name:
            runs[-1] = (runs[-1][0], number, name)
        else:
            runs.append((number, number, name))
    return ", ".join(f"{a}–{b} {n}" if a != b else f"{a} {n}" for a, b, n in runs)


_RANGES = (
    "Range bands (SWA-RNG, SWA-ATK 1): measured from the attacking hull zone to the defending "
    "one, closest point to closest point, on the 1-foot ruler (bundled community figures: close "
    "to 123.3 mm, medium to 186.5 mm, long to 304.8 mm; a band's edge belongs to the nearer "
    "band). The range decides the dice: red at close, medium and long, blue at close and "
    "medium, black at close only (SWA-ATK 2); squadrons attack at distance 1, close range."
)

GLOSSARY: dict[str, str] = {
    # readings of Wake's generic notation (domain.glossary.GENERIC_KINDS)
    "re-roll": (
        "Armada: a die is rerolled by Evade at medium or close range (SWA-DEF), a Concentrate "
        "Fire token (SWA-R3) or a squadron's Swarm (SWA-DATA); the new face stands."
    ),
    # dice and faces
    "red dice": (
        "the red attack die (SWA-DICE), faces numbered as a scribe enters them "
        f"{_faces(ARMADA_RED)}; legal at close, medium "
        "and long range (SWA-ATK 2)."
    ),
    "blue dice": (
        "the blue attack die (SWA-DICE), faces numbered as a scribe enters them "
        f"{_faces(ARMADA_BLUE)}; legal at close and "
        "medium range (SWA-ATK 2)."
    ),
    "black dice": (
        "the black attack die (SWA-DICE), faces numbered as a scribe enters them "
        f"{_faces(ARMADA_BLACK)}; legal at close range "
        "only (SWA-ATK 2)."
    ),
    "blank": "a face with no icon (SWA-DICE).",
    "hit": "a hit icon: 1 damage (SWA-ATK 5).",
    "crit": (
        "a critical icon (SWA-DICE): 1 damage when a ship attacks a ship, or a Bomber squadron "
        "attacks a ship; lets the attacker resolve a critical effect (SWA-ATK 5)."
    ),
    "accuracy": (
        "an accuracy icon: no damage; spent to lock one of the defender's defence tokens for "
        "this attack (SWA-ATK 3)."
    ),
    "hit+hit": "a double hit (red face 8): 2 damage (SWA-DICE, SWA-ATK 5).",
    "hit+crit": "a hit and a crit on one face (black faces 7–8; SWA-DICE, SWA-ATK 5).",
    "standard critical effect": (
        "the attacker's critical effect when a crit icon is in the pool: the first damage card "
        "the attack deals is dealt face up (SWA-ATK 5); Contain blocks it (SWA-DEF)."
    ),
    # ranges
    "close range": _RANGES,
    "medium range": _RANGES,
    "long range": _RANGES,
    "obstructed": (
        "line of sight crosses an obstacle or another ship (SWA-ATK 1): the attacker removes one "
        "die before rolling (SWA-ATK 2)."
    ),
    # defence tokens
    "brace": "a defence token (SWA-DEF): the damage total is halved, rounding up (5 → 3).",
    "braced": "the damage total halved by Brace, rounding up (SWA-DEF): 5 → 3, 1 → 1.",
    "evade": (
        "a defence token (SWA-DEF): Rules Reference 1.6 — at long range cancel one die, at "
        "medium or close range (or distance 1–2) reroll one; one more die against a larger "
        "ship, then the token is discarded. Option evade=ltp_2015: long cancel, medium reroll, "
        "close no effect."
    ),
    "redirect": (
        "a defence token (SWA-DEF): after the damage is totalled, part of it goes to the shields "
        "of one adjacent hull zone."
    ),
    "contain": "a defence token (SWA-DEF): blocks the standard critical effect.",
    "scatter": "a defence token (SWA-DEF): cancels every die of the attack.",
}
"""Terms of the explanations and what they mean in Armada (``Ruleset.glossary``)."""
