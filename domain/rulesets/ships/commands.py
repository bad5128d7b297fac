"""SHIPS & TACTICS orders (a pydantic union on ``type``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.rulesets.ships.fleet import Fleet


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class StartBattle(_Command):
    """System step (any side or the umpire): refill hands (ST-1.2, ST-4.3, ST-1.7) and draw the
    turn order (ST-1.2). With physical cards a scribe names the order drawn and each player's
    cards drawn (``draws``, checked against what the deck can hold)."""

    type: Literal["start_battle"] = "start_battle"
    order: list[str] | None = None
    draws: dict[str, list[str]] | None = None


class FormFleet(_Command):
    """ST-1.3: the fleet placed face down: a ``domain.sealed`` digest of
    ``fleet_content(player, battle, fleet)`` with a salt kept for the reveal. A player at a
    computer may also give the ``fleet`` and ``salt`` themselves: they must open the digest and
    make a legal fleet (checked now), and only that player (and the umpire) sees them until the
    reveal; a scribe at a physical table gives the digest alone."""

    type: Literal["form_fleet"] = "form_fleet"
    digest: str = Field(pattern=r"^[0-9a-f]{64}$")
    fleet: Fleet | None = None
    salt: str | None = None


class RevealFleet(_Command):
    """ST-1.9: turn the fleet face up; it must open the seal and be a legal fleet."""

    type: Literal["reveal_fleet"] = "reveal_fleet"
    fleet: Fleet
    salt: str


class CorrectFleet(_Command):
    """ST-1.9 / ST-1.3: a fleet sealed as a digest alone (a scribe's) turns out to break the
    placement rules at the reveal, so it cannot be revealed: the player shows it (``fleet`` and
    ``salt`` open its seal) and places a legal fleet face down again (``digest``, with
    ``new_fleet`` and ``new_salt`` when the player gives them, as in ``form_fleet``), recorded
    as a correction; the new fleet is then revealed."""

    type: Literal["correct_fleet"] = "correct_fleet"
    fleet: Fleet
    salt: str
    digest: str = Field(pattern=r"^[0-9a-f]{64}$")
    new_fleet: Fleet | None = None
    new_salt: str | None = None


class Minovsky(_Command):
    """ST-5.3: asked at a segment's start, in turn order: disperse Minovsky particles or not."""

    type: Literal["minovsky"] = "minovsky"
    disperse: bool = False


class LaunchAircraft(_Command):
    """ST-3.3.1: put aircraft out (the others stay aboard); pilots may change aircraft."""

    type: Literal["launch_aircraft"] = "launch_aircraft"
    aircraft: list[str] = Field(default_factory=list)
    pilots: dict[str, str] = Field(default_factory=dict)  # character unit -> aircraft unit


class Attack(_Command):
    """Fire a ship's guns, with attack cards from the hand (several: saturation)."""

    type: Literal["attack"] = "attack"
    ship: str
    target: str
    cards: list[str] = Field(default_factory=list)


class LineAttack(_Command):
    """ST-3.1: a line weapon card fired at a centre player."""

    type: Literal["line_attack"] = "line_attack"
    ship: str
    centre: str
    card: str


class Defend(_Command):
    """Defence cards against the attack waiting on this player (none: take it)."""

    type: Literal["defend"] = "defend"
    cards: list[str] = Field(default_factory=list)


class StrikeGroup(_Command):
    target: str  # a ship
    aircraft: list[str]


class AirStrike(_Command):
    """ST-3.3.2/3.3.5: groups of aircraft aimed at other players' ships, resolved together."""

    type: Literal["air_strike"] = "air_strike"
    groups: list[StrikeGroup]


class Board(_Command):
    """ST-3.5: board another player's ship."""

    type: Literal["board"] = "board"
    ship: str
    target: str


class Hack(_Command):
    """ST-5.2: a hacking card against ships of one or several players."""

    type: Literal["hack"] = "hack"
    card: str
    targets: list[str]


class EndTurn(_Command):
    """End this player's turn in the segment. In the aircraft segment, ``recover`` lists the
    aircraft that return to their ships (ST-3.3.7); the rest stay out for air defence."""

    type: Literal["end_turn"] = "end_turn"
    recover: list[str] = Field(default_factory=list)


ShipsCommand = Annotated[
    StartBattle
    | FormFleet
    | RevealFleet
    | CorrectFleet
    | Minovsky
    | LaunchAircraft
    | Attack
    | LineAttack
    | Defend
    | AirStrike
    | Board
    | Hack
    | EndTurn,
    Field(discriminator="type"),
]
