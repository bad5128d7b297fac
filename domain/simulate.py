"""Simulation at scale: many bot games in memory, in parallel processes, with statistics.

Game k uses seed ``base_seed + k``, so a simulation is reproducible and any single game can be
replayed (or stored) later. Statistics come from the generic read model only: winners, VP, turns,
and damage taken and units lost per unit kind (``details["class"]`` if the ruleset gives one).
"""

from __future__ import annotations

import math
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.distributed import Runner, runner
from domain.engine import Fact, Session, header_for
from domain.fastplay import FastGame, play_out
from domain.header import GameHeader
from domain.ruleset import get_ruleset

SIM_NAMESPACE = uuid.UUID("6f1f4a52-55f0-4d0c-9a43-1c1f2b6a9c01")
MAX_ORDERS = 200_000


@dataclass(frozen=True)
class GameOutcome:
    seed: int
    winner: str | None  # None: draw or unfinished
    finished: bool
    reason: str
    vp: dict[str, int]
    turns: int
    events: int
    orders: int
    damage_by_class: dict[str, int]
    lost_by_class: dict[str, int]
    fielded_by_class: dict[str, int]
    header: GameHeader | None = None
    facts: list[Fact] | None = None


def play_one(
    ruleset_id: str,
    scenario: Mapping[str, Any],
    options: Mapping[str, Any],
    seed: int,
    keep_log: bool = False,
) -> GameOutcome:
    """Play one bot game with ``seed`` and summarise it."""
    game_id = str(uuid.uuid5(SIM_NAMESPACE, f"{ruleset_id}:{scenario.get('id')}:{seed}"))
    header = header_for(
        ruleset_id,
        scenario,
        game_id=game_id,
        seed=seed,
        options=options,
        title=f"simulation seed {seed}",
    )
    session: Session | None = None
    if keep_log:
        session = Session(header)
        for _ in range(MAX_ORDERS):
            if session.submit_bot() is None:
                break
        state = session.state
        rules, seq, orders, result = state.rules, state.seq, state.commands, state.result
    else:  # the fast path: the same events, no log (tests/test_fastplay.py)
        game = play_out(FastGame.new(header), seed, max_orders=MAX_ORDERS)
        rules, seq, orders, result = game.rules, game.seq, game.commands, game.result
    ruleset = get_ruleset(ruleset_id)
    view = ruleset.read_model(rules)
    damage: Counter[str] = Counter()
    lost: Counter[str] = Counter()
    fielded: Counter[str] = Counter()
    for unit in view.units:
        if unit.private:  # a card in hand (hidden information) is not a unit in play
            continue
        kind = str(unit.details.get("class") or unit.kind)
        fielded[kind] += 1
        damage[kind] += min(unit.damage, unit.strength)
        if unit.status != "active":
            lost[kind] += 1
    return GameOutcome(
        seed=seed,
        winner=result.winner if result else None,
        finished=result is not None,
        reason=result.reason if result else "unfinished",
        vp={s.id: s.vp for s in view.sides},
        turns=view.turn,
        events=seq,
        orders=orders,
        damage_by_class=dict(damage),
        lost_by_class=dict(lost),
        fielded_by_class=dict(fielded),
        header=header if keep_log else None,
        facts=session.facts if session is not None else None,
    )


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (good for small n and rates near 0 or 1)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Summary:
    games: int
    sides: list[str]
    wins: dict[str, int] = field(default_factory=dict)  # side id or "draw" / "unfinished"
    mean_vp: dict[str, float] = field(default_factory=dict)
    mean_turns: float = 0.0
    mean_events: float = 0.0
    mean_damage_by_class: dict[str, float] = field(default_factory=dict)
    loss_rate_by_class: dict[str, float] = field(default_factory=dict)

    def rate(self, key: str) -> tuple[float, float, float]:
        """(rate, low, high) for a side's wins (or "draw")."""
        k = self.wins.get(key, 0)
        low, high = wilson_interval(k, self.games)
        return (k / self.games if self.games else 0.0, low, high)


def summarise(outcomes: Sequence[GameOutcome], sides: Sequence[str]) -> Summary:
    n = len(outcomes)
    summary = Summary(games=n, sides=list(sides))
    wins: Counter[str] = Counter()
    for o in outcomes:
        wins[o.winner if o.winner else ("draw" if o.finished else "unfinished")] += 1
    summary.wins = dict(wins)
    if n == 0:
        return summary
    summary.mean_vp = {s: sum(o.vp.get(s, 0) for o in outcomes) / n for s in sides}
    summary.mean_turns = sum(o.turns for o in outcomes) / n
    summary.mean_events = sum(o.events for o in outcomes) / n
    damage: Counter[str] = Counter()
    lost: Counter[str] = Counter()
    fielded: Counter[str] = Counter()
    for o in outcomes:
        damage.update(o.damage_by_class)
        lost.update(o.lost_by_class)
        fielded.update(o.fielded_by_class)
    summary.mean_damage_by_class = {k: damage[k] / n for k in sorted(fielded)}
    summary.loss_rate_by_class = {k: lost[k] / fielded[k] for k in sorted(fielded)}
    return summary


def _play(shared: tuple[str, dict[str, Any], dict[str, Any], bool], seed: int) -> GameOutcome:
    ruleset_id, scenario, options, keep_log = shared
    return play_one(ruleset_id, scenario, options, seed, keep_log)


def play_stream(
    ruleset_id: str,
    scenario: Mapping[str, Any],
    seeds: Sequence[int],
    *,
    options: Mapping[str, Any],
    runner: Runner,
    keep_logs: bool = False,
) -> Iterator[GameOutcome]:
    """Play a game per seed on ``runner`` and yield each outcome as it arrives (in any order):
    a caller streams them to a store or a file instead of holding them all."""
    shared = (ruleset_id, dict(scenario), dict(options), keep_logs)
    return runner.run(_play, shared, seeds)


def simulate(
    ruleset_id: str,
    scenario: Mapping[str, Any],
    games: int,
    *,
    options: Mapping[str, Any],
    base_seed: int = 1,
    workers: int = 0,
    keep_logs: bool = False,
    progress: Callable[[int], None] | None = None,
    scheduler: str | None = None,
) -> list[GameOutcome]:
    """Play ``games`` bot games (seeds base_seed..): in this process (``workers`` 1), on a local
    Dask cluster of ``workers`` processes (0: one per CPU) or on the cluster at ``scheduler``.
    Outcomes come back in seed order, the same whatever ran them."""
    seeds = [base_seed + k for k in range(games)]
    pool = runner(scheduler, workers)
    outcomes: list[GameOutcome] = []
    try:
        for outcome in play_stream(
            ruleset_id, scenario, seeds, options=options, runner=pool, keep_logs=keep_logs
        ):
            outcomes.append(outcome)
            if progress:
                progress(1)
    finally:
        pool.close()
    return sorted(outcomes, key=lambda o: o.seed)


def outcome_line(outcome: GameOutcome) -> dict[str, Any]:
    """One game as a JSON line of ``simulate --out`` (shards merge by concatenation)."""
    return {
        "seed": outcome.seed,
        "winner": outcome.winner,
        "finished": outcome.finished,
        "reason": outcome.reason,
        "vp": outcome.vp,
        "turns": outcome.turns,
        "events": outcome.events,
        "orders": outcome.orders,
        "damage_by_class": outcome.damage_by_class,
        "lost_by_class": outcome.lost_by_class,
        "fielded_by_class": outcome.fielded_by_class,
    }
