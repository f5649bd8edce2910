"""Lighthouse 12.2.3 (npm, ``node_modules/``) on freshly built sites, served on loopback.

This site's post and index, mobile and desktop, must reach the score targets, and the
figures site's post must not shift its layout as its images arrive. The audits run in
one Node process on one Chromium (``tests/lighthouse.mjs``), first in the background from
the session's start, beside both xdist workers' tests (``tests/audits.py``; this module
runs last and reads their reports). Lighthouse simulates a slow phone from the CPU time
it observes, so other work at the same time can only make a page look slower, never
faster: an audit that reaches its target there has reached it. One that falls short is
run again alone, holding ``conftest.cpu_lock`` while the other worker waits. If it is
still short, the host is slower than the 4x slowdown assumes (Lighthouse's docs: the
default suits a high-end desktop, and a slower one should calibrate), so a last run uses
the slowdown Lighthouse's calculator gives for the ``benchmarkIndex`` measured in that
same run (at most 4x), three times, and the median run decides (Lighthouse's
docs/throttling.md and docs/variability.md).
(Before, every audit ran alone, and the other worker idled through about 21 s of each
``make test``; then the first pass ran in this module, and its worker idled through it.)
A busy renderer could paint late enough that an image arrives first and a shift goes
unseen; ``test_figures_site.test_images_do_not_shift_the_layout`` rules that out by
holding every image back 400 ms.
Scores go to ``test-artifacts/lighthouse-scores.txt``.
"""

from __future__ import annotations

import fcntl
from typing import Any

import pytest

from tests import audits as first_pass
from tests.audits import FIGURES, SCHOLAR
from tests.browser import ARTIFACTS, LIGHTHOUSE, require_chromium, run_lighthouse
from tests.conftest import Sites, cpu_lock

pytestmark = pytest.mark.browser

TARGETS = {"performance": 1.0, "accessibility": 1.0, "best-practices": 1.0, "seo": 1.0}


def failing_audits(report: dict[str, Any], category: str) -> list[str]:
    audits = report["audits"]
    out = []
    for ref in report["categories"][category]["auditRefs"]:
        audit = audits[ref["id"]]
        if ref["weight"] and audit["score"] is not None and audit["score"] < 1:
            out.append(f"{audit['id']} ({audit['score']}): {audit.get('displayValue', '')}")
    return out


def _performance(report: dict[str, Any]) -> float:
    return float(report["categories"]["performance"]["score"] or 0)


def _on_target(key: str, report: dict[str, Any]) -> bool:
    """Whether ``report`` passes its test: every score on target, or no layout shift."""
    if key == FIGURES:
        return bool(report["audits"]["cumulative-layout-shift"]["numericValue"] == 0)
    return all(report["categories"][cat]["score"] >= target for cat, target in TARGETS.items())


@pytest.fixture(scope="module")
def lighthouse(sites: Sites, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The four reports (post and index, mobile and desktop), the page's, the researcher's,
    the notebook's and the figures post's, run once per session.

    ``make test`` starts the first pass when the session starts (``tests/audits.py``) and
    runs this module last, so the audits wait beside the other tests, not in a worker.
    Alone (``pytest tests/test_lighthouse.py -k ...``), the first pass runs here.
    The sites are built for the address the audits load, so the canonical URL, robots.txt
    and sitemap describe this very server (not the production domain)."""
    require_chromium()
    if not LIGHTHOUSE.exists():
        pytest.skip("Lighthouse is not installed: run `npm ci`")
    tmp = tmp_path_factory.mktemp("lighthouse")
    folder = first_pass.background()
    if folder is not None:
        jobs, reports, seconds = first_pass.reports(folder, timeout=900)
        first = f"first pass in the background, {seconds:.0f} s with the sites' builds"
    else:
        jobs = first_pass.audit_jobs(sites.served)
        reports = run_lighthouse(jobs, tmp / "shared")
        first = "first pass in this test"
    runs = dict.fromkeys(jobs, "beside other tests")
    short = {key: job for key, job in jobs.items() if not _on_target(key, reports[key])}
    if short:
        with cpu_lock(fcntl.LOCK_EX):
            reports.update(run_lighthouse(short, tmp / "alone"))
            runs.update(dict.fromkeys(short, "alone"))
            short = {key: job for key, job in short.items() if not _on_target(key, reports[key])}
            # Still short alone: this host is slower than the desktop Lighthouse's 4x assumes
            # (or busy with other work than this suite's). Lighthouse's own remedies decide:
            # the slowdown its calculator gives for the benchmark each run measured
            # (tests/lighthouse.mjs), and the median of several runs (docs/variability.md).
            calibrated = {
                key: job._replace(calibrate=True)
                for key, job in short.items()
                if job.form == "mobile"
            }
            if calibrated:
                tries = [run_lighthouse(calibrated, tmp / f"calibrated-{n}") for n in range(3)]
                for key in calibrated:
                    reports[key] = sorted((t[key] for t in tries), key=_performance)[1]
                    cpu = reports[key]["configSettings"]["throttling"]["cpuSlowdownMultiplier"]
                    runs[key] = f"alone, median of 3 calibrated (this one at {cpu:.1f}x)"
    lines = [f"Lighthouse {reports[FIGURES]['lighthouseVersion']} ({first})"]
    for key in (key for key in jobs if key != FIGURES):
        report = reports[key]
        scores = "  ".join(f"{cat} {report['categories'][cat]['score']:.2f}" for cat in TARGETS)
        timings = report["audits"]
        lines.append(
            f"{key:<15} {scores}  (FCP {timings['first-contentful-paint']['displayValue']}, "
            f"LCP {timings['largest-contentful-paint']['displayValue']}, "
            f"CLS {timings['cumulative-layout-shift']['displayValue']}, "
            f"TBT {timings['total-blocking-time']['displayValue']}; run {runs[key]})"
        )
    text = "\n".join(lines) + "\n"
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "lighthouse-scores.txt").write_text(text, encoding="utf-8")
    print("\n" + text)
    return reports


@pytest.mark.parametrize(
    "key",
    [f"{page} {form}" for page in ("post", "index") for form in ("mobile", "desktop")]
    + [f"{page} mobile" for page in ["about", *SCHOLAR, "notebook"]],
)
def test_lighthouse_scores(lighthouse: dict[str, Any], key: str) -> None:
    report = lighthouse[key]
    problems = []
    for category, target in TARGETS.items():
        score = report["categories"][category]["score"]
        if score < target:
            problems.append(f"{category} {score} < {target}: {failing_audits(report, category)}")
    assert not problems, f"{key}: " + "; ".join(problems)


def test_figures_layout_shift_is_zero(lighthouse: dict[str, Any]) -> None:
    """Lighthouse's own measurement (mobile, throttled) of the post with its three figures."""
    shift = lighthouse[FIGURES]["audits"]["cumulative-layout-shift"]
    assert shift["numericValue"] == 0, shift.get("details")
