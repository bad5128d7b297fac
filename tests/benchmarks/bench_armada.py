"""Star Wars: Armada benchmark (not a test): bot games per second on the bundled scenarios and
the share of the time spent in geometry (arcs, ranges, line of sight, overlaps, the maneuver
tool and shapely underneath), measured with the profiler in the same run. Run:
``python -m tests.benchmarks.bench_armada`` (``make bench``).

Every figure is a rate or a share measured in this run, so it holds on a noisy machine.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time

from domain.conformance import bot_game
from tests.armada_helpers import bundled

GEOMETRY = (
    "armada/geometry.py",
    "armada/arcs.py",
    "armada/sight.py",
    "armada/overlap.py",
    "armada/maneuver.py",
    "armada/drawing.py",
    "/shapely/",
)
"""Files whose own time counts as geometry (their callers' time does not)."""

GAMES = 20


def games_per_second(name: str, games: int) -> tuple[float, float, int]:
    """(games/s, mean seconds a game, mean events a game) for ``games`` bot games."""
    data = bundled(name)
    bot_game("armada", data, 0)  # warm the caches and imports
    events = 0
    start = time.perf_counter()
    for seed in range(1, games + 1):
        events += len(bot_game("armada", data, seed).facts)
    elapsed = time.perf_counter() - start
    return games / elapsed, elapsed / games, events // games


def geometry_share(name: str, games: int) -> float:
    """Own time in the geometry files over the total, for ``games`` profiled bot games."""
    data = bundled(name)
    profile = cProfile.Profile()
    profile.enable()
    for seed in range(101, 101 + games):
        bot_game("armada", data, seed)
    profile.disable()
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    total = geometry = 0.0
    for (filename, _, _), (_, _, own, _, _) in stats.items():
        total += own
        if any(part in filename.replace("\\", "/") for part in GEOMETRY):
            geometry += own
    return geometry / total if total else 0.0


def main(games: int = GAMES) -> None:
    print(f"Armada bot games ({games} per scenario, seeds 1..{games})")
    print(f"{'scenario':18} {'games/s':>8} {'s/game':>8} {'events/game':>12} {'geometry':>9}")
    for name in ("core_learning", "core_deployment"):
        rate, per_game, events = games_per_second(name, games)
        share = geometry_share(name, max(3, games // 4))
        print(f"{name:18} {rate:8.2f} {per_game:8.3f} {events:12d} {share:9.1%}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else GAMES)
