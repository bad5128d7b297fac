"""The record file's structure (format ``wake-record``, versions 1 and 2) as pydantic models.

``commands`` and ``chance`` are derived views of ``events`` kept for people and other tools (the
orders in order, and every roll); the events with their chained digests are the authority.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from domain.analysis.model import Analysis
from domain.annotations import MAX_ANNOTATIONS, Annotation
from domain.clock import TIME_PATTERN
from domain.engine import Fact
from domain.header import GameHeader
from domain.plain_text import check_plain
from domain.seed_commit import SeedSecret

FORMAT_ID: Final = "wake-record"
FORMAT_VERSION: Final = 2
#: The versions this Wake reads (a record is read and verified by the rules of its own version).
READABLE_VERSIONS: Final = (1, 2)


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RecordedCommand(_Model):
    index: int = Field(ge=0)
    side: str | None
    command: dict[str, Any]
    dice: list[int] | None = None
    time: str | None = Field(
        default=None, pattern=TIME_PATTERN, description="when it was given (format 2)"
    )
    cards: list[str] | None = Field(
        default=None,
        description="ids of the cards drawn at the table for it, in drawing order (a physical "
        "game with named draws); absent otherwise",
    )


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


_HEX64 = r"^[0-9a-f]{64}$"


class SignedHead(_Model):
    """What a signature covers: one game's hash chain up to its head (see signing.py)."""

    game_id: str
    genesis: str = Field(pattern=_HEX64, description="the chain's genesis (header digest)")
    head: str = Field(pattern=_HEX64, description="digest of the last event signed")
    length: int = Field(ge=0, le=1_000_000, description="how many events the head closes")


class Signature(_Model):
    """An Ed25519 signature by someone who vouches for the game (``domain.record.signing``)."""

    signer: str = Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f\x7f]+$")
    role: Literal["umpire", "organiser", "server", "player"]
    #: A player's co-signature (issue 23 item 7): the side whose player vouches for the game
    #: (signed with the rest; left out, and out of the signed message, when absent).
    side: str | None = Field(default=None, min_length=1, max_length=200)
    algorithm: Literal["ed25519"] = "ed25519"
    public_key: str = Field(
        pattern=r"^[A-Za-z0-9+/]{43}=$", description="the raw 32-byte public key, base64"
    )
    signed: SignedHead
    signature: str = Field(
        pattern=r"^[A-Za-z0-9+/]{86}==$", description="the 64-byte signature, base64"
    )

    @model_serializer(mode="wrap")
    def _without_absent_side(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        body: dict[str, Any] = handler(self)
        if self.side is None:  # signatures made before co-signing keep their exact form
            body.pop("side", None)
        return body

    @model_validator(mode="after")
    def _side_with_player(self) -> Signature:
        if (self.role == "player") != (self.side is not None):
            raise ValueError("a player's signature names its side, and only a player's does")
        if self.side is not None:
            check_plain(self.side, "the signature's side")
        return self


#: The most signatures a record may carry.
MAX_SIGNATURES: Final = 16


#: The most variations a record carries (a table's take-backs and the forks made from them).
MAX_VARIATIONS: Final = 32


class Record(_Model):
    """A whole recorded game."""

    format: Literal["wake-record"] = FORMAT_ID
    format_version: Literal[1, 2] = FORMAT_VERSION
    header: GameHeader
    commands: list[RecordedCommand]
    chance: list[ChanceOutcome]
    events: list[Fact]
    chain: Chain
    seed_reveal: SeedSecret | None = Field(
        default=None,
        description="a committed seed, revealed (checked against header.dice.commitment)",
    )
    signatures: list[Signature] | None = Field(
        default=None,
        max_length=MAX_SIGNATURES,
        description="optional; outside the chain, so adding one changes no digest",
    )
    analysis: Analysis | None = Field(
        default=None,
        description="optional win-probability analysis by bot rollouts (issue 24); outside the "
        "chain and not signed: an import re-runs a sample of it and refuses one that differs",
    )
    annotations: list[Annotation] | None = Field(
        default=None,
        max_length=MAX_ANNOTATIONS,
        description="optional commentary (issue 14); outside the chain and not signed: each "
        "is bound to the chain digest after its event",
    )
    variations: list[Record] | None = Field(
        default=None,
        max_length=MAX_VARIATIONS,
        description="optional: the other lines of this game's variation tree (a line taken back "
        "at the table, a fork), each a whole record of its own, verified on its own and against "
        "its parent in this file; outside the chain and not covered by this record's signatures",
    )

    @model_validator(mode="after")
    def _variations_form_one_tree(self) -> Record:
        if self.variations is None:
            return self
        if any(line.variations is not None for line in self.variations):
            raise ValueError("a variation has variations of its own (list them all once)")
        problem = tree_problem(self.header, [line.header for line in self.variations])
        if problem is not None:
            raise ValueError(problem)
        return self


def tree_problem(game: GameHeader, variations: list[GameHeader]) -> str | None:
    """What keeps ``variations`` from being other lines of ``game``'s variation tree (None when
    they are): each is in the record once, and each is joined to ``game`` by parent links
    through games in the record."""
    if not variations:
        return "an empty variations section (leave it out instead)"
    headers = [game, *variations]
    ids = [h.game_id for h in headers]
    if len(set(ids)) != len(ids):
        return "a game is in the record twice (as the game or as a variation)"
    links: dict[str, set[str]] = {gid: set() for gid in ids}
    for h in headers:
        if h.parent is not None and h.parent.game_id in links:
            links[h.game_id].add(h.parent.game_id)
            links[h.parent.game_id].add(h.game_id)
    reached, todo = {game.game_id}, [game.game_id]
    while todo:
        for other in links[todo.pop()] - reached:
            reached.add(other)
            todo.append(other)
    for i, line in enumerate(variations, 1):
        if line.game_id not in reached:
            return (
                f"variation {i} is not a line of this game (no parent links join it to the "
                "game through games in the record)"
            )
    return None
