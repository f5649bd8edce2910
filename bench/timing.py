"""Timing one build in a fresh process, and the median of several (``bench.run``)."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.corpus import ROOT

MEASURE = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
seconds = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = usage.ru_utime + usage.ru_stime
peak = usage.ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_mb": peak, "status": done.returncode}))
"""


def timed_build(
    site: Path, *extra: str, python: str = sys.executable, checkout: Path = ROOT
) -> dict[str, float]:
    """Run one build in a fresh process; wall seconds, CPU seconds (all its processes, the
    workers' too) and peak RSS of the largest process.
    ``python -m site_builder`` runs in ``checkout``, whose package it then imports first
    (``bench.compare`` times another checkout with its own venv's ``python``)."""
    command = [
        sys.executable,
        "-c",
        MEASURE,
        python,
        "-m",
        "site_builder",
        "-C",
        str(site),
        "build",
        "--quiet",
        *extra,
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=checkout)
    result: dict[str, float] = json.loads(done.stdout)
    if result["status"] != 0:
        raise SystemExit(f"build failed in {site}")
    return result


def median_of(runs: int, prepare: Callable[[], object], site: Path) -> dict[str, Any]:
    samples = []
    for _ in range(runs):
        prepare()
        samples.append(timed_build(site))
    return median_of_samples(samples)


def median_of_samples(samples: list[dict[str, float]]) -> dict[str, Any]:
    return {
        "seconds": statistics.median(s["seconds"] for s in samples),
        "peak_mb": max(s["peak_mb"] for s in samples),
        "samples": [s["seconds"] for s in samples],
    }
