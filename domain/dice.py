"""Dice for Wake: dice, dice expressions, exact odds and sources of faces.

This module knows nothing about any game's rules. It provides:

* numbered dice (:class:`Die`) and custom-face dice (:class:`CustomDie`, e.g. the Armada dice);
* numeric dice expressions (:class:`Single`, :class:`KeepHighest`, :class:`Sum`) with a
  canonical text form (:func:`parse` / ``str``) and exact, enumerated distributions;
* modifiers and exact probability helpers over distributions;
* dice sources: :class:`SeededDice` (deterministic, a pure function of seed and position) and
  :class:`ScriptedDice` / :class:`FixedDice` (faces entered from a physical game);
* card draws by name (:class:`CardRequest`): a source's ``draw_card`` answers with the card drawn,
  a seeded one with one die over the cards that may be drawn, a scripted one with the card a
  scribe entered (checked against what the deck can still give).

All probabilities are exact :class:`fractions.Fraction` values.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Protocol, cast, runtime_checkable

__all__ = [
    "ARMADA_BLACK",
    "ARMADA_BLUE",
    "ARMADA_RED",
    "MAX_SIDES",
    "CardNameError",
    "CardRequest",
    "CardsExhausted",
    "CustomDie",
    "DiceError",
    "DiceExhausted",
    "DiceFaceError",
    "DiceSource",
    "Die",
    "Distribution",
    "Expr",
    "FixedDice",
    "KeepHighest",
    "Modifier",
    "ScriptedDice",
    "SeededDice",
    "Single",
    "Sum",
    "apply_modifiers",
    "expected",
    "joint",
    "modified_distribution",
    "p_at_least",
    "p_at_least_times",
    "p_event",
    "p_greater",
    "parse",
    "pool_distribution",
    "pool_icon_distribution",
    "seeded_face",
    "throw",
    "throw_pool",
]

Distribution = dict[int, Fraction]
"""Value -> exact probability; the probabilities sum to 1 and none is zero."""

IconCounts = tuple[tuple[str, int], ...]
"""Sorted ``(icon, count)`` pairs with ``count > 0``: the outcome of a custom dice pool."""

MAX_SIDES = 65536
"""Largest die supported (SeededDice samples from 2-byte chunks)."""

_MAX_COUNT = 1000  # largest N accepted in an "NdS" term of parsed text


# --------------------------------------------------------------------------- errors


class DiceError(ValueError):
    """Bad dice expression text or bad arguments."""


class DiceFaceError(DiceError):
    """A face that the die cannot show (e.g. a scripted 7 for a d6)."""


class DiceExhausted(DiceError):
    """A scripted or fixed source ran out of faces."""


class CardNameError(DiceFaceError):
    """A card entered for a draw that the deck cannot give now (no such card, or no copy
    left)."""


class CardsExhausted(DiceExhausted):
    """A scripted source ran out of entered cards."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _where(position: int | None) -> str:
    return "" if position is None else f" at position {position}"


# --------------------------------------------------------------------------- dice


@dataclass(frozen=True)
class Die:
    """A numbered die ``d{sides}`` showing faces 1..sides."""

    sides: int

    def __post_init__(self) -> None:
        if not _is_int(self.sides) or not 2 <= self.sides <= MAX_SIDES:
            raise DiceError(
                f"a die needs an integer number of sides in 2..{MAX_SIDES}, got {self.sides!r}"
            )

    @property
    def name(self) -> str:
        return f"d{self.sides}"

    def read_face(self, raw: int, position: int | None = None) -> int:
        """Validate a face read from a physical die; a d10 showing 0 reads as 10 (IO-1.6).

        ``position`` (the absolute die index n) only improves the error message.
        """
        if _is_int(raw):
            if self.sides == 10 and raw == 0:
                return 10
            if 1 <= raw <= self.sides:
                return raw
        raise DiceFaceError(f"{self.name} cannot show face {raw!r}{_where(position)}")


@dataclass(frozen=True)
class CustomDie:
    """A die with custom faces; face k (1-based) shows the icons ``faces[k - 1]``."""

    name: str
    faces: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise DiceError(f"a custom die needs a non-empty name, got {self.name!r}")
        faces = tuple(tuple(face) for face in self.faces)
        if not faces or not all(isinstance(icon, str) for face in faces for icon in face):
            raise DiceError(f"custom die {self.name!r} needs faces made of icon names")
        if len(faces) > MAX_SIDES:
            raise DiceError(f"custom die {self.name!r} has more than {MAX_SIDES} faces")
        object.__setattr__(self, "faces", faces)

    @property
    def sides(self) -> int:
        return len(self.faces)

    def read_face(self, raw: int, position: int | None = None) -> int:
        """Validate a face number 1..sides read from a physical die."""
        if _is_int(raw) and 1 <= raw <= self.sides:
            return raw
        raise DiceFaceError(f"{self.name} cannot show face {raw!r}{_where(position)}")

    def icons(self, face: int) -> tuple[str, ...]:
        """The icons on face ``face`` (1-based)."""
        return self.faces[self.read_face(face) - 1]


_BLANK: tuple[str, ...] = ()
_HIT = ("hit",)
_CRIT = ("crit",)
_ACC = ("accuracy",)

# Rule SWA-DICE: the three Armada dice, eight faces each.
ARMADA_RED = CustomDie(
    "armada-red", (_BLANK, _BLANK, _HIT, _HIT, _CRIT, _CRIT, _ACC, ("hit", "hit"))
)
ARMADA_BLUE = CustomDie("armada-blue", (_HIT, _HIT, _HIT, _HIT, _CRIT, _CRIT, _ACC, _ACC))
ARMADA_BLACK = CustomDie(
    "armada-black",
    (_BLANK, _BLANK, _HIT, _HIT, _HIT, _HIT, ("hit", "crit"), ("hit", "crit")),
)
CUSTOM_DICE: tuple[CustomDie, ...] = (ARMADA_RED, ARMADA_BLUE, ARMADA_BLACK)
"""The custom dice defined here, for reading a recorded pool back (``domain.chance``)."""


# --------------------------------------------------------------------------- expressions


@runtime_checkable
class Expr(Protocol):
    """A numeric dice expression (structural type implemented by Single, KeepHighest, Sum)."""

    @property
    def dice(self) -> tuple[Die, ...]:
        """The dice thrown, in throw order."""
        ...

    def evaluate(self, faces: Sequence[int]) -> int:
        """The natural (unmodified) result from ``faces`` given in throw order."""
        ...

    def distribution(self) -> Distribution:
        """The exact distribution of the natural result."""
        ...

    def __str__(self) -> str:
        """Canonical text: ``parse(str(e)) == e``."""
        ...


class _ExprBase:
    """Shared behaviour: cached distributions (expressions are frozen and hashable)."""

    def distribution(self) -> Distribution:
        # copy so callers cannot corrupt the cache
        return dict(_cached_distribution(self))

    def _enumerate(self) -> Distribution:
        raise NotImplementedError


@lru_cache(maxsize=4096)
def _cached_distribution(expr: _ExprBase) -> tuple[tuple[int, Fraction], ...]:
    return tuple(sorted(expr._enumerate().items()))


def _check_faces(dice: tuple[Die, ...], faces: Sequence[int]) -> None:
    if len(faces) != len(dice):
        raise DiceError(f"expected {len(dice)} faces, got {len(faces)}")
    for index, (die, face) in enumerate(zip(dice, faces, strict=True)):
        if not _is_int(face) or not 1 <= face <= die.sides:
            raise DiceFaceError(
                f"{die.name} cannot show face {face!r} at index {index} of the throw"
            )


def _convolve(a: Distribution, b: Distribution) -> Distribution:
    out: Distribution = {}
    for va, pa in a.items():
        for vb, pb in b.items():
            out[va + vb] = out.get(va + vb, Fraction(0)) + pa * pb
    return out


@dataclass(frozen=True)
class Single(_ExprBase):
    """One die: ``d10``."""

    die: Die

    def __post_init__(self) -> None:
        if not isinstance(self.die, Die):
            raise DiceError(f"Single needs a numbered Die, got {self.die!r}")

    @property
    def dice(self) -> tuple[Die, ...]:
        return (self.die,)

    def evaluate(self, faces: Sequence[int]) -> int:
        _check_faces(self.dice, faces)
        return faces[0]

    def _enumerate(self) -> Distribution:
        p = Fraction(1, self.die.sides)
        return {face: p for face in range(1, self.die.sides + 1)}

    def __str__(self) -> str:
        return self.die.name


@dataclass(frozen=True)
class KeepHighest(_ExprBase):
    """Roll two or more dice and keep the highest: ``d10d4``, ``d10d8d6`` (IO-1.6.1)."""

    dice: tuple[Die, ...]

    def __post_init__(self) -> None:
        dice = tuple(self.dice)
        if len(dice) < 2 or not all(isinstance(d, Die) for d in dice):
            raise DiceError(f"KeepHighest needs two or more numbered dice, got {self.dice!r}")
        object.__setattr__(self, "dice", dice)

    def evaluate(self, faces: Sequence[int]) -> int:
        _check_faces(self.dice, faces)
        return max(faces)

    def _enumerate(self) -> Distribution:
        # P(max <= v) is the product of P(die <= v); differences give P(max == v).
        def cdf(v: int) -> Fraction:
            p = Fraction(1)
            for die in self.dice:
                p *= Fraction(min(v, die.sides), die.sides)
            return p

        top = max(die.sides for die in self.dice)
        dist = {v: cdf(v) - cdf(v - 1) for v in range(1, top + 1)}
        return {v: p for v, p in dist.items() if p}

    def __str__(self) -> str:
        return "".join(die.name for die in self.dice)


@dataclass(frozen=True)
class Sum(_ExprBase):
    """Sum of terms plus a constant: ``d10+d8``, ``2d6``, ``d6+2``, ``d10-1``.

    Nested sums are flattened. A single term with constant 0 is written ``d6+0`` so that
    ``parse(str(e)) == e`` holds for every Sum.
    """

    terms: tuple[Expr, ...]
    constant: int = 0

    def __post_init__(self) -> None:
        if not _is_int(self.constant):
            raise DiceError(f"Sum constant must be an integer, got {self.constant!r}")
        flat: list[Expr] = []
        constant = self.constant
        for term in tuple(self.terms):
            if isinstance(term, Sum):
                flat.extend(term.terms)
                constant += term.constant
            elif isinstance(term, Expr):
                flat.append(term)
            else:
                raise DiceError(f"Sum terms must be dice expressions, got {term!r}")
        if not flat:
            raise DiceError("a Sum needs at least one dice term")
        object.__setattr__(self, "terms", tuple(flat))
        object.__setattr__(self, "constant", constant)

    @property
    def dice(self) -> tuple[Die, ...]:
        return tuple(die for term in self.terms for die in term.dice)

    def evaluate(self, faces: Sequence[int]) -> int:
        _check_faces(self.dice, faces)
        total, start = self.constant, 0
        for term in self.terms:
            end = start + len(term.dice)
            total += term.evaluate(faces[start:end])
            start = end
        return total

    def _enumerate(self) -> Distribution:
        dist: Distribution = {self.constant: Fraction(1)}
        for term in self.terms:
            dist = _convolve(dist, term.distribution())
        return dist

    def __str__(self) -> str:
        # consecutive identical single dice are grouped: d6+d6 -> "2d6"
        parts: list[str] = []
        i = 0
        while i < len(self.terms):
            term, run = self.terms[i], 1
            if isinstance(term, Single):
                while i + run < len(self.terms) and self.terms[i + run] == term:
                    run += 1
            parts.append(f"{run}{term}" if run > 1 else str(term))
            i += run
        text = "+".join(parts)
        if self.constant > 0 or (self.constant == 0 and len(self.terms) == 1):
            text += f"+{self.constant}"
        elif self.constant < 0:
            text += f"-{-self.constant}"
        return text


# --------------------------------------------------------------------------- parsing

_TOKEN = re.compile(r"\s*([+-]|[0-9a-z]+)")
_DICE_TERM = re.compile(r"(\d*)((?:d\d+)+)")
_DIE = re.compile(r"d(\d+)")


def parse(text: str) -> Expr:
    """Parse dice text (case-insensitive, whitespace between tokens allowed).

    Forms: ``d10``, ``d10d4`` (keep highest), ``2d6``, ``d10+d8+d6``, ``d6+2``, ``d10-1``.
    Dice may only be added; integer constants may be added or subtracted.
    """
    if not isinstance(text, str):
        raise DiceError(f"dice text must be a string, got {text!r}")
    return _parse(text)  # expressions are frozen: each text is parsed once


@lru_cache(maxsize=1024)
def _parse(text: str) -> Expr:

    def fail(why: str) -> DiceError:
        return DiceError(f"bad dice expression {text!r}: {why}")

    lowered = text.lower()
    tokens: list[str] = []
    pos = 0
    while pos < len(lowered) and lowered[pos:].strip():
        match = _TOKEN.match(lowered, pos)
        if match is None:
            raise fail(f"unexpected character {lowered[pos:].lstrip()[:1]!r}")
        tokens.append(match.group(1))
        pos = match.end()
    if not tokens:
        raise fail("empty")

    terms: list[Expr] = []
    constant = 0
    saw_constant = False
    sign = 1
    expect_term = True
    for i, token in enumerate(tokens):
        if token in ("+", "-"):
            # a sign may lead the text or follow a term, never another sign
            if not expect_term or i == 0:
                sign = -1 if token == "-" else 1
                expect_term = True
                continue
            raise fail(f"operator {token!r} where a term was expected")
        if not expect_term:
            raise fail(f"missing operator before {token!r}")
        expect_term = False
        if token.isdigit():
            constant += sign * int(token)
            saw_constant = True
            continue
        dice_match = _DICE_TERM.fullmatch(token)
        if dice_match is None:
            raise fail(f"unknown term {token!r}")
        if sign < 0:
            raise fail("dice cannot be subtracted")
        count_text, dice_text = dice_match.groups()
        try:
            dice = [Die(int(sides)) for sides in _DIE.findall(dice_text)]
        except DiceError as exc:
            raise fail(str(exc)) from None
        if len(dice) > 1:
            if count_text:
                raise fail(f"a count cannot prefix keep-highest term {token!r}")
            terms.append(KeepHighest(tuple(dice)))
            continue
        count = int(count_text) if count_text else 1
        if not 1 <= count <= _MAX_COUNT:
            raise fail(f"dice count must be in 1..{_MAX_COUNT}")
        terms.extend(Single(dice[0]) for _ in range(count))
    if expect_term:
        raise fail("ends with an operator")
    if not terms:
        raise fail("no dice")
    if len(terms) == 1 and not saw_constant:
        return terms[0]
    return Sum(tuple(terms), constant)


# --------------------------------------------------------------------------- modifiers


@dataclass(frozen=True)
class Modifier:
    """A signed modifier to a natural roll, with the rule that grants it."""

    value: int
    rule: str
    reason: str


def apply_modifiers(natural: int, modifiers: Sequence[Modifier], floor: int | None = None) -> int:
    """Natural result plus all modifiers, then raised to ``floor`` if given (e.g. IO-6.2.1)."""
    total = natural + sum(m.value for m in modifiers)
    return total if floor is None else max(floor, total)


def modified_distribution(
    expr: Expr, modifiers: Sequence[Modifier] = (), floor: int | None = None
) -> Distribution:
    """Exact distribution of the modified result of ``expr``."""
    # the result depends only on the modifiers' sum: computed once per (expression, sum, floor)
    return dict(_modified(cast(Hashable, expr), sum(m.value for m in modifiers), floor))


@lru_cache(maxsize=4096)
def _modified(expr: Any, shift: int, floor: int | None) -> tuple[tuple[int, Fraction], ...]:
    out: Distribution = {}
    for value, p in expr.distribution().items():
        key = value + shift if floor is None else max(floor, value + shift)
        out[key] = out.get(key, Fraction(0)) + p
    return tuple(out.items())


# --------------------------------------------------------------------------- probability helpers


def p_event(dist: Distribution, pred: Callable[[int], bool]) -> Fraction:
    """P(pred(value))."""
    return sum((p for v, p in dist.items() if pred(v)), Fraction(0))


def p_at_least(dist: Distribution, target: int) -> Fraction:
    """P(value >= target): a target-number roll such as "4+" (PL-4)."""
    return p_event(dist, lambda v: v >= target)


def p_greater(actor: Distribution, opponent: Distribution) -> Fraction:
    """P(actor > opponent) for independent rolls; ties fail (IO-1.6.1.A/B)."""
    return sum(
        (pa * po for va, pa in actor.items() for vo, po in opponent.items() if va > vo),
        Fraction(0),
    )


def p_at_least_times(actor: Distribution, opponent: Distribution, k: int) -> Fraction:
    """P(actor >= k * opponent) for independent rolls (e.g. the 3x thresholds)."""
    return sum(
        (pa * po for va, pa in actor.items() for vo, po in opponent.items() if va >= k * vo),
        Fraction(0),
    )


def expected(dist: Distribution) -> Fraction:
    """The exact mean."""
    return sum((v * p for v, p in dist.items()), Fraction(0))


def joint(a: Distribution, b: Distribution) -> dict[tuple[int, int], Fraction]:
    """Joint distribution of two independent rolls."""
    return {(va, vb): pa * pb for va, pa in a.items() for vb, pb in b.items()}


# --------------------------------------------------------------------------- custom dice pools


def _icon_key(counts: Counter[str]) -> IconCounts:
    return tuple(sorted((icon, n) for icon, n in counts.items() if n > 0))


@lru_cache(maxsize=1024)
def _pool_icons(pool: tuple[CustomDie, ...]) -> tuple[tuple[IconCounts, Fraction], ...]:
    dist: dict[IconCounts, Fraction] = {(): Fraction(1)}
    for die in pool:
        p_face = Fraction(1, die.sides)
        step: dict[IconCounts, Fraction] = {}
        for key, p in dist.items():
            for face in die.faces:
                counts = Counter(dict(key))
                counts.update(face)
                new_key = _icon_key(counts)
                step[new_key] = step.get(new_key, Fraction(0)) + p * p_face
        dist = step
    return tuple(sorted(dist.items()))


def pool_icon_distribution(pool: Sequence[CustomDie]) -> dict[IconCounts, Fraction]:
    """Exact distribution of icon counts for a pool of custom dice."""
    dice = tuple(pool)
    if not all(isinstance(d, CustomDie) for d in dice):
        raise DiceError(f"a dice pool holds CustomDie values, got {pool!r}")
    return dict(_pool_icons(dice))


def pool_distribution(
    pool: Sequence[CustomDie], score: Callable[[Counter[str]], int]
) -> Distribution:
    """Exact distribution of ``score(icon counts)`` for a pool of custom dice."""
    out: Distribution = {}
    for key, p in pool_icon_distribution(pool).items():
        value = score(Counter(dict(key)))
        out[value] = out.get(value, Fraction(0)) + p
    return out


# --------------------------------------------------------------------------- card requests


@dataclass(frozen=True)
class CardRequest:
    """One card to draw by name from a deck, as a scribe at the table is asked for it.

    ``deck`` and ``purpose`` are in players' words (``"damage deck"``, ``"damage card dealt face
    up to Victory II"``); ``choices`` maps each card id that may be drawn now to its copies
    (sorted by id, every count above 0), so the chance of card c is ``count(c) / total``;
    ``names`` maps card ids (at least every choice) to their display names; ``rule`` cites the
    rule that draws; ``side`` says whose card it is (None: nobody's, e.g. a turn-order card).
    ``face_down``: the card goes where only ``side`` may see it (a hand), so the request must be
    shown to nobody else but the umpire: its choices say what is left in the deck.
    """

    deck: str
    choices: tuple[tuple[str, int], ...]
    names: tuple[tuple[str, str], ...]
    purpose: str
    rule: str
    side: str | None
    face_down: bool = False

    def __post_init__(self) -> None:
        choices = tuple((card, count) for card, count in self.choices)
        if not choices:
            raise DiceError(f"nothing can be drawn from the {self.deck}: no choices")
        if any(not isinstance(c, str) or not _is_int(n) or n <= 0 for c, n in choices):
            raise DiceError(f"{self.deck}: choices are card ids with counts above 0")
        ids = [card for card, _ in choices]
        if ids != sorted(set(ids)):
            raise DiceError(f"{self.deck}: choices must be sorted by card id, each once")
        if sum(n for _, n in choices) > MAX_SIDES:
            raise DiceError(f"{self.deck}: more than {MAX_SIDES} cards to draw from")
        names = tuple((card, name) for card, name in self.names)
        missing = set(ids) - {card for card, _ in names}
        if missing:
            raise DiceError(f"{self.deck}: no display name for {sorted(missing)}")
        object.__setattr__(self, "choices", choices)
        object.__setattr__(self, "names", names)

    @property
    def total(self) -> int:
        """How many cards (copies) the draw is made from."""
        return sum(n for _, n in self.choices)

    def count(self, card: str) -> int:
        """Copies of ``card`` that may be drawn (0 if none)."""
        return dict(self.choices).get(card, 0)

    def name(self, card: str) -> str:
        """The display name of ``card`` (its id if the request does not name it)."""
        return dict(self.names).get(card, card)

    def pick(self, face: int) -> str:
        """The card that die face ``face`` (1..total) stands for: the cards laid out in id
        order, each as many times as its copies."""
        if not _is_int(face) or not 1 <= face <= self.total:
            raise DiceFaceError(f"no card {face!r} among the {self.total} of the {self.deck}")
        for card, count in self.choices:
            if face <= count:
                return card
            face -= count
        raise AssertionError("unreachable")  # pragma: no cover

    def check(self, card: object) -> str:
        """``card`` if the deck can give it now.

        Raises:
            CardNameError: it is not a card of the deck, or no copy of it is left.
        """
        if isinstance(card, str) and self.count(card) > 0:
            return card
        if isinstance(card, str) and card in dict(self.names):
            raise CardNameError(
                f"no {self.name(card)} ({card}) is left to draw from the {self.deck} "
                f"({self.purpose})"
            )
        shown = card if isinstance(card, str) and len(card) <= 40 else repr(card)[:40]
        raise CardNameError(f"{shown!r} is not a card of the {self.deck} ({self.purpose})")


# --------------------------------------------------------------------------- dice sources


class DiceSource(Protocol):
    """Where faces (and cards drawn by name) come from. ``position`` is the absolute index n of
    the next die drawn; a card drawn counts as one die."""

    position: int

    def draw(self, die: Die | CustomDie) -> int:
        """Draw the face (1..die.sides) of die number ``position`` and advance by one."""
        ...

    def draw_card(self, request: CardRequest) -> str:
        """The id of the card drawn for ``request`` (one of its choices); advance by one."""
        ...


def _check_start(start: int) -> int:
    if not _is_int(start) or start < 0:
        raise DiceError(f"start position must be a non-negative integer, got {start!r}")
    return start


def seeded_face(seed: int, n: int, sides: int) -> int:
    """The face (1..sides) of die ``n`` under ``seed``: a pure function, no global state.

    Unbiased rejection sampling over successive 2-byte chunks of
    ``sha256(f"wake-dice:{seed}:{n}")``, extended with ``sha256(digest)`` when exhausted.
    """
    if not _is_int(sides) or not 1 <= sides <= MAX_SIDES:
        raise DiceError(f"cannot sample a die with {sides!r} sides")
    limit = 65536 - 65536 % sides  # accept chunk values below a multiple of sides
    digest = hashlib.sha256(f"wake-dice:{seed}:{n}".encode()).digest()
    while True:
        for i in range(0, len(digest), 2):
            value = int.from_bytes(digest[i : i + 2], "big")
            if value < limit:
                return value % sides + 1
        digest = hashlib.sha256(digest).digest()


class SeededDice:
    """Deterministic dice: the face of die n depends only on (seed, n, sides)."""

    def __init__(self, seed: int, start: int = 0) -> None:
        if not _is_int(seed):
            raise DiceError(f"seed must be an integer, got {seed!r}")
        self.seed = seed
        self.position = _check_start(start)

    def draw(self, die: Die | CustomDie) -> int:
        face = seeded_face(self.seed, self.position, die.sides)
        self.position += 1
        return face

    def draw_card(self, request: CardRequest) -> str:
        """One die of ``request.total`` sides over the cards laid out in id order, each as many
        times as its copies: card c comes with chance exactly ``count(c) / total``."""
        face = seeded_face(self.seed, self.position, request.total)
        self.position += 1
        return request.pick(face)

    def __repr__(self) -> str:
        return f"SeededDice(seed={self.seed}, position={self.position})"


class ScriptedDice:
    """Faces (and cards drawn by name) entered from a physical game, consumed in order and
    validated per die or per draw.

    Each raw face goes through ``die.read_face`` (so a d10 accepts 0 as 10, IO-1.6); each card
    id through ``request.check`` (a card the deck cannot give now is refused). A rejected face
    or card is not consumed and the position does not advance.
    """

    def __init__(
        self, faces: Iterable[int], start: int = 0, cards: Iterable[str] | None = None
    ) -> None:
        self._faces = tuple(faces)
        self._index = 0
        self._consumed: list[int] = []
        self._cards = tuple(cards or ())
        self._drawn: list[str] = []
        self.start = _check_start(start)
        self.position = self.start

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._index

    @property
    def consumed(self) -> tuple[int, ...]:
        """Normalised faces drawn so far."""
        return tuple(self._consumed)

    def draw(self, die: Die | CustomDie) -> int:
        if self._index >= len(self._faces):
            raise DiceExhausted(
                f"needed {self._index + 1} scripted faces for {die.name} at position "
                f"{self.position}, but only {len(self._faces)} were available"
            )
        face = die.read_face(self._faces[self._index], self.position)
        self._consumed.append(face)
        self._index += 1
        self.position += 1
        return face

    @property
    def remaining_cards(self) -> int:
        return len(self._cards) - len(self._drawn)

    @property
    def drawn(self) -> tuple[str, ...]:
        """Card ids drawn so far."""
        return tuple(self._drawn)

    def draw_card(self, request: CardRequest) -> str:
        if self.remaining_cards <= 0:
            raise CardsExhausted(
                f"a card is drawn from the {request.deck} ({request.purpose}), but "
                f"{'no card was' if not self._cards else f'only {len(self._cards)} were'} "
                "entered"
            )
        card = request.check(self._cards[len(self._drawn)])
        self._drawn.append(card)
        self.position += 1
        return card

    def __repr__(self) -> str:
        return f"{type(self).__name__}(position={self.position}, remaining={self.remaining})"


class FixedDice(ScriptedDice):
    """Scripted dice under a name meant for tests."""


def throw(expr: Expr, source: DiceSource) -> tuple[tuple[int, ...], int]:
    """Draw ``expr.dice`` in order; return (faces, natural result)."""
    faces = tuple(source.draw(die) for die in expr.dice)
    return faces, expr.evaluate(faces)


def throw_pool(
    pool: Sequence[CustomDie], source: DiceSource
) -> tuple[tuple[int, ...], Counter[str]]:
    """Draw each custom die in order; return (faces, icon counts)."""
    faces = tuple(source.draw(die) for die in pool)
    counts: Counter[str] = Counter()
    for die, face in zip(pool, faces, strict=True):
        counts.update(die.icons(face))
    return faces, counts
