"""Rollout benchmark (issue 24; not a test): bot games per CPU-second per ruleset, today's code
against a baseline in the same run, and the speed-up of 1 → 2 local Dask workers.

* **games per CPU-second**: a bot game per seed played in a child process on the recorded path
  (``Session.submit_bot``: what every bot game cost before the fast path) from the **baseline**
  source tree (``git archive`` of ``--baseline``, default the main branch), and on the fast
  path (``domain.fastplay``) from this tree; rounds interleaved (baseline, current, baseline,
  …) and each measured in the child's own CPU time (``time.process_time``), so other load on the
  machine moves both alike. The ratio is the figure.
* **1 → 2 workers**: wall time of the same simulation on a local Dask cluster of 1 and of 2
  worker processes (rollouts are independent, so the ideal is 2).

Run: ``python -m tests.benchmarks.bench_rollouts [--games N] [--rounds R] [--baseline REV]
[--baseline-fast] [--ruleset ID ...] [--workers-games N|0]`` (``make bench``);
``--baseline-fast`` measures the baseline's own fast path (a speed-up of the fast path itself).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = {
    "morze": "fixtures/scenarios/morze/river_plate.json",
    "iron_oak": "fixtures/scenarios/iron_oak/hampton_roads.json",
    "ships": "fixtures/scenarios/ships/multi4.json",
    "armada": "fixtures/scenarios/armada/core_learning.json",
}
CHILD = r"""
import json, sys, time, uuid
from pathlib import Path
from domain.engine import Session, header_for
ruleset, path = sys.argv[1], sys.argv[2]
first, games, fast = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
data = json.loads(Path(path).read_text())
def play(seed):
    gid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"bench{ruleset}{seed}"))
    header = header_for(ruleset, data, game_id=gid, seed=seed)
    if fast:
        from domain.fastplay import FastGame, play_out
        if hasattr(FastGame, "new"):  # no genesis digest (a fast game keeps no log)
            game = play_out(FastGame.new(header), seed)
        else:
            from domain.engine import new_game
            game = play_out(FastGame.from_state(new_game(header)), seed)
        return game.seq, game.result.winner if game.result else None
    session = Session(header)
    while session.submit_bot() is not None:
        pass
    return session.state.seq, session.state.result.winner if session.state.result else None
play(first - 1)  # imports and first-use caches out of the timing
start = time.process_time()
results = [play(seed) for seed in range(first, first + games)]
print(json.dumps({"cpu": time.process_time() - start, "results": results}))
"""


def baseline_tree(revision: str) -> Path:
    """The baseline's source, unpacked from git into a temporary directory."""
    target = Path(tempfile.mkdtemp(prefix="wake-baseline-"))
    archive = target / "src.tar"
    subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", "-o", str(archive), revision],
        check=True,
    )
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="data")
    return target


def run_child(tree: Path, ruleset: str, first: int, games: int, fast: bool) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            CHILD,
            ruleset,
            str(ROOT / SCENARIOS[ruleset]),
            str(first),
            str(games),
            "1" if fast else "0",
        ],
        cwd=tree,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def games_per_cpu_second(
    baseline: Path,
    games: int,
    rounds: int,
    rulesets: list[str] | None = None,
    baseline_fast: bool = False,
) -> None:
    path = "fast path" if baseline_fast else "recorded path"
    print(f"bot games per CPU-second ({games} games a round, {rounds} interleaved rounds, ")
    print(f"baseline on its {path})")
    print(f"{'ruleset':10} {'baseline':>9} {'now':>9} {'ratio':>7}  same results")
    for ruleset in rulesets or SCENARIOS:
        before: list[float] = []
        after: list[float] = []
        same = True
        for r in range(rounds):
            first = 1 + r * games
            old = run_child(baseline, ruleset, first, games, fast=baseline_fast)
            new = run_child(ROOT, ruleset, first, games, fast=True)
            same = same and old["results"] == new["results"]
            before.append(games / old["cpu"])
            after.append(games / new["cpu"])
            ratio = after[-1] / before[-1]
            load = os.getloadavg()[0]
            print(f"  round {r + 1}: {ratio:.2f}x (load average {load:.1f})", file=sys.stderr)
        b, a = median(before), median(after)
        print(f"{ruleset:10} {b:9.1f} {a:9.1f} {a / b:6.2f}x  {'yes' if same else 'NO'}")


def worker_speedup(games: int) -> None:
    from domain.distributed import DaskRunner
    from domain.simulate import play_stream

    data = json.loads((ROOT / SCENARIOS["iron_oak"]).read_text())
    times = {}
    for workers in (1, 2, 1, 2):  # interleaved
        pool = DaskRunner(None, workers=workers)
        start = time.perf_counter()
        list(play_stream("iron_oak", data, range(1, games + 1), options={}, runner=pool))
        times.setdefault(workers, []).append(time.perf_counter() - start)
        pool.close()
    one, two = min(times[1]), min(times[2])
    print(
        f"local Dask workers, {games} Iron & Oak games: 1 worker {one:.1f} s, "
        f"2 workers {two:.1f} s, speed-up {one / two:.2f}x (ideal 2 on 2 idle cores)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", default="main")
    parser.add_argument("--workers-games", type=int, default=60, help="0: skip the Dask part")
    parser.add_argument(
        "--baseline-fast",
        action="store_true",
        help="the baseline's own fast path (domain.fastplay) instead of its recorded path",
    )
    parser.add_argument(
        "--ruleset", action="append", choices=sorted(SCENARIOS), help="only these (repeatable)"
    )
    args = parser.parse_args()
    games_per_cpu_second(
        baseline_tree(args.baseline), args.games, args.rounds, args.ruleset, args.baseline_fast
    )
    if args.workers_games:
        worker_speedup(args.workers_games)


if __name__ == "__main__":
    main()
