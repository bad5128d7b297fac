"""The game header: everything needed to rebuild a game's initial state, shared by store and record.

The header is the payload of a game's first stored event and the ``header`` of its record file. It
embeds the fully resolved scenario (class tables included) so that a game never depends on data
files that may change later.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    ValidationInfo,
    field_validator,
    model_serializer,
    model_validator,
)

from domain.canonical import canonical_json, jcs, sha256_hex
from domain.plain_text import check_plain

#: The record format new games are made in (``domain.record``); older games keep their own.
CURRENT_FORMAT: Final = 2


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RulesetRef(_Model):
    id: str
    version: str


class DiceSpec(_Model):
    """Seeded dice (computer play, reproducible) or physical dice entered with each command.

    A seeded game carries either its seed in clear or, when the seed is kept secret until the
    game ends (``domain.seed_commit``), a ``commitment`` to it: the SHA-256 hex digest of
    ``canonical_json({"salt": salt, "content": {"seed": seed}})`` (``domain.sealed.seal``).

    A fork of a seeded game played on at the table (``wake fork --physical``) is a physical game
    with ``seeded_events``: the orders of its first ``seeded_events`` events (the prefix it shares
    with its parent) threw the seed's dice and re-run with them, so it keeps the parent's seed or
    commitment; every later order takes faces rolled at the table (:meth:`physical_at`).

    ``cards`` says how the game draws cards (``domain.cards``): ``"named"``, each card drawn is
    asked of the chance source by name (a physical game: the card drawn at the table) and
    recorded with its exact odds; absent, decks are shuffled with the dice (a seeded game) or
    the cards drawn are named in the orders' fields (a physical game made before named draws).
    Left out of the header when absent, so older headers keep their exact form and digest."""

    mode: Literal["seeded", "physical"]
    # within JSON's safe integers, which every language reads exactly (RFC 8785)
    seed: int | None = Field(default=None, ge=-(2**53 - 1), le=2**53 - 1)
    commitment: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")
    seeded_events: int | None = Field(default=None, ge=0)
    cards: Literal["named"] | None = None

    @model_validator(mode="after")
    def _seed_matches_mode(self) -> DiceSpec:
        seeded = self.seed is not None or self.commitment is not None
        if self.mode == "seeded" and self.seeded_events is not None:
            raise ValueError("seeded_events is for physical dice after a seeded prefix")
        if self.mode == "seeded" and (self.seed is None) == (self.commitment is None):
            raise ValueError("seeded dice need a seed or a commitment to one (not both)")
        if self.mode == "physical" and self.seeded_events is None and seeded:
            raise ValueError("physical dice take no seed")
        if self.seeded_events is not None and (self.seed is None) == (self.commitment is None):
            raise ValueError(
                "physical dice after a seeded prefix (seeded_events) needs the seed of the "
                "prefix or a commitment to it (not both)"
            )
        return self

    @property
    def physical_from_start(self) -> bool:
        """Physical dice from the first event: the table's cards too (hands dealt and cards
        drawn are named, not shuffled by the engine). A fork played on at the table has physical
        dice only after its seeded prefix; its decks stay in the order the seed shuffled them."""
        return self.mode == "physical" and self.seeded_events is None

    def physical_at(self, seq: int) -> bool:
        """Whether an order given after event ``seq`` takes faces rolled at the table."""
        return self.mode == "physical" and (self.seeded_events is None or seq >= self.seeded_events)

    @model_serializer(mode="wrap")
    def _without_absent_commitment(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        # headers made before commitments (or named draws) existed keep their exact form (and
        # genesis digest)
        body: dict[str, Any] = handler(self)
        if self.commitment is None:
            body.pop("commitment", None)
        if self.seeded_events is None:
            body.pop("seeded_events", None)
        if self.cards is None:
            body.pop("cards", None)
        return body

    @property
    def named_cards(self) -> bool:
        """Cards drawn are asked of the chance source by name (``domain.cards``)."""
        return self.cards == "named"

    @property
    def sealed(self) -> bool:
        """A committed seed: the dice cannot be re-thrown until the seed is revealed."""
        return self.commitment is not None


class SideSpec(_Model):
    id: str
    name: str
    controller: str = "human"  # "human", "bot", or a player name; informational

    @field_validator("id", "name", "controller")
    @classmethod
    def _plain(cls, value: str, info: ValidationInfo) -> str:
        return check_plain(value, f"the side's {info.field_name}")  # issue 23 item 9


_HEX64 = r"^[0-9a-f]{64}$"


class ParentRef(_Model):
    """The game a variation (a fork, or a rerun saved as one) continues: the parent's id, how
    many of its events the variation shares (its first ``event`` events, copied unchanged),
    the parent's genesis digest and its chain digest after that event (the genesis itself at
    event 0). Re-chaining the variation's first ``event`` events from ``genesis`` gives
    ``digest`` (``domain.lineage``), so the claim is checkable without the parent.

    ``origin`` is the first game of the line (the parent's own origin, or the parent): a game
    whose seed is not in its header salts its bots' sealed choices from it (``salt_base``), so
    the bots of a variation can open the choices sealed before the fork."""

    game_id: str
    event: int = Field(ge=0)
    genesis: str = Field(pattern=_HEX64)
    digest: str = Field(pattern=_HEX64)
    origin: str
    #: Seeded dice of a line taken back at the table (issue 20): the variation's own orders
    #: throw from this die on, past every die the taken-back line showed, so nobody re-plays a
    #: position knowing its next dice. Left out when absent (older headers keep their digest).
    dice_from: int | None = Field(default=None, ge=0)

    @model_serializer(mode="wrap")
    def _without_absent_dice_from(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        body: dict[str, Any] = handler(self)
        if self.dice_from is None:
            body.pop("dice_from", None)
        return body


class GameHeader(_Model):
    game_id: str
    title: str = ""
    ruleset: RulesetRef
    scenario: dict[str, Any]
    options: dict[str, Any] = Field(default_factory=dict)
    dice: DiceSpec
    sides: list[SideSpec]
    #: The record format the game is made in, which fixes its canonical JSON: 1 = Python's
    #: sorted ``json`` (games made before format 2), 2 = RFC 8785 (JCS). Left out of the
    #: serialised header when 1, so format-1 headers keep their exact form and digest.
    format_version: Literal[1, 2] = 1
    parent: ParentRef | None = None

    @field_validator("title")
    @classmethod
    def _plain_title(cls, value: str) -> str:
        return check_plain(value, "the title")  # issue 23 item 9: printed by many commands

    @field_validator("scenario")
    @classmethod
    def _plain_scenario_names(cls, value: dict[str, Any]) -> dict[str, Any]:
        for key in ("id", "title"):  # the scenario's id and title stand in for a game's title
            if isinstance(value.get(key), str):
                check_plain(value[key], f"the scenario's {key}")
        return value

    @model_serializer(mode="wrap")
    def _without_defaults_of_old_headers(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        # a format-1 game, or one that is not a variation, keeps its exact form (and genesis)
        body: dict[str, Any] = handler(self)
        if self.format_version == 1:
            body.pop("format_version", None)
        if self.parent is None:
            body.pop("parent", None)
        return body

    @property
    def encode(self) -> Callable[[Any], bytes]:
        """This game's canonical JSON (see ``format_version``)."""
        return jcs if self.format_version >= 2 else canonical_json

    def genesis_digest(self) -> str:
        """Start of the hash chain: the digest of the header itself."""
        return sha256_hex(self.encode(self.model_dump(mode="json")))

    @property
    def salt_base(self) -> str:
        """What a ruleset salts its bots' sealed choices from (``domain.sealed``): the seed
        when the header carries it, else the id of the first game of the line (this game, or
        its ``parent.origin``), so a variation seals exactly as the game it continues."""
        if self.dice.seed is not None:
            return str(self.dice.seed)
        return self.parent.origin if self.parent is not None else self.game_id

    def dice_start(self, seq: int, position: int) -> int:
        """Where the next order's seeded dice start, ``seq`` events into the game with
        ``position`` dice thrown: past ``parent.dice_from`` once the game's own orders begin."""
        parent = self.parent
        if parent is None or parent.dice_from is None or seq < parent.event:
            return position
        return max(position, parent.dice_from)

    @property
    def origin(self) -> str:
        """The first game of this game's line of variations (itself when it is not one)."""
        return self.parent.origin if self.parent is not None else self.game_id

    @property
    def scenario_id(self) -> str:
        return str(self.scenario.get("id", "?"))
