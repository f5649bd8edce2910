"""Before against after: one corpus built by another checkout and by this one, interleaved.

This machine's speed drifts over minutes and other jobs share it, so two
benchmarks run one after the other measure the drift. Here every round builds
both sides back to back, the order alternating, and each round's own ratio is
kept: a cold build (no ``public/``, no ``.cache/``), a no-op rebuild and a
one-post edit. Each side's site has that checkout's theme (templates, static
files), as each version ships, and the same Markdown posts (no pages or
notebooks, which a checkout from before them would not read).

    python -m bench.compare OTHER_CHECKOUT [--posts 1000] [--runs 5] [--warm] [--jobs N]

``--warm`` leaves the cold builds out (the first round's settling build is
one), for many rounds of the sub-second scenarios.

OTHER_CHECKOUT needs its own venv (``make build`` there).
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.corpus import ROOT, make_corpus
from bench.run import timed_build

SCENARIOS = ("cold build", "no-op rebuild", "one-post edit")


class Side:
    """One checkout: its Python, its copy of the corpus and the post the edits touch."""

    def __init__(
        self, name: str, checkout: Path, python: str, site: Path, extra: tuple[str, ...]
    ) -> None:
        self.name, self.checkout, self.python, self.site = name, checkout, python, site
        self.extra = extra  # the build's options, e.g. ("--jobs", "1")
        self.victim = site / "content" / "posts" / "post-00007.md"
        self.original = self.victim.read_text(encoding="utf-8")
        self.seconds: dict[str, list[float]] = {scenario: [] for scenario in SCENARIOS}
        self.cpu: dict[str, list[float]] = {scenario: [] for scenario in SCENARIOS}

    def build(self) -> dict[str, float]:
        return timed_build(self.site, *self.extra, python=self.python, checkout=self.checkout)

    def run(self, scenario: str, number: int) -> None:
        """Prepare ``scenario`` and time one build of it."""
        if scenario == "cold build":
            shutil.rmtree(self.site / "public", ignore_errors=True)
            shutil.rmtree(self.site / ".cache", ignore_errors=True)
        elif scenario == "no-op rebuild":
            self.build()  # settle after the cold build, as bench.run does; not timed
        else:
            edit = self.original + f"\nAn edit, number {number}.\n"
            self.victim.write_text(edit, encoding="utf-8")
        timed = self.build()
        self.seconds[scenario].append(timed["seconds"])
        self.cpu[scenario].append(timed["cpu"])


def imported_from(python: str, checkout: Path) -> str:
    """Where ``python`` run in ``checkout`` imports site_builder from: the check that each
    side times its own code."""
    code = "import site_builder; print(site_builder.__file__)"
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, cwd=checkout)
    return done.stdout.strip() or done.stderr.strip()


def spread(values: list[float]) -> str:
    return f"{min(values):6.2f} {statistics.median(values):6.2f} {max(values):6.2f}"


def report(old: Side, new: Side, measure: str, scenarios: tuple[str, ...]) -> str:
    """One line a scenario: each side's min/median/max of ``measure`` (wall or CPU seconds)."""
    lines = [
        f"{'scenario':<15} {'old min/med/max s':>20} {'new min/med/max s':>20} "
        f"{'new/old':>8} {'paired':>7}",
        "-" * 74,
    ]
    for scenario in scenarios:
        a, b = getattr(old, measure)[scenario], getattr(new, measure)[scenario]
        paired = statistics.median(y / x for x, y in zip(a, b, strict=True))
        ratio = statistics.median(b) / statistics.median(a)
        lines.append(f"{scenario:<15} {spread(a):>20} {spread(b):>20} {ratio:>8.3f} {paired:>7.3f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("other", type=Path, help="the checkout from before (with .venv/)")
    parser.add_argument("--posts", type=int, default=int(os.environ.get("BENCH_POSTS", 1000)))
    parser.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS", 5)))
    parser.add_argument(
        "--warm", action="store_true", help="no-op and edit only: one untimed cold build a side"
    )
    parser.add_argument("--jobs", type=int, help="the builds' --jobs (default: cores)")
    args = parser.parse_args()
    extra = ("--jobs", str(args.jobs)) if args.jobs else ()
    scenarios = SCENARIOS[1:] if args.warm else SCENARIOS
    other = args.other.resolve()
    python = str(other / ".venv" / "bin" / "python")
    for checkout in (other, ROOT):
        compileall.compile_dir(checkout / "site_builder", quiet=1)
    print(f"old: {imported_from(python, other)}")
    print(f"new: {imported_from(sys.executable, ROOT)}")
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="site-compare-") as tmp:
        old = Side(
            "old", other, python, make_corpus(Path(tmp) / "old", args.posts, theme=other), extra
        )
        new = Side("new", ROOT, sys.executable, make_corpus(Path(tmp) / "new", args.posts), extra)
        sides = [old, new]
        for number in range(args.runs):
            order = sides if number % 2 == 0 else sides[::-1]
            for scenario in scenarios:
                for side in order:
                    side.run(scenario, number)
            timed = ", ".join(f"{s.name} {s.seconds[scenarios[0]][-1]:.2f}" for s in sides)
            load_now = os.getloadavg()[0]
            print(f"round {number + 1}: {timed} s {scenarios[0]}, load {load_now:.2f}", flush=True)
    after = os.getloadavg()
    print(
        f"\n{args.posts} posts, {args.runs} rounds (order alternating), {os.cpu_count()} cores; "
        f"load average {load[0]:.2f} at the start, {after[0]:.2f} at the end\n"
    )
    print("wall seconds\n" + report(old, new, "seconds", scenarios))
    cpu = report(old, new, "cpu", scenarios)
    print(f"\nCPU seconds, all processes (less sensitive to other load)\n{cpu}")
    print("\nnew/old: ratio of the medians; paired: median of each round's own new/old")


if __name__ == "__main__":
    main()
