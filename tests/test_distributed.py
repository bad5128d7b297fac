"""Issue 24 item 3: the same numbers from one process, a local Dask cluster and a scheduler with
two workers started as separate processes on 127.0.0.1; a worker killed mid-run changes nothing;
a worker with other versions is refused. Few rollouts and games: these check behaviour."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.analysis.run import analyse, plan, spec_for
from domain.distributed import ClusterMismatch, DaskRunner, InProcess
from domain.record.reader import read_record_file
from domain.ruleset import get_ruleset, register, unregister
from domain.simulate import simulate
from tests.helpers import FIXTURES, small_scenario

GAME = FIXTURES / "games/morze/river_plate-annihilation.wake.json"
DASK = Path(sys.executable).parent / "dask"


def _analysis(runner: object) -> list[object]:
    rec = read_record_file(GAME)
    spec = spec_for(rec.header, "activation", 4)
    points = plan(rec.header, rec.events, "activation")[:6]
    return list(analyse(rec.header, rec.events, spec, points, runner, batch=2))  # type: ignore[arg-type]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """A scheduler and two single-threaded workers, each its own process, on 127.0.0.1."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen(
        [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        **quiet,  # type: ignore[call-overload]
    )
    workers = [
        subprocess.Popen(
            [
                str(DASK),
                "worker",
                address,
                "--nthreads",
                "1",
                "--no-dashboard",
                "--host",
                "127.0.0.1",
                "--no-nanny",
            ],
            **quiet,  # type: ignore[call-overload]
        )
        for _ in range(2)
    ]
    try:
        deadline = time.monotonic() + 60
        while True:  # wait until both workers have joined
            try:
                probe = DaskRunner(address, timeout=5)
                joined = probe.workers
                probe.close()
                if joined >= 2:
                    break
            except Exception:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the Dask scheduler and workers did not start")
            time.sleep(0.5)
        yield address, workers
    finally:
        for proc in [*workers, scheduler]:
            if proc.poll() is None:
                proc.terminate()
        for proc in [*workers, scheduler]:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


def test_one_process_local_cluster_and_scheduler_agree(
    cluster: tuple[str, list[subprocess.Popen[bytes]]],
) -> None:
    """Bit for bit the same estimates and bot games from this process, a local cluster of two
    worker processes and a scheduler with two workers (issue 24)."""
    here = _analysis(InProcess())
    local = DaskRunner(None, workers=2)
    try:
        assert _analysis(local) == here
    finally:
        local.close()
    remote = DaskRunner(cluster[0])
    try:
        assert _analysis(remote) == here
    finally:
        remote.close()
    scenario = small_scenario(turn_limit=4)
    serial = simulate("morze", scenario, 4, options={}, workers=1)
    assert simulate("morze", scenario, 4, options={}, scheduler=cluster[0]) == serial


def test_a_worker_killed_mid_run_changes_nothing(
    cluster: tuple[str, list[subprocess.Popen[bytes]]],
) -> None:
    """Dask re-runs a lost worker's tasks elsewhere: the same estimates as in one process."""
    here = _analysis(InProcess())
    rec = read_record_file(GAME)
    spec = spec_for(rec.header, "activation", 4)
    points = plan(rec.header, rec.events, "activation")[:6]
    remote = DaskRunner(cluster[0])
    victim = cluster[1][0]
    arrived = 0

    def kill_after_first(progress: object) -> None:
        nonlocal arrived
        if not getattr(progress, "rollouts_done", 0):
            return  # not before the first batch has come back
        arrived += 1
        if arrived == 1 and victim.poll() is None:
            os.kill(victim.pid, signal.SIGKILL)

    try:
        found = analyse(
            rec.header, rec.events, spec, points, remote, batch=1, progress=kill_after_first
        )
    finally:
        remote.close()
    assert victim.poll() is not None
    assert found == here


def test_a_worker_with_other_rulesets_is_refused() -> None:
    """On connect every worker's Wake and ruleset versions are compared: a worker without a
    ruleset this process has is refused with a clear message."""
    register("morze_local_only", lambda: get_ruleset("morze"))
    try:
        with pytest.raises(ClusterMismatch, match="morze_local_only missing"):
            DaskRunner(None, workers=1)
    finally:
        unregister("morze_local_only")
