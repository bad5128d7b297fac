"""SHIPS & TACTICS data: card definitions, faction decks, the provisional combat table and
scenarios, as pydantic models, with the bundled files and a user's own replacing them.

None of the card data is public (ST-GAPS): the bundled cards, the 30-card faction decks and the
combat table are **provisional**, invented by Wake for play-testing and flagged
``provisional: true`` in their files. A scenario may carry its own ``cards``, ``decks`` and
``combat`` objects; each replaces the bundled file whole (``domain.datafiles`` validates them and
names the field that does not fit).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from domain.datafiles import bundled_json, load_model
from domain.errors import ScenarioError

PACKAGE = "domain.rulesets.ships"

Segment = Literal["long", "medium", "aircraft", "short", "boarding"]
SEGMENTS: tuple[Segment, ...] = ("long", "medium", "aircraft", "short", "boarding")  # ST-2.2
Weapon = Literal["beam", "missile", "torpedo", "special"]
Box = Literal["vanguard", "rearguard"]
BOXES: tuple[Box, ...] = ("vanguard", "rearguard")


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Guns(_Model):
    """A ship's own fire at each range (ST-3.1, 3.2, 3.4), before cards."""

    long: int = Field(ge=0)
    medium: int = Field(ge=0)
    short: int = Field(ge=0)

    def at(self, segment: Segment) -> int:
        if segment == "long":
            return self.long
        if segment == "medium":
            return self.medium
        if segment == "short":
            return self.short
        return 0


class _Card(_Model):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    faction: str = ""


class ShipCard(_Card):
    """A ship: VP (ST-4.2, ST-5.1), hull (damage that sinks it), armour (taken off each hit),
    guns per range, melee for boarding (ST-3.5), aircraft capacity (ST-1.5). ``combines_with``:
    played together with that ship card, the two count as this one ship (ST-5.4)."""

    kind: Literal["ship"] = "ship"
    vp: int = Field(ge=0)
    hull: int = Field(ge=1)
    armour: int = Field(ge=0)
    guns: Guns
    melee: int = Field(ge=0)
    capacity: int = Field(default=0, ge=0)
    tags: list[str] = Field(default_factory=list)
    combines_with: str | None = None


class AircraftCard(_Card):
    """Carrier aircraft (ST-1.5, ST-3.3): anti-ship attack and dogfight values."""

    kind: Literal["aircraft"] = "aircraft"
    attack: int = Field(ge=0)
    dogfight: int = Field(ge=0)


class CharacterCard(_Card):
    """A character attached to a ship or an aircraft (ST-1.6): melee (白兵戦値), ship-handling
    (操船力, ST-3.5), pilot skill (艦載機P, ST-3.3.1) and gunnery."""

    kind: Literal["character"] = "character"
    melee: int = Field(default=0, ge=0)
    ship_handling: int = Field(default=0, ge=0)
    pilot: int = Field(default=0, ge=0)
    gunnery: int = Field(default=0, ge=0)


class AttackCard(_Card):
    """An attack card played with a ship's fire; several on one target saturate it. ``line``:
    a line weapon (ST-3.1) fired at a centre player; ``requires_tag``: the firing ship needs it."""

    kind: Literal["attack"] = "attack"
    weapon: Weapon
    value: int = Field(ge=1)
    segments: list[Segment]
    line: bool = False
    requires_tag: str | None = None


class DefenceCard(_Card):
    """A defence card: cancels one attack card of a weapon it lists."""

    kind: Literal["defence"] = "defence"
    cancels: list[Weapon]


class MinovskyCard(_Card):
    """Minovsky particles (ST-5.3): dispersed at a segment's start, they affect every player."""

    kind: Literal["minovsky"] = "minovsky"


class HackingCard(_Card):
    """Hacking (ST-5.2): up to ``targets`` enemy ships, of any players, lose their guns for the
    rest of the battle."""

    kind: Literal["hacking"] = "hacking"
    targets: int = Field(ge=1)


Card = Annotated[
    ShipCard | AircraftCard | CharacterCard | AttackCard | DefenceCard | MinovskyCard | HackingCard,
    Field(discriminator="kind"),
]


class CardSet(_Model):
    provisional: bool = True
    source: str = ""
    cards: list[Card]

    @model_validator(mode="after")
    def _unique(self) -> CardSet:
        seen: set[str] = set()
        for card in self.cards:
            if card.id in seen:
                raise ValueError(f"cards: card id {card.id!r} appears twice")
            seen.add(card.id)
        ships = {c.id for c in self.cards if isinstance(c, ShipCard)}
        for card in self.cards:
            if isinstance(card, ShipCard) and card.combines_with not in (None, *ships):
                raise ValueError(
                    f"cards: {card.id} combines with unknown ship {card.combines_with}"
                )
        return self

    def by_id(self) -> dict[str, Any]:
        """Card id -> card (built once per card set: rules look cards up all the time)."""
        hit = _INDEX.get(id(self))
        if hit is None or hit[0] is not self:
            if len(_INDEX) > 256:  # card sets of finished games: let them go
                _INDEX.clear()
            hit = _INDEX[id(self)] = (self, {card.id: card for card in self.cards})
        return hit[1]


_INDEX: dict[int, tuple[CardSet, dict[str, Any]]] = {}


class DeckEntry(_Model):
    """One line of a deck list: a card and how many copies (the list's order is the deck's)."""

    card: str
    copies: int = Field(ge=1)


class DeckList(_Model):
    """A faction's deck. ``cards`` is a list of entries in deck order (issue 23 item 8: an
    array's order is inside every digest). Decks shipped before were an object ``{card id:
    copies}`` whose key order gave the pre-shuffle order, which RFC 8785 does not keep (a record
    re-saved with sorted keys kept its digests and then diverged); games recorded with them keep
    that form and are read in their file's key order, as they were played."""

    id: str
    name: str
    cards: list[DeckEntry] | dict[str, int]

    @model_validator(mode="after")
    def _each_card_once(self) -> DeckList:
        if isinstance(self.cards, list):
            ids = [entry.card for entry in self.cards]
            twice = sorted({i for i in ids if ids.count(i) > 1})
            if twice:
                raise ValueError(f"cards: {twice} listed twice (give the copies once)")
        return self

    def card_ids(self) -> list[str]:
        """The deck's distinct cards, in deck order."""
        if isinstance(self.cards, dict):
            return list(self.cards)
        return [entry.card for entry in self.cards]

    def full(self) -> list[str]:
        """Every copy, in deck order: the deck before its shuffle."""
        if isinstance(self.cards, dict):  # a deck of the first data version: file order
            return [card for card, n in self.cards.items() for _ in range(n)]
        return [entry.card for entry in self.cards for _ in range(entry.copies)]


class DeckSet(_Model):
    provisional: bool = True
    source: str = ""
    decks: list[DeckList]


class CombatTable(_Model):
    """The provisional combat engine's numbers (``combat.py`` is the one module using them)."""

    provisional: bool = True
    source: str = ""
    saturation_bonus: int = Field(ge=0)  # per attack card beyond the first on one target
    rearguard_weapons: list[Weapon]  # attack cards that reach a rearguard behind a vanguard
    guns_reach_rearguard: list[Segment]  # ranges at which a ship's own guns reach it
    aircraft_reach_rearguard: bool
    exposed_rearguard: bool  # no vanguard ship left: the rearguard takes any attack
    boarding_capture_margin: int = Field(ge=1)  # boarding total must beat defence by this
    boarding_reaches_rearguard: bool
    minovsky_guns_off: list[Segment]  # ranges at which ships' own guns fall silent
    minovsky_blocks_weapons: list[Weapon]  # attack cards that cannot be played
    hacked_ship_guns: int = Field(ge=0)


class DataSet(_Model):
    cards: CardSet
    decks: DeckSet
    combat: CombatTable

    @model_validator(mode="after")
    def _decks_known(self) -> DataSet:
        known = {c.id for c in self.cards.cards}
        for deck in self.decks.decks:
            unknown = sorted(set(deck.card_ids()) - known)
            if unknown:
                raise ValueError(f"decks[{deck.id}]: unknown card(s) {unknown}")
        return self


class PlayerSpec(_Model):
    id: str = Field(pattern=r"^[A-Za-z0-9_]+$")
    name: str
    deck: str


class Scenario(_Model):
    """Players in seating order (ST-3.1), each with a faction deck (ST-1.1)."""

    id: str
    title: str = ""
    battles: int = Field(default=5, ge=1)  # ST-4.4
    hand_size: int = Field(default=8, ge=1)  # ST-1.2, ST-4.3
    players: list[PlayerSpec] = Field(min_length=2, max_length=6)

    @model_validator(mode="after")
    def _unique_players(self) -> Scenario:
        ids = [p.id for p in self.players]
        if len(set(ids)) != len(ids):
            raise ValueError("players: player ids must be unique")
        return self


@cache
def bundled() -> DataSet:
    """The provisional cards, decks and combat table shipped with Wake."""
    return DataSet(
        cards=load_model(CardSet, bundled_json(PACKAGE, "cards.json"), "SHIPS cards file"),
        decks=load_model(DeckSet, bundled_json(PACKAGE, "decks.json"), "SHIPS decks file"),
        combat=load_model(CombatTable, bundled_json(PACKAGE, "combat.json"), "SHIPS combat file"),
    )


DATA_PARTS = ("cards", "decks", "combat")


def resolve_data(parts: Mapping[str, Any]) -> DataSet:
    """The bundled data with each part given (``cards``, ``decks``, ``combat``) replacing its file.

    Raises:
        ScenarioError: a part that does not fit (the field is named).
    """
    base = bundled()
    models: dict[str, Any] = {"cards": CardSet, "decks": DeckSet, "combat": CombatTable}
    chosen = {
        part: (
            getattr(base, part)
            if parts.get(part) is None
            else load_model(models[part], parts[part], f"SHIPS {part} file")
        )
        for part in DATA_PARTS
    }
    return load_model(DataSet, {k: v.model_dump() for k, v in chosen.items()}, "SHIPS data")


def load_scenario(data: Mapping[str, Any], dataset: DataSet) -> Scenario:
    """A scenario checked against the data (every deck exists).

    Raises:
        ScenarioError: invalid fields or an unknown deck.
    """
    scenario = load_model(Scenario, data, "SHIPS scenario")
    decks = {d.id for d in dataset.decks.decks}
    for player in scenario.players:
        if player.deck not in decks:
            raise ScenarioError(
                f"invalid SHIPS scenario: players[{player.id}].deck: unknown deck {player.deck!r}"
            )
    return scenario
