"""Viewer benchmark (not a test): cost of showing event 10,000 vs event 100 of a large game.

"Showing" an event is what the app computes per scrub step: the state (folded from the nearest
checkpoint), its read model, the board figure with the event's highlight, the explanation and the
log rows (bounded). The ratio should stay near 1 whatever the game's length; a full replay from
the start is measured alongside as the naive baseline. Run: ``make bench``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from domain.engine import Session, header_for, replay
from domain.explain import explain_event
from domain.record import read_record_file
from viewer.figures import Highlight, board_figure
from viewer.timeline import Timeline

ROOT = Path(__file__).resolve().parents[2]
TARGET_EVENTS = 10_100


def large_game() -> Session:
    """Bots play the convoy scenario without annihilation until the log passes 10,100 events."""
    record = read_record_file(ROOT / "fixtures/games/morze/convoy_battle-large.wake.json")
    scenario: dict[str, Any] = dict(record.header.scenario)
    scenario["victory"] = {"annihilation": False, "turn_limit": 400}
    game_id = "00000000-0000-4000-8000-00000000b001"  # a UUID: records and stores want one
    session = Session(header_for("morze", scenario, game_id=game_id, seed=7))
    while len(session.facts) < TARGET_EVENTS and session.submit_bot() is not None:
        pass
    return session


def show(tl: Timeline, seq: int) -> None:
    tl.view_at.cache_clear()
    view = tl.view_at(seq)
    board_figure(view, Highlight(focus=frozenset(tl.info(seq).units if tl.info(seq) else ())))
    explain_event(tl.state_at(seq - 1), tl.facts, seq - 1)
    rows = [e for e in tl.events[:seq]][-500:]
    assert rows


def timed(fn: Callable[[], object], repeat: int = 7) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    t0 = time.perf_counter()
    session = large_game()
    built = time.perf_counter()
    tl = Timeline(session.header, session.facts)
    indexed = time.perf_counter()
    n = len(session.facts)
    at_100 = timed(lambda: show(tl, 100))
    at_10k = timed(lambda: show(tl, 10_000))
    naive_100 = timed(lambda: replay(session.header, session.facts[:100], check=False), 3)
    naive_10k = timed(lambda: replay(session.header, session.facts[:10_000], check=False), 3)
    rows = [
        ("game", f"{n} events, {session.state.commands} orders (bots, seed 7)"),
        ("play the game (bots)", f"{built - t0:.2f} s"),
        ("index it once (Timeline)", f"{indexed - built:.2f} s"),
        ("show event 100", f"{at_100 * 1000:.1f} ms"),
        ("show event 10,000", f"{at_10k * 1000:.1f} ms"),
        ("ratio 10,000 / 100 (checkpoints)", f"{at_10k / at_100:.2f}"),
        ("naive replay to 100", f"{naive_100 * 1000:.1f} ms"),
        ("naive replay to 10,000", f"{naive_10k * 1000:.1f} ms"),
        ("ratio 10,000 / 100 (naive)", f"{naive_10k / naive_100:.1f}"),
    ]
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")


if __name__ == "__main__":
    main()
