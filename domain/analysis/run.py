"""Run an analysis: plan the rollouts of every point, send them as small batches to a runner,
aggregate the outcomes as they arrive, and hand each finished estimate to the caller (who stores
it): an interrupted analysis resumes with the estimates it already has.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from domain.analysis.model import Analysis, AnalysisSpec, Estimate, PointRecord
from domain.analysis.points import Every, find_points
from domain.analysis.rollouts import SEED_SCHEME, Batch, Game, Start, batches, run_batch
from domain.distributed import Runner, wake_version
from domain.engine import Fact
from domain.header import GameHeader
from domain.ruleset import get_ruleset

BATCH = 10
"""Rollouts a task: small enough to spread a point over workers and to lose little with one."""


def spec_for(header: GameHeader, every: Every, rollouts: int) -> AnalysisSpec:
    return AnalysisSpec(
        every=every,
        rollouts=rollouts,
        ruleset=header.ruleset.id,
        ruleset_version=get_ruleset(header.ruleset.id).meta.version,
        wake_version=wake_version(),
        seed_scheme=SEED_SCHEME,
    )


def plan(header: GameHeader, facts: Sequence[Fact], every: Every) -> list[PointRecord]:
    """The game's decision points as stored."""
    return [
        PointRecord(
            index=p.index,
            before=p.before,
            after=p.after,
            side=p.side,
            command=p.command,
            bot_command=p.bot_command,
        )
        for p in find_points(header, facts, every)
    ]


def wanted(points: Iterable[PointRecord]) -> dict[tuple[int, Start], PointRecord]:
    """Every (position, start) the points need, each once, with the point that replays its
    order (for ``order`` starts)."""
    found: dict[tuple[int, Start], PointRecord] = {}
    for point in points:
        found.setdefault((point.before, "position"), point)
        found.setdefault((point.before, "order"), point)
        found.setdefault((point.after, "position"), point)
    return found


@dataclass
class Progress:
    """What a progress bar shows."""

    estimates_total: int
    estimates_done: int = 0
    rollouts_total: int = 0
    rollouts_done: int = 0
    counts: dict[tuple[int, str], Counter[str]] = field(default_factory=dict)


def analyse(
    header: GameHeader,
    facts: Sequence[Fact],
    spec: AnalysisSpec,
    points: Sequence[PointRecord],
    runner: Runner,
    *,
    known: Sequence[Estimate] = (),
    done: Callable[[Estimate], None] = lambda _: None,
    progress: Callable[[Progress], None] = lambda _: None,
    batch: int = BATCH,
) -> list[Estimate]:
    """Every estimate the points need: ``known`` ones kept (made with ``spec``), the others
    computed on ``runner``; ``done`` sees each new one as soon as its last batch arrives.
    Returns them all, ordered by position and start."""
    have = {e.key: e for e in known if e.rollouts == spec.rollouts}
    todo = {key: point for key, point in wanted(points).items() if key not in have}
    tasks: list[Batch] = []
    for (seq, start), point in todo.items():
        tasks += batches(
            seq,
            start,
            spec.rollouts,
            batch,
            side=point.side if start == "order" else None,
            command=point.command if start == "order" else None,
        )
    state = Progress(estimates_total=len(todo) + len(have), estimates_done=len(have))
    state.rollouts_total = len(tasks) and sum(t.count for t in tasks)
    progress(state)
    results = dict(have)
    arrived: dict[tuple[int, str], int] = {}
    for finished, outcomes in runner.run(run_batch, Game(header, tuple(facts)), tasks):
        key = (finished.seq, finished.start)
        counts = state.counts.setdefault(key, Counter())
        counts.update(outcomes)
        arrived[key] = arrived.get(key, 0) + len(outcomes)
        state.rollouts_done += len(outcomes)
        if arrived[key] == spec.rollouts:
            estimate = Estimate(
                seq=finished.seq,
                start=finished.start,
                rollouts=spec.rollouts,
                outcomes=dict(sorted(counts.items())),
            )
            results[key] = estimate
            state.estimates_done += 1
            done(estimate)
        progress(state)
    return [results[k] for k in sorted(results)]


def recheck(
    header: GameHeader,
    facts: Sequence[Fact],
    analysis: Analysis,
    sample: int,
    runner: Runner,
) -> str | None:
    """Check an analysis against the game it claims to be about: its spec fits this Wake, its
    points are the game's, every estimate is complete and belongs to a point, and ``sample``
    estimates (spread over the game) re-run to the same outcome counts. None when all holds,
    else the first problem in one line (a forged or stale analysis)."""
    spec = analysis.spec
    mine = spec_for(header, spec.every, spec.rollouts)
    if spec != mine:
        return (
            f"it was made with {spec.ruleset} {spec.ruleset_version}, Wake {spec.wake_version} "
            f"and seeds {spec.seed_scheme}; this Wake has {mine.ruleset} "
            f"{mine.ruleset_version}, Wake {mine.wake_version} and {mine.seed_scheme}: run "
            "`wake analyse` again"
        )
    if list(analysis.points) != plan(header, facts, spec.every):
        return "its decision points are not this game's"
    needs: dict[tuple[int, str], PointRecord] = {k: v for k, v in wanted(analysis.points).items()}
    found = {e.key: e for e in analysis.estimates}
    if len(found) != len(analysis.estimates):
        return "it has two estimates for one position"
    for key, estimate in found.items():
        if key not in needs:
            return f"its estimate at event {key[0]} ({key[1]}) belongs to no decision point"
        if estimate.rollouts != spec.rollouts or sum(estimate.outcomes.values()) != spec.rollouts:
            return (
                f"its estimate at event {key[0]} ({key[1]}) does not count {spec.rollouts} rollouts"
            )
    keys = sorted(found)
    if not keys or sample <= 0:
        return None
    step = max(1, len(keys) // sample)
    chosen = keys[::step][:sample]
    tasks: list[Batch] = []
    for seq, start in chosen:
        point = needs[(seq, start)]
        order = start == "order"
        tasks += batches(
            seq,
            start,  # type: ignore[arg-type]
            spec.rollouts,
            BATCH,
            side=point.side if order else None,
            command=point.command if order else None,
        )
    again: dict[tuple[int, str], Counter[str]] = {}
    for finished, outcomes in runner.run(run_batch, Game(header, tuple(facts)), tasks):
        again.setdefault((finished.seq, finished.start), Counter()).update(outcomes)
    for key in chosen:
        if dict(again[key]) != {k: v for k, v in found[key].outcomes.items() if v}:
            return (
                f"its estimate at event {key[0]} ({key[1]}) does not re-run: recorded "
                f"{_counts(found[key].outcomes)}, re-run {_counts(again[key])}"
            )
    return None


def _counts(outcomes: dict[str, int] | Counter[str]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()) if v) or "nothing"
