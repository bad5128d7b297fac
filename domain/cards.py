"""Card decks and hands, with every chance outcome recorded so replays never roll.

Shuffles are Fisher–Yates driven by dice draws; the faces drawn are returned so they can be
stored in the event log and re-applied by :func:`replay_shuffle`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from pydantic import BaseModel, ConfigDict

from domain.dice import DiceSource, Die

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
