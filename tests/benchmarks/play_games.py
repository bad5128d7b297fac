"""Play bot games on the fast path and nothing else (not a test): a fixed amount of work for
counting instructions, which a loaded machine does not move as it moves CPU time.

Run: ``valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out python -m
tests.benchmarks.play_games FIRST LAST [--ruleset ID]`` in each tree compared, once with
``FIRST LAST`` = ``1 N`` and once with ``1 1``: the difference of the two "Collected" counts is
the instructions of games 2..N (imports and first-use caches cancel out). The games are
``bench_rollouts``'s (same scenarios, game ids and seeds).
"""

from __future__ import annotations

import argparse
import json
import uuid

from domain.engine import header_for
from domain.fastplay import FastGame, play_out
from tests.benchmarks.bench_rollouts import ROOT, SCENARIOS


def play(ruleset: str, first: int, last: int) -> None:
    """Bot games of seeds ``first``..``last`` on the fast path."""
    data = json.loads((ROOT / SCENARIOS[ruleset]).read_text())
    for seed in range(first, last + 1):
        gid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"bench{ruleset}{seed}"))
        play_out(FastGame.new(header_for(ruleset, data, game_id=gid, seed=seed)), seed)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--ruleset", default="armada", choices=sorted(SCENARIOS))
    args = parser.parse_args()
    play(args.ruleset, args.first, args.last)


if __name__ == "__main__":
    main()


__all__ = ["play"]
