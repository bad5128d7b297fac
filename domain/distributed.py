"""Where many small tasks run: this process, or a Dask cluster (issue 24 item 3).

``Runner.run(fn, shared, items)`` calls ``fn(shared, item)`` for every item and yields the
results as they arrive (in any order: callers aggregate by what each result names, so the totals
never depend on the order). ``shared`` (a game, a scenario) is sent once to each worker.

* :class:`InProcess`: one after the other here (tests, ``--workers 1``);
* :class:`DaskRunner`: a local cluster of ``workers`` processes by default, or the scheduler at
  ``tcp://HOST:8786``. Dask re-runs the tasks of a worker that is lost. On connecting, every
  worker's Wake and ruleset versions are compared with this process's, and a mismatch is refused
  (a worker with other rules would give other numbers): see docs/distributed.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Protocol, TypeVar

from domain.errors import WakeError

T = TypeVar("T")
R = TypeVar("R")


class ClusterMismatch(WakeError):
    """A Dask worker runs other versions of Wake or its rulesets than this process."""

    code = "cluster_mismatch"


class ClusterUnavailable(WakeError):
    """The scheduler cannot be reached."""

    code = "cluster_unavailable"


def wake_version() -> str:
    try:
        return version("wake")
    except PackageNotFoundError:  # running from a source tree without metadata
        return "unknown"


def versions() -> dict[str, str]:
    """Wake's version and every installed ruleset's (what a worker must match)."""
    from domain.ruleset import get_ruleset, known_rulesets

    found = {"wake": wake_version()}
    for ruleset_id in known_rulesets():
        found[ruleset_id] = get_ruleset(ruleset_id).meta.version
    return found


class Runner(Protocol):
    workers: int

    def run(self, fn: Callable[[Any, T], R], shared: Any, items: Iterable[T]) -> Iterator[R]: ...

    def close(self) -> None: ...


class InProcess:
    """Every task in this process, in order."""

    workers = 1

    def run(self, fn: Callable[[Any, T], R], shared: Any, items: Iterable[T]) -> Iterator[R]:
        for item in items:
            yield fn(shared, item)

    def close(self) -> None:
        pass


class DaskRunner:
    """Tasks on a Dask cluster: ``address`` (``tcp://HOST:8786``) or a local cluster of
    ``workers`` processes, one thread each.

    Raises:
        ClusterUnavailable: the scheduler does not answer within ``timeout`` seconds.
        ClusterMismatch: a worker's versions differ from this process's.
    """

    def __init__(self, address: str | None = None, workers: int = 2, timeout: float = 30) -> None:
        import dask
        from distributed import Client, LocalCluster  # untyped library

        self._cluster = None
        # tasks are small and pure: no work stealing surprises, no spilling of tiny results
        dask.config.set({"distributed.worker.daemon": False})
        try:
            if address is None:
                self._cluster = LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=40,
                )
                self.client = Client(self._cluster, timeout=timeout)  # type: ignore[no-untyped-call]
            else:
                self.client = Client(address, timeout=timeout)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError) as exc:
            self.close()
            raise ClusterUnavailable(
                f"cannot reach the Dask scheduler at {address}: {exc}"
            ) from None
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        self._check_versions()

    def _check_versions(self) -> None:
        mine = versions()
        for worker, theirs in self.client.run(versions).items():
            if theirs != mine:
                diff = ", ".join(
                    f"{key} {theirs.get(key, 'missing')} (here {mine.get(key, 'missing')})"
                    for key in sorted(set(mine) | set(theirs))
                    if theirs.get(key) != mine.get(key)
                )
                self.close()
                raise ClusterMismatch(
                    f"Dask worker {worker} runs other versions: {diff}; install the same Wake "
                    "and rulesets on every worker"
                )

    def run(self, fn: Callable[[Any, T], R], shared: Any, items: Iterable[T]) -> Iterator[R]:
        from distributed import as_completed

        handle = self.client.scatter(shared, broadcast=True, hash=False)  # type: ignore[no-untyped-call]
        futures = [self.client.submit(fn, handle, item, pure=False) for item in items]
        try:
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                yield future.result()
                future.release()
        finally:
            for future in futures:
                future.cancel()  # type: ignore[no-untyped-call]

    def close(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


def runner(scheduler: str | None, workers: int) -> Runner:
    """``--scheduler`` given: that cluster; ``workers`` 1: this process; otherwise a local
    Dask cluster of ``workers`` processes (0: one per CPU)."""
    if scheduler is None and workers == 1:
        return InProcess()
    if workers <= 0:
        import os

        workers = os.cpu_count() or 1
    return DaskRunner(scheduler, workers)


def chunks(items: Sequence[T], size: int) -> list[list[T]]:
    return [list(items[i : i + size]) for i in range(0, len(items), size)]
