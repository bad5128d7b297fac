"""Same bots, same results (issue 24; not a test): every order and event of fast-path bot games
hashed per seed, in this tree and in a baseline revision, compared seed by seed.

A speed change must leave every game as it was. ``bench_rollouts`` compares each game's length
and winner; this compares more: per seed, a SHA-256 over every order (side, type and JSON) and
every event (type and JSON) in order, with the game's length and winner.

Run: ``python -m tests.benchmarks.same_results [--baseline REV] [--ruleset ID] [--seeds N]``
(seeds 1..N, default 80; Armada by default). Prints the seeds that differ, if any.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.benchmarks.bench_rollouts import ROOT, SCENARIOS, baseline_tree

CHILD = r"""
import hashlib, json, sys, uuid
from pathlib import Path
from domain.engine import header_for
from domain.fastplay import FastGame, play_out
ruleset, path, last = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = json.loads(Path(path).read_text())
def dump(x):
    return x.model_dump_json() if hasattr(x, "model_dump_json") else json.dumps(x, sort_keys=True)
out = {}
for seed in range(1, last + 1):
    gid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"bench{ruleset}{seed}"))
    digest = hashlib.sha256()
    def watch(side, command, events):
        for part in (repr(side), type(command).__name__, dump(command)):
            digest.update(part.encode())
        for event in events:
            digest.update(type(event).__name__.encode())
            digest.update(dump(event).encode())
    game = play_out(FastGame.new(header_for(ruleset, data, game_id=gid, seed=seed)), seed,
                    watch=watch)
    out[seed] = [digest.hexdigest(), game.seq, game.result.winner if game.result else None]
print(json.dumps(out))
"""


def hashes(tree: Path, ruleset: str, seeds: int) -> dict[str, list[object]]:
    """Per seed: the hash of its orders and events, its length and its winner, in ``tree``."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD, ruleset, str(ROOT / SCENARIOS[ruleset]), str(seeds)],
        cwd=tree,
        env=dict(os.environ, PYTHONPATH=str(tree)),
        check=True,
        capture_output=True,
        text=True,
    )
    found: dict[str, list[object]] = json.loads(out.stdout.strip().splitlines()[-1])
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", default="main")
    parser.add_argument("--ruleset", default="armada", choices=sorted(SCENARIOS))
    parser.add_argument("--seeds", type=int, default=80)
    args = parser.parse_args()
    before = hashes(baseline_tree(args.baseline), args.ruleset, args.seeds)
    after = hashes(ROOT, args.ruleset, args.seeds)
    differ = [seed for seed in before if before[seed] != after.get(seed)]
    print(
        f"{args.ruleset}, seeds 1-{args.seeds}, against {args.baseline}: "
        + ("the same orders, events, lengths and winners" if not differ else f"differ: {differ}")
    )
    if differ:
        sys.exit(1)


if __name__ == "__main__":
    main()
