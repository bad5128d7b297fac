"""Star Wars: Armada ruleset options: readings the sources leave open, each with a documented
default (``wake start armada ... --option name=value``); docs/armada.md lists them.

* ``points`` (SWA-5, SWA-DATA): which fleet-point cost a destroyed unit scores. ``printed`` — the
  cost printed in the card's corner, as the seed says (default); ``updated`` — the later points
  change some sources carry (Victory II 80, X-wing 12; ``points_updated`` in the data files).
* ``evade`` (SWA-DEF [AMBIG]): ``rrg_1_6`` — the Rules Reference 1.6 Evade (long: cancel a die;
  medium, close and distance 1–2: reroll a die; one more die against a larger attacker;
  default); ``ltp_2015`` — the Learn to Play booklet's (long: cancel, medium: reroll, close: no
  effect). :mod:`.defence` implements both.
* ``pass_tokens`` (SWA-PASS): ``off`` — the Learn to Play booklet has none (default);
  ``rrg_1_6`` — the Rules Reference 1.6 pass tokens (:mod:`.passing`).

:data:`VERSION` is the version new games are recorded with; games recorded with one of
:data:`REPLAYS` re-run with that version's readings (``ArmadaState.rules_version``), so their
records keep verifying.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from domain.errors import ScenarioError
from domain.rulesets.armada.defence import EvadeReading

Points = Literal["printed", "updated"]

#: The version of these rules new games are recorded with, and the older ones still played.
#: 0.2 (issue 22, SWA-OVL): a squadron ending its move on a station recovers one hull; displaced
#: squadrons go touching the ship while there is room; the debris zone and the station discard
#: are the owner's orders. 0.1 games re-run without those (Wake chose for the owner).
VERSION = (0, 2)
REPLAYS = ("0.1",)


class ArmadaOptions(BaseModel):
    """Options a game is started with; every field has its default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    points: Points = "printed"
    evade: EvadeReading = "rrg_1_6"
    pass_tokens: Literal["off", "rrg_1_6"] = "off"


#: The rule each option's reading belongs to (``Ruleset.option_rules``: ruling diffs name it).
OPTION_RULES: dict[str, str] = {"points": "SWA-5", "evade": "SWA-DEF", "pass_tokens": "SWA-PASS"}


def resolve_options(data: object) -> ArmadaOptions:
    """Validate options, defaults filled in.

    Raises:
        ScenarioError: an unknown option or a bad value.
    """
    if not isinstance(data, dict):
        raise ScenarioError("Armada options are a JSON object")
    try:
        return ArmadaOptions.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'options'}: {err['msg']}"
            for err in exc.errors()
        )
        raise ScenarioError(f"invalid Armada option: {problems}") from exc
