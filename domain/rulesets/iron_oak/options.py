"""Iron & Oak ruleset options: the optional rules (IO-9.1-9.3) and every [AMBIG] reading as a
switch with a documented default (the digest's likely reading). docs/iron-oak.md lists them."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class IronOakOptions(BaseModel):
    """Options a game is started with (``wake start iron_oak ... --option name=value``).

    * ``mode``: ``standard`` (IO-3: each side runs Status, Order, Action and Card Exchange in
      turn) or ``alternating`` (IO-9.3: phases together, order cards numbered, orders executed
      in number order).
    * ``low_freeboard`` (IO-9.1, optional): a monitor or low-freeboard ship hit on WL rolls the
      location die again. Off by default.
    * ``tugs`` (IO-9.2, optional): tugs count double hit value on the Tow table. Off by default.
    * ``drift_when_fouled_with`` (IO-4.0 vs IO-5.2 [AMBIG]): ``movable_enemy`` (IO-5.2).
    * ``swap`` (IO-6.2.2): ``full`` — the seed swaps S and B both ways when the target is Bow-on
      or Stern-on (the seed wins over the digest's guess); ``paired`` — S→B when Bow-on, B→S
      when Stern-on (the digest); ``none``.
    * ``smoke_penalises`` (IO-6.2.3C [AMBIG]): the ``firer``'s own smoke.
    * ``remove_opposed`` (IO-5.5 [AMBIG]): the Opposed marker removed on a T attempt is the one
      the target put on the crossing ``mover``.
    * ``explosion_fire_level`` (IO-6.3.8 [AMBIG]): 3.
    * ``crew_loss_bands`` (IO-6.3.5 [AMBIG]): ``as_printed``.
    * ``engine_damaged_response`` / ``smokestack_response`` (IO-6.3.6 / IO-6.3.16 [AMBIG]): −2 on.
    * ``who_fires`` (IO-6.0 「手番側の艦艇と要塞の各セクションが、それぞれ1つの目標を射撃できる」):
      ``one_target`` — each ship and each fort section picks one target, and every one of its
      gun sections may fire at it (the seed's words limit targets, not guns); ``one_section`` —
      one gun section per ship or fort section (Wake 1.0); ``each_section`` — every gun section
      of a ship picks its own target (「艦艇と要塞の各セクション」 read as "each section of the
      ships and forts"; a fort section still fires at one target).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    mode: Literal["standard", "alternating"] = "standard"
    low_freeboard: bool = False
    tugs: bool = False
    drift_when_fouled_with: Literal["movable_enemy", "immobile_enemy"] = "movable_enemy"
    swap: Literal["full", "paired", "none"] = "full"
    smoke_penalises: Literal["firer", "target", "both"] = "firer"
    remove_opposed: Literal["target", "mover"] = "mover"
    explosion_fire_level: int = Field(default=3, ge=2, le=5)
    crew_loss_bands: Literal["as_printed", "crew", "boiler"] = "as_printed"
    engine_damaged_response: bool = True
    smokestack_response: bool = True
    who_fires: Literal["one_target", "one_section", "each_section"] = "one_target"


#: The version of these rules that new games are recorded with, and the older ones still played.
VERSION = (1, 1)
REPLAYS = ("1.0",)

#: What an older version read where 1.1 follows the seed more closely: a game recorded with that
#: version has no value in its header for an option added since, and re-runs with these values,
#: so its record still verifies. Fixes that are not readings check ``IronOakState.rules_version``.
LEGACY_READINGS: dict[str, dict[str, object]] = {
    "1.0": {"who_fires": "one_section"},
}


def version_tuple(version: str) -> tuple[int, int]:
    """``"1.0"`` → ``(1, 0)``."""
    major, _, minor = version.partition(".")
    return int(major), int(minor or 0)

