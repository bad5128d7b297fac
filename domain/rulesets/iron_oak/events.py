"""Iron & Oak events (past-tense facts), topics ``iron_oak.<Name>/1`` (work in progress, issue 4).

Rolls are engine ``wake.DiceRolled/1`` events; these record what the rules made of them.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from domain.events import DomainEvent, EventRegistry
from domain.rulesets.iron_oak.basics import Edge, Location
from domain.rulesets.iron_oak.state import PairKind


class GunneryResolved(DomainEvent):
    """IO-6.2: one gun section's fire at a target: CR vs DR on the Standard Damage Chart.

    ``firer`` and ``target`` are ship ids or fort section ids (``"<fort id>.<section id>"``). A
    fort section target has one location, recorded as ``location`` "A", and no d8 (``face`` 0).
    ``attack`` is ``"guns"`` for gunnery; for the attack a Boiler, Explosion or Magazine
    critical makes on a nearby ship (IO-6.3.2, IO-6.3.8, IO-6.3.11) it is the critical's name,
    ``firer`` is the ship that suffered it, ``section`` is −1 and ``rule`` the critical's rule.
    """

    TOPIC: ClassVar[str] = "iron_oak.GunneryResolved/1"
    RULE: ClassVar[str] = "IO-6.2"
    AUTOMATIC: ClassVar[bool] = True
    firer: str
    section: int  # index of the gun section on the firer's card (fort: the section's guns)
    target: str
    range: Literal["point_blank", "short", "medium", "long"]
    # the yellow d8 face that picked the location (the re-roll's under IO-9.1); 0 when no d8
    # is rolled (a fort section target), and always 0 in games recorded with ruleset 1.0
    face: int
    location: str  # after the Bow/Stern swap, plunging fire and fouling (IO-6.2.2, IO-6.2.3B/D)
    cr: int
    dr: int
    band: Literal["no_effect", "over", "double", "critical"]
    hits: int  # hull hits caused, the waterline extra hit included
    shield_before: int
    shield_after: int
    attack: str = "guns"  # or "boiler" / "explosion" / "magazine": a critical's attack
    # the Standard Damage Chart band in words (IO-6.2) followed, in brackets, by the row read
    # for the location (games recorded with 1.0 give the band alone), and the exact odds of
    # every band for these pools and modifiers, before the dice were rolled
    band_text: str = ""
    p_band: dict[str, str] = Field(default_factory=dict)
    rule: str = "IO-6.2"  # or a critical's rule for its attack (IO-6.3.2, 6.3.8, 6.3.11)


class CriticalRolled(DomainEvent):
    """IO-6.3: a CR of three times the DR or more: 2d6 on the Critical Hit Table column."""

    TOPIC: ClassVar[str] = "iron_oak.CriticalRolled/1"
    RULE: ClassVar[str] = "IO-6.3"
    AUTOMATIC: ClassVar[bool] = True
    unit: str
    column: Literal["ship", "wl_bow_on", "wl_stern_on", "wl_other"]
    total: int
    critical: str  # a critical name (IO-6.3.1 .. IO-6.3.17); its effects are separate events


class SmokeChanged(DomainEvent):
    """IO-6.2.3C: an unmodified gun die of 8-10 makes smoke (light, then heavy)."""

    TOPIC: ClassVar[str] = "iron_oak.SmokeChanged/1"
    RULE: ClassVar[str] = "IO-6.2.3C"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    smoke: Literal["none", "light", "heavy"]


class HazardChecked(DomainEvent):
    """IO-5.4: a hazard check for one ship (one per mine) and what came of it."""

    TOPIC: ClassVar[str] = "iron_oak.HazardChecked/1"
    RULE: ClassVar[str] = "IO-5.4"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    cell: tuple[int, int]
    hazard: Literal["shallows", "hulk", "obstruction", "heavy_obstruction", "mine"]
    passed: bool
    effect: Literal["none", "aground", "fouled", "mine"]
    hits: int = 0  # mine damage (IO-5.4.3)
    ends_move: bool = False


class ShipMoved(DomainEvent):
    """IO-5.1.1: a move attempt and its outcome.

    ``path`` is the declared path (its first box is where the ship was). ``success`` is False
    when the movement roll failed or a hazard in the origin box ended the move first; the ship
    then stays put. A path of one box is Maneuver 0, which needs no roll (IO-5.1.4).
    """

    TOPIC: ClassVar[str] = "iron_oak.ShipMoved/1"
    RULE: ClassVar[str] = "IO-5.1.1"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    path: list[tuple[int, int]]
    success: bool


class CriticalApplied(DomainEvent):
    """IO-6.3.x: the effect of one critical on a ship.

    ``name`` is the critical that takes effect (Collateral for a Jam on a non-monitor, …; the
    ``note`` names what was rolled). ``count`` is the occurrence (1st, 2nd, …) for criticals that
    leave a marker, 1 for one-off effects. ``marker`` tells whether the ship carries the marker
    afterwards, with value ``level``. ``hits`` are hull hits; ``crew_loss`` is added to crew
    damage; ``fire`` is the ship's fire level afterwards when this critical set it;
    ``location``/``shield_after`` is the shield damage placed by Collateral. ``unit`` may be a
    fort section; ``destroys``: the critical destroys it (Magazine on a fort, IO-6.3.11).
    """

    TOPIC: ClassVar[str] = "iron_oak.CriticalApplied/1"
    RULE: ClassVar[str] = "IO-6.3"
    AUTOMATIC: ClassVar[bool] = True
    unit: str
    name: str
    rule: str  # the IO-6.3.x rule of ``name``
    count: int = Field(ge=1)
    level: int = 0
    marker: bool
    hits: int = Field(default=0, ge=0)
    crew_loss: int = Field(default=0, ge=0)
    fire: int | None = None
    location: Location | None = None
    shield_after: int | None = None
    note: str = ""
    destroys: bool = False


class CriticalRepaired(DomainEvent):
    """IO-3.1.1: a repair party's success: the marker goes (``removed``) or flips to ``level``."""

    TOPIC: ClassVar[str] = "iron_oak.CriticalRepaired/1"
    RULE: ClassVar[str] = "IO-3.1.1"
    AUTOMATIC: ClassVar[bool] = True
    unit: str
    name: str
    removed: bool
    level: int = 0  # the marker's value when it stays (Armament −4 → −2, limited −2 → −1)


class FireChanged(DomainEvent):
    """IO-3.1.2: the Status Phase fire check: level ``before`` → ``rolled`` on the change table,
    then ``hits`` for the new level. ``explodes``: a level-5 fire that did not drop becomes an
    Explosion critical — the fire marker is removed (``after`` 0) and a ``CriticalApplied``
    for the explosion follows."""

    TOPIC: ClassVar[str] = "iron_oak.FireChanged/1"
    RULE: ClassVar[str] = "IO-3.1.2"
    AUTOMATIC: ClassVar[bool] = True
    unit: str
    before: int
    rolled: int
    after: int
    hits: int = Field(default=0, ge=0)
    explodes: bool = False


class ShipDrifted(DomainEvent):
    """IO-5.2: a drift roll and where the current took the ship.

    ``path`` starts in the ship's box and ends where it stays (for ``aground``: the box before the
    bank; for ``exited``: the last box on the map, and ``edge`` is the edge it left by).
    """

    TOPIC: ClassVar[str] = "iron_oak.ShipDrifted/1"
    RULE: ClassVar[str] = "IO-5.2"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    path: list[tuple[int, int]]
    result: Literal["stay", "drifted", "exited", "aground"]
    effect: str = "stay"  # the Drift table entry rolled
    edge: Edge | None = None


class RefloatAttempted(DomainEvent):
    """IO-4.3: an attempt to get off when aground.

    ``critical`` names the critical the attempt causes (``engine_damaged`` after a failed strain
    check, ``engine_stopped`` for an Engine-Damaged ship that fails); ``wl_column_roll`` says a
    WL-column critical is to be rolled (the opponent's result ≥ 3× the ship's). Neither is
    applied here.
    """

    TOPIC: ClassVar[str] = "iron_oak.RefloatAttempted/1"
    RULE: ClassVar[str] = "IO-4.3"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    success: bool
    critical: str | None = None
    wl_column_roll: bool = False
    branch: Literal["powered", "engine_damaged", "unpowered"] = "powered"
    rule: str = "IO-4.3.1"
    tow_bonus: bool = False
    ship_result: int = 0  # the totals compared for the 3× test
    opponent_result: int = 0
    p_triple: str = "0"  # exact P(opponent ≥ 3× ship) of that roll (p_at_least_times)


class UnfoulAttempted(DomainEvent):
    """IO-4.4: the unfoul roll; success removes the Fouled marker (from both ships of a foul)."""

    TOPIC: ClassVar[str] = "iron_oak.UnfoulAttempted/1"
    RULE: ClassVar[str] = "IO-4.4"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    success: bool


class TowAttached(DomainEvent):
    """IO-5.3: a friendly powered ship attaches to a ship in its GB (the Grappled marker)."""

    TOPIC: ClassVar[str] = "iron_oak.TowAttached/1"
    RULE: ClassVar[str] = "IO-5.3"
    AUTOMATIC: ClassVar[bool] = True
    tower: str
    towed: str


class TowReleased(DomainEvent):
    """IO-5.3: the tow is released at the start of the Order Phase."""

    TOPIC: ClassVar[str] = "iron_oak.TowReleased/1"
    RULE: ClassVar[str] = "IO-5.3"
    AUTOMATIC: ClassVar[bool] = True
    tower: str
    towed: str


class CrossTAttempted(DomainEvent):
    """IO-5.5: a Crossing-the-T attempt. On success the target becomes ``kind`` to the ship.

    ``opposed_removed`` lists the ships whose Opposed marker the attempt removes (IO-5.5).
    """

    TOPIC: ClassVar[str] = "iron_oak.CrossTAttempted/1"
    RULE: ClassVar[str] = "IO-5.5"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    target: str
    kind: PairKind  # what the target becomes: Bow-on or Stern-on (IO-5.5.1, IO-5.5.2)
    success: bool
    opposed_removed: list[str] = Field(default_factory=list)


class ContactRolled(DomainEvent):
    """IO-5.6.1: the contact roll of a ram/spar attack."""

    TOPIC: ClassVar[str] = "iron_oak.ContactRolled/1"
    RULE: ClassVar[str] = "IO-5.6.1"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    target: str
    success: bool
    immobile_target: bool = False  # the target rolled d10 −5 (anchored, aground or fouled)


class SparResolved(DomainEvent):
    """IO-5.6.2: spar detonation, its hits on the target (WL shield to −4) and on the attacker."""

    TOPIC: ClassVar[str] = "iron_oak.SparResolved/1"
    RULE: ClassVar[str] = "IO-5.6.2"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    target: str
    detonated: bool
    target_hits: int = 0
    attacker_hits: int = 0
    target_wl_after: int = 0
    attacker_wl_after: int = 0
    critical: str | None = None  # the attacker's Spar critical (not applied here)


class RamResolved(DomainEvent):
    """IO-5.6.3: ram dice against the target's WL defence, the hits, and the ram check."""

    TOPIC: ClassVar[str] = "iron_oak.RamResolved/1"
    RULE: ClassVar[str] = "IO-5.6.3"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    target: str
    attack: int
    defence: int
    diff: int
    target_hits: int
    attacker_hits: int
    target_wl_after: int
    attacker_wl_after: int
    ram_check_passed: bool | None = None  # None: not rolled (the attacker sank)
    critical: str | None = None  # the attacker's Ram critical (not applied here)


class ShipsFouled(DomainEvent):
    """IO-5.6.4: the fouling check failed: both ships are fouled (side by side)."""

    TOPIC: ClassVar[str] = "iron_oak.ShipsFouled/1"
    RULE: ClassVar[str] = "IO-5.6.4"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    target: str


class RamAftermath(DomainEvent):
    """IO-5.6.5: the attacker is Bow-on to the target (it suffers the Bow-on modifier against it
    in the next gunnery segment)."""

    TOPIC: ClassVar[str] = "iron_oak.RamAftermath/1"
    RULE: ClassVar[str] = "IO-5.6.5"
    AUTOMATIC: ClassVar[bool] = True
    ship: str
    target: str


IRON_OAK_EVENTS = EventRegistry(
    [
        GunneryResolved,
        CriticalRolled,
        SmokeChanged,
        HazardChecked,
        ShipMoved,
        CriticalApplied,
        CriticalRepaired,
        FireChanged,
        ShipDrifted,
        RefloatAttempted,
        UnfoulAttempted,
        TowAttached,
        TowReleased,
        CrossTAttempted,
        ContactRolled,
        SparResolved,
        RamResolved,
        ShipsFouled,
        RamAftermath,
    ]
)
