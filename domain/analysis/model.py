"""What an analysis stores and exports, and the plain read model a viewer draws.

Stored (and exported as a record's optional ``analysis`` section, outside the chain): the
:class:`AnalysisSpec` (how it was made: points, rollouts, the ruleset and Wake versions, the seed
scheme), the :class:`PointRecord`\\s and one :class:`Estimate` per position and start (outcome
counts). Everything a person reads is computed from those by :func:`read_model`.

Decision and luck (issue 24): for a point, P(before) is the side's win share from the position
the side decided in, P(order) from the same position with the given order replayed on fresh
dice, P(after) from the position the order's real dice left. decision = P(order) − P(before),
luck = P(after) − P(order); they add up to the swing P(after) − P(before).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.analysis.points import Every
from domain.analysis.rollouts import Start
from domain.simulate import wilson_interval

CAVEAT: Final = (
    "Win probability if both sides play as Wake's bots from here: an estimate from bot "
    "rollouts, not a truth about the position."
)
MAX_ROLLOUTS: Final = 1_000_000
MAX_POINTS: Final = 100_000


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AnalysisSpec(_Model):
    """How an analysis was made; results of different specs are never mixed."""

    every: Every
    rollouts: int = Field(ge=1, le=MAX_ROLLOUTS)
    ruleset: str = Field(max_length=100)
    ruleset_version: str = Field(max_length=100)
    wake_version: str = Field(max_length=100)
    seed_scheme: str = Field(max_length=100)


class PointRecord(_Model):
    """A decision point (see :class:`domain.analysis.points.DecisionPoint`)."""

    index: int = Field(ge=0, le=MAX_POINTS)
    before: int = Field(ge=0)
    after: int = Field(ge=0)
    side: str = Field(max_length=100)
    command: dict[str, Any]
    bot_command: dict[str, Any] | None = None


class Estimate(_Model):
    """Outcome counts of ``rollouts`` rollouts from the position after event ``seq`` (with the
    point's order replayed first when ``start`` is ``order``): side id, ``draw`` or
    ``unfinished`` to a count."""

    seq: int = Field(ge=0)
    start: Start
    rollouts: int = Field(ge=1, le=MAX_ROLLOUTS)
    outcomes: dict[str, int]

    @property
    def key(self) -> tuple[int, str]:
        return (self.seq, self.start)


class Analysis(_Model):
    """A whole analysis: a record's ``analysis`` section."""

    spec: AnalysisSpec
    points: list[PointRecord] = Field(max_length=MAX_POINTS)
    estimates: list[Estimate] = Field(max_length=3 * MAX_POINTS)


# --------------------------------------------------------------------------- read model


class Chance(_Model):
    """A side's win probability with its 95 % Wilson interval."""

    side: str
    p: float
    low: float
    high: float


class PointView(_Model):
    """One point as a viewer draws it: ``event`` is the event the graph puts it on (the last
    event of the order), ``decided_at`` the position the side decided in."""

    index: int
    event: int
    decided_at: int
    side: str
    order: str
    bot_alternative: str | None
    before: list[Chance]
    with_order: list[Chance]
    after: list[Chance]
    decision: dict[str, float]
    luck: dict[str, float]


class AnalysisView(_Model):
    """The read model of an analysis (complete points only)."""

    caveat: str = CAVEAT
    every: str
    rollouts: int
    sides: list[str]
    points: list[PointView]
    ruleset_version: str
    wake_version: str


class AnalysisNote(_Model):
    """An automatic annotation of kind ``analysis`` (never stored with people's annotations)."""

    event: int
    kind: Literal["analysis"] = "analysis"
    text: str


def chances(estimate: Estimate, sides: Sequence[str]) -> list[Chance]:
    n = estimate.rollouts
    out = []
    for side in sides:
        k = estimate.outcomes.get(side, 0)
        low, high = wilson_interval(k, n)
        out.append(Chance(side=side, p=k / n, low=low, high=high))
    return out


def read_model(
    analysis: Analysis,
    sides: Sequence[str],
    describe: Any = None,
) -> AnalysisView:
    """The points whose three estimates are all there, with decision and luck per side.
    ``describe`` turns an order's JSON into players' words (``Ruleset.describe_order``)."""
    found: Mapping[tuple[int, str], Estimate] = {e.key: e for e in analysis.estimates}
    words = describe or (lambda command: str(command.get("type", "order")))
    views = []
    for point in analysis.points:
        parts = (
            found.get((point.before, "position")),
            found.get((point.before, "order")),
            found.get((point.after, "position")),
        )
        if any(p is None for p in parts):
            continue
        before, order, after = (chances(p, sides) for p in parts if p is not None)
        views.append(
            PointView(
                index=point.index,
                event=point.after,
                decided_at=point.before,
                side=point.side,
                order=words(point.command),
                bot_alternative=words(point.bot_command) if point.bot_command else None,
                before=before,
                with_order=order,
                after=after,
                decision={b.side: o.p - b.p for b, o in zip(before, order, strict=True)},
                luck={o.side: a.p - o.p for o, a in zip(order, after, strict=True)},
            )
        )
    spec = analysis.spec
    return AnalysisView(
        every=spec.every,
        rollouts=spec.rollouts,
        sides=list(sides),
        points=views,
        ruleset_version=spec.ruleset_version,
        wake_version=spec.wake_version,
    )


def notes(
    view: AnalysisView, threshold: float = 0.10, names: Mapping[str, str] | None = None
) -> list[AnalysisNote]:
    """Automatic annotations for the swings of at least ``threshold`` for the side that decided:
    "decision −18 % (the bots would have: …)", "luck +25 %"."""
    shown = names or {}
    out = []
    for point in view.points:
        who = shown.get(point.side, point.side)
        parts = []
        decision = point.decision.get(point.side, 0.0)
        luck = point.luck.get(point.side, 0.0)
        if abs(decision) >= threshold:
            extra = (
                f" (the bots would have: {point.bot_alternative})" if point.bot_alternative else ""
            )
            parts.append(f"decision {decision:+.0%} for {who}{extra}")
        if abs(luck) >= threshold:
            parts.append(f"luck {luck:+.0%} for {who}")
        if parts:
            text = "; ".join(parts) + f" — {point.order}"
            out.append(AnalysisNote(event=point.event, text=text))
    return out
