"""Typed errors of the Wake engine.

Every error carries a stable ``code`` (for scripts and the CLI exit status), an optional ``rule``
ID (for illegal orders) and a message that describes the situation. A command refused with any of
these appends nothing to the game's log.
"""

from __future__ import annotations

from typing import ClassVar


class WakeError(Exception):
    """Base of every error the engine reports on purpose."""

    code: ClassVar[str] = "error"

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        prefix = f"[{self.rule}] " if self.rule else ""
        return f"{prefix}{self.message}"


class InvalidCommand(WakeError):
    """The command is malformed or names something that does not exist."""

    code = "invalid"


class IllegalCommand(WakeError):
    """The command is well formed but the rules forbid it now."""

    code = "illegal"


class WrongPhase(IllegalCommand):
    """The command belongs to another phase of the turn."""

    code = "wrong_phase"


class NotYourTurn(IllegalCommand):
    """Another side is to act now."""

    code = "not_your_turn"


class WrongSide(IllegalCommand):
    """The command orders a unit that belongs to another side."""

    code = "wrong_side"


class GameOver(IllegalCommand):
    """The game has ended; nothing more can be ordered."""

    code = "game_over"


class DiceMismatch(WakeError):
    """Physical-dice faces entered with a command do not fit the rolls it needs."""

    code = "dice"


class ScenarioError(WakeError):
    """A scenario or data file is invalid."""

    code = "scenario"


class UnknownRuleset(WakeError):
    """No ruleset is registered under the requested id."""

    code = "unknown_ruleset"


class RecordError(WakeError):
    """A record file cannot be read: malformed, wrong version, or tampered with."""

    code = "record"


class RecordDivergence(RecordError):
    """Re-running a record's commands produced different events."""

    code = "divergence"


class UnknownTopicVersion(RecordError):
    """A stored event's topic is a newer version than this Wake knows (the record was made by a
    later version of the ruleset): it cannot be decoded, and nothing guesses its meaning."""

    code = "topic_version"


class SealedSeed(RecordError):
    """A record whose dice seed is committed but not revealed: it cannot be re-run."""

    code = "sealed_seed"


class DataNotAvailable(WakeError):
    """A game cannot be re-run with the current data: a table it was played with is not one
    Wake ships (by content) and was not given (``domain.data_versions``)."""

    code = "data_not_available"


class LineageError(RecordError):
    """A variation's header names a parent its events, or the parent itself, do not match."""

    code = "parent"


class SignatureError(WakeError):
    """A key file cannot be used, or a record's signature does not hold."""

    code = "signature"


class AnnotationError(WakeError):
    """An annotation is refused: an unknown kind, bad text, an event the game does not have,
    a binding that does not match the game's chain, or a withdrawal by someone else."""

    code = "annotation"


class StoreError(WakeError):
    """The store refused an operation (missing game, duplicate game, conflict)."""

    code = "store"


class OrderConflict(StoreError):
    """Another device gave an order first: the order was decided on a state that is gone."""

    code = "conflict"


class GameNotFound(StoreError):
    """No game with that id is in the store."""

    code = "not_found"


class NoSuchEvent(WakeError):
    """A game has no event with that number (or never reached that turn)."""

    code = "no_event"


def validation_summary(exc: Exception, limit: int = 3) -> str:
    """One line for a pydantic ``ValidationError`` (or any error): the first problems, each as
    ``where: what``, without pydantic's URLs and input dumps; list positions are shown as
    ``[i]``."""
    errors = getattr(exc, "errors", None)
    if not callable(errors):
        return " ".join(str(exc).split())
    found = errors(include_url=False, include_input=False)
    parts = []
    for err in found[:limit]:
        where = ""
        for part in err["loc"]:
            name = str(part) if str(part).isprintable() else repr(part)  # a key "\n": one line
            where += f"[{part}]" if isinstance(part, int) else f"{'.' if where else ''}{name}"
        parts.append(f"{where or '(top level)'}: {' '.join(str(err['msg']).split())}")
    more = f" (and {len(found) - limit} more)" if len(found) > limit else ""
    return "; ".join(parts) + more
