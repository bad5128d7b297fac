"""The game header: everything needed to rebuild a game's initial state, shared by store and record.

The header is the payload of a game's first stored event and the ``header`` of its record file. It
embeds the fully resolved scenario (class tables included) so that a game never depends on data
files that may change later.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from domain.canonical import canonical_json, sha256_hex


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RulesetRef(_Model):
    id: str
    version: str


class DiceSpec(_Model):
    """Seeded dice (computer play, reproducible) or physical dice entered with each command."""

    mode: Literal["seeded", "physical"]
    seed: int | None = None

    @model_validator(mode="after")
    def _seed_matches_mode(self) -> DiceSpec:
        if self.mode == "seeded" and self.seed is None:
            raise ValueError("seeded dice need a seed")
        if self.mode == "physical" and self.seed is not None:
            raise ValueError("physical dice take no seed")
        return self


class SideSpec(_Model):
    id: str
    name: str
    controller: str = "human"  # "human", "bot", or a player name; informational


class GameHeader(_Model):
    game_id: str
    title: str = ""
    ruleset: RulesetRef
    scenario: dict[str, Any]
    options: dict[str, Any] = Field(default_factory=dict)
    dice: DiceSpec
    sides: list[SideSpec]

    def genesis_digest(self) -> str:
        """Start of the hash chain: the digest of the header itself."""
        return sha256_hex(canonical_json(self.model_dump(mode="json")))

    @property
    def scenario_id(self) -> str:
        return str(self.scenario.get("id", "?"))
