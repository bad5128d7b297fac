"""SHIPS & TACTICS options: the readings taken where the seed's wording allows more than one
([AMBIG]), each with its documented default (docs/ships.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

VERSION = (1, 0)


class ShipsOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    # ST-1.3/1.8: "前衛・後衛各1BOX" and "前衛1枚のみ配置してもよい" read as one ship card per box;
    # the normal rules' box size is not public, so more may be allowed.
    ships_per_box: int = Field(default=1, ge=1, le=4)
    # ST-3.1: the centre player's own vanguard is a target too (the digest's reading); False:
    # only the two neighbours' vanguards ("そのプレイヤーの両隣のプレイヤーの各前衛").
    line_includes_centre: bool = True
    # ST-3.1: a line that passes over the firer's own seat never hits its own vanguard.
    line_hits_own_fleet: bool = False
    # ST-3.1 ("まず中心とするプレイヤーを決め"): the firer may name its own seat as the centre, so
    # the line hits its two neighbours' vanguards (its own only with line_hits_own_fleet);
    # False: the centre is another player.
    line_centre_on_self: bool = True
    # ST-3.1 with ST-5.5: "closed" — a player who dropped out leaves no gap, the players either
    # side of its seat are neighbours; "gaps" — the empty seat stays in the circle, and a line
    # reaching it hits nobody there.
    line_empty_seats: Literal["closed", "gaps"] = "closed"
    # ST-5.3: ask every player in turn order ("all"), or only those holding a Minovsky card
    # ("holders": fewer questions, but it tells the table who holds one).
    minovsky_ask: Literal["all", "holders"] = "all"
    # ST-5.5: when fewer than two players can still field a fleet the game ends (nobody is left
    # to fight); False plays the remaining battles with the lone fleet scoring its survivors.
    end_with_one_player: bool = True


#: The rule each option's reading belongs to (``Ruleset.option_rules``: ruling diffs name it).
OPTION_RULES: dict[str, str] = {
    "ships_per_box": "ST-1.3",
    "line_includes_centre": "ST-3.1",
    "line_hits_own_fleet": "ST-3.1",
    "line_centre_on_self": "ST-3.1",
    "line_empty_seats": "ST-3.1",
    "minovsky_ask": "ST-5.3",
    "end_with_one_player": "ST-5.5",
}
