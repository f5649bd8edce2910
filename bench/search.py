"""The search scenarios of ``bench.run``: a one-post edit with search on, and cold builds
with search on beside Hugo followed by Pagefind's CLI (``bench.hugo``)."""

from __future__ import annotations

import math
import shutil
import statistics
import tempfile
from pathlib import Path
from typing import Any

from bench import hugo
from bench.timing import median_of, median_of_samples, timed_build


def search_edit(site: Path, runs: int) -> dict[str, Any]:
    """Turn search on (``search: true``), build once untimed, then time one-post edits: each
    re-indexes the edited post's shard of the Pagefind index (site_builder/search.py)."""
    config = site / "site.yaml"
    text = config.read_text(encoding="utf-8")
    victim = site / "content" / "posts" / "post-00007.md"
    original = victim.read_text(encoding="utf-8")
    counter = iter(range(10**6))
    config.write_text(text + "search: true\n", encoding="utf-8")
    try:
        timed_build(site)
        return median_of(
            runs,
            lambda: victim.write_text(
                original + f"\nA searched edit, number {next(counter)}.\n", encoding="utf-8"
            ),
            site,
        )
    finally:
        config.write_text(text, encoding="utf-8")
        victim.write_text(original, encoding="utf-8")


def search_cold(site: Path, runs: int) -> tuple[dict[str, dict[str, Any]], list[float]]:
    """Cold builds with search on (``search: true``), each beside a cold Hugo build and then
    Pagefind's CLI over its output (``bench.hugo``, when installed), the pair's order
    alternating; also each pair's ratio (this machine drifts over minutes)."""
    config = site / "site.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text + "search: true\n", encoding="utf-8")
    ours: list[dict[str, float]] = []
    theirs: list[float] = []
    try:
        with tempfile.TemporaryDirectory(prefix="hugo-bench-") as tmp:
            peer = hugo.make_site(site / "content" / "posts", Path(tmp) / "site")
            for number in range(runs):
                if hugo.available() and number % 2:
                    theirs.append(hugo.timed(peer, Path(tmp) / f"run-{number}", with_search=True))
                shutil.rmtree(site / "public", ignore_errors=True)
                shutil.rmtree(site / ".cache", ignore_errors=True)
                ours.append(timed_build(site))
                if hugo.available() and not number % 2:
                    theirs.append(hugo.timed(peer, Path(tmp) / f"run-{number}", with_search=True))
    finally:
        config.write_text(text, encoding="utf-8")
    results = {"cold, search on": median_of_samples(ours)}
    if theirs:
        results["hugo + pagefind"] = {"seconds": statistics.median(theirs), "peak_mb": math.nan}
    return results, [o["seconds"] / t for o, t in zip(ours, theirs, strict=False)]
