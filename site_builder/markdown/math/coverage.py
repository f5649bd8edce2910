"""How many real formulas convert: this engine against KaTeX's recorded verdicts.

The corpus (``tests/data/math_corpus*.jsonl``, see its README) holds formulas from
public ML posts with KaTeX's verdict on each. Each formula is converted on its
own, as the corpus measured KaTeX: once bare, once after its post's preamble of
macro definitions. ``tests/test_math_corpus.py`` holds the engine to at least
KaTeX's rate; ``python -m site_builder.markdown.math.coverage FILE`` prints the
rates and the commonest failures.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.markdown.math.engine import Macros, MathError
from site_builder.markdown.math.formula import render_formula


@dataclass
class Tally:
    total: int = 0
    ours: int = 0
    katex: int = 0

    def rate(self, which: str) -> float:
        return getattr(self, which) / self.total if self.total else 1.0


@dataclass
class Coverage:
    """Acceptance rates, with and without preambles, overall and for display formulas."""

    full: Tally = field(default_factory=Tally)
    bare: Tally = field(default_factory=Tally)
    display: Tally = field(default_factory=Tally)
    failures: Counter[str] = field(default_factory=Counter)


def converts(tex: str, display: bool, macros: Macros = ()) -> str | None:
    """None if the formula converts, else the error message."""
    try:
        render_formula(tex, display, macros)
    except MathError as exc:
        return exc.message
    return None


def preamble_macros(preamble: str) -> Macros:
    """The macros a post's definition formulas leave in force (errors skipped, as for KaTeX)."""
    macros: Macros = ()
    for line in preamble.split("\n"):
        try:
            _, macros = render_formula(line, True, macros)
        except MathError:
            continue
    return macros


def measure(path: Path) -> Coverage:
    result = Coverage()
    preambles: dict[str, Macros] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        tex, display = item["tex"], item["display"]
        bare_error = converts(tex, display)
        full_error = bare_error
        if item["preamble"]:
            if item["preamble"] not in preambles:
                preambles[item["preamble"]] = preamble_macros(item["preamble"])
            full_error = converts(tex, display, preambles[item["preamble"]])
        for tally, error, katex in (
            (result.full, full_error, item["katex"]),
            (result.bare, bare_error, item["katex_bare"]),
        ):
            tally.total += 1
            tally.ours += error is None
            tally.katex += katex
        if display:
            result.display.total += 1
            result.display.ours += full_error is None
            result.display.katex += item["katex"]
        if full_error is not None:
            result.failures[full_error.split(" (did you mean")[0]] += 1
    return result


def main(paths: list[str]) -> None:
    for name in paths:
        result = measure(Path(name))
        print(f"{name}: {result.full.total} formulas")
        for label, tally in (
            ("with preambles", result.full),
            ("bare", result.bare),
            ("display only", result.display),
        ):
            print(
                f"  {label:15} ours {tally.rate('ours'):6.1%} ({tally.ours})"
                f"   KaTeX {tally.rate('katex'):6.1%} ({tally.katex})"
            )
        for message, count in result.failures.most_common(25):
            print(f"  {count:5}  {message}")


if __name__ == "__main__":
    main(sys.argv[1:])
