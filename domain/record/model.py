"""The record file's structure (format ``wake-record`` version 1) as pydantic models.

``commands`` and ``chance`` are derived views of ``events`` kept for people and other tools (the
orders in order, and every roll); the events with their chained digests are the authority.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.engine import Fact
from domain.header import GameHeader

FORMAT_ID: Final = "wake-record"
FORMAT_VERSION: Final = 1


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RecordedCommand(_Model):
    index: int = Field(ge=0)
    side: str | None
    command: dict[str, Any]
    dice: list[int] | None = None


class ChanceOutcome(_Model):
    seq: int = Field(ge=1, description="the event holding this roll")
    rule: str
    purpose: str
    side: str | None
    expression: str
    faces: list[int]
    opposed_expression: str | None = None
    opposed_faces: list[int] | None = None
    outcome: str


class Chain(_Model):
    algorithm: Literal["sha256"] = "sha256"
    genesis: str = Field(description="sha256 of the canonical JSON of the header")
    head: str = Field(description="digest of the last event (genesis if there is none)")
    length: int = Field(ge=0)


class Record(_Model):
    """A whole recorded game."""

    format: Literal["wake-record"] = FORMAT_ID
    format_version: Literal[1] = FORMAT_VERSION
    header: GameHeader
    commands: list[RecordedCommand]
    chance: list[ChanceOutcome]
    events: list[Fact]
    chain: Chain
