"""Timing shared by the benchmark scripts (run as scripts: ``python benchmarks/NAME.py``)."""

import time
from collections.abc import Callable


def best_rates(run: Callable[[], object], count: int, repeat: int) -> tuple[float, float]:
    """Items a second over the fastest of ``repeat`` runs of ``run()``, which handles ``count`` items:
    by CPU time (one core, whatever else the machine runs) and by the wall clock."""
    cpu = wall = float("inf")
    for _ in range(repeat):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        run()
        cpu = min(cpu, time.process_time() - start_cpu)
        wall = min(wall, time.perf_counter() - start_wall)
    return count / cpu, count / wall
