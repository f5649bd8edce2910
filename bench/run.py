"""`make bench`: build a generated corpus and print a table of timings and memory.

Every scenario runs the real CLI in a subprocess (so start-up counts) and is
repeated (5 runs); the table shows min, median and max. Peak memory is the largest process's
maximum RSS (the build or one of its workers). The floor, the same Markdown
through the bare libraries, is measured in the same run and the build is
reported as a ratio to it, because this machine is noisy (±25%).

The corpus has an About page and the home text too. A second corpus adds N
notebook posts: its cold builds alternate with the first's, and each pair's
difference over N is a notebook post's cost.

    python -m bench.run [--posts 1000] [--notebooks 100] [--large 5000] [--runs 5]
"""

from __future__ import annotations

import argparse
import compileall
import http.client
import json
import math
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import floor, hugo
from bench.corpus import ROOT, make_corpus, post
from bench.notebook import edited
from bench.search import search_cold, search_edit
from bench.timing import median_of, timed_build


def scenarios(
    site: Path, files: list[Path], runs: int, floor_2: list[float]
) -> dict[str, dict[str, Any]]:
    """Time each scenario; right before each cold build the 2-process floor is measured
    again (into ``floor_2``), so each cold build has a floor from the same minute."""
    posts_dir = site / "content" / "posts"
    victim = posts_dir / "post-00007.md"
    original = victim.read_text(encoding="utf-8")
    template = site / "templates" / "post.html"
    template_text = template.read_text(encoding="utf-8")
    counter = iter(range(10**6))

    def cold() -> None:
        floor_2.append(floor.run(files, 2))
        shutil.rmtree(site / "public", ignore_errors=True)
        shutil.rmtree(site / ".cache", ignore_errors=True)

    def edit() -> None:
        victim.write_text(original + f"\nAn edit, number {next(counter)}.\n", encoding="utf-8")

    def add() -> None:
        for stale in posts_dir.glob("added-*.md"):
            stale.unlink()
        timed_build(site)  # settle back to the unchanged corpus, not timed
        (posts_dir / f"added-{next(counter)}.md").write_text(post(999_999), encoding="utf-8")

    def template_change() -> None:
        template.write_text(template_text + f"{{# change {next(counter)} #}}\n", encoding="utf-8")

    results = {"cold build": median_of(runs, cold, site)}
    timed_build(site)
    results["no-op rebuild"] = median_of(runs, lambda: None, site)
    results["one-post edit"] = median_of(runs, edit, site)
    results["add a post"] = median_of(runs, add, site)
    results["template change"] = median_of(runs, template_change, site)
    template.write_text(template_text, encoding="utf-8")
    results["serve: edit to reload"] = serve_reload(site, victim, original, runs)
    victim.write_text(original, encoding="utf-8")
    for stale in posts_dir.glob("added-*.md"):
        stale.unlink()
    results["edit, search on"] = search_edit(site, runs)
    return results


def serve_reload(site: Path, victim: Path, original: str, runs: int) -> dict[str, float]:
    """Run ``serve``, edit a post, and time until the server tells open pages to reload (the
    ``/__reload`` event stream): the file watcher's debounce, the build and the event."""
    server = subprocess.Popen(
        [sys.executable, "-m", "site_builder", "-C", str(site), "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        address = ""
        for line in server.stdout:
            if line.startswith("Serving "):
                address = line.split()[1].removeprefix("http://").rstrip("/")
                break
        host, port = address.split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        connection.request("GET", "/__reload")
        stream = connection.getresponse()

        def next_build() -> str:
            event = ""
            while True:
                line = stream.readline().decode()
                if line.startswith("event: "):
                    event = line[len("event: ") :].strip()
                elif line.startswith("data: ") and event == "build":
                    return line[len("data: ") :].strip()

        next_build()  # the build the server started with
        samples = []
        for number in range(runs):
            time.sleep(1.0)  # let the watcher settle
            started = time.perf_counter()
            victim.write_text(original + f"\nServed edit {number}.\n", encoding="utf-8")
            data = json.loads(next_build())
            samples.append(time.perf_counter() - started)
            if data.get("error"):
                raise SystemExit(f"serve build failed: {data['error']}")
        connection.close()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    return {"seconds": statistics.median(samples), "peak_mb": float("nan"), "samples": samples}


def notebook_scenarios(
    plain: Path, site: Path, notebooks: int, runs: int
) -> tuple[list[float], dict[str, dict[str, Any]]]:
    """Cold builds of ``plain`` and of ``site`` (the same corpus and ``notebooks`` notebook
    posts) in turn, each pair's difference over N; then the no-op and a one-cell edit of
    ``site``."""
    cold: dict[Path, list[dict[str, float]]] = {plain: [], site: []}
    for _ in range(runs):
        for corpus in (plain, site):
            shutil.rmtree(corpus / "public", ignore_errors=True)
            shutil.rmtree(corpus / ".cache", ignore_errors=True)
            cold[corpus].append(timed_build(corpus))
    costs = [
        (with_["seconds"] - without["seconds"]) / notebooks
        for without, with_ in zip(cold[plain], cold[site], strict=True)
    ]
    results = {
        f"cold, {name}": {
            "seconds": statistics.median(s["seconds"] for s in cold[corpus]),
            "peak_mb": max(s["peak_mb"] for s in cold[corpus]),
        }
        for name, corpus in (("no notebooks", plain), (f"{notebooks} notebooks", site))
    }
    victim = site / "content" / "posts" / "nb-00000.ipynb"
    original = victim.read_text(encoding="utf-8")
    counter = iter(range(10**6))
    timed_build(site)
    results["no-op, notebooks"] = median_of(runs, lambda: None, site)
    results["one-cell edit"] = median_of(
        runs,
        lambda: victim.write_text(edited(original, f"An edit, number {next(counter)}."), "utf-8"),
        site,
    )
    victim.write_text(original, encoding="utf-8")
    return costs, results


def table(n: int, results: dict[str, dict[str, Any]], floor_2: float) -> str:
    """Each scenario's runs as min, median and max (the median decides the ratios)."""
    lines = [
        f"{'scenario':<22} {'min s':>7} {'median s':>9} {'max s':>7} {'ms/post':>8} "
        f"{'peak MB':>8} {'vs floor(2)':>12}",
        "-" * 78,
    ]
    for name, r in results.items():
        peak = "-" if math.isnan(r["peak_mb"]) else f"{r['peak_mb']:.0f}"
        runs = r.get("samples") or [r["seconds"]]
        lines.append(
            f"{name:<22} {min(runs):>7.2f} {r['seconds']:>9.2f} {max(runs):>7.2f} "
            f"{1000 * r['seconds'] / n:>8.2f} {peak:>8} {r['seconds'] / floor_2:>11.2f}x"
        )
    return "\n".join(lines)


def seed_build(runs: int, tmp: Path) -> dict[str, Any]:
    """This checkout's own site (the seed post, its pages and figure) built cold, as
    ``make build`` does once the venv is there: the issue's 0.3 s target."""
    seed = tmp / "seed"
    for name in ("site.yaml", "content", "templates", "static", "widgets", "fonts"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, seed / name)
        elif source.is_file():
            seed.mkdir(exist_ok=True)
            shutil.copy(source, seed / name)

    def cold() -> None:
        shutil.rmtree(seed / "public", ignore_errors=True)
        shutil.rmtree(seed / ".cache", ignore_errors=True)

    return median_of(runs, cold, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--posts", type=int, default=int(os.environ.get("BENCH_POSTS", 1000)))
    parser.add_argument(
        "--notebooks",
        type=int,
        default=int(os.environ.get("BENCH_NOTEBOOKS", 100)),
        help="notebook posts added to a second corpus, for their cost (0 to skip)",
    )
    parser.add_argument(
        "--large",
        type=int,
        default=int(os.environ.get("BENCH_LARGE", 5000)),
        help="corpus size for the memory and linearity check (0 to skip)",
    )
    parser.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS", 5)))
    args = parser.parse_args()

    # pip byte-compiles an installed package; an editable install leaves it to the first
    # run, which never writes it where PYTHONDONTWRITEBYTECODE is set (as on this machine).
    compileall.compile_dir(ROOT / "site_builder", quiet=1)
    with tempfile.TemporaryDirectory(prefix="site-bench-") as tmp:
        site = make_corpus(Path(tmp) / "site", args.posts, pages=True)
        files = sorted((site / "content" / "posts").glob("*.md"))
        floor_1 = statistics.median(floor.run(files, 1) for _ in range(args.runs))
        floor_samples: list[float] = []
        results = scenarios(site, files, args.runs, floor_samples)
        searched, search_ratios = search_cold(site, args.runs)
        results.update(searched)
        seed = seed_build(args.runs, Path(tmp))
        floor_2 = statistics.median(floor_samples)
        print(f"corpus: {args.posts} posts, {os.cpu_count()} cores, {args.runs} runs each")
        print(
            f"floor: 1 process {floor_1:.2f} s, 2 processes {floor_2:.2f} s "
            f"(median of {len(floor_samples)}, interleaved with the cold builds; "
            "markdown-it + math-core + Pygments + PyYAML, no templates, no writes)\n"
        )
        print(table(args.posts, results, floor_2))
        cold = results["cold build"]
        # Each cold build over the floor measured just before it: this machine's speed
        # drifts over minutes, and a ratio of runs far apart measures the drift.
        paired = [c / f for c, f in zip(cold["samples"], floor_samples, strict=True)]
        print(
            f"\ncold build / 2-process floor: {statistics.median(paired):.2f} (target <= 1.15; "
            f"median of the runs' own ratios {', '.join(f'{r:.2f}' for r in paired)})"
        )
        if hugo.available():
            hugo_seconds = hugo.run(site / "content" / "posts", args.runs)
            print(
                f"hugo, cold (same posts, math left as text): {hugo_seconds:.2f} s; "
                f"cold build / hugo: {cold['seconds'] / hugo_seconds:.2f} (target <= 0.7)"
            )
        if search_ratios:
            print(
                f"cold build with search / (hugo, then pagefind's CLI over its output): "
                f"{statistics.median(search_ratios):.2f} (target <= 0.8; the runs' own ratios "
                f"{', '.join(f'{r:.2f}' for r in search_ratios)})"
            )
        searched_edit = results["edit, search on"]["seconds"]
        print(f"one-post edit, search on: {searched_edit:.2f} s (target <= 0.15 s)")
        for name, target in (("no-op rebuild", 0.05), ("add a post", 0.3)):
            print(f"{name}: {results[name]['seconds']:.2f} s (target <= {target} s)")
        print(f"one-post edit, search off: {results['one-post edit']['seconds']:.2f} s")
        reload = results["serve: edit to reload"]["seconds"]
        print(f"serve, edit to reload event: {reload:.2f} s (target <= 0.5 s)")
        print(
            f"the seed site, cold (make build with the venv there): {seed['seconds']:.2f} s "
            f"(min {min(seed['samples']):.2f}, max {max(seed['samples']):.2f}; target <= 0.3 s)"
        )

        if args.notebooks:
            with_notebooks = make_corpus(
                Path(tmp) / "notebooks", args.posts, args.notebooks, pages=True
            )
            costs, nb_results = notebook_scenarios(site, with_notebooks, args.notebooks, args.runs)
            each = ", ".join(f"{1000 * c:.1f}" for c in costs)
            print(
                f"\n{args.notebooks} notebook posts added, cold: "
                f"{1000 * statistics.median(costs):.1f} ms a notebook post "
                f"(median of the interleaved pairs' differences / N: {each})"
            )
            print(table(args.posts + args.notebooks, nb_results, floor_2))

        if args.large:
            big = make_corpus(Path(tmp) / "large", args.large)
            large = timed_build(big)
            ratio = large["seconds"] / cold["seconds"]
            print(
                f"\n{args.large} posts cold: {large['seconds']:.2f} s, "
                f"peak {large['peak_mb']:.0f} MB (target <= 150 MB); "
                f"{ratio:.2f}x the {args.posts}-post time "
                f"(target <= {1.1 * args.large / args.posts:.1f}x)"
            )
            searched = search_edit(big, args.runs)
            print(
                f"{args.large} posts, one-post edit with search on: {searched['seconds']:.2f} s, "
                f"peak {searched['peak_mb']:.0f} MB"
            )


if __name__ == "__main__":
    main()
