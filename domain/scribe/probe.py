"""Run an order without throwing dice: what chance it still needs, and what it would do.

At a real table the dice are rolled after the order is given, so the scribe must know which dice
to ask for: a ruleset throws every die through ``domain.chance``, which announces each throw (its
dice, purpose, rule and who rolls) to a source that listens. :func:`probe` runs the ruleset's
pure ``decide`` with such a source, fed with the faces and cards entered so far: it stops at the
first throw or card draw not yet entered and says exactly what to ask for
(:class:`DiceAsk`, :class:`CardAsk`), or returns the order's events when nothing is missing. A
refusal comes back as the ruleset's own error, rule and all. Nothing is stored: ``decide`` never
changes the state.

:func:`preview` runs the order as far as it goes without chance (the move made, the attack
declared, with its measured range) for the page to show before the order is committed; dice it
would throw are filled in with stand-ins and everything from the first of them on is left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from domain.chance import DiceAnnouncement
from domain.dice import CustomDie, DiceError, Die, SeededDice
from domain.engine import GameState
from domain.errors import DiceMismatch, GameOver, WakeError
from domain.events import DiceRolled, DomainEvent


@dataclass(frozen=True)
class DieFace:
    """One face a die can show, as the table reads it: the number to record and its label."""

    face: int
    label: str


@dataclass(frozen=True)
class DieAsk:
    """One die to read at the table: its name (``d10``, ``armada-red``) and its distinct faces
    (a custom die's faces that show the same icons are one button: they count the same)."""

    name: str
    sides: int
    faces: tuple[DieFace, ...]


@dataclass(frozen=True)
class DiceGroup:
    """Dice thrown together by one side in one role (``actor``/``opponent`` of an opposed roll)."""

    side: str | None
    role: str
    dice: tuple[DieAsk, ...]


@dataclass(frozen=True)
class DiceAsk:
    """The dice the next throw needs, in the order their faces are entered."""

    purpose: str
    rule: str
    groups: tuple[DiceGroup, ...]

    @property
    def count(self) -> int:
        return sum(len(g.dice) for g in self.groups)

    @property
    def dice(self) -> tuple[DieAsk, ...]:
        return tuple(d for g in self.groups for d in g.dice)

    def text(self, side_names: Mapping[str, str]) -> str:
        """``"gunnery [IO-6.2]: USA d10 and d8 (actor), CSA d10 (opponent)"``."""
        parts = []
        for group in self.groups:
            who = side_names.get(group.side, group.side) if group.side else "the table"
            dice = " and ".join(_grouped(d.name for d in group.dice))
            role = f" ({_ROLES.get(group.role, group.role)})" if group.role else ""
            parts.append(f"{who}: {dice}{role}")
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{_words(self.purpose)}{rule}: " + ", ".join(parts)


_ROLES = {"actor": "the one acting", "opponent": "the one opposing"}


@dataclass(frozen=True)
class CardAsk:
    """A card to be drawn from a physical deck and named: the ruleset's card request
    (``deck``, ``choices`` id -> copies left, ``names``, ``purpose``, ``rule``, ``side``)."""

    request: Any

    @property
    def side(self) -> str | None:
        return getattr(self.request, "side", None)

    @property
    def private(self) -> bool:
        """The card goes to a hidden hand: what is left in the deck is for its owner's eyes
        (and the umpire's) only, and even then only as names (the counts would tell what the
        others hold)."""
        return bool(getattr(self.request, "face_down", False))

    def choices(self) -> list[tuple[str, str, int]]:
        """(card id, display name, copies that may still be drawn), by display name."""
        names = dict(getattr(self.request, "names", ()))
        out = [(cid, names.get(cid, cid), n) for cid, n in self.request.choices if n > 0]
        return sorted(out, key=lambda c: (c[1], c[0]))

    def text(self, side_names: Mapping[str, str]) -> str:
        who = side_names.get(self.side, self.side) if self.side else ""
        total = sum(n for _, n in self.request.choices)
        owner = f"{who}: " if who else ""
        return (
            f"{owner}{_words(self.request.purpose)} [{self.request.rule}] — the card drawn from "
            f"the {self.request.deck} ({total} cards left)"
        )


Status = Literal["ready", "dice", "card", "refused"]


@dataclass
class Probe:
    """What an order needs or does: ``ready`` with its ``events``; ``dice`` or ``card`` with
    what to ask for next; ``refused`` with the ruleset's ``error``."""

    status: Status
    events: list[DomainEvent] = field(default_factory=list)
    dice: DiceAsk | None = None
    card: CardAsk | None = None
    error: WakeError | None = None
    faces_used: int = 0
    cards_used: int = 0


class _Stop(Exception):
    """Raised by the probing source where the entered chance runs out."""

    def __init__(self, dice: DiceAsk | None = None, card: CardAsk | None = None) -> None:
        super().__init__("chance needed")
        self.dice = dice
        self.card = card


def die_ask(die: Die | CustomDie) -> DieAsk:
    """The buttons of one die: 1..N for a numbered die (a d10's 10 may be read as 0), one per
    distinct icon set for a custom die (``blank``, ``hit``, ``hit + hit`` ...)."""
    if isinstance(die, CustomDie):
        seen: dict[tuple[str, ...], int] = {}
        for number, icons in enumerate(die.faces, start=1):
            seen.setdefault(tuple(icons), number)
        faces = tuple(
            DieFace(number, " + ".join(icons) if icons else "blank")
            for icons, number in seen.items()
        )
        return DieAsk(die.name, die.sides, faces)
    return DieAsk(die.name, die.sides, tuple(DieFace(n, str(n)) for n in range(1, die.sides + 1)))


def _ask(announcement: DiceAnnouncement) -> DiceAsk:
    groups = tuple(
        DiceGroup(side, role, tuple(die_ask(d) for d in dice))
        for side, role, dice in announcement.groups
    )
    return DiceAsk(announcement.purpose, announcement.rule, groups)


class _ProbingSource:
    """Answers draws with the faces and cards entered so far; where they run out, stops with
    what the next throw or draw needs. ``stand_in`` dice answer instead of stopping (preview)."""

    def __init__(
        self,
        faces: Sequence[int],
        cards: Sequence[str],
        start: int,
        stand_in: SeededDice | None = None,
    ) -> None:
        self.faces = list(faces)
        self.cards = list(cards)
        self.used = 0
        self.cards_used = 0
        self.position = start
        self.stand_in = stand_in
        self.first_stand_in: int | None = None  # dice position of the first stand-in face

    def announce(self, announcement: DiceAnnouncement) -> None:
        if self.stand_in is None and len(self.faces) - self.used < announcement.count:
            raise _Stop(dice=_ask(announcement))

    def draw(self, die: Die | CustomDie) -> int:
        if self.used < len(self.faces):
            face = die.read_face(self.faces[self.used], self.position)
            self.used += 1
            self.position += 1
            return face
        if self.stand_in is None:
            raise _Stop(dice=DiceAsk("a roll", "", (DiceGroup(None, "", (die_ask(die),)),)))
        if self.first_stand_in is None:
            self.first_stand_in = self.position
        self.stand_in.position = self.position
        face = self.stand_in.draw(die)
        self.position += 1
        return face

    def draw_card(self, request: Any) -> str:
        if self.cards_used < len(self.cards):
            card = self.cards[self.cards_used]
            left = dict(request.choices)
            if left.get(card, 0) <= 0:
                deck = getattr(request, "deck", "deck")
                raise DiceMismatch(f"no {card} is left in the {deck} to be drawn")
            self.cards_used += 1
            self.position += 1  # a card drawn counts as one die (domain.dice.CardRequest)
            return card
        if self.stand_in is None:
            raise _Stop(card=CardAsk(request))
        if self.first_stand_in is None:
            self.first_stand_in = self.position
        self.position += 1
        return str(next(cid for cid, n in request.choices if n > 0))


def probe(
    state: GameState,
    side: str | None,
    command: Mapping[str, Any],
    faces: Sequence[int] = (),
    cards: Sequence[str] = (),
) -> Probe:
    """Run ``command`` for ``side`` on ``state`` with the physical ``faces`` and ``cards``
    entered so far (a seeded game's dice are never asked for: they are thrown when the order
    is stored). Never raises for a refused order: the result says why."""
    if state.result is not None:
        return Probe("refused", error=GameOver("the game has ended; no more orders are accepted"))
    ruleset = state.ruleset
    physical = state.header.dice.mode == "physical"
    source = _ProbingSource(faces, cards, state.dice_position, None if physical else SeededDice(0))
    try:
        parsed = ruleset.parse_command(dict(command))
        events = ruleset.decide(state.rules, side, parsed, source)
    except _Stop as stop:
        if stop.dice is not None:
            return Probe("dice", dice=stop.dice, faces_used=source.used)
        return Probe("card", card=stop.card, faces_used=source.used, cards_used=source.cards_used)
    except WakeError as exc:
        return Probe("refused", error=exc)
    except DiceError as exc:
        return Probe("refused", error=DiceMismatch(str(exc)))
    if physical and source.used < len(faces):
        extra = len(faces) - source.used
        return Probe("refused", error=DiceMismatch(f"{extra} dice face(s) entered but not needed"))
    if physical and source.cards_used < len(cards):
        extra = len(cards) - source.cards_used
        return Probe("refused", error=DiceMismatch(f"{extra} card(s) entered but not drawn"))
    if not physical:  # stand-in dice: only what comes before them is the order's own
        events = _before_chance(events, source.first_stand_in)
    return Probe("ready", events=events, faces_used=source.used, cards_used=source.cards_used)


def preview(state: GameState, side: str | None, command: Mapping[str, Any]) -> Probe:
    """The order's events as far as they go before its first throw or draw (stand-ins answer
    the dice, and everything from the first stand-in on is left out). A refusal comes back
    as ``refused``."""
    if state.result is not None:
        return Probe("refused", error=GameOver("the game has ended; no more orders are accepted"))
    ruleset = state.ruleset
    source = _ProbingSource((), (), state.dice_position, SeededDice(0))
    try:
        parsed = ruleset.parse_command(dict(command))
        events = ruleset.decide(state.rules, side, parsed, source)
    except WakeError as exc:
        return Probe("refused", error=exc)
    except DiceError as exc:
        return Probe("refused", error=DiceMismatch(str(exc)))
    return Probe("ready", events=_before_chance(events, source.first_stand_in))


def _before_chance(events: list[DomainEvent], first: int | None) -> list[DomainEvent]:
    if first is None:
        return events
    out = []
    for event in events:
        if isinstance(event, DiceRolled) and event.first_die >= first:
            break
        if getattr(event, "p_outcome", None) is not None and not isinstance(event, DiceRolled):
            break  # a shuffle or a draw: chance of another kind
        out.append(event)
    return out


def _grouped(names: Any) -> list[str]:
    """``["d10", "d10", "d8"]`` -> ``["2 d10", "d8"]``, in first-seen order."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return [f"{n} {name}" if n > 1 else name for name, n in counts.items()]


def _words(text: str) -> str:
    return text.replace("_", " ")
