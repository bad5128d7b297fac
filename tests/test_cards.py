"""Tests for domain.cards: dice-driven shuffles, replay without dice, decks and hands."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from domain.cards import (
    HIDDEN_CARD,
    Deck,
    Hand,
    add,
    discard,
    draw,
    redact_hand,
    replay_shuffle,
    shuffle,
    shuffle_probability,
)
from domain.dice import CustomDie, Die, FixedDice, SeededDice


class RecordingDice:
    """A DiceSource that returns fixed faces and records which dice were asked for."""

    def __init__(self, faces: list[int]) -> None:
        self.position = 0
        self.faces = faces
        self.asked: list[int] = []

    def draw(self, die: Die | CustomDie) -> int:
        self.asked.append(die.sides)
        face = self.faces[self.position]
        self.position += 1
        return face


def test_shuffle_draws_decreasing_dice() -> None:
    dice = RecordingDice([1, 1, 1])
    order, faces = shuffle(["a", "b", "c", "d"], dice)
    assert dice.asked == [4, 3, 2]
    assert faces == (1, 1, 1)
    # i=3 swap with 0: b c d a... step by step: [d,b,c,a] -> [c,b,d,a] -> [b,c,d,a]
    assert order == ("b", "c", "d", "a")


def test_shuffle_with_fixed_dice() -> None:
    order, faces = shuffle(["a", "b", "c"], FixedDice([3, 2]))
    assert faces == (3, 2)
    assert order == ("a", "b", "c")


def test_shuffle_trivial_decks_draw_nothing() -> None:
    dice = RecordingDice([])
    assert shuffle([], dice) == ((), ())
    assert shuffle(["only"], dice) == (("only",), ())
    assert dice.asked == []


def test_shuffle_rejects_bad_face() -> None:
    with pytest.raises(ValueError):
        shuffle(["a", "b"], RecordingDice([3]))


def test_every_permutation_exactly_once() -> None:
    """Each face sequence gives a distinct order, so each order has probability 1/n!."""
    cards = ["a", "b", "c", "d"]
    ranges = [range(1, i + 2) for i in range(len(cards) - 1, 0, -1)]
    orders = Counter(replay_shuffle(cards, faces) for faces in itertools.product(*ranges))
    assert len(orders) == 24
    assert set(orders.values()) == {1}
    assert set(orders) == set(itertools.permutations(cards))
    assert shuffle_probability(4) == Fraction(1, 24)
    assert Fraction(1, sum(orders.values())) == shuffle_probability(len(cards))


def test_shuffle_probability() -> None:
    assert shuffle_probability(0) == 1
    assert shuffle_probability(1) == 1
    assert shuffle_probability(5) == Fraction(1, 120)
    with pytest.raises(ValueError):
        shuffle_probability(-1)


def test_replay_shuffle_validates_faces() -> None:
    with pytest.raises(ValueError, match="needs 2 faces"):
        replay_shuffle(["a", "b", "c"], [1])
    with pytest.raises(ValueError, match="out of range"):
        replay_shuffle(["a", "b", "c"], [4, 1])
    with pytest.raises(ValueError, match="out of range"):
        replay_shuffle(["a", "b", "c"], [1, 0])
    assert replay_shuffle([], []) == ()


@given(st.lists(st.text(max_size=3), max_size=30), st.integers())
def test_shuffle_is_a_permutation_and_replays(cards: list[str], seed: int) -> None:
    order, faces = shuffle(cards, SeededDice(seed))
    assert Counter(order) == Counter(cards)
    assert len(faces) == max(len(cards) - 1, 0)
    assert replay_shuffle(cards, faces) == order
    # Same seed, same shuffle.
    assert shuffle(cards, SeededDice(seed)) == (order, faces)


@given(st.integers(min_value=0, max_value=40), st.integers())
def test_shuffle_advances_dice_position(n: int, seed: int) -> None:
    dice = SeededDice(seed, start=5)
    shuffle([str(i) for i in range(n)], dice)
    assert dice.position == 5 + max(n - 1, 0)


def test_draw() -> None:
    deck = Deck(cards=("a", "b", "c"))
    rest, drawn = draw(deck, 2)
    assert drawn == ("a", "b")
    assert rest == Deck(cards=("c",))
    assert deck.cards == ("a", "b", "c")
    assert draw(deck, 0) == (deck, ())


def test_draw_too_many() -> None:
    with pytest.raises(ValueError, match="asked to draw 4 cards but only 3 left"):
        draw(Deck(cards=("a", "b", "c")), 4)
    with pytest.raises(ValueError):
        draw(Deck(cards=("a",)), -1)


def test_discard_and_add() -> None:
    hand = Hand(owner="north", cards=("x", "y", "x"))
    assert discard(hand, "x").cards == ("y", "x")
    with pytest.raises(ValueError, match="'z'"):
        discard(hand, "z")
    assert add(hand, ["z", "w"]).cards == ("x", "y", "x", "z", "w")
    assert add(hand, ()).cards == hand.cards
    with pytest.raises(TypeError):
        add(hand, "zw")


def test_redact_hand() -> None:
    """IO-3.2: other players must not see a hand; the owner and umpire do."""
    hand = Hand(owner="north", cards=("fire", "turn"))
    assert redact_hand(hand, "north") == hand
    assert redact_hand(hand, None) == hand
    hidden = redact_hand(hand, "south")
    assert hidden == Hand(owner="north", cards=(HIDDEN_CARD, HIDDEN_CARD))
    assert HIDDEN_CARD == "?"


def test_models_frozen_and_serialisable() -> None:
    hand = Hand(owner="north", cards=("a",))
    with pytest.raises(ValidationError):
        hand.owner = "south"  # type: ignore[misc]
    with pytest.raises(ValidationError):
        Deck(cards=("a",), extra=1)  # type: ignore[call-arg]
    assert Hand.model_validate_json(hand.model_dump_json()) == hand
    deck = Deck(cards=("a", "b"))
    assert Deck.model_validate_json(deck.model_dump_json()) == deck
