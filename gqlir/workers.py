"""Batch work on every core, in input order, losing nothing when a worker dies.

``gqlir validate|translate --input … --jobs N`` sends records to N worker processes in chunks
and writes the results in the order the records came. Parsing and translating are pure Python,
so processes (not threads) are what uses a second core. A worker that dies (killed, out of
memory, a crash in a C extension) breaks the pool: the chunks it had are run again one record
at a time in a fresh pool, and the one record that kills a worker again gets ``on_crash``'s
result; every other record is processed as usual.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

__all__ = ["ordered_map"]

#: The function the workers apply, handed to each worker's initializer.
_FUNCTION: Callable[[Any], Any] | None = None


def _install(function: Callable[[Any], Any]) -> None:
    global _FUNCTION
    _FUNCTION = function


def _apply_chunk(items: list[Any]) -> list[Any]:
    assert _FUNCTION is not None
    return [_FUNCTION(item) for item in items]


def _context() -> Any:
    """A fork server that has imported the compiler once forks each worker from that state
    (quick to start, and no fork of this process, whose pool thread makes fork unsafe)."""
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" not in methods:
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["gqlir.api", "gqlir.cli"])
    return context


class _Pool:
    def __init__(self, function: Callable[[Any], Any], jobs: int) -> None:
        self.function = function
        self.jobs = jobs
        self.executor = self._start()

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.jobs, mp_context=_context(), initializer=_install, initargs=(self.function,)
        )

    def submit(self, items: list[Any]) -> Future[list[Any]]:
        """The chunk's future; a pool broken before the submission gives a future that fails
        as a broken pool's do."""
        try:
            return self.executor.submit(_apply_chunk, items)
        except BrokenProcessPool as exc:
            failed: Future[list[Any]] = Future()
            failed.set_exception(exc)
            return failed

    def restart(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.executor = self._start()

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)


def ordered_map(
    function: Callable[[Any], Any],
    items: Iterable[Any],
    *,
    jobs: int,
    on_crash: Callable[[Any], Any],
    chunk: int = 64,
) -> Iterator[Any]:
    """``function(item)`` for each item, in order, computed by ``jobs`` worker processes.
    ``function`` must be a module-level function or a ``functools.partial`` of one."""
    pool = _Pool(function, max(1, jobs))
    pending: deque[tuple[list[Any], Future[list[Any]]]] = deque()
    window = 2 * pool.jobs
    source = iter(items)
    try:
        while True:
            while len(pending) < window:
                batch = [item for _, item in zip(range(chunk), source)]
                if not batch:
                    break
                pending.append((batch, pool.submit(batch)))
            if not pending:
                return
            batch, future = pending.popleft()
            try:
                results = future.result()
            except BrokenProcessPool:
                redo = [batch] + [b for b, _ in pending]
                pending.clear()
                pool.restart()
                for b in redo:
                    yield from _one_by_one(pool, b, on_crash)
                continue
            yield from results
    finally:
        pool.close()


def _one_by_one(pool: _Pool, batch: list[Any], on_crash: Callable[[Any], Any]) -> Iterator[Any]:
    """Each item in a task of its own: the item that breaks the pool is the one that crashes."""
    for item in batch:
        try:
            (result,) = pool.submit([item]).result()
        except BrokenProcessPool:
            pool.restart()
            result = on_crash(item)
        yield result


def default_jobs() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
