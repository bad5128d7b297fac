"""Iron & Oak orders (imperative); the JSON form is ``{"type": ..., ...}``.

One command per decision a player makes in the sequence of play (IO-3): the deal, each side's
Status choices, the sealed order cards, each ship's revealed order with the mover's movement
cards, the opponent's movement-card window, the fire declaration with gunnery cards, the
opponent's one-Misfire window, the target's choice of a Collateral location (IO-6.3.4) when
a resolution stops for it, the card exchange, and the Victory Phase (a system step); and
``pass`` for "nothing this step" wherever the rules allow doing nothing.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

Cell = tuple[int, int]
OrderKind = Literal[
    "maneuver_0",
    "maneuver_1",
    "maneuver_2",
    "opposing",
    "cross_t",
    "ram",
    "anchor",
    "weigh",
    "refloat",
    "unfoul",
    "drift",
]
ORDER_KINDS: tuple[str, ...] = OrderKind.__args__  # type: ignore[attr-defined]


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Deal(_Command):
    """Shuffle the action deck with the game's dice and deal the initial hands (IO-3.4). With
    physical cards, ``hands`` says what each side was dealt (the deck order stays unknown)."""

    type: Literal["deal"] = "deal"
    hands: dict[str, list[str]] | None = None


class Status(_Command):
    """The side's Status Phase (IO-3.1): withdraw repair parties, name the critical each
    remaining party attempts (default: the first repairable), place new parties (IO-3.1.1).
    Fires (level 5 first) and smoke are checked automatically."""

    type: Literal["status"] = "status"
    withdraw: list[str] = Field(default_factory=list)
    repair: dict[str, str] = Field(default_factory=dict)
    place: list[str] = Field(default_factory=list)


class AssignOrders(_Command):
    """IO-3.2: an order card face down on every ship under command: ``seals`` maps each ship to
    ``domain.sealed.seal({"ship", "turn", "order"}, salt).digest``. ``numbers``: the cards'
    numbers in alternating mode (IO-9.3.2). ``release_tows``: towing ships that let go (IO-5.3)."""

    type: Literal["assign_orders"] = "assign_orders"
    seals: dict[str, str]
    numbers: dict[str, int] = Field(default_factory=dict)
    release_tows: list[str] = Field(default_factory=list)


class CardPlay(_Command):
    """An action card from the hand: on the ship under orders (movement) or one declared fire
    (``firer``/``section``, gunnery); ``location`` for a card that repairs a shield."""

    card: str
    firer: str | None = None
    section: int | None = None
    location: str | None = None


class RevealOrder(_Command):
    """IO-3.3.1 A/B: turn the ship's order card face up (with its salt), state the path (first
    box = where the ship is; an off-map ship gives the box it enters), target, T side or
    attacks, and play the mover's movement cards. ``drift``: the order cannot be carried out
    and the ship drifts instead (IO-4.0)."""

    type: Literal["reveal_order"] = "reveal_order"
    ship: str
    order: OrderKind
    salt: str
    path: list[Cell] = Field(default_factory=list)
    target: str | None = None
    kind: Literal["bow_on", "stern_on"] | None = None
    attacks: list[Literal["spar", "ram"]] = Field(default_factory=list)
    attach: str | None = None
    exit: bool = False
    drift: bool = False
    cards: list[CardPlay] = Field(default_factory=list)


class RespondMovement(_Command):
    """IO-3.3.1 C/D: the opponent's movement cards (possibly none); then the move resolves."""

    type: Literal["respond_movement"] = "respond_movement"
    cards: list[CardPlay] = Field(default_factory=list)


class Fire(_Command):
    """One declared fire: ``firer`` (a ship or a fort section) with gun ``section`` at
    ``target``; ``plunging`` for a fort at Long range (IO-6.2.3D)."""

    firer: str
    section: int = 0
    target: str
    plunging: bool = False


class DeclareFire(_Command):
    """IO-3.3.2 B/C: every fire of the side this segment (each gun section at most once; one
    target per ship or fort section, IO-6.0 and option ``who_fires``) and the firer's gunnery
    cards."""

    type: Literal["declare_fire"] = "declare_fire"
    fires: list[Fire] = Field(default_factory=list)
    cards: list[CardPlay] = Field(default_factory=list)


class RespondFire(_Command):
    """IO-3.3.2 D/E: the opponent may play one Misfire card on one declared fire; then all fire
    resolves in declaration order."""

    type: Literal["respond_fire"] = "respond_fire"
    misfire: CardPlay | None = None


class ChooseCollateral(_Command):
    """IO-6.3.4 「目標側の選択」: the target's side names the location that takes a Collateral
    critical's extra −1 shield damage, when the resolution stopped for it (one of the
    candidates ``CollateralAwaited`` lists)."""

    type: Literal["choose_collateral"] = "choose_collateral"
    location: str


class ExchangeCard(_Command):
    """IO-3.4: discard one card (``None``: no exchange) and draw one; ``draw`` names the card
    drawn when the cards are physical."""

    type: Literal["exchange_card"] = "exchange_card"
    discard: str | None = None
    draw: str | None = None


class EndTurn(_Command):
    """IO-3.5: the Victory Phase (a system step): check the scenario's victory conditions."""

    type: Literal["end_turn"] = "end_turn"


class Pass(_Command):
    """Nothing this step, where the rules let the side do nothing: no Status choices, no
    movement cards in the opponent's window, no fire, no Misfire, no exchange. It has the
    events of that step's empty order; where the rules require something (the deal, an order
    card on every ship IO-3.2, each ship's attempt to move IO-5.0, the Victory Phase) it is
    refused with the rule and what is required (``passing.long_form``)."""

    type: Literal["pass"] = "pass"


IronOakCommand = Annotated[
    Deal
    | Status
    | AssignOrders
    | RevealOrder
    | RespondMovement
    | DeclareFire
    | RespondFire
    | ChooseCollateral
    | ExchangeCard
    | EndTurn
    | Pass,
    Field(discriminator="type"),
]
