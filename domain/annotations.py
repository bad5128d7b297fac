"""Annotations: comments on an event of a game, or on the game as a whole (issue 14).

An annotation is commentary, never a game fact: a kind from a closed set (``KINDS``), a named
author, plain text and a time. It never changes the game's state or its hash chain: the store
keeps a game's annotations in a stream of their own (``domain.aggregate.GameAnnotations``), and
a record carries them in an optional ``annotations`` section outside the chain, not covered by
signatures. Each annotation is bound to the exact event it comments on: it holds the game's chain
digest after that event (the genesis digest for event 0, the game as a whole), and a binding that
does not match the game's chain is refused wherever annotations are read (record, import, store
audit). Annotations can be withdrawn by their author; a withdrawn one stays in the store's
history but is no longer listed by default, shown or exported.

Each annotation says who may see it (issue 23 item 3): ``visible_to`` is ``"all"``, ``"umpire"``
or a side's id (that side and the umpire). A side's view (``wake annotations --as``, ``wake report
--as``, ``wake export --as``, the viewer at ``?as=SIDE``) lists only what that side may see. An
annotation written before visibility existed has none: it is the umpire's alone in a game with
hidden information (it may quote a sealed value) and everyone's otherwise (``default_visibility``).

Text is untrusted: bounded, no control characters other than line feeds, no bidirectional
overrides; whoever shows it shows it as plain text. See docs/disputes.md#annotations.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_validator,
    model_serializer,
)

from domain.errors import AnnotationError, validation_summary
from domain.plain_text import FORBIDDEN, check_plain
from domain.safe_json import MAX_SAFE_INTEGER

if TYPE_CHECKING:
    from domain.header import GameHeader

Kind = Literal["ruling", "note", "disputed", "blunder", "lucky"]
#: The kinds of annotation, with what each is for (docs/disputes.md#annotations).
KINDS: Final[dict[str, str]] = {
    "ruling": "how a rules question was (or would be) decided; `wake rerun --annotate` keeps a "
    "ruling diff as one",
    "note": "any comment",
    "disputed": "a player disputes this event",
    "blunder": "a bad decision",
    "lucky": "a roll or draw that went unusually well or badly",
}

#: Who may see an annotation besides a side's id: everyone, or the umpire alone.
EVERYONE: Final = "all"
UMPIRE: Final = "umpire"
#: The longest annotation text, in characters (a rerun's summary is cut to fit).
MAX_TEXT: Final = 4000
#: The longest author name, in characters.
MAX_AUTHOR: Final = 100
#: The most annotations a game may have (withdrawn ones included) and a record may carry.
MAX_ANNOTATIONS: Final = 10_000
_HEX64: Final = r"^[0-9a-f]{64}$"
_TIME: Final = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$"


def _plain(value: str, what: str, *, lines: bool) -> str:
    check_plain(value, what, lines=lines)  # no controls, no bidi overrides (domain.plain_text)
    if not value.strip():
        raise ValueError(f"{what} is empty")
    return value


class Annotation(BaseModel):
    """One annotation as stored and recorded (a record's ``annotations[i]``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int = Field(ge=1, le=MAX_SAFE_INTEGER, description="its number in the game, from 1")
    event: int = Field(ge=0, le=MAX_SAFE_INTEGER, description="the event; 0 = the whole game")
    digest: str = Field(
        pattern=_HEX64,
        description="the game's chain digest after that event (the genesis digest for 0)",
    )
    kind: Kind
    author: str = Field(min_length=1, max_length=MAX_AUTHOR)
    time: str = Field(pattern=_TIME, description="when it was written, UTC, to the second")
    text: str = Field(min_length=1, max_length=MAX_TEXT)
    visible_to: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_AUTHOR,
        description='who may see it: "all", "umpire" or a side\'s id (that side and the '
        "umpire); absent in annotations written before issue 23: the umpire's alone in a game "
        "with hidden information, everyone's otherwise",
    )

    @model_serializer(mode="wrap")
    def _without_absent_visibility(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        body: dict[str, Any] = handler(self)
        if self.visible_to is None:  # older annotations keep their exact form
            body.pop("visible_to", None)
        return body

    @field_validator("visible_to")
    @classmethod
    def _visible_to(cls, value: str | None) -> str | None:
        return None if value is None else _plain(value, "visible_to", lines=False)

    def seen_by(self, viewer: str | None, hidden: bool) -> bool:
        """Whether ``viewer`` (a side's id; None = the umpire, who sees everything) may see it
        in a game that has hidden information (``hidden``) or not."""
        if viewer is None:
            return True
        visible = self.visible_to or default_visibility(hidden)
        return visible in (EVERYONE, viewer)

    @field_validator("author")
    @classmethod
    def _author(cls, value: str) -> str:
        return _plain(value, "the author", lines=False)

    @field_validator("text")
    @classmethod
    def _text(cls, value: str) -> str:
        return _plain(value, "the text", lines=True)

    @field_validator("time")
    @classmethod
    def _time(cls, value: str) -> str:
        datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")  # a real date: no 2024-02-30
        return value

    @property
    def target(self) -> str:
        """What it is about, in words: ``event 12`` or ``the game``."""
        return f"event {self.event}" if self.event else "the game"

    def line(self) -> str:
        """One line for listings: number, target, kind, author, time and the text's first line
        (plain text: whoever shows it must not render it as markup)."""
        first, _, rest = self.text.partition("\n")
        more = " …" if rest else ""
        return (
            f"#{self.number} on {self.target} [{self.kind}] by {self.author} ({self.time}): "
            f"{first}{more}"
        )


class Withdrawal(BaseModel):
    """An annotation withdrawn by its author (kept in the store's history, never exported)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int = Field(ge=1, le=MAX_SAFE_INTEGER)
    author: str = Field(min_length=1, max_length=MAX_AUTHOR)
    time: str = Field(pattern=_TIME)


def now() -> str:
    """The current time as annotations record it (UTC, to the second)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def check_kind(kind: str) -> Kind:
    """``kind`` if it is one of ``KINDS``.

    Raises:
        AnnotationError: any other kind (the message lists the kinds).
    """
    if kind not in KINDS:
        shown = kind if len(kind) <= 30 else kind[:27] + "..."
        raise AnnotationError(f"unknown annotation kind {shown!r} (kinds: {', '.join(KINDS)})")
    return kind  # type: ignore[return-value]


def check_author(author: str) -> str:
    """``author`` trimmed, if it can sign an annotation.

    Raises:
        AnnotationError: empty, longer than ``MAX_AUTHOR``, or holding a control character.
    """
    name = author.strip()
    try:
        _plain(name, "the author", lines=False)
    except ValueError as exc:
        raise AnnotationError(f"annotation refused: {exc}") from None
    if len(name) > MAX_AUTHOR:
        raise AnnotationError(f"annotation refused: the author is longer than {MAX_AUTHOR} chars")
    return name


def new_annotation(
    *,
    number: int,
    event: int,
    digest: str,
    kind: str,
    author: str,
    text: str,
    time: str | None = None,
    visible_to: str | None = None,
) -> Annotation:
    """A new annotation from a person's input: surrounding blanks are trimmed, Windows line
    endings become line feeds, then everything is checked (``visible_to`` is checked against
    the game's sides by ``binding_problem``).

    Raises:
        AnnotationError: an unknown kind, an empty or over-long author or text, a control
            character (one line naming the problem).
    """
    check_kind(kind)
    for what, value in (("author", author), ("text", text)):
        if not value.strip():
            raise AnnotationError(f"annotation refused: the {what} is empty")
    body = {
        "number": number,
        "event": event,
        "digest": digest,
        "kind": kind,
        "author": author.strip(),
        "time": time or now(),
        "text": text.replace("\r\n", "\n").strip(),
    }
    if visible_to is not None:
        body["visible_to"] = visible_to
    try:
        return Annotation.model_validate(body, strict=True)
    except ValidationError as exc:
        problem = validation_summary(exc, limit=1).replace("Value error, ", "")
        raise AnnotationError(f"annotation refused: {problem}") from None


def default_visibility(hidden: bool) -> str:
    """Who sees an annotation that does not say: the umpire alone in a game with hidden
    information (an annotation may quote a sealed value: a ruling diff does), else everyone."""
    return UMPIRE if hidden else EVERYONE


def shown_to(
    annotations: Sequence[Annotation], viewer: str | None, hidden: bool
) -> list[Annotation]:
    """The annotations ``viewer`` (a side's id; None = the umpire) may see."""
    return [note for note in annotations if note.seen_by(viewer, hidden)]


def shown_for(
    annotations: Sequence[Annotation], header: GameHeader, viewer: str | None
) -> list[Annotation]:
    """:func:`shown_to` for a game by its header (whether its ruleset hides information).

    Raises:
        UnknownRuleset: the header names a ruleset this engine does not have.
    """
    from domain.ruleset import get_ruleset

    hidden = bool(get_ruleset(header.ruleset.id).meta.hidden_information)
    return shown_to(annotations, viewer, hidden)


def chain_digests(genesis: str, digests: Sequence[str]) -> list[str]:
    """The game's chain digest after each event: index 0 is the genesis (before any event)."""
    return [genesis, *digests]


def binding_problem(
    annotations: Sequence[Annotation], chain: Sequence[str], sides: Sequence[str] | None = None
) -> str | None:
    """What is wrong with a game's annotations against its chain (``chain_digests``), or None:
    numbers that do not increase, an event the game does not have, a digest that is not the
    chain's after that event (written about another version of the game), too many; with the
    game's ``sides``, one visible to a side the game does not have."""
    if len(annotations) > MAX_ANNOTATIONS:
        return f"{len(annotations)} annotations, more than the limit of {MAX_ANNOTATIONS}"
    last = 0
    for i, note in enumerate(annotations):
        where = f"annotations[{i}] (annotation #{note.number})"
        if note.number <= last:
            return f"{where}: numbers must increase (after #{last})"
        last = note.number
        if note.event >= len(chain):
            return f"{where} is on event {note.event}, but the game has {len(chain) - 1} events"
        if note.digest != chain[note.event]:
            return (
                f"{where} on {note.target} is bound to digest {note.digest[:12]}…, not the "
                f"game's chain digest there ({chain[note.event][:12]}…): it was written about "
                "another version of this game"
            )
        allowed = {EVERYONE, UMPIRE, *(sides or ())}
        if sides is not None and note.visible_to is not None and note.visible_to not in allowed:
            return (
                f"{where} is visible to {note.visible_to[:40]!r}, which is not {EVERYONE!r}, "
                f"{UMPIRE!r} or one of the game's sides ({', '.join(sides)})"
            )
    return None


def check_bindings(
    annotations: Sequence[Annotation], chain: Sequence[str], sides: Sequence[str] | None = None
) -> None:
    """Refuse annotations that do not fit the game (see :func:`binding_problem`).

    Raises:
        AnnotationError: the first problem, in one line.
    """
    problem = binding_problem(annotations, chain, sides)
    if problem is not None:
        raise AnnotationError(problem)


def select(
    annotations: Sequence[Annotation],
    *,
    event: int | None = None,
    kinds: Sequence[str] = (),
    authors: Sequence[str] = (),
) -> list[Annotation]:
    """The annotations on ``event`` (any when None) of one of ``kinds`` by one of ``authors``
    (an empty filter keeps all)."""
    return [
        note
        for note in annotations
        if (event is None or note.event == event)
        and (not kinds or note.kind in kinds)
        and (not authors or note.author in authors)
    ]


def fit_text(text: str) -> str:
    """Generated text (a rerun's summary) made fit for an annotation: control characters other
    than line feeds become spaces, and it is cut to ``MAX_TEXT`` characters."""
    cleaned = FORBIDDEN.sub(" ", text.replace("\r\n", "\n")).strip()
    if len(cleaned) > MAX_TEXT:
        cleaned = cleaned[: MAX_TEXT - 2].rstrip() + " …"
    return cleaned


__all__ = [
    "EVERYONE",
    "KINDS",
    "MAX_ANNOTATIONS",
    "MAX_AUTHOR",
    "MAX_TEXT",
    "UMPIRE",
    "Annotation",
    "Kind",
    "Withdrawal",
    "binding_problem",
    "chain_digests",
    "check_author",
    "check_bindings",
    "check_kind",
    "default_visibility",
    "fit_text",
    "new_annotation",
    "now",
    "select",
    "shown_for",
    "shown_to",
]
