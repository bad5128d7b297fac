"""Iron & Oak ruleset options: the optional rules (IO-9.1-9.3) and, as switches, the readings of
the digest's [AMBIG] list that change play, each with a documented default (the seed's literal
reading where it reads one way, else the digest's likely reading). The other readings are fixed,
marked [AMBIG] in the code where they are made, and listed with the reason in docs/iron-oak.md
("Readings that are not switches"). Also here: the ruleset's version and what older versions
read (``LEGACY_READINGS``), so their records keep verifying."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

ShieldLine = Literal["otherwise", "always"]
"""How a damage chart band's last line combines with its rows (IO-6.2 [AMBIG], ``shield_line``)."""


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
    * ``bow_on_limit`` (IO-5.5.1 / IO-5.5.2 「一度には1艦しかBow-on(Stern-on)にできない」
      [AMBIG]): ``crossing_ship`` — a crossing ship can make only one ship Bow-on (Stern-on) at
      a time, so a new crossing of that kind releases the ship it held (the seed's literal
      reading); ``target`` — a ship can be Bow-on (Stern-on) to only one ship at a time (1.0);
      ``game`` — only one ship on the map is Bow-on (Stern-on) at a time.
    * ``gunfire_marker`` (IO-6.2.4 [GAP]: 「「Gunfire」マーカーを使用」 says the markers are used,
      not what they do): ``no_effect`` — placed and removed (IO-3.3.2 A) but the Night Gunnery
      Chart applies to every target that is not fouled, as the seed's text says;
      ``reveals_target`` — a target carrying one is fired at as by day, no night modifier and
      no "N/A" refusal (1.0).
    * ``explosion_fire_level`` (IO-6.3.8 [AMBIG]): 3.
    * ``crew_loss_bands`` (IO-6.3.5 [AMBIG]): ``as_printed``.
    * ``engine_damaged_response`` / ``smokestack_response`` (IO-6.3.6 / IO-6.3.16 [AMBIG]): −2 on.
    * ``shield_line`` (IO-6.2 [AMBIG]): how a Standard Damage Chart band's last line (its shield
      step, and in the 2·DR band 「シールド被害を-2増やし、2ヒット」 its hits) combines with the
      band's condition rows: ``otherwise`` (the seed's literal reading) — it applies only when
      none of the rows does; ``always`` (1.0) — its shield step applies in every case and the
      hits come from the rows alone.
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
    bow_on_limit: Literal["crossing_ship", "target", "game"] = "crossing_ship"
    gunfire_marker: Literal["no_effect", "reveals_target"] = "no_effect"
    explosion_fire_level: int = Field(default=3, ge=2, le=5)
    crew_loss_bands: Literal["as_printed", "crew", "boiler"] = "as_printed"
    engine_damaged_response: bool = True
    smokestack_response: bool = True
    shield_line: ShieldLine = "otherwise"
    who_fires: Literal["one_target", "one_section", "each_section"] = "one_target"


#: The rule each option's reading belongs to (``Ruleset.option_rules``: ruling diffs name it).
OPTION_RULES: dict[str, str] = {
    "mode": "IO-9.3",
    "low_freeboard": "IO-9.1",
    "tugs": "IO-9.2",
    "drift_when_fouled_with": "IO-5.2",
    "swap": "IO-6.2.2",
    "smoke_penalises": "IO-6.2.3C",
    "remove_opposed": "IO-5.5",
    "bow_on_limit": "IO-5.5.1",
    "gunfire_marker": "IO-6.2.4",
    "explosion_fire_level": "IO-6.3.8",
    "crew_loss_bands": "IO-6.3.5",
    "engine_damaged_response": "IO-6.3.6",
    "smokestack_response": "IO-6.3.16",
    "shield_line": "IO-6.2",
    "who_fires": "IO-6.0",
}

#: The version of these rules that new games are recorded with, and the older ones still played.
VERSION = (1, 1)
REPLAYS = ("1.0",)

#: What an older version read where 1.1 follows the seed more closely: a game recorded with that
#: version has no value in its header for an option added since, and re-runs with these values,
#: so its record still verifies. Fixes that are not readings check ``IronOakState.rules_version``.
LEGACY_READINGS: dict[str, dict[str, object]] = {
    "1.0": {
        "shield_line": "always",
        "bow_on_limit": "target",
        "gunfire_marker": "reveals_target",
        "who_fires": "one_section",
    },
}
