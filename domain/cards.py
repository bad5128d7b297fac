"""Card decks and hands, with every chance outcome recorded so replays never roll.

Two ways a game draws cards (the header's ``DiceSpec.cards`` says which):

* **shuffled** (games without the field): a deck is shuffled Fisher–Yates with dice draws; the
  faces drawn are returned so they can be stored in the event log and re-applied by
  :func:`replay_shuffle`, and cards come off the top of the known order;
* **named** (``"named"``): no shuffle is recorded; each card drawn is asked of the game's chance
  source with a :class:`CardRequest` (a scribe enters the card drawn at the table, a seeded
  source draws it with one die) and recorded as a ``wake.CardDrawn`` event with the exact chance
  of drawing it from what the deck could give (:func:`draw_card_event`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction

from pydantic import BaseModel, ConfigDict

from domain.dice import CardNameError, CardRequest, DiceSource, Die
from domain.events import CardDrawn

# What a non-owner sees in place of each hidden card.
HIDDEN_CARD = "?"


class Deck(BaseModel):
    """An ordered pile of cards; the top of the deck is index 0."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cards: tuple[str, ...]


class Hand(BaseModel):
    """The cards held by one player."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    owner: str
    cards: tuple[str, ...]


def shuffle(cards: Sequence[str], dice: DiceSource) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Fisher–Yates shuffle: for i = n-1 .. 1 draw d(i+1) = f and swap positions i and f-1.

    Returns the new order and the faces drawn, in drawing order (n-1 faces). Each of the n!
    orders is equally likely (see :func:`shuffle_probability`).
    """
    order = list(cards)
    faces: list[int] = []
    for i in range(len(order) - 1, 0, -1):
        face = dice.draw(Die(i + 1))
        if not 1 <= face <= i + 1:
            raise ValueError(f"dice returned {face} for a d{i + 1}")
        faces.append(face)
        order[i], order[face - 1] = order[face - 1], order[i]
    return tuple(order), tuple(faces)


def shuffle_probability(n: int) -> Fraction:
    """Probability of any one particular order after shuffling ``n`` cards: 1/n!."""
    if n < 0:
        raise ValueError(f"cannot shuffle {n} cards")
    return Fraction(1, math.factorial(n))


def replay_shuffle(cards: Sequence[str], faces: Sequence[int]) -> tuple[str, ...]:
    """Re-apply recorded shuffle ``faces`` to ``cards`` without touching any dice."""
    order = list(cards)
    expected = max(len(order) - 1, 0)
    if len(faces) != expected:
        raise ValueError(f"shuffling {len(order)} cards needs {expected} faces, got {len(faces)}")
    for face, i in zip(faces, range(len(order) - 1, 0, -1), strict=True):
        if not 1 <= face <= i + 1:
            raise ValueError(f"face {face} is out of range 1..{i + 1}")
        order[i], order[face - 1] = order[face - 1], order[i]
    return tuple(order)


def draw(deck: Deck, n: int) -> tuple[Deck, tuple[str, ...]]:
    """Take ``n`` cards from the top; returns the remaining deck and the cards drawn."""
    if n < 0:
        raise ValueError(f"cannot draw {n} cards")
    if n > len(deck.cards):
        raise ValueError(f"asked to draw {n} cards but only {len(deck.cards)} left")
    return Deck(cards=deck.cards[n:]), deck.cards[:n]


def discard(hand: Hand, card: str) -> Hand:
    """Remove one copy of ``card`` from the hand."""
    if card not in hand.cards:
        raise ValueError(f"{hand.owner!r} does not hold card {card!r}")
    i = hand.cards.index(card)
    return Hand(owner=hand.owner, cards=hand.cards[:i] + hand.cards[i + 1 :])


def add(hand: Hand, cards: Sequence[str]) -> Hand:
    """Append ``cards`` to the hand, in order."""
    if isinstance(cards, str):
        # A bare string is a Sequence[str] too; adding its letters is never meant.
        raise TypeError("add() takes a sequence of cards, not a single string")
    return Hand(owner=hand.owner, cards=hand.cards + tuple(cards))


def redact_hand(hand: Hand, viewer: str | None) -> Hand:
    """The hand as ``viewer`` may see it: the owner and the umpire (None) see the cards,
    anyone else the same number of ``"?"`` placeholders."""
    if viewer is None or viewer == hand.owner:
        return hand
    return Hand(owner=hand.owner, cards=(HIDDEN_CARD,) * len(hand.cards))


# --------------------------------------------------------------------------- named draws


def card_request(
    deck: str,
    left: Mapping[str, int] | Sequence[str],
    names: Mapping[str, str],
    *,
    purpose: str,
    rule: str,
    side: str | None,
    face_down: bool = False,
) -> CardRequest:
    """A request to draw one card from ``left`` (card id -> copies, or the cards as a list),
    with ``names`` (card id -> display name, at least every card left)."""
    counts = Counter(left) if not isinstance(left, Mapping) else Counter(dict(left))
    return CardRequest(
        deck=deck,
        choices=tuple(sorted((card, n) for card, n in counts.items() if n > 0)),
        names=tuple(sorted(names.items())),
        purpose=purpose,
        rule=rule,
        side=side,
        face_down=face_down,
    )


def draw_named(
    source: DiceSource, request: CardRequest, *, among: str | None = None
) -> tuple[str, Fraction, str]:
    """Draw one card by name: ``(card id, exact chance, odds in words)``.

    The chance is ``copies / total`` of the request; ``among`` names what the total counts
    (default ``"cards left in the <deck>"``). A draw whose outcome is certain (one card id left)
    is not asked of the source and uses no die.

    Raises:
        CardNameError: the source answered a card the request does not offer.
        DiceError: whatever the source raises (a scribe's card refused, none entered).
    """
    total = request.total
    pool = among or f"cards left in the {request.deck}"
    if len(request.choices) == 1:
        card, count = request.choices[0]
        return card, Fraction(1), f"certain: {count} of {total} {pool}"
    card = source.draw_card(request)
    count = request.count(card)
    if count <= 0:  # a source that does not check (every Wake source does)
        raise CardNameError(f"{card!r} is not among the cards of the {request.deck} to draw")
    return card, Fraction(count, total), f"{count} of {total} {pool}"


def draw_card_event(
    source: DiceSource, request: CardRequest, *, among: str | None = None
) -> tuple[str, CardDrawn]:
    """Draw one card by name (:func:`draw_named`) and the ``CardDrawn`` event that records it.

    Raises:
        DiceError: as :func:`draw_named`.
    """
    before = source.position
    card, p, odds = draw_named(source, request, among=among)
    return card, CardDrawn(
        deck=request.deck,
        card=card,
        name=request.name(card),
        side=request.side,
        purpose=request.purpose,
        rule=request.rule,
        hidden=request.face_down,
        p_outcome=str(p),
        odds=odds,
        next_die=source.position if source.position != before else None,
    )


def unseen_card_event(
    deck: str, *, purpose: str, rule: str, side: str | None, why: str
) -> CardDrawn:
    """The record of a card that leaves ``deck`` without anyone seeing it (dealt face down at
    a table that does not look): nothing is drawn by name, so its chance is 1."""
    return CardDrawn(
        deck=deck, card=None, side=side, purpose=purpose, rule=rule, p_outcome="1", odds=why
    )


def redact_draw(event: CardDrawn, viewer: str | None, *, shared_deck: bool = False) -> CardDrawn:
    """A ``CardDrawn`` as ``viewer`` may see it (None: the umpire sees everything).

    A hidden card (a hand) is shown to its side only; the other sides learn that a card was
    drawn, not which, nor its odds (they would tell it). With ``shared_deck`` (a deck the sides
    draw hidden hands from, Iron & Oak's action deck) the odds are the umpire's alone: what is
    left in the deck tells the other side's hand, so even the drawing side does not see them."""
    if viewer is None or not event.hidden:
        return event
    if viewer == event.side:
        if not shared_deck:
            return event
        return event.model_copy(update={"p_outcome": None, "odds": ""})
    return event.model_copy(update={"card": None, "name": None, "p_outcome": None, "odds": ""})


def describe_draw(event: CardDrawn) -> str:
    """One log line for a card drawn by name."""
    if event.card is None:
        what = "a card nobody has seen" if event.p_outcome == "1" else "a hidden card"
    else:
        what = event.name or event.card
    odds = f" ({event.odds}, p={event.p_outcome})" if event.p_outcome and event.odds else ""
    return f"{event.purpose} [{event.rule}]: {what} from the {event.deck}{odds}"


__all__ = [
    "HIDDEN_CARD",
    "CardRequest",
    "Deck",
    "Hand",
    "add",
    "card_request",
    "describe_draw",
    "discard",
    "draw",
    "draw_card_event",
    "draw_named",
    "redact_draw",
    "redact_hand",
    "replay_shuffle",
    "shuffle",
    "shuffle_probability",
    "unseen_card_event",
]
