"""Iron & Oak action cards (IO-1.3.2: check die, movement or gunnery, day/night; IO-7.0 the
list is a separate sheet, IO-GAPS 14): the deck's cards and what each does in Wake (`use`)."""

from __future__ import annotations

from typing import Literal

from pydantic import (
    Field,
    model_validator,
)

from domain.rulesets.iron_oak.basics import _ID, Dice, _check_provisional_fields, _DataFile, _Model


class ActionCard(_Model):
    """An Action card (IO-1.3.2): check die, type, day/night symbol; play windows IO-3.3.1/3.3.2."""

    id: str = Field(pattern=_ID)
    name: str
    check_die: Dice
    alt_die: Dice | None = None  # IO-1.3.2: some cards name a different die for some uses
    kind: Literal["movement", "gunnery"]
    time: Literal["day", "night", "any"]
    window: Literal["own", "opponent"]  # IO-3.3.1 B/C, IO-3.3.2 C/D
    count: int = Field(ge=1)  # copies in the deck
    effect: str
    # What the engine does when the card is played (the text above is for people): a modifier
    # of ``value`` to one ship's movement roll, contact roll (T, ram, spar), hazard checks or
    # one gun section's CR this segment; ``misfire`` cancels one declared fire (IO-3.3.2D);
    # ``strike`` captures the target if the fire leaves it heavily damaged (IO-6.2.3I);
    # ``drift_check`` makes an enemy ship pass a check die roll or drift; ``repair_shield``
    # removes ``value`` points of shield damage from one location of a friendly ship.
    use: Literal[
        "movement",
        "contact",
        "hazard",
        "gunnery",
        "misfire",
        "strike",
        "drift_check",
        "repair_shield",
    ]
    value: int = 0
    provisional: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _labels(self) -> ActionCard:
        _check_provisional_fields(ActionCard, self.provisional, f"card {self.id!r}:")
        return self


class ActionDeck(_DataFile):
    cards: list[ActionCard] = Field(min_length=1)

    @model_validator(mode="after")
    def _required(self) -> ActionDeck:
        ids = [c.id for c in self.cards]
        doubled = sorted({i for i in ids if ids.count(i) > 1})
        if doubled:
            raise ValueError(f"cards: id(s) {doubled} used twice")
        by_id = {c.id: c for c in self.cards}
        misfire = by_id.get("misfire")
        if misfire is None or (misfire.kind, misfire.window, misfire.use) != (
            "gunnery",
            "opponent",
            "misfire",
        ):
            raise ValueError(
                "cards: the deck needs a 'misfire' card of kind gunnery played in the opponent's "
                "window (IO-3.3.2D)"
            )
        if "strike" not in by_id or by_id["strike"].use != "strike":
            raise ValueError("cards: the deck needs a 'strike' card (IO-6.2.3I)")
        return self

    def get(self, card_id: str) -> ActionCard:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    @property
    def size(self) -> int:
        return sum(c.count for c in self.cards)
