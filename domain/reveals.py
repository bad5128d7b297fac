"""Sealed choices matched with their reveals, for the umpire (issue 13).

A ruleset says which of its events commit to a sealed choice and which open one
(``Ruleset.sealed_items``, returning the :class:`SealedCommit` and :class:`SealedReveal` items
defined here); this module knows no rules. :func:`match_sealed` pairs each commitment with the
first later reveal whose content and salt hash to the committed digest — the digest is computed
here with :func:`domain.sealed.seal`, never taken from the reveal, so a reveal that does not open
the seal (a tampered record, a dial an opponent set openly) is matched with nothing. A
commitment never opened (the game stopped first, a card thrown away unrevealed) says so.

Every text is plain: labels and contents come from the record and are shown as text only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.sealed import seal


@dataclass(frozen=True)
class SealedCommit:
    """The event commits to ``digest`` (a :func:`domain.sealed.seal` digest) for ``label``:
    what is sealed, in a few words (``"monitor order card"``, ``"victory dial 2"``)."""

    digest: str
    label: str


@dataclass(frozen=True)
class SealedReveal:
    """The event opens a seal: ``content`` and ``salt`` exactly as they were sealed, and
    ``text``, the content in a few plain words (``"maneuver_1"``, ``"navigate"``)."""

    content: Mapping[str, Any]
    salt: str
    text: str

    def digest(self) -> str:
        """The digest this content and salt seal to (what a commitment must hold)."""
        return seal(self.content, self.salt).digest


SealedItem = SealedCommit | SealedReveal
"""One sealed choice an event commits to or opens (``Ruleset.sealed_items``)."""


@dataclass(frozen=True)
class Opened:
    """One commitment of a game as the umpire reads it: made at event ``seq``; ``text`` and
    ``revealed_at`` are the reveal's content and event, or None when it was never opened."""

    seq: int
    label: str
    digest: str
    text: str | None = None
    revealed_at: int | None = None

    def line(self, at: int | None = None) -> str:
        """``label = content (revealed at event N)``, or that it was never revealed; with
        ``at`` (the event being looked at), whether it is still sealed at that moment."""
        if self.text is None or self.revealed_at is None:
            return f"{self.label}: never revealed (its content is not in the record)"
        when = f"revealed at event {self.revealed_at}"
        if at is not None:
            when += "; not yet revealed at this moment" if at < self.revealed_at else ""
        return f"{self.label} = {self.text} ({when})"


@dataclass(frozen=True)
class SealedIndex:
    """A game's commitments by the event that made them, and by the event that opened them."""

    commits: Mapping[int, tuple[Opened, ...]] = field(default_factory=dict)
    reveals: Mapping[int, tuple[Opened, ...]] = field(default_factory=dict)

    def committed_at(self, seq: int) -> tuple[Opened, ...]:
        """The commitments event ``seq`` made (empty for most events)."""
        return self.commits.get(seq, ())

    def opened_at(self, seq: int) -> tuple[Opened, ...]:
        """The commitments event ``seq`` opened, as matched by digest."""
        return self.reveals.get(seq, ())


def match_sealed(items: Iterable[tuple[int, Sequence[SealedItem]]]) -> SealedIndex:
    """Pair the commitments with their reveals. ``items``: (event seq, what the event commits
    to or opens), in the order of the game. A reveal opens every earlier commitment still
    sealed whose digest its content and salt hash to; anything else in it is ignored."""
    made: list[tuple[int, SealedCommit]] = []
    opened: dict[int, tuple[str, int]] = {}  # index in ``made`` -> (text, revealing seq)
    waiting: dict[str, list[int]] = {}  # digest -> indexes in ``made`` still sealed
    for seq, found in items:
        for item in found:
            if isinstance(item, SealedCommit):
                waiting.setdefault(item.digest, []).append(len(made))
                made.append((seq, item))
            else:
                for i in waiting.pop(item.digest(), []):
                    opened[i] = (item.text, seq)
    commits: dict[int, list[Opened]] = {}
    reveals: dict[int, list[Opened]] = {}
    for i, (seq, commit) in enumerate(made):
        text, at = opened.get(i, (None, None))
        entry = Opened(seq, commit.label, commit.digest, text, at)
        commits.setdefault(seq, []).append(entry)
        if at is not None:
            reveals.setdefault(at, []).append(entry)
    return SealedIndex(
        commits={k: tuple(v) for k, v in commits.items()},
        reveals={k: tuple(v) for k, v in reveals.items()},
    )


def umpire_note(entries: Sequence[Opened], at: int) -> str:
    """The umpire's addition to the log line of event ``at``, which made ``entries``:
    `` — umpire, not yet revealed at this moment: a = x (revealed at event N); ...``."""
    if not entries:
        return ""
    still = any(e.revealed_at is None or at < e.revealed_at for e in entries)
    head = "umpire, not yet revealed at this moment" if still else "umpire"
    return f" — {head}: " + "; ".join(e.line() for e in entries)


def own_note(entries: Sequence[Opened], at: int) -> str:
    """A side's addition to the log line of event ``at`` for the choices it sealed itself
    there (issue 21 item 3: a side sees its own secrets): `` — your sealed choice: a = x``."""
    known = [e for e in entries if e.text is not None]
    if not known:
        return ""
    return " — your sealed choice: " + "; ".join(f"{e.label} = {e.text}" for e in known)
