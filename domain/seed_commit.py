"""Committed seeds: a computer game's header carries a commitment to its seed, not the seed.

Whoever can read a live game (an export, the viewer, ``wake show``) learns nothing that predicts
the next roll; the seed is revealed when the game has ended (or when the umpire chooses, with
``wake reveal-seed``), and anyone can then check it against the header's commitment and re-throw
every die. The commitment reuses ``domain.sealed``: SHA-256 over
``canonical_json({"salt": salt, "content": {"seed": seed}})`` with a random 128-bit salt, so the
commitment itself cannot be searched for the seed.
"""

from __future__ import annotations

import secrets
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.errors import RecordError
from domain.header import DiceSpec
from domain.safe_json import MAX_SAFE_INTEGER
from domain.sealed import Commitment, new_salt, seal, verify_reveal

#: A committed game's seed is drawn from [0, 2^53 - 1]: as large as a record's integers may be.
SEED_RANGE: Final = MAX_SAFE_INTEGER + 1


class SeedSecret(BaseModel):
    """The seed of a committed game and the salt of its commitment; in a record, the reveal."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seed: int = Field(ge=-MAX_SAFE_INTEGER, le=MAX_SAFE_INTEGER)
    salt: str = Field(pattern=r"^[0-9a-f]{32,128}$")

    def commitment(self) -> str:
        return seal({"seed": self.seed}, self.salt).digest

    def matches(self, dice: DiceSpec) -> bool:
        """True when this is the seed ``dice`` commits to."""
        if dice.commitment is None:
            return False
        return verify_reveal(Commitment(digest=dice.commitment), {"seed": self.seed}, self.salt)


def new_secret(seed: int | None = None) -> SeedSecret:
    """A fresh secret: ``seed`` (or a random one in ``SEED_RANGE``) with a random salt."""
    return SeedSecret(seed=secrets.randbelow(SEED_RANGE) if seed is None else seed, salt=new_salt())


def committed_dice(secret: SeedSecret, cards: Literal["named"] | None = None) -> DiceSpec:
    """The header's dice for a game whose seed is ``secret``: the commitment only (and how it
    draws cards, ``DiceSpec.cards``)."""
    return DiceSpec(mode="seeded", commitment=secret.commitment(), cards=cards)


def checked_seed(dice: DiceSpec, reveal: SeedSecret | None, source: str = "record") -> int | None:
    """The seed to re-throw a game's dice with: the header's, or a revealed one that matches
    the commitment; None for physical dice or a seed not yet revealed.

    Raises:
        RecordError: a reveal without a commitment, or one that does not match it.
    """
    if reveal is None:
        return dice.seed
    if dice.commitment is None:
        raise RecordError(f"{source}: a revealed seed, but the header commits to no seed")
    if not reveal.matches(dice):
        raise RecordError(
            f"{source}: the revealed seed does not match the header's commitment "
            f"{dice.commitment[:12]}… (a different seed, or a different salt)"
        )
    return reveal.seed
