"""Star Wars: Armada ruleset options: readings the sources leave open, each with a documented
default (``wake start armada ... --option name=value``); docs/armada.md lists them.

* ``points`` (SWA-5, SWA-DATA): which fleet-point cost a destroyed unit scores. ``printed`` — the
  cost printed in the card's corner, as the seed says (default); ``updated`` — the later points
  change some sources carry (Victory II 80, X-wing 12; ``points_updated`` in the data files).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from domain.errors import ScenarioError

Points = Literal["printed", "updated"]


class ArmadaOptions(BaseModel):
    """Options a game is started with; every field has its default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    points: Points = "printed"


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
